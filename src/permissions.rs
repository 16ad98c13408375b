//! `permissions` (SPEC §9.3): allow / ask / deny rules applied after the
//! hooks ran, against the UPDATED input, so a hook cannot smuggle a command
//! past the rules by rewriting it.
//!
//! The rules are the `if` syntax and engine ([`crate::select::rule`]) — one
//! implementation — with the polarity of SPEC §4.3: deny and ask rules match
//! when ANY part of a command matches (and fail open toward matching), allow
//! rules only when EVERY part is covered. Pure over its inputs.
//!
//! Before the settings' deny rules come hookrun's built-in rules
//! ([`crate::selfguard`]), on every call whatever the settings say: the
//! guard guards itself (SPEC §9.5).

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

use crate::aggregate::Decision;
use crate::event::Event;
use crate::select::mistakes;
use crate::select::reading::{self, ToolCall};
use crate::select::rule::{self, PathContext, Rule, RuleMatch};
use crate::selfguard::{Guard, Hit};
use crate::settings::SettingsFile;
use crate::settings::model::{FileState, RuleEntry};
use crate::verdict::Permission;

/// The reason of a final ask that nobody can answer (`--non-interactive`).
pub const NOBODY_TO_ASK: &str = "approval required, but nobody can be asked";

/// One parsed rule and where it was written.
#[derive(Debug)]
struct Loaded {
    rule: Rule,
    /// `permissions.deny[0]` in `/path/settings.json`.
    origin: String,
    anchor: PathBuf,
}

/// Every rule of the trusted settings, by list.
#[derive(Debug, Default)]
pub struct RuleSets {
    deny: Vec<Loaded>,
    ask: Vec<Loaded>,
    allow: Vec<Loaded>,
    /// Rules that do not parse: shown on every fire that uses the rules.
    pub warnings: Vec<String>,
    /// hookrun's built-in rules (SPEC §9.5), judged first.
    pub builtins: Option<Guard>,
}

impl RuleSets {
    /// No deny or ask rule of the settings.
    pub fn no_deny_or_ask(&self) -> bool {
        self.deny.is_empty() && self.ask.is_empty()
    }

    /// No rule of the settings (the built-in rules aside).
    pub fn no_settings_rules(&self) -> bool {
        self.deny.is_empty() && self.ask.is_empty() && self.allow.is_empty()
    }

    /// The same rules with hookrun's built-in rules judged first.
    #[must_use]
    pub fn with_builtins(mut self, guard: Guard) -> RuleSets {
        self.warnings.extend(guard.warnings.iter().cloned());
        self.builtins = Some(guard);
        self
    }

    /// Every rule with what it says about one call, in the order the
    /// ladder reads them: deny, ask, allow (for `explain`). An allow rule
    /// is judged alone: whether it covers every part of the call by
    /// itself.
    pub fn judge(&self, event: &Event, project_dir: &Path, home: Option<&Path>) -> Vec<Judged<'_>> {
        let null = Value::Null;
        let call = ToolCall {
            tool_name: event.tool_name().unwrap_or_default(),
            tool_input: event.tool_input().unwrap_or(&null),
        };
        let cwd = event.cwd().unwrap_or_else(|| project_dir.to_path_buf());
        let mut out = Vec::new();
        for (list, rules) in [("deny", &self.deny), ("ask", &self.ask)] {
            for loaded in rules {
                let paths = paths(&cwd, home, &loaded.anchor);
                out.push(Judged {
                    list,
                    text: loaded.rule.text(),
                    origin: &loaded.origin,
                    verdict: match loaded.rule.matches_any(call, &paths) {
                        RuleMatch::Match => Verdict::Matches,
                        RuleMatch::FailOpen(why) => Verdict::CannotJudge(why),
                        RuleMatch::NoMatch => Verdict::NoMatch,
                    },
                });
            }
        }
        for loaded in &self.allow {
            let paths = paths(&cwd, home, &loaded.anchor);
            out.push(Judged {
                list: "allow",
                text: loaded.rule.text(),
                origin: &loaded.origin,
                verdict: if rule::allow_covers(&[(&loaded.rule, paths)], call) {
                    Verdict::Covers
                } else {
                    Verdict::NoMatch
                },
            });
        }
        out
    }
}

/// One rule, and what it says about one call.
#[derive(Debug)]
pub struct Judged<'a> {
    /// `deny`, `ask` or `allow`.
    pub list: &'static str,
    pub text: &'a str,
    /// `permissions.deny[0] in /path/settings.json`.
    pub origin: &'a str,
    pub verdict: Verdict,
}

/// What one rule says about one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Matches,
    /// A deny or ask rule matches because hookrun cannot judge the call
    /// (why).
    CannotJudge(String),
    /// An allow rule covers every part of the call by itself.
    Covers,
    NoMatch,
}

/// The deny and ask rules about `Read` of the trusted settings (Claude
/// Code's own files' too): what an `agent` hook's tools must refuse to
/// read (SPEC §9.5). Nobody can be asked inside a hook, so an ask rule
/// refuses there too.
#[derive(Debug, Default)]
pub struct ReadRules(Vec<Loaded>);

impl ReadRules {
    pub fn of(settings: &crate::settings::Settings, project_dir: &Path) -> ReadRules {
        // Warnings are the fire's to give: no home needed for them here.
        let sets = collect_for(&settings.files, project_dir, None, true);
        ReadRules(
            sets.deny
                .into_iter()
                .chain(sets.ask)
                .filter(|loaded| loaded.rule.applies_to("Read"))
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The rule (its text and where it was written) that denies reading
    /// `path`, if one does.
    pub fn denies(&self, path: &Path, cwd: &Path, home: Option<&Path>) -> Option<String> {
        let input = serde_json::json!({ "file_path": path.to_string_lossy() });
        let call = ToolCall {
            tool_name: "Read",
            tool_input: &input,
        };
        self.0
            .iter()
            .find(|loaded| {
                loaded
                    .rule
                    .matches_any(call, &paths(cwd, home, &loaded.anchor))
                    .matched()
            })
            .map(|loaded| format!("{:?} ({})", loaded.rule.text(), loaded.origin))
    }
}

/// Parses the rules of every loaded (so: trusted, hookrun-mode) file.
/// `home` is where a rule's one-slash path may really be (see
/// [`crate::select::mistakes::rule_mistakes`]).
pub fn collect(files: &[SettingsFile], project_dir: &Path, home: Option<&Path>) -> RuleSets {
    collect_for(files, project_dir, home, false)
}

/// [`collect`]; with `claude_files`, also the deny and ask rules of files
/// Claude Code reads as its own (under `.claude/`): behind a host that is
/// not Claude Code nobody else enforces them. Their allow rules stay
/// Claude Code's: applied behind another host they could approve what
/// that host would have asked about.
pub fn collect_for(
    files: &[SettingsFile],
    project_dir: &Path,
    home: Option<&Path>,
    claude_files: bool,
) -> RuleSets {
    let mut sets = RuleSets::default();
    for file in files {
        if file.state != FileState::Loaded
            || !file.trust.is_trusted()
            || (file.source.claude_mode && !claude_files)
            || file.permissions.is_empty()
        {
            continue;
        }
        let anchor = anchor_of(file, project_dir);
        let no_allow = Vec::new();
        let allow = if file.source.claude_mode {
            &no_allow
        } else {
            &file.permissions.allow
        };
        for (list, entries, target) in [
            ("deny", &file.permissions.deny, &mut sets.deny),
            ("ask", &file.permissions.ask, &mut sets.ask),
            ("allow", allow, &mut sets.allow),
        ] {
            for entry in entries {
                let at = Where {
                    file,
                    anchor: &anchor,
                    home,
                    list,
                };
                push_rule(&at, entry, target, &mut sets.warnings);
            }
        }
    }
    sets
}

fn anchor_of(file: &SettingsFile, _project_dir: &Path) -> PathBuf {
    // A layer's rules anchor at their own layer (SPEC §9.5): never at a
    // project root discovery might have put elsewhere.
    file.rule_anchor().to_path_buf()
}

/// Where a rule is written, and what its paths are relative to.
struct Where<'a> {
    file: &'a SettingsFile,
    anchor: &'a Path,
    home: Option<&'a Path>,
    /// `deny`, `ask` or `allow`.
    list: &'static str,
}

fn push_rule(
    at: &Where<'_>,
    entry: &RuleEntry,
    target: &mut Vec<Loaded>,
    warnings: &mut Vec<String>,
) {
    let origin = format!("{} in {}", entry.json_path, at.file.path().display());
    match Rule::parse(&entry.text) {
        Ok(rule) => {
            // A rule that parses but silently never matches what it names
            // (`bash(rm *)`, a one-slash path outside the project) is said
            // on every fire that uses the rules, as `doctor` says it.
            let exists = |path: &Path| path.exists();
            for mistake in mistakes::rule_mistakes(&rule, at.anchor, at.home, &exists) {
                warnings.push(format!(
                    "{origin}: {} ({})",
                    mistake.message(&rule, at.list),
                    mistake.fix(&rule)
                ));
            }
            target.push(Loaded {
                rule,
                origin,
                anchor: at.anchor.to_path_buf(),
            });
        }
        Err(err) => warnings.push(format!("{origin}: {err}; this rule is not applied")),
    }
}

/// What the rules and the hooks decided, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// A note for the report on which rule decided, if one did.
    pub note: Option<String>,
    /// A warning when a hook's allow lost to a rule.
    pub overridden: Option<String>,
}

/// Applies the ladder of SPEC §9.3 to an aggregated decision (`PreToolUse`
/// and `PermissionRequest` only; other events are left alone).
pub fn apply<'r>(
    decision: &mut Decision,
    event: &Event,
    sets: &'r RuleSets,
    project_dir: &Path,
    home: Option<&Path>,
    non_interactive: bool,
) -> Outcome {
    let mut outcome = Outcome {
        note: None,
        overridden: None,
    };
    if !event.id.permission_rules_apply() {
        return outcome;
    }
    let null = Value::Null;
    let cwd = event.cwd().unwrap_or_else(|| project_dir.to_path_buf());
    let cwd = cwd.as_path();
    let tool_name = event.tool_name().unwrap_or_default();
    // 1. A hook block, a matching deny rule or a built-in rule: deny.
    if decision.block.is_some() {
        return outcome;
    }
    // No rule of the settings, nothing to match: the input is not read (a
    // long string in it stays undecoded).
    let input = if sets.no_settings_rules() {
        &null
    } else {
        decision
            .updated_input
            .as_ref()
            .or_else(|| event.tool_input())
            .unwrap_or(&null)
    };
    let call = ToolCall {
        tool_name,
        tool_input: input,
    };
    let first_match = |list: &'r [Loaded]| {
        list.iter().find_map(|loaded| {
            match loaded
                .rule
                .matches_any(call, &paths(cwd, home, &loaded.anchor))
            {
                RuleMatch::Match => Some((loaded, None)),
                RuleMatch::FailOpen(why) => Some((loaded, Some(why))),
                RuleMatch::NoMatch => None,
            }
        })
    };
    let hook_allowed = decision.permission == Some(Permission::Allow);

    if let Some((loaded, fail_open)) = first_match(&sets.deny) {
        return denied(decision, loaded, fail_open, hook_allowed);
    }
    // The built-in rules come after the user's own deny rules (whose
    // reason the user wrote for this), before anything can ask or allow.
    if let Some(guard) = &sets.builtins {
        let hit = {
            let updated = decision.updated_input.as_ref();
            // A long string in the input stays undecoded unless the
            // built-in rules need it (a command, a host file's new text).
            let full = || updated.or_else(|| event.tool_input()).unwrap_or(&null);
            let shallow = updated
                .or_else(|| event.tool_input_shallow())
                .unwrap_or(&null);
            guard.judge(tool_name, shallow, &full, cwd)
        };
        if let Some(hit) = hit {
            return builtin_denied(decision, &hit, hook_allowed);
        }
    }
    // 2. A hook defer (PreToolUse only) stands.
    if decision.permission == Some(Permission::Defer) {
        if !event.id.before_tool_runs() {
            decision.permission = None;
        }
        return outcome;
    }
    // 3. A matching ask rule or a hook ask: ask.
    if let Some((loaded, _)) = first_match(&sets.ask) {
        let text = loaded.rule.text();
        if hook_allowed {
            outcome.overridden = Some(format!(
                "a hook allowed this call, but ask rule {text:?} ({}) wins",
                loaded.origin
            ));
        }
        if decision.permission != Some(Permission::Ask) {
            decision.permission = Some(Permission::Ask);
            decision.permission_reason = Some(format!(
                "permission rule {text:?} ({}) asks for approval",
                loaded.origin
            ));
        }
        outcome.note = Some(format!("ask rule {text:?} ({}) matched", loaded.origin));
    } else if decision.permission != Some(Permission::Ask) {
        // 4. A matching allow rule (covering every part) or a hook allow.
        let allow_rules: Vec<(&Rule, PathContext<'_>)> = sets
            .allow
            .iter()
            .map(|loaded| (&loaded.rule, paths(cwd, home, &loaded.anchor)))
            .collect();
        if !hook_allowed && !allow_rules.is_empty() && rule::allow_covers(&allow_rules, call) {
            decision.permission = Some(Permission::Allow);
            decision.permission_reason = Some("allowed by permission rules".to_owned());
            outcome.note = Some("allow rules cover every part of this call".to_owned());
        }
    }
    if decision.permission == Some(Permission::Ask) && non_interactive {
        nobody_to_ask(decision);
    }
    outcome
}

/// Step 1 of [`apply`]: a matching deny rule (`fail_open`: matched because
/// hookrun cannot judge the call, and why).
fn denied(
    decision: &mut Decision,
    loaded: &Loaded,
    fail_open: Option<String>,
    hook_allowed: bool,
) -> Outcome {
    let text = loaded.rule.text();
    decision.block = Some(match &fail_open {
        // Say why, so that the agent can write the command plainly.
        Some(why) => format!(
            "denied by permission rule {text:?} ({}): hookrun cannot judge this call: {why}",
            loaded.origin
        ),
        None => format!("denied by permission rule {text:?} ({})", loaded.origin),
    });
    decision.permission = None;
    decision.permission_reason = None;
    decision.updated_input = None;
    Outcome {
        note: Some(match fail_open {
            Some(why) => format!("deny rule {text:?} matched by failing open: {why}"),
            None => format!("deny rule {text:?} ({}) matched", loaded.origin),
        }),
        overridden: hook_allowed.then(|| {
            format!(
                "a hook allowed this call, but deny rule {text:?} ({}) wins",
                loaded.origin
            )
        }),
    }
}

/// Step 1 of [`apply`]: a built-in rule (SPEC §9.5) denies the call.
fn builtin_denied(decision: &mut Decision, hit: &Hit, hook_allowed: bool) -> Outcome {
    decision.block = Some(hit.reason());
    decision.permission = None;
    decision.permission_reason = None;
    decision.updated_input = None;
    let name = hit.rule.name;
    Outcome {
        note: Some(match &hit.cannot_judge {
            Some(why) => format!("built-in rule {name} matched by failing open: {why}"),
            None => format!("built-in rule {name} matched: the call {}", hit.what),
        }),
        overridden: hook_allowed
            .then(|| format!("a hook allowed this call, but hookrun's built-in rule {name} wins")),
    }
}

/// Commands at least this long are read on a worker thread, which the fire
/// waits for no longer than its deadline allows (a short one is read in
/// well under a millisecond, whatever it holds).
const READ_ON_A_THREAD: usize = 1024;

/// Bounds the reading of the call's command by the fire's deadline (SPEC
/// §4.3): every rule of the fire (`if` filters, the built-in rules,
/// permissions) judges the command through [`rule`]'s shared reading; a
/// long one is read on a worker thread first, and when that takes more
/// than half the time left, the command is "cannot judge" (deny and ask
/// rules match, allow rules do not) instead of the fire overrunning the
/// host's timeout. Evaluation itself stops at `until` too.
pub fn read_within(event: &Event, until: Instant) {
    reading::forget_read_ahead();
    rule::evaluate_until(Some(until));
    if !matches!(event.tool_name(), Some("Bash" | "PowerShell")) {
        return;
    }
    let Some(command) = event
        .tool_input()
        .and_then(|input| input.get("command"))
        .and_then(Value::as_str)
    else {
        return;
    };
    if command.len() < READ_ON_A_THREAD {
        return;
    }
    let now = Instant::now();
    let budget = until.saturating_duration_since(now) / 2;
    let (send, receive) = std::sync::mpsc::channel();
    let owned = command.to_owned();
    let started = std::thread::Builder::new()
        .name("hookrun-read".to_owned())
        .stack_size(16 << 20)
        .spawn(move || {
            let _ = send.send(reading::read_ahead(&owned));
        });
    let why = match started.map(|_| receive.recv_timeout(budget)) {
        Ok(Ok(read)) => return reading::remember_read_ahead(read),
        Ok(Err(_)) => format!(
            "reading this command ({} KiB) takes longer than the fire's deadline allows; write it plainly or in smaller steps",
            command.len() / 1024
        ),
        Err(err) => format!("hookrun could not read this command: {err}"),
    };
    reading::mark_unreadable(command, why);
}

/// `--non-interactive`: a final ask becomes a deny.
fn nobody_to_ask(decision: &mut Decision) {
    let detail = decision.permission_reason.take();
    decision.permission = None;
    decision.block = Some(match detail {
        Some(detail) if !detail.is_empty() => format!("{NOBODY_TO_ASK} ({detail})"),
        _ => NOBODY_TO_ASK.to_owned(),
    });
    decision.updated_input = None;
}

fn paths<'a>(cwd: &'a Path, home: Option<&'a Path>, anchor: &'a Path) -> PathContext<'a> {
    PathContext {
        cwd,
        home,
        anchor,
        style: crate::select::path_style::PathStyle::native(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;
    use crate::settings::load::load_bytes;
    use crate::settings::model::{Source, SourceKind};
    use serde_json::json;

    fn settings(json: &Value) -> Settings {
        let mut settings = Settings::default();
        let source = Source {
            path: PathBuf::from("/u/settings.json"),
            kind: SourceKind::User,
            claude_mode: false,
            trust_required: false,
        };
        load_bytes(
            &mut settings,
            source,
            PathBuf::from("/u"),
            json.to_string().as_bytes(),
        );
        settings
    }

    fn bash(command: &str) -> Event {
        Event::parse(
            json!({"hook_event_name": "PreToolUse", "cwd": "/p", "tool_name": "Bash", "tool_input": {"command": command}})
                .to_string()
                .as_bytes(),
            None,
        )
        .unwrap()
    }

    fn decide(
        rules: &Value,
        decision: Decision,
        command: &str,
        non_interactive: bool,
    ) -> (Decision, Outcome) {
        let settings = settings(&json!({ "permissions": rules }));
        let sets = collect(&settings.files, Path::new("/p"), None);
        assert!(sets.warnings.is_empty(), "{:?}", sets.warnings);
        let mut decision = decision;
        let outcome = apply(
            &mut decision,
            &bash(command),
            &sets,
            Path::new("/p"),
            None,
            non_interactive,
        );
        (decision, outcome)
    }

    fn hook(permission: Permission) -> Decision {
        Decision {
            permission: Some(permission),
            ..Decision::default()
        }
    }

    #[test]
    fn deny_rule_beats_a_hook_allow_and_says_so() {
        let (d, o) = decide(
            &json!({"deny": ["Bash(rm *)"]}),
            hook(Permission::Allow),
            "ls && rm -rf /",
            false,
        );
        assert!(
            d.block
                .unwrap()
                .contains("denied by permission rule \"Bash(rm *)\"")
        );
        assert!(o.overridden.unwrap().contains("deny rule"));
    }

    #[test]
    fn ask_rule_beats_a_hook_allow() {
        let (d, o) = decide(
            &json!({"ask": ["Bash(git push *)"]}),
            hook(Permission::Allow),
            "git push",
            false,
        );
        assert_eq!(d.permission, Some(Permission::Ask));
        assert!(o.overridden.is_some());
        let (d, _) = decide(
            &json!({"ask": ["Bash(git push *)"]}),
            hook(Permission::Allow),
            "git push",
            true,
        );
        assert!(d.block.unwrap().starts_with(NOBODY_TO_ASK));
    }

    #[test]
    fn allow_rules_must_cover_every_part() {
        let rules = json!({"allow": ["Bash(npm test *)", "Bash(ls *)"]});
        let (d, _) = decide(&rules, Decision::default(), "npm test -- --watch", false);
        assert_eq!(d.permission, Some(Permission::Allow));
        let (d, _) = decide(&rules, Decision::default(), "npm test && ls -la", false);
        assert_eq!(d.permission, Some(Permission::Allow));
        for command in [
            "npm test && rm -rf ~",
            "npm test $(curl x)",
            "npm test `id`",
            "npm test $HOME",
            "echo 'open",
        ] {
            let (d, _) = decide(&rules, Decision::default(), command, false);
            assert_eq!(d.permission, None, "{command}");
        }
    }

    #[test]
    fn hook_ask_and_defer_and_nothing() {
        let rules = json!({"allow": ["Bash"]});
        let (d, _) = decide(&rules, hook(Permission::Ask), "ls", false);
        assert_eq!(
            d.permission,
            Some(Permission::Ask),
            "a hook ask upgrades an allow rule"
        );
        let (d, _) = decide(
            &json!({"ask": ["Bash"]}),
            hook(Permission::Defer),
            "ls",
            false,
        );
        assert_eq!(d.permission, Some(Permission::Defer));
        let (d, _) = decide(&json!({}), Decision::default(), "ls", false);
        assert_eq!(d, Decision::default(), "no rule and no hook: no decision");
    }

    #[test]
    fn the_updated_input_is_what_is_checked() {
        let mut decision = Decision {
            updated_input: Some(json!({"command": "rm -rf /"})),
            ..Decision::default()
        };
        let settings = settings(&json!({"permissions": {"deny": ["Bash(rm *)"]}}));
        let sets = collect(&settings.files, Path::new("/p"), None);
        apply(
            &mut decision,
            &bash("ls"),
            &sets,
            Path::new("/p"),
            None,
            false,
        );
        assert!(decision.block.is_some());
        assert_eq!(decision.updated_input, None);
    }

    #[test]
    fn bad_rules_are_reported() {
        let settings = settings(&json!({"permissions": {"deny": ["Bash(rm *"]}}));
        let sets = collect(&settings.files, Path::new("/p"), None);
        assert!(
            sets.warnings[0].contains("permissions.deny[0] in /u/settings.json"),
            "{:?}",
            sets.warnings
        );
    }
}
