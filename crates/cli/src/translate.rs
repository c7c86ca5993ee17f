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
    /// `--var`: the array of an fxc `/Fh` header.
    pub var: Option<&'a str>,
    /// `--interface SLOT=TABLE`: the function table bound to each interface slot.
    pub interfaces: &'a [String],
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
