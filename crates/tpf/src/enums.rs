//! The enumerated fields of the token format, each a Rust enum with an `Unknown`
//! variant so that a value the format does not define is kept, not lost.

/// Declares a field enum with explicit values, an `Unknown(raw)` fallback, the raw
/// conversions, and the spelling fxc uses in listings (`None` where fxc has none).
macro_rules! field_enum {
    (
        $(#[$meta:meta])*
        $name:ident : $raw:ty {
            $( $(#[$vmeta:meta])* $variant:ident = $value:literal => $text:expr ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// A value the format does not define, kept as it was read.
            Unknown($raw),
        }

        impl $name {
            /// Every defined value, in the format's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// Decodes a raw field value.
            #[inline]
            pub const fn from_raw(raw: $raw) -> Self {
                match raw {
                    $( $value => $name::$variant, )*
                    other => $name::Unknown(other),
                }
            }

            /// The raw field value.
            #[inline]
            pub const fn raw(self) -> $raw {
                match self {
                    $( $name::$variant => $value, )*
                    $name::Unknown(v) => v,
                }
            }

            /// fxc's spelling in listings, if it has one.
            pub const fn listing_name(self) -> Option<&'static str> {
                match self {
                    $( $name::$variant => $text, )*
                    $name::Unknown(_) => None,
                }
            }

            /// The value whose listing spelling is `text`.
            pub fn from_listing_name(text: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.listing_name() == Some(text))
            }
        }
    };
}

field_enum! {
    /// Shader stage of a program (version token bits 31:16).
    ProgramType: u16 {
        /// `ps`: pixel shader.
        Pixel = 0 => Some("ps"),
        /// `vs`: vertex shader.
        Vertex = 1 => Some("vs"),
        /// `gs`: geometry shader.
        Geometry = 2 => Some("gs"),
        /// `hs`: hull shader.
        Hull = 3 => Some("hs"),
        /// `ds`: domain shader.
        Domain = 4 => Some("ds"),
        /// `cs`: compute shader.
        Compute = 5 => Some("cs"),
    }
}

field_enum! {
    /// Register file an operand refers to (operand token bits 19:12).
    OperandType: u8 {
        /// `r#`.
        Temp = 0 => Some("r"),
        /// `v#`.
        Input = 1 => Some("v"),
        /// `o#`.
        Output = 2 => Some("o"),
        /// `x#[i]`: an indexable temporary array.
        IndexableTemp = 3 => Some("x"),
        /// `l(...)`: 32-bit immediate values.
        Immediate32 = 4 => Some("l"),
        /// `d(...)`: 64-bit immediate values.
        Immediate64 = 5 => Some("d"),
        /// `s#`.
        Sampler = 6 => Some("s"),
        /// `t#`.
        Resource = 7 => Some("t"),
        /// `cb#`.
        ConstantBuffer = 8 => Some("cb"),
        /// `icb[i]`: the immediate constant buffer.
        ImmediateConstantBuffer = 9 => Some("icb"),
        /// `l#`: a label.
        Label = 10 => Some("l"),
        /// `vPrim`.
        InputPrimitiveId = 11 => Some("vPrim"),
        /// `oDepth`.
        OutputDepth = 12 => Some("oDepth"),
        /// `null`.
        Null = 13 => Some("null"),
        /// `rasterizer`.
        Rasterizer = 14 => Some("rasterizer"),
        /// `oMask`.
        OutputCoverageMask = 15 => Some("oMask"),
        /// `m#`: a geometry-shader output stream.
        Stream = 16 => Some("m"),
        /// `fb#`: a function body.
        FunctionBody = 17 => Some("fb"),
        /// `ft#`: a function table.
        FunctionTable = 18 => Some("ft"),
        /// `fp#`: an interface pointer.
        Interface = 19 => Some("fp"),
        /// `fi#`: a function input.
        FunctionInput = 20 => Some("fi"),
        /// `fo#`: a function output.
        FunctionOutput = 21 => Some("fo"),
        /// `vOutputControlPointID`.
        OutputControlPointId = 22 => Some("vOutputControlPointID"),
        /// `vForkInstanceID`.
        InputForkInstanceId = 23 => Some("vForkInstanceID"),
        /// `vJoinInstanceID`.
        InputJoinInstanceId = 24 => Some("vJoinInstanceID"),
        /// `vicp#`.
        InputControlPoint = 25 => Some("vicp"),
        /// `vocp#`.
        OutputControlPoint = 26 => Some("vocp"),
        /// `vpc#`.
        InputPatchConstant = 27 => Some("vpc"),
        /// `vDomain`.
        InputDomainPoint = 28 => Some("vDomain"),
        /// `this`.
        ThisPointer = 29 => Some("this"),
        /// `u#`: an unordered access view.
        UnorderedAccessView = 30 => Some("u"),
        /// `g#`: thread-group shared memory.
        ThreadGroupSharedMemory = 31 => Some("g"),
        /// `vThreadID`.
        InputThreadId = 32 => Some("vThreadID"),
        /// `vThreadGroupID`.
        InputThreadGroupId = 33 => Some("vThreadGroupID"),
        /// `vThreadIDInGroup`.
        InputThreadIdInGroup = 34 => Some("vThreadIDInGroup"),
        /// `vCoverage`.
        InputCoverageMask = 35 => Some("vCoverage"),
        /// `vThreadIDInGroupFlattened`.
        InputThreadIdInGroupFlattened = 36 => Some("vThreadIDInGroupFlattened"),
        /// `vGSInstanceID`.
        InputGsInstanceId = 37 => Some("vGSInstanceID"),
        /// `oDepthGE`.
        OutputDepthGreaterEqual = 38 => Some("oDepthGE"),
        /// `oDepthLE`.
        OutputDepthLessEqual = 39 => Some("oDepthLE"),
        /// `vCycleCounter`.
        CycleCounter = 40 => Some("vCycleCounter"),
        /// `oStencilRef`.
        OutputStencilRef = 41 => Some("oStencilRef"),
        /// `vInnerCoverage`.
        InnerCoverage = 42 => Some("vInnerCoverage"),
    }
}

field_enum! {
    /// Source modifier of an extended operand token (bits 13:6).
    Modifier: u8 {
        /// No modifier.
        None = 0 => Some(""),
        /// `-x`: negated.
        Neg = 1 => Some("-"),
        /// `|x|`: absolute value.
        Abs = 2 => Some("|"),
        /// `-|x|`: negated absolute value.
        AbsNeg = 3 => Some("-|"),
    }
}

field_enum! {
    /// Minimum precision of an operand (extended operand token bits 16:14).
    MinPrecision: u8 {
        /// `def32` in listings.
        Default = 0 => Some("def32"),
        /// `min16f` in listings.
        Float16 = 1 => Some("min16f"),
        /// `min2_8f` in listings.
        Float2_8 = 2 => Some("min2_8f"),
        /// `min16i` in listings.
        Sint16 = 4 => Some("min16i"),
        /// `min16u` in listings.
        Uint16 = 5 => Some("min16u"),
    }
}

field_enum! {
    /// Kind of an extended operand token (bits 5:0).
    ExtendedOperandKind: u8 {
        /// No extended operand data.
        Empty = 0 => None,
        /// A [`Modifier`], a [`MinPrecision`] and the non-uniform flag.
        Modifier = 1 => None,
    }
}

field_enum! {
    /// Kind of an extended opcode token (bits 5:0).
    ExtendedOpcodeKind: u8 {
        /// No extended opcode data.
        Empty = 0 => None,
        /// Immediate texel offsets (`(u,v,w)` after a sample mnemonic).
        SampleControls = 1 => None,
        /// The resource's dimension and structure stride.
        ResourceDim = 2 => None,
        /// The resource's return type per component.
        ResourceReturnType = 3 => None,
    }
}

field_enum! {
    /// Resource dimension (declarations and the resource-dimension extended opcode).
    ResourceDimension: u8 {
        /// `unknown` in listings.
        Undefined = 0 => Some("unknown"),
        /// `buffer` in listings.
        Buffer = 1 => Some("buffer"),
        /// `texture1d` in listings.
        Texture1D = 2 => Some("texture1d"),
        /// `texture2d` in listings.
        Texture2D = 3 => Some("texture2d"),
        /// `texture2dms` in listings.
        Texture2DMS = 4 => Some("texture2dms"),
        /// `texture3d` in listings.
        Texture3D = 5 => Some("texture3d"),
        /// `texturecube` in listings.
        TextureCube = 6 => Some("texturecube"),
        /// `texture1darray` in listings.
        Texture1DArray = 7 => Some("texture1darray"),
        /// `texture2darray` in listings.
        Texture2DArray = 8 => Some("texture2darray"),
        /// `texture2dmsarray` in listings.
        Texture2DMSArray = 9 => Some("texture2dmsarray"),
        /// `texturecubearray` in listings.
        TextureCubeArray = 10 => Some("texturecubearray"),
        /// `raw_buffer` in listings.
        RawBuffer = 11 => Some("raw_buffer"),
        /// `structured_buffer` in listings.
        StructuredBuffer = 12 => Some("structured_buffer"),
    }
}

field_enum! {
    /// Data type a resource returns, per component.
    ReturnType: u8 {
        /// `unorm` in listings.
        Unorm = 1 => Some("unorm"),
        /// `snorm` in listings.
        Snorm = 2 => Some("snorm"),
        /// `sint` in listings.
        Sint = 3 => Some("sint"),
        /// `uint` in listings.
        Uint = 4 => Some("uint"),
        /// `float` in listings.
        Float = 5 => Some("float"),
        /// `mixed` in listings.
        Mixed = 6 => Some("mixed"),
        /// `double` in listings.
        Double = 7 => Some("double"),
        /// `continued` in listings.
        Continued = 8 => Some("continued"),
        /// `unused` in listings.
        Unused = 9 => Some("unused"),
    }
}

field_enum! {
    /// Sampler mode of `dcl_sampler`.
    SamplerMode: u8 {
        /// `mode_default` in listings.
        Default = 0 => Some("mode_default"),
        /// `mode_comparison` in listings.
        Comparison = 1 => Some("mode_comparison"),
        /// `mode_mono` in listings.
        Mono = 2 => Some("mode_mono"),
    }
}

field_enum! {
    /// Access pattern of `dcl_constantbuffer`.
    CbAccessPattern: u8 {
        /// `immediateIndexed` in listings.
        ImmediateIndexed = 0 => Some("immediateIndexed"),
        /// `dynamicIndexed` in listings.
        DynamicIndexed = 1 => Some("dynamicIndexed"),
    }
}

field_enum! {
    /// Interpolation mode of `dcl_input_ps*`.
    InterpolationMode: u8 {
        /// `undefined` in listings.
        Undefined = 0 => Some("undefined"),
        /// `constant` in listings.
        Constant = 1 => Some("constant"),
        /// `linear` in listings.
        Linear = 2 => Some("linear"),
        /// `linear centroid` in listings.
        LinearCentroid = 3 => Some("linear centroid"),
        /// `linear noperspective` in listings.
        LinearNoPerspective = 4 => Some("linear noperspective"),
        /// `linear noperspective centroid` in listings.
        LinearNoPerspectiveCentroid = 5 => Some("linear noperspective centroid"),
        /// `linear sample` in listings.
        LinearSample = 6 => Some("linear sample"),
        /// `linear noperspective sample` in listings.
        LinearNoPerspectiveSample = 7 => Some("linear noperspective sample"),
    }
}

field_enum! {
    /// Geometry-shader output topology (`dcl_outputtopology`).
    PrimitiveTopology: u8 {
        /// `undefined` in listings.
        Undefined = 0 => Some("undefined"),
        /// `pointlist` in listings.
        PointList = 1 => Some("pointlist"),
        /// `linelist` in listings.
        LineList = 2 => Some("linelist"),
        /// `linestrip` in listings.
        LineStrip = 3 => Some("linestrip"),
        /// `trianglelist` in listings.
        TriangleList = 4 => Some("trianglelist"),
        /// `trianglestrip` in listings.
        TriangleStrip = 5 => Some("trianglestrip"),
        /// `linelistadj` in listings.
        LineListAdj = 10 => Some("linelistadj"),
        /// `linestripadj` in listings.
        LineStripAdj = 11 => Some("linestripadj"),
        /// `trianglelistadj` in listings.
        TriangleListAdj = 12 => Some("trianglelistadj"),
        /// `trianglestripadj` in listings.
        TriangleStripAdj = 13 => Some("trianglestripadj"),
    }
}

field_enum! {
    /// Geometry-shader input primitive (`dcl_inputprimitive`), or a patch.
    Primitive: u8 {
        /// `undefined` in listings.
        Undefined = 0 => Some("undefined"),
        /// `point` in listings.
        Point = 1 => Some("point"),
        /// `line` in listings.
        Line = 2 => Some("line"),
        /// `triangle` in listings.
        Triangle = 3 => Some("triangle"),
        /// `lineadj` in listings.
        LineAdj = 6 => Some("lineadj"),
        /// `triangleadj` in listings.
        TriangleAdj = 7 => Some("triangleadj"),
        /// `patch1`: a patch of 1 control point.
        Patch1 = 8 => Some("patch1"),
        /// `patch2`: a patch of 2 control points.
        Patch2 = 9 => Some("patch2"),
        /// `patch3`: a patch of 3 control points.
        Patch3 = 10 => Some("patch3"),
        /// `patch4`: a patch of 4 control points.
        Patch4 = 11 => Some("patch4"),
        /// `patch5`: a patch of 5 control points.
        Patch5 = 12 => Some("patch5"),
        /// `patch6`: a patch of 6 control points.
        Patch6 = 13 => Some("patch6"),
        /// `patch7`: a patch of 7 control points.
        Patch7 = 14 => Some("patch7"),
        /// `patch8`: a patch of 8 control points.
        Patch8 = 15 => Some("patch8"),
        /// `patch9`: a patch of 9 control points.
        Patch9 = 16 => Some("patch9"),
        /// `patch10`: a patch of 10 control points.
        Patch10 = 17 => Some("patch10"),
        /// `patch11`: a patch of 11 control points.
        Patch11 = 18 => Some("patch11"),
        /// `patch12`: a patch of 12 control points.
        Patch12 = 19 => Some("patch12"),
        /// `patch13`: a patch of 13 control points.
        Patch13 = 20 => Some("patch13"),
        /// `patch14`: a patch of 14 control points.
        Patch14 = 21 => Some("patch14"),
        /// `patch15`: a patch of 15 control points.
        Patch15 = 22 => Some("patch15"),
        /// `patch16`: a patch of 16 control points.
        Patch16 = 23 => Some("patch16"),
        /// `patch17`: a patch of 17 control points.
        Patch17 = 24 => Some("patch17"),
        /// `patch18`: a patch of 18 control points.
        Patch18 = 25 => Some("patch18"),
        /// `patch19`: a patch of 19 control points.
        Patch19 = 26 => Some("patch19"),
        /// `patch20`: a patch of 20 control points.
        Patch20 = 27 => Some("patch20"),
        /// `patch21`: a patch of 21 control points.
        Patch21 = 28 => Some("patch21"),
        /// `patch22`: a patch of 22 control points.
        Patch22 = 29 => Some("patch22"),
        /// `patch23`: a patch of 23 control points.
        Patch23 = 30 => Some("patch23"),
        /// `patch24`: a patch of 24 control points.
        Patch24 = 31 => Some("patch24"),
        /// `patch25`: a patch of 25 control points.
        Patch25 = 32 => Some("patch25"),
        /// `patch26`: a patch of 26 control points.
        Patch26 = 33 => Some("patch26"),
        /// `patch27`: a patch of 27 control points.
        Patch27 = 34 => Some("patch27"),
        /// `patch28`: a patch of 28 control points.
        Patch28 = 35 => Some("patch28"),
        /// `patch29`: a patch of 29 control points.
        Patch29 = 36 => Some("patch29"),
        /// `patch30`: a patch of 30 control points.
        Patch30 = 37 => Some("patch30"),
        /// `patch31`: a patch of 31 control points.
        Patch31 = 38 => Some("patch31"),
        /// `patch32`: a patch of 32 control points.
        Patch32 = 39 => Some("patch32"),
    }
}

field_enum! {
    /// System-value name of `dcl_*_siv` / `dcl_*_sgv` (the NameToken).
    SystemName: u16 {
        /// `undefined` in listings.
        Undefined = 0 => Some("undefined"),
        /// `position` in listings.
        Position = 1 => Some("position"),
        /// `clip_distance` in listings.
        ClipDistance = 2 => Some("clip_distance"),
        /// `cull_distance` in listings.
        CullDistance = 3 => Some("cull_distance"),
        /// `rendertarget_array_index` in listings.
        RenderTargetArrayIndex = 4 => Some("rendertarget_array_index"),
        /// `viewport_array_index` in listings.
        ViewportArrayIndex = 5 => Some("viewport_array_index"),
        /// `vertex_id` in listings.
        VertexId = 6 => Some("vertex_id"),
        /// `primitive_id` in listings.
        PrimitiveId = 7 => Some("primitive_id"),
        /// `instance_id` in listings.
        InstanceId = 8 => Some("instance_id"),
        /// `is_front_face` in listings.
        IsFrontFace = 9 => Some("is_front_face"),
        /// `sampleIndex` in listings.
        SampleIndex = 10 => Some("sampleIndex"),
        /// `finalQuadUeq0EdgeTessFactor` in listings.
        FinalQuadUEq0EdgeTessFactor = 11 => Some("finalQuadUeq0EdgeTessFactor"),
        /// `finalQuadVeq0EdgeTessFactor` in listings.
        FinalQuadVEq0EdgeTessFactor = 12 => Some("finalQuadVeq0EdgeTessFactor"),
        /// `finalQuadUeq1EdgeTessFactor` in listings.
        FinalQuadUEq1EdgeTessFactor = 13 => Some("finalQuadUeq1EdgeTessFactor"),
        /// `finalQuadVeq1EdgeTessFactor` in listings.
        FinalQuadVEq1EdgeTessFactor = 14 => Some("finalQuadVeq1EdgeTessFactor"),
        /// `finalQuadUInsideTessFactor` in listings.
        FinalQuadUInsideTessFactor = 15 => Some("finalQuadUInsideTessFactor"),
        /// `finalQuadVInsideTessFactor` in listings.
        FinalQuadVInsideTessFactor = 16 => Some("finalQuadVInsideTessFactor"),
        /// `finalTriUeq0EdgeTessFactor` in listings.
        FinalTriUEq0EdgeTessFactor = 17 => Some("finalTriUeq0EdgeTessFactor"),
        /// `finalTriVeq0EdgeTessFactor` in listings.
        FinalTriVEq0EdgeTessFactor = 18 => Some("finalTriVeq0EdgeTessFactor"),
        /// `finalTriWeq0EdgeTessFactor` in listings.
        FinalTriWEq0EdgeTessFactor = 19 => Some("finalTriWeq0EdgeTessFactor"),
        /// `finalTriInsideTessFactor` in listings.
        FinalTriInsideTessFactor = 20 => Some("finalTriInsideTessFactor"),
        /// `finalLineDetailTessFactor` in listings.
        FinalLineDetailTessFactor = 21 => Some("finalLineDetailTessFactor"),
        /// `finalLineDensityTessFactor` in listings.
        FinalLineDensityTessFactor = 22 => Some("finalLineDensityTessFactor"),
        /// `barycentrics` in listings.
        Barycentrics = 23 => Some("barycentrics"),
        /// `shadingrate` in listings.
        ShadingRate = 24 => Some("shadingrate"),
        /// `cullprimitive` in listings.
        CullPrimitive = 25 => Some("cullprimitive"),
    }
}

field_enum! {
    /// Tessellator domain (`dcl_tessellator_domain`).
    TessDomain: u8 {
        /// `domain_undefined` in listings.
        Undefined = 0 => Some("domain_undefined"),
        /// `domain_isoline` in listings.
        Isoline = 1 => Some("domain_isoline"),
        /// `domain_tri` in listings.
        Tri = 2 => Some("domain_tri"),
        /// `domain_quad` in listings.
        Quad = 3 => Some("domain_quad"),
    }
}

field_enum! {
    /// Tessellator partitioning (`dcl_tessellator_partitioning`).
    TessPartitioning: u8 {
        /// `partitioning_undefined` in listings.
        Undefined = 0 => Some("partitioning_undefined"),
        /// `partitioning_integer` in listings.
        Integer = 1 => Some("partitioning_integer"),
        /// `partitioning_pow2` in listings.
        Pow2 = 2 => Some("partitioning_pow2"),
        /// `partitioning_fractional_odd` in listings.
        FractionalOdd = 3 => Some("partitioning_fractional_odd"),
        /// `partitioning_fractional_even` in listings.
        FractionalEven = 4 => Some("partitioning_fractional_even"),
    }
}

field_enum! {
    /// Tessellator output primitive (`dcl_tessellator_output_primitive`).
    TessOutputPrimitive: u8 {
        /// `output_undefined` in listings.
        Undefined = 0 => Some("output_undefined"),
        /// `output_point` in listings.
        Point = 1 => Some("output_point"),
        /// `output_line` in listings.
        Line = 2 => Some("output_line"),
        /// `output_triangle_cw` in listings.
        TriangleCw = 3 => Some("output_triangle_cw"),
        /// `output_triangle_ccw` in listings.
        TriangleCcw = 4 => Some("output_triangle_ccw"),
    }
}

field_enum! {
    /// Return type of `resinfo` (opcode token bits 12:11).
    ResInfoReturnType: u8 {
        /// Floats (no suffix).
        Float = 0 => Some(""),
        /// `_rcpfloat`: the reciprocals of the dimensions, as floats.
        RcpFloat = 1 => Some("_rcpfloat"),
        /// `_uint`: unsigned integers.
        Uint = 2 => Some("_uint"),
    }
}

field_enum! {
    /// Return type of `sampleinfo` / `samplepos` (opcode token bits 12:11).
    InstructionReturnType: u8 {
        /// Floats (no suffix).
        Float = 0 => Some(""),
        /// `_uint`: unsigned integers.
        Uint = 1 => Some("_uint"),
    }
}

field_enum! {
    /// Class of a custom-data block (bits 31:11 of its first token).
    CustomDataClass: u32 {
        /// `comment` in listings.
        Comment = 0 => Some("comment"),
        /// `debuginfo` in listings.
        DebugInfo = 1 => Some("debuginfo"),
        /// `opaque` in listings.
        Opaque = 2 => Some("opaque"),
        /// `dcl_immediateConstantBuffer` in listings.
        ImmediateConstantBuffer = 3 => Some("dcl_immediateConstantBuffer"),
        /// `shader_message` in listings.
        ShaderMessage = 4 => Some("shader_message"),
        /// `clip_plane_constant_mappings_for_dx9` in listings.
        ClipPlaneConstantMappingsForDx9 = 5 => Some("clip_plane_constant_mappings_for_dx9"),
    }
}

/// Boolean test of a conditional instruction (`_z` / `_nz`, opcode token bit 18).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Test {
    /// `_z`: taken when every bit of the value is 0.
    Zero,
    /// `_nz`: taken when any bit is 1.
    NonZero,
}

impl Test {
    /// `_z` or `_nz`.
    pub fn suffix(self) -> &'static str {
        match self {
            Test::Zero => "_z",
            Test::NonZero => "_nz",
        }
    }
}

/// A set of the four components x, y, z, w (bit 0 = x).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Mask(pub u8);

impl Mask {
    /// `.x`.
    pub const X: Mask = Mask(1);
    /// `.y`.
    pub const Y: Mask = Mask(2);
    /// `.z`.
    pub const Z: Mask = Mask(4);
    /// `.w`.
    pub const W: Mask = Mask(8);
    /// `.xyzw`.
    pub const XYZW: Mask = Mask(15);
    /// No component.
    pub const NONE: Mask = Mask(0);

    /// True when component `c` (0..4) is in the set.
    #[inline]
    pub fn has(self, c: usize) -> bool {
        self.0 & (1 << c) != 0
    }
    /// Number of components in the set.
    #[inline]
    pub fn count(self) -> u32 {
        (self.0 & 15).count_ones()
    }
    /// True for the empty set.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 & 15 == 0
    }
}

/// Global flags of `dcl_globalFlags` (opcode token bits 23:11), in fxc's order.
pub const GLOBAL_FLAG_NAMES: &[(u32, &str)] = &[
    (1 << 11, "refactoringAllowed"),
    (1 << 12, "enableDoublePrecisionFloatOps"),
    // d3dcompiler_47 prints these two out of bit order.
    (1 << 14, "enableRawAndStructuredBuffers"),
    (1 << 13, "forceEarlyDepthStencil"),
    (1 << 15, "skipOptimization"),
    (1 << 16, "enableMinimumPrecision"),
    (1 << 17, "enable11_1DoubleExtensions"),
    (1 << 18, "enable11_1ShaderExtensions"),
    (1 << 19, "allResourcesBound"),
];

/// The flags of `dcl_globalFlags`, kept as the raw opcode-token bits (23:11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GlobalFlags(pub u32);

impl GlobalFlags {
    /// `refactoringAllowed`.
    pub const REFACTORING_ALLOWED: u32 = 1 << 11;
    /// `enableDoublePrecisionFloatOps`.
    pub const ENABLE_DOUBLE_PRECISION_FLOAT_OPS: u32 = 1 << 12;
    /// `forceEarlyDepthStencil`.
    pub const FORCE_EARLY_DEPTH_STENCIL: u32 = 1 << 13;
    /// `enableRawAndStructuredBuffers`.
    pub const ENABLE_RAW_AND_STRUCTURED_BUFFERS: u32 = 1 << 14;
    /// `skipOptimization`.
    pub const SKIP_OPTIMIZATION: u32 = 1 << 15;
    /// `enableMinimumPrecision`.
    pub const ENABLE_MINIMUM_PRECISION: u32 = 1 << 16;
    /// `enable11_1DoubleExtensions`.
    pub const ENABLE_11_1_DOUBLE_EXTENSIONS: u32 = 1 << 17;
    /// `enable11_1ShaderExtensions`.
    pub const ENABLE_11_1_SHADER_EXTENSIONS: u32 = 1 << 18;
    /// `allResourcesBound`.
    pub const ALL_RESOURCES_BOUND: u32 = 1 << 19;

    /// True when `flag` (one of the constants) is set.
    pub fn contains(self, flag: u32) -> bool {
        self.0 & flag == flag
    }
}

/// Flags of the `sync` instruction (opcode token bits 14:11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SyncFlags(pub u8);

impl SyncFlags {
    /// `_t`: synchronise the threads of the group.
    pub const THREADS_IN_GROUP: u8 = 1;
    /// `_g`: thread-group shared memory.
    pub const TGSM: u8 = 2;
    /// `_ugroup`: UAV memory, group scope.
    pub const UAV_GROUP: u8 = 4;
    /// `_uglobal`: UAV memory, global scope.
    pub const UAV_GLOBAL: u8 = 8;
}

/// Flags of UAV declarations (opcode token bits 16, 17 and 23).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct UavFlags {
    /// `_glc`: globally coherent.
    pub globally_coherent: bool,
    /// `_rov`: rasterizer ordered.
    pub rasterizer_ordered: bool,
    /// `_opc`: has an order-preserving counter (structured UAVs).
    pub order_preserving_counter: bool,
}
