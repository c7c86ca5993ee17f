//! The instruction-number column of `D3DDisassemble`'s numbering flag
//! (`D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING`) against what Microsoft prints, for every
//! stream of the oracle data whose default listing dxref prints as Microsoft does
//! (`tests/oracle/numbering.txt`): the number is the arithmetic slot count before the
//! instruction, and `dcl`, the `def`s, `nop`, `label` and co-issued instructions get
//! none.

mod oracle_data;

use d3dbc::print::{listing_with, Format, HeaderStyle};

/// The number column of each instruction line of a listing (`-` for a line without one).
fn columns(listing: &str) -> Vec<String> {
    let mut lines = listing.split('\n');
    for l in lines.by_ref() {
        if l.starts_with("    vs_") || l.starts_with("    ps_") {
            break;
        }
    }
    let mut out = Vec::new();
    for l in lines {
        if l.is_empty() {
            break;
        }
        let t = l.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        out.push(if digits > 0 && t.as_bytes().get(digits) == Some(&b':') {
            t[..digits].to_string()
        } else {
            "-".into()
        });
    }
    out
}

#[test]
fn instruction_numbers_are_microsofts() {
    let cases = oracle_data::all_cases();
    let data = include_str!("oracle/numbering.txt");
    let numbering = Format { numbering: true, ..Format::default() };
    let (mut n, mut failures) = (0, Vec::new());
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let (id, want) = line.strip_prefix("@ ").and_then(|l| l.split_once(':')).expect("an `@ id: numbers` line");
        let want: Vec<&str> = want.split_whitespace().collect();
        let case = cases.iter().find(|c| c.id() == id).unwrap_or_else(|| panic!("{id}: no such case"));
        let text = listing_with(&case.bytes, Some(HeaderStyle::Disassembler), numbering).expect("decodes");
        n += 1;
        if columns(&text) != want {
            failures.push(format!("{id}: Microsoft {want:?}, dxref {:?}", columns(&text)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(n, 1855);
}

/// Whole listings Microsoft printed under two or three of the flags at once
/// (`probe.py disasm STREAM --dis 24,a4`): the number column is `%4d` and two blanks
/// before the offset (`%4d: ` alone), six blanks on a line without a number; `def`
/// values are bits, `defb` / `defi` values unchanged.
#[test]
fn combined_flags_are_microsofts_layout() {
    let cases = oracle_data::all_cases();
    let texts: &[(&str, u32, &str)] = &[
        (
            "ps_1_4/coissue_add_sat",
            0x24,
            r#"    ps_1_4
   0  0x00000004:     mul r0.xyz, r1, c0
      0x00000014:   + add_x2_sat r0.w, r2.w, c1_bx2.w

// approximately 1 instruction slot used
"#,
        ),
        (
            "vs_2_0/pred_1",
            0x24,
            r#"    vs_2_0
      0x00000004:     (p0) nop
   1  0x0000000C:     (p0.x) call l0
   4  0x00000018:     ret
      0x0000001C:     label l0
   5  0x00000024:     ret
   6  0x00000028:     (l0) call p0.x
   9  0x00000034:     ret
      0x00000038:     label l0
  10  0x00000040:     ret
  11  0x00000044:     (!p0) ret
  13  0x0000004C:     (p0.y) if b0
  17  0x00000058:     endif
  18  0x0000005C:     (p0.y) m4x4 r0, r1, c0
  23  0x00000070:     (p0) sincos r0.xy, r1.x, c0, c1

// approximately 32 instruction slots used
"#,
        ),
        (
            "ps_2_0/defs_0",
            0xa4,
            r#"    ps_2_0
      0x00000004:     def c0, 0x00000000, 0x80000000, 0x3dcccccd, 0x358637bd
      0x0000001C:     def c1, 0x60ad78ec, 0x00000001, 0x7f800000, 0xff800000
      0x00000034:     def c2, 0x7fc00000, 0xffc00000, 0xb5d00d01, 0x4ceb79a3
      0x0000004C:     def c3.xyz, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000
      0x00000064:     def r3, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000
      0x0000007C:     def c255, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000

// approximately 0 instruction slots used
"#,
        ),
        (
            "ps_1_4/tex_0",
            0xa4,
            r#"    ps_1_4
   0  0x00000004:     texldp r0, t0
   0  0x00000010:     texldb r0, t0
   0  0x0000001C:     texld r0, t0
   0  0x00000028:     texld r0, t0_dz.xyzz
   0  0x00000034:     texld r0, t0_dw
   0  0x00000040:     phase
   0  0x00000044:     texld r1, r0_dz.xyzz
   0  0x00000050:     texcrd r0.xyz, t0_dz.xyzz
   0  0x0000005C:     texcrd r0.xy, t0_dw.xyww
   0  0x00000068:     texcrd r0.xyz, t0.xyww
   0  0x00000074:     texkill t0
   1  0x0000007C:     texkill r0
   2  0x00000084:     texdepth r5.xy
   3  0x0000008C:     bem r0.xy, c0_bx2, -r2

// approximately 13 instruction slots used (9 texture, 4 arithmetic)
"#,
        ),
    ];
    for &(id, flags, want) in texts {
        let case = cases.iter().find(|c| c.id() == id).unwrap_or_else(|| panic!("{id}: no such case"));
        let format = Format { numbering: flags & 4 != 0, offsets: flags & 0x20 != 0, hex_literals: flags & 0x80 != 0 };
        let got = listing_with(&case.bytes, Some(HeaderStyle::Disassembler), format).expect("decodes");
        assert_eq!(got, want, "{id} under 0x{flags:x}");
    }
    // `defb` under every flag (a stream Microsoft listed: `defb b0, true`, `defb b1, false`).
    let defb: Vec<u8> = [0xfffe_0300u32, 0x0200_002f, 0xe00f_0800, 1, 0x0200_002f, 0xe00f_0801, 0, 0xffff]
        .iter()
        .flat_map(|t| t.to_le_bytes())
        .collect();
    let all = Format { numbering: true, offsets: true, hex_literals: true };
    assert_eq!(
        listing_with(&defb, Some(HeaderStyle::Disassembler), all).unwrap(),
        "    vs_3_0\n      0x00000004:     defb b0, true\n      0x00000010:     defb b1, false\n\n// approximately 0 instruction slots used\n"
    );
}
