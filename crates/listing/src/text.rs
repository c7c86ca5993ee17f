#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
//! Reading a listing or `/Fh` header file's bytes as text.
//!
//! Listings reach dxref from many editors and tools, not only from fxc: [`decode`]
//! accepts
//!
//! - UTF-8, with or without a byte-order mark (`EF BB BF`);
//! - UTF-16 little- or big-endian with its byte-order mark (`FF FE`, `FE FF`), and
//!   without one when the NUL bytes say which it is (the first characters are in
//!   U+0001..U+00FF, whose UTF-16 units have a zero byte: the second of each pair for
//!   little-endian, the first for big-endian; read as UTF-8 such a file would hold a
//!   NUL followed by text, which is refused);
//! - a NUL terminator (C-string style, as some game mods ship their listings) followed
//!   by nothing but white space and more NULs.
//!
//! Everything else is a [`TextError`] naming the byte offset in the file: invalid UTF-8
//! or UTF-16, an odd UTF-16 length, a NUL followed by more text.

use std::borrow::Cow;

use thiserror::Error;

/// The encoding [`decode`] read a file in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 (a byte-order mark, if any, is dropped).
    Utf8,
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
}

/// Why a file's bytes are not text dxref reads. Offsets are byte offsets in the file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TextError {
    /// Bytes that are not UTF-8, starting at `offset`.
    #[error("byte offset {offset}: invalid UTF-8 (the file is read as UTF-8, UTF-16 with a byte-order mark, or UTF-16 ASCII text)")]
    InvalidUtf8 {
        /// The first byte that is not valid UTF-8.
        offset: usize,
    },
    /// A UTF-16 surrogate without its pair.
    #[error("byte offset {offset}: an unpaired UTF-16 surrogate ({unit:#06x})")]
    InvalidUtf16 {
        /// The unit's byte offset.
        offset: usize,
        /// The surrogate.
        unit: u16,
    },
    /// A UTF-16 file whose length is not a whole number of units.
    #[error("the file is UTF-16 but has an odd number of bytes ({len})")]
    OddUtf16Length {
        /// The file's length in bytes.
        len: usize,
    },
    /// A NUL character followed by more than white space and NULs.
    #[error("byte offset {nul}: a NUL character, and after it more text at byte offset {text} (only white space and NULs may follow a terminating NUL)")]
    TextAfterNul {
        /// The NUL's byte offset.
        nul: usize,
        /// The byte offset of the first character after it that is not white space.
        text: usize,
    },
}

/// The encoding of `bytes`: from a byte-order mark, else from the NUL pattern of its
/// first characters (UTF-16 ASCII text), else UTF-8.
pub fn encoding(bytes: &[u8]) -> Encoding {
    if bytes.starts_with(&[0xff, 0xfe]) {
        return Encoding::Utf16Le;
    }
    if bytes.starts_with(&[0xfe, 0xff]) {
        return Encoding::Utf16Be;
    }
    // Without a mark: the first characters (up to 4, before any terminating NUL) are
    // in U+0001..U+00FF, with their zero byte on one side. Read as UTF-8 such a file
    // would be text after a NUL, which is refused, so the choice is unambiguous.
    if bytes.len().is_multiple_of(2) {
        let units = || bytes.chunks_exact(2).take(4).take_while(|u| u != &[0, 0]);
        if units().count() > 0 {
            if units().all(|u| matches!(u, [a, 0] if *a != 0)) {
                return Encoding::Utf16Le;
            }
            if units().all(|u| matches!(u, [0, b] if *b != 0)) {
                return Encoding::Utf16Be;
            }
        }
    }
    Encoding::Utf8
}

/// The text of a listing or header file: see the [module documentation](self) for
/// what is accepted. The byte-order mark and a terminating NUL (with what follows it)
/// are not part of the text.
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, TextError> {
    match encoding(bytes) {
        Encoding::Utf8 => {
            let bom = if bytes.starts_with(&[0xef, 0xbb, 0xbf]) { 3 } else { 0 };
            let body = bytes.get(bom..).unwrap_or_default();
            let text = match body.iter().position(|&b| b == 0) {
                Some(i) => {
                    // Offsets below the input's length: saturating never saturates.
                    let nul = bom.saturating_add(i);
                    let (text, tail) = body.split_at_checked(i).unwrap_or((body, &[]));
                    if let Some(j) = tail.iter().position(|&b| b != 0 && !b.is_ascii_whitespace()) {
                        return Err(TextError::TextAfterNul { nul, text: nul.saturating_add(j) });
                    }
                    text
                }
                None => body,
            };
            std::str::from_utf8(text)
                .map(Cow::Borrowed)
                .map_err(|e| TextError::InvalidUtf8 { offset: bom.saturating_add(e.valid_up_to()) })
        }
        e @ (Encoding::Utf16Le | Encoding::Utf16Be) => {
            if !bytes.len().is_multiple_of(2) {
                return Err(TextError::OddUtf16Length { len: bytes.len() });
            }
            // `chunks_exact(2)` gives pairs only; the last arm is never taken.
            let unit = |c: &[u8]| match (e, c) {
                (Encoding::Utf16Le, &[a, b]) => u16::from_le_bytes([a, b]),
                (_, &[a, b]) => u16::from_be_bytes([a, b]),
                _ => 0,
            };
            let units: Vec<u16> = bytes.chunks_exact(2).map(unit).collect();
            let start = usize::from(units.first() == Some(&0xfeff));
            let body = units.get(start..).unwrap_or_default();
            let body = match body.iter().position(|&u| u == 0) {
                Some(i) => {
                    // Unit indices below half the input's length: byte offsets
                    // (twice them) fit, and saturating never saturates.
                    let nul = start.saturating_add(i);
                    let (text, tail) = body.split_at_checked(i).unwrap_or((body, &[]));
                    let white = |u: u16| u == 0 || u8::try_from(u).is_ok_and(|b| b.is_ascii_whitespace());
                    if let Some(j) = tail.iter().position(|&u| !white(u)) {
                        return Err(TextError::TextAfterNul {
                            nul: nul.saturating_mul(2),
                            text: nul.saturating_add(j).saturating_mul(2),
                        });
                    }
                    text
                }
                None => body,
            };
            let mut text = String::with_capacity(body.len());
            for c in char::decode_utf16(body.iter().copied()) {
                match c {
                    Ok(c) => text.push(c),
                    Err(err) => {
                        // Characters before it may be surrogate pairs: count units.
                        let before: usize = text.chars().map(char::len_utf16).sum();
                        return Err(TextError::InvalidUtf16 {
                            offset: start.saturating_add(before).saturating_mul(2),
                            unit: err.unpaired_surrogate(),
                        });
                    }
                }
            }
            Ok(Cow::Owned(text))
        }
    }
}

/// True when `bytes` are meant as text (a listing or header) rather than a binary
/// blob: a byte-order mark, UTF-16 by its NUL pattern, or bytes before the first NUL
/// (in the first 4 KiB) with no control characters but white space. [`decode`] may
/// still refuse them, with the offset of the fault.
pub fn is_text(bytes: &[u8]) -> bool {
    if bytes.starts_with(&[0xef, 0xbb, 0xbf]) || encoding(bytes) != Encoding::Utf8 {
        return true;
    }
    let head = bytes.get(..bytes.len().min(4096)).unwrap_or(bytes);
    let head = head.get(..head.iter().position(|&b| b == 0).unwrap_or(head.len())).unwrap_or(head);
    !head.is_empty() && head.iter().all(|&b| b >= 0x20 && b != 0x7f || matches!(b, b'\n' | b'\r' | b'\t' | 0x0c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, le: bool, bom: bool) -> Vec<u8> {
        let mut units: Vec<u16> = text.encode_utf16().collect();
        if bom {
            units.insert(0, 0xfeff);
        }
        units.iter().flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() }).collect()
    }

    const TEXT: &str = "//\n// Generated by x\n//\nvs_4_0\nret \n";

    #[test]
    fn plain_bom_and_nul() {
        assert_eq!(decode(TEXT.as_bytes()).unwrap(), TEXT);
        assert!(matches!(decode(TEXT.as_bytes()).unwrap(), Cow::Borrowed(_)));
        let mut b = b"\xef\xbb\xbf".to_vec();
        b.extend_from_slice(TEXT.as_bytes());
        assert_eq!(decode(&b).unwrap(), TEXT);
        b.push(0);
        assert_eq!(decode(&b).unwrap(), TEXT);
        b.extend_from_slice(b"\r\n \0\0\t");
        assert_eq!(decode(&b).unwrap(), TEXT);
        assert_eq!(decode(b"").unwrap(), "");
        assert_eq!(decode(b"\0").unwrap(), "");
    }

    #[test]
    fn utf16_both_orders_with_and_without_mark() {
        for le in [true, false] {
            for bom in [true, false] {
                let b = utf16(TEXT, le, bom);
                assert_eq!(encoding(&b), if le { Encoding::Utf16Le } else { Encoding::Utf16Be });
                assert_eq!(decode(&b).unwrap(), TEXT, "le {le} bom {bom}");
                let mut nul = utf16(&format!("{TEXT}\0\n\0"), le, bom);
                assert_eq!(decode(&nul).unwrap(), TEXT);
                nul.extend(utf16("x", le, false));
                let nul_at = (TEXT.len() + usize::from(bom)) * 2;
                assert_eq!(decode(&nul), Err(TextError::TextAfterNul { nul: nul_at, text: nul_at + 6 }));
            }
        }
        // Non-ASCII characters after an ASCII start, and a surrogate pair.
        assert_eq!(decode(&utf16("//é 😀\nvs_4_0\n", true, false)).unwrap(), "//é 😀\nvs_4_0\n");
        assert_eq!(decode(&utf16("//é 😀\nvs_4_0\n", false, true)).unwrap(), "//é 😀\nvs_4_0\n");
    }

    #[test]
    fn errors_name_the_byte() {
        assert_eq!(decode(b"// ok\n\xff\xff"), Err(TextError::InvalidUtf8 { offset: 6 }));
        assert_eq!(decode(b"\xef\xbb\xbfab\xc3"), Err(TextError::InvalidUtf8 { offset: 5 }));
        assert_eq!(decode(b"ret\0 \0mov"), Err(TextError::TextAfterNul { nul: 3, text: 6 }));
        assert_eq!(decode(b"ret\0x"), Err(TextError::TextAfterNul { nul: 3, text: 4 }));
        // A lone high surrogate after a BOM and one character.
        let b = [0xff, 0xfe, b'a', 0, 0x00, 0xd8, b'b', 0];
        assert_eq!(decode(&b), Err(TextError::InvalidUtf16 { offset: 4, unit: 0xd800 }));
        assert_eq!(decode(&[0xff, 0xfe, b'a']), Err(TextError::OddUtf16Length { len: 3 }));
        // The message names the offset.
        assert!(decode(b"ab\xfe").unwrap_err().to_string().contains("byte offset 2"));
    }

    #[test]
    fn binary_is_not_text() {
        assert!(is_text(TEXT.as_bytes()));
        assert!(is_text(&utf16(TEXT, false, false)));
        assert!(!is_text(b"DXBC\x01\x02\0\0"));
        assert!(!is_text(&[0x00, 0x02, 0xfe, 0xff, 0x1f, 0, 0, 2]));
        assert!(!is_text(b""));
        assert!(!is_text(b"ab\x01cd"));
        assert!(!is_text(b"\0\0"));
        // Text that does not decode is still text: decode reports where it fails.
        assert!(is_text(b"// \xff\n"));
        assert!(is_text(b"ret\0 mov"));
    }
}
