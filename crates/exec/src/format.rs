//! DXGI formats of vertex buffers, shader resources and UAVs: the conversion of one
//! element to the four 32-bit values a shader sees (and back, for typed UAV stores), by
//! the format conversion rules of the functional spec (chapter 3.2): UNORM
//! `c / (2^n - 1)`, SNORM `max(c / (2^(n-1) - 1), -1)`, 16-bit and 11/10-bit floats
//! widened exactly, sRGB to linear, missing components `(0, 0, 0, 1)`.
//!
//! The formats themselves (names, values, components, sizes) are the `dxgi` crate's
//! table, re-exported here; [`Convert`] walks a format's components there, each by its
//! [`Encoding`], so that no format is named in the conversions.

pub use dxgi::{Channel, Component, Encoding, Format, FormatInfo, Numeric};

/// The conversions of [`Format`]'s elements (the trait only gives the `dxgi` crate's
/// type the methods; it has no other implementation).
pub trait Convert {
    /// The four 32-bit values a shader reads from one element (`bytes` at least
    /// [`size`](Format::size) long; shorter input reads as zero bytes). Float results
    /// are f32 bits; components the format lacks are 0, 0, 0 and 1 (1.0 or integer 1).
    fn decode(self, bytes: &[u8]) -> [u32; 4];

    /// Writes `value` (what a shader stores: f32 bits or integers) as one element into
    /// `out` (at least [`size`](Format::size) bytes; a shorter slice gets what fits).
    /// Floats to UNORM/SNORM saturate and round to nearest; integers to narrower
    /// integer formats clamp; floats to 16/11/10-bit floats round toward zero, finite
    /// values too large become the largest finite value, infinities stay infinite and
    /// NaN stays NaN (spec 3.2.2).
    fn encode(self, value: [u32; 4], out: &mut [u8]);
}

impl Convert for Format {
    fn decode(self, bytes: &[u8]) -> [u32; 4] {
        let mut out = self.defaults();
        let mut raw = [0u8; 16];
        let n = self.size().min(bytes.len());
        raw[..n].copy_from_slice(&bytes[..n]);
        let wide = u128::from_le_bytes(raw);
        for c in self.components() {
            let Some(slot) = c.channel.index() else { continue };
            let b = c.bits as u32;
            let v = ((wide >> c.offset) as u64 & ((1u64 << b) - 1)) as u32;
            out[slot] = match c.encoding {
                Encoding::Uint | Encoding::Float => v,
                Encoding::Sint => sign_extend(v, b) as u32,
                Encoding::Half => f16_to_f32(v as u16).to_bits(),
                Encoding::UnsignedFloat { mantissa } => small_float_to_f32(v, mantissa as u32).to_bits(),
                Encoding::Unorm => (v as f32 / ((1u64 << b) - 1) as f32).to_bits(),
                Encoding::Snorm => {
                    let s = sign_extend(v, b) as f32 / ((1u64 << (b - 1)) - 1) as f32;
                    s.max(-1.0).to_bits()
                }
                Encoding::Srgb => srgb_to_linear(v as f32 / ((1u64 << b) - 1) as f32).to_bits(),
            };
        }
        out
    }

    fn encode(self, value: [u32; 4], out: &mut [u8]) {
        let mut wide: u128 = 0;
        for c in self.components() {
            let Some(slot) = c.channel.index() else { continue };
            let b = c.bits as u32;
            let x = value[slot];
            let f = f32::from_bits(x);
            let mask = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
            let v: u32 = match c.encoding {
                Encoding::Float => x,
                Encoding::Uint => x.min(mask),
                Encoding::Sint => {
                    let lo = -(1i64 << (b - 1));
                    let hi = (1i64 << (b - 1)) - 1;
                    ((x as i32 as i64).clamp(lo, hi) as u32) & mask
                }
                Encoding::Half => crate::alu::f32tof16(x) & 0xffff,
                Encoding::UnsignedFloat { mantissa } => f32_to_small_float(f, mantissa as u32),
                Encoding::Unorm | Encoding::Srgb => {
                    let f = if c.encoding == Encoding::Srgb { linear_to_srgb(f) } else { f };
                    let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                    (f * mask as f32).round_ties_even() as u32
                }
                Encoding::Snorm => {
                    let max = ((1u32 << (b - 1)) - 1) as f32;
                    let f = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
                    ((f * max).round_ties_even() as i32 as u32) & mask
                }
            };
            wide |= (v as u128) << c.offset;
        }
        let bytes = wide.to_le_bytes();
        let n = self.size().min(out.len());
        out[..n].copy_from_slice(&bytes[..n]);
    }
}

fn sign_extend(v: u32, bits: u32) -> i32 {
    if bits >= 32 {
        v as i32
    } else {
        ((v << (32 - bits)) as i32) >> (32 - bits)
    }
}

/// IEEE half to single, exactly (denormals, infinities and NaNs included).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Denormal: normalise.
            let shift = m.leading_zeros() - 21; // bits to bring the top set bit to bit 10
            let m = (m << shift) & 0x3ff;
            let e = 127 - 15 + 1 - shift;
            sign | (e << 23) | (m << 13)
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13) | 0x0040_0000,
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Single to IEEE half, rounding to nearest even (IEEE's default; the pipeline's
/// conversions round toward zero instead, [`crate::alu::f32tof16`]); overflow gives
/// infinity, NaN stays NaN, tiny values become half denormals or zero.
pub fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 | (man >> 13) as u16 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // Denormal half: shift the mantissa (with its implicit bit) right.
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rem > mid || (rem == mid && half & 1 == 1);
        return sign | (half + round as u32) as u16;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    let round = rem > 0x1000 || (rem == 0x1000 && half & 1 == 1);
    sign | (half + round as u32) as u16 // a carry into the exponent is correct rounding
}

/// An unsigned 11- or 10-bit float (5-bit exponent, `man_bits` mantissa) to f32.
fn small_float_to_f32(v: u32, man_bits: u32) -> f32 {
    let exp = v >> man_bits;
    let man = v & ((1 << man_bits) - 1);
    match exp {
        0 => man as f32 * 2f32.powi(-14 - man_bits as i32),
        0x1f if man == 0 => f32::INFINITY,
        0x1f => f32::NAN,
        e => (1.0 + man as f32 / (1 << man_bits) as f32) * 2f32.powi(e as i32 - 15),
    }
}

/// f32 to an unsigned 11- or 10-bit float (spec 3.2.2): negative values (and -0) to 0,
/// NaN kept, infinity kept, finite values too large to the largest finite value,
/// rounding toward zero.
fn f32_to_small_float(f: f32, man_bits: u32) -> u32 {
    if f.is_nan() {
        return (0x1f << man_bits) | 1;
    }
    if f <= 0.0 {
        return 0;
    }
    if f.is_infinite() {
        return 0x1f << man_bits;
    }
    // The half (same exponent range) rounded toward zero, its mantissa truncated:
    // two truncations are one.
    let h = crate::alu::f32tof16(f.to_bits()) & 0x7fff;
    h >> (10 - man_bits)
}

fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(c: f32) -> f32 {
    if c.is_nan() {
        0.0
    } else if c <= 0.0031308 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_names() {
        assert_eq!(Format::R32G32B32A32_FLOAT.size(), 16);
        assert_eq!(Format::R32G32B32_FLOAT.size(), 12);
        assert_eq!(Format::R8G8B8A8_UNORM.size(), 4);
        assert_eq!(Format::R10G10B10A2_UNORM.size(), 4);
        assert_eq!(Format::R11G11B10_FLOAT.size(), 4);
        assert_eq!(Format::B8G8R8X8_UNORM.size(), 4);
        assert_eq!(Format::R16_FLOAT.size(), 2);
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(*f));
            assert_eq!(Format::from_dxgi(*f as u32), Some(*f));
        }
        assert_eq!(Format::from_name("dxgi_format_r32_uint"), Some(Format::R32_UINT));
    }

    #[test]
    fn decode_defaults_and_conversions() {
        let f = |v: u32| f32::from_bits(v);
        let d = Format::R32G32_FLOAT.decode(&[0, 0, 128, 63, 0, 0, 0, 64]);
        assert_eq!([f(d[0]), f(d[1]), f(d[2]), f(d[3])], [1.0, 2.0, 0.0, 1.0]);
        let d = Format::R8G8B8A8_UNORM.decode(&[255, 0, 128, 51]);
        assert_eq!(f(d[0]), 1.0);
        assert_eq!(f(d[1]), 0.0);
        assert_eq!(f(d[2]), 128.0 / 255.0);
        assert_eq!(f(d[3]), 51.0 / 255.0);
        let d = Format::R8G8_SNORM.decode(&[0x80, 0x81]);
        assert_eq!([f(d[0]), f(d[1])], [-1.0, -1.0]);
        let d = Format::R16_SINT.decode(&[0xff, 0xff]);
        assert_eq!(d, [u32::MAX, 0, 0, 1]);
        let d = Format::B8G8R8A8_UNORM.decode(&[0, 0, 255, 255]);
        assert_eq!([f(d[0]), f(d[1]), f(d[2]), f(d[3])], [1.0, 0.0, 0.0, 1.0]);
        let d = Format::A8_UNORM.decode(&[255]);
        assert_eq!([f(d[0]), f(d[3])], [0.0, 1.0]);
        let d = Format::R10G10B10A2_UINT.decode(&0xC000_03FFu32.to_le_bytes());
        assert_eq!(d, [1023, 0, 0, 3]);
        // Short input reads as zeros, no panic.
        assert_eq!(Format::R32G32B32A32_UINT.decode(&[1]), [1, 0, 0, 0]);
    }

    #[test]
    fn half_floats() {
        for (h, v) in
            [(0x3c00u16, 1.0f32), (0xc000, -2.0), (0x7bff, 65504.0), (0x0001, 5.960_464_5e-8), (0x0400, 6.103_515_6e-5)]
        {
            assert_eq!(f16_to_f32(h), v, "{h:#x}");
            assert_eq!(f32_to_f16(v), h, "{v}");
        }
        assert_eq!(f32_to_f16(1e6), 0x7c00);
        assert!(f16_to_f32(f32_to_f16(f32::NAN)).is_nan());
        assert_eq!(f32_to_f16(f32::INFINITY), 0x7c00);
        // Round to nearest even: 1 + 2^-11 is halfway between 1 and the next half.
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        // Format conversion rounds toward zero and saturates finite values (3.2.2).
        let mut b = [0u8; 2];
        Format::R16_FLOAT.encode([(1.0f32 + 3.0 * 2f32.powi(-11)).to_bits(), 0, 0, 0], &mut b);
        assert_eq!(u16::from_le_bytes(b), 0x3c01);
        Format::R16_FLOAT.encode([1e6f32.to_bits(), 0, 0, 0], &mut b);
        assert_eq!(u16::from_le_bytes(b), 0x7bff);
        Format::R16_FLOAT.encode([f32::NEG_INFINITY.to_bits(), 0, 0, 0], &mut b);
        assert_eq!(u16::from_le_bytes(b), 0xfc00);
        let mut b = [0u8; 4];
        Format::R11G11B10_FLOAT.encode([1e9f32.to_bits(), (-1.0f32).to_bits(), f32::INFINITY.to_bits(), 0], &mut b);
        let packed = u32::from_le_bytes(b);
        assert_eq!(packed & 0x7ff, 0x7bf, "largest finite 11-bit float");
        assert_eq!((packed >> 11) & 0x7ff, 0, "negative to 0");
        assert_eq!(packed >> 22, 0x3e0, "infinity");
        // Every half round-trips.
        for h in 0..=u16::MAX {
            let v = f16_to_f32(h);
            if !v.is_nan() {
                assert_eq!(f32_to_f16(v), h, "{h:#x}");
            }
        }
    }

    #[test]
    fn encode_round_trips_and_saturates() {
        let mut buf = [0u8; 16];
        for f in Format::ALL {
            let v = match f.numeric() {
                Numeric::Float => [0.5f32.to_bits(), 0.25f32.to_bits(), 0.0f32.to_bits(), 1.0f32.to_bits()],
                _ => [1, 2, 0, 1],
            };
            f.encode(v, &mut buf);
            let back = f.decode(&buf);
            // Exact for these values in every format but sRGB and the 2-bit alpha.
            if !matches!(f, Format::R8G8B8A8_UNORM_SRGB | Format::B8G8R8A8_UNORM_SRGB) {
                for c in f.components().iter().take(2).filter_map(|c| c.channel.index()) {
                    let close = match f.numeric() {
                        Numeric::Float => (f32::from_bits(back[c]) - f32::from_bits(v[c])).abs() < 0.01,
                        _ => back[c] == v[c],
                    };
                    assert!(close, "{f:?} component {c}: {:?} -> {:?}", v, back);
                }
            }
        }
        Format::R8_UNORM.encode([2.0f32.to_bits(), 0, 0, 0], &mut buf);
        assert_eq!(buf[0], 255);
        Format::R8_UINT.encode([300, 0, 0, 0], &mut buf);
        assert_eq!(buf[0], 255);
        Format::R8_SINT.encode([(-300i32) as u32, 0, 0, 0], &mut buf);
        assert_eq!(buf[0] as i8, -128);
    }
}
