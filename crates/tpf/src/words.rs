//! [`Words`]: a run of little-endian 32-bit tokens, borrowed from the input when
//! decoded (zero-copy, any alignment) or owned when built.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use std::borrow::Cow;
use std::fmt;

/// A run of 32-bit little-endian tokens.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Words<'a>(Cow<'a, [u8]>);

impl<'a> Words<'a> {
    /// No tokens.
    pub const fn empty() -> Words<'static> {
        Words(Cow::Borrowed(&[]))
    }

    /// Borrows `bytes`, whose length must be a multiple of 4.
    pub fn borrowed(bytes: &'a [u8]) -> Words<'a> {
        debug_assert!(bytes.len().is_multiple_of(4));
        Words(Cow::Borrowed(bytes))
    }

    /// Owns a copy of `tokens`.
    pub fn from_tokens(tokens: &[u32]) -> Words<'static> {
        Words(Cow::Owned(tokens.iter().flat_map(|t| t.to_le_bytes()).collect()))
    }

    /// Number of tokens.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len() / 4
    }

    /// True when there are no tokens.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Token `i`, if there is one.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u32> {
        self.0.get(i.checked_mul(4)?..)?.first_chunk::<4>().map(|b| u32::from_le_bytes(*b))
    }

    /// The tokens in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        // `chunks_exact(4)` yields 4-byte chunks only, so the fallback never applies.
        self.0.chunks_exact(4).map(|b| b.first_chunk::<4>().map_or(0, |b| u32::from_le_bytes(*b)))
    }

    /// The raw little-endian bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// A copy that owns its tokens (no borrow of the input).
    pub fn into_owned(self) -> Words<'static> {
        Words(Cow::Owned(self.0.into_owned()))
    }
}

impl fmt::Debug for Words<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter().map(|t| format!("{t:#010x}"))).finish()
    }
}
