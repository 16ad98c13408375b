//! The check table of `docs/diagnostics.md`, from [`Check::ALL`]: each
//! check's id, least severity and what it finds come from the checks' own
//! table; the example message and the fix shown for it are here, one arm
//! per check, so a new check without its documentation does not compile.

use std::fmt::Write as _;

use crate::diagnose::Check;

/// The generated sections of `docs/diagnostics.md`.
pub fn sections() -> Vec<(&'static str, String)> {
    vec![("checks", checks_table())]
}

fn checks_table() -> String {
    let mut out =
        String::from("| id | severity | finds | example message | fix |\n|---|---|---|---|---|\n");
    for &check in Check::ALL {
        let (example, fix) = documented(check);
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {example} | {fix} |",
            check.id(),
            check.severity().as_str(),
            cell(check.what())
        );
    }
    out
}

/// Text for a table cell: a `|` would end it.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// An example message of the check and the fix shown for it, as Markdown
/// table cells.
#[expect(
    clippy::too_many_lines,
    reason = "one arm per check: a table, not logic"
)]
fn documented(check: Check) -> (&'static str, &'static str) {
    match check {
        Check::SettingsUnreadable => (
            "`cannot be read (Is a directory …); its hooks are skipped`",
            "make the file readable by the user the host runs as",
        ),
        Check::JsonSyntax => (
            "`is not valid JSON (trailing comma at line 4 column 5); its hooks are skipped`",
            "fix the syntax at the line and column given (JSON has no comments and no trailing commas)",
        ),
        Check::JsonShape => (
            "`must be a JSON object, found an array; its hooks are skipped`",
            "make the file one object",
        ),
        Check::InvalidEntry => (
            "`hooks.Stop: expected a list of hooks, found an object; skipped`",
            "wrap the hooks in a list: `[ {…} ]`",
        ),
        Check::InvalidValue => (
            r#"`hooks.Stop[0].timeout: invalid type: string "10", expected a positive number of seconds; this hook is skipped`"#,
            "write the timeout as a number of seconds",
        ),
        Check::UnknownEvent => (
            "`` `PreToolUsed` is not a known event (did you mean `PreToolUse`?): no host sends it, so its hooks never run `` (an error; a name near no event, which a home-made host may send, is a warning)",
            "rename the key to `PreToolUse`",
        ),
        Check::EventOutsideHooks => (
            "`PreToolUse: is an event, written at the top level: hookrun reads hooks only under `hooks`, so these never run`",
            r#"move it under `hooks`: `{"hooks": {"PreToolUse": […]}}`"#,
        ),
        Check::UnknownKey => (
            "`hoks: unknown key, ignored (did you mean `hooks`?)`",
            "rename it to `hooks`",
        ),
        Check::UnknownField => (
            "`hooks.Stop[0].timout: unknown field, ignored`",
            "rename it to `timeout`",
        ),
        Check::FilterTypo => (
            "``hooks.PreToolUse[0].matchr: unknown field `matchr`, probably a misspelt `matcher`: it is ignored, so this hook runs unfiltered, on every PreToolUse`` (also `iff`, `If`, `matches`…; `fire` warns with the same line)",
            "rename it to `matcher`",
        ),
        Check::EmptyGroup => (
            "`hooks.Stop[0].hooks: is empty: this group runs nothing`",
            "add hooks to the group, or remove it",
        ),
        Check::IgnoredField => (
            "`hooks.PreToolUse[0].hooks[0].matcher: is ignored inside a matcher group`",
            "remove the inner `matcher`",
        ),
        Check::SettingsWritableByOthers => (
            "`is writable by its group and every user (mode 0666): they can change your hooks and rules` (also: in a folder others can write, or owned by another user)",
            "`chmod go-w` the file and its folder, or keep your settings in a file you own",
        ),
        Check::SettingsMissing => (
            "`/home/me/hooks.json: does not exist: no hooks are loaded from it` (a `--settings` path; missing default files are normal)",
            "fix the path given with `--settings` / `--claude-settings`",
        ),
        Check::Untrusted => (
            "`/repo/.hookrun/settings.json: is not trusted: its hooks, permissions and env do not take effect; review it, then run `hookrun trust /repo``",
            "review the file, then run the `hookrun trust …` command shown",
        ),
        Check::TrustStore => (
            "`…/trust.json is not a valid trust store (…)`",
            "run `hookrun trust` in each project you trust to rewrite the store",
        ),
        Check::ManagedOnly => (
            "`maxHookTimeout: is honoured only in managed settings; ignored in user settings`",
            "move the key to the managed settings file",
        ),
        Check::ProjectEnvKeep => (
            "`env.keep: is ignored in project settings: a project cannot ask for your secrets`",
            "list the variable in `env.keep` of your user settings",
        ),
        Check::SettingsProblem => (
            "any other message of the loader, as it writes it",
            "`fix the value at this path; the entry is skipped until then` (for an error; `check the value at this path` otherwise)",
        ),
        Check::HttpHook => (
            "`url: points at 10.0.0.5 (private network 10.0.0.0/8): the SSRF guard refuses it …` / `headers.Authorization: uses $TOKEN, which allowedEnvVars does not list: it is sent empty`",
            r#"a refused address you mean to call: allow it in user or managed settings (`"allowedHookNetworks": ["10.0.0.5"]`); a bad URL: fix it; a header variable: list it in the hook's `allowedEnvVars`"#,
        ),
        Check::OnFailure => (
            r#"`hooks.PreToolUse[0].hooks[0].onFailure: "stop" is not "continue" or "block": read as "block" (the hook's failures block); Claude Code refuses such an entry, and with it every hook and rule of this file`"#,
            r#"write `"onFailure": "block"` (fail closed) or `"continue"`"#,
        ),
        Check::AsyncRewakeForeground => (
            r#"`hooks.PostToolUse[0].asyncRewake: without "async": true, the hook runs in the foreground and its exit 2 blocks the call, as Claude Code runs it`"#,
            r#"add `"async": true` to run it in the background, or remove `asyncRewake`"#,
        ),
        Check::ClaudeMode => (
            "`env: ignored in a Claude Code settings file`",
            "nothing to do: Claude Code applies it itself",
        ),
        Check::HooksDisabled => (
            "`disableAllHooks: is true: it turns off every hook from user, project, local and command-line files`",
            "remove `disableAllHooks`",
        ),
        Check::HostLoadsFile => (
            "`Claude Code loads this file itself, and hookrun loads it too: its 2 hooks run twice`",
            "move the hooks to `.hookrun/settings.json`",
        ),
        Check::NotRun => (
            r#"`type "webhook" is not supported by hookrun: hookrun reports it and skips it on every fire`"#,
            "rewrite it as a command hook, or keep it in the host's settings",
        ),
        Check::PromptHookEvent => (
            "`hooks.SessionStart[0].hooks[0]: prompt hooks are not supported on SessionStart (no conversation to judge) …; this hook never runs`",
            "move the hook to an event with a conversation, or write it as a command hook",
        ),
        Check::PromptHook => (
            "`ANTHROPIC_API_KEY is not set here: the request to https://api.anthropic.com/v1/messages would be refused (401) …` / `prompt endpoint … is not in managed allowedPromptHookEndpoints` / `$ARGUMENTS[0] is not replaced by hookrun`",
            "set the key or `promptHooks`, or write `$ARGUMENTS` (see prompt-hooks.md)",
        ),
        Check::PromptEndpoint => (
            "`sends the event (commands, file contents…) to https://api.anthropic.com/v1/messages (anthropic, model claude-haiku-4-5 from hookrun's default; key from ANTHROPIC_API_KEY)`",
            "nothing to do if that provider may see this project's events",
        ),
        Check::MatcherInvalid => (
            r#"`matcher "[Edit" is not a valid regex (…): the hook runs on every PreToolUse, unfiltered`"#,
            "escape the regex characters, or use the exact list form",
        ),
        Check::MatcherLooksLikeRule => (
            r#"`matcher "Bash(git push *)" is read as a regex, which never matches the tool name `Bash`: this hook never runs`"#,
            r#"`set "matcher": "Bash" and "if": "Bash(git push *)"`"#,
        ),
        Check::MatcherMayBlowUp => (
            r#"`matcher "^(?=a)(a+)+$" needs the backtracking engine … and repeats a group that itself repeats: its time can double with each character …`"#,
            "write the group without a nested quantifier, or drop the look-around",
        ),
        Check::MatcherNotPortable => (
            r#"`matcher "(?<=Notebook)Edit" uses JavaScript-only regex syntax …: an RE2-style engine (Rust, Go) would not` accept it"#,
            "nothing to do for hookrun",
        ),
        Check::MatcherIgnored => (
            r#"`matcher "Bash" is ignored: Stop has no match field, so this hook runs on every Stop`"#,
            "remove `matcher`, or filter inside the command",
        ),
        Check::MatcherMatchesNothing => (
            r#"`matcher "\|" lists no names: it matches nothing, so this hook never runs`"#,
            "write the names to match",
        ),
        Check::ToolNameCase => (
            "``matcher names tool `bash`, which no known host sends; tool names are case-sensitive: `Bash` (Claude Code) is what hosts send`` (also in an `if` rule and a permission rule: ``permissions.deny[0]: `bash(rm *)` names tool `bash` … this deny rule never matches``; `fire` warns about each too)",
            "write `Bash`",
        ),
        Check::ToolNameHost => (
            "``matcher names tool `run_shell_command`, Gemini CLI's name for `Bash`: behind every host hookrun gives tools to your hooks under Claude Code's names, so this never matches``",
            "write `Bash`",
        ),
        Check::ToolNameTypo => (
            "``matcher names tool `Wirte` …; did you mean `Write` (Claude Code)?``",
            "write `Write`",
        ),
        Check::MatcherOvermatch => (
            r#"`matcher "Edit.*" is a regex search, unanchored: besides Edit it also matches MultiEdit, NotebookEdit`"#,
            r#"write the exact list `"Edit"` or anchor it: `"^(Edit)$"`"#,
        ),
        Check::IfInvalid => (
            "``invalid rule `Bash(git push`: missing `)` …: the hook runs unfiltered``",
            "write one rule, `Tool` or `Tool(specifier)`",
        ),
        Check::PermissionRuleInvalid => (
            "``permissions.deny[2]: invalid rule `Bash(`: … : this deny rule is skipped, so what it guards is never stopped`` — in every file hookrun reads: its own, managed, and Claude Code's `.claude/` files (hookrun enforces their deny and ask rules behind hosts other than Claude Code)",
            "write one rule, `Tool` or `Tool(specifier)`, with balanced parentheses; MCP rules are `mcp__server`, `mcp__server__*` or `mcp__server__tool`",
        ),
        Check::AllowRuleInvalid => (
            "``permissions.allow[0]: invalid rule `Read(`: …: it approves nothing``",
            "write the rule so that it parses, or remove it",
        ),
        Check::RuleOneSlash => (
            "``permissions.deny[0]: `Read(/home/me/.ssh/**)`: a pattern with one leading `/` is relative to /home/me/app (as in Claude Code), so it names /home/me/app/home/me/.ssh, which does not exist; /home/me/.ssh does, and the rule never matches it`` (`fire` warns too)",
            "write `Read(//home/me/.ssh/**)` (`//` starts at the file-system root, `~/` at your home folder)",
        ),
        Check::IfNeverApplies => (
            "`` `if` only applies to tool events; SessionStart has no tool input, so this hook never runs ``",
            "remove `if`, or move the hook to a tool event",
        ),
        Check::IfMatcherConflict => (
            r#"`` `if` tests Bash calls, but matcher "Edit\|Write" never lets a Bash call through: this hook never runs ``"#,
            "make the matcher include Bash",
        ),
        Check::Exit1DoesNotBlock => (
            "`` `exit 1` does not block: on PreToolUse it is a failure of the hook, and the action goes ahead ``",
            "use `exit 2` to block (with the reason on stderr)",
        ),
        Check::BlockNotEnforced => (
            "`` `exit 2` does not block on SessionStart (tier downgraded): the block is only reported ``",
            "move the check to an event that can block",
        ),
        Check::Recursion => (
            "``runs `hookrun fire` from a file hookrun loads: every fire starts another fire``",
            "remove it: `hookrun fire` belongs only in the host's settings",
        ),
        Check::PowershellMissing => (
            r#"`shell "powershell", and neither pwsh nor powershell is on PATH here: the hook fails on every run, a failure that blocks nothing`"#,
            r#"install PowerShell (`pwsh`), or remove `"shell": "powershell"` and write the command for sh"#,
        ),
        Check::CommandMissing => (
            "`runs /home/me/app/hooks/gone.sh, which does not exist: the hook exits 127 on every run, a failure that blocks nothing`",
            r#"fix the path (use `"$HOOKRUN_CONFIG_DIR"/…` or `"$CLAUDE_PROJECT_DIR"/…`)"#,
        ),
        Check::CommandNotExecutable => (
            "`runs …/check.sh, which is not executable: the hook exits 126 on every run`",
            "`chmod +x …/check.sh`",
        ),
        Check::CommandNotOnPath => (
            "``runs `ruff`, which is not on PATH here: if the host's PATH lacks it too, the hook exits 127 on every run``",
            "install `ruff`, or write its full path",
        ),
        Check::CommandNotOnHostPath => (
            "``runs `prettier`, which is on PATH here but not on the PATH Claude Code gave hooks at its last fire (/usr/bin:/bin): there the hook exits 127 on every run``",
            "write the program's full path, or start the host with a PATH that has it",
        ),
        Check::ScriptMissing => (
            "``` `python3` runs …/guard.py, which does not exist: `python3` exits 2 when its script is missing, and exit 2 blocks: every PreToolUse is blocked ```",
            "fix the script path",
        ),
        Check::UnquotedPath => (
            "``$HOOKRUN_CONFIG_DIR` is not quoted and its value (/home/me/my hooks) holds a space: the shell splits the path, so the hook exits 127 on every run, a failure that blocks nothing``",
            r#"quote it: `"$HOOKRUN_CONFIG_DIR"/…`"#,
        ),
        Check::ScriptToolMissing => (
            "``runs …/no-push-to-main.sh, which uses `jq` without checking for it, and `jq` is not on PATH here: … a guard that reads the event with it may let everything through``",
            "install `jq`, or make the script fail closed without it",
        ),
        Check::RelativePath => (
            "`runs ./x.sh relative to the working directory, which is the event's cwd: when the agent works in a sub-folder it is not found`",
            r#"anchor it: `"$CLAUDE_PROJECT_DIR"/x.sh`"#,
        ),
        Check::ExecFormVariable => (
            r#"`"$HOOKRUN_CONFIG_DIR": exec form runs no shell and substitutes only ${HOOKRUN_CONFIG_DIR}…`"#,
            "write the variable with braces, or use the shell form",
        ),
        Check::TimeoutMilliseconds => (
            "`timeout 5000 is in seconds (1.4 hours): it looks like milliseconds` (`fire` warns too)",
            "write 5 for 5000 ms",
        ),
        Check::TimeoutExceedsHost => (
            "`timeout 60 s exceeds the 30 s the host allows for UserPromptSubmit: … hookrun cuts the hook at 27 s`",
            "lower it to at most 27 s",
        ),
        Check::TimeoutNoGrace => (
            "`timeout 28 s and the 2 s kill grace after it do not fit in the 29 s hookrun answers UserPromptSubmit within: hookrun sends SIGTERM at 27 s so that a hook ignoring it is killed by the deadline`",
            "lower it to at most 27 s (or lower --kill-grace)",
        ),
        Check::FileChangedHost => (
            "`Claude Code watches only the files named in the matcher of its own FileChanged entry, and none of its settings files has a FileChanged entry running hookrun: this hook never fires`",
            "the host entry to add, with the names",
        ),
        Check::HostEventNotRouted => (
            "`2 hooks on Stop, but no Claude Code entry runs hookrun for Stop (the hookrun entries in …/.claude/settings.json are for other events): Claude Code never calls hookrun for it, so they never fire`",
            "`hookrun install claude-code`, or add a `hookrun fire` entry under the event",
        ),
        Check::HostEventName => (
            "`` `AfterAgent` is Gemini CLI's name for `Stop`: … `hookrun fire --host gemini` fires Gemini CLI's AfterAgent as `Stop`, so hooks under `AfterAgent` never run under it ``",
            "rename the key to `Stop`",
        ),
        Check::HostNotRouted => (
            "`/home/me/.claude.json exists, but no entry in Claude Code's files runs hookrun: under Claude Code every hookrun guard is off (1 hook and 13 permission rules on PreToolUse) (and no host's entries run hookrun, so nothing calls it at all)`",
            "`hookrun install claude-code --user` (your own file: every project), or `hookrun install claude-code` in the project",
        ),
        Check::HostEventMissing => (
            "`Gemini CLI has no SubagentStop event, so it never calls hookrun for it (1 hook there)`",
            "nothing to do if they are meant for another host",
        ),
        Check::HostHookrunNotOnPath => (
            "``runs `hookrun`, which is not on PATH here (and Claude Code runs hooks with its own PATH): the shell exits 127, and Claude Code reads exit 127 as a non-blocking error: every guard is off``",
            "write hookrun's absolute path (`hookrun install HOST` does)",
        ),
        Check::HostHookrunMissing => (
            "`runs /opt/gone/hookrun, which does not exist: the shell exits 127, and …`",
            r#"fix the path, or `hookrun install HOST`; for the project-pinned `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hookrun-native`: `npm install`"#,
        ),
        Check::HostHookrunEphemeral => (
            "``runs ~/.cache/uv/archive-v0/…/bin/hookrun, which is in uv's cache, where uvx keeps the tools it runs (~/.cache/uv): when `uv cache clean` or `uv cache prune` deletes it, the shell exits 127, and …`` (also npx, pnpm dlx, pipx run, bunx)",
            "install hookrun durably (`uv tool install hookrun`, `npm i -g hookrun`…) and run `hookrun install HOST` with it",
        ),
        Check::HostHookrunLauncher => (
            "`/usr/local/bin/hookrun is npm's Node launcher for hookrun, not hookrun itself: an entry running it starts Node before hookrun at every event …`",
            "`hookrun install HOST` (it writes the native path)",
        ),
        Check::HostHookrunOtherOnPath => (
            "`this Claude Code entry runs /home/me/.cargo/bin/hookrun, but the `hookrun` on your PATH is /usr/local/bin/hookrun: the hookrun you type (doctor, install, trust) may be another version than the one Claude Code runs`",
            "nothing to do if that is meant; else remove the other hookrun, or run `hookrun install HOST` with the one you use",
        ),
        Check::HostMismatch => (
            "`this Gemini CLI entry runs hookrun with no --host (Claude Code's protocol): … which Gemini CLI misreads (a block may not block)`",
            "write `hookrun fire --host gemini`",
        ),
        Check::HostTimeoutShort => (
            "`Claude Code gives this entry 10 s, but hookrun answers PreToolUse within 599 s (the host's default): a slow hook's answer arrives after Claude Code stopped waiting`",
            "add `--deadline 9s` to the command, or remove the entry's timeout",
        ),
        Check::HostTimeoutBelowHook => (
            "`the Stop hook at …/.hookrun/settings.json hooks.Stop[0].timeout may run 300 s, but this entry gives it 59 s (Gemini CLI waits 60 s, hookrun answers within 59 s): a slower run is stopped, and the call it guards goes ahead`",
            "run `hookrun install HOST` again, or shorten the hook's timeout",
        ),
        Check::HookTimeoutTooShort => (
            "`timeout 0.0005 s is too short for any command to start and answer (the unit is seconds): the hook is stopped every time, so it never takes effect`",
            "write the timeout in seconds",
        ),
        Check::GeminiTimeoutSeconds => (
            "`timeout 5 is 5 milliseconds to Gemini CLI (its unit is ms, not seconds): the hook is killed before it can answer, and the call it guards goes ahead`",
            "write 5000 for 5 s",
        ),
        Check::HostTimeoutMilliseconds => (
            "`timeout 1500 is 1500 milliseconds to Qwen Code (it reads values above 999 as milliseconds, not seconds): meant as seconds, the hook is killed after 1.5 s, and the call it guards goes ahead`",
            "write at most 999 (seconds), or 1.5 for 1500 ms",
        ),
        Check::HostEventForeign => (
            "`` `BeforeTool` is Gemini CLI's name for `PreToolUse`; Qwen Code has no `BeforeTool` event and drops the entry without a word: it never runs ``",
            "move it under `PreToolUse` (`hookrun install qwen` writes Qwen Code's own names)",
        ),
        Check::HostRunsTwice => (
            "``Claude Code runs `./guard.sh` itself, and hookrun's settings run the same command: it runs twice`` / `Copilot CLI also reads Claude Code's …/.claude/settings.json, which runs hookrun too: …`",
            "keep it (or hookrun's entries) in one place",
        ),
        Check::EnvKeptOut => (
            "`hooks do not get these variables of this environment: GEMINI_API_KEY, GITHUB_TOKEN` (where: hookrun's environment)",
            "if a hook needs one, list it in `env.keep` of your user settings",
        ),
        Check::EnvNeeded => (
            "`uses GITHUB_TOKEN, which hookrun keeps out of the hooks' environment (the name looks like a secret): the hook sees it unset`",
            "list it in `env.keep` of your user settings",
        ),
        Check::HostConfigUnreadable => (
            "`Gemini CLI's file is not JSON (…): hookrun cannot check how it calls hookrun` / (an error) `…/.claude/settings.json: is not valid JSON (trailing comma at line 3 column 1): Claude Code ignores the whole file, so none of its hooks run, hookrun's entries included`",
            "fix the syntax at the line and column given; else check the entries by hand",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_has_one_row() {
        let table = checks_table();
        for check in Check::ALL {
            let row = format!("| `{}` | {} | ", check.id(), check.severity().as_str());
            assert_eq!(table.matches(&row).count(), 1, "{row}");
        }
        assert_eq!(table.lines().count(), Check::ALL.len() + 2);
    }
}
