//! DXGI formats of vertex buffers, shader resources and UAVs: element sizes, and the
//! conversion of one element to the four 32-bit values a shader sees (and back, for
//! typed UAV stores), by the format conversion rules of the functional spec (chapter
//! 3.2): UNORM `c / (2^n - 1)`, SNORM `max(c / (2^(n-1) - 1), -1)`, 16-bit and 11/10-bit
//! floats widened exactly, sRGB to linear, missing components `(0, 0, 0, 1)`.

/// A DXGI format (the value is `DXGI_FORMAT`'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
#[allow(non_camel_case_types)]
pub enum Format {
    /// `DXGI_FORMAT_R32G32B32A32_FLOAT`: four 32-bit floats (16 bytes).
    R32G32B32A32_FLOAT = 2,
    /// `DXGI_FORMAT_R32G32B32A32_UINT`: four 32-bit unsigned integers (16 bytes).
    R32G32B32A32_UINT = 3,
    /// `DXGI_FORMAT_R32G32B32A32_SINT`: four 32-bit signed integers (16 bytes).
    R32G32B32A32_SINT = 4,
    /// `DXGI_FORMAT_R32G32B32_FLOAT`: three 32-bit floats (12 bytes).
    R32G32B32_FLOAT = 6,
    /// `DXGI_FORMAT_R32G32B32_UINT`: three 32-bit unsigned integers (12 bytes).
    R32G32B32_UINT = 7,
    /// `DXGI_FORMAT_R32G32B32_SINT`: three 32-bit signed integers (12 bytes).
    R32G32B32_SINT = 8,
    /// `DXGI_FORMAT_R16G16B16A16_FLOAT`: four 16-bit floats (8 bytes).
    R16G16B16A16_FLOAT = 10,
    /// `DXGI_FORMAT_R16G16B16A16_UNORM`: four 16-bit unsigned normalized values (8 bytes).
    R16G16B16A16_UNORM = 11,
    /// `DXGI_FORMAT_R16G16B16A16_UINT`: four 16-bit unsigned integers (8 bytes).
    R16G16B16A16_UINT = 12,
    /// `DXGI_FORMAT_R16G16B16A16_SNORM`: four 16-bit signed normalized values (8 bytes).
    R16G16B16A16_SNORM = 13,
    /// `DXGI_FORMAT_R16G16B16A16_SINT`: four 16-bit signed integers (8 bytes).
    R16G16B16A16_SINT = 14,
    /// `DXGI_FORMAT_R32G32_FLOAT`: two 32-bit floats (8 bytes).
    R32G32_FLOAT = 16,
    /// `DXGI_FORMAT_R32G32_UINT`: two 32-bit unsigned integers (8 bytes).
    R32G32_UINT = 17,
    /// `DXGI_FORMAT_R32G32_SINT`: two 32-bit signed integers (8 bytes).
    R32G32_SINT = 18,
    /// `DXGI_FORMAT_R10G10B10A2_UNORM`: three 10-bit and one 2-bit unsigned normalized
    /// components (4 bytes).
    R10G10B10A2_UNORM = 24,
    /// `DXGI_FORMAT_R10G10B10A2_UINT`: three 10-bit and one 2-bit unsigned integer
    /// components (4 bytes).
    R10G10B10A2_UINT = 25,
    /// `DXGI_FORMAT_R11G11B10_FLOAT`: two 11-bit and one 10-bit unsigned float components
    /// (4 bytes).
    R11G11B10_FLOAT = 26,
    /// `DXGI_FORMAT_R8G8B8A8_UNORM`: four 8-bit unsigned normalized values (4 bytes).
    R8G8B8A8_UNORM = 28,
    /// `DXGI_FORMAT_R8G8B8A8_UNORM_SRGB`: four 8-bit unsigned normalized values, colour
    /// sRGB-encoded, alpha linear (4 bytes).
    R8G8B8A8_UNORM_SRGB = 29,
    /// `DXGI_FORMAT_R8G8B8A8_UINT`: four 8-bit unsigned integers (4 bytes).
    R8G8B8A8_UINT = 30,
    /// `DXGI_FORMAT_R8G8B8A8_SNORM`: four 8-bit signed normalized values (4 bytes).
    R8G8B8A8_SNORM = 31,
    /// `DXGI_FORMAT_R8G8B8A8_SINT`: four 8-bit signed integers (4 bytes).
    R8G8B8A8_SINT = 32,
    /// `DXGI_FORMAT_R16G16_FLOAT`: two 16-bit floats (4 bytes).
    R16G16_FLOAT = 34,
    /// `DXGI_FORMAT_R16G16_UNORM`: two 16-bit unsigned normalized values (4 bytes).
    R16G16_UNORM = 35,
    /// `DXGI_FORMAT_R16G16_UINT`: two 16-bit unsigned integers (4 bytes).
    R16G16_UINT = 36,
    /// `DXGI_FORMAT_R16G16_SNORM`: two 16-bit signed normalized values (4 bytes).
    R16G16_SNORM = 37,
    /// `DXGI_FORMAT_R16G16_SINT`: two 16-bit signed integers (4 bytes).
    R16G16_SINT = 38,
    /// `DXGI_FORMAT_D32_FLOAT`: one 32-bit float, a depth value read as red (4 bytes).
    D32_FLOAT = 40,
    /// `DXGI_FORMAT_R32_FLOAT`: one 32-bit float (4 bytes).
    R32_FLOAT = 41,
    /// `DXGI_FORMAT_R32_UINT`: one 32-bit unsigned integer (4 bytes).
    R32_UINT = 42,
    /// `DXGI_FORMAT_R32_SINT`: one 32-bit signed integer (4 bytes).
    R32_SINT = 43,
    /// `DXGI_FORMAT_R8G8_UNORM`: two 8-bit unsigned normalized values (2 bytes).
    R8G8_UNORM = 49,
    /// `DXGI_FORMAT_R8G8_UINT`: two 8-bit unsigned integers (2 bytes).
    R8G8_UINT = 50,
    /// `DXGI_FORMAT_R8G8_SNORM`: two 8-bit signed normalized values (2 bytes).
    R8G8_SNORM = 51,
    /// `DXGI_FORMAT_R8G8_SINT`: two 8-bit signed integers (2 bytes).
    R8G8_SINT = 52,
    /// `DXGI_FORMAT_R16_FLOAT`: one 16-bit float (2 bytes).
    R16_FLOAT = 54,
    /// `DXGI_FORMAT_D16_UNORM`: one 16-bit unsigned normalized value, a depth value read as
    /// red (2 bytes).
    D16_UNORM = 55,
    /// `DXGI_FORMAT_R16_UNORM`: one 16-bit unsigned normalized value (2 bytes).
    R16_UNORM = 56,
    /// `DXGI_FORMAT_R16_UINT`: one 16-bit unsigned integer (2 bytes).
    R16_UINT = 57,
    /// `DXGI_FORMAT_R16_SNORM`: one 16-bit signed normalized value (2 bytes).
    R16_SNORM = 58,
    /// `DXGI_FORMAT_R16_SINT`: one 16-bit signed integer (2 bytes).
    R16_SINT = 59,
    /// `DXGI_FORMAT_R8_UNORM`: one 8-bit unsigned normalized value (1 byte).
    R8_UNORM = 61,
    /// `DXGI_FORMAT_R8_UINT`: one 8-bit unsigned integer (1 byte).
    R8_UINT = 62,
    /// `DXGI_FORMAT_R8_SNORM`: one 8-bit signed normalized value (1 byte).
    R8_SNORM = 63,
    /// `DXGI_FORMAT_R8_SINT`: one 8-bit signed integer (1 byte).
    R8_SINT = 64,
    /// `DXGI_FORMAT_A8_UNORM`: one 8-bit unsigned normalized value, alpha only: the shader
    /// sees (0, 0, 0, a) (1 byte).
    A8_UNORM = 65,
    /// `DXGI_FORMAT_B8G8R8A8_UNORM`: four 8-bit unsigned normalized values in blue, green,
    /// red, alpha order (4 bytes).
    B8G8R8A8_UNORM = 87,
    /// `DXGI_FORMAT_B8G8R8X8_UNORM`: three 8-bit unsigned normalized values in blue, green,
    /// red order, then an unused byte: alpha reads 1 (4 bytes).
    B8G8R8X8_UNORM = 88,
    /// `DXGI_FORMAT_B8G8R8A8_UNORM_SRGB`: four 8-bit unsigned normalized values in blue,
    /// green, red, alpha order, colour sRGB-encoded, alpha linear (4 bytes).
    B8G8R8A8_UNORM_SRGB = 91,
}

/// How a format's components are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Float,
    Unorm,
    Snorm,
    Uint,
    Sint,
    Srgb,
}

/// What a shader sees from a format: floats, or 32-bit integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumericType {
    /// 32-bit floats (FLOAT, UNORM, SNORM and sRGB formats).
    Float,
    /// 32-bit unsigned integers (UINT formats).
    Uint,
    /// 32-bit signed integers (SINT formats).
    Sint,
}

impl Format {
    /// Every format this module converts.
    pub const ALL: &'static [Format] = &[
        Format::R32G32B32A32_FLOAT,
        Format::R32G32B32A32_UINT,
        Format::R32G32B32A32_SINT,
        Format::R32G32B32_FLOAT,
        Format::R32G32B32_UINT,
        Format::R32G32B32_SINT,
        Format::R16G16B16A16_FLOAT,
        Format::R16G16B16A16_UNORM,
        Format::R16G16B16A16_UINT,
        Format::R16G16B16A16_SNORM,
        Format::R16G16B16A16_SINT,
        Format::R32G32_FLOAT,
        Format::R32G32_UINT,
        Format::R32G32_SINT,
        Format::R10G10B10A2_UNORM,
        Format::R10G10B10A2_UINT,
        Format::R11G11B10_FLOAT,
        Format::R8G8B8A8_UNORM,
        Format::R8G8B8A8_UNORM_SRGB,
        Format::R8G8B8A8_UINT,
        Format::R8G8B8A8_SNORM,
        Format::R8G8B8A8_SINT,
        Format::R16G16_FLOAT,
        Format::R16G16_UNORM,
        Format::R16G16_UINT,
        Format::R16G16_SNORM,
        Format::R16G16_SINT,
        Format::D32_FLOAT,
        Format::R32_FLOAT,
        Format::R32_UINT,
        Format::R32_SINT,
        Format::R8G8_UNORM,
        Format::R8G8_UINT,
        Format::R8G8_SNORM,
        Format::R8G8_SINT,
        Format::R16_FLOAT,
        Format::D16_UNORM,
        Format::R16_UNORM,
        Format::R16_UINT,
        Format::R16_SNORM,
        Format::R16_SINT,
        Format::R8_UNORM,
        Format::R8_UINT,
        Format::R8_SNORM,
        Format::R8_SINT,
        Format::A8_UNORM,
        Format::B8G8R8A8_UNORM,
        Format::B8G8R8X8_UNORM,
        Format::B8G8R8A8_UNORM_SRGB,
    ];

    /// The format whose `DXGI_FORMAT` value is `v`.
    pub fn from_dxgi(v: u32) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| *f as u32 == v)
    }

    /// The format named `name` (`R32G32B32A32_FLOAT`, with or without `DXGI_FORMAT_`,
    /// any case).
    pub fn from_name(name: &str) -> Option<Format> {
        let upper = name.trim().to_ascii_uppercase();
        let n = upper.strip_prefix("DXGI_FORMAT_").unwrap_or(&upper);
        Format::ALL.iter().copied().find(|f| f.name() == n)
    }

    /// `R32G32B32A32_FLOAT`.
    pub fn name(self) -> &'static str {
        use Format::*;
        match self {
            R32G32B32A32_FLOAT => "R32G32B32A32_FLOAT",
            R32G32B32A32_UINT => "R32G32B32A32_UINT",
            R32G32B32A32_SINT => "R32G32B32A32_SINT",
            R32G32B32_FLOAT => "R32G32B32_FLOAT",
            R32G32B32_UINT => "R32G32B32_UINT",
            R32G32B32_SINT => "R32G32B32_SINT",
            R16G16B16A16_FLOAT => "R16G16B16A16_FLOAT",
            R16G16B16A16_UNORM => "R16G16B16A16_UNORM",
            R16G16B16A16_UINT => "R16G16B16A16_UINT",
            R16G16B16A16_SNORM => "R16G16B16A16_SNORM",
            R16G16B16A16_SINT => "R16G16B16A16_SINT",
            R32G32_FLOAT => "R32G32_FLOAT",
            R32G32_UINT => "R32G32_UINT",
            R32G32_SINT => "R32G32_SINT",
            R10G10B10A2_UNORM => "R10G10B10A2_UNORM",
            R10G10B10A2_UINT => "R10G10B10A2_UINT",
            R11G11B10_FLOAT => "R11G11B10_FLOAT",
            R8G8B8A8_UNORM => "R8G8B8A8_UNORM",
            R8G8B8A8_UNORM_SRGB => "R8G8B8A8_UNORM_SRGB",
            R8G8B8A8_UINT => "R8G8B8A8_UINT",
            R8G8B8A8_SNORM => "R8G8B8A8_SNORM",
            R8G8B8A8_SINT => "R8G8B8A8_SINT",
            R16G16_FLOAT => "R16G16_FLOAT",
            R16G16_UNORM => "R16G16_UNORM",
            R16G16_UINT => "R16G16_UINT",
            R16G16_SNORM => "R16G16_SNORM",
            R16G16_SINT => "R16G16_SINT",
            D32_FLOAT => "D32_FLOAT",
            R32_FLOAT => "R32_FLOAT",
            R32_UINT => "R32_UINT",
            R32_SINT => "R32_SINT",
            R8G8_UNORM => "R8G8_UNORM",
            R8G8_UINT => "R8G8_UINT",
            R8G8_SNORM => "R8G8_SNORM",
            R8G8_SINT => "R8G8_SINT",
            R16_FLOAT => "R16_FLOAT",
            D16_UNORM => "D16_UNORM",
            R16_UNORM => "R16_UNORM",
            R16_UINT => "R16_UINT",
            R16_SNORM => "R16_SNORM",
            R16_SINT => "R16_SINT",
            R8_UNORM => "R8_UNORM",
            R8_UINT => "R8_UINT",
            R8_SNORM => "R8_SNORM",
            R8_SINT => "R8_SINT",
            A8_UNORM => "A8_UNORM",
            B8G8R8A8_UNORM => "B8G8R8A8_UNORM",
            B8G8R8X8_UNORM => "B8G8R8X8_UNORM",
            B8G8R8A8_UNORM_SRGB => "B8G8R8A8_UNORM_SRGB",
        }
    }

    /// (kind, bits of each stored component in storage order, which shader component
    /// each storage component goes to).
    fn layout(self) -> (Kind, &'static [u8], &'static [u8]) {
        use Format::*;
        use Kind::*;
        const RGBA: &[u8] = &[0, 1, 2, 3];
        match self {
            R32G32B32A32_FLOAT => (Float, &[32; 4], RGBA),
            R32G32B32A32_UINT => (Uint, &[32; 4], RGBA),
            R32G32B32A32_SINT => (Sint, &[32; 4], RGBA),
            R32G32B32_FLOAT => (Float, &[32; 3], RGBA),
            R32G32B32_UINT => (Uint, &[32; 3], RGBA),
            R32G32B32_SINT => (Sint, &[32; 3], RGBA),
            R16G16B16A16_FLOAT => (Float, &[16; 4], RGBA),
            R16G16B16A16_UNORM => (Unorm, &[16; 4], RGBA),
            R16G16B16A16_UINT => (Uint, &[16; 4], RGBA),
            R16G16B16A16_SNORM => (Snorm, &[16; 4], RGBA),
            R16G16B16A16_SINT => (Sint, &[16; 4], RGBA),
            R32G32_FLOAT => (Float, &[32; 2], RGBA),
            R32G32_UINT => (Uint, &[32; 2], RGBA),
            R32G32_SINT => (Sint, &[32; 2], RGBA),
            R10G10B10A2_UNORM => (Unorm, &[10, 10, 10, 2], RGBA),
            R10G10B10A2_UINT => (Uint, &[10, 10, 10, 2], RGBA),
            R11G11B10_FLOAT => (Float, &[11, 11, 10], RGBA),
            R8G8B8A8_UNORM => (Unorm, &[8; 4], RGBA),
            R8G8B8A8_UNORM_SRGB => (Srgb, &[8; 4], RGBA),
            R8G8B8A8_UINT => (Uint, &[8; 4], RGBA),
            R8G8B8A8_SNORM => (Snorm, &[8; 4], RGBA),
            R8G8B8A8_SINT => (Sint, &[8; 4], RGBA),
            R16G16_FLOAT => (Float, &[16; 2], RGBA),
            R16G16_UNORM => (Unorm, &[16; 2], RGBA),
            R16G16_UINT => (Uint, &[16; 2], RGBA),
            R16G16_SNORM => (Snorm, &[16; 2], RGBA),
            R16G16_SINT => (Sint, &[16; 2], RGBA),
            D32_FLOAT | R32_FLOAT => (Float, &[32], RGBA),
            R32_UINT => (Uint, &[32], RGBA),
            R32_SINT => (Sint, &[32], RGBA),
            R8G8_UNORM => (Unorm, &[8; 2], RGBA),
            R8G8_UINT => (Uint, &[8; 2], RGBA),
            R8G8_SNORM => (Snorm, &[8; 2], RGBA),
            R8G8_SINT => (Sint, &[8; 2], RGBA),
            R16_FLOAT => (Float, &[16], RGBA),
            D16_UNORM | R16_UNORM => (Unorm, &[16], RGBA),
            R16_UINT => (Uint, &[16], RGBA),
            R16_SNORM => (Snorm, &[16], RGBA),
            R16_SINT => (Sint, &[16], RGBA),
            R8_UNORM => (Unorm, &[8], RGBA),
            R8_UINT => (Uint, &[8], RGBA),
            R8_SNORM => (Snorm, &[8], RGBA),
            R8_SINT => (Sint, &[8], RGBA),
            A8_UNORM => (Unorm, &[8], &[3]),
            B8G8R8A8_UNORM => (Unorm, &[8; 4], &[2, 1, 0, 3]),
            B8G8R8X8_UNORM => (Unorm, &[8; 3], &[2, 1, 0]),
            B8G8R8A8_UNORM_SRGB => (Srgb, &[8; 4], &[2, 1, 0, 3]),
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Format::B8G8R8X8_UNORM => 4,
            _ => {
                let bits: u32 = self.layout().1.iter().map(|&b| b as u32).sum();
                (bits / 8) as usize
            }
        }
    }

    /// Number of components the format stores.
    pub fn components(self) -> usize {
        self.layout().1.len()
    }

    /// What the shader sees: floats or integers.
    pub fn numeric_type(self) -> NumericType {
        match self.layout().0 {
            Kind::Uint => NumericType::Uint,
            Kind::Sint => NumericType::Sint,
            _ => NumericType::Float,
        }
    }

    /// The four 32-bit values a shader reads from one element (`bytes` at least
    /// [`size`](Self::size) long; shorter input reads as zero bytes). Float results are
    /// f32 bits; components the format lacks are 0, 0, 0 and 1 (1.0 or integer 1).
    pub fn decode(self, bytes: &[u8]) -> [u32; 4] {
        let (kind, bits, order) = self.layout();
        let int = matches!(kind, Kind::Uint | Kind::Sint);
        let mut out = [0, 0, 0, if int { 1 } else { 1.0f32.to_bits() }];
        let mut raw = [0u8; 16];
        let n = self.size().min(bytes.len());
        raw[..n].copy_from_slice(&bytes[..n]);
        let wide = u128::from_le_bytes(raw);
        let mut shift = 0u32;
        for (i, &b) in bits.iter().enumerate() {
            let b = b as u32;
            let v = ((wide >> shift) as u64 & ((1u64 << b) - 1)) as u32;
            shift += b;
            let c = order[i] as usize;
            out[c] = match kind {
                Kind::Uint => v,
                Kind::Sint => sign_extend(v, b) as u32,
                Kind::Float => match b {
                    32 => v,
                    16 => f16_to_f32(v as u16).to_bits(),
                    11 => small_float_to_f32(v, 6).to_bits(),
                    10 => small_float_to_f32(v, 5).to_bits(),
                    _ => 0,
                },
                Kind::Unorm => (v as f32 / ((1u64 << b) - 1) as f32).to_bits(),
                Kind::Snorm => {
                    let s = sign_extend(v, b) as f32 / ((1u64 << (b - 1)) - 1) as f32;
                    s.max(-1.0).to_bits()
                }
                Kind::Srgb if c == 3 => (v as f32 / 255.0).to_bits(),
                Kind::Srgb => srgb_to_linear(v as f32 / 255.0).to_bits(),
            };
        }
        out
    }

    /// Writes `value` (what a shader stores: f32 bits or integers) as one element into
    /// `out` (at least [`size`](Self::size) bytes; a shorter slice gets what fits).
    /// Floats to UNORM/SNORM saturate and round to nearest; integers to narrower
    /// integer formats clamp; floats to 16/11/10-bit floats round toward zero, finite
    /// values too large become the largest finite value, infinities stay infinite and
    /// NaN stays NaN (spec 3.2.2).
    pub fn encode(self, value: [u32; 4], out: &mut [u8]) {
        let (kind, bits, order) = self.layout();
        let mut wide: u128 = 0;
        let mut shift = 0u32;
        for (i, &b) in bits.iter().enumerate() {
            let b = b as u32;
            let c = order[i] as usize;
            let x = value[c];
            let f = f32::from_bits(x);
            let mask = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
            let v: u32 = match kind {
                Kind::Uint => x.min(mask),
                Kind::Sint => {
                    let lo = -(1i64 << (b - 1));
                    let hi = (1i64 << (b - 1)) - 1;
                    ((x as i32 as i64).clamp(lo, hi) as u32) & mask
                }
                Kind::Float => match b {
                    32 => x,
                    16 => crate::alu::f32tof16(x) & 0xffff,
                    11 => f32_to_small_float(f, 6),
                    10 => f32_to_small_float(f, 5),
                    _ => 0,
                },
                Kind::Unorm | Kind::Srgb => {
                    let f = if kind == Kind::Srgb && c != 3 { linear_to_srgb(f) } else { f };
                    let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                    (f * mask as f32).round_ties_even() as u32
                }
                Kind::Snorm => {
                    let max = ((1u32 << (b - 1)) - 1) as f32;
                    let f = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
                    ((f * max).round_ties_even() as i32 as u32) & mask
                }
            };
            wide |= (v as u128) << shift;
            shift += b;
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
            let v = match f.numeric_type() {
                NumericType::Float => [0.5f32.to_bits(), 0.25f32.to_bits(), 0.0f32.to_bits(), 1.0f32.to_bits()],
                _ => [1, 2, 0, 1],
            };
            f.encode(v, &mut buf);
            let back = f.decode(&buf);
            // Exact for these values in every format but sRGB and the 2-bit alpha.
            if !matches!(f, Format::R8G8B8A8_UNORM_SRGB | Format::B8G8R8A8_UNORM_SRGB) {
                for &c in f.layout().2.iter().take(f.components().min(2)) {
                    let c = c as usize;
                    let close = match f.numeric_type() {
                        NumericType::Float => (f32::from_bits(back[c]) - f32::from_bits(v[c])).abs() < 0.01,
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
