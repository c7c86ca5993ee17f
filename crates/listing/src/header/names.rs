//! The listing's names for the chunks' values, one table per mapping: the header
//! printer ([`crate::header`]) looks up the name of a value, the header reader
//! ([`crate::reflect`]) the value of a name, in the same rows.

use dxbc::rdef::{
    input_flags, CbufferType, ProgramType as RdefProgramType, ResourceDimension, ReturnType, ShaderInputType,
    VariableType,
};
use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
use tpf::ProgramType;

/// Values and the names the listing prints for them, read both ways.
pub(crate) struct Names<T: 'static>(pub &'static [(T, &'static str)]);

impl<T: Copy + PartialEq> Names<T> {
    /// The name of `value`, if the table has one.
    pub fn name(&self, value: T) -> Option<&'static str> {
        self.0.iter().find(|(v, _)| *v == value).map(|&(_, n)| n)
    }

    /// The value named `name`.
    pub fn value(&self, name: &str) -> Option<T> {
        self.0.iter().find(|(_, n)| *n == name).map(|&(v, _)| v)
    }

    /// The value named `name`, ignoring ASCII case.
    pub fn value_ignoring_case(&self, name: &str) -> Option<T> {
        self.0.iter().find(|(_, n)| n.eq_ignore_ascii_case(name)).map(|&(v, _)| v)
    }

    /// The rows, in the table's order.
    pub fn rows(&self) -> impl Iterator<Item = (T, &'static str)> {
        self.0.iter().copied()
    }
}

// ---------------------------------------------------------------------------------
// Signatures.

/// The SysValue column's abbreviations. A value missing here prints as `UNKNOWN`.
pub(crate) const SYSTEM_VALUES: Names<SystemValue> = Names(&[
    (SystemValue::Undefined, "NONE"),
    (SystemValue::Position, "POS"),
    (SystemValue::ClipDistance, "CLIPDST"),
    (SystemValue::CullDistance, "CULLDST"),
    (SystemValue::RenderTargetArrayIndex, "RTINDEX"),
    (SystemValue::ViewportArrayIndex, "VPINDEX"),
    (SystemValue::VertexId, "VERTID"),
    (SystemValue::PrimitiveId, "PRIMID"),
    (SystemValue::InstanceId, "INSTID"),
    (SystemValue::IsFrontFace, "FFACE"),
    (SystemValue::SampleIndex, "SAMPLE"),
    (SystemValue::FinalQuadEdgeTessFactor, "QUADEDGE"),
    (SystemValue::FinalQuadInsideTessFactor, "QUADINT"),
    (SystemValue::FinalTriEdgeTessFactor, "TRIEDGE"),
    (SystemValue::FinalTriInsideTessFactor, "TRIINT"),
    (SystemValue::FinalLineDetailTessFactor, "LINEDET"),
    (SystemValue::FinalLineDensityTessFactor, "LINEDEN"),
    (SystemValue::Barycentrics, "BARYCEN"),
    (SystemValue::ShadingRate, "SHDINGRT"),
    (SystemValue::CullPrimitive, "CULLPRIM"),
    (SystemValue::Target, "TARGET"),
    (SystemValue::Depth, "DEPTH"),
    (SystemValue::Coverage, "COVERAGE"),
    (SystemValue::DepthGreaterEqual, "DEPTHGE"),
    (SystemValue::DepthLessEqual, "DEPTHLE"),
    (SystemValue::StencilRef, "STENCILREF"),
    (SystemValue::InnerCoverage, "INNERCOV"),
]);

/// The semantics of pixel-shader outputs that imply a system value. fxc stores none for
/// them in the chunk; the SysValue column follows the semantic name (in any case).
pub(crate) const PIXEL_OUTPUTS: Names<SystemValue> = Names(&[
    (SystemValue::Target, "SV_Target"),
    (SystemValue::Depth, "SV_Depth"),
    (SystemValue::DepthGreaterEqual, "SV_DepthGreaterEqual"),
    (SystemValue::DepthLessEqual, "SV_DepthLessEqual"),
    (SystemValue::Coverage, "SV_Coverage"),
    (SystemValue::StencilRef, "SV_StencilRef"),
]);

/// The system value a pixel-shader output's semantic name implies (`Undefined` for
/// other names).
pub(crate) fn pixel_output_system_value(semantic: &str) -> SystemValue {
    PIXEL_OUTPUTS.value_ignoring_case(semantic).unwrap_or(SystemValue::Undefined)
}

/// The Mask column of elements without a register number, and their Register column
/// unless [`NAMED_REGISTERS`] names it.
pub(crate) const NOT_APPLICABLE: &str = "N/A";

/// The Register column of elements without a register number, by system value.
pub(crate) const NAMED_REGISTERS: Names<SystemValue> = Names(&[
    (SystemValue::Depth, "oDepth"),
    (SystemValue::DepthGreaterEqual, "oDepthGE"),
    (SystemValue::DepthLessEqual, "oDepthLE"),
    (SystemValue::Coverage, "oMask"),
    (SystemValue::StencilRef, "oStencilRef"),
    // A geometry shader's `SV_PrimitiveID` input is the `vPrim` register, which
    // d3dcompiler_47 names `primID` in this column.
    (SystemValue::PrimitiveId, "primID"),
]);

/// The Format column: component type and minimum precision. A minimum precision names
/// the format whatever the component type; reading one gives the component type fxc
/// pairs with it (`any16` and `any10` are not in the corpus: their component type is a
/// guess).
pub(crate) const FORMATS: Names<(ComponentType, MinPrecision)> = Names(&[
    ((ComponentType::Float32, MinPrecision::Default), "float"),
    ((ComponentType::Uint32, MinPrecision::Default), "uint"),
    ((ComponentType::Sint32, MinPrecision::Default), "int"),
    ((ComponentType::Unknown0, MinPrecision::Default), "unknown"),
    ((ComponentType::Float32, MinPrecision::Float16), "min16f"),
    ((ComponentType::Float32, MinPrecision::Float2_8), "min2_8f"),
    ((ComponentType::Sint32, MinPrecision::Sint16), "min16i"),
    ((ComponentType::Uint32, MinPrecision::Uint16), "min16u"),
    ((ComponentType::Unknown0, MinPrecision::Any16), "any16"),
    ((ComponentType::Unknown0, MinPrecision::Any10), "any10"),
]);

/// The Format column for an element: its minimum precision's name if it has one, else
/// its component type's (`unknown` for types without a name).
pub(crate) fn format_name(component_type: ComponentType, min_precision: MinPrecision) -> &'static str {
    let by_precision = FORMATS.rows().find(|((_, p), _)| *p != MinPrecision::Default && *p == min_precision);
    match by_precision {
        Some((_, name)) => name,
        None => FORMATS.name((component_type, MinPrecision::Default)).unwrap_or("unknown"),
    }
}

// ---------------------------------------------------------------------------------
// Buffer definitions.

/// The word that opens a buffer's block (`// cbuffer NAME`); unknown kinds print as
/// `cbuffer`.
pub(crate) const BUFFER_KINDS: Names<CbufferType> = Names(&[
    (CbufferType::CBuffer, "cbuffer"),
    (CbufferType::TBuffer, "tbuffer"),
    (CbufferType::InterfacePointers, "interfaces"),
    (CbufferType::ResourceBindInfo, "Resource bind info for"),
]);

/// The HLSL spellings of base types, as declarations print them; a type missing here
/// prints as `<unknown>`.
pub(crate) const BASE_TYPES: Names<VariableType> = Names(&[
    (VariableType::Void, "void"),
    (VariableType::Bool, "bool"),
    (VariableType::Int, "int"),
    (VariableType::Float, "float"),
    (VariableType::String, "string"),
    (VariableType::Texture, "texture"),
    (VariableType::Texture1D, "Texture1D"),
    (VariableType::Texture2D, "Texture2D"),
    (VariableType::Texture3D, "Texture3D"),
    (VariableType::TextureCube, "TextureCube"),
    (VariableType::Sampler, "sampler"),
    (VariableType::Sampler1D, "sampler1D"),
    (VariableType::Sampler2D, "sampler2D"),
    (VariableType::Sampler3D, "sampler3D"),
    (VariableType::SamplerCube, "samplerCUBE"),
    (VariableType::Uint, "uint"),
    (VariableType::Uint8, "uint8"),
    (VariableType::Buffer, "Buffer"),
    (VariableType::Texture1DArray, "Texture1DArray"),
    (VariableType::Texture2DArray, "Texture2DArray"),
    (VariableType::Texture2DMs, "Texture2DMS"),
    (VariableType::Texture2DMsArray, "Texture2DMSArray"),
    (VariableType::TextureCubeArray, "TextureCubeArray"),
    (VariableType::Double, "double"),
    (VariableType::RwTexture1D, "RWTexture1D"),
    (VariableType::RwTexture1DArray, "RWTexture1DArray"),
    (VariableType::RwTexture2D, "RWTexture2D"),
    (VariableType::RwTexture2DArray, "RWTexture2DArray"),
    (VariableType::RwTexture3D, "RWTexture3D"),
    (VariableType::RwBuffer, "RWBuffer"),
    (VariableType::ByteAddressBuffer, "ByteAddressBuffer"),
    (VariableType::RwByteAddressBuffer, "RWByteAddressBuffer"),
    (VariableType::StructuredBuffer, "StructuredBuffer"),
    (VariableType::RwStructuredBuffer, "RWStructuredBuffer"),
    (VariableType::AppendStructuredBuffer, "AppendStructuredBuffer"),
    (VariableType::ConsumeStructuredBuffer, "ConsumeStructuredBuffer"),
    (VariableType::Min8Float, "min8float"),
    (VariableType::Min10Float, "min10float"),
    (VariableType::Min16Float, "min16float"),
    (VariableType::Min12Int, "min12int"),
    (VariableType::Min16Int, "min16int"),
    (VariableType::Min16Uint, "min16uint"),
    (VariableType::Int16, "int16_t"),
    (VariableType::Uint16, "uint16_t"),
    (VariableType::Float16, "float16_t"),
    (VariableType::Int64, "int64_t"),
    (VariableType::Uint64, "uint64_t"),
]);

/// True for the base types that take vector and matrix dimensions (`float4x4`).
pub(crate) fn is_numeric(t: VariableType) -> bool {
    use VariableType as T;
    matches!(
        t,
        T::Bool
            | T::Int
            | T::Float
            | T::Uint
            | T::Uint8
            | T::Double
            | T::Min8Float
            | T::Min10Float
            | T::Min16Float
            | T::Min12Int
            | T::Min16Int
            | T::Min16Uint
            | T::Int16
            | T::Uint16
            | T::Float16
            | T::Int64
            | T::Uint64
    )
}

// ---------------------------------------------------------------------------------
// Resource bindings.

/// The Format and Dim columns of bindings that have no return type or dimension.
pub(crate) const NA: &str = "NA";
/// The Format column of structured buffers.
pub(crate) const STRUCT: &str = "struct";
/// The Format column of byte-address buffers.
pub(crate) const BYTE: &str = "byte";

/// How one kind of binding prints: its Type column, and the Format and Dim columns
/// where they do not come from the return type and dimension.
pub(crate) struct BindingKind {
    pub input_type: ShaderInputType,
    /// Binding flags the kind stands for (`sampler_c`: the comparison flag).
    pub flags: u32,
    pub kind: &'static str,
    pub format: Option<&'static str>,
    pub dim: Option<&'static str>,
}

const fn kind(
    input_type: ShaderInputType,
    kind: &'static str,
    format: Option<&'static str>,
    dim: Option<&'static str>,
) -> BindingKind {
    BindingKind { input_type, flags: 0, kind, format, dim }
}

/// The Type, Format and Dim columns of each kind of binding. Kinds missing here print
/// as `UAV` (`unknown` for undefined ones) with their return type and dimension.
pub(crate) const BINDING_KINDS: &[BindingKind] = {
    use ShaderInputType as S;
    &[
        kind(S::CBuffer, "cbuffer", Some(NA), Some(NA)),
        kind(S::TBuffer, "tbuffer", Some(NA), Some(NA)),
        BindingKind {
            input_type: S::Sampler,
            flags: input_flags::COMPARISON_SAMPLER,
            kind: "sampler_c",
            format: Some(NA),
            dim: Some(NA),
        },
        kind(S::Sampler, "sampler", Some(NA), Some(NA)),
        kind(S::Structured, "texture", Some(STRUCT), Some("r/o")),
        kind(S::ByteAddress, "texture", Some(BYTE), Some("r/o")),
        kind(S::Texture, "texture", None, None),
        kind(S::UavRwStructured, "UAV", Some(STRUCT), Some("r/w")),
        kind(S::UavRwByteAddress, "UAV", Some(BYTE), Some("r/w")),
        kind(S::UavAppendStructured, "UAV", Some(STRUCT), Some("append")),
        kind(S::UavConsumeStructured, "UAV", Some(STRUCT), Some("consume")),
        kind(S::UavRwStructuredWithCounter, "UAV", Some(STRUCT), Some("r/w+cnt")),
        kind(S::UavRwTyped, "UAV", None, None),
        kind(S::RtAccelerationStructure, "rtaccel", None, None),
    ]
};

/// How a binding of this input type and flags prints, if the table has its kind.
pub(crate) fn binding_kind(input_type: ShaderInputType, flags: u32) -> Option<&'static BindingKind> {
    BINDING_KINDS.iter().find(|k| k.input_type == input_type && flags & k.flags == k.flags)
}

/// The kind of binding a row's Type, Format and Dim columns print: the first kind with
/// that Type whose fixed columns match, else the first with that Type (the row's other
/// columns then read as a return type and dimension).
pub(crate) fn binding_kind_of(kind: &str, format: &str, dim: &str) -> Option<&'static BindingKind> {
    let mut same_type = BINDING_KINDS.iter().filter(|k| k.kind == kind);
    let first = same_type.clone().next();
    same_type.find(|k| k.format.is_none_or(|f| f == format) && k.dim.is_none_or(|d| d == dim)).or(first)
}

/// The Format column's return types (followed by the component count when above 1);
/// `NA` for none.
pub(crate) const RETURN_TYPES: Names<ReturnType> = Names(&[
    (ReturnType::Unorm, "unorm"),
    (ReturnType::Snorm, "snorm"),
    (ReturnType::Sint, "sint"),
    (ReturnType::Uint, "uint"),
    (ReturnType::Float, "float"),
    (ReturnType::Mixed, "mixed"),
    (ReturnType::Double, "double"),
    (ReturnType::Continued, "continued"),
]);

/// The Dim column's dimensions; the multisampled ones are followed by the sample count
/// in the `Slot Elements` layout.
pub(crate) const DIMENSIONS: Names<ResourceDimension> = Names(&[
    (ResourceDimension::Unknown0, NA),
    (ResourceDimension::Buffer, "buf"),
    (ResourceDimension::Texture1D, "1d"),
    (ResourceDimension::Texture1DArray, "1darray"),
    (ResourceDimension::Texture2D, "2d"),
    (ResourceDimension::Texture2DArray, "2darray"),
    (ResourceDimension::Texture2DMs, "2dMS"),
    (ResourceDimension::Texture2DMsArray, "2dMSarray"),
    (ResourceDimension::Texture3D, "3d"),
    (ResourceDimension::TextureCube, "cube"),
    (ResourceDimension::TextureCubeArray, "cubearray"),
    (ResourceDimension::BufferEx, "bufex"),
]);

/// d3dcompiler_47 6.3.9600's name for [`ResourceDimension::Texture2DMsArray`] in the Dim
/// column (`2darrayMS4`); the other compilers' is [`DIMENSIONS`]'s `2dMSarray`.
pub(crate) const TEXTURE2DMS_ARRAY_6_3: &str = "2darrayMS";

/// The dimensions printed with a sample count.
pub(crate) const MULTISAMPLED: [ResourceDimension; 2] =
    [ResourceDimension::Texture2DMs, ResourceDimension::Texture2DMsArray];

// ---------------------------------------------------------------------------------
// Shader stages.

/// The program chunk's stages and the RDEF target's codes for them.
const PROGRAM_TYPES: &[(ProgramType, RdefProgramType)] = &[
    (ProgramType::Pixel, RdefProgramType::Pixel),
    (ProgramType::Vertex, RdefProgramType::Vertex),
    (ProgramType::Geometry, RdefProgramType::Geometry),
    (ProgramType::Hull, RdefProgramType::Hull),
    (ProgramType::Domain, RdefProgramType::Domain),
    (ProgramType::Compute, RdefProgramType::Compute),
];

/// The RDEF target's code for a stage; an undefined stage keeps its raw number.
pub(crate) fn rdef_program_type(ty: ProgramType) -> RdefProgramType {
    PROGRAM_TYPES.iter().find(|(t, _)| *t == ty).map_or(RdefProgramType::Unknown(ty.raw()), |&(_, r)| r)
}

/// The stage an RDEF target names, if it names one (not an effect or an undefined code).
pub(crate) fn stage_of_rdef(ty: RdefProgramType) -> Option<ProgramType> {
    PROGRAM_TYPES.iter().find(|(_, r)| *r == ty).map(|&(t, _)| t)
}
