//! What is bound to a shader stage: constant buffers, shader resource views, samplers
//! and unordered access views. Views borrow the application's memory; reads past the
//! end of a view return 0 (the functional spec's out-of-bounds rule), writes past it
//! are dropped.

use crate::format::Format;
pub use tpf::interfaces::{ClassInstance, ClassInstances};

/// `D3D11_SRV_DIMENSION` / `D3D11_UAV_DIMENSION`, as far as the interpreter reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    /// A buffer (typed, raw or structured).
    Buffer,
    /// A 1D texture.
    Texture1D,
    /// An array of 1D textures.
    Texture1DArray,
    /// A 2D texture.
    Texture2D,
    /// An array of 2D textures.
    Texture2DArray,
    /// A 3D texture.
    Texture3D,
    /// A cube: six 2D faces (+X, −X, +Y, −Y, +Z, −Z) as array slices.
    TextureCube,
    /// A multisampled 2D texture of `samples` samples per texel (see [`TextureView`]
    /// for its memory).
    Texture2DMS {
        /// Samples per texel (0 reads as 1).
        samples: u32,
    },
    /// An array of multisampled 2D textures.
    Texture2DMSArray {
        /// Samples per texel (0 reads as 1).
        samples: u32,
    },
}

/// A texture's memory: every subresource, mip level by mip level within each array
/// slice (D3D11's subresource order), each mip tightly packed (row pitch = width ×
/// element size, depth pitch = row pitch × height).
///
/// Multisampled textures ([`Dimension::Texture2DMS`] / [`Dimension::Texture2DMSArray`],
/// which carry the sample count) have one level (`mip_levels` is not read), and the
/// samples of a texel are consecutive: sample `s` of texel (`x`, `y`) of slice `a` is
/// element `((a × height + y) × width + x) × samples + s` (D3D11 leaves the layout of
/// multisampled memory to the driver). A sample count of 0 reads as 1.
#[derive(Debug, Clone, Copy)]
pub struct TextureView<'a> {
    /// What kind of texture.
    pub dimension: Dimension,
    /// The elements' format.
    pub format: Format,
    /// Width of the most detailed mip level, in texels.
    pub width: u32,
    /// Height of the most detailed mip level (1 for 1D textures).
    pub height: u32,
    /// Depth of a 3D texture; 1 otherwise.
    pub depth: u32,
    /// Array slices (6 × cubes for a cube); 1 for non-arrays.
    pub array_size: u32,
    /// Mip levels per slice, each half the size of the one before (at least 1 texel).
    pub mip_levels: u32,
    /// The memory, in the layout above (for a [`Uav::Texture`], not read: the UAV's
    /// own `data` is).
    pub data: &'a [u8],
}

/// A shader resource view (`t#`).
#[derive(Debug, Clone, Copy)]
pub enum Srv<'a> {
    /// A typed buffer: elements of `format`.
    Buffer {
        /// The memory.
        data: &'a [u8],
        /// The elements' format.
        format: Format,
    },
    /// A raw (byte address) buffer.
    Raw {
        /// The memory.
        data: &'a [u8],
    },
    /// A structured buffer of `stride`-byte elements.
    Structured {
        /// The memory.
        data: &'a [u8],
        /// The element size in bytes.
        stride: u32,
    },
    /// A texture.
    Texture(TextureView<'a>),
}

/// A UAV (`u#`): the same kinds, writable.
#[derive(Debug)]
pub enum Uav<'a> {
    /// A typed buffer: elements of `format`.
    Buffer {
        /// The memory.
        data: &'a mut [u8],
        /// The elements' format.
        format: Format,
    },
    /// A raw (byte address) buffer.
    Raw {
        /// The memory.
        data: &'a mut [u8],
    },
    /// A structured buffer, with its hidden counter (append/consume, `imm_atomic_alloc`).
    Structured {
        /// The memory.
        data: &'a mut [u8],
        /// The element size in bytes.
        stride: u32,
        /// The hidden counter's value, updated by the draw.
        counter: u32,
    },
    /// A texture.
    Texture {
        /// Its shape and format (its `data` is not read).
        view: TextureView<'a>,
        /// The memory, in [`TextureView`]'s layout.
        data: &'a mut [u8],
    },
}

/// `D3D11_FILTER`, as far as the interpreter samples: point or linear, per min/mag/mip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// The nearest texel (or mip level).
    Point,
    /// Weighted between the nearest texels (or the two nearest mip levels).
    Linear,
}

/// `D3D11_TEXTURE_ADDRESS_MODE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressMode {
    /// The texture repeats.
    Wrap,
    /// The texture repeats, every other copy flipped.
    Mirror,
    /// Coordinates outside are clamped to the edge texels.
    Clamp,
    /// Texels outside read as the border colour.
    Border,
    /// Mirrored once about 0, then clamped.
    MirrorOnce,
}

/// `D3D11_COMPARISON_FUNC`: how comparison sampling (`sample_c*`, `gather4_c*`)
/// compares the shader's reference value with a texel (`reference FUNC texel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComparisonFunc {
    /// Never passes.
    Never,
    /// `reference < texel`.
    Less,
    /// `reference == texel`.
    Equal,
    /// `reference <= texel`.
    LessEqual,
    /// `reference > texel`.
    Greater,
    /// `reference != texel`.
    NotEqual,
    /// `reference >= texel`.
    GreaterEqual,
    /// Always passes.
    Always,
}

impl ComparisonFunc {
    /// `reference FUNC texel` with IEEE comparisons (any comparison with NaN fails
    /// but `NotEqual`, which passes; `Never`/`Always` ignore the values).
    pub fn passes(self, reference: f32, texel: f32) -> bool {
        match self {
            ComparisonFunc::Never => false,
            ComparisonFunc::Less => reference < texel,
            ComparisonFunc::Equal => reference == texel,
            ComparisonFunc::LessEqual => reference <= texel,
            ComparisonFunc::Greater => reference > texel,
            ComparisonFunc::NotEqual => reference != texel,
            ComparisonFunc::GreaterEqual => reference >= texel,
            ComparisonFunc::Always => true,
        }
    }
}

/// A sampler state (`s#`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampler {
    /// The filter when the texture is minified.
    pub min: Filter,
    /// The filter when the texture is magnified.
    pub mag: Filter,
    /// The filter between mip levels.
    pub mip: Filter,
    /// `AddressU`, `AddressV`, `AddressW`.
    pub address: [AddressMode; 3],
    /// RGBA read outside a [`AddressMode::Border`] texture.
    pub border_color: [f32; 4],
    /// Added to the computed level of detail.
    pub mip_lod_bias: f32,
    /// The least level of detail used (0: the most detailed mip).
    pub min_lod: f32,
    /// The greatest level of detail used.
    pub max_lod: f32,
    /// The comparison function of a comparison sampler (`D3D11_FILTER_COMPARISON_*`);
    /// `None` for an ordinary one. Comparison instructions with a sampler without one
    /// compare with [`ComparisonFunc::Never`] (D3D11 leaves the result undefined).
    pub comparison: Option<ComparisonFunc>,
}

impl Default for Sampler {
    /// D3D11's default sampler: linear everywhere, clamp, LOD 0..FLT_MAX.
    fn default() -> Sampler {
        Sampler {
            min: Filter::Linear,
            mag: Filter::Linear,
            mip: Filter::Linear,
            address: [AddressMode::Clamp; 3],
            border_color: [1.0; 4],
            mip_lod_bias: 0.0,
            min_lod: -f32::MAX,
            max_lod: f32::MAX,
            comparison: None,
        }
    }
}

/// Everything bound to one stage. Unbound slots read as zero (constant buffers,
/// resources) and ignore writes (UAVs).
#[derive(Debug, Default)]
pub struct Resources<'a> {
    /// `cb0`..`cb13`: each a slice of 16-byte vectors.
    pub constant_buffers: [Option<&'a [[u32; 4]]>; 14],
    /// `t0`.. (index = slot).
    pub srvs: Vec<Option<Srv<'a>>>,
    /// `s0`..`s15`.
    pub samplers: [Option<Sampler>; 16],
    /// `u0`.. (index = slot).
    pub uavs: Vec<Option<Uav<'a>>>,
    /// The class instances bound with the shader (`*SetShader`'s `ppClassInstances`):
    /// per interface slot, the function table `fcall` runs and the `this[]` register.
    /// An unbound slot runs the first table its `dcl_interface` lists and reads
    /// `this` as zeros ([`tpf::interfaces`]).
    pub class_instances: ClassInstances,
}

impl TextureView<'_> {
    /// Width, height and depth of mip `level` (each at least 1; height 1 for 1D
    /// textures, depth 1 but for 3D textures).
    pub fn mip_size(&self, level: u32) -> (u32, u32, u32) {
        let l = level.min(31);
        let w = (self.width >> l).max(1);
        let h = match self.dimension {
            Dimension::Texture1D | Dimension::Texture1DArray | Dimension::Buffer => 1,
            _ => (self.height >> l).max(1),
        };
        let d = match self.dimension {
            Dimension::Texture3D => (self.depth >> l).max(1),
            _ => 1,
        };
        (w, h, d)
    }

    /// Samples per texel: the multisampled dimensions' count (at least 1), else 1.
    pub fn sample_count(&self) -> u32 {
        match self.dimension {
            Dimension::Texture2DMS { samples } | Dimension::Texture2DMSArray { samples } => samples.max(1),
            _ => 1,
        }
    }

    /// Mip levels as laid out in memory (1 for multisampled textures, at least 1).
    fn levels(&self) -> u32 {
        match self.dimension {
            Dimension::Texture2DMS { .. } | Dimension::Texture2DMSArray { .. } => 1,
            _ => self.mip_levels.max(1),
        }
    }

    /// Bytes of mip `level` of one array slice (saturating: sizes past `u64` are
    /// past any memory anyway).
    fn mip_bytes(&self, level: u32) -> u64 {
        let (w, h, d) = self.mip_size(level);
        (w as u64)
            .saturating_mul(h as u64)
            .saturating_mul(d as u64)
            .saturating_mul(self.sample_count() as u64)
            .saturating_mul(self.format.size() as u64)
    }

    /// Bytes of one array slice (every mip), if they fit `usize`.
    pub fn slice_bytes(&self) -> Option<usize> {
        let n = (0..self.levels().min(32)).try_fold(0u64, |a, l| a.checked_add(self.mip_bytes(l)))?;
        usize::try_from(n).ok()
    }

    /// Bytes of the whole texture (`array_size` slices, at least 1), if they fit `usize`.
    pub fn byte_size(&self) -> Option<usize> {
        self.slice_bytes()?.checked_mul(self.array_size.max(1) as usize)
    }

    /// Byte offset of subresource (`slice`, `level`) in [`data`](Self::data)'s layout,
    /// if the slice and level exist.
    pub fn subresource_offset(&self, slice: u32, level: u32) -> Option<usize> {
        let levels = self.levels();
        if slice >= self.array_size.max(1) || level >= levels {
            return None;
        }
        let sum = |n: u32| (0..n.min(32)).fold(0u64, |a, l| a.saturating_add(self.mip_bytes(l)));
        let off = (slice as u64).checked_mul(sum(levels))?.checked_add(sum(level))?;
        usize::try_from(off).ok()
    }

    /// Byte offset of texel (`x`, `y`, `z`) of subresource (`slice`, `level`), if it is
    /// inside the texture (not checked against the length of the memory).
    pub fn texel_offset(&self, slice: u32, level: u32, x: u32, y: u32, z: u32) -> Option<usize> {
        let (w, h, d) = self.mip_size(level);
        if x >= w || y >= h || z >= d {
            return None;
        }
        let base = self.subresource_offset(slice, level)? as u64;
        let size = self.format.size() as u64;
        let index =
            (z as u64).checked_mul(h as u64)?.checked_add(y as u64)?.checked_mul(w as u64)?.checked_add(x as u64)?;
        let off = index.checked_mul(self.sample_count() as u64)?.checked_mul(size)?.checked_add(base)?;
        usize::try_from(off).ok()
    }

    /// Byte offset of sample `sample` of texel (`x`, `y`) of array slice `slice` of a
    /// multisampled texture (sample 0 of the texel for other textures), if inside.
    pub fn sample_offset(&self, slice: u32, x: u32, y: u32, sample: u32) -> Option<usize> {
        if sample >= self.sample_count() {
            return None;
        }
        let at = self.texel_offset(slice, 0, x, y, 0)? as u64;
        let off = (sample as u64).checked_mul(self.format.size() as u64)?.checked_add(at)?;
        usize::try_from(off).ok()
    }
}
