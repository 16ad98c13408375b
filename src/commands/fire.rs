//! `hookrun fire`: stdin → event, settings, the fire pipeline, the answer.

use std::ffi::OsString;

use super::common;
use crate::catalog::EventId;
use crate::cli::{FireArgs, FireFormat};
use crate::commands::Printed;
use crate::context::FireOptions;
use crate::event::InputError;
use crate::exec::InheritedFds;
use crate::exit::Exit;
use crate::fire;
use crate::host;
use crate::input::{self, stdin};

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
    let host_id = host::mapping::host_in_hook(args.host, &inherited_env, args.host_given);
    let host = host::host(host_id);
    let started = std::time::Instant::now();
    let input = stdin::read_within(Some(stdin::deadline(
        args.limits.deadline,
        args.event.as_deref(),
        host,
    )));
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
    let sent = input.map(input::Sent::Bytes);
    let mut input = match input::decode(sent, host_id, args.event.as_deref(), &inherited_env) {
        Ok(input) => input,
        Err(unusable) => return unusable_answer(args, &unusable),
    };
    let env = common::environment(&args.settings).with_event(&input.event);
    let options = FireOptions::from_args(args, inherited_env, env.home.clone(), started);
    // The deadline covers reading stdin too; reads of a pipe the command
    // line named and waits for a lock end at it.
    crate::fsafe::set_deadline(options.until(&input, started));
    let event = &input.event;
    let project_dir = common::project_dir(&env, event.cwd().as_deref());
    let missing_cwd = common::missing_cwd_warning(&env, event.cwd().as_deref(), &project_dir);
    tracing::debug!(project = %project_dir.display(), event = event.id.name(), "resolved project");
    let mut loaded = common::load_settings(&args.settings, &env, &project_dir);
    // After what the input said: the project hookrun could not find, a
    // fire nested too deep.
    input.notices.warnings.extend(missing_cwd);
    input.notices.warnings.extend(depth_warning);
    if let Some(refusal) = refusal {
        loaded.hooks.clear();
        input.notices.warn(refusal);
    }
    // A host entry names its host (`--host`, as install writes it): the
    // PATH it gives hooks is worth knowing to `doctor`.
    if let (true, Some(state), Some(path)) = (
        args.host_given,
        options.state.as_ref(),
        std::env::var_os("PATH"),
    ) {
        state.record_host_path(input.host.name(), &path);
    }
    inherited.close();
    let result = fire::fire(input, &loaded, &project_dir, options);
    // The process exits right after this answer: the OS takes the loaded
    // settings back at once, where freeing them hook by hook cost a large
    // set (thousands of hooks) more than selecting its hooks did.
    std::mem::forget(loaded);
    crate::stack::on_big_stack_if(result.needs_big_stack, || printed(args, result))
}

/// The answer to an input that cannot be used: the host's own, for a host
/// that would take exit 1 silently; else [`unusable_input`].
fn unusable_answer(args: &FireArgs, unusable: &input::Unusable) -> Printed {
    let line = format!("hookrun: {}", unusable.error);
    if let Some(r) = host::host(unusable.host).unusable_answer(args.event.as_deref(), &line) {
        return Printed {
            stdout: r.stdout,
            stderr: r.stderr,
            exit: r.exit,
        };
    }
    unusable_input(&unusable.error, args.event.as_deref(), args.fail_closed)
}

/// The answer as printed, from the fire's result (dropped here too).
fn printed(args: &FireArgs, result: fire::FireResult) -> Printed {
    if let Some(signal) = result.interrupted {
        let name =
            crate::platform::signal_name(signal).map_or_else(|| signal.to_string(), str::to_owned);
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
                if stdin::is_terminal() {
                    return None;
                }
                // Bounded: a usage error must not wait on a stdin that
                // never closes.
                let bytes = stdin::read_within(Some(std::time::Duration::from_secs(1))).ok()?;
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
    use clap::error::{ContextKind, ContextValue};
    let ContextValue::String(arg) = err.get(ContextKind::InvalidArg)? else {
        return None;
    };
    let long = arg.strip_prefix("--")?.split([' ', '=']).next()?;
    let cli = <crate::cli::Cli as clap::CommandFactory>::command();
    let var = cli
        .get_subcommands()
        .flat_map(clap::Command::get_arguments)
        .chain(cli.get_arguments())
        .find(|a| a.get_long() == Some(long))?
        .get_env()?
        .to_string_lossy()
        .into_owned();
    std::env::var_os(&var)?;
    // Where the value came from, asked of clap: parsed again with the
    // variable unread, a value on the command line is refused alike.
    let unread = |a: clap::Arg| {
        if a.get_long() == Some(long) {
            a.env(None)
        } else {
            a
        }
    };
    let again = cli
        .mut_args(unread)
        .mut_subcommands(|sub| sub.mut_args(unread))
        .try_get_matches_from(args);
    let from_command_line = again.as_ref().err().is_some_and(|again| {
        again.kind() == err.kind()
            && again.get(ContextKind::InvalidArg) == err.get(ContextKind::InvalidArg)
    });
    (!from_command_line).then_some(var)
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
