//! The arithmetic rules of the functional spec (chapter 3.1 and the instruction
//! pages): 32-bit float operations with denormals flushed to sign-preserved zero on
//! input and output, `min`/`max` NaN rules, comparisons, float-to-integer conversions
//! (saturating, NaN to 0), integer division by zero, shift counts masked to 5 bits,
//! bit-field instructions, half-float conversions, doubles.
//!
//! Every function works on the bits a register holds (`u32`, or `f32`/`f64` where the
//! value is a number) and is exact: the interpreter calls these and nothing else for
//! the instructions' arithmetic, so that what is tested here is what runs.
//!
//! Choices the spec leaves open, made once here:
//! - `mad` is `a * b + c` with two roundings (not fused; the spec allows either), the
//!   intermediate product not flushed; `dp2`/`dp3`/`dp4` accumulate left to right
//!   (`((x0*y0 + x1*y1) + x2*y2) + x3*y3`), each step rounded. `dfma` is fused, as its
//!   spec page requires.
//! - `div` is `a / b` directly (correctly rounded); `rcp` is `1 / x`, `rsq` is
//!   `1 / sqrt(x)` (both within the 2^-21 relative error allowed).
//! - `min(-0, +0)` is `-0` and `max(-0, +0)` is `+0` (the IEEE 754R behaviour the spec
//!   recommends); the result of `min`/`max` is flushed.
//! - `frc` is `x - floor(x)` clamped below 1.0 (the spec's range is `[0, 1)`; for tiny
//!   negative `x` the subtraction alone would round to 1.0).
//! - `f32tof16` rounds toward zero, as every float-to-float conversion of the spec
//!   (3.2.2: "round-to-zero must be used during conversion to another float format";
//!   too large values give the largest half, not infinity; infinities stay
//!   infinities, NaN stays NaN, results in the half denormal range are half
//!   denormals).
//! - `dtof` rounds to nearest even (its page) and flushes a float32 denormal result;
//!   `ftod` flushes a denormal input (both choices allowed by 22.17.1/2).
//! - A float32 operation whose result is NaN gives the quiet NaN [`NAN`]
//!   (`0x7fc00000`). The functional spec's floating-point rules (3.1, "32-bit
//!   Floating Point Rules"; the same rules as Microsoft's "Floating-point rules
//!   (Direct3D 11)" page) require a NaN out of a NaN in but leave its bit pattern free
//!   except in raw moves, and let `min`/`max` of two NaNs return any NaN. The payload an
//!   implementation keeps depends on operand order, which fxc and the CPU code
//!   generator are both free to change, so the reference picks one NaN, the same in
//!   the one-invocation machine and in lanes. Moves, `movc`, `swapc` and the source
//!   modifiers are raw moves and keep a NaN's bits; `min`/`max` of a NaN and a number
//!   give the number's bits.

/// Sign bit of a float32.
const SIGN: u32 = 0x8000_0000;

/// Flushes a float32 denormal to a zero of the same sign (other values unchanged).
#[inline(always)]
pub fn ftz(x: u32) -> u32 {
    // Branchless (it vectorizes): a zero exponent clears everything but the sign.
    let denormal = ((x & 0x7f80_0000) == 0) as u32;
    x & !(denormal.wrapping_neg() & !SIGN)
}

/// [`ftz`] on four components.
#[inline(always)]
pub fn ftz4(v: [u32; 4]) -> [u32; 4] {
    [ftz(v[0]), ftz(v[1]), ftz(v[2]), ftz(v[3])]
}

/// A float32 from register bits, denormals flushed.
#[inline(always)]
pub fn f(x: u32) -> f32 {
    f32::from_bits(ftz(x))
}

/// The NaN every float32 operation with a NaN result gives (see the module
/// documentation).
pub const NAN: u32 = 0x7fc0_0000;

/// Register bits of a float32 result: denormals flushed, a NaN made [`NAN`].
#[inline(always)]
pub fn bits(x: f32) -> u32 {
    result(x.to_bits())
}

/// [`bits`] of a float32 result's bits.
#[inline(always)]
pub fn result(x: u32) -> u32 {
    // Branchless (it vectorizes).
    let nan = ((x & 0x7fff_ffff) > 0x7f80_0000) as u32;
    let m = nan.wrapping_neg();
    (ftz(x) & !m) | (NAN & m)
}

/// `_sat`: `min(1, max(0, x))` with the `min`/`max` rules — NaN gives 0, `-0` and
/// denormals give `+0`.
#[inline(always)]
pub fn sat(x: u32) -> u32 {
    let v = f32::from_bits(ftz(x));
    if v > 0.0 {
        if v >= 1.0 {
            0x3f80_0000
        } else {
            v.to_bits()
        }
    } else {
        0
    }
}

/// `_sat` for a double: NaN gives 0, `-0` gives `+0`.
#[inline]
pub fn dsat(x: f64) -> f64 {
    if x > 0.0 {
        if x >= 1.0 {
            1.0
        } else {
            x
        }
    } else {
        0.0
    }
}

/// `min`: NaN loses to a number (two NaNs give [`NAN`]); `min(-0, +0) = -0`. Inputs
/// are flushed.
#[inline]
pub fn fmin(a: u32, b: u32) -> u32 {
    let (a, b) = (ftz(a), ftz(b));
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if x.is_nan() {
        result(b)
    } else if y.is_nan() || x < y {
        a
    } else if y < x {
        b
    } else {
        a | b // equal: only zeros can differ (in sign), and -0 wins
    }
}

/// `max`: NaN loses to a number (two NaNs give [`NAN`]); `max(-0, +0) = +0`. Inputs
/// are flushed.
#[inline]
pub fn fmax(a: u32, b: u32) -> u32 {
    let (a, b) = (ftz(a), ftz(b));
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if x.is_nan() {
        result(b)
    } else if y.is_nan() || x > y {
        a
    } else if y > x {
        b
    } else {
        a & b // equal: +0 wins over -0
    }
}

/// `frc`: `x - round_ni(x)`, in `[0, 1)` (NaN for infinities and NaN).
#[inline]
pub fn frc(x: f32) -> f32 {
    let r = x - x.floor();
    if r >= 1.0 {
        f32::from_bits(0x3f7f_ffff)
    } else {
        r
    }
}

/// `exp`: `2^x`.
#[inline]
pub fn exp2(x: f32) -> f32 {
    x.exp2()
}

/// `log`: `log2(x)` (`-inf` for ±0, NaN for negative numbers).
#[inline]
pub fn log2(x: f32) -> f32 {
    x.log2()
}

/// `rcp`: `1 / x`.
#[inline]
pub fn rcp(x: f32) -> f32 {
    1.0 / x
}

/// `rsq`: `1 / sqrt(x)` (`rsq(-0) = -inf`).
#[inline]
pub fn rsq(x: f32) -> f32 {
    1.0 / x.sqrt()
}

/// `dp2`/`dp3`/`dp4`'s first product: `a * b` of flushed inputs (not flushed, not
/// rounded further: the sum goes on in `f32`).
#[inline(always)]
pub fn dp_first(a: u32, b: u32) -> f32 {
    f(a) * f(b)
}

/// `dp2`/`dp3`/`dp4`'s next step, left to right: `sum + a * b` (flushed inputs, each
/// step rounded); the result is [`bits`] of the last sum.
#[inline(always)]
pub fn dp_step(sum: f32, a: u32, b: u32) -> f32 {
    sum + f(a) * f(b)
}

/// `sincos`'s sine of a flushed input, as a result's bits.
#[inline]
pub fn sin(a: u32) -> u32 {
    bits(f(a).sin())
}

/// `sincos`'s cosine of a flushed input, as a result's bits.
#[inline]
pub fn cos(a: u32) -> u32 {
    bits(f(a).cos())
}

/// `movc` (and `swapc`, twice): `a` where `k` is non-zero, else `b` (raw bits).
#[inline(always)]
pub fn movc(k: u32, a: u32, b: u32) -> u32 {
    if k != 0 {
        a
    } else {
        b
    }
}

/// Float comparison result: `0xffffffff` for true, 0 for false.
#[inline(always)]
pub fn mask(b: bool) -> u32 {
    if b {
        u32::MAX
    } else {
        0
    }
}

/// `ftoi`: round toward zero, clamped to the `i32` range, NaN gives 0.
#[inline]
pub fn ftoi(x: f32) -> u32 {
    x as i32 as u32 // Rust's float-to-int casts saturate and map NaN to 0
}

/// `ftou`: round toward zero, clamped to the `u32` range, NaN gives 0.
#[inline]
pub fn ftou(x: f32) -> u32 {
    x as u32
}

/// `itof`: signed integer to float, round to nearest even.
#[inline]
pub fn itof(x: u32) -> u32 {
    (x as i32 as f32).to_bits()
}

/// `utof`: unsigned integer to float, round to nearest even.
#[inline]
pub fn utof(x: u32) -> u32 {
    (x as f32).to_bits()
}

/// `f32tof16`: the low 16 bits get the half, rounded toward zero (see the module
/// documentation); the high 16 bits are 0. A float32 denormal input is flushed first.
pub fn f32tof16(x: u32) -> u32 {
    let x = ftz(x);
    let sign = (x >> 16) & 0x8000;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        // Infinity, or NaN (keeping the top payload bits, and quiet).
        return sign | 0x7c00 | if man != 0 { 0x200 | (man >> 13) } else { 0 };
    }
    if exp == 0 {
        return sign; // zero
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7bff; // too large: the largest half (round toward zero)
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // A half denormal: the mantissa with its implicit bit, shifted, truncated.
        return sign | ((man | 0x80_0000) >> (14 - e));
    }
    sign | ((e as u32) << 10) | (man >> 13)
}

/// `f16tof32`: the half in the low 16 bits, converted exactly (half denormals become
/// normal floats); the high 16 bits are ignored.
pub fn f16tof32(x: u32) -> u32 {
    crate::format::f16_to_f32(x as u16).to_bits()
}

/// `udiv`: (quotient, remainder); division by zero gives `0xffffffff` for both.
#[inline]
pub fn udiv(a: u32, b: u32) -> (u32, u32) {
    match (a.checked_div(b), a.checked_rem(b)) {
        (Some(q), Some(r)) => (q, r),
        _ => (u32::MAX, u32::MAX),
    }
}

/// `imul`: (high, low) 32 bits of the signed 64-bit product.
#[inline]
pub fn imul(a: u32, b: u32) -> (u32, u32) {
    let p = (a as i32 as i64) * (b as i32 as i64);
    ((p >> 32) as u32, p as u32)
}

/// `umul`: (high, low) 32 bits of the unsigned 64-bit product.
#[inline]
pub fn umul(a: u32, b: u32) -> (u32, u32) {
    let p = (a as u64) * (b as u64);
    ((p >> 32) as u32, p as u32)
}

/// `uaddc`: (sum, carry 0/1).
#[inline]
pub fn uaddc(a: u32, b: u32) -> (u32, u32) {
    let (s, c) = a.overflowing_add(b);
    (s, c as u32)
}

/// `usubb`: (difference, borrow 0/1).
#[inline]
pub fn usubb(a: u32, b: u32) -> (u32, u32) {
    let (s, c) = a.overflowing_sub(b);
    (s, c as u32)
}

/// `ishl`: shift count masked to 5 bits.
#[inline]
pub fn ishl(a: u32, n: u32) -> u32 {
    a << (n & 31)
}

/// `ishr`: arithmetic shift, count masked to 5 bits.
#[inline]
pub fn ishr(a: u32, n: u32) -> u32 {
    ((a as i32) >> (n & 31)) as u32
}

/// `ushr`: logical shift, count masked to 5 bits.
#[inline]
pub fn ushr(a: u32, n: u32) -> u32 {
    a >> (n & 31)
}

/// `ubfe`: `width` bits of `v` from bit `offset` (both masked to 5 bits), zero
/// extended; width 0 gives 0.
#[inline]
pub fn ubfe(width: u32, offset: u32, v: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (v << (32 - (w + o))) >> (32 - w)
    } else {
        v >> o
    }
}

/// `ibfe`: like [`ubfe`], sign extended from the field's top bit.
#[inline]
pub fn ibfe(width: u32, offset: u32, v: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    if w == 0 {
        0
    } else if w + o < 32 {
        (((v << (32 - (w + o))) as i32) >> (32 - w)) as u32
    } else {
        ((v as i32) >> o) as u32
    }
}

/// `bfi`: inserts the low `width` bits of `insert` into `base` at `offset` (both
/// masked to 5 bits).
#[inline]
pub fn bfi(width: u32, offset: u32, insert: u32, base: u32) -> u32 {
    let (w, o) = (width & 31, offset & 31);
    let bitmask = (((1u64 << w) - 1) << o) as u32;
    ((insert << o) & bitmask) | (base & !bitmask)
}

/// `firstbit_hi`: position of the highest set bit counted from the MSB (bit 31 is 0),
/// `0xffffffff` when none.
#[inline]
pub fn firstbit_hi(v: u32) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.leading_zeros()
    }
}

/// `firstbit_lo`: position of the lowest set bit (bit 0 is 0), `0xffffffff` when none.
#[inline]
pub fn firstbit_lo(v: u32) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.trailing_zeros()
    }
}

/// `firstbit_shi`: for a negative number the first 0 from the MSB, else the first 1
/// (counted from the MSB); `0xffffffff` when none (0 and -1).
#[inline]
pub fn firstbit_shi(v: u32) -> u32 {
    firstbit_hi(if (v as i32) < 0 { !v } else { v })
}

/// `msad`: masked sum of absolute byte differences added to `accum`, saturating at
/// `u32::MAX` (the spec's recommended overflow behaviour).
pub fn msad(reference: u32, src: u32, accum: u32) -> u32 {
    let mut acc = accum;
    for i in 0..4 {
        let r = (reference >> (8 * i)) as u8;
        if r == 0 {
            continue;
        }
        let s = (src >> (8 * i)) as u8;
        let d = r.abs_diff(s) as u32;
        if u32::MAX - acc < d {
            return u32::MAX;
        }
        acc += d;
    }
    acc
}

/// A double from its two register components (low word first).
#[inline(always)]
pub fn d(lo: u32, hi: u32) -> f64 {
    f64::from_bits(((hi as u64) << 32) | lo as u64)
}

/// A double's two register components (low word, high word).
#[inline(always)]
pub fn d_words(x: f64) -> (u32, u32) {
    let b = x.to_bits();
    (b as u32, (b >> 32) as u32)
}

/// `dmin`: NaN loses to a number; `dmin(-0, +0) = -0`.
pub fn dmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else if b < a {
        b
    } else {
        f64::from_bits(a.to_bits() | b.to_bits())
    }
}

/// `dmax`: NaN loses to a number; `dmax(-0, +0) = +0`.
pub fn dmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b {
        a
    } else if b > a {
        b
    } else {
        f64::from_bits(a.to_bits() & b.to_bits())
    }
}

/// `dtof`: round to nearest even, float32 denormal results flushed.
#[inline]
pub fn dtof(x: f64) -> u32 {
    ftz((x as f32).to_bits())
}

/// `ftod`: exact (a float32 denormal input is flushed first).
#[inline]
pub fn ftod(x: u32) -> f64 {
    f32::from_bits(ftz(x)) as f64
}

/// `dtoi`: round toward zero, clamped, NaN gives 0.
#[inline]
pub fn dtoi(x: f64) -> u32 {
    x as i32 as u32
}

/// `dtou`: round toward zero, clamped, NaN gives 0.
#[inline]
pub fn dtou(x: f64) -> u32 {
    x as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32tof16_rounds_toward_zero() {
        assert_eq!(f32tof16(1.0f32.to_bits()), 0x3c00);
        // 1 + 3/4 ulp(half): nearest-even would give 0x3c01.
        assert_eq!(f32tof16((1.0f32 + 3.0 * 2f32.powi(-12)).to_bits()), 0x3c00);
        assert_eq!(f32tof16((-1.0f32 - 3.0 * 2f32.powi(-12)).to_bits()), 0xbc00);
        assert_eq!(f32tof16(65519.0f32.to_bits()), 0x7bff);
        assert_eq!(f32tof16(1e10f32.to_bits()), 0x7bff);
        assert_eq!(f32tof16(f32::INFINITY.to_bits()), 0x7c00);
        assert_eq!(f32tof16(f32::NEG_INFINITY.to_bits()), 0xfc00);
        assert_eq!(f32tof16(f32::NAN.to_bits()) & 0x7c00, 0x7c00);
        assert_ne!(f32tof16(f32::NAN.to_bits()) & 0x3ff, 0);
        // Half denormals: 2^-24 is the smallest.
        assert_eq!(f32tof16(2f32.powi(-24).to_bits()), 1);
        assert_eq!(f32tof16((2f32.powi(-24) * 1.9).to_bits()), 1);
        assert_eq!(f32tof16(2f32.powi(-25).to_bits()), 0);
        assert_eq!(f32tof16(2f32.powi(-14).to_bits()), 0x0400);
        // A float32 denormal is flushed (sign kept).
        assert_eq!(f32tof16(0x8000_0001), 0x8000);
        for h in 0..=0xffffu32 {
            let f = f16tof32(h);
            if f32::from_bits(f).is_nan() {
                continue;
            }
            assert_eq!(f32tof16(f), h, "{h:#x} round trip");
        }
    }

    #[test]
    fn bitfields() {
        assert_eq!(ubfe(8, 16, 0x12345678), 0x34);
        assert_eq!(ibfe(8, 16, 0x12f45678), 0xffff_fff4);
        assert_eq!(ubfe(0, 3, 0xffff_ffff), 0);
        assert_eq!(ubfe(32, 0, 0xdead_beef), 0); // width masked to 0
        assert_eq!(ubfe(31, 4, 0xdead_beef), 0x0dea_dbee);
        assert_eq!(bfi(8, 8, 0xab, 0x1234_5678), 0x1234_ab78);
        assert_eq!(bfi(0, 8, 0xab, 0x1234_5678), 0x1234_5678);
        assert_eq!(bfi(31, 1, 0xffff_ffff, 0), 0xffff_fffe);
    }
}
