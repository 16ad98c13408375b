//! How each host's own config routes events to hookrun: where the file is,
//! its shape, the host's event names and timeout unit. Pure functions over
//! the JSON document, used by `hookrun install`/`uninstall` (write the
//! entries) and by `doctor` (read them back).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::HostId;
use super::launch::{self, Launcher, System};
use crate::jsonedit::{Doc, EditError, Step, key};

/// The name of the link npm makes in `node_modules/.bin` for the platform
/// package's executable (the `bin` entry of npm/platforms/*/package.json).
pub const NPM_NATIVE_LINK: &str = "hookrun-native";

/// The program of a project-pinned entry: the npm devDependency's native
/// executable, reached through the project folder the host names.
pub const PINNED_PROGRAM: &str = "\"$CLAUDE_PROJECT_DIR\"/node_modules/.bin/hookrun-native";

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
    /// (routed, also routed): where the first event is routed, the second
    /// must be too. A host whose before-tool answer cannot carry context
    /// gets it with the same call's after-tool answer ([`super::Host::carry_key`]),
    /// which only arrives if that event reaches hookrun.
    pub routes_with: &'static [(&'static str, &'static str)],
}

/// What a host whose PreToolUse answer cannot carry context routes with it.
pub const CARRIES_PRE_TOOL_CONTEXT: &[(&str, &str)] = &[("PreToolUse", "PostToolUse")];

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

    /// What in the home folder says the host is used on this machine: the
    /// folder its user file is in (`~/.gemini`), and for Claude Code also
    /// `~/.claude.json`, its own state file (there before any settings
    /// file is). Derived from the row, so a new host needs nothing here.
    pub fn home_markers(&self, home: &Path) -> Vec<PathBuf> {
        let mut markers: Vec<PathBuf> = Path::new(self.user_file)
            .components()
            .next()
            .map(|first| home.join(first))
            .into_iter()
            .collect();
        if self.host == HostId::ClaudeCode {
            markers.push(home.join(".claude.json"));
        }
        markers
    }

    /// One entry that runs `command` for an event.
    pub fn entry(&self, command: &str) -> Value {
        self.entry_with(command, self.install_timeout(None))
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
    let words = launch::words(command)
        .unwrap_or_else(|| command.split_whitespace().map(str::to_owned).collect());
    // The program is the first word after `VAR=value` assignments and an
    // `exec` or `env`.
    let program_at = words
        .iter()
        .position(|w| !(w.contains('=') || w == "exec" || w == "env"));
    program_at.is_some_and(|i| {
        let name = launch::program_name(&words[i]);
        (name == "hookrun" || name == NPM_NATIVE_LINK)
            && words.get(i + 1).is_some_and(|w| w == "fire")
    })
}

/// The `--host` a hookrun command names (`None`: Claude Code's default,
/// unless `HOOKRUN_HOST` says otherwise where the host runs it).
pub fn named_host(command: &str) -> Option<String> {
    let words = launch::words(command)?;
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
    launch::words(command)?
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
                let command = entry_command(w, entry);
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

/// What `install` writes for one event.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// The Claude Code event.
    pub claude: &'static str,
    /// `BINARY fire --host HOST`, maybe with `--deadline Ns`.
    pub command: String,
    /// The entry's timeout, in the host's unit (`None`: none written).
    pub timeout: Option<u64>,
    /// The group's matcher (Claude Code's FileChanged entry).
    pub matcher: Option<String>,
}

impl Wiring {
    /// The key of an entry's timeout.
    pub fn timeout_key(&self) -> &'static str {
        self.timeout.map_or("timeout", |(k, _)| k)
    }

    /// The timeout install writes next to `--deadline SECS` (none given:
    /// the host's own default, where hookrun writes one): one second more,
    /// so hookrun's answer arrives before the host stops waiting.
    pub fn install_timeout(&self, deadline_secs: Option<u64>) -> Option<u64> {
        match deadline_secs {
            None => self.timeout.map(|(_, v)| v),
            Some(secs) => {
                let value =
                    secs.saturating_add(1).saturating_mul(1000) / self.timeout_unit_ms.max(1);
                Some(value.min(self.max_timeout()))
            }
        }
    }

    /// The largest timeout the host reads in its unit (Qwen Code reads
    /// 1000 and more as milliseconds).
    fn max_timeout(&self) -> u64 {
        super::host(self.host).max_timeout().unwrap_or(u64::MAX)
    }

    /// The longest `--deadline` whose entry timeout the host can be given
    /// (one second less than its largest timeout).
    fn max_deadline_secs(&self) -> u64 {
        (self
            .max_timeout()
            .saturating_mul(self.timeout_unit_ms.max(1))
            / 1000)
            .saturating_sub(1)
    }

    /// The route install writes for an event: a `--deadline` and a longer
    /// host timeout when the event's hooks need more than the default.
    pub fn route(
        &self,
        claude: &'static str,
        fire: &str,
        deadline_secs: Option<u64>,
        matcher: Option<String>,
    ) -> Route {
        self.route_on(claude, fire, deadline_secs, matcher, System::current())
    }

    /// [`Wiring::route`] for entries run on `system`.
    pub fn route_on(
        &self,
        claude: &'static str,
        fire: &str,
        deadline_secs: Option<u64>,
        matcher: Option<String>,
        system: System,
    ) -> Route {
        // The host's own form (Copilot and Cline name the event: their
        // payloads do not).
        let fire = match self.host_event(claude) {
            Some(host_event) => super::host(self.host).fire_command(fire, host_event),
            None => fire.to_owned(),
        };
        let deadline_secs = deadline_secs.map(|secs| secs.min(self.max_deadline_secs()));
        let command = match deadline_secs {
            Some(secs) => format!("{fire} --deadline {secs}s"),
            None => fire,
        };
        let command = launch::finish(&command, launch::launcher(self.host, system));
        Route {
            claude,
            command,
            timeout: self.install_timeout(deadline_secs),
            matcher,
        }
    }

    /// One entry as install writes it.
    pub fn entry_with(&self, command: &str, timeout: Option<u64>) -> Value {
        self.entry_with_on(command, timeout, System::current())
    }

    /// The key of the command on `system` (Copilot's `powershell` field
    /// on Windows, which it runs with PowerShell).
    pub fn command_key_on(&self, system: System) -> &'static str {
        match (self.host, system) {
            (HostId::Copilot, System::Windows) => "powershell",
            _ => self.command_key,
        }
    }

    /// One entry as install writes it for `system`.
    pub fn entry_with_on(&self, command: &str, timeout: Option<u64>, system: System) -> Value {
        let mut entry = Map::new();
        if let Some(name) = self.name {
            entry.insert("name".into(), json!(name));
        }
        if self.typed {
            entry.insert("type".into(), json!("command"));
        }
        entry.insert(self.command_key_on(system).into(), json!(command));
        // Qwen Code picks its shell from the environment on Windows (Git
        // Bash, PowerShell or cmd.exe); the entry names PowerShell.
        if (self.host, system) == (HostId::Qwen, System::Windows) {
            entry.insert("shell".into(), json!("powershell"));
        }
        if let Some(value) = timeout {
            entry.insert(self.timeout_key().into(), json!(value));
        }
        Value::Object(entry)
    }
}

/// A command in install's form: its `--deadline` seconds, if any.
struct InstallForm {
    deadline: Option<u64>,
}

/// The `--deadline` seconds of a command in exactly the form install
/// writes (`/abs/path/hookrun fire --host HOST [--deadline Ns]`; the
/// binary may have another name, as `--binary` allows): `None` for any
/// other command.
fn install_form(w: &Wiring, command: &str, system: System) -> Option<InstallForm> {
    // The shell's form: PowerShell's call operator and exit code, or
    // neither.
    let powershell = launch::launcher(w.host, system) == Launcher::PowerShell;
    if powershell != (command.starts_with("& '") && command.ends_with(launch::POWERSHELL_EXIT)) {
        return None;
    }
    let words = launch::words(command)?;
    let program = words.first()?;
    // An absolute binary, or the project-pinned npm executable that
    // `install --pinned` writes.
    let pinned = shlex::split(PINNED_PROGRAM);
    if !launch::is_absolute(program, system)
        && pinned.as_deref().and_then(<[String]>::first) != Some(program)
    {
        return None;
    }
    if words.get(1..4)? != ["fire", "--host", w.host.name()] {
        return None;
    }
    // The event a host without event names in its payloads gets named.
    let mut rest = &words[4..];
    if let Some(event) = rest.first() {
        if w.events.iter().any(|(_, host_event)| host_event == event)
            && super::host(w.host).fire_command("", event) == format!(" {event}")
        {
            rest = &rest[1..];
        }
    }
    match rest {
        [] => Some(InstallForm { deadline: None }),
        [flag, value] if flag == "--deadline" => {
            let secs = value.strip_suffix('s')?;
            if secs.is_empty() || !secs.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some(InstallForm {
                deadline: Some(secs.parse().ok()?),
            })
        }
        _ => None,
    }
}

/// Whether `entry` is exactly what `hookrun install` writes for this host
/// (its command form, keys and the timeout that goes with the command):
/// only those are install's to replace or remove. Any other entry running
/// hookrun — other flags, another timeout, more keys — is the user's.
pub fn installed_by_hookrun(w: &Wiring, entry: &Value) -> bool {
    installed_by_hookrun_on(w, entry, System::current())
}

/// [`installed_by_hookrun`] for the entries install writes on `system`.
pub fn installed_by_hookrun_on(w: &Wiring, entry: &Value, system: System) -> bool {
    let Some(command) = entry.get(w.command_key_on(system)).and_then(Value::as_str) else {
        return false;
    };
    let Some(form) = install_form(w, command, system) else {
        return false;
    };
    *entry == w.entry_with_on(command, w.install_timeout(form.deadline), system)
}

/// The command of an entry, under any key install writes it with.
fn entry_command<'v>(w: &Wiring, entry: &'v Value) -> Option<&'v str> {
    [
        w.command_key_on(System::current()),
        w.command_key,
        w.command_key_on(System::Windows),
        "command",
    ]
    .iter()
    .find_map(|key| entry.get(*key).and_then(Value::as_str))
}

/// One command entry of a document and where it is.
#[derive(Debug, Clone)]
struct Located {
    event: String,
    group: usize,
    /// The index in the group's `hooks` (nested shape).
    index: Option<usize>,
    entry: Entry,
    ours: bool,
    /// The group holds only what install writes besides the entries.
    plain_group: bool,
}

impl Located {
    fn path(&self) -> Vec<Step> {
        let mut path = vec![
            key("hooks"),
            Step::Key(self.event.clone()),
            Step::Index(self.group),
        ];
        if let Some(i) = self.index {
            path.push(key("hooks"));
            path.push(Step::Index(i));
        }
        path
    }
}

fn locate(w: &Wiring, doc: &Value) -> Vec<Located> {
    let mut out = Vec::new();
    let Some(events) = doc.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    let found = entries(w, doc);
    let mut found = found.into_iter();
    for (event, list) in events {
        let Some(list) = list.as_array() else {
            continue;
        };
        for (g, item) in list.iter().enumerate() {
            let mut take = |entry: &Value, index: Option<usize>, plain_group: bool| {
                let has_command = entry_command(w, entry).is_some();
                if has_command {
                    let e = found.next().expect("entries() lists the same entries");
                    out.push(Located {
                        event: event.clone(),
                        group: g,
                        index,
                        ours: installed_by_hookrun(w, entry),
                        entry: e,
                        plain_group,
                    });
                }
            };
            match w.shape {
                Shape::Flat | Shape::Files => take(item, None, true),
                Shape::Nested => {
                    let plain = item
                        .as_object()
                        .is_some_and(|o| o.keys().all(|k| k == "hooks" || k == "matcher"));
                    if let Some(hooks) = item.get("hooks").and_then(Value::as_array) {
                        for (j, hook) in hooks.iter().enumerate() {
                            take(hook, Some(j), plain);
                        }
                    }
                }
            }
        }
    }
    out
}

/// Why a host document cannot take hookrun's entries.
#[derive(Debug, thiserror::Error)]
pub enum WiringError {
    #[error("is not a JSON object")]
    NotObject,
    #[error("`hooks` is not an object")]
    HooksNotObject,
    #[error("`hooks.{0}` is not an array")]
    EventNotArray(String),
    #[error(transparent)]
    Edit(#[from] crate::jsonedit::EditError),
}

/// What [`install`] or [`uninstall`] did to a document.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The host events routed to hookrun.
    pub routed: Vec<&'static str>,
    /// The Claude Code events the host does not have.
    pub missing: Vec<String>,
    /// How many of install's entries were removed.
    pub removed: usize,
    /// Entries that run hookrun but are not install's (the user's own):
    /// left as they are.
    pub kept: Vec<Entry>,
    /// Host events not routed because the user's own hookrun entry is there.
    pub skipped: Vec<&'static str>,
}

/// Routes every event of `routes` to hookrun in the document's text:
/// install's entries are updated in place, added where missing (in the
/// file's own style), and removed for events no longer routed; every other
/// entry (the user's own hookrun entries too) and every other byte stay.
pub fn install(w: &Wiring, doc: &mut Doc, routes: &[Route]) -> Result<Outcome, WiringError> {
    if !doc.value.is_object() {
        return Err(WiringError::NotObject);
    }
    if doc.value.get("hooks").is_some_and(|h| !h.is_object()) {
        return Err(WiringError::HooksNotObject);
    }
    let found = locate(w, &doc.value);
    let mut outcome = Outcome {
        kept: found
            .iter()
            .filter(|l| !l.ours && runs_hookrun(&l.entry.command))
            .map(|l| l.entry.clone())
            .collect(),
        ..Outcome::default()
    };
    if !routes.is_empty() && w.versioned && doc.value.get("version").is_none() {
        doc.prepend(&[], "version", &json!(1))?;
    }
    let mut keep: Vec<Vec<Step>> = Vec::new();
    for route in routes {
        let Some(host_event) = w.host_event(route.claude) else {
            outcome.missing.push(route.claude.to_owned());
            continue;
        };
        if outcome.routed.contains(&host_event) || outcome.skipped.contains(&host_event) {
            continue;
        }
        if outcome.kept.iter().any(|e| e.host_event == host_event) {
            outcome.skipped.push(host_event);
            continue;
        }
        let entry = w.entry_with(&route.command, route.timeout);
        if let Some(ours) = found
            .iter()
            .find(|l| l.ours && l.entry.host_event == host_event)
        {
            let path = ours.path();
            if doc_get(&doc.value, &path) != Some(&entry) {
                doc.replace(&path, &entry)?;
            }
            // The files Claude Code's FileChanged entry watches: kept in
            // step, on a group holding install's entry alone (any other
            // group's matcher is the user's).
            let alone = doc_get(&doc.value, &path[..4])
                .and_then(Value::as_array)
                .is_some_and(|hooks| hooks.len() == 1);
            if w.shape == Shape::Nested && route.matcher.is_some() && ours.plain_group && alone {
                set_matcher(doc, &path[..3], route.matcher.as_deref())?;
            }
            keep.push(path);
        } else {
            let item = match (w.shape, &route.matcher) {
                (Shape::Flat | Shape::Files, _) => entry,
                (Shape::Nested, None) => json!({"hooks": [entry]}),
                (Shape::Nested, Some(m)) => json!({"matcher": m, "hooks": [entry]}),
            };
            let hooks = doc.value.get("hooks");
            match hooks.and_then(|h| h.get(host_event)) {
                None if hooks.is_none() => {
                    doc.append(&[], Some("hooks"), &json!({host_event: [item]}))?;
                }
                None => doc.append(&[key("hooks")], Some(host_event), &json!([item]))?,
                Some(Value::Array(_)) => {
                    doc.append(&[key("hooks"), key(host_event)], None, &item)?;
                }
                Some(_) => return Err(WiringError::EventNotArray(host_event.to_owned())),
            }
        }
        outcome.routed.push(host_event);
    }
    let remove: Vec<&Located> = found
        .iter()
        .filter(|l| l.ours && !keep.contains(&l.path()))
        .collect();
    outcome.removed = remove.len();
    remove_located(doc, &remove)?;
    Ok(outcome)
}

/// Removes install's entries (and the groups, events and `hooks` object
/// left empty by that); the user's own hookrun entries stay (listed in
/// [`Outcome::kept`]).
pub fn uninstall(w: &Wiring, doc: &mut Doc) -> Result<Outcome, WiringError> {
    install(w, doc, &[])
}

/// What is left of a file install created once its entries are removed
/// (`{}`, or `{"version": 1}` for the hosts that need one): a document with
/// exactly these bytes was install's, and `uninstall` removes the file.
pub fn created_and_emptied(w: &Wiring) -> String {
    let mut doc = Doc::parse("{}\n").expect("valid JSON");
    if w.versioned {
        doc.prepend(&[], "version", &json!(1)).expect("an object");
    }
    doc.text
}

fn doc_get<'a>(value: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, step| match step {
        Step::Key(k) => v.get(k.as_str()),
        Step::Index(i) => v.get(*i),
    })
}

fn set_matcher(doc: &mut Doc, group: &[Step], matcher: Option<&str>) -> Result<(), EditError> {
    let mut path = group.to_vec();
    path.push(key("matcher"));
    let current = doc_get(&doc.value, &path).cloned();
    match (current, matcher) {
        (Some(c), Some(m)) if c == m => Ok(()),
        (Some(_), Some(m)) => doc.replace(&path, &json!(m)),
        (None, Some(m)) => doc.prepend(group, "matcher", &json!(m)),
        (Some(_), None) => doc.remove(&path),
        (None, None) => Ok(()),
    }
}

/// Removes entries, whole groups when nothing else is in them, whole
/// events and the `hooks` object when they held only those.
fn remove_located(doc: &mut Doc, remove: &[&Located]) -> Result<(), EditError> {
    if remove.is_empty() {
        return Ok(());
    }
    let value = doc.value.clone();
    let Some(events) = value.get("hooks").and_then(Value::as_object) else {
        return Ok(());
    };
    let mut ops: Vec<Vec<Step>> = Vec::new();
    let mut whole_events = 0;
    for (event, list) in events {
        let here: Vec<&&Located> = remove.iter().filter(|l| &l.event == event).collect();
        if here.is_empty() {
            continue;
        }
        let len = list.as_array().map_or(0, Vec::len);
        let mut groups: Vec<usize> = here.iter().map(|l| l.group).collect();
        groups.dedup();
        let whole_group = |g: usize| {
            let group = &list[g];
            let count = group
                .get("hooks")
                .and_then(Value::as_array)
                .map_or(1, Vec::len);
            let removed = here.iter().filter(|l| l.group == g).count();
            removed == count && here.iter().any(|l| l.group == g && l.plain_group)
        };
        if groups.len() == len && groups.iter().all(|g| whole_group(*g)) {
            ops.push(vec![key("hooks"), key(event)]);
            whole_events += 1;
            continue;
        }
        for g in groups.into_iter().rev() {
            if whole_group(g) {
                ops.push(vec![key("hooks"), key(event), Step::Index(g)]);
            } else {
                let mut entries: Vec<&&Located> =
                    here.iter().filter(|l| l.group == g).copied().collect();
                entries.sort_by_key(|l| std::cmp::Reverse(l.index));
                ops.extend(entries.iter().map(|l| l.path()));
            }
        }
    }
    if whole_events == events.len() {
        return doc.remove(&[key("hooks")]);
    }
    for path in ops {
        doc.remove(&path)?;
    }
    Ok(())
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

    fn routes(w: &Wiring, events: &[&'static str]) -> Vec<Route> {
        let fire = format!("/bin/hookrun fire --host {}", w.host.name());
        events
            .iter()
            .map(|e| w.route(e, &fire, None, None))
            .collect()
    }

    fn installed(w: &Wiring, text: &str, events: &[&'static str]) -> (Doc, Outcome) {
        let mut doc = Doc::parse(text).unwrap();
        let outcome = install(w, &mut doc, &routes(w, events)).unwrap();
        (doc, outcome)
    }

    #[test]
    fn install_is_idempotent_and_keeps_other_entries() {
        let w = wiring(HostId::Gemini);
        let mine = json!({
            "general": {"x": 1},
            "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./mine.sh"}]}]}
        });
        let text = serde_json::to_string_pretty(&mine).unwrap();
        let (mut doc, outcome) = installed(w, &text, &["PreToolUse", "Stop", "SubagentStop"]);
        assert_eq!(outcome.routed, ["BeforeTool", "AfterAgent"]);
        assert_eq!(outcome.missing, ["SubagentStop"]);
        let once = doc.text.clone();
        install(w, &mut doc, &routes(w, &["PreToolUse", "Stop"])).unwrap();
        assert_eq!(doc.text, once);
        assert_eq!(
            doc.value["hooks"]["BeforeTool"][1],
            json!({"hooks": [{"name": "hookrun", "type": "command", "command": "/bin/hookrun fire --host gemini", "timeout": 60000}]})
        );
        let outcome = uninstall(w, &mut doc).unwrap();
        assert_eq!(outcome.removed, 2);
        assert_eq!(doc.text, text, "the original bytes");
    }

    #[test]
    fn uninstall_after_install_gives_back_the_bytes_in_every_style() {
        let styles = [
            // Pretty, 2 spaces, final newline.
            "{\n  \"model\": \"x\",\n  \"hooks\": {\n    \"BeforeTool\": [\n      {\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"./a.sh\"}\n        ]\n      }\n    ]\n  }\n}\n",
            // Tabs, CRLF, no final newline.
            "{\r\n\t\"model\": \"x\",\r\n\t\"list\": [1, 2, 3]\r\n}",
            // Four spaces, inline arrays, comments (Gemini reads JSONC).
            "{\n    // my settings\n    \"ui\": {\"theme\": \"dark\"}, /* keep */\n    \"hooks\": {\"AfterAgent\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./b.sh\"}]}]}\n}\n",
            // Minified.
            "{\"model\":\"x\",\"hooks\":{\"BeforeTool\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"./c.sh\"}]}]}}",
            "{}",
        ];
        for host in [
            HostId::Gemini,
            HostId::ClaudeCode,
            HostId::Copilot,
            HostId::Codex,
        ] {
            let w = wiring(host);
            for style in styles {
                let (mut doc, _) = installed(w, style, &["PreToolUse", "Stop", "SessionStart"]);
                assert_ne!(doc.text, style);
                let added = doc.text.clone();
                let outcome = uninstall(w, &mut doc).unwrap();
                assert!(outcome.removed >= 2, "{host:?}\n{added}");
                if w.versioned && !style.contains("version") {
                    // The version install added stays (Copilot needs it).
                    assert!(doc.text.contains("\"version\": 1"), "{}", doc.text);
                    continue;
                }
                assert_eq!(doc.text, style, "{host:?} after:\n{added}");
            }
        }
    }

    #[test]
    fn only_installs_own_entries_are_replaced_or_removed() {
        let w = wiring(HostId::Gemini);
        let text = r#"{"hooks": {
  "BeforeTool": [{"hooks": [{"type": "command", "command": "/opt/hookrun fire --host gemini --fail-closed", "timeout": 60000}]}],
  "AfterAgent": [{"hooks": [{"name": "hookrun", "type": "command", "command": "/opt/hookrun fire --host gemini", "timeout": 120000}]}],
  "SessionStart": [{"hooks": [{"type": "command", "command": "hookrun fire --host gemini"}]}]
}}"#;
        let (mut doc, outcome) = installed(
            w,
            text,
            &["PreToolUse", "Stop", "SessionStart", "SessionEnd"],
        );
        assert_eq!(outcome.kept.len(), 3, "{:?}", outcome.kept);
        assert_eq!(
            outcome.skipped,
            ["BeforeTool", "AfterAgent", "SessionStart"]
        );
        assert_eq!(outcome.routed, ["SessionEnd"]);
        let outcome = uninstall(w, &mut doc).unwrap();
        assert_eq!(outcome.removed, 1);
        assert_eq!(doc.text, text);
        // Install's own entry from an earlier binary is updated in place.
        let old = "{\"hooks\": {\"BeforeTool\": [{\"hooks\": [{\"name\": \"hookrun\", \"type\": \"command\", \"command\": \"/old/hookrun fire --host gemini\", \"timeout\": 60000}]}, {\"hooks\": [{\"type\": \"command\", \"command\": \"./after.sh\"}]}]}}";
        let (doc, outcome) = installed(w, old, &["PreToolUse"]);
        assert_eq!(outcome.removed, 0);
        assert_eq!(doc.text, old.replace("/old/hookrun", "/bin/hookrun"));
    }

    #[test]
    fn each_hosts_windows_entry_round_trips() {
        let exe = std::path::Path::new(r"C:\Users\Ann O'Neil\bin\hookrun.exe");
        for w in all().filter(|w| w.shape != Shape::Files) {
            let claude = w.events[0].0;
            let Ok(fire) = crate::host::launch::fire_command(exe, w.host, System::Windows) else {
                // cmd.exe (Codex) cannot take a path with a space: a
                // plain one instead.
                assert_eq!(w.host, HostId::Codex);
                let plain = std::path::Path::new(r"C:\tools\hookrun.exe");
                let fire =
                    crate::host::launch::fire_command(plain, w.host, System::Windows).unwrap();
                let route = w.route_on(claude, &fire, Some(9), None, System::Windows);
                assert_eq!(
                    route.command,
                    r"C:\tools\hookrun.exe fire --host codex --deadline 9s"
                );
                let entry = w.entry_with_on(&route.command, route.timeout, System::Windows);
                assert!(
                    installed_by_hookrun_on(w, &entry, System::Windows),
                    "{entry}"
                );
                assert!(!installed_by_hookrun_on(w, &entry, System::Unix), "{entry}");
                continue;
            };
            for deadline in [None, Some(30)] {
                let route = w.route_on(claude, &fire, deadline, None, System::Windows);
                let entry = w.entry_with_on(&route.command, route.timeout, System::Windows);
                assert!(
                    installed_by_hookrun_on(w, &entry, System::Windows),
                    "{}: {entry}",
                    w.host.name()
                );
                // Not the Unix form, and not one changed by hand.
                assert!(!installed_by_hookrun_on(w, &entry, System::Unix), "{entry}");
                let key = w.command_key_on(System::Windows);
                let mut edited = entry.clone();
                edited[key] = json!(format!("{} --verbose", route.command));
                assert!(
                    !installed_by_hookrun_on(w, &edited, System::Windows),
                    "{edited}"
                );
                let command = entry[key].as_str().unwrap();
                assert!(runs_hookrun(command), "{command}");
                assert_eq!(named_host(command).as_deref(), Some(w.host.name()));
                match launch::launcher(w.host, System::Windows) {
                    Launcher::PowerShell => {
                        assert!(
                            command.starts_with(r"& 'C:\Users\Ann O''Neil\bin\hookrun.exe' fire"),
                            "{command}"
                        );
                        assert!(command.ends_with("; exit $LASTEXITCODE"), "{command}");
                    }
                    Launcher::GitBash => {
                        assert!(
                            command.starts_with(r#""C:/Users/Ann O'Neil/bin/hookrun.exe" fire"#),
                            "{command}"
                        );
                    }
                    other => panic!("{}: {other:?}", w.host.name()),
                }
            }
        }
        // The entries' keys: Copilot's `powershell` field, Qwen's shell.
        let copilot = wiring(HostId::Copilot);
        let entry = copilot.entry_with_on(
            "& 'C:\\h.exe' fire; exit $LASTEXITCODE",
            None,
            System::Windows,
        );
        assert!(
            entry.get("powershell").is_some() && entry.get("bash").is_none(),
            "{entry}"
        );
        let qwen = wiring(HostId::Qwen);
        let entry = qwen.entry_with_on("x", None, System::Windows);
        assert_eq!(entry["shell"], "powershell");
        assert!(
            qwen.entry_with_on("x", None, System::Unix)
                .get("shell")
                .is_none()
        );
    }

    #[test]
    fn windows_entries_install_and_uninstall_in_a_document() {
        // Written by hand as install writes them on Windows: uninstall on
        // Windows would remove them; here (another system) they count as
        // the user's own hookrun entries and stay.
        let w = wiring(HostId::Gemini);
        let fire = crate::host::launch::fire_command(
            std::path::Path::new(r"C:\h\hookrun.exe"),
            HostId::Gemini,
            System::Windows,
        )
        .unwrap();
        let route = w.route_on("PreToolUse", &fire, None, None, System::Windows);
        let entry = w.entry_with_on(&route.command, route.timeout, System::Windows);
        let doc = json!({"hooks": {"BeforeTool": [{"hooks": [entry]}]}});
        let found = entries(w, &doc);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].command, route.command);
        assert!(runs_hookrun(&found[0].command));
    }

    #[test]
    fn the_pinned_entry_install_writes_is_installs_own() {
        let w = wiring(HostId::ClaudeCode);
        let pinned = format!("{PINNED_PROGRAM} fire --host claude-code");
        let entry = w.entry_with(&pinned, w.install_timeout(None));
        assert!(installed_by_hookrun(w, &entry), "{entry}");
        // A relative program of the user's own is not.
        let own = w.entry_with(
            "node_modules/.bin/hookrun-native fire --host claude-code",
            None,
        );
        assert!(!installed_by_hookrun(w, &own));
    }

    #[test]
    fn a_groups_matcher_changes_only_for_file_changed_on_installs_own_group() {
        let w = wiring(HostId::ClaudeCode);
        let entry = w.entry("/bin/hookrun fire --host claude-code");
        let text = serde_json::to_string_pretty(&json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [entry]}],
            "FileChanged": [{"matcher": ".envrc", "hooks": [entry]}]
        }}))
        .unwrap();
        let fire = "/bin/hookrun fire --host claude-code";
        let routes = [
            w.route("PreToolUse", fire, None, None),
            w.route("FileChanged", fire, None, Some(".envrc|.env".into())),
        ];
        let mut doc = Doc::parse(&text).unwrap();
        install(w, &mut doc, &routes).unwrap();
        assert_eq!(doc.value["hooks"]["PreToolUse"][0]["matcher"], "Bash");
        assert_eq!(
            doc.value["hooks"]["FileChanged"][0]["matcher"],
            ".envrc|.env"
        );
        assert_eq!(doc.text, text.replace("\".envrc\"", "\".envrc|.env\""));
    }

    #[test]
    fn a_long_hook_gets_a_deadline_and_a_host_timeout_to_match() {
        let gemini = wiring(HostId::Gemini);
        let route = gemini.route("Stop", "/bin/hookrun fire --host gemini", Some(302), None);
        assert_eq!(
            route.command,
            "/bin/hookrun fire --host gemini --deadline 302s"
        );
        assert_eq!(route.timeout, Some(303_000), "milliseconds");
        let claude = wiring(HostId::ClaudeCode);
        let route = claude.route(
            "Stop",
            "/bin/hookrun fire --host claude-code",
            Some(902),
            None,
        );
        assert_eq!(route.timeout, Some(903), "seconds");
        let entry = claude.entry_with(&route.command, route.timeout);
        assert!(installed_by_hookrun(claude, &entry));
        let mut edited = entry.clone();
        edited["timeout"] = json!(30);
        assert!(!installed_by_hookrun(claude, &edited));
        assert!(installed_by_hookrun(
            claude,
            &claude.entry("/x/hookrun fire --host claude-code")
        ));
        assert!(!installed_by_hookrun(
            claude,
            &claude.entry("hookrun fire --host claude-code")
        ));
        assert!(installed_by_hookrun(
            claude,
            &claude.entry("/x/hookrun-nightly fire --host claude-code")
        ));
        let huge = claude.entry_with(
            "/x/hookrun fire --host claude-code --deadline 18446744073709551615s",
            Some(1),
        );
        assert!(!installed_by_hookrun(claude, &huge), "no overflow");
    }

    #[test]
    fn cursor_and_copilot_files_are_flat_and_versioned() {
        let (doc, _) = installed(wiring(HostId::Cursor), "{}", &["PreToolUse"]);
        assert_eq!(
            doc.value,
            json!({"version": 1, "hooks": {"preToolUse": [{"command": "/bin/hookrun fire --host cursor", "timeout": 30000}]}})
        );
        let (doc, _) = installed(wiring(HostId::Copilot), "{}\n", &["Stop"]);
        assert_eq!(
            doc.value,
            json!({"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "/bin/hookrun fire --host copilot agentStop", "timeoutSec": 30}]}})
        );
        let found = entries(wiring(HostId::Copilot), &doc.value);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].host_event.as_str(), found[0].timeout),
            ("agentStop", Some(30.0))
        );
        let mut doc = doc;
        uninstall(wiring(HostId::Copilot), &mut doc).unwrap();
        assert_eq!(doc.text, created_and_emptied(wiring(HostId::Copilot)));
    }
}
