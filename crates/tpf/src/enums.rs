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
        Pixel = 0 => Some("ps"),
        Vertex = 1 => Some("vs"),
        Geometry = 2 => Some("gs"),
        Hull = 3 => Some("hs"),
        Domain = 4 => Some("ds"),
        Compute = 5 => Some("cs"),
    }
}

field_enum! {
    /// Register file an operand refers to (operand token bits 19:12).
    OperandType: u8 {
        Temp = 0 => Some("r"),
        Input = 1 => Some("v"),
        Output = 2 => Some("o"),
        IndexableTemp = 3 => Some("x"),
        Immediate32 = 4 => Some("l"),
        Immediate64 = 5 => Some("d"),
        Sampler = 6 => Some("s"),
        Resource = 7 => Some("t"),
        ConstantBuffer = 8 => Some("cb"),
        ImmediateConstantBuffer = 9 => Some("icb"),
        Label = 10 => Some("l"),
        InputPrimitiveId = 11 => Some("vPrim"),
        OutputDepth = 12 => Some("oDepth"),
        Null = 13 => Some("null"),
        Rasterizer = 14 => Some("rasterizer"),
        OutputCoverageMask = 15 => Some("oMask"),
        Stream = 16 => Some("m"),
        FunctionBody = 17 => Some("fb"),
        FunctionTable = 18 => Some("ft"),
        Interface = 19 => Some("fp"),
        FunctionInput = 20 => Some("fi"),
        FunctionOutput = 21 => Some("fo"),
        OutputControlPointId = 22 => Some("vOutputControlPointID"),
        InputForkInstanceId = 23 => Some("vForkInstanceID"),
        InputJoinInstanceId = 24 => Some("vJoinInstanceID"),
        InputControlPoint = 25 => Some("vicp"),
        OutputControlPoint = 26 => Some("vocp"),
        InputPatchConstant = 27 => Some("vpc"),
        InputDomainPoint = 28 => Some("vDomain"),
        ThisPointer = 29 => Some("this"),
        UnorderedAccessView = 30 => Some("u"),
        ThreadGroupSharedMemory = 31 => Some("g"),
        InputThreadId = 32 => Some("vThreadID"),
        InputThreadGroupId = 33 => Some("vThreadGroupID"),
        InputThreadIdInGroup = 34 => Some("vThreadIDInGroup"),
        InputCoverageMask = 35 => Some("vCoverage"),
        InputThreadIdInGroupFlattened = 36 => Some("vThreadIDInGroupFlattened"),
        InputGsInstanceId = 37 => Some("vGSInstanceID"),
        OutputDepthGreaterEqual = 38 => Some("oDepthGE"),
        OutputDepthLessEqual = 39 => Some("oDepthLE"),
        CycleCounter = 40 => Some("vCycleCounter"),
        OutputStencilRef = 41 => Some("oStencilRef"),
        InnerCoverage = 42 => Some("vInnerCoverage"),
    }
}

field_enum! {
    /// Source modifier of an extended operand token (bits 13:6).
    Modifier: u8 {
        None = 0 => Some(""),
        Neg = 1 => Some("-"),
        Abs = 2 => Some("|"),
        AbsNeg = 3 => Some("-|"),
    }
}

field_enum! {
    /// Minimum precision of an operand (extended operand token bits 16:14).
    MinPrecision: u8 {
        Default = 0 => Some("def32"),
        Float16 = 1 => Some("min16f"),
        Float2_8 = 2 => Some("min2_8f"),
        Sint16 = 4 => Some("min16i"),
        Uint16 = 5 => Some("min16u"),
    }
}

field_enum! {
    /// Kind of an extended operand token (bits 5:0).
    ExtendedOperandKind: u8 {
        Empty = 0 => None,
        Modifier = 1 => None,
    }
}

field_enum! {
    /// Kind of an extended opcode token (bits 5:0).
    ExtendedOpcodeKind: u8 {
        Empty = 0 => None,
        SampleControls = 1 => None,
        ResourceDim = 2 => None,
        ResourceReturnType = 3 => None,
    }
}

field_enum! {
    /// Resource dimension (declarations and the resource-dimension extended opcode).
    ResourceDimension: u8 {
        Undefined = 0 => Some("unknown"),
        Buffer = 1 => Some("buffer"),
        Texture1D = 2 => Some("texture1d"),
        Texture2D = 3 => Some("texture2d"),
        Texture2DMS = 4 => Some("texture2dms"),
        Texture3D = 5 => Some("texture3d"),
        TextureCube = 6 => Some("texturecube"),
        Texture1DArray = 7 => Some("texture1darray"),
        Texture2DArray = 8 => Some("texture2darray"),
        Texture2DMSArray = 9 => Some("texture2dmsarray"),
        TextureCubeArray = 10 => Some("texturecubearray"),
        RawBuffer = 11 => Some("raw_buffer"),
        StructuredBuffer = 12 => Some("structured_buffer"),
    }
}

field_enum! {
    /// Data type a resource returns, per component.
    ReturnType: u8 {
        Unorm = 1 => Some("unorm"),
        Snorm = 2 => Some("snorm"),
        Sint = 3 => Some("sint"),
        Uint = 4 => Some("uint"),
        Float = 5 => Some("float"),
        Mixed = 6 => Some("mixed"),
        Double = 7 => Some("double"),
        Continued = 8 => Some("continued"),
        Unused = 9 => Some("unused"),
    }
}

field_enum! {
    /// Sampler mode of `dcl_sampler`.
    SamplerMode: u8 {
        Default = 0 => Some("mode_default"),
        Comparison = 1 => Some("mode_comparison"),
        Mono = 2 => Some("mode_mono"),
    }
}

field_enum! {
    /// Access pattern of `dcl_constantbuffer`.
    CbAccessPattern: u8 {
        ImmediateIndexed = 0 => Some("immediateIndexed"),
        DynamicIndexed = 1 => Some("dynamicIndexed"),
    }
}

field_enum! {
    /// Interpolation mode of `dcl_input_ps*`.
    InterpolationMode: u8 {
        Undefined = 0 => Some("undefined"),
        Constant = 1 => Some("constant"),
        Linear = 2 => Some("linear"),
        LinearCentroid = 3 => Some("linear centroid"),
        LinearNoPerspective = 4 => Some("linear noperspective"),
        LinearNoPerspectiveCentroid = 5 => Some("linear noperspective centroid"),
        LinearSample = 6 => Some("linear sample"),
        LinearNoPerspectiveSample = 7 => Some("linear noperspective sample"),
    }
}

field_enum! {
    /// Geometry-shader output topology (`dcl_outputtopology`).
    PrimitiveTopology: u8 {
        Undefined = 0 => Some("undefined"),
        PointList = 1 => Some("pointlist"),
        LineList = 2 => Some("linelist"),
        LineStrip = 3 => Some("linestrip"),
        TriangleList = 4 => Some("trianglelist"),
        TriangleStrip = 5 => Some("trianglestrip"),
        LineListAdj = 10 => Some("linelistadj"),
        LineStripAdj = 11 => Some("linestripadj"),
        TriangleListAdj = 12 => Some("trianglelistadj"),
        TriangleStripAdj = 13 => Some("trianglestripadj"),
    }
}

field_enum! {
    /// Geometry-shader input primitive (`dcl_inputprimitive`), or a patch.
    Primitive: u8 {
        Undefined = 0 => Some("undefined"),
        Point = 1 => Some("point"),
        Line = 2 => Some("line"),
        Triangle = 3 => Some("triangle"),
        LineAdj = 6 => Some("lineadj"),
        TriangleAdj = 7 => Some("triangleadj"),
        Patch1 = 8 => Some("patch1"),
        Patch2 = 9 => Some("patch2"),
        Patch3 = 10 => Some("patch3"),
        Patch4 = 11 => Some("patch4"),
        Patch5 = 12 => Some("patch5"),
        Patch6 = 13 => Some("patch6"),
        Patch7 = 14 => Some("patch7"),
        Patch8 = 15 => Some("patch8"),
        Patch9 = 16 => Some("patch9"),
        Patch10 = 17 => Some("patch10"),
        Patch11 = 18 => Some("patch11"),
        Patch12 = 19 => Some("patch12"),
        Patch13 = 20 => Some("patch13"),
        Patch14 = 21 => Some("patch14"),
        Patch15 = 22 => Some("patch15"),
        Patch16 = 23 => Some("patch16"),
        Patch17 = 24 => Some("patch17"),
        Patch18 = 25 => Some("patch18"),
        Patch19 = 26 => Some("patch19"),
        Patch20 = 27 => Some("patch20"),
        Patch21 = 28 => Some("patch21"),
        Patch22 = 29 => Some("patch22"),
        Patch23 = 30 => Some("patch23"),
        Patch24 = 31 => Some("patch24"),
        Patch25 = 32 => Some("patch25"),
        Patch26 = 33 => Some("patch26"),
        Patch27 = 34 => Some("patch27"),
        Patch28 = 35 => Some("patch28"),
        Patch29 = 36 => Some("patch29"),
        Patch30 = 37 => Some("patch30"),
        Patch31 = 38 => Some("patch31"),
        Patch32 = 39 => Some("patch32"),
    }
}

field_enum! {
    /// System-value name of `dcl_*_siv` / `dcl_*_sgv` (the NameToken).
    SystemName: u16 {
        Undefined = 0 => Some("undefined"),
        Position = 1 => Some("position"),
        ClipDistance = 2 => Some("clip_distance"),
        CullDistance = 3 => Some("cull_distance"),
        RenderTargetArrayIndex = 4 => Some("rendertarget_array_index"),
        ViewportArrayIndex = 5 => Some("viewport_array_index"),
        VertexId = 6 => Some("vertex_id"),
        PrimitiveId = 7 => Some("primitive_id"),
        InstanceId = 8 => Some("instance_id"),
        IsFrontFace = 9 => Some("is_front_face"),
        SampleIndex = 10 => Some("sampleIndex"),
        FinalQuadUEq0EdgeTessFactor = 11 => Some("finalQuadUeq0EdgeTessFactor"),
        FinalQuadVEq0EdgeTessFactor = 12 => Some("finalQuadVeq0EdgeTessFactor"),
        FinalQuadUEq1EdgeTessFactor = 13 => Some("finalQuadUeq1EdgeTessFactor"),
        FinalQuadVEq1EdgeTessFactor = 14 => Some("finalQuadVeq1EdgeTessFactor"),
        FinalQuadUInsideTessFactor = 15 => Some("finalQuadUInsideTessFactor"),
        FinalQuadVInsideTessFactor = 16 => Some("finalQuadVInsideTessFactor"),
        FinalTriUEq0EdgeTessFactor = 17 => Some("finalTriUeq0EdgeTessFactor"),
        FinalTriVEq0EdgeTessFactor = 18 => Some("finalTriVeq0EdgeTessFactor"),
        FinalTriWEq0EdgeTessFactor = 19 => Some("finalTriWeq0EdgeTessFactor"),
        FinalTriInsideTessFactor = 20 => Some("finalTriInsideTessFactor"),
        FinalLineDetailTessFactor = 21 => Some("finalLineDetailTessFactor"),
        FinalLineDensityTessFactor = 22 => Some("finalLineDensityTessFactor"),
        Barycentrics = 23 => Some("barycentrics"),
        ShadingRate = 24 => Some("shadingrate"),
        CullPrimitive = 25 => Some("cullprimitive"),
    }
}

field_enum! {
    /// Tessellator domain (`dcl_tessellator_domain`).
    TessDomain: u8 {
        Undefined = 0 => Some("domain_undefined"),
        Isoline = 1 => Some("domain_isoline"),
        Tri = 2 => Some("domain_tri"),
        Quad = 3 => Some("domain_quad"),
    }
}

field_enum! {
    /// Tessellator partitioning (`dcl_tessellator_partitioning`).
    TessPartitioning: u8 {
        Undefined = 0 => Some("partitioning_undefined"),
        Integer = 1 => Some("partitioning_integer"),
        Pow2 = 2 => Some("partitioning_pow2"),
        FractionalOdd = 3 => Some("partitioning_fractional_odd"),
        FractionalEven = 4 => Some("partitioning_fractional_even"),
    }
}

field_enum! {
    /// Tessellator output primitive (`dcl_tessellator_output_primitive`).
    TessOutputPrimitive: u8 {
        Undefined = 0 => Some("output_undefined"),
        Point = 1 => Some("output_point"),
        Line = 2 => Some("output_line"),
        TriangleCw = 3 => Some("output_triangle_cw"),
        TriangleCcw = 4 => Some("output_triangle_ccw"),
    }
}

field_enum! {
    /// Return type of `resinfo` (opcode token bits 12:11).
    ResInfoReturnType: u8 {
        Float = 0 => Some(""),
        RcpFloat = 1 => Some("_rcpfloat"),
        Uint = 2 => Some("_uint"),
    }
}

field_enum! {
    /// Return type of `sampleinfo` / `samplepos` (opcode token bits 12:11).
    InstructionReturnType: u8 {
        Float = 0 => Some(""),
        Uint = 1 => Some("_uint"),
    }
}

field_enum! {
    /// Class of a custom-data block (bits 31:11 of its first token).
    CustomDataClass: u32 {
        Comment = 0 => Some("comment"),
        DebugInfo = 1 => Some("debuginfo"),
        Opaque = 2 => Some("opaque"),
        ImmediateConstantBuffer = 3 => Some("dcl_immediateConstantBuffer"),
        ShaderMessage = 4 => Some("shader_message"),
        ClipPlaneConstantMappingsForDx9 = 5 => Some("clip_plane_constant_mappings_for_dx9"),
    }
}

/// Boolean test of a conditional instruction (`_z` / `_nz`, opcode token bit 18).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Test {
    Zero,
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
    pub const X: Mask = Mask(1);
    pub const Y: Mask = Mask(2);
    pub const Z: Mask = Mask(4);
    pub const W: Mask = Mask(8);
    pub const XYZW: Mask = Mask(15);
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
    pub const REFACTORING_ALLOWED: u32 = 1 << 11;
    pub const ENABLE_DOUBLE_PRECISION_FLOAT_OPS: u32 = 1 << 12;
    pub const FORCE_EARLY_DEPTH_STENCIL: u32 = 1 << 13;
    pub const ENABLE_RAW_AND_STRUCTURED_BUFFERS: u32 = 1 << 14;
    pub const SKIP_OPTIMIZATION: u32 = 1 << 15;
    pub const ENABLE_MINIMUM_PRECISION: u32 = 1 << 16;
    pub const ENABLE_11_1_DOUBLE_EXTENSIONS: u32 = 1 << 17;
    pub const ENABLE_11_1_SHADER_EXTENSIONS: u32 = 1 << 18;
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
