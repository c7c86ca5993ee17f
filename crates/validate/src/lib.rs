//! Create-time validation of Direct3D shader bytecode.
//!
//! [`validate`] answers what `ID3D11Device::Create*Shader` answers — is this shader
//! accepted on this device, and if not, why — for a [`Target`]: the API (Direct3D 11
//! with a feature level, a runtime version and capabilities, or Direct3D 12), and the
//! stage the create call makes. Every rule is a row of [`codes::RULES`] with a stable
//! code; the instruction and register rules read the `tpf` instruction table, so that a
//! rule about an opcode is written once. Each [`Diagnostic`] names where: a byte
//! offset, a chunk, an instruction (index, token and byte offset) or a stream-output
//! entry.
//!
//! Direct3D 9 shaders are validated by the [`d3d9`] rules: a raw Shader Model 1–3
//! token stream (first token `0xFFFE____` / `0xFFFF____`) against its own profile when
//! the target is a Direct3D 9 device ([`Api::D3D9`]; Direct3D 10, 11 and 12 create
//! calls refuse it, V116), and the Level 9 program of a `*_4_0_level_9_x` container when
//! the target is a feature level 9 device.
//!
//! Nothing here panics on any input: malformed bytes become diagnostics.
//!
//! ```
//! use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
//! use dxbc::{Builder, FourCc, Signature, SignatureElement, SignatureFormat};
//! use validate::{validate, validate_call, Code, FeatureLevel, Location, Runtime, Target};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // A vertex shader: the program (assembled by the `tpf` crate) and the input and
//!     // output signatures fxc would write beside it.
//!     let text = "vs_5_0\n\
//!                 dcl_output_siv o0.xyzw, position\n\
//!                 mov o0.xyzw, l(0.000000, 0.000000, 0.000000, 1.000000)\n\
//!                 ret\n";
//!     let program = tpf::parse::parse_program(text).map_err(|d| format!("{d:?}"))?.program;
//!     let tokens = tpf::encode(&program)?;
//!     let position = SignatureElement {
//!         stream: 0,
//!         semantic_name: "SV_Position",
//!         semantic_index: 0,
//!         system_value: SystemValue::Position,
//!         component_type: ComponentType::Float32,
//!         register: 0,
//!         mask: 0b1111,
//!         rw_mask: 0,
//!         min_precision: MinPrecision::Default,
//!     };
//!     let signature = |elements| Signature { format: SignatureFormat::Basic, elements, raw_layout: None };
//!     let bytes = Builder::new()
//!         .chunk(FourCc::ISGN, signature(vec![]).to_bytes())
//!         .chunk(FourCc::OSGN, signature(vec![position]).to_bytes())
//!         .chunk(FourCc::SHEX, tokens.iter().flat_map(|t| t.to_le_bytes()).collect::<Vec<u8>>())
//!         .build()?;
//!
//!     // Accepted by a feature level 11_0 device...
//!     let report = validate(&bytes, &Target::d3d11(FeatureLevel::L11_0, Runtime::D3D11_0));
//!     assert!(report.is_valid(), "{:?}", report.diagnostics);
//!     assert_eq!(report.shader.map(|s| s.model), Some((5, 0)));
//!
//!     // ...refused by a 10_1 one (Shader Model 5.0 needs 11_0), and by a pixel-shader
//!     // create call (the shader's type is not the call's).
//!     let report = validate(&bytes, &Target::d3d11(FeatureLevel::L10_1, Runtime::D3D11_0));
//!     assert!(report.has(Code::ModelFeatureLevel));
//!     let report = validate(&bytes, &Target::default().for_stage(tpf::ProgramType::Pixel));
//!     assert!(report.has(Code::WrongStage));
//!
//!     // Each diagnostic has a stable code and says where.
//!     let report = validate_call(&bytes, bytes.len() - 4, &Target::default());
//!     let first = &report.diagnostics[0];
//!     assert_eq!((first.code.id(), &first.location), ("V101", &Location::Shader));
//!     println!("{first}"); // V101 shader: BytecodeLength is ... but ... bytes of bytecode were given
//!     Ok(())
//! }
//! ```
#![warn(missing_docs)]
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

pub mod codes;
pub mod d3d9;
pub mod diag;
mod program;
pub mod so;
pub mod target;

pub use codes::{Code, Rule, RULES};
pub use d3d9::Caps9;
pub use diag::{Diagnostic, Location};
pub use program::{At, OutputDecl, ProgramFacts};
pub use so::{SoArguments, SoEntry, StreamOutputDesc, NO_RASTERIZED_STREAM};
pub use target::{parse_stage, stage_name, Api, Caps, FeatureLevel, Runtime, Target};

use dxbc::{Container, FourCc, Signature, SignatureFormat};
use tpf::ProgramType;

/// What the validator learnt about the shader (when it got that far).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShaderInfo {
    /// The program's stage.
    pub stage: ProgramType,
    /// Shader model, `(major, minor)`.
    pub model: (u8, u8),
    /// The container carries a Level 9 program (`*_4_0_level_9_x`).
    pub level9: bool,
    /// False for an output-signature blob given for stream output without a geometry
    /// shader (then `stage` is `Geometry`, the stage it stands in for).
    pub program: bool,
}

/// The verdict: every diagnostic found (empty when the shader is accepted).
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Every rule the shader or the call's arguments break, in the order the checks
    /// found them; the create call fails (`E_INVALIDARG`) when there is one.
    pub diagnostics: Vec<Diagnostic>,
    /// What the shader is, once its version was read.
    pub shader: Option<ShaderInfo>,
    /// Facts gathered from the program (declared streams, outputs...), when it decoded.
    pub facts: Option<ProgramFacts>,
}

impl Report {
    /// True when nothing refuses the shader.
    pub fn is_valid(&self) -> bool {
        self.diagnostics.is_empty()
    }
    /// True when some diagnostic has `code`.
    pub fn has(&self, code: Code) -> bool {
        self.diagnostics.iter().any(|d| d.code == code)
    }
}

/// Validates a whole container for `target`, as the create call of `target.stage` (or
/// of the shader's own stage) would. A raw Shader Model 1–3 program is validated
/// against its own profile with the most capable device's [`Caps9`] for an
/// [`Api::D3D9`] target, and refused by any other (V116).
pub fn validate(bytes: &[u8], target: &Target) -> Report {
    validate_inner(bytes, bytes.len(), target, None, None)
}

/// [`validate`] with the length argument of the create call, which must equal the
/// container's size.
pub fn validate_call(bytes: &[u8], length: usize, target: &Target) -> Report {
    validate_inner(bytes, length, target, None, None)
}

/// Validates a shader together with a stream-output declaration, as
/// `CreateGeometryShaderWithStreamOutput` does (the shader may be a vertex, domain or
/// geometry shader).
pub fn validate_with_stream_output(bytes: &[u8], length: usize, target: &Target, so: &StreamOutputDesc) -> Report {
    validate_inner(bytes, length, target, Some(&SoArguments::from_desc(so)), None)
}

/// [`validate_with_stream_output`] with the stream-output arguments exactly as a
/// program passes them ([`SoArguments`]: NULL or not, the counts apart from the
/// arrays; Direct3D 10's `OutputStreamStride` for an [`Api::D3D10`] target). Fields the
/// target's call does not have are not checked here: see [`SoArguments::check_shape`].
pub fn validate_with_so_arguments(bytes: &[u8], length: usize, target: &Target, so: &SoArguments) -> Report {
    validate_inner(bytes, length, target, Some(so), None)
}

/// [`validate_call`] with explicit Direct3D 9 capabilities: they apply to a raw Shader
/// Model 1–3 program and to the Level 9 program of a container validated for a
/// feature level 9 device (instead of [`Caps9::default`] and [`Caps9::for_level`]).
pub fn validate_with_d3d9_caps(bytes: &[u8], length: usize, target: &Target, caps: &Caps9) -> Report {
    validate_inner(bytes, length, target, None, Some(caps))
}

fn validate_inner(
    bytes: &[u8],
    length: usize,
    target: &Target,
    so: Option<&SoArguments>,
    caps9: Option<&Caps9>,
) -> Report {
    let mut report = Report::default();
    let out = &mut report.diagnostics;
    // What the call reads of its stream-output arguments, and the pointer rules.
    let so = so.map(|args| {
        let (desc, diagnostics, count_refused) = args.read();
        out.extend(diagnostics);
        (desc, count_refused)
    });
    let so = so.as_ref();
    if length != bytes.len() {
        out.push(Diagnostic::new(
            Code::BytecodeLength,
            Location::Shader,
            format!("BytecodeLength is {length} but {} bytes of bytecode were given", bytes.len()),
        ));
    }
    if d3d9::is_d3dbc(bytes) {
        if target.api == Api::D3D9 {
            validate_d3dbc(bytes, target, so.is_some(), caps9.copied().unwrap_or_default(), &mut report);
        } else {
            out.push(raw_program_refused(bytes, target.api));
        }
        return report;
    }
    if target.api == Api::D3D9 {
        let what =
            if bytes.starts_with(b"DXBC") { "a DXBC container" } else { "not a Shader Model 1–3 token stream" };
        out.push(Diagnostic::new(
            Code::BytecodeApi,
            Location::Byte { offset: 0 },
            format!(
                "{what}: a Direct3D 9 create call takes a raw Shader Model 1–3 program (first token 0xFFFE____ for vs, 0xFFFF____ for ps); validate a container with --api d3d10, d3d11 or d3d12"
            ),
        ));
        return report;
    }
    let container = match Container::parse(bytes) {
        Ok(c) => c,
        Err(e) => {
            out.push(Diagnostic::new(Code::ContainerUnreadable, Location::Byte { offset: e.offset() }, e.to_string()));
            return report;
        }
    };
    if container.total_size() as usize != length && length == bytes.len() {
        // Container::parse accepts trailing bytes after the declared size.
        out.push(Diagnostic::new(
            Code::BytecodeLength,
            Location::Byte { offset: 24 },
            format!("the container says it is {} bytes; BytecodeLength is {length}", container.total_size()),
        ));
    }
    if !container.checksum_ok() {
        out.push(Diagnostic::new(
            Code::Checksum,
            Location::Byte { offset: 4 },
            "the stored checksum is not the checksum of the container's bytes (the runtime refuses modified or unsigned bytecode)",
        ));
    }

    // The program chunk.
    let programs: Vec<_> =
        container.chunks().iter().filter(|c| c.fourcc == FourCc::SHDR || c.fourcc == FourCc::SHEX).collect();
    let Some(program) = programs.first() else {
        if let Some(so) = so {
            // CreateGeometryShaderWithStreamOutput also takes an output signature alone
            // (D3DGetOutputSignatureBlob): stream output without a geometry shader.
            if let Some(facts) = signature_only(&container, so, target, out) {
                let info = ShaderInfo { stage: facts.stage, model: facts.model, level9: false, program: false };
                report.shader = Some(info);
                report.facts = Some(facts);
                return report;
            }
        }
        out.push(Diagnostic::new(Code::MissingProgram, Location::Shader, "the container has no SHDR or SHEX chunk"));
        return report;
    };
    for extra in programs.get(1..).unwrap_or_default() {
        out.push(Diagnostic::new(
            Code::DuplicateProgram,
            chunk_location(extra),
            "a second program chunk; the runtime would not know which to run",
        ));
    }
    let level9 = container.chunk(FourCc::AON9).is_some();
    let facts = program::check(program.data, program.data_offset(), target, so.is_some(), out);
    let Some(facts) = facts else { return report };
    let stage = facts.stage;
    report.shader = Some(ShaderInfo { stage, model: facts.model, level9, program: true });

    // Signatures the runtime reads.
    let sig = |fourccs: &[FourCc]| container.chunk_any(fourccs);
    let graphics = stage != ProgramType::Compute;
    let mut outputs = None;
    for (what, fourccs, needed) in [
        ("input", &[FourCc::ISGN, FourCc::ISG1][..], graphics),
        ("output", &[FourCc::OSGN, FourCc::OSG5, FourCc::OSG1][..], graphics),
        ("patch-constant", &[FourCc::PCSG, FourCc::PSG1][..], matches!(stage, ProgramType::Hull | ProgramType::Domain)),
    ] {
        match sig(fourccs) {
            Some(chunk) => {
                let format = SignatureFormat::for_fourcc(chunk.fourcc).expect("signature fourcc");
                match Signature::parse(chunk.data, format) {
                    Ok(s) => {
                        if what == "output" {
                            outputs = Some(s);
                        }
                    }
                    Err(e) => out.push(Diagnostic::new(
                        Code::ChunkUnreadable,
                        Location::Byte { offset: e.clone().rebased(chunk.data_offset()).offset() },
                        format!("the {what} signature ({}) cannot be read: {e}", chunk.fourcc),
                    )),
                }
            }
            None if needed => out.push(Diagnostic::new(
                Code::MissingSignature,
                Location::Shader,
                format!(
                    "a {} shader needs an {what} signature chunk ({})",
                    stage_name(stage),
                    fourccs.first().map(ToString::to_string).unwrap_or_default()
                ),
            )),
            None => {}
        }
    }
    // Other chunks the runtime reads.
    for chunk in container.chunks() {
        if matches!(&chunk.fourcc.0, b"IFCE" | b"SFI0" | b"RDEF") {
            if let Err(e) = chunk.decode() {
                out.push(Diagnostic::new(
                    Code::ChunkUnreadable,
                    Location::Byte { offset: e.offset() },
                    format!("the {} chunk cannot be read: {e}", chunk.fourcc),
                ));
            }
        }
    }
    let level_refused =
        out.iter().any(|d| matches!(d.code, Code::StageFeatureLevel | Code::ModelFeatureLevel | Code::Direct3D12Only));
    if let (Some((level, runtime, caps)), false) = (target.api.device(), level_refused) {
        program::check_features(&container, &facts, level, runtime, caps, out);
        if level.is_9_x() && matches!(stage, ProgramType::Vertex | ProgramType::Pixel) {
            let caps = caps9.copied().unwrap_or_else(|| Caps9::for_level(level));
            check_level9(&container, level, stage, &caps, out);
        }
    }
    if let Some((so, entry_count_refused)) = so {
        let elements = outputs.as_ref().map(|s| s.elements.as_slice()).unwrap_or(&[]);
        let ctx = so::SoContext {
            stage,
            model: facts.model,
            api: target.api,
            outputs: elements,
            facts: &facts,
            entry_count_refused: *entry_count_refused,
            signature_only: false,
        };
        so::check(so, &ctx, out);
    }
    report.facts = Some(facts);
    report
}

/// Stream output checked against an output-signature blob (no program): returns `None`
/// when the container has no output signature either.
fn signature_only(
    container: &Container<'_>,
    (so, entry_count_refused): &(StreamOutputDesc, bool),
    target: &Target,
    out: &mut Vec<Diagnostic>,
) -> Option<ProgramFacts> {
    let chunk = container.chunk_any(&[FourCc::OSGN, FourCc::OSG5, FourCc::OSG1])?;
    let format = SignatureFormat::for_fourcc(chunk.fourcc)?;
    let signature = match Signature::parse(chunk.data, format) {
        Ok(s) => s,
        Err(e) => {
            out.push(Diagnostic::new(
                Code::ChunkUnreadable,
                Location::Byte { offset: e.clone().rebased(chunk.data_offset()).offset() },
                format!("the output signature ({}) cannot be read: {e}", chunk.fourcc),
            ));
            return None;
        }
    };
    // An OSG5/OSG1 signature carries streams: a Shader Model 5 geometry shader's outputs.
    let model = if chunk.fourcc == FourCc::OSGN { (4, 0) } else { (5, 0) };
    let facts = ProgramFacts::new(ProgramType::Geometry, model);
    let ctx = so::SoContext {
        stage: ProgramType::Geometry,
        model,
        api: target.api,
        outputs: &signature.elements,
        facts: &facts,
        entry_count_refused: *entry_count_refused,
        signature_only: true,
    };
    if so.entries.is_empty() && !entry_count_refused {
        // Functional spec 14.3: with no geometry shader "NumEntries must be > 0".
        out.push(Diagnostic::new(
            Code::SoEntryCount,
            Location::StreamOutput { entry: None },
            "no entries: an output signature without a geometry shader creates nothing but stream output, so it needs at least one entry",
        ));
    }
    so::check(so, &ctx, out);
    Some(facts)
}

/// A raw Shader Model 1–3 program given to a Direct3D 10, 11 or 12 create call: those
/// calls take DXBC containers (`E_INVALIDARG`).
fn raw_program_refused(bytes: &[u8], api: Api) -> Diagnostic {
    let version = bytes.first_chunk().map_or(0, |b| u32::from_le_bytes(*b));
    let kind = if version >> 16 == 0xfffe { "vs" } else { "ps" };
    let name = match api {
        Api::D3D10 { .. } => "Direct3D 10",
        Api::D3D12 => "Direct3D 12",
        _ => "Direct3D 11",
    };
    let level9 = if matches!(api, Api::D3D12) {
        ""
    } else {
        "; a Direct3D 9 program runs at feature level 9 as the Level 9 part of a *_4_0_level_9_x container"
    };
    Diagnostic::new(
        Code::BytecodeApi,
        Location::Byte { offset: 0 },
        format!(
            "a raw Shader Model {}.{} {kind} program (version token {version:#010x}): {name} create calls take DXBC containers{level9} (validate it with --api d3d9)",
            version >> 8 & 0xff,
            version & 0xff
        ),
    )
}

/// A raw Shader Model 1–3 program on a Direct3D 9 device: its own profile's rules (a
/// create call of another stage is refused).
fn validate_d3dbc(bytes: &[u8], target: &Target, so: bool, caps: Caps9, report: &mut Report) {
    let out = &mut report.diagnostics;
    let Some(info) = d3d9::check(bytes, 0, &caps, out) else { return };
    let stage = match info.version.kind {
        d3dbc::ShaderKind::Vertex => ProgramType::Vertex,
        d3dbc::ShaderKind::Pixel => ProgramType::Pixel,
    };
    if let Some(want) = target.stage {
        if want != stage {
            out.push(Diagnostic::new(
                Code::WrongStage,
                Location::Byte { offset: 0 },
                format!(
                    "the program is a {} shader ({}); the call creates a {} shader",
                    stage_name(stage),
                    info.version.name(),
                    stage_name(want)
                ),
            ));
        }
    }
    if so {
        out.push(Diagnostic::new(
            Code::SoStage,
            Location::Shader,
            "stream output takes a Shader Model 4 or later vertex, domain or geometry shader, not a Direct3D 9 program",
        ));
    }
    let model = (info.version.major, info.version.minor);
    report.shader = Some(ShaderInfo { stage, model, level9: false, program: true });
    let mut facts = ProgramFacts::new(stage, model);
    facts.instruction_count = info.instructions;
    report.facts = Some(facts);
}

/// A feature level 9 device runs the container's Level 9 (SM2) program: it must be
/// there, of the container program's type, of a version the level runs, and valid
/// under its profile's rules for the device's `caps`.
fn check_level9(
    container: &Container<'_>,
    level: FeatureLevel,
    stage: ProgramType,
    caps: &Caps9,
    out: &mut Vec<Diagnostic>,
) {
    let Some(chunk) = container.chunk(FourCc::AON9) else {
        out.push(Diagnostic::new(
            Code::Level9ProgramMissing,
            Location::Shader,
            format!(
                "feature level {level} runs the Level 9 program of `*_4_0_level_9_x` shaders; this container has no Aon9 chunk"
            ),
        ));
        return;
    };
    let (program, at) = match d3d9::aon9::program(chunk.data) {
        Ok(p) => p,
        Err(e) => {
            out.push(Diagnostic::new(
                Code::ChunkUnreadable,
                Location::Byte { offset: chunk.data_offset().saturating_add(e.offset) },
                e.message,
            ));
            return;
        }
    };
    let base = chunk.data_offset().saturating_add(at);
    let Some(version) = program.first_chunk().and_then(|b| d3dbc::Version::from_token(u32::from_le_bytes(*b))) else {
        // The d3d9 rules say why (V901).
        d3d9::check(program, base, caps, out);
        return;
    };
    let kind_stage = match version.kind {
        d3dbc::ShaderKind::Vertex => ProgramType::Vertex,
        d3dbc::ShaderKind::Pixel => ProgramType::Pixel,
    };
    if kind_stage != stage {
        out.push(Diagnostic::new(
            Code::Level9Stage,
            Location::Byte { offset: base },
            format!(
                "the Level 9 program is a {} shader ({}) in a {} shader's container",
                stage_name(kind_stage),
                version.name(),
                stage_name(stage)
            ),
        ));
    }
    let (major, minor) = (version.major, version.minor);
    // vs_2_0 / ps_2_0 run from 9_1; vs_2_x / ps_2_x (minor 1) at 9_3, and at 9_1 and 9_2
    // when the program uses nothing 2_0 lacks (see `uses_only_2_0`).
    let needed = match (major, minor) {
        (2, 0) => FeatureLevel::L9_1,
        (2, 1) if level < FeatureLevel::L9_3 => match uses_only_2_0(program, base, caps) {
            Ok(()) => return,
            Err(why) => {
                out.push(Diagnostic::new(
                    Code::Level9Version,
                    Location::Byte { offset: base },
                    format!(
                        "the Level 9 program is {} and uses what {} does not have ({why}); a 9_1 or 9_2 device runs 2_0 programs, and 2_x programs that use 2_0 features only",
                        version.name(),
                        version.name().replace("_x", "_0"),
                    ),
                ));
                d3d9::check(program, base, caps, out);
                return;
            }
        },
        (2, 1) => FeatureLevel::L9_3,
        _ => {
            out.push(Diagnostic::new(
                Code::Level9Version,
                Location::Byte { offset: base },
                format!(
                    "the Level 9 program has version {}; feature level 9 runs 2_0 and 2_x programs",
                    version.name()
                ),
            ));
            return;
        }
    };
    if level < needed {
        out.push(Diagnostic::new(
            Code::Level9Version,
            Location::Byte { offset: base },
            format!("the Level 9 program is a 2_x program, which needs feature level {needed}; the device is {level}"),
        ));
    }
    d3d9::check(program, base, caps, out);
}

/// Whether a vs_2_x / ps_2_x Level 9 program uses only what vs_2_0 / ps_2_0 have: the
/// same tokens under a 2_0 version token pass the 2_0 profile's rules (instructions,
/// registers and their counts, modifiers, swizzles, slots, flow control). fxc gives
/// `*_4_0_level_9_3` blobs a 2_x program whatever they use, and Windows creates those
/// that use only 2_0 features on 9_1 and 9_2 devices (docs/VALIDATION.md, "Level 9
/// programs"). `Err` gives the first thing 2_0 lacks.
fn uses_only_2_0(program: &[u8], base: usize, caps: &Caps9) -> Result<(), String> {
    let mut as_2_0 = program.to_vec();
    // The version token's minor version (byte 0) 1 -> 0.
    if let Some(minor) = as_2_0.first_mut() {
        *minor = 0;
    }
    let mut found = Vec::new();
    d3d9::check(&as_2_0, base, caps, &mut found);
    match found.first() {
        None => Ok(()),
        Some(d) => {
            let more = found.len().saturating_sub(1);
            let more = if more > 0 { format!("; {more} more") } else { String::new() };
            Err(format!("{}: {}{more}", d.location, d.message))
        }
    }
}

fn chunk_location(chunk: &dxbc::Chunk<'_>) -> Location {
    Location::Chunk { fourcc: chunk.fourcc.to_string(), offset: chunk.offset }
}
