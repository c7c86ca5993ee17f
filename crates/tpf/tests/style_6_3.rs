//! Spellings of d3dcompiler_47 6.3.9600 (the oracle's DLL) that differ from the other
//! styles: each is printed in that style only and parsed back from either spelling.

use tpf::print::print_program;
use tpf::Style;

fn print(text: &str, style: Style) -> String {
    let parsed = tpf::parse::parse_program(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let mut out = String::new();
    print_program(&parsed.program, style, &mut out);
    out
}

/// The program `text` printed in the 6.3.9600 style and the fxc 10.1 style, each of
/// which must parse back to the same program.
fn both(text: &str) -> (String, String) {
    let old = print(text, Style::D3DCOMPILER_47_6_3);
    let new = print(text, Style::D3DCOMPILER_47);
    for t in [&old, &new] {
        assert_eq!(print(t, Style::D3DCOMPILER_47), new, "{t}");
    }
    (old, new)
}

#[test]
fn global_flags_none() {
    let (old, new) = both("ps_5_0\ndcl_globalFlagsnone\nret\n");
    assert!(old.contains("\ndcl_globalFlagsnone\n"), "{old}");
    assert!(new.contains("\ndcl_globalFlags \n") || new.contains("\ndcl_globalFlags\n"), "{new}");
}

#[test]
fn label_register_file() {
    let src = "ps_5_0\ncall l0\ncallc_z r2.x, l1\nret\nlabel l0\nret\nlabel l1\nret\n";
    let (old, new) = both(src);
    for l in ["\ncall label0\n", "\ncallc_z r2.x, label1\n", "\nlabel label0\n", "\nlabel label1\n"] {
        assert!(old.contains(l), "{l} in {old}");
    }
    for l in ["\ncall l0\n", "\ncallc_z r2.x, l1\n", "\nlabel l0\n"] {
        assert!(new.contains(l), "{l} in {new}");
    }
}

#[test]
fn minimum_precision_notes() {
    let src = "ps_5_0\n\
               utof r0.x, r1.x {min16u as def32}\n\
               lt r2.x, l(1.000000), |r1.x| {min16f as def32}\n\
               ushr r1.x {min16u}, r0.x {def32 as min16u}, l(1) {def32 as min16u}\n\
               ubfe r1.x {min16u}, l(31) {def32 as min16u}, l(0) {def32 as min16u}, r2.x {def32 as min16u}\n\
               mul r0.xyzw {min16f}, |r0.xyzw| {min16f}, r1.xyzw {def32 as min16f}\n\
               movc r1.x {min16i}, r0.x {def32 as min16i}, l(0) {def32 as min16i}, l(3) {def32 as min16i}\n\
               ret\n";
    let (old, new) = both(src);
    for l in [
        "\nutof r0.x, r1.x {min16u}\n",
        "\nlt r2.x, l(1.000000), |r1.x {min16f}|\n",
        "\nushr r1.x {min16u}, r0.x {def32 as min16u}, l(1)\n",
        "\nubfe r1.x {min16u}, l(31) {def32 as min16u}, l(0), r2.x\n",
        "\nmul r0.xyzw {min16f}, |r0.xyzw {min16f}|, r1.xyzw {def32 as min16f}\n",
        "\nmovc r1.x {min16i}, r0.x, l(0) {def32 as min16i}, l(3) {def32 as min16i}\n",
    ] {
        assert!(old.contains(l), "{l} in {old}");
    }
    for l in src.lines().skip(1) {
        assert!(new.lines().any(|x| x.trim_end() == l), "{l} in {new}");
    }
}

#[test]
fn condition_and_address_immediates() {
    let src = "cs_5_0\n\
               dcl_uav_typed_texture2d (float,float,float,float) u0\n\
               dcl_temps 3\n\
               dcl_thread_group 1, 1, 1\n\
               movc r0.xyz, l(1, -1, 0, 0), r1.xyzx, r2.xyzx\n\
               store_uav_typed u0.xyzw, l(1, 2, 0, 0), r0.xxxx\n\
               ld_uav_typed_indexable(texture2d)(float,float,float,float) r0.x, l(1, 2, 0, 0), u0.xyzw\n\
               ret\n";
    let (old, new) = both(src);
    for l in [
        "movc r0.xyz, l(1,-1,0,0), r1.xyzx, r2.xyzx",
        "store_uav_typed u0.xyzw, l(1,2,0,0), r0.xxxx",
        "ld_uav_typed_indexable(texture2d)(float,float,float,float) r0.x, l(1, 2, 0, 0), u0.xyzw",
    ] {
        assert!(old.lines().any(|x| x == l), "{l} in {old}");
    }
    for l in src.lines().skip(4) {
        assert!(new.lines().any(|x| x.trim_end() == l), "{l} in {new}");
    }
}

#[test]
fn line_directives_are_not_instructions() {
    let with = "vs_5_0\ndcl_output o0.xyzw\n#line 49 \"Z:\\gen.hlsl\"\nmov o0.xyzw, l(0,0,0,0)  // o0.x <- r.x\n\n#line 40\nret\n";
    let without = "vs_5_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0,0,0,0)\nret\n";
    assert_eq!(print(with, Style::D3DCOMPILER_47_6_3), print(without, Style::D3DCOMPILER_47_6_3));
}

#[test]
fn floats_from_their_exact_digits() {
    let show = |f: f32, style| {
        let mut s = String::new();
        tpf::print::push_float(f, style, &mut s);
        s
    };
    let old = Style::D3DCOMPILER_47_6_3;
    assert_eq!(show(2f32.powi(100), old), "1267650600228229401496703205376.000000");
    assert_eq!(show(1.0078125, old), "1.007813");
    assert_eq!(show(-0.0078125, old), "-0.007813");
    assert_eq!(show(0.001953125, old), "0.001953");
    assert_eq!(show(0.9999995, old), "1.000000");
    assert_eq!(show(0.9999994, old), "0.999999");
    assert_eq!(show(999999.94, old), "999999.937500");
    assert_eq!(show(0.5, old), "0.500000");
    // The other styles keep their rounding.
    assert_eq!(show(2f32.powi(100), Style::D3DCOMPILER_46), "1267650600228229400000000000000.000000");
}

#[test]
fn sync_group_bit() {
    let src = "cs_5_0\ndcl_thread_group 1, 1, 1\nsync_ugroup_g_t\nsync_uglobal_ugroup_g\nsync_uglobal_t\nret\n";
    let (old, new) = both(src);
    for l in ["sync_sat_ugroup_g_t", "sync_sat_uglobal_g", "sync_uglobal_t"] {
        assert!(old.lines().any(|x| x == l), "{l} in {old}");
    }
    for l in src.lines().skip(2).take(3) {
        assert!(new.lines().any(|x| x == l), "{l} in {new}");
    }
}

#[test]
fn rcp_and_lod_immediates() {
    let src =
        "ps_5_0\ndcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_temps 3\n\
               rcp r2.xyzw, l(0.250000, 0.001000, 0.500000, 10.000000)\n\
               lod r1.y, l(1.000000, 1.000000, 0.000000, 0.000000), t0.x, s0\n\
               ret\n";
    let (old, new) = both(src);
    for l in [
        "rcp r2.xyzw, l(0x3e800000, 0x3a83126f, 0x3f000000, 0x41200000)",
        "lod r1.y, l(0x3f800000, 0x3f800000, 0, 0), t0.x, s0",
    ] {
        assert!(old.lines().any(|x| x == l), "{l} in {old}");
    }
    for l in src.lines().skip(4).take(2) {
        assert!(new.lines().any(|x| x == l), "{l} in {new}");
    }
}
