//! d3dbc behaviours found by the review of the Shader Model 1–3 work, kept as ignored
//! reproductions for the owner of `crates/d3dbc` to pick up (the review does not edit
//! that crate).

/// `vs_3_sw` with `n` nested `if b0`, one `mov`, `n` `endif`.
fn deep_ifs(n: usize) -> Vec<u8> {
    let mut ws = vec![0xfffe_03ffu32];
    for _ in 0..n {
        ws.extend([0x0100_0028, 0xe0e4_0800]);
    }
    ws.extend([0x0200_0001, 0x800f_0000, 0xa0e4_0000]);
    ws.extend(std::iter::repeat(0x0000_002b).take(n));
    ws.push(0x0000_ffff);
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The printer indents each line by `4 + 2 × depth` spaces without bound
/// (`d3dbc::print::Printer`, `indent(out, width)` with `width = 4 + 2 * this_depth`), so
/// the listing grows with the square of the nesting: 20 000 nested `if b0` (a 240 KB
/// program, which decodes, validates and walks in milliseconds) print 800 MB, and a
/// 1 MB program about 15 GB — `dxref disasm` and `listing::disassemble` (Level 9 blobs
/// too) run out of memory or time on such input. A cap on the indentation (or on the
/// depth the printer tracks) keeps the listing linear in the program.
#[test]
#[ignore = "d3dbc bug: the listing's indentation is unbounded, output quadratic in the nesting depth"]
fn listing_size_is_linear_in_the_program() {
    let n = 20_000;
    let bytes = deep_ifs(n);
    let text = d3dbc::print::disassemble(&bytes).expect("the program decodes");
    let lines = text.lines().count();
    assert!(lines >= 2 * n, "every instruction is printed");
    // 200 bytes per instruction is far above what any line of fxc's needs.
    assert!(text.len() <= 200 * (2 * n + 1), "{} bytes of listing for {} bytes of program", text.len(), bytes.len());
}
