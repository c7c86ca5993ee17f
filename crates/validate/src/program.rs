//! The rules about the program itself: the version against the API, feature level and
//! create call; every instruction and register against the `tpf` tables (stage,
//! shader model, UAV access); register files and resource limits; geometry-shader
//! declarations, output limits and streams; optional features.
//!
//! One pass over the program with [`tpf::Decoder::next_instruction`] (no allocation per
//! instruction); what the later rules need is gathered into [`ProgramFacts`].
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::codes::Code;
use crate::diag::{Diagnostic, Location};
use crate::target::{stage_name, Api, Caps, FeatureLevel, Runtime, Target};
use dxbc::{Container, FourCc, ShaderFeatures};
use tpf::blocks::{Block, BlockError, Blocks, Event};
use tpf::table::{operand_availability, Flow, Model};
use tpf::{
    Body, CustomDataClass, Decl, Decoder, Index, InstructionRef, Mask, OpControl, Opcode, Operand, OperandType,
    Primitive, PrimitiveTopology, ProgramType, SyncFlags, TessDomain, TessOutputPrimitive, TessPartitioning,
};

/// `D3D11_REQ_GS_INVOCATION_32BIT_OUTPUT_COMPONENT_LIMIT`.
pub const GS_OUTPUT_SCALAR_LIMIT: u32 = 1024;
/// `D3D11_GS_MAX_INSTANCE_COUNT`.
pub const GS_MAX_INSTANCES: u32 = 32;
/// `D3D11_GS_MAX_OUTPUT_VERTEX_COUNT_ACROSS_INSTANCES`.
pub const GS_MAX_VERTICES_ACROSS_INSTANCES: u32 = 1024;

/// Where an instruction is: enough to build a [`Location`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// Instruction index (0 = the first after the version and length tokens).
    pub index: usize,
    /// Token index in the program (the version token is token 0).
    pub token: usize,
    /// Byte offset in the bytes given to the validator.
    pub offset: usize,
    /// The instruction's mnemonic as fxc prints it.
    pub mnemonic: &'static str,
}

impl At {
    fn loc(self) -> Location {
        Location::Instruction { index: self.index, token: self.token, offset: self.offset, mnemonic: self.mnemonic }
    }
}

/// One output register declaration of a geometry (or other) shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputDecl {
    /// The stream it belongs to (0 when no stream is declared).
    pub stream: u32,
    /// The output register `o#`.
    pub register: u32,
    /// The components declared.
    pub mask: Mask,
}

/// What the program declares and uses, gathered in the one pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramFacts {
    /// The version token's program type.
    pub stage: ProgramType,
    /// The version token's shader model, `(major, minor)`.
    pub model: (u8, u8),
    /// Streams declared with `dcl_stream` (bit n = stream n); 0 when none.
    pub streams: u8,
    /// Output register declarations, with their streams.
    pub outputs: Vec<OutputDecl>,
    /// A geometry shader's `dcl_inputprimitive`.
    pub input_primitive: Option<Primitive>,
    /// Output topology per stream (stream 0 when no stream is declared).
    pub output_topology: [Option<PrimitiveTopology>; 4],
    /// A geometry shader's `dcl_maxout` (vertices per invocation).
    pub max_output_vertex_count: Option<u32>,
    /// A geometry shader's `dcl_gsinstances` (invocations per primitive).
    pub gs_instance_count: Option<u32>,
    /// The first instruction using double precision, if any.
    pub doubles: Option<At>,
    /// The first instruction using the 11.1 double extensions (`ddiv`, `dfma`...).
    pub extended_doubles: Option<At>,
    /// The first `msad` (11.1 shader extensions).
    pub msad: Option<At>,
    /// The first instruction with a minimum-precision operand.
    pub min_precision: Option<At>,
    /// Declares interfaces (class linkage).
    pub interfaces: bool,
    /// Uses a UAV outside pixel and compute shaders, which only the 11.1 runtime on a
    /// device with UAVs at every stage accepts (V5xx).
    pub uav_outside_ps_cs: bool,
    /// The highest UAV slot declared (`u#`), if any.
    pub max_uav_slot: Option<u64>,
    /// Number of instructions.
    pub instruction_count: usize,
}

impl ProgramFacts {
    pub(crate) fn new(stage: ProgramType, model: (u8, u8)) -> ProgramFacts {
        ProgramFacts {
            stage,
            model,
            streams: 0,
            outputs: Vec::new(),
            input_primitive: None,
            output_topology: [None; 4],
            max_output_vertex_count: None,
            gs_instance_count: None,
            doubles: None,
            extended_doubles: None,
            msad: None,
            min_precision: None,
            interfaces: false,
            uav_outside_ps_cs: false,
            max_uav_slot: None,
            instruction_count: 0,
        }
    }

    /// Number of 32-bit values in one output vertex: the union over all streams of the
    /// declared output components (functional spec 13.3).
    pub fn output_scalars(&self) -> u32 {
        let mut union: Vec<(u32, u8)> = Vec::new();
        for o in &self.outputs {
            match union.iter_mut().find(|(r, _)| *r == o.register) {
                Some((_, m)) => *m |= o.mask.0,
                None => union.push((o.register, o.mask.0)),
            }
        }
        union.iter().map(|(_, m)| (m & 15).count_ones()).sum()
    }

    /// Number of streams declared.
    pub fn stream_count(&self) -> u32 {
        self.streams.count_ones()
    }
}

/// Input-primitive vertex count (`v[N][...]`).
pub fn primitive_vertices(p: Primitive) -> Option<u32> {
    Some(match p {
        Primitive::Point => 1,
        Primitive::Line => 2,
        Primitive::Triangle => 3,
        Primitive::LineAdj => 4,
        Primitive::TriangleAdj => 6,
        Primitive::Unknown(_) | Primitive::Undefined => return None,
        other => (other.raw() as u32).saturating_sub(Primitive::Patch1.raw() as u32).saturating_add(1),
    })
}

/// The register counts of a stage and model (`d3d11.h` / `d3d10_1.h`).
fn io_limits(stage: ProgramType, model: Model) -> (u32, u32) {
    let sm40 = model < Model::SM4_1;
    match stage {
        ProgramType::Vertex if sm40 => (16, 16),
        ProgramType::Vertex => (32, 32),
        ProgramType::Geometry if sm40 => (16, 32),
        ProgramType::Geometry => (32, 32),
        ProgramType::Pixel => (32, 8),
        ProgramType::Hull | ProgramType::Domain => (32, 32),
        _ => (0, 0),
    }
}

struct Walker<'t> {
    target: &'t Target,
    stage: ProgramType,
    model: Model,
    facts: ProgramFacts,
    /// Streams: the one whose outputs are being declared.
    current_stream: Option<u32>,
    /// Any `dcl_output*` / `dcl_outputtopology` seen (for the dcl_stream order rule).
    output_declared: bool,
    /// `emit`/`cut`/`emit_then_cut` (plain forms) seen.
    plain_emits: Vec<At>,
    /// Stream forms with their stream (when it is a valid immediate).
    stream_emits: Vec<(At, u32)>,
    /// GS input array sizes from `dcl_input v[N][r]`.
    input_arrays: Vec<(At, u32)>,
    temps: u64,
    indexable_temps: u64,
    /// Thread-group shared memory declared so far, in bytes (u128: see `Decl::Tgsm*`).
    tgsm_bytes: u128,
    thread_group: Option<At>,
    /// Where `dcl_maxout`, `dcl_gsinstances`, each stream's `dcl_stream` and
    /// `dcl_outputtopology` are, for the diagnostics about them.
    maxout_at: Option<At>,
    instances_at: Option<At>,
    stream_at: [Option<At>; 4],
    topology_at: [Option<At>; 4],
    /// Tessellation declarations: (value, where).
    tess_input_cps: Option<(u8, At)>,
    tess_output_cps: Option<(u8, At)>,
    tess_domain: Option<(TessDomain, At)>,
    tess_partitioning: Option<(TessPartitioning, At)>,
    tess_output: Option<(TessOutputPrimitive, At)>,
    /// Open flow-control constructs (if/else, loop, switch), innermost last.
    flow: Blocks<At>,
    flow_error: bool,
    seen_decl: [bool; 8],
}

const SEEN_INPUT_PRIMITIVE: usize = 0;
const SEEN_MAXOUT: usize = 1;
const SEEN_INSTANCES: usize = 2;
const SEEN_TEMPS: usize = 3;
const SEEN_GLOBAL_FLAGS: usize = 4;
const SEEN_THREAD_GROUP: usize = 5;

/// Decodes and checks the program in `bytes` (a program chunk found at byte `base` of
/// the bytecode). Returns `None` when it cannot be decoded (after a diagnostic).
pub(crate) fn check(
    bytes: &[u8],
    base: usize,
    target: &Target,
    stream_output: bool,
    out: &mut Vec<Diagnostic>,
) -> Option<ProgramFacts> {
    let mut decoder = match Decoder::new(bytes) {
        Ok(d) => d,
        Err(e) => {
            let e = e.rebased(base);
            out.push(Diagnostic::new(Code::ProgramUnreadable, Location::Byte { offset: e.offset }, e.to_string()));
            return None;
        }
    };
    let version = decoder.version();
    let stage = version.ty;
    let model = Model(version.major, version.minor);
    let known_model = matches!((version.major, version.minor), (4, 0) | (4, 1) | (5, 0) | (5, 1));
    if matches!(stage, ProgramType::Unknown(_)) || !known_model {
        out.push(Diagnostic::new(
            Code::UnknownModel,
            Location::Byte { offset: base },
            format!(
                "version token names program type {} model {}.{}; known are vs/hs/ds/gs/ps/cs 4.0, 4.1, 5.0, 5.1",
                stage.raw(),
                version.major,
                version.minor
            ),
        ));
        return None;
    }
    let mut facts = ProgramFacts::new(stage, (version.major, version.minor));
    check_version(stage, model, target, stream_output, base, out);
    if target.api.device().is_some() && model >= Model::SM5_1 {
        // The D3D11 verdict is already given; the instruction rules are Direct3D 12's.
        return Some(facts);
    }

    let mut w = Walker {
        target,
        stage,
        model,
        facts: ProgramFacts::new(stage, facts.model),
        current_stream: None,
        output_declared: false,
        plain_emits: Vec::new(),
        stream_emits: Vec::new(),
        input_arrays: Vec::new(),
        temps: 0,
        indexable_temps: 0,
        tgsm_bytes: 0,
        thread_group: None,
        maxout_at: None,
        instances_at: None,
        stream_at: [None; 4],
        topology_at: [None; 4],
        flow: Blocks::new(),
        flow_error: false,
        tess_input_cps: None,
        tess_output_cps: None,
        tess_domain: None,
        tess_partitioning: None,
        tess_output: None,
        seen_decl: [false; 8],
    };
    let mut index = 0;
    while let Some(next) = decoder.next_instruction() {
        match next {
            Ok((token, ins)) => {
                let offset = base.saturating_add(token.saturating_mul(4));
                let at = At { index, token, offset, mnemonic: ins.opcode.mnemonic() };
                w.instruction(ins, at, out);
                index = index.saturating_add(1);
            }
            Err(e) => {
                let e = e.rebased(base);
                out.push(Diagnostic::new(
                    Code::ProgramUnreadable,
                    Location::Byte { offset: e.offset },
                    format!("instruction {index}: {e}"),
                ));
                return None;
            }
        }
    }
    w.facts.instruction_count = index;
    w.finish(out);
    facts = w.facts;
    Some(facts)
}

/// The version against the API, the feature level and the create call.
fn check_version(
    stage: ProgramType,
    model: Model,
    target: &Target,
    stream_output: bool,
    base: usize,
    out: &mut Vec<Diagnostic>,
) {
    let at = Location::Byte { offset: base };
    let name = format!("{}_{}_{}", stage_name(stage), model.0, model.1);
    if stream_output {
        if !matches!(stage, ProgramType::Vertex | ProgramType::Domain | ProgramType::Geometry) {
            out.push(Diagnostic::new(
                Code::SoStage,
                at.clone(),
                format!("CreateGeometryShaderWithStreamOutput takes a vertex, domain or geometry shader, not {name}"),
            ));
        }
    } else if let Some(expected) = target.stage {
        if expected != stage {
            out.push(Diagnostic::new(
                Code::WrongStage,
                at.clone(),
                format!("the bytecode is a {name} shader; this call creates {} shaders", stage_name(expected)),
            ));
        }
    }
    let Some((level, _, caps)) = target.api.device() else { return };
    if let (Api::D3D10 { .. }, ProgramType::Hull | ProgramType::Domain | ProgramType::Compute) = (target.api, stage) {
        out.push(Diagnostic::new(
            Code::StageApi,
            at,
            format!(
                "{name}: Direct3D 10 creates vertex, geometry and pixel shaders only (ID3D10Device has no CreateHullShader, CreateDomainShader or CreateComputeShader)"
            ),
        ));
        return;
    }
    if model >= Model::SM5_1 {
        out.push(Diagnostic::new(
            Code::Direct3D12Only,
            at,
            format!("{name} is a Direct3D 12 shader (Shader Model 5.1); Direct3D 10 and 11 run Shader Models 4.0 to 5.0 (validate with --api d3d12)"),
        ));
        return;
    }
    let fl = |l: FeatureLevel| l.name();
    let (stage_min, stage_why) = match stage {
        ProgramType::Vertex | ProgramType::Pixel => (FeatureLevel::L9_1, ""),
        ProgramType::Geometry => (FeatureLevel::L10_0, ""),
        ProgramType::Hull | ProgramType::Domain => (FeatureLevel::L11_0, ""),
        _ if caps.compute_on_10_x => (FeatureLevel::L10_0, ""),
        _ => (FeatureLevel::L11_0, " (the device does not report compute shaders on 10.x hardware)"),
    };
    if level < stage_min {
        out.push(Diagnostic::new(
            Code::StageFeatureLevel,
            at,
            format!(
                "{} shaders need feature level {}{stage_why}; the device is {}",
                stage_name(stage),
                fl(stage_min),
                fl(level)
            ),
        ));
        return;
    }
    let model_min = match model {
        Model(4, 0) if level.is_9_x() => FeatureLevel::L9_1,
        Model(4, 0) => FeatureLevel::L10_0,
        Model(4, 1) => FeatureLevel::L10_1,
        _ => FeatureLevel::L11_0,
    };
    if level < model_min {
        out.push(Diagnostic::new(
            Code::ModelFeatureLevel,
            at,
            format!("{name} needs feature level {}; the device is {}", fl(model_min), fl(level)),
        ));
    }
}

impl Walker<'_> {
    fn uav_slots(&self) -> u32 {
        match self.target.api {
            Api::D3D12 | Api::D3D9 => u32::MAX,
            Api::D3D10 { .. } => 8,
            Api::D3D11 { level, runtime, .. } => {
                if self.stage == ProgramType::Compute && self.model < Model::SM5_0 {
                    1
                } else {
                    crate::target::sm5_uav_slots(level, runtime)
                }
            }
        }
    }

    /// UAV use in a stage other than pixel and compute (the remarks of Microsoft's
    /// ID3D11Device::CreateGeometryShader page: 11.1 runtime, UAVs at every stage).
    fn uav_stage(&mut self, at: At, what: &str, out: &mut Vec<Diagnostic>) {
        if matches!(self.stage, ProgramType::Pixel | ProgramType::Compute) {
            return;
        }
        self.facts.uav_outside_ps_cs = true;
        let Some((_, runtime, caps)) = self.target.api.device() else { return };
        let stage = stage_name(self.stage);
        if runtime == Runtime::D3D11_0 {
            out.push(Diagnostic::new(
                Code::UavStageRuntime,
                at.loc(),
                format!(
                    "{what} in a {stage} shader: the Direct3D 11.0 runtime has UAVs in pixel and compute shaders only"
                ),
            ));
        } else if !caps.uavs_at_every_stage {
            out.push(Diagnostic::new(
                Code::UavStageDevice,
                at.loc(),
                format!("{what} in a {stage} shader: the device does not support UAVs at every shader stage"),
            ));
        }
    }

    fn instruction(&mut self, ins: InstructionRef<'_, '_>, at: At, out: &mut Vec<Diagnostic>) {
        let row = ins.opcode.info();
        let stage = self.stage;
        let mut uav_reported = false;
        self.flow_control(row.flow, at, out);
        if row.flow == Flow::Phase {
            // Each hull-shader phase declares its own temporaries.
            self.seen_decl[SEEN_TEMPS] = false;
            self.temps = 0;
            self.indexable_temps = 0;
        }

        // Stage and model of the instruction (the table).
        if !row.stages.contains(stage) {
            if row.stages.is_uav() {
                self.uav_stage(at, &format!("`{}`", row.mnemonic), out);
                uav_reported = true;
            } else {
                out.push(Diagnostic::new(
                    Code::InstructionStage,
                    at.loc(),
                    format!(
                        "`{}` is not available in {} shaders (only in {})",
                        row.mnemonic,
                        stage_name(stage),
                        row.stages.names().join(", ")
                    ),
                ));
            }
        }
        if let Body::Op(op) = &ins.body {
            if let OpControl::Sync(SyncFlags(flags)) = op.control {
                let group = flags & (SyncFlags::THREADS_IN_GROUP | SyncFlags::TGSM | SyncFlags::UAV_GROUP);
                if group != 0 && stage != ProgramType::Compute {
                    out.push(Diagnostic::new(
                        Code::InstructionStage,
                        at.loc(),
                        "`sync` with thread-group scope (_t, _g, _ugroup) exists in compute shaders only",
                    ));
                }
            }
        }
        let min = row.min_model_in(stage);
        if self.model < min {
            out.push(Diagnostic::new(
                Code::InstructionModel,
                at.loc(),
                format!(
                    "`{}` needs Shader Model {}.{}; this is a {}_{}_{} shader",
                    row.mnemonic,
                    min.0,
                    min.1,
                    stage_name(stage),
                    self.model.0,
                    self.model.1
                ),
            ));
        }

        // Register types of the operands.
        let decl_operand = ins.decl_operand();
        for operand in ins.operands().iter().chain(decl_operand) {
            self.operand(operand, at, &mut uav_reported, out);
        }

        // Double precision and the 11.1 extensions: the `features` column of the
        // instruction table.
        let needs = row.features;
        if self.facts.doubles.is_none() && needs.contains(tpf::OpFeatures::DOUBLES) {
            self.facts.doubles = Some(at);
        }
        if self.facts.extended_doubles.is_none() && needs.contains(tpf::OpFeatures::DOUBLES_11_1) {
            self.facts.extended_doubles = Some(at);
        }
        if self.facts.msad.is_none() && needs.contains(tpf::OpFeatures::SHADER_EXTENSIONS_11_1) {
            self.facts.msad = Some(at);
        }

        match &ins.body {
            Body::Decl(decl) => self.declaration(ins, decl, at, out),
            Body::Op(_) => self.executable(ins.opcode, ins.operands(), at, out),
            Body::CustomData(data) if data.class == CustomDataClass::ImmediateConstantBuffer => {
                let vectors = ins.words(data.data).len() / 4;
                if vectors > 4096 {
                    out.push(Diagnostic::new(
                        Code::ConstantBufferSize,
                        at.loc(),
                        format!("the immediate constant buffer has {vectors} vectors; at most 4096"),
                    ));
                }
            }
            _ => {}
        }
    }

    fn operand(&mut self, operand: &Operand, at: At, uav_reported: &mut bool, out: &mut Vec<Diagnostic>) {
        let stage = self.stage;
        if self.facts.min_precision.is_none() && operand.min_precision() != tpf::MinPrecision::Default {
            self.facts.min_precision = Some(at);
        }
        let (stages, mut min) = operand_availability(operand.ty);
        let name = operand.ty.listing_name().unwrap_or("?");
        if !stages.contains(stage) {
            if stages.is_uav() {
                if !*uav_reported {
                    self.uav_stage(at, &format!("UAV register `{name}`"), out);
                    *uav_reported = true;
                }
            } else {
                out.push(Diagnostic::new(
                    Code::OperandStage,
                    at.loc(),
                    format!("register type `{name}` does not exist in {} shaders", stage_name(stage)),
                ));
                return;
            }
        }
        if operand.ty == OperandType::UnorderedAccessView && stage == ProgramType::Compute {
            min = Model::SM4_0;
        }
        if self.model < min {
            out.push(Diagnostic::new(
                Code::OperandModel,
                at.loc(),
                format!("register type `{name}` needs Shader Model {}.{}", min.0, min.1),
            ));
        }
    }

    fn declaration(&mut self, ins: InstructionRef<'_, '_>, decl: &Decl, at: At, out: &mut Vec<Diagnostic>) {
        let opcode = ins.opcode;
        let stage = self.stage;
        let sm51 = self.model >= Model::SM5_1;
        let mut once = |slot: usize, out: &mut Vec<Diagnostic>| {
            if self.seen_decl.get_mut(slot).is_some_and(|seen| std::mem::replace(seen, true)) {
                out.push(Diagnostic::new(
                    Code::DuplicateDeclaration,
                    at.loc(),
                    format!("`{}` may appear once", opcode.mnemonic()),
                ));
            }
        };
        match decl {
            Decl::GlobalFlags(_) => once(SEEN_GLOBAL_FLAGS, out),
            Decl::Temps(n) => {
                once(SEEN_TEMPS, out);
                self.temps = *n as u64;
                self.check_temps(at, out);
            }
            Decl::IndexableTemp { count, .. } => {
                self.indexable_temps = self.indexable_temps.saturating_add(u64::from(*count));
                self.check_temps(at, out);
            }
            Decl::InputPrimitive(p) => {
                once(SEEN_INPUT_PRIMITIVE, out);
                self.facts.input_primitive = Some(*p);
                let patch = p.raw() >= Primitive::Patch1.raw();
                if primitive_vertices(*p).is_none() {
                    out.push(Diagnostic::new(
                        Code::GsInputPrimitive,
                        at.loc(),
                        format!(
                            "input primitive `{}` is not one a geometry shader can take",
                            p.listing_name().unwrap_or("?")
                        ),
                    ));
                } else if patch && self.model < Model::SM5_0 {
                    out.push(Diagnostic::new(
                        Code::GsInputPrimitive,
                        at.loc(),
                        "patch input primitives need Shader Model 5.0",
                    ));
                }
            }
            Decl::OutputTopology(t) => {
                let stream = self.current_stream.unwrap_or(0) as usize;
                self.output_declared = true;
                if !matches!(
                    t,
                    PrimitiveTopology::PointList | PrimitiveTopology::LineStrip | PrimitiveTopology::TriangleStrip
                ) {
                    out.push(Diagnostic::new(
                        Code::GsOutputTopology,
                        at.loc(),
                        format!(
                            "output topology `{}`: a geometry shader outputs pointlist, linestrip or trianglestrip",
                            t.listing_name().unwrap_or("?")
                        ),
                    ));
                }
                if let Some(slot) = self.topology_at.get_mut(stream) {
                    *slot = Some(at);
                }
                if let Some(slot) = self.facts.output_topology.get_mut(stream) {
                    if slot.replace(*t).is_some() {
                        out.push(Diagnostic::new(
                            Code::DuplicateDeclaration,
                            at.loc(),
                            format!("a second dcl_outputtopology for stream {stream}"),
                        ));
                    }
                }
            }
            Decl::MaxOutputVertexCount(n) => {
                once(SEEN_MAXOUT, out);
                self.facts.max_output_vertex_count = Some(*n);
                self.maxout_at = Some(at);
                if *n == 0 || *n > GS_OUTPUT_SCALAR_LIMIT {
                    out.push(Diagnostic::new(
                        Code::GsMaxVertexCount,
                        at.loc(),
                        format!("dcl_maxOutputVertexCount {n}: the count must be between 1 and 1024"),
                    ));
                }
            }
            Decl::GsInstanceCount(n) => {
                once(SEEN_INSTANCES, out);
                self.facts.gs_instance_count = Some(*n);
                self.instances_at = Some(at);
                if *n == 0 || *n > GS_MAX_INSTANCES {
                    out.push(Diagnostic::new(
                        Code::GsInstanceCount,
                        at.loc(),
                        format!("dcl_gsinstances {n}: the instance count must be between 1 and 32"),
                    ));
                }
            }
            Decl::Stream(operand) => {
                let operand = ins.operand(*operand);
                if self.output_declared && self.facts.streams == 0 {
                    out.push(Diagnostic::new(
                        Code::StreamAfterOutputs,
                        at.loc(),
                        "the first dcl_stream must come before every dcl_output and dcl_outputtopology",
                    ));
                }
                match immediate_stream(operand) {
                    Some(s) => {
                        if self.facts.streams & (1 << s) != 0 {
                            out.push(Diagnostic::new(
                                Code::StreamDeclaredTwice,
                                at.loc(),
                                format!("stream m{s} is declared twice"),
                            ));
                        }
                        self.facts.streams |= 1 << s;
                        if let Some(first) = self.stream_at.get_mut(s as usize) {
                            *first = Some(at);
                        }
                        self.current_stream = Some(s);
                    }
                    None => out.push(Diagnostic::new(
                        Code::StreamOperand,
                        at.loc(),
                        format!("dcl_stream {}: a stream is an immediate m0..m3", describe_stream(operand)),
                    )),
                }
            }
            Decl::ThreadGroup([x, y, z]) => {
                once(SEEN_THREAD_GROUP, out);
                self.thread_group = Some(at);
                let [max_xy, _, max_z, max_total] = tpf::compute::thread_group_max(self.model < Model::SM5_0);
                // Three 32-bit sizes: their product needs 96 bits, so it is taken in u128.
                let total = u128::from(*x).saturating_mul(u128::from(*y)).saturating_mul(u128::from(*z));
                if *x == 0
                    || *y == 0
                    || *z == 0
                    || *x > max_xy
                    || *y > max_xy
                    || *z > max_z
                    || total > u128::from(max_total)
                {
                    out.push(Diagnostic::new(
                        Code::ThreadGroupSize,
                        at.loc(),
                        format!(
                            "thread group {x}x{y}x{z} ({total} threads): x and y must be 1..{max_xy}, z 1..{max_z}, and x*y*z at most {max_total}"
                        ),
                    ));
                }
            }
            // Each declaration is at most (2^32 - 1)^2 bytes, under 2^64; a program has
            // fewer than 2^32 of them, so the u128 sum cannot reach 2^96 (saturating all
            // the same, so no input can wrap it).
            Decl::TgsmRaw { byte_count, .. } => {
                self.tgsm_bytes = self.tgsm_bytes.saturating_add(u128::from(*byte_count));
                self.check_tgsm(at, out);
            }
            Decl::TgsmStructured { stride, count, .. } => {
                self.tgsm_bytes =
                    self.tgsm_bytes.saturating_add(u128::from(*stride).saturating_mul(u128::from(*count)));
                self.check_tgsm(at, out);
            }
            Decl::ConstantBuffer { operand, size, .. } => {
                let operand = ins.operand(*operand);
                // SM4/5.0: cb#[size]; SM5.1: an ID with a range, the size separately.
                let size = size.or_else(|| operand.index(1).map(|i| i.immediate() as u32));
                if let Some(size) = size.filter(|s| *s > 4096) {
                    out.push(Diagnostic::new(
                        Code::ConstantBufferSize,
                        at.loc(),
                        format!("constant buffer of {size} vectors; at most 4096"),
                    ));
                }
                if !sm51 {
                    self.register_range(operand, 14, "constant buffer slots cb0..cb13", at, out);
                }
            }
            Decl::Resource { operand, .. }
            | Decl::ResourceRaw { operand, .. }
            | Decl::ResourceStructured { operand, .. }
                if !sm51 =>
            {
                self.register_range(ins.operand(*operand), 128, "shader resource slots t0..t127", at, out)
            }
            Decl::Sampler { operand, .. } if !sm51 => {
                self.register_range(ins.operand(*operand), 16, "sampler slots s0..s15", at, out)
            }
            Decl::UavTyped { operand, .. } | Decl::UavRaw { operand, .. } | Decl::UavStructured { operand, .. } => {
                let operand = ins.operand(*operand);
                let cs4 = stage == ProgramType::Compute && self.model < Model::SM5_0;
                if cs4 && (matches!(decl, Decl::UavTyped { .. }) || operand.register().is_some_and(|r| r != 0)) {
                    out.push(Diagnostic::new(
                        Code::Cs4xUav,
                        at.loc(),
                        format!(
                            "{} u{}: Shader Model 4.x compute shaders have one raw or structured UAV, u0",
                            opcode.mnemonic(),
                            operand.register().unwrap_or(0)
                        ),
                    ));
                    return;
                }
                self.facts.max_uav_slot = self.facts.max_uav_slot.max(operand.register());
                if !sm51 {
                    let slots = self.uav_slots();
                    if let Some(r) = operand.register().filter(|r| *r >= slots as u64) {
                        out.push(Diagnostic::new(
                            Code::UavSlot,
                            at.loc(),
                            format!("u{r}: the device supports UAV slots u0..u{}", slots.saturating_sub(1)),
                        ));
                    }
                }
            }
            Decl::Register(operand)
            | Decl::RegisterName { operand, .. }
            | Decl::InputPs { operand, .. }
            | Decl::InputPsName { operand, .. } => self.io_declaration(ins.operand(*operand), at, out),
            Decl::Interface { .. } | Decl::FunctionBody(_) | Decl::FunctionTable { .. } => self.facts.interfaces = true,
            Decl::ControlPointCount(n) => {
                let (slot, range, what) = match opcode {
                    Opcode::DclOutputControlPointCount => (&mut self.tess_output_cps, 0..=32u8, "output"),
                    _ if stage == ProgramType::Hull => (&mut self.tess_input_cps, 1..=32, "input"),
                    _ => (&mut self.tess_input_cps, 0..=32, "input"),
                };
                *slot = Some((*n, at));
                if !range.contains(n) {
                    out.push(Diagnostic::new(
                        Code::TessControlPointCount,
                        at.loc(),
                        format!(
                            "{what} control point count {n}: a {} shader declares {}..{}",
                            stage_name(stage),
                            range.start(),
                            range.end()
                        ),
                    ));
                }
            }
            Decl::TessDomain(d) => self.tess_domain = Some((*d, at)),
            Decl::TessPartitioning(p) => {
                self.tess_partitioning = Some((*p, at));
                if matches!(p, TessPartitioning::Undefined | TessPartitioning::Unknown(_)) {
                    out.push(Diagnostic::new(
                        Code::TessOutputPrimitive,
                        at.loc(),
                        "partitioning must be integer, pow2, fractional_odd or fractional_even",
                    ));
                }
            }
            Decl::TessOutputPrimitive(p) => self.tess_output = Some((*p, at)),
            Decl::HsMaxTessFactor(bits) => {
                let v = f32::from_bits(*bits);
                if !(1.0..=64.0).contains(&v) {
                    out.push(Diagnostic::new(
                        Code::TessMaxTessFactor,
                        at.loc(),
                        format!("dcl_hs_max_tessfactor {v}: the factor is between 1.0 and 64.0"),
                    ));
                }
            }
            _ => {}
        }
    }

    fn io_declaration(&mut self, operand: &Operand, at: At, out: &mut Vec<Diagnostic>) {
        let (inputs, outputs) = io_limits(self.stage, self.model);
        match operand.ty {
            OperandType::Input => {
                // GS: v[vertices][register]; other stages: v[register] (HS/DS use vicp).
                let two_d = operand.dims() == 2;
                if self.stage == ProgramType::Geometry && two_d {
                    if let Some(Index::Imm32(n)) = operand.index(0) {
                        self.input_arrays.push((at, n));
                    }
                }
                let reg = operand.indices().last().and_then(imm);
                if let Some(r) = reg.filter(|r| inputs > 0 && *r >= inputs as u64) {
                    out.push(Diagnostic::new(
                        Code::RegisterRange,
                        at.loc(),
                        format!(
                            "input register v{r}: {} shaders have v0..v{}",
                            self.stage_model(),
                            inputs.saturating_sub(1)
                        ),
                    ));
                }
            }
            OperandType::Output => {
                let reg = operand.register();
                if let Some(r) = reg.filter(|r| outputs > 0 && *r >= outputs as u64) {
                    out.push(Diagnostic::new(
                        Code::RegisterRange,
                        at.loc(),
                        format!(
                            "output register o{r}: {} shaders have o0..o{}",
                            self.stage_model(),
                            outputs.saturating_sub(1)
                        ),
                    ));
                }
                self.output_declared = true;
                if let Some(r) = reg {
                    self.facts.outputs.push(OutputDecl {
                        stream: self.current_stream.unwrap_or(0),
                        register: r.min(u32::MAX as u64) as u32,
                        mask: operand.mask(),
                    });
                }
            }
            _ => {}
        }
    }

    fn stage_model(&self) -> String {
        format!("{}_{}_{}", stage_name(self.stage), self.model.0, self.model.1)
    }

    fn register_range(&self, operand: &Operand, count: u64, what: &str, at: At, out: &mut Vec<Diagnostic>) {
        if let Some(r) = operand.register().filter(|r| *r >= count) {
            let name = operand.ty.listing_name().unwrap_or("?");
            out.push(Diagnostic::new(Code::RegisterRange, at.loc(), format!("{name}{r}: the {what}")));
        }
    }

    fn check_temps(&self, at: At, out: &mut Vec<Diagnostic>) {
        let total = self.temps.saturating_add(self.indexable_temps);
        if total > 4096 {
            out.push(Diagnostic::new(
                Code::TempCount,
                at.loc(),
                format!(
                    "{} r# and {} x# registers declared: at most 4096 temporaries in all",
                    self.temps, self.indexable_temps
                ),
            ));
        }
    }

    fn check_tgsm(&self, at: At, out: &mut Vec<Diagnostic>) {
        let limit = tpf::compute::tgsm_bytes_max(self.model < Model::SM5_0);
        if self.tgsm_bytes > u128::from(limit) {
            out.push(Diagnostic::new(
                Code::TgsmSize,
                at.loc(),
                format!("{} bytes of thread-group shared memory declared; at most {limit}", self.tgsm_bytes),
            ));
        }
    }

    fn executable(&mut self, opcode: Opcode, operands: &[Operand], at: At, out: &mut Vec<Diagnostic>) {
        match opcode {
            Opcode::Emit | Opcode::Cut | Opcode::EmitThenCut => self.plain_emits.push(at),
            Opcode::EmitStream | Opcode::CutStream | Opcode::EmitThenCutStream => {
                match operands.first().and_then(immediate_stream) {
                    Some(s) => self.stream_emits.push((at, s)),
                    None => out.push(Diagnostic::new(
                        Code::StreamOperand,
                        at.loc(),
                        format!(
                            "{} {}: streamIndex must be an immediate value [0..3] for a declared stream",
                            opcode.mnemonic(),
                            operands.first().map(describe_stream).unwrap_or_default()
                        ),
                    )),
                }
            }
            _ => {}
        }
    }

    /// The structure of if/else/endif, loop/endloop, switch/case/default/endswitch,
    /// break/continue (`tpf::blocks`, which the assembler and the interpreter share),
    /// and the nesting limit. Labels (subroutine bodies) and hull-shader phases start
    /// afresh. One structure diagnostic per program is enough.
    fn flow_control(&mut self, flow: Flow, at: At, out: &mut Vec<Diagnostic>) {
        let why = match self.flow.step(flow, || at) {
            Ok(Event::Opened) => {
                if self.flow.depth() == 65 {
                    out.push(Diagnostic::new(
                        Code::FlowControlNesting,
                        at.loc(),
                        "flow control nested 65 deep; the limit is 64",
                    ));
                }
                return;
            }
            Ok(_) => return,
            Err(BlockError::Unopened { expected, .. }) => {
                (at.loc(), format!("`{}` without an open `{}`", at.mnemonic, expected.opener()))
            }
            Err(BlockError::SecondElse) => (at.loc(), "`else` without an open `if`".to_string()),
            Err(BlockError::SecondDefault) => (at.loc(), "a second `default` in one `switch`".to_string()),
            Err(BlockError::CaseOutsideSwitch) => (at.loc(), format!("`{}` outside a `switch`", at.mnemonic)),
            Err(BlockError::BreakOutside) => (at.loc(), format!("`{}` outside a loop or switch", at.mnemonic)),
            Err(BlockError::ContinueOutside) => (at.loc(), format!("`{}` outside a loop", at.mnemonic)),
            Err(BlockError::NotClosed(block)) => {
                let open = block.data;
                (open.loc(), format!("`{}` is not closed before `{}`", open.mnemonic, at.mnemonic))
            }
        };
        if !std::mem::replace(&mut self.flow_error, true) {
            out.push(Diagnostic::new(Code::FlowControlStructure, why.0, why.1));
        }
    }

    /// The rules that need the whole program.
    fn finish(&mut self, out: &mut Vec<Diagnostic>) {
        if let Some(Block { data: open, .. }) = self.flow.finish() {
            if !std::mem::replace(&mut self.flow_error, true) {
                out.push(Diagnostic::new(
                    Code::FlowControlStructure,
                    open.loc(),
                    format!("`{}` is not closed at the end of the program", open.mnemonic),
                ));
            }
        }
        let f = &self.facts;
        if self.stage == ProgramType::Compute && self.thread_group.is_none() {
            out.push(Diagnostic::new(
                Code::ThreadGroupMissing,
                Location::Shader,
                "a compute shader must declare its thread-group size (dcl_thread_group)",
            ));
        }
        if matches!(self.stage, ProgramType::Hull | ProgramType::Domain) {
            self.finish_tessellation(out);
        }
        if self.stage != ProgramType::Geometry {
            return;
        }
        let streams = f.streams;
        // Streams: plain forms only without dcl_stream, stream forms only with.
        if streams != 0 {
            for at in &self.plain_emits {
                out.push(Diagnostic::new(
                    Code::PlainEmitWithStreams,
                    at.loc(),
                    format!("streams are declared: use `{}_stream` instead of `{}`", at.mnemonic, at.mnemonic),
                ));
            }
        }
        for (at, s) in &self.stream_emits {
            if streams == 0 {
                let plain = at.mnemonic.trim_end_matches("_stream");
                out.push(Diagnostic::new(
                    Code::StreamEmitWithoutStreams,
                    at.loc(),
                    format!("no stream is declared (dcl_stream): use `{plain}` instead of `{}`", at.mnemonic),
                ));
            } else if streams & (1 << s) == 0 {
                out.push(Diagnostic::new(
                    Code::StreamNotDeclared,
                    at.loc(),
                    format!("{} m{s}: stream {s} is not declared", at.mnemonic),
                ));
            }
        }
        let declared: Vec<usize> =
            if streams == 0 { vec![0] } else { (0..4).filter(|s| streams & (1 << s) != 0).collect() };
        for &s in &declared {
            let stream_at = self.stream_at.get(s).copied().flatten().map_or(Location::Shader, At::loc);
            let topology_at = self.topology_at.get(s).copied().flatten().map_or(Location::Shader, At::loc);
            match f.output_topology.get(s).copied().flatten() {
                None if streams != 0 && f.output_topology.iter().any(Option::is_some) => out.push(Diagnostic::new(
                    Code::StreamTopologyMissing,
                    stream_at,
                    format!("stream m{s} has no dcl_outputtopology"),
                )),
                Some(t) if declared.len() > 1 && t != PrimitiveTopology::PointList => out.push(Diagnostic::new(
                    Code::MultiStreamTopology,
                    topology_at,
                    format!(
                        "stream m{s} outputs `{}`: with several streams every stream outputs pointlist",
                        t.listing_name().unwrap_or("?")
                    ),
                )),
                _ => {}
            }
        }
        // Required declarations.
        let missing: Vec<&str> = [
            (f.input_primitive.is_none(), "dcl_inputprimitive"),
            (f.output_topology.iter().all(Option::is_none), "dcl_outputtopology"),
            (f.max_output_vertex_count.is_none(), "dcl_maxout"),
        ]
        .into_iter()
        .filter_map(|(m, n)| m.then_some(n))
        .collect();
        if !missing.is_empty() {
            out.push(Diagnostic::new(
                Code::GsMissingDeclaration,
                Location::Shader,
                format!("a geometry shader must declare {}", missing.join(", ")),
            ));
        }
        // Input arrays against the input primitive.
        if let Some(n) = f.input_primitive.and_then(primitive_vertices) {
            for (at, size) in &self.input_arrays {
                if *size != n {
                    out.push(Diagnostic::new(
                        Code::GsInputVertexCount,
                        at.loc(),
                        format!(
                            "v[{size}][...]: input primitive `{}` has {n} vertices",
                            f.input_primitive.and_then(|p| p.listing_name()).unwrap_or("?")
                        ),
                    ));
                }
            }
        }
        // The 1024-scalar output limit (Microsoft's dcl_maxOutputVertexCount page) and the instance limits.
        if let Some(count) = f.max_output_vertex_count.filter(|c| (1..=GS_OUTPUT_SCALAR_LIMIT).contains(c)) {
            let scalars = f.output_scalars();
            // Saturating: scalars and count come from the program.
            let size = u64::from(scalars).saturating_mul(u64::from(count));
            if size > u64::from(GS_OUTPUT_SCALAR_LIMIT) {
                out.push(Diagnostic::new(
                    Code::GsOutputRecordSize,
                    self.maxout_at.map_or(Location::Shader, At::loc),
                    format!(
                        "{count} vertices x {scalars} output scalars = {} > 1024: at most {} vertices of this size",
                        size,
                        GS_OUTPUT_SCALAR_LIMIT.checked_div(scalars).unwrap_or(GS_OUTPUT_SCALAR_LIMIT)
                    ),
                ));
            }
            if let Some(instances) = f.gs_instance_count.filter(|n| (1..=GS_MAX_INSTANCES).contains(n)) {
                let across = instances.saturating_mul(count);
                if across > GS_MAX_VERTICES_ACROSS_INSTANCES {
                    out.push(Diagnostic::new(
                        Code::GsInstanceVertexCount,
                        self.instances_at.map_or(Location::Shader, At::loc),
                        format!(
                            "{instances} instances x {count} vertices = {} > 1024 (at most {} vertices with {instances} instances)",
                            across,
                            GS_MAX_VERTICES_ACROSS_INSTANCES.checked_div(instances).unwrap_or(0)
                        ),
                    ));
                }
            }
        }
    }
}

impl Walker<'_> {
    /// Hull shaders declare the five tessellator states; domain shaders the domain.
    /// The output primitive must suit the domain (spec 11.7.15).
    fn finish_tessellation(&self, out: &mut Vec<Diagnostic>) {
        let hull = self.stage == ProgramType::Hull;
        let mut missing = Vec::new();
        if hull {
            for (absent, name) in [
                (self.tess_input_cps.is_none(), "dcl_input_control_point_count"),
                (self.tess_output_cps.is_none(), "dcl_output_control_point_count"),
                (self.tess_domain.is_none(), "dcl_tessellator_domain"),
                (self.tess_partitioning.is_none(), "dcl_tessellator_partitioning"),
                (self.tess_output.is_none(), "dcl_tessellator_output_primitive"),
            ] {
                if absent {
                    missing.push(name);
                }
            }
        } else if self.tess_domain.is_none() {
            missing.push("dcl_tessellator_domain");
        }
        if !missing.is_empty() {
            out.push(Diagnostic::new(
                Code::TessMissingDeclaration,
                Location::Shader,
                format!("a {} shader must declare {}", stage_name(self.stage), missing.join(", ")),
            ));
        }
        if let Some((domain, at)) = self.tess_domain {
            if !matches!(domain, TessDomain::Isoline | TessDomain::Tri | TessDomain::Quad) {
                out.push(Diagnostic::new(
                    Code::TessOutputPrimitive,
                    at.loc(),
                    "the domain must be isoline, tri or quad",
                ));
            }
        }
        if let (Some((domain, _)), Some((output, at))) = (self.tess_domain, self.tess_output) {
            let ok = match output {
                TessOutputPrimitive::Point => true,
                TessOutputPrimitive::Line => domain == TessDomain::Isoline,
                TessOutputPrimitive::TriangleCw | TessOutputPrimitive::TriangleCcw => {
                    matches!(domain, TessDomain::Tri | TessDomain::Quad)
                }
                _ => false,
            };
            if !ok {
                out.push(Diagnostic::new(
                    Code::TessOutputPrimitive,
                    at.loc(),
                    format!(
                        "`{}` with `{}`: points suit every domain, lines only isoline, triangles only tri and quad",
                        output.listing_name().unwrap_or("?"),
                        domain.listing_name().unwrap_or("?")
                    ),
                ));
            }
        }
    }
}

fn imm(index: &Index) -> Option<u64> {
    match index {
        Index::Imm32(v) => Some(*v as u64),
        Index::Imm64(v) => Some(*v),
        _ => None,
    }
}

/// The stream an operand names, when it is an immediate `m0`..`m3`.
fn immediate_stream(operand: &Operand) -> Option<u32> {
    if operand.ty != OperandType::Stream || operand.dims() != 1 {
        return None;
    }
    match operand.index(0) {
        Some(Index::Imm32(s)) if s < 4 => Some(s),
        _ => None,
    }
}

fn describe_stream(operand: &Operand) -> String {
    let name = operand.ty.listing_name().unwrap_or("?");
    match operand.index(0) {
        Some(Index::Imm32(v)) => format!("{name}{v}"),
        Some(i) if i.relative().is_some() => format!("{name}[relative]"),
        Some(i) => format!("{name}{}", i.immediate()),
        None => name.to_string(),
    }
}

/// Optional features: the `SFI0` flags (what the runtime reads) and the program's own
/// use of double precision, against the device's capabilities.
pub(crate) fn check_features(
    container: &Container<'_>,
    facts: &ProgramFacts,
    level: FeatureLevel,
    runtime: Runtime,
    caps: Caps,
    out: &mut Vec<Diagnostic>,
) {
    let r111 = runtime == Runtime::D3D11_1;
    let sfi0 = container.chunk(FourCc::SFI0);
    let flags = sfi0.and_then(|c| dxbc::Sfi0::parse(c.data).ok()).map(|s| s.features).unwrap_or_default();
    let sfi0_loc =
        || sfi0.map(|c| Location::Chunk { fourcc: "SFI0".into(), offset: c.offset }).unwrap_or(Location::Shader);
    let mut reported_doubles = false;
    for flag in flags.iter() {
        let named = ShaderFeatures::NAMED.iter().find(|(v, _)| *v == flag).map(|(_, n)| *n);
        let (ok, why) = match flag {
            ShaderFeatures::DOUBLES => (caps.doubles, "double-precision shader operations (D3D11_FEATURE_DOUBLES)"),
            ShaderFeatures::EARLY_DEPTH_STENCIL => (
                level >= FeatureLevel::L11_0 || caps.compute_on_10_x,
                "compute shaders and raw/structured buffers on 10.x hardware",
            ),
            ShaderFeatures::UAVS_AT_EVERY_STAGE => (r111 && caps.uavs_at_every_stage, "UAVs at every shader stage"),
            ShaderFeatures::UAVS_64 => {
                (r111 && level >= FeatureLevel::L11_1, "64 UAV slots (11.1 runtime, feature level 11_1)")
            }
            ShaderFeatures::MINIMUM_PRECISION => (r111, "minimum-precision data types (11.1 runtime)"),
            ShaderFeatures::DOUBLE_EXTENSIONS_11_1 => {
                (r111 && caps.extended_doubles, "the 11.1 double-precision extensions (ddiv, dfma, drcp, conversions)")
            }
            ShaderFeatures::SHADER_EXTENSIONS_11_1 => {
                (r111 && caps.shader_extensions_11_1, "the 11.1 shader extensions (msad)")
            }
            ShaderFeatures::LEVEL_9_COMPARISON_FILTERING => {
                (r111 && caps.level9_comparison_filtering, "comparison filtering on feature level 9 (11.1 runtime)")
            }
            _ => (false, "a feature of a later runtime (11.2 or 11.3), which dxref does not model"),
        };
        if flag == ShaderFeatures::DOUBLES {
            reported_doubles = !ok;
        }
        // Said already, at the instruction, by the UAV rules (V501/V502, V503).
        if (flag == ShaderFeatures::UAVS_AT_EVERY_STAGE && facts.uav_outside_ps_cs)
            || (flag == ShaderFeatures::UAVS_64 && facts.max_uav_slot.is_some_and(|s| s >= 8))
        {
            continue;
        }
        if !ok {
            let name = named.map(str::to_string).unwrap_or_else(|| format!("{:#x}", flag.0));
            out.push(Diagnostic::new(
                Code::FeatureUnsupported,
                sfi0_loc(),
                format!("SFI0 flag {name}: the device does not support {why}"),
            ));
        }
    }
    // The program's own use, where the SFI0 chunk does not already say so.
    let program_needs = [
        (facts.doubles, ShaderFeatures::DOUBLES, caps.doubles, "double-precision instructions (D3D11_FEATURE_DOUBLES)"),
        (
            facts.extended_doubles,
            ShaderFeatures::DOUBLE_EXTENSIONS_11_1,
            r111 && caps.extended_doubles,
            "the 11.1 double-precision extensions",
        ),
        (facts.min_precision, ShaderFeatures::MINIMUM_PRECISION, r111, "minimum-precision data types (11.1 runtime)"),
        (
            facts.msad,
            ShaderFeatures::SHADER_EXTENSIONS_11_1,
            r111 && caps.shader_extensions_11_1,
            "the 11.1 shader extensions (msad)",
        ),
    ];
    for (at, flag, ok, why) in program_needs {
        if let Some(at) = at {
            let said = flags.contains(flag) || (flag == ShaderFeatures::DOUBLES && reported_doubles);
            if !ok && !said {
                out.push(Diagnostic::new(
                    Code::FeatureUnsupported,
                    at.loc(),
                    format!("`{}`: the device does not support {why}", at.mnemonic),
                ));
            }
        }
    }
}
