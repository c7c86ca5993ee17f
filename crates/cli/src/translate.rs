//! `dxref translate`: a Shader Model 4.0–5.1 shader to WGSL, SPIR-V, MSL, GLSL or HLSL
//! through the `translate` crate (naga).

use std::ffi::OsStr;

use crate::input::{self, Source};
use crate::output::{self, Output};
use crate::{status, Failure, Outcome};

/// `dxref translate`'s options.
pub struct Options<'a> {
    /// The shader (`None` or `-`: standard input).
    pub file: Option<&'a OsStr>,
    /// The language: `wgsl`, `spirv`, `msl`, `glsl` or `hlsl`.
    pub to: &'a str,
    /// `-o`: where to write (`None` or `-`: standard output).
    pub output: Option<&'a OsStr>,
    /// `--bindings`: the binding file (`register = group:binding` lines).
    pub bindings: Option<&'a OsStr>,
    /// `--buffer-format REGISTER=FORMAT`: the element format of typed buffer views.
    pub buffer_formats: &'a [String],
    /// `--var`: the array of an fxc `/Fh` header.
    pub var: Option<&'a str>,
    /// `--interface SLOT=TABLE`: the function table bound to each interface slot.
    pub interfaces: &'a [String],
    /// `--pipeline VS GS`: a vertex and a geometry shader lowered to compute passes.
    pub pipeline: Option<(&'a OsStr, &'a OsStr)>,
    /// `--topology`: the draw's topology for `--pipeline`.
    pub topology: Option<&'a str>,
    /// `--so`: the stream-output declaration for `--pipeline`.
    pub so: Option<&'a str>,
    /// `--so-strides`: comma-separated strides.
    pub so_strides: Option<&'a str>,
    /// `--rasterized-stream`: 0..3 or `none`.
    pub rasterized_stream: Option<&'a str>,
    /// `--gs-as-compute`: a geometry shader FILE lowered to compute passes behind a
    /// pass-through vertex shader, instead of a native SPIR-V geometry shader.
    pub gs_as_compute: bool,
    /// `--opengl`: a geometry shader's GLSL for desktop OpenGL instead of Vulkan.
    pub opengl: bool,
}

/// Reads the shader, translates it and writes the target's text (SPIR-V as binary).
/// Status 2 when an input cannot be read, 1 when the shader is not translated (the
/// message names the instruction), 3 when the output cannot be written.
pub fn run(options: &Options<'_>) -> Outcome {
    let Some(target) = ::translate::Target::from_name(options.to) else {
        return Err(Failure::input(format!("--to {}: expected wgsl, spirv, msl, glsl or hlsl", options.to)));
    };
    let mut translate_options = ::translate::Options::default();
    if let Some(path) = options.bindings {
        let source = Source::from_arg(path);
        let name = source.name().to_string();
        let bytes = input::read(&source)?;
        let text = String::from_utf8(bytes).map_err(|_| Failure::input(format!("{name}: not UTF-8 text")))?;
        translate_options.bindings =
            ::translate::Bindings::parse(&text).map_err(|e| Failure::input(format!("{name}:{e}")))?;
    }
    for assignment in options.buffer_formats {
        if !assignment.contains('=') || assignment.contains(':') {
            return Err(Failure::input(format!(
                "--buffer-format {assignment}: expected REGISTER=FORMAT (`t3=R8G8B8A8_UNORM`)"
            )));
        }
        translate_options
            .bindings
            .parse_more(assignment)
            .map_err(|e| Failure::input(format!("--buffer-format {assignment}: {}", e.message)))?;
    }
    // The slot is read as `dxref run --interface` reads it (`0=ft1` or `fp0=ft1`); the
    // translated shader is the one shader, so no stage or register space is written.
    for binding in options.interfaces {
        let a = inputs::binding::binding_arg(binding, "fp")
            .map_err(|e| Failure::input(format!("--interface {binding}: {e}")))?;
        if a.stage.is_some() || a.space.is_some() {
            return Err(Failure::input(format!("--interface {binding}: expected SLOT=VALUE without a stage or space")));
        }
        let instance = inputs::binding::class_instance(&a.value).ok_or_else(|| {
            Failure::input(format!("--interface {binding}: expected {}", inputs::binding::CLASS_INSTANCE_SYNTAX))
        })?;
        translate_options.class_instances.bind(a.slot, instance);
    }
    if let Some((vs, gs)) = options.pipeline {
        let read = |path: &OsStr| -> Result<(String, Vec<u8>), Failure> {
            let source = Source::from_arg(path);
            Ok((source.name().to_string(), input::blob(&source, options.var)?))
        };
        return pipeline(options, translate_options, target, read(vs)?, read(gs)?);
    }
    let source = options.file.map_or(Source::Stdin, Source::from_arg);
    let name = source.name().to_string();
    let bytes = input::blob(&source, options.var)?;
    if options.topology.is_some() && !options.gs_as_compute {
        return Err(Failure::input("--topology takes --pipeline or --gs-as-compute".into()));
    }
    if ::translate::is_geometry(&bytes) {
        if options.gs_as_compute {
            let vs = passthrough_vs(&bytes)
                .map_err(|e| Failure::refused(format!("{name}: a pass-through vertex shader for it: {e}")))?;
            let vs = ("(pass-through vertex shader)".to_string(), vs);
            return pipeline(options, translate_options, target, vs, (name, bytes));
        }
        if !matches!(target, ::translate::Target::Spirv | ::translate::Target::Glsl) {
            return Err(Failure::refused(format!(
                "{name}: a geometry shader: naga's {} back end has no geometry stage (its IR has none); --to spirv \
                 and --to glsl write a native geometry shader, --gs-as-compute lowers it to compute passes",
                target.name()
            )));
        }
        if options.opengl && target != ::translate::Target::Glsl {
            return Err(Failure::input("--opengl takes --to glsl".into()));
        }
        return native(options, translate_options, target, &name, &bytes);
    }
    if options.opengl {
        return Err(Failure::input(format!("{name}: --opengl takes a geometry shader (--to glsl)")));
    }
    if options.gs_as_compute {
        return Err(Failure::input(format!("{name}: --gs-as-compute takes a geometry shader")));
    }
    if options.so.is_some() {
        return Err(Failure::input(format!("{name}: --so takes a geometry shader (or --pipeline)")));
    }
    let mut out = Output::new(options.output);
    if target == ::translate::Target::Spirv && options.output.is_none() && out.is_terminal() {
        return Err(Failure::input(
            "standard output is a terminal: give -o FILE for SPIR-V (or -o - to write it there anyway)".into(),
        ));
    }
    let text = ::translate::translate(&bytes, &translate_options, target).map_err(|e| match e {
        ::translate::TranslateError::Input(m) => Failure::input(format!("{name}: {m}")),
        e => Failure::refused(format!("{name}: {e}")),
    })?;
    let written = out.write(&text).and_then(|_| out.finish(true));
    output::finish(written, status::OK)
}

/// The file extension of a target's output.
fn extension(target: ::translate::Target) -> &'static str {
    match target {
        ::translate::Target::Wgsl => "wgsl",
        ::translate::Target::Spirv => "spv",
        ::translate::Target::Msl => "metal",
        ::translate::Target::Glsl => "comp",
        ::translate::Target::Hlsl => "hlsl",
    }
}

/// `--so`, `--so-strides`, `--rasterized-stream`: the stream-output declaration, its
/// masks resolved against the geometry shader's output signature.
fn stream_output(options: &Options<'_>, gs_bytes: &[u8]) -> Result<Option<streamout::StreamOutputDesc>, Failure> {
    let Some(text) = options.so else { return Ok(None) };
    let mut desc: streamout::StreamOutputDesc = text.parse().map_err(|e| Failure::input(format!("--so: {e}")))?;
    if let Some(strides) = options.so_strides {
        desc.strides = strides
            .split(',')
            .map(|s| s.trim().parse::<u32>())
            .collect::<Result<_, _>>()
            .map_err(|_| Failure::input(format!("--so-strides {strides}: expected numbers")))?;
    }
    desc.rasterized_stream = match options.rasterized_stream {
        None => 0,
        Some("none") => streamout::NO_RASTERIZED_STREAM,
        Some(n) => n
            .parse::<u32>()
            .ok()
            .filter(|&n| n < 4)
            .ok_or_else(|| Failure::input(format!("--rasterized-stream {n}: expected 0..3 or none")))?,
    };
    desc.resolve_masks_in(gs_bytes);
    Ok(Some(desc))
}

/// A geometry shader FILE as a native SPIR-V or GLSL geometry shader, its stream output
/// (`--so`) as transform feedback.
fn native(
    options: &Options<'_>,
    translate_options: ::translate::Options,
    target: ::translate::Target,
    name: &str,
    bytes: &[u8],
) -> Outcome {
    let stream_output = stream_output(options, bytes)?;
    if let Some(d) = &stream_output {
        if d.rasterized_stream != 0 && d.rasterized_stream != streamout::NO_RASTERIZED_STREAM {
            return Err(Failure::refused(format!(
                "{name}: --rasterized-stream {}: a native geometry shader rasterizes stream 0 (Vulkan's \
                 rasterization stream is pipeline state); --gs-as-compute rasterizes any",
                d.rasterized_stream
            )));
        }
    }
    let mut out = Output::new(options.output);
    if target == ::translate::Target::Spirv && options.output.is_none() && out.is_terminal() {
        return Err(Failure::input(
            "standard output is a terminal: give -o FILE for SPIR-V (or -o - to write it there anyway)".into(),
        ));
    }
    let native = ::translate::NativeGsOptions { gs: translate_options, stream_output };
    let written = if target == ::translate::Target::Glsl {
        let flavor = if options.opengl { ::translate::GlslFlavor::Desktop } else { ::translate::GlslFlavor::Vulkan };
        ::translate::geometry_glsl(bytes, &native, flavor).map(String::into_bytes)
    } else {
        ::translate::geometry_spirv(bytes, &native)
    };
    let written = written.map_err(|e| match e {
        ::translate::TranslateError::Input(m) => Failure::input(format!("{name}: {m}")),
        e => Failure::refused(format!("{name}: {e}")),
    })?;
    let written = out.write(&written).and_then(|_| out.finish(true));
    output::finish(written, status::OK)
}

/// A vertex shader that passes a geometry shader its inputs: each element of the
/// geometry shader's input signature read from the vertex with the same semantic and
/// written to the same register (system values `SV_Position`, `SV_ClipDistance`,
/// `SV_CullDistance` as such), as a container.
fn passthrough_vs(gs: &[u8]) -> Result<Vec<u8>, String> {
    let c = dxbc::Container::parse(gs).map_err(|e| e.to_string())?;
    let chunk = c.chunk_any(&[dxbc::FourCc::ISGN, dxbc::FourCc::ISG1]).ok_or("no input signature")?;
    let format = dxbc::SignatureFormat::for_fourcc(chunk.fourcc).ok_or("no input signature")?;
    let sig = dxbc::Signature::parse_fields(chunk.data, format).map_err(|e| e.to_string())?;
    let table = |title: &str, rows: &[String]| {
        let mut s = format!(
            "//\n// {title}:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n\
             // -------------------- ----- ------ -------- -------- ------- ------\n"
        );
        for r in rows {
            s += r;
        }
        s + "//\n"
    };
    let (mut ins, mut outs, mut decls_in, mut decls_out, mut body) =
        (Vec::new(), Vec::new(), String::new(), String::new(), String::new());
    for e in &sig.elements {
        let mask: String = "xyzw".chars().enumerate().filter(|(c, _)| e.mask & (1 << c) != 0).map(|(_, l)| l).collect();
        if mask.is_empty() {
            continue;
        }
        let ty = match u32::from(e.component_type) {
            1 => "uint",
            2 => "int",
            _ => "float",
        };
        let (sv, siv) = match u32::from(e.system_value) {
            1 => ("POS", Some("position")),
            2 => ("CLIPDST", Some("clip_distance")),
            3 => ("CULLDST", Some("cull_distance")),
            _ => ("NONE", None),
        };
        let (name, index, r) = (e.semantic_name, e.semantic_index, e.register);
        let in_name = if siv.is_some() { format!("DX_{}", name.trim_start_matches("SV_")) } else { name.to_string() };
        ins.push(format!("// {in_name:<20} {index:>5}   {mask:<4} {r:>8} {:>8} {ty:>7}   {mask:<4}\n", "NONE"));
        outs.push(format!("// {name:<20} {index:>5}   {mask:<4} {r:>8} {sv:>8} {ty:>7}   {mask:<4}\n"));
        decls_in += &format!("dcl_input v{r}.{mask}\n");
        decls_out += &match siv {
            Some(s) => format!("dcl_output_siv o{r}.{mask}, {s}\n"),
            None => format!("dcl_output o{r}.{mask}\n"),
        };
        body += &format!("mov o{r}.{mask}, v{r}.xyzw\n");
    }
    let text = format!(
        "{}{}vs_4_0\n{decls_in}{decls_out}{body}ret\n",
        table("Input signature", &ins),
        table("Output signature", &outs)
    );
    listing::asm::assemble(&text, &listing::asm::AsmOptions::default()).map(|a| a.bytes).map_err(|e| format!("{e:?}"))
}

/// `--pipeline VS GS` (or `--gs-as-compute`): the four passes of [`::translate::lower`].
fn pipeline(
    options: &Options<'_>,
    translate_options: ::translate::Options,
    target: ::translate::Target,
    (vs_name, vs_bytes): (String, Vec<u8>),
    (gs_name, gs_bytes): (String, Vec<u8>),
) -> Outcome {
    let topology = match options.topology {
        Some(t) => ::translate::Topology::parse(t).ok_or_else(|| {
            Failure::input(format!(
                "--topology {t}: expected pointlist, linelist, linestrip, trianglelist, trianglestrip, linelist_adj, \
                 linestrip_adj, trianglelist_adj or trianglestrip_adj"
            ))
        })?,
        None => input_list(&gs_bytes)
            .ok_or_else(|| Failure::refused(format!("{gs_name}: no dcl_inputprimitive to take a topology from")))?,
    };
    let stream_output = stream_output(options, &gs_bytes)?;
    let gs_options =
        ::translate::GsOptions { topology, stream_output, vs: translate_options.clone(), gs: translate_options };
    let lowered = ::translate::lower(&vs_bytes, &gs_bytes, &gs_options).map_err(|e| match e {
        ::translate::TranslateError::Input(m) => Failure::input(format!("{vs_name}, {gs_name}: {m}")),
        e => Failure::refused(format!("{vs_name}, {gs_name}: {e}")),
    })?;
    let mut written = Vec::new();
    for (pass, module) in lowered.passes() {
        let bytes = ::translate::write(module, target)
            .map_err(|e| Failure::refused(format!("{vs_name}, {gs_name}: {pass} pass: {e}")))?;
        written.push((pass, bytes));
    }
    match options.output.filter(|o| *o != "-") {
        Some(prefix) => {
            for (pass, bytes) in &written {
                let mut path = prefix.to_os_string();
                path.push(format!(".{pass}.{}", extension(target)));
                let mut out = Output::new(Some(&path));
                out.write(bytes).and_then(|_| out.finish(true))?;
            }
            Ok(())
        }
        None => {
            if target == ::translate::Target::Spirv {
                return Err(Failure::input("--pipeline with --to spirv writes four files: give -o PREFIX".into()));
            }
            let mut out = Output::new(options.output);
            let mut result = Ok(());
            for (pass, bytes) in &written {
                result = result
                    .and_then(|_| out.write(format!("// pass: {pass}\n").as_bytes()))
                    .and_then(|_| out.write(bytes))
                    .and_then(|_| out.write(b"\n"));
            }
            output::finish(result.and_then(|_| out.finish(true)), status::OK)
        }
    }
}

/// The list topology a geometry shader's `dcl_inputprimitive` takes.
fn input_list(bytes: &[u8]) -> Option<::translate::Topology> {
    let container = dxbc::Container::parse(bytes).ok()?;
    let chunk = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])?;
    let program = tpf::decode(chunk.data).ok()?;
    let found = program.iter().find_map(|ins| match ins.body {
        tpf::Body::Decl(tpf::Decl::InputPrimitive(p)) => ::translate::Topology::list_for(p),
        _ => None,
    });
    found
}
