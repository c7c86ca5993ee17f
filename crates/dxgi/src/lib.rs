//! DXGI formats, each described once, as data.
//!
//! A format (Microsoft's "DXGI_FORMAT enumeration" page, header `dxgiformat.h`) is a row
//! of one table: its `DXGI_FORMAT` name and value, and its components in storage order,
//! each with its bit width, the channel a shader reads it as (`X` for bits the format
//! leaves unused) and its [`Encoding`]. The bit offsets (an element is little-endian,
//! its first component in the lowest bits), the element size and what a shader reads
//! ([`Numeric`]) follow from the row. Everything that converts elements walks the
//! components instead of naming formats: the reference runtime's conversions
//! (`exec::format`, Rust) and the translator's (`translate::buffer_format`, which writes
//! WGSL functions). What each encoding means is the Direct3D 11.3 functional spec's
//! section 3.2 "Data Conversion"; a component the format lacks reads 0, and alpha 1.
//!
//! ```
//! use dxgi::{Channel, Encoding, Format, Numeric};
//! let f = Format::from_name("DXGI_FORMAT_B8G8R8X8_UNORM").unwrap();
//! assert_eq!((f as u32, f.size(), f.numeric()), (88, 4, Numeric::Float));
//! let c = f.components();
//! assert_eq!((c[0].channel, c[0].encoding, c[0].bits, c[0].offset), (Channel::B, Encoding::Unorm, 8, 0));
//! assert_eq!((c[3].channel, c[3].offset), (Channel::X, 24)); // unused: alpha reads 1
//! let packed = Format::R11G11B10_FLOAT.components();
//! assert_eq!(packed[2].encoding, Encoding::UnsignedFloat { mantissa: 5 });
//! assert_eq!(packed[2].offset, 22);
//! ```

#![warn(missing_docs)]

/// The channel a stored component is read as by a shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Red: the shader's `x`.
    R,
    /// Green: `y`.
    G,
    /// Blue: `z`.
    B,
    /// Alpha: `w`.
    A,
    /// Bits the format leaves unused (`B8G8R8X8`'s last byte): no shader component.
    X,
}

impl Channel {
    /// The shader component (0 to 3 for `x` to `w`), or `None` for unused bits.
    pub const fn index(self) -> Option<usize> {
        match self {
            Channel::R => Some(0),
            Channel::G => Some(1),
            Channel::B => Some(2),
            Channel::A => Some(3),
            Channel::X => None,
        }
    }
}

/// How a component's bits encode its value (functional spec, 3.2 "Data Conversion").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Unsigned normalized: `c / (2^n - 1)`, in [0, 1].
    Unorm,
    /// Signed normalized (two's complement): `max(c / (2^(n-1) - 1), -1)`, in [-1, 1].
    Snorm,
    /// An unsigned integer, read zero-extended.
    Uint,
    /// A two's-complement integer, read sign-extended.
    Sint,
    /// An IEEE single (32 bits).
    Float,
    /// An IEEE half (16 bits).
    Half,
    /// An unsigned float with a 5-bit exponent (bias 15) and `mantissa` bits of mantissa,
    /// no sign bit: the 11-bit (6-bit mantissa) and 10-bit (5-bit mantissa) floats of
    /// `R11G11B10_FLOAT`.
    UnsignedFloat {
        /// Bits of mantissa.
        mantissa: u8,
    },
    /// An 8-bit UNORM value that is sRGB-encoded: read through the sRGB-to-linear curve
    /// (the `_SRGB` formats' colour; their alpha is [`Unorm`](Encoding::Unorm)).
    Srgb,
}

impl Encoding {
    /// What a shader reads from a component of this encoding.
    pub const fn numeric(self) -> Numeric {
        match self {
            Encoding::Uint => Numeric::Uint,
            Encoding::Sint => Numeric::Sint,
            _ => Numeric::Float,
        }
    }
}

/// What a shader reads from a format: floats, or 32-bit integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Numeric {
    /// 32-bit floats (FLOAT, UNORM, SNORM and sRGB formats): views declared `float`,
    /// `unorm`, `snorm`.
    Float,
    /// 32-bit unsigned integers (UINT formats).
    Uint,
    /// 32-bit signed integers (SINT formats).
    Sint,
}

/// One stored component of a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Component {
    /// The channel a shader reads it as.
    pub channel: Channel,
    /// How its bits encode its value.
    pub encoding: Encoding,
    /// Its width in bits.
    pub bits: u8,
    /// Its first bit, counted from the lowest bit of the (little-endian) element.
    pub offset: u8,
}

/// A format's row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FormatInfo {
    /// The format.
    pub format: Format,
    /// Its name without `DXGI_FORMAT_`: `R8G8B8A8_UNORM`.
    pub name: &'static str,
    /// Its components in storage order (the lowest bits first).
    pub components: &'static [Component],
    /// Bytes per element: the components' bits / 8.
    pub size: usize,
    /// A depth format (`D32_FLOAT`, `D16_UNORM`), read as red by a shader.
    pub depth: bool,
}

/// The components of a row, their offsets summed from the widths (storage order).
const fn pack<const N: usize>(parts: [(Channel, Encoding, u8); N]) -> [Component; N] {
    let mut out = [Component { channel: Channel::X, encoding: Encoding::Uint, bits: 0, offset: 0 }; N];
    let mut i = 0;
    let mut at: u8 = 0;
    while i < N {
        let (channel, encoding, bits) = parts[i];
        out[i] = Component { channel, encoding, bits, offset: at };
        at += bits;
        i += 1;
    }
    out
}

/// Bytes per element of `components`.
const fn bytes(components: &[Component]) -> usize {
    let mut bits = 0usize;
    let mut i = 0;
    while i < components.len() {
        bits += components[i].bits as usize;
        i += 1;
    }
    bits / 8
}

/// The encodings as the rows spell them.
#[allow(non_upper_case_globals)]
mod row {
    use super::Encoding;
    pub const Unorm: Encoding = Encoding::Unorm;
    pub const Snorm: Encoding = Encoding::Snorm;
    pub const Uint: Encoding = Encoding::Uint;
    pub const Sint: Encoding = Encoding::Sint;
    pub const Float: Encoding = Encoding::Float;
    pub const Half: Encoding = Encoding::Half;
    pub const Float11: Encoding = Encoding::UnsignedFloat { mantissa: 6 };
    pub const Float10: Encoding = Encoding::UnsignedFloat { mantissa: 5 };
    pub const Srgb: Encoding = Encoding::Srgb;
}

/// Declares [`Format`] and its table from one row a format:
/// `NAME = DXGI_FORMAT value [depth]: channel encoding bits, ...;` (storage order).
macro_rules! formats {
    ($(
        $(#[$doc:meta])*
        $name:ident = $value:literal $([$depth:ident])? : $($ch:ident $enc:ident $bits:literal),+ ;
    )*) => {
        /// A DXGI format (the value is `DXGI_FORMAT`'s).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u32)]
        #[allow(non_camel_case_types)]
        pub enum Format {
            $($(#[$doc])* $name = $value,)*
        }

        impl Format {
            /// Every format of the table, by `DXGI_FORMAT` value.
            pub const ALL: &'static [Format] = &[$(Format::$name),*];

            /// The format's row.
            pub const fn info(self) -> &'static FormatInfo {
                match self {
                    $(Format::$name => {
                        const COMPONENTS: &[Component] = &pack([$((Channel::$ch, row::$enc, $bits)),+]);
                        const INFO: FormatInfo = FormatInfo {
                            format: Format::$name,
                            name: stringify!($name),
                            components: COMPONENTS,
                            size: bytes(COMPONENTS),
                            depth: formats!(@depth $($depth)?),
                        };
                        &INFO
                    })*
                }
            }
        }
    };
    (@depth depth) => { true };
    (@depth) => { false };
}

formats! {
    /// `DXGI_FORMAT_R32G32B32A32_FLOAT`: four 32-bit floats (16 bytes).
    R32G32B32A32_FLOAT = 2: R Float 32, G Float 32, B Float 32, A Float 32;
    /// `DXGI_FORMAT_R32G32B32A32_UINT`: four 32-bit unsigned integers (16 bytes).
    R32G32B32A32_UINT = 3: R Uint 32, G Uint 32, B Uint 32, A Uint 32;
    /// `DXGI_FORMAT_R32G32B32A32_SINT`: four 32-bit signed integers (16 bytes).
    R32G32B32A32_SINT = 4: R Sint 32, G Sint 32, B Sint 32, A Sint 32;
    /// `DXGI_FORMAT_R32G32B32_FLOAT`: three 32-bit floats (12 bytes).
    R32G32B32_FLOAT = 6: R Float 32, G Float 32, B Float 32;
    /// `DXGI_FORMAT_R32G32B32_UINT`: three 32-bit unsigned integers (12 bytes).
    R32G32B32_UINT = 7: R Uint 32, G Uint 32, B Uint 32;
    /// `DXGI_FORMAT_R32G32B32_SINT`: three 32-bit signed integers (12 bytes).
    R32G32B32_SINT = 8: R Sint 32, G Sint 32, B Sint 32;
    /// `DXGI_FORMAT_R16G16B16A16_FLOAT`: four 16-bit floats (8 bytes).
    R16G16B16A16_FLOAT = 10: R Half 16, G Half 16, B Half 16, A Half 16;
    /// `DXGI_FORMAT_R16G16B16A16_UNORM`: four 16-bit unsigned normalized values (8 bytes).
    R16G16B16A16_UNORM = 11: R Unorm 16, G Unorm 16, B Unorm 16, A Unorm 16;
    /// `DXGI_FORMAT_R16G16B16A16_UINT`: four 16-bit unsigned integers (8 bytes).
    R16G16B16A16_UINT = 12: R Uint 16, G Uint 16, B Uint 16, A Uint 16;
    /// `DXGI_FORMAT_R16G16B16A16_SNORM`: four 16-bit signed normalized values (8 bytes).
    R16G16B16A16_SNORM = 13: R Snorm 16, G Snorm 16, B Snorm 16, A Snorm 16;
    /// `DXGI_FORMAT_R16G16B16A16_SINT`: four 16-bit signed integers (8 bytes).
    R16G16B16A16_SINT = 14: R Sint 16, G Sint 16, B Sint 16, A Sint 16;
    /// `DXGI_FORMAT_R32G32_FLOAT`: two 32-bit floats (8 bytes).
    R32G32_FLOAT = 16: R Float 32, G Float 32;
    /// `DXGI_FORMAT_R32G32_UINT`: two 32-bit unsigned integers (8 bytes).
    R32G32_UINT = 17: R Uint 32, G Uint 32;
    /// `DXGI_FORMAT_R32G32_SINT`: two 32-bit signed integers (8 bytes).
    R32G32_SINT = 18: R Sint 32, G Sint 32;
    /// `DXGI_FORMAT_R10G10B10A2_UNORM`: three 10-bit and one 2-bit unsigned normalized
    /// components (4 bytes).
    R10G10B10A2_UNORM = 24: R Unorm 10, G Unorm 10, B Unorm 10, A Unorm 2;
    /// `DXGI_FORMAT_R10G10B10A2_UINT`: three 10-bit and one 2-bit unsigned integer
    /// components (4 bytes).
    R10G10B10A2_UINT = 25: R Uint 10, G Uint 10, B Uint 10, A Uint 2;
    /// `DXGI_FORMAT_R11G11B10_FLOAT`: two 11-bit and one 10-bit unsigned float components
    /// (4 bytes).
    R11G11B10_FLOAT = 26: R Float11 11, G Float11 11, B Float10 10;
    /// `DXGI_FORMAT_R8G8B8A8_UNORM`: four 8-bit unsigned normalized values (4 bytes).
    R8G8B8A8_UNORM = 28: R Unorm 8, G Unorm 8, B Unorm 8, A Unorm 8;
    /// `DXGI_FORMAT_R8G8B8A8_UNORM_SRGB`: four 8-bit unsigned normalized values, colour
    /// sRGB-encoded, alpha linear (4 bytes).
    R8G8B8A8_UNORM_SRGB = 29: R Srgb 8, G Srgb 8, B Srgb 8, A Unorm 8;
    /// `DXGI_FORMAT_R8G8B8A8_UINT`: four 8-bit unsigned integers (4 bytes).
    R8G8B8A8_UINT = 30: R Uint 8, G Uint 8, B Uint 8, A Uint 8;
    /// `DXGI_FORMAT_R8G8B8A8_SNORM`: four 8-bit signed normalized values (4 bytes).
    R8G8B8A8_SNORM = 31: R Snorm 8, G Snorm 8, B Snorm 8, A Snorm 8;
    /// `DXGI_FORMAT_R8G8B8A8_SINT`: four 8-bit signed integers (4 bytes).
    R8G8B8A8_SINT = 32: R Sint 8, G Sint 8, B Sint 8, A Sint 8;
    /// `DXGI_FORMAT_R16G16_FLOAT`: two 16-bit floats (4 bytes).
    R16G16_FLOAT = 34: R Half 16, G Half 16;
    /// `DXGI_FORMAT_R16G16_UNORM`: two 16-bit unsigned normalized values (4 bytes).
    R16G16_UNORM = 35: R Unorm 16, G Unorm 16;
    /// `DXGI_FORMAT_R16G16_UINT`: two 16-bit unsigned integers (4 bytes).
    R16G16_UINT = 36: R Uint 16, G Uint 16;
    /// `DXGI_FORMAT_R16G16_SNORM`: two 16-bit signed normalized values (4 bytes).
    R16G16_SNORM = 37: R Snorm 16, G Snorm 16;
    /// `DXGI_FORMAT_R16G16_SINT`: two 16-bit signed integers (4 bytes).
    R16G16_SINT = 38: R Sint 16, G Sint 16;
    /// `DXGI_FORMAT_D32_FLOAT`: one 32-bit float, a depth value read as red (4 bytes).
    D32_FLOAT = 40 [depth]: R Float 32;
    /// `DXGI_FORMAT_R32_FLOAT`: one 32-bit float (4 bytes).
    R32_FLOAT = 41: R Float 32;
    /// `DXGI_FORMAT_R32_UINT`: one 32-bit unsigned integer (4 bytes).
    R32_UINT = 42: R Uint 32;
    /// `DXGI_FORMAT_R32_SINT`: one 32-bit signed integer (4 bytes).
    R32_SINT = 43: R Sint 32;
    /// `DXGI_FORMAT_R8G8_UNORM`: two 8-bit unsigned normalized values (2 bytes).
    R8G8_UNORM = 49: R Unorm 8, G Unorm 8;
    /// `DXGI_FORMAT_R8G8_UINT`: two 8-bit unsigned integers (2 bytes).
    R8G8_UINT = 50: R Uint 8, G Uint 8;
    /// `DXGI_FORMAT_R8G8_SNORM`: two 8-bit signed normalized values (2 bytes).
    R8G8_SNORM = 51: R Snorm 8, G Snorm 8;
    /// `DXGI_FORMAT_R8G8_SINT`: two 8-bit signed integers (2 bytes).
    R8G8_SINT = 52: R Sint 8, G Sint 8;
    /// `DXGI_FORMAT_R16_FLOAT`: one 16-bit float (2 bytes).
    R16_FLOAT = 54: R Half 16;
    /// `DXGI_FORMAT_D16_UNORM`: one 16-bit unsigned normalized value, a depth value read as
    /// red (2 bytes).
    D16_UNORM = 55 [depth]: R Unorm 16;
    /// `DXGI_FORMAT_R16_UNORM`: one 16-bit unsigned normalized value (2 bytes).
    R16_UNORM = 56: R Unorm 16;
    /// `DXGI_FORMAT_R16_UINT`: one 16-bit unsigned integer (2 bytes).
    R16_UINT = 57: R Uint 16;
    /// `DXGI_FORMAT_R16_SNORM`: one 16-bit signed normalized value (2 bytes).
    R16_SNORM = 58: R Snorm 16;
    /// `DXGI_FORMAT_R16_SINT`: one 16-bit signed integer (2 bytes).
    R16_SINT = 59: R Sint 16;
    /// `DXGI_FORMAT_R8_UNORM`: one 8-bit unsigned normalized value (1 byte).
    R8_UNORM = 61: R Unorm 8;
    /// `DXGI_FORMAT_R8_UINT`: one 8-bit unsigned integer (1 byte).
    R8_UINT = 62: R Uint 8;
    /// `DXGI_FORMAT_R8_SNORM`: one 8-bit signed normalized value (1 byte).
    R8_SNORM = 63: R Snorm 8;
    /// `DXGI_FORMAT_R8_SINT`: one 8-bit signed integer (1 byte).
    R8_SINT = 64: R Sint 8;
    /// `DXGI_FORMAT_A8_UNORM`: one 8-bit unsigned normalized value, alpha only: the shader
    /// sees (0, 0, 0, a) (1 byte).
    A8_UNORM = 65: A Unorm 8;
    /// `DXGI_FORMAT_B8G8R8A8_UNORM`: four 8-bit unsigned normalized values in blue, green,
    /// red, alpha order (4 bytes).
    B8G8R8A8_UNORM = 87: B Unorm 8, G Unorm 8, R Unorm 8, A Unorm 8;
    /// `DXGI_FORMAT_B8G8R8X8_UNORM`: three 8-bit unsigned normalized values in blue, green,
    /// red order, then an unused byte: alpha reads 1 (4 bytes).
    B8G8R8X8_UNORM = 88: B Unorm 8, G Unorm 8, R Unorm 8, X Unorm 8;
    /// `DXGI_FORMAT_B8G8R8A8_UNORM_SRGB`: four 8-bit unsigned normalized values in blue,
    /// green, red, alpha order, colour sRGB-encoded, alpha linear (4 bytes).
    B8G8R8A8_UNORM_SRGB = 91: B Srgb 8, G Srgb 8, R Srgb 8, A Unorm 8;
}

impl Format {
    /// The format whose `DXGI_FORMAT` value is `v`.
    pub fn from_dxgi(v: u32) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| *f as u32 == v)
    }

    /// The format named `name` (`R8G8B8A8_UNORM`, with or without `DXGI_FORMAT_`, any
    /// case, blanks around it ignored).
    pub fn from_name(name: &str) -> Option<Format> {
        let upper = name.trim().to_ascii_uppercase();
        let n = upper.strip_prefix("DXGI_FORMAT_").unwrap_or(&upper);
        Format::ALL.iter().copied().find(|f| f.name() == n)
    }

    /// `R8G8B8A8_UNORM` (the name without `DXGI_FORMAT_`).
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// Its components in storage order, the lowest bits first.
    pub const fn components(self) -> &'static [Component] {
        self.info().components
    }

    /// Bytes per element: 1, 2, 4, 8, 12 or 16.
    pub const fn size(self) -> usize {
        self.info().size
    }

    /// What a shader reads: floats, unsigned or signed integers (the encoding of its
    /// components; a format's are all of one numeric type).
    pub const fn numeric(self) -> Numeric {
        match self.components().first() {
            Some(c) => c.encoding.numeric(),
            None => Numeric::Float,
        }
    }

    /// A depth format (`D32_FLOAT`, `D16_UNORM`).
    pub const fn is_depth(self) -> bool {
        self.info().depth
    }

    /// Whether a component is sRGB-encoded (the `_SRGB` formats).
    pub fn is_srgb(self) -> bool {
        self.components().iter().any(|c| c.encoding == Encoding::Srgb)
    }

    /// The 32-bit values a shader reads for the components the format lacks: 0, 0, 0 and
    /// 1 (1.0 for [`Numeric::Float`] formats, the integer 1 for the others).
    pub const fn defaults(self) -> [u32; 4] {
        match self.numeric() {
            Numeric::Float => [0, 0, 0, 0x3f80_0000],
            Numeric::Uint | Numeric::Sint => [0, 0, 0, 1],
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_values_round_trip() {
        for &f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
            assert_eq!(Format::from_name(&format!(" dxgi_format_{} ", f.name().to_lowercase())), Some(f));
            assert_eq!(Format::from_dxgi(f as u32), Some(f));
            assert_eq!(f.info().format, f);
        }
        assert_eq!(Format::from_name("R8G8B8A8"), None);
        assert_eq!(Format::from_dxgi(0), None);
        assert!(Format::ALL.windows(2).all(|w| (w[0] as u32) < (w[1] as u32)), "ALL is in value order");
    }

    /// Each row agrees with its name: the channels and widths in name order (`B8G8R8X8`,
    /// `R11G11B10`), the encoding from the suffix, the widths whole bytes, no component
    /// across a 32-bit word, each encoding's own width.
    #[test]
    fn rows_agree_with_their_names() {
        for &f in Format::ALL {
            let (layout, suffix) = f.name().split_once('_').unwrap();
            let mut spelled = String::new();
            for c in f.components() {
                spelled.push_str(&format!("{:?}{}", c.channel, c.bits));
                assert!(c.offset / 32 == (c.offset + c.bits - 1) / 32, "{f}: a component across a word");
                let own = match c.encoding {
                    Encoding::Float => Some(32),
                    Encoding::Half => Some(16),
                    Encoding::UnsignedFloat { mantissa } => Some(5 + mantissa),
                    Encoding::Srgb => Some(8),
                    _ => None,
                };
                assert!(own.is_none_or(|b| b == c.bits), "{f}: {:?} in {} bits", c.encoding, c.bits);
            }
            assert_eq!(spelled.replace("D", "R"), layout.replace("D", "R"), "{f}");
            let bits: u32 = f.components().iter().map(|c| u32::from(c.bits)).sum();
            assert_eq!(bits % 8, 0, "{f}");
            assert_eq!(f.size() as u32, bits / 8, "{f}");
            let colour = f.components().iter().filter(|c| !matches!(c.channel, Channel::A | Channel::X));
            let expected = match suffix {
                "FLOAT" => vec![
                    Encoding::Float,
                    Encoding::Half,
                    Encoding::UnsignedFloat { mantissa: 6 },
                    Encoding::UnsignedFloat { mantissa: 5 },
                ],
                "UNORM" => vec![Encoding::Unorm],
                "UNORM_SRGB" => vec![Encoding::Srgb],
                "SNORM" => vec![Encoding::Snorm],
                "UINT" => vec![Encoding::Uint],
                "SINT" => vec![Encoding::Sint],
                _ => panic!("{f}: suffix {suffix}"),
            };
            for c in colour.chain(f.components().iter().filter(|c| c.channel == Channel::A && !f.is_srgb())) {
                assert!(expected.contains(&c.encoding), "{f}: {:?}", c.encoding);
            }
            assert_eq!(f.is_depth(), f.name().starts_with('D'), "{f}");
        }
        // sRGB formats keep alpha linear.
        let a = Format::B8G8R8A8_UNORM_SRGB.components()[3];
        assert_eq!((a.channel, a.encoding), (Channel::A, Encoding::Unorm));
    }

    #[test]
    fn sizes_offsets_and_defaults() {
        assert_eq!(Format::R32G32B32A32_FLOAT.size(), 16);
        assert_eq!(Format::R32G32B32_UINT.size(), 12);
        assert_eq!(Format::R10G10B10A2_UNORM.components()[3].offset, 30);
        assert_eq!(Format::R32G32B32A32_SINT.components()[3].offset, 96);
        assert_eq!(Format::R8_SNORM.size(), 1);
        assert_eq!(Format::A8_UNORM.components()[0].channel.index(), Some(3));
        assert_eq!(Format::R16G16_SINT.numeric(), Numeric::Sint);
        assert_eq!(Format::R8G8B8A8_UINT.defaults(), [0, 0, 0, 1]);
        assert_eq!(Format::R16_FLOAT.defaults(), [0, 0, 0, 1.0f32.to_bits()]);
        assert!(Format::R8G8B8A8_UNORM_SRGB.is_srgb() && !Format::R8G8B8A8_UNORM.is_srgb());
    }
}
