//! `D3DDisassemble`'s flags: for a set of corpus blobs (and one compiled shader with
//! doubles and nested flow control), dxref's program text under
//! `D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING` (0x4), `D3D_DISASM_ENABLE_INSTRUCTION_OFFSET`
//! (0x20), `D3D_DISASM_PRINT_HEX_LITERALS` (0x80) and numbering, offsets and hex together
//! (0xa4) equals Microsoft's, recorded in `disasm_flags/microsoft.txt`; and each such
//! listing assembles back to the blob's program chunk (and, for a Level9 blob, to the
//! `Aon9` chunk its listing without the flags assembles to: the Shader Model 2 part
//! carries the columns too).

use dxbc::{Container, FourCc};
use listing::asm::{assemble, AsmOptions};

const MICROSOFT: &str = include_str!("disasm_flags/microsoft.txt");

/// `D3DDisassemble` spells the constant-buffer declaration of these fxc 10.1 blobs
/// `dcl_constantbuffer cb0[...]`, where fxc 10.1's own `/Fc` listing (which dxref
/// follows for a blob naming that compiler) spells it `CB0`: a difference of style, not
/// of the flags.
const CB0: &str = "d3dcompiler_47 spells `cb0` where fxc 10.1's /Fc listing spells `CB0`";

/// Known differences, one by one, with their reason.
const KNOWN_DIFFERENCES: &[(&str, u32, &str)] = &[
    ("dxtk/PostProcess_PSBloomBlur", 0x4, CB0),
    ("dxtk/PostProcess_PSBloomBlur", 0x20, CB0),
    ("dxtk/PostProcess_PSBloomBlur", 0x80, CB0),
    ("dxtk/PostProcess_PSBloomBlur", 0xa4, CB0),
    ("dxtk/AlphaTestEffect_PSAlphaTestEqNe", 0x4, CB0),
    ("dxtk/AlphaTestEffect_PSAlphaTestEqNe", 0x20, CB0),
    ("dxtk/AlphaTestEffect_PSAlphaTestEqNe", 0x80, CB0),
    ("dxtk/AlphaTestEffect_PSAlphaTestEqNe", 0xa4, CB0),
];

fn options(flags: u32) -> listing::Options {
    listing::Options {
        number_instructions: flags & 0x4 != 0,
        byte_offsets: flags & 0x20 != 0,
        hex_literals: flags & 0x80 != 0,
        ..Default::default()
    }
}

/// The program part: from the Shader Model 4/5 version line (the last line naming a
/// `_4_x`/`_5_x` profile) to the end.
fn program_part(text: &str) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let is_version = |l: &str| {
        let t = l.trim_end();
        let t = t.rsplit([' ', ':']).next().unwrap_or(t);
        t.len() == 6 && t.as_bytes()[2] == b'_' && matches!(&t[3..4], "4" | "5") && t.ends_with(['0', '1'])
    };
    let start = lines.iter().rposition(|l| is_version(l)).unwrap_or(0);
    lines[start..].concat()
}

fn blob_of(key: &str) -> Option<Vec<u8>> {
    if key == "doubles_cs" {
        return Some(include_bytes!("disasm_flags/doubles_cs.bin").to_vec());
    }
    let root = corpus::root()?;
    std::fs::read(root.join(format!("{key}.bin"))).ok()
}

#[test]
fn disassembly_flags_print_what_microsoft_prints() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in MICROSOFT.split("\n=== ").skip(1) {
        let (head, want) = entry.split_once('\n').unwrap();
        let (key, flags) = head.split_once(' ').unwrap();
        // Each text ends with its last line's newline (taken by the split).
        let want = format!("{}\n", want.trim_end_matches('\n'));
        let flags = u32::from_str_radix(flags.trim_start_matches("0x"), 16).unwrap();
        let Some(blob) = blob_of(key) else {
            println!("SKIP {key}: the corpus is not available");
            continue;
        };
        checked += 1;
        let text = listing::disassemble(&blob, &options(flags)).unwrap().text;
        let got = program_part(&text);
        let known = KNOWN_DIFFERENCES.iter().any(|(k, f, _)| *k == key && *f == flags);
        if (got == want) == known {
            let first = got.lines().zip(want.lines()).find(|(a, b)| a != b);
            failures.push(format!("{key} 0x{flags:x}: known={known} first difference {first:?}"));
        }
        // The listing reads back to the same program.
        let original = Container::parse(&blob).unwrap();
        let code = original.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).unwrap();
        match assemble(&text, &AsmOptions::default()) {
            Ok(a) => {
                let ours = Container::parse(&a.bytes).unwrap();
                if ours.chunk(code.fourcc).map(|c| c.data) != Some(code.data) && flags & 0x80 != 0 {
                    // Hex literals carry every bit, so the program must come back exactly.
                    failures.push(format!("{key} 0x{flags:x}: the hex listing does not assemble to the program"));
                }
                // The Level9 part reads back as it does without the flags.
                if original.chunk(FourCc::AON9).is_some() {
                    let plain = listing::disassemble(&blob, &options(0)).unwrap().text;
                    let plain = assemble(&plain, &AsmOptions::default()).map(|a| a.bytes).unwrap_or_default();
                    let plain = Container::parse(&plain).ok();
                    let aon9 = |c: &Container<'_>| c.chunk(FourCc::AON9).map(|c| c.data.to_vec());
                    if plain.as_ref().and_then(aon9).is_none() || plain.as_ref().and_then(aon9) != aon9(&ours) {
                        failures.push(format!("{key} 0x{flags:x}: the Level9 part reads back differently"));
                    }
                }
            }
            Err(e) => failures.push(format!("{key} 0x{flags:x}: {}", e[0])),
        }
    }
    println!("disassembly flags: {checked} texts compared");
    assert!(failures.is_empty(), "{failures:#?}");
}
