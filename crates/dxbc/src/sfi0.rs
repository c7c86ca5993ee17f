//! `SFI0`: the optional features a shader needs (`D3D_SHADER_REQUIRES_*`), a 64-bit
//! flag set.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::error::Result;
use crate::util::Bytes;
use std::fmt;

/// A set of `D3D_SHADER_REQUIRES_*` flags. Bits this crate has no name for are kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ShaderFeatures(pub u64);

macro_rules! features {
    ($( $(#[$m:meta])* $name:ident = $bit:expr, )*) => {
        impl ShaderFeatures {
            $( $(#[$m])* pub const $name: ShaderFeatures = ShaderFeatures($bit); )*
            /// Every named flag with its name, in bit order.
            pub const NAMED: &'static [(ShaderFeatures, &'static str)] =
                &[$( (ShaderFeatures::$name, stringify!($name)), )*];
        }
    };
}

features! {
    /// Double-precision floating point.
    DOUBLES = 0x1,
    /// Bit 1. The reflection API names it `D3D_SHADER_REQUIRES_EARLY_DEPTH_STENCIL`; in
    /// fxc's SFI0 chunks it marks a Shader Model 4.x compute shader using raw or
    /// structured buffers ("compute shaders plus raw and structured buffers via shader
    /// 4.x"), which is when fxc sets it.
    EARLY_DEPTH_STENCIL = 0x2,
    /// UAVs at every shader stage.
    UAVS_AT_EVERY_STAGE = 0x4,
    /// 64 UAV slots.
    UAVS_64 = 0x8,
    /// Minimum-precision data types.
    MINIMUM_PRECISION = 0x10,
    /// Double-precision extensions of 11.1.
    DOUBLE_EXTENSIONS_11_1 = 0x20,
    /// Shader extensions of 11.1.
    SHADER_EXTENSIONS_11_1 = 0x40,
    /// Comparison filtering for feature level 9.
    LEVEL_9_COMPARISON_FILTERING = 0x80,
    /// Tiled resources.
    TILED_RESOURCES = 0x100,
    /// Pixel-shader stencil reference output.
    STENCIL_REF = 0x200,
    /// Inner coverage input.
    INNER_COVERAGE = 0x400,
    /// Typed UAV loads of additional formats.
    TYPED_UAV_LOAD_ADDITIONAL_FORMATS = 0x800,
    /// Rasterizer-ordered views.
    ROVS = 0x1000,
    /// Viewport / render-target array index from any stage feeding the rasterizer.
    VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER_FEEDING_RASTERIZER = 0x2000,
}

impl ShaderFeatures {
    /// No flags.
    pub const EMPTY: ShaderFeatures = ShaderFeatures(0);

    /// True if every flag of `other` is set.
    pub fn contains(self, other: ShaderFeatures) -> bool {
        self.0 & other.0 == other.0
    }

    /// True if no flag is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set flags, one at a time, in bit order (unnamed bits included).
    pub fn iter(self) -> impl Iterator<Item = ShaderFeatures> {
        (0..64).map(|b| 1u64 << b).filter(move |b| self.0 & b != 0).map(ShaderFeatures)
    }
}

impl std::ops::BitOr for ShaderFeatures {
    type Output = ShaderFeatures;
    fn bitor(self, rhs: ShaderFeatures) -> ShaderFeatures {
        ShaderFeatures(self.0 | rhs.0)
    }
}

impl fmt::Debug for ShaderFeatures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_set();
        for flag in self.iter() {
            match ShaderFeatures::NAMED.iter().find(|(v, _)| *v == flag) {
                Some((_, name)) => list.entry(&format_args!("{name}")),
                None => list.entry(&format_args!("{:#x}", flag.0)),
            };
        }
        list.finish()
    }
}

/// A decoded `SFI0` chunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sfi0<'a> {
    /// The feature flags.
    pub features: ShaderFeatures,
    /// Bytes after the 8-byte flag word (none in fxc's output).
    pub trailing: &'a [u8],
}

impl<'a> Sfi0<'a> {
    /// Decodes an `SFI0` chunk (8 bytes).
    pub fn parse(data: &'a [u8]) -> Result<Sfi0<'a>> {
        let b = Bytes::new(data);
        let lo = b.u32(0, "SFI0 flags")? as u64;
        let hi = b.u32(4, "SFI0 flags")? as u64;
        Ok(Sfi0 { features: ShaderFeatures(lo | hi << 32), trailing: data.get(8..).unwrap_or_default() })
    }

    /// Serialises the chunk.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.features.0.to_le_bytes().to_vec();
        out.extend_from_slice(self.trailing);
        out
    }
}
