//! The header's fixed-width columns, written straight into the listing: padded text
//! and decimal or hexadecimal numbers without going through `core::fmt` or a
//! temporary `String`. Widths count characters, as `format!`'s `{:<w}` and `{:>w}` do
//! (names in the chunks may hold any UTF-8 text); text wider than its column is
//! printed whole.

const SPACES: &str = "                                                                ";

/// Appends `n` spaces.
#[inline]
pub(crate) fn spaces(out: &mut String, n: usize) {
    // Every column of the header is narrower than `SPACES`: one copy.
    match SPACES.get(..n) {
        Some(fill) => out.push_str(fill),
        None => spaces_long(out, n),
    }
}

/// [`spaces`] for more than `SPACES` holds.
#[cold]
fn spaces_long(out: &mut String, mut n: usize) {
    while n > 0 {
        let step = n.min(SPACES.len());
        out.push_str(SPACES.get(..step).unwrap_or_default());
        n = n.saturating_sub(step);
    }
}

/// The characters of `s`.
#[inline]
fn chars(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// What `write` appends, left-aligned in `width` columns (`{:<width}`).
pub(crate) fn left(out: &mut String, width: usize, write: impl FnOnce(&mut String)) {
    let start = out.len();
    write(out);
    let written = chars(out.get(start..).unwrap_or_default());
    spaces(out, width.saturating_sub(written));
}

/// What `write` appends, right-aligned in `width` columns (`{:>width}`): for text
/// whose width is not known before it is written.
pub(crate) fn right(out: &mut String, width: usize, write: impl FnOnce(&mut String)) {
    let start = out.len();
    write(out);
    let pad = width.saturating_sub(chars(out.get(start..).unwrap_or_default()));
    if pad > 0 {
        let mut fill = String::new();
        let fill = if pad <= SPACES.len() {
            SPACES.get(..pad).unwrap_or_default()
        } else {
            spaces(&mut fill, pad);
            &fill
        };
        out.insert_str(start, fill);
    }
}

/// `s` left-aligned in `width` columns.
#[inline]
pub(crate) fn left_str(out: &mut String, s: &str, width: usize) {
    out.push_str(s);
    spaces(out, width.saturating_sub(chars(s)));
}

/// `s` right-aligned in `width` columns.
#[inline]
pub(crate) fn right_str(out: &mut String, s: &str, width: usize) {
    let pad = width.saturating_sub(chars(s));
    out.reserve(pad.saturating_add(s.len()));
    spaces(out, pad);
    out.push_str(s);
}

/// The decimal digits of a number, in a buffer on the stack.
struct Decimal {
    buf: [u8; 20],
    start: usize,
}

impl Decimal {
    fn new(v: impl Into<u64>) -> Decimal {
        let mut v: u64 = v.into();
        let mut buf = [0u8; 20];
        let mut start = buf.len();
        for slot in buf.iter_mut().rev() {
            // `v % 10` is a single digit.
            *slot = b'0'.saturating_add((v % 10) as u8);
            start = start.saturating_sub(1);
            v /= 10;
            if v == 0 {
                break;
            }
        }
        Decimal { buf, start }
    }

    fn as_str(&self) -> &str {
        // Only ASCII digits were written.
        std::str::from_utf8(self.buf.get(self.start..).unwrap_or_default()).unwrap_or_default()
    }
}

/// The numbers below 100 in decimal, side by side: `0` to `9`, then `10` to `99`.
const SMALL: &str = "0123456789\
                     1011121314151617181920212223242526272829303132333435363738394041424344454647484950515253545556575859\
                     60616263646566676869707172737475767778798081828384858687888990919293949596979899";

/// `v` in decimal when it is below 100 (most numbers of the header: indices,
/// registers, sizes of one or two digits), from [`SMALL`] without building digits.
#[inline]
fn small(v: u64) -> Option<&'static str> {
    let i = v as usize;
    // `v` at `v` below 10, at `2v - 10` from 10 on.
    let (at, len) = match v {
        0..10 => (i, 1),
        10..100 => (i.saturating_mul(2).saturating_sub(10), 2),
        _ => return None,
    };
    SMALL.get(at..at.saturating_add(len))
}

/// `v` in decimal.
pub(crate) fn dec(out: &mut String, v: impl Into<u64>) {
    let v = v.into();
    match small(v) {
        Some(s) => out.push_str(s),
        None => out.push_str(Decimal::new(v).as_str()),
    }
}

/// `v` in decimal, right-aligned in `width` columns.
pub(crate) fn right_dec(out: &mut String, v: impl Into<u64>, width: usize) {
    let v = v.into();
    match small(v) {
        Some(s) => right_str(out, s, width),
        None => right_str(out, Decimal::new(v).as_str(), width),
    }
}

/// `v` in decimal, left-aligned in `width` columns.
pub(crate) fn left_dec(out: &mut String, v: impl Into<u64>, width: usize) {
    let v = v.into();
    match small(v) {
        Some(s) => left_str(out, s, width),
        None => left_str(out, Decimal::new(v).as_str(), width),
    }
}

/// `v` as eight lowercase hexadecimal digits (`{:08x}`).
pub(crate) fn hex8(out: &mut String, v: u32) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for shift in [28u32, 24, 20, 16, 12, 8, 4, 0] {
        let nibble = (v >> shift) & 0xf;
        out.push(char::from(DIGITS.get(nibble as usize).copied().unwrap_or(b'0')));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_match_format() {
        for v in (0u64..=120).chain([12345, u32::MAX as u64, u64::MAX]) {
            let mut s = String::new();
            dec(&mut s, v);
            assert_eq!(s, v.to_string());
            for w in [0, 1, 5, 8, 25] {
                let mut s = String::from("ab");
                right_dec(&mut s, v, w);
                left_dec(&mut s, v, w);
                assert_eq!(s, format!("ab{v:>w$}{v:<w$}"));
            }
        }
        for text in ["", "x", "SV_Position", "名前", "a_much_longer_name_than_the_column_holds_at_all"] {
            for w in [0, 3, 20, 30, 70, 140] {
                let mut s = String::from("//");
                right_str(&mut s, text, w);
                left_str(&mut s, text, w);
                assert_eq!(s, format!("//{text:>w$}{text:<w$}"), "{text:?} {w}");
            }
        }
        for v in [0u32, 1, 0xdead_beef, u32::MAX, 0x0010_0000] {
            let mut s = String::new();
            hex8(&mut s, v);
            assert_eq!(s, format!("{v:08x}"));
        }
    }
}
