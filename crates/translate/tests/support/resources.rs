//! Generated memory for every resource a program declares, for the tests that run a
//! translated shader on lavapipe and the reference interpreter with the same memory
//! (`lavapipe_compute`, `lavapipe_pixel`): the words and texels, the `translate`
//! bindings, what is bound on the device (`support/lavapipe.rs`'s [`Bound`]) and
//! `exec`'s [`Resources`].
//!
//! Constant buffers of 4096 vectors; raw, structured and typed buffer views (and UAVs)
//! of pseudo-random [`word`]s, a typed buffer of the four-component 32-bit format of
//! its declared type; float 1D and 2D textures of one level, [`TEXTURE_SIZE`] texels
//! square (1D: one row), `R32G32B32A32_FLOAT` [`texel`]s; float multisampled 2D
//! textures ([`Kind::Multisampled`]); 1D and 2D arrays, 3D textures, cubes and cube
//! arrays, float or integer, and integer 1D and 2D textures ([`Kind::Image`], one level;
//! integer texels are [`word`]s); samplers with point filtering and clamp addressing
//! (nearest mip level: [`Policy::mips`] gives float 2D textures, 2D arrays and cubes every
//! level).
//! What a harness binds besides is its [`Policy`].
//!
//! Included with `#[path = "support/resources.rs"] mod resources;` next to
//! `support/lavapipe.rs`.
#![allow(dead_code)]

use std::collections::BTreeMap;

use corpus::Rng;
use exec::resources::{AddressMode, ComparisonFunc, Dimension, Filter, Sampler, Srv, TextureView, Uav};
use exec::{Format, Resources};
use tpf::{Body, Decl, Opcode, ResourceDimension, ReturnType, SamplerMode};
use translate::buffer_format::{self, Numeric};

use super::lavapipe::{vec4_bytes, Bound, Buffer, Image};

/// What a harness binds besides constant buffers, buffer views, 1D and 2D float
/// textures and samplers.
#[derive(Clone, Copy)]
pub struct Policy {
    /// UAVs (group 2) and the hidden counters of those `imm_atomic_alloc` and
    /// `imm_atomic_consume` use (group 3), samplers then at group 4. Without, a program
    /// that declares a UAV is not compared and samplers are at group 2.
    pub uavs: bool,
    /// Float multisampled 2D textures (views).
    pub multisampled: bool,
    /// Texture views of every other dimension but multisampled ones (1D and 2D arrays,
    /// 3D textures, cubes, cube arrays) and integer ones of every such dimension
    /// ([`Kind::Image`]).
    pub textures: bool,
    /// Comparison samplers, and the textures comparing instructions read as depth
    /// textures ([`Kind::Depth`]).
    pub comparison: bool,
    /// Float 2D textures, 2D arrays, cubes and cube arrays that are shader resources get
    /// every mip level ([`MIP_LEVELS`]: 64 texels to 1), each level its own generated
    /// texels, so that an implicit-LOD sample's texel depends on its LOD (samplers filter
    /// mips by the nearest level).
    pub mips: bool,
}

/// The compute harness's: UAVs, counters and multisampled textures.
pub const COMPUTE: Policy = Policy { uavs: true, multisampled: true, textures: false, comparison: false, mips: false };

/// The pixel harness's: UAVs and counters, views of every dimension but multisampled
/// ones, samplers (comparison ones too).
pub const PIXEL: Policy = Policy { uavs: true, multisampled: true, textures: true, comparison: true, mips: false };

/// [`PIXEL`] with mip chains ([`Policy::mips`]).
pub const PIXEL_MIPS: Policy = Policy { mips: true, ..PIXEL };

/// The mip levels of a texture of [`Policy::mips`]: [`TEXTURE_SIZE`] (64) texels across
/// down to 1.
pub const MIP_LEVELS: u32 = 7;

/// The seed of the memory of the program named `id`: FNV-1a of the name.
pub fn seed(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// A word: a small integer or a [`float`], by a coin.
pub fn word(rng: &mut Rng) -> u32 {
    if rng.below(2) == 0 {
        rng.below(16) as u32
    } else {
        float(rng)
    }
}

/// A float in [-2, 2] (1/1000 steps), its bits.
pub fn float(rng: &mut Rng) -> u32 {
    ((rng.below(4001) as f32 - 2000.0) / 1000.0).to_bits()
}

/// `n` [`word`]s, little-endian.
pub fn words(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).flat_map(|_| word(rng).to_le_bytes()).collect()
}

/// What the later rounds of the compute harness draw constant-buffer words from: the
/// program's own 32-bit immediates and the bit fields it extracts.
pub struct Hints {
    /// The 32-bit immediates (`l(...)` components), each once.
    pub immediates: Vec<u32>,
    /// The bit fields (lowest bit, width) the program takes apart words with: the
    /// immediate widths and offsets of `ubfe` and `ibfe`, the contiguous immediate masks
    /// of `and`, the bits above an immediate shift of `ushr` and `ishr` (each once,
    /// bit 0 upwards first).
    pub fields: Vec<(u32, u32)>,
    /// Whether the words are [`packed`] ones of the fields (mostly), not the
    /// immediates.
    pub packed: bool,
}

impl Hints {
    /// The hints `program` gives.
    pub fn of(program: &tpf::Program<'_>) -> Hints {
        let imm = |o: &tpf::Operand| o.imm[..o.immediate_count()].to_vec();
        let mut immediates = Vec::new();
        let mut fields = Vec::new();
        for inst in program.iter() {
            let ops = inst.operands();
            for o in ops.iter().filter(|o| o.ty == tpf::OperandType::Immediate32) {
                immediates.extend(imm(o));
            }
            let immediate = |k: usize| ops.get(k).filter(|o| o.ty == tpf::OperandType::Immediate32).map(imm);
            match inst.opcode {
                // `ubfe dest, width, offset, src`: a scalar one applies to every component.
                Opcode::Ubfe | Opcode::Ibfe => {
                    if let (Some(w), Some(o)) = (immediate(1), immediate(2)) {
                        for k in 0..w.len().max(o.len()) {
                            let width = w.get(k).or(w.last()).map_or(0, |v| v & 31);
                            let low = o.get(k).or(o.last()).map_or(0, |v| v & 31);
                            if width > 0 {
                                fields.push((low, width.min(32 - low)));
                            }
                        }
                    }
                }
                Opcode::And => {
                    for m in [immediate(1), immediate(2)].into_iter().flatten().flatten() {
                        let low = m.trailing_zeros();
                        if m != 0 && (m >> low).wrapping_add(1) & (m >> low) == 0 {
                            fields.push((low, m.count_ones()));
                        }
                    }
                }
                Opcode::Ushr | Opcode::Ishr => {
                    for s in immediate(2).into_iter().flatten() {
                        if s & 31 != 0 {
                            fields.push((s & 31, 32 - (s & 31)));
                        }
                    }
                }
                _ => {}
            }
        }
        immediates.sort_unstable();
        immediates.dedup();
        fields.sort_unstable();
        fields.dedup();
        Hints { immediates, fields, packed: false }
    }
}

/// A constant-buffer word of the later rounds. Without [`Hints::packed`], by a die:
/// a [`word`], any 32 bits, or one of the program's immediates or its neighbour; with
/// it, by a die, a [`packed`] word of the program's fields (three faces in four) or a
/// [`word`].
pub fn constant(rng: &mut Rng, hints: &Hints) -> u32 {
    let immediates = &hints.immediates;
    if hints.packed {
        return match rng.below(4) {
            0 => word(rng),
            _ => packed(rng, &hints.fields),
        };
    }
    match rng.below(4) {
        0 => word(rng),
        1 => rng.next_u64() as u32,
        _ if immediates.is_empty() => rng.next_u64() as u32,
        _ => {
            let v = immediates[rng.below(immediates.len())];
            v.wrapping_add(rng.below(3) as u32).wrapping_sub(1)
        }
    }
}

/// A word of packed bit fields, as sizes, pitches, scales, offsets and flags come to a
/// program in one constant: small numbers (0 to 3) put in some of `fields` (lowest
/// bit, width), each with a chance drawn for the word (1/8, 1/4 or 1/2), or in the low
/// bits when none is drawn.
pub fn packed(rng: &mut Rng, fields: &[(u32, u32)]) -> u32 {
    let chance = 2 << rng.below(3);
    let mut w = 0u32;
    for &(low, width) in fields {
        if rng.below(16) < chance {
            let v = (rng.below(4) as u32) & (u32::MAX >> (32 - width.clamp(1, 32)));
            w |= v << low;
        }
    }
    if w == 0 {
        w = rng.below(4) as u32;
    }
    w
}

/// A texel in [0, 1] (1/1000 steps): a colour, as the corpus's image shaders read.
pub fn texel(rng: &mut Rng) -> [f32; 4] {
    [0; 4].map(|_| rng.below(1001) as f32 / 1000.0)
}

/// The side of the textures bound: 64 texels (a multiple of 16, as the compute harness
/// reads writable textures back), 64 rows (one for a 1D texture).
pub const TEXTURE_SIZE: u32 = 64;

/// The dimension of a texture view of [`Kind::Image`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Texture1D,
    Texture2D,
    Texture1DArray,
    Texture2DArray,
    Texture3D,
    Cube,
    CubeArray,
    /// A 2D texture of a size that is not a power of two ([`ODD_SIZE`]): no declaration
    /// makes one, a test puts it in place of a 2D one ([`Data::odd_texture`]).
    Texture2DOdd,
}

/// The width and height of [`Shape::Texture2DOdd`].
pub const ODD_SIZE: (u32, u32) = (48, 40);

impl Shape {
    fn of(dim: ResourceDimension) -> Option<Shape> {
        Some(match dim {
            ResourceDimension::Texture1D => Shape::Texture1D,
            ResourceDimension::Texture2D => Shape::Texture2D,
            ResourceDimension::Texture1DArray => Shape::Texture1DArray,
            ResourceDimension::Texture2DArray => Shape::Texture2DArray,
            ResourceDimension::Texture3D => Shape::Texture3D,
            ResourceDimension::TextureCube => Shape::Cube,
            ResourceDimension::TextureCubeArray => Shape::CubeArray,
            _ => return None,
        })
    }

    /// Width, height and slices (array slices, cube faces six per cube, or a 3D
    /// texture's depth): [`TEXTURE_SIZE`] across, one row for 1D ones, four slices for
    /// arrays and 3D textures, two cubes for a cube array.
    pub fn size(self) -> (u32, u32, u32) {
        let n = TEXTURE_SIZE;
        match self {
            Shape::Texture1D => (n, 1, 1),
            Shape::Texture2D => (n, n, 1),
            Shape::Texture1DArray => (n, 1, 4),
            Shape::Texture2DArray | Shape::Texture3D => (n, n, 4),
            Shape::Cube => (n, n, 6),
            Shape::CubeArray => (n, n, 12),
            Shape::Texture2DOdd => (ODD_SIZE.0, ODD_SIZE.1, 1),
        }
    }

    fn dimension(self) -> Dimension {
        match self {
            Shape::Texture1D => Dimension::Texture1D,
            Shape::Texture2D | Shape::Texture2DOdd => Dimension::Texture2D,
            Shape::Texture1DArray => Dimension::Texture1DArray,
            Shape::Texture2DArray => Dimension::Texture2DArray,
            Shape::Texture3D => Dimension::Texture3D,
            Shape::Cube | Shape::CubeArray => Dimension::TextureCube,
        }
    }

    /// The view's dimension on the device (1D ones are 2D ones of height 1, as the
    /// translator maps them).
    pub fn wgpu(self) -> wgpu::TextureViewDimension {
        match self {
            Shape::Texture1D | Shape::Texture2D | Shape::Texture2DOdd => wgpu::TextureViewDimension::D2,
            Shape::Texture1DArray | Shape::Texture2DArray => wgpu::TextureViewDimension::D2Array,
            Shape::Texture3D => wgpu::TextureViewDimension::D3,
            Shape::Cube => wgpu::TextureViewDimension::Cube,
            Shape::CubeArray => wgpu::TextureViewDimension::CubeArray,
        }
    }
}

/// What a view is.
#[derive(Clone, Copy)]
pub enum Kind {
    /// A raw (byte address) buffer.
    Raw,
    /// A structured buffer of this stride.
    Structured(u32),
    /// A typed buffer of this format (the four-component 32-bit one of its declared
    /// type, [`buffer_format::default_format`], named in the bindings).
    Typed(Format),
    /// A 1D (height 1) or 2D texture of one level, `R32G32B32A32_FLOAT` texels (the
    /// format the translator's `rgba32float` storage textures hold for typed UAVs).
    Texture { one_d: bool },
    /// A typed UAV texture of one level of `shape` ([`Shape::size`]; not a cube) but the
    /// float 1D and 2D ones the program only writes ([`Kind::Texture`]): texels of
    /// the four-component 32-bit format of `numeric` or, when the program loads it
    /// (`loaded`), the one-component one (`R32_*`, what the translator binds a loaded
    /// typed UAV as); floats [`texel`]s' components, integers [`word`]s
    /// ([`Policy::textures`]).
    Storage { shape: Shape, numeric: Numeric, loaded: bool },
    /// A multisampled 2D texture of `samples` samples per texel, `R16G16B16A16_FLOAT`
    /// (a format the device draws multisampled), each sample's value in [0, 1] in
    /// 1/256 steps (exact in a half); its memory is exec's (samples of a texel
    /// consecutive).
    Multisampled { samples: u32 },
    /// A texture of one level of `shape` ([`Shape::size`]), texels of the
    /// four-component 32-bit format of `numeric`: floats [`texel`]s, integers
    /// [`word`]s ([`Policy::textures`]).
    Image { shape: Shape, numeric: Numeric, levels: u32 },
    /// A texture that comparing instructions (`sample_c`, `sample_c_lz`, `gather4_c`,
    /// `gather4_po_c`) read, of one level of `shape` ([`Shape::size`]; not 3D):
    /// `R32_FLOAT` texels in [0, 1] (1/1000 steps), so that the reference value
    /// the reference quantizes to the texture's format is the float the device compares
    /// ([`Policy::comparison`]).
    Depth { shape: Shape },
}

/// A view and its memory (a texture's: its texels' floats, row after row).
pub struct View {
    pub kind: Kind,
    pub bytes: Vec<u8>,
}

impl View {
    fn texture(one_d: bool, rng: &mut Rng) -> View {
        let n = TEXTURE_SIZE * if one_d { 1 } else { TEXTURE_SIZE };
        let bytes = (0..n).flat_map(|_| texel(rng)).flat_map(f32::to_le_bytes).collect();
        View { kind: Kind::Texture { one_d }, bytes }
    }

    fn image(shape: Shape, numeric: Numeric, rng: &mut Rng) -> View {
        View::image_levels(shape, numeric, 1, rng)
    }

    /// [`View::image`] with `levels` mip levels (each slice's levels one after the
    /// other, exec's layout; a 3D texture or a 1D one has one).
    fn image_levels(shape: Shape, numeric: Numeric, levels: u32, rng: &mut Rng) -> View {
        let (w, h, slices) = shape.size();
        let n: u32 = slices * (0..levels).map(|l| (w >> l).max(1) * (h >> l).max(1)).sum::<u32>();
        let bytes = match numeric {
            Numeric::Float => (0..n).flat_map(|_| texel(rng)).flat_map(f32::to_le_bytes).collect(),
            _ => (0..4 * n).flat_map(|_| word(rng).to_le_bytes()).collect(),
        };
        View { kind: Kind::Image { shape, numeric, levels }, bytes }
    }

    fn storage(shape: Shape, numeric: Numeric, loaded: bool, rng: &mut Rng) -> View {
        let (w, h, slices) = shape.size();
        let n = (w * h * slices) as usize;
        let components = if loaded { 1 } else { 4 };
        let bytes = match numeric {
            Numeric::Float => {
                (0..n).flat_map(|_| texel(rng)[..components].to_vec()).flat_map(f32::to_le_bytes).collect()
            }
            _ => (0..components * n).flat_map(|_| word(rng).to_le_bytes()).collect(),
        };
        View { kind: Kind::Storage { shape, numeric, loaded }, bytes }
    }

    /// The format of [`Kind::Storage`] texels.
    pub fn storage_format(numeric: Numeric, loaded: bool) -> Format {
        match (numeric, loaded) {
            (Numeric::Float, true) => Format::R32_FLOAT,
            (Numeric::Uint, true) => Format::R32_UINT,
            (Numeric::Sint, true) => Format::R32_SINT,
            (numeric, false) => View::image_format(numeric),
        }
    }

    /// A [`Kind::Storage`] texture's view for `exec` (over no memory: a UAV's is the
    /// caller's).
    pub fn storage_view(shape: Shape, numeric: Numeric, loaded: bool) -> TextureView<'static> {
        let (width, height, slices) = shape.size();
        let three_d = shape == Shape::Texture3D;
        TextureView {
            dimension: shape.dimension(),
            format: View::storage_format(numeric, loaded),
            width,
            height,
            depth: if three_d { slices } else { 1 },
            array_size: if three_d { 1 } else { slices },
            mip_levels: 1,
            data: &[],
        }
    }

    fn depth(shape: Shape, rng: &mut Rng) -> View {
        let (w, h, slices) = shape.size();
        let bytes = (0..w * h * slices).flat_map(|_| (rng.below(1001) as f32 / 1000.0).to_le_bytes()).collect();
        View { kind: Kind::Depth { shape }, bytes }
    }

    /// The format of [`Kind::Image`] texels of `numeric`.
    fn image_format(numeric: Numeric) -> Format {
        match numeric {
            Numeric::Float => Format::R32G32B32A32_FLOAT,
            Numeric::Uint => Format::R32G32B32A32_UINT,
            Numeric::Sint => Format::R32G32B32A32_SINT,
        }
    }

    fn multisampled(samples: u32, rng: &mut Rng) -> View {
        let n = TEXTURE_SIZE * TEXTURE_SIZE * samples;
        let half = |rng: &mut Rng| exec::format::f32_to_f16(rng.below(257) as f32 / 256.0);
        let bytes = (0..4 * n).flat_map(|_| half(rng).to_le_bytes()).collect();
        View { kind: Kind::Multisampled { samples }, bytes }
    }

    /// A texture's width and height.
    pub fn size(one_d: bool) -> (u32, u32) {
        (TEXTURE_SIZE, if one_d { 1 } else { TEXTURE_SIZE })
    }

    /// A texture's texels (a multisampled one's samples).
    pub fn texels(&self) -> Vec<[f32; 4]> {
        if let Kind::Multisampled { .. } = self.kind {
            return self
                .bytes
                .chunks_exact(8)
                .map(|c| [0, 1, 2, 3].map(|k| exec::format::f16_to_f32(u16::from_le_bytes([c[2 * k], c[2 * k + 1]]))))
                .collect();
        }
        self.bytes
            .chunks_exact(16)
            .map(|c| [0, 1, 2, 3].map(|k| f32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])))
            .collect()
    }

    /// A 1D or 2D texture's view for `exec` over `data`.
    pub fn texture_view(one_d: bool, data: &[u8]) -> TextureView<'_> {
        let (width, height) = View::size(one_d);
        TextureView {
            dimension: if one_d { Dimension::Texture1D } else { Dimension::Texture2D },
            format: Format::R32G32B32A32_FLOAT,
            width,
            height,
            depth: 1,
            array_size: 1,
            mip_levels: 1,
            data,
        }
    }
}

/// The memory a program reads and writes, by slot.
pub struct Data {
    pub policy: Policy,
    pub cbs: BTreeMap<u32, Vec<[u32; 4]>>,
    pub srvs: BTreeMap<u32, View>,
    pub uavs: BTreeMap<u32, View>,
    /// UAVs whose hidden counter the program uses.
    pub counters: Vec<u32>,
    /// Samplers (point filtering, clamp addressing), by slot.
    pub samplers: Vec<u32>,
    /// The slots of those of [`Data::samplers`] that are comparison samplers
    /// (`reference <= texel`).
    pub comparisons: Vec<u32>,
}

impl Data {
    /// Replaces the float 2D texture at SRV slot `slot` with one of
    /// [`Shape::Texture2DOdd`] (new texels from `rng`).
    pub fn odd_texture(&mut self, slot: u32, rng: &mut Rng) {
        self.srvs.insert(slot, View::image(Shape::Texture2DOdd, Numeric::Float, rng));
    }

    fn new(policy: Policy) -> Data {
        Data {
            policy,
            cbs: BTreeMap::new(),
            srvs: BTreeMap::new(),
            uavs: BTreeMap::new(),
            counters: Vec::new(),
            samplers: Vec::new(),
            comparisons: Vec::new(),
        }
    }

    /// The group of the samplers.
    fn sampler_group(&self) -> u32 {
        if self.policy.uavs {
            4
        } else {
            2
        }
    }

    /// Constant buffers at group 0, views at 1, UAVs at 2, counters at 3, samplers at
    /// 4 (at 2 without UAVs: [`Policy::uavs`]): bindings 0, 1, 2... in slot order (as
    /// [`Data::bound`] binds them); the typed buffers' formats.
    pub fn bindings(&self) -> translate::Bindings {
        let mut text = String::new();
        for (k, slot) in self.cbs.keys().enumerate() {
            text += &format!("cb{slot} = 0:{k}\n");
        }
        for (k, slot) in self.srvs.keys().enumerate() {
            text += &format!("t{slot} = 1:{k}\n");
        }
        for (k, slot) in self.uavs.keys().enumerate() {
            text += &format!("u{slot} = 2:{k}\n");
        }
        for (k, slot) in self.counters.iter().enumerate() {
            text += &format!("uc{slot} = 3:{k}\n");
        }
        let samplers = self.sampler_group();
        for (k, slot) in self.samplers.iter().enumerate() {
            text += &format!("s{slot} = {samplers}:{k}\n");
        }
        for (class, map) in [("t", &self.srvs), ("u", &self.uavs)] {
            for (slot, v) in map {
                if let Kind::Typed(f) = v.kind {
                    text += &format!("{class}{slot} = {}\n", f.name());
                }
            }
        }
        translate::Bindings::parse(&text).expect("bindings")
    }

    /// What is bound on the device, at [`Data::bindings`]' groups and bindings: the
    /// UAVs and the counters (starting at 0) writable, read back in that order.
    pub fn bound(&self) -> Vec<Bound> {
        let mut bound: Vec<Bound> = Vec::new();
        for (k, cb) in self.cbs.values().enumerate() {
            bound.push(Bound { group: 0, binding: k as u32, buffer: Buffer::Uniform(vec4_bytes(cb)) });
        }
        for (k, v) in self.srvs.values().enumerate() {
            let buffer = match v.kind {
                Kind::Raw | Kind::Structured(_) => Buffer::Storage(v.bytes.clone()),
                Kind::Typed(_) => Buffer::Typed(v.bytes.clone()),
                Kind::Texture { one_d } => {
                    let (width, height) = View::size(one_d);
                    Buffer::Texture { width, height, texels: v.texels() }
                }
                Kind::Multisampled { samples } => Buffer::MultisampledTexture {
                    width: TEXTURE_SIZE,
                    height: TEXTURE_SIZE,
                    samples,
                    texels: v.texels(),
                },
                Kind::Image { shape, numeric, levels } => {
                    let (width, height, layers) = shape.size();
                    Buffer::Image(Image {
                        levels,
                        view: shape.wgpu(),
                        format: match numeric {
                            Numeric::Float => wgpu::TextureFormat::Rgba32Float,
                            Numeric::Uint => wgpu::TextureFormat::Rgba32Uint,
                            Numeric::Sint => wgpu::TextureFormat::Rgba32Sint,
                        },
                        width,
                        height,
                        layers,
                        bytes: v.bytes.clone(),
                    })
                }
                Kind::Depth { shape } => {
                    let (width, height, layers) = shape.size();
                    let values =
                        v.bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
                    Buffer::DepthTexture { view: shape.wgpu(), width, height, layers, values }
                }
                Kind::Storage { .. } => unreachable!("a shader resource view is not a typed UAV texture"),
            };
            bound.push(Bound { group: 1, binding: k as u32, buffer });
        }
        for (k, v) in self.uavs.values().enumerate() {
            let buffer = match v.kind {
                Kind::Raw | Kind::Structured(_) => Buffer::StorageReadWrite(v.bytes.clone()),
                Kind::Typed(_) => Buffer::TypedReadWrite(v.bytes.clone()),
                Kind::Texture { one_d } => {
                    let (width, height) = View::size(one_d);
                    Buffer::StorageTexture { width, height, texels: v.texels() }
                }
                Kind::Storage { shape, numeric, loaded } => {
                    let (width, height, layers) = shape.size();
                    Buffer::StorageImage(Image {
                        levels: 1,
                        view: shape.wgpu(),
                        format: match (numeric, loaded) {
                            (Numeric::Float, true) => wgpu::TextureFormat::R32Float,
                            (Numeric::Uint, true) => wgpu::TextureFormat::R32Uint,
                            (Numeric::Sint, true) => wgpu::TextureFormat::R32Sint,
                            (Numeric::Float, false) => wgpu::TextureFormat::Rgba32Float,
                            (Numeric::Uint, false) => wgpu::TextureFormat::Rgba32Uint,
                            (Numeric::Sint, false) => wgpu::TextureFormat::Rgba32Sint,
                        },
                        width,
                        height,
                        layers,
                        bytes: v.bytes.clone(),
                    })
                }
                Kind::Multisampled { .. } | Kind::Image { .. } | Kind::Depth { .. } => {
                    unreachable!("a UAV is neither multisampled nor of another dimension")
                }
            };
            bound.push(Bound { group: 2, binding: k as u32, buffer });
        }
        for k in 0..self.counters.len() {
            bound.push(Bound { group: 3, binding: k as u32, buffer: Buffer::StorageReadWrite(vec![0; 4]) });
        }
        for (k, slot) in self.samplers.iter().enumerate() {
            let buffer = if self.comparisons.contains(slot) {
                Buffer::PointClampLessEqualSampler
            } else {
                Buffer::PointClampSampler
            };
            bound.push(Bound { group: self.sampler_group(), binding: k as u32, buffer });
        }
        bound
    }

    /// Each UAV's bytes before the run, in slot order: the memory
    /// [`Data::resources_with_uavs`] binds.
    pub fn uav_memory(&self) -> Vec<Vec<u8>> {
        self.uavs.values().map(|v| v.bytes.clone()).collect()
    }

    /// [`Data::resources`] with every UAV bound at its slot over its part of `memory`
    /// ([`Data::uav_memory`]), which the run writes and the caller reads back.
    pub fn resources_with_uavs<'a>(&'a self, memory: &'a mut [Vec<u8>]) -> Resources<'a> {
        let mut res = self.resources();
        for ((&slot, v), memory) in self.uavs.iter().zip(memory.iter_mut()) {
            let slot = slot as usize;
            while res.uavs.len() <= slot {
                res.uavs.push(None);
            }
            res.uavs[slot] = Some(match v.kind {
                Kind::Raw => Uav::Raw { data: memory },
                Kind::Structured(stride) => Uav::Structured { data: memory, stride, counter: 0 },
                Kind::Typed(f) => Uav::Buffer { data: memory, format: f },
                Kind::Texture { one_d } => Uav::Texture { view: View::texture_view(one_d, &[]), data: memory },
                Kind::Storage { shape, numeric, loaded } => {
                    Uav::Texture { view: View::storage_view(shape, numeric, loaded), data: memory }
                }
                Kind::Multisampled { .. } | Kind::Image { .. } | Kind::Depth { .. } => {
                    unreachable!("a UAV is neither multisampled nor of another dimension")
                }
            });
        }
        res
    }

    /// `exec`'s resources: the constant buffers, the views and the samplers (the UAVs
    /// are bound by [`Data::resources_with_uavs`]).
    pub fn resources(&self) -> Resources<'_> {
        let mut res = Resources::default();
        for (&slot, cb) in &self.cbs {
            if let Some(s) = res.constant_buffers.get_mut(slot as usize) {
                *s = Some(cb);
            }
        }
        for (&slot, v) in &self.srvs {
            let slot = slot as usize;
            if res.srvs.len() <= slot {
                res.srvs.resize(slot + 1, None);
            }
            res.srvs[slot] = Some(match v.kind {
                Kind::Raw => Srv::Raw { data: &v.bytes },
                Kind::Structured(stride) => Srv::Structured { data: &v.bytes, stride },
                Kind::Typed(format) => Srv::Buffer { data: &v.bytes, format },
                Kind::Texture { one_d } => Srv::Texture(View::texture_view(one_d, &v.bytes)),
                Kind::Multisampled { samples } => Srv::Texture(TextureView {
                    dimension: Dimension::Texture2DMS { samples },
                    format: Format::R16G16B16A16_FLOAT,
                    width: TEXTURE_SIZE,
                    height: TEXTURE_SIZE,
                    depth: 1,
                    array_size: 1,
                    mip_levels: 1,
                    data: &v.bytes,
                }),
                Kind::Image { shape, numeric, levels } => {
                    let (width, height, slices) = shape.size();
                    let three_d = shape == Shape::Texture3D;
                    Srv::Texture(TextureView {
                        dimension: shape.dimension(),
                        format: View::image_format(numeric),
                        width,
                        height,
                        depth: if three_d { slices } else { 1 },
                        array_size: if three_d { 1 } else { slices },
                        mip_levels: levels,
                        data: &v.bytes,
                    })
                }
                Kind::Storage { .. } => unreachable!("a shader resource view is not a typed UAV texture"),
                Kind::Depth { shape } => {
                    let (width, height, array_size) = shape.size();
                    Srv::Texture(TextureView {
                        dimension: shape.dimension(),
                        format: Format::R32_FLOAT,
                        width,
                        height,
                        depth: 1,
                        array_size,
                        mip_levels: 1,
                        data: &v.bytes,
                    })
                }
            });
        }
        for &slot in &self.samplers {
            if let Some(s) = res.samplers.get_mut(slot as usize) {
                *s = Some(Sampler {
                    min: Filter::Point,
                    mag: Filter::Point,
                    mip: Filter::Point,
                    address: [AddressMode::Clamp; 3],
                    comparison: self.comparisons.contains(&slot).then_some(ComparisonFunc::LessEqual),
                    ..Sampler::default()
                });
            }
        }
        res
    }
}

/// The slot a declaration names (the register: Shader Model 5.1's range start).
pub fn slot(program: &tpf::Program<'_>, o: &tpf::Operand) -> u32 {
    let k = if program.version.is_sm51() { 1 } else { 0 };
    o.index(k).map_or(0, |i| i.immediate() as u32)
}

/// The memory for every declaration `policy` binds, or why the program is not
/// compared; the constant buffers' words from [`constant`] with `hints` when given,
/// else [`word`].
pub fn program_data(
    program: &tpf::Program<'_>,
    rng: &mut Rng,
    policy: Policy,
    hints: Option<&Hints>,
) -> Result<Data, String> {
    let mut data = Data::new(policy);
    // The textures comparing instructions read (the translator makes them depth
    // textures).
    let mut compared = Vec::new();
    for inst in program.iter() {
        if policy.comparison
            && matches!(inst.opcode, Opcode::SampleC | Opcode::SampleCLz | Opcode::Gather4C | Opcode::Gather4PoC)
        {
            for o in inst.operands().iter().filter(|o| o.ty == tpf::OperandType::Resource) {
                compared.push(slot(program, o));
            }
        }
    }
    // The typed UAVs the program loads (the translator binds them as `R32_*` storage
    // textures it reads and writes).
    let loaded_uavs: Vec<u32> = program
        .iter()
        .filter(|i| i.opcode == Opcode::LdUavTyped)
        .filter_map(|i| {
            i.operands().get(2).filter(|o| o.ty == tpf::OperandType::UnorderedAccessView).map(|o| slot(program, o))
        })
        .collect();
    for inst in program.iter() {
        match &inst.body {
            Body::Op(_) if policy.uavs && matches!(inst.opcode, Opcode::ImmAtomicAlloc | Opcode::ImmAtomicConsume) => {
                if let Some(o) = inst.operands().get(1) {
                    let s = slot(program, o);
                    if !data.counters.contains(&s) {
                        data.counters.push(s);
                    }
                }
                continue;
            }
            Body::Decl(_) => {}
            _ => continue,
        }
        let Body::Decl(d) = &inst.body else { continue };
        let (map, operand, kind) = match d {
            Decl::UavTyped { .. } | Decl::UavRaw { .. } | Decl::UavStructured { .. } if !policy.uavs => {
                return Err("declares UAVs (the pixel harness binds none)".into())
            }
            Decl::ConstantBuffer { operand, .. } => {
                let s = slot(program, inst.operand(*operand));
                let cb = (0..4096)
                    .map(|_| {
                        [0; 4].map(|_: u32| match hints {
                            Some(h) => constant(rng, h),
                            None => word(rng),
                        })
                    })
                    .collect();
                data.cbs.insert(s, cb);
                continue;
            }
            Decl::ResourceRaw { operand, .. } => (&mut data.srvs, operand, Kind::Raw),
            Decl::ResourceStructured { operand, stride, .. } => (&mut data.srvs, operand, Kind::Structured(*stride)),
            Decl::UavRaw { operand, .. } => (&mut data.uavs, operand, Kind::Raw),
            Decl::UavStructured { operand, stride, .. } => (&mut data.uavs, operand, Kind::Structured(*stride)),
            Decl::Resource { operand, dim, return_type, .. } | Decl::UavTyped { operand, dim, return_type, .. } => {
                let uav = matches!(d, Decl::UavTyped { .. });
                let numeric = match return_type.types[0] {
                    ReturnType::Float | ReturnType::Unorm | ReturnType::Snorm => Numeric::Float,
                    ReturnType::Uint => Numeric::Uint,
                    ReturnType::Sint => Numeric::Sint,
                    _ => return Err("needs a view of another return type".into()),
                };
                let map = if uav { &mut data.uavs } else { &mut data.srvs };
                let s = slot(program, inst.operand(*operand));
                if !uav && compared.contains(&s) {
                    match Shape::of(*dim) {
                        Some(shape) if numeric == Numeric::Float && shape != Shape::Texture3D => {
                            map.insert(s, View::depth(shape, rng));
                            continue;
                        }
                        _ => return Err("compares with a texture of a dimension or type without depth".into()),
                    }
                }
                let kind = match dim {
                    ResourceDimension::Buffer => Kind::Typed(buffer_format::default_format(numeric, false)),
                    _ if uav
                        && policy.textures
                        && Shape::of(*dim).is_some_and(|s| !matches!(s, Shape::Cube | Shape::CubeArray))
                        && (numeric != Numeric::Float
                            || !matches!(dim, ResourceDimension::Texture1D | ResourceDimension::Texture2D)
                            || loaded_uavs.contains(&s)) =>
                    {
                        let shape = Shape::of(*dim).expect("a texture dimension");
                        map.insert(s, View::storage(shape, numeric, loaded_uavs.contains(&s), rng));
                        continue;
                    }
                    ResourceDimension::Texture1D | ResourceDimension::Texture2D if numeric == Numeric::Float => {
                        if uav && !policy.textures && program.iter().any(|i| i.opcode == Opcode::LdUavTyped) {
                            return Err("reads a typed UAV texture (the harness binds write-only ones)".into());
                        }
                        let s = slot(program, inst.operand(*operand));
                        if policy.mips && !uav && *dim == ResourceDimension::Texture2D {
                            map.insert(s, View::image_levels(Shape::Texture2D, numeric, MIP_LEVELS, rng));
                        } else {
                            map.insert(s, View::texture(*dim == ResourceDimension::Texture1D, rng));
                        }
                        continue;
                    }
                    ResourceDimension::Texture2DMS if policy.multisampled && !uav && numeric == Numeric::Float => {
                        // A declaration without a sample count takes any: 4.
                        let samples = match d {
                            Decl::Resource { sample_count: n @ 1.., .. } => u32::from(*n),
                            _ => 4,
                        };
                        let s = slot(program, inst.operand(*operand));
                        map.insert(s, View::multisampled(samples, rng));
                        continue;
                    }
                    ResourceDimension::Texture2DMS | ResourceDimension::Texture2DMSArray if policy.multisampled => {
                        return Err(
                            "needs multisampled texture arrays or integer ones (the harness binds float 2D ones)"
                                .into(),
                        )
                    }
                    _ if policy.textures && !uav && Shape::of(*dim).is_some() => {
                        let shape = Shape::of(*dim).expect("a texture dimension");
                        let s = slot(program, inst.operand(*operand));
                        let mipped = matches!(shape, Shape::Texture2DArray | Shape::Cube | Shape::CubeArray);
                        let levels = if policy.mips && mipped && numeric == Numeric::Float { MIP_LEVELS } else { 1 };
                        map.insert(s, View::image_levels(shape, numeric, levels, rng));
                        continue;
                    }
                    _ => {
                        return Err(
                            "needs textures of another dimension or type (the harness binds float 1D and 2D ones)"
                                .into(),
                        )
                    }
                };
                (map, operand, kind)
            }
            Decl::Sampler { operand, mode: SamplerMode::Default, .. } => {
                data.samplers.push(slot(program, inst.operand(*operand)));
                continue;
            }
            Decl::Sampler { operand, mode: SamplerMode::Comparison, .. } if policy.comparison => {
                let s = slot(program, inst.operand(*operand));
                data.samplers.push(s);
                data.comparisons.push(s);
                continue;
            }
            Decl::Sampler { .. } => return Err("needs comparison or mono samplers".into()),
            _ => continue,
        };
        let s = slot(program, inst.operand(*operand));
        let len = match kind {
            Kind::Raw => 16384,
            Kind::Structured(stride) => 64 * stride as usize,
            Kind::Typed(f) => 64 * f.size(),
            Kind::Texture { .. }
            | Kind::Multisampled { .. }
            | Kind::Image { .. }
            | Kind::Depth { .. }
            | Kind::Storage { .. } => {
                unreachable!("textures are made above")
            }
        };
        map.insert(s, View { kind, bytes: words(rng, len / 4) });
    }
    data.samplers.sort_unstable();
    data.counters.sort_unstable();
    Ok(data)
}
