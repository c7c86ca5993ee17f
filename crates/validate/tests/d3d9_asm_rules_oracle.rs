//! The assembler's rules against Microsoft's `D3DAssemble`: every source of
//! `crates/d3dbc/tests/asm-oracle/asm-rules.dxo` (tools/oracle's `asm rules` generator: programs
//! just inside and just outside each per-version rule) gets dxref's accept/refuse
//! verdict, compared with what `D3DAssemble` answered.
//!
//! - Records made with `D3DCOMPILE_SKIP_VALIDATION` (the assembler alone): dxref's
//!   verdict is the source reader's ([`d3dbc::parse::parse_source`]: the records are
//!   the source text given to `D3DAssemble`) and [`d3dbc::rules::check`]'s.
//! - Records made with flags 0 (the assembler, then the Direct3D 9 validator): the
//!   same, then the Direct3D 9 profile rules of `validate` on the assembled stream.
//!
//! Every record whose verdicts differ is listed with its cause in
//! `tests/expect/d3d9_asm_rules_oracle.txt` (both ways: a new difference fails, and so does
//! a listed one that starts to agree).

use corpus::asm_oracle::{Assembly, ASM_SKIP_VALIDATION};
use d3dbc::parse::{assemble_source, parse_source, Parsed, Severity, SourceOptions};
use std::collections::BTreeMap;

/// The record's source read as `D3DAssemble` reads it: the source reader (file name
/// `main.asm`, no include handler).
fn parse(source: &str) -> Result<Parsed, Vec<d3dbc::parse::Diagnostic>> {
    parse_source(source, &SourceOptions::default())
}

/// The record's source assembled by the source reader's grammar alone (`lenient`: the
/// per-version rules are judged apart, by [`d3dbc::rules::check`]).
fn assemble(source: &str) -> Result<Vec<u8>, Vec<d3dbc::parse::Diagnostic>> {
    assemble_source(source, &SourceOptions { lenient: true, ..SourceOptions::default() }).map(|(b, _)| b)
}

/// dxref's verdict: `Ok(())` when it accepts, else the first reason.
fn verdict(r: &Assembly) -> Result<(), String> {
    let parsed = parse(&r.source).map_err(|e| format!("parse {}:{} {}", e[0].line, e[0].column, e[0].message))?;
    let errors: Vec<_> =
        d3dbc::rules::check(&parsed, &r.source).into_iter().filter(|d| d.severity == Severity::Error).collect();
    if let Some(e) = errors.first() {
        return Err(format!("rules {}:{} {}", e.line, e.column, e.message));
    }
    if r.flags & ASM_SKIP_VALIDATION == 0 {
        let bytes = assemble(&r.source).map_err(|e| format!("assemble: {}", e[0].message))?;
        let report = validate::validate(&bytes, &validate::Target::d3d9());
        if !report.is_valid() {
            let d = report.diagnostics.first().map_or(String::new(), |d| format!("{:?}: {}", d.code, d.message));
            return Err(format!("validate {d}"));
        }
    }
    Ok(())
}

/// The first error line of `D3DAssemble`'s messages, without the file name.
fn first_error(errors: &str) -> String {
    let line = errors.lines().find(|l| l.contains("error")).unwrap_or("");
    line.rsplit_once(".asm").map_or(line, |(_, rest)| rest).trim().to_string()
}

#[test]
fn assembler_verdicts_agree_with_d3dassemble() {
    let records = corpus::asm_oracle::archive("asm-rules.dxo");
    let mut differences = BTreeMap::new();
    let (mut agree, mut total) = ([0usize; 2], [0usize; 2]);
    for r in &records {
        let k = (r.flags & ASM_SKIP_VALIDATION != 0) as usize;
        total[k] += 1;
        let ours = verdict(r);
        let outcome = match (r.accepted(), &ours) {
            (true, Ok(())) | (false, Err(_)) => {
                agree[k] += 1;
                continue;
            }
            (true, Err(why)) => format!("D3DAssemble accepts; dxref refuses: {why}"),
            (false, Ok(())) => format!("D3DAssemble refuses ({}); dxref accepts", first_error(&r.errors)),
        };
        differences.insert(r.name.clone(), corpus::expect::one_line(&outcome));
    }
    eprintln!(
        "asm rules: {}/{} agree with the assembler alone (skip validation), {}/{} with assembler and validator",
        agree[1], total[1], agree[0], total[0]
    );
    assert!(total[0] > 0 && total[1] > 0, "the archive holds both flag sets");
    corpus::expect::check_differences(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/expect/d3d9_asm_rules_oracle.txt"),
        &differences,
    );
}

/// Where `D3DAssemble` put its first error: `main.asm(line,col)` or `(line,col-col)`.
fn first_position(errors: &str) -> Option<(usize, usize)> {
    let line = errors.lines().find(|l| l.contains("error"))?;
    let (_, rest) = line.split_once(".asm(")?;
    let (pos, _) = rest.split_once(')')?;
    let (l, c) = pos.split_once(',')?;
    let c = c.split('-').next()?;
    Some((l.parse().ok()?, c.parse().ok()?))
}

/// Where dxref puts its errors for a source: the listing parser's, and the rules' for
/// the lines before its first error ([`d3dbc::rules::check_listing`]). (The listing
/// parser refuses outright what the source reader leaves to the rules, an instruction
/// or register the version does not have, and places it as `D3DAssemble` does for these
/// one-instruction-a-line programs.)
fn our_positions(source: &str) -> Vec<(usize, usize)> {
    let errors = d3dbc::rules::check_listing(source);
    errors.iter().filter(|d| d.severity == Severity::Error).map(|d| (d.line, d.column)).collect()
}

/// Where both refuse a source (with skip validation), `D3DAssemble`'s first error is at
/// a line and column where dxref reports one too; the records where it is not are
/// listed in `tests/expect/d3d9_asm_rules_oracle_positions.txt` with both positions.
#[test]
fn errors_are_where_d3dassemble_puts_them() {
    let records = corpus::asm_oracle::archive("asm-rules.dxo");
    let mut differences = BTreeMap::new();
    let (mut both, mut same) = (0, 0);
    for r in records.iter().filter(|r| r.flags & ASM_SKIP_VALIDATION != 0 && !r.accepted()) {
        let ours = our_positions(&r.source);
        let Some(theirs) = first_position(&r.errors) else { continue };
        if ours.is_empty() {
            continue;
        }
        both += 1;
        if ours.contains(&theirs) {
            same += 1;
        } else {
            let o: Vec<String> = ours.iter().map(|(l, c)| format!("{l}:{c}")).collect();
            let outcome = format!(
                "D3DAssemble at {}:{} ({}); dxref at {}",
                theirs.0,
                theirs.1,
                first_error(&r.errors),
                o.join(", ")
            );
            differences.insert(r.name.clone(), corpus::expect::one_line(&outcome));
        }
    }
    eprintln!(
        "asm rules positions: {same}/{both} refused by both have D3DAssemble's first error position among dxref's"
    );
    assert!(both > 0);
    corpus::expect::check_differences(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/expect/d3d9_asm_rules_oracle_positions.txt"),
        &differences,
    );
}

/// The sources `D3DAssemble` accepted (with skip validation) assemble, through the
/// lenient source reader (`assemble_source`), to the token stream it wrote; the records
/// that do not are listed with the first differing token in
/// `tests/expect/d3d9_asm_rules_oracle_bytes.txt`.
#[test]
fn accepted_sources_assemble_to_d3dassembles_stream() {
    let records = corpus::asm_oracle::archive("asm-rules.dxo");
    let mut differences = BTreeMap::new();
    let (mut n, mut same) = (0, 0);
    let token = |b: &[u8], i: usize| {
        b.get(i * 4..i * 4 + 4)
            .map_or("none".to_string(), |t| format!("{:08x}", u32::from_le_bytes([t[0], t[1], t[2], t[3]])))
    };
    for r in records.iter().filter(|r| r.accepted() && r.flags & ASM_SKIP_VALIDATION != 0) {
        n += 1;
        let outcome = match assemble(&r.source) {
            Ok(b) if b == r.blob => {
                same += 1;
                continue;
            }
            Ok(b) => {
                let i = (0..b.len().max(r.blob.len()) / 4).find(|&i| token(&b, i) != token(&r.blob, i)).unwrap_or(0);
                format!("token {i}: D3DAssemble {}, dxref {}", token(&r.blob, i), token(&b, i))
            }
            Err(e) => format!("dxref does not assemble it: {}:{} {}", e[0].line, e[0].column, e[0].message),
        };
        differences.insert(r.name.clone(), corpus::expect::one_line(&outcome));
    }
    eprintln!("asm rules bytes: {same}/{n} accepted sources assemble to D3DAssemble's stream");
    assert!(n > 0);
    corpus::expect::check_differences(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/expect/d3d9_asm_rules_oracle_bytes.txt"),
        &differences,
    );
}
