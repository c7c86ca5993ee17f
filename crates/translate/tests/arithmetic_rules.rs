//! The functional spec's arithmetic rules in the translated code: each instruction
//! calls the helper that keeps its rule (denormal flush, `_sat`, `min`/`max` NaN rules,
//! saturating `ftoi`/`ftou`, masked shifts, `udiv` by zero, bit fields), source
//! modifiers act as the slot's type says, swizzles and write masks as written, and every
//! opcode of the arithmetic table gives a module naga validates.

use translate::{Options, Target};

fn program(text: &str) -> tpf::Program<'static> {
    tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program.into_owned()
}

/// A pixel shader around `body` (r0, r1 temps; v0 input; o0 output).
fn ps(body: &str) -> String {
    format!(
        "ps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\nmov o0.xyzw, r0.xyzw\nret \n"
    )
}

/// The front end's source for `body`, after checking that naga validates the module.
fn source(body: &str) -> String {
    let p = program(&ps(body));
    let options = Options::default();
    translate::module_from_program(&p, &[], &[], &options).unwrap_or_else(|e| panic!("{e}\n{body}"));
    translate::wgsl_source_of_program(&p, &[], &[], &options).unwrap()
}

/// The lines of `dx_run` (the program's body).
fn body(body_text: &str) -> String {
    let s = source(body_text);
    let start = s.find("fn dx_run()").unwrap();
    s[start..].to_string()
}

/// The text of the prelude's helper `name`.
fn helper(name: &str) -> String {
    let s = source("mov r0.xyzw, v0.xyzw");
    let start = s.find(&format!("fn {name}(")).unwrap_or_else(|| panic!("no helper {name}"));
    let end = s[start..].find("\n}\n").unwrap() + start;
    s[start..end].to_string()
}

#[test]
fn float_operations_flush_denormals_on_input_and_output() {
    let b = body("add r0.xyzw, v0.xyzw, v0.yzwx");
    assert!(b.contains("dx_r((dx_f(q0.x) + dx_f(q1.x)))"), "{b}");
    assert!(helper("dx_ftz").contains("(x & 0x7f800000u) == 0u") && helper("dx_ftz").contains("0x80000000u"));
    // Moves move bits.
    let b = body("mov r0.xyzw, v0.xyzw");
    assert!(b.contains("r0.x = q0.x;"), "{b}");
}

#[test]
fn saturate_gives_zero_for_nan() {
    let b = body("add_sat r0.xyzw, v0.xyzw, v0.xyzw");
    assert!(b.contains("dx_sat((dx_f(q0.x) + dx_f(q1.x)))"), "{b}");
    let h = helper("dx_sat");
    assert!(h.contains("dx_isnan(b)") && h.contains("return 0u;") && h.contains("0x3f800000u"), "{h}");
}

#[test]
fn min_and_max_return_the_number_beside_a_nan() {
    let b = body("min r0.xyzw, v0.xyzw, v0.yzwx\nmax r1.xyzw, v0.xyzw, v0.yzwx");
    assert!(b.contains("dx_min(q0.x, q1.x)") && b.contains("dx_max(q0.x, q1.x)"), "{b}");
    let h = helper("dx_min");
    assert!(h.contains("if (dx_isnan(a)) { return b; }") && h.contains("if (dx_isnan(b)) { return a; }"), "{h}");
    assert!(h.contains("return a | b;"), "min(-0, +0) is -0: {h}");
    assert!(helper("dx_max").contains("return a & b;"));
}

#[test]
fn float_to_integer_conversions_saturate_and_map_nan_to_zero() {
    let b = body("ftoi r0.xyzw, v0.xyzw\nftou r1.xyzw, v0.xyzw");
    assert!(b.contains("dx_ftoi(q0.x)") && b.contains("dx_ftou(q0.x)"), "{b}");
    let h = helper("dx_ftoi");
    assert!(h.contains("if (dx_isnan(b)) { return 0u; }"), "{h}");
    assert!(h.contains("0x7fffffffu") && h.contains("0x80000000u"), "{h}");
    let h = helper("dx_ftou");
    assert!(h.contains("x <= 0.0") && h.contains("0xffffffffu"), "{h}");
}

#[test]
fn shift_counts_are_masked_to_five_bits() {
    let b = body("ishl r0.xyzw, v0.xyzw, v0.yzwx\nishr r1.xyzw, v0.xyzw, v0.yzwx\nushr r0.xyzw, r1.xyzw, v0.xxxx");
    assert_eq!(b.matches("& 31u))").count(), 12, "{b}");
}

#[test]
fn unsigned_division_by_zero_gives_all_ones() {
    let b = body("udiv r0.xyzw, r1.xyzw, v0.xyzw, v0.yzwx");
    assert!(b.contains("dx_udiv(q0.x, q1.x)") && b.contains("dx_urem(q0.x, q1.x)"), "{b}");
    for name in ["dx_udiv", "dx_urem"] {
        assert!(helper(name).contains("0xffffffffu, b == 0u"), "{name}");
    }
}

#[test]
fn bit_fields_mask_width_and_offset() {
    let b = body("ubfe r0.xyzw, v0.xyzw, v0.yzwx, v0.zwxy\nbfi r1.xyzw, v0.xyzw, v0.yzwx, v0.zwxy, v0.wxyz");
    assert!(b.contains("dx_ubfe(") && b.contains("dx_bfi("), "{b}");
    for name in ["dx_ubfe", "dx_ibfe", "dx_bfi"] {
        let h = helper(name);
        assert!(h.contains("width & 31u") && h.contains("offset & 31u"), "{name}: {h}");
    }
    assert!(helper("dx_firstbit_hi").contains("31u - firstLeadingBit(v)"));
}

#[test]
fn source_modifiers_follow_the_slot_type() {
    let b = body("add r0.xyzw, -v0.xyzw, |v0.xyzw|");
    assert!(b.contains("(v[0u] ^ vec4<u32>(0x80000000u))"), "float negation flips the sign bit: {b}");
    assert!(b.contains("(v[0u] & vec4<u32>(0x7fffffffu))"), "float abs clears it: {b}");
    let b = body("iadd r0.xyzw, -v0.xyzw, v0.xyzw");
    assert!(b.contains("(vec4<u32>(0u) - v[0u])"), "integer negation is two's complement: {b}");
}

#[test]
fn swizzles_and_write_masks_are_kept() {
    let b = body("mov r0.yw, v0.zzxw");
    assert!(b.contains("let q0 = v[0u].zzxw;"), "{b}");
    assert!(b.contains("r0.y = q0.y;") && b.contains("r0.w = q0.w;"), "{b}");
    assert!(!b.contains("r0.x = ") && !b.contains("r0.z = "), "{b}");
    let b = body("dp3 r0.xz, v0.xyzx, v0.xyzx");
    assert!(b.contains("r0.x = dx_r(((dx_f(q0.x) * dx_f(q1.x)"), "{b}");
    assert!(!b.contains("r0.y = "), "{b}");
}

#[test]
fn half_conversion_rounds_toward_zero_bit_by_bit() {
    let b = body("f32tof16 r0.xyzw, v0.xyzw");
    assert!(b.contains("dx_f32tof16(q0.x)"), "{b}");
    let h = helper("dx_f32tof16");
    assert!(h.contains("return sign | 0x7bffu;"), "too large: the largest half: {h}");
    assert!(h.contains("(man | 0x800000u) >> u32(14 - h)"), "half denormals truncated: {h}");
    assert!(!h.contains("pack2x16float"), "{h}");
}

#[test]
fn every_arithmetic_row_gives_a_valid_module() {
    for &op in translate::ops::OPCODES {
        let info = op.info();
        let dsts: Vec<String> = (0..info.dst.len()).map(|d| format!("r{d}.xyzw")).collect();
        let srcs: Vec<&str> = info.src.iter().map(|_| "v0.xyzw").collect();
        let operands = [dsts.join(", "), srcs.join(", ")].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>();
        let text = format!("{} {}", info.mnemonic, operands.join(", "));
        let p = program(&ps(&text));
        let m = translate::module_from_program(&p, &[], &[], &Options::default())
            .unwrap_or_else(|e| panic!("{}: {e}", info.mnemonic));
        for target in [Target::Wgsl, Target::Spirv] {
            translate::write(&m, target).unwrap_or_else(|e| panic!("{} to {target:?}: {e}", info.mnemonic));
        }
    }
}
