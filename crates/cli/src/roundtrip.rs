//! `dxref check`: does each blob survive `disasm` then `asm`? The check modders need
//! before editing a dump: the listing `dxref disasm` prints (with the same options) is
//! assembled, and what a listing carries is compared with the original:
//!
//! - the program: the `SHDR`/`SHEX` chunk, byte for byte (and the same chunk kind);
//! - the signatures (`ISGN`, `OSGN`, `PCSG` and their `ISG1`/`OSG1`/`OSG5`/`PSG1`
//!   forms) the original has, byte for byte;
//! - a Level9 blob's `Aon9` chunk: its mapping tables, and its Shader Model 2 program's
//!   instruction tokens (its `DBUG` comment block left out);
//! - a raw Shader Model 1–3 stream: its instruction tokens (the `CTAB` and `DBUG`
//!   comment blocks left out).
//!
//! Not compared, because a listing does not carry all of them: `RDEF` (compile flags,
//! typedef names), `STAT` (counts fxc takes from the HLSL source), `SFI0`, `IFCE`, the
//! comment blocks, the container's chunk order and checksum.

use dxbc::{Aon9, Container, FourCc};
use serde_json::json;

use crate::batch::{self, Mode, Report};
use crate::walk::Input;
use crate::{input, status, Failure};

/// The signature chunks compared.
const SIGNATURES: [FourCc; 7] =
    [FourCc::ISGN, FourCc::OSGN, FourCc::PCSG, FourCc::ISG1, FourCc::OSG1, FourCc::OSG5, FourCc::PSG1];

/// `dxref check` with the listing options of `disasm`.
pub struct Check {
    /// How the listing that is reassembled is printed.
    pub options: listing::Options,
    /// `--var`: the array of an fxc /Fh header.
    pub var: Option<String>,
}

/// The instruction tokens of a raw Shader Model 1–3 stream (comment blocks left out).
fn instructions(stream: &[u8]) -> Result<Vec<u8>, String> {
    let mut p = d3dbc::decode(stream).map_err(|e| e.to_string())?;
    p.items.retain(|i| matches!(i, d3dbc::Item::Instruction(_)));
    d3dbc::encode(&p).map_err(|e| e.to_string())
}

/// Where two byte strings first differ, as a token index and the two words there.
fn first_difference(what: &str, original: &[u8], rebuilt: &[u8]) -> Option<String> {
    if original == rebuilt {
        return None;
    }
    let at = original.iter().zip(rebuilt).position(|(a, b)| a != b).unwrap_or(original.len().min(rebuilt.len()));
    let token = at / 4;
    let word = |b: &[u8]| {
        b.get(token * 4..token * 4 + 4).map_or_else(
            || "nothing".to_string(),
            |w| format!("0x{:08x}", u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
        )
    };
    Some(format!(
        "{what}: token {token} (byte {}) is {} in the blob, {} after disasm and asm ({} and {} bytes)",
        token * 4,
        word(original),
        word(rebuilt),
        original.len(),
        rebuilt.len()
    ))
}

fn program_chunk<'a>(c: &Container<'a>) -> Option<(FourCc, &'a [u8])> {
    c.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).map(|p| (p.fourcc, p.data))
}

/// What differs between the original blob and the rebuilt one (empty: the same).
pub fn compare(original: &[u8], rebuilt: &[u8]) -> Vec<String> {
    let mut differences = Vec::new();
    if listing::is_d3dbc(original) {
        match (instructions(original), instructions(rebuilt)) {
            (Ok(a), Ok(b)) => differences.extend(first_difference("instructions", &a, &b)),
            (_, Err(e)) | (Err(e), _) => differences.push(format!("the rebuilt stream does not decode: {e}")),
        }
        return differences;
    }
    let (a, b) = match (Container::parse(original), Container::parse(rebuilt)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => return vec![format!("the blob does not parse: {e}")],
        (_, Err(e)) => return vec![format!("the rebuilt container does not parse: {e}")],
    };
    match (program_chunk(&a), program_chunk(&b)) {
        (Some((fa, da)), Some((fb, db))) if fa == fb => differences.extend(first_difference(&fa.to_string(), da, db)),
        (Some((fa, _)), Some((fb, _))) => differences.push(format!("the program is in {fb}, not {fa}")),
        (Some((fa, _)), None) => differences.push(format!("no {fa} chunk after disasm and asm")),
        (None, _) => {}
    }
    for fourcc in SIGNATURES {
        if let Some(sa) = a.chunk(fourcc) {
            match b.chunk(fourcc) {
                Some(sb) => differences.extend(first_difference(&fourcc.to_string(), sa.data, sb.data)),
                None => differences.push(format!("no {fourcc} chunk after disasm and asm")),
            }
        }
    }
    if let Some(la) = a.chunk(FourCc::AON9) {
        match b.chunk(FourCc::AON9).map(|c| (Aon9::parse(la.data), Aon9::parse(c.data))) {
            None => differences.push("no Aon9 chunk after disasm and asm".to_string()),
            Some((Ok(x), Ok(y))) => {
                if x.mappings != y.mappings {
                    differences.push("Aon9: the Direct3D 9 mapping tables differ".to_string());
                }
                match (instructions(x.program), instructions(y.program)) {
                    (Ok(p), Ok(q)) => differences.extend(first_difference("Aon9 program instructions", &p, &q)),
                    (_, Err(e)) | (Err(e), _) => differences.push(format!("Aon9 program: {e}")),
                }
            }
            Some((Err(e), _)) | Some((_, Err(e))) => differences.push(format!("Aon9: {e}")),
        }
    }
    differences
}

impl Check {
    /// The listing of `blob` with `options`, assembled again; or why not.
    fn rebuild(blob: &[u8], options: &listing::Options) -> Result<Vec<u8>, String> {
        let text = listing::disassemble(blob, options).map_err(|e| format!("does not disassemble: {e}"))?.text;
        Check::assemble(&text)
    }

    /// A listing assembled; or why not.
    fn assemble(text: &str) -> Result<Vec<u8>, String> {
        crate::asm::assemble_text(text, &listing::asm::AsmOptions::default(), None).map(|a| a.bytes).map_err(|errors| {
            let first = errors
                .iter()
                .find(|d| d.severity == tpf::parse::Severity::Error)
                .map(|d| format!("{}:{}: {}", d.line, d.column, d.message))
                .unwrap_or_default();
            format!("the listing does not assemble ({} errors; the first at {first})", errors.len())
        })
    }

    /// The differences of one blob; with a note when `--exact-floats` would remove them.
    /// A blob that does not disassemble is an input that cannot be read (`Err`).
    pub fn differences(&self, blob: &[u8], name: &str) -> Result<Vec<String>, Failure> {
        let text = listing::disassemble(blob, &self.options).map_err(|e| Failure::input(format!("{name}: {e}")))?.text;
        let mut differences = match Check::assemble(&text) {
            Ok(rebuilt) => compare(blob, &rebuilt),
            Err(e) => vec![e],
        };
        if !differences.is_empty() && !self.options.exact_floats {
            let exact = listing::Options { exact_floats: true, ..self.options };
            if Check::rebuild(blob, &exact).is_ok_and(|rebuilt| compare(blob, &rebuilt).is_empty()) {
                differences.push(
                    "with --exact-floats it comes back the same (the listing's six-decimal floats lose bits)".into(),
                );
            }
        }
        Ok(differences)
    }
}

impl batch::Command for Check {
    fn process(&self, input: &Input, _several: bool, mode: Mode) -> Report {
        let blob = match input::blob(&input.source, self.var.as_deref()) {
            Ok(b) => b,
            Err(f) => return Report::failed(f),
        };
        let name = input.name();
        let differences = match self.differences(&blob, &name) {
            Ok(d) => d,
            Err(f) => return Report::failed(f),
        };
        let same = differences.is_empty();
        let text =
            if same { format!("{name}: same\n") } else { format!("{name}: differs: {}\n", differences.join("; ")) };
        let mut summary = crate::disasm::summary(&blob);
        summary["same"] = json!(same);
        summary["differences"] = json!(differences);
        Report {
            status: if same { status::OK } else { status::REFUSED },
            text: (mode == Mode::Text).then_some(text),
            json: Some(summary),
            ..Report::default()
        }
    }

    fn extension(&self, mode: Mode) -> &'static str {
        match mode {
            Mode::Text => "txt",
            _ => "json",
        }
    }

    fn refused_word(&self) -> &'static str {
        "differ"
    }

    fn colorize(&self, text: &str) -> String {
        crate::color::report(text)
    }
}
