//! The platform seam holds: no code outside `src/platform/` chooses by
//! operating system, and the files outside it that still call Unix-only
//! interfaces are exactly the known ones (each one a step for the Windows
//! backend: move the call behind the seam, then strike the file here).

use std::path::{Path, PathBuf};

use crate::support::repo;

/// Items (tests, modules) of Unix behaviour: compiled on Unix only. The
/// one place in the tests that names an operating system, as
/// `src/platform/` is for the crate.
macro_rules! unix_only {
    ($($item:item)*) => { $( #[cfg(unix)] $item )* };
}
pub(crate) use unix_only;

/// Marks `path` executable (mode 0755 on Unix; on Windows what runs is
/// decided by the file's extension: nothing to do).
pub fn make_executable(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// A symlink at `link` to `target` (a file or folder).
pub fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, link).unwrap();
    #[cfg(windows)]
    {
        let (target, link) = (target.as_ref(), link.as_ref());
        let resolved = link
            .parent()
            .map_or(target.to_owned(), |dir| dir.join(target));
        if resolved.is_dir() {
            std::os::windows::fs::symlink_dir(target, link).unwrap();
        } else {
            std::os::windows::fs::symlink_file(target, link).unwrap();
        }
    }
}

/// Every `.rs` file under `dir`, as paths relative to the repository.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path.strip_prefix(repo()).unwrap().to_owned());
        }
    }
}

fn sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["src", "tests", "fuzz"] {
        if repo().join(dir).is_dir() {
            rust_files(&repo().join(dir), &mut files);
        }
    }
    files
        .into_iter()
        .map(|rel| {
            let text = std::fs::read_to_string(repo().join(&rel)).unwrap();
            (rel.to_string_lossy().replace('\\', "/"), text)
        })
        .collect()
}

fn in_platform_module(rel: &str) -> bool {
    rel.starts_with("src/platform/")
}

/// Configuration predicates that name an operating system or family. An
/// architecture (`target_arch`, `target_feature`, `target_pointer_width`)
/// is no platform: the SSE2 scan and the 64-bit fast path stay where they
/// are.
const OS_PREDICATES: [&str; 7] = [
    "target_os",
    "target_family",
    "target_vendor",
    "target_env",
    "cfg(unix",
    "cfg(windows",
    "cfg!(unix",
];

#[test]
fn no_code_outside_the_platform_module_chooses_by_operating_system() {
    let mut found = Vec::new();
    for (rel, text) in sources() {
        if in_platform_module(&rel) || rel == "tests/integration/platform.rs" {
            continue;
        }
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let normalised = code.replace(' ', "");
            if OS_PREDICATES
                .iter()
                .any(|needle| normalised.contains(needle))
                || normalised.contains("cfg!(windows")
                || normalised.contains("cfg(any(unix")
                || normalised.contains("cfg(not(unix")
                || normalised.contains("cfg(not(windows")
            {
                found.push(format!("{rel}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "choose by operating system only in src/platform/ (add an item to its \
         seam instead):\n{}",
        found.join("\n")
    );
}

/// The interfaces only Unix has, as named in code.
const UNIX_ONLY: [&str; 5] = [
    "std::os::unix",
    "std::os::fd",
    "nix::",
    "signal_hook",
    "tokio::net::unix",
];

/// The files outside `src/platform/` that still name a Unix-only interface:
/// tests of Unix behaviour (file modes, FIFOs, process groups, `sh`), each
/// inside `platform::unix_only!` so that Windows builds leave them out.
/// Each one moved behind the seam is struck from this list.
const STILL_UNIX_ONLY: &[&str] = &[
    "src/commands/record.rs",
    "src/exec/tests.rs",
    "src/fsafe.rs",
    "src/prompt/agent/tools.rs",
    "src/safewrite.rs",
    "src/settings/trust.rs",
    "tests/integration/cookbook.rs",
    "tests/integration/deny_rules.rs",
    "tests/integration/hosts.rs",
    "tests/integration/install.rs",
    "tests/integration/new_user.rs",
    "tests/integration/packaging.rs",
    "tests/integration/planted.rs",
    "tests/integration/selfguard.rs",
    "tests/integration/shell_differential.rs",
    "tests/integration/supervision.rs",
    "tests/integration/traps.rs",
];

#[test]
fn the_files_that_still_call_unix_only_interfaces_are_the_known_ones() {
    let using: Vec<String> = sources()
        .into_iter()
        .filter(|(rel, _)| !in_platform_module(rel) && rel != "tests/integration/platform.rs")
        .filter(|(_, text)| {
            text.lines().any(|line| {
                let code = line.split("//").next().unwrap_or_default();
                UNIX_ONLY.iter().any(|api| code.contains(api))
            })
        })
        .map(|(rel, _)| rel)
        .collect();
    let new: Vec<&String> = using
        .iter()
        .filter(|rel| !STILL_UNIX_ONLY.contains(&rel.as_str()))
        .collect();
    let gone: Vec<&&str> = STILL_UNIX_ONLY
        .iter()
        .filter(|rel| !using.iter().any(|u| u == **rel))
        .collect();
    assert!(
        new.is_empty(),
        "these files call Unix-only interfaces ({UNIX_ONLY:?}) outside src/platform/: \
         put the call behind the platform seam (src/platform/mod.rs), or, for a test of \
         Unix behaviour, add the file to STILL_UNIX_ONLY with the others: {new:?}"
    );
    assert!(
        gone.is_empty(),
        "these files no longer call Unix-only interfaces: strike them from STILL_UNIX_ONLY: {gone:?}"
    );
}

#[test]
fn every_backend_file_is_chosen_by_the_seam() {
    let seam = std::fs::read_to_string(repo().join("src/platform/mod.rs")).unwrap();
    for backend in ["linux", "macos", "windows"] {
        assert!(
            seam.contains(&format!("mod {backend};"))
                && seam.contains(&format!("use {backend} as os;")),
            "src/platform/mod.rs does not choose {backend}.rs"
        );
        assert!(repo().join(format!("src/platform/{backend}.rs")).is_file());
    }
    // Each backend answers the same questions: every item the seam takes
    // from `os` is defined in each backend file.
    let from_os: Vec<&str> = seam
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub(crate) use os::"))
        .map(|item| item.trim_end_matches(';'))
        .collect();
    assert!(from_os.len() >= 5, "{from_os:?}");
    for backend in ["linux", "macos", "windows"] {
        let text =
            std::fs::read_to_string(repo().join(format!("src/platform/{backend}.rs"))).unwrap();
        for item in &from_os {
            assert!(
                text.contains(&format!("fn {item}(")) || text.contains(&format!("mod {item} {{")),
                "src/platform/{backend}.rs does not define {item}"
            );
        }
    }
}
