//! Lines of the header with their positions, diagnostics, and the column splitter the
//! tables share.

use std::fmt;

/// A problem found in the header text, at a 1-based line and column (in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line number in the header (which is the start of the listing file).
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What is wrong, or what was assumed.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// One line of the header, without its line ending.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub no: usize,
    /// The text, without `\n` or a trailing `\r`.
    pub text: &'a str,
}

impl<'a> Line<'a> {
    /// The text after `//`, if the line is a comment.
    pub fn body(&self) -> Option<&'a str> {
        self.text.strip_prefix("//")
    }

    /// True for a comment line with nothing but spaces after `//`.
    pub fn is_blank_comment(&self) -> bool {
        self.body().is_some_and(|b| b.trim().is_empty())
    }

    /// The 1-based character column of byte offset `at` (clamped to the line).
    pub fn column(&self, at: usize) -> usize {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        self.text[..at].chars().count() + 1
    }

    /// The byte offset of `part`, which must be a slice of this line's text (else 0).
    pub fn offset_of(&self, part: &str) -> usize {
        let base = self.text.as_ptr() as usize;
        let p = part.as_ptr() as usize;
        if p >= base && p <= base + self.text.len() {
            p - base
        } else {
            0
        }
    }
}

/// Splits `text` into numbered lines.
pub(crate) fn lines(text: &str) -> Vec<Line<'_>> {
    text.split('\n').enumerate().map(|(i, l)| Line { no: i + 1, text: l.strip_suffix('\r').unwrap_or(l) }).collect()
}

/// Errors and warnings collected while reading the header.
#[derive(Debug, Default)]
pub(crate) struct Diags {
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

impl Diags {
    /// An error at byte offset `at` of `line`.
    pub fn error(&mut self, line: &Line<'_>, at: usize, message: impl Into<String>) {
        self.errors.push(Diagnostic { line: line.no, column: line.column(at), message: message.into() });
    }

    /// An error at the start of `part`, a slice of `line`'s text.
    pub fn error_at(&mut self, line: &Line<'_>, part: &str, message: impl Into<String>) {
        self.error(line, line.offset_of(part), message);
    }

    /// A warning at byte offset `at` of `line`.
    pub fn warn(&mut self, line: &Line<'_>, at: usize, message: impl Into<String>) {
        self.warnings.push(Diagnostic { line: line.no, column: line.column(at), message: message.into() });
    }
}

/// The column layout of a table, read from its rule line (`// ----- ---- ...`): the
/// byte span of each run of dashes.
#[derive(Debug, Clone)]
pub(crate) struct Ruler {
    pub spans: Vec<(usize, usize)>,
}

impl Ruler {
    /// Reads a rule line: `//` then runs of `-` separated by spaces.
    pub fn parse(line: &Line<'_>) -> Option<Ruler> {
        let body = line.body()?;
        if !body.trim_start().starts_with('-') || body.trim().chars().any(|c| c != '-' && c != ' ') {
            return None;
        }
        let bytes = line.text.as_bytes();
        let mut spans = Vec::new();
        let mut i = 2;
        while i < bytes.len() {
            if bytes[i] == b'-' {
                let start = i;
                while i < bytes.len() && bytes[i] == b'-' {
                    i += 1;
                }
                spans.push((start, i));
            } else {
                i += 1;
            }
        }
        Some(Ruler { spans })
    }

    /// Splits a row into one cell per column. Columns are fixed-width, but a value
    /// wider than its column (a long name, a 10-letter system value) pushes the rest
    /// of the row to the right, as fxc's `{:>w}` formatting does; the split follows.
    /// Cells are trimmed; a cell past the end of the line (trailing spaces stripped) is
    /// empty. Returns `None` if a cell would split a multi-byte character.
    pub fn cells<'a>(&self, line: &Line<'a>) -> Option<Vec<Cell<'a>>> {
        let text = line.text;
        let bytes = text.as_bytes();
        let mut shift = 0usize;
        let mut out = Vec::with_capacity(self.spans.len());
        for &(s, e) in &self.spans {
            let start = s + shift;
            if start >= bytes.len() {
                out.push(Cell { at: bytes.len(), text: "" });
                continue;
            }
            let mut end = (e + shift).min(bytes.len());
            // The first column is left-aligned: a long name runs on past its column.
            // Any column's value may be wider than the column.
            while end < bytes.len() && bytes[end] != b' ' {
                end += 1;
            }
            shift += end.saturating_sub(e + shift);
            let raw = text.get(start..end)?;
            let lead = raw.len() - raw.trim_start().len();
            let trimmed = raw.trim();
            out.push(Cell { at: start + lead, text: trimmed });
        }
        Some(out)
    }
}

/// One cell of a table row.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cell<'a> {
    /// Byte offset in the line where the cell's text starts.
    pub at: usize,
    /// The trimmed text.
    pub text: &'a str,
}

/// Parses a decimal `u32`.
pub(crate) fn number(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}
