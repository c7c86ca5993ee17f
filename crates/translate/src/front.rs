//! The front end: an SM4/5 program and its signatures to the WGSL source of one entry
//! point, which naga's WGSL front end turns into a module.
//!
//! Registers are bit containers: every temp `r#` is a function-local `vec4<u32>`,
//! every indexable temp `x#` an array of them, the inputs `v` and outputs `o` private
//! arrays (so that relative indexing works), and each instruction converts its
//! sources from bits to the types its table row gives (see [`crate::ops`]) and its
//! result back to bits. The program's body is the function `dx_run`; the entry point
//! copies its arguments into `v`, calls it and returns `o`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use tpf::blocks::{BlockError, Blocks, Event};
use tpf::table::{Flow, Shape, Ty};
use tpf::{
    Body, ComponentCount, Decl, Index, InstructionRef, InterpolationMode, OpControl, Opcode, Operand, OperandType,
    Program, ProgramType, ResInfoReturnType, ResourceDimension, ReturnType, SamplerMode, Selection, SystemName, Test,
};

use crate::bindings::{Bindings, Class};
use crate::buffer_format::{self, Format, Numeric};
use crate::ops::{self, Res};
use crate::{Signature, TranslateError};

const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

/// The most temps, indexable-temp registers or immediate-constant-buffer vectors a
/// program may declare (`D3D11_COMMONSHADER_TEMP_REGISTER_COUNT`,
/// `D3D11_COMMONSHADER_CONSTANT_BUFFER_ELEMENT_COUNT`): larger declarations are refused
/// before any source is written for them.
const LIMIT_REGISTERS: u32 = 4096;

/// The output member holding a vertex shader's `SV_CullDistance` components, written
/// as a `clip_distances` built-in (WGSL has no cull distances) and rebound to naga's
/// `CullDistance` once parsed ([`crate::cull_distances`]).
pub(crate) const CULL_MEMBER: &str = "dx_cull";
/// The most thread-group shared memory a compute shader may declare, in bytes
/// (`D3D11_CS_TGSM_REGISTER_COUNT` 32-bit registers).
const LIMIT_TGSM_BYTES: u32 = 32768;

/// The component letter of `c` (0..4).
fn comp(c: usize) -> char {
    XYZW.get(c).copied().unwrap_or('x')
}

/// The element type a resource returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Elem {
    F,
    U,
    I,
}

impl Elem {
    fn wgsl(self) -> &'static str {
        match self {
            Elem::F => "f32",
            Elem::U => "u32",
            Elem::I => "i32",
        }
    }
}

/// What a `t#`, `u#` or `g#` register is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Res2 {
    Texture {
        dim: ResourceDimension,
        elem: Elem,
    },
    /// A raw (stride 0) or structured buffer of words; `bytes` is the size of
    /// thread-group shared memory (0 for buffers, whose size the binding gives).
    Words {
        stride: u32,
        bytes: u32,
    },
    /// A typed buffer view: words converted by its format ([`crate::buffer_format`]).
    Typed {
        elem: Elem,
    },
}

/// Per `u#`/`g#`: how atomics use it.
#[derive(Debug, Default, Clone, Copy)]
struct AtomicUse {
    any: bool,
    signed: bool,
    unsigned_order: bool,
}

/// A flow-control block's translation state.
#[derive(Debug, Default)]
struct BlockData {
    /// A `switch`: a case body is open.
    case_open: bool,
    /// A `switch`: labels seen since the last body.
    labels: Vec<String>,
    /// A `switch`: `default` was among the labels.
    has_default: bool,
}

/// A Shader Model 5.1 register range, `ID[lower:upper], space=N` (an unbounded one,
/// `[lower:*]`, has `upper` = `u32::MAX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Range51 {
    lower: u32,
    upper: u32,
    space: u32,
}

impl Range51 {
    /// More than one register: a binding array.
    fn is_array(self) -> bool {
        self.upper != self.lower
    }

    /// The size argument of its `binding_array`: `, N`, or nothing for an unbounded
    /// range (a runtime-sized binding array).
    fn size_suffix(self) -> String {
        if self.upper == u32::MAX {
            String::new()
        } else {
            format!(", {}", self.upper.saturating_sub(self.lower).saturating_add(1))
        }
    }
}

/// A resource operand in the generated code.
#[derive(Debug, Clone)]
struct Named {
    /// What the instruction reads: the variable (`t2`), a binding array's element
    /// (`t2[(r0.x + 1u)]`), or that element's words for a buffer (`t2[1u].w`).
    expr: String,
    /// The variable (`t2`, `u0`, `g1`).
    base: String,
    /// The register (Shader Model 5.1: the range's ID).
    id: u32,
    /// The element of a binding array (an `u32` expression).
    element: Option<String>,
}

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.expr)
    }
}

impl Named {
    /// The same resource at binding-array element `k` (an expression).
    fn rebound(&self, k: &str) -> Named {
        let expr = match &self.element {
            Some(old) => self.expr.replacen(&format!("{}[{old}]", self.base), &format!("{}[{k}]", self.base), 1),
            None => self.expr.clone(),
        };
        Named { expr, base: self.base.clone(), id: self.id, element: self.element.as_ref().map(|_| k.to_string()) }
    }

    /// The arguments of a call of the typed buffer functions (`dx_ld_t#`, `dx_st_u#`):
    /// `rest`, after the binding array's element for a range.
    fn typed_args(&self, rest: &str) -> String {
        match &self.element {
            Some(k) => format!("{k}, {rest}"),
            None => rest.to_string(),
        }
    }
}

/// An input register: the mask of its location components, its system values with
/// their masks, its interpolation.
type InputRegister = (u8, Vec<(SystemName, u8)>, InterpolationMode);

struct Gen<'p, 'a> {
    program: &'p Program<'a>,
    stage: ProgramType,
    bindings: &'p Bindings,
    isgn: &'p Signature,
    osgn: &'p Signature,
    globals: String,
    body: String,
    depth: usize,
    temps: u32,
    indexable: BTreeMap<u32, u32>,
    srvs: BTreeMap<u32, Res2>,
    /// The `t#` slots the program declares (`srvs` also holds the slots bound class
    /// instances name for uniformly indexed reads).
    declared_srvs: BTreeSet<u32>,
    uavs: BTreeMap<u32, Res2>,
    tgsm: BTreeMap<u32, Res2>,
    samplers: BTreeMap<u32, SamplerMode>,
    cbs: BTreeMap<u32, u32>,
    icb_len: Option<usize>,
    compared: BTreeSet<u32>,
    uav_loaded: BTreeSet<u32>,
    uav_atomics: BTreeMap<u32, AtomicUse>,
    /// UAVs whose hidden counter `imm_atomic_alloc` / `imm_atomic_consume` use.
    uav_counters: BTreeSet<u32>,
    tgsm_atomics: BTreeMap<u32, AtomicUse>,
    /// Input registers: (mask of location components, system values with their mask).
    inputs: BTreeMap<u32, InputRegister>,
    outputs: BTreeMap<u32, (u8, Vec<(SystemName, u8)>)>,
    out_depth: bool,
    /// `oDepthGE` / `oDepthLE`: the conservative depth of `@early_depth_test`.
    conservative: Option<&'static str>,
    /// `dcl_globalFlags forceEarlyDepthStencil`.
    force_early: bool,
    out_mask: bool,
    in_coverage: bool,
    thread_group: [u32; 3],
    /// The last statement written at the current depth ends the path (`break`...).
    terminal: bool,
    /// A vertex shader written as a compute entry point over storage buffers
    /// ([`crate::Options::vertex_as_compute`]).
    vertex_as_compute: bool,
    /// The program has subroutines (`label`): registers are module-scope then.
    has_labels: bool,
    /// The subroutines' WGSL functions (`dx_l#`, `dx_fb#`).
    functions: String,
    /// `dx_run`'s body while a subroutine's is written.
    main_body: Option<String>,
    /// The subroutine being written: its function name.
    label: Option<String>,
    /// The interface declarations (`dcl_function_table`, `dcl_interface`).
    interfaces: tpf::interfaces::Interfaces,
    /// The class instance bound to each interface slot ([`crate::Options::class_instances`]).
    instances: &'p tpf::interfaces::ClassInstances,
    /// While a uniformly indexed `t[r# + k]` is written for one of its candidate slots
    /// ([`Gen::uniform_srv`]): that slot.
    srv_override: Option<u32>,
    /// Shader Model 5.1: resource operands name a range (`T#` its ID) and a register.
    sm51: bool,
    /// Shader Model 5.1: each declared range, by class and ID.
    ranges: BTreeMap<(Class, u32), Range51>,
    /// The functions the program's labels define.
    defined_labels: BTreeSet<String>,
    /// Each call: the instruction's index and mnemonic, caller and callee.
    calls: Vec<(usize, &'static str, String, String)>,
    /// A geometry shader's declarations (its body is written for the compute
    /// lowering of [`crate::gs`]).
    gs: crate::gs::GsDecls,
    /// `eval_*` become marker calls ([`crate::Options::pull_model`]).
    pull_model: bool,
    /// The marker functions of the `eval_*` instructions ([`crate::pull_model`]).
    pull_functions: String,
}

type R<T> = Result<T, TranslateError>;

fn unsupported(index: usize, ins: &InstructionRef<'_, '_>, what: impl Into<String>) -> TranslateError {
    TranslateError::Unsupported { index, mnemonic: ins.opcode.mnemonic(), what: what.into() }
}

/// The WGSL source of `program` (see the module documentation).
pub fn wgsl(program: &Program<'_>, isgn: &Signature, osgn: &Signature, options: &crate::Options) -> R<String> {
    let entry = options.entry_point.as_str();
    let stage = program.version.ty;
    if !matches!(stage, ProgramType::Vertex | ProgramType::Pixel | ProgramType::Compute) {
        return Err(TranslateError::Stage { profile: program.version.profile() });
    }
    let mut g = Gen::new(program, isgn, osgn, options)?;
    g.declarations()?;
    g.resource_globals()?;
    g.instructions()?;
    g.finish(entry)
}

/// A geometry shader's parts for the compute lowering ([`crate::gs`]): the module-scope
/// declarations (resources, `v`, `o`, `vPrim`, `vGSInstanceID`), the body of `dx_run`
/// (emits and cuts call `dx_emit`/`dx_cut`), and the declarations.
pub(crate) fn geometry(
    program: &Program<'_>,
    isgn: &Signature,
    osgn: &Signature,
    options: &crate::Options,
) -> R<(String, String, crate::gs::GsDecls)> {
    if program.version.ty != ProgramType::Geometry {
        return Err(TranslateError::Stage { profile: program.version.profile() });
    }
    let mut g = Gen::new(program, isgn, osgn, options)?;
    if let Some((i, ins)) = program.iter().enumerate().find(|(_, ins)| ins.opcode == Opcode::Label) {
        return Err(unsupported(i, &ins, "a subroutine in a geometry shader lowered to compute"));
    }
    g.declarations()?;
    g.resource_globals()?;
    g.instructions()?;
    let mut gs = g.gs.clone();
    gs.input_registers = g.inputs.keys().max().map_or(0, |m| m.saturating_add(1));
    gs.output_registers = g.outputs.keys().max().map_or(0, |m| m.saturating_add(1));
    Ok((g.globals, g.body, gs))
}

impl<'p, 'a> Gen<'p, 'a> {
    fn new(program: &'p Program<'a>, isgn: &'p Signature, osgn: &'p Signature, options: &'p crate::Options) -> R<Self> {
        let bindings = &options.bindings;
        let stage = program.version.ty;
        Ok(Gen {
            program,
            stage,
            bindings,
            isgn,
            osgn,
            globals: String::new(),
            body: String::new(),
            depth: 1,
            temps: 0,
            indexable: BTreeMap::new(),
            srvs: BTreeMap::new(),
            declared_srvs: BTreeSet::new(),
            uavs: BTreeMap::new(),
            tgsm: BTreeMap::new(),
            samplers: BTreeMap::new(),
            cbs: BTreeMap::new(),
            icb_len: None,
            compared: BTreeSet::new(),
            uav_loaded: BTreeSet::new(),
            uav_atomics: BTreeMap::new(),
            uav_counters: BTreeSet::new(),
            tgsm_atomics: BTreeMap::new(),
            inputs: BTreeMap::new(),
            outputs: BTreeMap::new(),
            out_depth: false,
            conservative: None,
            force_early: false,
            out_mask: false,
            in_coverage: false,
            thread_group: [1, 1, 1],
            terminal: false,
            vertex_as_compute: options.vertex_as_compute && stage == ProgramType::Vertex,
            has_labels: program.iter().any(|ins| ins.opcode == Opcode::Label),
            functions: String::new(),
            main_body: None,
            label: None,
            interfaces: tpf::interfaces::Interfaces::of(program),
            instances: &options.class_instances,
            srv_override: None,
            defined_labels: BTreeSet::new(),
            calls: Vec::new(),
            sm51: program.version.is_sm51(),
            ranges: BTreeMap::new(),
            gs: crate::gs::GsDecls::default(),
            pull_model: options.pull_model,
            pull_functions: String::new(),
        })
    }
}

impl<'p, 'a> Gen<'p, 'a> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.depth {
            self.body.push_str("    ");
        }
        self.body.push_str(text);
        self.body.push('\n');
    }

    /// First pass: declarations, and how instructions use resources.
    fn declarations(&mut self) -> R<()> {
        let slots = self.interfaces.slots();
        if slots > 0 && slots <= LIMIT_REGISTERS {
            let this: Vec<String> = (0..slots)
                .map(|k| {
                    let t = self.instances.this(k);
                    format!("vec4<u32>({:#x}u, {:#x}u, {:#x}u, {:#x}u)", t[0], t[1], t[2], t[3])
                })
                .collect();
            let _ = writeln!(
                self.globals,
                "var<private> dx_this: array<vec4<u32>, {slots}> = array<vec4<u32>, {slots}>({});",
                this.join(", ")
            );
        }
        for (i, ins) in self.program.iter().enumerate() {
            match ins.body {
                Body::Decl(d) => self.declaration(i, &ins, d)?,
                Body::CustomData(c) if c.class == tpf::CustomDataClass::ImmediateConstantBuffer => {
                    let words = ins.words(c.data);
                    let mut text = String::new();
                    let n = words.len().div_ceil(4).max(1);
                    if n > LIMIT_REGISTERS as usize {
                        return Err(unsupported(i, &ins, "an immediate constant buffer beyond 4096 vectors"));
                    }
                    for e in 0..n {
                        let w = |k: usize| words.get(e.saturating_mul(4).saturating_add(k)).unwrap_or(0);
                        let _ = write!(
                            text,
                            "{}vec4<u32>({:#x}u, {:#x}u, {:#x}u, {:#x}u)",
                            if e == 0 { "" } else { ", " },
                            w(0),
                            w(1),
                            w(2),
                            w(3)
                        );
                    }
                    let _ = writeln!(
                        self.globals,
                        "var<private> icb: array<vec4<u32>, {n}> = array<vec4<u32>, {n}>({text});"
                    );
                    self.icb_len = Some(n);
                }
                Body::Op(_) => {
                    // A uniformly indexed `t[r# + k]` stands for each of its candidate
                    // slots: a declared one must be declared as the instruction's kind,
                    // one only a class instance names is declared so.
                    let relative = self.relative_srv(&ins);
                    let candidates = match relative {
                        Some(_) => {
                            let res = srv_of_instruction(&ins)
                                .ok_or_else(|| unsupported(i, &ins, "a uniformly indexed resource of this kind"))?;
                            let slots = self.uniform_candidates(&ins);
                            for &slot in &slots {
                                if *self.srvs.entry(slot).or_insert(res) != res {
                                    return Err(unsupported(
                                        i,
                                        &ins,
                                        format!("a uniformly indexed t{slot} declared as another kind of resource"),
                                    ));
                                }
                            }
                            slots
                        }
                        None => BTreeSet::new(),
                    };
                    let ops = ins.operands();
                    let reg = |k: usize| ops.get(k).and_then(|o| o.register()).map(|r| r as u32);
                    let ty = |k: usize| ops.get(k).map(|o| o.ty);
                    // The `t#` slots operand `k` names: its register, or every candidate
                    // of a uniformly indexed one.
                    let srv_slots = |k: usize| -> Vec<u32> {
                        match (ty(k), relative) {
                            (Some(OperandType::Resource), Some((at, _))) if at == k => {
                                candidates.iter().copied().collect()
                            }
                            (Some(OperandType::Resource), _) => reg(k).into_iter().collect(),
                            _ => Vec::new(),
                        }
                    };
                    use Opcode as O;
                    match ins.opcode {
                        O::Label => {
                            let name = self.label_name(i, &ins, 0)?;
                            self.defined_labels.insert(name);
                        }
                        O::SampleC | O::SampleCLz | O::Gather4C | O::Gather4PoC => {
                            for t in srv_slots(2).into_iter().chain(srv_slots(3)) {
                                self.compared.insert(t);
                            }
                        }
                        O::LdUavTyped => {
                            if let Some(u) = reg(2) {
                                self.uav_loaded.insert(u);
                            }
                        }
                        O::ImmAtomicAlloc | O::ImmAtomicConsume => {
                            if let Some(u) = reg(1).filter(|_| ty(1) == Some(OperandType::UnorderedAccessView)) {
                                self.uav_counters.insert(u);
                            }
                        }
                        op if is_atomic(op) => {
                            let k = if is_imm_atomic(op) { 1 } else { 0 };
                            let signed =
                                matches!(op, O::AtomicImax | O::AtomicImin | O::ImmAtomicImax | O::ImmAtomicImin);
                            let order =
                                matches!(op, O::AtomicUmax | O::AtomicUmin | O::ImmAtomicUmax | O::ImmAtomicUmin);
                            let map = match ty(k) {
                                Some(OperandType::UnorderedAccessView) => &mut self.uav_atomics,
                                Some(OperandType::ThreadGroupSharedMemory) => &mut self.tgsm_atomics,
                                _ => continue,
                            };
                            if let Some(r) = reg(k) {
                                let e = map.entry(r).or_default();
                                e.any = true;
                                e.signed |= signed;
                                e.unsigned_order |= order;
                            }
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn declaration(&mut self, i: usize, ins: &InstructionRef<'_, '_>, d: Decl) -> R<()> {
        self.range_declaration(i, ins, d)?;
        let reg_of = |id| {
            let o: &Operand = ins.operand(id);
            o.register().map(|r| r as u32)
        };
        let need = |r: Option<u32>| r.ok_or_else(|| unsupported(i, ins, "a register range"));
        match d {
            Decl::Temps(n) if n > LIMIT_REGISTERS => return Err(unsupported(i, ins, "more than 4096 temps")),
            Decl::Temps(n) => self.temps = n,
            Decl::IndexableTemp { count, .. }
                if count > LIMIT_REGISTERS || self.indexable.values().sum::<u32>() > LIMIT_REGISTERS =>
            {
                return Err(unsupported(i, ins, "more than 4096 indexable temp registers"))
            }
            Decl::IndexableTemp { register, count, .. } => {
                self.indexable.insert(register, count);
            }
            Decl::ThreadGroup(s) => self.thread_group = s,
            Decl::ConstantBuffer { operand, .. } => {
                let o = ins.operand(operand);
                let r = need(reg_of(operand))?;
                let size = match (o.index(1), d) {
                    (_, Decl::ConstantBuffer { size: Some(n), .. }) => n,
                    (Some(Index::Imm32(n)), _) if !self.sm51 => n,
                    _ => return Err(unsupported(i, ins, "a constant buffer without a size")),
                };
                self.cbs.insert(r, size.clamp(1, 4096));
            }
            Decl::Sampler { operand, mode, .. } => {
                self.samplers.insert(need(reg_of(operand))?, mode);
            }
            Decl::Resource { operand, dim, return_type, .. } => {
                let elem = elem_of(return_type.types[0]).ok_or_else(|| unsupported(i, ins, "this return type"))?;
                let res =
                    if dim == ResourceDimension::Buffer { Res2::Typed { elem } } else { Res2::Texture { dim, elem } };
                let r = need(reg_of(operand))?;
                self.srvs.insert(r, res);
                self.declared_srvs.insert(r);
            }
            Decl::ResourceRaw { operand, .. } => {
                let r = need(reg_of(operand))?;
                self.srvs.insert(r, Res2::Words { stride: 0, bytes: 0 });
                self.declared_srvs.insert(r);
            }
            Decl::ResourceStructured { operand, stride, .. } => {
                let r = need(reg_of(operand))?;
                self.srvs.insert(r, Res2::Words { stride, bytes: 0 });
                self.declared_srvs.insert(r);
            }
            Decl::UavTyped { operand, dim, return_type, .. } => {
                let elem = elem_of(return_type.types[0]).ok_or_else(|| unsupported(i, ins, "this return type"))?;
                let res =
                    if dim == ResourceDimension::Buffer { Res2::Typed { elem } } else { Res2::Texture { dim, elem } };
                self.uavs.insert(need(reg_of(operand))?, res);
            }
            Decl::UavRaw { operand, flags, .. } | Decl::UavStructured { operand, flags, .. } => {
                if flags.rasterizer_ordered {
                    return Err(unsupported(i, ins, "a rasterizer-ordered view"));
                }
                let stride = if let Decl::UavStructured { stride, .. } = d { stride } else { 0 };
                self.uavs.insert(need(reg_of(operand))?, Res2::Words { stride, bytes: 0 });
            }
            Decl::TgsmRaw { byte_count: bytes, .. } | Decl::TgsmStructured { stride: bytes, count: 1, .. }
                if bytes > LIMIT_TGSM_BYTES =>
            {
                return Err(unsupported(i, ins, "more than 32 KiB of shared memory"))
            }
            Decl::TgsmStructured { stride, count, .. } if stride.saturating_mul(count) > LIMIT_TGSM_BYTES => {
                return Err(unsupported(i, ins, "more than 32 KiB of shared memory"))
            }
            Decl::TgsmRaw { operand, byte_count } => {
                self.tgsm.insert(need(reg_of(operand))?, Res2::Words { stride: 0, bytes: byte_count.max(4) });
            }
            Decl::TgsmStructured { operand, stride, count } => {
                self.tgsm
                    .insert(need(reg_of(operand))?, Res2::Words { stride, bytes: stride.saturating_mul(count).max(4) });
            }
            Decl::Register(operand) | Decl::RegisterName { operand, .. } => {
                let o = *ins.operand(operand);
                let name = if let Decl::RegisterName { name, .. } = d { Some(name) } else { None };
                self.io_decl(i, ins, &o, name, InterpolationMode::Undefined)?;
            }
            Decl::InputPs { interpolation, operand } => {
                let o = *ins.operand(operand);
                self.io_decl(i, ins, &o, None, interpolation)?;
            }
            Decl::InputPsName { interpolation, operand, name, .. } => {
                let o = *ins.operand(operand);
                self.io_decl(i, ins, &o, Some(name), interpolation)?;
            }
            Decl::GlobalFlags(f) => {
                self.force_early = f.contains(tpf::GlobalFlags::FORCE_EARLY_DEPTH_STENCIL);
            }
            Decl::IndexRange { .. } | Decl::FunctionBody(_) => {}
            // Read whole by `tpf::interfaces::Interfaces::of`.
            Decl::FunctionTable { .. } => {}
            Decl::Interface { .. } => {
                self.interfaces.check().map_err(|e| unsupported(i, ins, e.to_string()))?;
            }
            Decl::OutputTopology(_)
            | Decl::InputPrimitive(_)
            | Decl::MaxOutputVertexCount(_)
            | Decl::Stream(_)
            | Decl::GsInstanceCount(_)
                if self.stage == ProgramType::Geometry =>
            {
                crate::gs::declaration(&mut self.gs, i, ins, d)?
            }
            _ => return Err(unsupported(i, ins, "this declaration")),
        }
        Ok(())
    }

    /// Shader Model 5.1: a resource declaration names a range `ID[lower:upper]` in a
    /// register space (Microsoft's "Bytecode changes in SM5.1" page). The variable is
    /// named by the ID (unique within a class whatever the space) and bound where the
    /// range's first register of its space goes ([`Bindings::slot_in`]); a range of one
    /// register is that register, a larger one a binding array of its registers, an
    /// unbounded one (`[lower:*]`) a runtime-sized binding array.
    fn range_declaration(&mut self, i: usize, ins: &InstructionRef<'_, '_>, d: Decl) -> R<()> {
        if !self.sm51 {
            return Ok(());
        }
        let (operand, space, class) = match d {
            Decl::ConstantBuffer { operand, space, .. } => (operand, space, Class::ConstantBuffer),
            Decl::Sampler { operand, space, .. } => (operand, space, Class::Sampler),
            Decl::Resource { operand, space, .. }
            | Decl::ResourceRaw { operand, space, .. }
            | Decl::ResourceStructured { operand, space, .. } => (operand, space, Class::Srv),
            Decl::UavTyped { operand, space, .. }
            | Decl::UavRaw { operand, space, .. }
            | Decl::UavStructured { operand, space, .. } => (operand, space, Class::Uav),
            _ => return Ok(()),
        };
        let o = ins.operand(operand);
        let (Some(Index::Imm32(id)), Some(Index::Imm32(lower)), Some(Index::Imm32(upper))) =
            (o.index(0), o.index(1), o.index(2))
        else {
            return Err(unsupported(i, ins, "a register range without bounds"));
        };
        if upper < lower {
            let register = format!("{}{id}", class.prefix());
            return Err(TranslateError::Resource { register, what: format!("an empty range [{lower}:{upper}]") });
        }
        self.ranges.insert((class, id), Range51 { lower, upper, space: space.unwrap_or(0) });
        Ok(())
    }

    /// The binding of the `t#`/`u#`/`s#`/`cb#` of the generated code: its register
    /// (Shader Model 5.1: the first register of the range it names, in its space).
    fn slot(&self, class: Class, r: u32) -> crate::Slot {
        let key = if class == Class::UavCounter { Class::Uav } else { class };
        match self.range(key, r) {
            Some(range) => self.bindings.slot_in(class, range.space, range.lower),
            None => self.bindings.slot(class, r),
        }
    }

    /// Shader Model 5.1: the range `r` of `class` names.
    fn range(&self, class: Class, r: u32) -> Option<Range51> {
        if self.sm51 {
            self.ranges.get(&(class, r)).copied()
        } else {
            None
        }
    }

    /// Shader Model 5.1: the range `r` of `class` names when it is a binding array.
    fn array(&self, class: Class, r: u32) -> Option<Range51> {
        self.range(class, r).filter(|range| range.is_array())
    }

    /// The type of resource variable `name` (`t2`) of type `ty`: `ty`, or for a range
    /// of more than one register a binding array of it (of a struct `dx_{name}` holding
    /// it as `w` for a buffer: naga's binding arrays of buffers are of structs, whose
    /// declaration goes to `out`).
    fn variable_type(&self, out: &mut String, class: Class, r: u32, name: &str, ty: &str, buffer: bool) -> String {
        let Some(range) = self.array(class, r) else { return ty.to_string() };
        let n = range.size_suffix();
        if buffer {
            let _ = writeln!(out, "struct dx_{name} {{ w: {ty}, }}");
            format!("binding_array<dx_{name}{n}>")
        } else {
            format!("binding_array<{ty}{n}>")
        }
    }

    /// The element format of typed buffer view `r` of `class` (`t#`, `u#`): the one
    /// [`Bindings::formats`] names for its register, or the default of its return type
    /// ([`buffer_format::default_format`]). A format not converted
    /// ([`buffer_format::converts`]), a format of another numeric type than the
    /// declaration's, and atomics on a format that is not 32 bits, are errors.
    fn typed_format(&self, class: Class, r: u32, elem: Elem) -> R<Format> {
        let found = match self.range(class, r) {
            Some(range) => self.bindings.format_in(class, range.space, range.lower),
            None => self.bindings.format(class, r),
        };
        let numeric = match elem {
            Elem::F => Numeric::Float,
            Elem::U => Numeric::Uint,
            Elem::I => Numeric::Sint,
        };
        let atomics = class == Class::Uav && self.uav_atomics.get(&r).is_some_and(|a| a.any);
        let name = format!("{}{r}", class.prefix());
        match found {
            None => Ok(buffer_format::default_format(numeric, atomics)),
            Some(f) if !buffer_format::converts(f) => Err(TranslateError::Resource {
                register: name,
                what: format!("format {f} for a typed buffer view (sRGB and depth formats are not converted)"),
            }),
            Some(f) if f.numeric() != numeric => Err(TranslateError::Resource {
                register: name,
                what: format!(
                    "format {f} ({} elements) for a view declared {}",
                    format!("{:?}", f.numeric()).to_lowercase(),
                    elem_format(elem)
                ),
            }),
            Some(f) if atomics && f.size() != 4 => Err(TranslateError::Resource {
                register: name,
                what: format!("atomics on a typed buffer of format {f} (32-bit formats only)"),
            }),
            Some(f) => Ok(f),
        }
    }

    /// Shader Model 5.1: the element of the binding array an operand reads (`None`
    /// for a range of one register, which the operand must name). The operand's second
    /// index is its register counted from the start of the register space, not from the
    /// range (Microsoft's "Bytecode changes in SM5.1" page: `T1[r1.x + 10]` of
    /// `T1[10:*]`), so the element is that index less the range's first register. An
    /// immediate register must lie in the range; a register-relative index past the
    /// range is undefined in Direct3D 12 and not checked here (naga's binding-array
    /// policy is `Unchecked`; its writers bound constant buffers' by the index policy). A relative index is never uniform to naga's analysis (it
    /// reads a temp), so the SPIR-V decorates every such access `NonUniform`, as the
    /// operand's `NonUniformResourceIndex` flag asks where it is set.
    fn range_element(&self, i: usize, ins: &InstructionRef<'_, '_>, class: Class, o: &Operand) -> R<Option<String>> {
        if !self.sm51 {
            return Ok(None);
        }
        let id = o.register().ok_or_else(|| unsupported(i, ins, "a relative range"))? as u32;
        let range = *self
            .ranges
            .get(&(class, id))
            .ok_or_else(|| unsupported(i, ins, format!("undeclared {}{id}", class.prefix())))?;
        let idx = o.index(1).ok_or_else(|| unsupported(i, ins, "a range operand without its register"))?;
        let outside = || unsupported(i, ins, format!("a register outside its range [{}:{}]", range.lower, range.upper));
        if !range.is_array() {
            return match idx {
                Index::Imm32(r) if r == range.lower => Ok(None),
                Index::Imm32(_) => Err(outside()),
                _ => Err(unsupported(i, ins, "a register index into a range of one register")),
            };
        }
        Ok(Some(match idx {
            Index::Imm32(r) if r >= range.lower && r <= range.upper => format!("{}u", r.wrapping_sub(range.lower)),
            Index::Imm32(_) => return Err(outside()),
            Index::Relative(id) | Index::Imm32Relative(_, id) => {
                let rel = self.index(i, ins, Index::Relative(id))?;
                // u32 arithmetic wraps, as the element's does.
                match idx.immediate().wrapping_sub(u64::from(range.lower)) as u32 {
                    0 => rel,
                    k => format!("({rel} + {k}u)"),
                }
            }
            _ => return Err(unsupported(i, ins, "a 64-bit index")),
        }))
    }

    fn io_decl(
        &mut self,
        i: usize,
        ins: &InstructionRef<'_, '_>,
        o: &Operand,
        name: Option<SystemName>,
        interp: InterpolationMode,
    ) -> R<()> {
        let mask = o.mask().0 & 15;
        let input = ins.opcode.mnemonic().starts_with("dcl_input");
        match o.ty {
            OperandType::Input | OperandType::Output => {}
            OperandType::OutputDepth => {
                self.out_depth = true;
                return Ok(());
            }
            OperandType::OutputDepthGreaterEqual | OperandType::OutputDepthLessEqual => {
                self.out_depth = true;
                self.conservative =
                    Some(if o.ty == OperandType::OutputDepthGreaterEqual { "greater_equal" } else { "less_equal" });
                return Ok(());
            }
            OperandType::OutputCoverageMask => {
                self.out_mask = true;
                return Ok(());
            }
            OperandType::InputCoverageMask => {
                self.in_coverage = true;
                return Ok(());
            }
            OperandType::InputThreadId
            | OperandType::InputThreadGroupId
            | OperandType::InputThreadIdInGroup
            | OperandType::InputThreadIdInGroupFlattened => return Ok(()),
            OperandType::InputPrimitiveId | OperandType::InputGsInstanceId if self.stage == ProgramType::Geometry => {
                return Ok(())
            }
            _ => return Err(unsupported(i, ins, format!("the register file {}", file_name(o.ty)))),
        }
        if self.stage == ProgramType::Geometry && input {
            // `v[vertices][register]`: every declared register is data from the
            // vertex shader's outputs (system values included).
            let (Some(Index::Imm32(n)), Some(Index::Imm32(r))) = (o.index(0), o.index(1)) else {
                return Err(unsupported(i, ins, "a geometry-shader input that is not v[n][r]"));
            };
            if r >= 32 || n == 0 || n > 6 {
                return Err(unsupported(i, ins, "a geometry-shader input beyond v[6][31]"));
            }
            self.gs.input_vertices = self.gs.input_vertices.max(n);
            self.inputs.entry(r).or_insert((0, Vec::new(), interp)).0 |= mask;
            return Ok(());
        }
        if o.dims() != 1 {
            return Err(unsupported(i, ins, "an input or output array"));
        }
        let r = o.register().ok_or_else(|| unsupported(i, ins, "a relative register"))? as u32;
        if r >= 32 {
            return Err(unsupported(i, ins, "a register beyond 31"));
        }
        let name = name.filter(|n| *n != SystemName::Undefined);
        if input {
            let e = self.inputs.entry(r).or_insert((0, Vec::new(), interp));
            match name {
                Some(n) => e.1.push((n, mask)),
                None => {
                    e.0 |= mask;
                    e.2 = interp;
                }
            }
        } else {
            let e = self.outputs.entry(r).or_insert((0, Vec::new()));
            match name {
                Some(n) => e.1.push((n, mask)),
                None => e.0 |= mask,
            }
        }
        Ok(())
    }

    /// Module-scope variables of the resources.
    fn resource_globals(&mut self) -> R<()> {
        let mut out = String::new();
        for (&r, &size) in &self.cbs {
            let s = self.slot(Class::ConstantBuffer, r);
            let ty = self.variable_type(
                &mut out,
                Class::ConstantBuffer,
                r,
                &format!("cb{r}"),
                &format!("array<vec4<u32>, {size}>"),
                true,
            );
            let _ = writeln!(out, "@group({}) @binding({}) var<uniform> cb{r}: {ty};", s.group, s.binding);
        }
        for (&r, &mode) in &self.samplers {
            let s = self.slot(Class::Sampler, r);
            let ty = if mode == SamplerMode::Comparison { "sampler_comparison" } else { "sampler" };
            let ty = self.variable_type(&mut out, Class::Sampler, r, &format!("s{r}"), ty, false);
            let _ = writeln!(out, "@group({}) @binding({}) var s{r}: {ty};", s.group, s.binding);
        }
        let mut typed_functions = String::new();
        for (&r, res) in &self.srvs {
            let s = self.slot(Class::Srv, r);
            let name = format!("t{r}");
            let ty = match *res {
                Res2::Words { .. } => {
                    format!(
                        "var<storage, read> {name}: {}",
                        self.variable_type(&mut out, Class::Srv, r, &name, "array<u32>", true)
                    )
                }
                Res2::Typed { elem } => {
                    let format = self.typed_format(Class::Srv, r, elem)?;
                    let array = self.array(Class::Srv, r).is_some();
                    let words = if array { format!("{name}[dx_k].w") } else { name.clone() };
                    let storage = buffer_format::Storage { name: &words, atomic: false, signed: false };
                    let f = buffer_format::load_function(&format!("dx_ld_{name}"), &storage, format);
                    typed_functions.push_str(&element_parameter(f, array));
                    format!(
                        "var<storage, read> {name}: {}",
                        self.variable_type(&mut out, Class::Srv, r, &name, "array<u32>", true)
                    )
                }
                Res2::Texture { dim, elem } => {
                    let ty = texture_type(dim, elem, self.compared.contains(&r))
                        .ok_or_else(|| TranslateError::Resource { register: format!("t{r}"), what: dim_name(dim) })?;
                    format!("var {name}: {}", self.variable_type(&mut out, Class::Srv, r, &name, &ty, false))
                }
            };
            let _ = writeln!(out, "@group({}) @binding({}) {ty};", s.group, s.binding);
        }
        for (&r, res) in &self.uavs {
            let s = self.slot(Class::Uav, r);
            let atomics = self.uav_atomics.get(&r).copied().unwrap_or_default();
            let name = format!("u{r}");
            let ty = match *res {
                Res2::Words { .. } => {
                    let words = format!("array<{}>", word_type(atomics, &name)?);
                    format!(
                        "var<storage, read_write> {name}: {}",
                        self.variable_type(&mut out, Class::Uav, r, &name, &words, true)
                    )
                }
                Res2::Typed { elem } => {
                    let format = self.typed_format(Class::Uav, r, elem)?;
                    // Elements narrower than a word are stored with atomic bit operations.
                    let narrow = format.size() < 4;
                    let word = if narrow { "atomic<u32>" } else { word_type(atomics, &name)? };
                    let array = self.array(Class::Uav, r).is_some();
                    let words = if array { format!("{name}[dx_k].w") } else { name.clone() };
                    let storage =
                        buffer_format::Storage { name: &words, atomic: atomics.any || narrow, signed: atomics.signed };
                    let f = buffer_format::load_function(&format!("dx_ld_{name}"), &storage, format);
                    typed_functions.push_str(&element_parameter(f, array));
                    let f = buffer_format::store_function(&format!("dx_st_{name}"), &storage, format);
                    typed_functions.push_str(&element_parameter(f, array));
                    let ty = self.variable_type(&mut out, Class::Uav, r, &name, &format!("array<{word}>"), true);
                    format!("var<storage, read_write> {name}: {ty}")
                }
                Res2::Texture { dim, elem } => {
                    if atomics.any {
                        return Err(TranslateError::Resource {
                            register: format!("u{r}"),
                            what: "atomics on a typed UAV".into(),
                        });
                    }
                    let d = match dim {
                        // A 1D view is a 2D one of height 1 (WGSL has no 1D array).
                        ResourceDimension::Texture1D | ResourceDimension::Texture2D => "2d",
                        ResourceDimension::Texture1DArray => "2d_array",
                        ResourceDimension::Texture2DArray => "2d_array",
                        ResourceDimension::Texture3D => "3d",
                        _ => {
                            return Err(TranslateError::Resource {
                                register: format!("u{r}"),
                                what: format!("a typed UAV of dimension {}", dim_name(dim)),
                            })
                        }
                    };
                    let (format, access) = if self.uav_loaded.contains(&r) {
                        (format!("r32{}", elem_format(elem)), "read_write")
                    } else {
                        (format!("rgba32{}", elem_format(elem)), "write")
                    };
                    let ty = format!("texture_storage_{d}<{format}, {access}>");
                    format!("var {name}: {}", self.variable_type(&mut out, Class::Uav, r, &name, &ty, false))
                }
            };
            let _ = writeln!(out, "@group({}) @binding({}) {ty};", s.group, s.binding);
        }
        out.push_str(&typed_functions);
        for &r in &self.uav_counters {
            if self.array(Class::Uav, r).is_some() {
                return Err(TranslateError::Resource {
                    register: format!("u{r}"),
                    what: "the hidden counter of a range of more than one register (imm_atomic_alloc, \
                           imm_atomic_consume)"
                        .into(),
                });
            }
            let s = self.slot(Class::UavCounter, r);
            let _ = writeln!(
                out,
                "@group({}) @binding({}) var<storage, read_write> uc{r}: atomic<u32>;",
                s.group, s.binding
            );
        }
        for (&r, res) in &self.tgsm {
            let Res2::Words { bytes, .. } = *res else { continue };
            let atomics = self.tgsm_atomics.get(&r).copied().unwrap_or_default();
            let _ = writeln!(
                out,
                "var<workgroup> g{r}: array<{}, {}>;",
                word_type(atomics, &format!("g{r}"))?,
                bytes.div_ceil(4).max(1)
            );
        }
        if self.stage == ProgramType::Geometry {
            let n = self.inputs.keys().max().map_or(0, |m| m.saturating_add(1)).max(1);
            let _ = writeln!(
                out,
                "var<private> v: array<array<vec4<u32>, {n}>, {}>;\nvar<private> vPrim: u32;\n\
                 var<private> vGSInstanceID: u32;",
                self.gs.input_vertices.max(1)
            );
        } else if !self.inputs.is_empty() {
            let n = self.inputs.keys().max().map_or(0, |m| m.saturating_add(1));
            let _ = writeln!(out, "var<private> v: array<vec4<u32>, {n}>;");
        }
        if !self.outputs.is_empty() {
            let n = self.outputs.keys().max().map_or(0, |m| m.saturating_add(1));
            let _ = writeln!(out, "var<private> o: array<vec4<u32>, {n}>;");
        }
        if self.out_depth {
            out.push_str("var<private> oDepth: u32;\n");
        }
        if self.out_mask {
            out.push_str("var<private> oMask: u32;\n");
        }
        if self.in_coverage {
            out.push_str("var<private> vCoverage: u32;\n");
        }
        if self.stage == ProgramType::Compute {
            out.push_str(
                "var<private> vThreadID: vec3<u32>;\nvar<private> vThreadGroupID: vec3<u32>;\n\
                 var<private> vThreadIDInGroup: vec3<u32>;\nvar<private> vThreadIDInGroupFlattened: u32;\n",
            );
        }
        self.globals.push_str(&out);
        Ok(())
    }

    /// Second pass: the executable instructions, into `dx_run`'s body.
    fn instructions(&mut self) -> R<()> {
        // Subroutines share the registers: module-scope then, function-local otherwise.
        let (out, prefix) =
            if self.has_labels { (&mut self.globals, "var<private>") } else { (&mut self.body, "    var") };
        for r in 0..self.temps {
            let _ = writeln!(out, "{prefix} r{r}: vec4<u32>;");
        }
        for (x, n) in &self.indexable {
            let _ = writeln!(out, "{prefix} x{x}: array<vec4<u32>, {}>;", (*n).max(1));
        }
        let mut blocks: Blocks<BlockData> = Blocks::new();
        let program = self.program;
        for (i, ins) in program.iter().enumerate() {
            if self.body.len() > crate::limits::MAX_SOURCE_BYTES {
                return Err(TranslateError::Structure {
                    index: i,
                    mnemonic: ins.opcode.mnemonic(),
                    message: format!(
                        "the WGSL written reaches {} bytes (at most {})",
                        self.body.len(),
                        crate::limits::MAX_SOURCE_BYTES
                    ),
                });
            }
            let info = ins.opcode.info();
            match info.shape {
                Shape::Decl(_) | Shape::CustomData => continue,
                Shape::InterfaceCall => {
                    self.open_case(&mut blocks);
                    self.terminal = false;
                    self.fcall(i, &ins)?;
                    continue;
                }
                Shape::Ops => {}
            }
            let Body::Op(op) = ins.body else { continue };
            let test = match op.control {
                OpControl::Test(t) => t,
                _ => Test::NonZero,
            };
            let structure = |e: BlockError<BlockData>| TranslateError::Structure {
                index: i,
                mnemonic: ins.opcode.mnemonic(),
                message: block_error(&e),
            };
            match info.flow {
                Flow::If
                | Flow::Else
                | Flow::EndIf
                | Flow::Loop
                | Flow::EndLoop
                | Flow::Switch
                | Flow::EndSwitch
                | Flow::Case
                | Flow::Default
                | Flow::Break
                | Flow::Continue => {
                    // Conditions and selectors are read before the structure changes.
                    let cond = match info.flow {
                        Flow::If | Flow::Break | Flow::Continue | Flow::Switch | Flow::Case
                            if !ins.operands().is_empty() =>
                        {
                            Some(self.scalar_src(i, &ins, 0)?)
                        }
                        _ => None,
                    };
                    // A statement in a switch after a case label opens the case's body.
                    let event = blocks.step(info.flow, BlockData::default).map_err(structure)?;
                    self.flow(i, &ins, info.flow, event, cond, test, &mut blocks)?;
                    continue;
                }
                _ => {}
            }
            self.open_case(&mut blocks);
            self.terminal = false;
            match info.flow {
                Flow::Return => {
                    if ins.opcode == Opcode::Retc {
                        let c = self.scalar_src(i, &ins, 0)?;
                        self.line(&format!("if ({}) {{ return; }}", cond_text(&c, test)));
                    } else {
                        self.line("return;");
                        self.terminal = true;
                    }
                }
                Flow::Discard if ins.opcode == Opcode::Discard => {
                    let c = self.scalar_src(i, &ins, 0)?;
                    self.line(&format!("if ({}) {{ discard; }}", cond_text(&c, test)));
                }
                Flow::None if self.relative_srv(&ins).is_some() => {
                    self.uniform_srv(i, &ins, op.saturate, op.control)?
                }
                Flow::None => self.op(i, &ins, op.saturate, op.control)?,
                Flow::Label => {
                    if let Some(b) = blocks.drain().next() {
                        return Err(TranslateError::Structure {
                            index: i,
                            mnemonic: ins.opcode.mnemonic(),
                            message: format!("`{}` is not closed", b.kind.opener()),
                        });
                    }
                    let name = self.label_name(i, &ins, 0)?;
                    self.end_subroutine();
                    if self.main_body.is_none() {
                        self.main_body = Some(std::mem::take(&mut self.body));
                    }
                    self.label = Some(name);
                    self.depth = 1;
                }
                Flow::Call => {
                    let (k, cond) =
                        if ins.opcode == Opcode::Callc { (1, Some(self.scalar_src(i, &ins, 0)?)) } else { (0, None) };
                    let name = self.label_name(i, &ins, k)?;
                    self.call_edge(i, &ins, &name)?;
                    match cond {
                        Some(c) => self.line(&format!("if ({}) {{ {name}(); }}", cond_text(&c, test))),
                        None => self.line(&format!("{name}();")),
                    }
                }
                Flow::Emit | Flow::Cut | Flow::EmitThenCut if self.stage == ProgramType::Geometry => {
                    let line = crate::gs::emit_statement(&self.gs, i, &ins, info.flow)?;
                    self.line(&line);
                }
                _ => return Err(unsupported(i, &ins, "this flow-control instruction")),
            }
        }
        if let Some(b) = blocks.drain().next() {
            return Err(TranslateError::Structure {
                index: program.len(),
                mnemonic: "end of program",
                message: format!("`{}` is not closed", b.kind.opener()),
            });
        }
        self.end_subroutine();
        if let Some(main) = self.main_body.take() {
            self.body = main;
        }
        self.check_recursion()
    }

    /// Records a call of `callee` from the function being written; a label no
    /// instruction defines is an error naming the call.
    fn call_edge(&mut self, i: usize, ins: &InstructionRef<'_, '_>, callee: &str) -> R<()> {
        if !self.defined_labels.contains(callee) {
            return Err(TranslateError::Structure {
                index: i,
                mnemonic: ins.opcode.mnemonic(),
                message: format!("calls {}, which no label defines", callee.trim_start_matches("dx_")),
            });
        }
        let caller = self.label.clone().unwrap_or_else(|| "dx_run".into());
        self.calls.push((i, ins.opcode.mnemonic(), caller, callee.to_string()));
        Ok(())
    }

    /// Direct3D has no recursion (nor has WGSL): a call that closes a cycle is an error
    /// naming it, the first such call in program order. One depth-first walk of the call
    /// graph (each function once, each call once): a call to a function still on the
    /// walk's path closes a cycle.
    fn check_recursion(&self) -> R<()> {
        // Functions by name, and each one's calls in program order.
        let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, _, caller, callee) in &self.calls {
            for f in [caller.as_str(), callee.as_str()] {
                let n = ids.len();
                ids.entry(f).or_insert(n);
            }
        }
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
        for (k, (_, _, caller, _)) in self.calls.iter().enumerate() {
            if let Some(list) = ids.get(caller.as_str()).and_then(|&c| out.get_mut(c)) {
                list.push(k);
            }
        }
        // 0: not seen, 1: on the path, 2: done.
        let mut state = vec![0u8; ids.len()];
        let mut closing: Option<usize> = None;
        for root in 0..ids.len() {
            if state.get(root) != Some(&0) {
                continue;
            }
            // (function, next of its calls to follow)
            let mut path: Vec<(usize, usize)> = vec![(root, 0)];
            if let Some(s) = state.get_mut(root) {
                *s = 1;
            }
            while let Some(&mut (f, ref mut next)) = path.last_mut() {
                let Some(&k) = out.get(f).and_then(|calls| calls.get(*next)) else {
                    if let Some(s) = state.get_mut(f) {
                        *s = 2;
                    }
                    path.pop();
                    continue;
                };
                *next = next.saturating_add(1);
                let Some(&callee) = self.calls.get(k).and_then(|c| ids.get(c.3.as_str())) else { continue };
                match state.get(callee) {
                    Some(0) => {
                        if let Some(s) = state.get_mut(callee) {
                            *s = 1;
                        }
                        path.push((callee, 0));
                    }
                    Some(1) => closing = Some(closing.map_or(k, |c| c.min(k))),
                    _ => {}
                }
            }
        }
        match closing.and_then(|k| self.calls.get(k)) {
            Some((index, mnemonic, caller, callee)) => Err(TranslateError::Structure {
                index: *index,
                mnemonic,
                message: format!(
                    "recursion: {} leads back to {}",
                    callee.trim_start_matches("dx_"),
                    caller.trim_start_matches("dx_")
                ),
            }),
            None => Ok(()),
        }
    }

    /// Closes the subroutine being written, if one is, into [`Gen::functions`].
    fn end_subroutine(&mut self) {
        if let Some(name) = self.label.take() {
            let body = std::mem::take(&mut self.body);
            let _ = write!(self.functions, "fn {name}() {{\n{body}}}\n\n");
        }
    }

    /// The function of the `l#` or `fb#` operand `k`.
    fn label_name(&self, i: usize, ins: &InstructionRef<'_, '_>, k: usize) -> R<String> {
        let o = ins.operands().get(k).copied().ok_or_else(|| unsupported(i, ins, "a missing label"))?;
        let n = o.register().ok_or_else(|| unsupported(i, ins, "a relative label"))?;
        match o.ty {
            OperandType::Label => Ok(format!("dx_l{n}")),
            OperandType::FunctionBody => Ok(format!("dx_fb{n}")),
            other => Err(unsupported(i, ins, format!("a label in {}", file_name(other)))),
        }
    }

    /// The uniformly indexed `t[r# + k]` operand of an instruction (Shader Model 5.0;
    /// functional spec 7.11), if it has one: the operand's position and index.
    fn relative_srv(&self, ins: &InstructionRef<'_, '_>) -> Option<(usize, Index)> {
        if self.sm51 {
            return None;
        }
        ins.operands().iter().enumerate().find_map(|(k, o)| match (o.ty, o.index(0)) {
            (OperandType::Resource, Some(idx @ (Index::Relative(_) | Index::Imm32Relative(..)))) => Some((k, idx)),
            _ => None,
        })
    }

    /// The slots a uniformly indexed `t[r# + k]` may name: the declared `t#` and those
    /// the bound class instances' `this[]` registers name (their base texture, `this.z`,
    /// plus `k`, for every declared interface slot: fxc does not declare a class's
    /// textures). An index naming any other slot reads 0, as an unbound one (crate
    /// docs, "Uniform indexing").
    fn uniform_candidates(&self, ins: &InstructionRef<'_, '_>) -> BTreeSet<u32> {
        let k = match self.relative_srv(ins) {
            None => return BTreeSet::new(),
            Some((_, Index::Imm32Relative(k, _))) => k,
            Some(_) => 0,
        };
        let named = (0..self.interfaces.slots().min(tpf::interfaces::MAX_SLOTS))
            .map(|slot| self.instances.this(slot)[2].wrapping_add(k));
        self.declared_srvs.iter().copied().chain(named).collect()
    }

    /// An instruction reading a uniformly indexed `t[r# + k]`: a switch over the
    /// candidate slots ([`Gen::uniform_candidates`]), the instruction written for each;
    /// any other index reads as an unbound slot, zeros (crate docs, "Uniform indexing").
    fn uniform_srv(&mut self, i: usize, ins: &InstructionRef<'_, '_>, sat: bool, control: OpControl) -> R<()> {
        let Some((_, idx)) = self.relative_srv(ins) else { return self.op(i, ins, sat, control) };
        let e = self.index(i, ins, idx)?;
        self.line(&format!("switch ({e}) {{"));
        for slot in self.uniform_candidates(ins) {
            self.line(&format!("case {slot}u: {{"));
            self.depth = self.depth.saturating_add(1);
            self.srv_override = Some(slot);
            let written = self.op(i, ins, sat, control);
            self.srv_override = None;
            written?;
            self.close();
        }
        self.line("default: {");
        self.depth = self.depth.saturating_add(1);
        // An unbound slot: the value reads 0; the status of the tiled-resource `_s`
        // forms (their second destination) is "fully mapped", 1, as `exec` gives it.
        let dsts = ins.opcode.info().dst.len();
        for (k, value) in [(0, "0u"), (1, "1u")] {
            if k >= dsts {
                break;
            }
            let Some(dst) = ins.operands().get(k).copied() else { break };
            if let Some(place) = self.dst(i, ins, &dst)? {
                for c in 0..4 {
                    if place.2 & (1 << c) != 0 {
                        self.write(&place, c, value);
                    }
                }
            }
        }
        self.close();
        self.line("}");
        Ok(())
    }

    /// `fcall fp#[index][site]`: calls body `site` of the function table bound to the
    /// interface slot `fp# + index` ([`crate::Options::interfaces`]; by default the
    /// first table the declaration lists); a register index switches over the slots.
    fn fcall(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        let Body::InterfaceCall { function, interface } = ins.body else { return Ok(()) };
        let o = *ins.operand(interface);
        let Some(Index::Imm32(fp)) = o.index(0) else { return Err(unsupported(i, ins, "a relative interface")) };
        let len = self
            .interfaces
            .interface(fp)
            .map(|f| f.array_length)
            .ok_or_else(|| unsupported(i, ins, format!("undeclared fp{fp}")))?;
        let call = |k: u32| -> R<String> {
            let body = self
                .interfaces
                .call(self.instances, fp, k, function)
                .map_err(|e| unsupported(i, ins, e.to_string()))?;
            Ok(format!("dx_fb{body}"))
        };
        let (callees, index) = match o.index(1) {
            None => (vec![call(0)?], None),
            Some(Index::Imm32(k)) => (vec![call(k)?], None),
            Some(idx) => ((0..len).map(call).collect::<R<Vec<_>>>()?, Some(self.index(i, ins, idx)?)),
        };
        for c in &callees {
            self.call_edge(i, ins, c)?;
        }
        match index {
            None => {
                for c in &callees {
                    self.line(&format!("{c}();"));
                }
            }
            Some(e) => {
                self.line(&format!("switch ({e}) {{"));
                for (k, c) in callees.iter().enumerate() {
                    self.line(&format!("    case {k}u: {{ {c}(); }}"));
                }
                self.line("    default: {}");
                self.line("}");
            }
        }
        Ok(())
    }

    /// In a switch whose labels were just read, opens the case body.
    fn open_case(&mut self, blocks: &mut Blocks<BlockData>) {
        let Some(b) = blocks.innermost_mut() else { return };
        if b.kind != tpf::blocks::BlockKind::Switch || b.data.labels.is_empty() {
            return;
        }
        let labels = std::mem::take(&mut b.data.labels).join(", ");
        b.data.case_open = true;
        self.line(&format!("case {labels}: {{"));
        self.depth = self.depth.saturating_add(1);
    }

    #[allow(clippy::too_many_arguments)]
    fn flow(
        &mut self,
        i: usize,
        ins: &InstructionRef<'_, '_>,
        flow: Flow,
        event: Event<BlockData>,
        cond: Option<String>,
        test: Test,
        blocks: &mut Blocks<BlockData>,
    ) -> R<()> {
        let cond = || cond.clone().unwrap_or_else(|| "0u".into());
        match (flow, event) {
            (Flow::If, _) | (Flow::Loop, _) | (Flow::Switch, _) => {
                // The new block is the innermost now; the one around it may be a switch
                // whose case body this statement opens.
                let depth = blocks.depth();
                if depth >= 2 {
                    if let Some(outer) = blocks.get_mut(depth.saturating_sub(2)) {
                        if outer.kind == tpf::blocks::BlockKind::Switch && !outer.data.labels.is_empty() {
                            let labels = std::mem::take(&mut outer.data.labels).join(", ");
                            outer.data.case_open = true;
                            self.line(&format!("case {labels}: {{"));
                            self.depth = self.depth.saturating_add(1);
                        }
                    }
                }
                if depth > crate::limits::MAX_BLOCK_DEPTH {
                    return Err(TranslateError::Structure {
                        index: i,
                        mnemonic: ins.opcode.mnemonic(),
                        message: format!(
                            "blocks nested {depth} deep (no runtime accepts more than {})",
                            crate::limits::MAX_BLOCK_DEPTH
                        ),
                    });
                }
                match flow {
                    Flow::If => self.line(&format!("if ({}) {{", cond_text(&cond(), test))),
                    Flow::Loop => self.line("loop {"),
                    _ => self.line(&format!("switch (bitcast<i32>({})) {{", cond())),
                }
                self.depth = self.depth.saturating_add(1);
                self.terminal = false;
            }
            (Flow::Else, _) => {
                self.depth = self.depth.saturating_sub(1);
                self.line("} else {");
                self.depth = self.depth.saturating_add(1);
                self.terminal = false;
            }
            (_, Event::Closed(block)) => {
                if block.kind == tpf::blocks::BlockKind::Switch {
                    if block.data.case_open {
                        self.depth = self.depth.saturating_sub(1);
                        self.line("}");
                    }
                    let mut labels = block.data.labels;
                    if !block.data.has_default {
                        labels.push("default".into());
                    }
                    if !labels.is_empty() {
                        self.line(&format!("case {}: {{}}", labels.join(", ")));
                    }
                }
                self.depth = self.depth.saturating_sub(1);
                self.line("}");
                self.terminal = false;
            }
            (Flow::Case | Flow::Default, _) => {
                let Some(b) = blocks.innermost_mut() else { return Ok(()) };
                if b.data.case_open {
                    if !self.terminal {
                        return Err(unsupported(i, ins, "a case that falls through into the next"));
                    }
                    b.data.case_open = false;
                    self.depth = self.depth.saturating_sub(1);
                    self.line("}");
                }
                if flow == Flow::Default {
                    b.data.labels.push("default".into());
                    b.data.has_default = true;
                } else {
                    // A case value is an immediate.
                    let v = ins.operands().first().map_or(0, |o| o.imm[0]) as i32;
                    b.data.labels.push(format!("{v}"));
                }
            }
            (Flow::Break | Flow::Continue, _) => {
                self.open_case(blocks);
                let word = if flow == Flow::Break { "break" } else { "continue" };
                if ins.operands().is_empty() {
                    self.line(&format!("{word};"));
                    self.terminal = true;
                } else {
                    self.line(&format!("if ({}) {{ {word}; }}", cond_text(&cond(), test)));
                    self.terminal = false;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The expression of an index (`u32`).
    fn index(&self, i: usize, ins: &InstructionRef<'_, '_>, idx: Index) -> R<String> {
        let rel = |id| -> R<String> {
            let o = *ins.operand(id);
            let v = self.src_vec(i, ins, &o, false)?;
            Ok(format!("{v}.x"))
        };
        Ok(match idx {
            Index::Imm32(v) => format!("{v}u"),
            Index::Relative(id) => rel(id)?,
            Index::Imm32Relative(v, id) => format!("({} + {v}u)", rel(id)?),
            _ => return Err(unsupported(i, ins, "a 64-bit index")),
        })
    }

    /// The register an operand names, as a `vec4<u32>` expression (no selection).
    fn register(&self, i: usize, ins: &InstructionRef<'_, '_>, o: &Operand) -> R<String> {
        let idx = |d: usize| -> R<String> {
            let x = o.index(d).ok_or_else(|| unsupported(i, ins, "an operand without its index"))?;
            self.index(i, ins, x)
        };
        let imm = |d: usize| -> R<u32> {
            match o.index(d) {
                Some(Index::Imm32(v)) => Ok(v),
                _ => Err(unsupported(i, ins, "a relative register number")),
            }
        };
        Ok(match o.ty {
            OperandType::Temp => {
                let r = imm(0)?;
                if r >= self.temps {
                    return Err(unsupported(i, ins, format!("r{r} beyond dcl_temps")));
                }
                format!("r{r}")
            }
            OperandType::IndexableTemp => {
                let x = imm(0)?;
                if !self.indexable.contains_key(&x) {
                    return Err(unsupported(i, ins, format!("undeclared x{x}")));
                }
                format!("x{x}[{}]", idx(1)?)
            }
            OperandType::Input if self.stage == ProgramType::Geometry => {
                if self.inputs.is_empty() || o.dims() != 2 {
                    return Err(unsupported(i, ins, "this input register"));
                }
                format!("v[{}][{}]", idx(0)?, idx(1)?)
            }
            OperandType::InputPrimitiveId if self.stage == ProgramType::Geometry => "vec4<u32>(vPrim)".into(),
            OperandType::InputGsInstanceId if self.stage == ProgramType::Geometry => "vec4<u32>(vGSInstanceID)".into(),
            OperandType::Input => {
                if self.inputs.is_empty() || o.dims() != 1 {
                    return Err(unsupported(i, ins, "this input register"));
                }
                format!("v[{}]", idx(0)?)
            }
            OperandType::Output => {
                if self.outputs.is_empty() || o.dims() != 1 {
                    return Err(unsupported(i, ins, "this output register"));
                }
                format!("o[{}]", idx(0)?)
            }
            // A uniformly indexed slot (`cb[r0.x + k][e]`, spec 7.11): the declared
            // buffer whose slot the index names, 0 for any other (an unbound slot).
            OperandType::ConstantBuffer
                if !self.sm51 && matches!(o.index(0), Some(Index::Relative(_) | Index::Imm32Relative(..))) =>
            {
                let slot = idx(0)?;
                let e = idx(1)?;
                let mut expr = "vec4<u32>(0u)".to_string();
                for cb in self.cbs.keys().rev() {
                    expr = format!("select({expr}, cb{cb}[{e}], {slot} == {cb}u)");
                }
                expr
            }
            OperandType::ConstantBuffer => {
                let cb = imm(0)?;
                if !self.cbs.contains_key(&cb) {
                    return Err(unsupported(i, ins, format!("undeclared cb{cb}")));
                }
                let element = self.range_element(i, ins, Class::ConstantBuffer, o)?;
                // Shader Model 5.1: [range][register][element].
                let e = idx(if self.sm51 { 2 } else { 1 })?;
                match element {
                    Some(k) => format!("cb{cb}[{k}].w[{e}]"),
                    None => format!("cb{cb}[{e}]"),
                }
            }
            OperandType::ImmediateConstantBuffer => {
                if self.icb_len.is_none() {
                    return Err(unsupported(i, ins, "icb without dcl_immediateConstantBuffer"));
                }
                format!("icb[{}]", idx(0)?)
            }
            // The bound class instances' data (`Options::class_instances`), constants of
            // the module; a slot past the declared ones reads 0, as in the interpreter.
            OperandType::ThisPointer => match o.index(0) {
                Some(Index::Imm32(k)) => {
                    let t = if k < self.interfaces.slots() { self.instances.this(k) } else { [0; 4] };
                    format!("vec4<u32>({:#x}u, {:#x}u, {:#x}u, {:#x}u)", t[0], t[1], t[2], t[3])
                }
                Some(idx) => {
                    let n = self.interfaces.slots();
                    if n == 0 {
                        return Err(unsupported(i, ins, "this[] without a dcl_interface"));
                    }
                    let k = self.index(i, ins, idx)?;
                    format!("select(vec4<u32>(0u), dx_this[min({k}, {}u)], {k} < {n}u)", n.saturating_sub(1))
                }
                None => return Err(unsupported(i, ins, "this[] without an index")),
            },
            OperandType::InputThreadId => "vec4<u32>(vThreadID, 0u)".into(),
            OperandType::InputThreadGroupId => "vec4<u32>(vThreadGroupID, 0u)".into(),
            OperandType::InputThreadIdInGroup => "vec4<u32>(vThreadIDInGroup, 0u)".into(),
            OperandType::InputThreadIdInGroupFlattened => "vec4<u32>(vThreadIDInGroupFlattened)".into(),
            OperandType::InputCoverageMask if self.in_coverage => "vec4<u32>(vCoverage)".into(),
            OperandType::Immediate32 => match o.components {
                ComponentCount::One => format!("vec4<u32>({:#x}u)", o.imm[0]),
                _ => format!("vec4<u32>({:#x}u, {:#x}u, {:#x}u, {:#x}u)", o.imm[0], o.imm[1], o.imm[2], o.imm[3]),
            },
            // `d(...)`: one double (both lanes) or two, low word first.
            OperandType::Immediate64 => {
                let w = match o.components {
                    ComponentCount::One => [o.imm[0], o.imm[1], o.imm[0], o.imm[1]],
                    _ => o.imm,
                };
                format!("vec4<u32>({:#x}u, {:#x}u, {:#x}u, {:#x}u)", w[0], w[1], w[2], w[3])
            }
            other => return Err(unsupported(i, ins, format!("the register file {}", file_name(other)))),
        })
    }

    /// A source operand: its register, selection and modifier, as a `vec4<u32>`.
    /// `float` says how the modifier applies (a float slot, or a typeless one).
    fn src_vec(&self, i: usize, ins: &InstructionRef<'_, '_>, o: &Operand, float: bool) -> R<String> {
        self.src_vec_as(i, ins, o, if float { Ty::F } else { Ty::U })
    }

    /// A source operand read for a slot of type `ty`: a float slot's modifier acts on
    /// every component's sign bit, a double slot's on the high words' (`.y`, `.w`), an
    /// integer or typeless slot's as two's complement.
    fn src_vec_as(&self, i: usize, ins: &InstructionRef<'_, '_>, o: &Operand, ty: Ty) -> R<String> {
        let base = self.register(i, ins, o)?;
        Ok(selected(base, o, ty))
    }

    /// Source `k`'s first selected component (a condition, selector or index).
    fn scalar_src(&self, i: usize, ins: &InstructionRef<'_, '_>, k: usize) -> R<String> {
        let o = *ins.operands().get(k).ok_or_else(|| unsupported(i, ins, "a missing operand"))?;
        Ok(format!("{}.x", self.src_vec(i, ins, &o, false)?))
    }

    /// Where a destination writes: the `vec4<u32>` place (or a scalar one) and the mask.
    fn dst(&self, i: usize, ins: &InstructionRef<'_, '_>, o: &Operand) -> R<Option<(String, bool, u8)>> {
        let mask = o.mask().0 & 15;
        Ok(Some(match o.ty {
            OperandType::Null => return Ok(None),
            OperandType::OutputDepth | OperandType::OutputDepthGreaterEqual | OperandType::OutputDepthLessEqual
                if self.out_depth =>
            {
                ("oDepth".into(), true, 1)
            }
            OperandType::OutputCoverageMask if self.out_mask => ("oMask".into(), true, 1),
            OperandType::Temp | OperandType::IndexableTemp | OperandType::Output => {
                (self.register(i, ins, o)?, false, mask)
            }
            other => return Err(unsupported(i, ins, format!("a destination in {}", file_name(other)))),
        }))
    }

    fn write(&mut self, place: &(String, bool, u8), c: usize, value: &str) {
        if place.1 {
            self.line(&format!("{} = {value};", place.0));
        } else {
            self.line(&format!("{}.{} = {value};", place.0, comp(c)));
        }
    }

    /// An executable instruction.
    fn op(&mut self, i: usize, ins: &InstructionRef<'_, '_>, sat: bool, control: OpControl) -> R<()> {
        let info = ins.opcode.info();
        if let Some(row) = ops::row(ins.opcode) {
            return self.arith(i, ins, sat, row, info.dst.len(), info.src);
        }
        use Opcode as O;
        match ins.opcode {
            O::Nop => Ok(()),
            O::Sync => {
                let OpControl::Sync(f) = control else { return Ok(()) };
                if f.0 & (tpf::SyncFlags::UAV_GROUP | tpf::SyncFlags::UAV_GLOBAL) != 0 {
                    self.line("storageBarrier();");
                }
                if f.0 & tpf::SyncFlags::TGSM != 0 || f.0 & tpf::SyncFlags::THREADS_IN_GROUP != 0 {
                    self.line("workgroupBarrier();");
                }
                Ok(())
            }
            O::LdRaw | O::LdStructured => self.ld_words(i, ins),
            O::StoreRaw | O::StoreStructured => self.store_words(i, ins),
            O::Ld | O::LdMs => self.ld_texture(i, ins),
            O::Sample | O::SampleL | O::SampleB | O::SampleD | O::SampleC | O::SampleCLz | O::Gather4 | O::Gather4C => {
                self.sample(i, ins)
            }
            O::Lod => self.lod(i, ins),
            O::Gather4Po | O::Gather4PoC => self.gather_po(i, ins),
            O::ResInfo => self.resinfo(i, ins, control),
            O::BufInfo => self.bufinfo(i, ins),
            O::SampleInfo | O::SamplePos => self.sample_query(i, ins, control),
            O::LdUavTyped => self.ld_uav_typed(i, ins),
            O::StoreUavTyped => self.store_uav_typed(i, ins),
            O::ImmAtomicAlloc | O::ImmAtomicConsume => self.counter(i, ins),
            op if is_atomic(op) => self.atomic(i, ins),
            O::EvalCentroid | O::EvalSampleIndex | O::EvalSnapped if self.pull_model => self.eval(i, ins, sat),
            op => Err(unsupported(i, ins, ops::inexpressible(op).unwrap_or("this instruction"))),
        }
    }

    /// Binds the sources to `q0`, `q1`... in a new scope (so that a destination that
    /// is also a source is read first).
    fn bind_sources(&mut self, i: usize, ins: &InstructionRef<'_, '_>, from: usize, types: &[Ty]) -> R<()> {
        self.line("{");
        self.depth = self.depth.saturating_add(1);
        for (k, ty) in types.iter().enumerate() {
            if *ty == Ty::R {
                continue;
            }
            let o =
                *ins.operands().get(from.saturating_add(k)).ok_or_else(|| unsupported(i, ins, "a missing operand"))?;
            let v = self.src_vec_as(i, ins, &o, *ty)?;
            self.line(&format!("let q{k} = {v};"));
        }
        Ok(())
    }

    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.line("}");
    }

    /// `eval_centroid`, `eval_sample_index`, `eval_snapped` ([`crate::pull_model`]):
    /// the input register's location evaluated by a marker call, or, for an input
    /// that is not interpolated (constant or integer), the register itself (D3D11.3
    /// functional spec 16.5 "Pull Model Attribute Evaluation": the position then has no
    /// effect). The source's selection and modifier apply to the value, then `_sat`.
    fn eval(&mut self, i: usize, ins: &InstructionRef<'_, '_>, sat: bool) -> R<()> {
        use crate::pull_model::{Kind, Marker};
        let kind = Kind::of(ins.opcode).ok_or_else(|| unsupported(i, ins, "this instruction"))?;
        if self.stage != ProgramType::Pixel {
            return Err(unsupported(i, ins, "pull-model evaluation outside a pixel shader"));
        }
        let operands = ins.operands();
        let (Some(d), Some(src)) = (operands.first().copied(), operands.get(1).copied()) else {
            return Err(unsupported(i, ins, "a missing operand"));
        };
        let extra = operands.get(2).copied();
        if (kind == Kind::Centroid) != extra.is_none() {
            return Err(unsupported(i, ins, "a missing operand"));
        }
        let r = match (src.ty, src.dims(), src.index(0)) {
            (OperandType::Input, 1, Some(Index::Imm32(r))) => r,
            (OperandType::Input, 1, Some(_)) => {
                return Err(unsupported(i, ins, "pull-model evaluation of a relatively indexed input (v[r# + k])"))
            }
            _ => return Err(unsupported(i, ins, "pull-model evaluation of an operand that is not an input v#")),
        };
        let Some((mask, svs, interp)) = self.inputs.get(&r).cloned() else {
            return Err(unsupported(i, ins, format!("pull-model evaluation of the undeclared input v{r}")));
        };
        let elem = if mask == 0 {
            None
        } else {
            Some(sig_elem(self.isgn, r).map_err(|what| TranslateError::Signature { register: format!("v{r}"), what })?)
        };
        let constant = interp == InterpolationMode::Constant || matches!(elem, Some(Elem::U | Elem::I));
        let value = if constant {
            self.register(i, ins, &src)?
        } else {
            if elem.is_none() || !svs.is_empty() {
                return Err(unsupported(i, ins, format!("pull-model evaluation of a system value (v{r})")));
            }
            let marker = Marker { kind, register: r, index: i };
            let name = marker.name();
            let (param, arg) = match (kind, extra) {
                (Kind::SampleIndex, Some(o)) => {
                    let v = self.src_vec_as(i, ins, &o, Ty::I)?;
                    ("dx_sample: i32", format!("bitcast<i32>({v}.x)"))
                }
                // The offset's low 4 bits, signed sixteenths of a pixel (16.5.3): the
                // sign extended as ((x & 15) ^ 8) - 8.
                (Kind::Snapped, Some(o)) => {
                    let v = self.src_vec_as(i, ins, &o, Ty::I)?;
                    (
                        "dx_offset: vec2<f32>",
                        format!(
                            "vec2<f32>(bitcast<vec2<i32>>(({v}.xy & vec2<u32>(15u)) ^ vec2<u32>(8u)) - vec2<i32>(8)) * \
                             0.0625"
                        ),
                    )
                }
                _ => ("", String::new()),
            };
            let _ =
                write!(self.pull_functions, "fn {name}({param}) -> vec4<f32> {{\n    return vec4<f32>(0.0);\n}}\n\n");
            format!("bitcast<vec4<u32>>({name}({arg}))")
        };
        let Some(place) = self.dst(i, ins, &d)? else { return Ok(()) };
        self.line("{");
        self.depth = self.depth.saturating_add(1);
        self.line(&format!("let q0 = {};", selected(value, &src, Ty::F)));
        for c in 0..4 {
            if place.2 & (1 << c) != 0 {
                let f = if sat { "dx_sat" } else { "dx_r" };
                self.write(&place, c, &format!("{f}(bitcast<f32>(q0.{}))", comp(c)));
            }
        }
        self.close();
        Ok(())
    }

    fn arith(
        &mut self,
        i: usize,
        ins: &InstructionRef<'_, '_>,
        sat: bool,
        row: ops::Row,
        ndst: usize,
        src: &[Ty],
    ) -> R<()> {
        if ops::is_double(ins.opcode) {
            return self.arith_double(i, ins, sat, row, src);
        }
        self.bind_sources(i, ins, ndst, src)?;
        let scalar = |k: usize, c: usize| -> String {
            let s = format!("q{k}.{}", comp(c));
            if row.raw {
                return s;
            }
            match src.get(k) {
                Some(Ty::F) => format!("dx_f({s})"),
                Some(Ty::I) => format!("bitcast<i32>({s})"),
                _ => s,
            }
        };
        for (d, dst_row) in row.dst.iter().enumerate().take(ndst) {
            let Some(o) = ins.operands().get(d).copied() else { continue };
            let Some(place) = self.dst(i, ins, &o)? else { continue };
            for c in 0..4 {
                if place.2 & (1 << c) == 0 {
                    continue;
                }
                let cc = if row.replicate { 0 } else { c };
                let mut e = dst_row.expr.to_string();
                for k in (0..4).rev() {
                    for (f, letter) in XYZW.iter().enumerate() {
                        e = e.replace(&format!("${k}{letter}"), &scalar(k, f));
                    }
                    e = e.replace(&format!("${k}"), &scalar(k, cc));
                }
                let value = match (dst_row.res, sat) {
                    (Res::F, false) => format!("dx_r({e})"),
                    (Res::F, true) => format!("dx_sat({e})"),
                    (Res::FBits, false) => e,
                    (Res::FBits, true) => format!("dx_sat(bitcast<f32>({e}))"),
                    (Res::I, _) => format!("bitcast<u32>({e})"),
                    (Res::U, _) => e,
                    (Res::B, _) => format!("select(0u, 0xffffffffu, {e})"),
                    // Only `double` rows have double results.
                    (Res::D, _) => e,
                };
                let value = if sat && matches!(ins.opcode, Opcode::Mov | Opcode::Movc) {
                    format!("dx_sat(bitcast<f32>({value}))")
                } else {
                    value
                };
                self.write(&place, c, &value);
            }
        }
        self.close();
        Ok(())
    }

    /// A `double` row (see [`crate::ops`]): two lanes, `.xy` and `.zw`.
    fn arith_double(&mut self, i: usize, ins: &InstructionRef<'_, '_>, sat: bool, row: ops::Row, src: &[Ty]) -> R<()> {
        self.bind_sources(i, ins, 1, src)?;
        let scalar = |k: usize, lane: usize| -> String {
            match src.get(k) {
                Some(Ty::D) => {
                    format!("dx_d(q{k}.{}, q{k}.{})", comp(lane.saturating_mul(2)), comp(lane.saturating_mul(2) | 1))
                }
                Some(Ty::F) => format!("dx_f(q{k}.{})", comp(lane)),
                Some(Ty::I) => format!("bitcast<i32>(q{k}.{})", comp(lane)),
                _ => format!("q{k}.{}", comp(lane)),
            }
        };
        let Some(dst_row) = row.dst.first() else { return Ok(()) };
        let lane_expr = |lane: usize| -> String {
            let mut e = dst_row.expr.to_string();
            for k in (0..4).rev() {
                e = e.replace(&format!("${k}"), &scalar(k, lane));
            }
            e
        };
        let Some(o) = ins.operands().first().copied() else { return Ok(()) };
        let Some(place) = self.dst(i, ins, &o)? else {
            self.close();
            return Ok(());
        };
        if dst_row.res == Res::D {
            for lane in 0..2usize {
                let (lo, hi) = (lane.saturating_mul(2), lane.saturating_mul(2) | 1);
                if place.2 & (1 << lo | 1 << hi) == 0 {
                    continue;
                }
                let e = lane_expr(lane);
                let e = if sat { format!("dx_dsat({e})") } else { e };
                self.line(&format!("let d{lane} = {e};"));
                if place.2 & (1 << lo) != 0 {
                    self.write(&place, lo, &format!("dx_dlo(d{lane})"));
                }
                if place.2 & (1 << hi) != 0 {
                    self.write(&place, hi, &format!("dx_dhi(d{lane})"));
                }
            }
        } else {
            // 32-bit results: lane j to the j-th component the mask names.
            let mut lane = 0usize;
            for c in 0..4 {
                if place.2 & (1 << c) == 0 {
                    continue;
                }
                let e = lane_expr(lane);
                let value = match (dst_row.res, sat) {
                    (Res::F, false) => format!("dx_r({e})"),
                    (Res::F, true) => format!("dx_sat({e})"),
                    (Res::I, _) => format!("bitcast<u32>({e})"),
                    (Res::B, _) => format!("select(0u, 0xffffffffu, {e})"),
                    _ => e,
                };
                self.write(&place, c, &value);
                lane = 1;
            }
        }
        self.close();
        Ok(())
    }

    /// The `t#`/`u#`/`g#` operand `k`: its name, what it is, its atomics.
    fn resource(&self, i: usize, ins: &InstructionRef<'_, '_>, k: usize) -> R<(Named, Res2, AtomicUse, Operand)> {
        let o = *ins.operands().get(k).ok_or_else(|| unsupported(i, ins, "a missing operand"))?;
        let r = match (o.ty, self.srv_override) {
            (OperandType::Resource, Some(r)) if self.relative_srv(ins).is_some_and(|(at, _)| at == k) => r,
            _ => o.register().ok_or_else(|| unsupported(i, ins, "a resource index"))? as u32,
        };
        let element = match o.ty {
            OperandType::Resource => self.range_element(i, ins, Class::Srv, &o)?,
            OperandType::UnorderedAccessView => self.range_element(i, ins, Class::Uav, &o)?,
            _ => None,
        };
        let (map, atomics, prefix) = match o.ty {
            OperandType::Resource => (&self.srvs, None, "t"),
            OperandType::UnorderedAccessView => (&self.uavs, Some(&self.uav_atomics), "u"),
            OperandType::ThreadGroupSharedMemory => (&self.tgsm, Some(&self.tgsm_atomics), "g"),
            _ => return Err(unsupported(i, ins, "a resource operand")),
        };
        let res = *map.get(&r).ok_or_else(|| unsupported(i, ins, format!("undeclared {prefix}{r}")))?;
        let a = atomics.and_then(|m| m.get(&r)).copied().unwrap_or_default();
        let base = format!("{prefix}{r}");
        let expr = match (&element, res) {
            (None, _) => base.clone(),
            (Some(k), Res2::Texture { .. }) => format!("{base}[{k}]"),
            // A buffer of a binding array is a struct holding its words.
            (Some(k), _) => format!("{base}[{k}].w"),
        };
        Ok((Named { expr, base, id: r, element }, res, a, o))
    }

    /// The word index of a raw or structured access (sources bound as `q0`, `q1`).
    fn word_base(stride: u32) -> String {
        if stride == 0 {
            "(q0.x >> 2u)".into()
        } else {
            format!("(q0.x * {}u + (q1.x >> 2u))", stride / 4)
        }
    }

    fn ld_words(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        let structured = ins.opcode == Opcode::LdStructured;
        let rk = if structured { 3 } else { 2 };
        let (name, res, atomics, ro) = self.resource(i, ins, rk)?;
        let Res2::Words { stride, .. } = res else { return Err(unsupported(i, ins, "a typed resource")) };
        let stride = if structured { stride } else { 0 };
        let types: &[Ty] = if structured { &[Ty::U, Ty::U] } else { &[Ty::U] };
        self.bind_sources(i, ins, 1, types)?;
        // The element is read once, before a component written can change its index.
        let name = match &name.element {
            Some(k) => {
                self.line(&format!("let dx_e = {k};"));
                name.rebound("dx_e")
            }
            None => name,
        };
        let base = Self::word_base(stride);
        let swz = match ro.selection() {
            Selection::Swizzle(s) => s,
            Selection::Select1(c) => [c; 4],
            _ => [0, 1, 2, 3],
        };
        let dst = *ins.operands().first().ok_or_else(|| unsupported(i, ins, "no destination"))?;
        if let Some(place) = self.dst(i, ins, &dst)? {
            for c in 0..4 {
                if place.2 & (1 << c) == 0 {
                    continue;
                }
                let w = swz.get(c).copied().unwrap_or(0);
                let at = format!("{name}[{base} + {w}u]");
                let v = if atomics.any {
                    let l = format!("atomicLoad(&{at})");
                    if atomics.signed {
                        format!("bitcast<u32>({l})")
                    } else {
                        l
                    }
                } else {
                    at
                };
                self.write(&place, c, &v);
            }
        }
        self.close();
        Ok(())
    }

    fn store_words(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        let structured = ins.opcode == Opcode::StoreStructured;
        let (name, res, atomics, ro) = self.resource(i, ins, 0)?;
        let Res2::Words { stride, .. } = res else { return Err(unsupported(i, ins, "a typed resource")) };
        let stride = if structured { stride } else { 0 };
        let types: &[Ty] = if structured { &[Ty::U, Ty::U, Ty::Any] } else { &[Ty::U, Ty::Any] };
        self.bind_sources(i, ins, 1, types)?;
        let value = if structured { "q2" } else { "q1" };
        let base = Self::word_base(stride);
        let mask = ro.mask().0 & 15;
        for c in 0..4 {
            if mask & (1 << c) == 0 {
                continue;
            }
            let at = format!("{name}[{base} + {c}u]");
            let v = format!("{value}.{}", comp(c));
            if atomics.any {
                let v = if atomics.signed { format!("bitcast<i32>({v})") } else { v };
                self.line(&format!("atomicStore(&{at}, {v});"));
            } else {
                self.line(&format!("{at} = {v};"));
            }
        }
        self.close();
        Ok(())
    }

    fn atomic(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        use Opcode as O;
        let imm = is_imm_atomic(ins.opcode);
        let rk = if imm { 1 } else { 0 };
        let (name, res, atomics, _) = self.resource(i, ins, rk)?;
        let (stride, typed) = match res {
            Res2::Words { stride, .. } => (stride, false),
            // A typed buffer of a 32-bit format (`typed_format` checks it): element = word.
            Res2::Typed { .. } => (0, true),
            Res2::Texture { .. } => return Err(unsupported(i, ins, "atomics on a typed UAV")),
        };
        let nsrc = ins.opcode.info().src.len();
        let types: Vec<Ty> = (0..nsrc).map(|_| Ty::U).collect();
        self.bind_sources(i, ins, rk.saturating_add(1), &types)?;
        // The address: a byte offset (raw), structure index and byte offset, or a typed
        // buffer's element.
        let base = if typed {
            "q0.x".to_string()
        } else if stride == 0 {
            "(q0.x >> 2u)".to_string()
        } else {
            format!("(q0.x * {}u + (q0.y >> 2u))", stride / 4)
        };
        let arg = |k: usize| {
            let v = format!("q{k}.x");
            if atomics.signed {
                format!("bitcast<i32>({v})")
            } else {
                v
            }
        };
        let p = format!("&{name}[{base}]");
        let call = match ins.opcode {
            O::AtomicAnd | O::ImmAtomicAnd => format!("atomicAnd({p}, {})", arg(1)),
            O::AtomicOr | O::ImmAtomicOr => format!("atomicOr({p}, {})", arg(1)),
            O::AtomicXor | O::ImmAtomicXor => format!("atomicXor({p}, {})", arg(1)),
            O::AtomicIadd | O::ImmAtomicIadd => format!("atomicAdd({p}, {})", arg(1)),
            O::AtomicImax | O::ImmAtomicImax | O::AtomicUmax | O::ImmAtomicUmax => {
                format!("atomicMax({p}, {})", arg(1))
            }
            O::AtomicImin | O::ImmAtomicImin | O::AtomicUmin | O::ImmAtomicUmin => {
                format!("atomicMin({p}, {})", arg(1))
            }
            O::ImmAtomicExch => format!("atomicExchange({p}, {})", arg(1)),
            O::AtomicCmpStore | O::ImmAtomicCmpExch => {
                format!("atomicCompareExchangeWeak({p}, {}, {}).old_value", arg(1), arg(2))
            }
            _ => return Err(unsupported(i, ins, "this atomic")),
        };
        let call = if atomics.signed { format!("bitcast<u32>({call})") } else { call };
        let call = if typed {
            // Outside the view an atomic does nothing and returns 0 (checked here: naga's
            // SPIR-V writer clamps the indices of a module with atomics).
            self.line("var old = 0u;");
            self.line(&format!("if (q0.x < arrayLength(&{name})) {{ old = {call}; }}"));
            "old".to_string()
        } else {
            call
        };
        if imm {
            let dst = *ins.operands().first().ok_or_else(|| unsupported(i, ins, "no destination"))?;
            match self.dst(i, ins, &dst)? {
                Some(place) => {
                    let c = (0..4).find(|c| place.2 & (1 << c) != 0).unwrap_or(0);
                    self.write(&place, c, &call);
                }
                None => self.line(&format!("_ = {call};")),
            }
        } else {
            self.line(&format!("_ = {call};"));
        }
        self.close();
        Ok(())
    }

    /// `imm_atomic_alloc` (the counter before its increment) and `imm_atomic_consume`
    /// (the counter after its decrement, wrapping), on the hidden counter of a
    /// structured UAV (Microsoft's pages of the two instructions).
    fn counter(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        let (name, res, _, _) = self.resource(i, ins, 1)?;
        if !matches!(res, Res2::Words { stride, .. } if stride > 0) || !name.base.starts_with('u') {
            return Err(unsupported(i, ins, "a counter of anything but a structured UAV"));
        }
        let call = if ins.opcode == Opcode::ImmAtomicAlloc {
            format!("atomicAdd(&uc{}, 1u)", name.id)
        } else {
            format!("(atomicSub(&uc{}, 1u) - 1u)", name.id)
        };
        let dst = *ins.operands().first().ok_or_else(|| unsupported(i, ins, "no destination"))?;
        match self.dst(i, ins, &dst)? {
            Some(place) => {
                let c = (0..4).find(|c| place.2 & (1 << c) != 0).unwrap_or(0);
                self.write(&place, c, &call);
            }
            None => self.line(&format!("_ = {call};")),
        }
        Ok(())
    }

    /// Writes `value` (a `vec4<u32>` expression), swizzled by the resource operand
    /// `ro`, to destination 0.
    fn write_swizzled(&mut self, i: usize, ins: &InstructionRef<'_, '_>, ro: &Operand, value: &str) -> R<()> {
        self.line(&format!("let res = {value};"));
        let swz = match ro.selection() {
            Selection::Swizzle(s) => s,
            Selection::Select1(c) => [c; 4],
            _ => [0, 1, 2, 3],
        };
        let dst = *ins.operands().first().ok_or_else(|| unsupported(i, ins, "no destination"))?;
        if let Some(place) = self.dst(i, ins, &dst)? {
            for c in 0..4 {
                if place.2 & (1 << c) != 0 {
                    let s = comp(swz.get(c).copied().unwrap_or(0) as usize);
                    self.write(&place, c, &format!("res.{s}"));
                }
            }
        }
        Ok(())
    }

    fn texture(
        &self,
        i: usize,
        ins: &InstructionRef<'_, '_>,
        k: usize,
    ) -> R<(Named, ResourceDimension, Elem, Operand)> {
        let (name, res, _, o) = self.resource(i, ins, k)?;
        match res {
            Res2::Texture { dim, elem } => Ok((name, dim, elem, o)),
            Res2::Words { .. } | Res2::Typed { .. } => Err(unsupported(i, ins, "a buffer here")),
        }
    }

    /// `ld`, `ld_indexable` and `ld_uav_typed` of a typed buffer view: element `a.x`,
    /// converted by the view's format (`dx_ld_t#`), swizzled.
    fn ld_typed(&mut self, i: usize, ins: &InstructionRef<'_, '_>, k: usize) -> R<bool> {
        let (name, res, _, ro) = self.resource(i, ins, k)?;
        if !matches!(res, Res2::Typed { .. }) {
            return Ok(false);
        }
        if ins.opcode == Opcode::LdMs {
            return Err(unsupported(i, ins, "ld2dms on a buffer"));
        }
        self.bind_sources(i, ins, 1, &[Ty::U])?;
        self.write_swizzled(i, ins, &ro, &format!("dx_ld_{}({})", name.base, name.typed_args("q0.x")))?;
        self.close();
        Ok(true)
    }

    fn ld_texture(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        if self.ld_typed(i, ins, 2)? {
            return Ok(());
        }
        let (name, dim, elem, ro) = self.texture(i, ins, 2)?;
        let ms = ins.opcode == Opcode::LdMs;
        let types: &[Ty] = if ms { &[Ty::I, Ty::R, Ty::I] } else { &[Ty::I] };
        self.bind_sources(i, ins, 1, types)?;
        self.line("let a = bitcast<vec4<i32>>(q0);");
        let off = ins.sample_offsets().unwrap_or([0; 3]);
        let o = |c: usize| off.get(c).copied().unwrap_or(0);
        use ResourceDimension as D;
        let args = match (dim, ms) {
            (D::Texture1D, false) => format!("vec2<i32>(a.x + {}, 0), a.w", o(0)),
            (D::Texture1DArray, false) => format!("vec2<i32>(a.x + {}, 0), a.y, a.w", o(0)),
            (D::Texture2D, false) => format!("a.xy + vec2<i32>({}, {}), a.w", o(0), o(1)),
            (D::Texture2DArray, false) => format!("a.xy + vec2<i32>({}, {}), a.z, a.w", o(0), o(1)),
            (D::Texture3D, false) => format!("a.xyz + vec3<i32>({}, {}, {}), a.w", o(0), o(1), o(2)),
            (D::Texture2DMS, true) => format!("a.xy + vec2<i32>({}, {}), bitcast<i32>(q2.x)", o(0), o(1)),
            (D::Texture2DMSArray, true) => {
                format!("a.xy + vec2<i32>({}, {}), a.z, bitcast<i32>(q2.x)", o(0), o(1))
            }
            _ => return Err(unsupported(i, ins, format!("a load from {}", dim_name(dim)))),
        };
        let load = format!("textureLoad({name}, {args})");
        let depth = self.compared.contains(&name.id);
        let value = if depth {
            format!("vec4<u32>(bitcast<u32>({load}), 0u, 0u, 0x3f800000u)")
        } else {
            let _ = elem;
            format!("bitcast<vec4<u32>>({load})")
        };
        self.write_swizzled(i, ins, &ro, &value)?;
        self.close();
        Ok(())
    }

    /// The sampler operand `at` of a sampling instruction and its register: declared and,
    /// when `compare` says, of the comparison mode (`Some(true)`) or not (`Some(false)`).
    fn sampler_operand(
        &mut self,
        i: usize,
        ins: &InstructionRef<'_, '_>,
        at: usize,
        compare: Option<bool>,
    ) -> R<(String, Operand)> {
        let so = *ins.operands().get(at).ok_or_else(|| unsupported(i, ins, "no sampler"))?;
        let s = so.register().ok_or_else(|| unsupported(i, ins, "a sampler index"))? as u32;
        let element = self.range_element(i, ins, Class::Sampler, &so)?;
        let mode = *self.samplers.get(&s).ok_or_else(|| unsupported(i, ins, format!("undeclared s{s}")))?;
        if compare.is_some_and(|c| c != (mode == SamplerMode::Comparison)) {
            return Err(unsupported(i, ins, "a sampler mode that does not match the instruction"));
        }
        let name = match element {
            Some(k) => format!("s{s}[{k}]"),
            None => format!("s{s}"),
        };
        Ok((name, so))
    }

    fn sample(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        use Opcode as O;
        let (name, dim, _elem, ro) = self.texture(i, ins, 2)?;
        let compare = matches!(ins.opcode, O::SampleC | O::SampleCLz | O::Gather4C);
        let (s, so) = self.sampler_operand(i, ins, 3, Some(compare))?;
        let depth = self.compared.contains(&name.id);
        if depth && matches!(ins.opcode, O::SampleB | O::SampleD) {
            return Err(unsupported(
                i,
                ins,
                "a biased or gradient sample of a texture comparing instructions also read (WGSL's depth \
                 textures have no textureSampleBias or textureSampleGrad)",
            ));
        }
        let types = ins.opcode.info().src;
        self.bind_sources(i, ins, 1, types)?;
        self.line("let c = bitcast<vec4<f32>>(q0);");
        use ResourceDimension as D;
        let (coord, layer, n): (&str, Option<&str>, usize) = match dim {
            // Height 1, sampled at its texel centre: v = 0.5 reads row 0 alone under
            // every address mode and filter, and its derivatives are 0.
            D::Texture1D => ("vec2<f32>(c.x, 0.5)", None, 1),
            D::Texture1DArray => ("vec2<f32>(c.x, 0.5)", Some("dx_layer(c.y)"), 1),
            D::Texture2D => ("c.xy", None, 2),
            D::Texture2DArray => ("c.xy", Some("dx_layer(c.z)"), 2),
            D::Texture3D => ("c.xyz", None, 3),
            D::TextureCube => ("c.xyz", None, 3),
            D::TextureCubeArray => ("c.xyz", Some("dx_layer(c.w)"), 3),
            _ => return Err(unsupported(i, ins, format!("sampling {}", dim_name(dim)))),
        };
        let mut args = format!("{name}, {s}, {coord}");
        if let Some(l) = layer {
            let _ = write!(args, ", {l}");
        }
        let fsrc = |k: usize| format!("bitcast<f32>(q{k}.x)");
        let fvec = |k: usize| {
            if n == 1 {
                // A 1D gradient: the v derivative of a height-1 view is 0.
                return format!("vec2<f32>(bitcast<f32>(q{k}.x), 0.0)");
            }
            let sel = ["xy", "xyz"].get(n.saturating_sub(2)).copied().unwrap_or("xy");
            format!("bitcast<vec4<f32>>(q{k}).{sel}")
        };
        let (func, extra) = match ins.opcode {
            O::Sample => ("textureSample", String::new()),
            O::SampleL if depth => ("textureSampleLevel", format!(", i32({})", fsrc(3))),
            O::SampleL => ("textureSampleLevel", format!(", {}", fsrc(3))),
            O::SampleB => ("textureSampleBias", format!(", {}", fsrc(3))),
            O::SampleD => ("textureSampleGrad", format!(", {}, {}", fvec(3), fvec(4))),
            O::SampleC => ("textureSampleCompare", format!(", {}", fsrc(3))),
            O::SampleCLz => ("textureSampleCompareLevel", format!(", {}", fsrc(3))),
            O::Gather4 => ("textureGather", String::new()),
            O::Gather4C => ("textureGatherCompare", format!(", {}", fsrc(3))),
            _ => return Err(unsupported(i, ins, "this sample")),
        };
        let mut call_args = args.clone();
        call_args.push_str(&extra);
        if let Some(off) = ins.sample_offsets().filter(|o| *o != [0; 3]) {
            let [u, v, w] = off;
            match dim {
                D::Texture1D | D::Texture1DArray => {
                    let _ = write!(call_args, ", vec2<i32>({u}, 0)");
                }
                D::Texture2D | D::Texture2DArray => {
                    let _ = write!(call_args, ", vec2<i32>({u}, {v})");
                }
                D::Texture3D => {
                    let _ = write!(call_args, ", vec3<i32>({u}, {v}, {w})");
                }
                _ => return Err(unsupported(i, ins, "texel offsets on this dimension")),
            }
        }
        let call = if ins.opcode == O::Gather4 && !depth {
            format!("{func}({}, {call_args})", gather_channel(&so))
        } else {
            format!("{func}({call_args})")
        };
        let value = match ins.opcode {
            O::SampleC | O::SampleCLz => format!("vec4<u32>(bitcast<u32>({call}))"),
            _ if depth && ins.opcode != O::Gather4C && ins.opcode != O::Gather4 => {
                format!("vec4<u32>(bitcast<u32>({call}), 0u, 0u, 0x3f800000u)")
            }
            _ => format!("bitcast<vec4<u32>>({call})"),
        };
        self.write_swizzled(i, ins, &ro, &value)?;
        self.close();
        Ok(())
    }

    /// `gather4_po`, `gather4_po_c` (Microsoft's "gather4_po (sm5 - asm)" page): a
    /// gather of mip 0 of a 2D texture (array) with the offsets of a register, of which
    /// the low 6 bits of x and y count, sign-extended ([-32, 31]). WGSL's texel offsets
    /// are constant expressions (and only [-8, 7]), so the gather is at the coordinate
    /// moved by offset / size: the same texels when the size is a power of two (the
    /// quotient and the sum are exact for any address a texture of up to 2^14 texels
    /// tells apart); otherwise the quotient's rounding can move an address lying within
    /// an ulp of a texel boundary across it.
    fn gather_po(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        let compare = ins.opcode == Opcode::Gather4PoC;
        let (name, dim, _elem, ro) = self.texture(i, ins, 3)?;
        let (s, so) = self.sampler_operand(i, ins, 4, Some(compare))?;
        use ResourceDimension as D;
        let layer = match dim {
            D::Texture2D => "",
            D::Texture2DArray => ", dx_layer(c.z)",
            _ => return Err(unsupported(i, ins, format!("gather4_po of {}", dim_name(dim)))),
        };
        let depth = self.compared.contains(&name.id);
        self.bind_sources(i, ins, 1, ins.opcode.info().src)?;
        self.line("let c = bitcast<vec4<f32>>(q0);");
        self.line("let po = (bitcast<vec2<i32>>(q1.xy) << vec2<u32>(26u)) >> vec2<u32>(26u);");
        self.line(&format!("let at = c.xy + vec2<f32>(po) / vec2<f32>(textureDimensions({name}));"));
        let call = if compare {
            format!("textureGatherCompare({name}, {s}, at{layer}, bitcast<f32>(q4.x))")
        } else if depth {
            format!("textureGather({name}, {s}, at{layer})")
        } else {
            format!("textureGather({}, {name}, {s}, at{layer})", gather_channel(&so))
        };
        self.write_swizzled(i, ins, &ro, &format!("bitcast<vec4<u32>>({call})"))?;
        self.close();
        Ok(())
    }

    /// `lod` (Microsoft's "lod (sm4.1 - asm)" page): (the LOD a sample would use, the
    /// LOD computed from the derivatives, 0, 0), swizzled. WGSL has no LOD query, so it
    /// is computed as the reference computes it (D3D11.3 functional spec 7.18.11): the
    /// coarse x and y derivatives of the address, scaled by mip 0's size (for a cube,
    /// moved onto the face the address points into), `dx_lod_of`; the clamped value is
    /// that clamped to the view's levels (a NaN gives 0). The sampler's MinLOD, MaxLOD
    /// and MipLODBias are not in the shader: the clamped value is the one of a sampler
    /// with the defaults (bias 0, no LOD clamp).
    fn lod(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        if self.program.version.ty != ProgramType::Pixel || self.vertex_as_compute {
            return Err(unsupported(i, ins, "lod outside a pixel shader (it needs a pixel quad's derivatives)"));
        }
        let (name, dim, _elem, ro) = self.texture(i, ins, 2)?;
        self.sampler_operand(i, ins, 3, None)?;
        use ResourceDimension as D;
        let raw = match dim {
            D::Texture1D | D::Texture1DArray => {
                "dx_lod_of(vec3<f32>(dx.x * sz.x, 0.0, 0.0), vec3<f32>(dy.x * sz.x, 0.0, 0.0), false)"
            }
            D::Texture2D | D::Texture2DArray => {
                "dx_lod_of(vec3<f32>(dx.x * sz.x, dx.y * sz.y, 0.0), vec3<f32>(dy.x * sz.x, dy.y * sz.y, 0.0), true)"
            }
            D::Texture3D => {
                "dx_lod_of(vec3<f32>(dx.x * sz.x, dx.y * sz.y, dx.z * sz.z), \
                 vec3<f32>(dy.x * sz.x, dy.y * sz.y, dy.z * sz.z), true)"
            }
            D::TextureCube | D::TextureCubeArray => "dx_lod_cube(sz.x, a.xyz, dx.xyz, dy.xyz)",
            _ => return Err(unsupported(i, ins, format!("lod of {}", dim_name(dim)))),
        };
        self.bind_sources(i, ins, 1, &[Ty::F])?;
        self.line("let a = dx_ftz4(bitcast<vec4<f32>>(q0));");
        self.line("let dx = dx_ftz4(dpdxCoarse(a));");
        self.line("let dy = dx_ftz4(dpdyCoarse(a));");
        let size = if dim == D::Texture3D {
            format!("vec3<f32>(textureDimensions({name}))")
        } else {
            format!("vec3<f32>(vec2<f32>(textureDimensions({name})), 1.0)")
        };
        self.line(&format!("let sz = {size};"));
        self.line(&format!("let raw = {raw};"));
        self.line(&format!(
            "let used = select(clamp(raw, 0.0, f32(textureNumLevels({name}) - 1u)), 0.0, dx_isnan(bitcast<u32>(raw)));"
        ));
        self.write_swizzled(i, ins, &ro, "vec4<u32>(dx_r(used), dx_r(raw), 0u, 0u)")?;
        self.close();
        Ok(())
    }

    fn resinfo(&mut self, i: usize, ins: &InstructionRef<'_, '_>, control: OpControl) -> R<()> {
        let (name, dim, _, ro) = self.texture(i, ins, 2)?;
        self.bind_sources(i, ins, 1, &[Ty::U])?;
        use ResourceDimension as D;
        let ms = matches!(dim, D::Texture2DMS | D::Texture2DMSArray);
        if ms {
            self.line("let lv = 0u;");
            self.line("let nl = 1u;");
            self.line(&format!("let d = textureDimensions({name});"));
        } else {
            self.line("let lv = q0.x;");
            self.line(&format!("let nl = textureNumLevels({name});"));
            self.line(&format!("let d = textureDimensions({name}, min(lv, nl - 1u));"));
        }
        let layers = format!("textureNumLayers({name})");
        let (x, y, z) = match dim {
            D::Texture1D => ("d.x", "0u".to_string(), "0u".to_string()),
            D::Texture1DArray => ("d.x", layers, "0u".to_string()),
            D::Texture2D | D::TextureCube | D::Texture2DMS => ("d.x", "d.y".into(), "0u".into()),
            D::Texture2DArray | D::TextureCubeArray | D::Texture2DMSArray => ("d.x", "d.y".into(), layers),
            D::Texture3D => ("d.x", "d.y".into(), "d.z".into()),
            _ => return Err(unsupported(i, ins, format!("resinfo on {}", dim_name(dim)))),
        };
        self.line(&format!("let q = select(vec3<u32>({x}, {y}, {z}), vec3<u32>(0u), lv >= nl);"));
        let value = match control {
            OpControl::ResInfo(ResInfoReturnType::Uint) => "vec4<u32>(q, nl)".to_string(),
            OpControl::ResInfo(ResInfoReturnType::RcpFloat) => {
                "vec4<u32>(bitcast<vec3<u32>>(vec3<f32>(1.0) / vec3<f32>(q)), bitcast<u32>(f32(nl)))".to_string()
            }
            _ => "bitcast<vec4<u32>>(vec4<f32>(vec3<f32>(q), f32(nl)))".to_string(),
        };
        self.write_swizzled(i, ins, &ro, &value)?;
        self.close();
        Ok(())
    }

    /// `sampleinfo` (the sample count in x) and `samplepos` (sample `i`'s position in
    /// the standard pattern of the view's count, `dx_samplepos`) of a texture: 0 for a
    /// view that is not multisampled. The rasterizer's count has no WGSL form.
    fn sample_query(&mut self, i: usize, ins: &InstructionRef<'_, '_>, control: OpControl) -> R<()> {
        // The resource is source 0 of both: operand 1.
        let k = 1;
        let o = ins.operands().get(k).copied().ok_or_else(|| unsupported(i, ins, "a missing operand"))?;
        if o.ty == OperandType::Rasterizer {
            return Err(unsupported(i, ins, "the rasterizer's sample pattern (WGSL has no sample-count query for it)"));
        }
        let (name, dim, _, ro) = self.texture(i, ins, k)?;
        let ms = dim == ResourceDimension::Texture2DMS;
        let types: &[Ty] = if ins.opcode == Opcode::SamplePos { &[Ty::R, Ty::U] } else { &[Ty::R] };
        self.bind_sources(i, ins, 1, types)?;
        let count = if ms { format!("textureNumSamples({name})") } else { "0u".into() };
        let value = if ins.opcode == Opcode::SamplePos {
            format!("bitcast<vec4<u32>>(vec4<f32>(dx_samplepos({count}, q1.x), 0.0, 0.0))")
        } else if control == OpControl::ReturnType(tpf::InstructionReturnType::Uint) {
            format!("vec4<u32>({count}, 0u, 0u, 0u)")
        } else {
            format!("vec4<u32>(bitcast<u32>(f32({count})), 0u, 0u, 0u)")
        };
        self.write_swizzled(i, ins, &ro, &value)?;
        self.close();
        Ok(())
    }

    fn bufinfo(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        let (name, res, _, ro) = self.resource(i, ins, 1)?;
        if let Res2::Typed { elem } = res {
            // The element count: the view's bytes / the element size.
            let class = if name.base.starts_with('u') { Class::Uav } else { Class::Srv };
            let format = self.typed_format(class, name.id, elem)?;
            self.bind_sources(i, ins, 1, &[])?;
            let n = buffer_format::element_count(format, &name.expr);
            self.write_swizzled(i, ins, &ro, &format!("vec4<u32>({n})"))?;
            self.close();
            return Ok(());
        }
        let Res2::Words { stride, .. } = res else { return Err(unsupported(i, ins, "bufinfo on a texture")) };
        if name.base.starts_with('g') {
            return Err(unsupported(i, ins, "bufinfo on shared memory"));
        }
        self.bind_sources(i, ins, 1, &[])?;
        let words = format!("arrayLength(&{name})");
        let n = if stride == 0 { format!("({words} * 4u)") } else { format!("({words} * 4u / {stride}u)") };
        self.write_swizzled(i, ins, &ro, &format!("vec4<u32>({n})"))?;
        self.close();
        Ok(())
    }

    fn uav_coord(&self, i: usize, ins: &InstructionRef<'_, '_>, dim: ResourceDimension) -> R<String> {
        use ResourceDimension as D;
        Ok(match dim {
            D::Texture1D => "vec2<u32>(q0.x, 0u)".into(),
            D::Texture1DArray => "vec2<u32>(q0.x, 0u), q0.y".into(),
            D::Texture2D => "q0.xy".into(),
            D::Texture2DArray => "q0.xy, q0.z".into(),
            D::Texture3D => "q0.xyz".into(),
            _ => return Err(unsupported(i, ins, format!("a typed UAV of dimension {}", dim_name(dim)))),
        })
    }

    fn ld_uav_typed(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        if self.ld_typed(i, ins, 2)? {
            return Ok(());
        }
        let (name, dim, _, ro) = self.texture(i, ins, 2)?;
        self.bind_sources(i, ins, 1, &[Ty::U])?;
        let coord = self.uav_coord(i, ins, dim)?;
        self.write_swizzled(i, ins, &ro, &format!("bitcast<vec4<u32>>(textureLoad({name}, {coord}))"))?;
        self.close();
        Ok(())
    }

    fn store_uav_typed(&mut self, i: usize, ins: &InstructionRef<'_, '_>) -> R<()> {
        let (name, res, _, _) = self.resource(i, ins, 0)?;
        if matches!(res, Res2::Typed { .. }) {
            // Every component is written (the format takes those it has).
            self.bind_sources(i, ins, 1, &[Ty::U, Ty::Any])?;
            self.line(&format!("dx_st_{}({});", name.base, name.typed_args("q0.x, q1")));
            self.close();
            return Ok(());
        }
        let (name, dim, elem, _) = self.texture(i, ins, 0)?;
        self.bind_sources(i, ins, 1, &[Ty::U, Ty::Any])?;
        let coord = self.uav_coord(i, ins, dim)?;
        self.line(&format!("textureStore({name}, {coord}, bitcast<vec4<{}>>(q1));", elem.wgsl()));
        self.close();
        Ok(())
    }

    /// The whole module source: prelude, globals, `dx_run`, the entry point.
    fn finish(self, entry: &str) -> R<String> {
        if self.vertex_as_compute {
            return self.finish_vertex_as_compute(entry);
        }
        let mut s = String::new();
        if self.inputs.values().any(|(_, svs, _)| svs.iter().any(|(n, _)| *n == SystemName::PrimitiveId)) {
            s.push_str("enable primitive_index;\n");
        }
        if self.stage == ProgramType::Vertex
            && self.outputs.values().any(|(_, svs)| {
                svs.iter().any(|(n, _)| matches!(n, SystemName::ClipDistance | SystemName::CullDistance))
            })
        {
            s.push_str("enable clip_distances;\n");
        }
        s.push_str(enables(&self.globals));
        s.push_str("diagnostic(off, derivative_uniformity);\n\n");
        s.push_str(crate::PRELUDE);
        s.push('\n');
        s.push_str(&self.globals);
        s.push_str("\nfn dx_run() {\n");
        s.push_str(&self.body);
        s.push_str("}\n\n");
        s.push_str(&self.functions);
        s.push_str(&self.pull_functions);
        let mut args: Vec<String> = Vec::new();
        let mut copy = String::new();
        let mut out_fields: Vec<String> = Vec::new();
        let mut out_values: Vec<String> = Vec::new();
        let mut clip: Vec<String> = Vec::new();
        let mut cull: Vec<String> = Vec::new();
        match self.stage {
            ProgramType::Compute => {
                args.push("@builtin(global_invocation_id) dx_tid: vec3<u32>".into());
                args.push("@builtin(workgroup_id) dx_gid: vec3<u32>".into());
                args.push("@builtin(local_invocation_id) dx_ltid: vec3<u32>".into());
                args.push("@builtin(local_invocation_index) dx_lidx: u32".into());
                copy.push_str(
                    "    vThreadID = dx_tid;\n    vThreadGroupID = dx_gid;\n    vThreadIDInGroup = dx_ltid;\n    \
                     vThreadIDInGroupFlattened = dx_lidx;\n",
                );
            }
            _ => {
                for (&r, (mask, svs, interp)) in &self.inputs {
                    if *mask != 0 {
                        let elem = sig_elem(self.isgn, r)
                            .map_err(|what| TranslateError::Signature { register: format!("v{r}"), what })?;
                        let interp_attr = match (self.stage, elem, interp) {
                            (ProgramType::Pixel, Elem::F, InterpolationMode::Constant) => "@interpolate(flat) ",
                            (ProgramType::Pixel, Elem::F, InterpolationMode::LinearCentroid) => {
                                "@interpolate(perspective, centroid) "
                            }
                            (ProgramType::Pixel, Elem::F, InterpolationMode::LinearSample) => {
                                "@interpolate(perspective, sample) "
                            }
                            (ProgramType::Pixel, Elem::F, InterpolationMode::LinearNoPerspective) => {
                                "@interpolate(linear) "
                            }
                            (ProgramType::Pixel, Elem::F, InterpolationMode::LinearNoPerspectiveCentroid) => {
                                "@interpolate(linear, centroid) "
                            }
                            (ProgramType::Pixel, Elem::F, InterpolationMode::LinearNoPerspectiveSample) => {
                                "@interpolate(linear, sample) "
                            }
                            (ProgramType::Pixel, Elem::U | Elem::I, _) => "@interpolate(flat) ",
                            _ => "",
                        };
                        args.push(format!("@location({r}) {interp_attr}dx_in{r}: vec4<{}>", elem.wgsl()));
                        let _ = writeln!(copy, "    v[{r}] = bitcast<vec4<u32>>(dx_in{r});");
                    }
                    for (name, m) in svs {
                        let (builtin, ty, value) = match (self.stage, name) {
                            (ProgramType::Vertex, SystemName::VertexId) => {
                                ("vertex_index", "u32", "vec4<u32>(dx_sv)".to_string())
                            }
                            (ProgramType::Vertex, SystemName::InstanceId) => {
                                ("instance_index", "u32", "vec4<u32>(dx_sv)".into())
                            }
                            // Direct3D's `SV_Position.w` in a pixel shader is the clip-space
                            // w; WGSL's (like SPIR-V's `FragCoord`) is its reciprocal.
                            (ProgramType::Pixel, SystemName::Position) => (
                                "position",
                                "vec4<f32>",
                                "bitcast<vec4<u32>>(vec4<f32>(dx_sv.xyz, 1.0 / dx_sv.w))".into(),
                            ),
                            (ProgramType::Pixel, SystemName::IsFrontFace) => {
                                ("front_facing", "bool", "vec4<u32>(select(0u, 0xffffffffu, dx_sv))".into())
                            }
                            (ProgramType::Pixel, SystemName::SampleIndex) => {
                                ("sample_index", "u32", "vec4<u32>(dx_sv)".into())
                            }
                            (ProgramType::Pixel, SystemName::PrimitiveId) => {
                                ("primitive_index", "u32", "vec4<u32>(dx_sv)".into())
                            }
                            _ => {
                                return Err(TranslateError::SystemValue {
                                    register: format!("v{r}"),
                                    name: name.listing_name().unwrap_or("unknown").to_string(),
                                })
                            }
                        };
                        let arg = format!("dx_sv{r}_{builtin}");
                        args.push(format!("@builtin({builtin}) {arg}: {ty}"));
                        let value = value.replace("dx_sv", &arg);
                        for c in 0..4 {
                            if m & (1 << c) != 0 {
                                let _ = writeln!(copy, "    v[{r}].{} = ({value}).{};", comp(c), comp(c));
                            }
                        }
                    }
                }
                for (&r, (mask, svs)) in &self.outputs {
                    if *mask != 0 {
                        let elem = sig_elem(self.osgn, r)
                            .map_err(|what| TranslateError::Signature { register: format!("o{r}"), what })?;
                        let interp = if self.stage == ProgramType::Vertex && elem != Elem::F {
                            "@interpolate(flat) "
                        } else {
                            ""
                        };
                        out_fields.push(format!("@location({r}) {interp}dx_out{r}: vec4<{}>", elem.wgsl()));
                        out_values.push(format!("bitcast<vec4<{}>>(o[{r}])", elem.wgsl()));
                    }
                    for (name, m) in svs {
                        match (self.stage, name) {
                            (ProgramType::Vertex, SystemName::Position) => {
                                out_fields.push("@builtin(position) dx_position: vec4<f32>".into());
                                out_values.push(format!("bitcast<vec4<f32>>(o[{r}])"));
                            }
                            (ProgramType::Vertex, SystemName::ClipDistance | SystemName::CullDistance) => {
                                // In register and component order: one array each.
                                let distances = if *name == SystemName::ClipDistance { &mut clip } else { &mut cull };
                                for c in 0..4 {
                                    if m & (1 << c) != 0 {
                                        distances.push(format!("bitcast<f32>(o[{r}].{})", comp(c)));
                                    }
                                }
                            }
                            _ => {
                                return Err(TranslateError::SystemValue {
                                    register: format!("o{r}"),
                                    name: name.listing_name().unwrap_or("unknown").to_string(),
                                })
                            }
                        }
                    }
                }
                if !clip.is_empty() {
                    if clip.len() > 8 {
                        return Err(TranslateError::SystemValue {
                            register: "o#".into(),
                            name: "clip_distance (more than 8 components)".into(),
                        });
                    }
                    out_fields.push(format!("@builtin(clip_distances) dx_clip: array<f32, {}>", clip.len()));
                    out_values.push(format!("array<f32, {}>({})", clip.len(), clip.join(", ")));
                }
                if !cull.is_empty() {
                    // D3D11_CLIP_OR_CULL_DISTANCE_COUNT: 8 of the two together (Vulkan's
                    // maxCombinedClipAndCullDistances is at least 8).
                    if clip.len().saturating_add(cull.len()) > 8 {
                        return Err(TranslateError::SystemValue {
                            register: "o#".into(),
                            name: "cull_distance (more than 8 clip and cull components together)".into(),
                        });
                    }
                    // WGSL has no cull distances: written as a second `clip_distances`
                    // member, which `crate::cull_distances` rebinds to naga's
                    // `CullDistance` once the source is parsed.
                    out_fields.push(format!("@builtin(clip_distances) {CULL_MEMBER}: array<f32, {}>", cull.len()));
                    out_values.push(format!("array<f32, {}>({})", cull.len(), cull.join(", ")));
                }
                if self.out_depth {
                    out_fields.push("@builtin(frag_depth) dx_depth: f32".into());
                    out_values.push("bitcast<f32>(oDepth)".into());
                }
                if self.out_mask {
                    out_fields.push("@builtin(sample_mask) dx_mask: u32".into());
                    out_values.push("oMask".into());
                }
                if self.in_coverage {
                    args.push("@builtin(sample_mask) dx_coverage: u32".into());
                    copy.push_str("    vCoverage = dx_coverage;\n");
                }
            }
        }
        let attr = match self.stage {
            ProgramType::Vertex => "@vertex".to_string(),
            ProgramType::Pixel => match (self.conservative, self.force_early) {
                (_, true) => "@fragment @early_depth_test(force)".to_string(),
                (Some(c), false) => format!("@fragment @early_depth_test({c})"),
                (None, false) => "@fragment".to_string(),
            },
            _ => {
                let [x, y, z] = self.thread_group;
                format!("@compute @workgroup_size({}, {}, {})", x.max(1), y.max(1), z.max(1))
            }
        };
        if self.stage == ProgramType::Vertex && out_fields.iter().all(|f| !f.contains("@builtin(position)")) {
            // WGSL's vertex stage must write a position; a shader without one (feeding a
            // geometry shader or stream output) gets a zero position.
            out_fields.push("@builtin(position) dx_position: vec4<f32>".into());
            out_values.push("vec4<f32>(0.0)".into());
        }
        let ret = if out_fields.is_empty() {
            String::new()
        } else {
            let _ = writeln!(s, "struct DxOutput {{\n    {},\n}}\n", out_fields.join(",\n    "));
            " -> DxOutput".to_string()
        };
        let _ = writeln!(s, "{attr}\nfn {entry}({}){ret} {{", args.join(", "));
        s.push_str(&copy);
        s.push_str("    dx_run();\n");
        if !out_fields.is_empty() {
            let _ = writeln!(s, "    return DxOutput({});", out_values.join(", "));
        }
        s.push_str("}\n");
        Ok(s)
    }
}

impl Gen<'_, '_> {
    /// The module source of a vertex shader written as a compute entry point (the
    /// layout is [`crate::Options::vertex_as_compute`]'s): the body is `dx_run` as for
    /// the vertex stage; the entry point fills `v` from the input buffer and copies
    /// every output register to the output buffer.
    fn finish_vertex_as_compute(self, entry: &str) -> R<String> {
        let group = crate::VERTEX_AS_COMPUTE_GROUP;
        let mut s = String::from(enables(&self.globals));
        s.push_str("diagnostic(off, derivative_uniformity);\n\n");
        s.push_str(crate::PRELUDE);
        s.push('\n');
        s.push_str(&self.globals);
        s.push_str("\nfn dx_run() {\n");
        s.push_str(&self.body);
        s.push_str("}\n\n");
        s.push_str(&self.functions);
        let n_in = self.inputs.keys().max().map_or(0, |m| m.saturating_add(1));
        let n_out = self.outputs.keys().max().map_or(0, |m| m.saturating_add(1));
        if n_in > 0 {
            let _ = writeln!(s, "@group({group}) @binding(0) var<storage, read> dx_vin: array<vec4<u32>>;");
        }
        if n_out > 0 {
            let _ = writeln!(s, "@group({group}) @binding(1) var<storage, read_write> dx_vout: array<vec4<u32>>;");
        }
        let _ = writeln!(
            s,
            "\n@compute @workgroup_size({})\nfn {entry}(@builtin(global_invocation_id) dx_tid: vec3<u32>) {{",
            crate::VERTEX_AS_COMPUTE_WORKGROUP
        );
        s.push_str("    let dx_i = dx_tid.x;\n");
        if n_out > 0 {
            let _ = writeln!(s, "    if dx_i >= arrayLength(&dx_vout) / {n_out}u {{\n        return;\n    }}");
        }
        for (&r, (mask, svs, _)) in &self.inputs {
            if *mask != 0 {
                let _ = writeln!(s, "    v[{r}] = dx_vin[dx_i * {n_in}u + {r}u];");
            }
            for (name, m) in svs {
                let value = match name {
                    SystemName::VertexId => "dx_i",
                    SystemName::InstanceId => "0u",
                    _ => {
                        return Err(TranslateError::SystemValue {
                            register: format!("v{r}"),
                            name: name.listing_name().unwrap_or("unknown").to_string(),
                        })
                    }
                };
                for c in 0..4 {
                    if m & (1 << c) != 0 {
                        let _ = writeln!(s, "    v[{r}].{} = {value};", comp(c));
                    }
                }
            }
        }
        s.push_str("    dx_run();\n");
        for r in 0..n_out {
            let _ = writeln!(s, "    dx_vout[dx_i * {n_out}u + {r}u] = o[{r}];");
        }
        s.push_str("}\n");
        Ok(s)
    }
}

/// A source's selection and modifier applied to `base` (a `vec4<u32>` of bits) for a
/// slot of type `ty`: a float slot's modifier acts on every component's sign bit, a
/// double slot's on the high words' (`.y`, `.w`), an integer or typeless slot's as
/// two's complement.
fn selected(base: String, o: &Operand, ty: Ty) -> String {
    let mut v = match o.selection() {
        Selection::Swizzle(s) if s != [0, 1, 2, 3] => {
            format!("{base}.{}", s.iter().map(|&c| comp(c as usize)).collect::<String>())
        }
        Selection::Select1(c) => {
            let c = comp(c as usize);
            format!("{base}.{c}{c}{c}{c}")
        }
        _ => base,
    };
    use tpf::Modifier as M;
    let m = o.modifier();
    if ty == Ty::D {
        let (sign, rest) =
            ("vec4<u32>(0u, 0x80000000u, 0u, 0x80000000u)", "vec4<u32>(~0u, 0x7fffffffu, ~0u, 0x7fffffffu)");
        match m {
            M::Neg => v = format!("({v} ^ {sign})"),
            M::Abs => v = format!("({v} & {rest})"),
            M::AbsNeg => v = format!("({v} | {sign})"),
            _ => {}
        }
    } else if matches!(ty, Ty::F | Ty::Any) {
        match m {
            M::Neg => v = format!("({v} ^ vec4<u32>(0x80000000u))"),
            M::Abs => v = format!("({v} & vec4<u32>(0x7fffffffu))"),
            M::AbsNeg => v = format!("({v} | vec4<u32>(0x80000000u))"),
            _ => {}
        }
    } else {
        match m {
            M::Neg => v = format!("(vec4<u32>(0u) - {v})"),
            M::Abs => v = format!("bitcast<vec4<u32>>(abs(bitcast<vec4<i32>>({v})))"),
            M::AbsNeg => v = format!("(vec4<u32>(0u) - bitcast<vec4<u32>>(abs(bitcast<vec4<i32>>({v}))))"),
            _ => {}
        }
    }
    v
}

fn cond_text(c: &str, test: Test) -> String {
    match test {
        Test::Zero => format!("{c} == 0u"),
        Test::NonZero => format!("{c} != 0u"),
    }
}

/// The enable directives module-scope declarations `globals` need: naga's
/// `wgpu_binding_array` for the binding arrays of Shader Model 5.1 ranges.
pub(crate) fn enables(globals: &str) -> &'static str {
    if globals.contains(": binding_array<") {
        "enable wgpu_binding_array;\n"
    } else {
        ""
    }
}

/// A typed buffer function (`fn dx_ld_t2(i: u32...`) of a binding array's element:
/// with the element `dx_k` as its first parameter.
fn element_parameter(function: String, array: bool) -> String {
    if array {
        function.replacen("(i: u32", "(dx_k: u32, i: u32", 1)
    } else {
        function
    }
}

/// What a uniformly indexed resource is, from the instruction's extended tokens (its
/// slots have no declaration of their own).
fn srv_of_instruction(ins: &InstructionRef<'_, '_>) -> Option<Res2> {
    let mut dim = None;
    let mut elem = None;
    for e in ins.ext() {
        match e {
            tpf::ExtOpcode::ResourceDim { dim: d, stride, .. } => dim = Some((*d, u32::from(*stride))),
            tpf::ExtOpcode::ReturnType { types, .. } => elem = types.first().copied().and_then(elem_of),
            _ => {}
        }
    }
    let (dim, stride) = dim?;
    Some(match dim {
        ResourceDimension::RawBuffer => Res2::Words { stride: 0, bytes: 0 },
        ResourceDimension::StructuredBuffer => Res2::Words { stride, bytes: 0 },
        ResourceDimension::Buffer => Res2::Typed { elem: elem? },
        dim => Res2::Texture { dim, elem: elem? },
    })
}

fn elem_of(t: ReturnType) -> Option<Elem> {
    match t {
        ReturnType::Float | ReturnType::Unorm | ReturnType::Snorm => Some(Elem::F),
        ReturnType::Uint => Some(Elem::U),
        ReturnType::Sint => Some(Elem::I),
        _ => None,
    }
}

fn elem_format(e: Elem) -> &'static str {
    match e {
        Elem::F => "float",
        Elem::U => "uint",
        Elem::I => "sint",
    }
}

fn word_type(a: AtomicUse, name: &str) -> R<&'static str> {
    if a.signed && a.unsigned_order {
        return Err(TranslateError::Resource {
            register: name.into(),
            what: "signed and unsigned atomic min/max on one resource".into(),
        });
    }
    Ok(match (a.any, a.signed) {
        (false, _) => "u32",
        (true, false) => "atomic<u32>",
        (true, true) => "atomic<i32>",
    })
}

fn texture_type(dim: ResourceDimension, elem: Elem, depth: bool) -> Option<String> {
    use ResourceDimension as D;
    if depth {
        return Some(
            match dim {
                D::Texture1D | D::Texture2D => "texture_depth_2d",
                D::Texture1DArray | D::Texture2DArray => "texture_depth_2d_array",
                D::TextureCube => "texture_depth_cube",
                D::TextureCubeArray => "texture_depth_cube_array",
                _ => return None,
            }
            .into(),
        );
    }
    let d = match dim {
        // 1D views are 2D views of height 1: WGSL has no 1D array, and its `texture_1d`
        // has neither mipmaps (in WebGPU) nor level, bias, gradient or offset sampling.
        D::Texture1D | D::Texture2D => "texture_2d",
        D::Texture1DArray | D::Texture2DArray => "texture_2d_array",
        D::Texture3D => "texture_3d",
        D::TextureCube => "texture_cube",
        D::TextureCubeArray => "texture_cube_array",
        D::Texture2DMS => "texture_multisampled_2d",
        _ => return None,
    };
    Some(format!("{d}<{}>", elem.wgsl()))
}

/// The element type of signature register `r` (float when the signature does not say).
fn sig_elem(sig: &Signature, r: u32) -> Result<Elem, String> {
    let mut found: Option<Elem> = None;
    for e in sig.iter().filter(|e| e.register == r) {
        let t = match e.component_type {
            1 => Elem::U,
            2 => Elem::I,
            _ => Elem::F,
        };
        if found.is_some_and(|f| f != t) {
            return Err("elements of different component types in one register".into());
        }
        found = Some(t);
    }
    Ok(found.unwrap_or(Elem::F))
}

fn is_atomic(op: Opcode) -> bool {
    (Opcode::AtomicAnd as u16..=Opcode::ImmAtomicUmin as u16).contains(&(op as u16))
}

fn is_imm_atomic(op: Opcode) -> bool {
    (Opcode::ImmAtomicAlloc as u16..=Opcode::ImmAtomicUmin as u16).contains(&(op as u16))
}

/// fxc's name of a resource dimension (`texture1darray`).
fn dim_name(dim: ResourceDimension) -> String {
    dim.listing_name().unwrap_or("unknown").to_string()
}

/// fxc's prefix of a register file (`vPrim`, `oDepth`...).
fn file_name(ty: OperandType) -> &'static str {
    ty.listing_name().unwrap_or("unknown")
}

/// A misnesting in words.
fn block_error<T>(e: &BlockError<T>) -> String {
    match e {
        BlockError::Unopened { expected, innermost: Some(k) } => {
            format!("closes `{}` but the innermost open block is `{}`", expected.opener(), k.opener())
        }
        BlockError::Unopened { expected, innermost: None } => format!("no `{}` is open", expected.opener()),
        BlockError::SecondElse => "a second `else`".into(),
        BlockError::SecondDefault => "a second `default`".into(),
        BlockError::CaseOutsideSwitch => "outside a `switch`".into(),
        BlockError::BreakOutside => "outside every `loop` and `switch`".into(),
        BlockError::ContinueOutside => "outside every `loop`".into(),
        BlockError::NotClosed(b) => format!("`{}` is not closed", b.kind.opener()),
    }
}

/// The channel a `gather4` reads: the sampler operand's selected component.
fn gather_channel(so: &Operand) -> u8 {
    match so.selection() {
        Selection::Select1(c) => c,
        Selection::Swizzle(sw) => sw[0],
        _ => 0,
    }
}
