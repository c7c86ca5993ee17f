//! The reference pipeline's side of the geometry-shader comparisons (`lavapipe_gs`,
//! `lavapipe_gs_native`, `opengl_gs_native`): the input layout of their draws, the
//! stream-output targets, and the geometry shader's resources — constant buffers,
//! typed buffers, 1D textures, samplers — generated once here for a corpus shader
//! ([`corpus_resources`]) so that every harness binds the same data as `exec`, and the
//! reference draw itself ([`draw`]).
//!
//! Included with `#[path = "support/gs_reference.rs"] mod gs_reference;`.
#![allow(dead_code)]

use std::collections::BTreeMap;

use corpus::Rng;
use exec::pipeline::{
    self, DrawCall, DrawResult, InputElement, Pipeline, SoTarget, StreamOutput, Topology, VertexBuffer,
};
use exec::resources::{AddressMode, Dimension, Filter, Sampler, Srv, TextureView};
use exec::{Format, Plan, Resources};
use tpf::{Body, Decl, Index};

/// One vertex buffer of `[u32; 4]` registers, register `r` at byte 16 × `r`:
/// `POSITION` floats (`position`), or `TEXCOORD r` unsigned integers.
pub fn input_layout(registers: impl IntoIterator<Item = u32>, position: bool) -> Vec<InputElement> {
    registers
        .into_iter()
        .map(|r| InputElement {
            semantic_name: if position { "POSITION".into() } else { "TEXCOORD".into() },
            semantic_index: if position { 0 } else { r },
            format: if position { Format::R32G32B32A32_FLOAT } else { Format::R32G32B32A32_UINT },
            input_slot: 0,
            aligned_byte_offset: 16 * r,
            per_instance: false,
            instance_data_step_rate: 0,
        })
        .collect()
}

/// Stream-output targets over `memory`, one per slot; an empty slot is unbound.
pub fn so_targets(memory: &mut [Vec<u8>]) -> [Option<SoTarget<'_>>; 4] {
    let mut it = memory.iter_mut();
    std::array::from_fn(|_| {
        let m = it.next()?;
        (!m.is_empty()).then_some(SoTarget { data: m.as_mut_slice(), offset: 0 })
    })
}

/// One draw of a geometry-shader comparison as the reference pipeline takes it.
pub struct ReferenceDraw<'a> {
    pub vs: &'a [u8],
    pub gs: &'a [u8],
    pub topology: Topology,
    /// Vertex data: `stride` vec4s per vertex (bits).
    pub data: &'a [[u32; 4]],
    pub stride: u32,
    /// The input layout's registers and their kind ([`input_layout`]).
    pub registers: &'a [u32],
    pub position: bool,
    pub vertices: u32,
    pub so: &'a streamout::StreamOutputDesc,
    /// Bytes of each slot's buffer.
    pub so_sizes: [usize; 4],
    /// The geometry shader's resources.
    pub res: &'a GsResources,
    /// Whether the streams' primitives are captured ([`Pipeline::capture`]).
    pub capture: bool,
}

/// Draws `d` through the reference pipeline (`exec::pipeline::draw`, stream output to
/// slots of `d.so_sizes` bytes): the draw's result and the slots' bytes after it.
pub fn draw(d: &ReferenceDraw<'_>) -> Result<(DrawResult, [Vec<u8>; 4]), String> {
    let vs = Plan::from_bytecode(d.vs).map_err(|e| format!("exec vs: {e}"))?;
    let gs = Plan::from_bytecode(d.gs).map_err(|e| format!("exec gs: {e}"))?;
    let layout = input_layout(d.registers.iter().copied(), d.position);
    let bytes: Vec<u8> = d.data.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
    let buffers = [Some(VertexBuffer { data: &bytes, stride: 16 * d.stride.max(1), offset: 0 })];
    let mut memory = d.so_sizes.map(|n| vec![0u8; n]);
    let targets = so_targets(&mut memory);
    let gs_resources = d.res.reference()?;
    let mut state = Pipeline {
        input_layout: &layout,
        vertex_buffers: &buffers,
        index_buffer: None,
        topology: d.topology,
        vs: Some(&vs),
        gs: Some(&gs),
        vs_resources: Resources::default(),
        gs_resources,
        stream_output: Some(StreamOutput { declaration: d.so, targets }),
        capture: d.capture,
        step_limit: exec::Machine::DEFAULT_STEP_LIMIT,
        checking: false,
    };
    let r = pipeline::draw(&mut state, DrawCall::Draw { vertex_count: d.vertices, start_vertex: 0 })
        .map_err(|e| format!("exec draw: {e}"))?;
    drop(state);
    Ok((r, memory))
}

/// Resources with the constant buffers `cbs` bound at their slots.
pub fn with_constant_buffers(cbs: &BTreeMap<u32, Vec<[u32; 4]>>) -> Resources<'_> {
    let mut resources = Resources::default();
    for (&r, cb) in cbs {
        if let Some(slot) = resources.constant_buffers.get_mut(r as usize) {
            *slot = Some(cb.as_slice());
        }
    }
    resources
}

/// Texels of a corpus shader's 1D textures (pseudo-random floats in [-1, 1]).
pub const TEXTURE_WIDTH: usize = 1024;

/// A shader resource view of a geometry shader.
pub enum GsSrv {
    /// A typed buffer (`dcl_resource_buffer`) of `format`: the 32-bit format of the
    /// component count and type the reflection gives (`float3`: `R32G32B32_FLOAT`), the
    /// view an application makes of an array of that type.
    Buffer(Format, Vec<u8>),
    /// A 1D texture of one level: its `R32G32B32A32_FLOAT` texels' bytes.
    Texture1D(Vec<u8>),
    /// A texture of one level of `dimension` (2D, 2D array), `R32G32B32A32_FLOAT`
    /// texels' bytes, `layers` slices of `height` rows of `width`.
    Texture { dimension: Dimension, width: u32, height: u32, layers: u32, bytes: Vec<u8> },
}

impl GsSrv {
    /// A 1D texture's texels.
    pub fn texels(bytes: &[u8]) -> Vec<[f32; 4]> {
        bytes
            .chunks_exact(16)
            .map(|t| std::array::from_fn(|c| f32::from_le_bytes([t[4 * c], t[4 * c + 1], t[4 * c + 2], t[4 * c + 3]])))
            .collect()
    }
}

/// A geometry shader's resources: constant buffers, shader resource views and samplers
/// (point filtering, clamp addressing), by register.
#[derive(Default)]
pub struct GsResources {
    pub cbs: BTreeMap<u32, Vec<[u32; 4]>>,
    pub srvs: BTreeMap<u32, GsSrv>,
    pub samplers: Vec<u32>,
}

impl GsResources {
    /// The translation's options: the typed buffers' formats as bindings.
    pub fn options(&self) -> translate::Options {
        let text: String = self
            .srvs
            .iter()
            .filter_map(|(r, v)| match v {
                GsSrv::Buffer(f, _) => Some(format!("t{r} = {}\n", f.name())),
                GsSrv::Texture1D(_) | GsSrv::Texture { .. } => None,
            })
            .collect();
        translate::Options { bindings: translate::Bindings::parse(&text).expect("formats"), ..Default::default() }
    }

    /// The reference's resources: every one bound at its register.
    pub fn reference(&self) -> Result<Resources<'_>, String> {
        let mut resources = with_constant_buffers(&self.cbs);
        for (&r, v) in &self.srvs {
            let srv = match v {
                GsSrv::Buffer(f, bytes) => Srv::Buffer { data: bytes, format: *f },
                GsSrv::Texture1D(bytes) => Srv::Texture(TextureView {
                    dimension: Dimension::Texture1D,
                    format: Format::R32G32B32A32_FLOAT,
                    width: (bytes.len() / 16) as u32,
                    height: 1,
                    depth: 1,
                    array_size: 1,
                    mip_levels: 1,
                    data: bytes,
                }),
                &GsSrv::Texture { dimension, width, height, layers, ref bytes } => Srv::Texture(TextureView {
                    dimension,
                    format: Format::R32G32B32A32_FLOAT,
                    width,
                    height,
                    depth: 1,
                    array_size: layers,
                    mip_levels: 1,
                    data: bytes,
                }),
            };
            if resources.srvs.len() <= r as usize {
                resources.srvs.resize(r as usize + 1, None);
            }
            resources.srvs[r as usize] = Some(srv);
        }
        for &r in &self.samplers {
            if let Some(slot) = resources.samplers.get_mut(r as usize) {
                *slot = Some(Sampler {
                    min: Filter::Point,
                    mag: Filter::Point,
                    mip: Filter::Point,
                    address: [AddressMode::Clamp; 3],
                    ..Sampler::default()
                });
            }
        }
        Ok(resources)
    }
}

/// A typed buffer's word: half the time a small integer as a float (an index shaders
/// convert with `ftoi`), else a float in [-2, 2].
fn buffer_word(rng: &mut Rng) -> u32 {
    if rng.below(2) == 0 {
        (rng.below(16) as f32).to_bits()
    } else {
        ((rng.below(4001) as f32 - 2000.0) / 1000.0).to_bits()
    }
}

/// The resources a corpus geometry shader (DXBC container) declares, with generated
/// contents, in declaration order from `rng`: constant buffers of pseudo-random floats
/// in [-2, 2]; typed buffers of 64 elements of the 32-bit format of the reflection's
/// component count and return type, filled by [`buffer_word`]; 1D float textures of
/// [`TEXTURE_WIDTH`] texels in [-1, 1]; default-mode samplers. Other resources are
/// `Err` (why the shader is not compared).
pub fn corpus_resources(bytes: &[u8], rng: &mut Rng) -> Result<GsResources, String> {
    let c = dxbc::Container::parse(bytes).map_err(|e| e.to_string())?;
    let chunk = c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).ok_or("no program")?;
    let program = tpf::decode(chunk.data).map_err(|e| e.to_string())?;
    let mut res = GsResources::default();
    // The reflection's component count of each texture binding (`float3`: 3).
    let rdef = c.chunk_any(&[dxbc::FourCc::RDEF]).and_then(|ch| dxbc::Rdef::parse(ch.data).ok());
    let components = |r: u32| -> u32 {
        rdef.as_ref()
            .and_then(|rd| {
                rd.bindings.iter().find(|b| b.input_type == dxbc::rdef::ShaderInputType::Texture && b.bind_point == r)
            })
            .map_or(4, |b| ((b.flags >> 2) & 3) + 1)
    };
    let other = || "not compared: reads resources other than typed buffers and 1D textures".to_string();
    for ins in program.iter() {
        let Body::Decl(d) = ins.body else { continue };
        match d {
            Decl::ConstantBuffer { operand, .. } => {
                let o = ins.operand(operand);
                if let (Some(r), Some(Index::Imm32(n))) = (o.register(), o.index(1)) {
                    let v = (0..n.clamp(1, 4096))
                        .map(|_| [0; 4].map(|_| ((rng.below(4001) as f32 - 2000.0) / 1000.0).to_bits()))
                        .collect();
                    res.cbs.insert(r as u32, v);
                }
            }
            Decl::Resource { operand, dim, return_type, .. } => {
                let r = ins.operand(operand).register().ok_or("a resource range")? as u32;
                let ty = return_type.types[0];
                match dim {
                    tpf::ResourceDimension::Buffer => {
                        let name = match (components(r), ty) {
                            (n @ 1..=4, tpf::ReturnType::Float | tpf::ReturnType::Uint | tpf::ReturnType::Sint) => {
                                let t = match ty {
                                    tpf::ReturnType::Float => "FLOAT",
                                    tpf::ReturnType::Uint => "UINT",
                                    _ => "SINT",
                                };
                                format!("{}_{t}", ["R32", "R32G32", "R32G32B32", "R32G32B32A32"][n as usize - 1])
                            }
                            _ => return Err("not compared: a typed buffer of another type".into()),
                        };
                        let format = Format::from_name(&name).ok_or("format")?;
                        let words = 64 * format.size() / 4;
                        let bytes = (0..words).flat_map(|_| buffer_word(rng).to_le_bytes()).collect();
                        res.srvs.insert(r, GsSrv::Buffer(format, bytes));
                    }
                    tpf::ResourceDimension::Texture1D if ty == tpf::ReturnType::Float => {
                        let bytes = (0..TEXTURE_WIDTH * 4)
                            .flat_map(|_| ((rng.below(2001) as f32 - 1000.0) / 1000.0).to_le_bytes())
                            .collect();
                        res.srvs.insert(r, GsSrv::Texture1D(bytes));
                    }
                    _ => return Err(other()),
                }
            }
            Decl::Sampler { operand, mode: tpf::SamplerMode::Default, .. } => {
                res.samplers.push(ins.operand(operand).register().ok_or("a sampler range")? as u32);
            }
            Decl::ResourceRaw { .. } | Decl::ResourceStructured { .. } | Decl::Sampler { .. } => return Err(other()),
            _ => {}
        }
    }
    Ok(res)
}

/// A float vertex input word of a corpus draw: 0.0 or 1.0 a quarter of the time each
/// (the values shaders compare flags with), a small integer's bits an eighth, else a
/// float in [-2, 2].
fn input_word(rng: &mut Rng) -> u32 {
    match rng.below(8) {
        0 | 1 => 0,
        2 | 3 => 1.0f32.to_bits(),
        4 => rng.below(16) as u32,
        _ => ((rng.below(4001) as f32 - 2000.0) / 1000.0).to_bits(),
    }
}

/// The vertex data of a corpus geometry shader's draw (DXBC container `bytes`):
/// `registers` vec4s (bits) per vertex for `vertices` vertices, register by register;
/// the components the shader's input signature types as integers are small integers
/// (indices, counts, flags), the others [`input_word`]s.
pub fn corpus_inputs(bytes: &[u8], vertices: u32, registers: u32, rng: &mut Rng) -> Result<Vec<[u32; 4]>, String> {
    let c = dxbc::Container::parse(bytes).map_err(|e| e.to_string())?;
    let mut integer = vec![0u8; registers as usize];
    if let Some(isgn) = c.chunk_any(&[dxbc::FourCc::ISGN, dxbc::FourCc::ISG1]) {
        let format = dxbc::SignatureFormat::for_fourcc(isgn.fourcc).ok_or("format")?;
        let sig = dxbc::Signature::parse_fields(isgn.data, format).map_err(|e| e.to_string())?;
        for e in &sig.elements {
            let int = matches!(u32::from(e.component_type), 1 | 2);
            if let (true, Some(m)) = (int, integer.get_mut(e.register as usize)) {
                *m |= e.mask;
            }
        }
    }
    Ok((0..vertices * registers)
        .map(|k| {
            let int = integer[(k % registers) as usize];
            let mut c = 0;
            [0; 4].map(|_| {
                c += 1;
                if int & (1 << (c - 1)) != 0 {
                    rng.below(16) as u32
                } else {
                    input_word(rng)
                }
            })
        })
        .collect())
}
