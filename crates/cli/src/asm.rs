//! `dxref asm`: a listing to a DXBC container or a raw Shader Model 1-3 stream (binary, or an fxc-style `/Fh` header),
//! or hand-written Shader Model 1-3 source (as `D3DAssemble` reads it) to a raw stream.

use std::io::{Read, Write};

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use tpf::parse::{Diagnostic, Severity};

use crate::Failure;

/// Prints diagnostics like a compiler: file:line:column, the source line, a caret
/// under the culprit and what was expected. At most [`diagnostic::MAX_PRINTED`] are
/// printed, then one line counts the rest; positions come from one index of the text,
/// so the report is linear in the file and the number of diagnostics.
fn report(name: &str, text: &str, diagnostics: &[Diagnostic]) {
    let file = SimpleFile::new(name, text);
    let lines = diagnostic::LineIndex::new(text);
    use std::io::IsTerminal;
    let color =
        if std::io::stderr().is_terminal() { termcolor::ColorChoice::Auto } else { termcolor::ColorChoice::Never };
    let writer = termcolor::StandardStream::stderr(color);
    let config = term::Config::default();
    let (shown, rest) = diagnostics.split_at(diagnostics.len().min(diagnostic::MAX_PRINTED));
    for d in shown {
        // In a file the source includes: the position, without the line.
        if d.file.as_deref().is_some_and(|f| f != name) {
            eprintln!("{d}");
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
        eprintln!("{name}: {line}");
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

pub fn run(
    file: &str,
    output: &str,
    fh: Option<&str>,
    statistics: bool,
    check: bool,
    lenient: bool,
) -> Result<(), Failure> {
    let name = if file == "-" { "<stdin>" } else { file };
    let bytes = if file == "-" {
        let mut b = Vec::new();
        std::io::stdin().read_to_end(&mut b).map_err(|e| Failure::input(format!("<stdin>: {e}")))?;
        b
    } else {
        std::fs::read(file).map_err(|e| Failure::input(format!("{file}: {e}")))?
    };
    // UTF-8 (with or without a byte-order mark), UTF-16, a terminating NUL.
    let text = listing::text::decode(&bytes).map_err(|e| Failure::input(format!("{name}: {e}")))?;
    let options = listing::asm::AsmOptions { statistics };
    // Hand-written Shader Model 1-3 source: `#include` reads files beside it (beside the
    // working folder for standard input), as Microsoft's standard include handler does.
    let source = listing::asm::is_d3dbc_source(&text);
    let dir = match std::path::Path::new(file).parent() {
        Some(p) if file != "-" && !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let include = d3dbc::preprocess::FileInclude::new(dir);
    let source_options = d3dbc::parse::SourceOptions { lenient, include: Some(&include), file_name: Some(name) };
    let result = if source {
        listing::asm::assemble_source(&text, &source_options)
    } else {
        match listing::asm::assemble(&text, &options) {
            // A Shader Model 1-3 text the listing grammar refuses: read as source (its
            // includes beside it) when that takes it.
            Err(e) if listing::asm::is_d3dbc_listing(&text) => {
                listing::asm::assemble_source(&text, &source_options).map_err(|_| e)
            }
            r => r,
        }
    };
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
                eprintln!("{name}: {} {}: {} [{}]", d.code, d.location, d.message, d.code.title());
            }
            let n = verdict.diagnostics.len();
            return Err(Failure {
                status: 1,
                message: format!(
                    "{name}: the runtime would refuse this shader ({n} diagnostic{}); nothing written",
                    if n == 1 { "" } else { "s" }
                ),
            });
        }
    }
    let out: Vec<u8> = match fh {
        Some(var) => fh_header(var, &assembled.bytes, &text).into_bytes(),
        None => assembled.bytes,
    };
    if output == "-" {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(&out).and_then(|_| stdout.flush()).map_err(|e| Failure::output(format!("<stdout>: {e}")))
    } else {
        std::fs::write(output, &out).map_err(|e| Failure::output(format!("{output}: {e}")))
    }
}
