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
        // The characters before `at`, or before the character `at` falls inside.
        let at = at.min(self.text.len());
        let before = (0..=at).rev().find_map(|a| self.text.get(..a)).map_or(0, |s| s.chars().count());
        before.saturating_add(1)
    }

    /// The byte offset of `part`, which must be a slice of this line's text (else 0).
    pub fn offset_of(&self, part: &str) -> usize {
        let base = self.text.as_ptr() as usize;
        (part.as_ptr() as usize).checked_sub(base).filter(|&at| at <= self.text.len()).unwrap_or(0)
    }
}

/// `lines` from the first that is not a blank comment line.
pub(crate) fn skip_blank<'a, 'h>(lines: &'a [Line<'h>]) -> &'a [Line<'h>] {
    let mut rest = lines;
    while let Some((_, after)) = rest.split_first().filter(|(l, _)| l.is_blank_comment()) {
        rest = after;
    }
    rest
}

/// Splits `text` into numbered lines.
pub(crate) fn lines(text: &str) -> Vec<Line<'_>> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| Line { no: i.saturating_add(1), text: l.strip_suffix('\r').unwrap_or(l) })
        .collect()
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
        let mut spans = Vec::new();
        let mut start = None;
        // After the `//`.
        for (i, &b) in line.text.as_bytes().iter().enumerate().skip(2) {
            match (b == b'-', start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    spans.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            spans.push((s, line.text.len()));
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
        // Byte offsets in the line (or the rule line), which sums of them cannot pass.
        let mut shift = 0usize;
        let mut out = Vec::with_capacity(self.spans.len());
        for &(s, e) in &self.spans {
            let start = s.saturating_add(shift);
            if start >= bytes.len() {
                out.push(Cell { at: bytes.len(), text: "" });
                continue;
            }
            let column_end = e.saturating_add(shift);
            let mut end = column_end.min(bytes.len());
            // The first column is left-aligned: a long name runs on past its column.
            // Any column's value may be wider than the column.
            while bytes.get(end).is_some_and(|&b| b != b' ') {
                end = end.saturating_add(1);
            }
            shift = shift.saturating_add(end.saturating_sub(column_end));
            let raw = text.get(start..end)?;
            let lead = raw.len().saturating_sub(raw.trim_start().len());
            let trimmed = raw.trim();
            out.push(Cell { at: start.saturating_add(lead), text: trimmed });
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
