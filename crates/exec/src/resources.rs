//! What is bound to a shader stage: constant buffers, shader resource views, samplers
//! and unordered access views. Views borrow the application's memory; reads past the
//! end of a view return 0 (the functional spec's out-of-bounds rule), writes past it
//! are dropped.

use crate::format::Format;

/// `D3D11_SRV_DIMENSION` / `D3D11_UAV_DIMENSION`, as far as the interpreter reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    Buffer,
    Texture1D,
    Texture1DArray,
    Texture2D,
    Texture2DArray,
    Texture3D,
    TextureCube,
    /// A multisampled 2D texture of `samples` samples per texel (see [`TextureView`]
    /// for its memory).
    Texture2DMS {
        samples: u32,
    },
    /// An array of multisampled 2D textures.
    Texture2DMSArray {
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
    pub dimension: Dimension,
    pub format: Format,
    pub width: u32,
    pub height: u32,
    /// Depth of a 3D texture; 1 otherwise.
    pub depth: u32,
    /// Array slices (6 × cubes for a cube); 1 for non-arrays.
    pub array_size: u32,
    pub mip_levels: u32,
    pub data: &'a [u8],
}

/// A shader resource view (`t#`).
#[derive(Debug, Clone, Copy)]
pub enum Srv<'a> {
    /// A typed buffer: elements of `format`.
    Buffer { data: &'a [u8], format: Format },
    /// A raw (byte address) buffer.
    Raw { data: &'a [u8] },
    /// A structured buffer of `stride`-byte elements.
    Structured { data: &'a [u8], stride: u32 },
    /// A texture.
    Texture(TextureView<'a>),
}

/// A UAV (`u#`): the same kinds, writable.
#[derive(Debug)]
pub enum Uav<'a> {
    Buffer {
        data: &'a mut [u8],
        format: Format,
    },
    Raw {
        data: &'a mut [u8],
    },
    /// A structured buffer, with its hidden counter (append/consume, `imm_atomic_alloc`).
    Structured {
        data: &'a mut [u8],
        stride: u32,
        counter: u32,
    },
    Texture {
        view: TextureView<'a>,
        data: &'a mut [u8],
    },
}

/// `D3D11_FILTER`, as far as the interpreter samples: point or linear, per min/mag/mip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Point,
    Linear,
}

/// `D3D11_TEXTURE_ADDRESS_MODE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressMode {
    Wrap,
    Mirror,
    Clamp,
    Border,
    MirrorOnce,
}

/// `D3D11_COMPARISON_FUNC`: how comparison sampling (`sample_c*`, `gather4_c*`)
/// compares the shader's reference value with a texel (`reference FUNC texel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComparisonFunc {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
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
    pub min: Filter,
    pub mag: Filter,
    pub mip: Filter,
    pub address: [AddressMode; 3],
    pub border_color: [f32; 4],
    pub mip_lod_bias: f32,
    pub min_lod: f32,
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
