//! `dxref info`: a container's chunks, checksum status, shader version and reflection.

use dxbc::{ChunkData, Container, FourCc};
use serde_json::{json, Value};

use crate::{read_blob, Failure};

/// Gathers the report as JSON (the text form is printed from the same value).
fn report(file: &str, blob: &[u8]) -> Result<Value, Failure> {
    let c = Container::parse(blob).map_err(|e| Failure::input(format!("{file}: {e}")))?;
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
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
                let elements: Vec<Value> = sig
                    .elements
                    .iter()
                    .map(|e| {
                        json!({
                            "semantic": e.semantic_name,
                            "index": e.semantic_index,
                            "register": e.register,
                            "mask": mask(e.mask),
                            "used": mask(e.rw_mask),
                            "system_value": format!("{:?}", e.system_value),
                            "type": format!("{:?}", e.component_type),
                            "stream": e.stream,
                            "min_precision": format!("{:?}", e.min_precision),
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
                        "kind": format!("{:?}", cb.kind),
                        "size": cb.size,
                        "variables": cb.variables.iter().map(|v| v.name).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "bindings": r.bindings.iter().map(|b| json!({
                        "name": b.name,
                        "type": format!("{:?}", b.input_type),
                        "dimension": format!("{:?}", b.dimension),
                        "bind_point": b.bind_point,
                        "bind_count": b.bind_count,
                        "space": b.space,
                    })).collect::<Vec<_>>(),
                });
            }
            Ok(ChunkData::Stat(s)) => stat = json!({ "instruction_count": s.instruction_count }),
            Ok(ChunkData::Sfi0(s)) => features = json!(format!("{:?}", s.features)),
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

pub fn run(file: &str, var: Option<&str>, as_json: bool) -> Result<(), Failure> {
    let blob = read_blob(file, var)?;
    let name = if file == "-" { "<stdin>" } else { file };
    let r = report(name, &blob)?;
    if as_json {
        println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
        return Ok(());
    }
    println!("{name}: DXBC container, {} bytes", r["size"]);
    let ck = &r["checksum"];
    println!(
        "checksum: {} (stored {}{})",
        if ck["ok"] == true { "ok" } else { "WRONG" },
        ck["stored"].as_str().unwrap_or(""),
        if ck["ok"] == true { String::new() } else { format!(", computed {}", ck["computed"].as_str().unwrap_or("")) }
    );
    match &r["program"] {
        Value::Null => println!("program: none (no SHDR/SHEX chunk)"),
        p if p.get("error").is_some() => println!(
            "program: {} chunk does not decode: {}",
            p["chunk"].as_str().unwrap_or(""),
            p["error"].as_str().unwrap_or("")
        ),
        p => println!(
            "program: {} in {} ({} tokens){}",
            p["profile"].as_str().unwrap_or(""),
            p["chunk"].as_str().unwrap_or(""),
            p["tokens"],
            if r["level9"] == true { ", with a Level9 (Aon9) program" } else { "" }
        ),
    }
    println!("chunks:");
    for c in r["chunks"].as_array().into_iter().flatten() {
        print!("  {:<4}  offset {:>6}  size {:>6}", c["fourcc"].as_str().unwrap_or(""), c["offset"], c["size"]);
        if let Some(e) = c.get("error") {
            print!("  (does not decode: {})", e.as_str().unwrap_or(""));
        }
        println!();
    }
    if let Some(refl) = r["reflection"].as_object() {
        println!("creator: {}", refl["creator"].as_str().unwrap_or(""));
        for cb in refl["constant_buffers"].as_array().into_iter().flatten() {
            println!(
                "  {} {} ({} bytes, {} variables)",
                cb["kind"].as_str().unwrap_or("").to_lowercase(),
                cb["name"].as_str().unwrap_or(""),
                cb["size"],
                cb["variables"].as_array().map_or(0, |v| v.len())
            );
        }
        for b in refl["bindings"].as_array().into_iter().flatten() {
            println!(
                "  binding {} : {} {} at {} (count {}, space {})",
                b["name"].as_str().unwrap_or(""),
                b["type"].as_str().unwrap_or(""),
                b["dimension"].as_str().unwrap_or(""),
                b["bind_point"],
                b["bind_count"],
                b["space"]
            );
        }
    }
    for (kind, elements) in r["signatures"].as_object().into_iter().flatten() {
        println!("{kind}: {} elements", elements.as_array().map_or(0, |v| v.len()));
        for e in elements.as_array().into_iter().flatten() {
            println!(
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
        println!("statistics: {n} instruction slots");
    }
    Ok(())
}
