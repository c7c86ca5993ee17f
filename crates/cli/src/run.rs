//! `dxref run`: one draw through the reference pipeline (input assembly, vertex shader,
//! geometry shader, stream output), printing the primitives, and writing them with the
//! stream-output buffers and the statistics as JSON, and the rasterized stream as SVG.

use std::fmt::Write as _;

use d3d11::{Device, DeviceDesc};
use exec::pipeline::{
    self, DrawCall, InputElement, Pipeline, SoTarget, StreamOutput, StreamPrimitives, Topology, VertexBuffer,
};
use exec::{Format, Plan};
use inputs::binding::Stage;
use serde_json::{json, Value};
use validate::{FeatureLevel, Runtime, SoArguments, StreamOutputDesc};

use std::ffi::{OsStr, OsString};

use crate::input::{self, Source};
use crate::output::Output;
use crate::{status, Failure, Outcome};

/// The command's options.
#[derive(clap::Args, Debug)]
// The fields' comments are clap's help text: `[cs:]` and the like are the usage syntax,
// not links.
#[allow(rustdoc::broken_intra_doc_links)]
pub struct Options {
    /// The vertex shader: a DXBC blob, an fxc /Fh header or a listing.
    #[arg(long, value_name = "FILE")]
    pub vs: Option<OsString>,
    /// The geometry shader (without --vs, the input vertices feed it directly).
    #[arg(long, value_name = "FILE")]
    pub gs: Option<OsString>,
    /// A compute shader to dispatch instead of a draw (with --dispatch; its UAVs from
    /// --uav).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["vs", "gs", "input"])]
    pub cs: Option<OsString>,
    /// The array of --cs's fxc /Fh header.
    #[arg(long = "cs-var", value_name = "NAME")]
    pub cs_var: Option<String>,
    /// With --cs: the thread groups, `X,Y,Z` (Dispatch(X, Y, Z); default 1,1,1).
    #[arg(long, value_name = "X,Y,Z")]
    pub dispatch: Option<String>,
    /// With --cs: a UAV's initial memory, [cs:][spaceN:]SLOT=FILE[:FORMAT] (SLOT 0..63,
    /// also u2): words (.json, as for --cb) or raw bytes; FORMAT for a typed buffer.
    /// A declared UAV without one is --uav-size zero bytes. Repeatable.
    #[arg(long = "uav", value_name = "[cs:]SLOT=FILE[:FORMAT]")]
    pub uav: Vec<String>,
    /// With --cs: the size in bytes of each declared UAV no --uav gives (at most 256 MiB).
    #[arg(long = "uav-size", value_name = "BYTES", default_value_t = 4096)]
    pub uav_size: u32,
    /// In an fxc /Fh header with several arrays, the one to read (for --vs and --gs;
    /// --vs-var and --gs-var choose apart).
    #[arg(long = "var", value_name = "NAME")]
    pub var: Option<String>,
    /// The array of --vs's fxc /Fh header.
    #[arg(long = "vs-var", value_name = "NAME")]
    pub vs_var: Option<String>,
    /// The array of --gs's fxc /Fh header.
    #[arg(long = "gs-var", value_name = "NAME")]
    pub gs_var: Option<String>,
    /// The vertices: a JSON array of objects keyed by semantic
    /// (`{"SV_Position": [x, y, z, w], "TEXCOORD1": [u, v]}`) or CSV with columns
    /// `SEMANTIC[INDEX].x|y|z|w`. A component may also be "NaN", "inf", "-inf" or a
    /// 32-bit pattern ("0x3f800000").
    #[arg(long, value_name = "FILE")]
    pub input: Option<OsString>,
    /// pointlist, linelist, linestrip, trianglelist, trianglestrip, or their _adj
    /// forms (default: what the geometry shader takes, else pointlist).
    #[arg(long)]
    pub topology: Option<String>,
    /// Draw this many instances (DrawInstanced).
    #[arg(long, default_value_t = 1)]
    pub instances: u32,
    /// Stream output declaration (the syntax of `dxref validate --so`).
    #[arg(long, value_name = "DECL")]
    pub so: Option<String>,
    /// Stream output as the call's raw arguments in a JSON file (the form of `dxref
    /// validate --so-json`).
    #[arg(long = "so-json", value_name = "FILE")]
    pub so_json: Option<String>,
    /// Stream-output buffer strides in bytes, comma-separated.
    #[arg(long = "so-strides", value_name = "N,...")]
    pub so_strides: Option<String>,
    /// The rasterized stream: 0..3 or `none`.
    #[arg(long = "so-rasterized", value_name = "N|none")]
    pub so_rasterized: Option<String>,
    /// Size in bytes of each stream-output buffer (at most 256 MiB).
    #[arg(long = "so-buffer-size", value_name = "BYTES", default_value_t = 1 << 20)]
    pub so_buffer_size: u32,
    /// Write the text report (primitives and statistics) to FILE instead of standard
    /// output (`-`: standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<OsString>,
    /// Write the primitives, the stream-output buffers and the statistics as JSON (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<OsString>,
    /// Draw the primitives of every stream with a position at (x/w, y/w), y up, as an
    /// SVG picture: axes in normalized device coordinates, the viewport square, a
    /// legend, and notes on what could not be drawn.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<OsString>,
    /// The picture's options (`--png`, `--labels`, `--fill-by`).
    #[command(flatten)]
    pub picture: crate::picture::PictureOptions,
    /// Write every output component as its 32-bit pattern ("0x3f800000", NaN payloads
    /// included) in the JSON and the printed primitives (--input takes the same).
    #[arg(long)]
    pub hex: bool,
    /// Give each output vertex its provenance, for aligning two implementations'
    /// outputs: the input primitive (counted over the whole draw), the GS instance and
    /// which emit of that invocation produced it.
    #[arg(long)]
    pub provenance: bool,
    /// What the shaders read and which API creates them (`--cb`, `--srv`,
    /// `--sampler`, `--api`).
    #[command(flatten)]
    pub bind: crate::bind::BindOptions,
    /// Report emits of outputs not written since the previous emit (undefined values).
    #[arg(long)]
    pub check: bool,
    /// Print nothing on standard output.
    #[arg(long)]
    pub quiet: bool,
}

/// The largest stream-output buffer `dxref run` allocates.
const MAX_SO_BUFFER: u32 = 256 << 20;

/// The most input vertices (× instances) a draw whose primitives are kept may have.
const MAX_CAPTURED_VERTICES: u64 = 1 << 22;

/// `D3D_NAME` values of the signature elements the pipeline supplies itself.
const SV_VERTEX_ID: u32 = 6;
const SV_PRIMITIVE_ID: u32 = 7;
const SV_INSTANCE_ID: u32 = 8;

/// A shader read from a file (binary, /Fh header or listing) and created with the
/// API's rules.
struct Loaded {
    name: String,
    plan: Plan,
    /// The slots it declares.
    declared: Vec<crate::bind::Declared>,
}

fn load(
    api: crate::bind::Api,
    device: &Device,
    file: &OsStr,
    var: Option<&str>,
    stage: tpf::ProgramType,
    so: Option<&SoArguments>,
) -> Result<Loaded, Failure> {
    let source = Source::from_arg(file);
    let bytes = input::shader(&source, var)?;
    let name = source.name().into_owned();
    crate::bind::create(api, device, &bytes, &name, stage, so)?;
    let compiled = crate::bind::compile(&bytes, &name)?;
    Ok(Loaded { name, plan: compiled.plan, declared: compiled.declared })
}

use inputs::vertices::{special_float, InputVertex};

/// Reads the vertices: a JSON array of objects keyed by semantic (`"TEXCOORD1": [u, v]`),
/// or CSV with columns `SEMANTIC[INDEX].c` (c in x, y, z, w).
fn read_vertices(file: &OsStr) -> Result<Vec<InputVertex>, Failure> {
    let source = Source::from_arg(file);
    let name = &*source.name();
    let text = String::from_utf8(input::read(&source)?)
        .map_err(|e| Failure::input(format!("{name}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to())))?;
    inputs::vertices::read(&text)
        .map_err(|e| Failure::input(if e.has_line() { format!("{name}:{e}") } else { format!("{name}: {e}") }))
}

/// The 32-bit word for component value `v` of an element of component type `kind`
/// (1 uint, 2 sint, else float): integers must be whole and in range; `"0x3f800000"`
/// gives the bits in any type.
fn component_word(v: &Value, kind: u32) -> Result<u32, String> {
    let hex = |s: &&str| s.trim().get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0x"));
    if let Some(bits) = v.as_str().filter(hex).and_then(inputs::binding::string_word) {
        return Ok(bits);
    }
    match kind {
        1 => v.as_u64().and_then(|x| u32::try_from(x).ok()).ok_or_else(|| format!("{v} is not a uint (0..4294967295)")),
        2 => v
            .as_i64()
            .and_then(|x| i32::try_from(x).ok())
            .map(|x| x as u32)
            .ok_or_else(|| format!("{v} is not an int (-2147483648..2147483647)")),
        _ => match v {
            Value::String(s) => special_float(s).map(f32::to_bits).ok_or_else(|| format!("{v} is not a number")),
            _ => v.as_f64().map(|x| (x as f32).to_bits()).ok_or_else(|| format!("{v} is not a number")),
        },
    }
}

/// Builds the vertex buffer (one slot, each element four 32-bit components) and the
/// input layout for the first stage's input signature.
fn vertex_data(
    plan: &Plan,
    vertices: &[InputVertex],
    name: &str,
) -> Result<(Vec<u8>, Vec<InputElement>, u32), Failure> {
    let mut layout = Vec::new();
    let mut kinds = Vec::new();
    for e in &plan.input_signature {
        if matches!(e.system_value, SV_VERTEX_ID | SV_INSTANCE_ID | SV_PRIMITIVE_ID)
            && e.semantic_name.starts_with("SV_")
        {
            continue;
        }
        if layout.iter().any(|l: &InputElement| {
            l.semantic_name.eq_ignore_ascii_case(&e.semantic_name) && l.semantic_index == e.semantic_index
        }) {
            continue;
        }
        let format = match e.component_type {
            1 => Format::R32G32B32A32_UINT,
            2 => Format::R32G32B32A32_SINT,
            _ => Format::R32G32B32A32_FLOAT,
        };
        layout.push(InputElement {
            semantic_name: e.semantic_name.clone(),
            semantic_index: e.semantic_index,
            format,
            input_slot: 0,
            aligned_byte_offset: 16 * layout.len() as u32,
            per_instance: false,
            instance_data_step_rate: 0,
        });
        kinds.push(e.component_type);
    }
    let stride = 16 * layout.len() as u32;
    let mut data = vec![0u8; stride as usize * vertices.len()];
    for (i, vertex) in vertices.iter().enumerate() {
        for (semantic, index, _) in vertex {
            if !layout.iter().any(|l| l.semantic_name.eq_ignore_ascii_case(semantic) && l.semantic_index == *index) {
                let known: Vec<String> =
                    layout.iter().map(|l| format!("{}{}", l.semantic_name, l.semantic_index)).collect();
                return Err(Failure::input(format!(
                    "vertex {i}: {semantic}{index} is not an input of {name} (its inputs: {})",
                    known.join(", ")
                )));
            }
        }
        for (slot, (element, kind)) in layout.iter().zip(&kinds).enumerate() {
            let given = vertex
                .iter()
                .find(|(s, idx, _)| s.eq_ignore_ascii_case(&element.semantic_name) && *idx == element.semantic_index);
            let Some((_, _, values)) = given else {
                return Err(Failure::input(format!(
                    "vertex {i}: no value for {}{}, an input of {name}",
                    element.semantic_name, element.semantic_index
                )));
            };
            let at = i * stride as usize + slot * 16;
            for c in 0..4 {
                let word = match (values.get(c), kind) {
                    (Some(v), _) => component_word(v, *kind).map_err(|e| {
                        Failure::input(format!(
                            "vertex {i}: {}{} component {c}: {e}",
                            element.semantic_name, element.semantic_index
                        ))
                    })?,
                    (None, 1 | 2) => (c == 3) as u32,
                    (None, _) => {
                        if c == 3 {
                            1.0f32.to_bits()
                        } else {
                            0
                        }
                    }
                };
                data[at + 4 * c..at + 4 * c + 4].copy_from_slice(&word.to_le_bytes());
            }
        }
    }
    Ok((data, layout, stride))
}

/// The IA topology the GS takes (or point list).
fn default_topology(gs: Option<&Plan>) -> Topology {
    gs.and_then(|p| p.input_primitive).and_then(Topology::list_for).unwrap_or(Topology::PointList)
}

/// A 32-bit value as JSON, by component type (NaN and infinities as strings); with
/// `hex`, its bits (`"0x3f800000"`).
fn word_json(word: u32, component_type: u32, hex: bool) -> Value {
    if hex {
        return json!(format!("{word:#010x}"));
    }
    match component_type {
        1 => json!(word),
        2 => json!(word as i32),
        _ => {
            let f = f32::from_bits(word);
            // The shortest decimal that reads back as this f32 (0.2, not 0.2000000029...).
            match format!("{f}").parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
                Some(n) if f.is_finite() => Value::Number(n),
                _ => json!(f.to_string()),
            }
        }
    }
}

fn mask_components(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| mask & (1 << c) != 0)
}

/// A signature element's key: its semantic name, with the index when it is not 0
/// (`TEXCOORD1`), as the input file spells them.
fn semantic_key(name: &str, index: u32) -> String {
    if index == 0 {
        name.to_string()
    } else {
        format!("{name}{index}")
    }
}

/// A vertex's declared outputs: (key, values), in signature order.
fn vertex_values(stream: &StreamPrimitives, vertex: &pipeline::Vertex, hex: bool) -> Vec<(String, Vec<Value>)> {
    stream
        .signature
        .iter()
        .filter(|e| e.stream == stream.stream)
        .map(|e| {
            let reg = vertex.registers.get(e.register as usize).copied().unwrap_or([0; 4]);
            let values = mask_components(e.mask).map(|c| word_json(reg[c], e.component_type, hex)).collect();
            (semantic_key(&e.semantic_name, e.semantic_index), values)
        })
        .collect()
}

/// The key of a vertex's provenance in the JSON (`$` starts no semantic name).
const PROVENANCE_KEY: &str = "$provenance";

/// A vertex's provenance: `{"input_primitive": 3, "gs_instance": 0, "emission": 2}`
/// (the last two `null` without a geometry shader).
fn provenance_json(p: &pipeline::Provenance) -> Value {
    json!({ "input_primitive": p.input_primitive, "gs_instance": p.gs_instance, "emission": p.emission })
}

fn vertex_json(stream: &StreamPrimitives, vertex: &pipeline::Vertex, options: &Options) -> Value {
    let mut object: serde_json::Map<String, Value> =
        vertex_values(stream, vertex, options.hex).into_iter().map(|(k, v)| (k, Value::Array(v))).collect();
    if options.provenance {
        object.insert(PROVENANCE_KEY.into(), provenance_json(&vertex.provenance));
    }
    Value::Object(object)
}

/// `SV_Position=(-0.7, -0.6, 0.5, 1) COLOR=(1, 0.2, 0.2, 1)`, after `[prim 3 inst 0
/// emit 2] ` with the provenance.
fn vertex_text(stream: &StreamPrimitives, vertex: &pipeline::Vertex, options: &Options) -> String {
    let mut text = String::new();
    if options.provenance {
        let p = &vertex.provenance;
        let _ = write!(text, "[prim {}", p.input_primitive);
        if let (Some(i), Some(e)) = (p.gs_instance, p.emission) {
            let _ = write!(text, " inst {i} emit {e}");
        }
        text.push_str("] ");
    }
    let parts: Vec<String> = vertex_values(stream, vertex, options.hex)
        .into_iter()
        .map(|(k, v)| {
            let values: Vec<String> = v.iter().map(|x| x.to_string().trim_matches('"').to_string()).collect();
            format!("{k}=({})", values.join(", "))
        })
        .collect();
    text + &parts.join(" ")
}

fn topology_name(t: tpf::PrimitiveTopology) -> &'static str {
    t.listing_name().unwrap_or("undefined")
}

/// The array name for a shader file: `--vs-var`/`--gs-var`, else `--var`.
fn var_for<'a>(specific: &'a Option<String>, common: &'a Option<String>) -> Option<&'a str> {
    specific.as_deref().or(common.as_deref())
}

/// `dxref run`: creates the shaders as the API would, binds the files given, draws
/// once through IA -> VS -> GS -> SO, and writes the primitives, the stream-output
/// buffers and the statistics (text, `--out` JSON, `--svg`/`--png` picture). Status 2
/// for unreadable inputs or options, 1 for a refused shader or a failing draw.
pub fn run(options: &Options) -> Outcome {
    let device = Device::new(DeviceDesc::new(FeatureLevel::L11_1, Runtime::D3D11_1));
    let api = options.bind.api()?;
    if let Some(cs) = &options.cs {
        let loaded = load(api, &device, cs, var_for(&options.cs_var, &options.var), tpf::ProgramType::Compute, None)?;
        return crate::dispatch::run(options, &loaded.name, &loaded.plan, &loaded.declared);
    }
    if options.dispatch.is_some() || !options.uav.is_empty() {
        return Err(Failure::input("--dispatch and --uav go with --cs".into()));
    }
    let so_api = match api {
        crate::bind::Api::D3D11 => device.desc().target(None).api,
        crate::bind::Api::D3D12 => validate::Api::D3D12,
    };
    if options.so_buffer_size > MAX_SO_BUFFER {
        return Err(Failure::input(format!(
            "--so-buffer-size {}: at most {MAX_SO_BUFFER} bytes per buffer",
            options.so_buffer_size
        )));
    }
    let so_options = crate::check::SoOptions {
        so: options.so.as_deref(),
        json: options.so_json.as_deref(),
        strides: options.so_strides.as_deref(),
        rasterized: options.so_rasterized.as_deref(),
    };
    if !so_options.given() && (options.so_strides.is_some() || options.so_rasterized.is_some()) {
        return Err(Failure::input("--so-strides and --so-rasterized need --so DECL".into()));
    }
    if options.vs.is_none() && options.gs.is_none() {
        return Err(Failure::input("run needs --vs, --gs or both".into()));
    }
    // Stream output goes with the last stage before the rasterizer.
    let last_is_gs = options.gs.is_some();
    let vs_var = var_for(&options.vs_var, &options.var);
    let gs_var = var_for(&options.gs_var, &options.var);
    let last = if last_is_gs { (&options.gs, gs_var) } else { (&options.vs, vs_var) };
    let so_args = match (so_options.given(), last) {
        (true, (Some(file), var)) => so_options.arguments(so_api, &input::shader(&Source::from_arg(file), var)?)?,
        _ => None,
    };
    // What the call reads of them: the declaration the pipeline writes.
    let so: Option<StreamOutputDesc> = so_args.as_ref().map(|a| a.read().0);
    let vs = match &options.vs {
        Some(f) => Some(load(
            api,
            &device,
            f,
            vs_var,
            tpf::ProgramType::Vertex,
            if last_is_gs { None } else { so_args.as_ref() },
        )?),
        None => None,
    };
    let gs = match &options.gs {
        Some(f) => Some(load(api, &device, f, gs_var, tpf::ProgramType::Geometry, so_args.as_ref())?),
        None => None,
    };
    let first = vs.as_ref().or(gs.as_ref()).expect("one stage");
    // What the shaders read: bound, or warned about.
    let shaders: Vec<crate::bind::StageShader<'_>> = [(Stage::Vertex, vs.as_ref()), (Stage::Geometry, gs.as_ref())]
        .into_iter()
        .filter_map(|(stage, l)| l.map(|l| crate::bind::StageShader { stage, name: &l.name, declared: &l.declared }))
        .collect();
    let (bindings, warnings) = crate::bind::Bindings::read(&options.bind, &shaders)?;
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    let draws_picture = options.svg.is_some() || options.picture.png.is_some();
    let vertices = match &options.input {
        Some(f) => read_vertices(f)?,
        None => return Err(Failure::input("run needs --input vertices.json|.csv".into())),
    };
    let (data, layout, stride) = vertex_data(&first.plan, &vertices, &first.name)?;
    // Every primitive is kept for printing: bound the draw so that it cannot exhaust
    // memory (a draw for stream output only, with --quiet and no --out/--svg, is not).
    let total = vertices.len() as u64 * options.instances as u64;
    let keeps_primitives = !(options.quiet && options.out.is_none() && !draws_picture);
    if keeps_primitives && total > MAX_CAPTURED_VERTICES {
        return Err(Failure::input(format!(
            "{total} input vertices ({} x {} instances): more than {MAX_CAPTURED_VERTICES} would be kept for printing; \
             use --quiet without --out/--svg/--png to run a draw that large for its statistics",
            vertices.len(),
            options.instances
        )));
    }
    let topology = match &options.topology {
        Some(t) => Topology::parse(t).ok_or_else(|| {
            Failure::input(format!(
                "--topology {t}: expected pointlist, linelist, linestrip, trianglelist, trianglestrip, or their _adj forms"
            ))
        })?,
        None => default_topology(gs.as_ref().map(|g| &g.plan)),
    };
    // A topology the geometry shader does not take: say so in the option's terms.
    if let (Some(t), Some(gs)) = (&options.topology, &gs) {
        if gs.plan.input_primitive != Some(topology.gs_input()) {
            let declared = gs.plan.input_primitive.and_then(|p| p.listing_name()).unwrap_or("no");
            return Err(Failure::input(format!(
                "--topology {t}: {} takes {declared} input primitives (dcl_inputprimitive {declared}), {t} gives {}",
                gs.name,
                topology.gs_input().listing_name().unwrap_or("other")
            )));
        }
    }

    // Stream-output buffers: one per slot the declaration uses.
    let mut so_memory: Vec<Vec<u8>> = (0..4).map(|_| Vec::new()).collect();
    if let Some(desc) = &so {
        for e in &desc.entries {
            if let Some(buffer) = so_memory.get_mut(e.output_slot as usize) {
                buffer.resize(options.so_buffer_size as usize, 0);
            }
        }
    }
    let vertex_buffers = [Some(VertexBuffer { data: &data, stride, offset: 0 })];
    let result = {
        let mut targets =
            so_memory.iter_mut().map(|m| (!m.is_empty()).then_some(SoTarget { data: m.as_mut_slice(), offset: 0 }));
        let targets =
            [targets.next().flatten(), targets.next().flatten(), targets.next().flatten(), targets.next().flatten()];
        let mut state = Pipeline {
            input_layout: &layout,
            vertex_buffers: &vertex_buffers,
            index_buffer: None,
            topology,
            vs: vs.as_ref().map(|l| &l.plan),
            gs: gs.as_ref().map(|l| &l.plan),
            vs_resources: bindings.resources(Stage::Vertex),
            gs_resources: bindings.resources(Stage::Geometry),
            stream_output: so.as_ref().map(|declaration| StreamOutput { declaration, targets }),
            // Nothing to show: keep no primitives (stream output and statistics only).
            capture: keeps_primitives,
            step_limit: exec::Machine::DEFAULT_STEP_LIMIT,
            checking: options.check,
        };
        let call = if options.instances != 1 {
            DrawCall::DrawInstanced {
                vertex_count_per_instance: vertices.len() as u32,
                instance_count: options.instances,
                start_vertex: 0,
                start_instance: 0,
            }
        } else {
            DrawCall::Draw { vertex_count: vertices.len() as u32, start_vertex: 0 }
        };
        // The pipeline's draw errors say `draw:` themselves.
        let result = pipeline::draw(&mut state, call).map_err(|e| match e.kind {
            exec::ExecErrorKind::Draw(_) => Failure::refused(e.to_string()),
            _ => Failure::refused(format!("draw: {e}")),
        })?;
        let written: Vec<u32> = state
            .stream_output
            .as_ref()
            .map(|s| s.targets.iter().map(|t| t.as_ref().map_or(0, |t| t.offset)).collect())
            .unwrap_or_default();
        (result, written)
    };
    let (result, written) = result;

    // Text.
    let json_to_stdout = options.out.as_deref().is_some_and(|o| o == "-");
    if !options.quiet && (!json_to_stdout || options.output.as_deref().is_some_and(|o| o != "-")) {
        let mut text = String::new();
        for stream in &result.streams {
            let _ = writeln!(
                text,
                "stream {} ({}): {} primitive{}",
                stream.stream,
                topology_name(stream.topology),
                stream.primitives.len(),
                if stream.primitives.len() == 1 { "" } else { "s" }
            );
            for (i, primitive) in stream.primitives.iter().enumerate() {
                let _ = writeln!(text, "  primitive {i}");
                for v in primitive {
                    let _ = writeln!(text, "    {}", vertex_text(stream, v, options));
                }
            }
        }
        for (name, value) in result.statistics.named() {
            let _ = write!(text, "{name}={value} ");
        }
        text.push('\n');
        for (i, s) in result.so_statistics.iter().enumerate() {
            if so.is_some() {
                let _ = writeln!(
                    text,
                    "stream {i}: NumPrimitivesWritten={} PrimitivesStorageNeeded={}",
                    s.num_primitives_written, s.primitives_storage_needed
                );
            }
        }
        for d in &result.diagnostics {
            let _ = writeln!(text, "check: instruction {}: {}", d.instruction, d.message);
        }
        let mut out = Output::new(options.output.as_deref());
        let written = out.write(text.as_bytes()).and_then(|_| out.finish(true));
        if written.is_err() {
            return crate::output::finish(written, status::OK);
        }
    }

    // JSON.
    if let Some(out) = &options.out {
        let streams: Vec<Value> = result
            .streams
            .iter()
            .map(|s| {
                json!({
                    "stream": s.stream,
                    "topology": topology_name(s.topology),
                    "primitives": s.primitives.iter().map(|p| p.iter().map(|v| vertex_json(s, v, options)).collect::<Vec<_>>()).collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut buffers = Vec::new();
        if let Some(desc) = &so {
            let signature = gs.as_ref().or(vs.as_ref()).map(|l| &l.plan.output_signature);
            for (slot, memory) in so_memory.iter().enumerate() {
                if memory.is_empty() {
                    continue;
                }
                let bytes = written.get(slot).copied().unwrap_or(0) as usize;
                // The component type of each 32-bit word of a vertex in this buffer.
                let mut kinds = Vec::new();
                for e in desc.entries.iter().filter(|e| e.output_slot as usize == slot) {
                    let kind = e
                        .semantic_name
                        .as_ref()
                        .and_then(|n| {
                            signature?.iter().find(|s| {
                                s.stream == e.stream
                                    && s.semantic_index == e.semantic_index
                                    && s.semantic_name.eq_ignore_ascii_case(n)
                            })
                        })
                        .map(|s| s.component_type);
                    for _ in 0..e.component_count {
                        kinds.push(kind);
                    }
                }
                let stride = desc.strides.get(slot).map(|s| *s as usize).unwrap_or(kinds.len() * 4).max(4);
                let words: Vec<u32> = memory[..bytes.min(memory.len())]
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
                    .collect();
                let vertices: Vec<Value> = words
                    .chunks(stride / 4)
                    .map(|v| {
                        Value::Array(
                            v.iter()
                                .enumerate()
                                .map(|(i, w)| match kinds.get(i).copied().flatten() {
                                    Some(k) => word_json(*w, k, options.hex),
                                    None => Value::Null,
                                })
                                .collect(),
                        )
                    })
                    .collect();
                buffers.push(json!({ "slot": slot, "stride": stride, "bytes_written": bytes, "vertices": vertices }));
            }
        }
        let statistics: serde_json::Map<String, Value> =
            result.statistics.named().iter().map(|(n, v)| (n.to_string(), json!(v))).collect();
        let so_statistics: Vec<Value> = result
            .so_statistics
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({
                    "stream": i,
                    "NumPrimitivesWritten": s.num_primitives_written,
                    "PrimitivesStorageNeeded": s.primitives_storage_needed,
                })
            })
            .collect();
        let value = json!({
            "streams": streams,
            "rasterized_stream": result.rasterized_stream,
            "stream_output": { "buffers": buffers, "statistics": so_statistics },
            "statistics": statistics,
            "diagnostics": result.diagnostics.iter().map(|d| json!({"instruction": d.instruction, "message": d.message})).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
        let mut out = Output::new(Some(out));
        let written = out.write(text.as_bytes()).and_then(|_| out.finish(true));
        if written.is_err() {
            return crate::output::finish(written, status::OK);
        }
    }
    if draws_picture {
        let picture = crate::picture::draw(&result, options.picture.fill_by, options.picture.labels);
        for note in &picture.notes {
            eprintln!("{}: picture: {note}", if picture.empty { "warning" } else { "note" });
        }
        if let Some(path) = &options.svg {
            let mut out = Output::new(Some(path));
            let written = out.write(picture.svg.as_bytes()).and_then(|_| out.finish(true));
            if written.is_err() {
                return crate::output::finish(written, status::OK);
            }
        }
        if let Some(path) = &options.picture.png {
            let png = crate::picture::png(&picture.svg)
                .map_err(|e| Failure::output(format!("{}: rendering the picture: {e}", path.to_string_lossy())))?;
            let mut out = Output::new(Some(path));
            let written = out.write(&png).and_then(|_| out.finish(true));
            if written.is_err() {
                return crate::output::finish(written, status::OK);
            }
        }
    }
    Ok(())
}
