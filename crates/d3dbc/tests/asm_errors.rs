//! Diagnostics of malformed listings: line, column, length, message and hint.

use d3dbc::parse::{assemble, parse_program, Diagnostic, Severity};

fn errors(text: &str) -> Vec<Diagnostic> {
    match parse_program(text) {
        Ok(_) => match assemble(text) {
            Ok(_) => panic!("accepted: {text:?}"),
            Err(e) => e,
        },
        Err(e) => e,
    }
}

/// The first diagnostic is at `line:column`, `length` long, its message contains
/// `message`, and it has a hint.
#[track_caller]
fn check(text: &str, line: usize, column: usize, length: usize, message: &str) {
    let e = errors(text);
    let d = &e[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!((d.line, d.column, d.length), (line, column, length), "{text:?}: {d}");
    assert!(d.message.contains(message), "{text:?}: {d}");
    assert!(d.expected.is_some(), "{text:?}: {d} has no hint");
}

#[test]
fn positions_and_messages() {
    check("ps_2_0\nfoo r0, r1\n", 2, 1, 3, "unknown instruction `foo`");
    check("ps_2_0\n    mov r0, q1\n", 2, 13, 2, "`q` is not a register");
    check("ps_1_1\ntexld r0, t0, s0\n", 2, 1, 5, "spelled `tex` in ps_1_1");
    check("ps_1_4\ntex t0\n", 2, 1, 3, "spelled `texld` in ps_1_4");
    check("ps_1_3\ntexcrd t0\n", 2, 1, 6, "spelled `texcoord`");
    check("vs_2_0\nif_gt r0.x, r1.x\nendif\n", 2, 1, 5, "`if_gt` is not an instruction of vs_2_0");
    check("ps_2_0\ntexldl r0, t0, s0\n", 2, 1, 6, "not an instruction of ps_2_0");
    check("vs_3_0\nmov oT0, r0\n", 2, 5, 3, "no `oT#` outputs in vs_3_0");
    check("vs_2_0\nmov o0, r0\n", 2, 5, 2, "outputs are not written `o#`");
    check("vs_2_0\nmov r0, t0\n", 2, 9, 2, "no texture registers");
    check("ps_2_0\nmov r0, a0\n", 2, 9, 2, "no address register");
    check("ps_2_0\nmov r0, vPos\n", 2, 9, 4, "no `vPos`");
    check("vs_1_1\nmov r0, i0\n", 2, 9, 2, "no integer constants");
    check("ps_2_0\n+mov r0, r1\n", 2, 1, 1, "co-issue");
    check("vs_1_1\n(p0) mov r0, r1\n", 2, 1, 4, "predication does not exist");
    check("vs_2_x\n(r0) mov r0, r1\n", 2, 2, 2, "the predicate must be `p0`");
    check("ps_2_0\nmul_x2 r0, r1, r2\n", 2, 4, 3, "result shift `_x2` exists only in ps_1_x");
    check("ps_1_1\nmul_x2_d2 r0, r1, r2\n", 2, 7, 3, "one result shift");
    check("vs_1_1\nmov_pp r0, r1\n", 2, 4, 3, "`_pp` does not exist");
    check("ps_2_0\nmov_sat_sat r0, r1\n", 2, 8, 4, "`_sat` twice");
    check("ps_2_0\nmov_foo r0, r1\n", 2, 4, 4, "`_foo` is not an instruction modifier");
    check("ps_2_0\nmov r0, r1_bias\n", 2, 9, 7, "`_bias` source modifier does not exist in ps_2_0");
    check("ps_1_1\nmov r0, r1_abs\n", 2, 9, 6, "`_abs` source modifier does not exist in ps_1_1");
    check("ps_1_1\nmov r0, r1_dz\n", 2, 9, 5, "`_dz` / `_dw`");
    check("ps_2_0\nmov r0, r1_foo\n", 2, 11, 4, "`_foo` is not a source modifier");
    check("ps_2_0\nmov r0, -!r1\n", 2, 9, 4, "do not combine");
    check("ps_2_0\nmov r0_abs, r1\n", 2, 7, 1, "destination has no source modifier");
    check("ps_2_0\nadd r0, r1\n", 2, 11, 1, "`add` takes 3 operands in ps_2_0; found 2");
    check("ps_2_0\nadd r0, r1, r2, r3\n", 2, 15, 4, "too many operands");
    check("ps_2_0\nmov r0 r1\n", 2, 8, 2, "expected `,`");
    check("ps_2_0\nmov\n", 2, 4, 1, "missing operand");
    check("ps_2_0\nmov r0,\n", 2, 8, 1, "missing operand");
    check("ps_2_0\nmov r0.yx, r1\n", 2, 8, 2, "mask components must be in order");
    check("ps_2_0\nmov r0.xg, r1\n", 2, 8, 2, "not both");
    check("ps_2_0\nmov r0, r1.xyzwx\n", 2, 12, 5, "not a swizzle");
    check("ps_2_0\nmov r0, r1.q\n", 2, 12, 1, "`q` is not a component");
    check("ps_2_0\nmov r0, c0 garbage\n", 2, 12, 7, "unexpected text after the instruction");
    check("ps_2_0\ndef c0, 1, 2, x, 4\n", 2, 15, 1, "not a number");
    check("vs_2_0\ndefi i0, 1, 2, 3.5, 4\n", 2, 16, 3, "not a 32-bit integer");
    check("vs_2_0\ndefb b0, maybe\n", 2, 10, 5, "not a boolean");
    check("vs_2_0\ndcl_foo v0\n", 2, 5, 3, "not a declaration usage");
    check("vs_2_0\ndcl_texcoord16 v0\n", 2, 13, 2, "usage index above 15");
    check("ps_2_0\ndcl_2d t0\n", 2, 1, 6, "declares a sampler");
    check("ps_2_0\nmov r0, c0[a0.x]\n", 2, 12, 2, "expected an address register");
    check("vs_1_1\nmov r0, c[a0.y]\n", 2, 10, 6, "reads `a0.x` only");
    check("vs_2_0\nmov r0, c0[a0.xy]\n", 2, 15, 2, "one component");
    check("vs_2_0\nmov r0, c0[a0.x\n", 2, 16, 1, "expected `]`");
    check("vs_2_0\nmov r0, c9000\n", 2, 9, 5, "above 8191");
    check("vs_2_0\nmov r0, r2048\n", 2, 9, 5, "above 2047");
    check("vs_2_0\nmov r0, r\n", 2, 9, 1, "needs a register number");
    check("vs_2_0\nmov r0, oPos1\n", 2, 9, 5, "takes no register number");
    check("vs_2_x\nmov_gt r0, r1\n", 2, 4, 3, "takes no comparison");
    check("ps_2_0\n#line x\n", 2, 7, 1, "line number");
    check("ps_2_0\n#line 4 \"a.fx\n", 2, 9, 5, "not closed");
    check("ps_9_0\nmov r0, r1\n", 1, 1, 6, "not a Shader Model 1–3 version");
    check("  vs_4_0\n", 1, 3, 6, "not a Shader Model 1–3 version");
    check("// only comments\n", 1, 1, 1, "no shader version line");
    check("ps_2_0\n    ps_2_0\n", 2, 5, 6, "a second version line");
}

#[test]
fn header_diagnostics() {
    let header = |params: &str, regs: &str| {
        format!(
            "//\n// Generated by X\n//\n// Parameters:\n//\n{params}//\n//\n// Registers:\n//\n//   Name Reg Size\n//   ---- --- ----\n{regs}//\n\n    vs_2_0\n    mov oPos, c0\n"
        )
    };
    check(&header("//   float5 a;\n", "//   a c0 1\n"), 6, 6, 6, "`float5` is not a parameter type");
    check(&header("//   float4 a\n", "//   a c0 1\n"), 6, 14, 1, "ends with `;`");
    check(&header("//   float4 a[0];\n", "//   a c0 1\n"), 6, 13, 4, "array size");
    check(&header("//   float4 a;\n", "//   a q0 1\n"), 13, 8, 2, "not a constant register");
    check(&header("//   float4 a;\n", "//   a c0\n"), 13, 6, 4, "three columns");
    check(&header("//   float4 a;\n", "//   a c0 x\n"), 13, 11, 1, "not a register count");
    check(&header("//   float4 a;\n", "//   b c0 1\n"), 6, 1, 2, "parameter `a` has no row");
    // Several problems: all reported, in order.
    let e = errors(&header("//   float5 a;\n//   int b;\n", "//   a q0 1\n//   b i0 x\n"));
    let at: Vec<_> = e.iter().map(|d| (d.line, d.column)).collect();
    assert_eq!(at, [(6, 6), (14, 8), (15, 11)]);
    // A good header builds a table.
    let ok = header("//   float4 a;\n//   sampler2D s;\n", "//   a c0 1\n//   s s0 1\n");
    let p = parse_program(&ok).unwrap();
    let h = p.header.as_ref().unwrap();
    assert_eq!(h.creator.as_deref(), Some("X"));
    assert_eq!(h.parameters.len(), 2);
    assert_eq!(h.registers[1].index, 0);
}

#[test]
fn every_error_of_a_run_is_reported() {
    let text = "ps_2_0\nmov r0, r1\nbar\nmov r0, r1.q\n  add r0\ntexld r0, t0, s0\nmul_x2 r0, r1, r2\n";
    let e = errors(text);
    let at: Vec<_> = e.iter().map(|d| (d.line, d.column)).collect();
    assert_eq!(at, [(3, 1), (4, 12), (5, 9), (7, 4)]);
    assert!(e.iter().all(|d| d.severity == Severity::Error && d.expected.is_some() && d.length >= 1));
    // The display form is `line:column: error: message (expected hint)`.
    assert_eq!(e[0].to_string(), "3:1: error: unknown instruction `bar` (expected an instruction of ps_2_0)");
    // A bad version line is reported and the rest still checked.
    let e = errors("ps_2_7\nfoo\n");
    assert_eq!(e.len(), 2);
    assert_eq!((e[1].line, e[1].column), (2, 1));
}

#[test]
fn columns_count_characters() {
    // A multi-byte character before the culprit counts as one column.
    let e = errors("ps_2_0\nmov r0, é\n");
    assert_eq!((e[0].line, e[0].column), (2, 9));
    let e = errors("ps_2_0\n\tmov r0, r1 é\n");
    assert_eq!((e[0].line, e[0].column, e[0].length), (2, 13, 1));
}

#[test]
fn encodable_but_wrong_is_a_warning() {
    // What the format encodes but the rules forbid assembles, for the validator to
    // judge, with a positioned warning.
    for (text, line, column, message) in [
        ("ps_2_x\nmov r0, !r1\n", 2, 9, "`!` negates only the predicate"),
        ("ps_2_0\ndef r0, 1, 2, 3, 4\n", 2, 1, "defines a `c#` register"),
        ("vs_2_0\nloop i0, aL\nendloop\n", 2, 1, "`loop` counts in `aL`"),
        ("vs_2_0\nif b0\n", 2, 1, "never closed"),
        ("vs_2_0\nendrep\n", 2, 1, "closes no open block"),
    ] {
        let p = parse_program(text).unwrap_or_else(|e| panic!("{text:?}: {}", e[0]));
        let w = &p.warnings[0];
        assert_eq!((w.severity, w.line, w.column), (Severity::Warning, line, column), "{text:?}: {w}");
        assert!(w.message.contains(message), "{text:?}: {w}");
        assert!(assemble(text).is_ok());
    }
}
