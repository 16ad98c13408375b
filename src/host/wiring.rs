//! How each host's own config routes events to hookrun: where the file is,
//! its shape, the host's event names and timeout unit. Pure functions over
//! the JSON document, used by `hookrun install`/`uninstall` (write the
//! entries) and by `doctor` (read them back).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::HostId;

/// How a host lists hooks under an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `{"hooks": {"Event": [{"matcher"?, "hooks": [{…entry}]}]}}`.
    Nested,
    /// `{"version": 1, "hooks": {"event": [{…entry}]}}`.
    Flat,
    /// No document: one executable file per event, named after it, in a
    /// folder (Cline); written by `commands::install_files`.
    Files,
}

/// One host's config facts, one row per host.
#[derive(Debug)]
pub struct Wiring {
    pub host: HostId,
    /// Relative to the project.
    pub project_file: &'static str,
    /// Relative to the home folder (Codex: `$CODEX_HOME/hooks.json` wins).
    pub user_file: &'static str,
    pub shape: Shape,
    /// (Claude Code event, the host's name for it).
    pub events: &'static [(&'static str, &'static str)],
    /// The entry key holding the shell command.
    pub command_key: &'static str,
    /// The timeout key and the value written (the host's own default, in
    /// its unit), if hookrun writes one.
    pub timeout: Option<(&'static str, u64)>,
    /// What one timeout unit is, in milliseconds.
    pub timeout_unit_ms: u64,
    /// Entries carry `"type": "command"`.
    pub typed: bool,
    /// The file carries `"version": 1`.
    pub versioned: bool,
    /// The entry's `name`, where the host shows one.
    pub name: Option<&'static str>,
    /// Other hosts that also read this host's project file as their own.
    pub also_read_by: &'static [HostId],
}

/// The wiring of a host (its module's `WIRING`).
pub fn wiring(host: HostId) -> &'static Wiring {
    super::host(host).facts().wiring
}

/// Every host's wiring, in [`super::HOSTS`] order.
pub fn all() -> impl Iterator<Item = &'static Wiring> {
    super::HOSTS.iter().map(|h| h.facts().wiring)
}
impl Wiring {
    /// The host's name for a Claude Code event, if the host has it.
    pub fn host_event(&self, claude: &str) -> Option<&'static str> {
        self.events
            .iter()
            .find(|(c, _)| *c == claude)
            .map(|(_, h)| *h)
    }

    /// The Claude Code event a host event name is.
    pub fn claude_event(&self, host_event: &str) -> Option<&'static str> {
        self.events
            .iter()
            .find(|(_, h)| *h == host_event)
            .map(|(c, _)| *c)
    }

    /// The project file and the user file.
    pub fn files(
        &self,
        project: &Path,
        home: Option<&Path>,
        codex_home: Option<&Path>,
    ) -> Vec<(Scope, PathBuf)> {
        let mut files = vec![(Scope::Project, project.join(self.project_file))];
        let user = match (self.host, codex_home) {
            (HostId::Codex, Some(dir)) => Some(dir.join("hooks.json")),
            _ => home.map(|h| h.join(self.user_file)),
        };
        if let Some(user) = user {
            files.push((Scope::User, user));
        }
        files
    }

    /// One entry that runs `command` for an event.
    pub fn entry(&self, command: &str) -> Value {
        let mut entry = Map::new();
        if let Some(name) = self.name {
            entry.insert("name".into(), json!(name));
        }
        if self.typed {
            entry.insert("type".into(), json!("command"));
        }
        entry.insert(self.command_key.into(), json!(command));
        if let Some((key, value)) = self.timeout {
            entry.insert(key.into(), json!(value));
        }
        Value::Object(entry)
    }
}

/// Where a host file lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Project,
    User,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
        }
    }
}

/// Whether a command runs `hookrun fire` (any path to the binary).
pub fn runs_hookrun(command: &str) -> bool {
    let words = shlex::split(command)
        .unwrap_or_else(|| command.split_whitespace().map(str::to_owned).collect());
    // The program is the first word after `VAR=value` assignments and an
    // `exec` or `env`.
    let program_at = words
        .iter()
        .position(|w| !(w.contains('=') || w == "exec" || w == "env"));
    program_at.is_some_and(|i| {
        Path::new(&words[i])
            .file_name()
            .is_some_and(|n| n == "hookrun")
            && words.get(i + 1).is_some_and(|w| w == "fire")
    })
}

/// The `--host` a hookrun command names (`None`: Claude Code's default,
/// unless `HOOKRUN_HOST` says otherwise where the host runs it).
pub fn named_host(command: &str) -> Option<String> {
    let words = shlex::split(command)?;
    let mut iter = words.iter();
    while let Some(word) = iter.next() {
        if word == "--host" {
            return iter.next().cloned();
        }
        if let Some(value) = word.strip_prefix("--host=") {
            return Some(value.to_owned());
        }
    }
    None
}

/// The program a command starts (its first word after `VAR=value`
/// assignments and an `exec` or `env`).
pub fn program(command: &str) -> Option<String> {
    shlex::split(command)?
        .into_iter()
        .find(|w| !(w.contains('=') || w == "exec" || w == "env"))
}

/// One hook entry found in a host file.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub host_event: String,
    pub command: String,
    /// The JSON path of the entry's command.
    pub json_path: String,
    pub timeout: Option<f64>,
    pub matcher: Option<String>,
}

/// Every command entry of a host document, in order.
pub fn entries(w: &Wiring, doc: &Value) -> Vec<Entry> {
    let mut out = Vec::new();
    let Some(events) = doc.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    let timeout_key = w.timeout.map_or("timeout", |(k, _)| k);
    for (event, list) in events {
        let Some(list) = list.as_array() else {
            continue;
        };
        for (i, item) in list.iter().enumerate() {
            let mut push = |entry: &Value, path: String, matcher: Option<String>| {
                let command = entry
                    .get(w.command_key)
                    .or_else(|| entry.get("command"))
                    .and_then(Value::as_str);
                if let Some(command) = command {
                    out.push(Entry {
                        host_event: event.clone(),
                        command: command.to_owned(),
                        json_path: path,
                        timeout: entry.get(timeout_key).and_then(Value::as_f64),
                        matcher,
                    });
                }
            };
            match w.shape {
                Shape::Flat | Shape::Files => push(
                    item,
                    format!("hooks.{event}[{i}]"),
                    item.get("matcher")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                ),
                Shape::Nested => {
                    let matcher = item
                        .get("matcher")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    if let Some(hooks) = item.get("hooks").and_then(Value::as_array) {
                        for (j, hook) in hooks.iter().enumerate() {
                            push(
                                hook,
                                format!("hooks.{event}[{i}].hooks[{j}]"),
                                matcher.clone(),
                            );
                        }
                    }
                }
            }
        }
    }
    out
}

/// Removes every entry that runs hookrun; groups and events left empty by
/// that go too. Returns how many entries were removed.
pub fn remove_hookrun(w: &Wiring, doc: &mut Value) -> usize {
    let mut removed = 0;
    let Some(events) = doc.get_mut("hooks").and_then(Value::as_object_mut) else {
        return 0;
    };
    let is_ours = |entry: &Value| {
        entry
            .get(w.command_key)
            .or_else(|| entry.get("command"))
            .and_then(Value::as_str)
            .is_some_and(runs_hookrun)
    };
    let mut emptied = Vec::new();
    for (event, list) in events.iter_mut() {
        let Some(list) = list.as_array_mut() else {
            continue;
        };
        let before = list.len();
        match w.shape {
            Shape::Flat | Shape::Files => {
                list.retain(|e| !is_ours(e));
                removed += before - list.len();
            }
            Shape::Nested => {
                list.retain_mut(|group| {
                    let Some(hooks) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                        return true;
                    };
                    let had = hooks.len();
                    hooks.retain(|h| !is_ours(h));
                    removed += had - hooks.len();
                    !(hooks.is_empty() && had > 0)
                });
            }
        }
        if list.is_empty() && before > 0 {
            emptied.push(event.clone());
        }
    }
    for event in emptied {
        events.remove(&event);
    }
    removed
}

/// Routes `claude_events` to `command`: hookrun's old entries are removed
/// first (so installing twice changes nothing), the user's own entries stay.
/// Returns the host events routed and the Claude Code events the host does
/// not have.
pub fn install(
    w: &Wiring,
    doc: &mut Value,
    command: &str,
    claude_events: &[&str],
) -> Result<(Vec<&'static str>, Vec<String>), String> {
    install_with_matchers(w, doc, command, claude_events, &[])
}

/// [`install`], with a `matcher` on the entries of some events (Claude
/// Code's FileChanged entry must name the files it watches).
pub fn install_with_matchers(
    w: &Wiring,
    doc: &mut Value,
    command: &str,
    claude_events: &[&str],
    matchers: &[(&str, String)],
) -> Result<(Vec<&'static str>, Vec<String>), String> {
    if !doc.is_object() {
        return Err("is not a JSON object".into());
    }
    remove_hookrun(w, doc);
    let object = doc.as_object_mut().expect("checked above");
    if w.versioned && !object.contains_key("version") {
        // `version` first, as the host's own examples write it.
        let mut with_version = Map::new();
        with_version.insert("version".into(), json!(1));
        with_version.extend(std::mem::take(object));
        *object = with_version;
    }
    let hooks = object
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(hooks) = hooks.as_object_mut() else {
        return Err("`hooks` is not an object".into());
    };
    let mut routed = Vec::new();
    let mut missing = Vec::new();
    for claude in claude_events {
        let Some(host_event) = w.host_event(claude) else {
            missing.push((*claude).to_owned());
            continue;
        };
        if routed.contains(&host_event) {
            continue;
        }
        let list = hooks
            .entry(host_event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Some(list) = list.as_array_mut() else {
            return Err(format!("`hooks.{host_event}` is not an array"));
        };
        let entry = w.entry(&super::host(w.host).fire_command(command, host_event));
        let matcher = matchers.iter().find(|(e, _)| e == claude).map(|(_, m)| m);
        list.push(match (w.shape, matcher) {
            (Shape::Flat | Shape::Files, _) => entry,
            (Shape::Nested, None) => json!({"hooks": [entry]}),
            (Shape::Nested, Some(m)) => json!({"matcher": m, "hooks": [entry]}),
        });
        routed.push(host_event);
    }
    Ok((routed, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wired_event_decodes_back_to_its_claude_code_event() {
        for w in all() {
            for (claude, host_event) in w.events {
                let raw: Map<String, Value> =
                    serde_json::from_value(json!({"hook_event_name": host_event})).unwrap();
                let decoded = super::super::host(w.host)
                    .decode(raw, None, &super::super::HostEnv::new(&[]))
                    .unwrap();
                assert_eq!(
                    decoded.event.id.name(),
                    *claude,
                    "{:?} {host_event}",
                    w.host
                );
            }
        }
    }

    #[test]
    fn hookrun_commands_are_recognised() {
        assert!(runs_hookrun("hookrun fire"));
        assert!(runs_hookrun("'/opt/my tools/hookrun' fire --host gemini"));
        assert!(runs_hookrun(
            "/usr/bin/hookrun fire pre_tool_use --settings x"
        ));
        assert!(!runs_hookrun("hookrun doctor"));
        assert!(!runs_hookrun("echo hookrun fire"));
        assert!(!runs_hookrun("./guard.sh"));
        assert!(runs_hookrun("HOOKRUN_LOG=/tmp/l exec hookrun fire"));
        assert_eq!(
            program("A=1 exec /x/hookrun fire").as_deref(),
            Some("/x/hookrun")
        );
        assert_eq!(
            named_host("hookrun fire --host gemini").as_deref(),
            Some("gemini")
        );
        assert_eq!(
            named_host("hookrun fire --host=codex").as_deref(),
            Some("codex")
        );
        assert_eq!(named_host("hookrun fire"), None);
    }

    #[test]
    fn install_is_idempotent_and_keeps_other_entries() {
        let w = wiring(HostId::Gemini);
        let mut doc = json!({
            "general": {"x": 1},
            "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./mine.sh"}]}]}
        });
        let (routed, missing) = install(
            w,
            &mut doc,
            "/bin/hookrun fire --host gemini",
            &["PreToolUse", "Stop", "SubagentStop"],
        )
        .unwrap();
        assert_eq!(routed, ["BeforeTool", "AfterAgent"]);
        assert_eq!(missing, ["SubagentStop"]);
        let once = doc.clone();
        install(
            w,
            &mut doc,
            "/bin/hookrun fire --host gemini",
            &["PreToolUse", "Stop"],
        )
        .unwrap();
        assert_eq!(doc, once);
        assert_eq!(doc["general"], json!({"x": 1}));
        assert_eq!(
            doc["hooks"]["BeforeTool"][0]["hooks"][0]["command"],
            "./mine.sh"
        );
        assert_eq!(
            doc["hooks"]["BeforeTool"][1],
            json!({"hooks": [{"name": "hookrun", "type": "command", "command": "/bin/hookrun fire --host gemini", "timeout": 60000}]})
        );
        assert_eq!(remove_hookrun(w, &mut doc), 2);
        assert_eq!(
            doc,
            json!({"general": {"x": 1}, "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./mine.sh"}]}]}})
        );
    }

    #[test]
    fn cursor_and_copilot_files_are_flat_and_versioned() {
        let mut doc = json!({});
        install(
            wiring(HostId::Cursor),
            &mut doc,
            "hookrun fire --host cursor",
            &["PreToolUse"],
        )
        .unwrap();
        assert_eq!(
            doc,
            json!({"version": 1, "hooks": {"preToolUse": [{"command": "hookrun fire --host cursor", "timeout": 30000}]}})
        );
        let mut doc = json!({});
        install(
            wiring(HostId::Copilot),
            &mut doc,
            "hookrun fire --host copilot",
            &["Stop"],
        )
        .unwrap();
        assert_eq!(
            doc,
            json!({"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "hookrun fire --host copilot agentStop", "timeoutSec": 30}]}})
        );
        let found = entries(wiring(HostId::Copilot), &doc);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].host_event.as_str(), found[0].timeout),
            ("agentStop", Some(30.0))
        );
    }
}
