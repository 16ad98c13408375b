//! Command hooks: processes in their own groups under the supervisor
//! (`exec`), or started detached (`async`, see `asynchook`).

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::{Executed, HookRun, Output, Ran, RunContext, RunInputs, hook_env, once_taken};
use crate::asynchook::{self, ending_of};
use crate::event::{Bytes, Event};
use crate::exec::{Job, JobEnv, JobReport, Program};
use crate::hookenv::HookEnv;
use crate::plan::{Plan, Planned, Runnable};
use crate::settings::OnError;
use crate::verdict::{self, HookOutput};

impl RunContext<'_> {
    /// What every command hook's environment shares: `base_env` without
    /// the names each hook gets its own value of (see [`hook_env`]).
    pub(super) fn shared_env(&self) -> &Arc<Vec<(OsString, OsString)>> {
        self.shared_env.get_or_init(|| {
            let mut shared = self.base_env.clone();
            shared.remove("HOOKRUN_CONFIG_DIR");
            shared.remove("HOOKRUN_HOOK_NAME");
            if self.env_files.is_some() {
                shared.remove("CLAUDE_ENV_FILE");
            }
            Arc::new(shared.into_vars())
        })
    }

    /// The supervisor's job for the command hook `p` (the plan's `index`).
    pub(super) fn job(
        &self,
        p: &Planned,
        index: usize,
        stdin: &Arc<Bytes>,
        program: Program,
        timeout: Duration,
    ) -> Job {
        let env_file = self.env_files.map(|files| files.path_for(index));
        let own = hook_env(&HookEnv::default(), p, env_file).into_vars();
        Job {
            program,
            env: JobEnv::new(Arc::clone(self.shared_env()), own),
            cwd: self.cwd.clone(),
            stdin: Arc::clone(stdin),
            timeout,
            // Every hook group is killed by the fire's deadline.
            kill_by: Some(self.inputs.started + self.deadline),
        }
    }
}

/// A command hook's process report read as the protocol of one hook.
pub(super) fn read(
    event: &Event,
    p: &Planned,
    report: JobReport,
    timeout: Duration,
    capped_by_deadline: bool,
) -> Ran {
    // Only an answer can merge into `tool_input` (the legacy form):
    // a hook that printed nothing has it left undecoded, if it was.
    let tool_input = if report.stdout.bytes.is_empty() {
        None
    } else {
        event.tool_input()
    };
    let ending = ending_of(&report, timeout);
    // Parsing, reading and dropping deep JSON need the big stack.
    let deep = crate::stack::may_nest_deep(&report.stdout.bytes);
    let verdict = crate::stack::on_big_stack_if(deep, || {
        verdict::read(
            &event.id,
            &HookOutput {
                name: &p.name,
                ending: &ending,
                stdout: &report.stdout.bytes,
                stdout_truncated: report.stdout.truncated(),
                stderr: &report.stderr.bytes,
                fail_closed: p.on_error == OnError::Block,
                tool_input,
            },
        )
    });
    Ran {
        output: Output::Process(report),
        verdict,
        timeout,
        capped_by_deadline,
        deep_answer: deep,
    }
}

/// Starts the `async` hooks detached; they are not waited for.
pub(super) fn start_async_hooks(
    plan: &Plan,
    base_env: &HookEnv,
    cwd: &Path,
    event: &Event,
    stdin: &[u8],
    inputs: &RunInputs<'_>,
    out: &mut Executed,
) {
    for (i, p) in plan.hooks.iter().enumerate() {
        let (true, Some(Runnable::Command(program))) = (p.run_async, &p.program) else {
            continue;
        };
        if once_taken(p, event, inputs.state) {
            out.hooks[i] = super::skipped_once();
            continue;
        }
        let env = hook_env(base_env, p, None);
        let mut job =
            asynchook::AsyncJob::new(p, event, program.clone(), env, cwd, stdin, inputs.limits);
        job.rewake = p.async_rewake;
        if let (Some(key), Some(state), Some(session)) =
            (&p.once_key, inputs.state, event.session_id())
        {
            // Given back by the runner if it cannot run the hook.
            job.once = Some(asynchook::OnceClaim {
                state_root: state.root().to_path_buf(),
                session: session.to_owned(),
                key: key.clone(),
            });
        }
        match asynchook::start(inputs.state, event.session_id(), job) {
            Ok(result) => {
                out.hooks[i] = HookRun::Async;
                out.async_started.extend(result);
            }
            Err(err) => {
                super::release_once(p, event, inputs.state);
                out.notices.warnings.push(format!(
                    "hook {}: could not start it asynchronously: {err}",
                    p.name
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::ffi::OsString;
    use std::sync::Arc;
    use std::time::Duration;

    use serde_json::json;

    use super::super::tests::{context, inputs, settings, stop_plan};
    use super::hook_env;
    use crate::event::Bytes;
    use crate::exec::{JobEnv, Limits, Program};
    use crate::hookenv::HookEnv;

    /// Each job's environment is the shared one plus its own names, and
    /// says exactly what building it whole for the hook would.
    #[test]
    fn a_jobs_environment_is_the_shared_part_and_its_own_names() {
        let settings = settings(&json!({"hooks": {"Stop": [
            {"command": "true", "name": "first"},
            {"command": "true", "name": "second"}
        ]}}));
        let (_, plan) = stop_plan(&settings);
        let limits = Limits::default();
        let inputs = inputs(&limits, None);
        let mut base = HookEnv::default();
        // Inherited values of the names each hook gets its own of.
        base.set("HOOKRUN_HOOK_NAME", "inherited");
        base.set("HOOKRUN_CONFIG_DIR", "/elsewhere");
        base.set("PATH", "/usr/bin:/bin");
        let ctx = context(&inputs, &plan, base.clone());
        let stdin: Arc<Bytes> = Arc::new(b"{}\n".to_vec().into());
        let seen = |env: &JobEnv| -> BTreeMap<OsString, OsString> {
            env.iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect()
        };
        for (index, p) in plan.hooks.iter().enumerate() {
            let program = Program::Shell {
                shell: "sh".into(),
                script: "true".into(),
            };
            let job = ctx.job(p, index, &stdin, program, Duration::from_secs(1));
            let whole: BTreeMap<_, _> = hook_env(&base, p, None).into_vars().into_iter().collect();
            assert_eq!(seen(&job.env), whole, "hook {index}");
            assert_eq!(job.env.get("HOOKRUN_HOOK_NAME"), Some(p.name.as_ref()));
        }
        assert!(
            ctx.shared_env()
                .iter()
                .all(|(k, _)| k != "HOOKRUN_HOOK_NAME" && k != "HOOKRUN_CONFIG_DIR"),
            "{:?}",
            ctx.shared_env()
        );
    }
}
