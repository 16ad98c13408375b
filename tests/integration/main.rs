//! Integration tests: the real `hookrun` binary against `fixtures/`, in a
//! temporary HOME and project (one test binary, one file per area).

mod support;

mod claude_code;
mod fire;
mod funnel;
mod protocol;
mod security;
