//! One test per rule of `d3dbc::rules` at its edge: the program just inside is
//! accepted, the one just outside is refused with an error at the line and column
//! `D3DAssemble` reports, naming the rule. Each test cites its source: the Microsoft
//! page and the verdict `D3DAssemble` (d3dcompiler_47 6.3.9600) gave for the same
//! program, recorded in `crates/d3dbc/tests/asm-oracle/asm-rules.dxo` (its case name in brackets).

use d3dbc::parse::{parse_program, Diagnostic, Severity};

/// The rules' errors for `src` (which must parse).
fn errors(src: &str) -> Vec<Diagnostic> {
    let parsed = parse_program(src).unwrap_or_else(|e| panic!("{src}\ndoes not parse: {e:#?}"));
    d3dbc::rules::check(&parsed, src).into_iter().filter(|d| d.severity == Severity::Error).collect()
}

#[track_caller]
fn accepted(src: &str) {
    let e = errors(src);
    assert!(e.is_empty(), "{src}\nrefused: {e:#?}");
}

/// Refused with an error at `line:column` whose message holds `rule`.
#[track_caller]
fn refused(src: &str, line: usize, column: usize, rule: &str) {
    let e = errors(src);
    assert!(
        e.iter().any(|d| d.line == line && d.column == column && d.message.contains(rule)),
        "{src}\nexpected an error at {line}:{column} naming {rule:?}; got {e:#?}"
    );
}

// ---------------------------------------------------------------------------------
// Register files and numbers: "Registers - vs_1_1" ... "ps_3_0 Registers"; X2005.

/// `s#` exists in vertex shaders from vs_3_0 ("Registers - vs_3_0" has four; "Registers
/// - vs_1_1" none) [rules/register/s0/vs_1_1, s3/vs_3_0, s4/vs_3_0].
#[test]
fn samplers_in_vertex_shaders() {
    accepted("vs_3_0\ndcl_position o0\ndcl_2d s3\nmov o0, c0\n");
    refused("vs_3_0\ndcl_position o0\ndcl_2d s4\nmov o0, c0\n", 3, 8, "register numbers by version");
    refused("vs_1_1\nmov oPos, s0\n", 2, 11, "register files by version");
}

/// `t#` does not exist in ps_3_0 ("ps_3_0 Registers": inputs are `v#`) and ps_2_0 has
/// eight ("ps_2_0 Registers") [rules/register/t7/ps_2_0, t8/ps_2_0, t0/ps_3_0].
#[test]
fn texture_registers() {
    accepted("ps_2_0\ndcl t7\nmov oC0, t7\n");
    refused("ps_2_0\ndcl t8\nmov oC0, t8\n", 2, 5, "register numbers by version");
    refused("ps_3_0\nmov oC0, t0\n", 2, 10, "register files by version");
}

/// Temporaries: two in ps_1_1 to ps_1_3, six in ps_1_4 ("ps_1_1, ps_1_2, ps_1_3, ps_1_4
/// Registers"), twelve in vs_1_1, vs_2_0 and ps_2_0, 32 in the 2_x and 3_0 profiles
/// [rules/register/r2, r5, r6, r11, r12, r31, r32].
#[test]
fn temporaries() {
    accepted("ps_1_3\nmov r1, c0\nmov r0, r1\n");
    refused("ps_1_3\nmov r2, c0\nmov r0, c0\n", 2, 5, "ps_1_3 has 2 `r#` registers");
    accepted("ps_1_4\nmov r5, c0\nmov r0, r5\n");
    refused("ps_1_4\nmov r6, c0\nmov r0, c0\n", 2, 5, "ps_1_4 has 6 `r#` registers");
    accepted("vs_2_0\nmov r11, c0\nmov oPos, r11\n");
    refused("vs_2_0\nmov r12, c0\nmov oPos, c0\n", 2, 5, "vs_2_0 has 12 `r#` registers");
    accepted("vs_2_x\nmov r31, c0\nmov oPos, r31\n");
    refused("vs_3_0\ndcl_position o0\nmov r32, c0\nmov o0, c0\n", 3, 5, "vs_3_0 has 32 `r#` registers");
}

/// `oC#`: four from ps_2_0 ("ps_2_0 Registers"), none in ps_1_x
/// [rules/register/oC3/ps_2_0, oC4/ps_2_0, oC0/ps_1_4].
#[test]
fn color_outputs() {
    accepted("ps_2_0\nmov oC3, c0\nmov oC0, c0\n");
    refused("ps_2_0\nmov oC4, c0\nmov oC0, c0\n", 2, 5, "ps_2_0 has 4 `oC#` registers");
    refused("ps_1_4\nmov oC0, c0\nmov r0, c0\n", 2, 5, "register files by version");
}

/// vs_3_0: sixteen inputs, twelve outputs `o#`, and none of the vs_1_1 output names
/// ("Registers - vs_3_0") [rules/register/v15, v16, v17, o11, o12, o13/vs_3_0, oPos/vs_3_0].
#[test]
fn vs_3_0_inputs_and_outputs() {
    accepted("vs_3_0\ndcl_texcoord v15\ndcl_position o11\nmov o11, v15\n");
    refused("vs_3_0\ndcl_texcoord v16\ndcl_position o0\nmov o0, v16\n", 4, 9, "vs_3_0 has 16 `v#` registers");
    refused("vs_3_0\ndcl_texcoord v17\ndcl_position o0\nmov o0, v17\n", 4, 9, "vs_3_0 has 16 `v#` registers");
    refused("vs_3_0\ndcl_position o12\nmov o12, c0\n", 3, 5, "vs_3_0 has 12 `o#` registers");
    refused("vs_3_0\ndcl_position o13\nmov o13, c0\n", 3, 5, "vs_3_0 has 12 `o#` registers");
    refused("vs_3_0\nmov oPos, c0\n", 2, 5, "register files by version");
    // vs_3_sw has sixteen outputs ("Software Shaders") [rules/register/o15/vs_3_sw].
    accepted("vs_3_sw\ndcl_position o15\nmov o15, c0\n");
}

/// `a0` in vertex shaders only; `aL` from vs_2_0 and in ps_3_0 ("Registers - vs_2_0",
/// "ps_3_0 Registers") [rules/register/a0/ps_2_0, rules/relative/c-aL-outside-loop].
#[test]
fn address_and_loop_registers() {
    accepted("vs_1_1\nmov a0.x, c0.x\nmov oPos, c0\n");
    refused("vs_1_1\nmov a1.x, c0.x\nmov oPos, c0\n", 2, 5, "vs_1_1 has 1 `a#` register");
    refused("ps_2_0\nmov a0.x, c0.x\nmov oC0, c0\n", 2, 5, "register files by version");
    refused("ps_2_0\nmov r0, c0[aL]\nmov oC0, r0\n", 2, 12, "not an address register of ps_2_0");
    refused("vs_1_1\nmov r0, aL\nmov oPos, r0\n", 2, 9, "register files by version");
}

/// Constants: eight in ps_1_x, 32 in ps_2_0 and ps_2_x, 224 in ps_3_0; every vertex
/// profile reads any the token can name (the device's count is the validator's)
/// [rules/register/c7, c8, c31, c32, c223, c224, c8191].
#[test]
fn constants() {
    accepted("ps_1_1\nmov r0, c7\n");
    refused("ps_1_1\nmov r0, c8\n", 2, 9, "ps_1_1 has 8 `c#` registers");
    accepted("ps_2_x\nmov oC0, c31\n");
    refused("ps_2_0\nmov oC0, c32\n", 2, 10, "ps_2_0 has 32 `c#` registers");
    accepted("ps_3_0\nmov oC0, c223\n");
    refused("ps_3_0\nmov oC0, c224\n", 2, 10, "ps_3_0 has 224 `c#` registers");
    accepted("vs_1_1\nmov oPos, c8191\n");
    accepted("ps_3_sw\nmov oC0, c8191\n");
}

/// Integer and boolean constants and the predicate: `i#`, `b#` from vs_2_0 (sixteen;
/// 2048 in the software profiles), `p0` from vs_2_x ("Registers - vs_2_x")
/// [rules/register/i15, i16, b16, p0, p1].
#[test]
fn integer_boolean_predicate() {
    accepted("vs_2_0\ndefi i15, 1, 0, 0, 0\nmov oPos, c0\n");
    refused("vs_2_0\ndefi i16, 1, 0, 0, 0\nmov oPos, c0\n", 2, 6, "vs_2_0 has 16 `i#` registers");
    accepted("vs_2_sw\ndefb b2047, true\nmov oPos, c0\n");
    refused("vs_3_0\ndcl_position o0\ndefb b16, true\nmov o0, c0\n", 3, 6, "vs_3_0 has 16 `b#` registers");
    accepted("vs_2_x\nsetp_gt p0, c0, c1\nmov oPos, c0\n");
    refused("vs_2_x\nsetp_gt p1, c0, c1\nmov oPos, c0\n", 2, 9, "vs_2_x has 1 `p#` register");
}

/// ps_3_sw reads `v0` to `v13` (D3DAssemble's verdict; "Software Shaders" gives no
/// count) [rules/register/v13/ps_3_sw, v14/ps_3_sw].
#[test]
fn ps_3_sw_inputs() {
    accepted("ps_3_sw\ndcl_texcoord v13\nmov oC0, v13\n");
    refused("ps_3_sw\ndcl_texcoord v14\nmov oC0, v14\n", 3, 10, "ps_3_sw has 14 `v#` registers");
}

// ---------------------------------------------------------------------------------
// Relative addressing: the register pages' RelAddr columns; X2005, X2022.

/// `aL` is a scalar: no swizzle ("Loop Counter Register"; X2022)
/// [rules/relative/c-aL, c-aL.x].
#[test]
fn no_swizzle_on_al() {
    let in_loop = |i: &str| format!("vs_2_0\ndefi i0, 1, 0, 0, 0\nloop aL, i0\nmov r0, {i}\nendloop\nmov oPos, c0\n");
    accepted(&in_loop("c0[aL]"));
    refused(&in_loop("c0[aL.x]"), 4, 15, "relative addressing");
}

/// Temporaries are never indexed [rules/relative/r-a0.x, r-aL, dst-r-a0.x].
#[test]
fn no_relative_temporaries() {
    refused("vs_2_0\nmova a0.x, c0.x\nmov r1, c0\nmov r0, r1[a0.x]\nmov oPos, r0\n", 4, 9, "are not indexed");
    refused("vs_2_0\nmova a0.x, c0.x\nmov r0[a0.x], c0\nmov oPos, c0\n", 3, 5, "are not indexed");
}

/// Inputs are indexed from vs_3_0 (`a0` and `aL`) and in ps_3_0 (`aL`); vs_2_0
/// indexes constants only ("Registers - vs_2_0", "Registers - vs_3_0", "ps_3_0
/// Registers") [rules/relative/v-a0.x, v-aL, c-aL/ps_3_0].
#[test]
fn relative_inputs() {
    refused(
        "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmova a0.x, c0.x\nmov r0, v1[a0.x]\nmov oPos, r0\n",
        5,
        9,
        "are not indexed in vs_2_0",
    );
    accepted("vs_3_0\ndcl_texcoord v1\ndcl_position o0\nmova a0.x, c0.x\nmov r0, v1[a0.x]\nmov o0, r0\n");
    let ps3 = |i: &str| {
        format!("ps_3_0\ndcl_texcoord v1\ndefi i0, 1, 0, 0, 0\nloop aL, i0\nmov r0, {i}\nendloop\nmov oC0, c0\n")
    };
    accepted(&ps3("v1[aL]"));
    refused(&ps3("c0[aL]"), 5, 9, "are not indexed in ps_3_0");
}

/// No relative addressing at all in ps_2_0 (no address register)
/// [rules/relative/c-aL-outside-loop/ps_2_0].
#[test]
fn no_relative_addressing_in_ps_2_0() {
    refused("ps_2_0\nmov r0, c1[aL]\nmov oC0, r0\n", 2, 12, "relative addressing");
}

// ---------------------------------------------------------------------------------
// Source modifiers: "Pixel Shader Source Register Modifiers", "Vertex Shader Source
// Register Modifiers"; X2029, X2005.

/// `1 - r` below ps_2_0 only (X2029, reported at the token after the instruction: the
/// next line's first, or the end of the text) [rules/source-modifier/comp/ps_1_4,
/// comp/ps_2_0].
#[test]
fn complement_below_ps_2_0() {
    accepted("ps_1_4\nmov r0, 1 - c0\n");
    refused("ps_2_0\nmov r0, 1 - c0\n\n  // a comment\n  mov oC0, r0\n", 5, 3, "source modifiers by version");
    refused("ps_2_0\nmov r0, 1 - c0", 2, 15, "source modifiers by version");
}

/// `_x2`, `_bias`, `_bx2` on sources in ps_1_x only (D3DAssemble reads `_x2` in every
/// ps_1_x version; the validator keeps it to ps_1_4) [rules/source-modifier/x2/ps_1_1,
/// x2/ps_2_0, bias/vs_1_1].
#[test]
fn ps_1_x_source_modifiers() {
    accepted("ps_1_1\nmov r0, c0_x2\n");
    accepted("ps_1_1\nmov r0, -c0_bx2\n");
    refused("ps_2_0\nmov r0, c0_x2\nmov oC0, r0\n", 2, 9, "source modifiers by version");
    refused("vs_1_1\nmov oPos, c0_bias\n", 2, 11, "source modifiers by version");
}

/// `_abs` in 3_0 only [rules/source-modifier/abs/vs_3_0, abs/vs_2_x, neg-abs/ps_2_x].
#[test]
fn abs_in_3_0_only() {
    accepted("vs_3_0\ndcl_position o0\nmov o0, -c0_abs\n");
    refused("vs_2_x\nmov oPos, c0_abs\n", 2, 11, "the `_abs` source modifier does not exist in vs_2_x");
    refused("ps_2_x\nmov oC0, -c0_abs\n", 2, 11, "source modifiers by version");
}

// ---------------------------------------------------------------------------------
// Instruction modifiers: "Instruction Modifiers" (vs), "Modifiers for ps_2_0 and
// Above"; X2024, reported at the instruction.

/// Result shifts in ps_1_x only [rules/instruction-modifier/x2/ps_1_4, x2/ps_2_0].
#[test]
fn shifts_in_ps_1_x_only() {
    accepted("ps_1_4\nmov_x2 r0, c0\n");
    accepted("ps_1_1\nmul_d2 r0, c0, c1\n");
    refused("ps_2_0\nmov_x4 r0, c0\nmov oC0, r0\n", 2, 1, "instruction modifiers by version");
}

/// `_pp` in pixel shaders from ps_2_0, never in vertex shaders; `_sat` in every pixel
/// shader and from vs_3_0 [rules/instruction-modifier/pp, sat].
#[test]
fn pp_and_sat() {
    accepted("ps_2_0\nmov_pp r0, c0\nmov oC0, r0\n");
    refused("vs_3_0\ndcl_position o0\nmov_pp o0, c0\n", 3, 1, "`_pp`");
    refused("ps_1_4\nmov_pp r0, c0\n", 2, 1, "`_pp`");
    accepted("vs_3_0\ndcl_position o0\nmov_sat o0, c0\n");
    refused("vs_2_0\nmov_sat oPos, c0\n", 2, 1, "`_sat`");
}

/// `_centroid` is read on `dcl` only (D3DAssemble refuses `texld_centroid` and
/// `mov_centroid`) [rules/instruction-modifier/centroid, texld-centroid].
#[test]
fn centroid_on_dcl_only() {
    accepted("ps_2_0\ndcl_centroid t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n");
    refused("ps_2_0\ndcl t0\ndcl_2d s0\ntexld_centroid r0, t0, s0\nmov oC0, r0\n", 4, 1, "`_centroid`");
}

/// Co-issue in ps_1_x only ("ps_1_X Instructions", co-issue; X2027, reported at the
/// instruction after the `+`) [rules/coissue/rgb-a].
#[test]
fn coissue_in_ps_1_x_only() {
    accepted("ps_1_4\nmov r0.rgb, c0\n+mov r0.a, c1\n");
    refused("ps_2_0\nmov r0.rgb, c0\n+mov r0.a, c1\nmov oC0, r0\n", 3, 2, "co-issue");
}

/// Predication where `p0` exists: vs_2_x, ps_2_x and 3_0 ("Predicate Register"; X2028)
/// [rules/source-modifier/pred-p].
#[test]
fn predication() {
    accepted("vs_2_x\nsetp_gt p0, c0, c1\n(p0) mov r0, c0\nmov oPos, c0\n");
    refused("vs_2_0\nmov r1, c0\n(p0) mov r0, c0\nmov oPos, c0\n", 3, 6, "predication");
}

// ---------------------------------------------------------------------------------
// dcl forms: "dcl_usage input (sm2, sm3 - vs asm)", "dcl_usage input (sm2, sm3 - ps
// asm)", "dcl_samplerType (sm2, sm3 - ps asm)"; X2024, reported at the `dcl` word.

/// No `_sat` or shift on any `dcl` [rules/dcl/sat-t, sat-v, x2-v].
#[test]
fn no_sat_or_shift_on_dcl() {
    refused("ps_2_0\ndcl_sat t0\nmov oC0, t0\n", 2, 1, "dcl modifiers");
    refused("vs_3_0\ndcl_position o0\ndcl_texcoord_x2 v1\nmov o0, v1\n", 3, 1, "dcl modifiers");
}

/// `_centroid` and `_pp` on pixel-shader input declarations only: never on a vertex
/// `dcl`, so not on a vertex sampler `dcl` [rules/dcl/centroid-v, centroid-t, pp-s].
#[test]
fn centroid_and_pp_in_pixel_shaders_only() {
    accepted("ps_3_0\ndcl_texcoord_centroid v1\nmov oC0, v1\n");
    accepted("ps_2_0\ndcl_pp t0\nmov oC0, t0\n");
    refused("vs_3_0\ndcl_texcoord_centroid v1\ndcl_position o0\nmov o0, v1\n", 2, 1, "dcl modifiers");
    refused("vs_3_0\ndcl_2d_pp s0\ndcl_position o0\nmov o0, c0\n", 2, 1, "dcl modifiers");
}

/// Vertex `dcl` names a usage; ps_2_0 and ps_2_x take none; ps_3_0 takes one but not
/// `position0`, which is `vPos` ("ps_3_0 Registers") [rules/dcl/plain-v, usage-v,
/// dcl-usage/position0-v].
#[test]
fn dcl_usages_by_version() {
    refused("vs_3_0\ndcl v1\ndcl_position o0\nmov o0, v1\n", 2, 1, "names a usage");
    refused("ps_2_0\ndcl_texcoord v1\nmov oC0, v1\n", 2, 1, "takes no usage");
    accepted("ps_3_0\ndcl_position1 v1\nmov oC0, v1\n");
    refused("ps_3_0\ndcl_position v1\nmov oC0, v1\n", 2, 1, "`vPos`");
    // Sampler types in vertex shaders from vs_3_0 [rules/dcl/volume-s].
    accepted("vs_3_0\ndcl_volume s0\ndcl_position o0\nmov o0, c0\n");
    refused("vs_2_0\ndcl_2d s0\nmov oPos, c0\n", 2, 1, "sampler-type");
}

/// No output `dcl` in pixel shaders: `D3DAssemble`'s assembler reads `dcl oC0` and its
/// validator refuses it (X5299 in ps_3_0: "Must be input register (v#), sampler (s#),
/// position (vPos) or face (vFace)") — so the rules here accept it and the Direct3D 9
/// validator refuses it [rules/dcl/output-oC0/ps_3_0/2 accepted, /0 refused].
#[test]
fn no_output_dcl_in_pixel_shaders_is_the_validators() {
    let src = "ps_3_0\ndcl oC0\nmov oC0, c0\n";
    accepted(src);
    let bytes = d3dbc::parse::assemble(src).expect("assembles");
    let report = validate::validate(&bytes, &validate::Target::d3d9());
    assert!(!report.is_valid(), "{:#?}", report.diagnostics);
}

// ---------------------------------------------------------------------------------
// Instructions and operand counts by version: the instruction pages; X2023, X2000.

/// Instructions a version lacks [rules/instruction/lrp/vs_1_1, rep/ps_2_0,
/// texldp-1_4/ps_1_4, defb/ps_2_0, break/vs_2_0].
#[test]
fn instructions_by_version() {
    accepted("vs_2_0\nlrp r0, c0, c1, c2\nmov oPos, r0\n");
    refused("vs_1_1\nlrp r0, c0, c1, c2\nmov oPos, r0\n", 2, 1, "`lrp` is not an instruction of vs_1_1");
    refused(
        "ps_2_0\ndefi i0, 1, 0, 0, 0\nrep i0\nendrep\nmov oC0, c0\n",
        3,
        1,
        "`rep` is not an instruction of ps_2_0",
    );
    refused("ps_1_4\ntexldp r0, t0\n", 2, 1, "`texldp` is not an instruction of ps_1_4");
    // What D3DAssemble reads beyond the pages: `defb` / `if` in ps_2_0, `break` in vs_2_0.
    accepted("ps_2_0\ndefb b0, true\nif b0\nendif\nmov oC0, c0\n");
    accepted("vs_2_0\ndefi i0, 1, 0, 0, 0\nrep i0\nbreak\nendrep\nmov oPos, c0\n");
}

/// Operand counts: `texld` takes a sampler from ps_2_0 ("texld - ps_2_0 and up"),
/// `sincos` three sources in Shader Model 2 and one in 3_0 ("sincos - vs")
/// [rules/instruction/texld-1_4/ps_2_0, sincos-2/vs_3_0, sincos-3/vs_2_0].
#[test]
fn operand_counts_by_version() {
    accepted("ps_1_4\ntexld r0, t0\n");
    refused("ps_2_0\ndcl t0\ntexld r0, t0\nmov oC0, r0\n", 3, 1, "operands by version");
    accepted("vs_3_0\ndcl_position o0\nsincos r0.xy, c0.x\nmov o0, r0\n");
    refused("vs_3_0\ndcl_position o0\nsincos r0.xy, c0.x, c1, c2\nmov o0, r0\n", 3, 19, "operands by version");
    refused("vs_2_0\nsincos r0.xy, c0.x\nmov oPos, r0\n", 2, 1, "operands by version");
}

/// Every error names its rule and its source, and no input makes `check` panic.
#[test]
fn messages_name_rule_and_source() {
    let all = errors("ps_2_0\nadd_x2 r0, 1 - c0, c1_bias\n+mov r0.a, c40\nmov oC0, r0\n");
    // The shift, `1 -`, `_bias`, the co-issue and `c40`: several per run.
    assert_eq!(all.len(), 5, "{all:#?}");
    for e in all {
        assert!(e.message.contains(" [") && e.message.contains(": "), "{e:?}");
        assert!(e.message.contains("D3DAssemble X"), "{e:?}");
    }
    // Text that does not match the parsed lines (a caller's mistake) is no panic.
    let p = parse_program("vs_2_0\nmov oPos, c0\n").unwrap();
    let _ = d3dbc::rules::check(&p, "");
    let _ = d3dbc::rules::check(&p, "vs_2_0\n+(((,,,[[[\n");
}

/// The version line: `vs_2_a`, `ps_2_a` and `ps_2_b` are compiler targets that
/// D3DAssemble does not read (X2001, "shader version expected"); `vs_1_0` and `ps_1_0`
/// it reads as `vs_1_1` and `ps_1_1` with a warning (X2015) [rules/version/frame/*].
#[test]
fn version_lines() {
    accepted("ps_2_x\ndcl v0\nmov oC0, v0\n");
    refused("ps_2_b\ndcl v0\nmov oC0, v0\n", 1, 1, "write `ps_2_x`");
    refused("  vs_2_a\ndcl_position v0\nmov oPos, v0\n", 1, 3, "write `vs_2_x`");
    accepted("ps_1_0\nmov r0, v0\n");
    refused("ps_1_0\nmov r2, c0\nmov r0, v0\n", 2, 5, "ps_1_1 has 2 `r#` registers");
    let src = "vs_1_0\nmov oPos, v0\n";
    let w = d3dbc::rules::check(&parse_program(src).unwrap(), src);
    assert!(w.len() == 1 && w[0].severity == Severity::Warning && w[0].message.contains("read as `vs_1_1`"), "{w:#?}");
}

/// Comparison instructions name their comparison: D3DAssemble reads `setp` alone as no
/// instruction and `if` / `break` with two operands as the one-operand forms, refusing
/// the `,` (X2000; "setp_comp - vs", "if_comp - vs") [rules/forms/setp-no-comparison,
/// if-no-comparison].
#[test]
fn comparisons_are_named() {
    accepted("vs_2_x\nsetp_gt p0, c0, c1\nmov oPos, c0\n");
    refused("vs_2_x\nsetp p0, c0, c1\nmov oPos, c0\n", 2, 1, "comparisons");
    accepted("ps_3_0\nif_lt c0.x, c1.x\nendif\nmov oC0, c0\n");
    refused("ps_3_0\nif c0.x, c1.x\nendif\nmov oC0, c0\n", 2, 8, "comparisons");
}

/// An empty write mask (`r0.`, how Microsoft's disassembler prints a mask of no
/// components) is a syntax error to D3DAssemble, at the `,` (X2000)
/// [rules/forms/empty-mask].
#[test]
fn empty_write_mask() {
    refused("vs_2_0\nmov r0., c0\nmov oPos, c0\n", 2, 8, "write masks");
}

/// The address register: D3DAssemble's assembler reads any register of the version in
/// an index from vs_2_0 (`c0[r1.x]`; the validator refuses it), `aL` only where the
/// version has it [rules/forms/index-r, index-i, relative/c-aL-outside-loop].
#[test]
fn address_registers() {
    accepted("vs_2_0\nmov r1, c0\nmov r0, c0[r1.x]\nmov oPos, r0\n");
    accepted("vs_3_0\ndcl_position o0\ndefi i0, 1, 0, 0, 0\nmov r0, c0[i0.x]\nmov o0, r0\n");
    refused("ps_3_0\ndefi i0, 1, 0, 0, 0\nmov r0, c0[i0.x]\nmov oC0, r0\n", 3, 9, "are not indexed in ps_3_0");
}

/// The validator's register tables (`validate::d3d9::profile`, the register pages with
/// the device's counts) never allow a register the assembler's tables refuse: every
/// file a profile's validator table has, the assembler's table of that version has,
/// with at least as many registers (so a program refused by the assembler is never one
/// the validator alone would be tested on for that rule).
#[test]
fn validator_register_files_are_within_the_assemblers() {
    use validate::d3d9::profile::{registers, RegFile as F};
    let caps = validate::Caps9::default();
    for p in d3dbc::Profile::ALL {
        let name = p.name();
        let Some(asm) = d3dbc::rules::data::version(name) else { panic!("no assembler table for {name}") };
        for rule in registers(*p) {
            let file = match rule.file {
                F::Temp => "r",
                F::Input => "v",
                F::Const => "c",
                F::Addr => "a",
                F::ConstInt => "i",
                F::ConstBool => "b",
                F::Loop => "aL",
                F::Predicate => "p",
                F::Sampler => "s",
                F::Texture => "t",
                F::Output => "o",
                F::Position => "oPos",
                F::Fog => "oFog",
                F::PointSize => "oPts",
                F::ColorOutVs => "oD",
                F::TexCoordOut => "oT",
                F::ColorOut => "oC",
                F::Depth => "oDepth",
                F::Face => "vFace",
                F::PixelPos => "vPos",
                F::Label => "l",
            };
            let a = asm.register(file).unwrap_or_else(|| panic!("{name}: the validator has {file}, the assembler not"));
            assert!(
                rule.count(&caps) <= a.count,
                "{name}: the validator allows {} `{file}`, the assembler {}",
                rule.count(&caps),
                a.count
            );
        }
    }
}

proptest::proptest! {
    /// Any text, parsed or not, beside any parsed program: `check` answers, never
    /// panics (the text a caller passes may not be the parsed one).
    #[test]
    fn check_never_panics(text in "(vs_2_0|ps_1_4|ps_3_0|vs_3_0)\n([ +(),.\\[\\]_!0-9a-zA-Zé;/-]{0,40}\n){0,6}") {
        if let Ok(p) = parse_program(&text) {
            let _ = d3dbc::rules::check(&p, &text);
        }
        let p = parse_program("ps_1_4\nadd_x2 r0, 1 - c0, c1_bias\n+mov r0.a, c1\ntexld r1, t0_dz\n").unwrap();
        let _ = d3dbc::rules::check(&p, &text);
    }
}

/// The rules decide on the parsed program, the text only places the errors: text that
/// does not show the operands (a macro a preprocessor expanded) gives no error of its
/// own, and loses none.
#[test]
fn rules_decide_on_the_parsed_program() {
    let p = parse_program("vs_1_1\nmov oPos, s0\n").unwrap();
    for text in ["vs_1_1\nmov OUT, SAMPLER\n", "vs_1_1\nMOVE_IT\n", ""] {
        let e = d3dbc::rules::check(&p, text);
        assert!(e.len() == 1 && e[0].line == 2 && e[0].message.contains("`s0` is not a register of vs_1_1"), "{e:#?}");
    }
    let p = parse_program("ps_2_0\nmov r0, c0\nmov oC0, r0\n").unwrap();
    assert!(d3dbc::rules::check(&p, "ps_2_0\nmov R, C\nmov OUT, R\n").is_empty());
    let p = parse_program("ps_2_0\nmov r0.rgb, c0\n+mov r0.a, c1\nmov oC0, r0\n").unwrap();
    let e = d3dbc::rules::check(&p, "ps_2_0\nA\nB\nC\n");
    assert!(e.len() == 1 && e[0].line == 3 && e[0].message.contains("co-issue"), "{e:#?}");
}

/// A rule broken before the line the grammar refuses is reported too, first, as
/// `D3DAssemble` reports it (asm-rules.dxo, `rules/forms/index-i/ps_1_1`: X2000 at 2:1,
/// then X2005 at 3:12).
#[test]
fn rules_before_a_grammar_error_are_reported() {
    let text = "ps_1_1\ndefi i0, 1, 0, 0, 0\nmov r0, c0[i0.x]\nmov r0, v0\n";
    let at: Vec<(usize, usize)> = d3dbc::rules::check_listing(text).iter().map(|d| (d.line, d.column)).collect();
    assert_eq!(at.first(), Some(&(2, 1)), "{at:?}");
    assert!(at.iter().any(|&(l, _)| l == 3), "{at:?}");
    // A program that parses: the rules' errors alone.
    let at: Vec<(usize, usize)> = d3dbc::rules::check_listing("ps_1_1\ndefi i0, 1, 0, 0, 0\nmov r0, v0\n")
        .iter()
        .map(|d| (d.line, d.column))
        .collect();
    assert_eq!(at.first(), Some(&(2, 1)), "{at:?}");
}
