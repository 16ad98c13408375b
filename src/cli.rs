//! The command line (clap derive). Doc comments are the help text.

// Doc comments here are user-facing help, not rustdoc: no Markdown.
#![expect(
    clippy::doc_markdown,
    reason = "doc comments here are user-facing help, not rustdoc"
)]

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::host::HostId;
use crate::settings::SourceOptions;

mod fast;

/// A hook runner for AI coding agents.
///
/// hookrun is the one command an agent host (Claude Code, Gemini CLI, Codex,
/// Copilot CLI, Cline, Qwen Code, Cursor, a home-made loop, a CI script) runs
/// per lifecycle event. It reads the event JSON on stdin, picks the hooks that apply from your settings files, runs
/// them with real timeouts, and answers in the hook protocol the host already
/// speaks: an exit code, one JSON object on stdout, the block reason on
/// stderr. Nothing fails silently: a broken setting, a hook that crashed or
/// timed out, a filter that could not be evaluated all show up as a warning.
#[derive(Debug, Parser)]
#[command(
    name = "hookrun",
    version,
    propagate_version = true,
    max_term_width = 100,
    after_help = "Examples:\n  \
        hookrun init                           # a starter policy: no pushes to main\n  \
        hookrun install claude-code --user     # route Claude Code's events to hookrun\n  \
        hookrun doctor                         # check every settings file and host entry\n  \
        hookrun explain < event.json           # why a hook did or did not run\n  \
        hookrun status                         # where hookrun is wired in\n  \
        hookrun uninstall --all                # undo every install (before removing hookrun)\n\n\
        Settings: ~/.config/hookrun/settings.json, <project>/.hookrun/settings.json,\n\
        <project>/.hookrun/settings.local.json, --settings files, managed settings.\n\
        Reference: man hookrun, man hookrun-COMMAND (npm, pip and the release archive\n\
        install them); docs/ in the hookrun repository."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

/// The options every subcommand takes.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace;
    /// `RUST_LOG` works too): the project and settings files it found, each
    /// settings problem, each hook it starts. Commands that load no settings
    /// (`completions`, `init`) have nothing to log. Under `fire`, stderr
    /// otherwise carries only the block reason.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
}

impl Cli {
    /// Parses a command line (`args[0]` is the program).
    ///
    /// `hookrun fire …` is what a host runs on every event, so the plain
    /// command lines hosts write, and the `HOOKRUN_*` variables, are read
    /// without clap (see `cli::fast`): building the whole command tree
    /// (every subcommand, its help) costs about as much again as the rest
    /// of a fire that matches no hook. Anything that reader does not
    /// accept — help, `--version`, a mistyped flag, a bad `HOOKRUN_*` value
    /// — is parsed by clap, so every message is exactly the full parser's.
    pub fn parse_args(args: &[std::ffi::OsString]) -> Result<Cli, clap::Error> {
        if let Some(cli) = fast::parse_fire(args) {
            return Ok(cli);
        }
        Cli::parse_with_clap(args)
    }

    /// [`Cli::try_parse_from`], and where values came from (clap's value
    /// source) for the code that asks.
    pub(crate) fn parse_with_clap(args: &[std::ffi::OsString]) -> Result<Cli, clap::Error> {
        use clap::{CommandFactory as _, FromArgMatches as _};
        let mut command = Cli::command();
        let mut matches = command.try_get_matches_from_mut(args)?;
        let host_given = matches
            .subcommand_matches("fire")
            .and_then(|fire| fire.value_source("host"))
            == Some(clap::parser::ValueSource::CommandLine);
        let mut cli =
            Cli::from_arg_matches_mut(&mut matches).map_err(|err| err.format(&mut command))?;
        if let Command::Fire(fire) = &mut cli.command {
            fire.host_given = host_given;
        }
        Ok(cli)
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write a starter settings file and print the host entry to add.
    ///
    /// Writes $XDG_CONFIG_HOME/hookrun/settings.json (default
    /// ~/.config/hookrun/settings.json), or with --project the project's
    /// .hookrun/settings.json, holding a starter policy against pushes to
    /// main: permission rules that deny pushes naming main (or every
    /// branch), and one hook, hooks/no-plain-push-to-main.sh next to the
    /// file, for a push that names no branch from main. An existing file is
    /// never overwritten. Then says how to route Claude Code's events to
    /// hookrun (`hookrun install claude-code`) and prints the entry to add by
    /// hand, naming this binary by its absolute path: the host runs hooks
    /// with its own PATH, which may not include the folder hookrun is in.
    ///
    /// Examples:
    ///   hookrun init
    ///   hookrun init --project
    #[command(verbatim_doc_comment)]
    Init(InitArgs),

    /// Route a host's events to hookrun: write the host's own hook config.
    ///
    /// Adds one entry per event your hookrun settings have hooks for, each
    /// running `<absolute path to hookrun> fire --host HOST` with the host's
    /// own default timeout in its unit (longer, with a --deadline, where a
    /// hook's timeout needs it). The file is edited in place: its formatting
    /// and every other entry stay, your own hookrun entries too (named in
    /// the output); install's earlier entries are updated (running it twice
    /// changes nothing). The old file is saved as FILE.hookrun-backup (then
    /// .1, .2…, never overwritten). Run from a subfolder of a git
    /// repository, it writes at the repository's root. Says what the host
    /// needs besides (Codex: trusting the hooks). What it wrote is recorded
    /// (the state folder's installs.json), for `hookrun status` and
    /// `hookrun uninstall --all`.
    ///
    /// Files: claude-code .claude/settings.json (.claude/settings.local.json
    /// with --local), gemini .gemini/settings.json, codex .codex/hooks.json
    /// ($CODEX_HOME/hooks.json with --user), cursor .cursor/hooks.json,
    /// copilot .github/hooks/hookrun.json (~/.copilot/hooks/hookrun.json
    /// with --user), qwen .qwen/settings.json; cline writes one hook file per
    /// event in
    /// .clinerules/hooks/ (~/.cline/hooks/ with --user), marked as hookrun's,
    /// and never replaces one that is not.
    ///
    /// Refuses a hookrun that runs from a package runner's cache (uvx, npx,
    /// pnpm dlx, pipx run, bunx): the entry would stop working when the cache
    /// is cleaned. With hookrun as the project's npm devDependency, --pinned
    /// (the default when this hookrun is the project's own node_modules one)
    /// writes "$CLAUDE_PROJECT_DIR"/node_modules/.bin/hookrun-native, which
    /// works on every teammate's machine after `npm install`.
    ///
    /// Examples:
    ///   hookrun install gemini --dry-run
    ///   hookrun install codex --user
    ///   npx hookrun install claude-code --pinned    # after npm i -D hookrun
    ///   hookrun install claude --local
    #[command(verbatim_doc_comment)]
    Install(InstallArgs),

    /// Check every settings source for mistakes that make hooks fail silently.
    ///
    /// Reads the same files `fire` would load and reports, with the file, the
    /// JSON path and a one-line fix: JSON and shape errors, unknown events,
    /// keys and fields, matchers that do not compile or match more (or other)
    /// tools than meant, `if` rules that can never match, `exit 1` where only
    /// `exit 2` blocks, commands and scripts that do not exist, timeouts in
    /// milliseconds or beyond the host's own, files the host also loads, and
    /// hook types hookrun does not run.
    ///
    /// Exit 1 when an error was found, 0 otherwise (warnings and notes do not
    /// fail).
    ///
    /// Examples:
    ///   hookrun doctor
    ///   hookrun doctor --no-default-settings --settings hooks.json --format json
    #[command(verbatim_doc_comment)]
    Doctor(DoctorArgs),

    /// Where hookrun is wired in: each host's entries and the hookrun they run.
    ///
    /// For every host, the config files that exist here (your home folder's
    /// and the current project's) and the hookrun entries in them: the
    /// events, the binary each names, whether it exists and whether it is
    /// this hookrun; then the installs hookrun recorded (what `hookrun
    /// uninstall --all` removes) and the `hookrun` on PATH. Changes
    /// nothing.
    ///
    /// Examples:
    ///   hookrun status
    ///   hookrun status --format json
    #[command(verbatim_doc_comment)]
    Status(StatusArgs),

    /// Run the hooks of one event and answer in the hook protocol.
    ///
    /// Reads the event JSON on stdin. The event name comes from the argument,
    /// or from the input's `hook_event_name` when omitted, so one host entry
    /// serves every event: `hookrun install HOST` writes it, naming this
    /// binary by its absolute path (a host runs hooks with its own PATH) and
    /// the host's protocol (`--host`). Names are lenient:
    /// pre_tool_use = PreToolUse = pre-tool-use.
    ///
    /// Exit 0: no block (the decision, if any, is in the JSON on stdout).
    /// Exit 2: a block stands; stderr holds exactly the reason.
    /// Exit 1: the input is unusable (not a JSON object, no event name).
    ///
    /// Examples:
    ///   /usr/local/bin/hookrun fire --host claude-code    # a host entry (`hookrun install` writes it)
    ///   echo '{"hook_event_name":"Stop"}' | hookrun fire    # by hand: the event on stdin
    ///   hookrun fire pre_tool_use --settings hooks.json --format report < event.json
    #[command(verbatim_doc_comment)]
    Fire(FireArgs),

    /// Show, hook by hook, why each one would or would not run for an event.
    ///
    /// Runs nothing. Reads the event JSON on stdin (as `fire` does) and shows,
    /// in load order, where the matcher funnel stops each hook (trust,
    /// policy, event, matcher, `if`, dedup) with the values compared, or that
    /// it would run, with its command after expansion and its timeout. The
    /// answer to "why didn't my hook fire?".
    ///
    /// With an EVENT and nothing on stdin (a terminal or empty input), an
    /// empty event is used.
    ///
    /// Examples:
    ///   hookrun explain < event.json
    ///   hookrun explain pre-tool-use --format json < event.json
    ///   hookrun explain stop
    #[command(verbatim_doc_comment)]
    Explain(ExplainArgs),

    /// List every hook hookrun would consider, with its source and state.
    ///
    /// One row per hook, in load order: event, matcher, `if`, type, timeout,
    /// state (enabled, disabled by policy, not run: unsupported type…) and
    /// name, grouped by the settings file that declares it.
    ///
    /// Examples:
    ///   hookrun list
    ///   hookrun list pre-tool-use --format json
    #[command(verbatim_doc_comment)]
    List(ListArgs),

    /// Run hook-policy test cases through the real fire path.
    ///
    /// Each case gives an event, its input, optionally the settings to load,
    /// and what to expect (decision, exit code, reason, updated input,
    /// additional context). Hooks really run. Prints each failure with
    /// expected versus actual, then `N passed, N failed`.
    ///
    /// PATH is a case file or a folder of `*.json` case files (default:
    /// `<project>/.hookrun/tests/`). Exit 1 when a case failed or no case was
    /// found. The case format is in docs/diagnostics.md.
    ///
    /// Examples:
    ///   hookrun test
    ///   hookrun test fixtures/cases/ policy/push.json
    #[command(verbatim_doc_comment)]
    Test(TestArgs),

    /// Replay recorded sessions against your hook policy: what would change?
    ///
    /// Rebuilds the events a host fired from Claude Code session transcripts
    /// (the JSONL files under ~/.claude/projects; a folder means every
    /// session in it, subagents included) or from a hookrun audit log that
    /// recorded each fire's input (HOOKRUN_LOG_INPUT=1), and evaluates each
    /// one: trust, policy, matcher, `if`, dedup and the permission rules.
    /// Dry by default: no hook runs, and the decision is what the rules alone
    /// say. --run runs the hooks too, each in a throwaway working folder.
    ///
    /// Prints a summary (sessions, events, decisions, changes, the top
    /// blocked commands) and the changed events: calls the recording ran
    /// that the policy would deny or ask about, or with --against, events
    /// whose decision or hooks differ between the two policies. Records that
    /// cannot be read are counted and named.
    ///
    /// Exit 0, also when something changed; with --fail-on-change, exit 3
    /// when something changed. Exit 1 when a SOURCE cannot be used.
    ///
    /// Examples:
    ///   hookrun replay ~/.claude/projects/-home-me-src-app/
    ///   hookrun replay --settings ~/policies/new.json --against ~/policies/old.json sessions/
    ///   hookrun replay --format json --fail-on-change sessions/ | jq .changes.count
    #[command(verbatim_doc_comment)]
    Replay(ReplayArgs),

    /// Summarise an audit log: per event and hook, fires, blocks, failures,
    /// timeouts, leaks and p50/p95/max durations; PreToolUse calls that never
    /// got a PostToolUse; configured hooks that never ran.
    ///
    /// The log is written by `hookrun fire --log PATH` (or $HOOKRUN_LOG, or
    /// the `log` settings key). Streams the file: fast on large logs.
    ///
    /// Examples:
    ///   hookrun stats --log ~/.local/state/hookrun/audit.jsonl
    ///   hookrun stats --format json | jq '.hooks'
    #[command(verbatim_doc_comment)]
    Stats(StatsArgs),

    /// Trust a project's settings files, so their hooks take effect.
    ///
    /// Project settings (.hookrun/settings.json, .hookrun/settings.local.json,
    /// and --settings files inside the project or given as relative paths)
    /// come with a repository you may have just cloned: nothing in them runs
    /// until you trust their exact content. hookrun records each file's
    /// SHA-256 in $XDG_CONFIG_HOME/hookrun/trust.json; after an edit the file
    /// is untrusted again until you re-run this. The project's .mcp.json (the
    /// MCP servers that mcp_tool hooks start) is trusted the same way.
    ///
    /// Examples:
    ///   hookrun trust                 # the current project
    ///   hookrun trust ~/src/repo      # another project
    ///   hookrun trust ci/hooks.json   # one settings file
    #[command(verbatim_doc_comment)]
    Trust(TrustArgs),

    /// Forget the trust of a project's settings files (see `hookrun trust`).
    ///
    /// Their hooks, permissions and env stop taking effect until the files are
    /// trusted again.
    ///
    /// Examples:
    ///   hookrun untrust                 # the current project
    ///   hookrun untrust ~/src/repo      # another project
    #[command(verbatim_doc_comment)]
    Untrust(TrustArgs),

    /// Remove hookrun's entries from a host's hook config (see `install`).
    ///
    /// Removes only the entries install wrote; every other byte stays (your
    /// own hookrun entries too). A missing file stays missing; a file
    /// install created goes once nothing else is in it, and so do the
    /// folders install created for it and the backups install saved of it
    /// that hold nothing the file does not. Uninstall saves no backup of
    /// its own: it takes out exactly what install put in.
    ///
    /// --all removes every install: each host file install recorded (in
    /// hookrun's state folder, installs.json: every host, every scope, every
    /// project), every host's file in your home folder and the current
    /// project's. Run it before removing the package: an entry naming a
    /// hookrun that is gone makes the host fail every call.
    ///
    /// Examples:
    ///   hookrun uninstall --all --dry-run
    ///   hookrun uninstall --all
    ///   hookrun uninstall gemini
    ///   hookrun uninstall cursor --user --dry-run
    #[command(verbatim_doc_comment)]
    Uninstall(UninstallArgs),

    /// Print the shell completion script for SHELL.
    ///
    /// The same scripts are committed in the repository's completions/ folder.
    /// Install the one for your shell where it looks for completions, or load
    /// it from your shell's startup file.
    ///
    /// Examples:
    ///   hookrun completions bash > ~/.local/share/bash-completion/completions/hookrun
    ///   hookrun completions zsh > ~/.zfunc/_hookrun    # with fpath+=(~/.zfunc) before compinit
    ///   hookrun completions fish > ~/.config/fish/completions/hookrun.fish
    ///   hookrun completions powershell | Out-String | Invoke-Expression    # in $PROFILE
    ///   eval (hookrun completions elvish | slurp)    # in ~/.config/elvish/rc.elv
    #[command(verbatim_doc_comment)]
    Completions(CompletionsArgs),

    /// Runs one detached `async` hook (internal).
    #[command(name = "__async-run", hide = true)]
    AsyncRun {
        /// The job file written by `fire`.
        job: PathBuf,
    },
}

#[derive(Debug, Clone, Args)]
pub struct InstallArgs {
    /// The host whose config to write.
    #[arg(value_name = "HOST", value_enum)]
    pub host: HostId,

    /// The project's file (the default).
    #[arg(long, conflicts_with = "user")]
    pub project: bool,

    /// Your own file, in the home folder (every project).
    #[arg(long)]
    pub user: bool,

    /// Claude Code only: the project's local file,
    /// .claude/settings.local.json (yours, not committed), instead of the
    /// shared .claude/settings.json.
    #[arg(long, conflicts_with_all = ["user", "project"])]
    pub local: bool,

    /// Print the change as a diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// The hookrun the entries run (default: this binary, by absolute path).
    #[arg(long, value_name = "PATH")]
    pub binary: Option<PathBuf>,

    /// Install only: run the project's npm devDependency
    /// ("$CLAUDE_PROJECT_DIR"/node_modules/.bin/hookrun-native), not this
    /// machine's path, so a committed file works for every teammate.
    #[arg(long, conflicts_with_all = ["user", "binary"])]
    pub pinned: bool,

    /// Which hookrun settings to read for the events to route.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Clone, Args)]
pub struct UninstallArgs {
    /// The host whose entries to remove (no default: name one, or give
    /// --all).
    #[arg(value_name = "HOST", value_enum, required_unless_present = "all")]
    pub host: Option<HostId>,

    /// Every install: the files install recorded (every host, scope and
    /// project), every host's file in your home folder, and the current
    /// project's.
    #[arg(long, conflicts_with_all = ["host", "project", "user", "local"])]
    pub all: bool,

    /// The project's file (the default).
    #[arg(long, conflicts_with = "user")]
    pub project: bool,

    /// Your own file, in the home folder (every project).
    #[arg(long)]
    pub user: bool,

    /// Claude Code only: the project's local file,
    /// .claude/settings.local.json.
    #[arg(long, conflicts_with_all = ["user", "project"])]
    pub local: bool,

    /// Print what would change and write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Go ahead although this looks like an AI agent's shell (a host's
    /// marker such as CLAUDECODE is set, and there is no terminal), where
    /// uninstall otherwise refuses.
    #[arg(long)]
    pub yes: bool,

    /// Where the project is (install's entries are found there).
    #[command(flatten)]
    pub settings: SettingsArgs,
}

impl UninstallArgs {
    /// The same, as `install`'s arguments for one host (`None` with --all).
    pub fn for_host(&self) -> Option<InstallArgs> {
        Some(InstallArgs {
            host: self.host?,
            project: self.project,
            user: self.user,
            local: self.local,
            dry_run: self.dry_run,
            binary: None,
            pinned: false,
            settings: self.settings.clone(),
        })
    }
}

#[derive(Debug, Clone, Args)]
pub struct StatusArgs {
    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,

    /// Where the project is.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_name = "SHELL", value_enum)]
    pub shell: clap_complete::Shell,
}

/// Output format of the diagnostic commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// For people.
    Text,
    /// One JSON document, for scripts and CI.
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// The audit log (default: $HOOKRUN_LOG, else the `log` settings key).
    #[arg(long, value_name = "PATH", env = "HOOKRUN_LOG")]
    pub log: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,

    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Clone, Args)]
pub struct InitArgs {
    /// Write the project's .hookrun/settings.json instead of your user
    /// settings (it takes effect once you run `hookrun trust`).
    #[arg(long)]
    pub project: bool,

    /// The project root for --project (default: the nearest folder above
    /// the current one that has a .hookrun folder, else the top of the git
    /// repository you are in, else the current folder).
    #[arg(long, value_name = "DIR", env = "HOOKRUN_PROJECT_DIR")]
    pub project_dir: Option<PathBuf>,
}

#[derive(Debug, Clone, Args)]
pub struct TrustArgs {
    /// Project folders or settings files (default: the current project).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Go ahead although this looks like an AI agent's shell (a host's
    /// marker such as CLAUDECODE is set, and there is no terminal), where
    /// `untrust` and trusting content not trusted yet otherwise refuse.
    #[arg(long)]
    pub yes: bool,
}

#[derive(Debug, Clone, Args)]
pub struct DoctorArgs {
    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,

    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ExplainArgs {
    /// The event (default: the input's `hook_event_name`).
    #[arg(value_name = "EVENT")]
    pub event: Option<String>,

    /// The agent whose event this is (as `fire --host`): its event, tool and
    /// field names are translated first, as `fire` would.
    #[arg(long, value_enum, value_name = "HOST", env = "HOOKRUN_HOST", default_value_t = HostId::ClaudeCode)]
    pub host: HostId,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,

    /// The deadline to plan the hooks' timeouts against, as `fire
    /// --deadline` (default: the host's timeout for the event minus 1 s;
    /// 1.2 s for SessionEnd).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, env = DEADLINE_ENV)]
    pub deadline: Option<Duration>,

    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ListArgs {
    /// Only the hooks of this event (lenient name: `pre_tool_use` = `PreToolUse`;
    /// default: every event).
    #[arg(value_name = "EVENT")]
    pub event: Option<String>,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,

    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Clone, Args)]
pub struct TestArgs {
    /// Case files, or folders of `*.json` case files (default:
    /// `<project>/.hookrun/tests/`).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,

    /// The agent whose events the cases' inputs are (as `fire --host`), for
    /// cases that name no `host` of their own: their event, tool and field
    /// names are translated and the answer encoded as that host gets it.
    #[arg(long, value_enum, value_name = "HOST", env = "HOOKRUN_HOST", default_value_t = HostId::ClaudeCode)]
    pub host: HostId,

    /// The sources of cases that name no `settings` of their own.
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Clone, Args)]
pub struct ReplayArgs {
    /// Claude Code transcripts (*.jsonl), folders of them (searched
    /// recursively) or hookrun audit logs (default: ~/.claude/projects).
    #[arg(value_name = "SOURCE")]
    pub sources: Vec<PathBuf>,

    /// Compare with this policy: these settings files take the place of the
    /// --settings files, the other sources stay the same (repeatable, in
    /// order).
    #[arg(long, value_name = "OLD_SETTINGS")]
    pub against: Vec<PathBuf>,

    /// Run the hooks too (not only the funnel and the rules): each replayed
    /// event really fires, in a throwaway working folder. Only for hooks that
    /// are safe to run again.
    #[arg(long)]
    pub run: bool,

    /// Exit 3 when any event changed (for CI gating a policy change).
    #[arg(long)]
    pub fail_on_change: bool,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,

    /// What the text output lists after the summary: the first N changed
    /// events, or `all`: every replayed event with its decision and the
    /// hooks that would run. (JSON lists every event and every change.)
    #[arg(long, value_name = "N|all", default_value = "50", value_parser = parse_show)]
    pub show: Show,

    #[command(flatten)]
    pub settings: SettingsArgs,
}

/// `replay --show`: how much of the replay the text lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// The first N changed events.
    Changes(usize),
    /// Every replayed event.
    All,
}

/// A `--show` value that is neither a number nor `all`.
#[derive(Debug, thiserror::Error)]
#[error("expected a number of changed events or `all`, found {0:?}")]
pub struct BadShow(String);

fn parse_show(text: &str) -> Result<Show, BadShow> {
    if text.eq_ignore_ascii_case("all") {
        return Ok(Show::All);
    }
    text.parse()
        .map(Show::Changes)
        .map_err(|_| BadShow(text.to_owned()))
}

/// Which settings files to load (SPEC §3.1).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Settings")]
pub struct SettingsArgs {
    /// Load this settings file after the user, project and local files
    /// (repeatable, in order). A file inside a `.claude/` folder is read as
    /// a Claude Code settings file.
    #[arg(long = "settings", value_name = "PATH")]
    pub settings: Vec<PathBuf>,

    /// Load a Claude Code settings file: only its `hooks` and
    /// `disableAllHooks` are used (repeatable).
    #[arg(long = "claude-settings", value_name = "PATH")]
    pub claude_settings: Vec<PathBuf>,

    /// Skip the user, project and local settings files; load only the
    /// `--settings` files and managed settings.
    #[arg(long)]
    pub no_default_settings: bool,

    /// The project root (default: `$CLAUDE_PROJECT_DIR`, else the host's
    /// workspace root, else the outermost ancestor of the event's `cwd` with
    /// a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add
    /// layers).
    #[arg(long, value_name = "DIR", env = "HOOKRUN_PROJECT_DIR")]
    pub project_dir: Option<PathBuf>,

    /// Trust the project's settings files for this run without recording
    /// them (CI, containers). Otherwise project files take effect only after
    /// `hookrun trust`.
    #[arg(long, env = "HOOKRUN_TRUST_PROJECT", value_parser = clap::builder::FalseyValueParser::new())]
    pub trust_project: bool,
}

impl SettingsArgs {
    pub fn source_options(&self) -> SourceOptions {
        SourceOptions {
            settings: self.settings.clone(),
            claude_settings: self.claude_settings.clone(),
            no_default_settings: self.no_default_settings,
            trust_project: self.trust_project,
        }
    }
}

/// What `fire` prints on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FireFormat {
    /// The hook protocol: one JSON object (what hosts read).
    Protocol,
    /// A full JSON report: every hook, where the funnel stopped it, how it
    /// ended, its output, every warning. For debugging by hand.
    Report,
}

#[derive(Debug, Clone, Args)]
pub struct FireArgs {
    /// The event (default: the input's `hook_event_name`).
    #[arg(value_name = "EVENT")]
    pub event: Option<String>,

    /// The agent that runs hookrun: how its event is read and the answer
    /// written.
    #[arg(long, value_enum, value_name = "HOST", env = "HOOKRUN_HOST", default_value_t = HostId::ClaudeCode)]
    pub host: HostId,

    /// `--host` is on the command line (not only `$HOOKRUN_HOST`): clap's
    /// value source, or the fast reader's.
    #[arg(skip)]
    pub host_given: bool,

    /// What to print on stdout: the hook protocol answer the host reads, or
    /// a full report for debugging by hand.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FireFormat::Protocol)]
    pub format: FireFormat,

    /// Turn problems into blocks: unusable input, and settings that could not
    /// be loaded, block instead of warning (on events that can block).
    #[arg(long, env = "HOOKRUN_FAIL_CLOSED", value_parser = clap::builder::FalseyValueParser::new())]
    pub fail_closed: bool,

    /// Nobody can answer a permission prompt (CI, headless agents): a final
    /// "ask" becomes a deny with the reason "approval required, but nobody
    /// can be asked".
    #[arg(long, env = "HOOKRUN_NON_INTERACTIVE", value_parser = clap::builder::FalseyValueParser::new())]
    pub non_interactive: bool,

    /// Append one JSON line per fire to this audit log (default: the `log`
    /// settings key; no log when neither is set). See `hookrun stats`. With
    /// HOOKRUN_LOG_INPUT=1 each line also records the event's input, for
    /// `hookrun replay` (off by default: inputs may hold secrets).
    #[arg(long, value_name = "PATH", env = "HOOKRUN_LOG")]
    pub log: Option<PathBuf>,

    /// After this many consecutive blocked Stop/SubagentStop fires in one
    /// session, the next block is downgraded to a warning (ends "tests fail
    /// → continue → tests fail" loops). Default: 8; behind a host that caps
    /// Stop blocks itself (Claude Code: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP,
    /// default 8), one more than the host's cap, so the host's own cap acts
    /// first. The count restarts when the host says a stop is not the
    /// continuation of a blocked one (`stop_hook_active: false`).
    #[arg(long, value_name = "N", env = "HOOKRUN_STOP_BLOCK_CAP")]
    pub stop_block_cap: Option<u32>,

    #[command(flatten)]
    pub settings: SettingsArgs,

    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The defaults of the limits, written once: clap's help and the fast
/// reader of host command lines (`cli::fast`) both use them.
pub(crate) const KILL_GRACE_DEFAULT: &str = "2s";
pub(crate) const LEAK_TIMEOUT_DEFAULT: &str = "100ms";
pub(crate) const OUTPUT_CAP_DEFAULT: &str = "1MiB";
/// The variable a deadline is read from when `--deadline` is not given
/// (`fire`, and `explain`, which plans as `fire` would).
pub(crate) const DEADLINE_ENV: &str = "HOOKRUN_DEADLINE";

/// Timeouts and limits of hook processes.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// After a hook's timeout, SIGTERM its process group, then SIGKILL it
    /// after this grace if anything is still alive (e.g. 2s, 500ms). Near
    /// the deadline the SIGTERM comes early enough for the whole sequence to
    /// end by it.
    #[arg(long, value_name = "DURATION", default_value = KILL_GRACE_DEFAULT, value_parser = parse_duration, env = "HOOKRUN_KILL_GRACE")]
    pub kill_grace: Duration,

    /// After a hook exits, read its remaining output for at most this long;
    /// background processes still holding its pipes then are reported, not
    /// waited for.
    #[arg(long, value_name = "DURATION", default_value = LEAK_TIMEOUT_DEFAULT, value_parser = parse_duration, env = "HOOKRUN_LEAK_TIMEOUT")]
    pub leak_timeout: Duration,

    /// Answer within this time (default: the host's timeout for the event
    /// minus 1 s; 1.2 s for SessionEnd). Hooks still running then are
    /// stopped and reported.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, env = DEADLINE_ENV)]
    pub deadline: Option<Duration>,

    /// Bytes of stdout and of stderr kept per hook (e.g. 1MiB, 64KiB); the
    /// rest is read and counted, never parsed.
    #[arg(long, value_name = "SIZE", default_value = OUTPUT_CAP_DEFAULT, value_parser = parse_size, env = "HOOKRUN_OUTPUT_CAP")]
    pub output_cap: usize,
}

/// A command-line value that does not parse (clap names the flag or the
/// `HOOKRUN_*` variable it came from).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    #[error("`{0}` is not a duration (examples: 2, 1.5s, 100ms, 1m)")]
    NotADuration(String),
    #[error("`{0}` is not a size (examples: 65536, 64KiB, 1MiB)")]
    NotASize(String),
    #[error("`{0}` is out of range")]
    OutOfRange(String),
}

/// Parses `1.5`, `1.5s`, `100ms`, `2m` into a duration.
pub fn parse_duration(text: &str) -> Result<Duration, ValueError> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| ValueError::NotADuration(text.to_owned()))?;
    if !value.is_finite() || value < 0.0 || value * scale > 1e9 {
        return Err(ValueError::OutOfRange(text.to_owned()));
    }
    Ok(Duration::from_secs_f64(value * scale))
}

/// Parses `65536`, `64KiB`, `1MiB`, `1M`.
pub fn parse_size(text: &str) -> Result<usize, ValueError> {
    let text = text.trim();
    let lower = text.to_ascii_lowercase();
    let (number, scale) = [
        ("kib", 1024),
        ("kb", 1000),
        ("k", 1024),
        ("mib", 1 << 20),
        ("mb", 1_000_000),
        ("m", 1 << 20),
        ("b", 1),
    ]
    .iter()
    .find_map(|(suffix, scale)| lower.strip_suffix(suffix).map(|n| (n.to_owned(), *scale)))
    .unwrap_or((lower.clone(), 1));
    let value: usize = number
        .trim()
        .parse()
        .map_err(|_| ValueError::NotASize(text.to_owned()))?;
    value
        .checked_mul(scale)
        .filter(|v| *v > 0)
        .ok_or_else(|| ValueError::OutOfRange(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// Help that teaches: every option that takes a value says what it is
    /// when not given, through clap's `[default: …]` or in its own words.
    #[test]
    fn every_option_states_its_default() {
        fn check(command: &clap::Command, path: &str) {
            for arg in command.get_arguments() {
                let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
                let repeatable = matches!(arg.get_action(), clap::ArgAction::Append);
                if !takes_value || repeatable || arg.is_required_set() || arg.is_hide_set() {
                    continue;
                }
                let help = arg
                    .get_long_help()
                    .or_else(|| arg.get_help())
                    .map(ToString::to_string)
                    .unwrap_or_default();
                assert!(
                    !arg.get_default_values().is_empty() || help.contains("default"),
                    "{path} {}: say its default",
                    arg.get_id()
                );
            }
            for sub in command.get_subcommands() {
                check(sub, &format!("{path} {}", sub.get_name()));
            }
        }
        let mut command = Cli::command();
        command.build();
        check(&command, "hookrun");
    }

    /// The short cut for `fire` gives what the whole parser gives, and
    /// leaves help, version and every error to it.
    #[test]
    fn fire_is_parsed_as_the_whole_command_line_parses_it() {
        fn argv(line: &str) -> Vec<std::ffi::OsString> {
            line.split(' ').map(Into::into).collect()
        }
        let accepted = [
            "hookrun fire",
            "hookrun fire pre_tool_use",
            "hookrun fire PreToolUse --settings a.json --settings b.json",
            "hookrun fire -vv --host gemini --format report --fail-closed",
            "hookrun fire stop --deadline 1.5s --kill-grace 200ms --output-cap 64KiB",
            "hookrun fire --no-default-settings --claude-settings .claude/settings.json",
            "hookrun fire --log /tmp/x.jsonl --stop-block-cap 3 --non-interactive",
            "hookrun fire --project-dir /p --trust-project",
        ];
        let set = fast::FIRE_ENV
            .iter()
            .any(|(var, _)| std::env::var_os(var).is_some());
        for line in accepted {
            let args = argv(line);
            let full = Cli::parse_with_clap(&args).unwrap();
            let short = fast::parse_fire(&args);
            if set && short.is_none() {
                // A HOOKRUN_* value the short cut leaves to clap.
                continue;
            }
            let short = short.unwrap_or_else(|| panic!("{line}: the short cut refused it"));
            assert_eq!(format!("{short:?}"), format!("{full:?}"), "{line}");
        }
        // Left to the whole parser (a global option first is parsed the
        // same, only not by the short cut).
        let refused = [
            "hookrun -v fire PreToolUse",
            "hookrun fire --help",
            "hookrun fire -h",
            "hookrun fire --version",
            "hookrun fire --deadlne 2s",
            "hookrun fire --deadline soon",
            "hookrun fire --host nobody",
            "hookrun fire a b",
            "hookrun doctor",
            "hookrun",
        ];
        for line in refused {
            let args = argv(line);
            assert!(fast::parse_fire(&args).is_none(), "{line}");
            let via = Cli::parse_args(&args).map(|cli| format!("{cli:?}"));
            let full = Cli::parse_with_clap(&args).map(|cli| format!("{cli:?}"));
            match (via, full) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{line}"),
                (Err(a), Err(b)) => {
                    assert_eq!(a.kind(), b.kind(), "{line}");
                    assert_eq!(a.render().to_string(), b.render().to_string(), "{line}");
                }
                (a, b) => panic!("{line}: {a:?} vs {b:?}"),
            }
        }
    }

    #[test]
    fn durations_and_sizes() {
        assert_eq!(parse_duration("2").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("100ms").unwrap(), Duration::from_millis(100));
        assert_eq!(parse_duration("1m").unwrap(), Duration::from_secs(60));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("-1").is_err());
        assert_eq!(parse_size("1MiB").unwrap(), 1 << 20);
        assert_eq!(parse_size("64kib").unwrap(), 65536);
        assert_eq!(parse_size("100").unwrap(), 100);
        assert!(parse_size("0").is_err());
        assert!(parse_size("lots").is_err());
    }
}
