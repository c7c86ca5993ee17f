//! The listing of a Shader Model 4/5 program nested far deeper than any runtime
//! allows stays linear in the program: Microsoft's disassembler indents two spaces per
//! level without bound, so 20,000 nested `if`s would print 400 MB of spaces; dxref
//! indents up to `tpf::limits::MAX_INDENT_DEPTH` levels, a depth no valid program
//! reaches (D3D11_COMMONSHADER_FLOWCONTROL_NESTING_LIMIT is 64).

use tpf::limits::MAX_INDENT_DEPTH;

fn nested(depth: usize) -> String {
    let mut text = String::from("ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\n");
    text.push_str(&"if_nz v0.x\n".repeat(depth));
    text.push_str("mov o0.x, l(1.000000)\n");
    text.push_str(&"endif \n".repeat(depth));
    text.push_str("ret \n");
    text
}

fn listing(text: &str) -> String {
    let program = tpf::parse::parse_program(text).unwrap_or_else(|e| panic!("{:?}", &e[..1])).program;
    let mut out = String::new();
    tpf::print::print_program(&program, tpf::style::Style::default(), &mut out);
    out
}

#[test]
fn twenty_thousand_nested_ifs_print_linearly() {
    let out = listing(&nested(20_000));
    // Each of the 40,001 flow lines is at most its text and the capped indentation.
    assert!(out.len() < 40_010 * (2 * MAX_INDENT_DEPTH + 32), "{} bytes", out.len());
    let mov = out.lines().find(|l| l.trim_start().starts_with("mov ")).unwrap();
    assert_eq!(mov.len() - mov.trim_start().len(), 2 * MAX_INDENT_DEPTH);
}

#[test]
fn indentation_up_to_the_cap_is_two_spaces_per_level() {
    for depth in [1, 30, MAX_INDENT_DEPTH] {
        let out = listing(&nested(depth));
        let mov = out.lines().find(|l| l.trim_start().starts_with("mov ")).unwrap();
        assert_eq!(mov.len() - mov.trim_start().len(), 2 * depth, "{depth}");
        let last_endif = out.lines().rfind(|l| l.trim_start().starts_with("endif")).unwrap();
        assert_eq!(last_endif.len() - last_endif.trim_start().len(), 0);
    }
}
