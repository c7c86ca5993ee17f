//! The typed IR of a Shader Model 1–3 token stream.
//!
//! Every field of the token format is a typed field here; bits the format leaves
//! undefined are kept (`reserved` fields, `Unknown` enum variants, raw control bits), so
//! that encoding a decoded program gives back its bytes. Instructions hold their
//! parameters inline (no allocation per instruction); comment blocks borrow the input.
//!
//! Token layouts (Microsoft's "Direct3D 9 shader codes"):
//!
//! - version: bits 0–7 minor, 8–15 major, 16–31 `0xfffe` (vertex) or `0xffff` (pixel);
//! - instruction: bits 0–15 opcode, 16–23 opcode-specific controls, 24–27 the number of
//!   tokens that follow (Shader Model 2+; reserved before), 28 predicated (2+), 29
//!   reserved, 30 co-issue (pixel 1.x), 31 zero;
//! - destination parameter: bits 0–10 register number, 11–12 register type bits 3–4,
//!   13 relative addressing, 16–19 write mask, 20–23 result modifiers, 24–27 shift
//!   scale, 28–30 register type bits 0–2, 31 one;
//! - source parameter: as a destination, but bits 16–23 swizzle and 24–27 modifier;
//! - a relatively addressed parameter is followed (Shader Model 2+) by an address token
//!   in source-parameter form naming `a0` or `aL` with a replicate swizzle; in vertex
//!   1.1 no token follows and the index is `a0.x`;
//! - a predicated instruction has its predicate (a source parameter naming `p0`) after
//!   the destination and before the sources;
//! - comment: bits 0–15 `0xfffe`, 16–30 the number of tokens that follow;
//! - end: `0x0000ffff`.

use std::borrow::Cow;

use arrayvec::ArrayVec;

use crate::table::{self, Flow, FlowClass, FlowOp, Opcode, Ver};

/// The most source parameters an instruction has (`texldd`: coordinate, sampler, two
/// gradients).
pub const MAX_SRCS: usize = 4;

/// Vertex or pixel shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// A vertex shader (`vs_*`, version token `0xfffe....`).
    Vertex,
    /// A pixel shader (`ps_*`, version token `0xffff....`).
    Pixel,
}

impl ShaderKind {
    /// The profile prefix: `vs` or `ps`.
    pub fn prefix(self) -> &'static str {
        match self {
            ShaderKind::Vertex => "vs",
            ShaderKind::Pixel => "ps",
        }
    }

    /// Bits 16–31 of the version token.
    pub fn token_high(self) -> u32 {
        match self {
            ShaderKind::Vertex => 0xfffe,
            ShaderKind::Pixel => 0xffff,
        }
    }
}

/// The version token: shader kind and version. The token has no other bits, so this
/// is the whole token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    /// Vertex or pixel.
    pub kind: ShaderKind,
    /// Major version, 1 to 3.
    pub major: u8,
    /// Minor version: 1 for `2_x`, 0xff for the software profiles `2_sw` / `3_sw`.
    pub minor: u8,
}

impl Version {
    /// A version.
    pub const fn new(kind: ShaderKind, major: u8, minor: u8) -> Version {
        Version { kind, major, minor }
    }

    /// Reads a version token; `None` when bits 16–31 are neither `0xfffe` nor `0xffff`.
    pub fn from_token(token: u32) -> Option<Version> {
        let kind = match token >> 16 {
            0xfffe => ShaderKind::Vertex,
            0xffff => ShaderKind::Pixel,
            _ => return None,
        };
        Some(Version { kind, major: (token >> 8) as u8, minor: token as u8 })
    }

    /// The version token.
    pub fn token(self) -> u32 {
        self.kind.token_high() << 16 | (self.major as u32) << 8 | self.minor as u32
    }

    /// The version as a table [`Ver`] (`major << 8 | minor`).
    pub fn ver(self) -> Ver {
        (self.major as u16) << 8 | self.minor as u16
    }

    /// True for Shader Model 1 (versions below 2.0): no instruction length, no
    /// predication, no address token after a relative parameter.
    pub fn is_sm1(self) -> bool {
        self.major < 2
    }

    /// True for pixel shaders.
    pub fn is_pixel(self) -> bool {
        self.kind == ShaderKind::Pixel
    }

    /// The named profile, if the version is one.
    pub fn profile(self) -> Option<Profile> {
        Profile::ALL.iter().copied().find(|p| p.version() == self)
    }

    /// fxc's target token: `vs_2_0`, `vs_2_x`, `ps_3_sw`; `vs_<major>_<minor>` for
    /// versions that are not profiles.
    pub fn name(self) -> Cow<'static, str> {
        match self.profile() {
            Some(p) => Cow::Borrowed(p.name()),
            None => Cow::Owned(format!("{}_{}_{}", self.kind.prefix(), self.major, self.minor)),
        }
    }
}

macro_rules! profiles {
    ($( $variant:ident, $name:literal, $kind:ident, $major:literal, $minor:literal; )*) => {
        /// A Direct3D 9 shader profile.
        #[allow(non_camel_case_types)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Profile {
            $( #[doc = concat!("`", $name, "`.")] $variant, )*
        }

        impl Profile {
            /// Every profile.
            pub const ALL: &'static [Profile] = &[$( Profile::$variant, )*];

            /// The profile's name (`vs_2_x`).
            pub fn name(self) -> &'static str {
                match self {
                    $( Profile::$variant => $name, )*
                }
            }

            /// The profile named `name`.
            pub fn from_name(name: &str) -> Option<Profile> {
                match name {
                    $( $name => Some(Profile::$variant), )*
                    _ => None,
                }
            }

            /// The version token of the profile.
            pub fn version(self) -> Version {
                match self {
                    $( Profile::$variant => Version::new(ShaderKind::$kind, $major, $minor), )*
                }
            }
        }
    };
}

profiles! {
    Vs1_1, "vs_1_1", Vertex, 1, 1;
    Vs2_0, "vs_2_0", Vertex, 2, 0;
    Vs2_x, "vs_2_x", Vertex, 2, 1;
    Vs2_sw, "vs_2_sw", Vertex, 2, 0xff;
    Vs3_0, "vs_3_0", Vertex, 3, 0;
    Vs3_sw, "vs_3_sw", Vertex, 3, 0xff;
    Ps1_1, "ps_1_1", Pixel, 1, 1;
    Ps1_2, "ps_1_2", Pixel, 1, 2;
    Ps1_3, "ps_1_3", Pixel, 1, 3;
    Ps1_4, "ps_1_4", Pixel, 1, 4;
    Ps2_0, "ps_2_0", Pixel, 2, 0;
    Ps2_x, "ps_2_x", Pixel, 2, 1;
    Ps2_sw, "ps_2_sw", Pixel, 2, 0xff;
    Ps3_0, "ps_3_0", Pixel, 3, 0;
    Ps3_sw, "ps_3_sw", Pixel, 3, 0xff;
}

/// A register type (`D3DSPR_*`), split in a parameter token over bits 28–30 (bits 0–2
/// of the type) and 11–12 (bits 3–4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegisterType {
    /// `r#`.
    Temp,
    /// `v#`.
    Input,
    /// `c#`.
    Const,
    /// `a0` in vertex shaders, `t#` in pixel shaders (`D3DSPR_ADDR` = `D3DSPR_TEXTURE`).
    AddrOrTexture,
    /// `oPos`, `oFog`, `oPts`.
    RastOut,
    /// `oD#`.
    AttrOut,
    /// `oT#` before vertex 3.0, `o#` in 3.0 (`D3DSPR_TEXCRDOUT` = `D3DSPR_OUTPUT`).
    Output,
    /// `i#`.
    ConstInt,
    /// `oC#`.
    ColorOut,
    /// `oDepth`.
    DepthOut,
    /// `s#`.
    Sampler,
    /// Constants 2048–4095.
    Const2,
    /// Constants 4096–6143.
    Const3,
    /// Constants 6144–8191.
    Const4,
    /// `b#`.
    ConstBool,
    /// `aL`.
    Loop,
    /// 16-bit float temporaries (no assembly syntax).
    TempFloat16,
    /// `vPos` (0) and `vFace` (1).
    Misc,
    /// `l#`.
    Label,
    /// `p0`.
    Predicate,
    /// Values 20–31, which the format does not define.
    Unknown(u8),
}

impl RegisterType {
    /// The type with value `v` (only the low 5 bits are used).
    pub fn from_u8(v: u8) -> RegisterType {
        use RegisterType::*;
        match v & 31 {
            0 => Temp,
            1 => Input,
            2 => Const,
            3 => AddrOrTexture,
            4 => RastOut,
            5 => AttrOut,
            6 => Output,
            7 => ConstInt,
            8 => ColorOut,
            9 => DepthOut,
            10 => Sampler,
            11 => Const2,
            12 => Const3,
            13 => Const4,
            14 => ConstBool,
            15 => Loop,
            16 => TempFloat16,
            17 => Misc,
            18 => Label,
            19 => Predicate,
            n => Unknown(n),
        }
    }

    /// The type's value (0–31).
    pub fn to_u8(self) -> u8 {
        use RegisterType::*;
        match self {
            Temp => 0,
            Input => 1,
            Const => 2,
            AddrOrTexture => 3,
            RastOut => 4,
            AttrOut => 5,
            Output => 6,
            ConstInt => 7,
            ColorOut => 8,
            DepthOut => 9,
            Sampler => 10,
            Const2 => 11,
            Const3 => 12,
            Const4 => 13,
            ConstBool => 14,
            Loop => 15,
            TempFloat16 => 16,
            Misc => 17,
            Label => 18,
            Predicate => 19,
            Unknown(n) => n & 31,
        }
    }

    /// Reads the type from a parameter token.
    pub fn from_token(token: u32) -> RegisterType {
        RegisterType::from_u8((((token >> 28) & 7) | ((token >> 8) & 0x18)) as u8)
    }

    /// The type's bits in a parameter token (28–30 and 11–12).
    pub fn token_bits(self) -> u32 {
        let v = self.to_u8() as u32;
        (v & 7) << 28 | (v & 0x18) << 8
    }
}

/// A register: type and number (bits 0–10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Register {
    /// The register file (`r`, `c`, `v`...).
    pub ty: RegisterType,
    /// 0–2047.
    pub num: u16,
}

impl Register {
    /// A register.
    pub const fn new(ty: RegisterType, num: u16) -> Register {
        Register { ty, num }
    }
}

/// A source swizzle, bits 16–23 of a source token: two bits per destination component
/// (x in bits 0–1), each naming the source component read (0 = x ... 3 = w).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// `.xyzw`, the identity (0xe4).
    pub const IDENTITY: Swizzle = Swizzle(0xe4);

    /// The swizzle selecting `[x, y, z, w]` (each 0–3).
    pub const fn new(c: [u8; 4]) -> Swizzle {
        Swizzle((c[0] & 3) | (c[1] & 3) << 2 | (c[2] & 3) << 4 | (c[3] & 3) << 6)
    }

    /// The replicate swizzle `.c` (`.xxxx` ...).
    pub const fn replicate(c: u8) -> Swizzle {
        Swizzle::new([c, c, c, c])
    }

    /// The source component read for destination component `i` (0–3).
    pub fn get(self, i: usize) -> u8 {
        (self.0 >> (2 * (i & 3))) & 3
    }

    /// The four selected components.
    pub fn components(self) -> [u8; 4] {
        [self.get(0), self.get(1), self.get(2), self.get(3)]
    }
}

/// A destination write mask, bits 16–19 (bit 0 = x ... bit 3 = w).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mask(pub u8);

impl Mask {
    /// `.xyzw`.
    pub const ALL: Mask = Mask(0xf);

    /// True when component `i` (0–3) is written.
    pub fn has(self, i: usize) -> bool {
        self.0 >> (i & 3) & 1 != 0
    }
}

/// A source modifier (`D3DSPSM_*`, bits 24–27).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SrcModifier {
    /// No modifier.
    None,
    /// `-r0`.
    Neg,
    /// `r0_bias`.
    Bias,
    /// `-r0_bias`.
    BiasNeg,
    /// `r0_bx2`.
    Sign,
    /// `-r0_bx2`.
    SignNeg,
    /// `1 - r0`.
    Comp,
    /// `r0_x2`.
    X2,
    /// `-r0_x2`.
    X2Neg,
    /// `r0_dz` / `r0.rgb_dz`.
    Dz,
    /// `r0_dw`.
    Dw,
    /// `r0_abs`.
    Abs,
    /// `-r0_abs`.
    AbsNeg,
    /// `!p0`.
    Not,
    /// Values 14–15, which the format does not define.
    Unknown(u8),
}

impl SrcModifier {
    /// The modifier with value `v` (low 4 bits).
    pub fn from_u8(v: u8) -> SrcModifier {
        use SrcModifier::*;
        match v & 15 {
            0 => None,
            1 => Neg,
            2 => Bias,
            3 => BiasNeg,
            4 => Sign,
            5 => SignNeg,
            6 => Comp,
            7 => X2,
            8 => X2Neg,
            9 => Dz,
            10 => Dw,
            11 => Abs,
            12 => AbsNeg,
            13 => Not,
            n => Unknown(n),
        }
    }

    /// The modifier's value (0–15).
    pub fn to_u8(self) -> u8 {
        use SrcModifier::*;
        match self {
            None => 0,
            Neg => 1,
            Bias => 2,
            BiasNeg => 3,
            Sign => 4,
            SignNeg => 5,
            Comp => 6,
            X2 => 7,
            X2Neg => 8,
            Dz => 9,
            Dw => 10,
            Abs => 11,
            AbsNeg => 12,
            Not => 13,
            Unknown(n) => n & 15,
        }
    }
}

/// The address token that follows a relatively addressed parameter in Shader Model 2+:
/// a source-parameter token naming `a0` or `aL` with a (replicate) swizzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AddrToken {
    /// `a0` or `aL`.
    pub reg: Register,
    /// The component read (a replicate swizzle in fxc's output).
    pub swizzle: Swizzle,
    /// Its source modifier (none in fxc's output).
    pub modifier: SrcModifier,
    /// Bits 13–15 and bit 31 XOR 1 (so 0 for a well-formed token): bits the format
    /// does not use here.
    pub reserved: u32,
}

impl AddrToken {
    /// The address token reading `reg` through the replicate swizzle `.c`.
    pub fn new(reg: Register, component: u8) -> AddrToken {
        AddrToken { reg, swizzle: Swizzle::replicate(component), modifier: SrcModifier::None, reserved: 0 }
    }
}

/// Relative addressing of a parameter (bit 13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relative {
    /// Not relatively addressed.
    None,
    /// Bit 13 set in a Shader Model 1 stream: no token follows; the index is `a0.x`.
    Implicit,
    /// Bit 13 set in a Shader Model 2+ stream, with the address token that follows.
    Token(AddrToken),
}

impl Relative {
    /// True when bit 13 is set.
    pub fn is_relative(&self) -> bool {
        !matches!(self, Relative::None)
    }
}

/// Result modifiers, bits 20–23 of a destination token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ResultModifiers(pub u8);

impl ResultModifiers {
    /// `_sat`.
    pub const SATURATE: u8 = 1;
    /// `_pp`.
    pub const PARTIAL_PRECISION: u8 = 2;
    /// `_centroid`.
    pub const CENTROID: u8 = 4;

    /// `_sat`.
    pub fn saturate(self) -> bool {
        self.0 & Self::SATURATE != 0
    }
    /// `_pp`.
    pub fn partial_precision(self) -> bool {
        self.0 & Self::PARTIAL_PRECISION != 0
    }
    /// `_centroid`.
    pub fn centroid(self) -> bool {
        self.0 & Self::CENTROID != 0
    }
    /// Bit 3 of the field, which the format does not define.
    pub fn unknown(self) -> u8 {
        self.0 & 8
    }
}

/// A destination parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DstParam {
    /// The register written.
    pub reg: Register,
    /// The components written.
    pub mask: Mask,
    /// `_sat`, `_pp`, `_centroid`.
    pub modifiers: ResultModifiers,
    /// Shift scale, bits 24–27 as stored (a 4-bit signed value: 1 = `_x2`, 2 = `_x4`,
    /// 3 = `_x8`, 15 = `_d2`, 14 = `_d4`, 13 = `_d8`); see [`DstParam::shift`].
    pub shift: u8,
    /// Relative addressing (`o[a0.x]`, vs_3_0).
    pub rel: Relative,
    /// Bits 14–15 and bit 31 XOR 1 (0 for a well-formed token).
    pub reserved: u32,
}

impl DstParam {
    /// A destination writing `mask` of `reg`, with no modifiers.
    pub fn new(reg: Register, mask: Mask) -> DstParam {
        DstParam { reg, mask, modifiers: ResultModifiers(0), shift: 0, rel: Relative::None, reserved: 0 }
    }

    /// The shift scale as a signed power of two (-8..=7; `_x2` is 1, `_d2` is -1).
    pub fn shift(&self) -> i8 {
        ((self.shift << 4) as i8) >> 4
    }
}

/// A source parameter (also the predicate of a predicated instruction and the label,
/// boolean, integer and loop operands of flow-control instructions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SrcParam {
    /// The register read.
    pub reg: Register,
    /// Which component each of x, y, z, w reads.
    pub swizzle: Swizzle,
    /// Negation, bias, complement... applied to the value read.
    pub modifier: SrcModifier,
    /// Relative addressing (`c[a0.x + 3]`).
    pub rel: Relative,
    /// Bits 14–15 and bit 31 XOR 1 (0 for a well-formed token).
    pub reserved: u32,
}

impl SrcParam {
    /// A source reading `reg` with `swizzle` and no modifier.
    pub fn new(reg: Register, swizzle: Swizzle) -> SrcParam {
        SrcParam { reg, swizzle, modifier: SrcModifier::None, rel: Relative::None, reserved: 0 }
    }
}

/// Declaration usage (`D3DDECLUSAGE_*`, bits 0–4 of the `dcl` token).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Usage {
    /// `dcl_position` (0).
    Position,
    /// `dcl_blendweight` (1).
    BlendWeight,
    /// `dcl_blendindices` (2).
    BlendIndices,
    /// `dcl_normal` (3).
    Normal,
    /// `dcl_psize` (4).
    PSize,
    /// `dcl_texcoord` (5).
    TexCoord,
    /// `dcl_tangent` (6).
    Tangent,
    /// `dcl_binormal` (7).
    Binormal,
    /// `dcl_tessfactor` (8).
    TessFactor,
    /// `dcl_positiont` (9).
    PositionT,
    /// `dcl_color` (10).
    Color,
    /// `dcl_fog` (11).
    Fog,
    /// `dcl_depth` (12).
    Depth,
    /// `dcl_sample` (13).
    Sample,
    /// Values 14–31, which the format does not define.
    Unknown(u8),
}

impl Usage {
    /// The usage with value `v`.
    pub fn from_u8(v: u8) -> Usage {
        use Usage::*;
        match v & 31 {
            0 => Position,
            1 => BlendWeight,
            2 => BlendIndices,
            3 => Normal,
            4 => PSize,
            5 => TexCoord,
            6 => Tangent,
            7 => Binormal,
            8 => TessFactor,
            9 => PositionT,
            10 => Color,
            11 => Fog,
            12 => Depth,
            13 => Sample,
            n => Unknown(n),
        }
    }

    /// fxc's spelling in `dcl_<usage>` (`position`, `texcoord`, `blendindices`...);
    /// `None` for undefined values.
    pub fn name(self) -> Option<&'static str> {
        use Usage::*;
        Some(match self {
            Position => "position",
            BlendWeight => "blendweight",
            BlendIndices => "blendindices",
            Normal => "normal",
            PSize => "psize",
            TexCoord => "texcoord",
            Tangent => "tangent",
            Binormal => "binormal",
            TessFactor => "tessfactor",
            PositionT => "positiont",
            Color => "color",
            Fog => "fog",
            Depth => "depth",
            Sample => "sample",
            Unknown(_) => return None,
        })
    }

    /// The usage named `name` (as [`Usage::name`] spells it).
    pub fn from_name(name: &str) -> Option<Usage> {
        (0..14).map(Usage::from_u8).find(|u| u.name() == Some(name))
    }
}

/// Sampler texture type (`D3DSTT_*`, bits 27–30 of the `dcl` token of a sampler).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextureType {
    /// 0: not a sampler declaration (or an undeclared type).
    Unknown,
    /// `dcl_1d`.
    T1d,
    /// `dcl_2d`.
    T2d,
    /// `dcl_cube`.
    Cube,
    /// `dcl_volume`.
    Volume,
    /// Values 5–15, which the format does not define.
    Other(u8),
}

impl TextureType {
    /// The type with value `v` (low 4 bits).
    pub fn from_u8(v: u8) -> TextureType {
        match v & 15 {
            0 => TextureType::Unknown,
            1 => TextureType::T1d,
            2 => TextureType::T2d,
            3 => TextureType::Cube,
            4 => TextureType::Volume,
            n => TextureType::Other(n),
        }
    }

    /// fxc's spelling in `dcl_<type>`; `None` for 0 and undefined values.
    pub fn name(self) -> Option<&'static str> {
        match self {
            TextureType::T1d => Some("1d"),
            TextureType::T2d => Some("2d"),
            TextureType::Cube => Some("cube"),
            TextureType::Volume => Some("volume"),
            _ => None,
        }
    }
}

/// The token after a `dcl` instruction token: usage and usage index for inputs and
/// outputs, texture type for samplers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DclToken {
    /// Bits 0–4 (see [`Usage`]).
    pub usage: u8,
    /// Bits 16–19.
    pub usage_index: u8,
    /// Bits 27–30 (see [`TextureType`]).
    pub texture_type: u8,
    /// Bits 5–15 and 20–26, and bit 31 XOR 1 (0 for a well-formed token).
    pub reserved: u32,
}

impl DclToken {
    /// The typed usage.
    pub fn usage(&self) -> Usage {
        Usage::from_u8(self.usage)
    }
    /// The typed texture type.
    pub fn texture_type(&self) -> TextureType {
        TextureType::from_u8(self.texture_type)
    }
    /// Reads the token.
    pub fn from_token(t: u32) -> DclToken {
        DclToken {
            usage: (t & 0x1f) as u8,
            usage_index: ((t >> 16) & 0xf) as u8,
            texture_type: ((t >> 27) & 0xf) as u8,
            reserved: (t & 0x07f0_ffe0) | ((t & 0x8000_0000) ^ 0x8000_0000),
        }
    }
    /// The token.
    pub fn token(&self) -> u32 {
        (self.usage as u32 & 0x1f)
            | (self.usage_index as u32 & 0xf) << 16
            | (self.texture_type as u32 & 0xf) << 27
            | (self.reserved & 0x07f0_ffe0)
            | ((self.reserved & 0x8000_0000) ^ 0x8000_0000)
    }
}

/// The part of an instruction that is not destination + sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Body {
    /// Destination and sources only.
    None,
    /// `dcl`: the usage / texture-type token (the declared register is `dst`).
    Dcl(DclToken),
    /// `def`: four raw 32-bit values (floats).
    Def([u32; 4]),
    /// `defi`: four 32-bit signed integers, as stored.
    DefI([u32; 4]),
    /// `defb`: the boolean token, as stored (nonzero is true).
    DefB(u32),
}

/// A comparison (instruction token bits 16–18 of `ifc`, `breakc`, `setp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `_gt`: `src0 > src1`.
    Gt,
    /// `_eq`: `src0 == src1`.
    Eq,
    /// `_ge`: `src0 >= src1`.
    Ge,
    /// `_lt`: `src0 < src1`.
    Lt,
    /// `_ne`: `src0 != src1`.
    Ne,
    /// `_le`: `src0 <= src1`.
    Le,
}

impl Comparison {
    /// The comparison with value `v` (1–6).
    pub fn from_u8(v: u8) -> Option<Comparison> {
        Some(match v {
            1 => Comparison::Gt,
            2 => Comparison::Eq,
            3 => Comparison::Ge,
            4 => Comparison::Lt,
            5 => Comparison::Ne,
            6 => Comparison::Le,
            _ => return None,
        })
    }
    /// The comparison's value (1–6).
    pub fn to_u8(self) -> u8 {
        match self {
            Comparison::Gt => 1,
            Comparison::Eq => 2,
            Comparison::Ge => 3,
            Comparison::Lt => 4,
            Comparison::Ne => 5,
            Comparison::Le => 6,
        }
    }
    /// fxc's suffix without the underscore (`gt`).
    pub fn name(self) -> &'static str {
        match self {
            Comparison::Gt => "gt",
            Comparison::Eq => "eq",
            Comparison::Ge => "ge",
            Comparison::Lt => "lt",
            Comparison::Ne => "ne",
            Comparison::Le => "le",
        }
    }
    /// The comparison named `name` (`gt`...).
    pub fn from_name(name: &str) -> Option<Comparison> {
        (1..=6).filter_map(Comparison::from_u8).find(|c| c.name() == name)
    }
}

/// `texld` controls (bit 16: project, bit 17: bias).
pub mod texld {
    /// `texldp`.
    pub const PROJECT: u8 = 1;
    /// `texldb`.
    pub const BIAS: u8 = 2;
}

/// One instruction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The opcode (token bits 0–15).
    pub opcode: Opcode,
    /// Opcode-specific controls, bits 16–23, as stored (see [`Instruction::comparison`]
    /// and [`texld`]).
    pub controls: u8,
    /// Bit 30: co-issue (`+` prefix in pixel 1.x).
    pub coissue: bool,
    /// The destination, for instructions that write one.
    pub dst: Option<DstParam>,
    /// The predicate of a predicated instruction (bit 28, Shader Model 2+).
    pub predicate: Option<SrcParam>,
    /// The source parameters, in token order.
    pub srcs: ArrayVec<SrcParam, MAX_SRCS>,
    /// What follows in place of parameters: `def*` values, `dcl` tokens.
    pub body: Body,
    /// Bits 29 and 31 of the instruction token; in Shader Model 1 streams also bits
    /// 24–28 (no length or predicate there). Zero for a well-formed token.
    pub reserved: u32,
}

impl Instruction {
    /// An instruction with no parameters (a value to decode into or to build on).
    pub const fn new(opcode: Opcode) -> Instruction {
        Instruction {
            opcode,
            controls: 0,
            coissue: false,
            dst: None,
            predicate: None,
            srcs: ArrayVec::new_const(),
            body: Body::None,
            reserved: 0,
        }
    }

    /// The comparison of `ifc` / `breakc` / `setp` (`None` when the controls hold a
    /// value the format does not define, or the opcode has none).
    pub fn comparison(&self) -> Option<Comparison> {
        match self.opcode.info().controls {
            table::Controls::Compare if self.controls & !7 == 0 => Comparison::from_u8(self.controls),
            _ => None,
        }
    }

    /// `texldp` (projective `texld`, pixel 2.0+).
    pub fn is_project(&self) -> bool {
        self.opcode == Opcode::Tex && self.controls & texld::PROJECT != 0
    }

    /// `texldb` (biased `texld`, pixel 2.0+).
    pub fn is_bias(&self) -> bool {
        self.opcode == Opcode::Tex && self.controls & texld::BIAS != 0
    }

    /// The flow-control class (see [`flow_class`]).
    pub fn flow_class(&self) -> FlowClass {
        flow_class(self)
    }

    /// fxc's mnemonic for the instruction in a program of `version`: the table's
    /// spelling for the version (`tex` / `texld`, `texcoord` / `texcrd`), with the
    /// comparison suffix of `ifc` / `breakc` / `setp` (`if_gt`, `break_ne`, `setp_ge`;
    /// `_invalid` for a comparison value the format does not define) and `texldp` /
    /// `texldb` for the `texld` controls (pixel 2.0+). Allocation-free; displays as text.
    pub fn mnemonic(&self, version: Version) -> Mnemonic {
        let info = self.opcode.info();
        let base = info.mnemonic_for(version.kind, version.ver());
        match info.controls {
            table::Controls::Compare => {
                let suffix = match self.comparison() {
                    Some(Comparison::Gt) => "_gt",
                    Some(Comparison::Eq) => "_eq",
                    Some(Comparison::Ge) => "_ge",
                    Some(Comparison::Lt) => "_lt",
                    Some(Comparison::Ne) => "_ne",
                    Some(Comparison::Le) => "_le",
                    None => "_invalid",
                };
                Mnemonic { base, suffix }
            }
            table::Controls::TexLd if version.major >= 2 && self.is_bias() => Mnemonic { base: "texldb", suffix: "" },
            table::Controls::TexLd if version.major >= 2 && self.is_project() => {
                Mnemonic { base: "texldp", suffix: "" }
            }
            _ => Mnemonic { base, suffix: "" },
        }
    }
}

/// An instruction's mnemonic as fxc prints it (see [`Instruction::mnemonic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mnemonic {
    /// The instruction's name for the version (`texld`, `tex`, `if`).
    pub base: &'static str,
    /// `""` or a comparison suffix (`_gt`).
    pub suffix: &'static str,
}

impl std::fmt::Display for Mnemonic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.base)?;
        f.write_str(self.suffix)
    }
}

/// The flow-control class of an instruction: the table's [`Flow`], with `if` and
/// `callnz` told apart by their condition operand (a predicate register makes
/// `IfPred` / `CallnzPred`, anything else the boolean form).
pub fn flow_class(ins: &Instruction) -> FlowClass {
    let pred_src = |i: usize| ins.srcs.get(i).is_some_and(|s| s.reg.ty == RegisterType::Predicate);
    match ins.opcode.info().flow {
        Flow::None => FlowClass::None,
        Flow::If if pred_src(0) => FlowClass::Op(FlowOp::IfPred),
        Flow::If => FlowClass::Op(FlowOp::IfBool),
        Flow::IfComp => FlowClass::Op(FlowOp::IfComp),
        Flow::Else => FlowClass::Op(FlowOp::Else),
        Flow::Endif => FlowClass::Op(FlowOp::Endif),
        Flow::Rep => FlowClass::Op(FlowOp::Rep),
        Flow::Endrep => FlowClass::Op(FlowOp::Endrep),
        Flow::Loop => FlowClass::Op(FlowOp::Loop),
        Flow::Endloop => FlowClass::Op(FlowOp::Endloop),
        Flow::Break => FlowClass::Op(FlowOp::Break),
        Flow::BreakComp => FlowClass::Op(FlowOp::BreakComp),
        Flow::Breakp => FlowClass::Op(FlowOp::BreakP),
        Flow::Call => FlowClass::Op(FlowOp::Call),
        Flow::Callnz if pred_src(1) => FlowClass::Op(FlowOp::CallnzPred),
        Flow::Callnz => FlowClass::Op(FlowOp::CallnzBool),
        Flow::Ret => FlowClass::Op(FlowOp::Ret),
        Flow::Setp => FlowClass::Op(FlowOp::SetpComp),
        Flow::Label => FlowClass::Label,
    }
}

/// A comment block: the tokens after a comment token, kept byte for byte (a constant
/// table `CTAB`, debug information `DBUG`, or anything else).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Comment<'a> {
    /// The body, a whole number of tokens (borrowed from the input when decoded).
    pub data: Cow<'a, [u8]>,
    /// Bit 31 of the comment token (0 in a well-formed token).
    pub reserved: bool,
}

impl<'a> Comment<'a> {
    /// The first four bytes of the body as a FourCC (`CTAB`), if there are four.
    pub fn fourcc(&self) -> Option<[u8; 4]> {
        self.data.get(..4).map(|b| [b[0], b[1], b[2], b[3]])
    }

    /// Number of tokens in the body.
    pub fn len_tokens(&self) -> usize {
        self.data.len() / 4
    }

    /// The same comment owning its bytes.
    pub fn into_owned(self) -> Comment<'static> {
        Comment { data: Cow::Owned(self.data.into_owned()), reserved: self.reserved }
    }
}

/// One item of the stream after the version token: an instruction or a comment block.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Item<'a> {
    /// An instruction.
    Instruction(Instruction),
    /// A comment block (`CTAB`, `DBUG`, or anything else).
    Comment(Comment<'a>),
}

/// A whole program: the version token, the items in stream order, and (implicitly) the
/// end token `0x0000ffff`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Program<'a> {
    /// The version token.
    pub version: Version,
    /// Instructions and comments, in stream order.
    pub items: Vec<Item<'a>>,
}

impl<'a> Program<'a> {
    /// The instructions, in order, without the comments.
    pub fn instructions(&self) -> impl Iterator<Item = &Instruction> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Instruction(ins) => Some(ins),
            Item::Comment(_) => None,
        })
    }

    /// The comment blocks, in order.
    pub fn comments(&self) -> impl Iterator<Item = &Comment<'a>> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Comment(c) => Some(c),
            Item::Instruction(_) => None,
        })
    }

    /// The body of the first comment block whose FourCC is `fourcc` (`b"CTAB"`).
    pub fn comment_with(&self, fourcc: &[u8; 4]) -> Option<&[u8]> {
        self.comments().find(|c| c.fourcc().as_ref() == Some(fourcc)).map(|c| &c.data[..])
    }

    /// The same program owning all of its bytes.
    pub fn into_owned(self) -> Program<'static> {
        Program {
            version: self.version,
            items: self
                .items
                .into_iter()
                .map(|i| match i {
                    Item::Instruction(ins) => Item::Instruction(ins),
                    Item::Comment(c) => Item::Comment(c.into_owned()),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_tokens() {
        let v = Version::from_token(0xfffe_0201).unwrap();
        assert_eq!(v.profile(), Some(Profile::Vs2_x));
        assert_eq!(v.name(), "vs_2_x");
        assert_eq!(Profile::Ps3_sw.version().token(), 0xffff_03ff);
        assert_eq!(Version::from_token(0xffff_0104).unwrap().name(), "ps_1_4");
        assert_eq!(Version::from_token(0xfffe_0105).unwrap().name(), "vs_1_5");
        assert!(Version::from_token(0x0001_0000).is_none());
        for p in Profile::ALL {
            assert_eq!(Profile::from_name(p.name()), Some(*p));
        }
    }

    #[test]
    fn register_type_bits() {
        for v in 0..32u8 {
            let t = RegisterType::from_u8(v);
            assert_eq!(t.to_u8(), v);
            assert_eq!(RegisterType::from_token(t.token_bits() | 0x8000_07ff), t);
        }
        assert_eq!(RegisterType::Predicate.token_bits(), 0x3000_1000);
    }

    #[test]
    fn shift_sign() {
        let mut d = DstParam::new(Register::new(RegisterType::Temp, 0), Mask::ALL);
        d.shift = 15;
        assert_eq!(d.shift(), -1);
        d.shift = 3;
        assert_eq!(d.shift(), 3);
    }

    #[test]
    fn dcl_token_round_trip() {
        for t in [0x8000_0000u32, 0x9000_0000, 0x8001_0005, 0xa000_0000, 0x1234_5678, 0xffff_ffff] {
            assert_eq!(DclToken::from_token(t).token(), t);
        }
    }
}
