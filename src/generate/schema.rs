//! The settings JSON Schema (`docs/settings.schema.json`), for editors.
//!
//! The hook object is derived (schemars) from `settings::load::RawHook`, the
//! very type every hook entry is parsed with, so a hook field cannot be added
//! to the parser and not to the schema. The rest of a settings file is parsed
//! key by key by hand; its keys are described here, and a test holds them to
//! the loader's own list (`TOP_LEVEL_KEYS`).

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value, json};

use crate::catalog::CATALOG;
use crate::settings::load::RawHook;
use crate::settings::{HookKind, SourceKind};

use super::protocol;

/// Where the schema is found in the repository (editors map it, see
/// README "Editor support").
pub const PATH: &str = "docs/settings.schema.json";

/// The schema as committed: pretty JSON and a final newline.
pub fn settings_schema_text() -> String {
    let mut text =
        serde_json::to_string_pretty(&settings_schema()).expect("a JSON value serialises");
    text.push('\n');
    text
}

/// The schema of a whole settings file.
pub fn settings_schema() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let hook_ref = generator.subschema_for::<RawHook>();
    let mut defs = generator.take_definitions(true);
    let hook_name = hook_ref
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
        .expect("RawHook is a named definition")
        .to_owned();
    if let Some(Value::Object(hook)) = defs.get_mut(&hook_name) {
        finish_hook(hook);
    }
    for def in defs.values_mut() {
        drop_null(def);
    }
    defs.insert("MatcherGroup".into(), matcher_group(&hook_name));
    defs.insert(
        "HookEntry".into(),
        json!({
            "description": "A hook (hookrun's flat shape), or a matcher group (Claude Code's nested shape: {\"matcher\": M, \"hooks\": [...]}). Both shapes may be mixed in one list.",
            "if": { "type": "object", "required": ["hooks"] },
            "then": { "$ref": "#/$defs/MatcherGroup" },
            "else": { "$ref": format!("#/$defs/{hook_name}") }
        }),
    );
    defs.insert(
        "HookList".into(),
        json!({
            "type": "array",
            "items": { "$ref": "#/$defs/HookEntry" }
        }),
    );
    defs.insert("Rule".into(), rule());

    let mut properties = Map::new();
    for (key, schema) in top_level() {
        properties.insert(key.to_owned(), schema);
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "hookrun settings",
        "description": "A hookrun settings file: ~/.config/hookrun/settings.json (user), <project>/.hookrun/settings.json (project), <project>/.hookrun/settings.local.json (local), a --settings file, or managed settings. Unknown keys are warnings; `hookrun doctor` checks a file.",
        "type": "object",
        "properties": properties,
        "additionalProperties": false,
        "$defs": defs,
    })
}

/// `null` parses as "absent" (an `Option` field), but nobody means to write
/// it: the derive's `["string", "null"]` and `anyOf [X, {"type": "null"}]`
/// become plain `X`, so editors do not offer it.
fn drop_null(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if let Some(Value::Array(types)) = object.get("type") {
                let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
                object.insert(
                    "type".into(),
                    if kept.len() == 1 {
                        kept[0].clone()
                    } else {
                        Value::Array(kept)
                    },
                );
            }
            if let Some(Value::Array(branches)) = object.get("anyOf") {
                let kept: Vec<Value> = branches
                    .iter()
                    .filter(|b| **b != json!({ "type": "null" }))
                    .cloned()
                    .collect();
                if let [single] = kept.as_slice() {
                    let single = single.clone();
                    object.remove("anyOf");
                    if let Value::Object(fields) = single {
                        for (key, field) in fields {
                            object.entry(key).or_insert(field);
                        }
                    }
                } else {
                    object.insert("anyOf".into(), Value::Array(kept));
                }
            }
            object.values_mut().for_each(drop_null);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null),
        _ => {}
    }
}

/// What the derive cannot say: unknown fields are flagged (the loader warns
/// about them), and which fields each kind needs (the kinds' table; a hook
/// without `type` is of the default kind).
fn finish_hook(hook: &mut Map<String, Value>) {
    hook.insert("additionalProperties".into(), json!(false));
    let needs: Vec<Value> = HookKind::ALL
        .iter()
        .map(|kind| {
            let mut condition = json!({ "properties": { "type": { "const": kind.word() } } });
            if *kind != HookKind::DEFAULT {
                condition["required"] = json!(["type"]);
            }
            json!({ "if": condition, "then": { "required": kind.required() } })
        })
        .collect();
    hook.insert("allOf".into(), Value::Array(needs));
}

fn matcher_group(hook_name: &str) -> Value {
    json!({
        "title": "Matcher group",
        "description": "Claude Code's nested shape: the group's `matcher` applies to each hook in `hooks` (an inner hook's own `matcher` is ignored).",
        "type": "object",
        "properties": {
            "matcher": {
                "type": "string",
                "description": "Which calls the group's hooks run for, compared with the event's match field (`tool_name` on tool events). Absent, \"\" or \"*\": all. Only letters, digits, `_`, `-`, spaces, `,` and `|`: exact, case-sensitive names (`Edit|Write`). Anything else: an unanchored JavaScript regex search."
            },
            "hooks": {
                "type": "array",
                "items": { "$ref": format!("#/$defs/{hook_name}") }
            }
        },
        "required": ["hooks"],
        "additionalProperties": false
    })
}

fn rule() -> Value {
    json!({
        "type": "string",
        "description": "A permission rule: `Tool` or `Tool(specifier)`. Tool names are exact and case-sensitive; `mcp__server` covers every tool of an MCP server. Bash: `*` matches anything, compound commands are split (`cd x && git push` matches `Bash(git push *)`). File tools: gitignore-style paths (`Edit(src/**)`, `Read(//etc/**)`). WebFetch: `WebFetch(domain:example.com)`.",
        "examples": ["Bash(git push *)", "Bash(rm -rf *)", "Edit(src/**)", "Read(~/.ssh/**)", "WebFetch(domain:example.com)", "mcp__github"]
    })
}

/// Every top-level key, with its schema. Its names must equal the loader's
/// `TOP_LEVEL_KEYS` (tested below).
fn top_level() -> Vec<(&'static str, Value)> {
    let mut keys = file_keys();
    keys.extend(http_keys());
    keys.extend(managed_keys());
    keys.extend(prompt_keys());
    keys.push((
        "maxHookTimeout",
        json!({
            "type": "number",
            "exclusiveMinimum": 0,
            "description": "Managed settings only: no hook's timeout may exceed this many seconds."
        }),
    ));
    keys.push((
        "disableBuiltinRules",
        json!({
            "type": "array",
            "items": { "type": "string", "enum": crate::selfguard::RULES.iter().map(|r| r.name).collect::<Vec<_>>() },
            "description": "Managed settings only: built-in rules that protect hookrun itself to turn off, by name (see `hookrun doctor`). No other settings file can."
        }),
    ));
    keys
}

/// The hooks, the rules and the file's own keys.
fn file_keys() -> Vec<(&'static str, Value)> {
    let rules = |what: &str| {
        json!({
            "type": "array",
            "items": { "$ref": "#/$defs/Rule" },
            "description": what,
        })
    };
    vec![
        (
            "$schema",
            json!({
                "type": "string",
                "description": "The schema this file follows, for editors (a path or URL of docs/settings.schema.json). hookrun ignores it."
            }),
        ),
        ("hooks", hooks()),
        (
            "disableAllHooks",
            json!({
                "type": "boolean",
                "description": "true turns off every hook from user, project, local and --settings files. Honoured in managed, user, trusted project and local, and --settings files; a managed true cannot be undone elsewhere."
            }),
        ),
        (
            "permissions",
            json!({
                "type": "object",
                "description": "Rules checked for PreToolUse and PermissionRequest after the hooks ran, against the (possibly rewritten) tool input: a hook block or a deny rule denies; else a hook defer defers; else an ask rule or a hook ask asks; else an allow rule or a hook allow allows; else the host decides. A hook's allow never overrides a deny or ask rule.",
                "properties": {
                    "allow": rules("Allowed when EVERY part of a compound command matches some allow rule (never for a command with $( ), backticks or $VAR)."),
                    "ask": rules("The person at the host is asked when ANY part of the command matches (with --non-interactive: denied)."),
                    "deny": rules("Denied when ANY part of the command matches, whatever the hooks said.")
                },
                "additionalProperties": false
            }),
        ),
        (
            "env",
            json!({
                "type": "object",
                "description": "The environment hooks get. Variables whose names look like secrets (api_key, secret, token, password, passwd, credential, private_key) are removed from it unless listed in `keep`.",
                "properties": {
                    "keep": {
                        "type": "array",
                        "items": { "type": "string" },
                        "description": "Secret-looking variables hooks may see anyway. Honoured in user, managed and --settings files only: a project cannot ask for your secrets.",
                        "examples": [["GITHUB_TOKEN"]]
                    }
                },
                "additionalProperties": false
            }),
        ),
        (
            "log",
            json!({
                "type": "string",
                "description": "Append one JSON line per fire to this audit log (`~/x` is under your home folder, a relative path is relative to this file's folder). `hookrun stats` summarises it. --log and $HOOKRUN_LOG take precedence.",
                "examples": ["~/.local/state/hookrun/audit.jsonl"]
            }),
        ),
    ]
}

/// Where http hooks may go.
fn http_keys() -> Vec<(&'static str, Value)> {
    vec![
        (
            "allowedHttpHookUrls",
            json!({
                "type": "array",
                "items": { "type": "string" },
                "description": "URL patterns (`*` matches anything, host case-insensitive) http hooks may call; lists from all levels are merged; [] allows none. A refused URL is a failure of the hook (onError applies).",
                "examples": [["https://hooks.example.com/*"]]
            }),
        ),
        (
            "allowPrivateNetworkHooks",
            json!({
                "type": "boolean",
                "description": "true lets http hooks reach private networks (10/8, 172.16/12, 192.168/16, link-local…), which the SSRF guard refuses otherwise. User, managed and --settings files only."
            }),
        ),
        (
            "allowedHookNetworks",
            json!({
                "type": "array",
                "items": { "type": "string" },
                "description": "Private networks (CIDR, or one address) http hooks may reach despite the SSRF guard. User, managed and --settings files only.",
                "examples": [["10.1.0.0/16", "fd00::/64"]]
            }),
        ),
    ]
}

/// Keys of managed settings: which hooks may run.
fn managed_keys() -> Vec<(&'static str, Value)> {
    let sources: Vec<&str> = [
        SourceKind::User,
        SourceKind::Project,
        SourceKind::Local,
        SourceKind::Cli,
        SourceKind::Managed,
    ]
    .iter()
    .map(|kind| kind.as_str())
    .collect();
    vec![
        (
            "allowManagedHooksOnly",
            json!({
                "type": "boolean",
                "description": "Managed settings only: true runs only the hooks of managed settings."
            }),
        ),
        (
            "allowedHookSources",
            json!({
                "type": "array",
                "items": { "enum": sources },
                "description": "Managed settings only: the sources whose hooks may run."
            }),
        ),
        (
            "blockedCommands",
            json!({
                "type": "array",
                "items": { "type": "string" },
                "description": "Managed settings only: hooks whose command contains one of these strings do not run. A guard against mistakes, not adversaries."
            }),
        ),
        (
            "httpHookAllowedEnvVars",
            json!({
                "type": "array",
                "items": { "type": "string" },
                "description": "Managed settings only: the only variables any http hook's headers may use (on top of each hook's allowedEnvVars)."
            }),
        ),
    ]
}

/// Where prompt hooks send their question, and whether they may.
fn prompt_keys() -> Vec<(&'static str, Value)> {
    vec![
        (
            "promptHooks",
            json!({
                "type": "object",
                "description": "Where prompt hooks send their question. provider, baseUrl and apiKeyEnv are honoured in user, managed and --settings files only (a project may not choose where the event and your key go); model from any file.",
                "properties": {
                    "provider": {
                        "enum": ["anthropic", "openai"],
                        "default": "anthropic",
                        "description": "anthropic: the Messages API (POST {baseUrl}/v1/messages). openai: an OpenAI-compatible chat completions API (POST {baseUrl}/chat/completions), e.g. a local model server."
                    },
                    "baseUrl": {
                        "type": "string",
                        "description": "Default: $ANTHROPIC_BASE_URL, else https://api.anthropic.com (anthropic); $OPENAI_BASE_URL, else https://api.openai.com/v1 (openai). The SSRF guard of http hooks applies (loopback is allowed).",
                        "examples": ["http://127.0.0.1:11434/v1"]
                    },
                    "apiKeyEnv": {
                        "type": "string",
                        "description": "The environment variable holding the API key. Default ANTHROPIC_API_KEY (then ANTHROPIC_AUTH_TOKEN) or OPENAI_API_KEY. It is kept out of every hook's environment."
                    },
                    "model": {
                        "type": "string",
                        "description": "The model when a hook names none (after ANTHROPIC_SMALL_FAST_MODEL and ANTHROPIC_DEFAULT_HAIKU_MODEL for anthropic). Default for anthropic: claude-haiku-4-5; openai needs one."
                    }
                },
                "additionalProperties": false
            }),
        ),
        (
            "allowPromptHooks",
            json!({
                "type": "boolean",
                "description": "Managed settings only: false forbids every prompt hook (each is then a failure of the hook: onError applies)."
            }),
        ),
        (
            "allowedPromptHookEndpoints",
            json!({
                "type": "array",
                "items": { "type": "string" },
                "description": "Managed settings only: URL patterns (`*` matches anything) the request of a prompt hook may go to; [] allows none.",
                "examples": [["https://api.anthropic.com/*", "http://127.0.0.1:*"]]
            }),
        ),
    ]
}

/// `hooks`: every catalog event is a property (editors complete the keys),
/// and any other key is accepted too (lenient spellings such as
/// `pre_tool_use`, and custom events, which pass through).
fn hooks() -> Value {
    let mut events = Map::new();
    for spec in CATALOG {
        events.insert(
            spec.name.to_owned(),
            json!({
                "$ref": "#/$defs/HookList",
                "description": protocol::event_summary(spec),
            }),
        );
    }
    json!({
        "type": "object",
        "description": "Hooks by event. Event names are lenient (pre_tool_use = PreToolUse = pre-tool-use); a name that is not a known event passes through as a custom event.",
        "properties": events,
        "additionalProperties": { "$ref": "#/$defs/HookList" }
    })
}

/// The schema of a field whose parse type says too little (a `String` with
/// known values, a newtype with its own `Deserialize`). Used as
/// `#[schemars(with = "Option<…>")]` on `RawHook`, so the field stays
/// optional like the `Option` it is.
macro_rules! field_schema {
    ($(#[$doc:meta])* $name:ident, $schema:tt) => {
        $(#[$doc])*
        pub(crate) struct $name;

        impl schemars::JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    };
}

field_schema!(
    /// `type`: known values offered, any other string accepted (it loads
    /// and is reported as not supported).
    HookTypeSchema,
    {
        "type": "string",
        "default": HookKind::DEFAULT.word(),
        "anyOf": hook_type_choices()
    }
);

/// `type`'s choices: one per row of the kinds' table, then any other word.
fn hook_type_choices() -> Vec<Value> {
    let mut choices: Vec<Value> = HookKind::ALL
        .iter()
        .map(|kind| json!({ "const": kind.word(), "description": kind.schema_text() }))
        .collect();
    choices.push(json!({ "description": "Any other type (typos…) loads, but hookrun does not run it and says so on every fire." }));
    choices
}

field_schema!(
    /// `shell`: `sh` or `bash`; other values load and are reported
    /// unsupported.
    ShellSchema,
    {
        "type": "string",
        "default": "sh",
        "anyOf": [
            { "const": "sh", "description": "sh -c COMMAND" },
            { "const": "bash", "description": "bash -c COMMAND" },
            { "const": "powershell", "description": "pwsh -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command COMMAND (pwsh, else powershell, from PATH)" },
            { "description": "Other shells load, but the hook does not run and is reported." }
        ]
    }
);

field_schema!(
    /// `onFailure`: Claude Code's two values; any other value loads (and
    /// reads as `block`).
    OnFailureSchema,
    {
        "type": "string",
        "default": "continue",
        "anyOf": [
            { "const": "continue", "description": "The default: the failure is a warning, and the action goes ahead (onError \"allow\")." },
            { "const": "block", "description": "Fail closed: the failure blocks like an exit 2 (onError \"block\")." }
        ]
    }
);

field_schema!(
    /// `timeout`: what the loader's `Seconds` accepts.
    SecondsSchema,
    {
        "type": "number",
        "exclusiveMinimum": 0,
        "exclusiveMaximum": 1_000_000_000,
        "examples": [10, 30, 600]
    }
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::load::TOP_LEVEL_KEYS;

    fn keys(object: &Value) -> Vec<String> {
        let mut keys: Vec<String> = object
            .as_object()
            .expect("an object")
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    }

    fn sorted(list: &[&str]) -> Vec<String> {
        let mut list: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
        list.sort();
        list
    }

    /// The field names serde's derive gives `RawHook` (after renames), as
    /// the parser sees them: captured from the `deserialize_struct` call.
    fn raw_hook_fields() -> &'static [&'static str] {
        use serde::de::{self, Deserialize as _, Visitor};

        struct Capture(Option<&'static [&'static str]>);
        impl<'de> de::Deserializer<'de> for &mut Capture {
            type Error = de::value::Error;
            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
                Err(de::Error::custom("not a struct"))
            }
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Self::Error> {
                self.0 = Some(fields);
                Err(de::Error::custom("captured"))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
                bytes byte_buf option unit unit_struct newtype_struct seq tuple
                tuple_struct map enum identifier ignored_any
            }
        }
        let mut capture = Capture(None);
        let _ = RawHook::deserialize(&mut capture);
        capture.0.expect("RawHook deserialises as a struct")
    }

    #[test]
    fn top_level_properties_are_the_loaders_keys() {
        let schema = settings_schema();
        assert_eq!(keys(&schema["properties"]), sorted(TOP_LEVEL_KEYS));
    }

    #[test]
    fn hook_properties_are_raw_hook_fields() {
        let schema = settings_schema();
        let hook = &schema["$defs"]["Hook"];
        assert_eq!(keys(&hook["properties"]), sorted(raw_hook_fields()));
        assert_eq!(hook["additionalProperties"], json!(false));
        // No field is required by the derive: what each type needs is in allOf.
        assert!(hook.get("required").is_none(), "{hook:#}");
    }

    #[test]
    fn every_catalog_event_is_a_hooks_property_and_others_pass() {
        let schema = settings_schema();
        let hooks = &schema["properties"]["hooks"];
        let mut names: Vec<&str> = CATALOG.iter().map(|spec| spec.name).collect();
        names.sort_unstable();
        assert_eq!(keys(&hooks["properties"]), sorted(&names));
        assert_eq!(
            hooks["additionalProperties"],
            json!({ "$ref": "#/$defs/HookList" })
        );
    }

    #[test]
    fn null_is_never_offered() {
        let text = serde_json::to_string(&settings_schema()).unwrap();
        assert!(!text.contains("null"), "{text}");
    }

    #[test]
    fn hook_fields_carry_descriptions_and_types() {
        let schema = settings_schema();
        let properties = &schema["$defs"]["Hook"]["properties"];
        for (name, field) in properties.as_object().unwrap() {
            assert!(
                field["description"].as_str().is_some_and(|d| !d.is_empty()),
                "hook field {name} has no description"
            );
        }
        assert_eq!(properties["timeout"]["type"], "number");
        assert_eq!(properties["timeout"]["exclusiveMinimum"], 0);
        assert_eq!(properties["type"]["default"], "command");
        assert_eq!(properties["shell"]["default"], "sh");
        assert_eq!(properties["onError"]["$ref"], "#/$defs/OnError");
        let values: Vec<&Value> = schema["$defs"]["OnError"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| &v["const"])
            .collect();
        assert_eq!(values, [&json!("allow"), &json!("block")]);
    }
}
