//! `dxref info`: a container's chunks, checksum status, shader version and reflection.

use dxbc::{ChunkData, Container, FourCc};
use serde_json::{json, Value};

use std::fmt::Write as _;

use crate::batch::{self, Mode, Report};
use crate::walk::Input;
use crate::{input, Failure};

/// Gathers the report as JSON (the text form is printed from the same value).
fn report(file: &str, blob: &[u8]) -> Result<Value, Failure> {
    let c = Container::parse(blob).map_err(|e| Failure::input(format!("{file}: {e}")))?;
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let stage =
        c.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).and_then(|p| tpf::Decoder::new(p.data).ok()).map(|d| d.version().ty);
    let mut chunks = Vec::new();
    let mut signatures = serde_json::Map::new();
    let mut reflection = Value::Null;
    let mut stat = Value::Null;
    let mut features = Value::Null;
    for chunk in c.chunks() {
        let mut entry = json!({
            "fourcc": chunk.fourcc.to_string(),
            "offset": chunk.offset,
            "size": chunk.data.len(),
        });
        match ChunkData::decode(chunk.fourcc, chunk.data) {
            Err(e) => entry["error"] = json!(e.clone().rebased(chunk.data_offset()).to_string()),
            Ok(ChunkData::Signature(sig)) => {
                // The read/write mask of an output lists the components never written;
                // the hull shader writes its patch constants, the domain shader reads them.
                let output = match &chunk.fourcc.0 {
                    b"OSGN" | b"OSG5" | b"OSG1" => true,
                    b"PCSG" | b"PSG1" => stage != Some(tpf::ProgramType::Domain),
                    _ => false,
                };
                let elements: Vec<Value> = sig
                    .elements
                    .iter()
                    .map(|e| {
                        json!({
                            "semantic": e.semantic_name,
                            "index": e.semantic_index,
                            "register": e.register,
                            "mask": mask(e.mask),
                            "used": mask(if output { e.mask & !e.rw_mask } else { e.rw_mask }),
                            "system_value": listing::names::system_value(e.system_value),
                            "type": listing::names::format(e.component_type, e.min_precision),
                            "stream": e.stream,
                        })
                    })
                    .collect();
                signatures.insert(chunk.fourcc.to_string(), Value::Array(elements));
            }
            Ok(ChunkData::Rdef(r)) => {
                reflection = json!({
                    "creator": r.creator,
                    "flags": r.flags,
                    "constant_buffers": r.constant_buffers.iter().map(|cb| json!({
                        "name": cb.name,
                        "kind": listing::names::buffer_kind(cb.kind),
                        "size": cb.size,
                        "variables": cb.variables.iter().map(|v| v.name).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "bindings": r.bindings.iter().map(|b| {
                        let (kind, format, dimension) = listing::names::binding_columns(b);
                        json!({
                        "name": b.name,
                        "type": kind,
                        "format": format,
                        "dimension": dimension,
                        "bind_point": b.bind_point,
                        "bind_count": b.bind_count,
                        "space": b.space,
                    })}).collect::<Vec<_>>(),
                });
            }
            Ok(ChunkData::Stat(s)) => stat = json!({ "instruction_count": s.instruction_count }),
            Ok(ChunkData::Sfi0(s)) => {
                // The D3D_SHADER_REQUIRES_* flags, by the header's names without the prefix.
                let names: Vec<String> = s
                    .features
                    .iter()
                    .map(|f| match dxbc::ShaderFeatures::NAMED.iter().find(|(v, _)| *v == f) {
                        Some((_, name)) => name.to_string(),
                        None => format!("{:#x}", f.0),
                    })
                    .collect();
                features = json!(names);
            }
            Ok(_) => {}
        }
        chunks.push(entry);
    }
    let program = c.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).map(|chunk| match tpf::Decoder::new(chunk.data) {
        Ok(d) => json!({ "chunk": chunk.fourcc.to_string(), "profile": d.version().profile(), "tokens": d.remaining_tokens() + 2 }),
        Err(e) => json!({ "chunk": chunk.fourcc.to_string(), "error": e.rebased(chunk.data_offset()).to_string() }),
    });
    Ok(json!({
        "file": file,
        "size": blob.len(),
        "checksum": {
            "stored": hex(&c.stored_checksum()),
            "computed": hex(&dxbc::checksum_bytes(c.computed_checksum())),
            "ok": c.checksum_ok(),
        },
        "program": program,
        "level9": c.chunk(FourCc::AON9).is_some(),
        "chunks": chunks,
        "signatures": signatures,
        "reflection": reflection,
        "statistics": stat,
        "features": features,
    }))
}

fn mask(m: u8) -> String {
    ['x', 'y', 'z', 'w'].iter().enumerate().filter(|(i, _)| m & (1 << i) != 0).map(|(_, c)| *c).collect()
}

/// `writeln!` into the report text (writing to a `String` cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{ let _ = writeln!($out, $($arg)*); }};
}
macro_rules! outp {
    ($out:expr, $($arg:tt)*) => {{ let _ = write!($out, $($arg)*); }};
}

/// `dxref info`: the report of each input.
pub struct Info {
    /// `--var`: the array of an fxc /Fh header.
    pub var: Option<String>,
}

impl batch::Command for Info {
    fn process(&self, input: &Input, several: bool, mode: Mode) -> Report {
        let mut out = String::new();
        let as_json = mode != Mode::Text;
        match report_text(&input.source, self.var.as_deref(), as_json, &mut out) {
            Ok(value) if as_json => Report { json: Some(value), ..Report::default() },
            Ok(_) => {
                // Reports of several inputs (each starts with its name) apart by a blank line.
                if several {
                    out.push('\n');
                }
                Report { text: Some(out), ..Report::default() }
            }
            Err(f) => Report::failed(f),
        }
    }

    fn extension(&self, mode: Mode) -> &'static str {
        match mode {
            Mode::Text => "txt",
            _ => "json",
        }
    }
}

/// The report of one input: its JSON value, and its text in `out` unless `as_json`.
fn report_text(source: &input::Source, var: Option<&str>, as_json: bool, out: &mut String) -> Result<Value, Failure> {
    let blob = input::blob(source, var)?;
    let name = &*source.name();
    if inputs::family(&blob) == Some(inputs::Family::D3dbc) {
        return d3dbc_report(name, &blob, as_json, out);
    }
    let r = report(name, &blob)?;
    if as_json {
        return Ok(r);
    }
    outln!(out, "{name}: DXBC container, {} bytes", r["size"]);
    let ck = &r["checksum"];
    outln!(
        out,
        "checksum: {} (stored {}{})",
        if ck["ok"] == true { "ok" } else { "WRONG" },
        ck["stored"].as_str().unwrap_or(""),
        if ck["ok"] == true { String::new() } else { format!(", computed {}", ck["computed"].as_str().unwrap_or("")) }
    );
    match &r["program"] {
        Value::Null => outln!(out, "program: none (no SHDR/SHEX chunk)"),
        p if p.get("error").is_some() => outln!(
            out,
            "program: {} chunk does not decode: {}",
            p["chunk"].as_str().unwrap_or(""),
            p["error"].as_str().unwrap_or("")
        ),
        p => outln!(
            out,
            "program: {} in {} ({} tokens){}",
            p["profile"].as_str().unwrap_or(""),
            p["chunk"].as_str().unwrap_or(""),
            p["tokens"],
            if r["level9"] == true { ", with a Level9 (Aon9) program" } else { "" }
        ),
    }
    outln!(out, "chunks:");
    for c in r["chunks"].as_array().into_iter().flatten() {
        outp!(out, "  {:<4}  offset {:>6}  size {:>6}", c["fourcc"].as_str().unwrap_or(""), c["offset"], c["size"]);
        if let Some(e) = c.get("error") {
            outp!(out, "  (does not decode: {})", e.as_str().unwrap_or(""));
        }
        outln!(out,);
    }
    if let Some(refl) = r["reflection"].as_object() {
        outln!(out, "creator: {}", refl["creator"].as_str().unwrap_or(""));
        for cb in refl["constant_buffers"].as_array().into_iter().flatten() {
            outln!(
                out,
                "  {} {} ({} bytes, {} variables)",
                cb["kind"].as_str().unwrap_or(""),
                cb["name"].as_str().unwrap_or(""),
                cb["size"],
                cb["variables"].as_array().map_or(0, |v| v.len())
            );
        }
        for b in refl["bindings"].as_array().into_iter().flatten() {
            outln!(
                out,
                "  binding {} : {} {} {} at {} (count {}, space {})",
                b["name"].as_str().unwrap_or(""),
                b["type"].as_str().unwrap_or(""),
                b["format"].as_str().unwrap_or(""),
                b["dimension"].as_str().unwrap_or(""),
                b["bind_point"],
                b["bind_count"],
                b["space"]
            );
        }
    }
    for (kind, elements) in r["signatures"].as_object().into_iter().flatten() {
        outln!(out, "{kind}: {} elements", elements.as_array().map_or(0, |v| v.len()));
        for e in elements.as_array().into_iter().flatten() {
            outln!(
                out,
                "  {}{} r{}.{} {} {}",
                e["semantic"].as_str().unwrap_or(""),
                e["index"],
                e["register"],
                e["mask"].as_str().unwrap_or(""),
                e["type"].as_str().unwrap_or(""),
                e["system_value"].as_str().unwrap_or("")
            );
        }
    }
    if let Some(n) = r["statistics"].get("instruction_count") {
        outln!(out, "statistics: {n} instruction slots");
    }
    Ok(r)
}

/// A raw Shader Model 1–3 stream: version, instruction and comment counts, the
/// constant table (creator, target, constants with their registers).
fn d3dbc_report(name: &str, blob: &[u8], as_json: bool, out: &mut String) -> Result<Value, Failure> {
    let program = d3dbc::decode(blob).map_err(|e| Failure::input(format!("{name}: {e}")))?;
    let (mut instructions, mut comments) = (0, Vec::new());
    let mut table = Value::Null;
    for item in &program.items {
        match item {
            d3dbc::Item::Instruction(_) => instructions += 1,
            d3dbc::Item::Comment(c) => {
                let fourcc = c.data.get(..4).map_or(String::new(), |f| String::from_utf8_lossy(f).into_owned());
                comments.push(json!({ "fourcc": fourcc, "size": c.data.len() }));
                if c.data.starts_with(b"CTAB") && table.is_null() {
                    table = match d3dbc::ctab::ConstantTable::parse_comment(&c.data) {
                        Ok(t) => json!({
                            "creator": t.creator,
                            "target": t.target,
                            "flags": t.flags,
                            "constants": t.registers().iter().map(|k| json!({
                                "declaration": k.declaration(),
                                "register": k.register_name(),
                                "count": k.register_count,
                            })).collect::<Vec<_>>(),
                        }),
                        Err(e) => json!({ "error": e.to_string() }),
                    };
                }
            }
        }
    }
    let profile = program.version.name();
    let r = json!({
        "file": name,
        "size": blob.len(),
        "container": "d3dbc",
        "profile": profile,
        "instructions": instructions,
        "comments": comments,
        "constant_table": table,
    });
    if as_json {
        return Ok(r);
    }
    outln!(out, "{name}: Shader Model 1-3 (d3dbc) program, {} bytes", blob.len());
    outln!(out, "program: {profile}, {instructions} instructions, {} comment blocks", comments.len());
    for c in &comments {
        outln!(out, "  comment {} ({} bytes)", c["fourcc"].as_str().unwrap_or(""), c["size"]);
    }
    if let Some(t) = table.as_object() {
        if let Some(e) = t.get("error") {
            outln!(out, "constant table: does not decode: {}", e.as_str().unwrap_or(""));
        } else {
            outln!(out, "creator: {}", t["creator"].as_str().unwrap_or(""));
            outln!(out, "target: {}", t["target"].as_str().unwrap_or(""));
            for k in t["constants"].as_array().into_iter().flatten() {
                outln!(
                    out,
                    "  {:<6} {} ({} registers)",
                    k["register"].as_str().unwrap_or(""),
                    k["declaration"].as_str().unwrap_or(""),
                    k["count"]
                );
            }
        }
    }
    Ok(r)
}
