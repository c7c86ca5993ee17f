//! The Level9 part of the corpus listings: the `DBUG` debug information of the Aon9
//! programs (typed parse, byte-exact re-encode, fxc's layout) and the Shader Model 2
//! program with its `#line` lines, annotations and slot line.

use d3dbc::dbug::DebugInfo;

/// The Aon9 program of every Level9 corpus blob, with the entry.
fn level9_programs(test: &str) -> Option<Vec<(corpus::Entry, Vec<u8>)>> {
    let entries = corpus::dxbc_entries(test)?;
    let mut out = Vec::new();
    for e in entries.into_iter().filter(|e| e.is_level9()) {
        let bytes = e.bytes();
        let c = dxbc::Container::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        let chunk = c.chunk(dxbc::FourCc(*b"Aon9")).expect("Aon9 chunk");
        let aon9 = dxbc::aon9::Aon9::parse(chunk.data).expect("Aon9");
        out.push((e, aon9.program.to_vec()));
    }
    Some(out)
}

#[test]
fn debug_info_round_trips() {
    let Some(programs) = level9_programs("debug_info_round_trips") else { return };
    let (mut n, mut fresh) = (0, 0);
    for (e, program) in &programs {
        let p = d3dbc::decode(program).unwrap();
        let Some(body) = p.comment_with(b"DBUG") else { continue };
        n += 1;
        let info = DebugInfo::parse_comment(body).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        assert_eq!(info.to_comment(), body, "{}", e.id());
        assert_eq!(info.instructions.len(), p.instructions().count(), "{}: one record per instruction", e.id());
        if info.raw_layout.is_none() {
            fresh += 1;
        } else if n - fresh <= 3 {
            let f = info.fresh_bytes();
            let i = f.iter().zip(&body[4..]).position(|(a, b)| a != b).unwrap_or(f.len().min(body.len() - 4));
            println!("{}: fxc layout differs at byte {i} (len {} vs {})", e.id(), f.len(), body.len() - 4);
        }
    }
    println!("DBUG blocks: {n}, all re-encoded byte for byte; {fresh}/{n} in fxc's layout from the typed fields");
    assert_eq!(n, 121);
}

const TITLE: &str = "// Level9 shader bytecode:\n//\n";

/// The text of the listing from after the `// Level9 shader bytecode:` and `//` lines
/// to the slot line, inclusive.
fn level9_text(listing: &str) -> &str {
    let start = listing.find(TITLE).expect("Level9 title") + TITLE.len();
    let rest = &listing[start..];
    let end = rest.find("\n// approximately ").expect("slot line") + 1;
    let end = end + rest[end..].find('\n').expect("end of slot line") + 1;
    &rest[..end]
}

#[test]
fn level9_programs_print_as_fxc() {
    let Some(programs) = level9_programs("level9_programs_print_as_fxc") else { return };
    let (mut n, mut exact) = (0, 0);
    let mut failures = Vec::new();
    for (e, program) in &programs {
        n += 1;
        let p = d3dbc::decode(program).unwrap();
        let got = d3dbc::print::level9_program(&p);
        let listing = e.listing();
        let want = level9_text(&listing);
        if got == want {
            exact += 1;
        } else {
            let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
            let i = (0..g.len().max(w.len())).find(|&i| g.get(i) != w.get(i)).unwrap_or(0);
            failures.push(format!("{} line {}: got {:?} want {:?}", e.id(), i + 1, g.get(i), w.get(i)));
        }
    }
    println!("Level9 programs: {exact}/{n} print as fxc's listing");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert_eq!(n, 129);
    assert!(failures.is_empty(), "{} differ", failures.len());
}
