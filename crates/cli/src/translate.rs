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
    for binding in options.interfaces {
        let parsed = binding.split_once('=').and_then(|(slot, table)| {
            let table = table.trim();
            let table = table.strip_prefix("ft").unwrap_or(table);
            Some((slot.trim().parse::<u32>().ok()?, table.parse::<u32>().ok()?))
        });
        let (slot, table) = parsed
            .ok_or_else(|| Failure::input(format!("--interface {binding}: expected SLOT=TABLE (`0=ft1` or `0=1`)")))?;
        translate_options.interfaces.insert(slot, table);
    }
    if let Some((vs, gs)) = options.pipeline {
        return pipeline(options, translate_options, target, vs, gs);
    }
    let source = options.file.map_or(Source::Stdin, Source::from_arg);
    let name = source.name().to_string();
    let bytes = input::blob(&source, options.var)?;
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

/// `--pipeline VS GS`: the four passes of [`::translate::lower`].
fn pipeline(
    options: &Options<'_>,
    translate_options: ::translate::Options,
    target: ::translate::Target,
    vs: &OsStr,
    gs: &OsStr,
) -> Outcome {
    let read = |path: &OsStr| -> Result<(String, Vec<u8>), Failure> {
        let source = Source::from_arg(path);
        let name = source.name().to_string();
        Ok((name, input::blob(&source, options.var)?))
    };
    let (vs_name, vs_bytes) = read(vs)?;
    let (gs_name, gs_bytes) = read(gs)?;
    let topology = match options.topology {
        Some(t) => ::translate::GsTopology::parse(t).ok_or_else(|| {
            Failure::input(format!(
                "--topology {t}: expected pointlist, linelist, linestrip, trianglelist, trianglestrip, linelist_adj, \
                 linestrip_adj or trianglelist_adj"
            ))
        })?,
        None => input_list(&gs_bytes)
            .ok_or_else(|| Failure::refused(format!("{gs_name}: no dcl_inputprimitive to take a topology from")))?,
    };
    let stream_output = match options.so {
        None => None,
        Some(text) => {
            let mut desc: streamout::StreamOutputDesc =
                text.parse().map_err(|e| Failure::input(format!("--so: {e}")))?;
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
            desc.resolve_masks_in(&gs_bytes);
            Some(desc)
        }
    };
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
fn input_list(bytes: &[u8]) -> Option<::translate::GsTopology> {
    let container = dxbc::Container::parse(bytes).ok()?;
    let chunk = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])?;
    let program = tpf::decode(chunk.data).ok()?;
    let found = program.iter().find_map(|ins| match ins.body {
        tpf::Body::Decl(tpf::Decl::InputPrimitive(p)) => ::translate::GsTopology::list_for(p),
        _ => None,
    });
    found
}
