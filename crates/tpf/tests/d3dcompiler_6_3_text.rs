//! Spellings of d3dcompiler_47 6.3.9600's disassembler that the parser reads back.

use tpf::parse::parse_program;
use tpf::{Body, MinPrecision, Modifier};

#[test]
fn reads_a_precision_inside_absolute_value_bars() {
    let inside = parse_program("ps_5_0\nmul r2.xy {min16f}, r0.xyxx {def32 as min16f}, |v0.xwxx {def32 as min16f}|\n")
        .unwrap_or_else(|e| panic!("{e:?}"));
    let outside = parse_program("ps_5_0\nmul r2.xy {min16f}, r0.xyxx {def32 as min16f}, |v0.xwxx| {def32 as min16f}\n")
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(inside.program, outside.program);
    let ins = inside.program.get(0).unwrap();
    let Body::Op(_) = &ins.body else { panic!("not an operation") };
    let ext = ins.operands()[2].ext().expect("an extended operand");
    assert_eq!((ext.modifier, ext.min_precision), (Modifier::Abs, MinPrecision::Default));
    // A negated absolute value keeps both.
    let p = parse_program("ps_5_0\nmov r0.x {min16f}, -|v0.x {min16f}|\n").unwrap_or_else(|e| panic!("{e:?}"));
    let ins = p.program.get(0).unwrap();
    let Body::Op(_) = &ins.body else { panic!("not an operation") };
    let ext = ins.operands()[1].ext().expect("an extended operand");
    assert_eq!((ext.modifier, ext.min_precision), (Modifier::AbsNeg, MinPrecision::Float16));
    // An unclosed bar is still an error at its place.
    let e = parse_program("ps_5_0\nmov r0.x, |v0.x {min16f}\n").unwrap_err();
    assert!(e[0].message.contains("closing `|`"), "{e:?}");
}

#[test]
fn skips_line_directives() {
    let text =
        "vs_5_0\ndcl_output o0.xyzw\n#line 49 \"Z:\\work\\gen.hlsl\"\nmov o0.xyzw, l(0,0,0,0)\n  #line 50\nret\n";
    let p = parse_program(text).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(p.program.instructions.len(), 3);
    assert_eq!(p.lines, [2, 4, 6]);
}

#[test]
fn reads_a_six_decimal_zero_in_a_typeless_slot_as_a_tiny_normal_float() {
    // fxc prints zero bits in a typeless slot as `0`: `0.000000` there is a normal float.
    let p = parse_program("vs_5_0\nmov r0.xyzw, l(0,0.000000,-0.000000,0.0)\nadd r1.x, r0.x, l(0.000000)\n")
        .unwrap_or_else(|e| panic!("{e:?}"));
    let mov = p.program.get(0).unwrap();
    let Body::Op(_) = &mov.body else { panic!("not an operation") };
    assert_eq!(mov.operands()[1].imm, [0, 0x0080_0000, 0x8000_0000, 0]);
    // In a float slot zero prints as `0.000000` itself.
    let add = p.program.get(1).unwrap();
    let Body::Op(_) = &add.body else { panic!("not an operation") };
    assert_eq!(add.operands()[2].imm[0], 0);
}

#[test]
fn reads_the_lower_case_rcpfloat_suffix() {
    let lower = parse_program("vs_4_1\nresinfo_rcpfloat r0.xyzw, l(0), t0.xyzw\n").unwrap_or_else(|e| panic!("{e:?}"));
    let upper = parse_program("vs_4_1\nresinfo_rcpFloat r0.xyzw, l(0), t0.xyzw\n").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(lower.program, upper.program);
}
