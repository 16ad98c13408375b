use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::prop_assert_eq;
use serde_json::{Value, json};

use super::*;
use crate::asynchook::AsyncResult;
use crate::context::FireOptions;
use crate::exec::{Captured, JobReport, Termination};
use crate::plan::PlanInput;
use crate::run::{HookRun, Output, Ran};
use crate::select::SelectContext;
use crate::settings::Settings;
use crate::settings::load::load_bytes;
use crate::settings::model::{Source, SourceKind};
use crate::state::StateDir;
use crate::verdict::{Permission, Verdict};

fn settings_from(bytes: &[u8]) -> Settings {
    let mut settings = Settings::default();
    let source = Source {
        path: PathBuf::from("/u/settings.json"),
        kind: SourceKind::User,
        claude_mode: false,
        trust_required: false,
    };
    load_bytes(&mut settings, source, PathBuf::from("/u"), bytes);
    settings
}

fn settings(json: &Value) -> Settings {
    settings_from(json.to_string().as_bytes())
}

fn event(name: &str, fields: &Value) -> Event {
    let mut object = fields.as_object().cloned().unwrap_or_default();
    object.entry("session_id").or_insert(json!("s"));
    Event::from_object(object, Some(name)).unwrap()
}

fn state() -> (tempfile::TempDir, StateDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().display().to_string();
    let state =
        StateDir::locate(|name| (name == "HOOKRUN_STATE_DIR").then(|| path.clone())).unwrap();
    (dir, state)
}

fn policy<'a>(settings: &'a Settings, state: Option<&'a StateDir>) -> FireContext<'a> {
    FireContext {
        settings,
        project_dir: Path::new("/p"),
        host: crate::host::HostId::ClaudeCode,
        started: Instant::now(),
        deadline: Duration::from_secs(60),
        stop_block_cap: 2,
        options: FireOptions::sandboxed(Vec::new(), None, state.cloned()),
    }
}

fn plan_of(settings: &Settings, event: &Event) -> Plan {
    let considered = crate::select::select(
        settings,
        &SelectContext {
            event,
            project_dir: Path::new("/p"),
            home: None,
        },
    );
    crate::plan::plan(
        settings,
        &considered,
        &PlanInput {
            event,
            project_dir: Path::new("/p"),
            deadline: Duration::from_secs(60),
            env: &[],
            kill_grace: crate::exec::Limits::default().kill_grace,
        },
    )
}

/// A hook that ran for `millis` and said `verdict`.
fn ran(verdict: Verdict, millis: u64) -> HookRun {
    HookRun::Ran(Box::new(Ran {
        output: Output::Process(JobReport {
            termination: Termination::Exited(0),
            timed_out: false,
            killed: false,
            leaked: false,
            interrupted: false,
            stdin_unread: false,
            stdout: Captured::default(),
            stderr: Captured::default(),
            duration: Duration::from_millis(millis),
        }),
        verdict,
        timeout: Duration::from_secs(60),
        capped_by_deadline: false,
        deep_answer: false,
    }))
}

struct Fixture {
    settings: Settings,
    event: Event,
    plan: Plan,
    executed: Executed,
}

impl Fixture {
    fn new(settings: Settings, event: Event) -> Fixture {
        let plan = plan_of(&settings, &event);
        let executed = Executed::nothing(&plan);
        Fixture {
            settings,
            event,
            plan,
            executed,
        }
    }

    fn decide(&self, cx: &FireContext<'_>) -> Decision {
        let facts = Facts {
            plan: &self.plan,
            executed: &self.executed,
            event: &self.event,
            original_input: self.event.tool_input_before_replacement(),
            notices: Notices::new(vec!["from the host".into()], Vec::new()),
        };
        decide(cx, facts)
    }
}

fn context(text: &str) -> Verdict {
    Verdict {
        context: Some(text.into()),
        notices: crate::notices::Notices::new(vec![format!("w-{text}")], Vec::new()),
        ..Verdict::default()
    }
}

#[test]
fn verdicts_count_in_load_order_whatever_order_they_finished_in() {
    let hooks = json!({"hooks": {"Stop": [{"command": "a"}, {"command": "b"}, {"command": "c"}]}});
    let mut fx = Fixture::new(settings(&hooks), event("Stop", &json!({})));
    // c finished first, a last: durations do not reorder anything.
    fx.executed.hooks = vec![
        ran(context("A"), 300),
        ran(context("B"), 200),
        ran(context("C"), 1),
    ];
    let decision = fx.decide(&policy(&fx.settings, None));
    let context = decision.context.unwrap_or_default();
    let at = |text: &str| {
        context
            .find(text)
            .unwrap_or_else(|| panic!("{text} in {context:?}"))
    };
    assert!(at("A") < at("B") && at("B") < at("C"), "{context:?}");
    let hook_warnings: Vec<&String> = decision
        .notices
        .warnings
        .iter()
        .filter(|w| w.starts_with("w-"))
        .collect();
    assert_eq!(hook_warnings, ["w-A", "w-B", "w-C"]);
    assert_eq!(
        decision.notices.warnings[0], "from the host",
        "the host's decoding comes first"
    );
}

#[test]
fn a_permission_rule_overrides_a_hooks_allow_after_aggregation() {
    let json = json!({
        "permissions": {"deny": ["Bash(rm *)"]},
        "hooks": {"PreToolUse": [{"command": "allow-all"}]}
    });
    let mut fx = Fixture::new(
        settings(&json),
        event(
            "PreToolUse",
            &json!({"cwd": "/p", "tool_name": "Bash", "tool_input": {"command": "rm -rf x"}}),
        ),
    );
    let allow = Verdict {
        permission: Some(Permission::Allow),
        ..Verdict::default()
    };
    fx.executed.hooks = vec![ran(allow, 1)];
    let decision = fx.decide(&policy(&fx.settings, None));
    assert!(
        decision
            .block
            .as_deref()
            .unwrap_or_default()
            .contains("Bash(rm *)"),
        "{decision:?}"
    );
    assert!(
        decision
            .notices
            .warnings
            .iter()
            .any(|w| w.contains("deny rule")),
        "{:?}",
        decision.notices.warnings
    );
    // The control: a command no rule names keeps the hook's allow.
    let mut fx = Fixture::new(
        settings(&json),
        event(
            "PreToolUse",
            &json!({"cwd": "/p", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
        ),
    );
    fx.executed.hooks = vec![ran(
        Verdict {
            permission: Some(Permission::Allow),
            ..Verdict::default()
        },
        1,
    )];
    let decision = fx.decide(&policy(&fx.settings, None));
    assert_eq!(
        (decision.block, decision.permission),
        (None, Some(Permission::Allow))
    );
}

#[test]
fn fail_closed_blocks_settings_errors_only_where_blocks_stand() {
    let broken = settings_from(b"{ not json");
    assert!(broken.has_errors());
    let mut on = policy(&broken, None);
    on.options.fail_closed = true;

    let mut decision = Decision {
        permission: Some(Permission::Allow),
        updated_input: Some(json!({"command": "x"})),
        ..Decision::default()
    };
    fail_closed(&mut decision, &event("PreToolUse", &json!({})), &on);
    let reason = decision.block.as_deref().expect("a block");
    assert!(
        reason.starts_with("hookrun --fail-closed: settings problems:\n"),
        "{reason}"
    );
    assert!(
        reason.contains("/u/settings.json"),
        "names the file: {reason}"
    );
    assert_eq!((decision.permission, decision.updated_input), (None, None));

    // A hook's own block comes first.
    let mut decision = Decision {
        block: Some("hook said no".into()),
        ..Decision::default()
    };
    fail_closed(&mut decision, &event("Stop", &json!({})), &on);
    assert!(
        decision
            .block
            .unwrap()
            .starts_with("hook said no\nhookrun --fail-closed")
    );

    // Events that cannot block, the flag off, or no errors: nothing.
    for name in ["Notification", "SessionStart", "SessionEnd"] {
        let mut decision = Decision::default();
        fail_closed(&mut decision, &event(name, &json!({})), &on);
        assert_eq!(decision.block, None, "{name}");
    }
    let mut decision = Decision::default();
    fail_closed(
        &mut decision,
        &event("PreToolUse", &json!({})),
        &policy(&broken, None),
    );
    assert_eq!(decision.block, None);
    let fine = settings(&json!({}));
    let mut on_fine = policy(&fine, None);
    on_fine.options.fail_closed = true;
    let mut decision = Decision::default();
    fail_closed(&mut decision, &event("PreToolUse", &json!({})), &on_fine);
    assert_eq!(decision.block, None);
}

#[test]
fn stop_loop_guard_downgrades_the_block_after_the_cap_and_starts_again() {
    let (_dir, state) = state();
    let none = settings(&json!({}));
    let policy = policy(&none, Some(&state));
    let stop = event("Stop", &json!({}));
    let blocked = || Decision {
        block: Some("tests fail".into()),
        ..Decision::default()
    };
    let mut outcomes = Vec::new();
    for _ in 0..4 {
        let mut decision = blocked();
        let mut warnings = Vec::new();
        stop_loop_guard(&mut decision, &stop, &policy, &mut warnings);
        outcomes.push((decision.block.is_some(), warnings));
    }
    // Cap 2: two blocks stand, the third is downgraded, then the count restarts.
    assert!(outcomes[0].0 && outcomes[1].0 && !outcomes[2].0 && outcomes[3].0);
    assert!(
        outcomes[2].1[0]
            .starts_with("[hook block ignored] stop-loop guard: Stop was already blocked 2 times")
    );
    assert!(outcomes[2].1[0].ends_with("The block was: tests fail"));

    // Another subagent counts on its own; other events are not counted.
    let mut decision = blocked();
    let mut warnings = Vec::new();
    let sub = event("SubagentStop", &json!({"agent_id": "a1"}));
    stop_loop_guard(&mut decision, &sub, &policy, &mut warnings);
    assert!(decision.block.is_some() && warnings.is_empty());
    for _ in 0..5 {
        let mut decision = blocked();
        stop_loop_guard(
            &mut decision,
            &event("PreToolUse", &json!({})),
            &policy,
            &mut warnings,
        );
        assert!(decision.block.is_some());
    }
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn an_allowed_stop_resets_the_count() {
    let (_dir, state) = state();
    let none = settings(&json!({}));
    let policy = policy(&none, Some(&state));
    let stop = event("Stop", &json!({}));
    for blocked in [true, true, false, true, true] {
        let mut decision = Decision {
            block: blocked.then(|| "no".to_owned()),
            ..Decision::default()
        };
        let mut warnings = Vec::new();
        stop_loop_guard(&mut decision, &stop, &policy, &mut warnings);
        assert_eq!(decision.block.is_some(), blocked, "{warnings:?}");
    }
}

fn leave_result(state: &StateDir, session: &str, name: &str, message: &str) -> PathBuf {
    let dir = state.async_dir(session);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.result.json"));
    let result = AsyncResult {
        hook_name: name.into(),
        event: "PostToolUse".into(),
        system_message: Some(message.into()),
        context: Some(format!("ctx {message}")),
        warnings: Vec::new(),
    };
    std::fs::write(&path, serde_json::to_vec(&result).unwrap()).unwrap();
    path
}

#[test]
fn async_results_of_earlier_fires_are_delivered_once_and_this_fires_own_wait() {
    let (_dir, state) = state();
    let none = settings(&json!({}));
    let policy = policy(&none, Some(&state));
    leave_result(&state, "s", "1-earlier", "earlier");
    let own = leave_result(&state, "s", "2-own", "own");
    let mut fx = Fixture::new(
        settings(&json!({})),
        event("PreToolUse", &json!({"tool_name": "Bash"})),
    );
    fx.executed.async_started = vec![own];
    let decision = fx.decide(&policy);
    assert_eq!(decision.system_messages, ["earlier"]);
    assert_eq!(decision.context.as_deref(), Some("ctx earlier"));

    // The next fire gets the one this fire started, and only that.
    let fx = Fixture::new(
        settings(&json!({})),
        event("PreToolUse", &json!({"tool_name": "Bash"})),
    );
    let decision = fx.decide(&policy);
    assert_eq!(decision.system_messages, ["own"]);
    let decision = fx.decide(&policy);
    assert!(
        decision.system_messages.is_empty(),
        "delivered exactly once"
    );

    // An event that does not take context keeps them pending.
    leave_result(&state, "s", "3-later", "later");
    let fx = Fixture::new(settings(&json!({})), event("Notification", &json!({})));
    let unexpected = fx.decide(&policy).system_messages;
    assert!(unexpected.is_empty(), "{unexpected:?}");
    let fx = Fixture::new(settings(&json!({})), event("Stop", &json!({})));
    assert_eq!(fx.decide(&policy).system_messages, ["later"]);
}

#[test]
fn discarded_system_messages_are_noted() {
    let fx = Fixture::new(settings(&json!({})), event("SessionEnd", &json!({})));
    let decision = fx.decide(&policy(&fx.settings, None));
    assert!(
        decision
            .notices
            .notes
            .iter()
            .any(|n| n.starts_with("SessionEnd discards systemMessage"))
    );
    let fx = Fixture::new(settings(&json!({})), event("Stop", &json!({})));
    let decision = fx.decide(&policy(&fx.settings, None));
    assert!(
        decision.notices.notes.is_empty(),
        "{:?}",
        decision.notices.notes
    );
}

fn arb_verdict() -> impl proptest::strategy::Strategy<Value = Verdict> {
    use proptest::prelude::*;
    (
        prop::option::of("[a-c]"),
        prop::option::of(0..3u8),
        prop::option::of("[x-z]"),
        prop::option::of("[m-n]"),
        any::<bool>(),
    )
        .prop_map(|(block, permission, context, message, stop)| Verdict {
            block_reason: block,
            permission: permission
                .map(|p| [Permission::Allow, Permission::Ask, Permission::Defer][usize::from(p)]),
            context,
            system_message: message,
            stop,
            ..Verdict::default()
        })
}

proptest::proptest! {
    /// The answer is a function of the load order only: hooks that finish in
    /// any order (here: any permutation, each hook's duration saying when it
    /// finished) give exactly the decision of aggregating the verdicts in
    /// load order.
    #[test]
    fn the_answer_does_not_depend_on_finishing_order(
        verdicts in proptest::collection::vec(arb_verdict(), 1..6),
        seed in proptest::prelude::any::<u64>(),
    ) {
        let len = verdicts.len();
        let list: Vec<Value> = (0..len).map(|i| json!({"command": format!("h{i}")})).collect();
        let hooks = json!({"hooks": {"PreToolUse": list}});
        let mut finishing: Vec<usize> = (0..len).collect();
        for i in 0..len {
            let j = usize::try_from(seed.wrapping_mul(i as u64 + 3) % len as u64).unwrap();
            finishing.swap(i, j);
        }
        let decide_with = |finished: &[usize]| {
            let mut fx = Fixture::new(settings(&hooks), event("PreToolUse", &json!({"tool_name": "Bash"})));
            // Results arrive in `finished` order, each stored in its slot.
            let mut slots: Vec<Option<HookRun>> = (0..len).map(|_| None).collect();
            for (rank, &i) in finished.iter().enumerate() {
                slots[i] = Some(ran(verdicts[i].clone(), 10 * rank as u64));
            }
            fx.executed.hooks = slots.into_iter().map(Option::unwrap).collect();
            fx.decide(&policy(&fx.settings, None))
        };
        let in_load_order: Vec<usize> = (0..len).collect();
        let expected = decide_with(&in_load_order);
        prop_assert_eq!(&decide_with(&finishing), &expected);
        let reversed: Vec<usize> = (0..len).rev().collect();
        prop_assert_eq!(&decide_with(&reversed), &expected);

        // And it is the aggregation of the verdicts in load order.
        let names: Vec<String> = (0..len).map(|i| format!("h{i}")).collect();
        let entries: Vec<crate::aggregate::Entry<'_>> = (0..len)
            .map(|i| crate::aggregate::Entry { name: &names[i], verdict: &verdicts[i] })
            .collect();
        let aggregated = crate::aggregate::aggregate(&crate::catalog::EventId::resolve("PreToolUse"), &entries, None);
        prop_assert_eq!(expected.block, aggregated.block);
        prop_assert_eq!(expected.permission, aggregated.permission);
        prop_assert_eq!(expected.context, aggregated.context);
        prop_assert_eq!(expected.system_messages, aggregated.system_messages);
    }
}
