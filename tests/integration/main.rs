//! Integration tests: the real `hookrun` binary against `fixtures/`, in a
//! temporary HOME and project (one test binary, one file per area).

#[macro_use]
mod platform;
mod firetest;
mod support;

mod agent;
mod claude_code;
mod claude_release;
mod cookbook;
mod deny_rules;
mod diagnostics;
mod docs;
mod effects;
mod escaping;
mod exit_codes;
mod extending;
mod fire;
mod funnel;
mod generated;
mod hardening;
mod hook_stdin;
mod hosts;
mod http;
mod input_stage;
// Unix behaviour: file modes of the installed files.
platform::unix_only! {
    mod install;
}
mod limits;
mod mcp;
mod new_user;
mod packaging;
mod pipeline;
// Unix behaviour: planted FIFOs, modes and descriptors.
platform::unix_only! {
    mod planted;
}
mod powershell;
mod prompt;
mod protocol;
mod replay;
mod seams;
mod security;
mod selfguard;
// Unix behaviour: bash and dash as oracles.
platform::unix_only! {
    mod shell_differential;
}
mod shell_rules;
mod state;
// Unix behaviour: process groups, signals and `sh` hooks.
platform::unix_only! {
    mod supervision;
}
mod traps;
