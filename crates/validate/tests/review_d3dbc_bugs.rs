//! d3dbc behaviours found by the review of the Shader Model 1–3 work, with the tests that
//! keep them fixed.

/// `vs_3_sw` with `n` nested `if b0`, one `mov`, `n` `endif`.
fn deep_ifs(n: usize) -> Vec<u8> {
    let mut ws = vec![0xfffe_03ffu32];
    for _ in 0..n {
        ws.extend([0x0100_0028, 0xe0e4_0800]);
    }
    ws.extend([0x0200_0001, 0x800f_0000, 0xa0e4_0000]);
    ws.extend(std::iter::repeat_n(0x0000_002b, n));
    ws.push(0x0000_ffff);
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The printer indented each line by `4 + 2 × depth` spaces without bound (as
/// Microsoft's disassembler does), so the listing grew with the square of the nesting:
/// 20 000 nested `if b0` (a 240 KB program) printed 800 MB, and a 1 MB program about
/// 15 GB. The indentation now stops at `d3dbc::print::MAX_INDENT_DEPTH` levels, far
/// beyond any profile's limits; below it the text is still Microsoft's.
#[test]
fn listing_size_is_linear_in_the_program() {
    let n = 20_000;
    let bytes = deep_ifs(n);
    let text = d3dbc::print::disassemble(&bytes).expect("the program decodes");
    let lines = text.lines().count();
    assert!(2 * n <= lines, "every instruction is printed");
    // 200 bytes per instruction is far above what any line of fxc's needs.
    assert!(text.len() <= 200 * (2 * n + 1), "{} bytes of listing for {} bytes of program", text.len(), bytes.len());
}

/// Up to the cap, the indentation is Microsoft's: `4 + 2 x depth` spaces (measured with
/// D3DDisassemble at 30, 70 and 200 levels: the `mov` line is 74, 154 and 414 bytes;
/// Microsoft has no cap).
#[test]
fn indentation_below_the_cap_is_microsofts() {
    for (n, width) in [(30, 74), (52, 118), (64, 142)] {
        let text = d3dbc::print::disassemble(&deep_ifs(n)).expect("the program decodes");
        let mov = text.lines().find(|l| l.trim_start().starts_with("mov ")).unwrap();
        assert_eq!(mov.len(), width, "{n} levels");
    }
    let deeper = d3dbc::print::MAX_INDENT_DEPTH + 10;
    let text = d3dbc::print::disassemble(&deep_ifs(deeper)).unwrap();
    let mov = text.lines().find(|l| l.trim_start().starts_with("mov ")).unwrap();
    assert_eq!(mov.len(), 4 + 2 * d3dbc::print::MAX_INDENT_DEPTH + 10);
}
