//! What one fire says besides its decision, in the order it is said:
//! warnings for the person at the host (`systemMessage`) and notes for
//! the report and the log. One value, handed from stage to stage and
//! added to at the end, so the order is the order of the pipeline.

/// Warnings and notes, each in the order they were said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notices {
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
}

impl Notices {
    pub fn new(warnings: Vec<String>, notes: Vec<String>) -> Notices {
        Notices { warnings, notes }
    }

    /// A warning, after those said already.
    pub fn warn(&mut self, warning: impl Into<String>) {
        self.warnings.push(warning.into());
    }

    /// A note, after those said already.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// `other`'s warnings after these warnings, its notes after these
    /// notes.
    pub fn append(&mut self, other: &mut Notices) {
        self.warnings.append(&mut other.warnings);
        self.notes.append(&mut other.notes);
    }

    /// Copies of `other`'s warnings and notes, after what is here.
    pub fn extend_from(&mut self, other: &Notices) {
        self.warnings.extend_from_slice(&other.warnings);
        self.notes.extend_from_slice(&other.notes);
    }

    pub fn is_empty(&self) -> bool {
        self.warnings.is_empty() && self.notes.is_empty()
    }
}
