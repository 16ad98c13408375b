//! Scheduling: `once` claims, the kinds side by side and one after another.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use super::*;
use crate::plan::PlanInput;
use crate::select::{self, SelectContext};
use crate::settings::load::load_bytes;
use crate::settings::model::{Source, SourceKind};
use crate::settings::{HookKind, Settings};

pub(super) fn settings(json: &serde_json::Value) -> Settings {
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

/// A Stop event of session `s` and the plan `settings` make for it
/// (project `/`).
pub(super) fn stop_plan(settings: &Settings) -> (Event, Plan) {
    let event = Event::from_object(
        json!({"session_id": "s"}).as_object().cloned().unwrap(),
        Some("Stop"),
    )
    .unwrap();
    let project = Path::new("/");
    let considered = select::select(
        settings,
        &SelectContext {
            event: &event,
            project_dir: project,
            home: None,
        },
    );
    let plan = crate::plan::plan(
        settings,
        &considered,
        &PlanInput {
            event: &event,
            project_dir: project,
            deadline: Duration::from_secs(5),
            env: &[],
            kill_grace: crate::exec::Limits::default().kill_grace,
        },
    );
    (event, plan)
}

pub(super) fn inputs<'a>(limits: &'a Limits, state: Option<&'a StateDir>) -> RunInputs<'a> {
    RunInputs {
        project_dir: Path::new("/"),
        limits,
        inherited_env: &[],
        state,
        started: Instant::now(),
    }
}

pub(super) fn context<'a>(
    inputs: &'a RunInputs<'a>,
    plan: &'a Plan,
    base_env: HookEnv,
) -> RunContext<'a> {
    RunContext {
        inputs,
        base_env,
        shared_env: OnceCell::new(),
        cwd: PathBuf::from("/"),
        env_files: None,
        requests: &plan.requests,
        http: None,
        deadline: Duration::from_secs(5),
    }
}

#[test]
fn a_once_hook_is_claimed_only_when_a_supervisor_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().display().to_string();
    let state = StateDir::locate(|n| (n == "HOOKRUN_STATE_DIR").then(|| root.clone())).unwrap();
    let settings = settings(&json!({"hooks": {"Stop": [{"command": "true", "once": true}]}}));
    let (event, plan) = stop_plan(&settings);
    let limits = Limits::default();
    let inputs = inputs(&limits, Some(&state));
    let mut ctx = context(&inputs, &plan, HookEnv::default());
    let stdin: Arc<Bytes> = Arc::new(b"{}\n".to_vec().into());
    let mut hooks: Vec<HookRun> = plan.hooks.iter().map(|_| HookRun::NotRun).collect();
    // No supervisor (signal handling could not be set up): nothing ran,
    // so nothing is claimed.
    run_parallel(&mut ctx, None, &stdin, &event, &plan, &mut hooks);
    assert!(matches!(hooks[0], HookRun::NotRun));
    let key = plan.hooks[0].once_key.clone().expect("a once hook");
    assert!(state.claim("s", "once", &key).unwrap(), "still unclaimed");
    // Once claimed, the next start skips it.
    let mut supervisor = Supervisor::new().unwrap();
    run_parallel(
        &mut ctx,
        Some(&mut supervisor),
        &stdin,
        &event,
        &plan,
        &mut hooks,
    );
    assert!(
        matches!(&hooks[0], HookRun::Skipped(why) if why.starts_with("once")),
        "{hooks:?}"
    );
    state.release("s", "once", &key).unwrap();
    run_parallel(
        &mut ctx,
        Some(&mut supervisor),
        &stdin,
        &event,
        &plan,
        &mut hooks,
    );
    assert!(matches!(&hooks[0], HookRun::Ran(_)), "{hooks:?}");
    assert!(
        !state.claim("s", "once", &key).unwrap(),
        "claimed by the run"
    );
}

/// Each kind's `Ran` says what really happened: a process report for the
/// command hook only, an exchange (with whom) for the others.
#[test]
fn only_a_command_hook_ran_as_a_process() {
    let settings = settings(&json!({"hooks": {"Stop": [
        {"command": "printf hi", "name": "cmd"},
        // Port 9 on loopback: refused (or not sent by the SSRF guard),
        // an exchange either way.
        {"type": "http", "url": "http://127.0.0.1:9/", "name": "web", "timeout": 5},
        {"type": "mcp_tool", "server": "nowhere", "tool": "t", "name": "tool", "timeout": 5}
    ]}}));
    assert!(settings.problems.is_empty(), "{:?}", settings.problems);
    let (mut event, plan) = stop_plan(&settings);
    let limits = Limits::default();
    let inputs = inputs(&limits, None);
    let executed = run(&plan, &mut event, &inputs);
    let ran: Vec<&Ran> = executed.hooks.iter().filter_map(HookRun::ran).collect();
    assert_eq!(ran.len(), 3, "{:?}", executed.hooks);
    let command = ran[0].process().expect("a process report");
    assert_eq!(command.stdout.bytes, b"hi");
    assert!(ran[0].exchanged().is_none());
    for (exchange, peer) in [(ran[1], "http"), (ran[2], "mcp")] {
        assert!(exchange.process().is_none(), "{peer}: {exchange:?}");
        let exchanged = exchange.exchanged().expect("an exchange");
        let is_peer = match exchanged.kind {
            HookKind::Http => peer == "http",
            HookKind::McpTool => peer == "mcp",
            HookKind::Command | HookKind::Prompt | HookKind::Agent => false,
        };
        assert!(is_peer, "{peer}: {exchanged:?}");
        assert!(!exchange.leaked());
    }
    // The report's exit code: the process's, none for a request, 0 for a
    // tool call (as always).
    assert_eq!(ran[1].exchanged().unwrap().exit_code(), None);
    assert_eq!(ran[2].exchanged().unwrap().exit_code(), Some(0));
}

/// In a sequential plan each hook gets what is left of the deadline, less
/// its kind's kill grace: none for a request, `--kill-grace` for a process.
#[test]
fn a_sequential_hooks_share_of_the_deadline_follows_its_kind() {
    let settings = settings(&json!({"hooks": {"Stop": [
        {"command": "true", "timeout": 60, "sequential": true},
        {"type": "http", "url": "http://127.0.0.1:9/", "timeout": 60},
        {"type": "prompt", "prompt": "ok?", "timeout": 60},
        {"type": "mcp_tool", "server": "s", "tool": "t", "timeout": 60}
    ]}}));
    assert!(settings.problems.is_empty(), "{:?}", settings.problems);
    let (_, plan) = stop_plan(&settings);
    assert!(plan.sequential);
    let limits = Limits {
        kill_grace: Duration::from_millis(800),
        ..Limits::default()
    };
    let inputs = inputs(&limits, None);
    let ctx = context(&inputs, &plan, HookEnv::default());
    let mut process = Vec::new();
    for p in &plan.hooks {
        let runnable = p.program.as_ref().expect("runnable");
        let (timeout, capped) = sequential_timeout(&ctx, &plan, p, runnable);
        assert!(capped, "{p:?}");
        // What the deadline (5 s) leaves, less the kind's grace: the grace
        // is the difference to the deadline, give or take the time this
        // test took so far (far less than 800 ms).
        let gap = plan.deadline.saturating_sub(timeout);
        let kind = runnable.kind();
        if kind.kill_grace(limits.kill_grace).is_zero() {
            assert!(gap < Duration::from_millis(400), "{kind:?}: {gap:?}");
        } else {
            assert!(gap >= Duration::from_millis(800), "{kind:?}: {gap:?}");
            process.push(kind);
        }
    }
    assert_eq!(process, [HookKind::Command, HookKind::McpTool]);
}
