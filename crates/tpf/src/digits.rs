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
#[inline(always)]
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
        for v in [0i64, -1, -10000, 10000, i64::MIN, i64::MAX] {
            assert_eq!(text(|s| push_i64(s, v)), v.to_string());
        }
    }
}
