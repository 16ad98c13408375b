//! `hookrun fire`: stdin → event, settings, the fire pipeline, the answer.

use super::common::{self, read_stdin_within, stdin_deadline};
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
    let started = std::time::Instant::now();
    let input = read_stdin_within(Some(stdin_deadline(args)));
    let event = input.and_then(|bytes| Event::parse(&bytes, args.event.as_deref()));
    let event = match event {
        Ok(event) => event,
        Err(err) => return unusable_input(&err, args.fail_closed),
    };
    // The deadline covers reading stdin too.
    let deadline = args
        .limits
        .deadline
        .unwrap_or_else(|| fire::default_deadline(&event.id))
        .saturating_sub(started.elapsed());
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
        deadline: Some(deadline),
        home: env.home.clone(),
        inherited_env: std::env::vars_os().collect(),
        non_interactive: args.non_interactive,
        state: StateDir::from_process(),
        log: args.log.clone(),
        stop_block_cap: args.stop_block_cap,
        want_report: args.format == FireFormat::Report,
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
