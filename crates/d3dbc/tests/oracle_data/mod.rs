//! The oracle data of `tests/oracle/*.txt`, read once for every test that uses it: small
//! Shader Model 1–3 streams with the exact text Microsoft's `D3DDisassemble`
//! (d3dcompiler_47) printed for them, or the HRESULT it refused them with.
//!
//! Format, one case after another (`#` lines are comments):
//!
//! ```text
//! @ name: TOKENS        tokens in hex after the file's version token (`@@`: the listing
//!                       is given whole, from its first line, instead of after an
//!                       implied `    <profile>` version line)
//! listing lines...      the listing up to the blank line before its footer
//! = N instruction...    the footer: `// approximately ` + this
//! ! 80004005            instead of a listing: Microsoft refused the stream
//! ```
//!
//! In `versions.txt` (version 0) the tokens start with the version token itself.

#![allow(dead_code)]

/// Each profile's data, with its version token (0: the tokens carry their own) and its
/// number of cases, pinned so that a truncated or partly deleted file fails instead of
/// passing on fewer cases.
pub const DATA: &[(&str, u32, usize, &str)] = &[
    ("vs_1_1", 0xfffe_0101, 96, include_str!("../oracle/vs_1_1.txt")),
    ("vs_2_0", 0xfffe_0200, 179, include_str!("../oracle/vs_2_0.txt")),
    ("vs_2_x", 0xfffe_0201, 163, include_str!("../oracle/vs_2_x.txt")),
    ("vs_2_sw", 0xfffe_02ff, 132, include_str!("../oracle/vs_2_sw.txt")),
    ("vs_3_0", 0xfffe_0300, 198, include_str!("../oracle/vs_3_0.txt")),
    ("vs_3_sw", 0xfffe_03ff, 151, include_str!("../oracle/vs_3_sw.txt")),
    ("ps_1_1", 0xffff_0101, 85, include_str!("../oracle/ps_1_1.txt")),
    ("ps_1_2", 0xffff_0102, 49, include_str!("../oracle/ps_1_2.txt")),
    ("ps_1_3", 0xffff_0103, 50, include_str!("../oracle/ps_1_3.txt")),
    ("ps_1_4", 0xffff_0104, 83, include_str!("../oracle/ps_1_4.txt")),
    ("ps_2_0", 0xffff_0200, 121, include_str!("../oracle/ps_2_0.txt")),
    ("ps_2_x", 0xffff_0201, 171, include_str!("../oracle/ps_2_x.txt")),
    ("ps_2_sw", 0xffff_02ff, 133, include_str!("../oracle/ps_2_sw.txt")),
    ("ps_3_0", 0xffff_0300, 196, include_str!("../oracle/ps_3_0.txt")),
    ("ps_3_sw", 0xffff_03ff, 149, include_str!("../oracle/ps_3_sw.txt")),
    // Version tokens that name no profile (`vs_1_0`, `ps_2_254`, `vs_10_1`...).
    ("versions", 0, 14, include_str!("../oracle/versions.txt")),
];

/// The footer's prefix.
pub const FOOTER: &str = "// approximately ";

/// What Microsoft's disassembler did with a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// The whole listing it printed.
    Listing(String),
    /// Refused with this HRESULT.
    Refused(u32),
}

/// One stream and Microsoft's verdict on it.
#[derive(Debug, Clone)]
pub struct Case {
    pub profile: &'static str,
    pub name: String,
    pub bytes: Vec<u8>,
    pub expected: Expected,
}

impl Case {
    /// `profile/name`.
    pub fn id(&self) -> String {
        format!("{}/{}", self.profile, self.name)
    }

    /// The listing Microsoft printed, if it printed one.
    pub fn listing(&self) -> Option<&str> {
        match &self.expected {
            Expected::Listing(s) => Some(s),
            Expected::Refused(_) => None,
        }
    }
}

/// Parses one profile's data file; panics (naming the line) on a malformed file.
pub fn parse(profile: &'static str, version: u32, text: &str) -> Vec<Case> {
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
                    // The version line as the data's profile names it.
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

/// Every case of every file, in `DATA` order.
/// Panics when a file does not hold its pinned number of cases.
pub fn all_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for &(p, v, count, text) in DATA {
        let cases = parse(p, v, text);
        assert_eq!(
            cases.len(),
            count,
            "tests/oracle/{p}.txt: {} cases, {count} are pinned in oracle_data::DATA",
            cases.len()
        );
        out.extend(cases);
    }
    out
}
