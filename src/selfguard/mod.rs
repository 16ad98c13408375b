//! Built-in deny rules: the guard guards itself (SPEC §9.5).
//!
//! The agent runs with the user's own rights, so nothing outside the policy
//! stops it from switching hookrun off: running `hookrun untrust`, editing
//! the trust store, writing the state hookrun believes, removing the entry
//! that routes the host's events to hookrun. These rules deny such tool
//! calls on every host, whatever the settings say; only managed settings
//! can turn one off, by name (`disableBuiltinRules`).
//!
//! One row per rule in [`RULES`]: its name, what it protects and (in
//! [`Guard::reason`]) what the denial tells the person to do instead. They
//! are judged in `permissions::apply`, before the settings' own deny
//! rules, on the call's effects ([`effects::of`]: the programs it starts
//! and the files it writes). What a call cannot be read into exactly
//! matches the rule its text names (an unreadable command that mentions
//! `hookrun trust`, an interpreter's code that names hookrun's folder);
//! any other command hookrun cannot read (a program word only the running
//! shell knows: `h=hookrun; $h untrust`) is denied by `hookrun-commands`,
//! since it may run hookrun.
//!
//! What the rules cannot see: a program that writes a file without showing
//! its name (a script, an interpreter given a path in a variable, a copy of
//! hookrun under another name). docs/security.md says so, with the remedy
//! (deny the interpreters where that matters).

use crate::select::effects;
mod hostfiles;

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use effects::{Effects, Site, Write, WriteKind};
use hostfiles::HostFiles;

use crate::select::path_style::PathStyle;
use crate::select::reading::ToolCall;
use crate::select::rule::PathContext;
use crate::select::shell::HOLE;

use crate::settings::Settings;
use crate::settings::model::{FileState, SourceKind};

/// One built-in rule.
#[derive(Debug, PartialEq, Eq)]
pub struct BuiltinRule {
    /// How managed settings name it (`disableBuiltinRules`), and how
    /// `doctor`, `explain` and the reasons name it.
    pub name: &'static str,
    /// What it protects, for `doctor`.
    pub protects: &'static str,
    guards: Guards,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Guards {
    Commands,
    TrustStore,
    Settings,
    State,
    Log,
    Program,
    HostEntries,
}

/// The built-in rules, in the order they are judged.
pub const RULES: &[BuiltinRule] = &[
    BuiltinRule {
        name: "hookrun-commands",
        protects: "running `hookrun trust`, `untrust`, `install`, `uninstall` or `init` (any path or spelling of the program, through wrappers, shells and package runners)",
        guards: Guards::Commands,
    },
    BuiltinRule {
        name: "hookrun-trust-store",
        protects: "writing hookrun's trust store (trust.json and the trusted copies beside it)",
        guards: Guards::TrustStore,
    },
    BuiltinRule {
        name: "hookrun-settings",
        protects: "writing hookrun's settings: the user folder, every `.hookrun/` folder, the managed file and the settings files this fire loaded",
        guards: Guards::Settings,
    },
    BuiltinRule {
        name: "hookrun-state",
        protects: "writing hookrun's state folder (stop-loop counters, carried context, `once` claims, async results)",
        guards: Guards::State,
    },
    BuiltinRule {
        name: "hookrun-log",
        protects: "writing hookrun's audit log",
        guards: Guards::Log,
    },
    BuiltinRule {
        name: "hookrun-program",
        protects: "replacing or removing the hookrun program that is running",
        guards: Guards::Program,
    },
    BuiltinRule {
        name: "host-entries",
        protects: "changing the entries that route a host's events to hookrun, or turning the host's hooks off (only hookrun's part of a host file: the rest stays the user's)",
        guards: Guards::HostEntries,
    },
];

/// The subcommands that change what hookrun enforces.
pub const GUARDED_SUBCOMMANDS: &[&str] = &["trust", "untrust", "install", "uninstall", "init"];

/// Where hookrun's own files are, for one fire.
#[derive(Debug, Clone)]
pub struct Places {
    pub project: PathBuf,
    pub home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME/hookrun` (user settings, trust store).
    pub config_dir: Option<PathBuf>,
    pub state_dir: Option<PathBuf>,
    pub logs: Vec<PathBuf>,
    /// Settings files outside `.hookrun/` folders and the config folder
    /// (`--settings` files, the managed file).
    pub settings_files: Vec<PathBuf>,
    pub codex_home: Option<PathBuf>,
    /// The variables a command's paths may name that hookrun expands
    /// itself ([`effects::KNOWN_VARIABLES`]), from its own environment.
    pub vars: Vec<(OsString, OsString)>,
    /// How the system spells paths: on Windows a place is reached by any
    /// spelling of it (case, separator, drive letter).
    pub style: PathStyle,
}

/// The folder of the default managed settings.
const MANAGED_DIR: &str = "/etc/hookrun";

fn var(env: &[(OsString, OsString)], name: &str) -> Option<PathBuf> {
    env.iter()
        .find(|(k, v)| k == name && !v.is_empty())
        .map(|(_, v)| PathBuf::from(v))
}

impl Default for Places {
    fn default() -> Places {
        Places {
            project: PathBuf::new(),
            home: None,
            config_dir: None,
            state_dir: None,
            logs: Vec::new(),
            settings_files: Vec::new(),
            codex_home: None,
            vars: Vec::new(),
            style: PathStyle::native(),
        }
    }
}

impl Places {
    /// The places of a fire: its settings, project, home, hookrun's
    /// environment, state folder and log.
    pub fn of(
        settings: &Settings,
        project: &Path,
        home: Option<&Path>,
        env: &[(OsString, OsString)],
        state_dir: Option<&Path>,
        log: Option<&Path>,
    ) -> Places {
        let config_dir = var(env, "XDG_CONFIG_HOME")
            .filter(|p| p.is_absolute())
            .or_else(|| home.map(|h| h.join(".config")))
            .map(|base| base.join("hookrun"));
        let settings_files = settings
            .files
            .iter()
            .filter(|f| !f.kind().is_project_scoped())
            .map(|f| f.path().to_path_buf())
            .collect();
        let logs = log
            .map(Path::to_path_buf)
            .into_iter()
            .chain(settings.files.iter().filter_map(|f| f.log.clone()))
            .collect();
        Places {
            project: project.to_path_buf(),
            home: home.map(Path::to_path_buf),
            config_dir,
            state_dir: state_dir.map(Path::to_path_buf),
            logs,
            settings_files,
            codex_home: var(env, "CODEX_HOME"),
            vars: env
                .iter()
                .filter(|(k, _)| effects::KNOWN_VARIABLES.iter().any(|n| k == n))
                .cloned()
                .collect(),
            style: PathStyle::native(),
        }
    }
}

/// The built-in rules in force for one fire, and where they look.
#[derive(Debug)]
pub struct Guard {
    places: Places,
    /// Rules managed settings turned off.
    off: Vec<&'static str>,
    /// Names in `disableBuiltinRules` that name no rule.
    pub warnings: Vec<String>,
    host_files: OnceCell<HostFiles>,
    program: OnceCell<Option<PathBuf>>,
    /// Places resolved on disk, when that changed them (`None`: as
    /// written), asked for once each.
    resolved: std::cell::RefCell<Vec<(PathBuf, Option<PathBuf>)>>,
}

/// A built-in rule that denies a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub rule: &'static BuiltinRule,
    /// What the call does that the rule forbids, in words.
    pub what: String,
    /// What the person can do instead.
    pub instead: String,
    /// Matched because hookrun cannot read the call exactly, and why.
    pub cannot_judge: Option<String>,
}

impl Hit {
    /// The denial's reason, for the agent and the person.
    pub fn reason(&self) -> String {
        let mut reason = format!(
            "hookrun's built-in rule {} denies this call: it {}. An agent may not change what hookrun enforces; {}",
            self.rule.name, self.what, self.instead
        );
        if let Some(why) = &self.cannot_judge {
            let _ = write!(reason, " (hookrun cannot read this call exactly: {why})");
        }
        reason
    }
}

impl Guard {
    /// The rules of a fire whose managed settings are in `settings`.
    pub fn new(places: Places, settings: &Settings) -> Guard {
        let mut off = Vec::new();
        let mut warnings = Vec::new();
        for file in settings
            .files
            .iter()
            .filter(|f| f.kind() == SourceKind::Managed && f.state == FileState::Loaded)
        {
            for name in &file.policy.disabled_builtin_rules {
                match RULES.iter().find(|r| r.name == name) {
                    Some(rule) => off.push(rule.name),
                    None => warnings.push(format!(
                        "{}: disableBuiltinRules names no built-in rule {name:?} (the rules are {})",
                        file.path().display(),
                        names()
                    )),
                }
            }
        }
        Guard {
            places,
            off,
            warnings,
            host_files: OnceCell::new(),
            program: OnceCell::new(),
            resolved: std::cell::RefCell::default(),
        }
    }

    /// Whether `rule` is in force (not turned off by managed settings).
    pub fn is_on(&self, rule: &BuiltinRule) -> bool {
        !self.off.contains(&rule.name)
    }

    fn on(&self, guards: Guards) -> Option<&'static BuiltinRule> {
        RULES
            .iter()
            .find(|r| r.guards == guards)
            .filter(|r| self.is_on(r))
    }

    /// The first built-in rule that denies a call of `tool_name` made in
    /// `cwd`, if one does. `shallow`: its input, where a string too long to
    /// decode cheaply may read `""` (the event keeps such strings undecoded:
    /// a path that long cannot be opened); `full`: the whole input, asked
    /// for when the rules need it (a command, the content written to a
    /// host's file).
    pub fn judge<'v>(
        &self,
        tool_name: &str,
        shallow: &'v serde_json::Value,
        full: &dyn Fn() -> &'v serde_json::Value,
        cwd: &Path,
    ) -> Option<Hit> {
        let shell = effects::is_shell_tool(tool_name) || effects::TYPING_TOOLS.contains(&tool_name);
        let file_tool = matches!(tool_name, "Write" | "Edit" | "MultiEdit" | "NotebookEdit");
        if !(shell || file_tool) || self.off.len() == RULES.len() {
            return None;
        }
        let site = Site {
            cwd,
            home: self.places.home.as_deref(),
            env: &self.places.vars,
            style: self.places.style,
        };
        let call = ToolCall {
            tool_name,
            tool_input: if shell { full() } else { shallow },
        };
        let effects = effects::of(call, &site);
        let change = || {
            effects
                .one_file_change
                .then(|| effects::change_of(tool_name, full()))
                .flatten()
        };
        self.commands(&effects)
            .or_else(|| self.writes(&effects, &site, &change))
            .or_else(|| self.unread(&effects))
    }

    /// `hookrun trust`… among the programs the call starts.
    fn commands(&self, effects: &Effects) -> Option<Hit> {
        let rule = self.on(Guards::Commands)?;
        for view in effects.programs.iter().filter(|v| v.contains("hookrun")) {
            let words: Vec<String> = view.split(' ').map(str::to_owned).collect();
            if let Some(found) = hookrun_invocation(&words) {
                let (sub, cannot_judge) = match found {
                    Invocation::Sub(sub) => (sub, None),
                    Invocation::Unknown => (
                        String::new(),
                        Some("its subcommand comes from an expansion".to_owned()),
                    ),
                };
                let shown = words
                    .iter()
                    .map(|w| w.replace(HOLE, "…"))
                    .collect::<Vec<_>>()
                    .join(" ");
                return Some(Hit {
                    rule,
                    what: if sub.is_empty() {
                        format!("runs hookrun (`{}`)", crate::text::shorten(&shown, 80))
                    } else {
                        format!("runs `hookrun {sub}`")
                    },
                    instead: format!(
                        "if it is what you want, run `{}` yourself in a terminal",
                        crate::text::shorten(&shown, 120)
                    ),
                    cannot_judge,
                });
            }
        }
        None
    }

    /// A write to one of hookrun's files.
    fn writes(
        &self,
        effects: &Effects,
        site: &Site<'_>,
        change: &dyn Fn() -> Option<effects::Change>,
    ) -> Option<Hit> {
        for write in &effects.writes {
            if let Some(hit) = self.write(write, site, change) {
                return Some(hit);
            }
        }
        // An interpreter given code that names hookrun's files.
        for view in &effects.programs {
            let (first, code) = view.split_once(' ').unwrap_or((view, ""));
            let name = program_name(first);
            if !INTERPRETERS.contains(&name) || code.is_empty() {
                continue;
            }
            if let Some((rule, place)) = self.mentioned(code) {
                return Some(Hit {
                    rule,
                    what: format!("runs `{name}` with code that names {place}"),
                    instead: "make the change yourself".to_owned(),
                    cannot_judge: Some(format!("what `{name}` writes is its own code's business")),
                });
            }
        }
        None
    }

    fn write(
        &self,
        write: &Write,
        site: &Site<'_>,
        change: &dyn Fn() -> Option<effects::Change>,
    ) -> Option<Hit> {
        let written = Path::new(&write.path);
        if write.dynamic {
            return self.dynamic_write(write);
        }
        let target = self
            .places
            .style
            .absolute(&write.dir, &written.to_string_lossy());
        let real = real_path(write, site, self.places.style);
        let real = match real {
            Ok(real) => real.filter(|r| *r != target),
            Err(why) => {
                return self.on(Guards::Settings).map(|rule| Hit {
                    rule,
                    what: format!("writes `{}`", write.path),
                    instead: "write to the file by its own path".to_owned(),
                    cannot_judge: Some(why),
                });
            }
        };
        for path in std::iter::once(&target).chain(real.as_ref()) {
            if let Some(hit) = self.place_hit(path, write.kind) {
                return Some(hit);
            }
        }
        let rule = self.on(Guards::HostEntries)?;
        if !hostfiles::may_be_one(&target, write.kind)
            && !real
                .as_deref()
                .is_some_and(|r| hostfiles::may_be_one(r, write.kind))
        {
            return None;
        }
        let harm = self
            .host_files()
            .judge(write, &target, real.as_deref(), change)?;
        Some(Hit {
            rule,
            what: format!("{} in {}", harm.what, harm.file.display()),
            instead: format!(
                "to stop routing {} to hookrun, run `hookrun uninstall {}` yourself (or edit the file yourself)",
                harm.host.display(),
                harm.host.name()
            ),
            cannot_judge: None,
        })
    }

    /// A place (as hookrun knows it) in the form paths are compared in.
    fn key<'p>(&self, place: &'p Path) -> Cow<'p, Path> {
        self.places.style.key(place)
    }

    /// `place` with its symbolic links resolved, when that differs (in
    /// compare form).
    fn resolved(&self, place: &Path) -> Option<PathBuf> {
        if let Some((_, real)) = self.resolved.borrow().iter().find(|(p, _)| p == place) {
            return real.clone();
        }
        let real =
            Some(self.key(&resolved(place)).into_owned()).filter(|real| *real != *self.key(place));
        self.resolved
            .borrow_mut()
            .push((place.to_path_buf(), real.clone()));
        real
    }

    fn host_files(&self) -> &HostFiles {
        self.host_files.get_or_init(|| {
            HostFiles::new(
                &self.places.project,
                self.places.home.as_deref(),
                self.places.codex_home.as_deref(),
            )
            .in_style(self.places.style)
        })
    }

    /// Which of hookrun's places `path` (absolute, normalised) is in, or
    /// (for a write that reaches what is below it) holds.
    fn place_hit(&self, path: &Path, kind: WriteKind) -> Option<Hit> {
        // The place as written and as it opens (a home folder behind a
        // symbolic link): the path may be either.
        let within = |place: &Path| {
            path.starts_with(self.key(place))
                || self.resolved(place).is_some_and(|r| path.starts_with(r))
        };
        let holds = |place: &Path| {
            kind == WriteKind::Tree
                && (self.key(place).starts_with(path)
                    || self.resolved(place).is_some_and(|r| r.starts_with(path)))
        };
        // What the call does to `place`, in words.
        let does = |place: &Path, what: &str| {
            if within(place) {
                format!("writes {what} ({})", path.display())
            } else {
                format!(
                    "removes or changes {}, which holds {what} ({})",
                    path.display(),
                    place.display()
                )
            }
        };
        let reaches = |place: &Path| within(place) || holds(place);
        if let Some(config) = &self.places.config_dir {
            // The store is read without following a link at its own name:
            // the folder's resolution is the store's.
            let store = [config.join("trust.json"), config.join("trusted")];
            let store_keys = store.clone().map(|p| self.key(&p).into_owned());
            let real_store = self
                .resolved(config)
                .map(|real| [real.join("trust.json"), real.join("trusted")]);
            let reaches_store = |place: &Path, real: Option<&Path>| {
                path.starts_with(place)
                    || real.is_some_and(|r| path.starts_with(r))
                    || (kind == WriteKind::Tree
                        && (place.starts_with(path) || real.is_some_and(|r| r.starts_with(path))))
            };
            let found = store.iter().enumerate().find(|(i, _)| {
                reaches_store(
                    &store_keys[*i],
                    real_store.as_ref().map(|r| r[*i].as_path()),
                )
            });
            if let Some((_, place)) = found {
                if let Some(rule) = self.on(Guards::TrustStore) {
                    return Some(Hit {
                        rule,
                        what: does(place, "hookrun's trust store"),
                        instead: "to trust or untrust a project, review it and run `hookrun trust` or `hookrun untrust` yourself".to_owned(),
                        cannot_judge: None,
                    });
                }
            }
        }
        if let Some(rule) = self.on(Guards::Settings) {
            if let Some(place) = self.settings_place(path, kind, &reaches) {
                return Some(Hit {
                    rule,
                    what: does(&place, "hookrun's settings"),
                    instead: "edit the settings yourself (a project's file then takes effect once you run `hookrun trust`)".to_owned(),
                    cannot_judge: None,
                });
            }
        }
        if let (Some(rule), Some(state)) = (self.on(Guards::State), &self.places.state_dir) {
            if reaches(state) {
                return Some(Hit {
                    rule,
                    what: does(state, "hookrun's state, which only hookrun writes,"),
                    instead: format!("if it must be reset, remove {} yourself", state.display()),
                    cannot_judge: None,
                });
            }
        }
        if let Some(rule) = self.on(Guards::Log) {
            if let Some(log) = self.places.logs.iter().find(|l| reaches(l)) {
                return Some(Hit {
                    rule,
                    what: does(log, "hookrun's audit log"),
                    instead: "rotate or remove the log yourself".to_owned(),
                    cannot_judge: None,
                });
            }
        }
        if let Some(rule) = self.on(Guards::Program) {
            let program = self
                .program
                .get_or_init(|| std::env::current_exe().ok().map(|p| normalize(&p)));
            // The program as it is known (`reaches` brings it to compare form).
            if let Some(program) = program.as_deref().filter(|p| reaches(p)) {
                return Some(Hit {
                    rule,
                    what: does(program, "the hookrun program"),
                    instead: "upgrade or reinstall hookrun yourself".to_owned(),
                    cannot_judge: None,
                });
            }
        }
        None
    }

    /// The settings place `path` reaches, if it reaches one.
    fn settings_place(
        &self,
        path: &Path,
        kind: WriteKind,
        reaches: &dyn Fn(&Path) -> bool,
    ) -> Option<PathBuf> {
        // Any `.hookrun/` folder: the project's, a nested layer's, one
        // being made.
        if let Some(at) = path
            .ancestors()
            .find(|dir| dir.file_name().is_some_and(|name| name == ".hookrun"))
        {
            return Some(at.to_path_buf());
        }
        if kind == WriteKind::Tree {
            let opened = self.places.style.opened(path).join(".hookrun");
            for layer in [self.places.project.join(".hookrun"), opened] {
                if self.key(&layer).starts_with(path) && layer.exists() {
                    return Some(layer);
                }
            }
        }
        self.places
            .config_dir
            .iter()
            .cloned()
            .chain(std::iter::once(PathBuf::from(MANAGED_DIR)))
            .chain(self.places.settings_files.iter().cloned())
            .find(|place| reaches(place))
    }

    /// A path hookrun can read only the start of (`~/.config/$X`): denied
    /// when that start could lead to one of hookrun's places.
    fn dynamic_write(&self, write: &Write) -> Option<Hit> {
        let literal: String = write
            .path
            .chars()
            .take_while(|c| !matches!(c, '*' | '?' | '[') && *c != HOLE)
            .collect();
        // A path that starts with an expansion could be anything: not
        // judged (the rules say so in docs/security.md).
        if literal.is_empty() || literal == "." || literal == "./" {
            return None;
        }
        let start = self.places.style.absolute(&write.dir, &literal);
        let separators: &[char] = match self.places.style {
            PathStyle::Posix => &['/'],
            PathStyle::Windows => &['/', '\\'],
        };
        let start_text = if literal.ends_with(separators) {
            format!("{}/", start.display())
        } else {
            start.display().to_string()
        };
        let mentions_layer = literal.contains(".hookrun");
        let (rule, place) = self.places_list().into_iter().find(|(_, place)| {
            let place = self.key(place);
            let place_text = place.display().to_string();
            place_text.starts_with(&start_text) || place.starts_with(&start)
        })?;
        let rule = if mentions_layer {
            self.on(Guards::Settings)?
        } else {
            rule
        };
        Some(Hit {
            rule,
            what: format!(
                "writes `{}`, which may be {}",
                write.path.replace(HOLE, "$"),
                place.display()
            ),
            instead: "write to the file by its own path".to_owned(),
            cannot_judge: Some("the path holds an expansion or a glob".to_owned()),
        })
    }

    /// hookrun's places, each with the rule that protects it.
    fn places_list(&self) -> Vec<(&'static BuiltinRule, PathBuf)> {
        let mut out = Vec::new();
        let mut add = |guards: Guards, path: PathBuf| {
            if let Some(rule) = self.on(guards) {
                out.push((rule, path));
            }
        };
        if let Some(config) = &self.places.config_dir {
            add(Guards::TrustStore, config.join("trust.json"));
            add(Guards::Settings, config.clone());
        }
        add(Guards::Settings, self.places.project.join(".hookrun"));
        for file in &self.places.settings_files {
            add(Guards::Settings, file.clone());
        }
        if let Some(state) = &self.places.state_dir {
            add(Guards::State, state.clone());
        }
        for log in &self.places.logs {
            add(Guards::Log, log.clone());
        }
        out
    }

    /// Which of hookrun's places `text` names, if any.
    fn mentioned(&self, text: &str) -> Option<(&'static BuiltinRule, String)> {
        let folded = fold(self.places.style, text);
        let text = folded.as_ref();
        if text.contains(".hookrun") {
            return self
                .on(Guards::Settings)
                .map(|r| (r, "a `.hookrun` folder".to_owned()));
        }
        if text.contains("/.config/hookrun") || text.contains("/state/hookrun") {
            let guards = if text.contains("/state/hookrun") {
                Guards::State
            } else {
                Guards::Settings
            };
            return self.on(guards).map(|r| (r, "hookrun's folder".to_owned()));
        }
        self.places_list()
            .into_iter()
            .find(|(_, place)| {
                let written = fold(self.places.style, &place.to_string_lossy()).into_owned();
                let key = self.key(place).to_string_lossy().into_owned();
                [written, key]
                    .iter()
                    .any(|place| place.len() > 1 && text.contains(place.as_str()))
            })
            .map(|(rule, place)| (rule, place.display().to_string()))
    }

    /// Text hookrun could not read that names what a rule protects.
    fn unread(&self, effects: &Effects) -> Option<Hit> {
        for unread in effects.unread.iter().chain(&effects.typed) {
            let names_command = unread.text.contains("hookrun")
                && unread
                    .text
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| GUARDED_SUBCOMMANDS.contains(&w));
            if names_command {
                if let Some(rule) = self.on(Guards::Commands) {
                    return Some(Hit {
                        rule,
                        what: format!(
                            "may run hookrun (`{}`)",
                            crate::text::shorten(&unread.text, 80)
                        ),
                        instead:
                            "if it is what you want, run the hookrun command yourself in a terminal"
                                .to_owned(),
                        cannot_judge: Some(unread.why.clone()),
                    });
                }
            }
            if let Some((rule, place)) = self.mentioned(&unread.text) {
                return Some(Hit {
                    rule,
                    what: format!(
                        "may write {place} (`{}`)",
                        crate::text::shorten(&unread.text, 80)
                    ),
                    instead: "make the change yourself".to_owned(),
                    cannot_judge: Some(unread.why.clone()),
                });
            }
        }
        // Any other part hookrun cannot read may run hookrun too: a
        // command word only the running shell knows (`h=hookrun; $h
        // untrust`), a shell reading a pipe. Denied like the rest, with
        // how to write it plainly.
        let unread = effects.unread.first()?;
        let rule = self.on(Guards::Commands)?;
        Some(Hit {
            rule,
            what: format!(
                "may run hookrun (`{}`): hookrun cannot tell which program it starts",
                crate::text::shorten(&unread.text, 80)
            ),
            instead: "write the command with its program named plainly (no program from a variable, no script piped into a shell), or run it yourself in a terminal".to_owned(),
            cannot_judge: Some(unread.why.clone()),
        })
    }
}

/// Interpreters whose inline code can write any file.
const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "deno",
    "bun",
    "php",
    "lua",
    "luajit",
    "tclsh",
    "pwsh",
    "powershell",
    "osascript",
    "awk",
    "gawk",
    "mawk",
    "jq",
];

/// The rule names, for messages.
pub fn names() -> String {
    RULES.iter().map(|r| r.name).collect::<Vec<_>>().join(", ")
}

/// What the path opens on disk, when that differs from what it says
/// (symbolic links, `/proc/self/cwd`); `Err`: it goes through another
/// process's `/proc` entry, whose target hookrun cannot tell.
fn real_path(write: &Write, site: &Site<'_>, style: PathStyle) -> Result<Option<PathBuf>, String> {
    let paths = PathContext {
        cwd: &write.dir,
        home: site.home,
        anchor: &write.dir,
        style,
    };
    match crate::select::file_pattern::resolve_on_disk(&write.path, &paths) {
        crate::select::file_pattern::OnDisk::Resolved(real) => {
            Ok(Some(style.key(&real).into_owned()))
        }
        // A descriptor (`/dev/fd/2`, `/proc/self/fd/1`) was opened elsewhere,
        // where that opening is judged; another process's folder
        // (`/proc/123/cwd/…`) could be anything.
        crate::select::file_pattern::OnDisk::Unknown(why) => {
            if write.path.starts_with("/dev/fd")
                || write.path.contains("/fd/")
                || write.path.contains("/map_files/")
            {
                Ok(None)
            } else {
                Err(why)
            }
        }
    }
}

/// Text (code, a command hookrun cannot read) as places are looked for in
/// it: on Windows with `/` for every run of separators (`\\` in a string
/// literal too), in lower case.
fn fold(style: PathStyle, text: &str) -> Cow<'_, str> {
    match style {
        PathStyle::Posix => Cow::Borrowed(text),
        PathStyle::Windows => {
            let mut out = String::with_capacity(text.len());
            for c in text.chars() {
                let c = if c == '\\' { '/' } else { c };
                if !(c == '/' && out.ends_with('/')) {
                    out.extend(c.to_lowercase());
                }
            }
            Cow::Owned(out)
        }
    }
}

fn normalize(path: &Path) -> PathBuf {
    crate::select::path_style::normalize(path)
}

/// `place` with its symbolic links resolved, as far as it exists (the
/// rest appended as written): one `realpath` for a place that exists.
fn resolved(place: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut current = place;
    loop {
        if let Ok(real) = std::fs::canonicalize(current) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        match (current.parent(), current.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                current = parent;
            }
            _ => return place.to_path_buf(),
        }
    }
}

/// A program word's name: its base name, without a version (`hookrun@1`),
/// a scope (`@hookrun/linux-x64`) or an extension (`.exe`, `.js`).
fn program_name(word: &str) -> &str {
    let word = word.rsplit('/').next().unwrap_or(word);
    let word = match word.find('@') {
        Some(0) | None => word,
        Some(at) => &word[..at],
    };
    [".exe", ".js", ".cjs", ".mjs", ".cmd", ".ps1"]
        .iter()
        .find_map(|ext| word.strip_suffix(ext))
        .unwrap_or(word)
}

fn is_hookrun(word: &str) -> bool {
    if let Some(scoped) = word.strip_prefix("@hookrun/") {
        return !scoped.is_empty();
    }
    let name = program_name(word);
    name == "hookrun"
        || name.starts_with("hookrun-")
        || name.starts_with("hookrun_")
        || name.starts_with("hookrun.")
}

/// What a program's words run, when they run hookrun.
#[derive(Debug, PartialEq, Eq)]
enum Invocation {
    /// One of [`GUARDED_SUBCOMMANDS`].
    Sub(String),
    /// A subcommand only the running shell knows.
    Unknown,
}

/// Package runners and how many of their own words come before the
/// package: (runner, subcommand that must follow it, if any).
const PACKAGE_RUNNERS: &[(&str, Option<&str>)] = &[
    ("npx", None),
    ("pnpx", None),
    ("bunx", None),
    ("uvx", None),
    ("npm", Some("exec")),
    ("npm", Some("x")),
    ("pnpm", Some("dlx")),
    ("pnpm", Some("exec")),
    ("yarn", Some("dlx")),
    ("yarn", Some("exec")),
    ("bun", Some("x")),
    ("pipx", Some("run")),
    ("uv", Some("run")),
    ("node", None),
    ("nodejs", None),
    ("deno", Some("run")),
];

/// Options of package runners that take a value.
const RUNNER_VALUES: &[&str] = &[
    "-p",
    "--package",
    "--from",
    "--spec",
    "--python",
    "-w",
    "--workspace",
    "--prefix",
    "--cache",
    "--registry",
    "--with",
];

/// Whether `words` (one program and its arguments) run a hookrun
/// subcommand that changes what hookrun enforces.
fn hookrun_invocation(words: &[String]) -> Option<Invocation> {
    let mut i = 0;
    while i < words.len() {
        let word = words[i].as_str();
        if is_hookrun(word) {
            return subcommand(&words[i + 1..]);
        }
        let name = program_name(word);
        if i > 0 && word == "--" {
            i += 1;
            continue;
        }
        // `python -m hookrun …`
        if name.starts_with("python") && words.get(i + 1).map(String::as_str) == Some("-m") {
            return words
                .get(i + 2)
                .filter(|m| is_hookrun(m))
                .and_then(|_| subcommand(&words[i + 3..]));
        }
        let runner = PACKAGE_RUNNERS.iter().find(|(r, sub)| {
            *r == name && sub.is_none_or(|s| words.get(i + 1).map(String::as_str) == Some(s))
        });
        let (_, sub) = runner?;
        i += 1 + usize::from(sub.is_some());
        // The runner's options, then the package (or script).
        while let Some(option) = words.get(i).filter(|w| w.starts_with('-') && *w != "--") {
            if option == "-c" || option == "--call" {
                // `npx -c 'hookrun trust'`: a command line of its own.
                let line: Vec<String> = words
                    .get(i + 1)
                    .map(|l| l.split_whitespace().map(str::to_owned).collect())
                    .unwrap_or_default();
                return hookrun_invocation(&line);
            }
            let takes_value = RUNNER_VALUES.contains(&option.as_str());
            i += 1 + usize::from(takes_value);
        }
    }
    None
}

/// The first word after the program that is not an option.
fn subcommand(rest: &[String]) -> Option<Invocation> {
    let word = rest.iter().find(|w| !w.starts_with('-'))?;
    if word.contains(HOLE) {
        return Some(Invocation::Unknown);
    }
    GUARDED_SUBCOMMANDS
        .contains(&word.as_str())
        .then(|| Invocation::Sub(word.clone()))
}

/// The environment markers of hosts' own shells: a weakening command that
/// sees one and no terminal refuses without `--yes`. Claude Code's and
/// Copilot CLI's are measured in their hooks' environment (which their
/// shell tools share); Gemini CLI and Qwen Code document theirs for the
/// commands their shell tool runs; `AI_AGENT` is the name agents share.
pub const AGENT_MARKERS: &[(&str, &str)] = &[
    ("CLAUDECODE", "Claude Code"),
    ("CLAUDE_CODE_ENTRYPOINT", "Claude Code"),
    ("GEMINI_CLI", "Gemini CLI"),
    ("QWEN_CODE", "Qwen Code"),
    ("COPILOT_CLI", "Copilot CLI"),
    ("CODEX_SANDBOX", "Codex"),
    ("CODEX_SANDBOX_NETWORK_DISABLED", "Codex"),
    ("AI_AGENT", "an agent"),
];

/// The host whose shell this environment looks like (its marker), if any.
/// Codex adds no variable but puts its helper folder first on `PATH`.
pub fn agent_marker(lookup: impl Fn(&str) -> Option<OsString>) -> Option<String> {
    for (name, host) in AGENT_MARKERS {
        if lookup(name).is_some_and(|v| !v.is_empty()) {
            return Some(format!("{host} ({name} is set)"));
        }
    }
    let path = lookup("PATH")?;
    std::env::split_paths(&path)
        .any(|dir| {
            dir.components()
                .any(|c| c.as_os_str().to_string_lossy().starts_with("codex-arg0"))
        })
        .then(|| "Codex (its helper folder is on PATH)".to_owned())
}

/// For `doctor`: each rule and whether it is in force, and the names
/// managed settings gave that name no rule.
pub fn listing(settings: &Settings) -> (Vec<(&'static BuiltinRule, bool)>, Vec<String>) {
    let guard = Guard::new(Places::default(), settings);
    let rules = RULES.iter().map(|r| (r, guard.is_on(r))).collect();
    (rules, guard.warnings)
}

#[cfg(test)]
mod tests;
