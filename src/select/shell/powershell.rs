//! PowerShell's reading of a command name: case-insensitive, through its
//! aliases (`ri`, `del`, `iex`…) and module qualification
//! (`Microsoft.PowerShell.Management\Remove-Item`), and the command lines
//! handed to it (`pwsh -c`, `powershell -Command`, `-EncodedCommand`,
//! `Invoke-Expression`). Each part whose command is a cmdlet gets a view
//! with the cmdlet's own name, so `PowerShell(Remove-Item *)` sees
//! `remove-item x`, `ri x` and `del x` alike.

use super::CommandPart;
use super::part::{cannot_judge, hands_over};
use super::word::Word;

/// Cmdlets rules name, with their built-in aliases (lowercase).
const CMDLETS: &[(&str, &[&str])] = &[
    ("Remove-Item", &["ri", "rm", "rmdir", "del", "erase", "rd"]),
    ("Invoke-Expression", &["iex"]),
    ("Get-ChildItem", &["ls", "dir", "gci"]),
    ("Copy-Item", &["cp", "copy", "cpi"]),
    ("Move-Item", &["mv", "move", "mi"]),
    ("Rename-Item", &["ren", "rni"]),
    ("New-Item", &["ni"]),
    ("Set-Item", &["si"]),
    ("Set-Content", &["sc"]),
    ("Add-Content", &["ac"]),
    ("Clear-Content", &["clc"]),
    ("Get-Content", &["cat", "gc", "type"]),
    ("Set-Location", &["cd", "sl", "chdir"]),
    ("Invoke-WebRequest", &["iwr", "curl", "wget"]),
    ("Invoke-RestMethod", &["irm"]),
    ("Start-Process", &["start", "saps"]),
    ("Stop-Process", &["kill", "spps"]),
    ("Get-Process", &["ps", "gps"]),
    ("Invoke-Command", &["icm"]),
    ("Invoke-Item", &["ii"]),
    ("ForEach-Object", &["%", "foreach"]),
    ("Where-Object", &["?", "where"]),
    ("Write-Output", &["echo", "write"]),
    ("Out-File", &[]),
    ("Set-ExecutionPolicy", &[]),
];

/// PowerShell's programs.
const POWERSHELLS: &[&str] = &["pwsh", "powershell", "pwsh.exe", "powershell.exe"];

/// The cmdlet `head` names (by name, alias or module-qualified name, in
/// any case), if it is one of [`CMDLETS`].
fn cmdlet(head: &Word) -> Option<&'static str> {
    cmdlet_named(&head.raw)
}

/// [`cmdlet`] for a word as text: the view this reader adds for a part
/// whose command is `raw` starts with the returned name. A reader of a
/// part's views that reads PowerShell itself skips that view.
pub fn cmdlet_named(raw: &str) -> Option<&'static str> {
    let raw = raw.trim_matches(['\'', '"']);
    let name = raw
        .rsplit(['\\', '/'])
        .next()
        .unwrap_or(raw)
        .to_ascii_lowercase();
    CMDLETS
        .iter()
        .find(|(cmdlet, aliases)| {
            cmdlet.eq_ignore_ascii_case(&name) || aliases.contains(&name.as_str())
        })
        .map(|(cmdlet, _)| *cmdlet)
}

/// Adds what PowerShell runs for the view at `head` (see the module doc).
pub(super) fn powershell_view(head: &Word, args: &[&Word], part: &mut CommandPart) {
    // PowerShell's call operators: `. Remove-Item x`, `& Remove-Item x`.
    if matches!(head.value.as_str(), "." | "&") {
        if let Some((next, rest)) = args.split_first() {
            let mut view = vec![next.value.clone()];
            view.extend(rest.iter().map(|w| w.hole.clone()));
            part.seen_through.push(view.join(" "));
            powershell_view(next, rest, part);
        }
        return;
    }
    if let Some(cmdlet) = cmdlet(head) {
        let mut view = vec![cmdlet.to_owned()];
        view.extend(args.iter().map(|w| w.hole.clone()));
        part.seen_through.push(view.join(" "));
        if cmdlet == "Invoke-Expression" {
            let line: Vec<&str> = args.iter().map(|w| w.value.as_str()).collect();
            hands_over(
                part,
                "Invoke-Expression",
                line.join(" "),
                args.iter().any(|w| w.dynamic),
            );
        }
    }
    let name = head
        .value
        .rsplit(['\\', '/'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if POWERSHELLS.contains(&name.as_str()) {
        powershell_program(&name, args, part);
    }
}

/// Whether `option` (without its dash) is an abbreviation PowerShell
/// accepts of `full` (at least `shortest` letters).
fn abbreviates(option: &str, full: &str, shortest: usize) -> bool {
    let option = option.to_ascii_lowercase();
    option.len() >= shortest && full.starts_with(&option)
}

/// `pwsh`/`powershell` and their options: where their commands come from.
fn powershell_program(name: &str, args: &[&Word], part: &mut CommandPart) {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let v = arg.value.as_str();
        let Some(option) = v.strip_prefix('-').or_else(|| v.strip_prefix('/')) else {
            // A first positional word: a script for `pwsh`, a command for
            // Windows PowerShell; read as a command, the stricter side.
            let rest: Vec<&str> = args[i..].iter().map(|w| w.value.as_str()).collect();
            hands_over(
                part,
                name,
                rest.join(" "),
                args[i..].iter().any(|w| w.dynamic),
            );
            return;
        };
        if abbreviates(option, "command", 1) {
            let rest: Vec<&str> = args[i + 1..].iter().map(|w| w.value.as_str()).collect();
            if rest.is_empty() {
                part.reads_commands.get_or_insert_with(|| name.to_owned());
            } else {
                let expanded = args[i + 1..].iter().any(|w| w.dynamic);
                hands_over(part, name, rest.join(" "), expanded);
            }
            return;
        }
        if abbreviates(option, "encodedcommand", 1) || option.eq_ignore_ascii_case("ec") {
            match args.get(i + 1).and_then(|w| decode(&w.value)) {
                Some(command) => hands_over(part, name, command, false),
                None => cannot_judge(
                    part,
                    format!(
                        "`{name} {v}` runs an encoded command hookrun cannot decode; write the command itself"
                    ),
                ),
            }
            return;
        }
        if abbreviates(option, "file", 1) {
            return;
        }
        let takes_value = [
            "executionpolicy",
            "workingdirectory",
            "windowstyle",
            "outputformat",
            "inputformat",
            "configurationname",
            "settingsfile",
            "version",
            "custompipename",
        ]
        .iter()
        .any(|full| abbreviates(option, full, 2));
        i += if takes_value { 2 } else { 1 };
    }
    // No command and no script: a shell the agent types into.
    part.reads_commands.get_or_insert_with(|| name.to_owned());
}

/// `-EncodedCommand`'s text: base64 of UTF-16LE.
fn decode(text: &str) -> Option<String> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .ok()?;
    if bytes.len() % 2 != 0 {
        return None;
    }
    let units: Vec<u16> = bytes
        .as_chunks::<2>()
        .0
        .iter()
        .map(|pair| u16::from_le_bytes(*pair))
        .collect();
    String::from_utf16(&units).ok()
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn encoded_commands_are_utf16le_base64() {
        assert_eq!(
            decode("UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAeAA=").as_deref(),
            Some("Remove-Item x")
        );
        assert_eq!(decode("not base64!"), None);
    }
}
