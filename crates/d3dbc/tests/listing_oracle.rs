//! `d3dbc::print::disassemble` against what Microsoft's `D3DDisassemble`
//! (d3dcompiler_47) printed for the small token streams of `tests/oracle/*.txt` (the
//! data format is described in `oracle_listing.rs`). Streams `d3dbc::decode` refuses
//! are left out (Microsoft prints `???` for unknown opcodes, and refuses broken streams).
//!
//! Streams with bits the format leaves undefined (a parameter token without bit 31,
//! bit 28 of a Shader Model 1 instruction token) are counted apart: Microsoft's
//! disassembler reads them as a different token structure (a token without bit 31 ends
//! the instruction; bit 28 predicates even in Shader Model 1), while `d3dbc::decode`
//! keeps them as reserved bits of the instruction it decodes.

mod oracle_data;
use oracle_data::all_cases;

fn first_difference(got: &str, want: &str) -> String {
    let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    let i = (0..g.len().max(w.len())).find(|&i| g.get(i) != w.get(i)).unwrap_or(0);
    format!("line {}: got {:?} want {:?}", i + 1, g.get(i), w.get(i))
}

/// True when an instruction of the program holds bits the format leaves undefined.
fn has_reserved_bits(p: &d3dbc::Program<'_>) -> bool {
    use d3dbc::Relative;
    let rel = |r: &Relative| matches!(r, Relative::Token(t) if t.reserved != 0);
    p.instructions().any(|i| {
        i.reserved != 0
            || i.dst.as_ref().is_some_and(|d| d.reserved != 0 || rel(&d.rel))
            || i.predicate.iter().chain(i.srcs.iter()).any(|s| s.reserved != 0 || rel(&s.rel))
    })
}

#[test]
fn disassembler_listings() {
    let (mut total, mut exact, mut undecodable, mut reserved, mut reserved_same) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for c in all_cases() {
        let Some(want) = c.listing() else { continue };
        let Ok(program) = d3dbc::decode(&c.bytes) else {
            undecodable += 1;
            continue;
        };
        let got = d3dbc::print::disassemble(&c.bytes).expect("decodes");
        if has_reserved_bits(&program) {
            reserved += 1;
            reserved_same += (got == want) as usize;
            continue;
        }
        total += 1;
        if got == want {
            exact += 1;
        } else {
            failures.push(format!("{}: {}", c.id(), first_difference(&got, want)));
        }
    }
    println!(
        "D3DDisassemble listings: {exact}/{total} identical; streams with undefined bits: {reserved_same}/{reserved} \
         identical; {undecodable} more that d3dbc::decode refuses"
    );
    for f in &failures {
        println!("DIFF {f}");
    }
    assert!(total > 1500, "only {total} cases");
    assert!(failures.is_empty(), "{} listings differ", failures.len());
}
