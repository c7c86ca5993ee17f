//! Where in a binary program a problem is: the byte offset and 32-bit token index that
//! both token-stream decoders (Shader Model 1–3 and 4/5) report, around each family's own
//! account of what went wrong.

use std::error::Error;
use std::fmt;

/// A program could not be decoded. `offset` is the byte offset from the start of the
/// program (its version token, or the container that holds it once
/// [`rebased`](DecodeError::rebased)) and `token` the 32-bit token index in the program;
/// `kind` is what went wrong, in the terms of the program's instruction family
/// (`tpf::DecodeErrorKind`, `d3dbc::DecodeErrorKind`).
///
/// Displayed as `byte {offset} (token {token}): {kind}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError<K> {
    /// Bytes from the version token (or from where [`DecodeError::rebased`] says).
    pub offset: usize,
    /// The 32-bit token index in the program.
    pub token: usize,
    /// What went wrong, in the family's terms.
    pub kind: K,
}

impl<K> DecodeError<K> {
    /// The error `kind` at token index `token` of the program (byte `4 × token`).
    pub fn at(token: usize, kind: K) -> DecodeError<K> {
        DecodeError { offset: token.saturating_mul(4), token, kind }
    }

    /// The same error with `base` added to its byte offset (for a program found at
    /// `base` inside a container, e.g. a Level9 `Aon9` chunk).
    pub fn rebased(mut self, base: usize) -> DecodeError<K> {
        self.offset = self.offset.saturating_add(base);
        self
    }
}

impl<K: fmt::Display> fmt::Display for DecodeError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {} (token {}): {}", self.offset, self.token, self.kind)
    }
}

/// The kind is the message, not a cause: `source` is `None`, as it was for each
/// family's own error.
impl<K: fmt::Debug + fmt::Display> Error for DecodeError<K> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Kind;

    impl fmt::Display for Kind {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("unknown opcode 7")
        }
    }

    #[test]
    fn at_places_the_token_and_rebased_moves_the_offset() {
        let e = DecodeError::at(3, Kind);
        assert_eq!((e.offset, e.token), (12, 3));
        assert_eq!(e.to_string(), "byte 12 (token 3): unknown opcode 7");
        let e = e.rebased(100);
        assert_eq!((e.offset, e.token), (112, 3));
        assert_eq!(e.to_string(), "byte 112 (token 3): unknown opcode 7");
        assert!(e.source().is_none());
    }
}
