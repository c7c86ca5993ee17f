//! Conformance data from Microsoft's own disassembler.
//!
//! `tests/oracle/<profile>.txt` holds, for every Shader Model 1–3 profile, small token
//! streams written for this test (every opcode the instruction table gives the profile,
//! every register type, write masks, swizzles, source and result modifiers, shift
//! scales, co-issue, predication, relative addressing, comparisons, `texld` controls,
//! `def`/`defi`/`defb` values, `dcl` usages and sampler types, nested flow control,
//! comments, constant tables, malformed streams) and the exact text that `D3DDisassemble`
//! of `d3dcompiler_47.dll` printed for each — or the HRESULT with which it refused the
//! stream. The expected texts are facts measured on our own inputs; nothing else of
//! Microsoft's is here.
//!
//! Data format (one case per `@` line):
//!
//! - `@ name: t t t` — the tokens after the version token (hex); the listing is the
//!   version line (`    vs_2_0`), the lines that follow, a blank line and
//!   `// approximately ` followed by the text of the `= ` line;
//! - `@@ name: t t t` — the same, but the lines are the whole listing before the blank
//!   line (a constant table's header comes first, so no version line is added);
//! - `! 80004005` instead of lines: `D3DDisassemble` refused the stream with that HRESULT.

use d3dbc::decode;

/// The profiles, in table order, with their version tokens and data.
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
    // Version tokens that name no profile (`vs_1_0`, `ps_2_254`, `vs_10_1`...): the tokens
    // in this file start with the version token.
    ("versions", 0, include_str!("oracle/versions.txt")),
];

/// What Microsoft's disassembler did with a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Expected {
    /// The whole listing, byte for byte.
    Listing(String),
    /// Refused with this HRESULT.
    Refused(u32),
}

#[derive(Debug, Clone)]
struct Case {
    profile: &'static str,
    name: String,
    bytes: Vec<u8>,
    expected: Expected,
}

impl Case {
    fn id(&self) -> String {
        format!("{}/{}", self.profile, self.name)
    }
}

const FOOTER: &str = "// approximately ";

/// Parses one profile's data file; panics (naming the line) on a malformed file.
fn parse(profile: &'static str, version: u32, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        if line.starts_with('#') {
            continue;
        }
        let (whole, rest) = if let Some(r) = line.strip_prefix("@@ ") {
            (true, r)
        } else if let Some(r) = line.strip_prefix("@ ") {
            (false, r)
        } else {
            panic!("{profile}.txt:{}: expected a case line, found {line:?}", n + 1);
        };
        let (name, hex) = rest.split_once(": ").unwrap_or_else(|| panic!("{profile}.txt:{}: no tokens", n + 1));
        let mut bytes = if version == 0 { Vec::new() } else { version.to_le_bytes().to_vec() };
        for t in hex.split(' ') {
            let v = u32::from_str_radix(t, 16).unwrap_or_else(|_| panic!("{profile}.txt:{}: token {t:?}", n + 1));
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        let mut body: Vec<&str> = Vec::new();
        let expected = loop {
            let (m, l) = lines.next().unwrap_or_else(|| panic!("{profile}.txt: case {name} has no end"));
            if let Some(hr) = l.strip_prefix("! ") {
                assert!(body.is_empty(), "{profile}.txt:{}: refusal after lines", m + 1);
                break Expected::Refused(u32::from_str_radix(hr, 16).expect("HRESULT"));
            }
            if let Some(foot) = l.strip_prefix("= ") {
                let mut s = String::new();
                if !whole {
                    s.push_str("    ");
                    s.push_str(profile);
                    s.push('\n');
                }
                for b in &body {
                    s.push_str(b);
                    s.push('\n');
                }
                s.push('\n');
                s.push_str(FOOTER);
                s.push_str(foot);
                s.push('\n');
                break Expected::Listing(s);
            }
            body.push(l);
        };
        cases.push(Case { profile, name: name.to_string(), bytes, expected });
    }
    cases
}

fn all_cases() -> Vec<Case> {
    DATA.iter().flat_map(|&(p, v, text)| parse(p, v, text)).collect()
}

/// The data is complete: every profile has cases, names are unique, every listing has
/// its footer, and the base cases cover every opcode the table gives each profile.
#[test]
fn oracle_data_is_complete() {
    let cases = all_cases();
    let mut ids = std::collections::HashSet::new();
    for c in &cases {
        assert!(ids.insert(c.id()), "{}: two cases with this name", c.id());
    }
    for &(p, _, _) in DATA {
        let Some(profile) = d3dbc::Profile::from_name(p) else { continue };
        let v = profile.version();
        let n = cases.iter().filter(|c| c.profile == p).count();
        assert!(n >= 40, "{p}: only {n} cases");
        // Every opcode of the profile has a base case `op_<mnemonic>...`.
        for row in d3dbc::TABLE {
            if matches!(row.opcode, d3dbc::Opcode::Comment | d3dbc::Opcode::End | d3dbc::Opcode::Dcl) {
                continue;
            }
            if !row.exists_in(v.kind, v.ver()) {
                continue;
            }
            let prefix = format!("op_{}", row.mnemonic);
            assert!(
                cases.iter().any(|c| c.profile == p && c.name.starts_with(&prefix)),
                "{p}: no case for {:?}",
                row.opcode
            );
        }
    }
    let refused = cases.iter().filter(|c| matches!(c.expected, Expected::Refused(_))).count();
    println!("oracle data: {} cases, {refused} refused by D3DDisassemble", cases.len());
}

/// Every stream `D3DDisassemble` refuses, `d3dbc::decode` refuses too (they are
/// structurally broken: no end token, an instruction running into the end token).
#[test]
fn microsoft_refusals_are_decode_errors() {
    let mut n = 0;
    for c in all_cases() {
        if let Expected::Refused(hr) = c.expected {
            assert_eq!(hr, 0x8000_4005, "{}", c.id());
            assert!(decode(&c.bytes).is_err(), "{}: D3DDisassemble refuses it, d3dbc::decode accepts it", c.id());
            n += 1;
        }
    }
    println!("{n} streams refused by both");
    assert!(n > 0);
}
