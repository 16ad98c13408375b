//! The form of the command an installed entry holds: what shell each host
//! runs a hook's command with on each system, and hookrun's program and
//! arguments written for that shell. Pure functions of (host, system), so
//! every Windows form is tested on every system; `System::current` is the
//! one place the running system is asked (through the platform seam).
//!
//! | host | Unix | Windows |
//! |---|---|---|
//! | Claude Code | `sh -c` | Git for Windows' bash |
//! | Gemini CLI | `bash -c` | PowerShell (`pwsh`, else `powershell.exe`) |
//! | Qwen Code | `bash -c` | PowerShell (the entry says `"shell": "powershell"`) |
//! | Copilot CLI | the `bash` field | the `powershell` field |
//! | Codex | `$SHELL -lc` | `cmd.exe /C` |
//! | Cursor, Droid | `sh -c` | taken to be bash, as Claude Code's (unverified) |
//! | Cline | hook files run directly | `<Event>.ps1` run by PowerShell |

use std::path::Path;

use super::HostId;

/// The system install writes entries for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    Unix,
    Windows,
}

impl System {
    /// The running system.
    pub fn current() -> System {
        if crate::platform::WINDOWS_PATHS {
            System::Windows
        } else {
            System::Unix
        }
    }
}

/// The shell a host hands an entry's command to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Launcher {
    /// A POSIX shell (`sh -c`, `bash -c`).
    Sh,
    /// Git for Windows' bash: POSIX quoting, the program's path with `/`.
    GitBash,
    /// PowerShell (`-Command`): `& 'C:\…\hookrun.exe' …`, and the program's
    /// exit code passed on (PowerShell's own is 1 for any failure).
    PowerShell,
    /// `cmd.exe /C`, started through Rust's argument quoting (Codex): the
    /// program's path is written bare, so it may hold no space or
    /// character cmd reads.
    Cmd,
}

/// What `host` runs an entry's command with on `system`.
pub fn launcher(host: HostId, system: System) -> Launcher {
    match (system, host) {
        (System::Unix, _) => Launcher::Sh,
        (System::Windows, HostId::Gemini | HostId::Qwen | HostId::Copilot | HostId::Cline) => {
            Launcher::PowerShell
        }
        (System::Windows, HostId::Codex) => Launcher::Cmd,
        (System::Windows, HostId::ClaudeCode | HostId::Cursor | HostId::Droid) => Launcher::GitBash,
    }
}

/// What PowerShell entries end with: the program's exit code (2 blocks)
/// becomes the shell's.
pub const POWERSHELL_EXIT: &str = "; exit $LASTEXITCODE";

/// Characters `cmd.exe` reads in a bare word.
const CMD_SPECIAL: &[char] = &[
    ' ', '\t', '"', '&', '|', '<', '>', '^', '%', '!', '(', ')', ',', ';', '=',
];

/// The command a host entry runs on `system`: `BINARY fire --host HOST`,
/// the program word in the form of the shell the host runs entries with
/// there (`& 'C:\…\hookrun.exe'` for PowerShell).
pub fn fire_command(binary: &Path, host: HostId, system: System) -> Result<String, String> {
    let program = program_word(&binary.to_string_lossy(), launcher(host, system))?;
    Ok(format!("{program} fire --host {}", host.name()))
}

/// hookrun's program, written for `launcher` (the arguments follow it
/// plainly: they are words no shell changes).
pub fn program_word(binary: &str, launcher: Launcher) -> Result<String, String> {
    match launcher {
        Launcher::Sh | Launcher::GitBash => {
            let path = if launcher == Launcher::GitBash {
                binary.replace('\\', "/")
            } else {
                binary.to_owned()
            };
            shlex::try_quote(&path)
                .map(std::borrow::Cow::into_owned)
                .map_err(|_| format!("the binary path {binary} cannot be written as a shell word"))
        }
        Launcher::PowerShell => Ok(format!("& '{}'", binary.replace('\'', "''"))),
        Launcher::Cmd => {
            if binary.is_empty() || binary.contains(CMD_SPECIAL) {
                Err(format!(
                    "the binary path {binary} holds a space or a character cmd.exe reads, and the host runs hooks with `cmd.exe /C`, where such a path cannot be quoted; install hookrun in a folder whose path has none (or pass --binary)"
                ))
            } else {
                Ok(binary.to_owned())
            }
        }
    }
}

/// The whole command of an entry: `base` (the program word and its
/// arguments) as `launcher` needs it to end.
pub fn finish(base: &str, launcher: Launcher) -> String {
    match launcher {
        Launcher::PowerShell => format!("{base}{POWERSHELL_EXIT}"),
        _ => base.to_owned(),
    }
}

/// The words of a command in an install form (the program first), for
/// any launcher: `None` when it is none of them.
pub fn words(command: &str) -> Option<Vec<String>> {
    if let Some(rest) = command.strip_prefix("& '") {
        // PowerShell: `& 'path' args[; exit $LASTEXITCODE]`.
        let mut path = String::new();
        let mut chars = rest.char_indices().peekable();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            if c == '\'' {
                if chars.peek().map(|(_, c)| *c) == Some('\'') {
                    chars.next();
                    path.push('\'');
                } else {
                    end = Some(i + 1);
                    break;
                }
            } else {
                path.push(c);
            }
        }
        let rest = &rest[end?..];
        let rest = rest.strip_suffix(POWERSHELL_EXIT).unwrap_or(rest);
        if !(rest.is_empty() || rest.starts_with(' ')) {
            return None;
        }
        let mut out = vec![path];
        out.extend(rest.split_whitespace().map(str::to_owned));
        return Some(out);
    }
    // cmd.exe's bare form (`C:\x\hookrun.exe fire …`): no quoting, and a
    // backslash is no escape there.
    let first = command.split_whitespace().next().unwrap_or_default();
    if is_absolute(first, System::Windows) && !command.contains('"') {
        return Some(command.split_whitespace().map(str::to_owned).collect());
    }
    shlex::split(command)
}

/// Whether `program` is an absolute path on `system`.
pub fn is_absolute(program: &str, system: System) -> bool {
    match system {
        System::Unix => program.starts_with('/'),
        System::Windows => {
            let b = program.as_bytes();
            (b.len() >= 3
                && b[0].is_ascii_alphabetic()
                && b[1] == b':'
                && (b[2] == b'\\' || b[2] == b'/'))
                || program.starts_with("\\\\")
        }
    }
}

/// A program word's file name without a Windows program extension
/// (`C:\x\hookrun.exe` → `hookrun`).
pub fn program_name(program: &str) -> &str {
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    match name.len().checked_sub(4) {
        Some(at) if name.is_char_boundary(at) && name[at..].eq_ignore_ascii_case(".exe") => {
            &name[..at]
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_host_on_windows_gets_the_form_its_shell_runs() {
        let exe = r"C:\Users\O'Neil\bin\hookrun.exe";
        let form = |host| {
            let launcher = launcher(host, System::Windows);
            program_word(exe, launcher).map(|p| finish(&format!("{p} fire --host x"), launcher))
        };
        assert_eq!(
            form(HostId::Gemini).unwrap(),
            r"& 'C:\Users\O''Neil\bin\hookrun.exe' fire --host x; exit $LASTEXITCODE"
        );
        assert_eq!(
            form(HostId::ClaudeCode).unwrap(),
            r#""C:/Users/O'Neil/bin/hookrun.exe" fire --host x"#
        );
        // cmd.exe cannot be handed a quoted path through Rust's quoting.
        let spaced = r"C:\Program Files\hookrun\hookrun.exe";
        assert!(
            program_word(spaced, launcher(HostId::Codex, System::Windows))
                .unwrap_err()
                .contains("cmd.exe")
        );
        assert_eq!(
            form(HostId::Codex).unwrap(),
            r"C:\Users\O'Neil\bin\hookrun.exe fire --host x"
        );
        let plain = r"C:\hookrun\hookrun.exe";
        assert_eq!(
            program_word(plain, launcher(HostId::Codex, System::Windows)).unwrap(),
            plain
        );
        // Unix keeps sh's quoting for every host.
        for host in [HostId::Gemini, HostId::Codex, HostId::Copilot] {
            assert_eq!(launcher(host, System::Unix), Launcher::Sh);
        }
        assert_eq!(
            program_word("/opt/my tools/hookrun", Launcher::Sh).unwrap(),
            "'/opt/my tools/hookrun'"
        );
    }

    #[test]
    fn every_form_reads_back_to_its_words() {
        let want = |program: &str| {
            vec![
                program.to_owned(),
                "fire".to_owned(),
                "--host".to_owned(),
                "gemini".to_owned(),
            ]
        };
        let exe = r"C:\Program Files\It's\hookrun.exe";
        for launcher in [Launcher::PowerShell, Launcher::GitBash, Launcher::Sh] {
            let command = finish(
                &format!(
                    "{} fire --host gemini",
                    program_word(exe, launcher).unwrap()
                ),
                launcher,
            );
            let program = if launcher == Launcher::GitBash {
                exe.replace('\\', "/")
            } else {
                exe.to_owned()
            };
            assert_eq!(words(&command), Some(want(&program)), "{command}");
        }
        assert_eq!(
            words(r"C:\hookrun\hookrun.exe fire --host gemini"),
            Some(want(r"C:\hookrun\hookrun.exe"))
        );
        assert_eq!(words("& 'x'y fire"), None);
        assert_eq!(words("& 'unclosed fire"), None);
    }

    #[test]
    fn clines_windows_hook_file_is_a_powershell_script_read_back_as_ours() {
        use crate::host::cline;
        let exe = std::path::Path::new(r"C:\Users\Me\bin\hookrun.exe");
        let base = crate::host::launch::fire_command(exe, HostId::Cline, System::Windows).unwrap();
        let launcher = launcher(HostId::Cline, System::Windows);
        let command = finish(&format!("{base} PreToolUse"), launcher);
        let text = cline::hook_file_on(&command, System::Windows);
        assert_eq!(
            cline::hook_file_name("PreToolUse", System::Windows),
            "PreToolUse.ps1"
        );
        assert_eq!(
            cline::hook_file_name("PreToolUse", System::Unix),
            "PreToolUse"
        );
        assert!(cline::is_ours(&text), "{text}");
        assert!(!text.contains("#!"), "no shebang for PowerShell: {text}");
        let read = cline::command_of(&text).unwrap();
        assert_eq!(
            read,
            r"& 'C:\Users\Me\bin\hookrun.exe' fire --host cline PreToolUse; exit $LASTEXITCODE"
        );
        assert!(crate::host::wiring::runs_hookrun(read));
        assert_eq!(
            crate::host::wiring::named_host(read).as_deref(),
            Some("cline")
        );
        // Unix keeps its bash script.
        let unix = cline::hook_file_on("'/bin/hookrun' fire --host cline PreToolUse", System::Unix);
        assert!(unix.starts_with("#!/usr/bin/env bash\n") && cline::is_ours(&unix));
    }

    #[test]
    fn windows_paths_are_absolute_and_named_without_exe() {
        assert!(is_absolute(r"C:\x\hookrun.exe", System::Windows));
        assert!(is_absolute("c:/x/hookrun.exe", System::Windows));
        assert!(is_absolute(r"\\server\share\hookrun.exe", System::Windows));
        assert!(!is_absolute("hookrun.exe", System::Windows));
        assert!(!is_absolute(r"C:\x", System::Unix));
        assert!(is_absolute("/usr/bin/hookrun", System::Unix));
        assert_eq!(program_name(r"C:\x\HookRun.EXE"), "HookRun");
        assert_eq!(program_name("/usr/bin/hookrun"), "hookrun");
        assert_eq!(program_name("C:/x/hookrun-native"), "hookrun-native");
    }
}
