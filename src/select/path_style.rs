//! How a system spells paths, and the one form path rules compare them in.
//!
//! On Unix a path is compared as written (after `.` and `..`). On Windows
//! the same file has many spellings: `C:\Users\Me\.ssh`, `c:/users/me/.SSH`,
//! `/c/Users/me/.ssh` (Git for Windows' bash), `\\?\C:\Users\me\.ssh`,
//! `C:\Users\me\.ssh.` (Windows drops trailing dots and spaces) and
//! `C:\Users\me\.ssh\id_rsa::$DATA` (the file's own data stream). Every one
//! is brought to one *compare form* before a rule looks at it: POSIX
//! separators, the drive as the first folder (`/c/users/me/.ssh`, the form
//! Claude Code documents for its own rules), lower case, trailing dots and
//! spaces and stream names dropped. A rule's pattern is brought to the same
//! form, so no spelling of a path walks around a deny rule, and an allow
//! rule names exactly the files its pattern names on a system that ignores
//! case.
//!
//! Everything here is pure: the style is a value (chosen for the running
//! system by `platform::WINDOWS_PATHS`), so the Windows forms are tested on
//! every system.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

/// How the system hookrun runs on spells paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStyle {
    /// `/` only, case matters (Linux, macOS).
    Posix,
    /// `\` or `/`, drive letters, case ignored (Windows).
    Windows,
}

impl PathStyle {
    /// The style of the running system.
    pub fn native() -> PathStyle {
        if crate::platform::WINDOWS_PATHS {
            PathStyle::Windows
        } else {
            PathStyle::Posix
        }
    }

    /// An absolute path of this system (the event's cwd, a resolved file)
    /// in compare form.
    pub(crate) fn key(self, path: &Path) -> Cow<'_, Path> {
        match self {
            PathStyle::Posix => Cow::Borrowed(path),
            PathStyle::Windows => {
                Cow::Owned(PathBuf::from(windows_key(&path.to_string_lossy(), "/")))
            }
        }
    }

    /// `path` as a call wrote it, relative to `dir` (a path of this
    /// system) when it is relative, in compare form. `~` is not expanded
    /// here.
    pub(crate) fn absolute(self, dir: &Path, path: &str) -> PathBuf {
        match self {
            PathStyle::Posix => normalize(&dir.join(path)),
            PathStyle::Windows => {
                let base = windows_key(&dir.to_string_lossy(), "/");
                PathBuf::from(windows_key(path, &base))
            }
        }
    }

    /// A path in compare form as this system opens it (the file system
    /// ignores case on Windows, so the lower-cased form opens the file).
    pub(crate) fn opened(self, key: &Path) -> Cow<'_, Path> {
        match self {
            PathStyle::Posix => Cow::Borrowed(key),
            PathStyle::Windows => Cow::Owned(PathBuf::from(windows_native(&key.to_string_lossy()))),
        }
    }

    /// A path word of a call (after the shell's quoting) with its
    /// separators as `/`, so its literal folder is found before a glob:
    /// on Windows `\` is a separator and the `\\?\` of a verbatim path no
    /// glob.
    pub(crate) fn plain_word(self, word: &str) -> Cow<'_, str> {
        match self {
            PathStyle::Posix => Cow::Borrowed(word),
            PathStyle::Windows => {
                let text = word.replace('\\', "/");
                // A share keeps its leading backslashes when its server's
                // name is one letter: `//c/x` alone reads as the drive.
                let share = |rest: &str| match rest.split('/').next() {
                    Some(server) if is_drive(server) => format!(r"\\{rest}"),
                    _ => format!("//{rest}"),
                };
                for verbatim in ["//?/", "//./"] {
                    if let Some(rest) = text.strip_prefix(verbatim) {
                        return Cow::Owned(match rest.get(..4) {
                            Some(unc) if unc.eq_ignore_ascii_case("unc/") => share(&rest[4..]),
                            _ => rest.to_owned(),
                        });
                    }
                }
                match text.strip_prefix("//") {
                    Some(rest) if word.starts_with(r"\\") => Cow::Owned(share(rest)),
                    _ => Cow::Owned(text),
                }
            }
        }
    }

    /// A rule's path pattern in this style's compare form: `C:\x` and
    /// `c:/x` become `//c/x`, `\` a separator, lower case.
    pub(crate) fn pattern(self, spec: &str) -> Cow<'_, str> {
        match self {
            PathStyle::Posix => Cow::Borrowed(spec),
            PathStyle::Windows => {
                let unc = spec.starts_with(r"\\");
                let spec = spec.replace('\\', "/");
                // `\\c\share\**`: the machine `c`, as in a call's path.
                let spec = match spec.strip_prefix("//").and_then(|s| s.split_once('/')) {
                    Some((server, shared)) if unc && is_drive(server) => {
                        format!("//{}/{shared}", one_letter_server(server))
                    }
                    _ => spec,
                };
                let spec = match drive_of(&spec) {
                    Some((drive, rest)) if rest.is_empty() || rest.starts_with('/') => {
                        format!("//{drive}/{}", rest.trim_start_matches('/'))
                    }
                    _ => spec,
                };
                Cow::Owned(spec.to_lowercase())
            }
        }
    }
}

/// `X:rest` → (`x`, `rest`).
fn drive_of(path: &str) -> Option<(char, &str)> {
    let bytes = path.as_bytes();
    (bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
        .then(|| (char::from(bytes[0].to_ascii_lowercase()), &path[2..]))
}

/// The compare-form component of a share server whose name is one letter
/// (`\\c\share`): `c:`, which no drive (`c`) and no other server name (a
/// name holds no `:`) can be, so a rule naming the drive `C:` never
/// matches a file of the machine `c`, and the reverse.
fn one_letter_server(server: &str) -> String {
    format!("{}:", server.to_lowercase())
}

/// Whether a compare-form component is a drive (`c`).
fn is_drive(component: &str) -> bool {
    component.len() == 1 && component.as_bytes()[0].is_ascii_alphabetic()
}

/// A Windows path in compare form; `base` (itself in compare form) is the
/// folder a relative path starts from.
pub(crate) fn windows_key(path: &str, base: &str) -> String {
    let mut text = path.replace('\\', "/");
    // Written with backslashes, `\\c\share` is a share of the machine `c`,
    // never the drive `C:` (see [`one_letter_server`]).
    let mut unc = path.starts_with(r"\\");
    // `\\?\C:\x`, `\\.\C:\x`, `\\?\UNC\server\share\x`.
    for verbatim in ["//?/", "//./"] {
        if let Some(rest) = text.strip_prefix(verbatim) {
            (text, unc) = match rest.get(..4) {
                Some(prefix) if prefix.eq_ignore_ascii_case("unc/") => {
                    (format!("//{}", &rest[4..]), true)
                }
                _ => (rest.to_owned(), false),
            };
            break;
        }
    }
    let base_parts: Vec<&str> = base.split('/').filter(|c| !c.is_empty()).collect();
    let base_drive = base_parts.first().copied().filter(|c| is_drive(c));
    let mut parts: Vec<String> = Vec::new();
    let rest: &str;
    if let Some((drive, after)) = drive_of(&text) {
        if let Some(after) = after.strip_prefix('/') {
            rest = after;
        } else {
            // `C:x`: relative to the drive's current folder, known only
            // when it is the base's drive.
            if base_drive == Some(&*drive.to_string()) {
                parts.extend(base_parts.iter().map(|c| (*c).to_owned()));
            } else {
                parts.push(drive.to_string());
            }
            rest = after;
        }
        if parts.is_empty() {
            parts.push(drive.to_string());
        }
    } else if let Some(after) = text.strip_prefix("//") {
        // `//c/x` (a drive, as rules write it) or `\\server\share\x`.
        rest = match after.split_once('/') {
            Some((server, shared)) if unc && is_drive(server) => {
                parts.push(one_letter_server(server));
                shared
            }
            None if unc && is_drive(after) => {
                parts.push(one_letter_server(after));
                ""
            }
            _ => after,
        };
    } else if let Some(after) = text.strip_prefix('/') {
        // `/c/x` is Git for Windows' bash's spelling of `C:\x`; another
        // rooted path is on the base's drive.
        let first = after.split('/').next().unwrap_or_default();
        if !is_drive(first) {
            if let Some(drive) = base_drive {
                parts.push(drive.to_owned());
            }
        }
        rest = after;
    } else {
        parts.extend(base_parts.iter().map(|c| (*c).to_owned()));
        rest = &text;
    }
    for component in rest.split('/') {
        // `name:stream` names a stream of `name` (`::$DATA` is its data);
        // trailing dots and spaces are dropped by Windows when it opens.
        let component = component.split(':').next().unwrap_or_default();
        let component = if component == ".." {
            component
        } else {
            component.trim_end_matches(['.', ' '])
        };
        match component {
            "" => {}
            ".." => {
                // Never above the drive.
                let floor = usize::from(parts.first().is_some_and(|c| is_drive(c)));
                if parts.len() > floor {
                    parts.pop();
                }
            }
            name => {
                parts.push(name.to_lowercase());
            }
        }
    }
    format!("/{}", parts.join("/"))
}

/// A compare-form path as Windows opens it: `/c/x` → `c:/x`,
/// `/server/share/x` → `//server/share/x`.
fn windows_native(key: &str) -> String {
    let rest = key.trim_start_matches('/');
    let (first, after) = rest.split_once('/').unwrap_or((rest, ""));
    if is_drive(first) {
        format!("{first}:/{after}")
    } else if let Some(server) = first.strip_suffix(':').filter(|s| is_drive(s)) {
        format!("//{server}/{after}")
    } else {
        format!("//{rest}")
    }
}

/// Resolve `.` and `..` by text. `..` above the root stays at the root, as
/// the kernel does.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let popped =
                    matches!(out.components().next_back(), Some(Component::Normal(_))) && out.pop();
                if !popped && !out.has_root() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_is_lexical() {
        let cases = [
            ("/a/b/../c/./d", "/a/c/d"),
            ("/../x", "/x"),
            ("a/../../b", "../b"),
            ("/", "/"),
        ];
        for (input, expected) in cases {
            assert_eq!(normalize(Path::new(input)), Path::new(expected), "{input}");
        }
    }

    #[test]
    fn every_spelling_of_a_windows_path_has_one_compare_form() {
        let base = "/c/work/proj";
        let want = "/c/users/me/.ssh/id_rsa";
        for spelling in [
            r"C:\Users\ME\.SSH\id_rsa",
            "c:/users/me/.ssh/id_rsa",
            "C:/Users/me/.ssh\\id_rsa",
            "/c/Users/me/.ssh/id_rsa",
            "//c/Users/me/.ssh/id_rsa",
            r"\\?\C:\Users\me\.ssh\id_rsa",
            r"\\.\C:\Users\me\.ssh\id_rsa",
            r"C:\Users\me\.ssh.\id_rsa",
            r"C:\Users\me\.ssh \id_rsa. ",
            r"C:\Users\me\.ssh\id_rsa::$DATA",
            r"C:\Users\me\.ssh\x\..\id_rsa",
            r"C:\Users\me\.\.ssh\\id_rsa",
            r"..\..\Users\me\.ssh\id_rsa",
            r"\Users\me\.ssh\id_rsa",
            r"C:..\..\Users\me\.ssh\id_rsa",
        ] {
            assert_eq!(windows_key(spelling, base), want, "{spelling}");
        }
    }

    #[test]
    fn other_drives_shares_and_edges() {
        let base = "/c/work";
        assert_eq!(windows_key(r"D:\x", base), "/d/x");
        assert_eq!(windows_key("d:", base), "/d");
        assert_eq!(windows_key(r"D:x", base), "/d/x");
        assert_eq!(windows_key(r"\\server\share\x", base), "/server/share/x");
        assert_eq!(
            windows_key(r"\\?\UNC\server\share\x", base),
            "/server/share/x"
        );
        // A one-letter machine's share is not the drive of that letter.
        assert_eq!(windows_key(r"\\c\share\x", base), "/c:/share/x");
        assert_eq!(windows_key(r"\\?\UNC\C\share\x", base), "/c:/share/x");
        assert_eq!(windows_key(r"\\c", base), "/c:");
        assert_eq!(windows_native("/c:/share/x"), "//c/share/x");
        assert_eq!(PathStyle::Windows.pattern(r"\\C\Share\**"), "//c:/share/**");
        // `..` never climbs above the drive.
        assert_eq!(windows_key(r"C:\..\..\x", base), "/c/x");
        assert_eq!(windows_key("x", base), "/c/work/x");
        assert_eq!(windows_key(".", base), "/c/work");
        // A path with no drive and no base keeps its folders.
        assert_eq!(windows_key(r"\tmp\x", "/"), "/tmp/x");
    }

    #[test]
    fn compare_form_opens_the_same_file() {
        assert_eq!(windows_native("/c/users/me"), "c:/users/me");
        assert_eq!(windows_native("/c"), "c:/");
        assert_eq!(windows_native("/server/share/x"), "//server/share/x");
        let style = PathStyle::Windows;
        assert_eq!(
            style.opened(Path::new("/d/x/y")).as_ref(),
            Path::new("d:/x/y")
        );
        assert_eq!(
            PathStyle::Posix.opened(Path::new("/d/x")).as_ref(),
            Path::new("/d/x")
        );
    }

    #[test]
    fn patterns_are_brought_to_the_compare_form() {
        let style = PathStyle::Windows;
        assert_eq!(style.pattern(r"C:\Users\**"), "//c/users/**");
        assert_eq!(style.pattern("c:/x/*.RS"), "//c/x/*.rs");
        assert_eq!(style.pattern("C:"), "//c/");
        assert_eq!(style.pattern("//C/x"), "//c/x");
        assert_eq!(style.pattern(r"~\.SSH\**"), "~/.ssh/**");
        assert_eq!(style.pattern("/src/**"), "/src/**");
        assert_eq!(PathStyle::Posix.pattern(r"C:\X"), r"C:\X");
    }

    #[test]
    fn posix_paths_are_compared_as_written() {
        let style = PathStyle::Posix;
        assert_eq!(
            style.absolute(Path::new("/p"), "../Q/./x"),
            Path::new("/Q/x")
        );
        assert_eq!(style.key(Path::new("/A/b")).as_ref(), Path::new("/A/b"));
        assert_eq!(
            PathStyle::Windows.absolute(Path::new(r"C:\Work"), r"Src\Main.rs"),
            Path::new("/c/work/src/main.rs")
        );
    }
}
