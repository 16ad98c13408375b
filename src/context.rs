//! What is fixed for one fire.
//!
//! [`crate::fire::fire`] builds one [`FireContext`] before selection, with
//! [`FireContext::new`], from the fire's options (what the command line,
//! or `test` and `replay --run`, set) and what the input stage learnt of
//! the event and its host; it is the one place that resolves the deadline
//! and the stop-loop cap. Every stage gets it beside its own input (the
//! event, the plan, what ran), and the stages that need a narrower view
//! (`select::SelectContext`, `plan::PlanInput`, `run::RunInputs`) make it
//! themselves: this module knows no stage.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::exec::Limits;
use crate::host::{self, Host, HostId};
use crate::input::Input;
use crate::settings::Settings;
use crate::state::StateDir;

/// How one fire runs: the knobs of `hookrun fire`'s command line, or the
/// sandbox `test` and `replay --run` fire in. The facts of the event
/// (its host, its deadline) come from the input stage; where both say
/// something, [`FireContext::new`] decides.
#[derive(Debug, Clone)]
pub struct FireOptions {
    pub fail_closed: bool,
    pub limits: Limits,
    /// `--deadline`: overrides the host's for the event.
    pub deadline: Option<Duration>,
    /// When the deadline started running (`hookrun fire`: before stdin was
    /// read, which the deadline covers); `None`: when the fire starts.
    pub started: Option<Instant>,
    pub home: Option<PathBuf>,
    /// hookrun's own environment, the base of every hook's.
    pub env: Vec<(OsString, OsString)>,
    /// `--non-interactive`: a final ask becomes a deny.
    pub non_interactive: bool,
    /// Where once-per-session notices, `once` claims, `async` results and
    /// the stop-loop counter live.
    pub state: Option<StateDir>,
    /// `--log` / `$HOOKRUN_LOG`; else the `log` settings key.
    pub log: Option<PathBuf>,
    /// `--stop-block-cap`: overrides the host's cap.
    pub stop_block_cap: Option<u32>,
    /// Build the full report even without a log (`--format report`).
    pub want_report: bool,
}

impl FireOptions {
    /// `hookrun fire`'s command line: `env` is hookrun's environment,
    /// `home` the home folder it names, `started` when the command
    /// started.
    pub fn from_args(
        args: &crate::cli::FireArgs,
        env: Vec<(OsString, OsString)>,
        home: Option<PathBuf>,
        started: Instant,
    ) -> FireOptions {
        FireOptions {
            fail_closed: args.fail_closed,
            limits: Limits {
                kill_grace: args.limits.kill_grace,
                leak_timeout: args.limits.leak_timeout,
                output_cap: args.limits.output_cap,
            },
            deadline: args.limits.deadline,
            started: Some(started),
            home,
            env,
            non_interactive: args.non_interactive,
            state: StateDir::from_process(),
            log: args.log.clone(),
            stop_block_cap: args.stop_block_cap,
            want_report: args.format == crate::cli::FireFormat::Report,
        }
    }

    /// A fire that touches nothing of the user's but its hooks' effects
    /// (`test`, `replay --run`): the defaults, no log, and `state` (a
    /// throwaway folder) for `once` claims and `async` results.
    pub fn sandboxed(
        env: Vec<(OsString, OsString)>,
        home: Option<PathBuf>,
        state: Option<StateDir>,
    ) -> FireOptions {
        FireOptions {
            fail_closed: false,
            limits: Limits::default(),
            deadline: None,
            started: None,
            home,
            env,
            non_interactive: false,
            state,
            log: None,
            stop_block_cap: None,
            want_report: false,
        }
    }

    /// When the fire of `input` must be answered: `--deadline`, else the
    /// host's own for the event, from when the deadline started running
    /// (`now` when the options name no start).
    pub fn until(&self, input: &Input, now: Instant) -> Instant {
        self.started.unwrap_or(now) + input.deadline_or(self.deadline)
    }
}

/// Everything about one fire that no stage changes: the options it was
/// given, and what they resolve to for this event.
#[derive(Debug)]
pub struct FireContext<'a> {
    pub settings: &'a Settings,
    pub project_dir: &'a Path,
    /// The host that called: its deadlines and how the answer is encoded;
    /// behind any but Claude Code, hookrun enforces the permissions of
    /// Claude Code's own files itself.
    pub host: HostId,
    /// When the fire started (selection and sequential hooks share its
    /// deadline).
    pub started: Instant,
    /// What is left of the deadline when the fire starts (`--deadline`,
    /// else the host's for this event, from when it started running).
    pub deadline: Duration,
    /// `--stop-block-cap`, else the host's.
    pub stop_block_cap: u32,
    /// As given, but for their environment: hookrun's own with the hooks'
    /// host variables set, the base of every hook's.
    pub options: FireOptions,
}

impl<'a> FireContext<'a> {
    /// The context of the fire of `input` under `options`, starting now.
    pub fn new(
        mut options: FireOptions,
        input: &Input,
        settings: &'a Settings,
        project_dir: &'a Path,
    ) -> FireContext<'a> {
        let started = Instant::now();
        let until = options.until(input, started);
        for (key, value) in &input.hook_vars {
            options.env.retain(|(k, _)| k != key);
            options.env.push((key.clone(), value.clone()));
        }
        FireContext {
            settings,
            project_dir,
            host: input.host,
            started,
            deadline: until.saturating_duration_since(started),
            stop_block_cap: options.stop_block_cap.unwrap_or(input.stop_block_cap),
            options,
        }
    }

    /// The host's implementation.
    pub fn host(&self) -> &'static dyn Host {
        host::host(self.host)
    }

    /// When selection and the hooks must be done.
    pub fn until(&self) -> Instant {
        self.started + self.deadline
    }

    pub fn home(&self) -> Option<&Path> {
        self.options.home.as_deref()
    }

    /// The state folder (once-per-session notices, `once` claims, `async`
    /// results, carried context, the stop-loop counter).
    pub fn state(&self) -> Option<&StateDir> {
        self.options.state.as_ref()
    }

    /// `--log` / `$HOOKRUN_LOG` (else the `log` settings key applies).
    pub fn log(&self) -> Option<&Path> {
        self.options.log.as_deref()
    }

    /// hookrun's own environment with the hooks' host variables.
    pub fn env(&self) -> &[(OsString, OsString)] {
        &self.options.env
    }
}
