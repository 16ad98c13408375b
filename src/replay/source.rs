//! Which files the SOURCEs name, and reading each one.
//!
//! A file is read as given; a folder means every `*.jsonl` below it
//! (Claude Code keeps one per session, and subagents' turns in files of
//! their own), in name order. Whether a file is a transcript or a hookrun
//! audit log is decided by its first record.

use std::io::{BufRead, BufReader, Seek as _, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::{Replayed, Tally, audit, transcript};

/// Expands SOURCEs into files; a SOURCE that does not exist is an error
/// naming it.
pub fn expand(sources: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for source in sources {
        let named = || format!("source {}", source.display());
        let meta = std::fs::metadata(source).with_context(named)?;
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(source, &mut found).with_context(named)?;
            found.sort();
            files.extend(found);
        } else {
            files.push(source.clone());
        }
    }
    Ok(files)
}

/// `*.jsonl` below `dir`; symbolic links to folders are not followed (no
/// loops). Every other `*.jsonl` is listed, whatever it is: [`read_file`]
/// reads only regular files (a FIFO named `x.jsonl` would wait for a
/// writer forever) and names each one it refuses, so nothing is skipped
/// without a word.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "jsonl")
            && !(kind.is_symlink() && std::fs::metadata(&path).is_ok_and(|m| m.is_dir()))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Transcript,
    AuditLog,
}

/// Reads one file, handing every rebuilt event to `sink`. An unreadable
/// file is one unreadable record (line 0) naming why.
pub fn read_file(
    index: usize,
    path: &Path,
    tally: &mut Tally,
    sink: &mut dyn FnMut(Replayed),
) -> Option<Kind> {
    let fallback = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let result = (|| -> std::io::Result<Kind> {
        // A FIFO named on the command line is refused, not waited on.
        let mut file = crate::fsafe::open_read(path, crate::fsafe::Follow::Yes)?;
        let kind = detect(&mut BufReader::new(&mut file))?;
        file.seek(SeekFrom::Start(0))?;
        let reader = BufReader::with_capacity(256 * 1024, file);
        match kind {
            Kind::AuditLog => audit::read_all(index, reader, &fallback, tally, sink)?,
            Kind::Transcript => transcript::Reader::new(
                index,
                path.display().to_string(),
                fallback.clone(),
                tally,
                &mut *sink,
            )
            .read_all(reader)?,
        }
        Ok(kind)
    })();
    match result {
        Ok(kind) => Some(kind),
        Err(err) => {
            tally.unreadable(index, 0, format!("cannot be read: {err}"));
            None
        }
    }
}

/// The kind of the first non-empty line (a transcript when it is not an
/// audit-log line, so its problems are reported by the transcript reader).
fn detect(input: &mut impl BufRead) -> std::io::Result<Kind> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(Kind::Transcript);
        }
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let value: serde_json::Value =
            serde_json::from_slice(&buf).unwrap_or(serde_json::Value::Null);
        return Ok(if audit::is_audit_line(&value) {
            Kind::AuditLog
        } else {
            Kind::Transcript
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_searched_and_missing_sources_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("p/s1/subagents")).unwrap();
        std::fs::write(dir.path().join("p/b.jsonl"), "").unwrap();
        std::fs::write(dir.path().join("p/a.jsonl"), "").unwrap();
        std::fs::write(dir.path().join("p/s1/subagents/agent-x.jsonl"), "").unwrap();
        std::fs::write(dir.path().join("p/notes.txt"), "").unwrap();
        let files = expand(&[dir.path().to_path_buf()]).unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            ["p/a.jsonl", "p/b.jsonl", "p/s1/subagents/agent-x.jsonl"]
        );
        let err = crate::exit::error_line(&expand(&[dir.path().join("nope")]).unwrap_err());
        assert!(err.starts_with("source ") && err.contains("nope"), "{err}");
        assert!(
            err.ends_with("No such file or directory (os error 2)"),
            "{err}"
        );
    }
}
