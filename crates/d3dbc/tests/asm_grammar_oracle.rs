//! The source assembler against Microsoft's `D3DAssemble`: every generated grammar case
//! of `tests/asm-oracle/asm-grammar.dxo` (tools/oracle's `asm grammar`, docs/ORACLE.md)
//! gets the same verdict (accepted or refused) from [`assemble_source`], and where both
//! accept, the same token stream.
//!
//! What is compared: the whole token stream. `D3DAssemble` writes no comment block
//! (no `CTAB`, no creator string) unless asked for debug information
//! (`D3DCOMPILE_DEBUG`); for a case asked with that flag the comment blocks are left out
//! on both sides. A case asked without the validator (`D3DCOMPILE_SKIP_VALIDATION`) that
//! Microsoft accepts and the profile's rules refuse is held to the lenient reading: it
//! must give Microsoft's stream. Each case's outcome is checked against
//! `tests/expect/asm_grammar_oracle.txt`, both ways. Where both refuse, the outcome also
//! says whether dxref's first error is on the line (and in the file) of Microsoft's
//! first.

use std::collections::BTreeMap;

use corpus::asm_oracle::{archive, ASM_DEBUG, ASM_SKIP_VALIDATION};
use d3dbc::parse::{assemble_source, SourceOptions};
use d3dbc::preprocess::MemoryInclude;

/// The stream's tokens without comment blocks.
fn without_comments(bytes: &[u8]) -> Vec<u32> {
    let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if i > 0 && w & 0xffff == 0xfffe {
            i += 1 + ((w >> 16) & 0x7fff) as usize;
            continue;
        }
        out.push(w);
        i += 1;
    }
    out
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Microsoft's first message, without the file name in front.
fn first_message(errors: &str) -> String {
    let line = errors.lines().find(|l| l.contains("error")).unwrap_or("").trim();
    let line = line.split_once("): ").map_or(line, |(_, m)| m);
    corpus::expect::one_line(line).chars().take(90).collect()
}

/// The file (its name without folders) and line of Microsoft's first error:
/// `Z:\\...\\main.asm(7,11-12): error X2000: ...`.
fn first_position(errors: &str) -> Option<(String, usize)> {
    let line = errors.lines().find(|l| l.contains("): error"))?;
    let head = &line[..line.find("): error")?];
    let open = head.rfind('(')?;
    let file = head[..open].rsplit(['\\', '/']).next()?.to_string();
    let num = head[open + 1..].split(',').next()?.parse().ok()?;
    Some((file, num))
}

#[test]
fn source_verdicts_and_streams_match_d3dassemble() {
    let records = archive("asm-grammar.dxo");
    let mut outcomes = BTreeMap::new();
    let (mut same, mut differ, mut without_validation) = (0usize, 0usize, 0usize);
    for r in &records {
        let include = MemoryInclude { files: r.includes.clone() };
        let options = SourceOptions {
            lenient: false,
            include: (!r.includes.is_empty()).then_some(&include as &dyn d3dbc::preprocess::Include),
            file_name: Some("main.asm"),
        };
        let ours = assemble_source(&r.source, &options);
        let lenient = SourceOptions { lenient: true, ..options };
        let outcome = match (r.accepted(), ours) {
            // Asked without the validator: where the profile's rules refuse, the
            // grammar alone (`lenient`) must give Microsoft's stream.
            (true, Err(e)) if r.flags & ASM_SKIP_VALIDATION != 0 => match assemble_source(&r.source, &lenient) {
                Ok((bytes, _)) if words(&bytes) == words(&r.blob) => {
                    without_validation += 1;
                    format!(
                        "accepted without validation; ours refuses by the profile's rules ({}), lenient gives the same stream",
                        e[0].message.split(':').next().unwrap_or("")
                    )
                }
                _ => format!("Microsoft accepts; ours refuses: {}", corpus::expect::one_line(&e[0].to_string())),
            },
            (true, Ok((bytes, _))) => {
                let (a, b) = if r.flags & ASM_DEBUG != 0 {
                    (without_comments(&bytes), without_comments(&r.blob))
                } else {
                    (words(&bytes), words(&r.blob))
                };
                if a == b {
                    "accepted, same stream".to_string()
                } else {
                    let i = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
                    format!(
                        "accepted, streams differ at token {i}: ours {:08x?}, Microsoft's {:08x?}",
                        a.get(i),
                        b.get(i)
                    )
                }
            }
            (false, Err(e)) => match (first_position(&r.errors), e.first()) {
                // The first error on the line (of the file) Microsoft's first names.
                // (Microsoft names no file for an empty source.)
                (Some((file, line)), Some(d))
                    if (!file.is_empty() && d.file.as_deref() != Some(file.as_str())) || d.line != line =>
                {
                    format!(
                        "refused; the first error at {}:{}, Microsoft's at {file}:{line}",
                        d.file.as_deref().unwrap_or("?"),
                        d.line
                    )
                }
                _ => "refused".to_string(),
            },
            (true, Err(e)) => {
                format!("Microsoft accepts; ours refuses: {}", corpus::expect::one_line(&e[0].to_string()))
            }
            (false, Ok(_)) => format!("Microsoft refuses ({}); ours accepts", first_message(&r.errors)),
        };
        if outcome.starts_with("accepted, same") || outcome.starts_with("refused") {
            same += 1;
        } else if !outcome.starts_with("accepted without validation") {
            differ += 1;
        }
        outcomes.insert(r.name.clone(), outcome);
    }
    println!(
        "asm-grammar: {} cases; {same} agree, {without_validation} accepted by Microsoft without validation and refused \
         by the profile's rules (lenient: the same stream), {differ} differ",
        records.len()
    );
    assert_eq!(outcomes.len(), records.len(), "two records share a name");
    corpus::expect::check(corpus::expect_file!("asm_grammar_oracle.txt"), &outcomes);
}
