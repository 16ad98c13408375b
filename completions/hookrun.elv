
use builtin;
use str;

set edit:completion:arg-completer[hookrun] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'hookrun'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'hookrun'= {
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Write a starter settings file and print the host entry to add.'
            cand install 'Route a host''s events to hookrun: write the host''s own hook config.'
            cand doctor 'Check every settings source for mistakes that make hooks fail silently.'
            cand status 'Where hookrun is wired in: each host''s entries and the hookrun they run.'
            cand fire 'Run the hooks of one event and answer in the hook protocol.'
            cand explain 'Show, hook by hook, why each one would or would not run for an event.'
            cand list 'List every hook hookrun would consider, with its source and state.'
            cand test 'Run hook-policy test cases through the real fire path.'
            cand replay 'Replay recorded sessions against your hook policy: what would change?'
            cand stats 'Summarise an audit log: per event and hook, fires, blocks, failures, timeouts, leaks and p50/p95/max durations; PreToolUse calls that never got a PostToolUse; configured hooks that never ran.'
            cand trust 'Trust a project''s settings files, so their hooks take effect.'
            cand untrust 'Forget the trust of a project''s settings files (see `hookrun trust`).'
            cand uninstall 'Remove hookrun''s entries from a host''s hook config (see `install`).'
            cand completions 'Print the shell completion script for SHELL.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hookrun;init'= {
            cand --project-dir 'The project root for --project (default: the nearest folder above the current one that has a .hookrun folder, else the top of the git repository you are in, else the current folder)'
            cand --project 'Write the project''s .hookrun/settings.json instead of your user settings (it takes effect once you run `hookrun trust`)'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;install'= {
            cand --binary 'The hookrun the entries run (default: this binary, by absolute path)'
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --project 'The project''s file (the default)'
            cand --user 'Your own file, in the home folder (every project)'
            cand --local 'Claude Code only: the project''s local file, .claude/settings.local.json (yours, not committed), instead of the shared .claude/settings.json'
            cand --dry-run 'Print the change as a diff and write nothing'
            cand --pinned 'Install only: run the project''s npm devDependency ("$CLAUDE_PROJECT_DIR"/node_modules/.bin/hookrun-native), not this machine''s path, so a committed file works for every teammate'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;doctor'= {
            cand --format 'Output format'
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;status'= {
            cand --format 'Output format'
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;fire'= {
            cand --host 'The agent that runs hookrun: how its event is read and the answer written'
            cand --format 'What to print on stdout: the hook protocol answer the host reads, or a full report for debugging by hand'
            cand --log 'Append one JSON line per fire to this audit log (default: the `log` settings key; no log when neither is set). See `hookrun stats`. With HOOKRUN_LOG_INPUT=1 each line also records the event''s input, for `hookrun replay` (off by default: inputs may hold secrets)'
            cand --stop-block-cap 'After this many consecutive blocked Stop/SubagentStop fires in one session, the next block is downgraded to a warning (ends "tests fail → continue → tests fail" loops). Default: 8; behind a host that caps Stop blocks itself (Claude Code: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, default 8), one more than the host''s cap, so the host''s own cap acts first. The count restarts when the host says a stop is not the continuation of a blocked one (`stop_hook_active: false`)'
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --kill-grace 'After a hook''s timeout, SIGTERM its process group, then SIGKILL it after this grace if anything is still alive (e.g. 2s, 500ms). Near the deadline the SIGTERM comes early enough for the whole sequence to end by it'
            cand --leak-timeout 'After a hook exits, read its remaining output for at most this long; background processes still holding its pipes then are reported, not waited for'
            cand --deadline 'Answer within this time (default: the host''s timeout for the event minus 1 s; 1.2 s for SessionEnd). Hooks still running then are stopped and reported'
            cand --output-cap 'Bytes of stdout and of stderr kept per hook (e.g. 1MiB, 64KiB); the rest is read and counted, never parsed'
            cand --fail-closed 'Turn problems into blocks: unusable input, and settings that could not be loaded, block instead of warning (on events that can block)'
            cand --non-interactive 'Nobody can answer a permission prompt (CI, headless agents): a final "ask" becomes a deny with the reason "approval required, but nobody can be asked"'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;explain'= {
            cand --host 'The agent whose event this is (as `fire --host`): its event, tool and field names are translated first, as `fire` would'
            cand --format 'Output format'
            cand --deadline 'The deadline to plan the hooks'' timeouts against, as `fire --deadline` (default: the host''s timeout for the event minus 1 s; 1.2 s for SessionEnd)'
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;list'= {
            cand --format 'Output format'
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;test'= {
            cand --format 'Output format'
            cand --host 'The agent whose events the cases'' inputs are (as `fire --host`), for cases that name no `host` of their own: their event, tool and field names are translated and the answer encoded as that host gets it'
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;replay'= {
            cand --against 'Compare with this policy: these settings files take the place of the --settings files, the other sources stay the same (repeatable, in order)'
            cand --format 'Output format'
            cand --show 'What the text output lists after the summary: the first N changed events, or `all`: every replayed event with its decision and the hooks that would run. (JSON lists every event and every change.)'
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --run 'Run the hooks too (not only the funnel and the rules): each replayed event really fires, in a throwaway working folder. Only for hooks that are safe to run again'
            cand --fail-on-change 'Exit 3 when any event changed (for CI gating a policy change)'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;stats'= {
            cand --log 'The audit log (default: $HOOKRUN_LOG, else the `log` settings key)'
            cand --format 'Output format'
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;trust'= {
            cand --yes 'Go ahead although this looks like an AI agent''s shell (a host''s marker such as CLAUDECODE is set, and there is no terminal), where `untrust` and trusting content not trusted yet otherwise refuse'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;untrust'= {
            cand --yes 'Go ahead although this looks like an AI agent''s shell (a host''s marker such as CLAUDECODE is set, and there is no terminal), where `untrust` and trusting content not trusted yet otherwise refuse'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;uninstall'= {
            cand --settings 'Load this settings file after the user, project and local files (repeatable, in order). A file inside a `.claude/` folder is read as a Claude Code settings file'
            cand --claude-settings 'Load a Claude Code settings file: only its `hooks` and `disableAllHooks` are used (repeatable)'
            cand --project-dir 'The project root (default: `$CLAUDE_PROJECT_DIR`, else the host''s workspace root, else the outermost ancestor of the event''s `cwd` with a `.hookrun/` folder, else `cwd`; nested `.hookrun/` folders add layers)'
            cand --all 'Every install: the files install recorded (every host, scope and project), every host''s file in your home folder, and the current project''s'
            cand --project 'The project''s file (the default)'
            cand --user 'Your own file, in the home folder (every project)'
            cand --local 'Claude Code only: the project''s local file, .claude/settings.local.json'
            cand --dry-run 'Print what would change and write nothing'
            cand --yes 'Go ahead although this looks like an AI agent''s shell (a host''s marker such as CLAUDECODE is set, and there is no terminal), where uninstall otherwise refuses'
            cand --no-default-settings 'Skip the user, project and local settings files; load only the `--settings` files and managed settings'
            cand --trust-project 'Trust the project''s settings files for this run without recording them (CI, containers). Otherwise project files take effect only after `hookrun trust`'
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;completions'= {
            cand -v 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand --verbose 'Log what hookrun does to stderr (-v: info, -vv: debug, -vvv: trace; `RUST_LOG` works too): the project and settings files it found, each settings problem, each hook it starts. Commands that load no settings (`completions`, `init`) have nothing to log. Under `fire`, stderr otherwise carries only the block reason'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'hookrun;help'= {
            cand init 'Write a starter settings file and print the host entry to add.'
            cand install 'Route a host''s events to hookrun: write the host''s own hook config.'
            cand doctor 'Check every settings source for mistakes that make hooks fail silently.'
            cand status 'Where hookrun is wired in: each host''s entries and the hookrun they run.'
            cand fire 'Run the hooks of one event and answer in the hook protocol.'
            cand explain 'Show, hook by hook, why each one would or would not run for an event.'
            cand list 'List every hook hookrun would consider, with its source and state.'
            cand test 'Run hook-policy test cases through the real fire path.'
            cand replay 'Replay recorded sessions against your hook policy: what would change?'
            cand stats 'Summarise an audit log: per event and hook, fires, blocks, failures, timeouts, leaks and p50/p95/max durations; PreToolUse calls that never got a PostToolUse; configured hooks that never ran.'
            cand trust 'Trust a project''s settings files, so their hooks take effect.'
            cand untrust 'Forget the trust of a project''s settings files (see `hookrun trust`).'
            cand uninstall 'Remove hookrun''s entries from a host''s hook config (see `install`).'
            cand completions 'Print the shell completion script for SHELL.'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'hookrun;help;init'= {
        }
        &'hookrun;help;install'= {
        }
        &'hookrun;help;doctor'= {
        }
        &'hookrun;help;status'= {
        }
        &'hookrun;help;fire'= {
        }
        &'hookrun;help;explain'= {
        }
        &'hookrun;help;list'= {
        }
        &'hookrun;help;test'= {
        }
        &'hookrun;help;replay'= {
        }
        &'hookrun;help;stats'= {
        }
        &'hookrun;help;trust'= {
        }
        &'hookrun;help;untrust'= {
        }
        &'hookrun;help;uninstall'= {
        }
        &'hookrun;help;completions'= {
        }
        &'hookrun;help;help'= {
        }
    ]
    $completions[$command]
}
