//! The settings' mistakes that switch a hook off silently, said at fire
//! time for the hooks of the event being fired (and by `doctor` for all):
//! a tool name in the matcher or the `if` rule that differs from what hosts
//! send only in case, and a timeout that looks like milliseconds. The
//! funnel owns them: it is the stage that would silently never match.

use std::time::Duration;

use super::tools;
use crate::catalog::{EventId, MatchField};
use crate::settings::{HookDef, Settings};

/// The few `doctor` findings that also warn at fire time, for the hooks of
/// the event being fired: a tool name in the matcher or the `if` rule that
/// differs from what hosts send only in case (`bash`: the hook never runs), and a timeout that
/// looks like milliseconds (the hook may hang the host for hours). Cheap:
/// no I/O, only this event's hooks.
pub fn fire_warnings(settings: &Settings, event: &EventId) -> Vec<String> {
    let mut out = Vec::new();
    let by_tool_name = matches!(event.match_field(), MatchField::Key("tool_name"));
    let strict = event.spec().is_some_and(|spec| spec.strict_matcher_chars);
    for hook in settings.hooks.iter().filter(|h| &h.event == event) {
        // Formatted only for a hook that has something to say.
        let file = || settings.file_of(hook).path().display().to_string();
        if let (Some(pattern), true) = (hook.matcher.as_deref(), by_tool_name) {
            // Only the exact-name form names tools; a regex is not compiled here.
            for name in list_matcher_names(pattern, strict).into_iter().flatten() {
                let near = tools::case_variants(name);
                if !near.is_empty() {
                    out.push(format!(
                            "{}: {}: matcher names tool `{name}`, which no host sends (tool names are case-sensitive): hook {} does not run on {}",
                            file(),
                            matcher_path(hook),
                            hook.display_name(),
                            tools::describe(&near)
                        ));
                }
            }
        }
        // The same mistake in `if` (`bash(rm *)`): the rule's tool is
        // compared exactly, so the hook is switched off just as silently.
        if let Some(rule) = hook.if_rule.as_deref() {
            let tool = rule.split('(').next().unwrap_or_default().trim();
            let near = tools::case_variants(tool);
            if !near.is_empty() {
                out.push(format!(
                    "{}: {}.if: `if` names tool `{tool}`, which no host sends (tool names are case-sensitive): hook {} does not run on {}",
                    file(),
                    hook.json_path,
                    hook.display_name(),
                    tools::describe(&near)
                ));
            }
        }
        if let Some(timeout) = hook.timeout.filter(|t| *t >= Duration::from_secs(1000)) {
            let seconds = timeout.as_secs_f64();
            out.push(format!(
                "{}: {}.timeout: timeout {seconds} is in seconds ({}): it looks like milliseconds (write {} for {seconds} ms)",
                file(),
                hook.json_path,
                human(timeout),
                seconds / 1000.0
            ));
        }
    }
    out
}

/// The names of an exact-name matcher (`Edit|Write`), split as
/// [`Matcher::compile`] splits them; `None` for the other forms (all, regex),
/// which are not compiled. A unit test holds the two to the same answer.
pub fn list_matcher_names(pattern: &str, strict: bool) -> Option<impl Iterator<Item = &str>> {
    if matches!(pattern, "" | "*") {
        return None;
    }
    crate::select::matcher::Matcher::list_names(pattern, strict)
}

/// The JSON path of a hook's matcher: the group's in the nested shape.
pub fn matcher_path(hook: &HookDef) -> String {
    if let Some((group, tail)) = hook.json_path.rsplit_once(".hooks[") {
        if tail.ends_with(']') && tail[..tail.len() - 1].bytes().all(|b| b.is_ascii_digit()) {
            return format!("{group}.matcher");
        }
    }
    format!("{}.matcher", hook.json_path)
}

/// A long duration in words (`2.5 hours`).
pub fn human(duration: Duration) -> String {
    let secs = duration.as_secs();
    if secs >= 3600 {
        format!("{:.1} hours", duration.as_secs_f64() / 3600.0)
    } else {
        format!("{} minutes", secs / 60)
    }
}
