//! `hookrun fire`: stdin → event, settings, the fire pipeline, the answer.

use std::ffi::OsString;

use super::common::{self, read_stdin_within, stdin_deadline};
use crate::catalog::EventId;
use crate::cli::{FireArgs, FireFormat};
use crate::commands::Printed;
use crate::event::InputError;
use crate::exec::{InheritedFds, Limits};
use crate::exit::Exit;
use crate::fire::{self, FireConfig};
use crate::host::{self, HostEnv};
use crate::state::StateDir;

pub fn run(args: &FireArgs) -> Printed {
    // Before anything is opened: every descriptor above stderr now is the
    // parent's, and none may reach a hook (closed below, once settings that
    // name `/dev/fd/N` were read).
    let inherited = InheritedFds::take_stock();
    // One event, then exit: the trust checks may remember resolved paths.
    crate::settings::trust::remember_resolutions();
    // Too deep: no hook starts, but the permission rules (which start
    // nothing) still judge the call.
    let nesting = crate::hookenv::nested_fire_check();
    let inherited_env: Vec<_> = std::env::vars_os().collect();
    let host_id = host::mapping::host_in_hook(args.host, &inherited_env, std::env::args_os());
    let host = host::host(host_id);
    let started = std::time::Instant::now();
    let input = read_stdin_within(Some(stdin_deadline(args, host)));
    // JSON that may nest deep is read, matched and answered on the big
    // stack; anything else here, where the fire switches only if a hook's
    // answer may be deep.
    let deep = input
        .as_ref()
        .is_ok_and(|bytes| crate::stack::may_nest_deep(bytes));
    crate::stack::on_big_stack_if(deep, || {
        answer(
            args,
            inherited,
            inherited_env,
            host_id,
            started,
            input,
            nesting,
        )
    })
}

/// The rest of [`run`], from the bytes read on stdin.
fn answer(
    args: &FireArgs,
    inherited: InheritedFds,
    inherited_env: Vec<(OsString, OsString)>,
    host_id: host::HostId,
    started: std::time::Instant,
    input: Result<crate::event::Bytes, InputError>,
    (refusal, depth_warning): (Option<String>, Option<String>),
) -> Printed {
    let fired_as = host_id;
    let mut host_id = host_id;
    let mut input_name = None;
    let decoded = input.and_then(|bytes| {
        let host = host::host(host_id);
        // Long strings (a file's content) stay undecoded until something
        // asks for them, where the host line they are read from is kept.
        let (mut raw, mut scan, mut deferred) = if host.decodes_verbatim() {
            crate::event::read_object_deferring(&bytes)?
        } else {
            let (raw, scan) = crate::event::read_object_scanned(&bytes)?;
            (raw, scan, crate::event::Deferrals::default())
        };
        // Another host in the fired-as host's clothes (Copilot CLI running
        // `.claude/settings.json`): decoded and answered as the real one.
        host_id = host::actual_caller(host_id, &raw, &HostEnv::new(&inherited_env));
        let host = host::host(host_id);
        if host_id != fired_as && !host.decodes_verbatim() {
            (raw, scan) = crate::event::read_object_scanned(&bytes)?;
            deferred = crate::event::Deferrals::default();
        }
        // The input's own name, taken before the host's decoding sets the
        // canonical one (one parse of stdin, not two).
        if let (Some(_), Some(serde_json::Value::String(name))) =
            (&args.event, raw.get("hook_event_name"))
        {
            input_name = Some(name.clone());
        }
        let mut decoded = host.decode(raw, args.event.as_deref(), &HostEnv::new(&inherited_env))?;
        if host_id != fired_as {
            decoded.notes.push(host::caller_note(fired_as, host_id));
        }
        // A host whose decoding is the identity: hooks can get its bytes
        // as sent, when they say what serialising the event would.
        if host.decodes_verbatim() {
            decoded.event.keep_host_line(bytes, &scan, deferred);
        }
        Ok(decoded)
    });
    let host = host::host(host_id);
    let stop_block_cap =
        host::mapping::stop_block_cap(args.stop_block_cap, host, &HostEnv::new(&inherited_env));
    let mut inherited_env = inherited_env;
    let decoded = match decoded {
        Ok(decoded) => {
            // Hooks see which host called and its own names (HOOKRUN_HOST…).
            host::mapping::set_hook_vars(&mut inherited_env, host, &decoded.event);
            decoded
        }
        Err(err) => {
            // A host that would take exit 1 silently gets its own answer.
            let line = format!("hookrun: {err}");
            if let Some(r) = host.unusable_answer(args.event.as_deref(), &line) {
                return Printed {
                    stdout: r.stdout,
                    stderr: r.stderr,
                    exit: r.exit,
                };
            }
            return unusable_input(&err, args.event.as_deref(), args.fail_closed);
        }
    };
    let event = &decoded.event;
    // In the host's vocabulary: the input's name as the host spelt it.
    let mut input_warnings = host::mapping::event_name_warnings(
        host,
        args.event.as_deref(),
        input_name
            .as_deref()
            .or(decoded.host_event.as_deref())
            .or(Some(event.id.name())),
    );
    // The deadline covers reading stdin too.
    let deadline = args
        .limits
        .deadline
        .unwrap_or_else(|| host.default_deadline(&event.id))
        .saturating_sub(started.elapsed());
    // Reads of a pipe the command line named and waits for a lock end at
    // the deadline too.
    crate::fsafe::set_deadline(std::time::Instant::now() + deadline);
    let env = common::environment(&args.settings).with_event(event);
    let project_dir = common::project_dir(&env, event.cwd().as_deref());
    input_warnings.extend(common::missing_cwd_warning(
        &env,
        event.cwd().as_deref(),
        &project_dir,
    ));
    tracing::debug!(project = %project_dir.display(), event = event.id.name(), "resolved project");
    let mut loaded = common::load_settings(&args.settings, &env, &project_dir);
    input_warnings.extend(depth_warning);
    if let Some(refusal) = refusal {
        loaded.hooks.clear();
        input_warnings.push(refusal);
    }
    let config = FireConfig {
        host: host_id,
        fail_closed: args.fail_closed,
        limits: Limits {
            kill_grace: args.limits.kill_grace,
            leak_timeout: args.limits.leak_timeout,
            output_cap: args.limits.output_cap,
        },
        deadline: Some(deadline),
        home: env.home.clone(),
        inherited_env,
        non_interactive: args.non_interactive,
        state: StateDir::from_process(),
        log: args.log.clone(),
        stop_block_cap,
        want_report: args.format == FireFormat::Report,
        input_warnings,
    };
    inherited.close();
    let result = fire::fire(decoded, &loaded, &project_dir, &config);
    // The process exits right after this answer: the OS takes the loaded
    // settings back at once, where freeing them hook by hook cost a large
    // set (thousands of hooks) more than selecting its hooks did.
    std::mem::forget(loaded);
    crate::stack::on_big_stack_if(result.needs_big_stack, || printed(args, result))
}

/// The answer as printed, from the fire's result (dropped here too).
fn printed(args: &FireArgs, result: fire::FireResult) -> Printed {
    if let Some(signal) = result.interrupted {
        let name = nix::sys::signal::Signal::try_from(signal)
            .map_or_else(|_| signal.to_string(), |s| s.as_str().to_owned());
        return Printed {
            stdout: String::new(),
            stderr: format!("hookrun: interrupted by {name}; running hooks were stopped\n"),
            exit: Exit::Interrupted(signal),
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
        exit: result.rendered.exit,
    }
}

/// Exit 1 with one line naming the cause; `--fail-closed`: exit 2 with that
/// line as the block reason, on an event that can block (an event hookrun
/// cannot name may be one that blocks, so it counts as one).
fn unusable_input(err: &InputError, event: Option<&str>, fail_closed: bool) -> Printed {
    let line = format!("hookrun: {err}");
    Printed {
        stdout: String::new(),
        stderr: format!("{line}\n"),
        exit: if fail_closed && can_block(event) {
            Exit::Block
        } else {
            Exit::Failure
        },
    }
}

fn can_block(event: Option<&str>) -> bool {
    event
        .filter(|name| !name.trim().is_empty())
        .is_none_or(|name| EventId::resolve(name.trim()).tier().enforces_blocks())
}

/// A command line clap refused (a mistyped flag, a bad `HOOKRUN_*` value):
/// exit 1 with clap's message on stderr, never 2, since hosts read 2 as a
/// block. Only `fire --fail-closed` on an event that can block turns it
/// into a block, the message being the reason. Help and version go to
/// stdout with exit 0.
pub fn usage_error(err: &clap::Error, args: &[OsString]) -> Printed {
    let mut text = err.render().to_string();
    if !err.use_stderr() {
        return Printed::stdout(text, Exit::Success);
    }
    if let Some(var) = value_from_env(err, args) {
        text = format!(
            "{}\n(the value comes from the environment variable {var})\n",
            text.trim_end()
        );
    }
    let exit = match fire_context(args) {
        Some(fire) if fire.fail_closed => {
            let event = fire.event.or_else(|| {
                // The host sent the event on stdin; its name says whether
                // this event can block.
                if common::stdin_is_terminal() {
                    return None;
                }
                // Bounded: a usage error must not wait on a stdin that
                // never closes.
                let bytes = read_stdin_within(Some(std::time::Duration::from_secs(1))).ok()?;
                let object = crate::event::read_object(&bytes).ok()?;
                object
                    .get("hook_event_name")
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_owned)
            });
            if can_block(event.as_deref()) {
                Exit::Block
            } else {
                Exit::Usage
            }
        }
        _ => Exit::Usage,
    };
    let stderr = if text.ends_with('\n') {
        text
    } else {
        format!("{text}\n")
    };
    Printed {
        stdout: String::new(),
        stderr,
        exit,
    }
}

/// The `HOOKRUN_*` variable a refused value came from, when the flag itself
/// is not on the command line (clap names only the flag).
fn value_from_env(err: &clap::Error, args: &[OsString]) -> Option<String> {
    let clap::error::ContextValue::String(arg) = err.get(clap::error::ContextKind::InvalidArg)?
    else {
        return None;
    };
    let long = arg.strip_prefix("--")?.split([' ', '=']).next()?;
    let given = args.iter().any(|a| {
        let a = a.to_string_lossy();
        a == format!("--{long}") || a.starts_with(&format!("--{long}="))
    });
    if given {
        return None;
    }
    let cli = <crate::cli::Cli as clap::CommandFactory>::command();
    let var = cli
        .get_subcommands()
        .flat_map(clap::Command::get_arguments)
        .chain(cli.get_arguments())
        .find(|a| a.get_long() == Some(long))?
        .get_env()?
        .to_string_lossy()
        .into_owned();
    std::env::var_os(&var).is_some().then_some(var)
}

/// What a refused command line still says about a fire.
struct FireContext {
    fail_closed: bool,
    event: Option<String>,
}

/// Reads `hookrun [global flags] fire [flags] [EVENT]` without clap (which
/// just refused it), using clap's own model for which flags take a value.
fn fire_context(args: &[OsString]) -> Option<FireContext> {
    let cli = <crate::cli::Cli as clap::CommandFactory>::command();
    let fire = cli.find_subcommand("fire")?;
    let takes_value = |token: &str| {
        let name = token.trim_start_matches('-');
        fire.get_arguments().chain(cli.get_arguments()).any(|a| {
            let long = token.starts_with("--") && a.get_long() == Some(name);
            let short = !token.starts_with("--")
                && name.len() == 1
                && a.get_short().is_some_and(|c| name.starts_with(c));
            (long || short) && a.get_action().takes_values()
        })
    };
    let mut tokens = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned());
    let mut seen_fire = false;
    let mut flag_given = false;
    let mut event = None;
    while let Some(token) = tokens.next() {
        if token == "--" {
            if seen_fire && event.is_none() {
                event = tokens.next();
            }
            break;
        }
        if token.starts_with('-') && token.len() > 1 {
            if token == "--fail-closed" {
                flag_given = true;
            }
            if !token.contains('=') && takes_value(&token) {
                tokens.next();
            }
            continue;
        }
        if !seen_fire {
            if token != "fire" {
                return None;
            }
            seen_fire = true;
        } else if event.is_none() {
            event = Some(token);
        }
    }
    if !seen_fire {
        return None;
    }
    let from_env = std::env::var_os("HOOKRUN_FAIL_CLOSED").is_some_and(|v| {
        let v = v.to_string_lossy().trim().to_ascii_lowercase();
        !matches!(v.as_str(), "" | "0" | "false" | "no" | "off" | "n" | "f")
    });
    Some(FireContext {
        fail_closed: flag_given || from_env,
        event,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn events_that_cannot_block_never_fail_closed() {
        for name in ["Notification", "SessionEnd", "PostCompact", "session_start"] {
            assert!(!can_block(Some(name)), "{name}");
        }
        for name in ["PreToolUse", "Stop", "PermissionRequest", "MyOwnEvent"] {
            assert!(can_block(Some(name)), "{name}");
        }
        assert!(can_block(None), "an event nobody named may block");
    }

    #[test]
    fn a_refused_fire_command_line_is_still_read() {
        let fire = fire_context(&args(&[
            "hookrun",
            "-v",
            "fire",
            "--deadline",
            "abc",
            "--fail-closed",
            "stop",
        ]))
        .expect("a fire");
        assert!(fire.fail_closed);
        assert_eq!(fire.event.as_deref(), Some("stop"));
        let fire = fire_context(&args(&["hookrun", "fire", "--fail-close", "pre_tool_use"]))
            .expect("a fire");
        assert!(
            !fire.fail_closed || std::env::var_os("HOOKRUN_FAIL_CLOSED").is_some(),
            "a mistyped flag is not --fail-closed"
        );
        assert_eq!(fire.event.as_deref(), Some("pre_tool_use"));
        let fire = fire_context(&args(&[
            "hookrun",
            "fire",
            "--log=/x",
            "--host",
            "claude-code",
        ]))
        .unwrap();
        assert_eq!(fire.event, None);
        assert!(fire_context(&args(&["hookrun", "doctor", "--bogus"])).is_none());
    }
}
