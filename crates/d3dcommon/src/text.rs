//! The NUL-terminated names both families of chunks hold (`RDEF`, `ISGN`/`OSGN`, the
//! `DBUG` block): found and checked in one pass.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use core::str::Utf8Error;

/// A byte of ones in every lane (the borrow of the zero-byte test).
const LOW: u64 = 0x0101_0101_0101_0101;
/// The top bit of every lane: a NUL's flag, and a byte outside ASCII.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The text before the first NUL of `bytes`: `None` when `bytes` has no NUL, else the
/// bytes before it as a `str`, or the UTF-8 error that stops them being one.
///
/// The search reads eight bytes at a time, and gathers the top bits of the bytes it
/// passes: when none is set the text is ASCII and is not checked again; otherwise
/// [`core::str::from_utf8`] decides. (The names are identifiers: searching a byte at a
/// time and checking the text again took about 3% of a whole listing's instructions.)
#[inline]
pub fn until_nul(bytes: &[u8]) -> Option<Result<&str, Utf8Error>> {
    let (words, tail) = bytes.as_chunks::<8>();
    let mut high = 0u64;
    let mut len = None;
    for (i, w) in words.iter().enumerate() {
        let w = u64::from_le_bytes(*w);
        // The lowest flagged lane is the first zero byte: a lane's borrow only reaches
        // the lanes above it.
        let zeros = w.wrapping_sub(LOW) & !w & HIGH;
        if zeros != 0 {
            // The NUL's lane `k` (0 to 7) flags bit `8k + 7`: `bits` is `8k`.
            let bits = zeros.trailing_zeros() & !7;
            // The lanes below the NUL (none when it is the first).
            high |= w & 1u64.checked_shl(bits).unwrap_or(0).wrapping_sub(1);
            len = Some(i.saturating_mul(8).saturating_add((bits >> 3) as usize));
            break;
        }
        high |= w;
    }
    if len.is_none() {
        let at = words.len().saturating_mul(8);
        for (j, &b) in tail.iter().enumerate() {
            if b == 0 {
                len = Some(at.saturating_add(j));
                break;
            }
            high |= u64::from(b);
        }
    }
    let text = bytes.get(..len?)?;
    if high & HIGH == 0 {
        debug_assert!(text.is_ascii());
        // SAFETY: no byte of `text` has its top bit set (`high` gathered every byte
        // before the NUL, the lanes past it masked off), so `text` is ASCII, which is
        // UTF-8. Tested against `from_utf8` of the bytes before `position(0)` for every
        // NUL position and non-ASCII byte position in the module's tests.
        Some(Ok(unsafe { core::str::from_utf8_unchecked(text) }))
    } else {
        Some(core::str::from_utf8(text))
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    /// What `until_nul` stands for: a search a byte at a time, then a full check.
    fn reference(bytes: &[u8]) -> Option<Result<&str, Utf8Error>> {
        let n = bytes.iter().position(|&b| b == 0)?;
        Some(core::str::from_utf8(&bytes[..n]))
    }

    #[test]
    fn every_nul_and_high_byte_position() {
        // Lengths across several words and a tail; a NUL at every position (or none);
        // one byte of each kind that is not ASCII before, at and after it.
        let fillers: [&[u8]; 4] = [b"a", "é".as_bytes(), &[0xff], &[0x80]];
        let mut checked = 0;
        for len in 0..40usize {
            for nul in (0..len).map(Some).chain([None]) {
                for odd in (0..len).map(Some).chain([None]) {
                    for filler in fillers {
                        let mut bytes: Vec<u8> = (0..len).map(|i| b'A' + (i % 26) as u8).collect();
                        if let Some(o) = odd {
                            for (k, &f) in filler.iter().enumerate() {
                                if let Some(b) = bytes.get_mut(o + k) {
                                    *b = f;
                                }
                            }
                        }
                        if let Some(n) = nul {
                            bytes[n] = 0;
                        }
                        // Every alignment of the start.
                        for skip in 0..bytes.len().min(9) {
                            assert_eq!(until_nul(&bytes[skip..]), reference(&bytes[skip..]), "{bytes:?} from {skip}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000);
        assert_eq!(until_nul(b""), None);
        assert_eq!(until_nul(b"\0"), Some(Ok("")));
        assert_eq!(until_nul(b"SV_Position\0TEXCOORD\0"), Some(Ok("SV_Position")));
        assert_eq!(until_nul("caf\u{e9}\0".as_bytes()), Some(Ok("caf\u{e9}")));
        assert!(matches!(until_nul(b"a\xffb\0"), Some(Err(_))));
        // A byte with its top bit set after the NUL is not the text's.
        assert_eq!(until_nul(b"abcdefg\0\xff\xff"), Some(Ok("abcdefg")));
        assert_eq!(until_nul(b"abc\0\xff\xff\xff\xff\xff\xff\xff\xff"), Some(Ok("abc")));
    }
}
