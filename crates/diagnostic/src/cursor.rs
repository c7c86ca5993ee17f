//! A position-tracking cursor over one line of a listing, whose errors are
//! [`Diagnostic`]s at that line and a column counted in characters: the mechanics both
//! assemblers (`tpf::parse`, `d3dbc::parse`) read their lines with.
//!
//! Positions are byte offsets into the line. The cursor only ever moves by the lengths
//! of text it has matched, so its position stays on a character boundary; every slice
//! is taken with `get`, so a position a caller computes wrongly gives empty text, never
//! a panic.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)]

use crate::{Diagnostic, Severity};

/// A cursor over the code part of one line: from `pos` to [`end`](Cursor::end) is
/// what is left to read.
#[derive(Debug, Clone)]
pub struct Cursor<'t> {
    /// The whole line; columns are counted from its start.
    pub text: &'t str,
    /// The byte offset of the next character to read.
    pub pos: usize,
    /// The 1-based line number the diagnostics carry.
    pub line: usize,
    /// The code part of `text` (a prefix of it: a comment may follow), kept as a slice so
    /// that reading the rest checks one bound.
    code: &'t str,
}

/// The 1-based column, counted in characters, of byte offset `at` of `text`. An offset
/// inside a character counts that character as before it; an offset past the end is
/// the column after the last character.
pub fn column_of(text: &str, at: usize) -> usize {
    let before = match text.get(..at) {
        Some(s) => s.chars().count(),
        None => text.char_indices().take_while(|&(i, _)| i < at).count(),
    };
    before.saturating_add(1)
}

impl<'t> Cursor<'t> {
    /// A cursor at the start of `text`, line `line`, reading to its end.
    pub fn new(text: &'t str, line: usize) -> Cursor<'t> {
        Cursor { text, pos: 0, line, code: text }
    }

    /// Where the code ends: nothing from there on is read.
    #[inline]
    pub fn end(&self) -> usize {
        self.code.len()
    }

    /// Ends the code at byte offset `end` of the line (where a comment starts); an
    /// offset past the line or inside a character leaves nothing to read.
    pub fn set_end(&mut self, end: usize) {
        self.code = self.text.get(..end).unwrap_or("");
    }

    /// What is left to read (empty past the end of the code).
    #[inline]
    pub fn rest(&self) -> &'t str {
        self.code.get(self.pos..).unwrap_or("")
    }

    /// The next character.
    #[inline]
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Moves on `n` bytes, over text the caller has read (positions stay within the
    /// line: `saturating_add` never saturates, and `rest` is empty past the end).
    #[inline]
    pub fn advance(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n);
    }

    /// The length from `start` (an earlier position) to the current one.
    #[inline]
    pub fn since(&self, start: usize) -> usize {
        self.pos.saturating_sub(start)
    }

    /// Moves past white space.
    #[inline]
    pub fn skip_ws(&mut self) {
        let rest = self.rest();
        self.advance(rest.len().saturating_sub(rest.trim_start().len()));
    }

    /// True when only white space is left.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.rest().trim().is_empty()
    }

    /// The 1-based column of byte offset `at` of the line, counted in characters.
    pub fn column(&self, at: usize) -> usize {
        column_of(self.text, at)
    }

    /// An error at byte offset `at`, `len` characters long.
    pub fn err_at(&self, at: usize, len: usize, message: &str, expected: Option<&str>) -> Diagnostic {
        Diagnostic::new(Severity::Error, self.line, self.column(at), len, message, expected)
    }

    /// A warning at byte offset `at`, `len` characters long.
    pub fn warn_at(&self, at: usize, len: usize, message: &str) -> Diagnostic {
        Diagnostic::new(Severity::Warning, self.line, self.column(at), len, message, None)
    }

    /// An error at the current position covering the next token (up to a blank or a
    /// comma).
    pub fn err(&self, message: &str, expected: Option<&str>) -> Diagnostic {
        let rest = self.rest();
        let token = rest.find([' ', ',', '\t']).and_then(|n| rest.get(..n)).unwrap_or(rest);
        self.err_at(self.pos, token.chars().count(), message, expected)
    }

    /// Moves past `s` if the rest starts with it.
    #[inline]
    pub fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.advance(s.len());
            true
        } else {
            false
        }
    }

    /// Skips white space and moves past `s`, or is the error "expected `s`" covering the
    /// next token.
    pub fn expect(&mut self, s: &str) -> Result<(), Diagnostic> {
        self.skip_ws();
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.err(&format!("expected `{s}`"), Some(&format!("`{s}`"))))
        }
    }

    /// Moves past the characters for which `f` holds and gives them.
    #[inline]
    pub fn take_while(&mut self, f: impl Fn(char) -> bool) -> &'t str {
        let rest = self.rest();
        // `find` stops at a character boundary.
        let taken = rest.find(|c: char| !f(c)).and_then(|n| rest.get(..n)).unwrap_or(rest);
        self.advance(taken.len());
        taken
    }

    /// Letters, digits and `_`.
    #[inline]
    pub fn word(&mut self) -> &'t str {
        self.take_while(|c| c.is_ascii_alphanumeric() || c == '_')
    }

    /// ASCII letters.
    #[inline]
    pub fn letters(&mut self) -> &'t str {
        self.take_while(|c| c.is_ascii_alphabetic())
    }

    /// An unsigned decimal integer after optional white space; `what` names it in the
    /// error when there is none ("expected {what}") and when it does not fit in 32 bits.
    pub fn uint(&mut self, what: &str) -> Result<u32, Diagnostic> {
        self.skip_ws();
        let start = self.pos;
        let digits = self.take_while(|c| c.is_ascii_digit());
        if digits.is_empty() {
            return Err(self.err(&format!("expected {what}"), Some(what)));
        }
        digits
            .parse::<u32>()
            .map_err(|_| self.err_at(start, digits.len(), &format!("{what} does not fit in 32 bits"), None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_words_numbers_and_punctuation() {
        let mut c = Cursor::new("  mov_sat r12, l(7)", 3);
        c.skip_ws();
        assert_eq!(c.word(), "mov_sat");
        c.skip_ws();
        assert_eq!(c.letters(), "r");
        assert_eq!(c.uint("a register number"), Ok(12));
        assert!(c.expect(",").is_ok());
        c.skip_ws();
        assert_eq!(c.peek(), Some('l'));
        let start = c.pos;
        assert!(c.eat("l("));
        assert_eq!(c.since(start), 2);
        assert_eq!(c.take_while(|ch| ch.is_ascii_digit()), "7");
        assert!(!c.at_end());
        assert!(c.eat(")"));
        assert!(c.at_end());
        assert_eq!(c.rest(), "");
    }

    #[test]
    fn errors_name_line_column_and_token() {
        let mut c = Cursor::new("add r0, r1 r2", 9);
        c.advance("add r0, r1".len());
        let e = c.expect(",").unwrap_err();
        assert_eq!((e.line, e.column, e.length), (9, 12, 2));
        assert_eq!(e.to_string(), "9:12: error: expected `,` (expected `,`)");
        let w = c.warn_at(4, 2, "w");
        assert_eq!((w.severity, w.column, w.length, w.expected), (Severity::Warning, 5, 2, None));
    }

    #[test]
    fn numbers_that_are_missing_or_too_large() {
        let mut c = Cursor::new("x 99999999999", 1);
        let e = c.uint("a count").unwrap_err();
        assert_eq!((e.column, e.message.as_str(), e.expected.as_deref()), (1, "expected a count", Some("a count")));
        c.advance(1);
        let e = c.uint("a count").unwrap_err();
        assert_eq!(
            (e.column, e.length, e.message.as_str(), e.expected),
            (3, 11, "a count does not fit in 32 bits", None)
        );
    }

    #[test]
    fn columns_and_lengths_count_characters() {
        // `é` is two bytes: the column after it and the length of a token holding it are
        // counted in characters, as the caret is drawn.
        let c = Cursor { pos: 3, ..Cursor::new("é ŝé,x", 1) };
        assert_eq!(c.column(3), 3);
        let e = c.err("bad", None);
        assert_eq!((e.column, e.length), (3, 2));
        // Inside a character, and past the end: clamped, never a panic.
        assert_eq!(column_of("é", 1), 2);
        assert_eq!(column_of("ab", 10), 3);
    }

    #[test]
    fn reading_stops_at_the_end_of_the_code() {
        let mut c = Cursor::new("dcl v0 // comment", 1);
        c.set_end("dcl v0 ".len());
        assert_eq!(c.end(), 7);
        c.advance(4);
        assert_eq!(c.word(), "v0");
        assert!(c.at_end());
        c.skip_ws();
        assert_eq!(c.rest(), "");
        assert_eq!(c.peek(), None);
        // A position past the end reads nothing.
        c.pos = 100;
        assert_eq!(c.rest(), "");
        assert_eq!(c.take_while(|_| true), "");
    }
}
