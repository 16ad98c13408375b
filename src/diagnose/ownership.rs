//! Who else can change a settings file: one that another user can write
//! (group- or world-writable, or in a folder they can write) or that
//! another user owns can switch the guard off or add hooks that run as
//! you. Only `doctor` asks; a fire never pays for it.

use std::path::Path;

use super::{Check, Finding};
use crate::settings::model::FileState;
use crate::settings::{Settings, Severity};

pub fn check(settings: &Settings, out: &mut Vec<Finding>) {
    for file in &settings.files {
        if file.state == FileState::Missing {
            continue;
        }
        let path = file.path();
        let Ok(meta) = std::fs::metadata(path) else {
            continue;
        };
        let mut said = |message: String, fix: String| {
            out.push(Finding {
                check: Check::SettingsWritableByOthers,
                severity: Severity::Warning,
                file: path.to_path_buf(),
                json_path: String::new(),
                message,
                fix,
            });
        };
        let mode = crate::platform::mode_bits(&meta);
        if let Some(who) = writable_by_others(mode) {
            said(
                format!(
                    "is writable by {who} (mode {mode:04o}): they can change your hooks and rules"
                ),
                format!(
                    "chmod go-w {}",
                    crate::settings::load::shell_quote(&path.display().to_string())
                ),
            );
        }
        // root's files (managed settings) are fine.
        let owner = crate::platform::owner_and_self(&meta);
        if let Some((uid, _)) = owner.filter(|&(uid, me)| uid != me && uid != 0) {
            said(
                format!(
                    "is owned by another user (uid {uid}): they can change your hooks and rules"
                ),
                "take ownership of the file (chown), or keep your settings in a file you own"
                    .to_owned(),
            );
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            folder(dir, out, path);
        }
    }
}

/// A folder others can write (and that is not sticky, like `/tmp`) lets
/// them replace the file.
fn folder(dir: &Path, out: &mut Vec<Finding>, file: &Path) {
    let Ok(meta) = std::fs::metadata(dir) else {
        return;
    };
    let mode = crate::platform::mode_bits(&meta);
    let sticky = mode & 0o1000 != 0;
    if let Some(who) = writable_by_others(mode).filter(|_| !sticky) {
        out.push(Finding {
            check: Check::SettingsWritableByOthers,
            severity: Severity::Warning,
            file: file.to_path_buf(),
            json_path: String::new(),
            message: format!(
                "is in {}, which is writable by {who} (mode {mode:04o}): they can replace it",
                dir.display(),
            ),
            fix: format!(
                "chmod go-w {}",
                crate::settings::load::shell_quote(&dir.display().to_string())
            ),
        });
    }
}

fn writable_by_others(mode: u32) -> Option<&'static str> {
    match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => Some("its group and every user"),
        (true, false) => Some("its group"),
        (false, true) => Some("every user"),
        (false, false) => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn who_may_write() {
        assert_eq!(super::writable_by_others(0o644), None);
        assert_eq!(super::writable_by_others(0o664), Some("its group"));
        assert_eq!(super::writable_by_others(0o646), Some("every user"));
        assert_eq!(
            super::writable_by_others(0o666),
            Some("its group and every user")
        );
    }
}
