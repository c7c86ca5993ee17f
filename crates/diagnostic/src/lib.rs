//! A problem found in a text, with its position: what every dxref parser (the SM4/5
//! and SM1–3 assemblers, the listing header readers) reports, and what the command line
//! prints with a caret under the culprit.

use std::fmt;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// A problem in the text, with its position (1-based line and column, in characters)
/// and the length of the culprit for a caret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub line: usize,
    pub column: usize,
    pub length: usize,
    pub message: String,
    /// What would have been accepted there, if that can be said.
    pub expected: Option<String>,
    /// The file the position is in, when the text came from several (an assembly
    /// source and the files it includes); `None`: the one text given.
    pub file: Option<String>,
}

impl Diagnostic {
    /// A diagnostic; a `length` of 0 is made 1 (a caret needs a character).
    pub fn new(
        severity: Severity,
        line: usize,
        column: usize,
        length: usize,
        message: &str,
        expected: Option<&str>,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            line,
            column,
            length: length.max(1),
            message: message.to_string(),
            expected: expected.map(str::to_string),
            file: None,
        }
    }

    /// The same diagnostic, placed in `file`.
    pub fn in_file(mut self, file: &str) -> Diagnostic {
        self.file = Some(file.to_string());
        self
    }
}

impl Diagnostic {
    /// An error ([`Diagnostic::new`] with [`Severity::Error`]).
    pub fn error(line: usize, column: usize, length: usize, message: &str, expected: Option<&str>) -> Diagnostic {
        Diagnostic::new(Severity::Error, line, column, length, message, expected)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if let Some(file) = &self.file {
            write!(f, "{file}:")?;
        }
        write!(f, "{}:{}: {kind}: {}", self.line, self.column, self.message)?;
        if let Some(e) = &self.expected {
            write!(f, " (expected {e})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_new() {
        let d = Diagnostic::new(Severity::Error, 3, 7, 0, "unknown register `q7`", Some("a register"));
        assert_eq!(d.length, 1);
        assert_eq!(d.to_string(), "3:7: error: unknown register `q7` (expected a register)");
        let w = Diagnostic { expected: None, severity: Severity::Warning, ..d };
        assert_eq!(w.to_string(), "3:7: warning: unknown register `q7`");
        assert_eq!(w.in_file("a.inc").to_string(), "a.inc:3:7: warning: unknown register `q7`");
    }
}
