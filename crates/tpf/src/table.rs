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
    Resource,
    ConstantBuffer,
    Sampler,
    IndexRange,
    OutputTopology,
    InputPrimitive,
    MaxOutputVertexCount,
    /// `dcl_input`, `dcl_output`: one operand.
    Register,
    /// `dcl_*_sgv`, `dcl_*_siv`: an operand and a system-value name.
    RegisterName,
    /// `dcl_input_ps`: interpolation mode, operand.
    InputPs,
    /// `dcl_input_ps_sgv/siv`: interpolation mode, operand, name.
    InputPsName,
    Temps,
    IndexableTemp,
    GlobalFlags,
    Stream,
    FunctionBody,
    FunctionTable,
    Interface,
    /// `dcl_input/output_control_point_count`.
    ControlPointCount,
    TessDomain,
    TessPartitioning,
    TessOutputPrimitive,
    HsMaxTessFactor,
    /// `dcl_hs_fork/join_phase_instance_count`.
    PhaseInstanceCount,
    ThreadGroup,
    UavTyped,
    UavRaw,
    UavStructured,
    TgsmRaw,
    TgsmStructured,
    ResourceRaw,
    ResourceStructured,
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
    None,
    If,
    Else,
    EndIf,
    Loop,
    EndLoop,
    Switch,
    Case,
    Default,
    EndSwitch,
    Break,
    Continue,
    Call,
    Return,
    Label,
    InterfaceCall,
    /// Ends the invocation's pixel (`discard`) or program (`abort`).
    Discard,
    /// `emit`, `cut` and their stream forms.
    Emit,
    Cut,
    EmitThenCut,
    /// Start of a hull-shader phase.
    Phase,
}

/// A shader model, `major.minor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Model(pub u8, pub u8);

impl Model {
    pub const SM4_0: Model = Model(4, 0);
    pub const SM4_1: Model = Model(4, 1);
    pub const SM5_0: Model = Model(5, 0);
    pub const SM5_1: Model = Model(5, 1);
}

/// A set of shader stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stages(pub u8);

impl Stages {
    pub const VS: Stages = Stages(1);
    pub const HS: Stages = Stages(2);
    pub const DS: Stages = Stages(4);
    pub const GS: Stages = Stages(8);
    pub const PS: Stages = Stages(16);
    pub const CS: Stages = Stages(32);
    pub const ALL: Stages = Stages(63);
    pub const PS_CS: Stages = Stages(16 | 32);
    /// UAV access: pixel and compute shaders, and every stage on a Direct3D 11.1
    /// runtime whose device supports UAVs at every stage (bit 6 marks the row so).
    pub const UAV: Stages = Stages(16 | 32 | 64);
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
    pub opcode: Opcode,
    /// fxc's spelling, without suffixes (`_sat`, `_z`, `_indexable(...)`...).
    pub mnemonic: &'static str,
    pub shape: Shape,
    /// Numeric type of each destination operand.
    pub dst: &'static [Ty],
    /// Numeric type of each source operand.
    pub src: &'static [Ty],
    pub stages: Stages,
    pub min_model: Model,
    pub flow: Flow,
    pub controls: Controls,
}

impl OpInfo {
    /// Number of operands of an [`Shape::Ops`] instruction.
    pub fn operand_count(&self) -> usize {
        self.dst.len() + self.src.len()
    }
}

macro_rules! table {
    ($( $variant:ident = $num:literal, $mn:literal, $shape:expr, [$($d:ident)*], [$($s:ident)*], $stages:ident, $model:ident, $flow:ident, $ctl:ident; )*) => {
        /// An SM4/SM5 opcode (opcode token bits 10:0).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode {
            $( $variant = $num, )*
        }

        /// Every row, in opcode order.
        pub static TABLE: &[OpInfo] = &[
            $( OpInfo {
                opcode: Opcode::$variant,
                mnemonic: $mn,
                shape: $shape,
                dst: &[$(Ty::$d),*],
                src: &[$(Ty::$s),*],
                stages: Stages::$stages,
                min_model: Model::$model,
                flow: Flow::$flow,
                controls: Controls::$ctl,
            }, )*
        ];
    };
}

use DeclKind as K;
use Shape::{CustomData as Custom, Decl, InterfaceCall as Fcall, Ops};

table! {
    Add = 0, "add", Ops, [F], [F F], ALL, SM4_0, None, Plain;
    And = 1, "and", Ops, [U], [U U], ALL, SM4_0, None, Plain;
    Break = 2, "break", Ops, [], [], ALL, SM4_0, Break, Plain;
    Breakc = 3, "breakc", Ops, [], [U], ALL, SM4_0, Break, Test;
    Call = 4, "call", Ops, [], [R], ALL, SM4_0, Call, Plain;
    Callc = 5, "callc", Ops, [], [U R], ALL, SM4_0, Call, Test;
    Case = 6, "case", Ops, [], [U], ALL, SM4_0, Case, Plain;
    Continue = 7, "continue", Ops, [], [], ALL, SM4_0, Continue, Plain;
    Continuec = 8, "continuec", Ops, [], [U], ALL, SM4_0, Continue, Test;
    Cut = 9, "cut", Ops, [], [], GS, SM4_0, Cut, Plain;
    Default = 10, "default", Ops, [], [], ALL, SM4_0, Default, Plain;
    DerivRtx = 11, "deriv_rtx", Ops, [F], [F], PS, SM4_0, None, Plain;
    DerivRty = 12, "deriv_rty", Ops, [F], [F], PS, SM4_0, None, Plain;
    Discard = 13, "discard", Ops, [], [U], PS, SM4_0, Discard, Test;
    Div = 14, "div", Ops, [F], [F F], ALL, SM4_0, None, Plain;
    Dp2 = 15, "dp2", Ops, [F], [F F], ALL, SM4_0, None, Plain;
    Dp3 = 16, "dp3", Ops, [F], [F F], ALL, SM4_0, None, Plain;
    Dp4 = 17, "dp4", Ops, [F], [F F], ALL, SM4_0, None, Plain;
    Else = 18, "else", Ops, [], [], ALL, SM4_0, Else, Plain;
    Emit = 19, "emit", Ops, [], [], GS, SM4_0, Emit, Plain;
    EmitThenCut = 20, "emit_then_cut", Ops, [], [], GS, SM4_0, EmitThenCut, Plain;
    EndIf = 21, "endif", Ops, [], [], ALL, SM4_0, EndIf, Plain;
    EndLoop = 22, "endloop", Ops, [], [], ALL, SM4_0, EndLoop, Plain;
    EndSwitch = 23, "endswitch", Ops, [], [], ALL, SM4_0, EndSwitch, Plain;
    Eq = 24, "eq", Ops, [U], [F F], ALL, SM4_0, None, Plain;
    Exp = 25, "exp", Ops, [F], [F], ALL, SM4_0, None, Plain;
    Frc = 26, "frc", Ops, [F], [F], ALL, SM4_0, None, Plain;
    Ftoi = 27, "ftoi", Ops, [I], [F], ALL, SM4_0, None, Plain;
    Ftou = 28, "ftou", Ops, [U], [F], ALL, SM4_0, None, Plain;
    Ge = 29, "ge", Ops, [U], [F F], ALL, SM4_0, None, Plain;
    Iadd = 30, "iadd", Ops, [I], [I I], ALL, SM4_0, None, Plain;
    If = 31, "if", Ops, [], [U], ALL, SM4_0, If, Test;
    Ieq = 32, "ieq", Ops, [U], [I I], ALL, SM4_0, None, Plain;
    Ige = 33, "ige", Ops, [U], [I I], ALL, SM4_0, None, Plain;
    Ilt = 34, "ilt", Ops, [U], [I I], ALL, SM4_0, None, Plain;
    Imad = 35, "imad", Ops, [I], [I I I], ALL, SM4_0, None, Plain;
    Imax = 36, "imax", Ops, [I], [I I], ALL, SM4_0, None, Plain;
    Imin = 37, "imin", Ops, [I], [I I], ALL, SM4_0, None, Plain;
    Imul = 38, "imul", Ops, [I I], [I I], ALL, SM4_0, None, Plain;
    Ine = 39, "ine", Ops, [U], [I I], ALL, SM4_0, None, Plain;
    Ineg = 40, "ineg", Ops, [I], [I], ALL, SM4_0, None, Plain;
    Ishl = 41, "ishl", Ops, [I], [I U], ALL, SM4_0, None, Plain;
    Ishr = 42, "ishr", Ops, [I], [I U], ALL, SM4_0, None, Plain;
    Itof = 43, "itof", Ops, [F], [I], ALL, SM4_0, None, Plain;
    Label = 44, "label", Ops, [], [R], ALL, SM4_0, Label, Plain;
    Ld = 45, "ld", Ops, [Any], [I R], ALL, SM4_0, None, Plain;
    LdMs = 46, "ldms", Ops, [Any], [I R I], ALL, SM4_0, None, Plain;
    Log = 47, "log", Ops, [F], [F], ALL, SM4_0, None, Plain;
    Loop = 48, "loop", Ops, [], [], ALL, SM4_0, Loop, Plain;
    Lt = 49, "lt", Ops, [U], [F F], ALL, SM4_0, None, Plain;
    Mad = 50, "mad", Ops, [F], [F F F], ALL, SM4_0, None, Plain;
    Min = 51, "min", Ops, [F], [F F], ALL, SM4_0, None, Plain;
    Max = 52, "max", Ops, [F], [F F], ALL, SM4_0, None, Plain;
    CustomData = 53, "customdata", Custom, [], [], ALL, SM4_0, None, None;
    Mov = 54, "mov", Ops, [Any], [Any], ALL, SM4_0, None, Plain;
    Movc = 55, "movc", Ops, [Any], [U Any Any], ALL, SM4_0, None, Plain;
    Mul = 56, "mul", Ops, [F], [F F], ALL, SM4_0, None, Plain;
    Ne = 57, "ne", Ops, [U], [F F], ALL, SM4_0, None, Plain;
    Nop = 58, "nop", Ops, [], [], ALL, SM4_0, None, Plain;
    Not = 59, "not", Ops, [U], [U], ALL, SM4_0, None, Plain;
    Or = 60, "or", Ops, [U], [U U], ALL, SM4_0, None, Plain;
    ResInfo = 61, "resinfo", Ops, [Any], [U R], ALL, SM4_0, None, ResInfo;
    Ret = 62, "ret", Ops, [], [], ALL, SM4_0, Return, Plain;
    Retc = 63, "retc", Ops, [], [U], ALL, SM4_0, Return, Test;
    RoundNe = 64, "round_ne", Ops, [F], [F], ALL, SM4_0, None, Plain;
    RoundNi = 65, "round_ni", Ops, [F], [F], ALL, SM4_0, None, Plain;
    RoundPi = 66, "round_pi", Ops, [F], [F], ALL, SM4_0, None, Plain;
    RoundZ = 67, "round_z", Ops, [F], [F], ALL, SM4_0, None, Plain;
    Rsq = 68, "rsq", Ops, [F], [F], ALL, SM4_0, None, Plain;
    Sample = 69, "sample", Ops, [Any], [F R R], PS, SM4_0, None, Plain;
    SampleC = 70, "sample_c", Ops, [Any], [F R R F], PS, SM4_0, None, Plain;
    SampleCLz = 71, "sample_c_lz", Ops, [Any], [F R R F], ALL, SM4_0, None, Plain;
    SampleL = 72, "sample_l", Ops, [Any], [F R R F], ALL, SM4_0, None, Plain;
    SampleD = 73, "sample_d", Ops, [Any], [F R R F F], ALL, SM4_0, None, Plain;
    SampleB = 74, "sample_b", Ops, [Any], [F R R F], PS, SM4_0, None, Plain;
    Sqrt = 75, "sqrt", Ops, [F], [F], ALL, SM4_0, None, Plain;
    Switch = 76, "switch", Ops, [], [I], ALL, SM4_0, Switch, Plain;
    SinCos = 77, "sincos", Ops, [F F], [F], ALL, SM4_0, None, Plain;
    Udiv = 78, "udiv", Ops, [U U], [U U], ALL, SM4_0, None, Plain;
    Ult = 79, "ult", Ops, [U], [U U], ALL, SM4_0, None, Plain;
    Uge = 80, "uge", Ops, [U], [U U], ALL, SM4_0, None, Plain;
    Umul = 81, "umul", Ops, [U U], [U U], ALL, SM4_0, None, Plain;
    Umad = 82, "umad", Ops, [U], [U U U], ALL, SM4_0, None, Plain;
    Umax = 83, "umax", Ops, [U], [U U], ALL, SM4_0, None, Plain;
    Umin = 84, "umin", Ops, [U], [U U], ALL, SM4_0, None, Plain;
    Ushr = 85, "ushr", Ops, [U], [U U], ALL, SM4_0, None, Plain;
    Utof = 86, "utof", Ops, [F], [U], ALL, SM4_0, None, Plain;
    Xor = 87, "xor", Ops, [U], [U U], ALL, SM4_0, None, Plain;
    DclResource = 88, "dcl_resource", Decl(K::Resource), [], [], ALL, SM4_0, None, None;
    DclConstantBuffer = 89, "dcl_constantbuffer", Decl(K::ConstantBuffer), [], [], ALL, SM4_0, None, None;
    DclSampler = 90, "dcl_sampler", Decl(K::Sampler), [], [], ALL, SM4_0, None, None;
    DclIndexRange = 91, "dcl_indexrange", Decl(K::IndexRange), [], [], GRAPHICS, SM4_0, None, None;
    DclOutputTopology = 92, "dcl_outputtopology", Decl(K::OutputTopology), [], [], GS, SM4_0, None, None;
    DclInputPrimitive = 93, "dcl_inputprimitive", Decl(K::InputPrimitive), [], [], GS, SM4_0, None, None;
    DclMaxOutputVertexCount = 94, "dcl_maxout", Decl(K::MaxOutputVertexCount), [], [], GS, SM4_0, None, None;
    DclInput = 95, "dcl_input", Decl(K::Register), [], [], ALL, SM4_0, None, None;
    DclInputSgv = 96, "dcl_input_sgv", Decl(K::RegisterName), [], [], GRAPHICS, SM4_0, None, None;
    DclInputSiv = 97, "dcl_input_siv", Decl(K::RegisterName), [], [], GRAPHICS, SM4_0, None, None;
    DclInputPs = 98, "dcl_input_ps", Decl(K::InputPs), [], [], PS, SM4_0, None, None;
    DclInputPsSgv = 99, "dcl_input_ps_sgv", Decl(K::InputPsName), [], [], PS, SM4_0, None, None;
    DclInputPsSiv = 100, "dcl_input_ps_siv", Decl(K::InputPsName), [], [], PS, SM4_0, None, None;
    DclOutput = 101, "dcl_output", Decl(K::Register), [], [], GRAPHICS, SM4_0, None, None;
    DclOutputSgv = 102, "dcl_output_sgv", Decl(K::RegisterName), [], [], GRAPHICS, SM4_0, None, None;
    DclOutputSiv = 103, "dcl_output_siv", Decl(K::RegisterName), [], [], GRAPHICS, SM4_0, None, None;
    DclTemps = 104, "dcl_temps", Decl(K::Temps), [], [], ALL, SM4_0, None, None;
    DclIndexableTemp = 105, "dcl_indexableTemp", Decl(K::IndexableTemp), [], [], ALL, SM4_0, None, None;
    DclGlobalFlags = 106, "dcl_globalFlags", Decl(K::GlobalFlags), [], [], ALL, SM4_0, None, None;
    Lod = 108, "lod", Ops, [F], [F R R], PS, SM4_1, None, Plain;
    Gather4 = 109, "gather4", Ops, [Any], [F R R], ALL, SM4_1, None, Plain;
    SamplePos = 110, "samplepos", Ops, [F], [R I], ALL, SM4_1, None, ReturnType;
    SampleInfo = 111, "sampleinfo", Ops, [Any], [R], ALL, SM4_1, None, ReturnType;
    HsDecls = 113, "hs_decls", Ops, [], [], HS, SM5_0, Phase, Plain;
    HsControlPointPhase = 114, "hs_control_point_phase", Ops, [], [], HS, SM5_0, Phase, Plain;
    HsForkPhase = 115, "hs_fork_phase", Ops, [], [], HS, SM5_0, Phase, Plain;
    HsJoinPhase = 116, "hs_join_phase", Ops, [], [], HS, SM5_0, Phase, Plain;
    EmitStream = 117, "emit_stream", Ops, [], [R], GS, SM5_0, Emit, Plain;
    CutStream = 118, "cut_stream", Ops, [], [R], GS, SM5_0, Cut, Plain;
    EmitThenCutStream = 119, "emit_then_cut_stream", Ops, [], [R], GS, SM5_0, EmitThenCut, Plain;
    InterfaceCall = 120, "fcall", Fcall, [], [R], ALL, SM5_0, InterfaceCall, Plain;
    BufInfo = 121, "bufinfo", Ops, [U], [R], ALL, SM5_0, None, Plain;
    DerivRtxCoarse = 122, "deriv_rtx_coarse", Ops, [F], [F], PS, SM5_0, None, Plain;
    DerivRtxFine = 123, "deriv_rtx_fine", Ops, [F], [F], PS, SM5_0, None, Plain;
    DerivRtyCoarse = 124, "deriv_rty_coarse", Ops, [F], [F], PS, SM5_0, None, Plain;
    DerivRtyFine = 125, "deriv_rty_fine", Ops, [F], [F], PS, SM5_0, None, Plain;
    Gather4C = 126, "gather4_c", Ops, [Any], [F R R F], ALL, SM5_0, None, Plain;
    Gather4Po = 127, "gather4_po", Ops, [Any], [F I R R], ALL, SM5_0, None, Plain;
    Gather4PoC = 128, "gather4_po_c", Ops, [Any], [F I R R F], ALL, SM5_0, None, Plain;
    Rcp = 129, "rcp", Ops, [F], [F], ALL, SM5_0, None, Plain;
    F32ToF16 = 130, "f32tof16", Ops, [U], [F], ALL, SM5_0, None, Plain;
    F16ToF32 = 131, "f16tof32", Ops, [F], [U], ALL, SM5_0, None, Plain;
    Uaddc = 132, "uaddc", Ops, [U U], [U U], ALL, SM5_0, None, Plain;
    Usubb = 133, "usubb", Ops, [U U], [U U], ALL, SM5_0, None, Plain;
    CountBits = 134, "countbits", Ops, [U], [U], ALL, SM5_0, None, Plain;
    FirstBitHi = 135, "firstbit_hi", Ops, [U], [U], ALL, SM5_0, None, Plain;
    FirstBitLo = 136, "firstbit_lo", Ops, [U], [U], ALL, SM5_0, None, Plain;
    FirstBitShi = 137, "firstbit_shi", Ops, [U], [I], ALL, SM5_0, None, Plain;
    Ubfe = 138, "ubfe", Ops, [U], [U U U], ALL, SM5_0, None, Plain;
    Ibfe = 139, "ibfe", Ops, [I], [U U I], ALL, SM5_0, None, Plain;
    Bfi = 140, "bfi", Ops, [U], [U U U U], ALL, SM5_0, None, Plain;
    Bfrev = 141, "bfrev", Ops, [U], [U], ALL, SM5_0, None, Plain;
    Swapc = 142, "swapc", Ops, [Any Any], [U Any Any], ALL, SM5_0, None, Plain;
    DclStream = 143, "dcl_stream", Decl(K::Stream), [], [], GS, SM5_0, None, None;
    DclFunctionBody = 144, "dcl_function_body", Decl(K::FunctionBody), [], [], ALL, SM5_0, None, None;
    DclFunctionTable = 145, "dcl_function_table", Decl(K::FunctionTable), [], [], ALL, SM5_0, None, None;
    DclInterface = 146, "dcl_interface", Decl(K::Interface), [], [], ALL, SM5_0, None, None;
    DclInputControlPointCount = 147, "dcl_input_control_point_count", Decl(K::ControlPointCount), [], [], HS_DS, SM5_0, None, None;
    DclOutputControlPointCount = 148, "dcl_output_control_point_count", Decl(K::ControlPointCount), [], [], HS, SM5_0, None, None;
    DclTessDomain = 149, "dcl_tessellator_domain", Decl(K::TessDomain), [], [], HS_DS, SM5_0, None, None;
    DclTessPartitioning = 150, "dcl_tessellator_partitioning", Decl(K::TessPartitioning), [], [], HS, SM5_0, None, None;
    DclTessOutputPrimitive = 151, "dcl_tessellator_output_primitive", Decl(K::TessOutputPrimitive), [], [], HS, SM5_0, None, None;
    DclHsMaxTessFactor = 152, "dcl_hs_max_tessfactor", Decl(K::HsMaxTessFactor), [], [], HS, SM5_0, None, None;
    DclHsForkPhaseInstanceCount = 153, "dcl_hs_fork_phase_instance_count", Decl(K::PhaseInstanceCount), [], [], HS, SM5_0, None, None;
    DclHsJoinPhaseInstanceCount = 154, "dcl_hs_join_phase_instance_count", Decl(K::PhaseInstanceCount), [], [], HS, SM5_0, None, None;
    DclThreadGroup = 155, "dcl_thread_group", Decl(K::ThreadGroup), [], [], CS, SM5_0, None, None;
    DclUavTyped = 156, "dcl_uav_typed", Decl(K::UavTyped), [], [], UAV, SM5_0, None, None;
    DclUavRaw = 157, "dcl_uav_raw", Decl(K::UavRaw), [], [], UAV, SM5_0, None, None;
    DclUavStructured = 158, "dcl_uav_structured", Decl(K::UavStructured), [], [], UAV, SM5_0, None, None;
    DclTgsmRaw = 159, "dcl_tgsm_raw", Decl(K::TgsmRaw), [], [], CS, SM5_0, None, None;
    DclTgsmStructured = 160, "dcl_tgsm_structured", Decl(K::TgsmStructured), [], [], CS, SM5_0, None, None;
    DclResourceRaw = 161, "dcl_resource_raw", Decl(K::ResourceRaw), [], [], ALL, SM5_0, None, None;
    DclResourceStructured = 162, "dcl_resource_structured", Decl(K::ResourceStructured), [], [], ALL, SM5_0, None, None;
    LdUavTyped = 163, "ld_uav_typed", Ops, [Any], [U R], UAV, SM5_0, None, Plain;
    StoreUavTyped = 164, "store_uav_typed", Ops, [R], [U Any], UAV, SM5_0, None, Plain;
    LdRaw = 165, "ld_raw", Ops, [Any], [U R], ALL, SM5_0, None, Plain;
    StoreRaw = 166, "store_raw", Ops, [R], [U Any], UAV, SM5_0, None, Plain;
    LdStructured = 167, "ld_structured", Ops, [Any], [U U R], ALL, SM5_0, None, Plain;
    StoreStructured = 168, "store_structured", Ops, [R], [U U Any], UAV, SM5_0, None, Plain;
    AtomicAnd = 169, "atomic_and", Ops, [R], [U U], UAV, SM5_0, None, Plain;
    AtomicOr = 170, "atomic_or", Ops, [R], [U U], UAV, SM5_0, None, Plain;
    AtomicXor = 171, "atomic_xor", Ops, [R], [U U], UAV, SM5_0, None, Plain;
    AtomicCmpStore = 172, "atomic_cmp_store", Ops, [R], [U U U], UAV, SM5_0, None, Plain;
    AtomicIadd = 173, "atomic_iadd", Ops, [R], [U I], UAV, SM5_0, None, Plain;
    AtomicImax = 174, "atomic_imax", Ops, [R], [U I], UAV, SM5_0, None, Plain;
    AtomicImin = 175, "atomic_imin", Ops, [R], [U I], UAV, SM5_0, None, Plain;
    AtomicUmax = 176, "atomic_umax", Ops, [R], [U U], UAV, SM5_0, None, Plain;
    AtomicUmin = 177, "atomic_umin", Ops, [R], [U U], UAV, SM5_0, None, Plain;
    ImmAtomicAlloc = 178, "imm_atomic_alloc", Ops, [U], [R], UAV, SM5_0, None, Plain;
    ImmAtomicConsume = 179, "imm_atomic_consume", Ops, [U], [R], UAV, SM5_0, None, Plain;
    ImmAtomicIadd = 180, "imm_atomic_iadd", Ops, [I R], [U I], UAV, SM5_0, None, Plain;
    ImmAtomicAnd = 181, "imm_atomic_and", Ops, [U R], [U U], UAV, SM5_0, None, Plain;
    ImmAtomicOr = 182, "imm_atomic_or", Ops, [U R], [U U], UAV, SM5_0, None, Plain;
    ImmAtomicXor = 183, "imm_atomic_xor", Ops, [U R], [U U], UAV, SM5_0, None, Plain;
    ImmAtomicExch = 184, "imm_atomic_exch", Ops, [U R], [U U], UAV, SM5_0, None, Plain;
    ImmAtomicCmpExch = 185, "imm_atomic_cmp_exch", Ops, [U R], [U U U], UAV, SM5_0, None, Plain;
    ImmAtomicImax = 186, "imm_atomic_imax", Ops, [I R], [U I], UAV, SM5_0, None, Plain;
    ImmAtomicImin = 187, "imm_atomic_imin", Ops, [I R], [U I], UAV, SM5_0, None, Plain;
    ImmAtomicUmax = 188, "imm_atomic_umax", Ops, [U R], [U U], UAV, SM5_0, None, Plain;
    ImmAtomicUmin = 189, "imm_atomic_umin", Ops, [U R], [U U], UAV, SM5_0, None, Plain;
    Sync = 190, "sync", Ops, [], [], UAV, SM5_0, None, Sync;
    Dadd = 191, "dadd", Ops, [D], [D D], ALL, SM5_0, None, Plain;
    Dmax = 192, "dmax", Ops, [D], [D D], ALL, SM5_0, None, Plain;
    Dmin = 193, "dmin", Ops, [D], [D D], ALL, SM5_0, None, Plain;
    Dmul = 194, "dmul", Ops, [D], [D D], ALL, SM5_0, None, Plain;
    Deq = 195, "deq", Ops, [U], [D D], ALL, SM5_0, None, Plain;
    Dge = 196, "dge", Ops, [U], [D D], ALL, SM5_0, None, Plain;
    Dlt = 197, "dlt", Ops, [U], [D D], ALL, SM5_0, None, Plain;
    Dne = 198, "dne", Ops, [U], [D D], ALL, SM5_0, None, Plain;
    Dmov = 199, "dmov", Ops, [D], [D], ALL, SM5_0, None, Plain;
    Dmovc = 200, "dmovc", Ops, [D], [U D D], ALL, SM5_0, None, Plain;
    Dtof = 201, "dtof", Ops, [F], [D], ALL, SM5_0, None, Plain;
    Ftod = 202, "ftod", Ops, [D], [F], ALL, SM5_0, None, Plain;
    EvalSnapped = 203, "eval_snapped", Ops, [F], [F I], PS, SM5_0, None, Plain;
    EvalSampleIndex = 204, "eval_sample_index", Ops, [F], [F I], PS, SM5_0, None, Plain;
    EvalCentroid = 205, "eval_centroid", Ops, [F], [F], PS, SM5_0, None, Plain;
    DclGsInstanceCount = 206, "dcl_gsinstances", Decl(K::GsInstanceCount), [], [], GS, SM5_0, None, None;
    Abort = 207, "abort", Ops, [], [], ALL, SM5_0, Discard, Plain;
    DebugBreak = 208, "debug_break", Ops, [], [], ALL, SM5_0, None, Plain;
    Ddiv = 210, "ddiv", Ops, [D], [D D], ALL, SM5_0, None, Plain;
    Dfma = 211, "dfma", Ops, [D], [D D D], ALL, SM5_0, None, Plain;
    Drcp = 212, "drcp", Ops, [D], [D], ALL, SM5_0, None, Plain;
    Msad = 213, "msad", Ops, [U], [U U U], ALL, SM5_0, None, Plain;
    Dtoi = 214, "dtoi", Ops, [I], [D], ALL, SM5_0, None, Plain;
    Dtou = 215, "dtou", Ops, [U], [D], ALL, SM5_0, None, Plain;
    Itod = 216, "itod", Ops, [D], [I], ALL, SM5_0, None, Plain;
    Utod = 217, "utod", Ops, [D], [U], ALL, SM5_0, None, Plain;
    Gather4Feedback = 219, "gather4_s", Ops, [Any U], [F R R], ALL, SM5_0, None, Plain;
    Gather4CFeedback = 220, "gather4_c_s", Ops, [Any U], [F R R F], ALL, SM5_0, None, Plain;
    Gather4PoFeedback = 221, "gather4_po_s", Ops, [Any U], [F I R R], ALL, SM5_0, None, Plain;
    Gather4PoCFeedback = 222, "gather4_po_c_s", Ops, [Any U], [F I R R F], ALL, SM5_0, None, Plain;
    LdFeedback = 223, "ld_s", Ops, [Any U], [I R], ALL, SM5_0, None, Plain;
    LdMsFeedback = 224, "ldms_s", Ops, [Any U], [I R I], ALL, SM5_0, None, Plain;
    LdUavTypedFeedback = 225, "ld_uav_typed_s", Ops, [Any U], [U R], UAV, SM5_0, None, Plain;
    LdRawFeedback = 226, "ld_raw_s", Ops, [Any U], [U R], ALL, SM5_0, None, Plain;
    LdStructuredFeedback = 227, "ld_structured_s", Ops, [Any U], [U U R], ALL, SM5_0, None, Plain;
    SampleLFeedback = 228, "sample_l_s", Ops, [Any U], [F R R F], ALL, SM5_0, None, Plain;
    SampleCLzFeedback = 229, "sample_c_lz_s", Ops, [Any U], [F R R F], ALL, SM5_0, None, Plain;
    SampleClampFeedback = 230, "sample_cl_s", Ops, [Any U], [F R R F], PS, SM5_0, None, Plain;
    SampleBClampFeedback = 231, "sample_b_cl_s", Ops, [Any U], [F R R F F], PS, SM5_0, None, Plain;
    SampleDClampFeedback = 232, "sample_d_cl_s", Ops, [Any U], [F R R F F F], ALL, SM5_0, None, Plain;
    SampleCClampFeedback = 233, "sample_c_cl_s", Ops, [Any U], [F R R F F], PS, SM5_0, None, Plain;
    CheckAccessFullyMapped = 234, "check_access_fully_mapped", Ops, [U], [U], ALL, SM5_0, None, Plain;
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
