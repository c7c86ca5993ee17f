#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
//! fxc's `STAT` and `SFI0` chunks, recomputed from a program.
//!
//! The assembler turns a listing back into a container; fxc also stores two chunks that
//! the listing does not show, its instruction statistics (`STAT`, the fields of
//! `D3D11_SHADER_DESC`) and the optional features the program needs (`SFI0`).
//! [`statistics`] and [`features`] rebuild them from the program the way fxc fills them.
//!
//! Every rule below was read off the fxc corpus (268 blobs with a `STAT` chunk, 5 with an
//! `SFI0` chunk); the comment on each rule names its evidence. What the corpus shows:
//!
//! - fxc 10.1 (d3dcompiler_47) counts the program it emits: every field follows from the
//!   instructions by a category per opcode (the `stat` column of `tpf::TABLE`) and a few operand rules (a `mov`
//!   with a source modifier is arithmetic, a geometry shader's output writes are not
//!   moves, a two-result `udiv` counts nowhere). 124 of its 130 blobs match byte for
//!   byte, the 8 Level9 ones included (their `STAT` describes the Shader Model 4
//!   program); the other 6 count things of the HLSL source (conversions of integer
//!   literals, a negation written in the source).
//! - fxc 9.29 and 9.30 count an earlier form of the program (before copy propagation,
//!   constant folding and instruction selection), so their arithmetic, `mov` and
//!   conversion counts depend on the HLSL source and cannot always be derived from the
//!   bytecode. The structural fields (instruction count, temporaries, declarations,
//!   textures, geometry and tessellation state, the Shader Model 5 words) still follow
//!   from it, and so does flow control once the uniformity of each condition is known
//!   (9.x counts a branch on constants as static flow control). Where the older
//!   compilers count differently the rule says so; a few regularities of their source
//!   form are modelled (one move for the returned value, one per `fcall`, `mul(v, M)`
//!   and `lerp` counted once) and reach 96 of their 138 blobs.
//! - fxc 9.x counts a hull shader's categories in its control-point phase only, fxc 10
//!   in every phase; both count every phase's instructions in the instruction count.

use dxbc::sfi0::{Sfi0, ShaderFeatures};
use dxbc::stat::{
    Primitive as StatPrimitive, PrimitiveTopology as StatTopology, Stat, StatSm5, TessellatorDomain,
    TessellatorOutputPrimitive, TessellatorPartitioning,
};
use std::collections::HashMap;
use std::rc::Rc;
use tpf::StatClass as Class;

use tpf::{
    Body, CompilerVersion, CustomDataClass, Decl, ExtOperand, GlobalFlags, InstructionRef, InterpolationMode, Modifier,
    Opcode, Operand, OperandType, Pool, Program, ProgramType, Selection, SystemName,
};

/// The compiler families whose counting rules differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rules {
    /// fxc 9.29 (DirectX SDK, June 2010).
    Fxc929,
    /// fxc 9.30 (Windows 8 SDK) and the other 9.x builds.
    Fxc930,
    /// d3dcompiler_47 (fxc 6.3 of the Windows 8.1 SDK, fxc 10.x of Windows 10).
    Fxc10,
}

impl Rules {
    /// The rules of the compiler with version `v` (`9.29.952.3111`, `10.1` ...).
    ///
    /// fxc 6.3.9600 (d3dcompiler_47 of Windows 8.1) counts like fxc 10 (its one corpus
    /// blob, ps4__for_loop, differs only by one float from the HLSL source; it counts
    /// no extra move as 9.30 does). Versions this crate does not know are treated as
    /// the nearest family: older than 9.30 as 9.29, newer as 10.
    pub fn for_compiler(v: CompilerVersion) -> Rules {
        match (v.0, v.1) {
            (9, minor) if minor < 30 => Rules::Fxc929,
            (9, _) => Rules::Fxc930,
            (major, _) if major < 9 && major != 6 => Rules::Fxc929,
            _ => Rules::Fxc10,
        }
    }
}

/// fxc's statistics for `program` (the contents of its `SHDR`/`SHEX` chunk), as the
/// `STAT` chunk fxc `compiler` would write: the Shader Model 4 form (29 words) for
/// 4.x programs, the Shader Model 5 form (37 words) for 5.x.
pub fn statistics(program: &Program<'_>, compiler: CompilerVersion) -> Stat<'static> {
    let mut counter = Counter::new(program, Rules::for_compiler(compiler));
    for (i, ins) in program.iter().enumerate() {
        counter.at = i;
        counter.instruction(ins);
    }
    counter.finish()
}

/// Counts one more. The counts are of a program's instructions and declarations, each
/// at least a word of the input, so they do not reach `u32::MAX`.
fn bump(n: &mut u32) {
    *n = n.saturating_add(1);
}

/// Accumulates the counts over a program.
struct Counter {
    rules: Rules,
    /// The open fxc 9.x idiom the previous instruction started (see [`Idiom`]).
    idiom: Option<Idiom>,
    /// For each instruction, whether its condition may vary between invocations.
    varying: Vec<bool>,
    /// Index of the instruction being counted.
    at: usize,
    /// The hull-shader phase being read (`None` outside hull shaders' phases).
    phase: Option<Opcode>,
    stage: ProgramType,
    stat: Stat<'static>,
    sm5: StatSm5,
    /// Input/output declarations in the current hull-shader phase (or the program).
    phase_dcls: u32,
    output_control_points: Option<u32>,
    /// A hull shader's control-point phase was seen.
    had_control_point_phase: bool,
    input_control_points: Option<u32>,
}

impl Counter {
    fn new(program: &Program<'_>, rules: Rules) -> Counter {
        Counter {
            rules,
            idiom: None,
            varying: varying_conditions(program),
            at: 0,
            phase: None,
            stage: program.version.ty,
            stat: Stat::default(),
            sm5: StatSm5::default(),
            phase_dcls: 0,
            output_control_points: None,
            had_control_point_phase: false,
            input_control_points: None,
        }
        .with_form(program.version.major >= 5)
    }

    fn with_form(mut self, sm5: bool) -> Counter {
        if sm5 {
            self.stat.sm5 = Some(StatSm5::default());
        }
        self
    }

    fn instruction(&mut self, ins: InstructionRef<'_, '_>) {
        match &ins.body {
            Body::Decl(decl) => self.declaration(ins.opcode, decl),
            Body::CustomData(data) => {
                // Immediate constant buffers count as constant definitions, one per
                // 4-component entry (hs5__basic: 2 entries, ContactHardeningShadows11PS:
                // 121, HDAO: 40).
                if data.class == CustomDataClass::ImmediateConstantBuffer {
                    self.stat.def_count = self.stat.def_count.saturating_add((ins.words(data.data).len() / 4) as u32);
                }
            }
            Body::InterfaceCall { .. } => {
                // `fcall` is an instruction (SubroutinesPS counts it in the slots).
                // fxc 9.x also counts a move for it, the copy of the interface
                // pointer (ps5__interfaces and ps5__interface_arrays, 9.29: 3 `fcall`,
                // 3 moves more than the program has; HlslCrossCompiler__ps5__interfaces,
                // 9.30: 3 more besides the main function's return copy).
                bump(&mut self.stat.instruction_count);
                if self.rules != Rules::Fxc10 {
                    bump(&mut self.stat.mov_instruction_count);
                }
            }
            Body::Op(_) => {
                if matches!(ins.opcode, Opcode::HsDecls | Opcode::HsControlPointPhase)
                    || matches!(ins.opcode, Opcode::HsForkPhase | Opcode::HsJoinPhase)
                {
                    self.end_phase();
                    self.phase = Some(ins.opcode);
                    self.had_control_point_phase |= ins.opcode == Opcode::HsControlPointPhase;
                }
                self.op(ins);
            }
        }
    }

    /// Closes a hull-shader phase: the declaration count is the largest of any phase's.
    fn end_phase(&mut self) {
        self.stat.dcl_count = self.stat.dcl_count.max(self.phase_dcls);
        self.phase_dcls = 0;
    }

    fn declaration(&mut self, opcode: Opcode, decl: &Decl) {
        let s = &mut self.stat;
        match decl {
            // Input and output declarations are the `DclCount` (every non-hull blob of
            // the corpus); system values outside the signature (`vForkInstanceID`,
            // `vThreadID` ...) are declarations like the others.
            Decl::Register(_) | Decl::RegisterName { .. } | Decl::InputPs { .. } | Decl::InputPsName { .. } => {
                bump(&mut self.phase_dcls);
                if let Decl::InputPs { interpolation, .. } | Decl::InputPsName { interpolation, .. } = decl {
                    // Word 28 is set for pixel shaders that run per sample: an input
                    // interpolated at sample frequency (ps5__interpolation,
                    // float24_round_ps) or `SV_SampleIndex` (ps5__coverage).
                    if matches!(
                        interpolation,
                        InterpolationMode::LinearSample | InterpolationMode::LinearNoPerspectiveSample
                    ) {
                        s.sample_frequency = 1;
                    }
                }
                if let Decl::InputPsName { name: SystemName::SampleIndex, .. }
                | Decl::RegisterName { name: SystemName::SampleIndex, .. } = decl
                {
                    if self.stage == ProgramType::Pixel {
                        s.sample_frequency = 1;
                    }
                }
            }
            Decl::Temps(n) => s.temp_register_count = s.temp_register_count.max(*n),
            // The temporary-array count is the number of registers of all indexable
            // temps (vs5__tempArray: x0[2] and x1[2] give 4).
            Decl::IndexableTemp { count, .. } => s.temp_array_count = s.temp_array_count.saturating_add(*count),
            Decl::InputPrimitive(p) => s.input_primitive = StatPrimitive::from(p.raw() as u32),
            Decl::OutputTopology(t) => s.gs_output_topology = StatTopology::from(t.raw() as u32),
            Decl::MaxOutputVertexCount(n) => s.gs_max_output_vertex_count = *n,
            Decl::GsInstanceCount(n) => self.sm5.gs_instance_count = *n,
            Decl::ControlPointCount(n) => {
                if opcode == Opcode::DclInputControlPointCount {
                    self.input_control_points = Some(*n as u32);
                } else {
                    self.output_control_points = Some(*n as u32);
                }
            }
            Decl::TessDomain(d) => self.sm5.tessellator_domain = TessellatorDomain::from(d.raw() as u32),
            Decl::TessPartitioning(p) => self.sm5.hs_partitioning = TessellatorPartitioning::from(p.raw() as u32),
            Decl::TessOutputPrimitive(p) => {
                self.sm5.hs_output_primitive = TessellatorOutputPrimitive::from(p.raw() as u32)
            }
            _ => {}
        }
    }

    fn op(&mut self, ins: InstructionRef<'_, '_>) {
        let opcode = ins.opcode;
        // The category of each opcode is the `stat` column of the instruction table
        // (`tpf::StatClass`, whose variants name the corpus evidence for each).
        let class = opcode.info().stat;
        if class == Class::None {
            return;
        }
        bump(&mut self.stat.instruction_count);
        // fxc 9.x counts a hull shader's categories in its control-point phase only
        // (hs5__basic_NoOptimisation: 3 `mov` and `ret` there, 4 `mov` and `ret` in the
        // join phase: 1 static flow; hs5__basic, a fork phase only: every count 0).
        if self.rules != Rules::Fxc10
            && self.stage == ProgramType::Hull
            && self.phase != Some(Opcode::HsControlPointPhase)
        {
            return;
        }
        if class != Class::Float {
            self.idiom = None;
        }
        let s = &mut self.stat;
        let operands = ins.operands();
        // Any access to an indexable temp is an array instruction (vs5__tempArray:
        // the 10 instructions that read or write x0/x1).
        let array = operands.iter().any(|o| o.ty == OperandType::IndexableTemp);
        if array {
            bump(&mut s.array_instruction_count);
        }
        match class {
            Class::None | Class::Plain => {}
            Class::Float => {
                // Arithmetic into a minimum-precision register is not counted
                // (ps5__precision, 9.30: its one `mad`, into a min16f temp, 0 floats;
                // vs5__precision: an `add` of min16f inputs into a 32-bit output, 1).
                let low = operands.first().is_some_and(|d| d.min_precision() != tpf::MinPrecision::Default);
                let (idiom, continues) = Idiom::step(self.idiom.take(), ins.pool(), opcode, operands);
                if self.rules != Rules::Fxc10 {
                    self.idiom = idiom;
                }
                let fused = continues && self.rules != Rules::Fxc10;
                if !low && !fused {
                    bump(&mut s.float_instruction_count);
                }
            }
            Class::Int => bump(&mut s.int_instruction_count),
            Class::Uint => {
                // `udiv` with both results (quotient and remainder) is counted nowhere
                // (D3D11_Blit__g_BlitFromCubeArray, 10.1: uint 0); with one result
                // discarded it is unsigned arithmetic (every xenia `udiv`).
                let both = opcode == Opcode::Udiv && operands.iter().take(2).all(|o| o.ty != OperandType::Null);
                if !both {
                    bump(&mut s.uint_instruction_count);
                }
            }
            Class::Conversion => bump(&mut s.conversion_instruction_count),
            Class::Mov => {
                if has_modifier(operands) {
                    // A move with a source modifier is float arithmetic (fxc 10.1,
                    // D3D11_Blit__g_BlitFromCube: 11 `mov`, 3 of them negating; 8
                    // moves and 4 + 3 floats).
                    bump(&mut s.float_instruction_count);
                } else if array {
                    // Moves to or from an indexable temp are array instructions only.
                } else if self.rules == Rules::Fxc10
                    && self.stage == ProgramType::Geometry
                    && operands.first().is_some_and(|o| o.ty == OperandType::Output)
                {
                    // fxc 10 does not count a geometry shader's writes of its outputs
                    // as moves (primitive_quad_list_gs: 80 `mov o*`, 0 moves;
                    // primitive_point_list_gs: 2 moves to temps of 91); fxc 9.30 does
                    // (gs5__instance: its one `mov o0` and the extra move below).
                } else {
                    bump(&mut s.mov_instruction_count);
                }
            }
            Class::Movc => bump(&mut s.movc_instruction_count),
            Class::StaticFlow => bump(&mut s.static_flow_control_count),
            Class::DynamicFlow => bump(&mut s.dynamic_flow_control_count),
            Class::Branch => {
                // fxc 9.x counts a branch on a uniform value (constants only) as static
                // flow control (HDAO: 7 `if_nz cb0[0].*` static, 1 `if` on a texel
                // dynamic; vs4__switch: `switch cb0[0].x` static); fxc 10 counts every
                // branch as dynamic (D3D11_PixelShader_Advanced: 15 `if` on constants,
                // 15 dynamic).
                let varying = self.varying.get(self.at).copied().unwrap_or(true);
                if self.rules == Rules::Fxc10 || varying {
                    bump(&mut s.dynamic_flow_control_count);
                } else {
                    bump(&mut s.static_flow_control_count);
                }
            }
            Class::ConditionalJump => {
                // `breakc` is the exit test of its loop and never counted
                // (ps4__for_loop, ExtrudeGS: on a counter; RaycastTerrainShootRayPS:
                // 4 `breakc`, one on texel data, none counted). `continuec` is dynamic
                // flow control when its condition varies and not counted when it is
                // uniform (vs4__continuec: of two `continuec`, the one on a flag the
                // early-leaving loop updates counts, the one on a constant does not).
                if opcode == Opcode::Continuec && self.varying.get(self.at).copied().unwrap_or(true) {
                    bump(&mut s.dynamic_flow_control_count);
                }
            }
            Class::Emit => bump(&mut s.emit_instruction_count),
            Class::Cut => bump(&mut s.cut_instruction_count),
            Class::EmitThenCut => {
                bump(&mut s.emit_instruction_count);
                bump(&mut s.cut_instruction_count);
            }
            Class::Sample => bump(&mut s.texture_normal_instructions),
            // `sample_l` is counted with the loads (D3D11_Blit__g_BlitFrom2D: one
            // `sample_l`, load count 1; HDAO: 19 `sample_l`, 19 loads).
            Class::SampleLevel => bump(&mut s.texture_load_instructions),
            // `sample_c` and `sample_c_lz` (Internal__Textures_PS: 2).
            Class::SampleCompare => bump(&mut s.texture_comp_instructions),
            Class::SampleBias => bump(&mut s.texture_bias_instructions),
            Class::SampleGradient => bump(&mut s.texture_gradient_instructions),
            Class::LoadTyped => {
                // fxc 9.29 does not count `ld` (HDAO: 19 `sample_l`, 6 `ld`, 19 loads).
                if self.rules != Rules::Fxc929 {
                    bump(&mut s.texture_load_instructions);
                }
            }
            Class::LoadBuffer => {
                // Loads from thread-group shared memory are not texture loads
                // (cs5__Issue11: 12 `ld_structured` from g0, 1 `ld`: 1 load); fxc 9.29
                // counts no buffer load (cs5__BasicCompute11: 2 `ld_raw`, 0 loads).
                let tgsm = operands.iter().any(|o| o.ty == OperandType::ThreadGroupSharedMemory);
                if !tgsm && self.rules != Rules::Fxc929 {
                    bump(&mut s.texture_load_instructions);
                }
            }
            Class::Gather => bump(&mut s.gather_instructions),
            Class::Lod => bump(&mut s.lod_instructions),
            Class::Store => {
                // Stores to UAVs only (cs5__Issue11: 7 `store_structured` to g0 and one
                // `store_uav_typed`: 1); fxc 9.29 counts none (cs5__BasicCompute11).
                let uav = operands.first().is_some_and(|o| o.ty == OperandType::UnorderedAccessView);
                if uav && self.rules != Rules::Fxc929 {
                    bump(&mut self.sm5.texture_store_instructions);
                }
            }
            // Every atomic, with or without a result, and the counter operations
            // (ps5__atomic_counter: 2 `imm_atomic_alloc` + 2 `imm_atomic_consume` = 4;
            // ps5__atomic_mem: 8).
            Class::Atomic => bump(&mut self.sm5.interlocked_instructions),
            // `sync` (cs5__Issue11: 6).
            Class::Barrier => bump(&mut self.sm5.barrier_instructions),
        }
    }

    fn finish(mut self) -> Stat<'static> {
        self.end_phase();
        let mut stat = self.stat;
        // fxc 9.30 counts one move more than the program has in its main function (the
        // copy of the returned value, before copy propagation removed it): 79 of its
        // 110 corpus blobs (templatePS: `sample o0` and `ret`, 1 move); the others
        // count further moves of their source. A hull shader's main function is its
        // control-point phase (hs5__basic, fork phase only: 0).
        let main = self.stage != ProgramType::Hull || self.had_control_point_phase;
        if self.rules == Rules::Fxc930 && main {
            bump(&mut stat.mov_instruction_count);
        }
        // fxc 9.29 counts one such move in compute shaders only (its 5 compute shaders
        // in the corpus; its 17 other blobs that match count none).
        if self.rules == Rules::Fxc929 && self.stage == ProgramType::Compute {
            bump(&mut stat.mov_instruction_count);
        }
        if self.stage == ProgramType::Hull {
            // A hull shader's input patch is the "input primitive"
            // (hs5__basic: 4 input control points, D3D_PRIMITIVE_4_CONTROL_POINT_PATCH = 11).
            if let Some(n @ 1..=32) = self.input_control_points {
                // `D3D_PRIMITIVE_1_CONTROL_POINT_PATCH` is 8; `n` is at most 32.
                stat.input_primitive = StatPrimitive::from(n.saturating_add(7));
            }
            self.sm5.control_points = self.output_control_points.unwrap_or(0);
        } else if self.stage == ProgramType::Domain {
            self.sm5.control_points = self.input_control_points.unwrap_or(0);
        }
        if stat.sm5.is_some() {
            stat.sm5 = Some(self.sm5);
        }
        stat
    }
}

/// An HLSL operation fxc 9.x counts once although it emits several instructions for it:
/// its statistics describe the program before instruction selection.
#[derive(Debug, Clone, PartialEq)]
enum Idiom {
    /// `mul(v, M)` with `M` in a constant buffer: `mul r, v.yyyy, cb[1]` then one `mad`
    /// per further row, each adding the previous result (vs5__const_temp: `mul`, three
    /// `mad` and an `add` count 2; vm__VS__Simple: `mul`, two `mad`, 1).
    Product { temp: u64 },
    /// `lerp(a, b, t)`: `add d, -a, b` (or `add d, b, -a`) then `mad r, t, d, a`
    /// (tessellationDS: six such pairs, 6 floats).
    Difference { temp: u64, base: Box<Operand> },
}

impl Idiom {
    /// Follows one float instruction: the idiom it opens, and whether it continues the
    /// open one (and is then not counted).
    fn step(open: Option<Idiom>, pool: Pool<'_, '_>, opcode: Opcode, operands: &[Operand]) -> (Option<Idiom>, bool) {
        let dst_temp = operands.first().filter(|d| d.ty == OperandType::Temp).and_then(|d| d.register());
        match (opcode, operands) {
            (Opcode::Mad, [_, a, b, c]) => {
                let continues = match &open {
                    Some(Idiom::Product { temp }) => reads_temp(c, *temp) && (row_term(a, b) || row_term(b, a)),
                    Some(Idiom::Difference { temp, base }) => {
                        (reads_temp(a, *temp) || reads_temp(b, *temp)) && pool.same_operand(c, pool, base)
                    }
                    None => false,
                };
                let next = match (continues, &open, dst_temp) {
                    (true, Some(Idiom::Product { .. }), Some(temp)) => Some(Idiom::Product { temp }),
                    _ => None,
                };
                (next, continues)
            }
            (Opcode::Mul, [_, a, b]) if row_term(a, b) || row_term(b, a) => {
                (dst_temp.map(|temp| Idiom::Product { temp }), false)
            }
            (Opcode::Add, [_, a, b]) => {
                // One source negated: `b - a` (or `a - b`), `a` being the base.
                let base = match (a.modifier(), b.modifier()) {
                    (Modifier::Neg, Modifier::None) => a,
                    (Modifier::None, Modifier::Neg) => b,
                    _ => return (None, false),
                };
                let mut base = *base;
                if let Some(mut ext) = base.ext() {
                    ext.modifier = Modifier::None;
                    base.set_ext((ext != ExtOperand::modifier(Modifier::None)).then_some(ext));
                }
                (dst_temp.map(|temp| Idiom::Difference { temp, base: Box::new(base) }), false)
            }
            _ => (None, false),
        }
    }
}

/// True when `scalar` broadcasts one component (`v0.yyyy`) and `row` reads a
/// constant buffer: one term of a vector-matrix product.
fn row_term(scalar: &Operand, row: &Operand) -> bool {
    let broadcast = match scalar.selection() {
        Selection::Swizzle([x, y, z, w]) => x == y && y == z && z == w,
        Selection::Select1(_) => true,
        _ => false,
    };
    broadcast && scalar.modifier() == Modifier::None && row.ty == OperandType::ConstantBuffer
}

/// True when `o` reads temp register `temp`.
fn reads_temp(o: &Operand, temp: u64) -> bool {
    o.ty == OperandType::Temp && o.register() == Some(temp) && o.modifier() == Modifier::None
}

/// True when a source operand carries `-` or `|abs|`.
fn has_modifier(operands: &[Operand]) -> bool {
    operands.iter().any(|o| o.modifier() != Modifier::None)
}

/// fxc's `SFI0` flags for `program` as compiler `compiler` writes them, or `None` when
/// it writes no `SFI0` chunk (fxc writes none when no flag is set: the 436 corpus blobs
/// without the chunk, fxc 10.1 ones included).
///
/// Only three flags occur in the corpus (doubles, 64 UAV slots, minimum precision); the
/// others follow their documented meaning (`D3D_SHADER_REQUIRES_*` and the DXIL
/// container's feature bits, which share the layout). Two cannot be derived from the
/// program alone and are never set: Level 9 comparison filtering (a property of the
/// `*_level_9_*` target, whose program is ordinary Shader Model 4) and the later DXIL-only
/// bits.
pub fn features(program: &Program<'_>, compiler: CompilerVersion) -> Option<Sfi0<'static>> {
    let rules = Rules::for_compiler(compiler);
    let stage = program.version.ty;
    let sm4 = program.version.major < 5;
    // Typed UAVs whose view returns normalized values (`unorm`, `snorm`).
    let normalized_uavs: Vec<u64> = program
        .iter()
        .filter_map(|ins| match &ins.body {
            Body::Decl(Decl::UavTyped { operand, return_type, .. })
                if return_type.types.iter().any(|t| matches!(t, tpf::ReturnType::Unorm | tpf::ReturnType::Snorm)) =>
            {
                ins.operand(*operand).register()
            }
            _ => None,
        })
        .collect();
    // A Shader Model 4 compute shader needs no flag of its own: d3dcompiler_47 writes
    // no SFI0 chunk for a cs_4_0 that reads a ByteAddressBuffer and writes a
    // RWStructuredBuffer (its global flags do not say `enableRawAndStructuredBuffers`).
    let mut flags = ShaderFeatures::EMPTY;
    let mut set = |f: ShaderFeatures| flags = flags | f;
    for ins in program.iter() {
        match &ins.body {
            Body::Decl(Decl::GlobalFlags(g)) => {
                // The global flags fxc sets for the same features (cs5__BasicCompute11Double:
                // `enableDoublePrecisionFloatOps`, SFI0 = 1; ps5__precision and
                // vs5__precision: `enableMinimumPrecision`, SFI0 = 0x10).
                if g.contains(GlobalFlags::ENABLE_DOUBLE_PRECISION_FLOAT_OPS) {
                    set(ShaderFeatures::DOUBLES);
                }
                if g.contains(GlobalFlags::ENABLE_MINIMUM_PRECISION) {
                    set(ShaderFeatures::MINIMUM_PRECISION);
                }
                if g.contains(GlobalFlags::ENABLE_11_1_DOUBLE_EXTENSIONS) {
                    set(ShaderFeatures::DOUBLE_EXTENSIONS_11_1);
                }
                if g.contains(GlobalFlags::ENABLE_11_1_SHADER_EXTENSIONS) {
                    set(ShaderFeatures::SHADER_EXTENSIONS_11_1);
                }
                // Raw and structured buffers in a Shader Model 4 program need the
                // optional compute-shader hardware of Direct3D 10.x ("compute shaders
                // plus raw and structured buffers via shader 4.x", SFI0 bit 1, which
                // `dxbc` names after `D3D_SHADER_REQUIRES_EARLY_DEPTH_STENCIL`, the
                // reflection flag of the same value). SlimShader's notes report SFI0 = 2
                // for a vs_4_0 reading a StructuredBuffer; the corpus has no such blob.
                if sm4 && g.contains(GlobalFlags::ENABLE_RAW_AND_STRUCTURED_BUFFERS) {
                    set(ShaderFeatures::EARLY_DEPTH_STENCIL);
                }
            }
            Body::Decl(decl) => {
                let uav = matches!(decl, Decl::UavTyped { .. } | Decl::UavRaw { .. } | Decl::UavStructured { .. });
                if uav {
                    // A UAV outside the pixel and compute stages.
                    if !matches!(stage, ProgramType::Pixel | ProgramType::Compute) {
                        set(ShaderFeatures::UAVS_AT_EVERY_STAGE);
                    }
                    // A UAV slot past the eighth (ps5__load_store declares u8: SFI0 = 8).
                    if ins.decl_operand().is_some_and(|o| last_register(o, program.version.is_sm51()) >= 8) {
                        set(ShaderFeatures::UAVS_64);
                    }
                    let rov = match decl {
                        Decl::UavTyped { flags, .. }
                        | Decl::UavRaw { flags, .. }
                        | Decl::UavStructured { flags, .. } => flags.rasterizer_ordered,
                        _ => false,
                    };
                    if rov {
                        set(ShaderFeatures::ROVS);
                    }
                }
                if let Some(o) = ins.decl_operand() {
                    match o.ty {
                        OperandType::OutputStencilRef => set(ShaderFeatures::STENCIL_REF),
                        OperandType::InnerCoverage => set(ShaderFeatures::INNER_COVERAGE),
                        _ => {}
                    }
                }
                // `SV_RenderTargetArrayIndex` / `SV_ViewportArrayIndex` written by the
                // stage before the rasterizer when it is not a geometry shader.
                if let Decl::RegisterName { name, .. } = decl {
                    let index = matches!(name, SystemName::RenderTargetArrayIndex | SystemName::ViewportArrayIndex);
                    if index
                        && ins.opcode == Opcode::DclOutputSiv
                        && matches!(stage, ProgramType::Vertex | ProgramType::Domain)
                    {
                        set(ShaderFeatures::VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER_FEEDING_RASTERIZER);
                    }
                }
            }
            Body::Op(_) => {
                // What the opcode needs by itself: the `features` column of the
                // instruction table.
                let needs = ins.opcode.info().features;
                for (bit, flag) in [
                    (tpf::OpFeatures::DOUBLES, ShaderFeatures::DOUBLES),
                    (tpf::OpFeatures::DOUBLES_11_1, ShaderFeatures::DOUBLE_EXTENSIONS_11_1),
                    (tpf::OpFeatures::SHADER_EXTENSIONS_11_1, ShaderFeatures::SHADER_EXTENSIONS_11_1),
                    (tpf::OpFeatures::TILED, ShaderFeatures::TILED_RESOURCES),
                ] {
                    if needs.contains(bit) {
                        set(flag);
                    }
                }
                if matches!(ins.opcode, Opcode::LdUavTyped | Opcode::LdUavTypedFeedback) {
                    // A typed UAV load of anything but one 32-bit component needs the
                    // additional formats of Direct3D 11.3: a load of several
                    // components, or from a UNORM/SNORM view. Only fxc 10 knows the
                    // flag: ps5__load_store (9.30) loads float4 UAVs and has none. (No
                    // fxc 10 blob of the corpus loads from a typed UAV.)
                    let wide = ins.operands().first().is_some_and(|o| o.mask().count() > 1);
                    let view = ins.operands().iter().find(|o| o.ty == OperandType::UnorderedAccessView);
                    let normalized = view.and_then(|o| o.register()).is_some_and(|r| normalized_uavs.contains(&r));
                    if rules == Rules::Fxc10 && (wide || normalized) {
                        set(ShaderFeatures::TYPED_UAV_LOAD_ADDITIONAL_FORMATS);
                    }
                }
            }
            _ => {}
        }
    }
    (!flags.is_empty()).then_some(Sfi0 { features: flags, trailing: &[] })
}

/// The last register a declaration covers: its register number, or for Shader Model 5.1
/// ranges (`U0[3:9]`) the upper bound.
fn last_register(o: &Operand, sm51: bool) -> u64 {
    let index = if sm51 { 2 } else { 0 };
    o.index(index).map_or(0, |i| i.immediate())
}

/// For each instruction of `program`, whether it tests a condition that may differ
/// between invocations (only conditional instructions are ever `true`).
///
/// A value is uniform when it derives only from immediates and constant buffers;
/// inputs, system values and anything read from memory vary. The analysis follows the
/// program's structured flow (the value a register holds at each point, per component),
/// because fxc decides on its own values before register allocation reuses registers
/// (HDAO reuses `r1.w` for both a loop counter and texel data). Two rules make values
/// vary through control flow:
///
/// - a loop that some invocations may leave early (a `breakc` on a varying value, or a
///   `break` under a varying `if`) makes every register it writes vary, in the loop and
///   after it (RaycastTerrainShootRayPS: the iteration counter of such a loop feeds an
///   `if` fxc counts as dynamic; vs4__continuec: a flag updated in such a loop feeds a
///   `continuec` fxc counts);
/// - registers written under a varying `if` or `switch` vary after it (the usual
///   divergence rule; no corpus blob tells either way).
///
/// Function bodies and hull-shader phases start afresh; registers a body did not write
/// vary.
fn varying_conditions(program: &Program<'_>) -> Vec<bool> {
    uniformity(program).varying
}

/// Instructions walked, loops included, per instruction of the program: past
/// `64 × n` steps (and at least 1024) the walk gives up.
const STEPS_PER_INSTRUCTION: usize = 64;

/// Units of [`Uniformity::work`] per instruction of the program: past `256 × n` units
/// (and at least 16384) the walk gives up. No corpus program needs 4 units per
/// instruction; the bound is reached only by programs such as thousands of nested
/// `if`s on varying values, each closing over the registers of all inner ones.
const WORK_PER_INSTRUCTION: usize = 256;

/// What the uniformity walk found, and what it cost (the cost is read by the tests).
#[cfg_attr(not(test), allow(dead_code))]
struct Uniformity {
    /// For each instruction, whether its condition may vary.
    varying: Vec<bool>,
    /// Units of work done: instructions walked (each loop round again), nodes of
    /// register maps visited by writes, joins and comparisons, and entries of
    /// written-register sets merged or applied when a block closes. Copying a state
    /// costs nothing (the copies share their maps).
    work: usize,
    /// The walk stopped at one of its bounds; every condition after that point was
    /// taken as varying.
    gave_up: bool,
}

/// The walk behind [`varying_conditions`].
///
/// States are copied at every `if`, `else`, loop and jump and joined where paths meet;
/// their register maps share structure ([`RegMap`]), so that a copy is free and a join
/// or comparison costs what the two states differ in, not the number of registers
/// (20,000 temps written and then 20,000 `if`/`endif` pairs: under 3 units of work per
/// instruction, where copying whole states took 4·10⁸ entries). Two bounds keep odd programs cheap:
/// loops are walked until their entry state settles (at most 32 rounds each) within
/// [`STEPS_PER_INSTRUCTION`] steps, and the whole walk within [`WORK_PER_INSTRUCTION`]
/// units of work; past either, every remaining condition counts as varying.
fn uniformity(program: &Program<'_>) -> Uniformity {
    let n = program.instructions.len();
    let mut out = vec![false; n];
    let mut cur: Flow = Some(Regs::default());
    let mut frames: Vec<Frame> = Vec::new();
    let mut i = 0;
    let mut steps = 0usize;
    let mut work = 0usize;
    let mut gave_up = false;
    let max_steps = n.saturating_mul(STEPS_PER_INSTRUCTION).max(1024);
    let max_work = n.saturating_mul(WORK_PER_INSTRUCTION).max(16384);
    let w = &mut work;
    while let Some(ins) = program.get(i) {
        // Both bounded by the limits just below.
        steps = steps.saturating_add(1);
        *w = w.saturating_add(1);
        if steps > max_steps || *w > max_work {
            // Give up on precision: every remaining condition may vary.
            for v in out.iter_mut().skip(i) {
                *v = true;
            }
            gave_up = true;
            break;
        }
        // `at` indexes `ins`; `i` moves on to the next instruction (an `endloop` may send
        // it back to its loop's start).
        let at = i;
        i = at.saturating_add(1);
        if !matches!(ins.body, Body::Op(_)) {
            continue;
        }
        let cond = match (&cur, ins.operands().first()) {
            (Some(regs), Some(c)) => regs.source(ins.pool(), c, 0xf, 4),
            _ => false,
        };
        match ins.opcode {
            Opcode::If => {
                mark(&mut out, at, cond);
                frames.push(Frame::new(Block::If { entry: cur.clone(), then_end: None }, cond));
            }
            Opcode::Else => {
                if let Some(Frame { block: Block::If { entry, then_end }, .. }) = frames.last_mut() {
                    *then_end = Some(cur.take());
                    cur = entry.clone();
                }
            }
            Opcode::EndIf => {
                if let Some(Frame { block: Block::If { entry, then_end }, .. }) = frames.last() {
                    cur = match then_end {
                        Some(t) => join(t.clone(), cur, w),
                        None => join(entry.clone(), cur, w),
                    };
                    close(&mut frames, &mut cur, w);
                }
            }
            Opcode::Loop => {
                let block = Block::Loop { start: i, head: cur.clone(), exits: None, continues: None, rounds: 0 };
                frames.push(Frame::new(block, false));
            }
            Opcode::EndLoop => {
                if let Some(Frame { block: Block::Loop { start, head, exits, continues, rounds }, varying, written }) =
                    frames.last_mut()
                {
                    let mut next = join(head.clone(), join(continues.take(), cur.take(), w), w);
                    if *varying {
                        taint(&mut next, written, w);
                    }
                    if !same(&next, head, w) && *rounds < 32 {
                        *head = next.clone();
                        // Below 32.
                        *rounds = rounds.saturating_add(1);
                        cur = next;
                        i = *start;
                    } else {
                        cur = exits.take();
                        close(&mut frames, &mut cur, w);
                    }
                }
            }
            Opcode::Switch => {
                mark(&mut out, at, cond);
                frames.push(Frame::new(Block::Switch { entry: cur.take(), exits: None, default: false }, cond));
            }
            Opcode::Case | Opcode::Default => {
                if let Some(Frame { block: Block::Switch { entry, default, .. }, .. }) = frames.last_mut() {
                    *default |= ins.opcode == Opcode::Default;
                    cur = join(cur.take(), entry.clone(), w);
                }
            }
            Opcode::EndSwitch => {
                if let Some(Frame { block: Block::Switch { entry, exits, default }, .. }) = frames.last_mut() {
                    let mut after = join(exits.take(), cur.take(), w);
                    if !*default {
                        after = join(after, entry.clone(), w);
                    }
                    cur = after;
                    close(&mut frames, &mut cur, w);
                }
            }
            Opcode::Break | Opcode::Breakc | Opcode::Continue | Opcode::Continuec => {
                let conditional = matches!(ins.opcode, Opcode::Breakc | Opcode::Continuec);
                let to_loop = matches!(ins.opcode, Opcode::Continue | Opcode::Continuec);
                if conditional {
                    mark(&mut out, at, cond);
                }
                let leaving = if conditional { cur.clone() } else { cur.take() };
                // Leaving under varying control (the jump's own condition, or an
                // enclosing `if`/`switch` inside the target) makes the loop diverge.
                let mut divergent = conditional && cond;
                for f in frames.iter_mut().rev() {
                    match &mut f.block {
                        Block::If { .. } => divergent |= f.varying,
                        Block::Switch { exits, .. } if !to_loop => {
                            *exits = join(exits.take(), leaving, w);
                            break;
                        }
                        Block::Switch { .. } => divergent |= f.varying,
                        Block::Loop { exits, continues, .. } => {
                            let target = if to_loop { continues } else { exits };
                            *target = join(target.take(), leaving, w);
                            f.varying |= divergent;
                            break;
                        }
                    }
                }
            }
            Opcode::Retc | Opcode::Callc | Opcode::Discard => mark(&mut out, at, cond),
            Opcode::Ret => {
                if frames.is_empty() {
                    cur = None;
                }
            }
            Opcode::Label => {
                frames.clear();
                cur = Some(Regs { unknown_varies: true, ..Regs::default() });
            }
            Opcode::HsDecls | Opcode::HsControlPointPhase | Opcode::HsForkPhase | Opcode::HsJoinPhase => {
                frames.clear();
                cur = Some(Regs::default());
            }
            _ => {
                if let Some(regs) = cur.as_mut() {
                    for (key, mask) in regs.transfer(ins, w) {
                        if let Some(f) = frames.last_mut() {
                            *f.written.entry(key).or_default() |= mask;
                        }
                    }
                }
            }
        }
    }
    Uniformity { varying: out, work, gave_up }
}

/// Notes that the condition of instruction `at` (an index into `out`, which has an entry
/// per instruction) may vary, if `cond`.
fn mark(out: &mut [bool], at: usize, cond: bool) {
    if let Some(v) = out.get_mut(at) {
        *v |= cond;
    }
}

/// Pops the innermost block: what it wrote counts as written by the enclosing one, and
/// varies afterwards if the block's control varied.
fn close(frames: &mut Vec<Frame>, cur: &mut Flow, work: &mut usize) {
    let Some(mut f) = frames.pop() else { return };
    if f.varying {
        taint(cur, &f.written, work);
    }
    if let Some(parent) = frames.last_mut() {
        // The smaller set goes into the larger one: a register is moved O(log n) times
        // however deeply blocks nest.
        if parent.written.len() < f.written.len() {
            std::mem::swap(&mut parent.written, &mut f.written);
        }
        *work = work.saturating_add(f.written.len());
        for (key, mask) in f.written {
            *parent.written.entry(key).or_default() |= mask;
        }
    }
}

/// Marks the registers of `written` varying in `state`.
fn taint(state: &mut Flow, written: &HashMap<Written, u8>, work: &mut usize) {
    let Some(regs) = state.as_mut() else { return };
    for (key, mask) in written {
        match *key {
            Written::Temp(r) => regs.temps.update(r, |v| v | PRESENT | mask, work),
            Written::Array(r) => regs.arrays.update(r, |_| PRESENT, work),
        }
    }
}

/// The abstract state at a point: `None` where no path reaches.
type Flow = Option<Regs>;

/// A register written inside a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Written {
    Temp(u64),
    Array(u64),
}

/// An open block of structured flow while walking the program.
struct Frame {
    block: Block,
    /// The block's control varies: a varying `if`/`switch` condition, or a loop that
    /// some invocations leave early.
    varying: bool,
    /// Registers (and components) written inside the block.
    written: HashMap<Written, u8>,
}

impl Frame {
    fn new(block: Block, varying: bool) -> Frame {
        Frame { block, varying, written: HashMap::new() }
    }
}

/// The kind of an open block and the states it joins.
enum Block {
    If { entry: Flow, then_end: Option<Flow> },
    Loop { start: usize, head: Flow, exits: Flow, continues: Flow, rounds: u32 },
    Switch { entry: Flow, exits: Flow, default: bool },
}

/// The union of two states (a register varies if it varies on either path).
fn join(a: Flow, b: Flow, work: &mut usize) -> Flow {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(mut a), Some(b)) => {
            a.temps.join(&b.temps, work);
            a.arrays.join(&b.arrays, work);
            a.unknown_varies |= b.unknown_varies;
            Some(a)
        }
    }
}

/// True when two states are the same.
fn same(a: &Flow, b: &Flow, work: &mut usize) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.unknown_varies == b.unknown_varies && a.temps.same(&b.temps, work) && a.arrays.same(&b.arrays, work)
        }
        _ => false,
    }
}

/// Which temporaries hold varying values at a point.
#[derive(Debug, Clone, Default)]
struct Regs {
    /// For each temporary register written (or tainted) on the way here, [`PRESENT`]
    /// and the components (bit 0 = x) that may vary.
    temps: RegMap,
    /// Indexable temps that may hold a varying value ([`PRESENT`]).
    arrays: RegMap,
    /// Registers not written on the way here vary (a function body's arguments).
    unknown_varies: bool,
}

/// The bit of a [`RegMap`] entry that tells a register the map holds (with no varying
/// component) from one it does not hold.
const PRESENT: u8 = 0x10;

impl Regs {
    /// Applies one instruction's writes and returns them.
    fn transfer(&mut self, ins: InstructionRef<'_, '_>, work: &mut usize) -> Vec<(Written, u8)> {
        let (opcode, pool) = (ins.opcode, ins.pool());
        let info = opcode.info();
        let operands = ins.operands();
        let n_dst = info.dst.len().min(operands.len());
        let (dsts, srcs) = operands.split_at(n_dst);
        // Anything read from a resource, UAV or shared memory varies.
        let reads_memory = srcs.iter().any(|o| {
            matches!(
                o.ty,
                OperandType::Resource | OperandType::UnorderedAccessView | OperandType::ThreadGroupSharedMemory
            )
        });
        // Dot products read their first 2/3/4 components into every result component.
        let width = match opcode {
            Opcode::Dp2 => 2,
            Opcode::Dp3 => 3,
            Opcode::Dp4 => 4,
            _ => 0,
        };
        let mut writes: Vec<(OperandType, u64, u8)> = Vec::new();
        for (d, ty) in dsts.iter().zip(info.dst) {
            if *ty == tpf::table::Ty::R {
                continue;
            }
            let Some(reg) = d.register() else { continue };
            let mask = d.mask().0 & 0xf;
            let mut vary = 0u8;
            for c in 0..4 {
                if mask & (1 << c) == 0 {
                    continue;
                }
                let any = reads_memory
                    || if width > 0 {
                        srcs.iter().any(|s| self.source(pool, s, 0xf, width))
                    } else {
                        srcs.iter().any(|s| self.source(pool, s, 1 << c, 4))
                    };
                if any {
                    vary |= 1 << c;
                }
            }
            writes.push((d.ty, reg, vary | (!mask & 0xf) << 4));
        }
        // Results are written after every source is read (`swapc`, `sincos`).
        let mut written = Vec::new();
        for (ty, reg, bits) in writes {
            let (vary, kept) = (bits & 0xf, bits >> 4);
            match ty {
                OperandType::Temp => {
                    let unknown = if self.unknown_varies { 0xf } else { 0 };
                    self.temps.update(
                        reg,
                        |v| {
                            let old = if v & PRESENT != 0 { v & 0xf } else { unknown };
                            PRESENT | (old & kept) | vary
                        },
                        work,
                    );
                    written.push((Written::Temp(reg), !kept & 0xf));
                }
                OperandType::IndexableTemp => {
                    // An element written with a varying value taints the whole array;
                    // arrays are never considered uniform again.
                    if vary != 0 {
                        self.arrays.update(reg, |_| PRESENT, work);
                    }
                    written.push((Written::Array(reg), 0xf));
                }
                _ => {}
            }
        }
        written
    }

    /// True if source `o`, read into the result components `lanes`, may vary;
    /// `width` < 4 reads the first `width` components (dot products).
    fn source(&self, pool: Pool<'_, '_>, o: &Operand, lanes: u8, width: usize) -> bool {
        if o.indices().iter().any(|i| i.relative().is_some_and(|r| self.relative(pool.operand(r)))) {
            return true;
        }
        match o.ty {
            OperandType::Immediate32 | OperandType::Immediate64 => false,
            OperandType::ConstantBuffer | OperandType::ImmediateConstantBuffer => false,
            OperandType::Temp => o.register().is_none_or(|r| self.temp(r, components(o.selection(), lanes, width))),
            OperandType::IndexableTemp => self.unknown_varies || o.register().is_none_or(|r| self.arrays.get(r) != 0),
            // Samplers, resources and labels are not values.
            OperandType::Sampler
            | OperandType::Resource
            | OperandType::UnorderedAccessView
            | OperandType::ThreadGroupSharedMemory
            | OperandType::Label
            | OperandType::Null => false,
            _ => true,
        }
    }

    /// True if any of components `read` of temp `reg` may vary.
    fn temp(&self, reg: u64, read: u8) -> bool {
        match self.temps.get(reg) {
            0 => self.unknown_varies,
            v => v & read & 0xf != 0,
        }
    }

    /// True if a relative index register may vary.
    fn relative(&self, r: &Operand) -> bool {
        match r.ty {
            OperandType::Temp => match r.index(0) {
                Some(reg) => self.temp(reg.immediate(), components(r.selection(), 0xf, 4)),
                _ => true,
            },
            OperandType::Immediate32 | OperandType::ConstantBuffer | OperandType::ImmediateConstantBuffer => false,
            _ => true,
        }
    }
}

/// A map from register numbers to a byte (0: not in the map), persistent: copies share
/// their nodes, a write copies only the path to its entry, and [`RegMap::join`] and
/// [`RegMap::same`] skip the subtrees two maps still share. It is a 16-way trie over
/// the register number, as deep as the largest register needs.
///
/// No entry is ever set back to 0, so a node present in the trie holds a nonzero entry,
/// and two maps of the same depth are equal exactly when their tries are.
#[derive(Debug, Clone, Default)]
struct RegMap {
    root: Option<Rc<Node>>,
    /// Branch levels above the leaves: the map holds keys below 16^(levels + 1).
    levels: u32,
}

#[derive(Debug, Clone)]
enum Node {
    Leaf([u8; 16]),
    Branch([Option<Rc<Node>>; 16]),
}

impl RegMap {
    /// True if `key` fits under the root.
    fn holds(&self, key: u64) -> bool {
        self.levels >= 15 || key.checked_shr(self.levels.saturating_add(1).saturating_mul(4)).unwrap_or(0) == 0
    }

    /// Puts a branch above the root: the map holds keys 16 times larger.
    fn lift(&mut self) {
        if let Some(root) = self.root.take() {
            let mut children: [Option<Rc<Node>>; 16] = Default::default();
            children[0] = Some(root);
            self.root = Some(Rc::new(Node::Branch(children)));
        }
        // At most 15: a map of 15 levels holds every key.
        self.levels = self.levels.saturating_add(1);
    }

    /// The entry of `key`, 0 if it has none.
    fn get(&self, key: u64) -> u8 {
        if !self.holds(key) {
            return 0;
        }
        let mut node = &self.root;
        let mut level = self.levels;
        while let Some(n) = node {
            match &**n {
                Node::Leaf(values) => return values.get(digit(key, 0)).copied().unwrap_or(0),
                Node::Branch(children) => {
                    let Some(child) = children.get(digit(key, level)) else { return 0 };
                    node = child;
                    level = level.saturating_sub(1);
                }
            }
        }
        0
    }

    /// Sets the entry of `key` to `f(entry)`, which must not be 0.
    fn update(&mut self, key: u64, f: impl FnOnce(u8) -> u8, work: &mut usize) {
        while !self.holds(key) {
            self.lift();
        }
        let mut slot = &mut self.root;
        let mut level = self.levels;
        loop {
            *work = work.saturating_add(1);
            let node = slot.get_or_insert_with(|| {
                Rc::new(if level == 0 { Node::Leaf([0; 16]) } else { Node::Branch(Default::default()) })
            });
            match Rc::make_mut(node) {
                Node::Leaf(values) => {
                    if let Some(v) = values.get_mut(digit(key, 0)) {
                        *v = f(*v);
                    }
                    return;
                }
                Node::Branch(children) => {
                    let Some(child) = children.get_mut(digit(key, level)) else { return };
                    slot = child;
                    level = level.saturating_sub(1);
                }
            }
        }
    }

    /// Merges `other` into this map, entry by entry with `|`.
    fn join(&mut self, other: &RegMap, work: &mut usize) {
        let mut other = other.clone();
        while self.levels < other.levels {
            self.lift();
        }
        while other.levels < self.levels {
            other.lift();
        }
        or_node(&mut self.root, &other.root, work);
    }

    /// True when both maps have the same entries.
    fn same(&self, other: &RegMap, work: &mut usize) -> bool {
        let (mut a, mut b) = (self.clone(), other.clone());
        while a.levels < b.levels {
            a.lift();
        }
        while b.levels < a.levels {
            b.lift();
        }
        same_node(&a.root, &b.root, work)
    }
}

/// The hex digit of `key` a node at `level` (0 for leaves) picks its entry by: below 16,
/// so every `get` of a node's 16 entries by it finds one.
fn digit(key: u64, level: u32) -> usize {
    (key.checked_shr(level.saturating_mul(4)).unwrap_or(0) & 15) as usize
}

fn or_node(a: &mut Option<Rc<Node>>, b: &Option<Rc<Node>>, work: &mut usize) {
    let Some(y) = b else { return };
    let Some(x) = a else {
        *a = Some(y.clone());
        return;
    };
    if Rc::ptr_eq(x, y) {
        return;
    }
    *work = work.saturating_add(1);
    match (Rc::make_mut(x), &**y) {
        (Node::Leaf(p), Node::Leaf(q)) => {
            for (p, q) in p.iter_mut().zip(q) {
                *p |= q;
            }
        }
        (Node::Branch(p), Node::Branch(q)) => {
            for (p, q) in p.iter_mut().zip(q) {
                or_node(p, q, work);
            }
        }
        // Nodes at the same level are of the same kind.
        _ => {}
    }
}

fn same_node(a: &Option<Rc<Node>>, b: &Option<Rc<Node>>, work: &mut usize) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => {
            if Rc::ptr_eq(x, y) {
                return true;
            }
            *work = work.saturating_add(1);
            match (&**x, &**y) {
                (Node::Leaf(p), Node::Leaf(q)) => p == q,
                (Node::Branch(p), Node::Branch(q)) => p.iter().zip(q).all(|(p, q)| same_node(p, q, work)),
                _ => false,
            }
        }
        _ => false,
    }
}

/// The source components an operand with selection `sel` reads into the result
/// components `lanes`, or with `width` < 4 its first `width` components.
fn components(sel: Selection, lanes: u8, width: usize) -> u8 {
    match sel {
        Selection::Swizzle(sw) => {
            let mut read = 0u8;
            for (c, &src) in sw.iter().enumerate() {
                let used = if width < 4 { c < width } else { lanes & (1 << c) != 0 };
                if used {
                    read |= 1 << (src & 3);
                }
            }
            read
        }
        Selection::Select1(c) => 1 << (c & 3),
        Selection::Mask(m) => m.0 & 0xf,
        Selection::None | Selection::Mode3 => 0xf,
    }
}

// Test code indexes its own fixed expectations, not input.
#[cfg(test)]
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use tpf::{ComponentCount, Mask, OpControl, Test, Version};

    /// One instruction, as a program of its own (see [`program`]).
    fn op(opcode: Opcode, operands: Vec<Operand>) -> Program<'static> {
        let control = if opcode == Opcode::If { OpControl::Test(Test::NonZero) } else { OpControl::None };
        let mut p = Program::new(Version::new(ProgramType::Pixel, 4, 0));
        if let Body::Op(op) = &mut p.push_op(opcode, &operands).body {
            op.control = control;
        }
        p
    }

    fn dst(r: u32) -> Operand {
        Operand::new(OperandType::Temp, ComponentCount::Four, Selection::Mask(Mask(1)), &[r])
    }

    fn src(ty: OperandType, indices: &[u32]) -> Operand {
        Operand::new(ty, ComponentCount::Four, Selection::Select1(0), indices)
    }

    /// `dcl_temps n`, then `body`, then `ret`.
    fn program(temps: u32, body: Vec<Program<'static>>) -> Program<'static> {
        let mut p = Program::new(Version::new(ProgramType::Pixel, 4, 0));
        p.push_decl(Opcode::DclTemps, Decl::Temps(temps));
        for part in &body {
            p.append(part);
        }
        p.push_op(Opcode::Ret, &[]);
        p
    }

    #[test]
    fn many_branches_over_many_temps_take_linear_work() {
        // 20,000 temps written (the even ones from a constant buffer, the odd ones from
        // an input), then each tested by an `if_nz`/`endif` pair. Copying the whole
        // register state at every `if` made this 20,000 × 20,000 entries of work.
        const N: u32 = 20_000;
        let mut body = Vec::new();
        for r in 0..N {
            let value =
                if r % 2 == 0 { src(OperandType::ConstantBuffer, &[0, 0]) } else { src(OperandType::Input, &[0]) };
            body.push(op(Opcode::Mov, vec![dst(r), value]));
        }
        for r in 0..N {
            body.push(op(Opcode::If, vec![src(OperandType::Temp, &[r])]));
            body.push(op(Opcode::EndIf, vec![]));
        }
        let p = program(N, body);
        let n = p.instructions.len();
        let u = uniformity(&p);
        assert!(!u.gave_up, "the walk gave up after {} units of work", u.work);
        for r in 0..N as usize {
            let at = 1 + N as usize + 2 * r;
            assert_eq!(p.instructions[at].opcode, Opcode::If);
            assert_eq!(u.varying[at], r % 2 == 1, "if_nz r{r}.x");
        }
        // One unit per instruction walked, four per write (a 4-level trie holds 20,000
        // registers); the `if`s and `endif`s share their states.
        assert!(u.work <= 3 * n, "{} units of work for {n} instructions", u.work);
    }

    #[test]
    fn deeply_nested_varying_branches_stop_at_the_work_bound() {
        // 3,000 nested `if_nz v0.x` around 3,000 writes: closing each `if` marks every
        // register written inside it varying, 3,000 × 3,000 entries in all. The walk
        // stops at its bound and takes the remaining conditions as varying.
        const N: u32 = 3_000;
        let mut body = Vec::new();
        body.extend((0..N).map(|_| op(Opcode::If, vec![src(OperandType::Input, &[0])])));
        body.extend((0..N).map(|r| op(Opcode::Mov, vec![dst(r), src(OperandType::ConstantBuffer, &[0, 0])])));
        body.extend((0..N).map(|_| op(Opcode::EndIf, vec![])));
        // A condition on a constant after the nest: uniform, but past the bound.
        body.push(op(Opcode::If, vec![src(OperandType::ConstantBuffer, &[0, 0])]));
        body.push(op(Opcode::EndIf, vec![]));
        let p = program(N, body);
        let n = p.instructions.len();
        let u = uniformity(&p);
        assert!(u.gave_up);
        assert!(u.varying[n - 3], "conditions past the bound count as varying");
        // The bound, plus at most what one `endif` does (one entry per register).
        assert!(u.work <= WORK_PER_INSTRUCTION * n + 4 * N as usize, "{} units of work for {n} instructions", u.work);
        // Each `if` itself was reached and found varying.
        assert!(u.varying[1..=N as usize].iter().all(|&v| v));
    }
}
