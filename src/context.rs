//! What is fixed for one fire, and the notices it collects on the way.
//!
//! [`crate::fire::fire`] builds one [`FireContext`] before selection and
//! hands it to every stage beside that stage's own input (the event, the
//! plan, what ran); the stages' narrower views (`SelectContext`,
//! `PlanInput`, `RunInputs`) are made from it in one place each
//! (`FireContext::select_context` and so on), never assembled by hand.
//! [`Notices`] is the one ordered list of what the fire says: every stage
//! pushes its warnings and notes into it, in the order they are said.

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::event::Event;
use crate::exec::Limits;
use crate::host::{self, Host, HostId};
use crate::plan::PlanInput;
use crate::run::RunInputs;
use crate::select::SelectContext;
use crate::settings::Settings;
use crate::state::StateDir;

/// Everything about one fire that no stage changes.
#[derive(Debug, Clone, Copy)]
pub struct FireContext<'a> {
    pub settings: &'a Settings,
    pub project_dir: &'a Path,
    pub home: Option<&'a Path>,
    /// The host that called: its deadlines and how the answer is encoded;
    /// behind any but Claude Code, hookrun enforces the permissions of
    /// Claude Code's own files itself.
    pub host: HostId,
    /// When the fire started (selection and sequential hooks share its
    /// deadline).
    pub started: Instant,
    /// `--deadline`, else the host's for this event.
    pub deadline: Duration,
    pub limits: Limits,
    /// hookrun's own environment, the base of every hook's.
    pub env: &'a [(OsString, OsString)],
    /// Once-per-session notices, `once` claims, `async` results, carried
    /// context and the stop-loop counter.
    pub state: Option<&'a StateDir>,
    /// `--fail-closed`: settings problems block (on events that can).
    pub fail_closed: bool,
    /// `--non-interactive`: a final ask becomes a deny.
    pub non_interactive: bool,
    /// `--stop-block-cap`.
    pub stop_block_cap: u32,
    /// `--log` / `$HOOKRUN_LOG`; else the `log` settings key.
    pub log: Option<&'a Path>,
    /// Build the full report even without a log (`--format report`).
    pub want_report: bool,
}

impl<'a> FireContext<'a> {
    /// The host's implementation.
    pub fn host(&self) -> &'static dyn Host {
        host::host(self.host)
    }

    /// When selection and the hooks must be done.
    pub fn until(&self) -> Instant {
        self.started + self.deadline
    }

    /// What the funnel reads besides the settings.
    pub fn select_context<'e>(&self, event: &'e Event) -> SelectContext<'e>
    where
        'a: 'e,
    {
        SelectContext {
            event,
            project_dir: self.project_dir,
            home: self.home,
        }
    }

    /// What planning reads besides the settings and the funnel's answer.
    pub fn plan_input<'e>(&'e self, event: &'e Event) -> PlanInput<'e> {
        PlanInput {
            event,
            project_dir: self.project_dir,
            deadline: self.deadline,
            env: self.env,
            kill_grace: self.limits.kill_grace,
        }
    }

    /// What running reads besides the plan and the event.
    pub fn run_inputs(&self) -> RunInputs<'_> {
        RunInputs {
            project_dir: self.project_dir,
            limits: &self.limits,
            inherited_env: self.env,
            state: self.state,
            started: self.started,
        }
    }
}

/// What one fire says, in order: warnings for the person at the host
/// (`systemMessage`) and notes for the report and the log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notices {
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
}

impl Notices {
    pub fn new(warnings: Vec<String>, notes: Vec<String>) -> Notices {
        Notices { warnings, notes }
    }

    /// `other`'s warnings after these warnings, its notes after these
    /// notes.
    pub fn append(&mut self, other: &mut Notices) {
        self.warnings.append(&mut other.warnings);
        self.notes.append(&mut other.notes);
    }

    /// Copies of `warnings` and `notes`, after what is here.
    pub fn extend_from(&mut self, warnings: &[String], notes: &[String]) {
        self.warnings.extend_from_slice(warnings);
        self.notes.extend_from_slice(notes);
    }
}
