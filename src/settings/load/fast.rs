//! The fast path of the loader: the file straight into typed hooks, with no
//! `Value` tree for `hooks`, no path tracking and no JSON path formatted
//! until a hook is kept. It accepts only files the precise path would load
//! without a structural problem; on anything else (`None`) the precise path
//! runs and reports. What it accepts goes through the same checks
//! ([`finish_hook`]) and the same top-level handling, so both paths give the
//! same settings and the same problems (unit tests compare them).

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::Reporter;
use super::hooks::{
    EntryContext, HOOK_FIELDS, MatcherFrom, RawHook, event_path, finish_hook, unknown_event,
};
use crate::catalog::EventId;
use crate::settings::model::{HookDef, JsonPath, Problem};

/// A top-level value: `hooks` already loaded (what it reported, in
/// order), everything else as a tree.
pub(super) enum Top {
    Hooks(Vec<Problem>),
    Value(Value),
}

/// The file being loaded.
pub(super) struct Context<'a> {
    /// The index it will have in `Settings::files`.
    pub(super) file: usize,
    pub(super) claude_mode: bool,
    pub(super) path: &'a Path,
}

/// "Not for the fast path": the message is never shown.
fn give_up<E: de::Error>() -> E {
    E::custom("")
}

/// The most hooks [`parse`] reserves room for up front: past it, the
/// list grows as usual.
const RESERVE_MAX: usize = 1 << 14;

/// Parses `bytes`, appending its hooks to `hooks` as it goes, each
/// straight from its JSON object (no list of raw entries in between,
/// no hook moved as the list grows). On `None` the caller drops what
/// was appended and takes the precise path.
pub(super) fn parse(
    bytes: &[u8],
    cx: &Context<'_>,
    hooks: &mut Vec<HookDef>,
) -> Option<Vec<(String, Top)>> {
    // UTF-8 checked once for the file, not once per string.
    let text = std::str::from_utf8(bytes).ok()?;
    // Every hook is a JSON object, so there are at most as many as
    // there are `{`: room for that many is reserved (capacity that is
    // never written costs no memory).
    hooks.reserve(count_byte(bytes, b'{').min(RESERVE_MAX));
    let mut de = serde_json::Deserializer::from_str(text);
    let top = de.deserialize_map(TopVisitor { cx, hooks }).ok()?;
    de.end().ok()?;
    Some(top)
}

/// How many times `byte` occurs in `bytes`, 32 bytes at a time (a
/// shape the compiler turns into vector compares: a byte-by-byte count
/// cost more than 4 instructions a byte, a tenth of the whole load).
fn count_byte(bytes: &[u8], byte: u8) -> usize {
    let (chunks, rest) = bytes.as_chunks::<32>();
    let mut count = 0;
    for chunk in chunks {
        let mut in_chunk = 0_u8;
        for b in chunk {
            in_chunk += u8::from(*b == byte);
        }
        count += usize::from(in_chunk);
    }
    for b in rest {
        count += usize::from(*b == byte);
    }
    count
}

#[test]
fn bytes_are_counted_at_every_length_and_place() {
    let text: Vec<u8> = (0..200_u32)
        .map(|i| {
            if i % 7 == 0 || i % 31 == 0 {
                b'{'
            } else {
                b'a'
            }
        })
        .collect();
    for start in 0..40 {
        for end in start..text.len() {
            let part = &text[start..end];
            let naive = part.split(|b| *b == b'{').count() - 1;
            assert_eq!(count_byte(part, b'{'), naive, "{start}..{end}");
        }
    }
    assert_eq!(count_byte(&[b'{'; 100], b'{'), 100);
}

/// Would [`parse`] take `bytes` (with a scratch list)?
#[cfg(test)]
pub(super) fn accepts(bytes: &[u8]) -> bool {
    let cx = Context {
        file: 0,
        claude_mode: false,
        path: Path::new("/cfg/settings.json"),
    };
    parse(bytes, &cx, &mut Vec::new()).is_some()
}

struct TopVisitor<'a, 'c> {
    cx: &'a Context<'c>,
    hooks: &'a mut Vec<HookDef>,
}

impl<'de> Visitor<'de> for TopVisitor<'_, '_> {
    type Value = Vec<(String, Top)>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a settings object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out: Vec<(String, Top)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            // A repeated key: the tree keeps the last value at the first
            // place; the precise path does that.
            if out.iter().any(|(k, _)| *k == key) {
                return Err(give_up());
            }
            let value = if key == "hooks" {
                let mut state = State {
                    path: self.cx.path,
                    hooks: &mut *self.hooks,
                    problems: Vec::new(),
                };
                map.next_value_seed(EventsSeed {
                    cx: self.cx,
                    state: &mut state,
                })?;
                Top::Hooks(state.problems)
            } else {
                Top::Value(map.next_value()?)
            };
            out.push((key, value));
        }
        Ok(out)
    }
}

/// Where loaded hooks and their problems go.
struct State<'a> {
    path: &'a Path,
    hooks: &'a mut Vec<HookDef>,
    problems: Vec<Problem>,
}

impl State<'_> {
    fn reporter(&mut self) -> Reporter<'_> {
        Reporter {
            file: self.path,
            problems: &mut self.problems,
        }
    }
}

/// `hooks`: event key → entries.
struct EventsSeed<'a, 'c, 's> {
    cx: &'a Context<'c>,
    state: &'a mut State<'s>,
}

impl<'de> DeserializeSeed<'de> for EventsSeed<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EventsSeed<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of events")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen: Vec<String> = Vec::new();
        while let Some(event_key) = map.next_key::<String>()? {
            if seen.contains(&event_key) {
                return Err(give_up());
            }
            // As [`super::hooks::parse_hooks`]: the event's warning, then its
            // entries' problems.
            let event = EventId::resolve(&event_key);
            let base: Arc<str> = event_path(&event_key).into();
            if let EventId::Unknown(_) = event {
                unknown_event(&event_key, &base, &mut self.state.reporter());
            }
            let key: Arc<str> = event_key.as_str().into();
            let ctx = EntryContext {
                file: self.cx.file,
                event_key: &key,
                event: &event,
                claude_mode: self.cx.claude_mode,
            };
            map.next_value_seed(ListSeed {
                state: &mut *self.state,
                ctx: &ctx,
                base: &base,
                group: None,
            })?;
            seen.push(event_key);
        }
        Ok(())
    }
}

/// A list of entries: an event's (`group: None`), or the hooks of the
/// matcher group at that index of its event's list.
struct ListSeed<'a, 'c, 's> {
    state: &'a mut State<'s>,
    ctx: &'a EntryContext<'c>,
    base: &'a Arc<str>,
    group: Option<usize>,
}

impl<'de> DeserializeSeed<'de> for ListSeed<'_, '_, '_> {
    /// How many entries the list has.
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ListSeed<'_, '_, '_> {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of hooks")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut count = 0;
        loop {
            let at = match self.group {
                None => (count, None),
                Some(entry) => (entry, Some(count)),
            };
            let seed = EntrySeed {
                state: &mut *self.state,
                ctx: self.ctx,
                base: self.base,
                at,
            };
            if seq.next_element_seed(seed)?.is_none() {
                return Ok(count);
            }
            count += 1;
        }
    }
}

/// One entry: a flat hook, or (`at.1` is `None`) a matcher group. A
/// group's hooks are loaded as its list is read, and get the group's
/// `matcher` when the group's object ends (it may come after `hooks`).
struct EntrySeed<'a, 'c, 's> {
    state: &'a mut State<'s>,
    ctx: &'a EntryContext<'c>,
    base: &'a Arc<str>,
    /// The entry's index, and the index inside its group.
    at: (usize, Option<usize>),
}

impl<'de> DeserializeSeed<'de> for EntrySeed<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EntrySeed<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a hook object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let (entry, inner) = self.at;
        let mut hook = RawHook::default();
        // The group's hooks are those after `first` once its list is read.
        let first = self.state.hooks.len();
        let mut group = None;
        let mut seen = 0u32;
        while let Some(bit) = map.next_key_seed(FieldSeed)? {
            let bit = match bit {
                Some(GROUP_FIELD) if inner.is_some() => return Err(give_up()),
                Some(bit) => bit,
                // An unknown field (or a near miss of a filter key).
                None => return Err(give_up()),
            };
            if seen & (1 << bit) != 0 {
                return Err(give_up());
            }
            seen |= 1 << bit;
            match bit {
                0 => hook.hook_type = map.next_value()?,
                1 => hook.command = map.next_value()?,
                2 => hook.args = map.next_value()?,
                3 => hook.shell = map.next_value()?,
                4 => hook.matcher = map.next_value()?,
                5 => hook.if_rule = map.next_value()?,
                6 => hook.timeout = map.next_value()?,
                7 => hook.name = map.next_value()?,
                8 => hook.sequential = map.next_value()?,
                9 => hook.on_error = map.next_value()?,
                10 => hook.run_async = map.next_value()?,
                11 => hook.once = map.next_value()?,
                12 => hook.status_message = map.next_value()?,
                13 => hook.url = map.next_value()?,
                14 => hook.headers = map.next_value()?,
                15 => hook.allowed_env_vars = map.next_value()?,
                16 => hook.prompt = map.next_value()?,
                17 => hook.model = map.next_value()?,
                18 => hook.continue_on_block = map.next_value()?,
                19 => hook.async_rewake = map.next_value()?,
                20 => hook.server = map.next_value()?,
                21 => hook.tool = map.next_value()?,
                22 => hook.input = map.next_value()?,
                23 => hook.on_failure = map.next_value()?,
                24 => hook.holds_tools = map.next_value()?,
                25 => hook.rewake_message = map.next_value()?,
                26 => hook.rewake_summary = map.next_value()?,
                27 => hook.cloud = map.next_value()?,
                _ => {
                    group = Some(map.next_value_seed(ListSeed {
                        state: &mut *self.state,
                        ctx: self.ctx,
                        base: self.base,
                        group: Some(entry),
                    })?);
                }
            }
        }
        let Some(count) = group else {
            // A flat hook, or one inside a group.
            let path = JsonPath::indexed(Arc::clone(self.base), entry, inner);
            let matcher_from = match inner {
                None => MatcherFrom::Own,
                // Set when the group's object ends.
                Some(_) => MatcherFrom::Group(None),
            };
            let def = finish_hook(
                hook,
                path,
                matcher_from,
                self.ctx,
                &mut self.state.reporter(),
            );
            self.state.hooks.extend(def);
            return Ok(());
        };
        // A group holds `matcher` and `hooks` only, and runs something.
        if count == 0 || seen & !(1 << 4 | 1 << GROUP_FIELD) != 0 {
            return Err(give_up());
        }
        let matcher = hook
            .matcher
            .map(|m| super::hooks::model_switch_matcher(m, self.ctx.event));
        for def in &mut self.state.hooks[first..] {
            def.matcher.clone_from(&matcher);
        }
        Ok(())
    }
}

/// The number [`FieldSeed`] gives `hooks` (a matcher group's list);
/// a [`HOOK_FIELDS`] field is its index there.
pub(super) const GROUP_FIELD: u32 = 28;

struct FieldSeed;

impl<'de> DeserializeSeed<'de> for FieldSeed {
    type Value = Option<u32>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldSeed {
    type Value = Option<u32>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<u32>, E> {
        Ok(if key == "hooks" {
            Some(GROUP_FIELD)
        } else {
            HOOK_FIELDS
                .iter()
                .position(|field| *field == key)
                .and_then(|i| u32::try_from(i).ok())
        })
    }
}

#[test]
fn indexed_paths_are_formatted_paths() {
    for i in [0, 1, 9, 10, 99, 123_456, usize::MAX] {
        let event: std::sync::Arc<str> = "hooks.Stop".into();
        assert_eq!(
            JsonPath::indexed(event.clone(), i, None).as_str(),
            format!("hooks.Stop[{i}]")
        );
        assert_eq!(
            JsonPath::indexed(event, 3, Some(i)).as_str(),
            format!("hooks.Stop[3].hooks[{i}]")
        );
    }
}

#[cfg(test)]
mod agreement_tests {
    use std::path::PathBuf;

    use serde_json::Value;

    use super::super::{load_bytes, load_bytes_as, load_object};
    use super::accepts;
    use crate::settings::load::{HOOK_FIELDS, RawHook};
    use crate::settings::model::{HookDef, JsonPath, Settings, Source, SourceKind, Trust};

    /// Loads `bytes` as a `kind` file both ways: through `load_bytes` (the
    /// fast path when it accepts the file) and through the tree only.
    fn both(bytes: &[u8], kind: SourceKind, claude_mode: bool) -> (String, String, bool) {
        let source = Source {
            path: PathBuf::from("/cfg/settings.json"),
            kind,
            claude_mode,
            trust_required: false,
        };
        let mut fast_side = Settings::default();
        load_bytes(&mut fast_side, source.clone(), PathBuf::from("/cfg"), bytes);
        let mut tree_side = Settings::default();
        match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(top)) => {
                load_object(&mut tree_side, source, PathBuf::from("/cfg"), &top);
            }
            // Not an object: only the precise path can take it.
            _ => load_bytes_as(
                &mut tree_side,
                source,
                PathBuf::from("/cfg"),
                bytes,
                Trust::NotRequired,
            ),
        }
        let show = |s: &Settings| format!("{:#?}\n{:#?}\n{:#?}", s.hooks, s.problems, s.files);
        (show(&fast_side), show(&tree_side), accepts(bytes))
    }

    const SAMPLES: &[&str] = &[
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "command": "a", "timeout": 5}]}}"#,
        r#"{"$schema": "x", "hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "b", "timeout": 1.5, "matcher": "X"}]}], "Stop": [{"command": "c", "once": true, "async": true, "onError": "block", "name": "n", "sequential": true, "statusMessage": "s"}]}, "permissions": {"allow": ["Bash(ls)"], "deny": [3]}, "env": {"keep": ["A"]}, "log": "x.log"}"#,
        r#"{"hooks": {"PreToolUse": [{"type": "http", "url": "http://127.0.0.1/x", "headers": {"A": "b"}, "allowedEnvVars": ["T"], "prompt": "p", "args": ["1"]}]}}"#,
        r#"{"hooks": {"UserPromptSubmit": [{"type": "prompt", "prompt": "ok?", "model": "m", "continueOnBlock": true}], "SessionStart": [{"type": "prompt", "prompt": "ok?"}]}}"#,
        r#"{"hooks": {"Stop": [{"type": "agent", "prompt": "ok?", "model": "m", "continueOnBlock": true}, {"type": "agent"}], "PermissionRequest": [{"type": "agent", "prompt": "ok?"}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"type": "agent", "command": "x", "shell": "zsh"}, {"command": "y", "args": ["a"], "shell": "bash"}, {"command": "  "}, {"type": "http"}, {}]}}"#,
        r#"{"hooks": {"PreToolUsed": [{"command": "a"}], "my odd event": [{"command": "b"}]}, "disableAllHooks": false, "allowedHttpHookUrls": ["http://*"], "allowPrivateNetworkHooks": true, "blockedCommands": ["rm"], "unknwn": 1}"#,
        r#"{"hooks": {"PreToolUse": [{"matcher": null, "hooks": [{"command": "a", "if": "Bash(git *)"}]}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"type": "mcp_tool", "server": "s", "tool": "t", "input": {"command": "${tool_input.command}", "n": [1]}}, {"type": "mcp_tool", "tool": "t"}, {"command": "c", "server": "s", "tool": "t", "input": {}}]}}"#,
        // Fields of one type, each with its own value: the fast path numbers
        // fields by their place in HOOK_FIELDS, and a field read into
        // another of the same type shows here.
        r#"{"hooks": {"Stop": [{"command": "e", "once": true, "async": false, "sequential": false, "continueOnBlock": false}, {"command": "f", "sequential": true, "once": false, "continueOnBlock": true}, {"command": "g", "async": true}], "PreToolUse": [{"type": "http", "url": "U", "statusMessage": "S", "name": "N", "model": "M", "prompt": "P", "matcher": "X", "if": "I", "shell": "bash", "onError": "block", "timeout": 3}]}}"#,
        r#"{"hooks": {"Stop": [{"hooks": [{"command": "a"}, {"command": " "}, {"command": "b", "matcher": "x", "once": true}], "matcher": "late"}, {"command": "c"}], "odd key": [{"hooks": [{"command": "d"}]}, {"type": "prompt"}]}}"#,
        // Each of these needs the precise path.
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "command": "a", "timeout": "5"}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"matchr": "Bash", "command": "a"}, {"command": "b", "iff": "x"}, {"command": "c", "extra": 1}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}, {"matcher": 3, "hooks": [{"command": "a"}]}, {"matcher": "B", "hooks": [{"command": "a"}], "command": "x"}, {"matcher": "B", "hooks": [{"command": "a"}], "note": "x"}, {"hooks": "x"}, {"hooks": [5, {"command": "a", "hooks": []}]}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"command": "a", "command": "b"}]}, "hooks": {}}"#,
        r#"{"hooks": {"PreToolUse": [{"command": "a"}], "PreToolUse": []}}"#,
        r#"{"hooks": {"PreToolUse": {"command": "a"}, "Stop": [7]}}"#,
        r#"{"hooks": [1]}"#,
        r#"{"hooks": {"PreToolUse": [{"command": "a", "timeout": -1}, {"command": "b", "timeout": 0}, {"command": "c", "onError": "deny"}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"command": "a",}]}}"#,
        "[1]",
        r#"{"hooks": {}} x"#,
        "",
    ];

    #[test]
    fn the_fast_path_loads_what_the_tree_loads_with_the_same_problems() {
        let mut fast_taken = 0;
        for sample in SAMPLES {
            for kind in [
                SourceKind::User,
                SourceKind::Project,
                SourceKind::Managed,
                SourceKind::Cli,
            ] {
                for claude_mode in [false, true] {
                    let (fast, tree, took_fast) = both(sample.as_bytes(), kind, claude_mode);
                    assert_eq!(fast, tree, "{sample}");
                    fast_taken += usize::from(took_fast);
                }
            }
        }
        // The first eleven samples are for the fast path, the rest are not.
        assert_eq!(fast_taken, 11 * 8);
    }

    #[test]
    fn a_file_the_fast_path_gives_up_on_halfway_leaves_no_hooks_behind() {
        let files = [
            r#"{"hooks": {"Stop": [{"command": "first"}]}}"#,
            // Given up on at the last field, after two hooks were loaded.
            r#"{"hooks": {"Stop": [{"command": "a"}, {"hooks": [{"command": "b"}]}, {"command": "c", "matchr": "x"}]}}"#,
            r#"{"hooks": {"PreToolUse": [{"command": "last"}]}}"#,
        ];
        let mut fast_side = Settings::default();
        let mut tree_side = Settings::default();
        for (i, json) in files.iter().enumerate() {
            let source = Source {
                path: PathBuf::from(format!("/cfg/{i}.json")),
                kind: SourceKind::User,
                claude_mode: false,
                trust_required: false,
            };
            load_bytes(
                &mut fast_side,
                source.clone(),
                PathBuf::from("/cfg"),
                json.as_bytes(),
            );
            let Ok(Value::Object(top)) = serde_json::from_str::<Value>(json) else {
                panic!("{json}");
            };
            load_object(&mut tree_side, source, PathBuf::from("/cfg"), &top);
        }
        assert!(!accepts(files[1].as_bytes()));
        let show = |s: &Settings| format!("{:#?}\n{:#?}", s.hooks, s.problems);
        assert_eq!(show(&fast_side), show(&tree_side));
        let commands: Vec<_> = fast_side
            .hooks
            .iter()
            .map(|h| (h.file, h.action.command_text().map_or("", |(c, _)| c)))
            .collect();
        assert_eq!(
            commands,
            [(0, "first"), (1, "a"), (1, "b"), (1, "c"), (2, "last")]
        );
    }

    #[test]
    fn the_fast_path_agrees_on_every_settings_fixture() {
        let mut files = Vec::new();
        let mut stack = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "json") {
                    files.push(path);
                }
            }
        }
        assert!(files.len() > 20, "{files:?}");
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            let (fast, tree, _) = both(&bytes, SourceKind::User, false);
            assert_eq!(fast, tree, "{}", path.display());
        }
    }

    /// Every byte of a hook is memory a fire writes for each configured
    /// hook (fresh pages: page faults): the rare fields stay out of line.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_loaded_hook_stays_small() {
        let size = std::mem::size_of::<HookDef>();
        eprintln!("HookDef: {size} bytes");
        assert!(size <= 272, "{size}");
        assert_eq!(std::mem::size_of::<JsonPath>(), 48);
    }

    #[test]
    fn the_fast_path_knows_every_hook_field() {
        let schema = schemars::schema_for!(RawHook);
        let mut fields: Vec<&str> = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        fields.sort_unstable();
        let mut fast_fields = HOOK_FIELDS.to_vec();
        fast_fields.sort_unstable();
        assert_eq!(fields, fast_fields);
    }

    #[test]
    fn the_benchmark_settings_take_the_fast_path() {
        let mut hooks = Vec::new();
        for i in 0..50 {
            hooks.push(format!(
                r#"{{"matcher": "^mcp__server{i}__.*", "if": "mcp__server{i}", "command": "echo mcp {i}"}}"#
            ));
        }
        let json = format!(r#"{{"hooks": {{"PreToolUse": [{}]}}}}"#, hooks.join(","));
        assert!(accepts(json.as_bytes()));
        let (fast, tree, _) = both(json.as_bytes(), SourceKind::Cli, false);
        assert_eq!(fast, tree);
    }
}
