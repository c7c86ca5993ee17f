//! `RDEF`: resource definitions (reflection data): constant buffers with their
//! variables and types, resource bindings, the compile flags and the creator string.
//!
//! Three record layouts exist: Shader Model 4 (28-byte header, 24-byte variables,
//! 16-byte types), Shader Model 5.0 (`RD11` header extension, 40-byte variables, 36-byte
//! types with a name and a subtype) and Shader Model 5.1 (same, with the extension's
//! magic reversed and 40-byte bindings carrying a register space and a range ID).

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::util::{code_enum, write_at, Bytes, Canvas, LayoutLog, Offsets, RawLayout, Writer};

code_enum! {
    /// The program type stored in the version word (`D3D11_SHVER_*` as in the legacy
    /// SM1–3 encoding: `0xFFFF` pixel, `0xFFFE` vertex, two ASCII letters otherwise).
    pub enum ProgramType: u16 {
        /// Pixel shader.
        Pixel = 0xffff,
        /// Vertex shader.
        Vertex = 0xfffe,
        /// Geometry shader (`GS`).
        Geometry = 0x4753,
        /// Hull shader (`HS`).
        Hull = 0x4853,
        /// Domain shader (`DS`).
        Domain = 0x4453,
        /// Compute shader (`CS`).
        Compute = 0x4353,
        /// Effect (`FX`).
        Effect = 0x4658,
    }
}

code_enum! {
    /// What a constant buffer holds (`D3D_CBUFFER_TYPE`).
    pub enum CbufferType: u32 {
        /// A `cbuffer`.
        CBuffer = 0,
        /// A `tbuffer`.
        TBuffer = 1,
        /// The interface pointers (`$ThisPointer`).
        InterfacePointers = 2,
        /// The element layout of a structured buffer ("Resource bind info for ...").
        ResourceBindInfo = 3,
    }
}

code_enum! {
    /// Kind of a bound resource (`D3D_SHADER_INPUT_TYPE`).
    pub enum ShaderInputType: u32 {
        /// Constant buffer.
        CBuffer = 0,
        /// Texture buffer.
        TBuffer = 1,
        /// Texture (SRV).
        Texture = 2,
        /// Sampler.
        Sampler = 3,
        /// Read-write typed UAV.
        UavRwTyped = 4,
        /// Structured buffer.
        Structured = 5,
        /// Read-write structured UAV.
        UavRwStructured = 6,
        /// Byte-address buffer.
        ByteAddress = 7,
        /// Read-write byte-address UAV.
        UavRwByteAddress = 8,
        /// Append structured UAV.
        UavAppendStructured = 9,
        /// Consume structured UAV.
        UavConsumeStructured = 10,
        /// Read-write structured UAV with counter.
        UavRwStructuredWithCounter = 11,
        /// Ray-tracing acceleration structure.
        RtAccelerationStructure = 12,
        /// Sampler-feedback texture.
        UavFeedbackTexture = 13,
    }
}

impl ShaderInputType {
    /// The register class a binding of this kind occupies, as HLSL spells it
    /// (`cb`, `s`, `u`, `t`), and as Shader Model 5.1 range IDs spell it (`CB`, `S`, `U`, `T`).
    pub fn register_class(self) -> (&'static str, &'static str) {
        use ShaderInputType as S;
        match self {
            S::CBuffer => ("cb", "CB"),
            S::Sampler => ("s", "S"),
            S::UavRwTyped
            | S::UavRwStructured
            | S::UavRwByteAddress
            | S::UavAppendStructured
            | S::UavConsumeStructured
            | S::UavRwStructuredWithCounter
            | S::UavFeedbackTexture => ("u", "U"),
            _ => ("t", "T"),
        }
    }
}

code_enum! {
    /// Return type of a texture or typed UAV (`D3D_RESOURCE_RETURN_TYPE`).
    pub enum ReturnType: u32 {
        /// None (samplers, buffers).
        None = 0,
        /// Unsigned normalized.
        Unorm = 1,
        /// Signed normalized.
        Snorm = 2,
        /// Signed integer.
        Sint = 3,
        /// Unsigned integer.
        Uint = 4,
        /// Float.
        Float = 5,
        /// Mixed.
        Mixed = 6,
        /// Double.
        Double = 7,
        /// Continued.
        Continued = 8,
    }
}

code_enum! {
    /// Dimension of a bound resource (`D3D_SRV_DIMENSION`).
    pub enum ResourceDimension: u32 {
        /// Not a view (samplers, constant buffers).
        Unknown0 = 0,
        /// Buffer.
        Buffer = 1,
        /// 1D texture.
        Texture1D = 2,
        /// 1D texture array.
        Texture1DArray = 3,
        /// 2D texture.
        Texture2D = 4,
        /// 2D texture array.
        Texture2DArray = 5,
        /// Multisampled 2D texture.
        Texture2DMs = 6,
        /// Multisampled 2D texture array.
        Texture2DMsArray = 7,
        /// 3D texture.
        Texture3D = 8,
        /// Cube texture.
        TextureCube = 9,
        /// Cube texture array.
        TextureCubeArray = 10,
        /// Raw/structured buffer view.
        BufferEx = 11,
    }
}

d3dcommon::variable_class_enum! {
    /// Class of a variable's type (`D3D_SHADER_VARIABLE_CLASS`): the classes Direct3D 9's
    /// `D3DXPARAMETER_CLASS` has (see [`d3dcommon`]), and the two of interfaces.
    pub enum VariableClass {
        /// Interface class.
        InterfaceClass = 6,
        /// Interface pointer.
        InterfacePointer = 7,
    }
}

d3dcommon::variable_type_enum! {
    /// Base type of a variable (`D3D_SHADER_VARIABLE_TYPE`): the types Direct3D 9's
    /// `D3DXPARAMETER_TYPE` has up to `VertexFragment` (see [`d3dcommon`]), then those of
    /// Direct3D 10 and later, from 19 (`uint`) on.
    pub enum VariableType {
        /// uint.
        Uint = 19,
        /// uint8.
        Uint8 = 20,
        /// GeometryShader.
        GeometryShader = 21,
        /// RasterizerState.
        Rasterizer = 22,
        /// DepthStencilState.
        DepthStencil = 23,
        /// BlendState.
        Blend = 24,
        /// Buffer.
        Buffer = 25,
        /// cbuffer.
        CBuffer = 26,
        /// tbuffer.
        TBuffer = 27,
        /// Texture1DArray.
        Texture1DArray = 28,
        /// Texture2DArray.
        Texture2DArray = 29,
        /// RenderTargetView.
        RenderTargetView = 30,
        /// DepthStencilView.
        DepthStencilView = 31,
        /// Texture2DMS.
        Texture2DMs = 32,
        /// Texture2DMSArray.
        Texture2DMsArray = 33,
        /// TextureCubeArray.
        TextureCubeArray = 34,
        /// HullShader.
        HullShader = 35,
        /// DomainShader.
        DomainShader = 36,
        /// Interface pointer.
        InterfacePointer = 37,
        /// ComputeShader.
        ComputeShader = 38,
        /// double.
        Double = 39,
        /// RWTexture1D.
        RwTexture1D = 40,
        /// RWTexture1DArray.
        RwTexture1DArray = 41,
        /// RWTexture2D.
        RwTexture2D = 42,
        /// RWTexture2DArray.
        RwTexture2DArray = 43,
        /// RWTexture3D.
        RwTexture3D = 44,
        /// RWBuffer.
        RwBuffer = 45,
        /// ByteAddressBuffer.
        ByteAddressBuffer = 46,
        /// RWByteAddressBuffer.
        RwByteAddressBuffer = 47,
        /// StructuredBuffer.
        StructuredBuffer = 48,
        /// RWStructuredBuffer.
        RwStructuredBuffer = 49,
        /// AppendStructuredBuffer.
        AppendStructuredBuffer = 50,
        /// ConsumeStructuredBuffer.
        ConsumeStructuredBuffer = 51,
        /// min8float.
        Min8Float = 52,
        /// min10float.
        Min10Float = 53,
        /// min16float.
        Min16Float = 54,
        /// min12int.
        Min12Int = 55,
        /// min16int.
        Min16Int = 56,
        /// min16uint.
        Min16Uint = 57,
        /// int16_t.
        Int16 = 58,
        /// uint16_t.
        Uint16 = 59,
        /// float16_t.
        Float16 = 60,
        /// int64_t.
        Int64 = 61,
        /// uint64_t.
        Uint64 = 62,
    }
}

/// `D3D_SVF_*` variable flags.
pub mod variable_flags {
    /// Packed by the user (`packoffset`).
    pub const USERPACKED: u32 = 1;
    /// Used by the shader.
    pub const USED: u32 = 2;
    /// An interface pointer.
    pub const INTERFACE_POINTER: u32 = 4;
    /// An interface parameter.
    pub const INTERFACE_PARAMETER: u32 = 8;
}

/// `D3D_SIF_*` resource-binding flags.
pub mod input_flags {
    /// Bound by the user (`register`).
    pub const USERPACKED: u32 = 1;
    /// A comparison sampler.
    pub const COMPARISON_SAMPLER: u32 = 2;
    /// Low bit of the component count minus one of a texture's return type.
    pub const TEXTURE_COMPONENT_0: u32 = 4;
    /// High bit of the component count minus one of a texture's return type.
    pub const TEXTURE_COMPONENT_1: u32 = 8;
    /// Not used by the shader.
    pub const UNUSED: u32 = 16;
}

/// Program type and version from the RDEF header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RdefTarget {
    /// Program type.
    pub program_type: ProgramType,
    /// Major shader model.
    pub major: u8,
    /// Minor shader model.
    pub minor: u8,
}

impl RdefTarget {
    fn from_u32(v: u32) -> Self {
        RdefTarget { minor: v as u8, major: (v >> 8) as u8, program_type: ProgramType::from((v >> 16) as u16) }
    }
    fn to_u32(self) -> u32 {
        u32::from(u16::from(self.program_type)) << 16 | u32::from(self.major) << 8 | u32::from(self.minor)
    }
}

/// The Shader Model 5 extension of the RDEF header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rd11Header {
    /// `RD11` for 5.0, the same four bytes reversed (`0x25441313`) for 5.1.
    pub magic: u32,
    /// Header size (60).
    pub header_size: u32,
    /// Constant-buffer record size (24).
    pub cbuffer_size: u32,
    /// Binding record size (32, or 40 with space and ID).
    pub binding_size: u32,
    /// Variable record size (40).
    pub variable_size: u32,
    /// Type record size (36).
    pub type_size: u32,
    /// Member record size (12).
    pub member_size: u32,
    /// Number of interface slots.
    pub interface_slots: u32,
}

impl Rd11Header {
    /// `RD11` as stored (Shader Model 5.0).
    pub const MAGIC_50: u32 = u32::from_le_bytes(*b"RD11");
    /// The magic of Shader Model 5.1 blobs (`13 13 44 25`).
    pub const MAGIC_51: u32 = 0x2544_1313;

    /// fxc's header for 5.0 (`with_space_id == false`) or 5.1.
    pub fn fxc(with_space_id: bool, interface_slots: u32) -> Self {
        Rd11Header {
            magic: if with_space_id { Self::MAGIC_51 } else { Self::MAGIC_50 },
            header_size: 60,
            cbuffer_size: 24,
            binding_size: if with_space_id { 40 } else { 32 },
            variable_size: 40,
            type_size: 36,
            member_size: 12,
            interface_slots,
        }
    }
}

/// A resource binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceBinding<'a> {
    /// Name.
    pub name: &'a str,
    /// Kind.
    pub input_type: ShaderInputType,
    /// Return type.
    pub return_type: ReturnType,
    /// Dimension.
    pub dimension: ResourceDimension,
    /// Sample count (multisampled textures), or `u32::MAX` / 0 when not applicable;
    /// for structured buffers the element stride.
    pub num_samples: u32,
    /// First register.
    pub bind_point: u32,
    /// Number of registers (0 for unbounded arrays).
    pub bind_count: u32,
    /// `D3D_SIF_*` flags, see [`input_flags`].
    pub flags: u32,
    /// Register space (5.1 layout only; 0 otherwise).
    pub space: u32,
    /// Range ID (5.1 layout only; 0 otherwise).
    pub id: u32,
}

/// A structure member.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Member<'a> {
    /// Name.
    pub name: &'a str,
    /// Byte offset inside the structure.
    pub offset: u32,
    /// Type.
    pub ty: ShaderType<'a>,
}

/// A variable's type (recursive through members and the subtype).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShaderType<'a> {
    /// Class.
    pub class: VariableClass,
    /// Base type.
    pub base: VariableType,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (0 when not an array).
    pub elements: u16,
    /// Structure members.
    pub members: Vec<Member<'a>>,
    /// Type name (Shader Model 5 layouts only).
    pub name: Option<&'a str>,
    /// The type an interface pointer points to (Shader Model 5 layouts only).
    pub subtype: Option<Box<ShaderType<'a>>>,
    /// Three words after the subtype offset whose meaning is not established (zero in
    /// every corpus blob); kept as stored. Shader Model 5 layouts only.
    pub reserved: [u32; 3],
}

/// A variable of a constant buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable<'a> {
    /// Name.
    pub name: &'a str,
    /// Byte offset inside the buffer.
    pub start_offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SVF_*` flags, see [`variable_flags`].
    pub flags: u32,
    /// Type.
    pub ty: ShaderType<'a>,
    /// Default value bytes (`size` bytes), if the variable has one.
    pub default_value: Option<&'a [u8]>,
    /// First texture slot (SM5 layouts; `u32::MAX` when none).
    pub start_texture: u32,
    /// Texture slots (SM5 layouts).
    pub texture_size: u32,
    /// First sampler slot (SM5 layouts; `u32::MAX` when none).
    pub start_sampler: u32,
    /// Sampler slots (SM5 layouts).
    pub sampler_size: u32,
}

/// A constant buffer (or tbuffer, interface pointer block, structured-buffer layout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantBuffer<'a> {
    /// Name.
    pub name: &'a str,
    /// Variables.
    pub variables: Vec<Variable<'a>>,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SHADER_CBUFFER_FLAGS` (1 = user packed).
    pub flags: u32,
    /// Kind.
    pub kind: CbufferType,
}

/// A decoded `RDEF` chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rdef<'a> {
    /// Program type and version.
    pub target: RdefTarget,
    /// Compile flags (`D3DCOMPILE_*`).
    pub flags: u32,
    /// Creator string (`Microsoft (R) HLSL Shader Compiler 10.1`).
    pub creator: &'a str,
    /// The Shader Model 5 header extension; `None` for the Shader Model 4 layout.
    pub rd11: Option<Rd11Header>,
    /// Constant buffers in chunk order.
    pub constant_buffers: Vec<ConstantBuffer<'a>>,
    /// Resource bindings in chunk order.
    pub bindings: Vec<ResourceBinding<'a>>,
    /// The original layout when it differs from the one [`Rdef::to_bytes`] would choose.
    pub raw_layout: Option<RawLayout<'a>>,
}

const SM4_HEADER: usize = 28;
use crate::limits::{MAX_RDEF_TYPE_DEPTH as MAX_TYPE_DEPTH, MAX_RDEF_TYPE_NODES as MAX_TYPE_NODES};

struct Sizes {
    binding: usize,
    variable: usize,
    ty: usize,
    space_id: bool,
    sm5: bool,
}

impl Rdef<'_> {
    fn sizes(&self) -> Sizes {
        match &self.rd11 {
            Some(h) => Sizes {
                binding: if h.binding_size == 40 { 40 } else { 32 },
                variable: 40,
                ty: 36,
                space_id: h.binding_size == 40,
                sm5: true,
            },
            None => Sizes { binding: 32, variable: 24, ty: 16, space_id: false, sm5: false },
        }
    }
}

struct Decoder<'a, 'd> {
    b: Bytes<'a>,
    log: &'d mut LayoutLog,
    sm5: bool,
    type_size: usize,
    nodes: usize,
}

impl<'a> Decoder<'a, '_> {
    fn string(&mut self, field: usize, off: u32) -> Result<&'a str> {
        let (s, len) = self.b.cstr(field, off)?;
        self.log.mark(off as usize, len);
        self.log.offset(off);
        Ok(s)
    }

    fn ty(&mut self, field: usize, off: u32, depth: usize) -> Result<ShaderType<'a>> {
        self.nodes = self.nodes.saturating_add(1);
        if depth > MAX_TYPE_DEPTH || self.nodes > MAX_TYPE_NODES {
            return Err(Error::Invalid { offset: field, what: "type nesting (cyclic or too deep)", value: off as u64 });
        }
        self.log.offset(off);
        let at = self.b.array(field, off, 1, self.type_size, "type")?;
        self.log.mark(at, self.type_size);
        let b = self.b;
        let member_count = b.u16(at.saturating_add(10), "member count")?;
        let member_off = b.u32(at.saturating_add(12), "member offset")?;
        self.log.offset(member_off);
        let (mut name, mut subtype, mut reserved) = (None, None, [0; 3]);
        if self.sm5 {
            let sub_off = b.u32(at.saturating_add(16), "subtype offset")?;
            reserved = [
                b.u32(at.saturating_add(20), "type")?,
                b.u32(at.saturating_add(24), "type")?,
                b.u32(at.saturating_add(28), "type")?,
            ];
            let name_off = b.u32(at.saturating_add(32), "type name offset")?;
            self.log.offset(sub_off);
            if sub_off != 0 {
                subtype = Some(Box::new(self.ty(at.saturating_add(16), sub_off, depth.saturating_add(1))?));
            }
            if name_off != 0 {
                name = Some(self.string(at.saturating_add(32), name_off)?);
            }
            self.log.offset(name_off);
        }
        let mut members = Vec::new();
        if member_count > 0 {
            let m_at = b.array(at.saturating_add(12), member_off, member_count as u32, 12, "members")?;
            self.log.mark(m_at, (member_count as usize).saturating_mul(12));
            for i in 0..member_count as usize {
                let f = m_at.saturating_add(i.saturating_mul(12));
                let name = self.string(f, b.u32(f, "member name offset")?)?;
                let ty_off = b.u32(f.saturating_add(4), "member type offset")?;
                let ty = self.ty(f.saturating_add(4), ty_off, depth.saturating_add(1))?;
                members.push(Member { name, offset: b.u32(f.saturating_add(8), "member offset")?, ty });
            }
        }
        Ok(ShaderType {
            class: b.u16(at, "type class")?.into(),
            base: b.u16(at.saturating_add(2), "base type")?.into(),
            rows: b.u16(at.saturating_add(4), "rows")?,
            columns: b.u16(at.saturating_add(6), "columns")?,
            elements: b.u16(at.saturating_add(8), "elements")?,
            members,
            name,
            subtype,
            reserved,
        })
    }
}

impl<'a> Rdef<'a> {
    /// Decodes an `RDEF` chunk in any of its layouts, keeping its byte layout when it
    /// is not fxc's (so that [`Rdef::to_bytes`] gives `data` back).
    pub fn parse(data: &'a [u8]) -> Result<Rdef<'a>> {
        Rdef::parse_with(data, true)
    }

    /// Decodes the chunk's values only, for a reader: the same checks and errors as
    /// [`Rdef::parse`], without working out whether the bytes follow fxc's layout.
    /// [`Rdef::raw_layout`] is `None`, so [`Rdef::to_bytes`] writes fxc's layout, which
    /// may differ from `data`.
    pub fn parse_fields(data: &'a [u8]) -> Result<Rdef<'a>> {
        Rdef::parse_with(data, false)
    }

    fn parse_with(data: &'a [u8], keep_layout: bool) -> Result<Rdef<'a>> {
        let b = Bytes::new(data);
        let cb_count = b.u32(0, "constant buffer count")?;
        let cb_off = b.u32(4, "constant buffer offset")?;
        let rb_count = b.u32(8, "binding count")?;
        let rb_off = b.u32(12, "binding offset")?;
        let target = RdefTarget::from_u32(b.u32(16, "target")?);
        let flags = b.u32(20, "compile flags")?;
        let creator_off = b.u32(24, "creator offset")?;
        let mut log = LayoutLog::new(data.len(), keep_layout);
        log.offset(cb_off);
        log.offset(rb_off);
        let rd11 = if target.major >= 5 {
            let w = |i: usize| b.u32(SM4_HEADER.saturating_add(i.saturating_mul(4)), "RD11 header");
            let h = Rd11Header {
                magic: w(0)?,
                header_size: w(1)?,
                cbuffer_size: w(2)?,
                binding_size: w(3)?,
                variable_size: w(4)?,
                type_size: w(5)?,
                member_size: w(6)?,
                interface_slots: w(7)?,
            };
            let checks = [
                (4, h.header_size, &[60][..], "RD11 header size"),
                (8, h.cbuffer_size, &[24], "RD11 constant buffer record size"),
                (12, h.binding_size, &[32, 40], "RD11 binding record size"),
                (16, h.variable_size, &[40], "RD11 variable record size"),
                (20, h.type_size, &[36], "RD11 type record size"),
                (24, h.member_size, &[12], "RD11 member record size"),
            ];
            for (rel, v, ok, what) in checks {
                if !ok.contains(&v) {
                    return Err(Error::Invalid { offset: SM4_HEADER.saturating_add(rel), what, value: v as u64 });
                }
            }
            log.mark(0, 60);
            Some(h)
        } else {
            log.mark(0, SM4_HEADER);
            None
        };
        let mut rdef = Rdef {
            target,
            flags,
            creator: "",
            rd11,
            constant_buffers: Vec::new(),
            bindings: Vec::new(),
            raw_layout: None,
        };
        let sizes = rdef.sizes();
        let mut d = Decoder { b, log: &mut log, sm5: sizes.sm5, type_size: sizes.ty, nodes: 0 };
        rdef.creator = d.string(24, creator_off)?;

        let rb_at = b.array(12, rb_off, rb_count, sizes.binding, "bindings")?;
        d.log.mark(rb_at, (rb_count as usize).saturating_mul(sizes.binding));
        for i in 0..rb_count as usize {
            let at = rb_at.saturating_add(i.saturating_mul(sizes.binding));
            let name = d.string(at, b.u32(at, "binding name offset")?)?;
            let (space, id) = if sizes.space_id {
                (b.u32(at.saturating_add(32), "binding space")?, b.u32(at.saturating_add(36), "binding ID")?)
            } else {
                (0, 0)
            };
            rdef.bindings.push(ResourceBinding {
                name,
                input_type: b.u32(at.saturating_add(4), "binding type")?.into(),
                return_type: b.u32(at.saturating_add(8), "binding return type")?.into(),
                dimension: b.u32(at.saturating_add(12), "binding dimension")?.into(),
                num_samples: b.u32(at.saturating_add(16), "binding sample count")?,
                bind_point: b.u32(at.saturating_add(20), "bind point")?,
                bind_count: b.u32(at.saturating_add(24), "bind count")?,
                flags: b.u32(at.saturating_add(28), "binding flags")?,
                space,
                id,
            });
        }

        let cb_at = b.array(4, cb_off, cb_count, 24, "constant buffers")?;
        d.log.mark(cb_at, (cb_count as usize).saturating_mul(24));
        for i in 0..cb_count as usize {
            let at = cb_at.saturating_add(i.saturating_mul(24));
            let name = d.string(at, b.u32(at, "constant buffer name offset")?)?;
            let var_count = b.u32(at.saturating_add(4), "variable count")?;
            let var_off = b.u32(at.saturating_add(8), "variable offset")?;
            d.log.offset(var_off);
            let v_at = b.array(at.saturating_add(8), var_off, var_count, sizes.variable, "variables")?;
            d.log.mark(v_at, (var_count as usize).saturating_mul(sizes.variable));
            let mut variables = Vec::with_capacity(var_count as usize);
            for j in 0..var_count as usize {
                let f = v_at.saturating_add(j.saturating_mul(sizes.variable));
                let name = d.string(f, b.u32(f, "variable name offset")?)?;
                let size = b.u32(f.saturating_add(8), "variable size")?;
                let ty_off = b.u32(f.saturating_add(16), "variable type offset")?;
                let ty = d.ty(f.saturating_add(16), ty_off, 0)?;
                let def_off = b.u32(f.saturating_add(20), "default value offset")?;
                d.log.offset(def_off);
                let default_value = if def_off != 0 {
                    let s = b.array(f.saturating_add(20), def_off, 1, size as usize, "default value")?;
                    d.log.mark(s, size as usize);
                    Some(b.slice(s, size as usize, "default value")?)
                } else {
                    None
                };
                let (st, ts, ss, sz) = if sizes.sm5 {
                    (
                        b.u32(f.saturating_add(24), "variable")?,
                        b.u32(f.saturating_add(28), "variable")?,
                        b.u32(f.saturating_add(32), "variable")?,
                        b.u32(f.saturating_add(36), "variable")?,
                    )
                } else {
                    (u32::MAX, 0, u32::MAX, 0)
                };
                variables.push(Variable {
                    name,
                    start_offset: b.u32(f.saturating_add(4), "variable start offset")?,
                    size,
                    flags: b.u32(f.saturating_add(12), "variable flags")?,
                    ty,
                    default_value,
                    start_texture: st,
                    texture_size: ts,
                    start_sampler: ss,
                    sampler_size: sz,
                });
            }
            rdef.constant_buffers.push(ConstantBuffer {
                name,
                variables,
                size: b.u32(at.saturating_add(12), "constant buffer size")?,
                flags: b.u32(at.saturating_add(16), "constant buffer flags")?,
                kind: b.u32(at.saturating_add(20), "constant buffer type")?.into(),
            });
        }
        if keep_layout && rdef.fresh_bytes() != data {
            rdef.raw_layout = Some(log.into_layout(data));
        }
        Ok(rdef)
    }

    /// Serialises the chunk: in its original layout if it has one that still fits,
    /// else in fxc's layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        if let Some(raw) = &self.raw_layout {
            if let Some(bytes) = self.raw_bytes(raw) {
                return bytes;
            }
        }
        self.fresh_bytes()
    }

    /// The serialisation in fxc's layout, ignoring any recorded original layout.
    pub fn fresh_bytes(&self) -> Vec<u8> {
        FreshWriter::new(self).write()
    }

    fn header_words(&self, cb_off: u32, rb_off: u32, creator_off: u32) -> Vec<u32> {
        let mut w = vec![
            self.constant_buffers.len() as u32,
            cb_off,
            self.bindings.len() as u32,
            rb_off,
            self.target.to_u32(),
            self.flags,
            creator_off,
        ];
        if let Some(h) = &self.rd11 {
            w.extend([
                h.magic,
                h.header_size,
                h.cbuffer_size,
                h.binding_size,
                h.variable_size,
                h.type_size,
                h.member_size,
                h.interface_slots,
            ]);
        }
        w
    }

    fn binding_record(&self, r: &ResourceBinding<'_>, name_off: u32) -> Vec<u8> {
        let mut words = vec![
            name_off,
            r.input_type.into(),
            r.return_type.into(),
            r.dimension.into(),
            r.num_samples,
            r.bind_point,
            r.bind_count,
            r.flags,
        ];
        if self.sizes().space_id {
            words.extend([r.space, r.id]);
        }
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn variable_record(&self, v: &Variable<'_>, name_off: u32, ty_off: u32, def_off: u32) -> Vec<u8> {
        let mut words = vec![name_off, v.start_offset, v.size, v.flags, ty_off, def_off];
        if self.sizes().sm5 {
            words.extend([v.start_texture, v.texture_size, v.start_sampler, v.sampler_size]);
        }
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn type_record(&self, t: &ShaderType<'_>, member_off: u32, sub_off: u32, name_off: u32) -> Vec<u8> {
        let mut out = Vec::with_capacity(36);
        let halves = [u16::from(t.class), u16::from(t.base), t.rows, t.columns, t.elements, t.members.len() as u16];
        halves.iter().for_each(|h| out.extend_from_slice(&h.to_le_bytes()));
        out.extend_from_slice(&member_off.to_le_bytes());
        if self.sizes().sm5 {
            for w in [sub_off, t.reserved[0], t.reserved[1], t.reserved[2], name_off] {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    fn raw_bytes(&self, raw: &RawLayout<'_>) -> Option<Vec<u8>> {
        let mut c = Canvas::new(raw.size);
        let mut o = Offsets::new(&raw.offsets);
        let (cb_off, rb_off) = (o.next(), o.next());
        let creator_off = o.next();
        c.cstr(creator_off as usize, self.creator);
        for (i, w) in self.header_words(cb_off, rb_off, creator_off).into_iter().enumerate() {
            c.u32(i.saturating_mul(4), w);
        }
        let sizes = self.sizes();
        for (i, r) in self.bindings.iter().enumerate() {
            let name_off = o.next();
            c.cstr(name_off as usize, r.name);
            c.put((rb_off as usize).checked_add(i.saturating_mul(sizes.binding))?, &self.binding_record(r, name_off));
        }
        for (i, cb) in self.constant_buffers.iter().enumerate() {
            let name_off = o.next();
            c.cstr(name_off as usize, cb.name);
            let var_off = o.next();
            let mut rec = Vec::with_capacity(24);
            for w in [name_off, cb.variables.len() as u32, var_off, cb.size, cb.flags, cb.kind.into()] {
                rec.extend_from_slice(&w.to_le_bytes());
            }
            c.put((cb_off as usize).checked_add(i.saturating_mul(24))?, &rec);
            for (j, v) in cb.variables.iter().enumerate() {
                let name_off = o.next();
                c.cstr(name_off as usize, v.name);
                let ty_off = self.raw_type(&mut c, &mut o, &v.ty, 0)?;
                let def_off = o.next();
                match v.default_value {
                    Some(d) if def_off != 0 && d.len() == v.size as usize => c.put(def_off as usize, d),
                    None if def_off == 0 => {}
                    _ => return None,
                }
                let at = (var_off as usize).checked_add(j.saturating_mul(sizes.variable))?;
                c.put(at, &self.variable_record(v, name_off, ty_off, def_off));
            }
        }
        if !o.done() {
            return None;
        }
        c.finish(&raw.gaps)
    }

    fn raw_type(&self, c: &mut Canvas, o: &mut Offsets<'_>, t: &ShaderType<'_>, depth: usize) -> Option<u32> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let off = o.next();
        let member_off = o.next();
        let mut sub_off = 0;
        let mut name_off = 0;
        if self.sizes().sm5 {
            sub_off = o.next();
            match (&t.subtype, sub_off) {
                (Some(s), 1..) => {
                    self.raw_type(c, o, s, depth.saturating_add(1))?;
                }
                (None, 0) => {}
                _ => return None,
            }
            if let Some(n) = t.name {
                let n_off = o.next();
                c.cstr(n_off as usize, n);
                name_off = n_off;
            }
            if o.next() != name_off {
                return None;
            }
        } else if t.name.is_some() || t.subtype.is_some() {
            return None;
        }
        for (i, m) in t.members.iter().enumerate() {
            let m_name = o.next();
            c.cstr(m_name as usize, m.name);
            let m_ty = self.raw_type(c, o, &m.ty, depth.saturating_add(1))?;
            let mut rec = [0u8; 12];
            rec[0..4].copy_from_slice(&m_name.to_le_bytes());
            rec[4..8].copy_from_slice(&m_ty.to_le_bytes());
            rec[8..12].copy_from_slice(&m.offset.to_le_bytes());
            c.put((member_off as usize).checked_add(i.saturating_mul(12))?, &rec);
        }
        c.put(off as usize, &self.type_record(t, member_off, sub_off, name_off));
        Some(off)
    }
}

/// fxc's RDEF layout: header; binding records; binding names; constant-buffer
/// records; constant-buffer names; then per constant buffer its variable records
/// followed, per variable, by its name, its type (depth first: type name, subtype,
/// then per member its name and type, then the member records and the type record)
/// and its default value; finally the creator string. Strings, types and default
/// values are written once and shared (array types excepted: fxc makes one per
/// declaration); records start on 4-byte boundaries, gaps are
/// filled with 0xAB. The constant-buffer offset is 0 when there are none.
struct FreshWriter<'r, 'a> {
    rdef: &'r Rdef<'a>,
    w: Writer,
    strings: HashMap<&'a str, u32>,
    types: HashMap<&'r ShaderType<'a>, u32>,
    defaults: Vec<(&'a [u8], u32)>,
}

impl<'r, 'a> FreshWriter<'r, 'a> {
    fn new(rdef: &'r Rdef<'a>) -> Self {
        FreshWriter { rdef, w: Writer::default(), strings: HashMap::new(), types: HashMap::new(), defaults: Vec::new() }
    }

    fn string(&mut self, s: &'a str) -> u32 {
        if let Some(&off) = self.strings.get(s) {
            return off;
        }
        let off = self.w.pos();
        self.w.cstr(s);
        self.strings.insert(s, off);
        off
    }

    fn ty(&mut self, t: &'r ShaderType<'a>) -> u32 {
        // fxc shares one record per type object; array types are made per declaration.
        if t.elements == 0 {
            if let Some(&off) = self.types.get(t) {
                return off;
            }
        }
        let sm5 = self.rdef.rd11.is_some();
        let name_off = match t.name {
            Some(n) if sm5 => self.string(n),
            _ => 0,
        };
        let sub_off = match &t.subtype {
            Some(s) if sm5 => self.ty(s),
            _ => 0,
        };
        let mut member_recs = Vec::with_capacity(t.members.len());
        for m in &t.members {
            let n = self.string(m.name);
            let ty = self.ty(&m.ty);
            member_recs.push((n, ty, m.offset));
        }
        self.w.align4();
        let member_off =
            if !t.members.is_empty() || matches!(t.class, VariableClass::Struct | VariableClass::InterfaceClass) {
                self.w.pos()
            } else {
                0
            };
        for (n, ty, off) in member_recs {
            self.w.u32(n);
            self.w.u32(ty);
            self.w.u32(off);
        }
        let off = self.w.pos();
        let rec = self.rdef.type_record(t, member_off, sub_off, name_off);
        self.w.bytes(&rec);
        if t.elements == 0 {
            self.types.insert(t, off);
        }
        off
    }

    fn write(mut self) -> Vec<u8> {
        let rdef = self.rdef;
        let sizes = rdef.sizes();
        let header_len = if rdef.rd11.is_some() { 60 } else { SM4_HEADER };
        self.w.reserve(header_len);
        let rb_off = self.w.pos();
        let rb_at = self.w.reserve(rdef.bindings.len().saturating_mul(sizes.binding));
        let mut names = Vec::with_capacity(rdef.bindings.len());
        for r in &rdef.bindings {
            names.push(self.string(r.name));
        }
        for (i, (r, n)) in rdef.bindings.iter().zip(names).enumerate() {
            let rec = rdef.binding_record(r, n);
            let at = rb_at.saturating_add(i.saturating_mul(sizes.binding));
            write_at(&mut self.w.buf, at, &rec);
        }
        let cb_off = if rdef.constant_buffers.is_empty() {
            0
        } else {
            self.w.align4();
            self.w.pos()
        };
        let cb_at = self.w.reserve(rdef.constant_buffers.len().saturating_mul(24));
        let mut cb_names = Vec::with_capacity(rdef.constant_buffers.len());
        for cb in &rdef.constant_buffers {
            cb_names.push(self.string(cb.name));
        }
        for (i, (cb, &cb_name)) in rdef.constant_buffers.iter().zip(&cb_names).enumerate() {
            self.w.align4();
            let var_off = self.w.pos();
            let var_at = self.w.reserve(cb.variables.len().saturating_mul(sizes.variable));
            for (j, v) in cb.variables.iter().enumerate() {
                let name_off = self.string(v.name);
                let ty_off = self.ty(&v.ty);
                let def_off = match v.default_value {
                    Some(d) => match self.defaults.iter().find(|(k, _)| *k == d) {
                        Some(&(_, off)) => off,
                        None => {
                            self.w.align4();
                            let off = self.w.pos();
                            self.w.bytes(d);
                            self.defaults.push((d, off));
                            off
                        }
                    },
                    None => 0,
                };
                let rec = rdef.variable_record(v, name_off, ty_off, def_off);
                let at = var_at.saturating_add(j.saturating_mul(sizes.variable));
                write_at(&mut self.w.buf, at, &rec);
            }
            let at = cb_at.saturating_add(i.saturating_mul(24));
            let words = [cb_name, cb.variables.len() as u32, var_off, cb.size, cb.flags, cb.kind.into()];
            for (k, v) in words.into_iter().enumerate() {
                self.w.set_u32(at.saturating_add(k.saturating_mul(4)), v);
            }
        }
        let creator_off = self.string(rdef.creator);
        self.w.align4();
        for (i, v) in rdef.header_words(cb_off, rb_off, creator_off).into_iter().enumerate() {
            self.w.set_u32(i.saturating_mul(4), v);
        }
        self.w.buf
    }
}
