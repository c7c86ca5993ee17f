//! A model of the Direct3D 11 device: the shader-creation API
//! (`ID3D11Device::Create*Shader`, `CreateGeometryShaderWithStreamOutput`,
//! `CreateClassLinkage`, the class linkage and class instance objects) with the
//! `HRESULT`s and out parameters of the C calls, and an immediate [`Context`] that
//! draws through the reference pipeline (input assembler, vertex and geometry shaders,
//! stream output, the rasterizer and pixel shader into render targets, queries) and
//! dispatches compute shaders ([`context`]'s "The pixel stage" and "The compute
//! stage").
//!
//! ```
//! use d3d11::context::{BindFlags, BufferDesc};
//! use d3d11::{Code, Device, DeviceDesc, FeatureLevel, HResult, InputElement, Runtime, StreamOutputDesc, Topology};
//! use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
//! use dxbc::{Builder, FourCc, Signature, SignatureElement, SignatureFormat};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // A vertex shader passing POSITION through to SV_Position: the program assembled
//!     // by the `tpf` crate, the signatures and container built with `dxbc`.
//!     let text = "vs_4_0\n\
//!                 dcl_input v0.xyzw\n\
//!                 dcl_output_siv o0.xyzw, position\n\
//!                 mov o0.xyzw, v0.xyzw\n\
//!                 ret\n";
//!     let program = tpf::parse::parse_program(text).map_err(|d| format!("{d:?}"))?.program;
//!     let tokens = tpf::encode(&program)?;
//!     let element = |name, system_value, rw_mask| SignatureElement {
//!         stream: 0,
//!         semantic_name: name,
//!         semantic_index: 0,
//!         system_value,
//!         component_type: ComponentType::Float32,
//!         register: 0,
//!         mask: 0b1111,
//!         rw_mask,
//!         min_precision: MinPrecision::Default,
//!     };
//!     let signature = |e| Signature { format: SignatureFormat::Basic, elements: vec![e], raw_layout: None }.to_bytes();
//!     let bytecode = Builder::new()
//!         .chunk(FourCc::ISGN, signature(element("POSITION", SystemValue::Undefined, 0b1111)))
//!         .chunk(FourCc::OSGN, signature(element("SV_Position", SystemValue::Position, 0)))
//!         .chunk(FourCc::SHDR, tokens.iter().flat_map(|t| t.to_le_bytes()).collect::<Vec<u8>>())
//!         .build()?;
//!
//!     // Create calls mirror the C signatures: bytecode, BytecodeLength, class linkage,
//!     // out parameter.
//!     let device = Device::new(DeviceDesc::new(FeatureLevel::L11_0, Runtime::D3D11_1));
//!     let mut vs = None;
//!     let created = device.create_vertex_shader(&bytecode, bytecode.len(), None, Some(&mut vs));
//!     assert_eq!(created.hr, HResult::S_OK);
//!     let vs = vs.ok_or("no shader")?;
//!     // No out parameter: validated, nothing created.
//!     let created = device.create_vertex_shader(&bytecode, bytecode.len(), None, None);
//!     assert_eq!(created.hr, HResult::S_FALSE);
//!     // Refused, with the validator's diagnostics: not a pixel shader.
//!     let created = device.create_pixel_shader(&bytecode, bytecode.len(), None, None);
//!     assert_eq!(created.hr, HResult::E_INVALIDARG);
//!     assert!(created.has(Code::WrongStage));
//!
//!     // Stream output of the vertex shader, through a geometry shader object made
//!     // from it.
//!     let mut so: StreamOutputDesc = "SV_Position.xyzw".parse()?;
//!     so.strides = vec![16];
//!     let mut gs = None;
//!     let created = device.create_geometry_shader_with_stream_output(&bytecode, bytecode.len(), &so, None, Some(&mut gs));
//!     assert_eq!(created.hr, HResult::S_OK, "{:?}", created.diagnostics);
//!
//!     // Draw two points and read back what stream output wrote.
//!     let points: Vec<u8> = [1.0f32, 2.0, 3.0, 1.0, 4.0, 5.0, 6.0, 1.0].iter().flat_map(|f| f.to_le_bytes()).collect();
//!     let vb = device.create_buffer(&BufferDesc::new(32, BindFlags::VERTEX_BUFFER), Some(&points))?;
//!     let target = device.create_buffer(&BufferDesc::new(64, BindFlags::STREAM_OUTPUT), None)?;
//!     let layout = device.create_input_layout(
//!         &[InputElement {
//!             semantic_name: "POSITION".into(),
//!             semantic_index: 0,
//!             format: exec::Format::R32G32B32A32_FLOAT,
//!             input_slot: 0,
//!             aligned_byte_offset: 0,
//!             per_instance: false,
//!             instance_data_step_rate: 0,
//!         }],
//!         &bytecode,
//!     )?;
//!     let mut context = device.immediate_context();
//!     context.ia_set_input_layout(Some(&layout));
//!     context.ia_set_vertex_buffers(0, &[Some(vb)], &[16], &[0]);
//!     context.ia_set_primitive_topology(Topology::PointList);
//!     context.vs_set_shader(Some(&vs), &[])?;
//!     context.gs_set_shader(gs.as_ref(), &[])?;
//!     context.so_set_targets(&[Some(target.clone())], &[0]);
//!     context.draw(2, 0)?;
//!     assert_eq!(target.filled_size(), 32);
//!     assert_eq!(target.bytes()[..32], points[..]);
//!     Ok(())
//! }
//! ```
//!
//! # What is validated
//!
//! A [`Device`] is a feature level, a runtime version (11.0 or 11.1) and the optional
//! capabilities its driver reports ([`DeviceDesc`]; [`Caps::typical`] by default). Every
//! create call hands the bytecode and its length to the validator,
//! [`validate::validate_call`] (or [`validate::validate_with_stream_output`]), for a
//! Direct3D 11 [`Target`] of the device with the stage of the call. The rules are the
//! validator's, each a row of [`validate::RULES`] with a stable code (`V101`...): the
//! length and the container (V1xx: `BytecodeLength` must be the container's size, the
//! checksum must match, the shader's type must be the call's, the model and stage must
//! exist at the feature level), instructions and registers per stage and model (V2xx),
//! geometry-shader limits and streams (V3xx, V4xx), UAVs outside pixel and compute
//! shaders, which the remarks of Microsoft's ID3D11Device::CreateGeometryShader page
//! allow only on the 11.1 runtime with a device that supports UAVs at every stage
//! (V5xx), optional features,
//! stream-output declarations (V6xx) and register and resource limits (V7xx). A raw
//! Shader Model 1–3 program is refused at every feature level (V116): the calls take
//! DXBC containers, and a 9_x device runs the Level 9 program of a
//! `*_4_0_level_9_x` container. `CreateGeometryShaderWithStreamOutput` takes its
//! declaration as arrays ([`StreamOutputDesc`], no entries being a NULL pointer) or as
//! the raw arguments ([`SoArguments`]: NULL apart from an empty array, the counts apart
//! from the arrays) with [`Device::create_geometry_shader_with_so_arguments`].
//!
//! # HRESULTs and the out parameter
//!
//! Each create call mirrors the C signature — bytecode, `BytecodeLength`, optional
//! class linkage, optional out parameter (`Option<&mut Option<Shader>>`, the
//! `ppShader` that may be `NULL`) — and returns a [`Created`]: the [`HResult`] and the
//! validator's diagnostics.
//!
//! - Refused by the validator: [`HResult::E_INVALIDARG`], with at least one
//!   diagnostic; the out object, if given, is left `None` (also when it held a shader
//!   before the call).
//! - Accepted, out parameter `None`: [`HResult::S_FALSE`] — "if this is NULL, all other
//!   parameters are validated and, if they pass, S_FALSE is returned instead of S_OK"
//!   (Microsoft's ID3D11Device::CreateGeometryShader page). Nothing is created, so nothing is registered with the linkage.
//! - Accepted, out parameter given: [`HResult::S_OK`] and a [`Shader`], which owns a
//!   copy of the bytecode and keeps its stage, model, [`validate::ProgramFacts`],
//!   stream-output declaration and class linkage.
//!
//! # Class linkage
//!
//! A shader created (`S_OK`) with a [`ClassLinkage`] registers the class types and
//! class instances of its `IFCE` chunk with it; a shader without `IFCE` registers
//! nothing. Class types get linkage-wide IDs in registration order; a name already
//! registered keeps its first registration. [`ClassLinkage::get_class_instance`]
//! returns a registered instance (element `index` of an instance array: the `IFCE`
//! record's field after the type index is its element count) or `E_INVALIDARG`;
//! [`ClassLinkage::create_class_instance`] makes an instance of a registered class type
//! or returns `E_INVALIDARG`. [`ClassInstance::desc`] is `D3D11_CLASS_INSTANCE_DESC`
//! with Microsoft's documented defaults for the members that do not apply (see
//! [`ClassInstanceDesc`]); [`ClassInstance::binding`] has the data's location in both
//! cases; [`Context::vs_set_shader`] binds instances to a shader's interface slots
//! ([`context`]'s "Class instances"). Only classes with data members have instances in
//! a compiled shader (fxc
//! optimises the others out), which is why the corpus's interface shaders register
//! class types but no instances.
//!
//! # Not modelled
//!
//! - Memory, device removal and driver failures: `E_OUTOFMEMORY`, `E_FAIL` (but for
//!   an internal inconsistency that does not occur), `DXGI_ERROR_UNSUPPORTED` and
//!   `DXGI_ERROR_DEVICE_REMOVED` are never returned by a create call.
//! - A class linkage created by another device (not checked).
//! - The hull and domain stages: the context has none ([`Shader::resolve_class_instances`]
//!   gives what `HSSetShader`/`DSSetShader` would bind). Class instances ARE modelled
//!   for the stages the context runs: `VSSetShader`, `GSSetShader`, `PSSetShader` and
//!   `CSSetShader` bind them and a draw or dispatch with an empty interface slot is
//!   refused ([`context`]'s "Class instances"), so `exec`'s default for an unbound
//!   slot (`tpf::interfaces`, our choice) is never reached through a [`Context`].
//! - Microsoft's remark that instances "can be created (or gotten) before or after a
//!   shader is created": here a class type or instance must already have been
//!   registered by a shader created with the linkage.
//! - Slot ranges of `CreateClassInstance`'s arguments (not documented; not checked).
//! - The debug layer's messages: the diagnostics are the validator's own.
//! - The 11.2 and 11.3 runtimes and Direct3D 12.
//!
//! Nothing here panics on any input.

#![warn(missing_docs)]

pub mod context;
mod device;
mod hresult;
mod linkage;

pub use context::{
    BindFlags, Buffer, BufferDesc, BufferView, CallError, Context, InputLayout, Query, QueryData, QueryKind,
    RasterizerDesc, RasterizerState, RenderTargetView, SamplerState, ShaderResourceView,
};
pub use device::{Created, Device, DeviceDesc, Shader};
pub use exec::pipeline::{DrawResult, IndexFormat, InputElement, PipelineStatistics, SoStatistics, Topology};
pub use hresult::{HResult, DXGI_ERROR_UNSUPPORTED, E_FAIL, E_INVALIDARG, E_NOTIMPL, E_OUTOFMEMORY, S_FALSE, S_OK};
pub use linkage::{
    ClassInstance, ClassInstanceDesc, ClassInstanceInfo, ClassLinkage, ClassTypeInfo, InstanceBinding,
    MAX_CLASS_INSTANCES,
};
pub use tpf::ProgramType;
pub use validate::{
    Caps, Code, Diagnostic, FeatureLevel, Location, ProgramFacts, Runtime, SoArguments, SoEntry, StreamOutputDesc,
    Target, NO_RASTERIZED_STREAM,
};
