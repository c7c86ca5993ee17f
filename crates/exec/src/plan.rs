//! A program decoded once into an execution plan.
//!
//! [`Plan::from_bytecode`] reads a container (program, signatures), decodes the
//! program and compiles it: flat instructions with resolved operands and jump targets,
//! and the declarations the pipeline needs, gathered here so that nothing is looked up
//! per invocation.

use crate::error::{ExecError, ExecErrorKind};
use tpf::{InterpolationMode, Primitive, PrimitiveTopology, ProgramType, SystemName};

/// A signature element, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigElement {
    /// The stream (output signatures of SM5 geometry shaders; 0 otherwise).
    pub stream: u32,
    /// The semantic name as the chunk spells it (`SV_Position`, `TEXCOORD`).
    pub semantic_name: String,
    /// The semantic index (`TEXCOORD1`: 1).
    pub semantic_index: u32,
    /// The register (`v#` or `o#`).
    pub register: u32,
    /// Components present (bit 0 = x).
    pub mask: u8,
    /// The `D3D_NAME` system value (0 = none).
    pub system_value: u32,
    /// `D3D_REGISTER_COMPONENT_TYPE`: 1 uint, 2 sint, 3 float (0 unknown).
    pub component_type: u32,
}

impl SigElement {
    /// A container's input signature (`ISGN`/`ISG1`) and output signature
    /// (`OSGN`/`OSG5`/`OSG1`), owned; a signature the container lacks is empty.
    pub fn of_container(container: &dxbc::Container<'_>) -> dxbc::Result<(Vec<SigElement>, Vec<SigElement>)> {
        let signature = |fourccs: &[dxbc::FourCc]| -> dxbc::Result<Vec<SigElement>> {
            let Some((chunk, format)) = container
                .chunk_any(fourccs)
                .and_then(|chunk| Some((chunk, dxbc::SignatureFormat::for_fourcc(chunk.fourcc)?)))
            else {
                return Ok(Vec::new());
            };
            Ok(dxbc::Signature::parse(chunk.data, format)?
                .elements
                .iter()
                .map(|e| SigElement {
                    stream: e.stream,
                    semantic_name: e.semantic_name.to_string(),
                    semantic_index: e.semantic_index,
                    register: e.register,
                    mask: e.mask,
                    system_value: u32::from(e.system_value),
                    component_type: u32::from(e.component_type),
                })
                .collect())
        };
        Ok((
            signature(&[dxbc::FourCc::ISGN, dxbc::FourCc::ISG1])?,
            signature(&[dxbc::FourCc::OSGN, dxbc::FourCc::OSG5, dxbc::FourCc::OSG1])?,
        ))
    }
}

/// A `dcl_input*` declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputDecl {
    /// The `v#` register (for GS inputs, the attribute register, not the vertex).
    pub register: u32,
    /// The declared components (bit 0 = x).
    pub mask: u8,
    /// `dcl_input_sgv`/`_siv`: the system value the pipeline supplies (vertex_id,
    /// instance_id, primitive_id...); `Undefined` for plain inputs.
    pub system: SystemName,
    /// `dcl_input_ps*`: the declared interpolation mode (`constant`, `linear`,
    /// `linear noperspective centroid`...), which [`crate::raster`] follows; `Undefined`
    /// for other stages' inputs and for `dcl_input_ps_sgv` declarations without one.
    pub interpolation: InterpolationMode,
}

/// A `dcl_output*` declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputDecl {
    /// The stream it belongs to (0 when no `dcl_stream`).
    pub stream: u32,
    /// The `o#` register.
    pub register: u32,
    /// The declared components (bit 0 = x).
    pub mask: u8,
    /// `dcl_output_siv`/`_sgv`: the system value written (position, clip distance,
    /// render-target array index...); `Undefined` for plain outputs.
    pub system: SystemName,
}

/// A compiled program and what the pipeline needs to know about it.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The program's stage (vertex, geometry...).
    pub stage: ProgramType,
    /// The shader model, (major, minor): `(5, 0)` for `vs_5_0`.
    pub model: (u8, u8),
    /// `dcl_input*` declarations (not `vPrim`, `vGSInstanceID`...: those are system
    /// registers the machine is given directly).
    pub inputs: Vec<InputDecl>,
    /// `dcl_output*` declarations, with their streams.
    pub outputs: Vec<OutputDecl>,
    /// Input registers per vertex (highest declared `v#` + 1).
    pub input_registers: u32,
    /// Output registers (highest declared `o#` + 1).
    pub output_registers: u32,
    /// The input signature (ISGN or ISG1; empty when the container has none).
    pub input_signature: Vec<SigElement>,
    /// The output signature (OSGN, OSG5 or OSG1; empty when the container has none).
    pub output_signature: Vec<SigElement>,
    /// Geometry shaders: the input primitive (`dcl_inputprimitive`).
    pub input_primitive: Option<Primitive>,
    /// Geometry shaders: the vertices per input primitive (`dcl_inputprimitive`'s:
    /// 1 for points, 6 for triangles with adjacency); 0 for other stages.
    pub input_vertices: u32,
    /// Geometry shaders: each stream's output topology (stream 0 when none declared).
    pub output_topology: [Option<PrimitiveTopology>; 4],
    /// Streams declared with `dcl_stream` (bit n = stream n); 0 = none (stream 0 only).
    pub streams: u8,
    /// `dcl_maxout` (0 when absent).
    pub max_vertex_count: u32,
    /// `dcl_gsinstances` (1 when absent).
    pub instance_count: u32,
    /// The program reads `vPrim` (`SV_PrimitiveID`).
    pub uses_primitive_id: bool,
    /// The program reads `vGSInstanceID` (`SV_GSInstanceID`).
    pub uses_gs_instance_id: bool,
    /// Compute shaders: `dcl_thread_group` (threads per group in x, y, z); `[0; 3]`
    /// for other stages.
    pub thread_group: [u32; 3],
    /// Compute shaders: the thread-group shared memory every `g#` declares, in bytes.
    pub tgsm_bytes: u32,
    /// The slots the program declares (`dcl_constantbuffer`, `dcl_resource*`,
    /// `dcl_sampler`, `dcl_uav*`), in declaration order: what a draw binds for it.
    pub bindings: Vec<Binding>,
    /// The compiled instructions (private to the machine).
    #[allow(dead_code)]
    pub(crate) code: crate::machine::Code,
}

impl Plan {
    /// Decodes the container's program and signatures and compiles them.
    pub fn from_bytecode(bytes: &[u8]) -> Result<Plan, ExecError> {
        let container =
            dxbc::Container::parse(bytes).map_err(|e| ExecError::new(ExecErrorKind::Bytecode(e.to_string())))?;
        let chunk = container
            .chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])
            .ok_or_else(|| ExecError::new(ExecErrorKind::Bytecode("no SHDR/SHEX chunk".into())))?;
        let program = tpf::decode(chunk.data)
            .map_err(|e| ExecError::new(ExecErrorKind::Bytecode(e.rebased(chunk.data_offset()).to_string())))?;
        let (input_signature, output_signature) =
            SigElement::of_container(&container).map_err(|e| ExecError::new(ExecErrorKind::Bytecode(e.to_string())))?;
        Plan::compile(&program, input_signature, output_signature)
    }

    /// Compiles a decoded program with its signatures.
    pub fn compile(
        program: &tpf::Program<'_>,
        input_signature: Vec<SigElement>,
        output_signature: Vec<SigElement>,
    ) -> Result<Plan, ExecError> {
        crate::machine::compile(program, input_signature, output_signature)
    }

    /// Whether a draw runs this program's invocations in lanes, several at a time
    /// ([`pipeline::draw`](crate::pipeline::draw)): programs without UAV accesses and
    /// doubles whose registers and `dcl_maxout` fit the lanes' buffers. (Draws in
    /// checking mode run one invocation at a time.)
    pub fn runs_in_lanes(&self) -> bool {
        crate::machine::lanes::lane_capable(&self.code)
    }

    /// The output declarations of `stream`.
    pub fn stream_outputs(&self, stream: u32) -> impl Iterator<Item = &OutputDecl> {
        self.outputs.iter().filter(move |o| o.stream == stream)
    }
}

/// How a program declares one slot: which [`crate::Resources`] field binds it, and
/// with what kind of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BindingKind {
    /// `cb#` (`Resources::constant_buffers`): the declared size in 16-byte vectors.
    ConstantBuffer {
        /// The declared size in 16-byte vectors.
        vectors: u32,
    },
    /// `t#` declared with `dcl_resource_*` (`Srv::Buffer` for a buffer, else
    /// `Srv::Texture`): its dimension and, for multisampled textures, sample count.
    Texture {
        /// Buffer, 1D, 2D, 2D multisampled, 3D, cube, or an array of them.
        dimension: tpf::ResourceDimension,
        /// The declared sample count of a multisampled texture (0 for others).
        samples: u8,
    },
    /// `t#` declared with `dcl_resource_raw` (`Srv::Raw`).
    RawBuffer,
    /// `t#` declared with `dcl_resource_structured` (`Srv::Structured`).
    StructuredBuffer {
        /// The structure's size in bytes.
        stride: u32,
    },
    /// `s#` (`Resources::samplers`); `comparison` for `mode_comparison`.
    Sampler {
        /// Declared `mode_comparison`.
        comparison: bool,
    },
    /// `u#` declared with `dcl_uav_typed_*` (`Uav::Buffer` or `Uav::Texture`).
    TypedUav {
        /// Buffer, 1D, 2D, 3D, or an array of them.
        dimension: tpf::ResourceDimension,
    },
    /// `u#` declared with `dcl_uav_raw` (`Uav::Raw`).
    RawUav,
    /// `u#` declared with `dcl_uav_structured` (`Uav::Structured`).
    StructuredUav {
        /// The structure's size in bytes.
        stride: u32,
    },
}

/// One declared slot: its register number (the lower bound of a Shader Model 5.1
/// range) and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    /// The register number (`cb2`: 2).
    pub slot: u32,
    /// What it declares.
    pub kind: BindingKind,
}

/// The slots `program` declares, in declaration order.
pub(crate) fn declared_bindings(program: &tpf::Program<'_>) -> Vec<Binding> {
    use tpf::{Body, Decl};
    let mut out = Vec::new();
    for ins in program.iter() {
        let Body::Decl(d) = &ins.body else { continue };
        // SM5.1 declares `T0[lo:hi]` (an ID, then the range): the first index names
        // the slot before 5.1, the second from 5.1 on.
        let slot = |operand: &tpf::Operand| -> Option<u32> {
            let i = if program.version.major == 5 && program.version.minor >= 1 { 1 } else { 0 };
            operand.index(i).map(|x| u32::try_from(x.immediate()).unwrap_or(u32::MAX))
        };
        let (operand, kind) = match d {
            Decl::ConstantBuffer { operand, size, .. } => {
                let vectors = size
                    .or_else(|| {
                        ins.operand(*operand).index(1).map(|i| u32::try_from(i.immediate()).unwrap_or(u32::MAX))
                    })
                    .unwrap_or(0);
                (operand, BindingKind::ConstantBuffer { vectors })
            }
            Decl::Resource { operand, dim, sample_count, .. } => {
                (operand, BindingKind::Texture { dimension: *dim, samples: *sample_count })
            }
            Decl::ResourceRaw { operand, .. } => (operand, BindingKind::RawBuffer),
            Decl::ResourceStructured { operand, stride, .. } => {
                (operand, BindingKind::StructuredBuffer { stride: *stride })
            }
            Decl::Sampler { operand, mode, .. } => {
                (operand, BindingKind::Sampler { comparison: *mode == tpf::SamplerMode::Comparison })
            }
            Decl::UavTyped { operand, dim, .. } => (operand, BindingKind::TypedUav { dimension: *dim }),
            Decl::UavRaw { operand, .. } => (operand, BindingKind::RawUav),
            Decl::UavStructured { operand, stride, .. } => (operand, BindingKind::StructuredUav { stride: *stride }),
            _ => continue,
        };
        if let Some(slot) = slot(ins.operand(*operand)) {
            out.push(Binding { slot, kind });
        }
    }
    out
}
