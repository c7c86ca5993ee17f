//! The instruction table: the single source of truth for every SM4.0–5.1 opcode.
//!
//! One row per opcode: its number, fxc's mnemonic, how its tokens are laid out
//! ([`Shape`]), the numeric type of each destination and source operand (which decides
//! how fxc prints an immediate there), the stages that may use it, the first shader
//! model that has it, its effect on control flow, and which opcode-token controls it
//! carries. The decoder, encoder, printer, and later the parser and validator, all
//! read this table; nothing about an opcode is written twice.

use crate::enums::{OperandType, ProgramType};

/// Numeric type of an operand slot: decides how an immediate there is printed and,
/// for the interpreter, how the bits are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ty {
    /// 32-bit float.
    F,
    /// 32-bit signed integer.
    I,
    /// 32-bit unsigned integer / bits.
    U,
    /// 64-bit float (two 32-bit components).
    D,
    /// Typeless: a move of bits (`mov`, `movc`, stores).
    Any,
    /// Not a number: a resource, sampler, UAV, label, stream or interface.
    R,
}

/// How an instruction's tokens after the opcode token(s) are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Destination operands, then source operands (counts from the row's type lists).
    Ops,
    /// `fcall`: a function-table index, then the interface operand.
    InterfaceCall,
    /// A custom-data block (comment, debug info, immediate constant buffer ...).
    CustomData,
    /// A declaration with its own layout.
    Decl(DeclKind),
}

/// The layout of each declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeclKind {
    /// `dcl_resource_<dimension>`.
    Resource,
    /// `dcl_constantbuffer`.
    ConstantBuffer,
    /// `dcl_sampler`.
    Sampler,
    /// `dcl_indexrange`.
    IndexRange,
    /// `dcl_outputtopology`.
    OutputTopology,
    /// `dcl_inputprimitive`.
    InputPrimitive,
    /// `dcl_maxout`.
    MaxOutputVertexCount,
    /// `dcl_input`, `dcl_output`: one operand.
    Register,
    /// `dcl_*_sgv`, `dcl_*_siv`: an operand and a system-value name.
    RegisterName,
    /// `dcl_input_ps`: interpolation mode, operand.
    InputPs,
    /// `dcl_input_ps_sgv/siv`: interpolation mode, operand, name.
    InputPsName,
    /// `dcl_temps`.
    Temps,
    /// `dcl_indexableTemp`.
    IndexableTemp,
    /// `dcl_globalFlags`.
    GlobalFlags,
    /// `dcl_stream`.
    Stream,
    /// `dcl_function_body`.
    FunctionBody,
    /// `dcl_function_table`.
    FunctionTable,
    /// `dcl_interface` and `dcl_interface_dynamicindexed`.
    Interface,
    /// `dcl_input/output_control_point_count`.
    ControlPointCount,
    /// `dcl_tessellator_domain`.
    TessDomain,
    /// `dcl_tessellator_partitioning`.
    TessPartitioning,
    /// `dcl_tessellator_output_primitive`.
    TessOutputPrimitive,
    /// `dcl_hs_max_tessfactor`.
    HsMaxTessFactor,
    /// `dcl_hs_fork/join_phase_instance_count`.
    PhaseInstanceCount,
    /// `dcl_thread_group`.
    ThreadGroup,
    /// `dcl_uav_typed_<dimension>`.
    UavTyped,
    /// `dcl_uav_raw`.
    UavRaw,
    /// `dcl_uav_structured`.
    UavStructured,
    /// `dcl_tgsm_raw`.
    TgsmRaw,
    /// `dcl_tgsm_structured`.
    TgsmStructured,
    /// `dcl_resource_raw`.
    ResourceRaw,
    /// `dcl_resource_structured`.
    ResourceStructured,
    /// `dcl_gsinstances`.
    GsInstanceCount,
}

/// Which opcode-specific controls (opcode token bits 23:11) an instruction carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Controls {
    /// `_sat` (bit 13) and the precise mask (bits 22:19).
    Plain,
    /// `_z` / `_nz` (bit 18).
    Test,
    /// `resinfo`: return type (bits 12:11), plus `_sat` and precise.
    ResInfo,
    /// `sampleinfo` / `samplepos`: return type (bits 12:11), plus `_sat` and precise.
    ReturnType,
    /// `sync`: flags (bits 14:11).
    Sync,
    /// None: the bits are declaration fields or reserved.
    None,
}

/// Effect on control flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flow {
    /// No effect on control flow.
    None,
    /// `if_z` / `if_nz`: opens a block.
    If,
    /// `else`.
    Else,
    /// `endif`.
    EndIf,
    /// `loop`: opens a block.
    Loop,
    /// `endloop`.
    EndLoop,
    /// `switch`: opens a block.
    Switch,
    /// `case`.
    Case,
    /// `default`.
    Default,
    /// `endswitch`.
    EndSwitch,
    /// `break` / `breakc`.
    Break,
    /// `continue` / `continuec`.
    Continue,
    /// `call` / `callc`.
    Call,
    /// `ret` / `retc`.
    Return,
    /// `label`: starts a subroutine.
    Label,
    /// `fcall`: calls through an interface.
    InterfaceCall,
    /// Ends the invocation's pixel (`discard`) or program (`abort`).
    Discard,
    /// `emit`, `cut` and their stream forms.
    Emit,
    /// `cut` and `cut_stream`: ends the current strip.
    Cut,
    /// `emit_then_cut` and its stream form.
    EmitThenCut,
    /// Start of a hull-shader phase.
    Phase,
}

/// What fxc's instruction statistics (the `STAT` chunk, the fields of
/// `D3D11_SHADER_DESC`) count an opcode as. The rules were read off the fxc corpus;
/// each variant names its evidence. Operand-dependent rules (a `mov` with a source
/// modifier is arithmetic, a two-result `udiv` counts nowhere, the uniformity of a
/// branch condition for fxc 9.x) live with the counter in the `listing` crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StatClass {
    /// Declarations, data blocks, hull-shader phase markers and function labels: not
    /// instructions (hs5__basic: `hs_decls`, `hs_fork_phase`, 2 `mov`, `ret` = 3 slots;
    /// SubroutinesPS: 18 instructions with 5 `label` = 13 slots).
    None,
    /// Counted as an instruction of no category: the bit-field and bit-count
    /// instructions (`ubfe`, `ibfe`, `bfi`, `firstbit_*`), half-precision conversions,
    /// `resinfo` and the other queries (ps4__resinfo: 3, none counted), `eval_*`,
    /// `discard`, `rcp` (vs5__rcp, 9.30: 3 `rcp`, 0 floats), the double-precision
    /// instructions (cs5__BasicCompute11Double, 9.29, counts its `add` as its one float,
    /// not its `dadd`), `nop`, `swapc`, `msad`, the carry/borrow arithmetic.
    Plain,
    /// Arithmetic on 32-bit floats, comparisons and derivatives included (123 of the
    /// 129 fxc 10.1 blobs match this set exactly; D3D11_PixelShader_Textures_PQ counts
    /// its 4 `deriv_*_coarse`).
    Float,
    /// Signed integer arithmetic (all 129 fxc 10.1 blobs; `ibfe` is not counted).
    Int,
    /// Unsigned arithmetic and the bitwise operations (the bitwise word of `STAT` stays
    /// 0 in every blob).
    Uint,
    /// Conversions between floats and integers (`f16tof32`/`f32tof16` are not counted).
    Conversion,
    /// `mov`.
    Mov,
    /// `movc`.
    Movc,
    /// `ret`, `else`, `break`, `continue`, `call`: flow whose path does not depend on
    /// data (D3D11_Blit__g_BlitFromCube: one `switch`, seven `break` and `ret`: 8 static).
    StaticFlow,
    /// `loop`, `retc`, `callc`: always dynamic flow (ExtrudeGS: 2 `loop`, 2 dynamic;
    /// ps5__retc: 2 `retc`, 2 dynamic).
    DynamicFlow,
    /// `if` and `switch`: dynamic, or for fxc 9.x static when the condition is uniform.
    Branch,
    /// `breakc` (not counted), `continuec` (dynamic when its condition varies).
    ConditionalJump,
    /// Geometry output (ExtrudeGS: 4 `emit`, 2 `cut`; primitive_rectangle_list_gs: 10
    /// `emit_stream`, 2 `cut_stream`); `emit_then_cut` counts in both.
    Emit,
    /// `cut`, `cut_stream`.
    Cut,
    /// `emit_then_cut`, `emit_then_cut_stream`: counted as an emit and a cut.
    EmitThenCut,
    /// `sample`, the "normal" texture read (ps5__sample: 2); the tiled-resource forms
    /// (`*_s`) follow their base instruction.
    Sample,
    /// `sample_l`: counted with the loads (D3D11_Blit__g_BlitFrom2D: 1 `sample_l`, 1 load).
    SampleLevel,
    /// `sample_c`, `sample_c_lz` (Internal__Textures_PS: 2).
    SampleCompare,
    /// `sample_b` (ps5__sample: 2).
    SampleBias,
    /// `sample_d` (ps5__sample: 2).
    SampleGradient,
    /// `ld`, `ldms`: typed resource loads.
    LoadTyped,
    /// `ld_raw`, `ld_structured`, `ld_uav_typed`: buffer and UAV loads.
    LoadBuffer,
    /// `gather4` and `gather4_po`, not the comparing gathers (ps5__gather: 6;
    /// ContactHardeningShadows11PS: 36 `gather4_c` and one `gather4_po`, 1).
    Gather,
    /// `lod` (ps5__lod: 2).
    Lod,
    /// UAV stores.
    Store,
    /// Every atomic, with or without a result, and the counter operations
    /// (ps5__atomic_counter: 2 `imm_atomic_alloc` + 2 `imm_atomic_consume` = 4).
    Atomic,
    /// `sync`, whatever its flags (cs5__Issue11: 6).
    Barrier,
}

/// Optional hardware features an opcode needs by itself: the `SFI0` chunk's flags
/// (`D3D_SHADER_REQUIRES_*`) and the device capabilities the runtime checks
/// (`D3D11_FEATURE_DOUBLES`, `D3D11_FEATURE_D3D11_OPTIONS`:
/// `ExtendedDoublesShaderInstructions`, `SAD4ShaderInstructions`; tiled resources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OpFeatures(pub u8);

impl OpFeatures {
    /// No optional feature.
    pub const NONE: OpFeatures = OpFeatures(0);
    /// Double-precision arithmetic (`D3D_SHADER_REQUIRES_DOUBLES`).
    pub const DOUBLES: OpFeatures = OpFeatures(1);
    /// The Direct3D 11.1 double-precision extensions `ddiv`, `dfma`, `drcp` and the
    /// double/integer conversions (`D3D_SHADER_REQUIRES_11_1_DOUBLE_EXTENSIONS`).
    pub const DOUBLES_11_1: OpFeatures = OpFeatures(2);
    /// The Direct3D 11.1 shader extensions: `msad`
    /// (`D3D_SHADER_REQUIRES_11_1_SHADER_EXTENSIONS`).
    pub const SHADER_EXTENSIONS_11_1: OpFeatures = OpFeatures(4);
    /// Tiled resources: the `*_s` forms returning a status and
    /// `check_access_fully_mapped` (`D3D_SHADER_REQUIRES_TILED_RESOURCES`).
    pub const TILED: OpFeatures = OpFeatures(8);

    /// True when every feature of `other` is in `self`.
    pub const fn contains(self, other: OpFeatures) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }
}

/// A shader model, `major.minor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Model(pub u8, pub u8);

impl Model {
    /// Shader Model 4.0.
    pub const SM4_0: Model = Model(4, 0);
    /// Shader Model 4.1.
    pub const SM4_1: Model = Model(4, 1);
    /// Shader Model 5.0.
    pub const SM5_0: Model = Model(5, 0);
    /// Shader Model 5.1.
    pub const SM5_1: Model = Model(5, 1);
}

/// A set of shader stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stages(pub u8);

impl Stages {
    /// Vertex shaders.
    pub const VS: Stages = Stages(1);
    /// Hull shaders.
    pub const HS: Stages = Stages(2);
    /// Domain shaders.
    pub const DS: Stages = Stages(4);
    /// Geometry shaders.
    pub const GS: Stages = Stages(8);
    /// Pixel shaders.
    pub const PS: Stages = Stages(16);
    /// Compute shaders.
    pub const CS: Stages = Stages(32);
    /// Every stage.
    pub const ALL: Stages = Stages(63);
    /// Pixel and compute shaders.
    pub const PS_CS: Stages = Stages(16 | 32);
    /// UAV access: pixel and compute shaders, and every stage on a Direct3D 11.1
    /// runtime whose device supports UAVs at every stage (bit 6 marks the row so).
    pub const UAV: Stages = Stages(16 | 32 | 64);
    /// Hull and domain shaders.
    pub const HS_DS: Stages = Stages(2 | 4);
    /// Every stage but compute (input/output declarations).
    pub const GRAPHICS: Stages = Stages(31);

    /// True when `stage` is in the set.
    pub fn contains(self, stage: ProgramType) -> bool {
        let bit = match stage {
            ProgramType::Vertex => 1,
            ProgramType::Hull => 2,
            ProgramType::Domain => 4,
            ProgramType::Geometry => 8,
            ProgramType::Pixel => 16,
            ProgramType::Compute => 32,
            ProgramType::Unknown(_) => 0,
        };
        self.0 & bit != 0
    }

    /// True for rows that use UAVs ([`Stages::UAV`]): refused outside pixel and compute
    /// shaders unless the device has UAVs at every stage.
    pub fn is_uav(self) -> bool {
        self.0 & 64 != 0
    }

    /// The stage names in the set (`"vs"`, `"gs"`...), for messages.
    pub fn names(self) -> Vec<&'static str> {
        let mut v = Vec::new();
        for (bit, name) in [(1, "vs"), (2, "hs"), (4, "ds"), (8, "gs"), (16, "ps"), (32, "cs")] {
            if self.0 & bit != 0 {
                v.push(name);
            }
        }
        v
    }
}

/// One row of the table.
#[derive(Debug)]
pub struct OpInfo {
    /// The opcode.
    pub opcode: Opcode,
    /// fxc's spelling, without suffixes (`_sat`, `_z`, `_indexable(...)`...).
    pub mnemonic: &'static str,
    /// How its tokens are laid out.
    pub shape: Shape,
    /// Numeric type of each destination operand.
    pub dst: &'static [Ty],
    /// Numeric type of each source operand.
    pub src: &'static [Ty],
    /// The stages that may use it (with the UAV mark: see [`Stages::UAV`]).
    pub stages: Stages,
    /// The first shader model that has it.
    pub min_model: Model,
    /// Its effect on control flow.
    pub flow: Flow,
    /// The opcode-token controls it carries.
    pub controls: Controls,
    /// What fxc's statistics count it as.
    pub stat: StatClass,
    /// Optional features it needs by itself.
    pub features: OpFeatures,
}

impl OpInfo {
    /// Number of operands of an [`Shape::Ops`] instruction.
    pub fn operand_count(&self) -> usize {
        self.dst.len() + self.src.len()
    }
}

/// Builds [`Opcode`] and [`TABLE`] from the rows of [`for_each_opcode!`].
macro_rules! table {
    ($( $variant:ident = $num:literal, $mn:literal, $shape:ident $(($kind:ident))?, [$($d:ident)*], [$($s:ident)*],
        $stages:ident, $model:ident, $flow:ident, $ctl:ident, $stat:ident, [$($feat:ident)*]; )*) => {
        /// An SM4/SM5 opcode (opcode token bits 10:0).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode {
            $( #[doc = concat!("`", $mn, "` (", stringify!($num), ").")] $variant = $num, )*
        }

        /// Every row, in opcode order.
        pub static TABLE: &[OpInfo] = &[
            $( OpInfo {
                opcode: Opcode::$variant,
                mnemonic: $mn,
                shape: Shape::$shape $((DeclKind::$kind))?,
                dst: &[$(Ty::$d),*],
                src: &[$(Ty::$s),*],
                stages: Stages::$stages,
                min_model: Model::$model,
                flow: Flow::$flow,
                controls: Controls::$ctl,
                stat: StatClass::$stat,
                features: OpFeatures(0 $(| OpFeatures::$feat.0)*),
            }, )*
        ];
    };
}

crate::for_each_opcode!(table);

/// The instruction table, row by row, handed to a macro of the caller's: the single
/// source from which this crate builds [`Opcode`] and [`TABLE`], and from which other
/// crates may generate their own per-opcode code (the pattern of wasmparser's
/// `for_each_operator`).
///
/// Each row reads `Variant = number, "mnemonic", Shape(DeclKind)?, [destination types],
/// [source types], stages, first model, flow effect, controls, STAT class, [features];`
/// with the names of [`Shape`], [`DeclKind`], [`Ty`], [`Stages`], [`Model`], [`Flow`],
/// [`Controls`], [`StatClass`] and [`OpFeatures`].
///
/// ```
/// // The mnemonics of the rows that end a geometry-shader primitive.
/// macro_rules! cuts {
///     ($( $v:ident = $n:literal, $mn:literal, $shape:ident $(($kind:ident))?, [$($d:ident)*],
///         [$($s:ident)*], $stages:ident, $model:ident, $flow:ident, $ctl:ident, $stat:ident,
///         [$($f:ident)*]; )*) => {
///         [$( (stringify!($flow), $mn) ),*]
///             .into_iter()
///             .filter(|(flow, _)| *flow == "Cut")
///             .map(|(_, mn)| mn)
///             .collect::<Vec<_>>()
///     };
/// }
/// assert_eq!(tpf::for_each_opcode!(cuts), ["cut", "cut_stream"]);
/// /// ```
#[macro_export]
macro_rules! for_each_opcode {
    ($m:ident) => {
        $m! {
            Add = 0, "add", Ops, [F], [F F], ALL, SM4_0, None, Plain, Float, [];
            And = 1, "and", Ops, [U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            Break = 2, "break", Ops, [], [], ALL, SM4_0, Break, Plain, StaticFlow, [];
            Breakc = 3, "breakc", Ops, [], [U], ALL, SM4_0, Break, Test, ConditionalJump, [];
            Call = 4, "call", Ops, [], [R], ALL, SM4_0, Call, Plain, StaticFlow, [];
            Callc = 5, "callc", Ops, [], [U R], ALL, SM4_0, Call, Test, DynamicFlow, [];
            Case = 6, "case", Ops, [], [U], ALL, SM4_0, Case, Plain, Plain, [];
            Continue = 7, "continue", Ops, [], [], ALL, SM4_0, Continue, Plain, StaticFlow, [];
            Continuec = 8, "continuec", Ops, [], [U], ALL, SM4_0, Continue, Test, ConditionalJump, [];
            Cut = 9, "cut", Ops, [], [], GS, SM4_0, Cut, Plain, Cut, [];
            Default = 10, "default", Ops, [], [], ALL, SM4_0, Default, Plain, Plain, [];
            DerivRtx = 11, "deriv_rtx", Ops, [F], [F], PS, SM4_0, None, Plain, Float, [];
            DerivRty = 12, "deriv_rty", Ops, [F], [F], PS, SM4_0, None, Plain, Float, [];
            Discard = 13, "discard", Ops, [], [U], PS, SM4_0, Discard, Test, Plain, [];
            Div = 14, "div", Ops, [F], [F F], ALL, SM4_0, None, Plain, Float, [];
            Dp2 = 15, "dp2", Ops, [F], [F F], ALL, SM4_0, None, Plain, Float, [];
            Dp3 = 16, "dp3", Ops, [F], [F F], ALL, SM4_0, None, Plain, Float, [];
            Dp4 = 17, "dp4", Ops, [F], [F F], ALL, SM4_0, None, Plain, Float, [];
            Else = 18, "else", Ops, [], [], ALL, SM4_0, Else, Plain, StaticFlow, [];
            Emit = 19, "emit", Ops, [], [], GS, SM4_0, Emit, Plain, Emit, [];
            EmitThenCut = 20, "emit_then_cut", Ops, [], [], GS, SM4_0, EmitThenCut, Plain, EmitThenCut, [];
            EndIf = 21, "endif", Ops, [], [], ALL, SM4_0, EndIf, Plain, Plain, [];
            EndLoop = 22, "endloop", Ops, [], [], ALL, SM4_0, EndLoop, Plain, Plain, [];
            EndSwitch = 23, "endswitch", Ops, [], [], ALL, SM4_0, EndSwitch, Plain, Plain, [];
            Eq = 24, "eq", Ops, [U], [F F], ALL, SM4_0, None, Plain, Float, [];
            Exp = 25, "exp", Ops, [F], [F], ALL, SM4_0, None, Plain, Float, [];
            Frc = 26, "frc", Ops, [F], [F], ALL, SM4_0, None, Plain, Float, [];
            Ftoi = 27, "ftoi", Ops, [I], [F], ALL, SM4_0, None, Plain, Conversion, [];
            Ftou = 28, "ftou", Ops, [U], [F], ALL, SM4_0, None, Plain, Conversion, [];
            Ge = 29, "ge", Ops, [U], [F F], ALL, SM4_0, None, Plain, Float, [];
            Iadd = 30, "iadd", Ops, [I], [I I], ALL, SM4_0, None, Plain, Int, [];
            If = 31, "if", Ops, [], [U], ALL, SM4_0, If, Test, Branch, [];
            Ieq = 32, "ieq", Ops, [U], [I I], ALL, SM4_0, None, Plain, Int, [];
            Ige = 33, "ige", Ops, [U], [I I], ALL, SM4_0, None, Plain, Int, [];
            Ilt = 34, "ilt", Ops, [U], [I I], ALL, SM4_0, None, Plain, Int, [];
            Imad = 35, "imad", Ops, [I], [I I I], ALL, SM4_0, None, Plain, Int, [];
            Imax = 36, "imax", Ops, [I], [I I], ALL, SM4_0, None, Plain, Int, [];
            Imin = 37, "imin", Ops, [I], [I I], ALL, SM4_0, None, Plain, Int, [];
            Imul = 38, "imul", Ops, [I I], [I I], ALL, SM4_0, None, Plain, Int, [];
            Ine = 39, "ine", Ops, [U], [I I], ALL, SM4_0, None, Plain, Int, [];
            Ineg = 40, "ineg", Ops, [I], [I], ALL, SM4_0, None, Plain, Int, [];
            Ishl = 41, "ishl", Ops, [I], [I U], ALL, SM4_0, None, Plain, Int, [];
            Ishr = 42, "ishr", Ops, [I], [I U], ALL, SM4_0, None, Plain, Int, [];
            Itof = 43, "itof", Ops, [F], [I], ALL, SM4_0, None, Plain, Conversion, [];
            Label = 44, "label", Ops, [], [R], ALL, SM4_0, Label, Plain, None, [];
            Ld = 45, "ld", Ops, [Any], [I R], ALL, SM4_0, None, Plain, LoadTyped, [];
            LdMs = 46, "ldms", Ops, [Any], [I R I], ALL, SM4_0, None, Plain, LoadTyped, [];
            Log = 47, "log", Ops, [F], [F], ALL, SM4_0, None, Plain, Float, [];
            Loop = 48, "loop", Ops, [], [], ALL, SM4_0, Loop, Plain, DynamicFlow, [];
            Lt = 49, "lt", Ops, [U], [F F], ALL, SM4_0, None, Plain, Float, [];
            Mad = 50, "mad", Ops, [F], [F F F], ALL, SM4_0, None, Plain, Float, [];
            Min = 51, "min", Ops, [F], [F F], ALL, SM4_0, None, Plain, Float, [];
            Max = 52, "max", Ops, [F], [F F], ALL, SM4_0, None, Plain, Float, [];
            CustomData = 53, "customdata", CustomData, [], [], ALL, SM4_0, None, None, None, [];
            Mov = 54, "mov", Ops, [Any], [Any], ALL, SM4_0, None, Plain, Mov, [];
            Movc = 55, "movc", Ops, [Any], [U Any Any], ALL, SM4_0, None, Plain, Movc, [];
            Mul = 56, "mul", Ops, [F], [F F], ALL, SM4_0, None, Plain, Float, [];
            Ne = 57, "ne", Ops, [U], [F F], ALL, SM4_0, None, Plain, Float, [];
            Nop = 58, "nop", Ops, [], [], ALL, SM4_0, None, Plain, Plain, [];
            Not = 59, "not", Ops, [U], [U], ALL, SM4_0, None, Plain, Uint, [];
            Or = 60, "or", Ops, [U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            ResInfo = 61, "resinfo", Ops, [Any], [U R], ALL, SM4_0, None, ResInfo, Plain, [];
            Ret = 62, "ret", Ops, [], [], ALL, SM4_0, Return, Plain, StaticFlow, [];
            Retc = 63, "retc", Ops, [], [U], ALL, SM4_0, Return, Test, DynamicFlow, [];
            RoundNe = 64, "round_ne", Ops, [F], [F], ALL, SM4_0, None, Plain, Float, [];
            RoundNi = 65, "round_ni", Ops, [F], [F], ALL, SM4_0, None, Plain, Float, [];
            RoundPi = 66, "round_pi", Ops, [F], [F], ALL, SM4_0, None, Plain, Float, [];
            RoundZ = 67, "round_z", Ops, [F], [F], ALL, SM4_0, None, Plain, Float, [];
            Rsq = 68, "rsq", Ops, [F], [F], ALL, SM4_0, None, Plain, Float, [];
            Sample = 69, "sample", Ops, [Any], [F R R], PS, SM4_0, None, Plain, Sample, [];
            SampleC = 70, "sample_c", Ops, [Any], [F R R F], PS, SM4_0, None, Plain, SampleCompare, [];
            SampleCLz = 71, "sample_c_lz", Ops, [Any], [F R R F], ALL, SM4_0, None, Plain, SampleCompare, [];
            SampleL = 72, "sample_l", Ops, [Any], [F R R F], ALL, SM4_0, None, Plain, SampleLevel, [];
            SampleD = 73, "sample_d", Ops, [Any], [F R R F F], ALL, SM4_0, None, Plain, SampleGradient, [];
            SampleB = 74, "sample_b", Ops, [Any], [F R R F], PS, SM4_0, None, Plain, SampleBias, [];
            Sqrt = 75, "sqrt", Ops, [F], [F], ALL, SM4_0, None, Plain, Float, [];
            Switch = 76, "switch", Ops, [], [I], ALL, SM4_0, Switch, Plain, Branch, [];
            SinCos = 77, "sincos", Ops, [F F], [F], ALL, SM4_0, None, Plain, Float, [];
            Udiv = 78, "udiv", Ops, [U U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            Ult = 79, "ult", Ops, [U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            Uge = 80, "uge", Ops, [U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            Umul = 81, "umul", Ops, [U U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            Umad = 82, "umad", Ops, [U], [U U U], ALL, SM4_0, None, Plain, Plain, [];
            Umax = 83, "umax", Ops, [U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            Umin = 84, "umin", Ops, [U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            Ushr = 85, "ushr", Ops, [U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            Utof = 86, "utof", Ops, [F], [U], ALL, SM4_0, None, Plain, Conversion, [];
            Xor = 87, "xor", Ops, [U], [U U], ALL, SM4_0, None, Plain, Uint, [];
            DclResource = 88, "dcl_resource", Decl(Resource), [], [], ALL, SM4_0, None, None, None, [];
            DclConstantBuffer = 89, "dcl_constantbuffer", Decl(ConstantBuffer), [], [], ALL, SM4_0, None, None, None, [];
            DclSampler = 90, "dcl_sampler", Decl(Sampler), [], [], ALL, SM4_0, None, None, None, [];
            DclIndexRange = 91, "dcl_indexrange", Decl(IndexRange), [], [], GRAPHICS, SM4_0, None, None, None, [];
            DclOutputTopology = 92, "dcl_outputtopology", Decl(OutputTopology), [], [], GS, SM4_0, None, None, None, [];
            DclInputPrimitive = 93, "dcl_inputprimitive", Decl(InputPrimitive), [], [], GS, SM4_0, None, None, None, [];
            DclMaxOutputVertexCount = 94, "dcl_maxout", Decl(MaxOutputVertexCount), [], [], GS, SM4_0, None, None, None, [];
            DclInput = 95, "dcl_input", Decl(Register), [], [], ALL, SM4_0, None, None, None, [];
            DclInputSgv = 96, "dcl_input_sgv", Decl(RegisterName), [], [], GRAPHICS, SM4_0, None, None, None, [];
            DclInputSiv = 97, "dcl_input_siv", Decl(RegisterName), [], [], GRAPHICS, SM4_0, None, None, None, [];
            DclInputPs = 98, "dcl_input_ps", Decl(InputPs), [], [], PS, SM4_0, None, None, None, [];
            DclInputPsSgv = 99, "dcl_input_ps_sgv", Decl(InputPsName), [], [], PS, SM4_0, None, None, None, [];
            DclInputPsSiv = 100, "dcl_input_ps_siv", Decl(InputPsName), [], [], PS, SM4_0, None, None, None, [];
            DclOutput = 101, "dcl_output", Decl(Register), [], [], GRAPHICS, SM4_0, None, None, None, [];
            DclOutputSgv = 102, "dcl_output_sgv", Decl(RegisterName), [], [], GRAPHICS, SM4_0, None, None, None, [];
            DclOutputSiv = 103, "dcl_output_siv", Decl(RegisterName), [], [], GRAPHICS, SM4_0, None, None, None, [];
            DclTemps = 104, "dcl_temps", Decl(Temps), [], [], ALL, SM4_0, None, None, None, [];
            DclIndexableTemp = 105, "dcl_indexableTemp", Decl(IndexableTemp), [], [], ALL, SM4_0, None, None, None, [];
            DclGlobalFlags = 106, "dcl_globalFlags", Decl(GlobalFlags), [], [], ALL, SM4_0, None, None, None, [];
            Lod = 108, "lod", Ops, [F], [F R R], PS, SM4_1, None, Plain, Lod, [];
            Gather4 = 109, "gather4", Ops, [Any], [F R R], ALL, SM4_1, None, Plain, Gather, [];
            SamplePos = 110, "samplepos", Ops, [F], [R I], ALL, SM4_1, None, ReturnType, Plain, [];
            SampleInfo = 111, "sampleinfo", Ops, [Any], [R], ALL, SM4_1, None, ReturnType, Plain, [];
            HsDecls = 113, "hs_decls", Ops, [], [], HS, SM5_0, Phase, Plain, None, [];
            HsControlPointPhase = 114, "hs_control_point_phase", Ops, [], [], HS, SM5_0, Phase, Plain, None, [];
            HsForkPhase = 115, "hs_fork_phase", Ops, [], [], HS, SM5_0, Phase, Plain, None, [];
            HsJoinPhase = 116, "hs_join_phase", Ops, [], [], HS, SM5_0, Phase, Plain, None, [];
            EmitStream = 117, "emit_stream", Ops, [], [R], GS, SM5_0, Emit, Plain, Emit, [];
            CutStream = 118, "cut_stream", Ops, [], [R], GS, SM5_0, Cut, Plain, Cut, [];
            EmitThenCutStream = 119, "emit_then_cut_stream", Ops, [], [R], GS, SM5_0, EmitThenCut, Plain, EmitThenCut, [];
            InterfaceCall = 120, "fcall", InterfaceCall, [], [R], ALL, SM5_0, InterfaceCall, Plain, Plain, [];
            BufInfo = 121, "bufinfo", Ops, [U], [R], ALL, SM5_0, None, Plain, Plain, [];
            DerivRtxCoarse = 122, "deriv_rtx_coarse", Ops, [F], [F], PS, SM5_0, None, Plain, Float, [];
            DerivRtxFine = 123, "deriv_rtx_fine", Ops, [F], [F], PS, SM5_0, None, Plain, Float, [];
            DerivRtyCoarse = 124, "deriv_rty_coarse", Ops, [F], [F], PS, SM5_0, None, Plain, Float, [];
            DerivRtyFine = 125, "deriv_rty_fine", Ops, [F], [F], PS, SM5_0, None, Plain, Float, [];
            Gather4C = 126, "gather4_c", Ops, [Any], [F R R F], ALL, SM5_0, None, Plain, Plain, [];
            Gather4Po = 127, "gather4_po", Ops, [Any], [F I R R], ALL, SM5_0, None, Plain, Gather, [];
            Gather4PoC = 128, "gather4_po_c", Ops, [Any], [F I R R F], ALL, SM5_0, None, Plain, Plain, [];
            Rcp = 129, "rcp", Ops, [F], [F], ALL, SM5_0, None, Plain, Plain, [];
            F32ToF16 = 130, "f32tof16", Ops, [U], [F], ALL, SM5_0, None, Plain, Plain, [];
            F16ToF32 = 131, "f16tof32", Ops, [F], [U], ALL, SM5_0, None, Plain, Plain, [];
            Uaddc = 132, "uaddc", Ops, [U U], [U U], ALL, SM5_0, None, Plain, Plain, [];
            Usubb = 133, "usubb", Ops, [U U], [U U], ALL, SM5_0, None, Plain, Plain, [];
            CountBits = 134, "countbits", Ops, [U], [U], ALL, SM5_0, None, Plain, Plain, [];
            FirstBitHi = 135, "firstbit_hi", Ops, [U], [U], ALL, SM5_0, None, Plain, Plain, [];
            FirstBitLo = 136, "firstbit_lo", Ops, [U], [U], ALL, SM5_0, None, Plain, Plain, [];
            FirstBitShi = 137, "firstbit_shi", Ops, [U], [I], ALL, SM5_0, None, Plain, Plain, [];
            Ubfe = 138, "ubfe", Ops, [U], [U U U], ALL, SM5_0, None, Plain, Plain, [];
            Ibfe = 139, "ibfe", Ops, [I], [U U I], ALL, SM5_0, None, Plain, Plain, [];
            Bfi = 140, "bfi", Ops, [U], [U U U U], ALL, SM5_0, None, Plain, Plain, [];
            Bfrev = 141, "bfrev", Ops, [U], [U], ALL, SM5_0, None, Plain, Plain, [];
            Swapc = 142, "swapc", Ops, [Any Any], [U Any Any], ALL, SM5_0, None, Plain, Plain, [];
            DclStream = 143, "dcl_stream", Decl(Stream), [], [], GS, SM5_0, None, None, None, [];
            DclFunctionBody = 144, "dcl_function_body", Decl(FunctionBody), [], [], ALL, SM5_0, None, None, None, [];
            DclFunctionTable = 145, "dcl_function_table", Decl(FunctionTable), [], [], ALL, SM5_0, None, None, None, [];
            DclInterface = 146, "dcl_interface", Decl(Interface), [], [], ALL, SM5_0, None, None, None, [];
            DclInputControlPointCount = 147, "dcl_input_control_point_count", Decl(ControlPointCount), [], [], HS_DS, SM5_0, None, None, None, [];
            DclOutputControlPointCount = 148, "dcl_output_control_point_count", Decl(ControlPointCount), [], [], HS, SM5_0, None, None, None, [];
            DclTessDomain = 149, "dcl_tessellator_domain", Decl(TessDomain), [], [], HS_DS, SM5_0, None, None, None, [];
            DclTessPartitioning = 150, "dcl_tessellator_partitioning", Decl(TessPartitioning), [], [], HS, SM5_0, None, None, None, [];
            DclTessOutputPrimitive = 151, "dcl_tessellator_output_primitive", Decl(TessOutputPrimitive), [], [], HS, SM5_0, None, None, None, [];
            DclHsMaxTessFactor = 152, "dcl_hs_max_tessfactor", Decl(HsMaxTessFactor), [], [], HS, SM5_0, None, None, None, [];
            DclHsForkPhaseInstanceCount = 153, "dcl_hs_fork_phase_instance_count", Decl(PhaseInstanceCount), [], [], HS, SM5_0, None, None, None, [];
            DclHsJoinPhaseInstanceCount = 154, "dcl_hs_join_phase_instance_count", Decl(PhaseInstanceCount), [], [], HS, SM5_0, None, None, None, [];
            DclThreadGroup = 155, "dcl_thread_group", Decl(ThreadGroup), [], [], CS, SM5_0, None, None, None, [];
            DclUavTyped = 156, "dcl_uav_typed", Decl(UavTyped), [], [], UAV, SM5_0, None, None, None, [];
            DclUavRaw = 157, "dcl_uav_raw", Decl(UavRaw), [], [], UAV, SM5_0, None, None, None, [];
            DclUavStructured = 158, "dcl_uav_structured", Decl(UavStructured), [], [], UAV, SM5_0, None, None, None, [];
            DclTgsmRaw = 159, "dcl_tgsm_raw", Decl(TgsmRaw), [], [], CS, SM5_0, None, None, None, [];
            DclTgsmStructured = 160, "dcl_tgsm_structured", Decl(TgsmStructured), [], [], CS, SM5_0, None, None, None, [];
            DclResourceRaw = 161, "dcl_resource_raw", Decl(ResourceRaw), [], [], ALL, SM5_0, None, None, None, [];
            DclResourceStructured = 162, "dcl_resource_structured", Decl(ResourceStructured), [], [], ALL, SM5_0, None, None, None, [];
            LdUavTyped = 163, "ld_uav_typed", Ops, [Any], [U R], UAV, SM5_0, None, Plain, LoadBuffer, [];
            StoreUavTyped = 164, "store_uav_typed", Ops, [R], [U Any], UAV, SM5_0, None, Plain, Store, [];
            LdRaw = 165, "ld_raw", Ops, [Any], [U R], ALL, SM5_0, None, Plain, LoadBuffer, [];
            StoreRaw = 166, "store_raw", Ops, [R], [U Any], UAV, SM5_0, None, Plain, Store, [];
            LdStructured = 167, "ld_structured", Ops, [Any], [U U R], ALL, SM5_0, None, Plain, LoadBuffer, [];
            StoreStructured = 168, "store_structured", Ops, [R], [U U Any], UAV, SM5_0, None, Plain, Store, [];
            AtomicAnd = 169, "atomic_and", Ops, [R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            AtomicOr = 170, "atomic_or", Ops, [R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            AtomicXor = 171, "atomic_xor", Ops, [R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            AtomicCmpStore = 172, "atomic_cmp_store", Ops, [R], [U U U], UAV, SM5_0, None, Plain, Atomic, [];
            AtomicIadd = 173, "atomic_iadd", Ops, [R], [U I], UAV, SM5_0, None, Plain, Atomic, [];
            AtomicImax = 174, "atomic_imax", Ops, [R], [U I], UAV, SM5_0, None, Plain, Atomic, [];
            AtomicImin = 175, "atomic_imin", Ops, [R], [U I], UAV, SM5_0, None, Plain, Atomic, [];
            AtomicUmax = 176, "atomic_umax", Ops, [R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            AtomicUmin = 177, "atomic_umin", Ops, [R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicAlloc = 178, "imm_atomic_alloc", Ops, [U], [R], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicConsume = 179, "imm_atomic_consume", Ops, [U], [R], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicIadd = 180, "imm_atomic_iadd", Ops, [I R], [U I], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicAnd = 181, "imm_atomic_and", Ops, [U R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicOr = 182, "imm_atomic_or", Ops, [U R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicXor = 183, "imm_atomic_xor", Ops, [U R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicExch = 184, "imm_atomic_exch", Ops, [U R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicCmpExch = 185, "imm_atomic_cmp_exch", Ops, [U R], [U U U], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicImax = 186, "imm_atomic_imax", Ops, [I R], [U I], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicImin = 187, "imm_atomic_imin", Ops, [I R], [U I], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicUmax = 188, "imm_atomic_umax", Ops, [U R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            ImmAtomicUmin = 189, "imm_atomic_umin", Ops, [U R], [U U], UAV, SM5_0, None, Plain, Atomic, [];
            Sync = 190, "sync", Ops, [], [], UAV, SM5_0, None, Sync, Barrier, [];
            Dadd = 191, "dadd", Ops, [D], [D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Dmax = 192, "dmax", Ops, [D], [D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Dmin = 193, "dmin", Ops, [D], [D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Dmul = 194, "dmul", Ops, [D], [D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Deq = 195, "deq", Ops, [U], [D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Dge = 196, "dge", Ops, [U], [D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Dlt = 197, "dlt", Ops, [U], [D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Dne = 198, "dne", Ops, [U], [D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Dmov = 199, "dmov", Ops, [D], [D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Dmovc = 200, "dmovc", Ops, [D], [U D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Dtof = 201, "dtof", Ops, [F], [D], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            Ftod = 202, "ftod", Ops, [D], [F], ALL, SM5_0, None, Plain, Plain, [DOUBLES];
            EvalSnapped = 203, "eval_snapped", Ops, [F], [F I], PS, SM5_0, None, Plain, Plain, [];
            EvalSampleIndex = 204, "eval_sample_index", Ops, [F], [F I], PS, SM5_0, None, Plain, Plain, [];
            EvalCentroid = 205, "eval_centroid", Ops, [F], [F], PS, SM5_0, None, Plain, Plain, [];
            DclGsInstanceCount = 206, "dcl_gsinstances", Decl(GsInstanceCount), [], [], GS, SM5_0, None, None, None, [];
            Abort = 207, "abort", Ops, [], [], ALL, SM5_0, Discard, Plain, Plain, [];
            DebugBreak = 208, "debug_break", Ops, [], [], ALL, SM5_0, None, Plain, Plain, [];
            Ddiv = 210, "ddiv", Ops, [D], [D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES DOUBLES_11_1];
            Dfma = 211, "dfma", Ops, [D], [D D D], ALL, SM5_0, None, Plain, Plain, [DOUBLES DOUBLES_11_1];
            Drcp = 212, "drcp", Ops, [D], [D], ALL, SM5_0, None, Plain, Plain, [DOUBLES DOUBLES_11_1];
            Msad = 213, "msad", Ops, [U], [U U U], ALL, SM5_0, None, Plain, Plain, [SHADER_EXTENSIONS_11_1];
            Dtoi = 214, "dtoi", Ops, [I], [D], ALL, SM5_0, None, Plain, Plain, [DOUBLES DOUBLES_11_1];
            Dtou = 215, "dtou", Ops, [U], [D], ALL, SM5_0, None, Plain, Plain, [DOUBLES DOUBLES_11_1];
            Itod = 216, "itod", Ops, [D], [I], ALL, SM5_0, None, Plain, Plain, [DOUBLES DOUBLES_11_1];
            Utod = 217, "utod", Ops, [D], [U], ALL, SM5_0, None, Plain, Plain, [DOUBLES DOUBLES_11_1];
            Gather4Feedback = 219, "gather4_s", Ops, [Any U], [F R R], ALL, SM5_0, None, Plain, Gather, [TILED];
            Gather4CFeedback = 220, "gather4_c_s", Ops, [Any U], [F R R F], ALL, SM5_0, None, Plain, Plain, [TILED];
            Gather4PoFeedback = 221, "gather4_po_s", Ops, [Any U], [F I R R], ALL, SM5_0, None, Plain, Gather, [TILED];
            Gather4PoCFeedback = 222, "gather4_po_c_s", Ops, [Any U], [F I R R F], ALL, SM5_0, None, Plain, Plain, [TILED];
            LdFeedback = 223, "ld_s", Ops, [Any U], [I R], ALL, SM5_0, None, Plain, LoadTyped, [TILED];
            LdMsFeedback = 224, "ldms_s", Ops, [Any U], [I R I], ALL, SM5_0, None, Plain, LoadTyped, [TILED];
            LdUavTypedFeedback = 225, "ld_uav_typed_s", Ops, [Any U], [U R], UAV, SM5_0, None, Plain, LoadBuffer, [TILED];
            LdRawFeedback = 226, "ld_raw_s", Ops, [Any U], [U R], ALL, SM5_0, None, Plain, LoadBuffer, [TILED];
            LdStructuredFeedback = 227, "ld_structured_s", Ops, [Any U], [U U R], ALL, SM5_0, None, Plain, LoadBuffer, [TILED];
            SampleLFeedback = 228, "sample_l_s", Ops, [Any U], [F R R F], ALL, SM5_0, None, Plain, SampleLevel, [TILED];
            SampleCLzFeedback = 229, "sample_c_lz_s", Ops, [Any U], [F R R F], ALL, SM5_0, None, Plain, SampleCompare, [TILED];
            SampleClampFeedback = 230, "sample_cl_s", Ops, [Any U], [F R R F], PS, SM5_0, None, Plain, Sample, [TILED];
            SampleBClampFeedback = 231, "sample_b_cl_s", Ops, [Any U], [F R R F F], PS, SM5_0, None, Plain, SampleBias, [TILED];
            SampleDClampFeedback = 232, "sample_d_cl_s", Ops, [Any U], [F R R F F F], ALL, SM5_0, None, Plain, SampleGradient, [TILED];
            SampleCClampFeedback = 233, "sample_c_cl_s", Ops, [Any U], [F R R F F], PS, SM5_0, None, Plain, SampleCompare, [TILED];
            CheckAccessFullyMapped = 234, "check_access_fully_mapped", Ops, [U], [U], ALL, SM5_0, None, Plain, Plain, [TILED];
        }
    };
}

/// Opcodes that Shader Model 4.0/4.1 compute shaders have although the table's
/// minimum model is 5.0 ("compute shaders on Direct3D 10.x hardware": raw and
/// structured buffers, one raw or structured UAV, thread-group shared memory, `sync`).
/// Atomics, append/consume, typed UAVs and the other 5.0 instructions are not among
/// them.
pub const CS_4_X: &[Opcode] = &[
    Opcode::DclThreadGroup,
    Opcode::DclTgsmRaw,
    Opcode::DclTgsmStructured,
    Opcode::DclUavRaw,
    Opcode::DclUavStructured,
    Opcode::DclResourceRaw,
    Opcode::DclResourceStructured,
    Opcode::LdRaw,
    Opcode::LdStructured,
    Opcode::StoreRaw,
    Opcode::StoreStructured,
    Opcode::Sync,
];

/// Opcodes every Shader Model 4.x stage has for raw and structured *shader resource*
/// buffers (`dcl_globalFlags enableRawAndStructuredBuffers`), although the table's
/// minimum model is 5.0.
pub const SM4_X_RAW_STRUCTURED: &[Opcode] =
    &[Opcode::DclResourceRaw, Opcode::DclResourceStructured, Opcode::LdRaw, Opcode::LdStructured];

impl OpInfo {
    /// The first shader model in which `stage` has this instruction: the row's
    /// `min_model`, lowered to 4.0 for the Shader Model 4.x compute and raw/structured
    /// buffer exceptions ([`CS_4_X`], [`SM4_X_RAW_STRUCTURED`]).
    pub fn min_model_in(&self, stage: ProgramType) -> Model {
        if self.min_model == Model::SM5_0
            && (SM4_X_RAW_STRUCTURED.contains(&self.opcode)
                || (stage == ProgramType::Compute && CS_4_X.contains(&self.opcode)))
        {
            return Model::SM4_0;
        }
        self.min_model
    }
}

/// Where each register type (operand type) exists: the stages that have it and the
/// first shader model. `u#` is a UAV ([`Stages::UAV`]); `g#` and the compute
/// thread-ID registers exist in Shader Model 4.x compute shaders too.
pub fn operand_availability(ty: OperandType) -> (Stages, Model) {
    use OperandType as T;
    const PRIM: Stages = Stages(2 | 4 | 8 | 16);
    match ty {
        T::Temp
        | T::IndexableTemp
        | T::Immediate32
        | T::Sampler
        | T::Resource
        | T::ConstantBuffer
        | T::ImmediateConstantBuffer
        | T::Label
        | T::Null => (Stages::ALL, Model::SM4_0),
        T::Immediate64 => (Stages::ALL, Model::SM5_0),
        T::Input | T::Output | T::Rasterizer => (Stages::GRAPHICS, Model::SM4_0),
        T::InputPrimitiveId => (PRIM, Model::SM4_0),
        T::OutputDepth => (Stages::PS, Model::SM4_0),
        T::OutputCoverageMask => (Stages::PS, Model::SM4_1),
        T::Stream | T::InputGsInstanceId => (Stages::GS, Model::SM5_0),
        T::FunctionBody
        | T::FunctionTable
        | T::Interface
        | T::FunctionInput
        | T::FunctionOutput
        | T::ThisPointer
        | T::CycleCounter => (Stages::ALL, Model::SM5_0),
        T::OutputControlPointId | T::InputForkInstanceId | T::InputJoinInstanceId => (Stages::HS, Model::SM5_0),
        T::InputControlPoint | T::OutputControlPoint | T::InputPatchConstant => (Stages::HS_DS, Model::SM5_0),
        T::InputDomainPoint => (Stages::DS, Model::SM5_0),
        T::UnorderedAccessView => (Stages::UAV, Model::SM5_0),
        T::ThreadGroupSharedMemory
        | T::InputThreadId
        | T::InputThreadGroupId
        | T::InputThreadIdInGroup
        | T::InputThreadIdInGroupFlattened => (Stages::CS, Model::SM4_0),
        T::InputCoverageMask
        | T::OutputDepthGreaterEqual
        | T::OutputDepthLessEqual
        | T::OutputStencilRef
        | T::InnerCoverage => (Stages::PS, Model::SM5_0),
        T::Unknown(_) => (Stages(0), Model::SM5_1),
    }
}

const fn build_index() -> [u8; 256] {
    let mut index = [u8::MAX; 256];
    let mut i = 0;
    while i < TABLE.len() {
        index[TABLE[i].opcode as usize] = i as u8;
        i += 1;
    }
    index
}

/// Row of each opcode number, `u8::MAX` where the number is not an opcode.
static INDEX: [u8; 256] = build_index();

impl Opcode {
    /// The opcode with number `n`, if there is one.
    #[inline]
    pub fn from_u16(n: u16) -> Option<Opcode> {
        let row = *INDEX.get(n as usize)?;
        (row != u8::MAX).then(|| TABLE[row as usize].opcode)
    }

    /// This opcode's row of the table.
    #[inline]
    pub fn info(self) -> &'static OpInfo {
        &TABLE[INDEX[self as usize] as usize]
    }

    /// fxc's mnemonic.
    #[inline]
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }

    /// The opcode whose mnemonic is `name` (base spelling, no suffixes).
    pub fn from_mnemonic(name: &str) -> Option<Opcode> {
        TABLE.iter().find(|r| r.mnemonic == name).map(|r| r.opcode)
    }

    /// True for declarations (`dcl_*`, and the custom-data blocks that declare data).
    pub fn is_declaration(self) -> bool {
        matches!(self.info().shape, Shape::Decl(_))
    }
}

impl Ty {
    /// The name the instruction reference (`docs/INSTRUCTIONS.md`) uses.
    pub fn name(self) -> &'static str {
        match self {
            Ty::F => "float",
            Ty::I => "int",
            Ty::U => "uint",
            Ty::D => "double",
            Ty::Any => "any",
            Ty::R => "object",
        }
    }
}

impl OpFeatures {
    /// The names of the features in the set, for the instruction reference.
    pub fn names(self) -> Vec<&'static str> {
        [
            (OpFeatures::DOUBLES, "doubles"),
            (OpFeatures::DOUBLES_11_1, "11.1 doubles"),
            (OpFeatures::SHADER_EXTENSIONS_11_1, "11.1 shader extensions"),
            (OpFeatures::TILED, "tiled resources"),
        ]
        .into_iter()
        .filter(|(f, _)| self.contains(*f))
        .map(|(_, n)| n)
        .collect()
    }
}

/// The table as the Markdown rows of `docs/INSTRUCTIONS.md` (a test keeps the file equal
/// to this text): one row per opcode with everything the table says about it.
pub fn markdown() -> String {
    use std::fmt::Write;
    let mut out = String::from(
        "| # | Mnemonic | Layout | Destinations | Sources | Stages | From | Flow | Controls | STAT class | Features |\n\
         |--:|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let types = |t: &[Ty]| t.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
    for row in TABLE {
        let layout = match row.shape {
            Shape::Ops => "operands".to_string(),
            Shape::InterfaceCall => "fcall".to_string(),
            Shape::CustomData => "custom data".to_string(),
            Shape::Decl(kind) => format!("{kind:?}"),
        };
        let mut stages = row.stages.names().join(" ");
        if row.stages.is_uav() {
            stages.push_str(" (+all with 11.1 UAVs)");
        }
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {} | {}.{} | {:?} | {:?} | {:?} | {} |",
            row.opcode as u16,
            row.mnemonic,
            layout,
            types(row.dst),
            types(row.src),
            stages,
            row.min_model.0,
            row.min_model.1,
            row.flow,
            row.controls,
            row.stat,
            row.features.names().join(", "),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_indexed() {
        for pair in TABLE.windows(2) {
            assert!(pair[0].opcode < pair[1].opcode, "{:?} out of order", pair[1].opcode);
        }
        for row in TABLE {
            assert_eq!(Opcode::from_u16(row.opcode as u16), Some(row.opcode));
            assert_eq!(row.opcode.info().mnemonic, row.mnemonic);
        }
        // Reserved numbers are not opcodes.
        for n in [107u16, 112, 209, 218, 235, 300, 2047] {
            assert_eq!(Opcode::from_u16(n), None, "{n}");
        }
        assert_eq!(TABLE.len(), 231);
    }

    #[test]
    fn every_mnemonic_is_unique() {
        let mut names: Vec<_> = TABLE.iter().map(|r| r.mnemonic).collect();
        names.sort();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
    }
}
