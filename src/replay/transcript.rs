//! Claude Code session transcripts: one JSON record per line, as Claude
//! Code keeps them per project and session (`~/.claude/projects/…/*.jsonl`,
//! subagents' turns in `agent-*.jsonl` files or inline with
//! `isSidechain: true`).
//!
//! From the records, the events Claude Code fired are rebuilt with the
//! fields a hook sees:
//!
//! - a user record whose content is text (not meta, not a local command's
//!   output, not the interruption marker) → `UserPromptSubmit` with
//!   `prompt`; the first prompt of a subagent is its task, not an event;
//! - each `tool_use` block of an assistant record → `PreToolUse`, written
//!   out when its `tool_result` arrives (so the event knows what became of
//!   the call), or at the end of the file;
//! - a `tool_result` → `PostToolUse` with `tool_response` (the record's
//!   `toolUseResult`), `PostToolUseFailure` with `error` when `is_error`,
//!   or nothing when the call was refused (hook, rule or user: Claude Code
//!   fires no Post event then);
//! - the end of a turn that was answered and not interrupted → `Stop`
//!   (`SubagentStop` for a subagent), with `last_assistant_message`.
//!
//! Lines that are not JSON objects (truncated, garbled) are counted and
//! named; record types this reader does not know are counted by name.

use std::collections::HashMap;
use std::io::BufRead;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::{Recorded, Replayed, Tally};
use crate::event::Event;

/// Record types that carry no event (bookkeeping, UI state, metadata).
const NO_EVENT_TYPES: &[&str] = &[
    "summary",
    "system",
    "attachment",
    "file-history-snapshot",
    "queue-operation",
    "api-request",
    "atis-latch",
    "last-prompt",
    "tools-used",
    "cost-state",
    "progress",
    "custom-title",
    "tag",
    "agent-name",
    "pr-link",
    "mode",
];

/// Text that marks a user record as something other than a prompt.
const NOT_A_PROMPT: &[&str] = &[
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "[Request interrupted by user",
];

/// What Claude Code writes when the person at the prompt rejects a call.
const USER_REJECTED: &str = "The user doesn't want to proceed with this tool use";

#[derive(Debug, Deserialize)]
struct Record {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(rename = "sessionId", default)]
    session_id: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    timestamp: Option<String>,
    #[serde(rename = "isSidechain", default)]
    is_sidechain: bool,
    #[serde(rename = "isMeta", default)]
    is_meta: bool,
    #[serde(rename = "isCompactSummary", default)]
    is_compact_summary: bool,
    #[serde(rename = "agentId", default)]
    agent_id: Option<String>,
    #[serde(rename = "attributionAgent", default)]
    agent_type: Option<String>,
    #[serde(rename = "permissionMode", default)]
    permission_mode: Option<String>,
    #[serde(default)]
    message: Option<Message>,
    #[serde(rename = "toolUseResult", default)]
    tool_use_result: Option<Value>,
    #[serde(rename = "toolDenialKind", default)]
    denial_kind: Option<Value>,
    #[serde(rename = "permissionDecision", default)]
    permission_decision: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct Message {
    #[serde(default)]
    content: Option<Value>,
}

/// Who a record belongs to: the main conversation or one subagent.
type ChainKey = Option<String>;

/// Where the events of one chain stand.
#[derive(Debug, Default)]
struct Chain {
    /// A prompt (or a subagent's task) started a turn.
    in_turn: bool,
    /// The model answered in this turn.
    answered: bool,
    interrupted: bool,
    last_text: Option<String>,
    last_time: Option<String>,
    last_line: usize,
    /// The subagent's own task prompt was seen.
    task_seen: bool,
    agent_type: Option<String>,
}

/// A `tool_use` waiting for its `tool_result`.
#[derive(Debug)]
struct Pending {
    chain: ChainKey,
    tool_name: String,
    tool_input: Value,
    time: Option<String>,
    line: usize,
    /// Context of the assistant record.
    context: Context,
}

/// The fields every event of a record carries.
#[derive(Debug, Clone, Default)]
struct Context {
    session_id: Option<String>,
    cwd: Option<String>,
    permission_mode: Option<String>,
}

/// Streams one transcript, handing each rebuilt event to `sink` as soon as
/// it is complete.
pub struct Reader<'a, F: FnMut(Replayed)> {
    file: usize,
    /// `transcript_path` in the events: the file as given.
    transcript_path: String,
    /// The session when a record names none (the file stem).
    fallback_session: String,
    tally: &'a mut Tally,
    sink: F,
    chains: HashMap<ChainKey, Chain>,
    pending: HashMap<String, Pending>,
    /// The last context seen, for records without their own.
    context: Context,
}

impl<'a, F: FnMut(Replayed)> Reader<'a, F> {
    pub fn new(
        file: usize,
        transcript_path: String,
        fallback_session: String,
        tally: &'a mut Tally,
        sink: F,
    ) -> Self {
        Reader {
            file,
            transcript_path,
            fallback_session,
            tally,
            sink,
            chains: HashMap::new(),
            pending: HashMap::new(),
            context: Context::default(),
        }
    }

    /// Reads every line of `input`, then ends the open turns.
    pub fn read_all(mut self, mut input: impl BufRead) -> std::io::Result<()> {
        let mut buf = Vec::new();
        let mut line = 0;
        loop {
            buf.clear();
            let n = input.read_until(b'\n', &mut buf)?;
            if n == 0 {
                break;
            }
            line += 1;
            let complete = buf.last() == Some(&b'\n');
            self.line(line, &buf, complete);
        }
        self.finish();
        Ok(())
    }

    /// One line of the file (with or without its newline).
    pub fn line(&mut self, line: usize, bytes: &[u8], complete: bool) {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        self.tally.records += 1;
        let record: Record = match serde_json::from_slice(bytes) {
            Ok(record) => record,
            Err(err) => {
                let why = if complete {
                    format!("not a transcript record: {err}")
                } else {
                    format!(
                        "truncated: the last line has no newline and is not complete JSON ({err}); was the session still being written?"
                    )
                };
                self.tally.unreadable(self.file, line, why);
                return;
            }
        };
        self.record(line, record);
    }

    fn record(&mut self, line: usize, record: Record) {
        if let Some(session) = &record.session_id {
            self.context.session_id = Some(session.clone());
        }
        if let Some(cwd) = &record.cwd {
            self.context.cwd = Some(cwd.clone());
        }
        if let Some(mode) = &record.permission_mode {
            self.context.permission_mode = Some(mode.clone());
        }
        match record.kind.as_deref() {
            Some("user") => self.user(line, &record),
            Some("assistant") => self.assistant(line, record),
            Some(kind) if NO_EVENT_TYPES.contains(&kind) => {}
            Some(kind) => *self.tally.unknown_types.entry(kind.to_owned()).or_default() += 1,
            None => {
                self.tally
                    .unreadable(self.file, line, "a record without `type`".into());
            }
        }
    }

    fn chain_key(record: &Record) -> ChainKey {
        if record.is_sidechain {
            Some(
                record
                    .agent_id
                    .clone()
                    .unwrap_or_else(|| "sidechain".to_owned()),
            )
        } else {
            None
        }
    }

    fn user(&mut self, line: usize, record: &Record) {
        let chain_key = Self::chain_key(record);
        let content = record.message.as_ref().and_then(|m| m.content.as_ref());
        let Some(content) = content else {
            self.tally.unreadable(
                self.file,
                line,
                "a user record without `message.content`".into(),
            );
            return;
        };
        let blocks = match content {
            Value::String(text) => {
                self.prompt(line, record, chain_key, text);
                return;
            }
            Value::Array(blocks) => blocks,
            _ => {
                self.tally.unreadable(
                    self.file,
                    line,
                    "`message.content` is neither text nor a list of blocks".into(),
                );
                return;
            }
        };
        let mut text = String::new();
        let mut any_result = false;
        let results = blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            .count();
        for block in blocks {
            match block.get("type").and_then(Value::as_str) {
                Some("tool_result") => {
                    any_result = true;
                    self.tool_result(line, record, block, results == 1);
                }
                Some("text") => {
                    if let Some(t) = block.get("text").and_then(Value::as_str) {
                        if !text.is_empty() {
                            text.push('\n');
                        }
                        text.push_str(t);
                    }
                }
                _ => {}
            }
        }
        if !any_result && !text.is_empty() {
            self.prompt(line, record, chain_key, &text);
        }
    }

    fn prompt(&mut self, line: usize, record: &Record, chain_key: ChainKey, text: &str) {
        if text.starts_with("[Request interrupted by user") {
            self.chains.entry(chain_key).or_default().interrupted = true;
            return;
        }
        if record.is_meta
            || record.is_compact_summary
            || NOT_A_PROMPT.iter().any(|p| text.starts_with(p))
        {
            return;
        }
        let sidechain = chain_key.is_some();
        if sidechain {
            let chain = self.chains.entry(chain_key).or_default();
            if !chain.task_seen {
                // A subagent's task: the Agent tool's input, not a prompt.
                chain.task_seen = true;
                chain.in_turn = true;
                return;
            }
            // Later user text in a subagent (a message sent to it) starts
            // no UserPromptSubmit either.
            return;
        }
        self.end_turn(&None);
        let chain = self.chains.entry(None).or_default();
        chain.in_turn = true;
        let mut fields = self.base(&self.context.clone(), "UserPromptSubmit");
        fields.insert("prompt".into(), Value::String(text.to_owned()));
        self.emit(fields, line, record.timestamp.clone(), false, Recorded::Ran);
    }

    fn assistant(&mut self, line: usize, record: Record) {
        let chain_key = Self::chain_key(&record);
        let context = self.context.clone();
        {
            let chain = self.chains.entry(chain_key.clone()).or_default();
            chain.in_turn = true;
            chain.answered = true;
            chain.last_time.clone_from(&record.timestamp);
            chain.last_line = line;
            if record.agent_type.is_some() {
                chain.agent_type.clone_from(&record.agent_type);
            }
        }
        let Some(Value::Array(blocks)) = record.message.and_then(|m| m.content) else {
            return;
        };
        for block in blocks {
            match block.get("type").and_then(Value::as_str) {
                Some("tool_use") => {
                    let Value::Object(mut block) = block else {
                        continue;
                    };
                    let id = block.get("id").and_then(Value::as_str).map(str::to_owned);
                    let name = block.get("name").and_then(Value::as_str).map(str::to_owned);
                    let (Some(id), Some(name)) = (id, name) else {
                        self.tally.unreadable(
                            self.file,
                            line,
                            "a tool_use block without `id` or `name`".into(),
                        );
                        continue;
                    };
                    let input = block.remove("input").unwrap_or(Value::Object(Map::new()));
                    self.pending.insert(
                        id,
                        Pending {
                            chain: chain_key.clone(),
                            tool_name: name,
                            tool_input: input,
                            time: record.timestamp.clone(),
                            line,
                            context: context.clone(),
                        },
                    );
                }
                Some("text") => {
                    if let Some(text) = block.get("text").and_then(Value::as_str) {
                        let chain = self.chains.entry(chain_key.clone()).or_default();
                        chain.last_text = Some(text.to_owned());
                    }
                }
                _ => {}
            }
        }
    }

    fn tool_result(&mut self, line: usize, record: &Record, block: &Value, only_result: bool) {
        let Some(id) = block.get("tool_use_id").and_then(Value::as_str) else {
            self.tally.unreadable(
                self.file,
                line,
                "a tool_result block without `tool_use_id`".into(),
            );
            return;
        };
        let Some(pending) = self.pending.remove(id) else {
            self.tally.unreadable(
                self.file,
                line,
                format!("a tool_result for {id:?}, but no tool_use with that id came before it"),
            );
            return;
        };
        let is_error = block
            .get("is_error")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let text = content_text(block.get("content"));
        let refused = record
            .permission_decision
            .as_ref()
            .and_then(|d| d.get("decision"))
            .and_then(Value::as_str)
            == Some("reject")
            || record.denial_kind.is_some()
            || text.starts_with(USER_REJECTED);
        let recorded = match (is_error, refused) {
            (true, true) => Recorded::Denied,
            (true, false) => Recorded::Failed,
            (false, _) => Recorded::Ran,
        };
        let response = if only_result {
            record.tool_use_result.clone()
        } else {
            None
        }
        .unwrap_or_else(|| block.get("content").cloned().unwrap_or(Value::Null));
        self.emit_tool(pending, id, recorded, Some((line, record, response, text)));
    }

    /// `PreToolUse`, then the Post event its result calls for.
    fn emit_tool(
        &mut self,
        pending: Pending,
        id: &str,
        recorded: Recorded,
        result: Option<(usize, &Record, Value, String)>,
    ) {
        let sidechain = pending.chain.is_some();
        let mut fields = self.base(&pending.context, "PreToolUse");
        if let Some(agent) = &pending.chain {
            fields.insert("agent_id".into(), Value::String(agent.clone()));
        }
        fields.insert("tool_name".into(), Value::String(pending.tool_name.clone()));
        fields.insert("tool_input".into(), pending.tool_input);
        fields.insert("tool_use_id".into(), Value::String(id.to_owned()));
        let post_base = fields.clone();
        self.emit(fields, pending.line, pending.time, sidechain, recorded);
        let Some((line, record, response, text)) = result else {
            return;
        };
        let post = match recorded {
            Recorded::Ran => {
                let mut post = post_base;
                post.insert("tool_response".into(), response);
                Some(("PostToolUse", post))
            }
            Recorded::Failed => {
                let mut post = post_base;
                post.insert("error".into(), Value::String(text));
                post.insert("is_interrupt".into(), Value::Bool(false));
                Some(("PostToolUseFailure", post))
            }
            Recorded::Denied | Recorded::NoResult => None,
        };
        if let Some((name, mut post)) = post {
            post.insert("hook_event_name".into(), Value::String(name.into()));
            self.emit(
                post,
                line,
                record.timestamp.clone(),
                sidechain,
                Recorded::Ran,
            );
        }
    }

    /// `Stop` / `SubagentStop` for a turn that the model answered and that
    /// was not interrupted.
    fn end_turn(&mut self, key: &ChainKey) {
        let Some(chain) = self.chains.get_mut(key) else {
            return;
        };
        let stop = chain.in_turn && chain.answered && !chain.interrupted;
        let last_text = chain.last_text.take();
        let time = chain.last_time.take();
        let line = chain.last_line;
        let agent_type = chain.agent_type.clone();
        chain.in_turn = false;
        chain.answered = false;
        chain.interrupted = false;
        if !stop {
            return;
        }
        let context = self.context.clone();
        let (name, sidechain) = match key {
            None => ("Stop", false),
            Some(_) => ("SubagentStop", true),
        };
        let mut fields = self.base(&context, name);
        fields.insert("stop_hook_active".into(), Value::Bool(false));
        if let Some(agent) = key {
            fields.insert("agent_id".into(), Value::String(agent.clone()));
            if let Some(agent_type) = agent_type {
                fields.insert("agent_type".into(), Value::String(agent_type));
            }
        }
        fields.insert(
            "last_assistant_message".into(),
            last_text.map_or(Value::Null, Value::String),
        );
        self.emit(fields, line, time, sidechain, Recorded::Ran);
    }

    /// The end of the file: calls without a result, then open turns. A
    /// turn cut off while a call was waiting for its result never ended,
    /// so it gets no Stop.
    fn finish(mut self) {
        let mut pending: Vec<(String, Pending)> = self.pending.drain().collect();
        pending.sort_by_key(|(_, p)| p.line);
        for (id, p) in pending {
            if let Some(chain) = self.chains.get_mut(&p.chain) {
                chain.interrupted = true;
            }
            self.emit_tool(p, &id, Recorded::NoResult, None);
        }
        let mut keys: Vec<ChainKey> = self.chains.keys().cloned().collect();
        keys.sort();
        for key in keys {
            self.end_turn(&key);
        }
    }

    fn base(&self, context: &Context, event: &str) -> Map<String, Value> {
        let mut fields = Map::new();
        let session = context
            .session_id
            .clone()
            .unwrap_or_else(|| self.fallback_session.clone());
        fields.insert("session_id".into(), Value::String(session));
        fields.insert(
            "transcript_path".into(),
            Value::String(self.transcript_path.clone()),
        );
        if let Some(cwd) = &context.cwd {
            fields.insert("cwd".into(), Value::String(cwd.clone()));
        }
        if let Some(mode) = &context.permission_mode {
            fields.insert("permission_mode".into(), Value::String(mode.clone()));
        }
        fields.insert("hook_event_name".into(), Value::String(event.into()));
        fields
    }

    fn emit(
        &mut self,
        fields: Map<String, Value>,
        line: usize,
        time: Option<String>,
        sidechain: bool,
        recorded: Recorded,
    ) {
        let session = fields
            .get("session_id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        // `hook_event_name` is always set above: this cannot fail.
        let Ok(event) = Event::from_object(fields, None) else {
            return;
        };
        (self.sink)(Replayed {
            event,
            session,
            file: self.file,
            line,
            time,
            sidechain,
            recorded,
        });
    }
}

/// The text of a `tool_result`'s content: a string, or text blocks joined.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> (Vec<Replayed>, Tally) {
        let mut tally = Tally::default();
        let mut events = Vec::new();
        Reader::new(0, "/t/s.jsonl".into(), "s".into(), &mut tally, |e| {
            events.push(e);
        })
        .read_all(text.as_bytes())
        .unwrap();
        (events, tally)
    }

    fn names(events: &[Replayed]) -> Vec<&str> {
        events.iter().map(|e| e.event.id.name()).collect()
    }

    fn user(content: &Value) -> String {
        json!({"type": "user", "sessionId": "S", "cwd": "/p", "permissionMode": "default",
               "timestamp": "2026-01-01T00:00:00Z", "message": {"role": "user", "content": content}})
        .to_string()
    }

    fn assistant(content: &Value) -> String {
        json!({"type": "assistant", "sessionId": "S", "cwd": "/p", "timestamp": "2026-01-01T00:00:01Z",
               "message": {"role": "assistant", "content": content}})
        .to_string()
    }

    fn tool_use(id: &str, command: &str) -> String {
        assistant(
            &json!([{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": command}}]),
        )
    }

    fn result(id: &str, is_error: bool, text: &str) -> String {
        json!({"type": "user", "sessionId": "S", "cwd": "/p",
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": text, "is_error": is_error}]},
               "toolUseResult": {"stdout": text, "stderr": ""}})
        .to_string()
    }

    #[test]
    fn a_turn_becomes_prompt_pre_post_stop() {
        let text = [
            user(&json!("run ls")),
            tool_use("t1", "ls"),
            result("t1", false, "a b"),
            assistant(&json!([{"type": "text", "text": "done"}])),
        ]
        .join("\n");
        let (events, tally) = read(&text);
        assert_eq!(
            names(&events),
            ["UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]
        );
        assert_eq!(tally.unreadable_count, 0);
        let f = events[0].event.fields();
        assert_eq!(f["prompt"], "run ls");
        assert_eq!(f["session_id"], "S");
        assert_eq!(f["cwd"], "/p");
        assert_eq!(f["permission_mode"], "default");
        assert_eq!(f["transcript_path"], "/t/s.jsonl");
        let pre = events[1].event.fields();
        assert_eq!(pre["tool_name"], "Bash");
        assert_eq!(pre["tool_input"], json!({"command": "ls"}));
        assert_eq!(pre["tool_use_id"], "t1");
        assert_eq!(events[1].recorded, Recorded::Ran);
        assert_eq!(events[1].line, 2);
        let post = events[2].event.fields();
        assert_eq!(
            post["tool_response"],
            json!({"stdout": "a b", "stderr": ""})
        );
        assert_eq!(events[3].event.fields()["last_assistant_message"], "done");
        assert_eq!(events[3].event.fields()["stop_hook_active"], false);
    }

    #[test]
    fn errors_and_refusals() {
        let refused = json!({"type": "user", "sessionId": "S",
            "message": {"content": [{"type": "tool_result", "tool_use_id": "t2", "content": "blocked", "is_error": true}]},
            "permissionDecision": {"decision": "reject", "source": "hook"}})
        .to_string();
        let text = [
            user(&json!("go")),
            tool_use("t1", "ls /nope"),
            result("t1", true, "Exit code 2\nls: cannot access"),
            tool_use("t2", "rm -rf /"),
            refused,
            tool_use("t3", "sleep 100"),
        ]
        .join("\n");
        let (events, _) = read(&text);
        assert_eq!(
            names(&events),
            [
                "UserPromptSubmit",
                "PreToolUse",
                "PostToolUseFailure",
                "PreToolUse",
                "PreToolUse",
            ],
            "no Stop: the turn was cut off while `sleep 100` waited for its result"
        );
        assert_eq!(events[1].recorded, Recorded::Failed);
        assert_eq!(
            events[2].event.fields()["error"],
            "Exit code 2\nls: cannot access"
        );
        assert_eq!(events[3].recorded, Recorded::Denied);
        assert_eq!(events[4].recorded, Recorded::NoResult);
        assert_eq!(
            events[4].event.fields()["tool_input"]["command"],
            "sleep 100"
        );
    }

    #[test]
    fn truncated_garbled_and_unknown_records_are_named() {
        let text = format!(
            "{}\nnot json at all\n{{\"type\": \"hologram\"}}\n{{\"type\": \"hologram\"}}\n{{\"no_type\": 1}}\n{}",
            user(&json!("hi")),
            &tool_use("t1", "ls")[..30]
        );
        let (events, tally) = read(&text);
        assert_eq!(names(&events), ["UserPromptSubmit"]);
        assert_eq!(tally.unreadable_count, 3);
        assert_eq!(tally.unreadable[0].line, 2);
        assert!(
            tally.unreadable[0]
                .why
                .starts_with("not a transcript record")
        );
        assert!(tally.unreadable[1].why.contains("without `type`"));
        assert_eq!(tally.unreadable[2].line, 6);
        assert!(
            tally.unreadable[2].why.starts_with("truncated"),
            "{:?}",
            tally.unreadable[2]
        );
        assert_eq!(tally.unknown_types["hologram"], 2);
        assert_eq!(tally.records, 6);
    }

    #[test]
    fn sidechains_fire_tool_events_and_subagent_stop_but_no_prompt() {
        let side = |v: Value| {
            let mut v = v;
            v["isSidechain"] = json!(true);
            v["agentId"] = json!("a1");
            v.to_string()
        };
        let text = [
            user(&json!("delegate")),
            side(json!({"type": "user", "sessionId": "S", "message": {"content": "task: run ls"}})),
            side(json!({"type": "assistant", "sessionId": "S", "attributionAgent": "Explore",
                "message": {"content": [{"type": "tool_use", "id": "s1", "name": "Bash", "input": {"command": "ls"}}]}})),
            side(json!({"type": "user", "sessionId": "S",
                "message": {"content": [{"type": "tool_result", "tool_use_id": "s1", "content": "x"}]}})),
            side(json!({"type": "assistant", "sessionId": "S", "message": {"content": [{"type": "text", "text": "sub done"}]}})),
            assistant(&json!([{"type": "text", "text": "all done"}])),
        ]
        .join("\n");
        let (events, tally) = read(&text);
        assert_eq!(tally.unreadable_count, 0, "{:?}", tally.unreadable);
        assert_eq!(
            names(&events),
            [
                "UserPromptSubmit",
                "PreToolUse",
                "PostToolUse",
                "Stop",
                "SubagentStop"
            ]
        );
        assert!(events[1].sidechain);
        assert_eq!(events[1].event.fields()["agent_id"], "a1");
        let sub = events[4].event.fields();
        assert_eq!(sub["agent_type"], "Explore");
        assert_eq!(sub["last_assistant_message"], "sub done");
        assert_eq!(
            events[3].event.fields()["last_assistant_message"],
            "all done"
        );
    }

    #[test]
    fn interrupted_turns_have_no_stop_and_meta_is_no_prompt() {
        let meta =
            json!({"type": "user", "isMeta": true, "message": {"content": "caveat"}}).to_string();
        let text = [
            meta,
            user(&json!("<local-command-stdout>ok</local-command-stdout>")),
            user(&json!([{"type": "text", "text": "first"}])),
            assistant(&json!([{"type": "text", "text": "working"}])),
            user(&json!([{"type": "text", "text": "[Request interrupted by user]"}])),
            user(&json!("second")),
            assistant(&json!([{"type": "text", "text": "ok"}])),
        ]
        .join("\n");
        let (events, _) = read(&text);
        assert_eq!(
            names(&events),
            ["UserPromptSubmit", "UserPromptSubmit", "Stop"]
        );
        assert_eq!(events[0].event.fields()["prompt"], "first");
        assert_eq!(events[1].event.fields()["prompt"], "second");
    }

    #[test]
    fn a_very_large_tool_input_is_read_whole() {
        let big = "x".repeat(8 << 20);
        let text = [
            user(&json!("big")),
            tool_use("t1", &big),
            result("t1", false, "ok"),
        ]
        .join("\n");
        let (events, tally) = read(&text);
        assert_eq!(tally.unreadable_count, 0);
        assert_eq!(
            events[1].event.fields()["tool_input"]["command"]
                .as_str()
                .unwrap()
                .len(),
            8 << 20
        );
    }

    #[test]
    fn a_result_without_its_call_is_named() {
        let (events, tally) = read(&result("ghost", false, "x"));
        assert!(events.is_empty());
        assert!(tally.unreadable[0].why.contains("\"ghost\""));
    }
}
