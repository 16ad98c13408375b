//! The environment of a hook process (SPEC §5.2).
//!
//! Built once per fire from hookrun's own environment plus the `HOOKRUN_*`
//! variables, then specialised per hook. Values over 32 KiB are left out and
//! flagged, because Linux refuses to exec with a single environment string
//! over 128 KiB (E2BIG) and stdin carries the full data anyway.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::Path;

use crate::event::Event;

/// Largest value passed in the environment.
pub const MAX_VALUE_BYTES: usize = 32 * 1024;

/// Words that make a variable name look like a secret (SPEC §9.2: `api_key`,
/// `secret`, `token`, `password`, `passwd`, `credential`, `private_key`).
/// Matched per word of the name (see [`is_secret_name`]), not as plain
/// substrings: `TOKENIZERS_PARALLELISM` holds `token` but no secret. Not a
/// `Regex`: building one cost about 0.7 ms on every fire that runs a hook
/// (docs/performance.md).
const SECRET_WORDS: &[&str] = &["secret", "token", "password", "passwd", "credential"];

/// Two-word secrets: `API_KEY`, `private-key`, also run together (`APIKEY`).
const SECRET_PAIRS: &[(&str, &str)] = &[("api", "key"), ("private", "key")];

/// Names that match a secret word but are known settings, not secrets.
const KNOWN_NOT_SECRETS: &[&str] = &["TOKENIZERS_PARALLELISM"];

/// The words of a variable name, lower-cased: split at anything not a
/// letter or digit, and where a lower-case letter meets an upper-case one.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// A word is (or begins or ends with) a secret word: `TOKEN`, `AUTHTOKEN`,
/// `PASSWORDS`, `SECRETKEY`.
fn word_has(word: &str, secret: &str) -> bool {
    word.starts_with(secret) || word.ends_with(secret)
}

/// Whether a variable is kept out of hooks unless `env.keep` lists it.
/// `CLAUDE_*` and `HOOKRUN_*` are the host's own plumbing: never scrubbed.
pub fn is_secret_name(name: &str) -> bool {
    if name.starts_with("CLAUDE_") || name.starts_with("HOOKRUN_") {
        return false;
    }
    if KNOWN_NOT_SECRETS
        .iter()
        .any(|known| known.eq_ignore_ascii_case(name))
    {
        return false;
    }
    if !may_be_secret(name) {
        return false;
    }
    let words = name_words(name);
    let single = words
        .iter()
        .any(|word| SECRET_WORDS.iter().any(|secret| word_has(word, secret)));
    single
        || SECRET_PAIRS.iter().any(|(first, second)| {
            let joined = format!("{first}{second}");
            words.iter().any(|word| word_has(word, &joined))
                || words
                    .windows(2)
                    .any(|pair| pair[0].ends_with(first) && pair[1].starts_with(second))
        })
}

/// Every secret word and pair ends up, lower-cased, as a run of letters in
/// the name: a name holding none of these cannot be a secret. Most names
/// (`PATH`, `HOME`, `LANG`) are ruled out here, without splitting them
/// into words.
const SECRET_PIECES: &[&str] = &["secret", "token", "passw", "credential", "key"];

/// False only for a name that cannot be secret-looking. Names that are not
/// ASCII go the whole way (lower-casing some letters makes ASCII ones).
fn may_be_secret(name: &str) -> bool {
    !name.is_ascii()
        || SECRET_PIECES.iter().any(|piece| {
            name.as_bytes()
                .windows(piece.len())
                .any(|window| window.eq_ignore_ascii_case(piece.as_bytes()))
        })
}

/// Removes secret-looking variables not listed in `keep`; returns what is
/// left and the names removed (sorted).
pub fn scrub(
    vars: impl IntoIterator<Item = (OsString, OsString)>,
    keep: &[String],
) -> (Vec<(OsString, OsString)>, Vec<String>) {
    let mut kept = Vec::new();
    let mut removed = Vec::new();
    for (key, value) in vars {
        let name = key.to_string_lossy();
        if is_secret_name(&name) && !keep.iter().any(|k| *k == name) {
            removed.push(name.into_owned());
        } else {
            kept.push((key, value));
        }
    }
    removed.sort();
    (kept, removed)
}

/// The names [`scrub`] would remove from `vars`, plus those of `also`
/// (a prompt hook's key variables) that `keep` does not list: sorted, as
/// [`scrub`] followed by `prompt::scrub_keys` words them. Planning decides
/// them; running drops them with [`without`].
pub fn scrubbed_names(
    vars: &[(OsString, OsString)],
    keep: &[String],
    also: &[String],
) -> Vec<String> {
    let kept = |name: &str| keep.iter().any(|k| *k == name);
    let mut removed: Vec<String> = Vec::new();
    let mut extra: Vec<String> = Vec::new();
    for (key, _) in vars {
        let name = key.to_string_lossy();
        if kept(&name) {
            continue;
        }
        if is_secret_name(&name) {
            removed.push(name.into_owned());
        } else if also.iter().any(|v| *v == name) && !extra.iter().any(|v| *v == name) {
            extra.push(name.into_owned());
        }
    }
    for name in extra {
        if !removed.contains(&name) {
            removed.push(name);
        }
    }
    removed.sort();
    removed
}

/// `vars` without the names of `scrubbed` (see [`scrubbed_names`]).
pub fn without(vars: &[(OsString, OsString)], scrubbed: &[String]) -> Vec<(OsString, OsString)> {
    if scrubbed.is_empty() {
        return vars.to_vec();
    }
    vars.iter()
        .filter(|(key, _)| {
            let name = key.to_string_lossy();
            !scrubbed.iter().any(|s| *s == name)
        })
        .cloned()
        .collect()
}

/// The scrubbed names a hook could need: those its command (or exec-form
/// arguments) names as a whole word (`$GEMINI_API_KEY`, `${NAME}`,
/// `printenv NAME`). Every host has its own key in the environment, so a
/// notice for each removed name would come on every session for nothing;
/// one for a name a hook uses says why that hook sees it empty.
pub fn named_by<'a>(scrubbed: &'a [String], texts: &[&str]) -> Vec<&'a str> {
    scrubbed
        .iter()
        .map(String::as_str)
        .filter(|name| texts.iter().any(|text| names_word(text, name)))
        .collect()
}

/// `text` holds `name` with no identifier character on either side.
fn names_word(text: &str, name: &str) -> bool {
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    text.match_indices(name).any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + name.len()).copied();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// How many fires may run inside a hook's fire: a hook may call `hookrun
/// fire` (a wrapper, a test), but a fire nested deeper than this is refused,
/// so a hook that fires the event it handles cannot fork without end.
pub const MAX_NESTED_FIRES: u32 = 2;

/// How deep in nested fires this process is, from its environment: a hook's
/// environment carries `HOOKRUN_DEPTH` (1 for a hook of a fire started by
/// the host); an environment with `HOOKRUN_HOOK_EVENT` but no depth is a
/// hook's too. 0: started by the host. A value that is not a number is
/// not a depth (see [`depth_warning`]): it counts as if it were absent.
pub fn nesting_depth(depth: Option<&OsStr>, hook_event: Option<&OsStr>) -> u32 {
    match parse_depth(depth) {
        Some(Ok(depth)) => depth,
        _ => u32::from(hook_event.is_some_and(|e| !e.is_empty())),
    }
}

fn parse_depth(depth: Option<&OsStr>) -> Option<Result<u32, ()>> {
    let text = depth?.to_str().map(str::trim);
    match text {
        Some("") => None,
        Some(text) => Some(text.parse().map_err(|_| ())),
        None => Some(Err(())),
    }
}

/// The warning for a `HOOKRUN_DEPTH` that is not a number.
pub fn depth_warning(depth: Option<&OsStr>) -> Option<String> {
    matches!(parse_depth(depth), Some(Err(()))).then(|| {
        format!(
            "HOOKRUN_DEPTH={:?} is not a number of nested fires; it was ignored",
            depth.unwrap_or_default().to_string_lossy()
        )
    })
}

/// The warning a nested fire gives instead of running its hooks, when it
/// is nested deeper than [`MAX_NESTED_FIRES`]. The permission rules still
/// apply: they start nothing.
pub fn nested_fire_refusal(depth: u32) -> Option<String> {
    (depth > MAX_NESTED_FIRES).then(|| {
        format!(
            "hookrun: refused a fire nested {depth} deep (a hook runs `hookrun fire`, which runs a hook that runs it again): at most {MAX_NESTED_FIRES} nested fires run; no hook ran at this depth, the permission rules still applied. Remove `hookrun fire` from the hook's command"
        )
    })
}

/// This process's nesting, from its own environment: the refusal when it
/// is too deep, and a warning when `HOOKRUN_DEPTH` is not a number.
pub fn nested_fire_check() -> (Option<String>, Option<String>) {
    let depth = std::env::var_os("HOOKRUN_DEPTH");
    let event = std::env::var_os("HOOKRUN_HOOK_EVENT");
    (
        nested_fire_refusal(nesting_depth(depth.as_deref(), event.as_deref())),
        depth_warning(depth.as_deref()),
    )
}

/// Collects bytes, failing once more than `limit` arrive.
struct CappedWriter {
    bytes: Vec<u8>,
    limit: usize,
}

impl std::io::Write for CappedWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + buf.len() > self.limit {
            return Err(std::io::Error::other("over the environment value limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An environment under construction.
#[derive(Debug, Clone, Default)]
pub struct HookEnv {
    vars: BTreeMap<OsString, OsString>,
}

impl HookEnv {
    /// hookrun's own environment, plus what every hook of this event gets.
    pub fn for_event(
        inherited: impl IntoIterator<Item = (OsString, OsString)>,
        event: &Event,
        project_dir: &Path,
    ) -> HookEnv {
        let mut env = HookEnv {
            vars: inherited.into_iter().collect(),
        };
        // One level deeper than this fire (see `nesting_depth`).
        let depth = nesting_depth(env.get("HOOKRUN_DEPTH"), env.get("HOOKRUN_HOOK_EVENT"));
        env.set("HOOKRUN_DEPTH", depth.saturating_add(1).to_string());
        env.set("HOOKRUN_HOOK_EVENT", event.id.name());
        env.set("HOOKRUN_PROJECT_DIR", project_dir.as_os_str());
        if let Some(session) = event.session_id() {
            env.set("HOOKRUN_SESSION_ID", session);
        }
        if let Some(tool) = event.tool_name() {
            env.set("HOOKRUN_TOOL_NAME", tool);
        }
        env.set_tool_input(event);
        // An inherited value (the host's own) passes through unchanged.
        if !env.vars.contains_key(OsStr::new("CLAUDE_PROJECT_DIR")) {
            env.set("CLAUDE_PROJECT_DIR", project_dir.as_os_str());
        }
        env
    }

    pub fn set(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) {
        self.vars
            .insert(key.as_ref().to_owned(), value.as_ref().to_owned());
    }

    pub fn get(&self, key: &str) -> Option<&OsStr> {
        self.vars.get(OsStr::new(key)).map(OsString::as_os_str)
    }

    pub fn remove(&mut self, key: &str) {
        self.vars.remove(OsStr::new(key));
    }

    /// `HOOKRUN_TOOL_INPUT` follows `tool_input` (also after sequential
    /// `updatedInput` chaining).
    pub fn set_tool_input(&mut self, event: &Event) {
        self.remove("HOOKRUN_TOOL_INPUT_TRUNCATED");
        self.remove("HOOKRUN_TOOL_INPUT");
        // Longer than the limit however it is spelt: not decoded for it.
        if event.tool_input_longer_than(MAX_VALUE_BYTES) {
            self.set("HOOKRUN_TOOL_INPUT_TRUNCATED", "1");
            return;
        }
        let Some(input) = event.tool_input() else {
            return;
        };
        // Serialising stops at the limit: a 10 MB input is never turned
        // into a 10 MB string only to be dropped (and copied per hook).
        let mut capped = CappedWriter {
            bytes: Vec::new(),
            limit: MAX_VALUE_BYTES,
        };
        if serde_json::to_writer(&mut capped, input).is_ok() {
            self.set(
                "HOOKRUN_TOOL_INPUT",
                crate::platform::os_string_from_bytes(capped.bytes),
            );
        } else {
            self.set("HOOKRUN_TOOL_INPUT_TRUNCATED", "1");
        }
    }

    /// The final list for exec: oversized values replaced by
    /// `NAME_TRUNCATED=1`.
    pub fn into_vars(self) -> Vec<(OsString, OsString)> {
        let mut out = Vec::with_capacity(self.vars.len());
        for (key, value) in self.vars {
            if value.len() > MAX_VALUE_BYTES {
                let mut flag = key.clone();
                flag.push("_TRUNCATED");
                out.push((flag, OsString::from("1")));
            } else {
                out.push((key, value));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Planning's names are what scrubbing removes, plus the extra names
    /// not kept, once each and sorted; `without` drops exactly those.
    #[test]
    fn scrubbed_names_are_what_scrub_removes_plus_the_extra_names() {
        let env: Vec<(OsString, OsString)> = [
            "PATH",
            "GITHUB_TOKEN",
            "A_PASSWORD",
            "MODEL_VAR",
            "MODEL_VAR",
            "KEPT_SECRET",
        ]
        .iter()
        .map(|name| (OsString::from(name), OsString::from("v")))
        .collect();
        let keep = ["KEPT_SECRET".to_owned()];
        let (kept, removed) = scrub(env.iter().cloned(), &keep);
        assert_eq!(scrubbed_names(&env, &keep, &[]), removed);
        let also = ["MODEL_VAR".to_owned(), "KEPT_SECRET".to_owned()];
        let names = scrubbed_names(&env, &keep, &also);
        assert_eq!(names, ["A_PASSWORD", "GITHUB_TOKEN", "MODEL_VAR"]);
        assert_eq!(without(&env, &removed), kept);
        let left: Vec<_> = without(&env, &names).into_iter().map(|(k, _)| k).collect();
        assert_eq!(left, ["PATH", "KEPT_SECRET"]);
    }

    /// The prefilter can rule a name out only if no secret word or pair
    /// could be in it: every word, and both halves of every pair, hold a
    /// piece (a word added to one list and not the other fails here).
    #[test]
    fn every_secret_word_and_pair_holds_a_prefilter_piece() {
        let holds = |word: &str| SECRET_PIECES.iter().any(|piece| word.contains(piece));
        for word in SECRET_WORDS {
            assert!(holds(word), "{word}");
            assert!(may_be_secret(&word.to_uppercase()), "{word}");
        }
        for (first, second) in SECRET_PAIRS {
            assert!(holds(first) || holds(second), "{first}_{second}");
            assert!(may_be_secret(&format!("{first}{second}").to_uppercase()));
        }
    }

    #[test]
    fn a_scrubbed_name_is_needed_only_when_a_hook_names_it() {
        let scrubbed = vec!["GEMINI_API_KEY".to_owned(), "GH_TOKEN".to_owned()];
        let unexpected = named_by(&scrubbed, &["jq -r .tool_input.command | grep -q main"]);
        assert!(unexpected.is_empty(), "{unexpected:?}");
        assert_eq!(
            named_by(
                &scrubbed,
                &["curl -H \"Authorization: $GH_TOKEN\" x", "true"]
            ),
            ["GH_TOKEN"]
        );
        assert_eq!(
            named_by(&scrubbed, &["echo ${GEMINI_API_KEY}"]),
            ["GEMINI_API_KEY"]
        );
        // Part of a longer name is another variable.
        let unexpected = named_by(&scrubbed, &["echo $MY_GH_TOKEN_FILE"]);
        assert!(unexpected.is_empty(), "{unexpected:?}");
    }

    fn event(json: &str) -> Event {
        Event::parse(json.as_bytes(), None).unwrap()
    }

    fn lookup<'a>(vars: &'a [(OsString, OsString)], key: &str) -> Option<&'a str> {
        vars.iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.to_str())
    }

    #[test]
    fn hookrun_variables() {
        let e = event(
            r#"{"hook_event_name":"pre_tool_use","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        );
        let vars = HookEnv::for_event(
            vec![(OsString::from("PATH"), OsString::from("/bin"))],
            &e,
            Path::new("/p"),
        )
        .into_vars();
        assert_eq!(lookup(&vars, "HOOKRUN_HOOK_EVENT"), Some("PreToolUse"));
        assert_eq!(lookup(&vars, "HOOKRUN_SESSION_ID"), Some("s1"));
        assert_eq!(lookup(&vars, "HOOKRUN_TOOL_NAME"), Some("Bash"));
        assert_eq!(
            lookup(&vars, "HOOKRUN_TOOL_INPUT"),
            Some(r#"{"command":"ls"}"#)
        );
        assert_eq!(lookup(&vars, "HOOKRUN_PROJECT_DIR"), Some("/p"));
        assert_eq!(lookup(&vars, "CLAUDE_PROJECT_DIR"), Some("/p"));
        assert_eq!(lookup(&vars, "PATH"), Some("/bin"));
    }

    #[test]
    fn hooks_carry_their_depth_and_deep_nesting_is_refused() {
        let e = event(r#"{"hook_event_name":"Stop"}"#);
        let vars = HookEnv::for_event(Vec::new(), &e, Path::new("/p")).into_vars();
        assert_eq!(lookup(&vars, "HOOKRUN_DEPTH"), Some("1"));
        let inherited = vec![(OsString::from("HOOKRUN_DEPTH"), OsString::from("2"))];
        let vars = HookEnv::for_event(inherited, &e, Path::new("/p")).into_vars();
        assert_eq!(lookup(&vars, "HOOKRUN_DEPTH"), Some("3"));
        // A hook's environment from before the depth variable: depth 1.
        let hook = OsStr::new("Stop");
        assert_eq!(nesting_depth(None, Some(hook)), 1);
        assert_eq!(nesting_depth(None, None), 0);
        // Not a number: a warning, not a depth.
        assert_eq!(nesting_depth(Some(OsStr::new("junk")), None), 0);
        assert_eq!(nesting_depth(Some(OsStr::new("-1")), Some(hook)), 1);
        assert!(depth_warning(Some(OsStr::new("junk"))).is_some());
        assert!(depth_warning(Some(OsStr::new(" 2 "))).is_none());
        assert!(depth_warning(None).is_none());
        assert!(nested_fire_refusal(MAX_NESTED_FIRES).is_none());
        let refusal = nested_fire_refusal(MAX_NESTED_FIRES + 1).unwrap();
        assert!(refusal.contains("nested 3 deep"), "{refusal}");
    }

    #[test]
    fn inherited_claude_project_dir_passes_through() {
        let e = event(r#"{"hook_event_name":"Stop"}"#);
        let inherited = vec![(
            OsString::from("CLAUDE_PROJECT_DIR"),
            OsString::from("/host"),
        )];
        let vars = HookEnv::for_event(inherited, &e, Path::new("/p")).into_vars();
        assert_eq!(lookup(&vars, "CLAUDE_PROJECT_DIR"), Some("/host"));
    }

    #[test]
    fn secrets_are_scrubbed_unless_kept() {
        let vars = [
            "GITHUB_TOKEN",
            "OPENAI_API_KEY",
            "DB_PASSWORD",
            "AWS_SECRET_ACCESS_KEY",
            "my_private-key",
            "CLAUDE_CODE_MESSAGING_TOKEN",
            "HOOKRUN_API_KEY",
            "PATH",
            "HOME",
            "TOKENIZERS_PARALLELISM",
            "NPM_AUTHTOKEN",
            "stripeApiKey",
            "APIKEY",
            "SECRETKEY",
            "KEYBOARD_LAYOUT",
            "MONKEY_PATCH",
        ]
        .map(|name| (OsString::from(name), OsString::from("v")));
        let (kept, removed) = scrub(vars, &["GITHUB_TOKEN".to_owned()]);
        assert_eq!(
            removed,
            [
                "APIKEY",
                "AWS_SECRET_ACCESS_KEY",
                "DB_PASSWORD",
                "NPM_AUTHTOKEN",
                "OPENAI_API_KEY",
                "SECRETKEY",
                "my_private-key",
                "stripeApiKey"
            ]
        );
        let kept: Vec<_> = kept
            .iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            kept,
            [
                "GITHUB_TOKEN",
                "CLAUDE_CODE_MESSAGING_TOKEN",
                "HOOKRUN_API_KEY",
                "PATH",
                "HOME",
                "TOKENIZERS_PARALLELISM",
                "KEYBOARD_LAYOUT",
                "MONKEY_PATCH"
            ]
        );
    }

    /// The short cut never clears a name the word rules would scrub.
    #[test]
    fn the_quick_rejection_keeps_every_secret() {
        use proptest::prelude::*;
        let piece = prop::sample::select(vec![
            "API",
            "api",
            "Key",
            "KEY",
            "key",
            "PRIVATE",
            "Private",
            "TOKEN",
            "token",
            "Auth",
            "SECRET",
            "Secret",
            "PASSWD",
            "Password",
            "CREDENTIAL",
            "Credentials",
            "APIKEY",
            "path",
            "HOME",
            "X",
            "_",
            "-",
            ".",
            "1",
            "é",
            "\u{212a}",
        ]);
        let name = prop::collection::vec(piece, 1..6).prop_map(|parts| parts.concat());
        proptest!(|(name in name)| {
            if !may_be_secret(&name) {
                prop_assert!(!is_secret_name(&name), "{name}");
            }
        });
        for name in [
            "GITHUB_TOKEN",
            "apiKey",
            "MY_PRIVATE_KEY",
            "DB_PASSWORD",
            "AWS_SECRET",
        ] {
            assert!(may_be_secret(name) && is_secret_name(name), "{name}");
        }
        for name in ["PATH", "HOME", "LANG", "TERM", "SHELL"] {
            assert!(!may_be_secret(name), "{name}");
        }
    }

    #[test]
    fn big_values_are_left_out_and_flagged() {
        let big = "x".repeat(300 * 1024);
        let e = event(&format!(
            r#"{{"hook_event_name":"PreToolUse","tool_input":{{"content":"{big}"}}}}"#
        ));
        let vars = HookEnv::for_event(Vec::new(), &e, Path::new("/p")).into_vars();
        assert_eq!(lookup(&vars, "HOOKRUN_TOOL_INPUT"), None);
        assert_eq!(lookup(&vars, "HOOKRUN_TOOL_INPUT_TRUNCATED"), Some("1"));
    }
}
