//! Integration tests: the real `hookrun` binary against `fixtures/`, in a
//! temporary HOME and project (one test binary, one file per area).

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
mod install;
mod limits;
mod mcp;
mod new_user;
mod packaging;
mod pipeline;
mod planted;
mod platform;
mod powershell;
mod prompt;
mod protocol;
mod replay;
mod seams;
mod security;
mod selfguard;
mod shell_differential;
mod shell_rules;
mod state;
mod supervision;
mod traps;
