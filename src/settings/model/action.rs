//! What a hook does: one [`HookAction`] per kind of hook (`type`, see
//! [`HookKind`]'s table), each holding only the fields of its kind.

use std::sync::Arc;

use super::HookKind;

/// What a hook does, with the fields of its kind (`type`): a hook's
/// fields can only exist for its kind. A command hook, by far the most
/// common, is held in line; the rare kinds are out of line, so a list of
/// hundreds of hooks stays small, and shared (`Arc`), so the plan's
/// [`crate::plan::Runnable`] carries what the hook runs without a copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookAction {
    Command(CommandDef),
    /// POSTs the event to `url` (SPEC §8).
    Http(Arc<HttpDef>),
    /// Asks a model whether the event may proceed (SPEC §13).
    Prompt(Arc<PromptDef>),
    /// A prompt hook whose model may first read the project with
    /// read-only tools (`crate::prompt::agent`).
    Agent(Arc<PromptDef>),
    /// Calls a tool on an MCP server (`server`, `tool`, `input`).
    McpTool(Arc<McpToolDef>),
    /// Loaded but not run by hookrun (typos, kinds it does not know):
    /// reported on every fire that would run it.
    Unsupported(Box<UnsupportedDef>),
}

impl HookAction {
    /// Its kind; `None` for a type hookrun does not run.
    pub fn kind(&self) -> Option<HookKind> {
        match self {
            HookAction::Command(_) => Some(HookKind::Command),
            HookAction::Http(_) => Some(HookKind::Http),
            HookAction::Prompt(_) => Some(HookKind::Prompt),
            HookAction::Agent(_) => Some(HookKind::Agent),
            HookAction::McpTool(_) => Some(HookKind::McpTool),
            HookAction::Unsupported(_) => None,
        }
    }

    /// The `type` word, for messages.
    pub fn kind_name(&self) -> &str {
        match self {
            HookAction::Unsupported(def) => &def.type_name,
            known => known.kind().map_or("", HookKind::word),
        }
    }

    /// A prompt or agent hook's question.
    pub fn prompt(&self) -> Option<&PromptDef> {
        match self {
            HookAction::Prompt(def) | HookAction::Agent(def) => Some(def),
            _ => None,
        }
    }

    /// The program text a hook names, for the checks that search it: a
    /// command hook's, or what a hook of an unknown type wrote.
    pub fn command_text(&self) -> Option<(&str, Option<&[String]>)> {
        match self {
            HookAction::Command(def) => Some((&def.command, def.args.as_deref())),
            HookAction::Unsupported(def) => def
                .command
                .as_deref()
                .map(|command| (command, def.args.as_deref())),
            _ => None,
        }
    }
}

/// A command hook: shell form (`command`, run by `shell`), or exec form
/// (`command` + `args`, no shell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandDef {
    pub command: String,
    pub args: Option<Vec<String>>,
    pub shell: ShellKind,
}

/// An http hook's request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpDef {
    pub url: String,
    /// In name order.
    pub headers: Vec<(String, String)>,
    pub allowed_env_vars: Vec<String>,
}

/// A hook of a type hookrun does not run, with what it names (shown in
/// reports, searched by `blockedCommands`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedDef {
    pub type_name: String,
    pub command: Option<String>,
    pub args: Option<Vec<String>>,
    pub url: Option<String>,
}

/// `shell` of a shell-form command hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellKind {
    Sh,
    Bash,
    /// Run with PowerShell (`pwsh`, else `powershell`, on PATH), as Claude
    /// Code runs it.
    PowerShell,
    Unsupported(String),
}

impl ShellKind {
    pub fn as_str(&self) -> &str {
        match self {
            ShellKind::Sh => "sh",
            ShellKind::Bash => "bash",
            ShellKind::PowerShell => "powershell",
            ShellKind::Unsupported(name) => name,
        }
    }
}

/// What an `mcp_tool` hook calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpToolDef {
    /// The server's name in the MCP configuration.
    pub server: String,
    pub tool: String,
    /// The tool's arguments; `${path}` in strings is filled from the event.
    pub input: serde_json::Map<String, serde_json::Value>,
}

/// The fields only a prompt hook has.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PromptDef {
    /// The text the model judges; `$ARGUMENTS` becomes the event JSON.
    pub text: String,
    pub model: Option<String>,
    /// `ok: false` blocks but lets the agent go on (PreToolUse,
    /// PostToolUse, UserPromptSubmit) instead of ending the turn.
    pub continue_on_block: bool,
}
