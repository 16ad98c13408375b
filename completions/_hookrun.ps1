
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'hookrun' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'hookrun'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'hookrun' {
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a starter settings file and print the host entry to add.')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Route a host''s events to hookrun: write the host''s own hook config.')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check every settings source for mistakes that make hooks fail silently.')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Where hookrun is wired in: each host''s entries and the hookrun they run.')
            [CompletionResult]::new('fire', 'fire', [CompletionResultType]::ParameterValue, 'Run the hooks of one event and answer in the hook protocol.')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show, hook by hook, why each one would or would not run for an event.')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every hook hookrun would consider, with its source and state.')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run hook-policy test cases through the real fire path.')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Replay recorded sessions against your hook policy: what would change?')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Summarise an audit log: per event and hook, fires, blocks, failures, timeouts, leaks and p50/p95/max durations; PreToolUse calls that never got a PostToolUse; configured hooks that never ran.')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust a project''s settings files, so their hooks take effect.')
            [CompletionResult]::new('untrust', 'untrust', [CompletionResultType]::ParameterValue, 'Forget the trust of a project''s settings files (see `hookrun trust`).')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove hookrun''s entries from a host''s hook config (see `install`).')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the shell completion script for SHELL.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hookrun;init' {
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root for --project (default: the nearest folder above the current one that has a .hookrun folder, else the top of the git repository you are in, else the current folder)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Write the project''s .hookrun/settings.json instead of your user settings (it takes effect once you run `hookrun trust`)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;install' {
            [CompletionResult]::new('--binary', '--binary', [CompletionResultType]::ParameterName, 'The hookrun the entries run (default: this binary, by absolute path)')
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s file (the default)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Your own file, in the home folder (every project)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Claude Code only: the project''s local file, .claude/settings.local.json (yours, not committed), instead of the shared .claude/settings.json')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the change as a diff and write nothing')
            [CompletionResult]::new('--pinned', '--pinned', [CompletionResultType]::ParameterName, 'Install only: run the project''s npm devDependency ("$CLAUDE_PROJECT_DIR"/node_modules/.bin/hookrun-native), not this machine''s path, so a committed file works for every teammate')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;doctor' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;status' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;fire' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The agent that runs hookrun: how its event is read and the answer written')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'What to print on stdout: the hook protocol answer the host reads, or a full report for debugging by hand')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one JSON line per fire to this audit log (default: the `log` settings key; no log when neither is set). See `hookrun stats`. With HOOKRUN_LOG_INPUT=1 each line also records the event''s input, for `hookrun replay` (off by default: inputs may hold secrets)')
            [CompletionResult]::new('--stop-block-cap', '--stop-block-cap', [CompletionResultType]::ParameterName, 'After this many consecutive blocked Stop/SubagentStop fires in one session, the next block is downgraded to a warning (ends "tests fail → continue → tests fail" loops). Default: 8; behind a host that caps Stop blocks itself (Claude Code: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, default 8), one more than the host''s cap, so the host''s own cap acts first. The count restarts when the host says a stop is not the continuation of a blocked one (`stop_hook_active: false`)')
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--kill-grace', '--kill-grace', [CompletionResultType]::ParameterName, 'After a hook''s timeout, SIGTERM its process group, then SIGKILL it after this grace if anything is still alive (e.g. 2s, 500ms). Near the deadline the SIGTERM comes early enough for the whole sequence to end by it')
            [CompletionResult]::new('--leak-timeout', '--leak-timeout', [CompletionResultType]::ParameterName, 'After a hook exits, read its remaining output for at most this long; background processes still holding its pipes then are reported, not waited for')
            [CompletionResult]::new('--deadline', '--deadline', [CompletionResultType]::ParameterName, 'Answer within this time (default: the host''s timeout for the event minus 1 s; 1.2 s for SessionEnd). Hooks still running then are stopped and reported')
            [CompletionResult]::new('--output-cap', '--output-cap', [CompletionResultType]::ParameterName, 'Bytes of stdout and of stderr kept per hook (e.g. 1MiB, 64KiB); the rest is read and counted, never parsed')
            [CompletionResult]::new('--fail-closed', '--fail-closed', [CompletionResultType]::ParameterName, 'Turn problems into blocks: unusable input, and settings that could not be loaded, block instead of warning (on events that can block)')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Nobody can answer a permission prompt (CI, headless agents): a final "ask" becomes a deny with the reason "approval required, but nobody can be asked"')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;explain' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The agent whose event this is (as `fire --host`): its event, tool and field names are translated first, as `fire` would')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--deadline', '--deadline', [CompletionResultType]::ParameterName, 'The deadline to plan the hooks'' timeouts against, as `fire --deadline` (default: the host''s timeout for the event minus 1 s; 1.2 s for SessionEnd)')
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;test' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'The agent whose events the cases'' inputs are (as `fire --host`), for cases that name no `host` of their own: their event, tool and field names are translated and the answer encoded as that host gets it')
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;replay' {
            [CompletionResult]::new('--against', '--against', [CompletionResultType]::ParameterName, 'Compare with this policy: these settings files take the place of the --settings files, the other sources stay the same (repeatable, in order)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--show', '--show', [CompletionResultType]::ParameterName, 'What the text output lists after the summary: the first N changed events, or `all`: every replayed event with its decision and the hooks that would run. (JSON lists every event and every change.)')
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'Run the hooks too (not only the funnel and the rules): each replayed event really fires, in a throwaway working folder. Only for hooks that are safe to run again')
            [CompletionResult]::new('--fail-on-change', '--fail-on-change', [CompletionResultType]::ParameterName, 'Exit 3 when any event changed (for CI gating a policy change)')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;stats' {
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'The audit log (default: $HOOKRUN_LOG, else the `log` settings key)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;trust' {
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Go ahead although this looks like an AI agent''s shell (a host''s marker such as CLAUDECODE is set, and there is no terminal), where `untrust` and trusting content not trusted yet otherwise refuse')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;untrust' {
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Go ahead although this looks like an AI agent''s shell (a host''s marker such as CLAUDECODE is set, and there is no terminal), where `untrust` and trusting content not trusted yet otherwise refuse')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;uninstall' {
            [CompletionResult]::new('--settings', '--settings', [CompletionResultType]::ParameterName, 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file')
            [CompletionResult]::new('--claude-settings', '--claude-settings', [CompletionResultType]::ParameterName, 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)')
            [CompletionResult]::new('--project-dir', '--project-dir', [CompletionResultType]::ParameterName, 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every install: the files install recorded (every host, scope and project), every host''s file in your home folder, and the current project''s')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s file (the default)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Your own file, in the home folder (every project)')
            [CompletionResult]::new('--local', '--local', [CompletionResultType]::ParameterName, 'Claude Code only: the project''s local file, .claude/settings.local.json')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would change and write nothing')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Go ahead although this looks like an AI agent''s shell (a host''s marker such as CLAUDECODE is set, and there is no terminal), where uninstall otherwise refuses')
            [CompletionResult]::new('--no-default-settings', '--no-default-settings', [CompletionResultType]::ParameterName, 'Skip the user, project and local settings files; load only the `--settings` files and managed settings')
            [CompletionResult]::new('--trust-project', '--trust-project', [CompletionResultType]::ParameterName, 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;completions' {
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'hookrun;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a starter settings file and print the host entry to add.')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Route a host''s events to hookrun: write the host''s own hook config.')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check every settings source for mistakes that make hooks fail silently.')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Where hookrun is wired in: each host''s entries and the hookrun they run.')
            [CompletionResult]::new('fire', 'fire', [CompletionResultType]::ParameterValue, 'Run the hooks of one event and answer in the hook protocol.')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show, hook by hook, why each one would or would not run for an event.')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every hook hookrun would consider, with its source and state.')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run hook-policy test cases through the real fire path.')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Replay recorded sessions against your hook policy: what would change?')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Summarise an audit log: per event and hook, fires, blocks, failures, timeouts, leaks and p50/p95/max durations; PreToolUse calls that never got a PostToolUse; configured hooks that never ran.')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust a project''s settings files, so their hooks take effect.')
            [CompletionResult]::new('untrust', 'untrust', [CompletionResultType]::ParameterValue, 'Forget the trust of a project''s settings files (see `hookrun trust`).')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove hookrun''s entries from a host''s hook config (see `install`).')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the shell completion script for SHELL.')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'hookrun;help;init' {
            break
        }
        'hookrun;help;install' {
            break
        }
        'hookrun;help;doctor' {
            break
        }
        'hookrun;help;status' {
            break
        }
        'hookrun;help;fire' {
            break
        }
        'hookrun;help;explain' {
            break
        }
        'hookrun;help;list' {
            break
        }
        'hookrun;help;test' {
            break
        }
        'hookrun;help;replay' {
            break
        }
        'hookrun;help;stats' {
            break
        }
        'hookrun;help;trust' {
            break
        }
        'hookrun;help;untrust' {
            break
        }
        'hookrun;help;uninstall' {
            break
        }
        'hookrun;help;completions' {
            break
        }
        'hookrun;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
