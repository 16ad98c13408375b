//! One replayed event under one policy.
//!
//! Dry (the default): the funnel (`select::select`: trust, policy, event,
//! matcher, `if`, dedup) says which hooks would run, `fire::program_for`
//! whether hookrun could start them, and the permission ladder
//! (`permissions::apply`) what the rules alone decide — the same functions
//! `fire` and `explain` use, so replay cannot disagree with them. Nothing
//! is spawned. `once` is not claimed: it depends on state a replay does
//! not have.
//!
//! `--run`: the event goes through `fire::fire` itself, hooks and all,
//! with its `cwd` set to a fresh throwaway folder and a throwaway state
//! folder, under the usual supervision (timeouts, process groups, output
//! caps).
//!
//! Settings are loaded once per project (the project follows from each
//! event's `cwd`, as for a live fire) and kept.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::Value;

use crate::aggregate::Decision;
use crate::context::FireOptions;
use crate::event::Event;
use crate::fire;
use crate::host::HostId;
use crate::input::{self, Input, Sent};
use crate::permissions::{self, RuleSets};
use crate::plan;
use crate::select::{self, SelectContext};
use crate::settings::model::FileState;
use crate::settings::{self, Environment, Settings, Severity, SourceKind, SourceOptions};
use crate::state::StateDir;

/// What one policy does with one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// `allow`, `ask`, `defer`, `deny` or `none`.
    pub decision: &'static str,
    /// The block or permission reason.
    pub reason: Option<String>,
    /// The hooks that would run (names), in load order.
    pub hooks: Vec<String>,
}

/// Settings and rules of one project.
struct Loaded {
    settings: Settings,
    rules: RuleSets,
    project: PathBuf,
}

/// Distinct warnings kept per side.
const WARNINGS_KEPT: usize = 50;

/// One policy: which settings files, loaded per project on first use.
pub struct Side {
    options: SourceOptions,
    env: Environment,
    /// The project of each recorded cwd, and the warning when that cwd
    /// does not exist here.
    project_of_cwd: HashMap<Option<String>, (PathBuf, Option<String>)>,
    loaded: HashMap<PathBuf, Rc<Loaded>>,
    run: Option<Runner>,
    pub findings: Findings,
}

/// What a side met besides verdicts (sendable: the sides of parallel
/// workers are merged through it).
#[derive(Debug, Default)]
pub struct Findings {
    /// Settings and rule problems of every project loaded.
    pub problems: BTreeSet<String>,
    /// The funnel's warnings, with how many events met each.
    pub warnings: BTreeMap<String, u64>,
    /// Settings files loaded, over every project: path → state.
    pub files: BTreeMap<String, String>,
    /// The files named on the command line (`--settings`,
    /// `--claude-settings`, `--against`) whose hooks and rules were not
    /// applied for some project: path → why. A replay of a policy that did
    /// not load answers nothing about it.
    pub unapplied: BTreeMap<String, String>,
}

impl Findings {
    pub fn merge(&mut self, other: Findings) {
        for problem in other.problems {
            if self.problems.len() < WARNINGS_KEPT {
                self.problems.insert(problem);
            }
        }
        for (warning, count) in other.warnings {
            if let Some(mine) = self.warnings.get_mut(&warning) {
                *mine += count;
            } else if self.warnings.len() < WARNINGS_KEPT {
                self.warnings.insert(warning, count);
            }
        }
        self.files.extend(other.files);
        for (path, why) in other.unapplied {
            self.unapplied.entry(path).or_insert(why);
        }
    }
}

/// The fire configuration of `--run`.
struct Runner {
    config: FireOptions,
    /// Holds the throwaway state folder for the whole replay.
    _state: tempfile::TempDir,
}

impl Side {
    /// `run`: hooks really run (`--run`).
    pub fn new(options: SourceOptions, env: Environment, run: bool) -> std::io::Result<Side> {
        let run = if run {
            let state = tempfile::Builder::new()
                .prefix("hookrun-replay-state-")
                .tempdir()?;
            let root = state.path().display().to_string();
            let config = FireOptions::sandboxed(
                std::env::vars_os().collect(),
                env.home.clone(),
                StateDir::locate(|name| (name == "HOOKRUN_STATE_DIR").then(|| root.clone())),
            );
            Some(Runner {
                config,
                _state: state,
            })
        } else {
            None
        };
        Ok(Side {
            options,
            env,
            project_of_cwd: HashMap::new(),
            loaded: HashMap::new(),
            run,
            findings: Findings::default(),
        })
    }

    fn loaded_for(&mut self, event: &Event) -> Rc<Loaded> {
        let cwd = event.fields().get("cwd").and_then(Value::as_str);
        let key = cwd.map(str::to_owned);
        let (project, missing) = if let Some(found) = self.project_of_cwd.get(&key) {
            found.clone()
        } else {
            let project = settings::discover::project_dir(&self.env, cwd.map(Path::new));
            let missing = cwd.and_then(|cwd| self.missing_cwd(cwd, &project));
            self.project_of_cwd
                .insert(key, (project.clone(), missing.clone()));
            (project, missing)
        };
        if let Some(warning) = missing {
            // Counted per event: how many were judged without their project.
            self.warn(warning);
        }
        if let Some(loaded) = self.loaded.get(&project) {
            return Rc::clone(loaded);
        }
        let settings = settings::load_for_inspection(&self.options, &self.env, &project);
        // hookrun's built-in rules judge every call, as in a fire.
        let process_env: Vec<_> = std::env::vars_os().collect();
        let state = crate::state::StateDir::from_process();
        let places = crate::selfguard::Places::of(
            &settings,
            &project,
            self.env.home.as_deref(),
            &process_env,
            state.as_ref().map(crate::state::StateDir::root),
            None,
        );
        let rules = permissions::collect(&settings.files, &project, self.env.home.as_deref())
            .with_builtins(crate::selfguard::Guard::new(places, &settings));
        for file in &settings.files {
            let state = if file.trust.is_trusted() {
                file.state.as_str().to_owned()
            } else {
                format!(
                    "{} (its hooks and rules are not applied; `hookrun trust`)",
                    file.trust.as_str()
                )
            };
            if file.kind() == SourceKind::Cli {
                let why = match file.state {
                    _ if !file.trust.is_trusted() => Some(format!(
                        "{} for the project {}: its hooks and rules were not applied (`hookrun trust {}`, or --trust-project for this run)",
                        file.trust.as_str(),
                        project.display(),
                        file.path().display()
                    )),
                    FileState::Loaded => None,
                    FileState::Missing => Some("no such settings file".to_owned()),
                    FileState::Skipped | FileState::Untrusted => {
                        Some("it could not be read or parsed (see the settings problem)".to_owned())
                    }
                };
                if let Some(why) = why {
                    self.findings
                        .unapplied
                        .entry(file.path().display().to_string())
                        .or_insert(why);
                }
            }
            self.findings
                .files
                .insert(file.path().display().to_string(), state);
        }
        for problem in &settings.problems {
            if problem.severity >= Severity::Warning && self.findings.problems.len() < WARNINGS_KEPT
            {
                self.findings.problems.insert(problem.to_string());
            }
        }
        for warning in &rules.warnings {
            if self.findings.problems.len() < WARNINGS_KEPT {
                self.findings.problems.insert(warning.clone());
            }
        }
        let loaded = Rc::new(Loaded {
            settings,
            rules,
            project: project.clone(),
        });
        self.loaded.insert(project, Rc::clone(&loaded));
        loaded
    }

    /// A recorded cwd that does not exist here: its project's settings
    /// cannot load, so the events are judged by the other files alone.
    fn missing_cwd(&self, cwd: &str, project: &Path) -> Option<String> {
        let cwd = self.env.absolute(Path::new(cwd));
        // --project-dir chose the project on purpose.
        if cwd.is_dir() || self.env.hookrun_project_dir.is_some() {
            return None;
        }
        let whose = if project == cwd {
            format!(
                "no project settings load for them ({}/.hookrun/settings.json is not there)",
                cwd.display()
            )
        } else {
            format!("they were judged with the project {}", project.display())
        };
        Some(format!(
            "the recorded cwd {} does not exist here: {whose}; replay on the machine the sessions were recorded on, or pass --project-dir to judge them with a project here",
            cwd.display()
        ))
    }

    fn warn(&mut self, warning: String) {
        if let Some(count) = self.findings.warnings.get_mut(&warning) {
            *count += 1;
        } else if self.findings.warnings.len() < WARNINGS_KEPT {
            self.findings.warnings.insert(warning, 1);
        }
    }

    /// The verdict on one event; `Err(signal)` when hookrun was signalled
    /// while hooks ran (`--run`).
    pub fn evaluate(&mut self, event: &Event) -> Result<Verdict, i32> {
        // The same `if` rules for every event: parse each once.
        crate::select::rule::remember_parsed_rules();
        let loaded = self.loaded_for(event);
        let home = self.env.home.clone();
        let cx = SelectContext {
            event,
            project_dir: &loaded.project,
            home: home.as_deref(),
        };
        let considered = select::select(&loaded.settings, &cx);
        // Only whether a hook can start matters here, not its arguments.
        let vars = plan::ExecVars::new(&[], &loaded.project);
        let mut hooks = Vec::new();
        for c in &considered {
            for warning in &c.notices.warnings {
                self.warn(warning.clone());
            }
            if !c.runs() {
                continue;
            }
            let hook = &loaded.settings.hooks[c.hook];
            match plan::program_for(hook, &loaded.settings.file_of(hook).dir, &vars) {
                Ok(_) => hooks.push(hook.display_name()),
                Err(why) => self.warn(format!(
                    "hook {}: {why}; it would not run",
                    hook.display_name()
                )),
            }
        }
        let decision = match &self.run {
            None => {
                let mut decision = Decision::default();
                permissions::apply(
                    &mut decision,
                    event,
                    &loaded.rules,
                    &loaded.project,
                    home.as_deref(),
                    false,
                );
                decision
            }
            Some(runner) => {
                let result = run_one(event, &loaded, &runner.config);
                if let Some(signal) = result.interrupted {
                    return Err(signal);
                }
                result.decision
            }
        };
        Ok(Verdict {
            decision: decision.decision_word(),
            reason: decision.block.or(decision.permission_reason),
            hooks,
        })
    }
}

/// `--run`: the real fire, in a throwaway working folder, the event
/// decoded as `hookrun fire` decodes what Claude Code sends.
fn run_one(event: &Event, loaded: &Loaded, config: &FireOptions) -> fire::FireResult {
    let dir = tempfile::Builder::new().prefix("hookrun-replay-").tempdir();
    let mut fields = event.fields().clone();
    if let Ok(dir) = &dir {
        fields.insert(
            "cwd".into(),
            Value::String(dir.path().display().to_string()),
        );
    }
    // Recorded from Claude Code: decoded as it sends it.
    let host = HostId::default();
    let input = input::decode(Ok(Sent::Object(fields)), host, None, &config.env)
        .unwrap_or_else(|_| Input::plain(host, event.clone(), &config.env));
    fire::fire(input, &loaded.settings, &loaded.project, config.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `dir` holds the policy; the project is elsewhere (a settings file
    /// inside the project would need trust).
    fn side(dir: &Path, settings: &Value) -> Side {
        let path = dir.join("policy.json");
        std::fs::write(&path, settings.to_string()).unwrap();
        let options = SourceOptions {
            settings: vec![path],
            claude_settings: vec![],
            no_default_settings: true,
            trust_project: false,
        };
        let mut env = Environment::from_process();
        env.hookrun_project_dir = Some(dir.join("project"));
        env.managed_settings = Some(dir.join("no-managed.json"));
        Side::new(options, env, false).unwrap()
    }

    fn bash(command: &str) -> Event {
        Event::from_object(
            json!({"hook_event_name": "PreToolUse", "cwd": "/p", "tool_name": "Bash", "tool_input": {"command": command}})
                .as_object()
                .unwrap()
                .clone(),
            None,
        )
        .unwrap()
    }

    #[test]
    fn rules_and_funnel_without_running() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("ran");
        let mut side = side(
            dir.path(),
            &json!({
                "permissions": {"deny": ["Bash(rm *)"], "ask": ["Bash(git push *)"]},
                "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                    {"type": "command", "name": "marker", "command": format!("touch {}", marker.display())}
                ]}]}
            }),
        );
        let v = side.evaluate(&bash("rm -rf build")).unwrap();
        assert_eq!(v.decision, "deny");
        assert!(v.reason.unwrap().contains("Bash(rm *)"));
        assert_eq!(v.hooks, ["marker"]);
        assert_eq!(side.evaluate(&bash("git push")).unwrap().decision, "ask");
        assert_eq!(side.evaluate(&bash("ls")).unwrap().decision, "none");
        assert!(!marker.exists(), "a dry replay runs no hook");
    }

    #[test]
    fn an_untrusted_policy_applies_nothing_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        let mut side = side(&project, &json!({"permissions": {"deny": ["Bash(rm *)"]}}));
        // The policy file is inside the project: it needs `hookrun trust`.
        side.env.hookrun_project_dir = Some(project.clone());
        side.options.settings = vec![project.join("policy.json")];
        assert_eq!(side.evaluate(&bash("rm -rf x")).unwrap().decision, "none");
        let state = &side.findings.files[&project.join("policy.json").display().to_string()];
        assert!(state.starts_with("untrusted"), "{state}");
    }
}
