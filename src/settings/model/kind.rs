//! The one table of hook kinds (`type`): every [`HookKind`] with its word,
//! its default timeout, the fields it needs, how it runs (a process, with
//! a SIGTERM → SIGKILL grace, or a request), whether it can be started
//! detached, and the text the settings schema shows for it.
//!
//! Loading ([`HookKind::from_word`]), planning (timeouts, `async`),
//! running (a sequential hook's share of the deadline), the schema and the
//! list of known names all read a kind's rules from here, so a kind
//! without a row cannot be written and a rule cannot be said twice.

use std::time::Duration;

use super::ProblemKind;

/// How a kind runs, which decides the grace it needs before the deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunsAs {
    /// A process hookrun starts (in its own group): it is sent SIGTERM,
    /// then SIGKILL after `--kill-grace`.
    Process,
    /// A request: it simply ends at its timeout.
    Request,
}

/// Declares [`HookKind`] and its table from one row per kind:
/// `Variant = "word" { called, default_timeout, requires, missing,
/// runs_as, detaches, read_on_arrival, schema }`.
macro_rules! hook_kinds {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $word:literal {
            called: $called:literal,
            default_timeout: $timeout:expr,
            requires: [$($field:literal),*],
            missing: $missing:ident,
            runs_as: $runs_as:ident,
            detaches: $detaches:literal,
            read_on_arrival: $arrival:literal,
            schema: $schema:literal $(,)?
        }
    )*) => {
        /// A kind of hook hookrun loads and runs (its `type`; see the
        /// module's table).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum HookKind {
            $($(#[$doc])* $variant,)*
        }

        impl HookKind {
            /// Every kind, in the order of the schema's list.
            pub const ALL: &'static [HookKind] = &[$(HookKind::$variant,)*];

            /// The `type` word.
            pub const fn word(self) -> &'static str {
                match self {
                    $(HookKind::$variant => $word,)*
                }
            }

            /// The kind a `type` word names; `None` for a word hookrun
            /// does not run (it loads, and is reported).
            pub fn from_word(word: &str) -> Option<HookKind> {
                match word {
                    $($word => Some(HookKind::$variant),)*
                    _ => None,
                }
            }

            /// A hook of this kind, in a sentence ("an http hook").
            pub const fn called(self) -> &'static str {
                match self {
                    $(HookKind::$variant => $called,)*
                }
            }

            /// Its timeout when the hook sets none; `None`: the event's
            /// default.
            pub const fn default_timeout(self) -> Option<Duration> {
                match self {
                    $(HookKind::$variant => $timeout,)*
                }
            }

            /// The fields a hook of this kind cannot run without.
            pub const fn required(self) -> &'static [&'static str] {
                match self {
                    $(HookKind::$variant => &[$($field),*],)*
                }
            }

            /// The problem a hook missing one of [`HookKind::required`]
            /// is (it is skipped).
            pub const fn missing(self) -> ProblemKind {
                match self {
                    $(HookKind::$variant => ProblemKind::$missing,)*
                }
            }

            /// Whether it starts a process or makes a request.
            pub const fn runs_as(self) -> RunsAs {
                match self {
                    $(HookKind::$variant => RunsAs::$runs_as,)*
                }
            }

            /// Whether `async` (started detached, not waited for) is
            /// supported.
            pub const fn runs_detached(self) -> bool {
                match self {
                    $(HookKind::$variant => $detaches,)*
                }
            }

            /// Whether its answer is read where it arrives, on the thread
            /// that waits for it, so before anyone could check the JSON's
            /// depth (see `plan::Plan::needs_big_stack`).
            pub const fn read_where_it_arrives(self) -> bool {
                match self {
                    $(HookKind::$variant => $arrival,)*
                }
            }

            /// What the settings schema says of the word.
            pub const fn schema_text(self) -> &'static str {
                match self {
                    $(HookKind::$variant => $schema,)*
                }
            }
        }
    };
}

hook_kinds! {
    /// A process in its own group, under the supervisor.
    Command = "command" {
        called: "a command hook",
        default_timeout: None,
        requires: ["command"],
        missing: CommandMissing,
        runs_as: Process,
        detaches: true,
        read_on_arrival: false,
        schema: "Run a program: `command` (shell form), or `command` + `args` (exec form).",
    }
    /// A request on its own thread (SPEC §8).
    Http = "http" {
        called: "an http hook",
        default_timeout: None,
        requires: ["url"],
        missing: UrlMissing,
        runs_as: Request,
        detaches: false,
        read_on_arrival: true,
        schema: "POST the event JSON to `url`.",
    }
    /// A model asked over http (SPEC §13).
    Prompt = "prompt" {
        called: "a prompt hook",
        default_timeout: Some(Duration::from_secs(30)),
        requires: ["prompt"],
        missing: PromptHookWithoutPrompt,
        runs_as: Request,
        detaches: false,
        read_on_arrival: true,
        schema: "Ask a model (`prompt`, `model`) whether the event may proceed; the model answers {\"ok\": true|false, \"reason\": …}. PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, UserPromptSubmit, Stop, SubagentStop and TaskCompleted only.",
    }
    /// A prompt hook whose model may first read the project with
    /// read-only tools: the same endpoint, the same verdict
    /// (`crate::prompt::agent`).
    Agent = "agent" {
        called: "an agent hook",
        default_timeout: Some(Duration::from_secs(60)),
        requires: ["prompt"],
        missing: AgentHookWithoutPrompt,
        runs_as: Request,
        detaches: false,
        read_on_arrival: true,
        schema: "Let a model look around the project with read-only tools (Read, Grep, Glob) before it answers {\"ok\": true|false, \"reason\": …} on the prompt hooks' endpoint. PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStop and TaskCompleted only.",
    }
    /// A tool call to an MCP server hookrun starts as a process.
    McpTool = "mcp_tool" {
        called: "an mcp_tool hook",
        default_timeout: None,
        requires: ["server", "tool"],
        missing: McpToolIncomplete,
        runs_as: Process,
        detaches: false,
        read_on_arrival: false,
        schema: "Call `tool` on the MCP server `server` (from `.mcp.json` or ~/.claude.json) with `input`; the tool's text is read like a command hook's stdout. stdio servers only.",
    }
}

impl HookKind {
    /// The kind of a hook without `type`.
    pub const DEFAULT: HookKind = HookKind::Command;

    /// The SIGTERM → SIGKILL grace (`kill_grace`, from `--kill-grace`) a
    /// hook of this kind needs before the deadline: only a kind that
    /// starts a process has a group to kill; a request just ends at its
    /// timeout.
    pub fn kill_grace(self, kill_grace: Duration) -> Duration {
        match self.runs_as() {
            RunsAs::Process => kill_grace,
            RunsAs::Request => Duration::ZERO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::HookKind;

    #[test]
    fn every_word_names_its_kind() {
        for kind in HookKind::ALL {
            assert_eq!(HookKind::from_word(kind.word()), Some(*kind));
            assert!(!kind.required().is_empty(), "{kind:?}");
        }
        assert_eq!(HookKind::from_word("shell"), None);
    }
}
