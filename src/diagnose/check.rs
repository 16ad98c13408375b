//! The one table of `doctor`'s checks: every [`Check`] with its id, the
//! least severity its findings have, and a line saying what it finds.
//!
//! A finding names its check by variant, so a check without a row cannot
//! be written, and a misspelt id does not compile. The check table of
//! `docs/diagnostics.md` is generated from [`Check::ALL`] (with the
//! examples in `generate::diagnostics`).

use std::fmt;

use crate::settings::Severity;

/// Declares [`Check`] and its table from one row per check:
/// `Variant = "id", MinimumSeverity, "what it finds";`.
macro_rules! checks {
    ($($variant:ident = $id:literal, $severity:ident, $what:literal;)*) => {
        /// One of `doctor`'s checks (see the module's table).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Check {
            $($variant,)*
        }

        impl Check {
            /// Every check, in the order of the documentation's table.
            pub const ALL: &'static [Check] = &[$(Check::$variant,)*];

            /// The id shown in brackets (`error[json-syntax]`) and as
            /// `check` in `--format json`.
            pub const fn id(self) -> &'static str {
                match self {
                    $(Check::$variant => $id,)*
                }
            }

            /// The least severity a finding of this check has: one that
            /// means "this guard never fires" is an error wherever it was
            /// found, so `doctor` exits non-zero.
            pub const fn severity(self) -> Severity {
                match self {
                    $(Check::$variant => Severity::$severity,)*
                }
            }

            /// What the check finds, in one line.
            pub const fn what(self) -> &'static str {
                match self {
                    $(Check::$variant => $what,)*
                }
            }
        }
    };
}

checks! {
    SettingsUnreadable = "settings-unreadable", Error,
        "a settings file cannot be read";
    JsonSyntax = "json-syntax", Error,
        "a settings file is not valid JSON";
    JsonShape = "json-shape", Error,
        "a settings file is not a JSON object";
    InvalidEntry = "invalid-entry", Error,
        "a hook entry has the wrong shape and is skipped";
    InvalidValue = "invalid-value", Error,
        "a field has the wrong type or value and its hook is skipped";
    UnknownEvent = "unknown-event", Warning,
        "an event key that is not in the catalog (nearest name given); an error when it is near a known event, a misspelling whose hooks never run";
    UnknownKey = "unknown-key", Warning,
        "an unknown top-level key";
    EventOutsideHooks = "event-outside-hooks", Error,
        "an event written at the top level, outside `hooks` (`{\"PreToolUse\": […]}`): its hooks never run";
    UnknownField = "unknown-field", Warning,
        "an unknown hook or group field";
    FilterTypo = "filter-typo", Error,
        "a misspelt `matcher` or `if` (`matchr`, `iff`): ignored, so the hook runs unfiltered";
    EmptyGroup = "empty-group", Warning,
        "a matcher group with no hooks";
    IgnoredField = "ignored-field", Warning,
        "a field that is ignored where it is written";
    SettingsWritableByOthers = "settings-writable-by-others", Warning,
        "a settings file another user can change: group- or world-writable, in a folder others can write, or owned by someone else";
    SettingsMissing = "settings-missing", Error,
        "a settings file named with --settings does not exist";
    Untrusted = "untrusted", Error,
        "a project settings file that is not trusted (or changed since): its hooks and rules do not take effect";
    TrustStore = "trust-store", Warning,
        "the trust store, which records the project files you trusted, cannot be read: every project file counts as untrusted until it is rewritten";
    ManagedOnly = "managed-only", Warning,
        "a key honoured only in managed settings (or, for where prompts go, not in a project file) written elsewhere: it is ignored";
    ProjectEnvKeep = "project-env-keep", Warning,
        "`env.keep` in a project file: a project cannot ask for your secrets, so it is ignored";
    SettingsProblem = "settings", Note,
        "any other problem the loader reports, at the loader's severity (an error when an entry is skipped)";
    HttpHook = "http-hook", Warning,
        "an http hook with an invalid URL, a private-address literal the SSRF guard refuses, or a header variable `allowedEnvVars` does not list";
    OnFailure = "on-failure", Warning,
        "an `onFailure` (Claude Code's name for `onError`) that is neither \"continue\" nor \"block\" (read as block; Claude Code refuses the whole file), that disagrees with `onError`, or that Claude Code ignores where it is (Stop, an async hook…)";
    AsyncRewakeForeground = "async-rewake-foreground", Warning,
        "`asyncRewake` without `async`: the hook runs in the foreground and its exit 2 blocks (as in Claude Code)";
    ClaudeMode = "claude-mode", Note,
        "a key a Claude Code settings file holds for Claude Code itself";
    HooksDisabled = "hooks-disabled", Error,
        "`disableAllHooks: true` turns hooks off";
    HostLoadsFile = "host-loads-file", Warning,
        "hookrun loads a file Claude Code also loads: its hooks run twice";
    NotRun = "not-run", Error,
        "a hook hookrun does not run (type `agent`, `mcp_tool`…, a shell other than sh, bash and powershell)";
    PromptHookEvent = "prompt-hook-event", Error,
        "a prompt hook on an event with no conversation to judge (SessionStart, SessionEnd…): it never runs";
    PromptHook = "prompt-hook", Warning,
        "a prompt hook that fails on every fire (forbidden, endpoint not allowed, no model, no API key) or uses a placeholder hookrun does not replace";
    PromptEndpoint = "prompt-endpoint", Note,
        "where a prompt hook sends the event: endpoint, provider, model and the variable the key comes from";
    MatcherInvalid = "matcher-invalid", Error,
        "a matcher regex that does not compile (the hook runs unfiltered)";
    MatcherLooksLikeRule = "matcher-looks-like-rule", Error,
        "a matcher written as a permission rule (`Bash(git *)`): as a regex it never matches the tool";
    MatcherMayBlowUp = "matcher-may-blow-up", Warning,
        "a look-around or back-reference matcher with a quantifier inside a quantified group";
    MatcherNotPortable = "matcher-not-portable", Note,
        "a matcher using JavaScript-only regex syntax (look-around, back-references)";
    MatcherIgnored = "matcher-ignored", Warning,
        "a matcher on an event without a match field (it filters nothing)";
    MatcherMatchesNothing = "matcher-matches-nothing", Error,
        "a matcher list with no names (`|`): the hook never runs";
    ToolNameCase = "tool-name-case", Error,
        "a tool name no host sends, differing from a known one in case or separators";
    ToolNameHost = "tool-name-host", Error,
        "a host's own name for a tool (`run_shell_command`): hooks see Claude Code's names behind every host, so it never matches";
    ToolNameTypo = "tool-name-typo", Warning,
        "a tool name close to a known one";
    MatcherOvermatch = "matcher-overmatch", Warning,
        "a regex matcher that also matches other known tools as a substring";
    IfInvalid = "if-invalid", Error,
        "an `if` rule that does not parse";
    PermissionRuleInvalid = "permission-rule-invalid", Error,
        "a `permissions` deny or ask rule that does not parse, in any settings file (hookrun's, Claude Code's, managed): the guard it stands for never holds";
    AllowRuleInvalid = "allow-rule-invalid", Warning,
        "a `permissions` allow rule that does not parse: it approves nothing";
    RuleOneSlash = "rule-one-slash", Warning,
        "a path rule with one leading `/` (relative to the project, as in Claude Code) naming a path that is not in the project but exists from the root or under the home folder: it never matches that path";
    IfNeverApplies = "if-never-applies", Error,
        "`if` on an event without tool input: the hook never runs";
    IfMatcherConflict = "if-matcher-conflict", Error,
        "`if` names a tool the matcher never lets through: the hook never runs";
    Exit1DoesNotBlock = "exit-1-does-not-block", Error,
        "`exit 1` in a hook of a blocking event (only exit 2 blocks)";
    BlockNotEnforced = "block-not-enforced", Error,
        "`exit 2` in a hook of an event whose blocks are not enforced";
    Recursion = "recursion", Error,
        "a hook runs `hookrun fire` from a file hookrun loads";
    PowershellMissing = "powershell-missing", Error,
        "a `shell: \"powershell\"` hook where neither pwsh nor powershell is on PATH: it fails on every run";
    CommandMissing = "command-missing", Error,
        "the program a command starts (by path) does not exist or is a directory";
    CommandNotExecutable = "command-not-executable", Error,
        "the program a command starts exists but is not executable";
    CommandNotOnPath = "command-not-on-path", Warning,
        "the program a command starts is not on PATH (here)";
    CommandNotOnHostPath = "command-not-on-host-path", Warning,
        "the program a command starts is on PATH here but not on the PATH a host gave hooks at its last fire (recorded by `hookrun fire --host`)";
    ScriptMissing = "script-missing", Error,
        "an interpreter's script does not exist (`python3 missing.py` exits 2: a block)";
    UnquotedPath = "unquoted-path", Error,
        "a path variable outside quotes whose value holds a space: the shell splits it";
    ScriptToolMissing = "script-tool-missing", Warning,
        "a shell script uses a tool (jq, python3…) that is not on PATH, without checking for it";
    RelativePath = "relative-path", Warning,
        "a program or script named relative to the working directory";
    ExecFormVariable = "exec-form-variable", Warning,
        "`$VAR` in exec form, which substitutes only `${VAR}`";
    TimeoutMilliseconds = "timeout-milliseconds", Warning,
        "a timeout of 1000 or more: seconds written as milliseconds?";
    TimeoutExceedsHost = "timeout-exceeds-host", Warning,
        "a timeout beyond the host's own timeout for the event";
    TimeoutNoGrace = "timeout-no-grace", Warning,
        "a timeout that leaves no room for the kill grace before the deadline (hookrun stops the hook earlier)";
    FileChangedHost = "file-changed-host", Error,
        "a FileChanged hook whose files the host does not watch";
    HostEventNotRouted = "host-event-not-routed", Error,
        "hooks on an event for which a host that runs hookrun has no `hookrun fire` entry: they never fire";
    HostEventName = "host-event-name", Error,
        "hooks under a host's own name for another event (Gemini's `AfterAgent` is `Stop`): they never run under that host";
    HostNotRouted = "host-not-routed", Warning,
        "a host is used here (its config file exists, or its folder in the home folder: `~/.claude`, `~/.claude.json`) but no entry of it runs hookrun: under that host every guard is off (an error for the project's file, and wherever no host routes to hookrun at all, as right after `init`; a warning when only the user's file or folder exists and another host runs hookrun)";
    HostEventMissing = "host-event-missing", Note,
        "hooks on an event a host that runs hookrun does not have";
    HostHookrunNotOnPath = "host-hookrun-not-on-path", Error,
        "a host entry runs `hookrun` by name and it is not on PATH: exit 127 (every guard off, or every call blocked)";
    HostHookrunMissing = "host-hookrun-missing", Error,
        "a host entry runs hookrun by a path that does not exist or is not executable";
    HostHookrunEphemeral = "host-hookrun-ephemeral", Warning,
        "a host entry runs a hookrun inside a package runner's cache (uvx, npx, pnpm dlx, pipx run, bunx): exit 127 once the cache is cleaned";
    HostHookrunLauncher = "host-hookrun-launcher", Warning,
        "a host entry runs npm's Node launcher (hookrun.js), not the native hookrun: Node starts at every event";
    HostHookrunOtherOnPath = "host-hookrun-other-on-path", Note,
        "the `hookrun` on PATH is another binary than the one a host entry runs: what you type may be another version than what the host runs";
    HostMismatch = "host-mismatch", Error,
        "a host entry runs `hookrun fire` without that host's `--host`: the answer is in another protocol";
    HostTimeoutShort = "host-timeout-short", Warning,
        "a host entry's timeout is shorter than hookrun's deadline for the event: the answer can come too late";
    HostTimeoutBelowHook = "host-timeout-below-hook", Warning,
        "a hook's timeout is longer than the host entry (or hookrun's deadline) allows: a slow run is cut, and the call goes ahead";
    HookTimeoutTooShort = "hook-timeout-too-short", Error,
        "a hook timeout under 50 ms (0.0005): no command starts and answers in it, so the hook never takes effect";
    GeminiTimeoutSeconds = "gemini-timeout-seconds", Error,
        "a Gemini CLI timeout under 1000: its unit is milliseconds, so it was probably meant as seconds";
    HostTimeoutMilliseconds = "host-timeout-milliseconds", Error,
        "a Qwen Code timeout of 1000 or more: Qwen reads those as milliseconds, so one meant as seconds cuts the hook at once";
    HostEventForeign = "host-event-foreign", Error,
        "a host entry under another host's event name (`BeforeTool` in .qwen/settings.json): the host drops it unread, so it never runs";
    HostRunsTwice = "host-runs-twice", Warning,
        "a host runs a hook hookrun runs too, or reads another host's file that calls hookrun: it runs twice";
    EnvKeptOut = "env-kept-out", Note,
        "secret-looking variables of this environment that hooks do not get (env.keep lets one through)";
    EnvNeeded = "env-needed", Warning,
        "a hook's command uses a variable hookrun keeps out of the hooks' environment: it sees it unset";
    HostConfigUnreadable = "host-config-unreadable", Note,
        "a host config file that is not JSON (comments are fine): its entries are not checked; a Claude Code file is ignored whole by Claude Code, so one that holds hookrun's entries is an error (every guard it routes is off)";
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl serde::Serialize for Check {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_every_check_says_what_it_finds() {
        for (i, a) in Check::ALL.iter().enumerate() {
            assert!(!a.what().is_empty(), "{a:?}");
            assert!(
                a.id()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{a:?}"
            );
            for b in &Check::ALL[i + 1..] {
                assert_ne!(a.id(), b.id());
            }
        }
    }

    /// The test code of the crate: every `tests.rs`, the `#[cfg(test)]`
    /// part of every other source file (this table and the generated
    /// documentation, which name every check, left out), and the
    /// integration tests.
    fn test_code() -> String {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(path);
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        walk(&root.join("src"), &mut files);
        walk(&root.join("tests"), &mut files);
        let skip = [
            root.join("src/diagnose/check.rs"),
            root.join("src/generate/diagnostics.rs"),
        ];
        let mut code = String::new();
        for file in files.iter().filter(|f| !skip.contains(f)) {
            let text = std::fs::read_to_string(file).unwrap();
            let whole = file.starts_with(root.join("tests")) || file.ends_with("tests.rs");
            match text.find("#[cfg(test)]") {
                _ if whole => code.push_str(&text),
                Some(at) => code.push_str(&text[at..]),
                None => {}
            }
        }
        code
    }

    /// Adding a check means a test that finds it: a unit test naming the
    /// variant, or an integration test naming its id.
    #[test]
    fn every_check_has_a_test_that_finds_it() {
        let code = test_code();
        let untested: Vec<&str> = Check::ALL
            .iter()
            .filter(|check| {
                let variant = format!("Check::{check:?}");
                let quoted = format!("\"{}\"", check.id());
                let bracketed = format!("[{}]", check.id());
                !(code.contains(&format!("{variant},"))
                    || code.contains(&format!("{variant})"))
                    || code.contains(&format!("{variant}\n"))
                    || code.contains(&quoted)
                    || code.contains(&bracketed))
            })
            .map(|check| check.id())
            .collect();
        assert_eq!(untested, [] as [&str; 0], "checks no test finds");
    }

    #[test]
    fn serializes_and_displays_as_its_id() {
        assert_eq!(Check::JsonSyntax.to_string(), "json-syntax");
        assert_eq!(
            serde_json::to_value(Check::HostEventName).unwrap(),
            serde_json::json!("host-event-name")
        );
    }
}
