//! hookrun: a hook runner for AI coding agents.
//!
//! Data flows one way, one module per stage (docs/design/architecture.md):
//!
//! - [`host`]: the seam to the agent that called — its event decoded into
//!   hookrun's [`event`], the decision encoded in its protocol (Claude Code
//!   first); [`input`], the one decoding stage every command that reads an
//!   event goes through; [`catalog`], the event table every stage reads;
//! - [`settings`]: discovery, both hook shapes, precise problems;
//! - [`select`]: the matcher funnel (matcher, `if` rule engine, dedup);
//! - [`plan`]: the funnel's survivors → planned runs (pure: programs,
//!   the one timeout rule, `once` keys);
//! - [`run`](mod@run): planned runs → what each hook did, through [`exec`] (process
//!   supervision, the only module touching processes), [`http`] (http
//!   hooks, the only module touching the network, every connection through
//!   its SSRF guard), [`prompt`] (prompt hooks: a model asked through
//!   `http`'s client) and [`asynchook`] (detached hooks: start and deliver);
//!   [`urls`]: what a URL hookrun sends to may be, checked at load and
//!   before sending;
//! - [`verdict`]: one hook's outcome in the protocol;
//! - [`decide`]: many verdicts → one decision ([`aggregate`] in load order,
//!   then earlier async output, [`permissions`], `--fail-closed`, the
//!   stop-loop guard);
//! - [`report`] and [`auditlog`]: what one fire did, from the stages' values;
//! - [`stack`]: the big stack deep JSON is handled on, and when it is needed;
//! - [`fire`]: the pipeline tying them together; [`commands`]: the CLI verbs;
//!   [`exit`]: every way hookrun ends, mapped to a number in one place;
//! - [`diagnose`]: `doctor`'s checks over loaded settings; [`binpath`]:
//!   whether the binary a host entry names lasts (not in a runner's cache);
//! - [`replay`]: recorded sessions rebuilt into events and evaluated;
//! - [`generate`]: completions, man pages, the settings schema and the
//!   protocol tables, rendered from the code (`just gen`);
//! - `platform`: the seam to the operating system (process trees, pipes and
//!   signals, descriptors, locks), one file per system, chosen when
//!   hookrun is compiled; nothing else names a system.

pub(crate) mod aggregate;
pub(crate) mod asynchook;
pub(crate) mod auditlog;
pub mod binpath;
pub(crate) mod carry;
pub mod catalog;
pub mod cli;
pub(crate) mod color;
pub(crate) mod commands;
pub(crate) mod context;
pub(crate) mod decide;
pub mod diagnose;
pub(crate) mod display;
pub(crate) mod escape;
pub mod event;
pub(crate) mod exchange;
pub(crate) mod exec;
pub(crate) mod exit;
pub(crate) mod fire;
pub(crate) mod fsafe;
pub mod generate;
pub(crate) mod hookenv;
pub(crate) mod hookstate;
pub mod host;
pub(crate) mod http;
pub(crate) mod input;
pub(crate) mod jsonedit;
pub(crate) mod mcp;
pub mod notices;
pub(crate) mod permissions;
pub(crate) mod plan;
pub(crate) mod platform;
pub(crate) mod prompt;
pub(crate) mod replay;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod safewrite;
pub mod select;
pub(crate) mod selfguard;
pub mod settings;
pub(crate) mod stack;
pub(crate) mod state;
pub(crate) mod text;
pub(crate) mod urls;
pub mod verdict;

use std::io::Write as _;
use std::process::ExitCode;

use cli::{Cli, Command};
use exit::Exit;

/// Parses the command line, runs the command, maps the result to an exit
/// code. The only place that writes the final stdout/stderr.
pub fn run() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match Cli::parse_args(&args) {
        Ok(cli) => cli,
        Err(err) => {
            let printed = commands::fire::usage_error(&err, &args);
            write_all(&printed.stdout, &printed.stderr);
            return printed.exit.into();
        }
    };
    init_tracing(cli.global.verbose);
    fsafe::survive_file_size_limit();
    let shown = Shown::of(&cli.command);
    let printed = match &cli.command {
        Command::Fire(args) => commands::fire::run(args),
        Command::Trust(args) => commands::trust::run(args, true).unwrap_or_else(failed),
        Command::Untrust(args) => commands::trust::run(args, false).unwrap_or_else(failed),
        Command::Stats(args) => commands::stats::run(args).unwrap_or_else(failed),
        Command::Init(args) => commands::init::run(args).unwrap_or_else(failed),
        Command::AsyncRun { job } => {
            return Exit::failure_if(asynchook::run_job(job).is_err()).into();
        }
        Command::Doctor(args) => commands::doctor::run(args),
        Command::Explain(args) => stack::on_big_stack(|| commands::explain::run(args)),
        Command::List(args) => commands::list::run(args),
        Command::Test(args) => stack::on_big_stack(|| commands::test::run(args)),
        Command::Replay(args) => commands::replay::run(args),
        Command::Install(args) => commands::install::run(args, true).unwrap_or_else(failed),
        Command::Uninstall(args) => commands::install::refuse_in_agent_shell(args)
            .and_then(|()| match args.for_host() {
                Some(one) => commands::install::run(&one, false),
                None => commands::install::uninstall_all(args),
            })
            .unwrap_or_else(failed),
        Command::Status(args) => commands::status::run(args).unwrap_or_else(failed),
        Command::Completions(args) => {
            commands::Printed::stdout(generate::completions::render(args.shell), Exit::Success)
        }
    };
    match shown {
        Shown::Protocol => write_all(&printed.stdout, &printed.stderr),
        Shown::Json => write_all(
            &escape::for_json(&printed.stdout),
            &escape::for_terminal(&printed.stderr),
        ),
        Shown::Human => {
            let stdout = escape::for_terminal(&printed.stdout);
            // Colour is added after escaping: only hookrun's own sequences.
            let stdout = if color::enabled(&std::io::stdout()) {
                std::borrow::Cow::Owned(color::highlight(&stdout))
            } else {
                stdout
            };
            write_all(&stdout, &escape::for_terminal(&printed.stderr));
        }
    }
    printed.exit.into()
}

/// The one place a command's error becomes what hookrun prints: one
/// `hookrun: …` line on stderr naming the error and each cause
/// ([`exit::error_line`]), and the exit its kind maps to
/// ([`Exit::of_error`]).
#[expect(
    clippy::needless_pass_by_value,
    reason = "`unwrap_or_else(failed)` hands the error over"
)]
fn failed(err: anyhow::Error) -> commands::Printed {
    commands::Printed {
        exit: Exit::of_error(&err),
        ..commands::Printed::failure(&exit::error_line(&err))
    }
}

/// Who reads what a command prints, hence how it is escaped ([`escape`]).
enum Shown {
    /// The hook protocol (`fire`) and generated scripts: written as they
    /// are, nothing added to the fire path.
    Protocol,
    /// `--format json` on stdout, a person's text on stderr.
    Json,
    /// A person reads both.
    Human,
}

impl Shown {
    fn of(command: &Command) -> Shown {
        use cli::OutputFormat;
        let format = match command {
            Command::Fire(_) | Command::AsyncRun { .. } | Command::Completions(_) => {
                return Shown::Protocol;
            }
            Command::Stats(args) => args.format,
            Command::Doctor(args) => args.format,
            Command::Explain(args) => args.format,
            Command::List(args) => args.format,
            Command::Test(args) => args.format,
            Command::Replay(args) => args.format,
            Command::Status(args) => args.format,
            Command::Trust(_)
            | Command::Untrust(_)
            | Command::Init(_)
            | Command::Install(_)
            | Command::Uninstall(_) => OutputFormat::Text,
        };
        match format {
            OutputFormat::Json => Shown::Json,
            OutputFormat::Text => Shown::Human,
        }
    }
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
        // Hook output and event text are logged: none of it may drive the
        // terminal.
        .fmt_fields(escape::log_fields())
        // stderr is the block reason channel: colour only for a person
        // (and not when NO_COLOR says so).
        .with_ansi(color::enabled(&std::io::stderr()))
        .with_target(false)
        .init();
}
