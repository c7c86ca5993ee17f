//! A Direct3D 11-like immediate context on top of the reference pipeline
//! ([`exec::pipeline`], [`exec::raster`], [`exec::compute`]): buffers, input layouts,
//! views, samplers, queries, the draw calls of `ID3D11DeviceContext` for the input
//! assembler, vertex shader, geometry shader, stream-output, rasterizer, pixel shader
//! and render-target stages, and the compute stage's dispatches.
//!
//! ```
//! use d3d11::context::{BindFlags, BufferDesc};
//! use d3d11::{Device, DeviceDesc};
//!
//! let device = Device::new(DeviceDesc::default());
//! let vb = device.create_buffer(&BufferDesc::new(16, BindFlags::VERTEX_BUFFER), Some(&[0; 16])).unwrap();
//! assert_eq!(vb.desc().byte_width, 16);
//! let mut context = device.immediate_context();
//! context.ia_set_vertex_buffers(0, &[Some(vb)], &[16], &[0]);
//! ```
//!
//! # The model
//!
//! - [`Buffer`]: shared bytes with a [`BufferDesc`] (size, bind flags, misc flags,
//!   structure stride) and its stream-output `BufferFilledSize`. Cloning gives another
//!   reference to the same buffer.
//! - [`InputLayout`]: `CreateInputLayout` validated against the vertex shader's input
//!   signature.
//! - [`Context`]: the pipeline state (`IASet*`, `VSSet*`, `GSSet*`, `SOSetTargets`,
//!   `RSSet*`, `PSSet*`, `OMSetRenderTargets`, `CSSet*`), the draw calls, `Dispatch`,
//!   queries ([`Query`]: pipeline statistics, stream-output statistics and overflow
//!   predicates) and [`Context::last_draw`], the whole [`DrawResult`] of the last draw
//!   (primitives when [`Context::set_capture`] is on).
//! - Each shader gets its [`exec::Plan`] compiled once, when it is first bound to the
//!   context, and kept (by shader object identity) for later draws.
//!
//! Where Direct3D 11 returns nothing (`IASetVertexBuffers`...), a call with invalid
//! arguments is ignored as the runtime does, and the debug layer's complaint is kept in
//! [`Context::messages`]. The binding hazards follow the runtime (functional spec
//! 5.3.9.4 "Hazard Tracking"): binding a resource as an output (stream-output target,
//! UAV, render target) unbinds it from every input slot; binding it for input while it
//! is bound as an output binds `NULL`. Among the outputs: a call binding one
//! subresource at two of its slots (`OMSetRenderTargets`, the graphics or the compute
//! UAVs) is ignored, and binding a subresource as a render target, graphics UAV or
//! stream-output target unsets its other graphics output binding (a compute UAV: its
//! other compute UAV binding).
//!
//! Where methods return `void` in Direct3D 11 but can fail here in a way worth
//! knowing (setting a shader of the wrong kind, a draw the pipeline refuses), they
//! return a `Result`.
//!
//! - [`Texture2D`] (`CreateTexture2D`: also arrays, cubes and multisampled textures)
//!   for shader resource and unordered access; its memory is a [`Buffer`] laid out as
//!   [`exec::resources::TextureView`] describes (subresources in D3D11's order, each
//!   tightly packed; the samples of a texel consecutive).
//! - [`ShaderResourceView`]s of buffers and of textures; [`UnorderedAccessView`]s of
//!   buffers (typed, raw, structured with a hidden counter) and of mip 0 of 2D
//!   textures (at 10_x raw ones starting on a 256-byte boundary and structured ones
//!   only: Microsoft's "Compute Shaders on Downlevel Hardware"), bound for every graphics stage with
//!   [`Context::om_set_unordered_access_views`] (the Direct3D 11.1 runtime with UAVs
//!   at every stage: the vertex, geometry and pixel shaders share them), and for the
//!   compute stage with [`Context::cs_set_unordered_access_views`].
//!
//! # The pixel stage
//!
//! A draw with a pixel shader bound ([`Context::ps_set_shader`]) rasterizes, after the
//! vertex and geometry shaders, the rasterized stream: stream 0, or the one the
//! geometry shader object's stream-output declaration names (none for
//! `D3D11_SO_NO_RASTERIZED_STREAM`, nor for a stream the geometry shader does not
//! declare: then the pixel shader does not run). Its primitives (strips already made
//! lists) are drawn by [`exec::raster::draw_rows`] — the functional spec's rasterization
//! rules, single sample, no geometric clipping — under the first viewport
//! ([`Context::rs_set_viewports`]; none set: nothing is drawn) and the rasterizer state
//! ([`Context::rs_set_state`], [`RasterizerDesc`]: cull mode, winding, depth clip);
//! each pixel's `SV_Target#` outputs are written into render target `#`
//! ([`Context::om_set_render_targets`], [`RenderTargetView`]s of a 2D texture's mip
//! and slice) converted to its format by the typed-UAV-store conversion
//! ([`exec::format::Convert::encode`]), for the targets the program declares an `o#`
//! for; the last primitive drawn wins (no depth or stencil test, no blending, no
//! write mask). A target of more pixels than [`exec::raster::MAX_TARGET_PIXELS`]
//! (1024 × 1024; 1920 × 1080 is) is drawn band after band of rows
//! ([`exec::raster::draw_rows`], each within that bound, starting on an even row so
//! that no 2×2 quad straddles two), which gives the pixels of one draw; the pixel
//! shader's UAV writes then come band after band. Several views of one texture
//! (different slices or mips) are several targets, each written (functional spec
//! 17.14), and a UAV of another subresource of a target's texture is written too. Without a render target the target is the viewport's extent (the pixel
//! shader's UAV writes still land). Before anything runs, the draw is refused (`Draw`)
//! for a viewport outside the range of the functional spec (15.6.1) or with a depth
//! range outside [0, 1] or reversed, and when the pixel shader's input signature
//! does not link with the rasterized outputs
//! (`Draw`: a semantic missing, in another register, of another component type, with
//! more components; see Microsoft's "Signatures" page), and is
//! [`exec::ExecErrorKind::Unsupported`] for points and lines (the rasterizer draws
//! triangles), `D3D11_FILL_WIREFRAME`, or an `SV_PrimitiveID` input that no stage
//! outputs. Statistics (functional spec 20.4.7 and 16.9.1): `PSInvocations` is the
//! pixel-shader invocations run, helper pixels included (whole 2×2 quads; the spec
//! leaves helpers' counting to the implementation), 0 without a pixel shader;
//! `CInvocations` = `CPrimitives` are the rasterized stream's primitives — with or
//! without a pixel shader, since rasterization is disabled (15.2) only when the depth and
//! stencil tests are off too, and the default depth-stencil state (not modelled
//! otherwise) has depth on; no clipper splits or drops triangles.
//!
//! # The compute stage
//!
//! [`Context::cs_set_shader`] (with class instances), `CSSetConstantBuffers`,
//! `CSSetShaderResources`, `CSSetSamplers`,
//! [`Context::cs_set_unordered_access_views`] (slot counts per feature level, the
//! hidden counter's initial counts, -1 keeping it) and [`Context::dispatch`] /
//! [`Context::dispatch_indirect`], which run [`exec::compute::dispatch`] and add its
//! threads to `CSInvocations`; the per-dimension limit of 65535 groups (1 in z on
//! 10_x) refuses the call, and a dispatch without a compute shader does nothing
//! (a debug message).
//!
//! # Class instances
//!
//! [`Context::vs_set_shader`] and [`Context::gs_set_shader`] take the `ppClassInstances`
//! array of `VSSetShader` / `GSSetShader` as a slice (`NumClassInstances` is its length;
//! an empty slice is `NULL`; a `None` entry is a `NULL` one), and
//! [`Context::vs_get_shader`] / [`Context::gs_get_shader`] give them back. As the runtime
//! (Microsoft's ID3D11DeviceContext::VSSetShader and PSSetShader pages; D3D11.3
//! functional spec 7.19 "Subroutines / Interfaces"), the call is refused
//! (`E_INVALIDARG`, the binding unchanged) when a non-empty array's length is not the
//! shader's interface slot count (its `IFCE` chunk's), or is past 256; when an
//! instance comes from another class linkage than the one the shader was created with
//! (or the shader was created without one); or when an instance's class type is not
//! one its slot's interface takes (the `IFCE` slot record lists, per slot, the class
//! types and the function table each implements the interface with; types are matched
//! by name, since a linkage numbers them across shaders). Each instance binds its slot
//! to that function table, with `this` = (constant buffer, offset in vectors, first
//! texture, first sampler): from the `IFCE` instance record (and the array element) for
//! an instance got with `GetClassInstance`, from the arguments for one made with
//! `CreateClassInstance`; a record's "none" (0xFFFF) texture or sampler is 0. A draw
//! with a shader that has an interface slot without an instance (an empty array, a
//! `None` entry) is refused: Microsoft's pages say such a shader is disabled.
//! Setting a `NULL` shader keeps no instances (the array is not looked at).
//! [`Context::ps_set_shader`] and [`Context::cs_set_shader`] follow the same rules.
//! [`Shader::resolve_class_instances`] gives the binding for any stage (for use with
//! `exec` directly).
//!
//! # Not modelled
//!
//! Depth-stencil views and state, blending and write masks, multisampled render
//! targets, scissor rects, depth bias, wireframe, points and lines rasterized, clip
//! and cull distances, the render-target array index and viewport index, the hull and
//! domain stages, views of a mip range (shader resource views see every mip, from
//! the most detailed), typeless formats, 1D and 3D textures, predication, deferred
//! contexts, `Map`/`Unmap` (use [`Buffer::update`] and [`Buffer::bytes`]), the `*1`
//! variants with constant-buffer offsets, indirect draws (`DispatchIndirect` is
//! modelled), usage flags, the `APPEND`/`COUNTER` UAV flags (every structured UAV has
//! a hidden counter), the rule that render-target and UAV slots do not overlap,
//! and hazards between compute and graphics output bindings of one resource.

use crate::device::{Device, Shader};
use crate::hresult::HResult;
use crate::linkage::{resolve_instances, ClassInstance, ResolvedInstances};
use exec::pipeline::{
    self, DrawCall, DrawResult, IndexBuffer, IndexFormat, InputElement, Pipeline, PipelineStatistics, SoStatistics,
    SoTarget, StreamOutput, Topology, VertexBuffer,
};
use exec::resources::{Dimension, Resources, Sampler, Srv, TextureView, Uav};
use exec::{ExecError, ExecErrorKind, Format, Plan};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};
use tpf::ProgramType;
use validate::FeatureLevel;

mod compute;
mod hazards;
mod pixel;

pub use compute::{
    CS_4_X_DISPATCH_MAX_THREAD_GROUPS_IN_Z_DIMENSION, CS_4_X_UAV_REGISTER_COUNT, PS_CS_UAV_REGISTER_COUNT,
};
pub use exec::raster::{Cull, Viewport};
pub use pixel::{
    render_target_format, FillMode, RasterizerDesc, RasterizerState, RenderTargetView, RenderTargetViewDesc,
    SIMULTANEOUS_RENDER_TARGET_COUNT, VIEWPORT_SLOTS,
};

/// A failed create call: the `HRESULT` and what the debug layer would say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallError {
    /// The `HRESULT` the call returns (`E_INVALIDARG` for arguments the runtime
    /// refuses).
    pub hr: HResult,
    /// Which argument and why.
    pub message: String,
}

impl CallError {
    fn invalid(message: impl Into<String>) -> CallError {
        CallError { hr: HResult::E_INVALIDARG, message: message.into() }
    }
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.hr, self.message)
    }
}

impl std::error::Error for CallError {}

/// `D3D11_BIND_FLAG` (the buffer ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BindFlags(pub u32);

impl BindFlags {
    /// `D3D11_BIND_VERTEX_BUFFER`: an input-assembler vertex buffer.
    pub const VERTEX_BUFFER: BindFlags = BindFlags(0x1);
    /// `D3D11_BIND_INDEX_BUFFER`: an input-assembler index buffer.
    pub const INDEX_BUFFER: BindFlags = BindFlags(0x2);
    /// `D3D11_BIND_CONSTANT_BUFFER`: a constant buffer; no other flag may be combined
    /// with it.
    pub const CONSTANT_BUFFER: BindFlags = BindFlags(0x4);
    /// `D3D11_BIND_SHADER_RESOURCE`: viewed by shader resource views.
    pub const SHADER_RESOURCE: BindFlags = BindFlags(0x8);
    /// `D3D11_BIND_STREAM_OUTPUT`: a stream-output target.
    pub const STREAM_OUTPUT: BindFlags = BindFlags(0x10);
    /// `D3D11_BIND_RENDER_TARGET`: viewed by render target views (textures only here).
    pub const RENDER_TARGET: BindFlags = BindFlags(0x20);
    /// `D3D11_BIND_UNORDERED_ACCESS`: viewed by unordered access views.
    pub const UNORDERED_ACCESS: BindFlags = BindFlags(0x80);
    /// Every flag a buffer may have here.
    pub const ALL: BindFlags = BindFlags(0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x80);

    /// All of `other`'s flags are set.
    pub fn contains(self, other: BindFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for BindFlags {
    type Output = BindFlags;
    fn bitor(self, rhs: BindFlags) -> BindFlags {
        BindFlags(self.0 | rhs.0)
    }
}

/// `D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS`: the buffer holds the arguments of an
/// indirect call ([`Context::dispatch_indirect`]).
pub const RESOURCE_MISC_DRAWINDIRECT_ARGS: u32 = 0x10;
/// `D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS`.
pub const RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS: u32 = 0x20;
/// `D3D11_RESOURCE_MISC_BUFFER_STRUCTURED`.
pub const RESOURCE_MISC_BUFFER_STRUCTURED: u32 = 0x40;

/// `D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT` × 16 bytes.
pub const MAX_CONSTANT_BUFFER_BYTES: u32 = 4096 * 16;
/// `D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT`.
pub const CONSTANT_BUFFER_SLOTS: u32 = 14;
/// `D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT`.
pub const SHADER_RESOURCE_SLOTS: u32 = 128;
/// `D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT`.
pub const SAMPLER_SLOTS: u32 = 16;
/// `D3D11_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT`.
pub const MAX_INPUT_ELEMENTS: usize = 32;
/// `D3D11_SO_BUFFER_SLOT_COUNT`.
pub const SO_BUFFER_SLOTS: usize = 4;

/// `D3D11_BUFFER_DESC` (usage and CPU access are not modelled).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferDesc {
    /// `ByteWidth`: the size in bytes (a multiple of 16, at most
    /// [`MAX_CONSTANT_BUFFER_BYTES`], for a constant buffer).
    pub byte_width: u32,
    /// `BindFlags`: how the buffer may be bound.
    pub bind_flags: BindFlags,
    /// `MiscFlags`: [`RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS`],
    /// [`RESOURCE_MISC_BUFFER_STRUCTURED`] (at most one of the two).
    pub misc_flags: u32,
    /// `StructureByteStride`: bytes per structure of a structured buffer (a multiple
    /// of 4, at most 2048, dividing `byte_width`); not read for other buffers.
    pub structure_byte_stride: u32,
}

impl BufferDesc {
    /// A buffer of `byte_width` bytes bound as `bind_flags`, no misc flags.
    pub fn new(byte_width: u32, bind_flags: BindFlags) -> BufferDesc {
        BufferDesc { byte_width, bind_flags, misc_flags: 0, structure_byte_stride: 0 }
    }
}

#[derive(Debug)]
struct BufferData {
    desc: BufferDesc,
    bytes: RwLock<Vec<u8>>,
    /// Stream output's `BufferFilledSize` (14.4); 0 when created.
    filled_size: AtomicU32,
}

/// `ID3D11Buffer`. Cloning gives another reference to the same buffer.
#[derive(Debug, Clone)]
pub struct Buffer(Arc<BufferData>);

impl Buffer {
    /// The description it was created with.
    pub fn desc(&self) -> &BufferDesc {
        &self.0.desc
    }

    /// A copy of the contents.
    pub fn bytes(&self) -> Vec<u8> {
        self.read().clone()
    }

    /// `UpdateSubresource` on a byte range: writes `data` at `offset`. Refused
    /// (`E_INVALIDARG`, nothing written) when it does not fit.
    pub fn update(&self, offset: u32, data: &[u8]) -> Result<(), CallError> {
        let mut bytes = self.write();
        let end = offset as usize + data.len();
        match bytes.get_mut(offset as usize..end) {
            Some(dst) => {
                dst.copy_from_slice(data);
                Ok(())
            }
            None => Err(CallError::invalid(format!(
                "UpdateSubresource: bytes {offset}..{end} are outside the {}-byte buffer",
                self.0.desc.byte_width
            ))),
        }
    }

    /// The stream-output `BufferFilledSize`: where the next stream output appends
    /// (14.4), and the end of what `DrawAuto` draws.
    pub fn filled_size(&self) -> u32 {
        self.0.filled_size.load(Ordering::Relaxed)
    }

    /// True when both are references to the same buffer.
    pub fn ptr_eq(&self, other: &Buffer) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    fn read(&self) -> RwLockReadGuard<'_, Vec<u8>> {
        self.0.bytes.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, Vec<u8>> {
        self.0.bytes.write().unwrap_or_else(|e| e.into_inner())
    }

    fn set_filled_size(&self, size: u32) {
        self.0.filled_size.store(size, Ordering::Relaxed);
    }
}

/// The formats the input assembler reads (the "IA vertex buffer" column of the DXGI
/// format support tables at feature level 11): not the depth formats, `A8_UNORM`,
/// `B8G8R8X8_UNORM` or the sRGB ones.
pub fn is_vertex_format(format: Format) -> bool {
    !matches!(
        format,
        Format::D32_FLOAT
            | Format::D16_UNORM
            | Format::A8_UNORM
            | Format::B8G8R8X8_UNORM
            | Format::R8G8B8A8_UNORM_SRGB
            | Format::B8G8R8A8_UNORM_SRGB
    )
}

/// `ID3D11InputLayout`: validated elements.
#[derive(Debug, Clone)]
pub struct InputLayout(Arc<[InputElement]>);

impl InputLayout {
    /// The elements, as given.
    pub fn elements(&self) -> &[InputElement] {
        &self.0
    }
}

/// What a buffer view sees (`D3D11_BUFFER_SRV` / `D3D11_BUFFEREX_SRV` with the raw
/// flag), in elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferView {
    /// Elements of `format`.
    Typed {
        /// The elements' format.
        format: Format,
        /// The first element seen, counted in elements of `format` from the start.
        first_element: u32,
        /// How many elements are seen.
        num_elements: u32,
    },
    /// 32-bit words of a raw (byte address) buffer.
    Raw {
        /// The first word seen.
        first_element: u32,
        /// How many words are seen.
        num_elements: u32,
    },
    /// Structures of a structured buffer (its structure stride).
    Structured {
        /// The first structure seen.
        first_element: u32,
        /// How many structures are seen.
        num_elements: u32,
    },
}

/// `ID3D11ShaderResourceView` of a buffer or a texture.
#[derive(Debug, Clone)]
pub struct ShaderResourceView {
    /// The buffer viewed (a texture's memory for texture views).
    buffer: Buffer,
    view: ViewOf,
    /// The byte range viewed.
    range: (usize, usize),
}

/// What a view sees.
#[derive(Debug, Clone)]
enum ViewOf {
    Buffer(BufferView),
    /// The texture and the geometry of the view (its memory: `range`).
    Texture(Texture2D, TextureViewDesc),
}

impl ShaderResourceView {
    /// The buffer viewed; for a texture view, the texture's memory
    /// ([`Texture2D::memory`]).
    pub fn buffer(&self) -> &Buffer {
        &self.buffer
    }
    /// The buffer view's description (`None` for a texture view).
    pub fn view(&self) -> Option<BufferView> {
        match &self.view {
            ViewOf::Buffer(v) => Some(*v),
            ViewOf::Texture(..) => None,
        }
    }
    /// The texture viewed and the view's description (`None` for a buffer view).
    pub fn texture(&self) -> Option<(&Texture2D, TextureViewDesc)> {
        match &self.view {
            ViewOf::Texture(t, d) => Some((t, *d)),
            ViewOf::Buffer(_) => None,
        }
    }
}

/// `D3D11_TEXTURE2D_DESC` (usage, CPU access and misc flags are not modelled; a cube
/// is an array whose size is a multiple of 6, viewed as a cube).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Texture2DDesc {
    /// `Width` of mip 0 in texels, 1 to 16384.
    pub width: u32,
    /// `Height` of mip 0 in texels, 1 to 16384.
    pub height: u32,
    /// `MipLevels`; 0: the whole chain down to 1x1.
    pub mip_levels: u32,
    /// `ArraySize`: slices, 1 to 2048 (a multiple of 6 for a cube).
    pub array_size: u32,
    /// `Format`: the texels' DXGI format.
    pub format: Format,
    /// `SampleDesc.Count` (1, 2, 4, 8 or 16; the standard pattern).
    pub sample_count: u32,
    /// [`BindFlags::SHADER_RESOURCE`], [`BindFlags::UNORDERED_ACCESS`] and/or
    /// [`BindFlags::RENDER_TARGET`].
    pub bind_flags: BindFlags,
}

impl Texture2DDesc {
    /// A `width` × `height` texture of `format` with one mip, one slice, one sample.
    pub fn new(width: u32, height: u32, format: Format, bind_flags: BindFlags) -> Texture2DDesc {
        Texture2DDesc { width, height, mip_levels: 1, array_size: 1, format, sample_count: 1, bind_flags }
    }
}

/// `ID3D11Texture2D`. Cloning gives another reference to the same texture.
#[derive(Debug, Clone)]
pub struct Texture2D {
    memory: Buffer,
    desc: Texture2DDesc,
}

impl Texture2D {
    /// The description (with `mip_levels` resolved when it was 0).
    pub fn desc(&self) -> &Texture2DDesc {
        &self.desc
    }
    /// The texture's memory, as [`exec::resources::TextureView`] lays it out
    /// (`UpdateSubresource` is [`Buffer::update`] on it).
    pub fn memory(&self) -> &Buffer {
        &self.memory
    }
    /// The interpreter's dimension of a view of it.
    fn dimension(&self, view: TextureViewDimension) -> Dimension {
        let samples = self.desc.sample_count;
        match view {
            TextureViewDimension::Texture2D => Dimension::Texture2D,
            TextureViewDimension::Texture2DArray => Dimension::Texture2DArray,
            TextureViewDimension::TextureCube => Dimension::TextureCube,
            TextureViewDimension::Texture2DMS => Dimension::Texture2DMS { samples },
            TextureViewDimension::Texture2DMSArray => Dimension::Texture2DMSArray { samples },
        }
    }

    /// The geometry of slices `first..first + count`, as exec reads it.
    fn geometry(&self, dimension: Dimension, first: u32, count: u32) -> (TextureView<'static>, (usize, usize)) {
        let d = &self.desc;
        let v = TextureView {
            dimension,
            format: d.format,
            width: d.width,
            height: d.height,
            depth: 1,
            array_size: count,
            mip_levels: d.mip_levels,
            data: &[],
        };
        let slice = v.slice_bytes().unwrap_or(0);
        let start = slice.saturating_mul(first as usize);
        (v, (start, start.saturating_add(slice.saturating_mul(count as usize))))
    }
}

/// The dimension of a texture view (`D3D11_SRV_DIMENSION` / `D3D11_UAV_DIMENSION`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextureViewDimension {
    /// `TEXTURE2D`: one slice.
    Texture2D,
    /// `TEXTURE2DARRAY`: `array_size` slices.
    Texture2DArray,
    /// `array_size` / 6 cubes (a `TextureCubeArray` when more than one).
    TextureCube,
    /// `TEXTURE2DMS`: one multisampled slice.
    Texture2DMS,
    /// `TEXTURE2DMSARRAY`: `array_size` multisampled slices.
    Texture2DMSArray,
}

/// A texture view's description: the dimension and the array slices seen (every mip
/// level is seen; a UAV sees mip 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureViewDesc {
    /// How the slices are seen.
    pub dimension: TextureViewDimension,
    /// `FirstArraySlice` (for a cube, the first face of the first cube).
    pub first_array_slice: u32,
    /// `ArraySize`: slices seen (6 per cube).
    pub array_size: u32,
}

/// `ID3D11UnorderedAccessView` of a buffer or of mip 0 of a 2D texture.
#[derive(Debug, Clone)]
pub struct UnorderedAccessView {
    buffer: Buffer,
    view: ViewOf,
    range: (usize, usize),
    /// The hidden counter of structured views (append/consume, `imm_atomic_alloc`).
    counter: Arc<AtomicU32>,
}

impl UnorderedAccessView {
    /// The buffer written (a texture's memory for texture views).
    pub fn buffer(&self) -> &Buffer {
        &self.buffer
    }
    /// The buffer view's description (`None` for a texture view).
    pub fn view(&self) -> Option<BufferView> {
        match &self.view {
            ViewOf::Buffer(v) => Some(*v),
            ViewOf::Texture(..) => None,
        }
    }
    /// The hidden counter of a structured view.
    pub fn counter(&self) -> u32 {
        self.counter.load(Ordering::Relaxed)
    }
}

/// `D3D11_1_UAV_SLOT_COUNT`.
pub const UAV_SLOTS: u32 = 64;

/// `ID3D11SamplerState`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplerState(pub Sampler);

/// `D3D11_QUERY`, the pipeline ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QueryKind {
    /// `D3D11_QUERY_PIPELINE_STATISTICS`.
    PipelineStatistics,
    /// `D3D11_QUERY_SO_STATISTICS`: stream 0 (spec 20.4.9: a synonym of
    /// `D3D11_QUERY_SO_STATISTICS_STREAM0`).
    SoStatistics,
    /// `D3D11_QUERY_SO_STATISTICS_STREAM0..3`.
    SoStatisticsStream(u32),
    /// `D3D11_QUERY_SO_OVERFLOW_PREDICATE`: some stream overflowed.
    SoOverflowPredicate,
    /// `D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0..3`.
    SoOverflowPredicateStream(u32),
}

/// What `GetData` returns for a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryData {
    /// `D3D11_QUERY_DATA_PIPELINE_STATISTICS`: the counters of the draws between
    /// begin and end.
    PipelineStatistics(PipelineStatistics),
    /// `D3D11_QUERY_DATA_SO_STATISTICS`: primitives written and primitives the
    /// buffers would have needed, between begin and end.
    SoStatistics(SoStatistics),
    /// The overflow predicate: `PrimitivesStorageNeeded` exceeded
    /// `NumPrimitivesWritten` between begin and end.
    Overflow(bool),
}

/// The counters since the context was created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Totals {
    pipeline: PipelineStatistics,
    so: [SoStatistics; 4],
}

/// `ID3D11Query`: begin and end it on a context, then read [`Query::data`].
#[derive(Debug, Clone)]
pub struct Query {
    kind: QueryKind,
    begun: Option<Totals>,
    data: Option<QueryData>,
}

impl Query {
    /// What it measures.
    pub fn kind(&self) -> QueryKind {
        self.kind
    }
    /// `GetData`: `None` until the query has been begun and ended.
    pub fn data(&self) -> Option<QueryData> {
        self.data
    }
}

fn sub_pipeline(a: PipelineStatistics, b: PipelineStatistics) -> PipelineStatistics {
    PipelineStatistics {
        ia_vertices: a.ia_vertices.saturating_sub(b.ia_vertices),
        ia_primitives: a.ia_primitives.saturating_sub(b.ia_primitives),
        vs_invocations: a.vs_invocations.saturating_sub(b.vs_invocations),
        gs_invocations: a.gs_invocations.saturating_sub(b.gs_invocations),
        gs_primitives: a.gs_primitives.saturating_sub(b.gs_primitives),
        c_invocations: a.c_invocations.saturating_sub(b.c_invocations),
        c_primitives: a.c_primitives.saturating_sub(b.c_primitives),
        ps_invocations: a.ps_invocations.saturating_sub(b.ps_invocations),
        hs_invocations: a.hs_invocations.saturating_sub(b.hs_invocations),
        ds_invocations: a.ds_invocations.saturating_sub(b.ds_invocations),
        cs_invocations: a.cs_invocations.saturating_sub(b.cs_invocations),
    }
}

fn add_pipeline(a: &mut PipelineStatistics, b: &PipelineStatistics) {
    a.ia_vertices += b.ia_vertices;
    a.ia_primitives += b.ia_primitives;
    a.vs_invocations += b.vs_invocations;
    a.gs_invocations += b.gs_invocations;
    a.gs_primitives += b.gs_primitives;
    a.c_invocations += b.c_invocations;
    a.c_primitives += b.c_primitives;
    a.ps_invocations += b.ps_invocations;
    a.hs_invocations += b.hs_invocations;
    a.ds_invocations += b.ds_invocations;
    a.cs_invocations += b.cs_invocations;
}

fn sub_so(a: SoStatistics, b: SoStatistics) -> SoStatistics {
    SoStatistics {
        num_primitives_written: a.num_primitives_written.saturating_sub(b.num_primitives_written),
        primitives_storage_needed: a.primitives_storage_needed.saturating_sub(b.primitives_storage_needed),
    }
}

impl Device {
    /// `ID3D11Device::CreateBuffer`. `initial` (`pInitialData`) must hold at least
    /// `byte_width` bytes; without it the buffer is zeroed. Refused (`E_INVALIDARG`):
    /// a size of 0; bind flags other than vertex, index, constant, shader resource,
    /// stream output and unordered access, or none; a constant buffer whose size is
    /// not a multiple of 16 or above 65536 bytes, or that has other bind flags; a
    /// structured buffer without a structure stride (a multiple of 4, at most 2048,
    /// dividing the size), also raw, or bound as vertex, index, constant or
    /// stream-output buffer; a raw buffer not bound as shader resource or unordered
    /// access; unknown misc flags.
    pub fn create_buffer(&self, desc: &BufferDesc, initial: Option<&[u8]>) -> Result<Buffer, CallError> {
        let bind = desc.bind_flags;
        if desc.byte_width == 0 {
            return Err(CallError::invalid("CreateBuffer: ByteWidth is 0"));
        }
        if bind.0 == 0 || bind.0 & !BindFlags::ALL.0 != 0 {
            return Err(CallError::invalid(format!("CreateBuffer: BindFlags {:#x} for a buffer", bind.0)));
        }
        if bind.contains(BindFlags::CONSTANT_BUFFER) {
            if bind != BindFlags::CONSTANT_BUFFER {
                return Err(CallError::invalid(
                    "CreateBuffer: D3D11_BIND_CONSTANT_BUFFER cannot be combined with other bind flags",
                ));
            }
            if !desc.byte_width.is_multiple_of(16) || desc.byte_width > MAX_CONSTANT_BUFFER_BYTES {
                return Err(CallError::invalid(format!(
                    "CreateBuffer: a constant buffer's ByteWidth ({}) must be a multiple of 16, at most {}",
                    desc.byte_width, MAX_CONSTANT_BUFFER_BYTES
                )));
            }
        }
        let known =
            RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS | RESOURCE_MISC_BUFFER_STRUCTURED | RESOURCE_MISC_DRAWINDIRECT_ARGS;
        if desc.misc_flags & !known != 0 {
            return Err(CallError::invalid(format!("CreateBuffer: MiscFlags {:#x}", desc.misc_flags)));
        }
        let raw = desc.misc_flags & RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS != 0;
        let structured = desc.misc_flags & RESOURCE_MISC_BUFFER_STRUCTURED != 0;
        if structured {
            let s = desc.structure_byte_stride;
            if raw {
                return Err(CallError::invalid("CreateBuffer: a buffer cannot be both structured and raw"));
            }
            if desc.misc_flags & RESOURCE_MISC_DRAWINDIRECT_ARGS != 0 {
                return Err(CallError::invalid(
                    "CreateBuffer: a structured buffer cannot hold indirect arguments (D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS)",
                ));
            }
            if s == 0 || !s.is_multiple_of(4) || s > 2048 || !desc.byte_width.is_multiple_of(s) {
                return Err(CallError::invalid(format!(
                    "CreateBuffer: StructureByteStride {s} (a multiple of 4, 4..2048, dividing ByteWidth {})",
                    desc.byte_width
                )));
            }
            let forbidden = BindFlags::VERTEX_BUFFER.0
                | BindFlags::INDEX_BUFFER.0
                | BindFlags::CONSTANT_BUFFER.0
                | BindFlags::STREAM_OUTPUT.0;
            if bind.0 & forbidden != 0 {
                return Err(CallError::invalid(
                    "CreateBuffer: a structured buffer cannot be a vertex, index, constant or stream-output buffer",
                ));
            }
        }
        if raw && bind.0 & (BindFlags::SHADER_RESOURCE.0 | BindFlags::UNORDERED_ACCESS.0) == 0 {
            return Err(CallError::invalid(
                "CreateBuffer: a raw buffer must be bound as shader resource or unordered access",
            ));
        }
        let size = desc.byte_width as usize;
        let bytes = match initial {
            Some(data) if data.len() < size => {
                return Err(CallError::invalid(format!(
                    "CreateBuffer: pInitialData has {} bytes, ByteWidth is {size}",
                    data.len()
                )))
            }
            Some(data) => data[..size].to_vec(),
            None => vec![0; size],
        };
        Ok(Buffer(Arc::new(BufferData { desc: *desc, bytes: RwLock::new(bytes), filled_size: AtomicU32::new(0) })))
    }

    /// `ID3D11Device::CreateInputLayout` for the vertex shader whose bytecode is
    /// `vs_bytecode` (its input signature, `ISGN`/`ISG1`). Refused (`E_INVALIDARG`):
    /// more than 32 elements; a format the input assembler cannot read
    /// ([`is_vertex_format`]); an input slot above 31; a per-vertex element with a step
    /// rate; elements of one slot with different classifications; two elements with
    /// the same semantic name (case-insensitively) and index; an explicit offset
    /// beyond 2048 bytes; bytecode without an input signature; and an element of the
    /// input signature that no element provides (every element but `SV_VertexID` and
    /// `SV_InstanceID`, which the IA generates — whether the shader uses it or not, as
    /// the runtime checks the signature). Element formats are not checked against the
    /// signature's component types, nor offsets for alignment (4.4.6: not validated).
    pub fn create_input_layout(&self, elements: &[InputElement], vs_bytecode: &[u8]) -> Result<InputLayout, CallError> {
        if elements.len() > MAX_INPUT_ELEMENTS {
            return Err(CallError::invalid(format!(
                "CreateInputLayout: {} elements (at most {MAX_INPUT_ELEMENTS})",
                elements.len()
            )));
        }
        let mut classes: [Option<bool>; 32] = [None; 32];
        for (i, e) in elements.iter().enumerate() {
            let name = semantic_text(&e.semantic_name, e.semantic_index);
            if !is_vertex_format(e.format) {
                return Err(CallError::invalid(format!(
                    "CreateInputLayout: element {i} ({name}): {} is not an input-assembler format",
                    e.format.name()
                )));
            }
            let Some(class) = classes.get_mut(e.input_slot as usize) else {
                return Err(CallError::invalid(format!(
                    "CreateInputLayout: element {i} ({name}): input slot {} (slots are 0..31)",
                    e.input_slot
                )));
            };
            if !e.per_instance && e.instance_data_step_rate != 0 {
                return Err(CallError::invalid(format!(
                    "CreateInputLayout: element {i} ({name}): per-vertex data with InstanceDataStepRate {}",
                    e.instance_data_step_rate
                )));
            }
            if *class.get_or_insert(e.per_instance) != e.per_instance {
                return Err(CallError::invalid(format!(
                    "CreateInputLayout: element {i} ({name}): input slot {} mixes per-vertex and per-instance data",
                    e.input_slot
                )));
            }
            if e.aligned_byte_offset != pipeline::APPEND_ALIGNED && e.aligned_byte_offset > 2048 {
                return Err(CallError::invalid(format!(
                    "CreateInputLayout: element {i} ({name}): AlignedByteOffset {}",
                    e.aligned_byte_offset
                )));
            }
            if elements[..i]
                .iter()
                .any(|d| d.semantic_index == e.semantic_index && d.semantic_name.eq_ignore_ascii_case(&e.semantic_name))
            {
                return Err(CallError::invalid(format!("CreateInputLayout: semantic {name} appears twice")));
            }
        }
        let container = dxbc::Container::parse(vs_bytecode)
            .map_err(|e| CallError::invalid(format!("CreateInputLayout: the shader bytecode: {e}")))?;
        let chunk = container
            .chunk_any(&[dxbc::FourCc::ISGN, dxbc::FourCc::ISG1])
            .ok_or_else(|| CallError::invalid("CreateInputLayout: the shader bytecode has no input signature"))?;
        let format = dxbc::SignatureFormat::for_fourcc(chunk.fourcc)
            .ok_or_else(|| CallError::invalid("CreateInputLayout: unknown input signature format"))?;
        let signature = dxbc::Signature::parse(chunk.data, format)
            .map_err(|e| CallError::invalid(format!("CreateInputLayout: the input signature: {e}")))?;
        for s in &signature.elements {
            if matches!(
                s.system_value,
                dxbc::signature::SystemValue::VertexId | dxbc::signature::SystemValue::InstanceId
            ) {
                continue;
            }
            let provided = elements
                .iter()
                .any(|e| e.semantic_index == s.semantic_index && e.semantic_name.eq_ignore_ascii_case(s.semantic_name));
            if !provided {
                return Err(CallError::invalid(format!(
                    "CreateInputLayout: the shader's input signature reads {} (v{}), which no element provides",
                    semantic_text(s.semantic_name, s.semantic_index),
                    s.register
                )));
            }
        }
        Ok(InputLayout(elements.into()))
    }

    /// `ID3D11Device::CreateShaderResourceView` of a buffer. Refused (`E_INVALIDARG`):
    /// a buffer without the shader-resource bind flag, a view past the end of the
    /// buffer or of no elements, a typed view of a structured buffer, a raw view of a
    /// buffer without `RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS`, a structured view of a
    /// buffer that is not structured.
    pub fn create_shader_resource_view(
        &self,
        buffer: &Buffer,
        view: BufferView,
    ) -> Result<ShaderResourceView, CallError> {
        let desc = buffer.desc();
        if !desc.bind_flags.contains(BindFlags::SHADER_RESOURCE) {
            return Err(CallError::invalid("CreateShaderResourceView: the buffer lacks D3D11_BIND_SHADER_RESOURCE"));
        }
        let range = buffer_view_range("CreateShaderResourceView", buffer, view)?;
        Ok(ShaderResourceView { buffer: buffer.clone(), view: ViewOf::Buffer(view), range })
    }

    /// `ID3D11Device::CreateUnorderedAccessView` of a buffer, with the rules of
    /// [`create_shader_resource_view`](Self::create_shader_resource_view) and the
    /// unordered-access bind flag. A structured view gets a hidden counter (0). Below
    /// feature level 11_0 (Microsoft's "Compute Shaders on Downlevel Hardware": raw and
    /// structured UAVs only), a typed view, or a raw view whose first byte is not a
    /// multiple of 256, is refused (`E_INVALIDARG`).
    pub fn create_unordered_access_view(
        &self,
        buffer: &Buffer,
        view: BufferView,
    ) -> Result<UnorderedAccessView, CallError> {
        let call = "CreateUnorderedAccessView";
        if !buffer.desc().bind_flags.contains(BindFlags::UNORDERED_ACCESS) {
            return Err(CallError::invalid(format!("{call}: the buffer lacks D3D11_BIND_UNORDERED_ACCESS")));
        }
        if self.feature_level() < FeatureLevel::L11_0 {
            match view {
                BufferView::Typed { .. } => {
                    return Err(CallError::invalid(format!("{call}: a typed UAV below feature level 11_0")));
                }
                BufferView::Raw { first_element, .. } if (u64::from(first_element) * 4) % 256 != 0 => {
                    return Err(CallError::invalid(format!(
                        "{call}: a raw UAV's first byte ({}) is not a multiple of 256 below feature level 11_0",
                        u64::from(first_element) * 4
                    )));
                }
                _ => {}
            }
        }
        let range = buffer_view_range("CreateUnorderedAccessView", buffer, view)?;
        Ok(UnorderedAccessView {
            buffer: buffer.clone(),
            view: ViewOf::Buffer(view),
            range,
            counter: Arc::new(AtomicU32::new(0)),
        })
    }

    /// `ID3D11Device::CreateTexture2D`. `initial` holds every subresource in
    /// [`exec::resources::TextureView`]'s layout (at least the texture's size); without
    /// it the texture is zeroed. Refused (`E_INVALIDARG`): a width or height of 0 or
    /// above 16384; an array size of 0 or above 2048; more mips than the chain has; a
    /// sample count other than 1, 2, 4, 8, 16, or above 1 with mips or unordered
    /// access; bind flags other than shader resource, unordered access and render
    /// target, or none; a render target of a format that cannot be one at the device's
    /// feature level ([`render_target_format`]: never a depth format); a
    /// texture above 2³¹ bytes; too little initial data.
    pub fn create_texture2d(&self, desc: &Texture2DDesc, initial: Option<&[u8]>) -> Result<Texture2D, CallError> {
        let mut d = *desc;
        let call = "CreateTexture2D";
        if !(1..=16384).contains(&d.width) || !(1..=16384).contains(&d.height) {
            return Err(CallError::invalid(format!("{call}: {}x{} (1..16384 each)", d.width, d.height)));
        }
        if !(1..=2048).contains(&d.array_size) {
            return Err(CallError::invalid(format!("{call}: ArraySize {} (1..2048)", d.array_size)));
        }
        let chain = 32 - d.width.max(d.height).leading_zeros();
        if d.mip_levels == 0 {
            d.mip_levels = if d.sample_count > 1 { 1 } else { chain };
        }
        if d.mip_levels > chain {
            return Err(CallError::invalid(format!("{call}: MipLevels {} (the chain has {chain})", d.mip_levels)));
        }
        let bind = d.bind_flags;
        let allowed = BindFlags::SHADER_RESOURCE.0 | BindFlags::UNORDERED_ACCESS.0 | BindFlags::RENDER_TARGET.0;
        if bind.0 == 0 || bind.0 & !allowed != 0 {
            return Err(CallError::invalid(format!(
                "{call}: BindFlags {:#x} (shader resource, unordered access and render target are modelled)",
                bind.0
            )));
        }
        if bind.contains(BindFlags::RENDER_TARGET) && !pixel::render_target_format(self.feature_level(), d.format) {
            return Err(CallError::invalid(format!(
                "{call}: D3D11_BIND_RENDER_TARGET with {}, not a render-target format at feature level {}",
                d.format.name(),
                self.feature_level()
            )));
        }
        if !matches!(d.sample_count, 1 | 2 | 4 | 8 | 16) {
            return Err(CallError::invalid(format!("{call}: SampleDesc.Count {}", d.sample_count)));
        }
        if d.sample_count > 1 && (d.mip_levels != 1 || bind.contains(BindFlags::UNORDERED_ACCESS)) {
            return Err(CallError::invalid(format!(
                "{call}: a multisampled texture has one mip and no unordered access"
            )));
        }
        let dimension = if d.sample_count > 1 {
            Dimension::Texture2DMSArray { samples: d.sample_count }
        } else {
            Dimension::Texture2DArray
        };
        let probe = TextureView {
            dimension,
            format: d.format,
            width: d.width,
            height: d.height,
            depth: 1,
            array_size: d.array_size,
            mip_levels: d.mip_levels,
            data: &[],
        };
        let size = probe.byte_size().filter(|&n| n <= 1 << 31);
        let Some(size) = size else {
            return Err(CallError::invalid(format!("{call}: the texture is larger than 2^31 bytes")));
        };
        let bytes = match initial {
            Some(data) if data.len() < size => {
                return Err(CallError::invalid(format!(
                    "{call}: pInitialData has {} bytes, the texture {size}",
                    data.len()
                )))
            }
            Some(data) => data[..size].to_vec(),
            None => vec![0; size],
        };
        let memory_desc =
            BufferDesc { byte_width: size as u32, bind_flags: bind, misc_flags: 0, structure_byte_stride: 0 };
        let memory = Buffer(Arc::new(BufferData {
            desc: memory_desc,
            bytes: RwLock::new(bytes),
            filled_size: AtomicU32::new(0),
        }));
        Ok(Texture2D { memory, desc: d })
    }

    /// `ID3D11Device::CreateShaderResourceView` of a texture. Refused
    /// (`E_INVALIDARG`): a texture without the shader-resource bind flag; slices
    /// outside the texture or none; a multisampled dimension of a texture that is not
    /// multisampled or the reverse; `Texture2D`/`Texture2DMS` of more than one slice;
    /// a cube of a slice count that is not a multiple of 6 or of a texture that is not
    /// square.
    pub fn create_texture_shader_resource_view(
        &self,
        texture: &Texture2D,
        view: TextureViewDesc,
    ) -> Result<ShaderResourceView, CallError> {
        let call = "CreateShaderResourceView";
        if !texture.desc.bind_flags.contains(BindFlags::SHADER_RESOURCE) {
            return Err(CallError::invalid(format!("{call}: the texture lacks D3D11_BIND_SHADER_RESOURCE")));
        }
        texture_view_range(call, texture, view)?;
        let (_, range) = texture.geometry(texture.dimension(view.dimension), view.first_array_slice, view.array_size);
        Ok(ShaderResourceView { buffer: texture.memory.clone(), view: ViewOf::Texture(texture.clone(), view), range })
    }

    /// `ID3D11Device::CreateUnorderedAccessView` of mip 0 of a 2D texture
    /// (`Texture2D` or `Texture2DArray`), with the rules of
    /// [`create_texture_shader_resource_view`](Self::create_texture_shader_resource_view)
    /// and the unordered-access bind flag. Refused (`E_INVALIDARG`) below feature level
    /// 11_0 (Microsoft's "Compute Shaders on Downlevel Hardware": no texture UAVs).
    pub fn create_texture_unordered_access_view(
        &self,
        texture: &Texture2D,
        view: TextureViewDesc,
    ) -> Result<UnorderedAccessView, CallError> {
        let call = "CreateUnorderedAccessView";
        if !texture.desc.bind_flags.contains(BindFlags::UNORDERED_ACCESS) {
            return Err(CallError::invalid(format!("{call}: the texture lacks D3D11_BIND_UNORDERED_ACCESS")));
        }
        if self.feature_level() < FeatureLevel::L11_0 {
            return Err(CallError::invalid(format!("{call}: a texture UAV below feature level 11_0")));
        }
        if !matches!(view.dimension, TextureViewDimension::Texture2D | TextureViewDimension::Texture2DArray) {
            return Err(CallError::invalid(format!("{call}: a {:?} unordered access view", view.dimension)));
        }
        texture_view_range(call, texture, view)?;
        let (_, range) = texture.geometry(texture.dimension(view.dimension), view.first_array_slice, view.array_size);
        Ok(UnorderedAccessView {
            buffer: texture.memory.clone(),
            view: ViewOf::Texture(texture.clone(), view),
            range,
            counter: Arc::new(AtomicU32::new(0)),
        })
    }
}

/// Checks a texture view against its texture.
fn texture_view_range(call: &str, texture: &Texture2D, view: TextureViewDesc) -> Result<(), CallError> {
    use TextureViewDimension as V;
    let d = &texture.desc;
    let (first, n) = (view.first_array_slice as u64, view.array_size as u64);
    if n == 0 || first + n > d.array_size as u64 {
        return Err(CallError::invalid(format!(
            "{call}: slices {first}..{} of a texture of {}",
            first + n,
            d.array_size
        )));
    }
    let ms_view = matches!(view.dimension, V::Texture2DMS | V::Texture2DMSArray);
    if ms_view != (d.sample_count > 1) {
        return Err(CallError::invalid(format!(
            "{call}: a {:?} view of a texture of {} sample(s)",
            view.dimension, d.sample_count
        )));
    }
    if matches!(view.dimension, V::Texture2D | V::Texture2DMS) && n != 1 {
        return Err(CallError::invalid(format!("{call}: a {:?} view of {n} slices", view.dimension)));
    }
    if view.dimension == V::TextureCube && (n % 6 != 0 || d.width != d.height) {
        return Err(CallError::invalid(format!(
            "{call}: a cube view of {n} slices of {}x{} (6 square faces per cube)",
            d.width, d.height
        )));
    }
    Ok(())
}

/// The byte range of a buffer view, checked against the buffer.
fn buffer_view_range(call: &str, buffer: &Buffer, view: BufferView) -> Result<(usize, usize), CallError> {
    {
        let desc = buffer.desc();
        let structured = desc.misc_flags & RESOURCE_MISC_BUFFER_STRUCTURED != 0;
        let raw = desc.misc_flags & RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS != 0;
        let (size, first, num) = match view {
            BufferView::Typed { format, first_element, num_elements } => {
                if structured {
                    return Err(CallError::invalid(format!("{call}: a typed view of a structured buffer")));
                }
                (format.size() as u64, first_element, num_elements)
            }
            BufferView::Raw { first_element, num_elements } => {
                if !raw {
                    return Err(CallError::invalid(format!(
                        "{call}: a raw view needs D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS"
                    )));
                }
                (4, first_element, num_elements)
            }
            BufferView::Structured { first_element, num_elements } => {
                if !structured {
                    return Err(CallError::invalid(format!("{call}: the buffer is not structured")));
                }
                (desc.structure_byte_stride as u64, first_element, num_elements)
            }
        };
        let start = first as u64 * size;
        let end = start + num as u64 * size;
        if num == 0 || end > desc.byte_width as u64 {
            return Err(CallError::invalid(format!(
                "{call}: elements {first}..{} of {size} bytes do not fit the {}-byte buffer",
                first as u64 + num as u64,
                desc.byte_width
            )));
        }
        Ok((start as usize, end as usize))
    }
}

impl Device {
    /// `ID3D11Device::CreateSamplerState` (never refused here).
    pub fn create_sampler_state(&self, sampler: Sampler) -> SamplerState {
        SamplerState(sampler)
    }

    /// `ID3D11Device::CreateQuery`. Refused (`E_INVALIDARG`): a stream above 3.
    pub fn create_query(&self, kind: QueryKind) -> Result<Query, CallError> {
        if let QueryKind::SoStatisticsStream(s) | QueryKind::SoOverflowPredicateStream(s) = kind {
            if s >= 4 {
                return Err(CallError::invalid(format!("CreateQuery: stream {s} (streams are 0..3)")));
            }
        }
        Ok(Query { kind, begun: None, data: None })
    }

    /// `ID3D11Device::GetImmediateContext`: a context in the default state (every
    /// binding empty, topology undefined). The device model holds no state, so each
    /// call makes a new context.
    pub fn immediate_context(&self) -> Context {
        Context::new(self.clone())
    }
}

/// The bytes of `b` among the locked inputs.
fn bytes_in<'g>(inputs: &[Buffer], guards: &'g [RwLockReadGuard<'_, Vec<u8>>], b: &Buffer) -> Option<&'g [u8]> {
    inputs.iter().position(|i| i.ptr_eq(b)).map(|k| guards[k].as_slice())
}

/// A stage's constant buffers among the locked inputs, copied into 16-byte vectors (the
/// buffers' bytes are not aligned for them).
fn stage_constants(
    stage: &StageState,
    inputs: &[Buffer],
    guards: &[RwLockReadGuard<'_, Vec<u8>>],
) -> Vec<Option<Vec<[u32; 4]>>> {
    stage
        .constant_buffers
        .iter()
        .map(|b| {
            let bytes = bytes_in(inputs, guards, b.as_ref()?)?;
            Some(
                bytes
                    .chunks_exact(16)
                    .map(|c| {
                        let w = |k: usize| u32::from_le_bytes([c[k], c[k + 1], c[k + 2], c[k + 3]]);
                        [w(0), w(4), w(8), w(12)]
                    })
                    .collect(),
            )
        })
        .collect()
}

/// Binds a stage's shader resource views (among the locked inputs), samplers and
/// class instances into `r`.
fn bind_stage<'g>(
    stage: &StageState,
    r: &mut Resources<'g>,
    inputs: &[Buffer],
    guards: &'g [RwLockReadGuard<'_, Vec<u8>>],
) {
    r.srvs = stage
        .resources
        .iter()
        .map(|v| {
            let v = v.as_ref()?;
            let data = bytes_in(inputs, guards, &v.buffer)?.get(v.range.0..v.range.1)?;
            Some(match &v.view {
                ViewOf::Buffer(BufferView::Typed { format, .. }) => Srv::Buffer { data, format: *format },
                ViewOf::Buffer(BufferView::Raw { .. }) => Srv::Raw { data },
                ViewOf::Buffer(BufferView::Structured { .. }) => {
                    Srv::Structured { data, stride: v.buffer.desc().structure_byte_stride }
                }
                ViewOf::Texture(t, d) => {
                    let (geometry, _) = t.geometry(t.dimension(d.dimension), d.first_array_slice, d.array_size);
                    Srv::Texture(TextureView { data, ..geometry })
                }
            })
        })
        .collect();
    while r.srvs.last().is_some_and(|s| s.is_none()) {
        r.srvs.pop();
    }
    for (slot, s) in r.samplers.iter_mut().zip(&stage.samplers) {
        *slot = s.map(|s| s.0);
    }
    r.class_instances = stage.resolved.bound.clone();
}

/// The output buffers' memory (one slice per buffer, locked for writing), lent in
/// disjoint pieces to the bindings that write it: UAVs of different slices of one
/// texture each get their own bytes.
struct Lent<'m>(Vec<Vec<(usize, &'m mut [u8])>>);

impl<'m> Lent<'m> {
    fn new(memory: impl Iterator<Item = &'m mut [u8]>) -> Lent<'m> {
        Lent(memory.map(|m| vec![(0, m)]).collect())
    }

    /// Bytes `start..end` of buffer `k`: `None` when any of them is lent already.
    fn take(&mut self, k: usize, (start, end): (usize, usize)) -> Option<&'m mut [u8]> {
        let pieces = self.0.get_mut(k)?;
        let i = pieces.iter().position(|(at, p)| *at <= start && start <= end && end <= at + p.len())?;
        let (at, piece) = pieces.swap_remove(i);
        let (before, rest) = piece.split_at_mut(start - at);
        let (taken, after) = rest.split_at_mut(end - start);
        if !before.is_empty() {
            pieces.push((at, before));
        }
        if !after.is_empty() {
            pieces.push((end, after));
        }
        Some(taken)
    }

    /// All of buffer `k`, when none of it is lent.
    fn take_all(&mut self, k: usize) -> Option<&'m mut [u8]> {
        let pieces = self.0.get_mut(k)?;
        match pieces.as_slice() {
            [(0, _)] => pieces.pop().map(|(_, p)| p),
            _ => None,
        }
    }
}

/// The interpreter's view of a UAV whose bytes are `data`.
fn uav_of<'g>(u: &UnorderedAccessView, data: &'g mut [u8]) -> Uav<'g> {
    match &u.view {
        ViewOf::Buffer(BufferView::Typed { format, .. }) => Uav::Buffer { data, format: *format },
        ViewOf::Buffer(BufferView::Raw { .. }) => Uav::Raw { data },
        ViewOf::Buffer(BufferView::Structured { .. }) => Uav::Structured {
            data,
            stride: u.buffer.desc().structure_byte_stride,
            counter: u.counter.load(Ordering::Relaxed),
        },
        ViewOf::Texture(t, d) => {
            let (view, _) = t.geometry(t.dimension(d.dimension), d.first_array_slice, d.array_size);
            Uav::Texture { view, data }
        }
    }
}

/// Resources with these constant buffers bound.
fn with_constants(cbs: &[Option<Vec<[u32; 4]>>]) -> Resources<'_> {
    let mut r = Resources::default();
    for (slot, cb) in r.constant_buffers.iter_mut().zip(cbs) {
        *slot = cb.as_deref();
    }
    r
}

fn semantic_text(name: &str, index: u32) -> String {
    if index == 0 {
        name.to_string()
    } else {
        format!("{name}{index}")
    }
}

/// A bound vertex buffer.
#[derive(Debug, Clone)]
struct VbBinding {
    buffer: Buffer,
    stride: u32,
    offset: u32,
}

/// One shader stage's bindings.
#[derive(Debug, Clone, Default)]
struct StageState {
    shader: Option<Shader>,
    constant_buffers: Vec<Option<Buffer>>,
    resources: Vec<Option<ShaderResourceView>>,
    samplers: Vec<Option<SamplerState>>,
    /// The class instances of the `*SetShader` call, as given.
    class_instances: Vec<Option<ClassInstance>>,
    /// The same, resolved against the shader's interface slots.
    resolved: ResolvedInstances,
}

impl StageState {
    fn new() -> StageState {
        StageState {
            shader: None,
            constant_buffers: vec![None; CONSTANT_BUFFER_SLOTS as usize],
            resources: vec![None; SHADER_RESOURCE_SLOTS as usize],
            samplers: vec![None; SAMPLER_SLOTS as usize],
            class_instances: Vec::new(),
            resolved: ResolvedInstances::default(),
        }
    }
}

/// The shader stages the context runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StageId {
    Vs,
    Gs,
    Ps,
    Cs,
}

impl StageId {
    /// The prefix of the stage's calls (`VS` of `VSSetShader`).
    fn prefix(self) -> &'static str {
        match self {
            StageId::Vs => "VS",
            StageId::Gs => "GS",
            StageId::Ps => "PS",
            StageId::Cs => "CS",
        }
    }
}

/// `ID3D11DeviceContext` (immediate), for the IA, VS, GS, SO, rasterizer, PS, OM (render
/// targets) and CS stages.
#[derive(Debug)]
pub struct Context {
    device: Device,
    layout: Option<InputLayout>,
    vertex_buffers: Vec<Option<VbBinding>>,
    index_buffer: Option<(Buffer, IndexFormat, u32)>,
    topology: Option<Topology>,
    vs: StageState,
    gs: StageState,
    ps: StageState,
    cs: StageState,
    so_targets: [Option<Buffer>; SO_BUFFER_SLOTS],
    /// The graphics stages' UAVs (`OMSetRenderTargetsAndUnorderedAccessViews`).
    uavs: Vec<Option<UnorderedAccessView>>,
    /// The compute stage's UAVs (`CSSetUnorderedAccessViews`).
    cs_uavs: Vec<Option<UnorderedAccessView>>,
    /// `OMSetRenderTargets`.
    render_targets: Vec<Option<RenderTargetView>>,
    /// `RSSetViewports`.
    viewports: Vec<Viewport>,
    /// `RSSetState` (`None`: the default state).
    rasterizer: Option<RasterizerState>,
    /// Plans by shader object.
    plans: Vec<(Shader, Result<Arc<Plan>, ExecError>)>,
    capture: bool,
    checking: bool,
    step_limit: u64,
    totals: Totals,
    last: Option<DrawResult>,
    messages: Vec<String>,
}

impl Shader {
    /// What [`Context::vs_set_shader`] (and the other `*SetShader` calls) bind for
    /// this shader with `class_instances`: the function table and `this` data of each
    /// slot, as the interpreter takes them ([`exec::Resources::class_instances`];
    /// `translate`'s options take the same type). Slots with a `None` entry, and every
    /// slot for an empty array, are left out (the context refuses to draw with such a
    /// shader; Microsoft's pages say it is disabled). The checks and errors are the
    /// call's (see the [module documentation](self)'s "Class instances"), so this
    /// also serves `exec` used directly.
    pub fn resolve_class_instances(
        &self,
        class_instances: &[Option<ClassInstance>],
    ) -> Result<exec::ClassInstances, CallError> {
        resolve_instances(self.bytecode(), self.class_linkage(), class_instances)
            .map(|r| r.bound)
            .map_err(CallError::invalid)
    }
}

impl Context {
    fn new(device: Device) -> Context {
        Context {
            device,
            layout: None,
            vertex_buffers: vec![None; pipeline::VERTEX_INPUT_SLOTS as usize],
            index_buffer: None,
            topology: None,
            vs: StageState::new(),
            gs: StageState::new(),
            ps: StageState::new(),
            cs: StageState::new(),
            so_targets: Default::default(),
            uavs: vec![None; UAV_SLOTS as usize],
            cs_uavs: vec![None; UAV_SLOTS as usize],
            render_targets: Vec::new(),
            viewports: Vec::new(),
            rasterizer: None,
            plans: Vec::new(),
            capture: false,
            checking: false,
            step_limit: exec::Machine::DEFAULT_STEP_LIMIT,
            totals: Totals::default(),
            last: None,
            messages: Vec::new(),
        }
    }

    /// The device it belongs to.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Keep every draw's primitives in [`last_draw`](Self::last_draw) (off by default).
    pub fn set_capture(&mut self, on: bool) {
        self.capture = on;
    }

    /// The interpreter's checking mode (emits of undefined outputs are reported in the
    /// draw's diagnostics).
    pub fn set_checking(&mut self, on: bool) {
        self.checking = on;
    }

    /// Instructions one shader invocation may execute.
    pub fn set_step_limit(&mut self, steps: u64) {
        self.step_limit = steps;
    }

    /// What the debug layer would have said about ignored calls and unbound hazards,
    /// oldest first.
    pub fn messages(&self) -> &[String] {
        &self.messages
    }

    /// The whole result of the last successful draw.
    pub fn last_draw(&self) -> Option<&DrawResult> {
        self.last.as_ref()
    }

    /// `ClearState`: every binding empty, topology undefined (queries, plans and
    /// counters stay).
    pub fn clear_state(&mut self) {
        self.layout = None;
        self.vertex_buffers = vec![None; pipeline::VERTEX_INPUT_SLOTS as usize];
        self.index_buffer = None;
        self.topology = None;
        self.vs = StageState::new();
        self.gs = StageState::new();
        self.ps = StageState::new();
        self.cs = StageState::new();
        self.so_targets = Default::default();
        self.uavs = vec![None; UAV_SLOTS as usize];
        self.cs_uavs = vec![None; UAV_SLOTS as usize];
        self.render_targets = Vec::new();
        self.viewports = Vec::new();
        self.rasterizer = None;
    }

    /// Bound for output: a stream-output target, under an unordered access view (of
    /// the graphics or the compute stages) or a render target view.
    fn is_bound_as_output(&self, buffer: &Buffer) -> bool {
        self.so_targets.iter().flatten().any(|t| t.ptr_eq(buffer))
            || self.uavs.iter().chain(&self.cs_uavs).flatten().any(|u| u.buffer.ptr_eq(buffer))
            || self.render_targets.iter().flatten().any(|r| r.texture.memory.ptr_eq(buffer))
    }

    /// `OMSetRenderTargetsAndUnorderedAccessViews` for the UAVs (render targets:
    /// [`om_set_render_targets`](Self::om_set_render_targets)): binds `views` to the
    /// graphics stages' slots from `start_slot`; the vertex, geometry and pixel shaders
    /// share them. `initial_counts[i]` sets a structured
    /// view's hidden counter (`u32::MAX`, -1, or missing: kept). A buffer bound here is
    /// unbound from every input slot, as stream-output targets are. One subresource
    /// (a buffer, or a texture's mip and slice) under two of the views ignores the call
    /// (a debug message, `Ok`); a render target, another UAV slot or a stream-output
    /// target of a subresource bound here is unset (functional spec 5.3.9.4). The slots are
    /// [`om_uav_slot_count`](Self::om_uav_slot_count): binding past them, or on a device
    /// below feature level 11_0 (no pixel-shader UAVs), is refused (`E_INVALIDARG`,
    /// nothing bound). Which stages may use them is decided when a shader is created:
    /// UAVs in a vertex or geometry shader need the 11.1 runtime at feature level 11_1
    /// (`Device::create_vertex_shader`). The rule that a pixel shader's UAVs start after
    /// its render targets (`UAVStartSlot` = `NumRTVs`: the two share the output slots)
    /// is not checked, the two being bound by separate calls here.
    pub fn om_set_unordered_access_views(
        &mut self,
        start_slot: u32,
        views: &[Option<UnorderedAccessView>],
        initial_counts: &[u32],
    ) -> Result<(), CallError> {
        let call = "OMSetRenderTargetsAndUnorderedAccessViews";
        let slots = self.om_uav_slot_count();
        if slots == 0 {
            return Err(CallError::invalid(format!("{call}: no UAVs below feature level 11_0")));
        }
        if start_slot as u64 + views.len() as u64 > slots as u64 {
            return Err(CallError::invalid(format!("{call}: slots past {}", slots - 1)));
        }
        // Hazards (functional spec 5.3.9.4): one subresource at two slots ignores the
        // call; another output binding of a subresource bound here is unset.
        let start = start_slot as usize;
        let new: Vec<(usize, hazards::Written<'_>)> =
            views.iter().enumerate().filter_map(|(i, v)| Some((start + i, v.as_ref()?.written()))).collect();
        if let Some((a, b)) = hazards::repeated(&new) {
            self.messages.push(format!("{call}: UAV slots {a} and {b} bind one subresource; call ignored"));
            return Ok(());
        }
        self.unset_graphics_outputs(call, &new, 0..0, start..start + views.len(), 0..0);
        for (i, v) in views.iter().enumerate() {
            if let Some(v) = v {
                let count = initial_counts.get(i).copied().unwrap_or(u32::MAX);
                if count != u32::MAX && matches!(v.view, ViewOf::Buffer(BufferView::Structured { .. })) {
                    v.counter.store(count, Ordering::Relaxed);
                }
            }
            self.uavs[start_slot as usize + i] = v.clone();
        }
        // Hazards: an output binding unbinds the buffer from the inputs.
        let bound: Vec<Buffer> = views.iter().flatten().map(|v| v.buffer.clone()).collect();
        self.unbind_inputs(call, |b| bound.iter().any(|u| u.ptr_eq(b)));
        Ok(())
    }

    /// D3D11's hazard rule: a buffer bound as an output (stream-output target, UAV) is
    /// unbound from every input binding (vertex/index/constant buffers, views); `call`
    /// names the binding call in the debug message.
    fn unbind_inputs(&mut self, call: &str, bound: impl Fn(&Buffer) -> bool) {
        let mut unbound = 0;
        for vb in self.vertex_buffers.iter_mut() {
            if vb.as_ref().is_some_and(|v| bound(&v.buffer)) {
                *vb = None;
                unbound += 1;
            }
        }
        if self.index_buffer.as_ref().is_some_and(|(b, _, _)| bound(b)) {
            self.index_buffer = None;
            unbound += 1;
        }
        for stage in [&mut self.vs, &mut self.gs, &mut self.ps, &mut self.cs] {
            for cb in stage.constant_buffers.iter_mut() {
                if cb.as_ref().is_some_and(&bound) {
                    *cb = None;
                    unbound += 1;
                }
            }
            for v in stage.resources.iter_mut() {
                if v.as_ref().is_some_and(|v| bound(&v.buffer)) {
                    *v = None;
                    unbound += 1;
                }
            }
        }
        if unbound > 0 {
            self.messages.push(format!("{call}: {unbound} input binding(s) forced to NULL"));
        }
    }

    /// The graphics stages' UAVs (`OMGetRenderTargetsAndUnorderedAccessViews`).
    pub fn om_unordered_access_views(&self) -> &[Option<UnorderedAccessView>] {
        &self.uavs
    }

    /// Input binding of `buffer` needing `flag`: `None` (with a message) when it lacks
    /// the flag or is bound as an output ([`is_bound_as_output`](Self::is_bound_as_output)).
    fn input_binding(&mut self, call: &str, buffer: &Option<Buffer>, flag: BindFlags, name: &str) -> Option<Buffer> {
        let b = buffer.as_ref()?;
        if !b.desc().bind_flags.contains(flag) {
            self.messages.push(format!("{call}: the buffer lacks {name}; bound as NULL"));
            return None;
        }
        if self.is_bound_as_output(b) {
            self.messages.push(format!(
                "{call}: the buffer is bound as an output (stream-output target, UAV or render target); input forced to NULL"
            ));
            return None;
        }
        Some(b.clone())
    }

    /// `IASetInputLayout`.
    pub fn ia_set_input_layout(&mut self, layout: Option<&InputLayout>) {
        self.layout = layout.cloned();
    }

    /// `IASetVertexBuffers`: `buffers.len()` slots from `start_slot`, with a stride and
    /// offset each (missing ones are 0). Ignored when the slots run past 31.
    pub fn ia_set_vertex_buffers(
        &mut self,
        start_slot: u32,
        buffers: &[Option<Buffer>],
        strides: &[u32],
        offsets: &[u32],
    ) {
        if start_slot as usize + buffers.len() > self.vertex_buffers.len() {
            self.messages.push(format!(
                "IASetVertexBuffers: slots {start_slot}..{} (slots are 0..31); call ignored",
                start_slot as usize + buffers.len()
            ));
            return;
        }
        for (i, b) in buffers.iter().enumerate() {
            let binding =
                self.input_binding("IASetVertexBuffers", b, BindFlags::VERTEX_BUFFER, "D3D11_BIND_VERTEX_BUFFER");
            self.vertex_buffers[start_slot as usize + i] = binding.map(|buffer| VbBinding {
                buffer,
                stride: strides.get(i).copied().unwrap_or(0),
                offset: offsets.get(i).copied().unwrap_or(0),
            });
        }
    }

    /// `IASetIndexBuffer`.
    pub fn ia_set_index_buffer(&mut self, buffer: Option<&Buffer>, format: IndexFormat, offset: u32) {
        let b = buffer.cloned();
        self.index_buffer = self
            .input_binding("IASetIndexBuffer", &b, BindFlags::INDEX_BUFFER, "D3D11_BIND_INDEX_BUFFER")
            .map(|b| (b, format, offset));
    }

    /// `IASetPrimitiveTopology`.
    pub fn ia_set_primitive_topology(&mut self, topology: Topology) {
        self.topology = Some(topology);
    }

    /// The plan of `shader`, compiled on first use.
    fn plan_of(&mut self, shader: &Shader) {
        if !self.plans.iter().any(|(s, _)| s.ptr_eq(shader)) {
            let plan = if shader.has_program() {
                Plan::from_bytecode(shader.bytecode()).map(Arc::new)
            } else {
                Err(ExecError::new(ExecErrorKind::Draw("the shader object has no program".into())))
            };
            self.plans.push((shader.clone(), plan));
        }
    }

    fn cached_plan(&self, shader: &Shader) -> Result<Arc<Plan>, ExecError> {
        match self.plans.iter().find(|(s, _)| s.ptr_eq(shader)) {
            Some((_, plan)) => plan.clone(),
            None => Err(ExecError::new(ExecErrorKind::Draw("the shader has no plan".into()))),
        }
    }

    /// `VSSetShader(pVertexShader, ppClassInstances, NumClassInstances)`: `class_instances`
    /// is the array (empty: `NULL`), one entry per interface slot of the shader (`None`:
    /// a `NULL` entry). A shader object that is not a vertex shader, or class
    /// instances the runtime refuses (see the [module documentation](self)'s "Class
    /// instances"), are refused (`E_INVALIDARG`, the binding unchanged).
    pub fn vs_set_shader(
        &mut self,
        shader: Option<&Shader>,
        class_instances: &[Option<ClassInstance>],
    ) -> Result<(), CallError> {
        if let Some(s) = shader {
            if s.stage() != ProgramType::Vertex {
                return Err(CallError::invalid(format!("VSSetShader: a {:?} shader object", s.stage())));
            }
        }
        let resolved = Self::resolve("VSSetShader", shader, class_instances)?;
        if let Some(s) = shader {
            self.plan_of(s);
        }
        self.vs.shader = shader.cloned();
        self.vs.class_instances = if shader.is_some() { class_instances.to_vec() } else { Vec::new() };
        self.vs.resolved = resolved;
        Ok(())
    }

    /// `VSGetShader`: the vertex shader and the class instances it was set with (as
    /// given; empty for a `NULL` array).
    pub fn vs_get_shader(&self) -> (Option<Shader>, Vec<Option<ClassInstance>>) {
        (self.vs.shader.clone(), self.vs.class_instances.clone())
    }

    /// `GSSetShader(pShader, ppClassInstances, NumClassInstances)`: a geometry shader,
    /// or a stream-output object from `CreateGeometryShaderWithStreamOutput` (whose
    /// bytecode may be a vertex shader, or none: then the vertex shader's output is
    /// streamed out directly). Other shader objects, or class instances the runtime
    /// refuses (as [`vs_set_shader`](Self::vs_set_shader)), are refused
    /// (`E_INVALIDARG`, the binding unchanged).
    pub fn gs_set_shader(
        &mut self,
        shader: Option<&Shader>,
        class_instances: &[Option<ClassInstance>],
    ) -> Result<(), CallError> {
        if let Some(s) = shader {
            if s.stage() != ProgramType::Geometry {
                return Err(CallError::invalid(format!("GSSetShader: a {:?} shader object", s.stage())));
            }
        }
        let resolved = Self::resolve("GSSetShader", shader, class_instances)?;
        if let Some(s) = shader {
            if s.has_program() && s.program_stage() == ProgramType::Geometry {
                self.plan_of(s);
            }
        }
        self.gs.shader = shader.cloned();
        self.gs.class_instances = if shader.is_some() { class_instances.to_vec() } else { Vec::new() };
        self.gs.resolved = resolved;
        Ok(())
    }

    /// `GSGetShader`: as [`vs_get_shader`](Self::vs_get_shader).
    pub fn gs_get_shader(&self) -> (Option<Shader>, Vec<Option<ClassInstance>>) {
        (self.gs.shader.clone(), self.gs.class_instances.clone())
    }

    /// The class instances of a `*SetShader` call checked and resolved against the
    /// shader (none for a `NULL` shader).
    fn resolve(
        call: &str,
        shader: Option<&Shader>,
        class_instances: &[Option<ClassInstance>],
    ) -> Result<ResolvedInstances, CallError> {
        let Some(s) = shader else { return Ok(ResolvedInstances::default()) };
        resolve_instances(s.bytecode(), s.class_linkage(), class_instances)
            .map_err(|m| CallError::invalid(format!("{call}: {m}")))
    }

    fn set_constant_buffers(&mut self, stage: StageId, start_slot: u32, buffers: &[Option<Buffer>]) {
        let call = format!("{}SetConstantBuffers", stage.prefix());
        if start_slot as usize + buffers.len() > CONSTANT_BUFFER_SLOTS as usize {
            self.messages.push(format!("{call}: slots past {}; call ignored", CONSTANT_BUFFER_SLOTS - 1));
            return;
        }
        for (i, b) in buffers.iter().enumerate() {
            let binding = self.input_binding(&call, b, BindFlags::CONSTANT_BUFFER, "D3D11_BIND_CONSTANT_BUFFER");
            self.stage_mut(stage).constant_buffers[start_slot as usize + i] = binding;
        }
    }

    /// `VSSetConstantBuffers`.
    pub fn vs_set_constant_buffers(&mut self, start_slot: u32, buffers: &[Option<Buffer>]) {
        self.set_constant_buffers(StageId::Vs, start_slot, buffers);
    }

    /// `GSSetConstantBuffers`.
    pub fn gs_set_constant_buffers(&mut self, start_slot: u32, buffers: &[Option<Buffer>]) {
        self.set_constant_buffers(StageId::Gs, start_slot, buffers);
    }

    /// `PSSetConstantBuffers`.
    pub fn ps_set_constant_buffers(&mut self, start_slot: u32, buffers: &[Option<Buffer>]) {
        self.set_constant_buffers(StageId::Ps, start_slot, buffers);
    }

    /// `CSSetConstantBuffers`.
    pub fn cs_set_constant_buffers(&mut self, start_slot: u32, buffers: &[Option<Buffer>]) {
        self.set_constant_buffers(StageId::Cs, start_slot, buffers);
    }

    fn set_shader_resources(&mut self, stage: StageId, start_slot: u32, views: &[Option<ShaderResourceView>]) {
        let call = format!("{}SetShaderResources", stage.prefix());
        if start_slot as usize + views.len() > SHADER_RESOURCE_SLOTS as usize {
            self.messages.push(format!("{call}: slots past {}; call ignored", SHADER_RESOURCE_SLOTS - 1));
            return;
        }
        for (i, v) in views.iter().enumerate() {
            let v = match v {
                Some(v) if self.is_bound_as_output(&v.buffer) => {
                    self.messages.push(format!("{call}: the resource is bound for output; input forced to NULL"));
                    None
                }
                v => v.clone(),
            };
            self.stage_mut(stage).resources[start_slot as usize + i] = v;
        }
    }

    /// `VSSetShaderResources`.
    pub fn vs_set_shader_resources(&mut self, start_slot: u32, views: &[Option<ShaderResourceView>]) {
        self.set_shader_resources(StageId::Vs, start_slot, views);
    }

    /// `GSSetShaderResources`.
    pub fn gs_set_shader_resources(&mut self, start_slot: u32, views: &[Option<ShaderResourceView>]) {
        self.set_shader_resources(StageId::Gs, start_slot, views);
    }

    /// `PSSetShaderResources`.
    pub fn ps_set_shader_resources(&mut self, start_slot: u32, views: &[Option<ShaderResourceView>]) {
        self.set_shader_resources(StageId::Ps, start_slot, views);
    }

    /// `CSSetShaderResources`.
    pub fn cs_set_shader_resources(&mut self, start_slot: u32, views: &[Option<ShaderResourceView>]) {
        self.set_shader_resources(StageId::Cs, start_slot, views);
    }

    fn set_samplers(&mut self, stage: StageId, start_slot: u32, samplers: &[Option<SamplerState>]) {
        if start_slot as usize + samplers.len() > SAMPLER_SLOTS as usize {
            let call = format!("{}SetSamplers", stage.prefix());
            self.messages.push(format!("{call}: slots past {}; call ignored", SAMPLER_SLOTS - 1));
            return;
        }
        let stage = self.stage_mut(stage);
        for (i, s) in samplers.iter().enumerate() {
            stage.samplers[start_slot as usize + i] = *s;
        }
    }

    /// `VSSetSamplers`.
    pub fn vs_set_samplers(&mut self, start_slot: u32, samplers: &[Option<SamplerState>]) {
        self.set_samplers(StageId::Vs, start_slot, samplers);
    }

    /// `GSSetSamplers`.
    pub fn gs_set_samplers(&mut self, start_slot: u32, samplers: &[Option<SamplerState>]) {
        self.set_samplers(StageId::Gs, start_slot, samplers);
    }

    /// `PSSetSamplers`.
    pub fn ps_set_samplers(&mut self, start_slot: u32, samplers: &[Option<SamplerState>]) {
        self.set_samplers(StageId::Ps, start_slot, samplers);
    }

    /// `CSSetSamplers`.
    pub fn cs_set_samplers(&mut self, start_slot: u32, samplers: &[Option<SamplerState>]) {
        self.set_samplers(StageId::Cs, start_slot, samplers);
    }

    fn stage_mut(&mut self, stage: StageId) -> &mut StageState {
        match stage {
            StageId::Vs => &mut self.vs,
            StageId::Gs => &mut self.gs,
            StageId::Ps => &mut self.ps,
            StageId::Cs => &mut self.cs,
        }
    }

    /// `SOSetTargets`: binds `buffers` to slots 0.. and unbinds the others. An offset
    /// of `u32::MAX` (`-1`) appends at the buffer's `BufferFilledSize`; any other offset
    /// becomes its `BufferFilledSize` (14.4); a missing offset is 0. A buffer without
    /// the stream-output bind flag, or already given to an earlier slot of the call,
    /// is bound as `NULL`. Each buffer bound is unbound from every input slot, and from
    /// a graphics UAV slot (functional spec 5.3.9.4). Ignored with more than 4 buffers.
    pub fn so_set_targets(&mut self, buffers: &[Option<Buffer>], offsets: &[u32]) {
        if buffers.len() > SO_BUFFER_SLOTS {
            self.messages.push(format!("SOSetTargets: {} buffers (at most 4); call ignored", buffers.len()));
            return;
        }
        let mut targets: [Option<Buffer>; SO_BUFFER_SLOTS] = Default::default();
        for (i, b) in buffers.iter().enumerate() {
            let Some(b) = b else { continue };
            if !b.desc().bind_flags.contains(BindFlags::STREAM_OUTPUT) {
                self.messages.push(format!("SOSetTargets: slot {i}: the buffer lacks D3D11_BIND_STREAM_OUTPUT; NULL"));
                continue;
            }
            if targets.iter().flatten().any(|t| t.ptr_eq(b)) {
                self.messages
                    .push(format!("SOSetTargets: slot {i}: the buffer is already bound at another slot; NULL"));
                continue;
            }
            let offset = offsets.get(i).copied().unwrap_or(0);
            if offset != u32::MAX {
                b.set_filled_size(offset);
            }
            targets[i] = Some(b.clone());
        }
        // Hazards: another output binding of a buffer bound here is unset (functional
        // spec 5.3.9.4); an output binding unbinds the buffer from the inputs.
        {
            let new: Vec<(usize, hazards::Written<'_>)> =
                targets.iter().enumerate().filter_map(|(i, t)| Some((i, hazards::buffer(t.as_ref()?)))).collect();
            self.unset_graphics_outputs("SOSetTargets", &new, 0..0, 0..0, 0..SO_BUFFER_SLOTS);
        }
        self.unbind_inputs("SOSetTargets", |b| targets.iter().flatten().any(|t| t.ptr_eq(b)));
        self.so_targets = targets;
    }

    /// The buffers bound for stream output (`SOGetTargets`).
    pub fn so_targets(&self) -> [Option<Buffer>; SO_BUFFER_SLOTS] {
        self.so_targets.clone()
    }

    /// `Begin`: the query starts counting.
    pub fn begin(&mut self, query: &mut Query) {
        query.begun = Some(self.totals);
        query.data = None;
    }

    /// `End`: the query's data becomes what was counted since `begin` (a query never
    /// begun gets no data).
    pub fn end(&mut self, query: &mut Query) {
        let Some(begun) = query.begun.take() else {
            self.messages.push("End: the query was not begun".into());
            return;
        };
        let now = self.totals;
        let so = |s: usize| sub_so(now.so[s], begun.so[s]);
        let overflow = |s: SoStatistics| s.primitives_storage_needed > s.num_primitives_written;
        query.data = Some(match query.kind {
            QueryKind::PipelineStatistics => QueryData::PipelineStatistics(sub_pipeline(now.pipeline, begun.pipeline)),
            QueryKind::SoStatistics => QueryData::SoStatistics(so(0)),
            QueryKind::SoStatisticsStream(s) => QueryData::SoStatistics(so(s as usize & 3)),
            QueryKind::SoOverflowPredicate => QueryData::Overflow((0..4).any(|s| overflow(so(s)))),
            QueryKind::SoOverflowPredicateStream(s) => QueryData::Overflow(overflow(so(s as usize & 3))),
        });
    }

    /// `Draw`.
    pub fn draw(&mut self, vertex_count: u32, start_vertex: u32) -> Result<(), ExecError> {
        self.execute(DrawCall::Draw { vertex_count, start_vertex })
    }

    /// `DrawIndexed`.
    pub fn draw_indexed(&mut self, index_count: u32, start_index: u32, base_vertex: i32) -> Result<(), ExecError> {
        self.execute(DrawCall::DrawIndexed { index_count, start_index, base_vertex })
    }

    /// `DrawInstanced`.
    pub fn draw_instanced(
        &mut self,
        vertex_count_per_instance: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    ) -> Result<(), ExecError> {
        self.execute(DrawCall::DrawInstanced {
            vertex_count_per_instance,
            instance_count,
            start_vertex,
            start_instance,
        })
    }

    /// `DrawIndexedInstanced`.
    pub fn draw_indexed_instanced(
        &mut self,
        index_count_per_instance: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    ) -> Result<(), ExecError> {
        self.execute(DrawCall::DrawIndexedInstanced {
            index_count_per_instance,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        })
    }

    /// `DrawAuto`: the vertices between the slot-0 binding's offset and its buffer's
    /// `BufferFilledSize` (8.9).
    pub fn draw_auto(&mut self) -> Result<(), ExecError> {
        self.execute(DrawCall::DrawAuto)
    }

    /// Runs a draw: the state turned into an [`exec::pipeline::Pipeline`], the
    /// statistics added to the context's counters, the stream-output targets'
    /// `BufferFilledSize` advanced; with a pixel shader, the rasterized stream drawn
    /// into the render targets (the module documentation's "The pixel stage"). A draw
    /// refused before it runs (state, linkage, target size, viewport) changes
    /// nothing; one that fails while running changes nothing but the stream-output
    /// buffers (and their filled sizes)
    /// and UAVs its shaders may already have written: render targets are written only
    /// when the whole draw succeeded.
    fn execute(&mut self, call: DrawCall) -> Result<(), ExecError> {
        let draw_error = |m: &str| ExecError::new(ExecErrorKind::Draw(m.to_string()));
        let topology = self.topology.ok_or_else(|| draw_error("no primitive topology set (IASetPrimitiveTopology)"))?;
        let vs_shader = self.vs.shader.clone().ok_or_else(|| draw_error("no vertex shader bound"))?;
        let vs_plan = self.cached_plan(&vs_shader)?;
        if let Some(slot) = self.vs.resolved.missing {
            return Err(draw_error(&format!(
                "the vertex shader is disabled: interface slot {slot} has no class instance (VSSetShader)"
            )));
        }
        let gs_shader = self.gs.shader.clone();
        let gs_plan = match &gs_shader {
            Some(s) if s.has_program() && s.program_stage() == ProgramType::Geometry => Some(self.cached_plan(s)?),
            _ => None,
        };
        if let (Some(slot), Some(_)) = (self.gs.resolved.missing, &gs_plan) {
            return Err(draw_error(&format!(
                "the geometry shader is disabled: interface slot {slot} has no class instance (GSSetShader)"
            )));
        }
        let so_desc = gs_shader.as_ref().and_then(|s| s.stream_output().cloned());
        // The pixel stage, checked before anything runs.
        let pixel = self.pixel_draw(topology, &vs_plan, gs_plan.as_deref(), so_desc.as_ref())?;

        // The buffers, each locked once: the outputs (stream-output targets, UAVs,
        // render targets) for writing, every other bound buffer for reading.
        let mut outputs: Vec<Buffer> =
            if so_desc.is_some() { self.so_targets.iter().flatten().cloned().collect() } else { Vec::new() };
        let so_outputs = outputs.len();
        let render_targets: &[Option<RenderTargetView>] = if pixel.is_some() { &self.render_targets } else { &[] };
        let target_memory = render_targets.iter().flatten().map(|r| r.texture.memory());
        for b in self.uavs.iter().flatten().map(|u| &u.buffer).chain(target_memory) {
            if !outputs.iter().any(|o| o.ptr_eq(b)) {
                outputs.push(b.clone());
            }
        }
        let is_output = |b: &Buffer| outputs.iter().any(|o| o.ptr_eq(b));
        let mut inputs: Vec<Buffer> = Vec::new();
        let mut add_input = |b: &Buffer| {
            if !is_output(b) && !inputs.iter().any(|i| i.ptr_eq(b)) {
                inputs.push(b.clone());
            }
        };
        for vb in self.vertex_buffers.iter().flatten() {
            add_input(&vb.buffer);
        }
        if let Some((b, _, _)) = &self.index_buffer {
            add_input(b);
        }
        for stage in [&self.vs, &self.gs, &self.ps] {
            stage.constant_buffers.iter().flatten().for_each(&mut add_input);
            stage.resources.iter().flatten().for_each(|v| add_input(&v.buffer));
        }
        let read_guards: Vec<RwLockReadGuard<'_, Vec<u8>>> = inputs.iter().map(|b| b.read()).collect();
        let bytes_of = |b: &Buffer| bytes_in(&inputs, &read_guards, b);
        let mut write_guards: Vec<RwLockWriteGuard<'_, Vec<u8>>> = outputs.iter().map(|b| b.write()).collect();

        // Input assembler.
        let mut vertex_buffers: Vec<Option<VertexBuffer<'_>>> = Vec::with_capacity(self.vertex_buffers.len());
        for (slot, vb) in self.vertex_buffers.iter().enumerate() {
            vertex_buffers.push(vb.as_ref().and_then(|vb| {
                let mut data = bytes_of(&vb.buffer)?;
                if slot == 0 && call == DrawCall::DrawAuto {
                    // DrawAuto draws up to the slot-0 buffer's BufferFilledSize.
                    data = &data[..(vb.buffer.filled_size() as usize).min(data.len())];
                }
                Some(VertexBuffer { data, stride: vb.stride, offset: vb.offset })
            }));
        }
        let index_buffer = self
            .index_buffer
            .as_ref()
            .and_then(|(b, format, offset)| Some(IndexBuffer { data: bytes_of(b)?, format: *format, offset: *offset }));
        let layout: &[InputElement] = self.layout.as_ref().map_or(&[], |l| l.elements());

        let vs_constants = stage_constants(&self.vs, &inputs, &read_guards);
        let gs_constants = stage_constants(&self.gs, &inputs, &read_guards);
        let ps_constants = if pixel.is_some() { stage_constants(&self.ps, &inputs, &read_guards) } else { Vec::new() };
        let mut vs_resources = with_constants(&vs_constants);
        let mut gs_resources = with_constants(&gs_constants);
        bind_stage(&self.vs, &mut vs_resources, &inputs, &read_guards);
        bind_stage(&self.gs, &mut gs_resources, &inputs, &read_guards);

        // Stream output.
        let mut so_slots: [Option<&mut [u8]>; SO_BUFFER_SLOTS] = Default::default();
        let mut memory = Lent::new(write_guards.iter_mut().map(|g| g.as_mut_slice()));
        {
            let mut next = 0;
            for (slot, target) in self.so_targets.iter().enumerate() {
                if so_desc.is_some() && target.is_some() {
                    so_slots[slot] = memory.take_all(next);
                    next += 1;
                }
            }
        }
        // The UAVs, shared by both stages (bound in the VS's resources; the pipeline
        // lends them to the GS), each lent its bytes: UAVs of different slices of one
        // texture both write. A buffer under two UAVs, or also a stream-output target,
        // would be written through the first view only (the hazard rules of the
        // binding calls keep that from happening).
        let mut uav_slots: Vec<Option<usize>> = Vec::new();
        for (slot, u) in self.uavs.iter().enumerate() {
            let Some(u) = u else {
                vs_resources.uavs.push(None);
                continue;
            };
            let k = outputs.iter().position(|o| o.ptr_eq(&u.buffer)).filter(|&k| k >= so_outputs);
            let data = k.and_then(|k| memory.take(k, u.range));
            if data.is_none() {
                self.messages.push(format!(
                    "Draw: UAV slot {slot}: its bytes are bound for stream output or under another UAV; NULL"
                ));
            }
            uav_slots.push(data.as_ref().map(|_| slot));
            vs_resources.uavs.push(data.map(|data| uav_of(u, data)));
        }
        while vs_resources.uavs.last().is_some_and(|u| u.is_none()) {
            vs_resources.uavs.pop();
        }
        let offsets: [u32; SO_BUFFER_SLOTS] =
            std::array::from_fn(|s| self.so_targets[s].as_ref().map_or(0, |b| b.filled_size()));
        let mut so_slots = so_slots.into_iter();
        let so_targets: [Option<SoTarget<'_>>; SO_BUFFER_SLOTS] =
            std::array::from_fn(|s| so_slots.next().flatten().map(|data| SoTarget { data, offset: offsets[s] }));

        let mut state = Pipeline {
            input_layout: layout,
            vertex_buffers: &vertex_buffers,
            index_buffer,
            topology,
            vs: Some(&vs_plan),
            gs: gs_plan.as_deref(),
            vs_resources,
            gs_resources,
            stream_output: so_desc.as_ref().map(|declaration| StreamOutput { declaration, targets: so_targets }),
            capture: self.capture || pixel.is_some(),
            step_limit: self.step_limit,
            checking: self.checking,
        };
        let result = pipeline::draw(&mut state, call);
        // The filled sizes follow the targets' offsets, also after a failed draw.
        if let Some(so) = &state.stream_output {
            for (slot, t) in so.targets.iter().enumerate() {
                if let (Some(t), Some(b)) = (t, &self.so_targets[slot]) {
                    b.set_filled_size(t.offset);
                }
            }
        }
        let mut uavs = std::mem::take(&mut state.vs_resources.uavs);
        drop(state);
        // The rasterizer and the pixel shader, which share the UAVs.
        let drawn = match (&result, &pixel) {
            (Ok(r), Some(p)) => {
                let mut ps_resources = with_constants(&ps_constants);
                bind_stage(&self.ps, &mut ps_resources, &inputs, &read_guards);
                ps_resources.uavs = uavs;
                let triangles = r.streams.iter().find(|s| s.stream == p.stream).map(pixel::triangles);
                let triangles = triangles.unwrap_or_default();
                let limits = exec::compute::Limits { step_limit: self.step_limit };
                // The targets' pixels are kept apart and written when the whole draw
                // succeeded (several views of one texture, each of its own subresource,
                // are written in turn: functional spec 17.14); the target is drawn band
                // after band of rows, each within exec::raster's pixel bound.
                let mut staged: Vec<pixel::Staged<'_>> = render_targets
                    .iter()
                    .enumerate()
                    .filter_map(|(slot, v)| pixel::Staged::new(&p.plan, slot, v.as_ref()?))
                    .collect();
                let height = p.state.target_height;
                let mut drawn = Ok(0u64);
                let mut start = 0;
                while let (Ok(invocations), true) = (&mut drawn, start < height) {
                    let rows = start..start.saturating_add(p.band.max(1)).min(height);
                    match exec::raster::draw_rows(
                        &p.plan,
                        &triangles,
                        &p.state,
                        rows.clone(),
                        &mut ps_resources,
                        &limits,
                    ) {
                        Ok(band) => {
                            *invocations += band.ps_invocations;
                            for target in staged.iter_mut() {
                                target.write(&band, rows.start);
                            }
                        }
                        Err(e) => drawn = Err(e),
                    }
                    start = rows.end;
                }
                uavs = std::mem::take(&mut ps_resources.uavs);
                Some(drawn.map(|invocations| (invocations, staged)))
            }
            _ => None,
        };
        // The hidden counters, also after a failed draw.
        for (u, slot) in uavs.iter().zip(&uav_slots) {
            if let (Some(Uav::Structured { counter, .. }), Some(slot)) = (u, slot) {
                if let Some(Some(view)) = self.uavs.get(*slot) {
                    view.counter.store(*counter, Ordering::Relaxed);
                }
            }
        }
        // The outputs unlocked, for the render targets' textures to be written.
        drop((uavs, so_slots, memory));
        drop(write_guards);
        let mut result = result?;
        if let Some(drawn) = drawn {
            let (invocations, staged) = drawn?;
            for target in &staged {
                target.commit();
            }
            result.statistics.ps_invocations = invocations;
        }
        if !self.capture {
            result.streams.clear();
        }
        add_pipeline(&mut self.totals.pipeline, &result.statistics);
        for (total, s) in self.totals.so.iter_mut().zip(&result.so_statistics) {
            total.num_primitives_written += s.num_primitives_written;
            total.primitives_storage_needed += s.primitives_storage_needed;
        }
        self.last = Some(result);
        Ok(())
    }
}
