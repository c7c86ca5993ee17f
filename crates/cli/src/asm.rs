//! `dxref asm`: a listing to a DXBC container or a raw Shader Model 1-3 stream (binary, or an fxc-style `/Fh` header),
//! or hand-written Shader Model 1-3 source (as `D3DAssemble` reads it) to a raw stream.

use std::ffi::OsStr;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use tpf::parse::{Diagnostic, Severity};

use crate::input::{self, Source};
use crate::output::{self, Output};
use crate::{status, Failure, Outcome};

/// Prints diagnostics like a compiler: file:line:column, the source line, a caret
/// under the culprit and what was expected. At most [`diagnostic::MAX_PRINTED`] are
/// printed, then one line counts the rest; positions come from one index of the text,
/// so the report is linear in the file and the number of diagnostics.
fn report(name: &str, text: &str, diagnostics: &[Diagnostic]) {
    let file = SimpleFile::new(name, text);
    if diagnostics.is_empty() {
        return;
    }
    let lines = diagnostic::LineIndex::new(text);
    let color =
        if output::stderr_reports_color() { termcolor::ColorChoice::AlwaysAnsi } else { termcolor::ColorChoice::Never };
    let writer = termcolor::StandardStream::stderr(color);
    let config = term::Config::default();
    let (shown, rest) = diagnostics.split_at(diagnostics.len().min(diagnostic::MAX_PRINTED));
    for d in shown {
        // In a file the source includes: the position, without the line.
        if d.file.as_deref().is_some_and(|f| f != name) {
            output::eprint_line(&d.to_string());
            continue;
        }
        let mut label = Label::primary((), lines.span(d));
        if let Some(e) = &d.expected {
            label = label.with_message(format!("expected {e}"));
        }
        let report = match d.severity {
            Severity::Error => Report::error(),
            Severity::Warning => Report::warning(),
        }
        .with_message(format!("{name}:{}:{}: {}", d.line, d.column, d.message))
        .with_labels(vec![label]);
        let _ = term::emit_to_write_style(&mut writer.lock(), &config, &file, &report);
    }
    if let Some(line) = diagnostic::not_shown(rest) {
        output::eprint_line(&format!("{name}: {line}"));
    }
}

/// The bytes as an fxc `/Fh` header: a `const BYTE NAME[]` array.
fn fh_header(name: &str, bytes: &[u8], listing: &str) -> String {
    let mut s = String::with_capacity(bytes.len() * 6 + listing.len() + 64);
    s.push_str("#if 0\n");
    s.push_str(listing);
    if !listing.ends_with('\n') {
        s.push('\n');
    }
    s.push_str("#endif\n\nconst BYTE ");
    s.push_str(name);
    s.push_str("[] =\n{\n");
    for (i, chunk) in bytes.chunks(6).enumerate() {
        s.push_str("    ");
        let items: Vec<String> = chunk.iter().map(|b| format!("{b:3}")).collect();
        s.push_str(&items.join(", "));
        if (i + 1) * 6 < bytes.len() {
            s.push(',');
        }
        s.push('\n');
    }
    s.push_str("};\n");
    s
}

/// `dxref asm`'s options.
pub struct Options<'a> {
    /// The listing (`None` or `-`: standard input).
    pub file: Option<&'a OsStr>,
    /// `-o`: where to write (`None` or `-`: standard output, refused when it is a terminal).
    pub output: Option<&'a OsStr>,
    /// `--fh NAME`.
    pub fh: Option<&'a str>,
    /// `--stat`.
    pub statistics: bool,
    /// `--validate`.
    pub check: bool,
    /// `--lenient`.
    pub lenient: bool,
}

/// Assembles a listing, or hand-written Shader Model 1–3 source (with `source_options`:
/// where `#include` reads, `--lenient`), as `dxref asm` does.
pub fn assemble_text(
    text: &str,
    options: &listing::asm::AsmOptions,
    source_options: Option<&d3dbc::parse::SourceOptions<'_>>,
) -> Result<listing::asm::Assembled, Vec<Diagnostic>> {
    let default = d3dbc::parse::SourceOptions::default();
    let source_options = source_options.unwrap_or(&default);
    if listing::asm::is_d3dbc_source(text) {
        return listing::asm::assemble_source(text, source_options);
    }
    match listing::asm::assemble(text, options) {
        // A Shader Model 1-3 text the listing grammar refuses: read as source (its
        // includes beside it) when that takes it.
        Err(e) if listing::asm::is_d3dbc_listing(text) => {
            listing::asm::assemble_source(text, source_options).map_err(|_| e)
        }
        r => r,
    }
}

/// `dxref asm`: reads the input, assembles it (diagnostics printed like a compiler's,
/// with the source line and a caret), validates it with `--validate`, and writes the
/// bytes or the `/Fh` header. Status 2 when it does not assemble, 1 when the runtime
/// would refuse it, 3 when the output cannot be written.
pub fn run(options: &Options<'_>) -> Outcome {
    let Options { file, output, fh, statistics, check, lenient } = *options;
    let source = file.map_or(Source::Stdin, Source::from_arg);
    let mut out = Output::new(output);
    // Binary output to a terminal helps nobody; a header is text.
    if fh.is_none() && output.is_none() && out.is_terminal() {
        return Err(Failure::input(
            "standard output is a terminal: give -o FILE for the container (or -o - to write it there anyway)".into(),
        ));
    }
    let name = &*source.name();
    let bytes = input::read(&source)?;
    // UTF-8 (with or without a byte-order mark), UTF-16, a terminating NUL.
    let text = listing::text::decode(&bytes).map_err(|e| Failure::input(format!("{name}: {e}")))?;
    let options = listing::asm::AsmOptions { statistics };
    // Hand-written Shader Model 1-3 source: `#include` reads files beside it (beside the
    // working folder for standard input), as Microsoft's standard include handler does.
    let dir = match &source {
        Source::File(path) => match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        },
        Source::Stdin => std::path::PathBuf::from("."),
    };
    let include = d3dbc::preprocess::FileInclude::new(dir);
    let source_options = d3dbc::parse::SourceOptions { lenient, include: Some(&include), file_name: Some(name) };
    let result = assemble_text(&text, &options, Some(&source_options));
    let assembled = match result {
        Ok(a) => a,
        Err(errors) => {
            report(name, &text, &errors);
            let n = errors.iter().filter(|d| d.severity == Severity::Error).count();
            return Err(Failure::input(format!("{name}: {n} error{}; nothing written", if n == 1 { "" } else { "s" })));
        }
    };
    report(name, &text, &assembled.warnings);
    if check {
        // A Shader Model 1-3 listing gives a raw program: its own profile's rules (a
        // Direct3D 9 device); anything else a feature level 11_1 device.
        let target = if validate::d3d9::is_d3dbc(&assembled.bytes) {
            validate::Target::d3d9()
        } else {
            validate::Target::default()
        };
        let verdict = validate::validate(&assembled.bytes, &target);
        if !verdict.is_valid() {
            for d in &verdict.diagnostics {
                output::eprint_line(&format!("{name}: {} {}: {} [{}]", d.code, d.location, d.message, d.code.title()));
            }
            let n = verdict.diagnostics.len();
            return Err(Failure::refused(format!(
                "{name}: the runtime would refuse this shader ({n} diagnostic{}); nothing written",
                if n == 1 { "" } else { "s" }
            )));
        }
    }
    let bytes: Vec<u8> = match fh {
        Some(var) => fh_header(var, &assembled.bytes, &text).into_bytes(),
        None => assembled.bytes,
    };
    let written = out.write(&bytes).and_then(|_| out.finish(true));
    output::finish(written, status::OK)
}
