//! Integration tests: the real `hookrun` binary against `fixtures/`.

mod support;
