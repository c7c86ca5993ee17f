//! Decoded program → [`Plan`] with its [`Code`].
//!
//! Two passes: the first reads every declaration (and scans operands for the temps
//! they use), which fixes the register-file layout; the second compiles the
//! executable instructions, resolving operands to register indices and structured flow
//! control to jumps.

use std::collections::{BTreeMap, HashMap};

use tpf::blocks::{BlockError, BlockKind, Blocks, Event};
use tpf::table::{Flow, Ty};
use tpf::{
    Body, ComponentCount, CustomDataClass, Decl, ExtOpcode, Index, InstructionRef, InstructionReturnType,
    InterpolationMode, Modifier, Op as TOp, OpControl, Opcode as O, Operand, OperandType as OT, Pool, Primitive,
    PrimitiveTopology, ProgramType, ResInfoReturnType, ResourceDimension, Selection, SystemName, Test,
};

use super::{
    alu_op, next_id, AtomicOp, Code, DeclaredOutput, DeclaredSlots, Dst, DstKind, FCall, Inst, Layout, Op, Rel,
    ResKind, ResOp, Src, SrcKind, SwitchTable, D_FINE, D_Y, EVAL_CENTROID, EVAL_SAMPLE_INDEX, EVAL_SNAPPED, F_NZ,
    F_SAT, M_ABS, M_DOUBLE, M_IABS, M_INEG, M_NEG, NO_REL, PS_DEPTH, PS_MASK, PS_STENCIL,
};
use crate::error::{ExecError, ExecErrorKind};
use crate::plan::{InputDecl, OutputDecl, Plan, SigElement};

/// Subroutine nesting limit (`D3D11_COMMONSHADER_SUBROUTINE_NESTING_LIMIT`).
pub(crate) const CALL_DEPTH: u32 = 32;

/// Temp registers (`r#`, and `x#` together) a program may declare
/// (`D3D11_COMMONSHADER_TEMP_REGISTER_COUNT`).
const TEMP_LIMIT: u32 = 4096;

/// Number of constant-buffer slots a stage has.
const CB_SLOTS: u32 = 14;

/// Thread-group shared memory per group, in bytes, and the `dcl_thread_group` limits
/// (x, y, z, threads per group) of `cs_5_0` and of `cs_4_x`.
const TGSM_BYTES: u32 = tpf::compute::tgsm_bytes_max(false);
const TGSM_BYTES_CS4: u32 = tpf::compute::tgsm_bytes_max(true);
const THREAD_GROUP_MAX: [u32; 4] = tpf::compute::thread_group_max(false);
const THREAD_GROUP_MAX_CS4: [u32; 4] = tpf::compute::thread_group_max(true);

/// The thread-ID registers of a compute shader, in the order the layout places them
/// from `inputs_base`.
const THREAD_IDS: [OT; 4] =
    [OT::InputThreadId, OT::InputThreadGroupId, OT::InputThreadIdInGroup, OT::InputThreadIdInGroupFlattened];

fn thread_id_index(ty: OT) -> Option<u32> {
    THREAD_IDS.iter().position(|t| *t == ty).map(|k| k as u32)
}

fn unsupported(i: usize, what: impl Into<String>) -> ExecError {
    ExecError::at(i, ExecErrorKind::Unsupported(what.into()))
}

fn malformed(i: usize, what: impl Into<String>) -> ExecError {
    ExecError::at(i, ExecErrorKind::Malformed(what.into()))
}

fn type_name(t: OT) -> String {
    t.listing_name().map_or_else(|| format!("operand type {}", t.raw()), str::to_string)
}

/// A declared register range of a resource-like file (`t#`, `u#`, `s#`, `cb#`). In
/// Shader Model 5.1 operands name the range by `id` and give the absolute register;
/// before, `id` is the register.
#[derive(Debug, Clone, Copy)]
struct Range {
    id: u32,
    lo: u32,
    hi: u32,
    space: u32,
    kind: ResKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum File {
    Srv,
    Uav,
    Sampler,
    Cb,
}

/// What the declarations say.
#[derive(Default)]
struct Decls {
    inputs: Vec<InputDecl>,
    outputs: Vec<OutputDecl>,
    input_registers: u32,
    output_registers: u32,
    /// `N` of `dcl_input v[N][...]`.
    declared_vertices: u32,
    input_primitive: Option<Primitive>,
    output_topology: [Option<PrimitiveTopology>; 4],
    streams: u8,
    current_stream: u32,
    max_vertex_count: u32,
    instance_count: Option<u32>,
    uses_prim: bool,
    uses_instance: bool,
    temps: u32,
    /// `x#`: (register, size in registers).
    xtemps: Vec<(u32, u32)>,
    ranges: Vec<(File, Range)>,
    icb: Vec<[u32; 4]>,
    /// `dcl_thread_group`.
    thread_group: Option<[u32; 3]>,
    /// `g#` declarations: (register, bytes, structure stride or 0 for raw).
    tgsm: Vec<(u32, u32, u32)>,
    /// Pixel shaders: the `PS_*` outputs declared.
    ps_outputs: u8,
}

/// Where a `g#` lives in the group's shared memory.
#[derive(Debug, Clone, Copy)]
struct TgsmPlace {
    register: u32,
    base: u32,
    words: u32,
    stride: u32,
}

fn res_kind(dim: ResourceDimension) -> ResKind {
    match dim {
        ResourceDimension::Buffer => ResKind::Buffer,
        ResourceDimension::Texture1D => ResKind::Texture1D,
        ResourceDimension::Texture1DArray => ResKind::Texture1DArray,
        ResourceDimension::Texture2D => ResKind::Texture2D,
        ResourceDimension::Texture2DArray => ResKind::Texture2DArray,
        ResourceDimension::Texture3D => ResKind::Texture3D,
        ResourceDimension::TextureCube => ResKind::TextureCube,
        ResourceDimension::TextureCubeArray => ResKind::TextureCubeArray,
        ResourceDimension::Texture2DMS => ResKind::Texture2DMS,
        ResourceDimension::Texture2DMSArray => ResKind::Texture2DMSArray,
        ResourceDimension::RawBuffer => ResKind::Raw,
        ResourceDimension::StructuredBuffer => ResKind::Structured,
        _ => ResKind::Unknown,
    }
}

fn imm_index(idx: &Index) -> Option<u32> {
    match *idx {
        Index::Imm32(v) => Some(v),
        Index::Imm64(v) => Some(u32::try_from(v).unwrap_or(u32::MAX)),
        _ => None,
    }
}

fn mask_of(sel: Selection) -> u8 {
    match sel {
        Selection::Mask(m) => m.0 & 15,
        Selection::Select1(c) => 1 << (c & 3),
        _ => 15,
    }
}

fn swizzle_of(sel: Selection) -> [u8; 4] {
    match sel {
        Selection::Swizzle(s) => s.map(|c| c & 3),
        Selection::Select1(c) => [c & 3; 4],
        _ => [0, 1, 2, 3],
    }
}

/// A swizzle packed as [`Src::swz`].
fn pack(swz: [u8; 4]) -> u8 {
    swz.iter().enumerate().fold(0, |p, (k, &c)| p | (c & 3) << (2 * k))
}

fn vertices_of(p: Primitive) -> u32 {
    match p {
        Primitive::Point => 1,
        Primitive::Line => 2,
        Primitive::Triangle => 3,
        Primitive::LineAdj => 4,
        Primitive::TriangleAdj => 6,
        _ => 0,
    }
}

/// The slots the declarations name (register space 0).
fn declared_slots(d: &Decls) -> DeclaredSlots {
    let mut out = DeclaredSlots::default();
    for (file, r) in &d.ranges {
        if r.space != 0 {
            continue;
        }
        let mask = match file {
            File::Srv => &mut out.srv,
            File::Uav => &mut out.uav,
            File::Sampler => &mut out.sampler,
            File::Cb => &mut out.cb,
        };
        DeclaredSlots::mark(mask, r.lo, r.hi);
    }
    out
}

impl Decls {
    fn range(
        &mut self,
        i: usize,
        file: File,
        o: &Operand,
        sm51: bool,
        space: Option<u32>,
        kind: ResKind,
    ) -> Result<(), ExecError> {
        let idx: Vec<u32> = o.indices().iter().filter_map(imm_index).collect();
        if idx.len() != o.dims() || idx.is_empty() {
            return Err(malformed(i, "declaration with a relative register index"));
        }
        let r = if sm51 {
            if idx.len() < 3 {
                return Err(malformed(i, "Shader Model 5.1 declaration without a register range"));
            }
            Range { id: idx[0], lo: idx[1], hi: idx[2], space: space.unwrap_or(0), kind }
        } else {
            Range { id: idx[0], lo: idx[0], hi: idx[0], space: 0, kind }
        };
        self.ranges.push((file, r));
        Ok(())
    }

    fn find(&self, file: File, id: u32) -> Option<Range> {
        self.ranges.iter().rev().find(|(f, r)| *f == file && r.id == id).map(|(_, r)| *r)
    }

    fn declare(
        &mut self,
        i: usize,
        inst: InstructionRef<'_, '_>,
        decl: &Decl,
        stage: ProgramType,
        sm51: bool,
    ) -> Result<(), ExecError> {
        let gs = stage == ProgramType::Geometry;
        let cs = stage == ProgramType::Compute;
        let ps = stage == ProgramType::Pixel;
        match decl {
            Decl::ThreadGroup(size) if cs => {
                if self.thread_group.is_some() {
                    return Err(malformed(i, "two dcl_thread_group declarations"));
                }
                self.thread_group = Some(*size);
            }
            Decl::TgsmRaw { operand, byte_count } if cs => {
                let Some(r) = inst.operand(*operand).register() else {
                    return Err(malformed(i, "dcl_tgsm_raw without a register"));
                };
                if byte_count % 4 != 0 {
                    return Err(malformed(i, format!("dcl_tgsm_raw of {byte_count} bytes (a multiple of 4)")));
                }
                self.tgsm_decl(i, r as u32, *byte_count, 0)?;
            }
            Decl::TgsmStructured { operand, stride, count } if cs => {
                let Some(r) = inst.operand(*operand).register() else {
                    return Err(malformed(i, "dcl_tgsm_structured without a register"));
                };
                if *stride == 0 || stride % 4 != 0 {
                    return Err(malformed(i, format!("dcl_tgsm_structured with stride {stride} (a multiple of 4)")));
                }
                let bytes = u64::from(*stride) * u64::from(*count);
                self.tgsm_decl(i, r as u32, u32::try_from(bytes).unwrap_or(u32::MAX), *stride)?;
            }
            Decl::Resource { operand, dim, space, .. } => {
                self.range(i, File::Srv, inst.operand(*operand), sm51, *space, res_kind(*dim))?
            }
            Decl::ResourceRaw { operand, space } => {
                self.range(i, File::Srv, inst.operand(*operand), sm51, *space, ResKind::Raw)?
            }
            Decl::ResourceStructured { operand, space, .. } => {
                self.range(i, File::Srv, inst.operand(*operand), sm51, *space, ResKind::Structured)?
            }
            Decl::UavTyped { operand, dim, space, .. } => {
                self.range(i, File::Uav, inst.operand(*operand), sm51, *space, res_kind(*dim))?
            }
            Decl::UavRaw { operand, space, .. } => {
                self.range(i, File::Uav, inst.operand(*operand), sm51, *space, ResKind::Raw)?
            }
            Decl::UavStructured { operand, space, .. } => {
                self.range(i, File::Uav, inst.operand(*operand), sm51, *space, ResKind::Structured)?
            }
            Decl::Sampler { operand, space, .. } => {
                self.range(i, File::Sampler, inst.operand(*operand), sm51, *space, ResKind::Unknown)?
            }
            Decl::ConstantBuffer { operand, space, .. } => {
                self.range(i, File::Cb, inst.operand(*operand), sm51, *space, ResKind::Unknown)?
            }
            Decl::IndexRange { .. } | Decl::GlobalFlags(_) => {}
            Decl::OutputTopology(t) => {
                self.output_topology[(self.current_stream & 3) as usize] = Some(*t);
            }
            Decl::InputPrimitive(p) => self.input_primitive = Some(*p),
            Decl::MaxOutputVertexCount(n) => self.max_vertex_count = *n,
            Decl::GsInstanceCount(n) => self.instance_count = Some(*n),
            Decl::Temps(n) => {
                if *n > TEMP_LIMIT {
                    return Err(malformed(i, format!("dcl_temps {n} (the limit is {TEMP_LIMIT})")));
                }
                self.temps = self.temps.max(*n);
            }
            Decl::IndexableTemp { register, count, .. } => {
                if self.xtemps.iter().any(|x| x.0 == *register) {
                    return Err(malformed(i, format!("x{register} declared twice")));
                }
                if *count > 1 << 16 {
                    return Err(unsupported(
                        i,
                        format!("x{register}[{count}]: indexable temps larger than 65536 registers"),
                    ));
                }
                self.xtemps.push((*register, *count));
            }
            Decl::Stream(o) => {
                let n = inst.operand(*o).register().unwrap_or(0);
                if n >= 4 {
                    return Err(malformed(i, format!("stream m{n}")));
                }
                self.current_stream = n as u32;
                self.streams |= 1 << n;
            }
            Decl::Register(o)
            | Decl::RegisterName { operand: o, .. }
            | Decl::InputPs { operand: o, .. }
            | Decl::InputPsName { operand: o, .. } => {
                let o = inst.operand(*o);
                let system = match decl {
                    Decl::RegisterName { name, .. } | Decl::InputPsName { name, .. } => *name,
                    _ => SystemName::Undefined,
                };
                let interpolation = match decl {
                    Decl::InputPs { interpolation, .. } | Decl::InputPsName { interpolation, .. } => *interpolation,
                    _ => InterpolationMode::Undefined,
                };
                let input = matches!(
                    inst.opcode,
                    O::DclInput | O::DclInputSgv | O::DclInputSiv | O::DclInputPs | O::DclInputPsSgv | O::DclInputPsSiv
                );
                match o.ty {
                    OT::Input | OT::Output if cs => {
                        return Err(unsupported(i, format!("{} declared in a compute shader", type_name(o.ty))))
                    }
                    OT::Input if input => {
                        let idx: Vec<u32> = o.indices().iter().filter_map(imm_index).collect();
                        if idx.len() != o.dims() {
                            return Err(malformed(i, "input declaration with a relative index"));
                        }
                        let register = match (gs, idx.as_slice()) {
                            (false, [r]) => *r,
                            (true, [n, r]) => {
                                if *n > 32 {
                                    return Err(malformed(i, format!("input declared for {n} vertices")));
                                }
                                self.declared_vertices = self.declared_vertices.max(*n);
                                *r
                            }
                            _ => return Err(malformed(i, "input declaration with the wrong number of indices")),
                        };
                        if register >= 1 << 12 {
                            return Err(malformed(i, format!("input register v{register}")));
                        }
                        self.input_registers = self.input_registers.max(register + 1);
                        self.inputs.push(InputDecl { register, mask: mask_of(o.selection()), system, interpolation });
                    }
                    OT::Output if !input => {
                        let Some(register) = o.register().filter(|&r| r < 1 << 12) else {
                            return Err(malformed(i, "output declaration without a register"));
                        };
                        let register = register as u32;
                        self.output_registers = self.output_registers.max(register + 1);
                        self.outputs.push(OutputDecl {
                            stream: self.current_stream,
                            register,
                            mask: mask_of(o.selection()),
                            system,
                        });
                    }
                    OT::InputPrimitiveId if input && !ps => self.uses_prim = true,
                    OT::InputCoverageMask if input && ps => {}
                    OT::OutputDepth | OT::OutputDepthGreaterEqual | OT::OutputDepthLessEqual if !input && ps => {
                        self.ps_outputs |= PS_DEPTH
                    }
                    OT::OutputCoverageMask if !input && ps => self.ps_outputs |= PS_MASK,
                    OT::OutputStencilRef if !input && ps => self.ps_outputs |= PS_STENCIL,
                    OT::InputGsInstanceId if input => self.uses_instance = true,
                    ty if input && cs && thread_id_index(ty).is_some() => {}
                    other => {
                        return Err(unsupported(
                            i,
                            format!("{} declared in a {} shader", type_name(other), stage_name(stage)),
                        ))
                    }
                }
            }
            // Read whole by `tpf::interfaces::Interfaces::of` (the slot count is checked
            // in `compile`).
            Decl::FunctionBody(_) | Decl::FunctionTable { .. } | Decl::Interface { .. } => {}
            _ => {
                return Err(unsupported(i, format!("{} in a {} shader", inst.opcode.mnemonic(), stage_name(stage))));
            }
        }
        Ok(())
    }

    /// Records a `g#` declaration (after the size checks).
    fn tgsm_decl(&mut self, i: usize, register: u32, bytes: u32, stride: u32) -> Result<(), ExecError> {
        if self.tgsm.iter().any(|g| g.0 == register) {
            return Err(malformed(i, format!("g{register} declared twice")));
        }
        let total = self.tgsm.iter().fold(u64::from(bytes), |a, g| a + u64::from(g.1));
        if total > u64::from(TGSM_BYTES) {
            return Err(malformed(
                i,
                format!("{total} bytes of thread-group shared memory (the limit is {TGSM_BYTES})"),
            ));
        }
        self.tgsm.push((register, bytes, stride));
        Ok(())
    }

    /// Scans an instruction's operands for the temps they use (so that `dcl_temps`
    /// too small for the program cannot make an access go out of the file).
    fn scan(&mut self, inst: InstructionRef<'_, '_>) {
        let mut temp = |ty: OT, idx: Option<u32>| {
            if ty == OT::Temp {
                if let Some(n) = idx {
                    self.temps = self.temps.max(n.saturating_add(1).min(TEMP_LIMIT));
                }
            }
        };
        for o in inst.operands() {
            temp(o.ty, o.index(0).as_ref().and_then(imm_index));
            for idx in o.indices() {
                if let Some(r) = inst.relative(&idx) {
                    temp(r.ty, r.index(0).as_ref().and_then(imm_index));
                }
            }
        }
        for o in inst.operands() {
            match o.ty {
                OT::InputPrimitiveId => self.uses_prim = true,
                OT::InputGsInstanceId => self.uses_instance = true,
                _ => {}
            }
        }
    }
}

fn stage_name(s: ProgramType) -> &'static str {
    match s {
        ProgramType::Vertex => "vertex",
        ProgramType::Geometry => "geometry",
        ProgramType::Pixel => "pixel",
        ProgramType::Hull => "hull",
        ProgramType::Domain => "domain",
        ProgramType::Compute => "compute",
        ProgramType::Unknown(_) => "unknown",
    }
}

/// The plan positions an open flow-control block needs patched or jumped to: `at` is
/// where its opening instruction's code starts (the `if`'s conditional jump, the
/// loop's first instruction, the `switch`), `else_jump` the jump an `else` adds.
#[derive(Debug, Clone, Copy)]
struct Jumps {
    at: usize,
    else_jump: Option<usize>,
}

struct Builder<'d> {
    d: &'d Decls,
    /// The program's arenas (the registers of relative indices).
    pool: Pool<'d, 'd>,
    sm51: bool,
    gs: bool,
    cs: bool,
    ps: bool,
    /// Where each `g#` lives.
    tgsm: Vec<TgsmPlace>,
    layout: Layout,
    /// Base register of each `x#` (parallel to `d.xtemps`).
    xbase: Vec<u32>,
    insts: Vec<Inst>,
    origin: Vec<u32>,
    constants: Vec<[u32; 4]>,
    konst_index: HashMap<[u32; 4], u32>,
    /// Open blocks (`tpf::blocks`: the structure the assembler and the validator
    /// check too).
    blocks: Blocks<Jumps>,
    /// `break` jumps not yet patched: the depth of the block they leave, and where.
    breaks: Vec<(usize, usize)>,
    switches: Vec<SwitchTable>,
    rels: Vec<Rel>,
    rops: Vec<ResOp>,
    labels: HashMap<u32, u32>,
    calls: Vec<(usize, u32, usize)>,
    interfaces: &'d tpf::interfaces::Interfaces,
    fcalls: Vec<FCall>,
    /// `label fb#`: where each body starts.
    bodies: BTreeMap<u32, u32>,
}

impl Builder<'_> {
    fn pc(&self) -> u32 {
        self.insts.len() as u32
    }

    fn push(&mut self, i: usize, inst: Inst) -> usize {
        self.insts.push(inst);
        self.origin.push(i as u32);
        self.insts.len() - 1
    }

    /// The register holding the constant `v`.
    fn konst(&mut self, v: [u32; 4]) -> u32 {
        if let Some(&r) = self.konst_index.get(&v) {
            return r;
        }
        let r = self.layout.zero + self.constants.len() as u32;
        self.constants.push(v);
        self.konst_index.insert(v, r);
        r
    }

    fn zero(&self) -> Src {
        Src::reg(self.layout.zero)
    }

    /// The flat register and component a relative index reads.
    fn rel_reg(&self, i: usize, r: &Operand) -> Result<(u32, u8), ExecError> {
        let c = match r.selection() {
            Selection::Select1(c) => c & 3,
            Selection::Swizzle(s) => s[0] & 3,
            Selection::Mask(m) if m.0 & 15 != 0 => (m.0 & 15).trailing_zeros() as u8,
            _ => 0,
        };
        let imm = |d: usize| r.index(d).map_or(0, |x| x.immediate() as u32);
        let n = imm(0);
        let reg = match (r.ty, r.dims()) {
            (OT::Temp, 1) => {
                if n >= self.layout.temps {
                    return Err(malformed(i, format!("r{n} beyond the declared temps")));
                }
                self.layout.temps_base + n
            }
            (OT::IndexableTemp, 2) => {
                let Some(k) = self.d.xtemps.iter().position(|x| x.0 == n) else {
                    return Err(malformed(i, format!("x{n} is not declared")));
                };
                let e = imm(1);
                if e < self.d.xtemps[k].1 {
                    self.xbase[k] + e
                } else {
                    self.layout.zero
                }
            }
            (OT::Input, 1) if !self.gs => {
                if n < self.d.input_registers {
                    self.layout.inputs_base + n
                } else {
                    self.layout.zero
                }
            }
            (OT::InputPrimitiveId, _) => self.layout.prim,
            (OT::InputGsInstanceId, _) => self.layout.gs_instance,
            (ty, _) if self.cs && thread_id_index(ty).is_some() => {
                self.layout.inputs_base + thread_id_index(ty).unwrap_or(0)
            }
            (ty, _) => return Err(unsupported(i, format!("a relative index read from {}", type_name(ty)))),
        };
        Ok((reg, c))
    }

    /// An index: immediate, or relative (immediate part, register, component).
    fn index(&self, i: usize, idx: &Index) -> Result<Result<u32, (u32, u32, u8)>, ExecError> {
        Ok(match idx {
            Index::Imm32(v) => Ok(*v),
            Index::Imm64(v) => Ok(u32::try_from(*v).unwrap_or(u32::MAX)),
            Index::Relative(r) => {
                let (reg, c) = self.rel_reg(i, self.pool.operand(*r))?;
                Err((0, reg, c))
            }
            Index::Imm32Relative(v, r) => {
                let (reg, c) = self.rel_reg(i, self.pool.operand(*r))?;
                Err((*v, reg, c))
            }
            Index::Imm64Relative(v, r) => {
                let (reg, c) = self.rel_reg(i, self.pool.operand(*r))?;
                Err((u32::try_from(*v).unwrap_or(u32::MAX), reg, c))
            }
        })
    }

    /// A region access: element `idx` of `count` elements of `stride` registers at `base`.
    fn region(&mut self, i: usize, idx: &Index, base: u32, count: u32, stride: u32) -> Result<Src, ExecError> {
        Ok(match self.index(i, idx)? {
            Ok(e) if e < count => Src::reg(base + e * stride),
            Ok(_) => self.zero(),
            Err((imm, rel, c)) => {
                let r = self.rel(Rel { base, rel, imm, count, stride, rel_c: c });
                Src { kind: SrcKind::Rel, ..Src::reg(r) }
            }
        })
    }

    /// The entry of the relative-index table holding `r`.
    fn rel(&mut self, r: Rel) -> u32 {
        self.rels.push(r);
        self.rels.len() as u32 - 1
    }

    fn xtemp(&self, i: usize, o: &Operand) -> Result<(u32, u32), ExecError> {
        let Some(n) = o.index(0).as_ref().and_then(imm_index) else {
            return Err(malformed(i, "x# without an immediate register number"));
        };
        let Some(k) = self.d.xtemps.iter().position(|x| x.0 == n) else {
            return Err(malformed(i, format!("x{n} is not declared")));
        };
        if o.dims() != 2 {
            return Err(malformed(i, format!("x{n} needs two indices")));
        }
        Ok((self.xbase[k], self.d.xtemps[k].1))
    }

    /// The sampler operand of a sampling instruction (`mnemonic`): its absolute slot,
    /// and the relative index entry of a uniformly indexed one ([`NO_REL`] if none).
    fn sampler(&mut self, i: usize, mnemonic: &str, o: &Operand) -> Result<(u32, u32), ExecError> {
        if o.ty != OT::Sampler {
            return Err(malformed(i, format!("{mnemonic} without a sampler")));
        }
        let (slot, _, rel) = self.slot(i, o, File::Sampler)?;
        Ok((slot, rel))
    }

    /// A resource-like operand: its absolute slot (and the declared range), and for a
    /// uniformly indexed `t#`, `u#` or `s#` of Shader Model 5.0 (`t[r0.w + 2]`:
    /// functional spec 7.11 "Uniform Indexing of Resources and Samplers") the entry of
    /// [`Code::rels`] that computes the slot when the instruction runs ([`NO_REL`]
    /// otherwise; the slot returned is then the immediate part).
    fn slot(&mut self, i: usize, o: &Operand, file: File) -> Result<(u32, Option<Range>, u32), ExecError> {
        let imm = |k: usize| -> Result<u32, ExecError> {
            match o.index(k) {
                Some(idx) => imm_index(&idx)
                    .ok_or_else(|| unsupported(i, "dynamic indexing of Shader Model 5.1 ranges or constant buffers")),
                None => Err(malformed(i, format!("{} without a register number", type_name(o.ty)))),
            }
        };
        if !self.sm51 && file != File::Cb {
            if let Some(idx) = o.index(0) {
                if let Err((imm, rel, rel_c)) = self.index(i, &idx)? {
                    let r = self.rel(Rel { base: 0, rel, imm, count: u32::MAX, stride: 1, rel_c });
                    return Ok((imm, None, r));
                }
            }
        }
        let id = imm(0)?;
        if self.sm51 {
            let slot = imm(1)?;
            let Some(r) = self.d.find(file, id) else {
                return Err(malformed(i, format!("{}{id} is not declared", type_name(o.ty).to_uppercase())));
            };
            if r.space != 0 {
                return Err(unsupported(i, format!("register space {} (only space 0 is bound)", r.space)));
            }
            if slot < r.lo || slot > r.hi {
                return Err(malformed(i, format!("register {slot} outside the declared range [{}:{}]", r.lo, r.hi)));
            }
            Ok((slot, Some(r), NO_REL))
        } else {
            Ok((id, self.d.find(file, id), NO_REL))
        }
    }

    fn src(&mut self, i: usize, o: &Operand, ty: Ty) -> Result<Src, ExecError> {
        let l = self.layout;
        let mut s = match o.ty {
            OT::Immediate32 => {
                let v = match o.components {
                    ComponentCount::One => [o.imm[0]; 4],
                    _ => o.imm,
                };
                Src::reg(self.konst(v))
            }
            OT::Immediate64 => {
                let v = match o.components {
                    ComponentCount::One => [o.imm[0], o.imm[1], o.imm[0], o.imm[1]],
                    _ => o.imm,
                };
                Src::reg(self.konst(v))
            }
            OT::Temp => match o.index(0).as_ref().and_then(imm_index) {
                Some(n) if o.dims() == 1 && n < l.temps => Src::reg(l.temps_base + n),
                _ => return Err(malformed(i, "bad temp register")),
            },
            OT::Input => self.input(i, o)?,
            OT::Output => match o.indices().as_slice() {
                [idx] => self.region(i, idx, 0, l.outputs, 1)?,
                _ => return Err(malformed(i, "bad output register")),
            },
            OT::IndexableTemp => {
                let (base, size) = self.xtemp(i, o)?;
                self.region(i, &o.indices()[1], base, size, 1)?
            }
            OT::ImmediateConstantBuffer => match o.indices().as_slice() {
                [idx] => self.region(i, idx, l.icb_base, l.icb, 1)?,
                _ => return Err(malformed(i, "bad icb operand")),
            },
            OT::ConstantBuffer if !self.sm51 && o.index(0).is_some_and(|x| imm_index(&x).is_none()) => {
                // A uniformly indexed slot (spec 7.11): slot and element computed when
                // the instruction runs, two consecutive entries of `rels`.
                let (Some(slot), Some(elem)) = (o.index(0), o.index(1)) else {
                    return Err(malformed(i, "constant buffer operand without an element index"));
                };
                let zero = self.layout.zero;
                let rel = |idx: &Index, b: &mut Self| -> Result<u32, ExecError> {
                    Ok(match b.index(i, idx)? {
                        Ok(imm) => b.rel(Rel { base: 0, rel: zero, imm, count: 0, stride: 1, rel_c: 0 }),
                        Err((imm, rel, rel_c)) => b.rel(Rel { base: 0, rel, imm, count: 0, stride: 1, rel_c }),
                    })
                };
                let first = rel(&slot, self)?;
                rel(&elem, self)?;
                Src { kind: SrcKind::CbDyn, ..Src::reg(first) }
            }
            OT::ConstantBuffer => {
                let (slot, _, _) = self.slot(i, o, File::Cb)?;
                let elem = if self.sm51 { o.index(2) } else { o.index(1) };
                let Some(elem) = elem else {
                    return Err(malformed(i, "constant buffer operand without an element index"));
                };
                if slot >= CB_SLOTS {
                    self.zero()
                } else {
                    let slot = slot as u8;
                    match self.index(i, &elem)? {
                        Ok(e) => Src { kind: SrcKind::Cb, slot, ..Src::reg(e) },
                        Err((imm, rel, c)) => {
                            let r = self.rel(Rel { base: 0, rel, imm, count: 0, stride: 1, rel_c: c });
                            Src { kind: SrcKind::CbRel, slot, ..Src::reg(r) }
                        }
                    }
                }
            }
            OT::ThisPointer => match o.indices().as_slice() {
                [idx] => self.region(i, idx, l.this_base, l.this_count, 1)?,
                _ => return Err(malformed(i, "bad this operand")),
            },
            OT::InputPrimitiveId if !self.ps => Src::reg(l.prim),
            OT::InputGsInstanceId if !self.ps => Src::reg(l.gs_instance),
            OT::InputCoverageMask if self.ps => Src::reg(l.prim),
            ty if self.cs && thread_id_index(ty).is_some() => {
                Src::reg(l.inputs_base + thread_id_index(ty).unwrap_or(0))
            }
            other => return Err(unsupported(i, format!("reading {}", type_name(other)))),
        };
        if !matches!(o.ty, OT::Immediate32 | OT::Immediate64) {
            s.swz = pack(swizzle_of(o.selection()));
        }
        let m = o.modifier();
        let (abs, neg) = match m {
            Modifier::None => (false, false),
            Modifier::Neg => (false, true),
            Modifier::Abs => (true, false),
            Modifier::AbsNeg => (true, true),
            Modifier::Unknown(v) => return Err(malformed(i, format!("operand modifier {v}"))),
        };
        let float = (abs as u8 * M_ABS) | (neg as u8 * M_NEG);
        s.m = match ty {
            Ty::F | Ty::Any => float,
            Ty::D if float != 0 => float | M_DOUBLE,
            Ty::D => 0,
            Ty::I | Ty::U => (abs as u8 * M_IABS) | (neg as u8 * M_INEG),
            Ty::R => 0,
        };
        Ok(s)
    }

    fn input(&mut self, i: usize, o: &Operand) -> Result<Src, ExecError> {
        let l = self.layout;
        let regs = self.d.input_registers;
        if !self.gs {
            return match o.indices().as_slice() {
                [idx] => self.region(i, idx, l.inputs_base, regs, 1),
                _ => Err(malformed(i, "vertex-shader input with the wrong number of indices")),
            };
        }
        let verts = l.inputs.checked_div(regs).unwrap_or(0);
        let indices = o.indices();
        let [v, r] = indices.as_slice() else {
            return Err(malformed(i, "geometry-shader input needs two indices (v[vertex][register])"));
        };
        match (self.index(i, v)?, self.index(i, r)?) {
            (Ok(v), Ok(r)) if v < verts && r < regs => Ok(Src::reg(l.inputs_base + v * regs + r)),
            (Ok(_), Ok(_)) => Ok(self.zero()),
            (Err(_), Ok(r)) if r < regs => self.region(i, v, l.inputs_base + r, verts, regs),
            (Ok(v), Err(_)) if v < verts => self.region(i, r, l.inputs_base + v * regs, regs, 1),
            (Err(_), Ok(_)) | (Ok(_), Err(_)) => Ok(self.zero()),
            (Err(_), Err(_)) => Err(unsupported(i, "both indices of a geometry-shader input relative")),
        }
    }

    fn dst(&mut self, i: usize, o: &Operand) -> Result<Dst, ExecError> {
        let l = self.layout;
        let mask = match o.selection() {
            Selection::Mask(m) => m.0 & 15,
            Selection::Select1(c) => 1 << (c & 3),
            Selection::None => 15,
            _ => return Err(malformed(i, "destination with a swizzle")),
        };
        let region = |b: &mut Self, idx: &Index, base: u32, count: u32| -> Result<Dst, ExecError> {
            Ok(match b.index(i, idx)? {
                Ok(e) if e < count => Dst { kind: DstKind::Reg, reg: base + e, ..Dst::NULL },
                Ok(_) => Dst::NULL,
                Err((imm, rel, c)) => {
                    let r = b.rel(Rel { base, rel, imm, count, stride: 1, rel_c: c });
                    Dst { kind: DstKind::Rel, reg: r, ..Dst::NULL }
                }
            })
        };
        let mut d = match o.ty {
            OT::Null => return Ok(Dst::NULL),
            OT::Temp => match o.index(0).as_ref().and_then(imm_index) {
                Some(n) if o.dims() == 1 && n < l.temps => {
                    Dst { kind: DstKind::Reg, reg: l.temps_base + n, ..Dst::NULL }
                }
                _ => return Err(malformed(i, "bad temp register")),
            },
            OT::Output => match o.indices().as_slice() {
                [idx] => {
                    let mut d = region(self, idx, 0, l.outputs)?;
                    d.out = d.kind != DstKind::Null;
                    d
                }
                _ => return Err(malformed(i, "bad output register")),
            },
            OT::IndexableTemp => {
                let (base, size) = self.xtemp(i, o)?;
                region(self, &o.indices()[1], base, size)?
            }
            OT::OutputDepth | OT::OutputDepthGreaterEqual | OT::OutputDepthLessEqual if self.ps => {
                Dst { kind: DstKind::Reg, reg: l.depth, out: true, ..Dst::NULL }
            }
            OT::OutputCoverageMask if self.ps => Dst { kind: DstKind::Reg, reg: l.depth + 1, out: true, ..Dst::NULL },
            OT::OutputStencilRef if self.ps => Dst { kind: DstKind::Reg, reg: l.depth + 2, out: true, ..Dst::NULL },
            other => return Err(malformed(i, format!("cannot write {}", type_name(other)))),
        };
        if d.kind != DstKind::Null {
            d.mask = mask;
        }
        Ok(d)
    }

    fn test(op: &TOp) -> bool {
        matches!(op.control, OpControl::Test(Test::NonZero))
    }

    /// Steps the block structure with instruction `i`; a block it opens starts at the
    /// plan's current position.
    fn structure(&mut self, i: usize, inst: InstructionRef<'_, '_>) -> Result<Event<Jumps>, ExecError> {
        let here = self.insts.len();
        self.blocks.step(inst.opcode.info().flow, || Jumps { at: here, else_jump: None }).map_err(|e| {
            malformed(
                i,
                match e {
                    BlockError::Unopened { expected, .. } => {
                        format!("{} without {}", inst.opcode.mnemonic(), expected.opener())
                    }
                    BlockError::SecondElse => "else without if".into(),
                    BlockError::SecondDefault => "two defaults in one switch".into(),
                    BlockError::CaseOutsideSwitch => "case or default outside a switch".into(),
                    BlockError::BreakOutside => "break outside a loop or switch".into(),
                    BlockError::ContinueOutside => "continue outside a loop".into(),
                    BlockError::NotClosed(_) => "label inside a flow-control block".into(),
                },
            )
        })
    }

    /// The case table of the innermost block, if it is a `switch`.
    fn innermost_switch(&mut self) -> Option<&mut SwitchTable> {
        let block = self.blocks.innermost().filter(|b| b.kind == BlockKind::Switch)?;
        let table = self.insts.get(block.data.at)?.a as usize;
        self.switches.get_mut(table)
    }

    /// Points every pending `break` out of the block at `depth` to `target`.
    fn patch_breaks(&mut self, depth: usize, target: u32) {
        while let Some(&(d, at)) = self.breaks.last() {
            if d < depth {
                break;
            }
            self.breaks.pop();
            if let Some(x) = self.insts.get_mut(at) {
                x.a = target;
            }
        }
    }

    fn flow(&mut self, i: usize, inst: InstructionRef<'_, '_>, op: &TOp) -> Result<(), ExecError> {
        let cond = |b: &mut Self| -> Result<Src, ExecError> {
            let o = inst.operands().first().ok_or_else(|| malformed(i, "condition missing"))?;
            b.src(i, o, Ty::U)
        };
        match inst.opcode {
            O::If => {
                let mut x = Inst::new(Op::JmpIf);
                x.src[0] = cond(self)?;
                x.flags |= if Self::test(op) { 0 } else { F_NZ };
                // The block starts at the conditional jump, which `else` or `endif` patch.
                self.structure(i, inst)?;
                self.push(i, x);
            }
            O::Else => {
                self.structure(i, inst)?;
                let at = self.push(i, Inst::new(Op::Jmp));
                if let Some(block) = self.blocks.innermost_mut() {
                    block.data.else_jump = Some(at);
                    let jump = block.data.at;
                    self.insts[jump].a = at as u32 + 1;
                }
            }
            O::EndIf => {
                if let Event::Closed(block) = self.structure(i, inst)? {
                    let pc = self.pc();
                    self.insts[block.data.else_jump.unwrap_or(block.data.at)].a = pc;
                }
            }
            O::Loop => {
                self.structure(i, inst)?;
            }
            O::EndLoop => {
                if let Event::Closed(block) = self.structure(i, inst)? {
                    let mut x = Inst::new(Op::Jmp);
                    x.a = block.data.at as u32;
                    self.push(i, x);
                    let pc = self.pc();
                    self.patch_breaks(self.blocks.depth(), pc);
                }
            }
            O::Break | O::Breakc => {
                let Event::Break { block } = self.structure(i, inst)? else {
                    return Err(malformed(i, "break outside a loop or switch"));
                };
                let x = if inst.opcode == O::Breakc {
                    let mut x = Inst::new(Op::JmpIf);
                    x.src[0] = cond(self)?;
                    x.flags |= if Self::test(op) { F_NZ } else { 0 };
                    x
                } else {
                    Inst::new(Op::Jmp)
                };
                let at = self.push(i, x);
                self.breaks.push((block, at));
            }
            O::Continue | O::Continuec => {
                let Event::Continue { block } = self.structure(i, inst)? else {
                    return Err(malformed(i, "continue outside a loop"));
                };
                let start = self.blocks.open().get(block).map_or(0, |b| b.data.at as u32);
                let mut x = if inst.opcode == O::Continuec {
                    let mut x = Inst::new(Op::JmpIf);
                    x.src[0] = cond(self)?;
                    x.flags |= if Self::test(op) { F_NZ } else { 0 };
                    x
                } else {
                    Inst::new(Op::Jmp)
                };
                x.a = start;
                self.push(i, x);
            }
            O::Switch => {
                let mut x = Inst::new(Op::Switch);
                let o = inst.operands().first().ok_or_else(|| malformed(i, "switch without a selector"))?;
                x.src[0] = self.src(i, o, Ty::I)?;
                x.a = self.switches.len() as u32;
                self.switches.push(SwitchTable { cases: Vec::new(), default: u32::MAX });
                // The block starts at the `Switch` instruction, which names its table.
                self.structure(i, inst)?;
                self.push(i, x);
            }
            O::Case | O::Default => {
                self.structure(i, inst)?;
                let pc = self.pc();
                let Some(t) = self.innermost_switch() else {
                    return Err(malformed(i, "case or default outside a switch"));
                };
                if inst.opcode == O::Default {
                    t.default = pc;
                } else {
                    let o = inst.operands().first().ok_or_else(|| malformed(i, "case without a value"))?;
                    if o.ty != OT::Immediate32 {
                        return Err(malformed(i, "case value is not an immediate"));
                    }
                    if !t.cases.iter().any(|c| c.0 == o.imm[0]) {
                        t.cases.push((o.imm[0], pc));
                    }
                }
            }
            O::EndSwitch => {
                if let Event::Closed(block) = self.structure(i, inst)? {
                    let pc = self.pc();
                    let table = self.insts[block.data.at].a as usize;
                    if let Some(t) = self.switches.get_mut(table) {
                        if t.default == u32::MAX {
                            t.default = pc;
                        }
                    }
                    self.patch_breaks(self.blocks.depth(), pc);
                }
            }
            O::Call | O::Callc => {
                let mut x = Inst::new(if inst.opcode == O::Callc { Op::CallIf } else { Op::Call });
                let label = if inst.opcode == O::Callc {
                    x.src[0] = cond(self)?;
                    x.flags |= if Self::test(op) { F_NZ } else { 0 };
                    inst.operands().get(1)
                } else {
                    inst.operands().first()
                };
                let Some(n) = label.filter(|o| o.ty == OT::Label).and_then(|o| o.register()) else {
                    return Err(malformed(i, "call without a label"));
                };
                let at = self.push(i, x);
                self.calls.push((at, n as u32, i));
            }
            O::Ret => {
                self.push(i, Inst::new(Op::Ret));
            }
            O::Retc => {
                let mut x = Inst::new(Op::RetIf);
                x.src[0] = cond(self)?;
                x.flags |= if Self::test(op) { F_NZ } else { 0 };
                self.push(i, x);
            }
            O::Label => {
                self.structure(i, inst)?;
                let label = inst.operands().first().filter(|o| matches!(o.ty, OT::Label | OT::FunctionBody));
                let Some((ty, n)) = label.and_then(|o| Some((o.ty, o.register()?))) else {
                    return Err(malformed(i, "label without a number"));
                };
                // Whatever precedes a label ends there (the spec requires a ret).
                self.push(i, Inst::new(Op::Ret));
                let pc = self.pc();
                let (twice, prefix) = if ty == OT::Label {
                    (self.labels.insert(n as u32, pc).is_some(), "l")
                } else {
                    (self.bodies.insert(n as u32, pc).is_some(), "fb")
                };
                if twice {
                    return Err(malformed(i, format!("label {prefix}{n} defined twice")));
                }
            }
            O::Emit | O::Cut | O::EmitThenCut | O::EmitStream | O::CutStream | O::EmitThenCutStream => {
                if !self.gs {
                    return Err(malformed(i, format!("{} outside a geometry shader", inst.opcode.mnemonic())));
                }
                let stream = match inst.operands().first() {
                    Some(o) => match (o.ty, o.register()) {
                        (OT::Stream, Some(n)) if n < 4 => n as u32,
                        _ => return Err(malformed(i, "bad stream operand")),
                    },
                    None => 0,
                };
                let mut x = Inst::new(match inst.opcode.info().flow {
                    Flow::Emit => Op::Emit,
                    Flow::Cut => Op::Cut,
                    _ => Op::EmitCut,
                });
                x.a = stream;
                self.push(i, x);
            }
            O::Abort => {
                self.push(i, Inst::new(Op::Abort));
            }
            O::Discard if self.ps => {
                let mut x = Inst::new(Op::Discard);
                x.src[0] = cond(self)?;
                x.flags |= if Self::test(op) { F_NZ } else { 0 };
                self.push(i, x);
            }
            other => return Err(unsupported(i, other.mnemonic())),
        }
        Ok(())
    }

    /// `fcall fp#[index][site]` (`o` the `fp#` operand): an [`Op::FCall`], resolved
    /// against the bound class instances when it runs.
    fn fcall(&mut self, i: usize, o: &Operand, site: u32) -> Result<(), ExecError> {
        let fp = match (o.ty, o.index(0).as_ref().and_then(imm_index)) {
            (OT::Interface, Some(fp)) => fp,
            _ => return Err(malformed(i, "fcall without an interface fp#")),
        };
        let Some(f) = self.interfaces.interface(fp) else {
            return Err(malformed(i, format!("fcall of fp{fp}, which is not declared")));
        };
        if site >= f.call_sites {
            return Err(malformed(i, format!("fcall of call site {site}: fp{fp} declares {}", f.call_sites)));
        }
        let (dynamic, array_length) = (f.dynamic, f.array_length);
        let mut x = Inst::new(Op::FCall);
        let (imm, relative) = match o.index(1) {
            None => (0, false),
            Some(idx) => match self.index(i, &idx)? {
                Ok(k) => (k, false),
                Err(_) if !dynamic => {
                    return Err(malformed(
                        i,
                        format!("fcall with a register index into fp{fp} (not dcl_interface_dynamicindexed)"),
                    ))
                }
                Err((imm, rel, c)) => {
                    x.src[0] = Src { swz: pack([c; 4]), ..Src::reg(rel) };
                    (imm, true)
                }
            },
        };
        if !relative {
            // A static index stays within the declaration's array (spec 22.7.19), as
            // a register index does when it runs.
            self.interfaces.slot_of(fp, imm).map_err(|e| malformed(i, e.to_string()))?;
        }
        x.a = self.fcalls.len() as u32;
        self.fcalls.push(FCall { fp, imm, site, dynamic: relative, array_length });
        self.push(i, x);
        Ok(())
    }

    /// Dimension from the instruction's resource-dimension extended token, if any.
    fn ext_kind(inst: InstructionRef<'_, '_>) -> Option<ResKind> {
        inst.ext().iter().find_map(|e| match e {
            ExtOpcode::ResourceDim { dim, .. } => Some(res_kind(*dim)),
            _ => None,
        })
    }

    /// A `t#`/`u#` operand: slot, declared kind, swizzle.
    fn resource(
        &mut self,
        i: usize,
        inst: InstructionRef<'_, '_>,
        o: &Operand,
    ) -> Result<(u32, ResKind, [u8; 4], u32), ExecError> {
        let file = match o.ty {
            OT::Resource => File::Srv,
            OT::UnorderedAccessView => File::Uav,
            other => return Err(unsupported(i, format!("{} as a resource", type_name(other)))),
        };
        let (slot, range, rel) = self.slot(i, o, file)?;
        let kind = match range.map(|r| r.kind) {
            Some(k) if k != ResKind::Unknown => k,
            _ => Self::ext_kind(inst).unwrap_or(ResKind::Unknown),
        };
        Ok((slot, kind, swizzle_of(o.selection()), rel))
    }

    fn set_resource(
        &mut self,
        i: usize,
        inst: InstructionRef<'_, '_>,
        r: &mut ResOp,
        o: &Operand,
    ) -> Result<(), ExecError> {
        if o.ty == OT::ThreadGroupSharedMemory {
            let n = o.index(0).as_ref().and_then(imm_index);
            let Some(g) = n.and_then(|n| self.tgsm.iter().find(|g| g.register == n)) else {
                return Err(malformed(i, format!("g{} is not declared", n.unwrap_or(u32::MAX))));
            };
            r.tgsm = true;
            r.slot = g.register;
            r.kind = if g.stride == 0 { ResKind::Raw } else { ResKind::Structured };
            r.g_base = g.base;
            r.g_words = g.words;
            r.g_stride = g.stride;
            r.swz = pack(swizzle_of(o.selection()));
            return Ok(());
        }
        let (slot, kind, swz, rel) = self.resource(i, inst, o)?;
        r.slot = slot;
        r.slot_rel = rel;
        r.kind = kind;
        r.swz = pack(swz);
        r.uav = o.ty == OT::UnorderedAccessView;
        Ok(())
    }

    /// Compiles a resource instruction.
    fn resource_op(&mut self, i: usize, inst: InstructionRef<'_, '_>, op: &TOp) -> Result<(), ExecError> {
        let ops = inst.operands();
        let info = inst.opcode.info();
        if ops.len() != info.operand_count() {
            return Err(malformed(i, format!("{}: {} operands", inst.opcode.mnemonic(), ops.len())));
        }
        // Feedback (`_s`) forms have the status destination second.
        let feedback = matches!(
            inst.opcode,
            O::LdFeedback
                | O::LdRawFeedback
                | O::LdStructuredFeedback
                | O::LdUavTypedFeedback
                | O::SampleLFeedback
                | O::SampleCLzFeedback
                | O::SampleDClampFeedback
                | O::SampleClampFeedback
                | O::SampleBClampFeedback
                | O::SampleCClampFeedback
                | O::Gather4Feedback
                | O::Gather4CFeedback
                | O::Gather4PoFeedback
                | O::Gather4PoCFeedback
                | O::LdMsFeedback
        );
        let nd = info.dst.len();
        let srcs = &ops[nd..];
        let mut x = Inst::new(Op::Ld);
        let mut r = ResOp::NONE;
        x.flags |= if op.saturate { F_SAT } else { 0 };
        let atomic = |name: O| -> Option<(bool, AtomicOp)> {
            use AtomicOp as A;
            Some(match name {
                O::AtomicAnd => (false, A::And),
                O::AtomicOr => (false, A::Or),
                O::AtomicXor => (false, A::Xor),
                O::AtomicCmpStore => (false, A::CmpStore),
                O::AtomicIadd => (false, A::Iadd),
                O::AtomicImax => (false, A::Imax),
                O::AtomicImin => (false, A::Imin),
                O::AtomicUmax => (false, A::Umax),
                O::AtomicUmin => (false, A::Umin),
                O::ImmAtomicIadd => (true, A::Iadd),
                O::ImmAtomicAnd => (true, A::And),
                O::ImmAtomicOr => (true, A::Or),
                O::ImmAtomicXor => (true, A::Xor),
                O::ImmAtomicExch => (true, A::Exch),
                O::ImmAtomicCmpExch => (true, A::CmpStore),
                O::ImmAtomicImax => (true, A::Imax),
                O::ImmAtomicImin => (true, A::Imin),
                O::ImmAtomicUmax => (true, A::Umax),
                O::ImmAtomicUmin => (true, A::Umin),
                _ => return None,
            })
        };
        match inst.opcode {
            O::Ld
            | O::LdFeedback
            | O::LdUavTyped
            | O::LdUavTypedFeedback
            | O::LdRaw
            | O::LdRawFeedback
            | O::ResInfo => {
                x.op = match inst.opcode {
                    O::Ld | O::LdFeedback => Op::Ld,
                    O::LdUavTyped | O::LdUavTypedFeedback => Op::LdUavTyped,
                    O::LdRaw | O::LdRawFeedback => Op::LdRaw,
                    _ => Op::ResInfo,
                };
                x.dst[0] = self.dst(i, &ops[0])?;
                x.src[0] = self.src(i, &srcs[0], Ty::U)?;
                self.set_resource(i, inst, &mut r, &srcs[1])?;
                if inst.opcode == O::ResInfo {
                    r.ret = match op.control {
                        OpControl::ResInfo(ResInfoReturnType::RcpFloat) => 1,
                        OpControl::ResInfo(ResInfoReturnType::Uint) => 2,
                        _ => 0,
                    };
                }
                if let Some(o) = inst.sample_offsets() {
                    r.offs = o;
                }
            }
            O::LdStructured | O::LdStructuredFeedback => {
                x.op = Op::LdStructured;
                x.dst[0] = self.dst(i, &ops[0])?;
                x.src[0] = self.src(i, &srcs[0], Ty::U)?;
                x.src[1] = self.src(i, &srcs[1], Ty::U)?;
                self.set_resource(i, inst, &mut r, &srcs[2])?;
            }
            O::BufInfo => {
                x.op = Op::BufInfo;
                x.dst[0] = self.dst(i, &ops[0])?;
                self.set_resource(i, inst, &mut r, &srcs[0])?;
            }
            O::SampleL | O::SampleLFeedback => {
                x.op = Op::SampleL;
                x.dst[0] = self.dst(i, &ops[0])?;
                x.src[0] = self.src(i, &srcs[0], Ty::F)?;
                self.set_resource(i, inst, &mut r, &srcs[1])?;
                let s = &srcs[2];
                (r.sampler, r.sampler_rel) = self.sampler(i, inst.opcode.mnemonic(), s)?;
                x.src[1] = self.src(i, &srcs[3], Ty::F)?;
                if let Some(o) = inst.sample_offsets() {
                    r.offs = o;
                }
            }
            O::SampleCLz | O::SampleCLzFeedback | O::SampleD | O::SampleDClampFeedback => {
                let lz = matches!(inst.opcode, O::SampleCLz | O::SampleCLzFeedback);
                x.op = if lz { Op::SampleCLz } else { Op::SampleD };
                x.dst[0] = self.dst(i, &ops[0])?;
                x.src[0] = self.src(i, &srcs[0], Ty::F)?;
                self.set_resource(i, inst, &mut r, &srcs[1])?;
                let s = &srcs[2];
                (r.sampler, r.sampler_rel) = self.sampler(i, inst.opcode.mnemonic(), s)?;
                if lz {
                    x.src[2] = self.src(i, &srcs[3], Ty::F)?;
                } else {
                    x.src[1] = self.src(i, &srcs[3], Ty::F)?;
                    x.src[2] = self.src(i, &srcs[4], Ty::F)?;
                    if let Some(clamp) = srcs.get(5) {
                        // `_cl`: the LOD clamp (a null operand: none).
                        if clamp.ty != OT::Null {
                            x.src[3] = self.src(i, clamp, Ty::F)?;
                            r.clamp = true;
                        }
                    }
                }
                if let Some(o) = inst.sample_offsets() {
                    r.offs = o;
                }
            }
            O::Sample
            | O::SampleB
            | O::SampleC
            | O::SampleClampFeedback
            | O::SampleBClampFeedback
            | O::SampleCClampFeedback
            | O::Lod => {
                // The LOD comes from the quad's derivatives of the address: pixel
                // shaders only.
                if !self.ps {
                    return Err(unsupported(
                        i,
                        format!("{} outside a pixel shader (it needs a pixel quad)", inst.opcode.mnemonic()),
                    ));
                }
                x.op = if inst.opcode == O::Lod { Op::LodQuad } else { Op::SampleQuad };
                x.dst[0] = self.dst(i, &ops[0])?;
                x.src[0] = self.src(i, &srcs[0], Ty::F)?;
                self.set_resource(i, inst, &mut r, &srcs[1])?;
                let s = &srcs[2];
                (r.sampler, r.sampler_rel) = self.sampler(i, inst.opcode.mnemonic(), s)?;
                match inst.opcode {
                    O::SampleB | O::SampleBClampFeedback => {
                        x.src[1] = self.src(i, &srcs[3], Ty::F)?;
                        r.bias = true;
                    }
                    O::SampleC | O::SampleCClampFeedback => {
                        x.src[2] = self.src(i, &srcs[3], Ty::F)?;
                        r.compare = true;
                    }
                    _ => {}
                }
                let clamp = match inst.opcode {
                    O::SampleClampFeedback => srcs.get(3),
                    O::SampleBClampFeedback | O::SampleCClampFeedback => srcs.get(4),
                    _ => None,
                };
                if let Some(clamp) = clamp.filter(|c| c.ty != OT::Null) {
                    x.src[3] = self.src(i, clamp, Ty::F)?;
                    r.clamp = true;
                }
                if let Some(o) = inst.sample_offsets() {
                    r.offs = o;
                }
            }
            O::Gather4
            | O::Gather4Feedback
            | O::Gather4C
            | O::Gather4CFeedback
            | O::Gather4Po
            | O::Gather4PoFeedback
            | O::Gather4PoC
            | O::Gather4PoCFeedback => {
                let po =
                    matches!(inst.opcode, O::Gather4Po | O::Gather4PoFeedback | O::Gather4PoC | O::Gather4PoCFeedback);
                let cmp =
                    matches!(inst.opcode, O::Gather4C | O::Gather4CFeedback | O::Gather4PoC | O::Gather4PoCFeedback);
                x.op = Op::Gather4;
                x.dst[0] = self.dst(i, &ops[0])?;
                x.src[0] = self.src(i, &srcs[0], Ty::F)?;
                let mut k = 1;
                if po {
                    x.src[1] = self.src(i, &srcs[1], Ty::I)?;
                    r.programmable = true;
                    k = 2;
                }
                self.set_resource(i, inst, &mut r, &srcs[k])?;
                let s = &srcs[k + 1];
                (r.sampler, r.sampler_rel) = self.sampler(i, inst.opcode.mnemonic(), s)?;
                // The sampler's selected component (`.r` for the comparing forms).
                r.umask = if cmp { 0 } else { swizzle_of(s.selection())[0] };
                if cmp {
                    x.src[2] = self.src(i, &srcs[k + 2], Ty::F)?;
                    r.compare = true;
                }
                if let Some(o) = inst.sample_offsets() {
                    r.offs = o;
                }
            }
            O::LdMs | O::LdMsFeedback => {
                x.op = Op::LdMs;
                x.dst[0] = self.dst(i, &ops[0])?;
                x.src[0] = self.src(i, &srcs[0], Ty::U)?;
                self.set_resource(i, inst, &mut r, &srcs[1])?;
                x.src[1] = self.src(i, &srcs[2], Ty::U)?;
                if let Some(o) = inst.sample_offsets() {
                    r.offs = o;
                }
            }
            O::SampleInfo | O::SamplePos => {
                x.op = if inst.opcode == O::SampleInfo { Op::SampleInfo } else { Op::SamplePos };
                x.dst[0] = self.dst(i, &ops[0])?;
                if srcs[0].ty == OT::Rasterizer {
                    return Err(unsupported(
                        i,
                        format!("{} of the rasterizer (no rasterizer runs here)", inst.opcode.mnemonic()),
                    ));
                }
                self.set_resource(i, inst, &mut r, &srcs[0])?;
                if inst.opcode == O::SamplePos {
                    x.src[0] = self.src(i, &srcs[1], Ty::U)?;
                }
                if let OpControl::ReturnType(InstructionReturnType::Uint) = op.control {
                    r.ret = 2;
                }
            }
            O::StoreUavTyped | O::StoreRaw | O::StoreStructured => {
                x.op = match inst.opcode {
                    O::StoreUavTyped => Op::StoreUavTyped,
                    O::StoreRaw => Op::StoreRaw,
                    _ => Op::StoreStructured,
                };
                self.set_resource(i, inst, &mut r, &ops[0])?;
                r.umask = mask_of(ops[0].selection());
                for (k, (o, ty)) in srcs.iter().zip(info.src).enumerate() {
                    x.src[k] = self.src(i, o, *ty)?;
                }
            }
            O::ImmAtomicAlloc | O::ImmAtomicConsume => {
                x.op = if inst.opcode == O::ImmAtomicAlloc { Op::ImmAtomicAlloc } else { Op::ImmAtomicConsume };
                x.dst[0] = self.dst(i, &ops[0])?;
                self.set_resource(i, inst, &mut r, &srcs[0])?;
                if r.tgsm {
                    return Err(malformed(i, format!("{} on shared memory", inst.opcode.mnemonic())));
                }
            }
            O::CheckAccessFullyMapped => {
                x.op = Op::CheckAccess;
                x.dst[0] = self.dst(i, &ops[0])?;
                x.src[0] = self.src(i, &srcs[0], Ty::U)?;
            }
            other => {
                let Some((imm, a)) = atomic(other) else {
                    return Err(unsupported(i, other.mnemonic()));
                };
                r.atomic = a;
                if imm {
                    x.op = Op::ImmAtomic;
                    x.dst[0] = self.dst(i, &ops[0])?;
                    self.set_resource(i, inst, &mut r, &ops[1])?;
                } else {
                    x.op = Op::Atomic;
                    self.set_resource(i, inst, &mut r, &ops[0])?;
                }
                for (k, (o, ty)) in srcs.iter().zip(info.src).enumerate() {
                    x.src[k] = self.src(i, o, *ty)?;
                }
                if r.kind == ResKind::Unknown || !(r.uav || r.tgsm) {
                    return Err(malformed(
                        i,
                        format!(
                            "{} on an undeclared register, or one neither a UAV nor shared memory",
                            other.mnemonic()
                        ),
                    ));
                }
            }
        }
        if feedback {
            x.dst[1] = self.dst(i, &ops[1])?;
            r.feedback = true;
        }
        self.rops.push(r);
        x.a = self.rops.len() as u32 - 1;
        self.push(i, x);
        Ok(())
    }
}

/// The rules of a compute shader's declarations the interpreter relies on, with
/// Direct3D 11.0's for `cs_4_0`/`cs_4_1` (functional spec 18.6.x, "Compute Shader
/// 4.x"): `dcl_thread_group` present and within its limits; for `cs_4_x` at most
/// 16 KB of shared memory, none of it raw, and one UAV, `u0`, raw or structured.
/// Returns the thread-group size.
fn compute_rules(program: &tpf::Program<'_>, d: &Decls) -> Result<[u32; 3], ExecError> {
    let cs4 = program.version.major == 4;
    let at = |what: String| ExecError::new(ExecErrorKind::Malformed(what));
    let Some(size) = d.thread_group else {
        return Err(at("a compute shader without dcl_thread_group".into()));
    };
    let (max, profile) = if cs4 { (THREAD_GROUP_MAX_CS4, "cs_4_x") } else { (THREAD_GROUP_MAX, "cs_5_0") };
    let threads = size.iter().fold(1u64, |a, &n| a * u64::from(n));
    if size.iter().zip(max).any(|(&n, m)| n == 0 || n > m) || threads > u64::from(max[3]) {
        return Err(at(format!(
            "dcl_thread_group {}, {}, {}: {profile} allows at most {}, {}, {} and {} threads per group",
            size[0], size[1], size[2], max[0], max[1], max[2], max[3]
        )));
    }
    if cs4 {
        let bytes: u64 = d.tgsm.iter().map(|g| u64::from(g.1)).sum();
        if bytes > u64::from(TGSM_BYTES_CS4) {
            return Err(at(format!("{bytes} bytes of shared memory (cs_4_x allows {TGSM_BYTES_CS4})")));
        }
        if let Some(g) = d.tgsm.iter().find(|g| g.2 == 0) {
            return Err(at(format!("g{}: dcl_tgsm_raw (cs_4_x has structured shared memory only)", g.0)));
        }
        for inst in program.iter() {
            let tpf::Body::Decl(decl) = &inst.body else { continue };
            let operand = match decl {
                Decl::UavTyped { operand, .. } => {
                    let r = inst.operand(*operand).register().unwrap_or(0);
                    return Err(at(format!("u{r}: a typed UAV (cs_4_x binds raw and structured UAVs only)")));
                }
                Decl::UavRaw { operand, .. } | Decl::UavStructured { operand, .. } => operand,
                _ => continue,
            };
            let r = inst.operand(*operand).register().unwrap_or(0);
            if r != 0 {
                return Err(at(format!("u{r}: cs_4_x has one UAV slot, u0")));
            }
        }
    }
    Ok(size)
}

/// Opcodes whose compilation is in [`Builder::resource_op`].
fn is_resource_op(op: O) -> bool {
    matches!(
        op,
        O::Ld
            | O::LdFeedback
            | O::LdUavTyped
            | O::LdUavTypedFeedback
            | O::LdRaw
            | O::LdRawFeedback
            | O::LdStructured
            | O::LdStructuredFeedback
            | O::ResInfo
            | O::BufInfo
            | O::SampleL
            | O::SampleLFeedback
            | O::SampleCLz
            | O::SampleCLzFeedback
            | O::SampleD
            | O::SampleDClampFeedback
            | O::Sample
            | O::SampleB
            | O::SampleC
            | O::SampleClampFeedback
            | O::SampleBClampFeedback
            | O::SampleCClampFeedback
            | O::Lod
            | O::Gather4
            | O::Gather4Feedback
            | O::Gather4C
            | O::Gather4CFeedback
            | O::Gather4Po
            | O::Gather4PoFeedback
            | O::Gather4PoC
            | O::Gather4PoCFeedback
            | O::LdMs
            | O::LdMsFeedback
            | O::SampleInfo
            | O::SamplePos
            | O::StoreUavTyped
            | O::StoreRaw
            | O::StoreStructured
            | O::AtomicAnd
            | O::AtomicOr
            | O::AtomicXor
            | O::AtomicCmpStore
            | O::AtomicIadd
            | O::AtomicImax
            | O::AtomicImin
            | O::AtomicUmax
            | O::AtomicUmin
            | O::ImmAtomicAlloc
            | O::ImmAtomicConsume
            | O::ImmAtomicIadd
            | O::ImmAtomicAnd
            | O::ImmAtomicOr
            | O::ImmAtomicXor
            | O::ImmAtomicExch
            | O::ImmAtomicCmpExch
            | O::ImmAtomicImax
            | O::ImmAtomicImin
            | O::ImmAtomicUmax
            | O::ImmAtomicUmin
            | O::CheckAccessFullyMapped
    )
}

/// Compiles `program` into a plan (see [`Plan::compile`]).
pub(crate) fn compile(
    program: &tpf::Program<'_>,
    input_signature: Vec<SigElement>,
    output_signature: Vec<SigElement>,
) -> Result<Plan, ExecError> {
    let stage = program.version.ty;
    let (gs, cs) = match stage {
        ProgramType::Vertex | ProgramType::Pixel => (false, false),
        ProgramType::Geometry => (true, false),
        ProgramType::Compute => (false, true),
        other => {
            return Err(ExecError::new(ExecErrorKind::Unsupported(format!(
                "{} shaders (the interpreter runs vertex, geometry, pixel and compute shaders)",
                stage_name(other)
            ))))
        }
    };
    let ps = stage == ProgramType::Pixel;
    let sm51 = program.version.is_sm51();
    let interfaces = tpf::interfaces::Interfaces::of(program);
    interfaces.check().map_err(|e| ExecError::new(ExecErrorKind::Malformed(e.to_string())))?;

    // Pass 1: declarations.
    let mut d = Decls::default();
    for (i, inst) in program.iter().enumerate() {
        match &inst.body {
            Body::Decl(decl) => d.declare(i, inst, decl, stage, sm51)?,
            Body::CustomData(cd) => {
                if cd.class == CustomDataClass::ImmediateConstantBuffer {
                    if !d.icb.is_empty() {
                        return Err(malformed(i, "two immediate constant buffers"));
                    }
                    let words: Vec<u32> = inst.words(cd.data).iter().collect();
                    if words.len() > 4096 * 4 {
                        return Err(malformed(i, "immediate constant buffer larger than 4096 vectors"));
                    }
                    d.icb = words
                        .chunks(4)
                        .map(|c| {
                            let mut v = [0; 4];
                            v[..c.len()].copy_from_slice(c);
                            v
                        })
                        .collect();
                }
            }
            Body::Op(_) => d.scan(inst),
            Body::InterfaceCall { .. } => d.scan(inst),
        }
    }

    let thread_group = if cs { compute_rules(program, &d)? } else { [0; 3] };

    // Layout.
    let input_vertices = if gs {
        match d.input_primitive.map(vertices_of) {
            Some(n) if n > 0 => n,
            _ => d.declared_vertices,
        }
    } else {
        0
    };
    // A pixel shader's `oDepth`, `oMask` and `oStencilRef` follow its `o#`s.
    let outputs = d.output_registers + if ps { 3 } else { 0 };
    let mut l = Layout {
        outputs,
        temps_base: outputs,
        temps: d.temps,
        depth: if ps { d.output_registers } else { 0 },
        ..Layout::default()
    };
    let mut next = l.temps_base + l.temps;
    let mut xbase = Vec::new();
    for &(_, size) in &d.xtemps {
        xbase.push(next);
        next += size;
        if next > 1 << 20 {
            return Err(ExecError::new(ExecErrorKind::Unsupported("more than 2^20 registers".into())));
        }
    }
    l.writable = next;
    l.inputs_base = next;
    l.inputs = if gs {
        input_vertices * d.input_registers
    } else if cs {
        THREAD_IDS.len() as u32
    } else {
        d.input_registers
    };
    l.prim = l.inputs_base + l.inputs;
    l.gs_instance = l.prim + 1;
    l.this_base = l.prim + 2;
    l.this_count = interfaces.slots();
    l.zero = l.this_base + l.this_count;
    l.icb_base = l.zero + 1;
    l.icb = d.icb.len() as u32;

    let mut tgsm = Vec::new();
    let mut tgsm_words = 0u32;
    for &(register, bytes, stride) in &d.tgsm {
        let words = bytes / 4;
        tgsm.push(TgsmPlace { register, base: tgsm_words, words, stride });
        tgsm_words += words;
    }
    let mut b = Builder {
        d: &d,
        pool: program.pool(),
        sm51,
        gs,
        cs,
        ps,
        tgsm,
        layout: l,
        xbase,
        insts: Vec::new(),
        origin: Vec::new(),
        constants: vec![[0; 4]],
        konst_index: HashMap::new(),
        blocks: Blocks::new(),
        breaks: Vec::new(),
        switches: Vec::new(),
        rels: Vec::new(),
        rops: Vec::new(),
        labels: HashMap::new(),
        calls: Vec::new(),
        interfaces: &interfaces,
        fcalls: Vec::new(),
        bodies: BTreeMap::new(),
    };
    b.constants.extend_from_slice(&d.icb);
    b.konst_index.insert([0; 4], l.zero);

    // Pass 2: code.
    for (i, inst) in program.iter().enumerate() {
        if let Body::InterfaceCall { function, interface } = inst.body {
            b.fcall(i, inst.operand(interface), function)?;
            continue;
        }
        let Body::Op(op) = &inst.body else { continue };
        let info = inst.opcode.info();
        if info.flow != Flow::None {
            b.flow(i, inst, op)?;
            continue;
        }
        if let Some(aop) = alu_op(inst.opcode) {
            let (nd, ns) = (info.dst.len(), info.src.len());
            if inst.operands().len() != nd + ns {
                return Err(malformed(i, format!("{}: {} operands", inst.opcode.mnemonic(), inst.operands().len())));
            }
            let mut x = Inst::new(aop);
            x.flags |= if op.saturate { F_SAT } else { 0 };
            for k in 0..nd {
                x.dst[k] = b.dst(i, &inst.operands()[k])?;
            }
            for k in 0..ns {
                x.src[k] = b.src(i, &inst.operands()[nd + k], info.src[k])?;
            }
            b.push(i, x);
            continue;
        }
        if is_resource_op(inst.opcode) {
            b.resource_op(i, inst, op)?;
            continue;
        }
        match inst.opcode {
            O::Sync => {
                // Only `_t` makes the threads wait for each other; the fences (`_g`,
                // `_ugroup`, `_uglobal`) order memory, which one thread after another
                // on the CPU already is.
                if let (true, OpControl::Sync(f)) = (cs, op.control) {
                    if f.0 & tpf::SyncFlags::THREADS_IN_GROUP != 0 {
                        b.push(i, Inst::new(Op::Sync));
                    }
                }
            }
            O::DerivRtx | O::DerivRty | O::DerivRtxCoarse | O::DerivRtxFine | O::DerivRtyCoarse | O::DerivRtyFine
                if ps =>
            {
                if inst.operands().len() != 2 {
                    return Err(malformed(
                        i,
                        format!("{}: {} operands", inst.opcode.mnemonic(), inst.operands().len()),
                    ));
                }
                let mut x = Inst::new(Op::Deriv);
                x.flags |= if op.saturate { F_SAT } else { 0 };
                // `deriv_rtx`/`deriv_rty` may be either coarse or fine (Microsoft's
                // deriv_rtx_coarse page: they replace the earlier models' forms); here
                // they are fine, as the GPUs compared with compute them.
                x.a = match inst.opcode {
                    O::DerivRtx | O::DerivRtxFine => D_FINE,
                    O::DerivRtxCoarse => 0,
                    O::DerivRty | O::DerivRtyFine => D_Y | D_FINE,
                    _ => D_Y,
                };
                x.dst[0] = b.dst(i, &inst.operands()[0])?;
                x.src[0] = b.src(i, &inst.operands()[1], Ty::F)?;
                b.push(i, x);
            }
            O::EvalSnapped | O::EvalSampleIndex | O::EvalCentroid if ps => {
                let ops = inst.operands();
                let want = if inst.opcode == O::EvalCentroid { 2 } else { 3 };
                if ops.len() != want {
                    return Err(malformed(i, format!("{}: {} operands", inst.opcode.mnemonic(), ops.len())));
                }
                let input = &ops[1];
                let register = match (input.ty, input.indices().first().and_then(imm_index)) {
                    (OT::Input, Some(r)) if input.dims() == 1 => r,
                    _ => {
                        return Err(unsupported(
                            i,
                            format!("{} of an operand that is not an input register v#", inst.opcode.mnemonic()),
                        ))
                    }
                };
                // Within the limit declarations have (and so below the kind's bits).
                if register >= 1 << 12 {
                    return Err(malformed(i, format!("{} of input register v{register}", inst.opcode.mnemonic())));
                }
                let mut x = Inst::new(Op::Eval);
                x.flags |= if op.saturate { F_SAT } else { 0 };
                let kind = match inst.opcode {
                    O::EvalSnapped => EVAL_SNAPPED,
                    O::EvalSampleIndex => EVAL_SAMPLE_INDEX,
                    _ => EVAL_CENTROID,
                };
                x.a = register | kind << 16;
                x.dst[0] = b.dst(i, &ops[0])?;
                x.src[0] = b.src(i, input, Ty::F)?;
                if let Some(o) = ops.get(2) {
                    x.src[1] = b.src(i, o, Ty::I)?;
                }
                b.push(i, x);
            }
            O::Nop | O::DebugBreak => {}
            other => {
                let st = other.info().stages;
                let why = if !st.contains(stage) {
                    format!(" (not allowed in {} shaders)", stage_name(stage))
                } else {
                    String::new()
                };
                return Err(unsupported(i, format!("{}{why}", other.mnemonic())));
            }
        }
    }
    let n = program.instructions.len();
    if let Some(open) = b.blocks.innermost() {
        let what = format!("{} without {}", open.kind.opener(), open.kind.closer());
        return Err(malformed(n.saturating_sub(1), what));
    }
    b.push(n.saturating_sub(1), Inst::new(Op::Ret));
    for &(at, label, i) in &b.calls {
        let Some(&target) = b.labels.get(&label) else {
            return Err(malformed(i, format!("call to l{label}, which is not defined")));
        };
        b.insts[at].a = target;
    }
    for (table, bodies) in &interfaces.tables {
        if let Some(fb) = bodies.iter().find(|fb| !b.bodies.contains_key(fb)) {
            return Err(ExecError::new(ExecErrorKind::Malformed(format!(
                "ft{table} lists fb{fb}, which has no label"
            ))));
        }
    }
    for x in &mut b.insts {
        x.f = super::exec::handler(x);
    }
    let code_len = b.insts.len() as u32;
    for x in &b.insts {
        let jump = matches!(x.op, Op::Jmp | Op::JmpIf | Op::Call | Op::CallIf);
        if jump && x.a >= code_len {
            return Err(ExecError::new(ExecErrorKind::Malformed("jump target out of the program".into())));
        }
    }
    if b.bodies.values().any(|&pc| pc >= code_len) {
        return Err(ExecError::new(ExecErrorKind::Malformed("function body out of the program".into())));
    }
    let mut layout = b.layout;
    layout.size = layout.zero + b.constants.len() as u32;

    let has_barrier = b.insts.iter().any(|x| x.op == Op::Sync);
    let has_eval = b.insts.iter().any(|x| x.op == Op::Eval);
    let declared_outputs =
        d.outputs.iter().map(|o| DeclaredOutput { stream: o.stream, register: o.register, mask: o.mask }).collect();
    let code = Code {
        id: next_id(),
        insts: b.insts,
        origin: b.origin,
        layout,
        constants: b.constants,
        switches: b.switches,
        rels: b.rels,
        rops: b.rops,
        declared_outputs,
        max_vertex_count: d.max_vertex_count,
        stage_gs: gs,
        stage_cs: cs,
        thread_group,
        tgsm_words,
        has_barrier,
        stage_ps: ps,
        ps_outputs: d.ps_outputs,
        has_eval,
        interfaces: interfaces.clone(),
        fcalls: b.fcalls,
        bodies: b.bodies,
        declared: DeclaredSlots { interface_slots: interfaces.slots(), ..declared_slots(&d) },
    };
    Ok(Plan {
        stage,
        model: (program.version.major, program.version.minor),
        inputs: d.inputs.clone(),
        outputs: d.outputs.clone(),
        input_registers: d.input_registers,
        output_registers: d.output_registers,
        input_signature,
        output_signature,
        input_primitive: if gs { d.input_primitive } else { None },
        input_vertices,
        output_topology: d.output_topology,
        streams: d.streams,
        max_vertex_count: d.max_vertex_count,
        instance_count: d.instance_count.unwrap_or(1).max(1),
        uses_primitive_id: d.uses_prim,
        uses_gs_instance_id: d.uses_instance,
        thread_group,
        tgsm_bytes: tgsm_words * 4,
        bindings: crate::plan::declared_bindings(program),
        code,
    })
}
