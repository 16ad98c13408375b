//! Integration tests: the real `hookrun` binary against `fixtures/`, in a
//! temporary HOME and project (one test binary, one file per area).

mod support;

mod claude_code;
mod cookbook;
mod diagnostics;
mod fire;
mod funnel;
mod generated;
mod hardening;
mod http;
mod protocol;
mod security;
mod state;
mod supervision;
