//! Where in the input a problem is. A problem found in a text, with its position: what
//! every dxref parser (the SM4/5 and SM1–3 assemblers, the listing header readers)
//! reports, and what the command line prints with a caret under the culprit. And a
//! problem found in a binary program, with its byte offset and token index
//! ([`DecodeError`]): what both token-stream decoders report. And the [`Cursor`] both
//! assemblers read a line with, which places their diagnostics.
//!
//! ```
//! use diagnostic::{not_shown, Diagnostic, LineIndex, Severity, MAX_PRINTED};
//!
//! let text = "vs_4_0\nmov r0.q, v0\nret\n";
//! let d = Diagnostic::error(2, 8, 1, "unknown component `q`", Some("x, y, z or w"));
//! assert_eq!(d.to_string(), "2:8: error: unknown component `q` (expected x, y, z or w)");
//! assert_eq!(d.clone().in_file("a.asm").to_string().split_once(':').map(|p| p.0), Some("a.asm"));
//!
//! // Where the caret goes, as a byte range of the text.
//! let index = LineIndex::new(text);
//! assert_eq!(&text[index.line_range(2)], "mov r0.q, v0");
//! assert_eq!(&text[index.span(&d)], "q");
//!
//! // A report prints the first MAX_PRINTED and counts the rest.
//! let many = vec![d; MAX_PRINTED + 3];
//! let warning = Diagnostic::new(Severity::Warning, 3, 1, 3, "unreachable", None);
//! let rest = [&many[MAX_PRINTED..], &[warning]].concat();
//! assert_eq!(not_shown(&rest).as_deref(), Some("3 more errors and 1 warning not shown"));
//! assert_eq!(not_shown(&[]), None);
//! ```

#![warn(missing_docs)]

use std::fmt;

mod cursor;
mod decode;

pub use cursor::{column_of, Cursor};
pub use decode::DecodeError;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The text is refused: nothing is produced.
    Error,
    /// The text is accepted; something in it is doubtful or was filled in.
    Warning,
}

/// A problem in the text, with its position (1-based line and column, in characters)
/// and the length of the culprit for a caret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in characters (not bytes).
    pub column: usize,
    /// The culprit's length in characters, at least 1.
    pub length: usize,
    /// What is wrong, without the position.
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

/// The most diagnostics a report prints; the rest are counted on one line
/// ([`not_shown`]).
///
/// Reason: a file that is not a listing at all (a 50 MB log, a listing without its
/// version line) has an error on every line; printing each with its source line makes
/// the report as large as the file and hides the first error, the one that matters.
/// Compilers stop at a similar count (the Microsoft C/C++ compiler after 100 errors).
pub const MAX_PRINTED: usize = 100;

/// The line that ends a report whose diagnostics `rest` were not printed:
/// `"N more errors not shown"` (and warnings, counted apart), or `None` when `rest` is
/// empty.
pub fn not_shown(rest: &[Diagnostic]) -> Option<String> {
    let errors = rest.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = rest.len() - errors;
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    match (errors, warnings) {
        (0, 0) => None,
        (e, 0) => Some(format!("{} not shown", plural(e, "more error"))),
        (0, w) => Some(format!("{} not shown", plural(w, "more warning"))),
        (e, w) => Some(format!("{} and {} not shown", plural(e, "more error"), plural(w, "warning"))),
    }
}

/// Byte offsets of a text's lines, computed once, so that each diagnostic's position
/// is found in logarithmic time (finding it by counting lines from the start for each
/// made reports quadratic in the number of diagnostics).
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// The byte offset where each line starts; the first is 0.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text` (one pass).
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        LineIndex { text, starts }
    }

    /// The byte range of 1-based line `line`, without its line break; an empty range
    /// at the end of the text for a line past the last.
    pub fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let Some(&start) = line.checked_sub(1).and_then(|i| self.starts.get(i)) else {
            return self.text.len()..self.text.len();
        };
        let end = self.text[start..].find('\n').map_or(self.text.len(), |i| start + i);
        start..end
    }

    /// The byte offset of 1-based `line` and `column` (in characters), clamped to the
    /// line (and the line to the text): every position maps into the text.
    pub fn offset(&self, line: usize, column: usize) -> usize {
        let range = self.line_range(line);
        let within: usize = self.text[range.clone()].chars().take(column.saturating_sub(1)).map(char::len_utf8).sum();
        range.start + within
    }

    /// The byte range a diagnostic's caret covers: from its position, `length`
    /// characters, at most to the end of its line.
    pub fn span(&self, d: &Diagnostic) -> std::ops::Range<usize> {
        let start = self.offset(d.line, d.column);
        let line_end = self.line_range(d.line).end.max(start);
        let len: usize = self.text[start..line_end].chars().take(d.length).map(char::len_utf8).sum();
        start..start + len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_positions() {
        let text = "ab\ncé d\n\nlast";
        let ix = LineIndex::new(text);
        assert_eq!(ix.line_range(1), 0..2);
        assert_eq!(ix.line_range(2), 3..8);
        assert_eq!(ix.line_range(3), 9..9);
        assert_eq!(ix.line_range(4), 10..14);
        assert_eq!(ix.line_range(5), 14..14);
        assert_eq!(ix.line_range(0), 14..14);
        assert_eq!(ix.offset(2, 3), 6, "column 3 is after the two-byte é");
        assert_eq!(ix.offset(2, 99), 8, "clamped to the line");
        let d = Diagnostic::error(2, 2, 2, "x", None);
        assert_eq!(&text[ix.span(&d)], "é ");
        let d = Diagnostic::error(4, 3, 10, "x", None);
        assert_eq!(&text[ix.span(&d)], "st");
    }

    #[test]
    fn not_shown_counts_the_rest() {
        let e = Diagnostic::error(1, 1, 1, "e", None);
        let w = Diagnostic { severity: Severity::Warning, ..e.clone() };
        assert_eq!(not_shown(&[]), None);
        assert_eq!(not_shown(std::slice::from_ref(&e)).as_deref(), Some("1 more error not shown"));
        assert_eq!(not_shown(&vec![e.clone(); 15_900]).as_deref(), Some("15900 more errors not shown"));
        assert_eq!(not_shown(&[w.clone(), w.clone()]).as_deref(), Some("2 more warnings not shown"));
        assert_eq!(not_shown(&[e.clone(), w.clone(), e]).as_deref(), Some("2 more errors and 1 warning not shown"));
    }

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
