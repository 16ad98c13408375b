//! One hook in load order, flattened from either settings shape: where it
//! was declared, which event it is for, what it does, and the fields every
//! kind shares (matcher, `if`, timeout, `onError`, `async`, `once`…).

use std::time::Duration;

use super::{CommandDef, HookAction, HttpDef, JsonPath, McpToolDef};
use crate::catalog::EventId;
use crate::text::shorten;

/// `onError`: what a failure of the hook itself means (SPEC §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnError {
    #[default]
    Allow,
    Block,
}

/// One hook, flattened from either settings shape.
#[derive(Debug, Clone)]
pub struct HookDef {
    /// Index of the declaring file in [`Settings::files`](super::Settings::files).
    pub file: usize,
    /// JSON path of the entry, e.g. `hooks.PreToolUse[1].hooks[0]`.
    pub json_path: JsonPath,
    /// The event key as written in the file (shared by the event's hooks).
    pub event_key: std::sync::Arc<str>,
    pub event: EventId,
    /// What it does (`type`), with the fields of that kind.
    pub action: HookAction,
    pub matcher: Option<String>,
    pub if_rule: Option<String>,
    pub timeout: Option<Duration>,
    pub name: Option<String>,
    pub sequential: bool,
    pub on_error: OnError,
    pub run_async: bool,
    pub once: bool,
    /// `statusMessage` and `asyncRewake`, when either is set (read them
    /// with the methods of the same names).
    pub extra: Option<Box<HookExtra>>,
}

/// The fields few hooks set, kept out of line: a list of hundreds of hooks
/// is mostly command hooks, and every byte of a [`HookDef`] is memory a
/// fire touches for each of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookExtra {
    pub status_message: Option<String>,
    /// `asyncRewake`: with `async`, only an exit 2 speaks, and its stderr
    /// reaches the model later (see `asynchook`).
    pub async_rewake: bool,
}

impl HookExtra {
    /// `None` when nothing is set.
    pub fn boxed(self) -> Option<Box<HookExtra>> {
        let empty = self.status_message.is_none() && !self.async_rewake;
        (!empty).then(|| Box::new(self))
    }
}

impl HookDef {
    /// `asyncRewake`.
    pub fn async_rewake(&self) -> bool {
        self.extra.as_ref().is_some_and(|extra| extra.async_rewake)
    }

    /// `statusMessage`.
    pub fn status_message(&self) -> Option<&str> {
        self.extra.as_ref()?.status_message.as_deref()
    }

    /// The `type` word, for messages.
    pub fn kind_name(&self) -> &str {
        self.action.kind_name()
    }

    /// `mcp_tool` hooks: their call.
    pub fn mcp(&self) -> Option<&McpToolDef> {
        match &self.action {
            HookAction::McpTool(def) => Some(def),
            _ => None,
        }
    }

    /// Whether it is an agent hook (a prompt hook with tools).
    pub fn is_agent(&self) -> bool {
        matches!(self.action, HookAction::Agent(_))
    }

    /// http hooks: their request.
    pub fn http(&self) -> Option<&HttpDef> {
        match &self.action {
            HookAction::Http(def) => Some(def),
            _ => None,
        }
    }

    /// The name shown in reports: `name`, else the command (or url),
    /// shortened to one line.
    pub fn display_name(&self) -> String {
        if let Some(name) = self.name.as_deref().filter(|n| !n.trim().is_empty()) {
            return name.to_owned();
        }
        let base = match &self.action {
            HookAction::Prompt(prompt) | HookAction::Agent(prompt) => {
                return shorten(&prompt.text, 60);
            }
            HookAction::McpTool(mcp) => {
                return shorten(&format!("mcp {}/{}", mcp.server, mcp.tool), 60);
            }
            HookAction::Http(http) => http.url.clone(),
            HookAction::Command(CommandDef { command, args, .. }) => {
                with_args(command, args.as_deref())
            }
            HookAction::Unsupported(def) => match (&def.command, &def.url) {
                (Some(command), _) => with_args(command, def.args.as_deref()),
                (None, Some(url)) => url.clone(),
                (None, None) => format!("{} hook", def.type_name),
            },
        };
        shorten(&base, 60)
    }
}

/// `command`, then its `args` when it has any.
fn with_args(command: &str, args: Option<&[String]>) -> String {
    match args {
        Some(args) if !args.is_empty() => format!("{command} {}", args.join(" ")),
        _ => command.to_owned(),
    }
}
