//! `dxref run`'s shaders and what they read: the create call's rules (Direct3D 11 or
//! 12), the program compiled with Shader Model 5.1 register spaces folded, the slots it
//! declares (with their names from the reflection chunk), and the constant buffers,
//! shader resource views and samplers given with `--cb`, `--srv` and `--sampler`,
//! checked against those declarations. Slots a shader declares and nothing binds are
//! warnings: they read as zeros.

use std::collections::HashMap;

use d3d11::{Device, HResult};
use exec::resources::{Dimension, Sampler, Srv, TextureView};
use exec::{BindingKind, Format, Plan, Resources};
use inputs::binding::{self as reader, BindingArg, Stage};
use inputs::texture::{self, Texture};
use validate::{SoArguments, Target};

use crate::Failure;

/// The options of `dxref run` that say what the shaders read and which API's rules
/// create them.
///
/// The fields' comments are clap's help text: `[vs:|gs:]` and the like are the usage
/// syntax, not links.
#[derive(Debug, clap::Args, Default)]
#[allow(rustdoc::broken_intra_doc_links)]
pub struct BindOptions {
    /// A constant buffer: [vs:|gs:][spaceN:]SLOT=FILE (SLOT 0..13, also written b2 or
    /// cb2; without vs:/gs: both stages). FILE.json holds 32-bit words: a number
    /// without fraction or exponent is an integer (its u32 or i32 bits: 1 is not 1.0),
    /// any other number the nearest f32, "0x3f800000" the bits, "NaN", "inf", "-inf";
    /// nested arrays are flattened. Any other file is raw little-endian bytes.
    /// Repeatable.
    #[arg(long = "cb", value_name = "[STAGE:]SLOT=FILE")]
    pub cb: Vec<String>,
    /// A shader resource view: [vs:|gs:][spaceN:]SLOT=FILE[:FORMAT] (SLOT 0..127, also
    /// t2). FILE.png is a 2D texture in FORMAT (R8G8B8A8_UNORM, R8G8B8A8_UNORM_SRGB,
    /// B8G8R8A8_UNORM, R8_UNORM, R16G16B16A16_UNORM, R32G32B32A32_FLOAT, ... see the
    /// README); any other file is a buffer's memory, as words (.json, as for --cb) or
    /// raw bytes, with FORMAT for a typed buffer. Repeatable.
    #[arg(long = "srv", value_name = "[STAGE:]SLOT=FILE[:FORMAT]")]
    pub srv: Vec<String>,
    /// A sampler: [vs:|gs:][spaceN:]SLOT=NAME (SLOT 0..15, also s2), NAME
    /// FILTER-ADDRESS[-COMPARISON]: point or linear; wrap, mirror, clamp, border or
    /// mirror-once; never, less, equal, less-equal, greater, not-equal, greater-equal or
    /// always (point-wrap, linear-clamp, linear-border-less). Repeatable.
    #[arg(long = "sampler", value_name = "[STAGE:]SLOT=NAME")]
    pub sampler: Vec<String>,
    /// A class instance bound to an interface slot, as *SetShader binds them:
    /// [vs:|gs:|cs:]SLOT=TABLE[:CB,OFFSET,TEXTURE,SAMPLER] (SLOT `fp#` + array index,
    /// also fp2): the function table `fcall` runs (`ft1` or 1) and the slot's `this[]`
    /// register (constant buffer, vector offset, first texture, first sampler).
    /// A slot not bound runs the first table its dcl_interface lists, `this` 0,0,0,0.
    /// Repeatable.
    #[arg(long = "interface", value_name = "[STAGE:]SLOT=TABLE[:CB,OFFSET,TEXTURE,SAMPLER]")]
    pub interface: Vec<String>,
    /// Whose create-call rules the shaders must pass: d3d11 (a feature level 11_1
    /// device, 11.1 runtime; the default) or d3d12 (Shader Model 4.0-5.1: shaders
    /// with register spaces).
    #[arg(long, value_name = "d3d11|d3d12")]
    pub api: Option<String>,
}

/// The API whose rules create the shaders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// `ID3D11Device`'s create calls on a feature level 11_1 device, 11.1 runtime.
    D3D11,
    /// Direct3D 12's rules: Shader Model 4.0–5.1, register spaces allowed.
    D3D12,
}

impl BindOptions {
    /// `--api`, case-insensitive (`d3d11` when absent); any other value is a usage
    /// error (exit status 2).
    pub fn api(&self) -> Result<Api, Failure> {
        match self.api.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("d3d11") => Ok(Api::D3D11),
            Some("d3d12") => Ok(Api::D3D12),
            Some(other) => Err(Failure::input(format!("--api {other}: expected d3d11 or d3d12"))),
        }
    }
}

/// A register file that resources are bound in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum File {
    /// Constant buffers, `cb#` (14 slots).
    Cb,
    /// Shader resource views, `t#` (128 slots).
    Srv,
    /// Samplers, `s#` (16 slots).
    Sampler,
    /// Unordered access views, `u#` (64 slots).
    Uav,
}

impl File {
    fn letter(self) -> &'static str {
        match self {
            File::Cb => "cb",
            File::Srv => "t",
            File::Sampler => "s",
            File::Uav => "u",
        }
    }

    /// The slots `exec::Resources` has for this file.
    fn slots(self) -> u32 {
        match self {
            File::Cb => 14,
            File::Srv => 128,
            File::Sampler => 16,
            File::Uav => 64,
        }
    }
}

/// One declared slot range (`dcl_constantbuffer`, `dcl_resource*`, `dcl_sampler`,
/// `dcl_uav*`).
#[derive(Debug, Clone)]
pub struct Declared {
    /// The register file declared in.
    pub file: File,
    /// The register space (0 before Shader Model 5.1).
    pub space: u32,
    /// The registers `lo..=hi` (one register before Shader Model 5.1).
    pub lo: u32,
    /// The last register of the range (equal to `lo` before Shader Model 5.1).
    pub hi: u32,
    /// What the declaration says the slot holds (vectors, dimension, stride...).
    pub kind: BindingKind,
    /// The name the reflection chunk gives it (`$Globals`, `gDiffuse`), if any.
    pub name: Option<String>,
}

impl Declared {
    pub(crate) fn covers(&self, register: u32) -> bool {
        (self.lo..=self.hi).contains(&register)
    }

    /// `cb0`, `t2 in space 1`, with the reflected name and what it is:
    /// `cb0 ($Globals, 9 vectors)`.
    pub(crate) fn describe(&self, register: u32) -> String {
        let mut what = Vec::new();
        if let Some(n) = &self.name {
            what.push(n.clone());
        }
        what.push(match self.kind {
            BindingKind::ConstantBuffer { vectors: 1 } => "1 vector".into(),
            BindingKind::ConstantBuffer { vectors } => format!("{vectors} vectors"),
            BindingKind::Texture { dimension, .. } => dimension.listing_name().unwrap_or("texture").to_string(),
            BindingKind::RawBuffer => "raw buffer".into(),
            BindingKind::StructuredBuffer { stride } => format!("structured buffer, stride {stride}"),
            BindingKind::Sampler { comparison: true } => "comparison sampler".into(),
            BindingKind::Sampler { comparison: false } => "sampler".into(),
            BindingKind::TypedUav { .. } | BindingKind::RawUav | BindingKind::StructuredUav { .. } => "UAV".into(),
        });
        let space = if self.space != 0 { format!(" in space {}", self.space) } else { String::new() };
        format!("{}{register}{space} ({})", self.file.letter(), what.join(", "))
    }
}

/// A shader ready to run: its plan and the slots it declares.
pub struct Compiled {
    /// The program compiled for the interpreter.
    pub plan: Plan,
    /// Its declared slot ranges, in declaration order.
    pub declared: Vec<Declared>,
}

/// Creates the shader as `api`'s create call would (`so`: with stream output), refusing
/// it as the runtime would, with its diagnostics (exit status 1).
pub fn create(
    api: Api,
    device: &Device,
    bytes: &[u8],
    name: &str,
    stage: tpf::ProgramType,
    so: Option<&SoArguments>,
) -> Result<(), Failure> {
    let (refused, diagnostics): (Option<String>, Vec<String>) = match api {
        Api::D3D11 => {
            let mut out = None;
            let created = match (stage, so) {
                (_, Some(so)) => {
                    device.create_geometry_shader_with_so_arguments(bytes, bytes.len(), so, None, Some(&mut out))
                }
                (tpf::ProgramType::Vertex, None) => {
                    device.create_vertex_shader(bytes, bytes.len(), None, Some(&mut out))
                }
                (tpf::ProgramType::Compute, None) => {
                    device.create_compute_shader(bytes, bytes.len(), None, Some(&mut out))
                }
                _ => device.create_geometry_shader(bytes, bytes.len(), None, Some(&mut out)),
            };
            let refused =
                (created.hr != HResult::S_OK).then(|| format!("the device refuses this shader ({})", created.hr));
            (refused, created.diagnostics.iter().map(ToString::to_string).collect())
        }
        Api::D3D12 => {
            let target = Target::d3d12().for_stage(stage);
            let report = match so {
                Some(so) => validate::validate_with_so_arguments(bytes, bytes.len(), &target, so),
                None => validate::validate(bytes, &target),
            };
            let refused = (!report.is_valid()).then(|| "Direct3D 12 refuses this shader".to_string());
            (refused, report.diagnostics.iter().map(ToString::to_string).collect())
        }
    };
    let Some(refused) = refused else { return Ok(()) };
    let mut message = format!("{name}: {refused}");
    for d in diagnostics {
        message.push_str("\n  ");
        message.push_str(&d);
    }
    Err(Failure { status: 1, message })
}

/// Compiles the shader in `bytes` for the interpreter, with the slots it declares.
/// Register spaces are folded: a slot of space `s` binds as its register number, so two
/// declarations of one register file in different spaces must not share a register.
pub fn compile(bytes: &[u8], name: &str) -> Result<Compiled, Failure> {
    let fail = |m: String| Failure::input(format!("{name}: {m}"));
    let container = dxbc::Container::parse(bytes).map_err(|e| fail(e.to_string()))?;
    let chunk = container
        .chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])
        .ok_or_else(|| fail("no SHDR/SHEX chunk".into()))?;
    let mut program = tpf::decode(chunk.data).map_err(|e| fail(e.rebased(chunk.data_offset()).to_string()))?;
    let mut declared = declarations(&program);
    name_from_reflection(&container, &mut declared);
    if declared.iter().all(|d| d.space == 0) {
        let plan = Plan::from_bytecode(bytes).map_err(|e| fail(e.to_string()))?;
        return Ok(Compiled { plan, declared });
    }
    for (i, a) in declared.iter().enumerate() {
        for b in declared.iter().skip(i + 1) {
            if a.file == b.file && a.space != b.space && a.lo <= b.hi && b.lo <= a.hi {
                let register = a.lo.max(b.lo);
                return Err(fail(format!(
                    "{} and {} share a register: dxref binds every space's register r at slot r",
                    a.describe(register),
                    b.describe(register)
                )));
            }
        }
    }
    for ins in &mut program.instructions {
        if let tpf::Body::Decl(d) = &mut ins.body {
            use tpf::Decl as D;
            match d {
                D::Resource { space, .. }
                | D::ConstantBuffer { space, .. }
                | D::Sampler { space, .. }
                | D::UavTyped { space, .. }
                | D::UavRaw { space, .. }
                | D::UavStructured { space, .. }
                | D::ResourceRaw { space, .. }
                | D::ResourceStructured { space, .. }
                    if space.is_some() =>
                {
                    *space = Some(0);
                }
                _ => {}
            }
        }
    }
    let (inputs, outputs) = exec::plan::SigElement::of_container(&container).map_err(|e| fail(e.to_string()))?;
    let plan = Plan::compile(&program, inputs, outputs).map_err(|e| fail(e.to_string()))?;
    Ok(Compiled { plan, declared })
}

/// The slot ranges `program` declares, with their spaces.
fn declarations(program: &tpf::Program<'_>) -> Vec<Declared> {
    use tpf::Decl as D;
    let sm51 = (program.version.major, program.version.minor) >= (5, 1);
    let mut out = Vec::new();
    for ins in &program.instructions {
        let tpf::Body::Decl(d) = &ins.body else { continue };
        let (file, operand, kind, space) = match d {
            D::ConstantBuffer { operand, size, space, .. } => {
                let vectors = size
                    .or_else(|| {
                        program.operand(*operand).index(1).map(|i| u32::try_from(i.immediate()).unwrap_or(u32::MAX))
                    })
                    .unwrap_or(0);
                (File::Cb, operand, BindingKind::ConstantBuffer { vectors }, space)
            }
            D::Resource { operand, dim, sample_count, space, .. } => {
                (File::Srv, operand, BindingKind::Texture { dimension: *dim, samples: *sample_count }, space)
            }
            D::ResourceRaw { operand, space } => (File::Srv, operand, BindingKind::RawBuffer, space),
            D::ResourceStructured { operand, stride, space } => {
                (File::Srv, operand, BindingKind::StructuredBuffer { stride: *stride }, space)
            }
            D::Sampler { operand, mode, space } => (
                File::Sampler,
                operand,
                BindingKind::Sampler { comparison: *mode == tpf::SamplerMode::Comparison },
                space,
            ),
            D::UavTyped { operand, dim, space, .. } => {
                (File::Uav, operand, BindingKind::TypedUav { dimension: *dim }, space)
            }
            D::UavRaw { operand, space, .. } => (File::Uav, operand, BindingKind::RawUav, space),
            D::UavStructured { operand, stride, space, .. } => {
                (File::Uav, operand, BindingKind::StructuredUav { stride: *stride }, space)
            }
            _ => continue,
        };
        let operand = program.operand(*operand);
        let index = |k: usize| operand.index(k).map(|i| u32::try_from(i.immediate()).unwrap_or(u32::MAX));
        let (lo, hi) = if sm51 { (index(1), index(2)) } else { (index(0), index(0)) };
        let (Some(lo), Some(hi)) = (lo, hi) else { continue };
        out.push(Declared { file, space: space.unwrap_or(0), lo, hi: hi.max(lo), kind, name: None });
    }
    out
}

/// Names the declarations after the reflection chunk's bindings, where it has them.
fn name_from_reflection(container: &dxbc::Container<'_>, declared: &mut [Declared]) {
    let Some(chunk) = container.chunk(dxbc::FourCc::RDEF) else { return };
    let Ok(rdef) = dxbc::Rdef::parse(chunk.data) else { return };
    for d in declared {
        let found = rdef
            .bindings
            .iter()
            .find(|b| b.input_type.register_class().0 == d.file.letter() && b.space == d.space && b.bind_point == d.lo);
        d.name = found.map(|b| b.name.to_string());
    }
}

/// A shader of the draw, as the bindings see it.
pub struct StageShader<'a> {
    /// The stage it runs at (`vs:`/`gs:` bindings reach it).
    pub stage: Stage,
    /// Its file name, as messages show it.
    pub name: &'a str,
    /// The slot ranges it declares.
    pub declared: &'a [Declared],
}

/// A shader resource view's memory, owned.
enum OwnedSrv {
    Buffer { data: Vec<u8>, format: Format },
    Raw { data: Vec<u8> },
    Structured { data: Vec<u8>, stride: u32 },
    Texture { texture: Texture, dimension: Dimension },
}

/// Everything `--cb`, `--srv` and `--sampler` bound, per stage and slot.
#[derive(Default)]
pub struct Bindings {
    cbs: Vec<(Stage, u32, Vec<[u32; 4]>)>,
    srvs: Vec<(Stage, u32, OwnedSrv)>,
    samplers: Vec<(Stage, u32, Sampler)>,
    instances: Vec<(Stage, u32, exec::ClassInstance)>,
}

/// The file name as messages show it (the whole path for files, `<stdin>`...).
pub(crate) fn file_name(file: &str) -> &str {
    crate::display_name(file)
}

pub(crate) fn is_json(file: &str) -> bool {
    std::path::Path::new(file).extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

fn is_png(file: &str) -> bool {
    std::path::Path::new(file).extension().is_some_and(|e| e.eq_ignore_ascii_case("png"))
}

pub(crate) fn read_file(file: &str) -> Result<Vec<u8>, Failure> {
    std::fs::read(file).map_err(|e| Failure::input(format!("{file}: {e}")))
}

/// The 32-bit words of a file: JSON (`.json`) or raw little-endian bytes.
pub(crate) fn read_words(file: &str) -> Result<Vec<u32>, Failure> {
    let bytes = read_file(file)?;
    let words = if is_json(file) {
        let text = String::from_utf8(bytes).map_err(|e| {
            Failure::input(format!("{}: byte {}: not UTF-8 text", file_name(file), e.utf8_error().valid_up_to()))
        })?;
        reader::words_json(&text)
    } else {
        reader::words_bin(&bytes)
    };
    words.map_err(|e| match e {
        reader::WordsError::Json { .. } => Failure::input(format!("{}:{e}", file_name(file))),
        e => Failure::input(format!("{}: {e}", file_name(file))),
    })
}

impl Bindings {
    /// Reads every binding argument against the draw's shaders; returns the bindings
    /// and the warnings (unbound slots, bindings nothing declares, sizes that differ).
    pub fn read(options: &BindOptions, shaders: &[StageShader<'_>]) -> Result<(Bindings, Vec<String>), Failure> {
        let mut b = Bindings::default();
        let mut warnings = Vec::new();
        let mut words: HashMap<String, Vec<u32>> = HashMap::new();
        for arg in &options.cb {
            let (a, targets) = parse(arg, "--cb", "b", shaders)?;
            let vectors = match words.get(&a.value) {
                Some(w) => reader::constant_buffer(w),
                None => {
                    let w = read_words(&a.value)?;
                    let v = reader::constant_buffer(&w);
                    words.insert(a.value.clone(), w);
                    v
                }
            }
            .map_err(|e| Failure::input(format!("{}: {e}", file_name(&a.value))))?;
            for shader in placed(&a, File::Cb, "--cb", arg, &targets, &mut warnings)? {
                if let Some(d) = find(shader, File::Cb, &a) {
                    if let BindingKind::ConstantBuffer { vectors: want } = d.kind {
                        if (vectors.len() as u64) < u64::from(want) {
                            warnings.push(format!(
                                "{}: {} is bound to {}, which holds {}: the rest read as zeros",
                                shader.name,
                                d.describe(a.slot),
                                file_name(&a.value),
                                if vectors.len() == 1 {
                                    "1 vector".into()
                                } else {
                                    format!("{} vectors", vectors.len())
                                }
                            ));
                        }
                    }
                }
                b.cbs.push((shader.stage, a.slot, vectors.clone()));
            }
        }
        for arg in &options.srv {
            let (a, targets) = parse(arg, "--srv", "t", shaders)?;
            let (file, format) = reader::file_and_format(&a.value, |f| Format::from_name(f).is_some());
            let format = format.and_then(Format::from_name);
            for shader in placed(&a, File::Srv, "--srv", arg, &targets, &mut warnings)? {
                let declared = find(shader, File::Srv, &a).map(|d| d.kind);
                let srv = srv_of(file, format, declared, shader, a.slot)?;
                if let OwnedSrv::Structured { data, stride } = &srv {
                    if *stride != 0 && data.len() % *stride as usize != 0 {
                        warnings.push(format!(
                            "{}: t{}: {} holds {} bytes, not a whole number of {stride}-byte elements",
                            shader.name,
                            a.slot,
                            file_name(file),
                            data.len()
                        ));
                    }
                }
                b.srvs.push((shader.stage, a.slot, srv));
            }
        }
        for arg in &options.sampler {
            let (a, targets) = parse(arg, "--sampler", "s", shaders)?;
            let sampler = reader::sampler(&a.value).ok_or_else(|| {
                Failure::input(format!(
                    "--sampler {arg}: `{}` is not a sampler; expected {}",
                    a.value,
                    reader::SAMPLER_SYNTAX
                ))
            })?;
            for shader in placed(&a, File::Sampler, "--sampler", arg, &targets, &mut warnings)? {
                if let Some(d) = find(shader, File::Sampler, &a) {
                    if d.kind == (BindingKind::Sampler { comparison: true }) && sampler.comparison.is_none() {
                        warnings.push(format!(
                            "{}: {} is a comparison sampler and `{}` has no comparison function: comparisons fail (never); add one, e.g. {}-less",
                            shader.name,
                            d.describe(a.slot),
                            a.value,
                            a.value
                        ));
                    }
                }
                b.samplers.push((shader.stage, a.slot, sampler));
            }
        }
        for arg in &options.interface {
            let (a, targets) = parse(arg, "--interface", "fp", shaders)?;
            let instance = reader::class_instance(&a.value).ok_or_else(|| {
                Failure::input(format!("--interface {arg}: expected {}", reader::CLASS_INSTANCE_SYNTAX))
            })?;
            for shader in targets {
                b.instances.push((shader.stage, a.slot, instance));
            }
        }
        for shader in shaders {
            warnings.extend(b.unbound(shader));
        }
        Ok((b, warnings))
    }

    fn bound(&self, stage: Stage, file: File, slot: u32) -> bool {
        match file {
            File::Cb => self.cbs.iter().any(|(s, n, _)| *s == stage && *n == slot),
            File::Srv => self.srvs.iter().any(|(s, n, _)| *s == stage && *n == slot),
            File::Sampler => self.samplers.iter().any(|(s, n, _)| *s == stage && *n == slot),
            File::Uav => false,
        }
    }

    /// A warning for each slot `shader` declares that nothing binds.
    fn unbound(&self, shader: &StageShader<'_>) -> Vec<String> {
        let mut out = Vec::new();
        let prefix = shader.stage.prefix();
        for d in shader.declared {
            if d.file == File::Uav && shader.stage == Stage::Compute {
                // A compute shader's UAVs are bound by `--uav` (`dxref run --cs`), which
                // says itself what it makes of an unbound one.
                continue;
            }
            let (option, value, effect) = match d.file {
                File::Cb => ("--cb", "FILE", "it reads as zeros"),
                File::Srv => ("--srv", "FILE", "it reads as zeros"),
                File::Sampler => ("--sampler", "NAME", "sampling with it uses D3D11's default sampler (linear-clamp)"),
                File::Uav => ("", "", "dxref run binds no UAVs: its loads read zeros and its stores are dropped"),
            };
            let registers: Vec<u32> = if d.hi.saturating_sub(d.lo) < 64 {
                (d.lo..=d.hi).filter(|r| !self.bound(shader.stage, d.file, *r)).collect()
            } else {
                // An unbounded (or very large) 5.1 range: name its first register.
                vec![d.lo]
            };
            for r in registers {
                let space = if d.space != 0 { format!("space{}:", d.space) } else { String::new() };
                let how =
                    if option.is_empty() { String::new() } else { format!(" ({option} {prefix}:{space}{r}={value})") };
                out.push(format!("{}: {} is not bound{how}: {effect}", shader.name, d.describe(r)));
            }
        }
        out
    }

    /// What is bound to `stage`, borrowed.
    pub fn resources(&self, stage: Stage) -> Resources<'_> {
        let mut r = Resources::default();
        for (s, slot, vectors) in &self.cbs {
            if let (true, Some(cb)) = (*s == stage, r.constant_buffers.get_mut(*slot as usize)) {
                *cb = Some(vectors.as_slice());
            }
        }
        for (s, slot, srv) in &self.srvs {
            if *s != stage {
                continue;
            }
            let view = match srv {
                OwnedSrv::Buffer { data, format } => Srv::Buffer { data, format: *format },
                OwnedSrv::Raw { data } => Srv::Raw { data },
                OwnedSrv::Structured { data, stride } => Srv::Structured { data, stride: *stride },
                OwnedSrv::Texture { texture, dimension } => Srv::Texture(TextureView {
                    dimension: *dimension,
                    format: texture.format,
                    width: texture.width,
                    height: texture.height,
                    depth: 1,
                    array_size: 1,
                    mip_levels: 1,
                    data: &texture.data,
                }),
            };
            let i = *slot as usize;
            if r.srvs.len() <= i {
                r.srvs.resize(i + 1, None);
            }
            r.srvs[i] = Some(view);
        }
        for (s, slot, sampler) in &self.samplers {
            if let (true, Some(x)) = (*s == stage, r.samplers.get_mut(*slot as usize)) {
                *x = Some(*sampler);
            }
        }
        for (s, slot, instance) in &self.instances {
            if *s == stage {
                r.class_instances.bind(*slot, *instance);
            }
        }
        r
    }
}

/// Reads a binding argument and finds the shaders it is for.
fn parse<'s, 'a>(
    arg: &str,
    option: &str,
    letter: &'static str,
    shaders: &'s [StageShader<'a>],
) -> Result<(BindingArg, Vec<&'s StageShader<'a>>), Failure> {
    let a = reader::binding_arg(arg, letter).map_err(|e| Failure::input(format!("{option} {arg}: {e}")))?;
    let targets: Vec<&StageShader<'_>> = shaders.iter().filter(|s| a.stage.is_none_or(|t| t == s.stage)).collect();
    if let (Some(stage), true) = (a.stage, targets.is_empty()) {
        return Err(Failure::input(format!(
            "{option} {arg}: there is no {} shader (--{})",
            stage.prefix(),
            stage.prefix()
        )));
    }
    Ok((a, targets))
}

/// The declaration of `shader` covering the argument's register in its space.
fn find<'d>(shader: &'d StageShader<'_>, file: File, a: &BindingArg) -> Option<&'d Declared> {
    let space = a.space.unwrap_or(0);
    shader.declared.iter().find(|d| d.file == file && d.space == space && d.covers(a.slot))
}

/// The shaders among `targets` a binding goes to, after checking its slot: a register
/// another space declares is refused; one no target declares is bound with a warning;
/// a slot bound twice for a stage is refused.
fn placed<'s, 'a>(
    a: &BindingArg,
    file: File,
    option: &str,
    arg: &str,
    targets: &[&'s StageShader<'a>],
    warnings: &mut Vec<String>,
) -> Result<Vec<&'s StageShader<'a>>, Failure> {
    if a.slot >= file.slots() {
        return Err(Failure::input(format!(
            "{option} {arg}: register {} is past the last {} slot ({})",
            a.slot,
            file.letter(),
            file.slots() - 1
        )));
    }
    let space = a.space.unwrap_or(0);
    for shader in targets {
        let other = shader.declared.iter().find(|d| d.file == file && d.space != space && d.covers(a.slot));
        if let (Some(d), None) = (other, find(shader, file, a)) {
            return Err(Failure::input(format!(
                "{option} {arg}: {} declares {}, not register {} of space {space} (write space{}:{})",
                shader.name,
                d.describe(a.slot),
                a.slot,
                d.space,
                a.slot
            )));
        }
    }
    if targets.iter().all(|s| find(s, file, a).is_none()) {
        let names: Vec<&str> = targets.iter().map(|s| s.name).collect();
        let space = if space != 0 { format!(" in space {space}") } else { String::new() };
        warnings.push(format!(
            "{option} {arg}: {} declare{} no {}{}{space}: bound, but nothing reads it",
            names.join(" and "),
            if names.len() == 1 { "s" } else { "" },
            file.letter(),
            a.slot
        ));
    }
    Ok(targets.to_vec())
}

/// The view `file` makes for slot `slot` of `shader`, declared as `declared`.
fn srv_of(
    file: &str,
    format: Option<Format>,
    declared: Option<BindingKind>,
    shader: &StageShader<'_>,
    slot: u32,
) -> Result<OwnedSrv, Failure> {
    let name = file_name(file);
    let what = |k: &str| format!("{}: t{slot} is declared {k}", shader.name);
    if is_png(file) {
        let dimension = match declared {
            None | Some(BindingKind::Texture { dimension: tpf::ResourceDimension::Texture2D, .. }) => {
                Dimension::Texture2D
            }
            Some(BindingKind::Texture { dimension: tpf::ResourceDimension::Texture2DArray, .. }) => {
                Dimension::Texture2DArray
            }
            Some(BindingKind::Texture { dimension: tpf::ResourceDimension::Buffer, .. })
            | Some(BindingKind::RawBuffer)
            | Some(BindingKind::StructuredBuffer { .. }) => {
                return Err(Failure::input(format!(
                    "{}: a PNG makes a 2D texture; give the buffer's bytes (.bin) or words (.json)",
                    what("a buffer")
                )))
            }
            Some(BindingKind::Texture { dimension, .. }) => {
                return Err(Failure::input(format!(
                    "{}: a PNG makes a 2D texture (or an array of one)",
                    what(dimension.listing_name().unwrap_or("?"))
                )))
            }
            Some(_) => return Err(Failure::input(format!("{}: not a shader resource view", what("something else")))),
        };
        let Some(format) = format else {
            return Err(Failure::input(format!(
                "--srv {name}: a PNG needs the texture's format, e.g. {name}:R8G8B8A8_UNORM (formats: {})",
                texture::png_format_names()
            )));
        };
        let texture =
            texture::png_texture(&read_file(file)?, format).map_err(|e| Failure::input(format!("{name}: {e}")))?;
        return Ok(OwnedSrv::Texture { texture, dimension });
    }
    let data = if is_json(file) { reader::bytes_of(&read_words(file)?) } else { read_file(file)? };
    Ok(match declared {
        Some(BindingKind::RawBuffer) => OwnedSrv::Raw { data },
        Some(BindingKind::StructuredBuffer { stride }) => OwnedSrv::Structured { data, stride },
        Some(BindingKind::Texture { dimension: tpf::ResourceDimension::Buffer, .. }) | None => match format {
            Some(format) => OwnedSrv::Buffer { data, format },
            None if declared.is_none() => OwnedSrv::Raw { data },
            None => {
                return Err(Failure::input(format!(
                    "{}: give the elements' format, e.g. --srv {slot}={name}:R32G32B32A32_FLOAT",
                    what("a typed buffer")
                )))
            }
        },
        Some(BindingKind::Texture { dimension, .. }) => {
            return Err(Failure::input(format!(
                "{}: dxref run fills textures from PNG files (FILE.png:FORMAT)",
                what(dimension.listing_name().unwrap_or("?"))
            )))
        }
        Some(_) => return Err(Failure::input(format!("{}: not a shader resource view", what("something else")))),
    })
}
