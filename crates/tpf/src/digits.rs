//! Numbers as listing text, written straight into the output `String` without
//! `core::fmt`: decimal and hexadecimal integers, and the fast path of `%f` (six
//! decimals) for the floats whose rounding integer arithmetic decides.
//!
//! The printers spend most of their time on numbers (register indices, immediates);
//! `write!` costs a formatter, padding logic and a virtual call per number, and
//! float formatting a big-number algorithm. These write the same text directly.

/// The two decimal digits of every number below 100.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends ASCII bytes (digits) to `out`.
#[inline]
fn push_ascii(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        out.push(char::from(b));
    }
}

/// `v` in decimal (`%u`).
#[inline]
pub fn push_u32(out: &mut String, v: u32) {
    if v < 10 {
        out.push(char::from(b'0' + v as u8));
    } else if v < 100 {
        let i = 2 * v as usize;
        push_ascii(out, PAIRS.get(i..i + 2).unwrap_or(b"??"));
    } else {
        push_u64(out, v as u64);
    }
}

/// `v` in decimal (`%llu`).
pub fn push_u64(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while v >= 100 {
        let pair = 2 * (v % 100) as usize;
        v /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = 2 * v as usize;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + v as u8;
    }
    push_ascii(out, &buf[i..]);
}

/// `v` in decimal (`%lld`).
#[inline]
pub fn push_i64(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    push_u64(out, v.unsigned_abs());
}

/// `v` as `0x%08x` (`upper`: `0x%08X`).
#[inline]
pub fn push_hex8(out: &mut String, v: u32, upper: bool) {
    let digits: &[u8; 16] = if upper { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
    let mut buf = *b"0x00000000";
    for (k, b) in buf[2..].iter_mut().enumerate() {
        *b = digits[((v >> (28 - 4 * k)) & 0xf) as usize];
    }
    push_ascii(out, &buf);
}

/// `v` as `0x%016llx`.
pub fn push_hex16(out: &mut String, v: u64) {
    let digits = b"0123456789abcdef";
    let mut buf = *b"0x0000000000000000";
    for (k, b) in buf[2..].iter_mut().enumerate() {
        *b = digits[((v >> (60 - 4 * k)) & 0xf) as usize];
    }
    push_ascii(out, &buf);
}

/// Appends the first `len` bytes of `piece` to `out` with one fixed-size copy: the
/// piece is padded to `N` bytes, all copied, and the padding cut off again (no call to
/// `memcpy` for a length known only at run time).
#[inline(always)]
pub(crate) fn put<const N: usize>(out: &mut Vec<u8>, piece: &[u8; N], len: usize) {
    let at = out.len();
    out.extend_from_slice(piece);
    out.truncate(at + len.min(N));
}

/// The two digits of `v` (below 100), from [`PAIRS`].
#[inline(always)]
fn pair(v: usize) -> &'static [u8; 2] {
    PAIRS.get(2 * v..).and_then(|p| p.first_chunk::<2>()).unwrap_or(b"00")
}

/// `v` in decimal (`%u`), appended to bytes. The digits are stored straight into
/// the vector (pairs from [`PAIRS`]); no buffer is built on the stack and copied, whose
/// small stores a wide load would have to wait for.
#[inline(always)]
pub(crate) fn put_u32(out: &mut Vec<u8>, v: u32) {
    if v < 10 {
        out.push(b'0' + v as u8);
    } else if v < 100 {
        out.extend_from_slice(pair(v as usize));
    } else {
        put_u32_long(out, v);
    }
}

/// [`put_u32`] of a number of three digits or more.
fn put_u32_long(out: &mut Vec<u8>, v: u32) {
    let mut len = 3;
    let mut p = 1000u64;
    while v as u64 >= p {
        len += 1;
        p *= 10;
    }
    let at = out.len();
    out.resize(at + len, b'0');
    let Some(digits) = out.get_mut(at..) else { return };
    let mut i = len;
    let mut v = v as usize;
    while v >= 100 {
        i -= 2;
        digits[i..i + 2].copy_from_slice(pair(v % 100));
        v /= 100;
    }
    if v >= 10 {
        digits[..2].copy_from_slice(pair(v));
    } else {
        digits[0] = b'0' + v as u8;
    }
}

/// `v` as `0x%08x`, appended to bytes: the eight digits computed side by side in one
/// word (each nibble spread to a byte of its own, then made a digit) and stored with
/// one copy. Not inlined: the direct path's loop is faster without it in its body.
#[inline(never)]
pub(crate) fn put_hex8(out: &mut Vec<u8>, v: u32) {
    let mut x = v as u64;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    // Byte k holds nibble k (the least significant first).
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    // 1 in each byte whose nibble is 10 or more (no byte carries into the next).
    let letters = ((x + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    // `0` + n below 10, `a` + (n - 10) from it: `a` is `0` + 10 + 39.
    let digits = x + 0x3030_3030_3030_3030 + letters * 39;
    let mut text = [0u8; 10];
    text[..2].copy_from_slice(b"0x");
    // The most significant nibble first.
    text[2..].copy_from_slice(&digits.to_be_bytes());
    out.extend_from_slice(&text);
}

/// [`push_millionths`], appended to bytes.
#[inline]
pub(crate) fn put_millionths(out: &mut Vec<u8>, negative: bool, millionths: u64) {
    if negative {
        out.push(b'-');
    }
    let int = millionths / 1_000_000;
    let frac = (millionths % 1_000_000) as usize;
    match u32::try_from(int) {
        Ok(int) => put_u32(out, int),
        Err(_) => {
            let mut s = String::new();
            push_u64(&mut s, int);
            out.extend_from_slice(s.as_bytes());
        }
    }
    out.push(b'.');
    out.extend_from_slice(pair(frac / 10_000));
    out.extend_from_slice(pair(frac / 100 % 100));
    out.extend_from_slice(pair(frac % 100));
}

/// How `%f` rounds a value to six decimals; the three C runtimes whose text the
/// listings show (see `Style::rounds_from_17_digits`, `Style::rounds_exact_digits_half_away`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// The value's exact expansion, ties to even (fxc 10.x's runtime).
    ExactEven,
    /// The value's exact expansion, ties away from zero (d3dcompiler_47 6.3.9600).
    ExactAway,
    /// The value rounded to 17 significant digits (ties to even), then that decimal
    /// rounded half away from zero at the sixth decimal (the older runtimes).
    ///
    /// For a float below 2^43 this is [`Rounding::ExactAway`]: a value that is not a
    /// tie lies at least `10^-6 / 2^(k+1)` from one (`m / 2^k`, `m < 2^25` counting the
    /// doubled numerator), at least `3e-14` of itself, which 17 digits (within `5e-17`
    /// of it) cannot cross; and a tie has at most 7 integer digits and 7 decimals
    /// (values of 2^23 and more are integers), all kept by 17 digits.
    SeventeenDigits,
}

/// Magnitudes from this up take the general path (their integer part has many digits).
const FAST_LIMIT_LOG2: i32 = 43;

/// `|f|` in millionths, rounded as `rounding` says: the digits of `%f` without the
/// point. `None` for the values left to the general path: infinities, NaNs and
/// magnitudes of 2^43 or more.
pub fn millionths(f: f32, rounding: Rounding) -> Option<u64> {
    let bits = f.to_bits();
    let biased = ((bits >> 23) & 0xff) as i32;
    let fraction = (bits & 0x7f_ffff) as u64;
    if biased == 0xff {
        return None;
    }
    // |f| = m * 2^e, m < 2^24.
    let (m, e) = if biased == 0 { (fraction, -149) } else { (fraction | 1 << 23, biased - 150) };
    if m == 0 {
        return Some(0);
    }
    if e >= 0 {
        // An integer below 2^43: exact in every rounding (fewer than 17 digits).
        if e + 24 > FAST_LIMIT_LOG2 {
            return None;
        }
        return Some((m << e) * 1_000_000);
    }
    let k = (-e) as u32;
    if k >= 48 {
        // |f| < 2^-24 < 10^-7: rounds to 0 in every rounding (17 digits of a value
        // below 10^-7 stay below 0.5 * 10^-6).
        return Some(0);
    }
    // m * 10^6 < 2^44; the quotient by 2^k, rounded.
    let n = m * 1_000_000;
    let q = n >> k;
    let r = n & ((1u64 << k) - 1);
    let half = 1u64 << (k - 1);
    let up = r > half || (r == half && (rounding != Rounding::ExactEven || q & 1 == 1));
    Some(q + up as u64)
}

/// `%f` text of a value of `millionths` (a sign when `negative`).
pub fn push_millionths(out: &mut String, negative: bool, millionths: u64) {
    if negative {
        out.push('-');
    }
    let int = millionths / 1_000_000;
    let frac = (millionths % 1_000_000) as usize;
    push_u64(out, int);
    let mut buf = *b".000000";
    let (a, b, c) = (2 * (frac / 10_000), 2 * (frac / 100 % 100), 2 * (frac % 100));
    buf[1..3].copy_from_slice(&PAIRS[a..a + 2]);
    buf[3..5].copy_from_slice(&PAIRS[b..b + 2]);
    buf[5..7].copy_from_slice(&PAIRS[c..c + 2]);
    push_ascii(out, &buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(f: impl FnOnce(&mut String)) -> String {
        let mut s = String::new();
        f(&mut s);
        s
    }

    #[test]
    fn integers() {
        for v in [0u32, 1, 9, 10, 42, 99, 100, 101, 999, 1000, 65535, 1_000_000, u32::MAX] {
            assert_eq!(text(|s| push_u32(s, v)), v.to_string());
            assert_eq!(text(|s| push_hex8(s, v, false)), format!("0x{v:08x}"));
            assert_eq!(text(|s| push_hex8(s, v, true)), format!("0x{v:08X}"));
        }
        for v in [0u64, 7, 12345678901234567890, u64::MAX] {
            assert_eq!(text(|s| push_u64(s, v)), v.to_string());
            assert_eq!(text(|s| push_hex16(s, v)), format!("0x{v:016x}"));
        }
        for v in [0u32, 5, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 123456789, 999999999, u32::MAX] {
            let mut b = Vec::new();
            put_u32(&mut b, v);
            put_hex8(&mut b, v);
            assert_eq!(String::from_utf8(b).unwrap(), format!("{v}0x{v:08x}"));
        }
        // Every digit in every place, and the digits' neighbours (9/a, f/0) side by side.
        for v in (0..16u32).map(|n| n * 0x1111_1111).chain([0x0123_4567, 0x89ab_cdef, 0x9a9a_a9a9, 0xf0f0_0f0f]) {
            let mut b = Vec::new();
            put_hex8(&mut b, v);
            assert_eq!(String::from_utf8(b).unwrap(), format!("0x{v:08x}"));
        }
        for (neg, v) in
            [(false, 0u64), (true, 1), (false, 9_999_999), (false, 10_000_000), (true, 8_796_093_022_208_000_000)]
        {
            let (mut b, mut s) = (Vec::new(), String::new());
            put_millionths(&mut b, neg, v);
            push_millionths(&mut s, neg, v);
            assert_eq!(String::from_utf8(b).unwrap(), s);
        }
        for v in [0i64, -1, -10000, 10000, i64::MIN, i64::MAX] {
            assert_eq!(text(|s| push_i64(s, v)), v.to_string());
        }
    }
}
