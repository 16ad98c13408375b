//! Many verdicts → one decision (SPEC §7.1).
//!
//! Pure and deterministic: entries are folded in load order, so the result
//! never depends on which hook finished first.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::catalog::{Encoding, EventId, Tier};
use crate::notices::Notices;
use crate::verdict::{Permission, Verdict};

/// Claude Code caps each `additionalContext` at this many characters.
pub const CONTEXT_LIMIT: usize = 10_000;

/// One hook's verdict, in load order.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    pub name: &'a str,
    pub verdict: &'a Verdict,
}

/// The aggregated answer of one fire, before encoding.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decision {
    /// The block that stands (tier block or feedback), with its reason.
    pub block: Option<String>,
    pub permission: Option<Permission>,
    pub permission_reason: Option<String>,
    pub stop: bool,
    pub stop_reason: Option<String>,
    /// The hooks' own `systemMessage`s, in load order.
    pub system_messages: Vec<String>,
    /// What the fire says besides: its warnings (in `systemMessage`, after
    /// the hooks' messages) and notes (the report's).
    pub notices: Notices,
    pub suppress_output: bool,
    pub terminal_sequence: Option<String>,
    pub context: Option<String>,
    pub updated_input: Option<Value>,
    pub passthrough: Map<String, Value>,
    pub worktree_path: Option<String>,
}

impl Decision {
    /// The whole `systemMessage`: hooks' messages, then warnings.
    pub fn system_message(&self) -> Option<String> {
        let all: Vec<&str> = self
            .system_messages
            .iter()
            .chain(&self.notices.warnings)
            .map(String::as_str)
            .collect();
        (!all.is_empty()).then(|| all.join("\n"))
    }

    /// The decision as a host shows it to a person (SPEC §9.5): every
    /// control character (C0 but tab and newline, DEL, C1) and bidi
    /// formatting character in the reasons and in `systemMessage` written
    /// as a visible escape, as hookrun's own terminal output is
    /// ([`crate::escape::for_terminal`]). Those texts quote the agent (its
    /// commands, what a hook echoed of them), and the host prints them in
    /// the person's terminal: an OSC 52 there writes the clipboard. The
    /// decision itself, which the audit log records, keeps its bytes;
    /// `additionalContext` and `updatedInput` are the model's and the
    /// tool's, and pass as they are. Borrowed, at the cost of one scan,
    /// when nothing needs escaping.
    pub fn shown_to_people(&self) -> std::borrow::Cow<'_, Decision> {
        use crate::escape::for_terminal;
        use std::borrow::Cow;
        let unsafe_text = |text: &str| matches!(for_terminal(text), Cow::Owned(_));
        let any = self
            .block
            .iter()
            .chain(&self.permission_reason)
            .chain(&self.stop_reason)
            .chain(&self.system_messages)
            .chain(&self.notices.warnings)
            .any(|t| unsafe_text(t));
        if !any {
            return Cow::Borrowed(self);
        }
        let escape = |text: &mut String| {
            if let Cow::Owned(escaped) = for_terminal(text) {
                *text = escaped;
            }
        };
        let mut shown = self.clone();
        for text in shown
            .block
            .iter_mut()
            .chain(shown.permission_reason.iter_mut())
            .chain(shown.stop_reason.iter_mut())
            .chain(shown.system_messages.iter_mut())
            .chain(shown.notices.warnings.iter_mut())
        {
            escape(text);
        }
        Cow::Owned(shown)
    }

    /// The decision word used by reports, logs and `hookrun test`.
    pub fn decision_word(&self) -> &'static str {
        if self.block.is_some() {
            "deny"
        } else {
            self.permission.map_or("none", Permission::as_str)
        }
    }
}

/// How the reasons of several blocking hooks are joined (SPEC §7.1).
pub fn join_reasons(blockers: &[(&str, &str)]) -> Option<String> {
    match blockers {
        [] => None,
        [(_, reason)] => Some((*reason).to_owned()),
        many => Some(
            many.iter()
                .map(|(name, reason)| format!("[{name}]: {reason}"))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
    }
}

/// Folds the verdicts of one fire. `final_input` is the chained input of a
/// sequential run (`Some` only when it changed).
pub fn aggregate(event: &EventId, entries: &[Entry<'_>], final_input: Option<Value>) -> Decision {
    let mut decision = Decision::default();
    let tier = event.tier();

    let blockers: Vec<(&str, &str)> = entries
        .iter()
        .filter_map(|e| e.verdict.block_reason.as_deref().map(|r| (e.name, r)))
        .collect();
    if let Some(reason) = join_reasons(&blockers) {
        match tier {
            Tier::Block | Tier::Feedback => decision.block = Some(reason),
            Tier::Downgraded | Tier::Ignored => {
                decision.notices.notes.push(format!(
                    "{} is a {} event: its blocks are not enforced",
                    event.name(),
                    tier.as_str()
                ));
                decision
                    .notices
                    .warnings
                    .push(format!("[hook block ignored] {reason}"));
            }
        }
    }

    fold_permission(&mut decision, entries);
    fold_universal(&mut decision, entries);
    fold_context(&mut decision, entries);
    fold_updated_input(&mut decision, entries, final_input);
    fold_passthrough(&mut decision, entries);
    if event.encoding() == Encoding::WorktreeCreate {
        fold_worktree(&mut decision, entries);
    }
    if decision.block.is_some() {
        decision.updated_input = None;
    }
    decision
}

fn fold_permission(decision: &mut Decision, entries: &[Entry<'_>]) {
    if decision.block.is_some() {
        return;
    }
    let winner = entries.iter().filter_map(|e| e.verdict.permission).max();
    let Some(winner) = winner else { return };
    let reasons: Vec<&str> = entries
        .iter()
        .filter(|e| e.verdict.permission == Some(winner))
        .filter_map(|e| e.verdict.permission_reason.as_deref())
        .filter(|r| !r.is_empty())
        .collect();
    decision.permission = Some(winner);
    decision.permission_reason = (!reasons.is_empty()).then(|| reasons.join("\n"));
}

fn fold_universal(decision: &mut Decision, entries: &[Entry<'_>]) {
    let mut stop_reasons = Vec::new();
    let mut sequences = String::new();
    for entry in entries {
        let v = entry.verdict;
        if v.stop {
            decision.stop = true;
            if let Some(reason) = v.stop_reason.as_deref().filter(|r| !r.is_empty()) {
                stop_reasons.push(reason);
            }
        }
        if let Some(message) = v.system_message.as_deref().filter(|m| !m.is_empty()) {
            decision.system_messages.push(message.to_owned());
        }
        decision.suppress_output |= v.suppress_output;
        if let Some(sequence) = &v.terminal_sequence {
            sequences.push_str(sequence);
        }
        decision
            .notices
            .warnings
            .extend(v.notices.warnings.iter().cloned());
    }
    if !stop_reasons.is_empty() {
        decision.stop_reason = Some(stop_reasons.join("\n"));
    }
    if !sequences.is_empty() {
        decision.terminal_sequence = Some(sequences);
    }
}

/// How several hooks' `additionalContext` values are joined: one newline,
/// as Claude Code itself joins the contexts of parallel hooks (the model
/// sees the same text behind hookrun as without it).
pub const CONTEXT_SEPARATOR: &str = "\n";

fn fold_context(decision: &mut Decision, entries: &[Entry<'_>]) {
    let contexts: Vec<&str> = entries
        .iter()
        .filter_map(|e| e.verdict.context.as_deref())
        .filter(|c| !c.is_empty())
        .collect();
    if contexts.is_empty() {
        return;
    }
    let joined = contexts.join(CONTEXT_SEPARATOR);
    let length = joined.chars().count();
    if length > CONTEXT_LIMIT {
        decision.notices.warnings.push(format!(
            "additionalContext is {length} characters; Claude Code keeps only {CONTEXT_LIMIT} per hook"
        ));
    }
    decision.context = Some(joined);
}

fn fold_updated_input(decision: &mut Decision, entries: &[Entry<'_>], final_input: Option<Value>) {
    if let Some(input) = final_input {
        decision
            .notices
            .notes
            .push("tool_input was changed by the hooks (sequential)".to_owned());
        decision.updated_input = Some(input);
        return;
    }
    let changed: Vec<(&str, &Value)> = entries
        .iter()
        .filter_map(|e| {
            e.verdict
                .updated_input
                .as_ref()
                .map(|input| (e.name, input))
        })
        .collect();
    let Some((last_name, last)) = changed.last() else {
        return;
    };
    if changed.iter().any(|(_, input)| input != last) {
        let names: Vec<&str> = changed.iter().map(|(name, _)| *name).collect();
        decision.notices.warnings.push(format!(
            "conflicting updatedInput from hooks {}; the last in load order ({last_name}) wins; set sequential to chain them",
            names.join(", ")
        ));
    }
    decision
        .notices
        .notes
        .push(format!("tool_input was changed by hook {last_name}"));
    decision.updated_input = Some((*last).clone());
}

/// Elicitation `action`: the most restrictive wins.
fn action_rank(action: &str) -> u8 {
    match action {
        "decline" => 3,
        "cancel" => 2,
        _ => 1,
    }
}

fn fold_passthrough(decision: &mut Decision, entries: &[Entry<'_>]) {
    let mut owners: Map<String, Value> = Map::new();
    for entry in entries {
        for (key, value) in &entry.verdict.passthrough {
            let Some(existing) = decision.passthrough.get_mut(key) else {
                decision.passthrough.insert(key.clone(), value.clone());
                owners.insert(key.clone(), Value::String(entry.name.to_owned()));
                continue;
            };
            match (key.as_str(), &mut *existing, value) {
                ("action", Value::String(old), Value::String(new)) => {
                    if action_rank(new) > action_rank(old) {
                        old.clone_from(new);
                    }
                }
                (_, Value::Array(old), Value::Array(new)) => {
                    for item in new {
                        if !old.contains(item) {
                            old.push(item.clone());
                        }
                    }
                }
                (_, Value::Bool(old), Value::Bool(new)) => *old |= *new,
                (_, old, new) => {
                    if old != new {
                        let first = owners.get(key).and_then(Value::as_str).unwrap_or("?");
                        decision.notices.warnings.push(format!(
                            "conflicting `{key}` from hooks {first} and {}; the last in load order wins",
                            entry.name
                        ));
                        old.clone_from(new);
                        owners.insert(key.clone(), Value::String(entry.name.to_owned()));
                    }
                }
            }
        }
    }
}

fn fold_worktree(decision: &mut Decision, entries: &[Entry<'_>]) {
    if decision.block.is_some() {
        return;
    }
    let paths: BTreeSet<&str> = entries
        .iter()
        .filter(|e| !e.verdict.blocks())
        .filter_map(|e| e.verdict.worktree_path.as_deref())
        .collect();
    match paths.len() {
        1 => decision.worktree_path = paths.first().map(|p| (*p).to_owned()),
        0 => decision.block = Some("no hook produced a worktree path".to_owned()),
        _ => {
            decision.block = Some(format!(
                "several hooks produced different worktree paths ({}); expected exactly one",
                paths.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn verdict() -> Verdict {
        Verdict::default()
    }

    #[test]
    fn what_people_see_is_escaped_and_the_decision_keeps_its_bytes() {
        let plain = Decision {
            block: Some("no".into()),
            notices: crate::notices::Notices::new(vec!["w".into()], Vec::new()),
            ..Decision::default()
        };
        assert!(matches!(
            plain.shown_to_people(),
            std::borrow::Cow::Borrowed(_)
        ));
        let raw = Decision {
            block: Some("a\u{1b}]52;c;eA==\u{7}b".into()),
            permission_reason: Some("r\u{202e}".into()),
            system_messages: vec!["m\u{9b}".into()],
            notices: crate::notices::Notices::new(
                vec!["tab\tand\nnewline stay".into()],
                Vec::new(),
            ),
            context: Some("c\u{1b}".into()),
            ..Decision::default()
        };
        let shown = raw.shown_to_people();
        assert_eq!(shown.block.as_deref(), Some("a\\x1b]52;c;eA==\\x07b"));
        assert_eq!(shown.permission_reason.as_deref(), Some("r\\u{202e}"));
        assert_eq!(shown.system_messages, ["m\\u{9b}"]);
        assert_eq!(shown.notices.warnings, ["tab\tand\nnewline stay"]);
        assert_eq!(
            shown.context.as_deref(),
            Some("c\u{1b}"),
            "the model's, as written"
        );
        assert_eq!(raw.block.as_deref(), Some("a\u{1b}]52;c;eA==\u{7}b"));
    }

    fn blocking(reason: &str) -> Verdict {
        Verdict {
            block_reason: Some(reason.into()),
            ..verdict()
        }
    }

    fn with_permission(p: Permission, reason: &str) -> Verdict {
        Verdict {
            permission: Some(p),
            permission_reason: Some(reason.into()),
            ..verdict()
        }
    }

    fn agg(event: &str, verdicts: &[(&str, Verdict)]) -> Decision {
        let entries: Vec<Entry<'_>> = verdicts
            .iter()
            .map(|(name, verdict)| Entry { name, verdict })
            .collect();
        aggregate(&EventId::resolve(event), &entries, None)
    }

    #[test]
    fn one_block_wins_with_its_reason() {
        let d = agg(
            "PreToolUse",
            &[
                ("a", with_permission(Permission::Allow, "ok")),
                ("b", blocking("no")),
            ],
        );
        assert_eq!(d.block.as_deref(), Some("no"));
        assert_eq!(d.permission, None);
        assert_eq!(d.decision_word(), "deny");
    }

    #[test]
    fn several_blocks_give_every_reason_in_load_order() {
        let d = agg(
            "Stop",
            &[
                ("a", blocking("first")),
                ("b", verdict()),
                ("c", blocking("second")),
            ],
        );
        assert_eq!(d.block.as_deref(), Some("[a]: first\n[c]: second"));
    }

    #[test]
    fn downgraded_and_ignored_blocks_become_warnings() {
        let d = agg("SessionStart", &[("a", blocking("no"))]);
        assert_eq!(d.block, None);
        assert_eq!(d.notices.warnings, ["[hook block ignored] no"]);
        let d = agg("Notification", &[("a", blocking("no"))]);
        assert_eq!(d.block, None);
    }

    #[test]
    fn most_restrictive_permission_wins_and_none_is_never_invented() {
        let d = agg("PreToolUse", &[]);
        assert_eq!(d.permission, None);
        assert_eq!(d.decision_word(), "none");
        let d = agg(
            "PreToolUse",
            &[
                ("a", with_permission(Permission::Allow, "x")),
                ("b", with_permission(Permission::Ask, "y")),
                ("c", with_permission(Permission::Ask, "z")),
            ],
        );
        assert_eq!(d.permission, Some(Permission::Ask));
        assert_eq!(d.permission_reason.as_deref(), Some("y\nz"));
        let d = agg(
            "PreToolUse",
            &[
                ("a", with_permission(Permission::Defer, "")),
                ("b", with_permission(Permission::Ask, "")),
            ],
        );
        assert_eq!(d.permission, Some(Permission::Defer));
    }

    #[test]
    fn contexts_and_messages_join() {
        let mut a = verdict();
        a.context = Some("one".into());
        a.system_message = Some("m1".into());
        a.stop = true;
        a.stop_reason = Some("s1".into());
        let mut b = verdict();
        b.context = Some("two".into());
        b.notices.warnings.push("w".into());
        b.stop = true;
        b.stop_reason = Some("s2".into());
        let d = agg("UserPromptSubmit", &[("a", a), ("b", b)]);
        assert_eq!(d.context.as_deref(), Some("one\ntwo"));
        assert_eq!(d.system_message().as_deref(), Some("m1\nw"));
        assert!(d.stop);
        assert_eq!(d.stop_reason.as_deref(), Some("s1\ns2"));
    }

    #[test]
    fn updated_input_last_in_load_order_with_conflict_warning() {
        let mut a = verdict();
        a.updated_input = Some(json!({"command": "a"}));
        let mut b = verdict();
        b.updated_input = Some(json!({"command": "b"}));
        let d = agg("PreToolUse", &[("a", a.clone()), ("b", b)]);
        assert_eq!(d.updated_input, Some(json!({"command": "b"})));
        assert!(d.notices.warnings[0].contains("conflicting updatedInput"));
        let d = agg("PreToolUse", &[("a", a.clone()), ("a2", a)]);
        assert!(d.notices.warnings.is_empty(), "{:?}", d.notices.warnings);
    }

    #[test]
    fn passthrough_fold_rules() {
        let mut a = verdict();
        a.passthrough.insert("watchPaths".into(), json!(["x", "y"]));
        a.passthrough.insert("reloadSkills".into(), json!(false));
        a.passthrough.insert("sessionTitle".into(), json!("A"));
        a.terminal_sequence = Some("\u{7}".into());
        let mut b = verdict();
        b.passthrough.insert("watchPaths".into(), json!(["y", "z"]));
        b.passthrough.insert("reloadSkills".into(), json!(true));
        b.passthrough.insert("sessionTitle".into(), json!("B"));
        b.terminal_sequence = Some("\u{1b}]0;t\u{7}".into());
        let d = agg("SessionStart", &[("a", a), ("b", b)]);
        assert_eq!(d.passthrough["watchPaths"], json!(["x", "y", "z"]));
        assert_eq!(d.passthrough["reloadSkills"], json!(true));
        assert_eq!(d.passthrough["sessionTitle"], json!("B"));
        assert_eq!(d.terminal_sequence.as_deref(), Some("\u{7}\u{1b}]0;t\u{7}"));
        assert!(
            d.notices
                .warnings
                .iter()
                .any(|w| w.contains("conflicting `sessionTitle`"))
        );
    }

    #[test]
    fn elicitation_action_most_restrictive() {
        let mut a = verdict();
        a.passthrough.insert("action".into(), json!("accept"));
        let mut b = verdict();
        b.passthrough.insert("action".into(), json!("cancel"));
        let d = agg("Elicitation", &[("a", a), ("b", b)]);
        assert_eq!(d.passthrough["action"], json!("cancel"));
    }

    #[test]
    fn worktree_needs_exactly_one_path() {
        let mut a = verdict();
        a.worktree_path = Some("/w".into());
        let d = agg("WorktreeCreate", &[("a", a.clone())]);
        assert_eq!(d.worktree_path.as_deref(), Some("/w"));
        assert!(agg("WorktreeCreate", &[]).block.is_some());
        let mut b = verdict();
        b.worktree_path = Some("/v".into());
        assert!(
            agg("WorktreeCreate", &[("a", a), ("b", b)])
                .block
                .unwrap()
                .contains("several")
        );
    }

    fn arb_verdict() -> impl Strategy<Value = Verdict> {
        (
            prop::option::of("[a-c]"),
            prop::option::of(0..3u8),
            prop::option::of("[x-z]"),
            any::<bool>(),
        )
            .prop_map(|(block, permission, context, stop)| Verdict {
                block_reason: block,
                permission: permission
                    .map(|p| [Permission::Allow, Permission::Ask, Permission::Defer][p as usize]),
                context,
                stop,
                ..Verdict::default()
            })
    }

    proptest! {
        /// The winner (block or not, the permission, `continue`) does not
        /// depend on the order of the entries at all; what lists several
        /// hooks (the joined block reasons) lists them in the order given,
        /// which the pipeline makes the load order; and equal input gives an
        /// equal answer. That the pipeline hands entries over in load order
        /// whatever order the hooks finished in is
        /// `decide::tests::the_answer_does_not_depend_on_finishing_order`.
        #[test]
        fn winner_is_order_free_and_listings_follow_the_given_order(
            verdicts in prop::collection::vec(arb_verdict(), 0..6),
            seed in any::<u64>(),
        ) {
            let names: Vec<String> = (0..verdicts.len()).map(|i| format!("h{i}")).collect();
            let len = verdicts.len();
            let mut order: Vec<usize> = (0..len).collect();
            if len > 1 {
                for i in 0..len {
                    let j = usize::try_from(seed.wrapping_mul(i as u64 + 7) % len as u64).unwrap();
                    order.swap(i, j);
                }
            }
            let entries = |idx: &[usize]| -> Vec<Entry<'_>> {
                idx.iter().map(|&i| Entry { name: &names[i], verdict: &verdicts[i] }).collect()
            };
            let id = EventId::resolve("PreToolUse");
            let natural: Vec<usize> = (0..len).collect();
            let a = aggregate(&id, &entries(&natural), None);
            let b = aggregate(&id, &entries(&order), None);
            prop_assert_eq!(a.block.is_some(), b.block.is_some());
            prop_assert_eq!(a.permission, b.permission);
            prop_assert_eq!(a.stop, b.stop);
            // Several blockers: "[h1]: …\n[h0]: …" in exactly the order given.
            let blockers: Vec<&String> = order
                .iter()
                .filter(|&&i| verdicts[i].block_reason.is_some())
                .map(|&i| &names[i])
                .collect();
            if blockers.len() > 1 {
                let reason = b.block.clone().unwrap_or_default();
                let at: Vec<usize> = blockers
                    .iter()
                    .map(|name| reason.find(&format!("[{name}]: ")).expect("every blocker is named"))
                    .collect();
                prop_assert!(at.windows(2).all(|w| w[0] < w[1]), "{} in {:?}", reason, blockers);
            }
            prop_assert_eq!(&a, &aggregate(&id, &entries(&natural), None));
            prop_assert_eq!(&b, &aggregate(&id, &entries(&order), None));
        }
    }
}
