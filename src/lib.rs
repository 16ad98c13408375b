//! hookrun: a hook runner for AI coding agents.
//!
//! Data flows one way, one module per stage:
//!
//! - [`event`]: the input event (raw JSON kept verbatim) and [`catalog`], the
//!   event table;
//! - [`settings`]: discovery, both hook shapes, precise problems;
//! - [`select`]: the matcher funnel (matcher, `if` rule engine, dedup);
//! - [`exec`]: process supervision (the only module touching processes);
//!   [`http`]: http hooks (the only module touching the network, every
//!   connection through its SSRF guard);
//! - [`verdict`]: one hook's outcome in the protocol;
//! - [`aggregate`]: many verdicts → one decision;
//! - [`output`]: the decision encoded per event;
//! - [`fire`]: the pipeline tying them together; [`commands`]: the CLI verbs;
//! - [`diagnose`]: `doctor`'s checks over loaded settings;
//! - [`generate`]: completions, man pages, the settings schema and the
//!   protocol tables, rendered from the code (`just gen`).

pub mod aggregate;
pub mod asynchook;
pub mod auditlog;
pub mod catalog;
pub mod cli;
pub mod commands;
pub mod diagnose;
pub mod event;
pub mod exec;
pub mod exit;
pub mod fire;
pub mod generate;
pub mod hookenv;
pub mod http;
pub mod output;
pub mod permissions;
pub mod report;
pub mod select;
pub mod settings;
pub mod state;
pub mod verdict;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;

use cli::{Cli, Command};

/// Parses the command line, runs the command, maps the result to an exit
/// code. The only place that writes the final stdout/stderr.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    init_tracing(cli.verbose);
    let printed = match &cli.command {
        Command::Fire(args) => commands::common::on_big_stack(|| commands::fire::run(args)),
        Command::Trust(args) => commands::trust::run(args, true),
        Command::Untrust(args) => commands::trust::run(args, false),
        Command::Stats(args) => commands::stats::run(args),
        Command::AsyncRun { job } => {
            return match asynchook::run_job(job) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            };
        }
        Command::Doctor(args) => commands::doctor::run(args),
        Command::Explain(args) => commands::common::on_big_stack(|| commands::explain::run(args)),
        Command::List(args) => commands::list::run(args),
        Command::Test(args) => commands::common::on_big_stack(|| commands::test::run(args)),
        Command::Completions(args) => {
            commands::Printed::stdout(generate::completions::render(args.shell), 0)
        }
    };
    write_all(&printed.stdout, &printed.stderr);
    printed.exit.into()
}

fn write_all(stdout: &str, stderr: &str) {
    // A host that stopped listening is not hookrun's failure: ignore EPIPE.
    if !stdout.is_empty() {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(stdout.as_bytes()).and_then(|()| out.flush());
    }
    if !stderr.is_empty() {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(stderr.as_bytes()).and_then(|()| err.flush());
    }
}

/// Diagnostics go to stderr only with `-v` or `RUST_LOG` (stderr is the
/// block reason channel otherwise).
fn init_tracing(verbose: u8) {
    let from_env = std::env::var_os("RUST_LOG").is_some_and(|v| !v.is_empty());
    if verbose == 0 && !from_env {
        return;
    }
    let filter = if from_env {
        tracing_subscriber::EnvFilter::from_default_env()
    } else {
        let level = match verbose {
            1 => "info",
            2 => "debug",
            _ => "trace",
        };
        tracing_subscriber::EnvFilter::new(format!("hookrun={level}"))
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
}
