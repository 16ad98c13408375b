//! `hookrun fire`: stdin → event, settings, the fire pipeline, the answer.

use super::common::{self, read_stdin};
use crate::cli::{FireArgs, FireFormat};
use crate::commands::Printed;
use crate::event::{Event, InputError};
use crate::exec::{InheritedFds, Limits};
use crate::exit::Exit;
use crate::fire::{self, FireConfig};
use crate::state::StateDir;

pub fn run(args: &FireArgs) -> Printed {
    // Before anything is opened: every descriptor above stderr now is the
    // parent's, and none may reach a hook (closed below, once settings that
    // name `/dev/fd/N` were read).
    let inherited = InheritedFds::take_stock();
    if let Some(refusal) = crate::hookenv::refuse_nested_fire() {
        return nested_refused(&refusal);
    }
    let input = read_stdin();
    let mut input_name = None;
    let event = input.and_then(|bytes| {
        if args.event.is_some() {
            input_name = input_event_name(&bytes);
        }
        Event::parse(&bytes, args.event.as_deref())
    });
    let event = match event {
        Ok(event) => event,
        Err(err) => return unusable_input(&err, args.fail_closed),
    };
    let input_warnings = crate::catalog::event_name_warnings(
        args.event.as_deref(),
        input_name.as_deref().or(Some(event.id.name())),
    );
    let env = common::environment(&args.settings);
    let project_dir = common::project_dir(&env, event.cwd().as_deref());
    tracing::debug!(project = %project_dir.display(), event = event.id.name(), "resolved project");
    let loaded = common::load_settings(&args.settings, &env, &project_dir);
    let config = FireConfig {
        fail_closed: args.fail_closed,
        limits: Limits {
            kill_grace: args.limits.kill_grace,
            leak_timeout: args.limits.leak_timeout,
            output_cap: args.limits.output_cap,
        },
        deadline: args.limits.deadline,
        home: env.home.clone(),
        inherited_env: std::env::vars_os().collect(),
        non_interactive: args.non_interactive,
        state: StateDir::from_process(),
        log: args.log.clone(),
        stop_block_cap: args.stop_block_cap,
        want_report: args.format == FireFormat::Report,
        input_warnings,
    };
    inherited.close();
    let result = fire::fire(event, &loaded, &project_dir, &config);
    if let Some(signal) = result.interrupted {
        let name = nix::sys::signal::Signal::try_from(signal)
            .map_or_else(|_| signal.to_string(), |s| s.as_str().to_owned());
        return Printed {
            stdout: String::new(),
            stderr: format!("hookrun: interrupted by {name}; running hooks were stopped\n"),
            exit: Exit::Signal(signal),
        };
    }
    let stdout = match args.format {
        FireFormat::Protocol => result.rendered.stdout,
        FireFormat::Report => {
            let report = result.report.expect("a report was asked for");
            let mut text = serde_json::to_string_pretty(&report).expect("reports serialise");
            text.push('\n');
            text
        }
    };
    Printed {
        stdout,
        stderr: result.rendered.stderr,
        exit: Exit::Code(result.rendered.exit_code),
    }
}

/// A fire nested too deep: no hook runs, nothing is blocked (exit 0), and the
/// warning reaches whoever reads the answer (the outer hook, then the host).
fn nested_refused(refusal: &str) -> Printed {
    let answer = serde_json::json!({ "systemMessage": refusal });
    Printed {
        stdout: format!("{answer}\n"),
        stderr: format!("{refusal}\n"),
        exit: Exit::Code(0),
    }
}

/// The input's own `hook_event_name`, read without building the event (the
/// argument overrides it in the event).
fn input_event_name(bytes: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct NameOnly {
        hook_event_name: Option<serde_json::Value>,
    }
    let only: NameOnly = serde_json::from_slice(bytes).ok()?;
    match only.hook_event_name? {
        serde_json::Value::String(name) => Some(name),
        _ => None,
    }
}

/// Exit 1 with one line naming the cause; `--fail-closed`: exit 2 with that
/// line as the block reason.
fn unusable_input(err: &InputError, fail_closed: bool) -> Printed {
    let line = format!("hookrun: {err}");
    Printed {
        stdout: String::new(),
        stderr: format!("{line}\n"),
        exit: Exit::Code(if fail_closed { 2 } else { 1 }),
    }
}
