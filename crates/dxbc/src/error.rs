//! Typed errors for container and chunk parsing.

use crate::FourCc;

/// Everything that can be wrong with a DXBC container or one of its chunks.
///
/// Every variant names the byte offset at which the problem was found. For
/// [`Container::parse`](crate::Container::parse) offsets count from the start of the
/// container; for the chunk decoders (`Signature::parse`, `Rdef::parse`, ...) they count
/// from the start of the chunk's data, unless the decoder was reached through
/// [`Chunk::decode`](crate::Chunk::decode), which rebases them onto the container.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Fewer bytes remain than a field or table needs.
    #[error("truncated at byte {offset}: {what} needs {needed} bytes, {available} available")]
    Truncated {
        /// Where the field starts.
        offset: usize,
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        needed: usize,
        /// Bytes left from `offset` to the end of the buffer.
        available: usize,
    },
    /// The container does not start with `DXBC`.
    #[error("bad magic at byte {offset}: expected \"DXBC\", found {found:02x?}")]
    BadMagic {
        /// Always 0.
        offset: usize,
        /// The first four bytes.
        found: [u8; 4],
    },
    /// The container's version field is not 1.
    #[error("unsupported container version {version} at byte {offset}")]
    BadVersion {
        /// Where the field is (20).
        offset: usize,
        /// The value found.
        version: u32,
    },
    /// The header's total size is larger than the buffer (or smaller than the header).
    #[error("total size field at byte {offset} says {declared} bytes, buffer has {actual}")]
    BadTotalSize {
        /// Where the field is (24).
        offset: usize,
        /// The size in the header.
        declared: u32,
        /// The buffer's length.
        actual: usize,
    },
    /// An offset field points outside the data it indexes.
    #[error("{what} offset {target} (field at byte {offset}) is out of bounds (length {len})")]
    OffsetOutOfBounds {
        /// Where the offset field is.
        offset: usize,
        /// What the offset refers to.
        what: &'static str,
        /// The offset's value.
        target: u64,
        /// The length of the buffer the offset indexes.
        len: usize,
    },
    /// A chunk's size runs past the end of the container.
    #[error("chunk {fourcc} at byte {offset} has size {size}, only {available} bytes follow its header")]
    ChunkOutOfBounds {
        /// Where the chunk header is.
        offset: usize,
        /// The chunk's FourCC.
        fourcc: FourCc,
        /// The size field.
        size: u32,
        /// Bytes after the chunk header up to the end of the container.
        available: usize,
    },
    /// A string is longer than a name can be (see `limits::MAX_STRING`).
    #[error("string at byte {offset} is longer than {limit} bytes")]
    StringTooLong {
        /// Where the string starts.
        offset: usize,
        /// The longest string accepted.
        limit: usize,
    },
    /// A string has no terminating NUL before the end of its chunk.
    #[error("unterminated string at byte {offset}")]
    UnterminatedString {
        /// Where the string starts.
        offset: usize,
    },
    /// A string is not valid UTF-8.
    #[error("string at byte {offset} is not UTF-8")]
    BadString {
        /// Where the string starts.
        offset: usize,
    },
    /// A structural value is impossible (a size field disagreeing with the layout,
    /// a type graph nested too deeply, ...).
    #[error("invalid {what} at byte {offset}: {value:#x}")]
    Invalid {
        /// Where the field is.
        offset: usize,
        /// What is wrong.
        what: &'static str,
        /// The offending value.
        value: u64,
    },
    /// The chunk handed to a decoder has another FourCC.
    #[error("chunk at byte {offset} is {found}, not a {expected} chunk")]
    WrongChunk {
        /// Where the chunk header is.
        offset: usize,
        /// What the decoder reads.
        expected: &'static str,
        /// The chunk's FourCC.
        found: FourCc,
    },
}

impl Error {
    /// The byte offset the error names.
    pub fn offset(&self) -> usize {
        *self.clone().offset_mut()
    }

    /// The same error with its offset moved by `base` (saturating), e.g. to turn an
    /// offset inside a chunk's data into an offset inside the container.
    pub fn rebased(mut self, base: usize) -> Error {
        let offset = self.offset_mut();
        *offset = offset.saturating_add(base);
        self
    }

    fn offset_mut(&mut self) -> &mut usize {
        match self {
            Error::Truncated { offset, .. }
            | Error::BadMagic { offset, .. }
            | Error::BadVersion { offset, .. }
            | Error::BadTotalSize { offset, .. }
            | Error::OffsetOutOfBounds { offset, .. }
            | Error::ChunkOutOfBounds { offset, .. }
            | Error::UnterminatedString { offset }
            | Error::StringTooLong { offset, .. }
            | Error::BadString { offset }
            | Error::Invalid { offset, .. }
            | Error::WrongChunk { offset, .. } => offset,
        }
    }
}

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
