//! The settings' mistakes that switch a hook or a rule off silently, said
//! at fire time for the hooks of the event being fired and for the
//! permission rules in force (and by `doctor` for all): a tool name in the
//! matcher, the `if` rule or a permission rule that differs from what hosts
//! send only in case, a matcher written as a permission rule, a path rule
//! with one leading `/` that names a path outside the project, and a
//! timeout that looks like milliseconds. The funnel owns them: it is the
//! stage that would silently never match.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::rule::Rule;
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
            if let Some(tool) = rule_shaped_matcher(pattern, strict) {
                out.push(format!(
                    "{}: {}: matcher {pattern:?} is a permission rule, but a matcher is read as a regex, which never matches the tool name `{tool}`: hook {} does not run (write \"matcher\": \"{tool}\" and \"if\": {pattern:?})",
                    file(),
                    matcher_path(hook),
                    hook.display_name(),
                ));
            }
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

/// `Tool(…)` with a known tool, which the matcher (a regex) does not
/// match: a permission rule written as a matcher (`Bash(rm *)`), so the
/// hook never runs. The tool; `None` for any other matcher. Only a pattern
/// of that shape is compiled.
pub fn rule_shaped_matcher(pattern: &str, strict: bool) -> Option<&str> {
    let (tool, rest) = pattern.split_once('(')?;
    if !rest.ends_with(')') || !tools::is_known(tool) {
        return None;
    }
    let matcher = crate::select::matcher::Matcher::compile(Some(pattern), strict);
    (!matcher.matches(tool)).then_some(tool)
}

/// The tools whose rule specifier is a path pattern (`Read(/src/**)`):
/// those the rule engine reads as one (`select::rule`'s table).
const PATH_TOOLS: &[&str] = &["Read", "Edit", "Write", "MultiEdit", "NotebookEdit"];

/// A permission rule that silently never matches what it seems to name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleMistake {
    /// The tool is written in another case (`bash(rm *)`): it never
    /// matches. The known tools it differs from only in case.
    ToolCase(Vec<(&'static str, &'static str)>),
    /// A host's own name for a tool hookrun translates
    /// (`run_shell_command(rm *)`): rules see Claude Code's names. (host,
    /// Claude Code name).
    ToolHost(&'static str, &'static str),
    /// `Read(/home/me/.ssh/**)`: one leading `/` is relative to `anchor`
    /// (as in Claude Code), where `named` does not exist, while it does
    /// exist as `exists` (from the root, or under the home folder).
    OneSlash {
        anchor: PathBuf,
        named: PathBuf,
        exists: PathBuf,
        /// The rule written so that it names `exists`.
        meant: String,
    },
}

impl RuleMistake {
    /// The finding, for a rule of `list` (`deny`, `ask`, `allow`).
    pub fn message(&self, rule: &Rule, list: &str) -> String {
        let text = rule.text();
        let effect = if list == "allow" {
            "it approves nothing".to_owned()
        } else {
            format!("this {list} rule never matches, so what it guards is never stopped")
        };
        match self {
            RuleMistake::ToolCase(near) => format!(
                "`{text}` names tool `{}`, which no host sends (tool names are case-sensitive; hosts send {}): {effect}",
                rule.tool(),
                tools::describe(near)
            ),
            RuleMistake::ToolHost(host, claude) => format!(
                "`{text}` names tool `{}`, {host}'s name for `{claude}`: behind every host hookrun judges calls under Claude Code's names, so {effect}",
                rule.tool(),
            ),
            RuleMistake::OneSlash {
                anchor,
                named,
                exists,
                ..
            } => {
                let effect = if list == "allow" {
                    "it approves nothing there"
                } else {
                    "the rule never matches it"
                };
                format!(
                    "`{text}`: a pattern with one leading `/` is relative to {} (as in Claude Code), so it names {}, which does not exist; {} does, and {effect}",
                    anchor.display(),
                    named.display(),
                    exists.display()
                )
            }
        }
    }

    /// The one-line fix.
    pub fn fix(&self, rule: &Rule) -> String {
        let specifier = rule
            .specifier()
            .map_or_else(String::new, |s| format!("({s})"));
        match self {
            RuleMistake::ToolCase(near) => format!("write `{}{specifier}`", near[0].0),
            RuleMistake::ToolHost(_, claude) => format!("write `{claude}{specifier}`"),
            RuleMistake::OneSlash { meant, .. } => format!(
                "write `{meant}` (`//` starts at the file-system root, `~/` at your home folder)"
            ),
        }
    }
}

/// What is wrong with one parsed permission rule, if anything: its tool
/// name, and for a path rule with one leading `/` whether it names a path
/// that is not under `anchor` (the project root, or the settings file's
/// folder) but exists from the root or under `home`. `exists` is asked
/// only for such a rule (a few `stat`s).
pub fn rule_mistakes(
    rule: &Rule,
    anchor: &Path,
    home: Option<&Path>,
    exists: &dyn Fn(&Path) -> bool,
) -> Vec<RuleMistake> {
    let mut out = Vec::new();
    let tool = rule.tool();
    let near = tools::case_variants(tool);
    if !near.is_empty() {
        out.push(RuleMistake::ToolCase(near));
    } else if !tools::is_known(tool) {
        if let Some((host, claude)) = tools::translated(tool) {
            out.push(RuleMistake::ToolHost(host, claude));
        }
    }
    if let Some(mistake) = one_slash(rule, anchor, home, exists) {
        out.push(mistake);
    }
    out
}

/// See [`RuleMistake::OneSlash`].
fn one_slash(
    rule: &Rule,
    anchor: &Path,
    home: Option<&Path>,
    exists: &dyn Fn(&Path) -> bool,
) -> Option<RuleMistake> {
    if !PATH_TOOLS.contains(&rule.tool()) {
        return None;
    }
    let specifier = rule.specifier()?.trim();
    let rest = specifier.strip_prefix('/')?;
    if rest.starts_with('/') {
        return None;
    }
    // The literal folders the pattern starts with (up to the first glob).
    let literal: PathBuf = rest
        .split('/')
        .take_while(|c| !c.contains(['*', '?', '[', '{', '\\']))
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    if literal.as_os_str().is_empty() || literal.components().any(|c| c.as_os_str() == "..") {
        return None;
    }
    let named = anchor.join(&literal);
    if exists(&named) {
        return None;
    }
    let absolute = Path::new("/").join(&literal);
    let (found, meant) = if exists(&absolute) {
        (absolute, format!("/{specifier}"))
    } else {
        let home = home?.join(&literal);
        if !exists(&home) {
            return None;
        }
        (home, format!("~/{rest}"))
    };
    Some(RuleMistake::OneSlash {
        anchor: anchor.to_path_buf(),
        named,
        exists: found,
        meant: format!("{}({meant})", rule.tool()),
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::reading::ToolCall;
    use crate::select::rule::PathContext;

    /// The tools read as path rules here are the ones the rule engine
    /// reads so: `T(/a)` with the anchor `/p` names `/p/a` for them only.
    #[test]
    fn path_tools_are_the_rule_engines() {
        let input = serde_json::json!({"file_path": "/p/a", "notebook_path": "/p/a"});
        let paths = PathContext {
            cwd: Path::new("/p"),
            home: None,
            anchor: Path::new("/p"),
            style: crate::select::path_style::PathStyle::Posix,
        };
        for (tool, _) in tools::known_tools() {
            let Ok(rule) = Rule::parse(&format!("{tool}(/a)")) else {
                continue;
            };
            let call = ToolCall {
                tool_name: tool,
                tool_input: &input,
            };
            let path_rule = rule.matches_any(call, &paths).matched();
            assert_eq!(path_rule, PATH_TOOLS.contains(&tool), "{tool}");
        }
    }

    #[test]
    fn a_one_slash_rule_is_judged_where_it_points() {
        let rule = Rule::parse("Read(/home/me/.ssh/**)").unwrap();
        let on_disk = |there: &'static [&'static str]| {
            move |path: &Path| there.iter().any(|p| Path::new(p) == path)
        };
        let found = rule_mistakes(
            &rule,
            Path::new("/p"),
            Some(Path::new("/home/me")),
            &on_disk(&["/home/me/.ssh"]),
        );
        assert!(
            matches!(&found[..], [RuleMistake::OneSlash { meant, .. }] if meant == "Read(//home/me/.ssh/**)"),
            "{found:?}"
        );
        // In the project, it means the project's folder.
        let found = rule_mistakes(
            &rule,
            Path::new("/p"),
            None,
            &on_disk(&["/home/me/.ssh", "/p/home/me/.ssh"]),
        );
        assert!(found.is_empty(), "{found:?}");
        // Under the home folder.
        let rule = Rule::parse("Edit(/.aws/*)").unwrap();
        let found = rule_mistakes(
            &rule,
            Path::new("/p"),
            Some(Path::new("/home/me")),
            &on_disk(&["/home/me/.aws"]),
        );
        assert!(
            matches!(&found[..], [RuleMistake::OneSlash { meant, .. }] if meant == "Edit(~/.aws/*)"),
            "{found:?}"
        );
        // Not a path rule, a glob at the root, `..`: nothing to say.
        for text in [
            "Bash(/usr/bin/rm *)",
            "Read(/**)",
            "Read(/../x)",
            "Read(//etc/**)",
        ] {
            let rule = Rule::parse(text).unwrap();
            let found = rule_mistakes(&rule, Path::new("/p"), None, &|_| true);
            assert!(found.is_empty(), "{text}: {found:?}");
        }
    }
}
