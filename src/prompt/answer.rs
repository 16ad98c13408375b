//! Reading a model's answer as Claude Code reads a prompt hook's: the text
//! of the last text block, a fence around the whole answer removed, strict
//! JSON, a boolean `ok`. Everything else is a failure of the hook. Pure.

use serde_json::Value;

use crate::event::json_type_name;

/// What the model decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    pub ok: bool,
    pub reason: Option<String>,
    pub impossible: bool,
}

/// Why a provider's response carries no answer text.
#[derive(Debug, thiserror::Error)]
pub enum ResponseError {
    #[error("the response is not JSON ({0})")]
    NotJson(#[source] serde_json::Error),
    #[error("the response has no `content` list (is baseUrl a Messages API?)")]
    NoContent,
    #[error("the response has no `choices[0].message` (is baseUrl a chat completions API?)")]
    NoMessage,
    #[error("the model refused to answer: {0}")]
    Refused(String),
}

/// Why the answer text is no verdict.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error("the model's answer is empty")]
    Empty,
    #[error("the model's answer is not JSON ({0})")]
    NotJson(#[source] serde_json::Error),
    #[error("the model's answer is {0}, not an object with `ok`")]
    NotAnObject(&'static str),
    #[error("`ok` must be true or false, found {0}")]
    Ok(&'static str),
    #[error(
        "the answer uses the command-hook form `decision`; a prompt hook answers {{\"ok\": true|false, \"reason\": …}}"
    )]
    CommandForm,
    #[error("the answer has no `ok`")]
    NoOk,
    #[error("`reason` must be a string, found {0}")]
    Reason(&'static str),
    #[error("`impossible` must be true or false, found {0}")]
    Impossible(&'static str),
}

/// The text of an Anthropic Messages response: its last text block
/// (`""` when it has none, e.g. only a `tool_use`).
pub fn anthropic_text(body: &[u8]) -> Result<String, ResponseError> {
    let value: Value = serde_json::from_slice(body).map_err(ResponseError::NotJson)?;
    let Some(content) = value.get("content").and_then(Value::as_array) else {
        return Err(ResponseError::NoContent);
    };
    Ok(content
        .iter()
        .rev()
        .find(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .and_then(|b| b.get("text").and_then(Value::as_str))
        .unwrap_or_default()
        .to_owned())
}

/// The text of an OpenAI-compatible chat completion: the first choice's
/// message content (its last text part when it is a list).
pub fn openai_text(body: &[u8]) -> Result<String, ResponseError> {
    let value: Value = serde_json::from_slice(body).map_err(ResponseError::NotJson)?;
    let Some(message) = value
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .and_then(|c| c.get("message"))
    else {
        return Err(ResponseError::NoMessage);
    };
    match message.get("content") {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(Value::Array(parts)) => Ok(parts
            .iter()
            .rev()
            .find(|p| p.get("type").and_then(Value::as_str) == Some("text"))
            .and_then(|p| p.get("text").and_then(Value::as_str))
            .unwrap_or_default()
            .to_owned()),
        _ => match message.get("refusal").and_then(Value::as_str) {
            Some(refusal) => Err(ResponseError::Refused(refusal.to_owned())),
            None => Ok(String::new()),
        },
    }
}

/// `text` without a Markdown fence around the whole of it (with or
/// without a language tag); anything else unchanged.
pub fn unfence(text: &str) -> &str {
    let trimmed = text.trim();
    let Some(inner) = trimmed
        .strip_prefix("```")
        .and_then(|rest| rest.strip_suffix("```"))
    else {
        return trimmed;
    };
    let Some((tag, body)) = inner.split_once('\n') else {
        return trimmed;
    };
    let tag_ok = tag
        .trim()
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+'));
    if !tag_ok || body.contains("```") {
        return trimmed;
    }
    body.trim()
}

/// Reads the answer text as a verdict, or says in words why it is none.
pub fn judge(text: &str) -> Result<Judgement, AnswerError> {
    let text = unfence(text);
    if text.is_empty() {
        return Err(AnswerError::Empty);
    }
    let value: Value = serde_json::from_str(text).map_err(AnswerError::NotJson)?;
    let Value::Object(map) = value else {
        return Err(AnswerError::NotAnObject(json_type_name(&value)));
    };
    let ok = match map.get("ok") {
        Some(Value::Bool(ok)) => *ok,
        Some(other) => {
            return Err(AnswerError::Ok(json_type_name(other)));
        }
        None if map.contains_key("decision") => {
            return Err(AnswerError::CommandForm);
        }
        None => return Err(AnswerError::NoOk),
    };
    let reason = match map.get("reason") {
        None => None,
        Some(Value::String(reason)) => Some(reason.clone()),
        Some(other) => {
            return Err(AnswerError::Reason(json_type_name(other)));
        }
    };
    let impossible = match map.get("impossible") {
        None => false,
        Some(Value::Bool(flag)) => *flag,
        Some(other) => {
            return Err(AnswerError::Impossible(json_type_name(other)));
        }
    };
    Ok(Judgement {
        ok,
        reason,
        impossible,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Judgement {
        judge(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn fails(text: &str, words: &str) {
        match judge(text) {
            Err(why) => assert!(why.to_string().contains(words), "{text}: {why}"),
            Ok(j) => panic!("{text}: read as {j:?}"),
        }
    }

    #[test]
    fn the_answers_claude_code_accepts() {
        assert_eq!(
            ok(r#"{"ok": false, "reason": "no"}"#),
            Judgement {
                ok: false,
                reason: Some("no".into()),
                impossible: false
            }
        );
        assert!(ok("  {\"ok\":true}\n ").ok);
        assert!(!ok("```json\n{\"ok\": false, \"reason\": \"F\"}\n```").ok);
        assert!(!ok("```\n{\"ok\": false}\n```").ok);
        assert!(ok(r#"{"ok":false,"impossible":true,"reason":"r"}"#).impossible);
        // Other keys are ignored, whatever they say.
        let j = ok(
            r#"{"ok":true,"reason":"r","continue":false,"systemMessage":"s","hookSpecificOutput":{"permissionDecision":"deny"}}"#,
        );
        assert!(j.ok);
    }

    #[test]
    fn the_answers_claude_code_rejects() {
        fails(r#"{"decision":"block","reason":"x"}"#, "command-hook form");
        fails(r#"{"decision":"approve"}"#, "command-hook form");
        fails("This looks safe.", "not JSON");
        fails(r#"{"ok": false, "reason": "x""#, "not JSON");
        fails("", "empty");
        fails("   ", "empty");
        fails(
            r#"{"ok":"false"}"#,
            "`ok` must be true or false, found a string",
        );
        fails(r#"{"ok":0}"#, "found a number");
        fails(r#"Sure: {"ok":true}"#, "not JSON");
        fails(r#"{"ok":true} trailing"#, "not JSON");
        fails("Here:\n```json\n{\"ok\":true}\n```", "not JSON");
        fails("```json\n{\"ok\":true}\n```\nmore", "not JSON");
        fails("{'ok': true}", "not JSON");
        fails(r#"{"ok": true,}"#, "not JSON");
        fails("false", "a boolean, not an object");
        fails("[true]", "an array");
        fails(r#"{"ok":true,"reason":123}"#, "`reason` must be a string");
        fails(r#"{"ok":true,"reason":null}"#, "found null");
        fails(r#"{"reason":"r"}"#, "no `ok`");
        fails(r#"{"ok":false,"impossible":"yes"}"#, "`impossible`");
    }

    #[test]
    fn the_last_text_block_counts() {
        let body = br#"{"content":[{"type":"text","text":"{\"ok\":true}"},{"type":"text","text":"{\"ok\":false}"}]}"#;
        assert_eq!(anthropic_text(body).unwrap(), "{\"ok\":false}");
        let tool = br#"{"content":[{"type":"tool_use","id":"x","name":"StructuredOutput","input":{"ok":false}}]}"#;
        assert_eq!(anthropic_text(tool).unwrap(), "");
        assert!(
            anthropic_text(b"{}")
                .unwrap_err()
                .to_string()
                .contains("no `content`")
        );
        let chat = br#"{"choices":[{"message":{"role":"assistant","content":"{\"ok\":true}"}}]}"#;
        assert_eq!(openai_text(chat).unwrap(), "{\"ok\":true}");
        let refused =
            br#"{"choices":[{"message":{"role":"assistant","content":null,"refusal":"no"}}]}"#;
        assert!(
            openai_text(refused)
                .unwrap_err()
                .to_string()
                .contains("refused")
        );
        assert!(
            openai_text(b"{}")
                .unwrap_err()
                .to_string()
                .contains("choices[0]")
        );
    }
}
