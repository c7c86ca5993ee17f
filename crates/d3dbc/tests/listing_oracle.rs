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

const DATA: &[(&str, u32, &str)] = &[
    ("vs_1_1", 0xfffe_0101, include_str!("oracle/vs_1_1.txt")),
    ("vs_2_0", 0xfffe_0200, include_str!("oracle/vs_2_0.txt")),
    ("vs_2_x", 0xfffe_0201, include_str!("oracle/vs_2_x.txt")),
    ("vs_2_sw", 0xfffe_02ff, include_str!("oracle/vs_2_sw.txt")),
    ("vs_3_0", 0xfffe_0300, include_str!("oracle/vs_3_0.txt")),
    ("vs_3_sw", 0xfffe_03ff, include_str!("oracle/vs_3_sw.txt")),
    ("ps_1_1", 0xffff_0101, include_str!("oracle/ps_1_1.txt")),
    ("ps_1_2", 0xffff_0102, include_str!("oracle/ps_1_2.txt")),
    ("ps_1_3", 0xffff_0103, include_str!("oracle/ps_1_3.txt")),
    ("ps_1_4", 0xffff_0104, include_str!("oracle/ps_1_4.txt")),
    ("ps_2_0", 0xffff_0200, include_str!("oracle/ps_2_0.txt")),
    ("ps_2_x", 0xffff_0201, include_str!("oracle/ps_2_x.txt")),
    ("ps_2_sw", 0xffff_02ff, include_str!("oracle/ps_2_sw.txt")),
    ("ps_3_0", 0xffff_0300, include_str!("oracle/ps_3_0.txt")),
    ("ps_3_sw", 0xffff_03ff, include_str!("oracle/ps_3_sw.txt")),
    ("versions", 0, include_str!("oracle/versions.txt")),
];

struct Case {
    id: String,
    bytes: Vec<u8>,
    /// `None`: Microsoft refused the stream.
    want: Option<String>,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for &(profile, version, text) in DATA {
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        while let Some(line) = lines.next() {
            let (whole, rest) = match (line.strip_prefix("@@ "), line.strip_prefix("@ ")) {
                (Some(r), _) => (true, r),
                (None, Some(r)) => (false, r),
                _ => panic!("{profile}: unexpected line {line:?}"),
            };
            let (name, hex) = rest.split_once(": ").expect("case line");
            let mut bytes = if version == 0 { Vec::new() } else { version.to_le_bytes().to_vec() };
            for t in hex.split(' ') {
                bytes.extend_from_slice(&u32::from_str_radix(t, 16).expect("token").to_le_bytes());
            }
            let mut body = String::new();
            let want = loop {
                let l = lines.next().expect("case end");
                if l.starts_with("! ") {
                    break None;
                }
                if let Some(foot) = l.strip_prefix("= ") {
                    let mut s = String::new();
                    if !whole {
                        // The version line as the data's profile names it (for the
                        // `versions` file, as the first listing line holds it).
                        s.push_str("    ");
                        s.push_str(profile);
                        s.push('\n');
                    }
                    s.push_str(&body);
                    s.push_str("\n// approximately ");
                    s.push_str(foot);
                    s.push('\n');
                    break Some(s);
                }
                body.push_str(l);
                body.push('\n');
            };
            out.push(Case { id: format!("{profile}/{name}"), bytes, want });
        }
    }
    out
}

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
    for c in cases() {
        let Some(want) = c.want else { continue };
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
            failures.push(format!("{}: {}", c.id, first_difference(&got, &want)));
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
