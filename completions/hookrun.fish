# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_hookrun_global_optspecs
    string join \n v/verbose h/help V/version
end

function __fish_hookrun_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_hookrun_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_hookrun_using_subcommand
    set -l cmd (__fish_hookrun_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c hookrun -n "__fish_hookrun_needs_command" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_needs_command" -s h -l help -d 'Print help'
complete -c hookrun -n "__fish_hookrun_needs_command" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "init" -d 'Write a starter settings file and print the host entry to add.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "install" -d 'Route a host\'s events to hookrun: write the host\'s own hook config.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "doctor" -d 'Check every settings source for mistakes that make hooks fail silently.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "status" -d 'Where hookrun is wired in: each host\'s entries and the hookrun they run.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "fire" -d 'Run the hooks of one event and answer in the hook protocol.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "explain" -d 'Show, hook by hook, why each one would or would not run for an event.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "list" -d 'List every hook hookrun would consider, with its source and state.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "test" -d 'Run hook-policy test cases through the real fire path.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "replay" -d 'Replay recorded sessions against your hook policy: what would change?'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "stats" -d 'Summarise an audit log: per event and hook, fires, blocks, failures, timeouts, leaks and p50/p95/max durations; PreToolUse calls that never got a PostToolUse; configured hooks that never ran.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "trust" -d 'Trust a project\'s settings files, so their hooks take effect.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "untrust" -d 'Forget the trust of a project\'s settings files (see `hookrun trust`).'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "uninstall" -d 'Remove hookrun\'s entries from a host\'s hook config (see `install`).'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "completions" -d 'Print the shell completion script for SHELL.'
complete -c hookrun -n "__fish_hookrun_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c hookrun -n "__fish_hookrun_using_subcommand init" -l project-dir -d 'The project root for --project (default: the nearest folder above the current one that has a .hookrun folder, else the top of the git repository you are in, else the current folder)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand init" -l project -d 'Write the project\'s .hookrun/settings.json instead of your user settings (it takes effect once you run `hookrun trust`)'
complete -c hookrun -n "__fish_hookrun_using_subcommand init" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand init" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l binary -d 'The hookrun the entries run (default: this binary, by absolute path)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l project -d 'The project\'s file (the default)'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l user -d 'Your own file, in the home folder (every project)'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l local -d 'Claude Code only: the project\'s local file, .claude/settings.local.json (yours, not committed), instead of the shared .claude/settings.json'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l dry-run -d 'Print the change as a diff and write nothing'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l pinned -d 'Install only: run the project\'s npm devDependency ("$CLAUDE_PROJECT_DIR"/node_modules/.bin/hookrun-native), not this machine\'s path, so a committed file works for every teammate'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand install" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand doctor" -l format -d 'Output format' -r -f -a "text\t'For people'
json\t'One JSON document, for scripts and CI'"
complete -c hookrun -n "__fish_hookrun_using_subcommand doctor" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand doctor" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand doctor" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand doctor" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand doctor" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand doctor" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand status" -l format -d 'Output format' -r -f -a "text\t'For people'
json\t'One JSON document, for scripts and CI'"
complete -c hookrun -n "__fish_hookrun_using_subcommand status" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand status" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand status" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand status" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand status" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand status" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand status" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l host -d 'The agent that runs hookrun: how its event is read and the answer written' -r -f -a "claude-code\t'Claude Code (and hosts that speak its protocol)'
gemini\t'Gemini CLI'
codex\t'OpenAI Codex CLI'
cursor\t'Cursor (unverified: built from its published format, never run against a real Cursor)'
copilot\t'GitHub Copilot CLI'
cline\t'Cline CLI (hook files; `hookrun install cline` writes them)'
qwen\t'Qwen Code'
droid\t'Factory Droid'"
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l format -d 'What to print on stdout: the hook protocol answer the host reads, or a full report for debugging by hand' -r -f -a "protocol\t'The hook protocol: one JSON object (what hosts read)'
report\t'A full JSON report: every hook, where the funnel stopped it, how it ended, its output, every warning. For debugging by hand'"
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l log -d 'Append one JSON line per fire to this audit log (default: the `log` settings key; no log when neither is set). See `hookrun stats`. With HOOKRUN_LOG_INPUT=1 each line also records the event\'s input, for `hookrun replay` (off by default: inputs may hold secrets)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l stop-block-cap -d 'After this many consecutive blocked Stop/SubagentStop fires in one session, the next block is downgraded to a warning (ends "tests fail → continue → tests fail" loops). Default: 8; behind a host that caps Stop blocks itself (Claude Code: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, default 8), one more than the host\'s cap, so the host\'s own cap acts first. The count restarts when the host says a stop is not the continuation of a blocked one (`stop_hook_active: false`)' -r
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l kill-grace -d 'After a hook\'s timeout, SIGTERM its process group, then SIGKILL it after this grace if anything is still alive (e.g. 2s, 500ms). Near the deadline the SIGTERM comes early enough for the whole sequence to end by it' -r
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l leak-timeout -d 'After a hook exits, read its remaining output for at most this long; background processes still holding its pipes then are reported, not waited for' -r
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l deadline -d 'Answer within this time (default: the host\'s timeout for the event minus 1 s; 1.2 s for SessionEnd). Hooks still running then are stopped and reported' -r
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l output-cap -d 'Bytes of stdout and of stderr kept per hook (e.g. 1MiB, 64KiB); the rest is read and counted, never parsed' -r
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l fail-closed -d 'Turn problems into blocks: unusable input, and settings that could not be loaded, block instead of warning (on events that can block)'
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l non-interactive -d 'Nobody can answer a permission prompt (CI, headless agents): a final "ask" becomes a deny with the reason "approval required, but nobody can be asked"'
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand fire" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -l host -d 'The agent whose event this is (as `fire --host`): its event, tool and field names are translated first, as `fire` would' -r -f -a "claude-code\t'Claude Code (and hosts that speak its protocol)'
gemini\t'Gemini CLI'
codex\t'OpenAI Codex CLI'
cursor\t'Cursor (unverified: built from its published format, never run against a real Cursor)'
copilot\t'GitHub Copilot CLI'
cline\t'Cline CLI (hook files; `hookrun install cline` writes them)'
qwen\t'Qwen Code'
droid\t'Factory Droid'"
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -l format -d 'Output format' -r -f -a "text\t'For people'
json\t'One JSON document, for scripts and CI'"
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -l deadline -d 'The deadline to plan the hooks\' timeouts against, as `fire --deadline` (default: the host\'s timeout for the event minus 1 s; 1.2 s for SessionEnd)' -r
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand explain" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand list" -l format -d 'Output format' -r -f -a "text\t'For people'
json\t'One JSON document, for scripts and CI'"
complete -c hookrun -n "__fish_hookrun_using_subcommand list" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand list" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand list" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand list" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand list" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand list" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand list" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -l format -d 'Output format' -r -f -a "text\t'For people'
json\t'One JSON document, for scripts and CI'"
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -l host -d 'The agent whose events the cases\' inputs are (as `fire --host`), for cases that name no `host` of their own: their event, tool and field names are translated and the answer encoded as that host gets it' -r -f -a "claude-code\t'Claude Code (and hosts that speak its protocol)'
gemini\t'Gemini CLI'
codex\t'OpenAI Codex CLI'
cursor\t'Cursor (unverified: built from its published format, never run against a real Cursor)'
copilot\t'GitHub Copilot CLI'
cline\t'Cline CLI (hook files; `hookrun install cline` writes them)'
qwen\t'Qwen Code'
droid\t'Factory Droid'"
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand test" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l against -d 'Compare with this policy: these settings files take the place of the --settings files, the other sources stay the same (repeatable, in order)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l format -d 'Output format' -r -f -a "text\t'For people'
json\t'One JSON document, for scripts and CI'"
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l show -d 'What the text output lists after the summary: the first N changed events, or `all`: every replayed event with its decision and the hooks that would run. (JSON lists every event and every change.)' -r
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l run -d 'Run the hooks too (not only the funnel and the rules): each replayed event really fires, in a throwaway working folder. Only for hooks that are safe to run again'
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l fail-on-change -d 'Exit 3 when any event changed (for CI gating a policy change)'
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand replay" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -l log -d 'The audit log (default: $HOOKRUN_LOG, else the `log` settings key)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -l format -d 'Output format' -r -f -a "text\t'For people'
json\t'One JSON document, for scripts and CI'"
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand stats" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand trust" -l yes -d 'Go ahead although this looks like an AI agent\'s shell (a host\'s marker such as CLAUDECODE is set, and there is no terminal), where `untrust` and trusting content not trusted yet otherwise refuse'
complete -c hookrun -n "__fish_hookrun_using_subcommand trust" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand trust" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand trust" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand untrust" -l yes -d 'Go ahead although this looks like an AI agent\'s shell (a host\'s marker such as CLAUDECODE is set, and there is no terminal), where `untrust` and trusting content not trusted yet otherwise refuse'
complete -c hookrun -n "__fish_hookrun_using_subcommand untrust" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand untrust" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand untrust" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l settings -d 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l claude-settings -d 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l project-dir -d 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host\'s workspace root, else the outermost ancestor of the event\'s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)' -r -F
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l all -d 'Every install: the files install recorded (every host, scope and project), every host\'s file in your home folder, and the current project\'s'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l project -d 'The project\'s file (the default)'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l user -d 'Your own file, in the home folder (every project)'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l local -d 'Claude Code only: the project\'s local file, .claude/settings.local.json'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l dry-run -d 'Print what would change and write nothing'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l yes -d 'Go ahead although this looks like an AI agent\'s shell (a host\'s marker such as CLAUDECODE is set, and there is no terminal), where uninstall otherwise refuses'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l no-default-settings -d 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -l trust-project -d 'Trust the project\'s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand uninstall" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand completions" -s v -l verbose -d 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
complete -c hookrun -n "__fish_hookrun_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c hookrun -n "__fish_hookrun_using_subcommand completions" -s V -l version -d 'Print version'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "init" -d 'Write a starter settings file and print the host entry to add.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "install" -d 'Route a host\'s events to hookrun: write the host\'s own hook config.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "doctor" -d 'Check every settings source for mistakes that make hooks fail silently.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "status" -d 'Where hookrun is wired in: each host\'s entries and the hookrun they run.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "fire" -d 'Run the hooks of one event and answer in the hook protocol.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "explain" -d 'Show, hook by hook, why each one would or would not run for an event.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "list" -d 'List every hook hookrun would consider, with its source and state.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "test" -d 'Run hook-policy test cases through the real fire path.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "replay" -d 'Replay recorded sessions against your hook policy: what would change?'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "stats" -d 'Summarise an audit log: per event and hook, fires, blocks, failures, timeouts, leaks and p50/p95/max durations; PreToolUse calls that never got a PostToolUse; configured hooks that never ran.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "trust" -d 'Trust a project\'s settings files, so their hooks take effect.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "untrust" -d 'Forget the trust of a project\'s settings files (see `hookrun trust`).'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "uninstall" -d 'Remove hookrun\'s entries from a host\'s hook config (see `install`).'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "completions" -d 'Print the shell completion script for SHELL.'
complete -c hookrun -n "__fish_hookrun_using_subcommand help; and not __fish_seen_subcommand_from init install doctor status fire explain list test replay stats trust untrust uninstall completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
