//! Generated artefacts (STYLE rule 9): shell completions, man pages, the
//! settings JSON Schema, the tables of `docs/protocol.md`, the check table
//! of `docs/diagnostics.md`, the fixture files quoted in
//! `docs/cookbook.md` and the names hookrun knows
//! (`tools/hosts/hookrun-knows.json`, for the drift check), all rendered from the
//! code.
//!
//! Owns rendering only: it reads committed files (a document whose marked
//! sections it fills, a fixture it quotes) but never writes one. The test
//! `tests/integration/generated.rs` compares every artefact with the
//! committed file and, under `HOOKRUN_UPDATE_GENERATED=1` (`just gen`),
//! writes it.

pub mod completions;
pub(crate) mod diagnostics;
pub(crate) mod knows;
pub mod man;
pub(crate) mod protocol;
pub(crate) mod schema;

use std::fmt;
use std::path::{Path, PathBuf};

/// How an artefact's content is made.
pub enum Content {
    /// The whole file.
    Whole(String),
    /// A hand-written document with generated sections, each between
    /// `<!-- generated:NAME -->` and `<!-- end generated -->`. Every section
    /// of the document must be in this list and every listed section in the
    /// document.
    Sections(Vec<(&'static str, String)>),
    /// A hand-written document whose `<!-- generated:file PATH -->` sections
    /// quote the file at PATH (relative to the repository root) in a fenced
    /// block, so a document shows exactly the files its tests run.
    Quotes,
}

/// One generated file.
pub struct Artefact {
    /// Relative to the repository root.
    pub path: PathBuf,
    pub content: Content,
}

/// Why an artefact could not be rendered.
#[derive(Debug)]
pub enum GenerateError {
    /// A document with generated sections is missing.
    Missing(PathBuf),
    /// A marker is missing, unknown, unterminated or repeated, or a quoted
    /// file cannot be read.
    Document { file: PathBuf, message: String },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Missing(file) => write!(
                f,
                "{} is missing: it holds hand-written prose around generated sections, so it cannot be generated from nothing",
                file.display()
            ),
            GenerateError::Document { file, message } => {
                write!(f, "{}: {message}", file.display())
            }
        }
    }
}

impl std::error::Error for GenerateError {}

/// The folders whose every file is generated: a file there that no
/// artefact produces is stale (a removed subcommand's man page).
pub const GENERATED_DIRS: &[&str] = &["completions", "docs/man"];

/// Every generated file, in a stable order.
pub fn artefacts() -> Vec<Artefact> {
    let mut all = Vec::new();
    for (file_name, text) in completions::all() {
        all.push(Artefact {
            path: Path::new("completions").join(file_name),
            content: Content::Whole(text),
        });
    }
    for (file_name, text) in man::all() {
        all.push(Artefact {
            path: Path::new("docs/man").join(file_name),
            content: Content::Whole(text),
        });
    }
    all.push(Artefact {
        path: PathBuf::from(schema::PATH),
        content: Content::Whole(schema::settings_schema_text()),
    });
    all.push(Artefact {
        path: PathBuf::from("docs/protocol.md"),
        content: Content::Sections(protocol::sections()),
    });
    all.push(Artefact {
        path: PathBuf::from("docs/diagnostics.md"),
        content: Content::Sections(diagnostics::sections()),
    });
    all.push(Artefact {
        path: PathBuf::from("docs/cookbook.md"),
        content: Content::Quotes,
    });
    all.push(Artefact {
        path: PathBuf::from("tools/hosts/hookrun-knows.json"),
        content: Content::Whole(knows::text()),
    });
    all
}

impl Artefact {
    /// The file as it should be, given the repository root (documents with
    /// sections are read from there, their prose kept as it is).
    pub fn render(&self, root: &Path) -> Result<String, GenerateError> {
        let path = root.join(&self.path);
        let read_document = || {
            std::fs::read_to_string(&path).map_err(|_| GenerateError::Missing(self.path.clone()))
        };
        match &self.content {
            Content::Whole(text) => Ok(text.clone()),
            Content::Sections(sections) => {
                let document = read_document()?;
                fill_sections(&document, |name| {
                    sections
                        .iter()
                        .find(|(known, _)| *known == name)
                        .map(|(_, body)| Ok(body.clone()))
                })
                .and_then(|(text, used)| {
                    match sections.iter().find(|(name, _)| !used.contains(name)) {
                        Some((name, _)) => Err(format!(
                            "has no `<!-- generated:{name} -->` section (add the marker pair where the table belongs)"
                        )),
                        None => Ok(text),
                    }
                })
                .map_err(|message| GenerateError::Document {
                    file: self.path.clone(),
                    message,
                })
            }
            Content::Quotes => {
                let document = read_document()?;
                fill_sections(&document, |name| {
                    let quoted = Path::new(name.strip_prefix("file ")?.trim());
                    Some(
                        std::fs::read_to_string(root.join(quoted))
                            .map(|text| fenced(quoted, &text))
                            .map_err(|err| format!("cannot quote {} ({err})", quoted.display())),
                    )
                })
                .map(|(text, _)| text)
                .map_err(|message| GenerateError::Document {
                    file: self.path.clone(),
                    message,
                })
            }
        }
    }
}

const BEGIN: &str = "<!-- generated:";
const END: &str = "<!-- end generated -->";

/// Replaces the body of every marked section with what `body_of` gives for
/// its name (`None`: an unknown section, an error). Returns the document and
/// the names filled, in order.
fn fill_sections(
    document: &str,
    mut body_of: impl FnMut(&str) -> Option<Result<String, String>>,
) -> Result<(String, Vec<&str>), String> {
    let mut out = String::with_capacity(document.len());
    let mut used: Vec<&str> = Vec::new();
    let mut rest = document;
    while let Some(start) = rest.find(BEGIN) {
        let after_begin = &rest[start + BEGIN.len()..];
        let close = after_begin
            .find("-->")
            .ok_or_else(|| format!("unterminated marker `{BEGIN}…`"))?;
        let name = after_begin[..close].trim();
        if used.contains(&name) {
            return Err(format!("section `{name}` appears twice"));
        }
        let body = match body_of(name) {
            Some(body) => body?,
            None => return Err(format!("unknown generated section `{name}`")),
        };
        let header_end = start + BEGIN.len() + close + "-->".len();
        let end = rest[header_end..]
            .find(END)
            .ok_or_else(|| format!("section `{name}` has no `{END}`"))?;
        out.push_str(&rest[..header_end]);
        out.push('\n');
        out.push_str(body.trim_end_matches('\n'));
        out.push('\n');
        out.push_str(END);
        rest = &rest[header_end + end + END.len()..];
        used.push(name);
    }
    out.push_str(rest);
    Ok((out, used))
}

/// A file in a fenced block, its language from its extension.
fn fenced(path: &Path, text: &str) -> String {
    let language = match path.extension().and_then(|e| e.to_str()) {
        Some("json") => "json",
        Some("sh") => "sh",
        Some("toml") => "toml",
        _ => "",
    };
    let fence = if text.contains("```") { "````" } else { "```" };
    format!(
        "{fence}{language}\n{}\n{fence}",
        text.trim_end_matches('\n')
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_filled_and_prose_kept() {
        let doc = "# T\n\nprose\n<!-- generated:a -->\nold\n<!-- end generated -->\nmore\n";
        let (text, used) = fill_sections(doc, |name| {
            (name == "a").then(|| Ok("| new |\n".to_owned()))
        })
        .unwrap();
        assert_eq!(
            text,
            "# T\n\nprose\n<!-- generated:a -->\n| new |\n<!-- end generated -->\nmore\n"
        );
        assert_eq!(used, ["a"]);
        // Idempotent.
        let (again, _) = fill_sections(&text, |_| Some(Ok("| new |\n".to_owned()))).unwrap();
        assert_eq!(again, text);
    }

    #[test]
    fn bad_markers_are_errors() {
        let any = |_: &str| Some(Ok(String::new()));
        assert!(fill_sections("<!-- generated:a -->\nno end", any).is_err());
        assert!(fill_sections("<!-- generated:a", any).is_err());
        let twice = "<!-- generated:a -->\n<!-- end generated -->\n<!-- generated:a -->\n<!-- end generated -->";
        assert!(fill_sections(twice, any).is_err());
        assert!(fill_sections("<!-- generated:zz -->\n<!-- end generated -->", |_| None).is_err());
    }

    #[test]
    fn quotes_are_fenced_by_extension() {
        assert_eq!(
            fenced(Path::new("a/settings.json"), "{}\n"),
            "```json\n{}\n```"
        );
        assert_eq!(fenced(Path::new("x.sh"), "echo\n"), "```sh\necho\n```");
    }
}
