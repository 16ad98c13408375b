//! How a path is shown to a person: relative to the current directory when
//! it is below it. A leaf, so every layer (the commands, replay's summary)
//! shows paths alike without reaching up into `commands`.

use std::path::Path;

/// A path for display: relative to the current directory when it is below
/// it, as written otherwise.
pub fn display_path(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}
