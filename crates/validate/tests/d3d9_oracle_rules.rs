//! Direct3D 9 rules D3DAssemble's validator applies (its recorded verdicts, in
//! the validator crate's `d3d9_asm_rules_oracle` test), each at its edge: accepted one step inside,
//! refused at the edge.

use validate::{validate, Code, Target};

fn codes(text: &str) -> Vec<Code> {
    let bytes = d3dbc::parse::assemble(text).unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{text}"));
    validate(&bytes, &Target::d3d9()).diagnostics.iter().map(|d| d.code).collect()
}

fn accepted(text: &str) {
    let c = codes(text);
    assert!(c.is_empty(), "expected valid:\n{text}\ngot {c:?}");
}

fn refused(text: &str, code: Code) {
    let c = codes(text);
    assert!(c.contains(&code), "expected {code}:\n{text}\ngot {c:?}");
}

// V929: dcl usage+index.

#[test]
fn a_vertex_input_semantic_is_declared_once() {
    accepted("vs_2_0\ndcl_position v0\ndcl_position1 v1\nmov oPos, v0\n");
    refused("vs_2_0\ndcl_position v0\ndcl_position v1\nmov oPos, v0\n", Code::D3d9DclUsage);
    // Inputs and outputs are separate sets in vs_3_0.
    accepted("vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n");
    refused("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_position v1\nmov o0, v0\n", Code::D3d9DclUsage);
}

#[test]
fn positiont0_and_tessfactor_are_not_vertex_inputs() {
    accepted("vs_1_1\ndcl_position v0\ndcl_positiont1 v1\nmov oPos, v0\n");
    refused("vs_1_1\ndcl_position v0\ndcl_positiont v1\nmov oPos, v0\n", Code::D3d9DclUsage);
    refused("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_tessfactor v1\nmov o0, v0\n", Code::D3d9DclUsage);
}

#[test]
fn pixel_inputs_take_no_psize0_positiont0_tessfactor_or_sample() {
    accepted("ps_3_0\ndcl_color v0\ndcl_psize1 v1\ndcl_positiont1 v2\nmov oC0, v0\n");
    for u in ["psize", "positiont", "tessfactor1", "sample"] {
        refused(&format!("ps_3_0\ndcl_color v0\ndcl_{u} v1\nmov oC0, v0\n"), Code::D3d9DclUsage);
    }
}

#[test]
fn a_ps_3_0_input_is_not_position0() {
    // A plain `dcl v1` declares usage 0 index 0 (position0): D3DAssemble's X5971, "dcl for
    // input v# register must specify usage+index".
    accepted("ps_3_0\ndcl_color v0\ndcl_position1 v1\nmov oC0, v0\n");
    for v in ["ps_3_0", "ps_3_sw"] {
        refused(&format!("{v}\ndcl_color v0\ndcl v1\nmov oC0, v0\n"), Code::D3d9DclUsage);
    }
    // ps_2_0 inputs are declared without a usage.
    accepted("ps_2_0\ndcl v0\nmov oC0, v0\n");
}

#[test]
fn a_tessfactor_output_is_index_0_x_and_sample_is_no_output() {
    accepted("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_tessfactor o1.x\nmov o0, v0\nmov o1.x, v0\n");
    refused("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_tessfactor1 o1.x\nmov o0, v0\n", Code::D3d9DclUsage);
    refused("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_tessfactor o1.xy\nmov o0, v0\n", Code::D3d9DclUsage);
    refused("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_sample1 o1\nmov o0, v0\n", Code::D3d9DclUsage);
}

// V923: reserved bits.

#[test]
fn only_a_sampler_dcl_has_a_texture_type() {
    // Bits 27-30 of the dcl token: a sampler's texture type, reserved elsewhere
    // (D3DAssemble's X5487, "Reserved bit(s) set in dcl info token").
    for v in ["ps_2_0", "ps_2_x", "ps_2_sw"] {
        accepted(&format!("{v}\ndcl v0\ndcl_2d s0\nmov oC0, v0\n"));
        refused(&format!("{v}\ndcl v0\ndcl_2d t0\nmov oC0, v0\n"), Code::D3d9Reserved);
        accepted(&format!("{v}\ndcl v0\ndcl t0\nmov oC0, v0\n"));
    }
}

// V906: the register counts D3DAssemble's validator applies.

#[test]
fn vertex_constants_reach_the_last_encodable_c8191() {
    for v in ["vs_1_1", "vs_2_0", "vs_3_0"] {
        let o = if v == "vs_3_0" { "dcl_position o0\nmov o0, v0\n" } else { "mov oPos, v0\n" };
        accepted(&format!("{v}\ndcl_position v0\n{o}mov r0, c8191\n"));
    }
    // A device with fewer constants (its MaxVertexShaderConst) still refuses past them.
    let bytes = d3dbc::parse::assemble("vs_2_0\ndcl_position v0\nmov oPos, v0\nmov r0, c256\n").unwrap();
    let caps = validate::Caps9 { vs_constants: 256, ..Default::default() };
    let r = validate::validate_with_d3d9_caps(&bytes, bytes.len(), &Target::d3d9(), &caps);
    assert!(r.diagnostics.iter().any(|d| d.code == Code::D3d9RegisterRange), "{:?}", r.diagnostics);
}

#[test]
fn ps_3_sw_has_fourteen_inputs() {
    accepted("ps_3_sw\ndcl_color v0\ndcl_texcoord v13\nmov r0, v13\nmov oC0, v0\n");
    refused("ps_3_sw\ndcl_color v0\ndcl_texcoord v14\nmov r0, v14\nmov oC0, v0\n", Code::D3d9RegisterRange);
    refused("ps_3_0\ndcl_color v0\ndcl_texcoord v10\nmov r0, v10\nmov oC0, v0\n", Code::D3d9RegisterRange);
}

// V909: the ps_1_1-ps_1_3 result shifts.

#[test]
fn x8_d4_d8_are_ps_1_4_only() {
    for m in ["x2", "x4", "d2"] {
        accepted(&format!("ps_1_3\nmov_{m} r0, c0\n"));
    }
    for m in ["x8", "d4", "d8"] {
        accepted(&format!("ps_1_4\nmov_{m} r0, c0\n"));
        refused(&format!("ps_1_3\nmov_{m} r0, c0\n"), Code::D3d9Modifier);
    }
}

// V926: a sampler is declared without modifiers; ps_1_x defines before instructions.

#[test]
fn a_sampler_dcl_takes_no_modifier() {
    accepted("ps_2_0\ndcl_2d s0\nmov oC0, c0\n");
    refused("ps_2_0\ndcl_2d_pp s0\nmov oC0, c0\n", Code::D3d9Dcl);
    refused("ps_3_0\ndcl_cube_centroid s0\nmov oC0, c0\n", Code::D3d9Dcl);
}

#[test]
fn ps_1_x_defines_before_its_instructions() {
    accepted("ps_1_4\ndef c1, 1, 0, 0, 0\nmov r0, c0\n");
    refused("ps_1_4\nmov r0, c0\ndef c1, 1, 0, 0, 0\n", Code::D3d9Dcl);
    refused("ps_1_1\nmov r0, c0\ndef c1, 1, 0, 0, 0\n", Code::D3d9Dcl);
}

// V905: def writes c#, defi i#, defb b#.

#[test]
fn definitions_write_their_own_register_file() {
    accepted("vs_2_0\ndef c0, 1, 0, 0, 0\ndefi i0, 1, 0, 0, 0\ndefb b0, true\ndcl_position v0\nmov oPos, v0\n");
    for d in ["def r0, 1, 0, 0, 0", "def i0, 1, 0, 0, 0", "defi c0, 1, 0, 0, 0", "defb c0, true", "defb i0, true"] {
        refused(&format!("vs_2_0\n{d}\ndcl_position v0\nmov oPos, v0\n"), Code::D3d9RegisterType);
    }
}

// V905 / V922: vFace, s# and a0 operands.

#[test]
fn vface_is_read_by_the_comparisons_and_cmp_only() {
    accepted("ps_3_0\ndcl vFace\ndef c0, 0, 1, 0, 0\nif_gt vFace, c0.x\nendif\nmov oC0, c0\n");
    accepted("ps_3_0\ndcl vFace\ndef c0, 0, 1, 0, 0\ncmp r0, vFace, c0.x, c0.y\nmov oC0, r0\n");
    refused("ps_3_0\ndcl vFace\ndef c0, 0, 1, 0, 0\ncmp r0, c0.x, vFace, c0.y\nmov oC0, r0\n", Code::D3d9RegisterType);
    refused("ps_3_0\ndcl vFace\nmov r0, vFace\nmov oC0, r0\n", Code::D3d9RegisterType);
}

#[test]
fn a_sampler_is_read_by_texld_only() {
    accepted("ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n");
    refused("ps_2_0\ndcl_2d s0\nmov r0, s0\nmov oC0, c0\n", Code::D3d9RegisterType);
}

#[test]
fn from_vs_2_0_only_mova_writes_a0() {
    accepted("vs_1_1\ndcl_position v0\nmov a0.x, c0.x\nmov oPos, v0\n");
    accepted("vs_2_0\ndcl_position v0\nmova a0.x, c0.x\nmov oPos, v0\n");
    refused("vs_2_0\ndcl_position v0\nmov a0.x, c0.x\nmov oPos, v0\n", Code::D3d9RegisterType);
}

// V907 / V925: vs_3_0 input relative addressing; bem and frc operands.

#[test]
fn vs_3_0_inputs_are_indexed_by_al_only() {
    let head = "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord v1\ndefi i0, 1, 0, 0, 0\n";
    accepted(&format!("{head}loop aL, i0\nmov r0, v0[aL]\nendloop\nmov o0, v0\n"));
    refused(&format!("{head}mova a0.x, c0.x\nmov r0, v0[a0.x]\nmov o0, v0\n"), Code::D3d9RelativeAddressing);
}

#[test]
fn bem_reads_a_temporary_second() {
    accepted("ps_1_4\ntexld r1, t0\ntexld r2, t1\nbem r0.rg, r1, r2\n");
    refused("ps_1_4\ntexld r1, t0\nbem r0.rg, r1, c0\n", Code::D3d9Operands);
}

#[test]
fn vs_1_1_frc_writes_y_or_xy() {
    for m in [".y", ".xy"] {
        accepted(&format!("vs_1_1\ndcl_position v0\nfrc r0{m}, v0\nmov oPos, v0\n"));
    }
    refused("vs_1_1\ndcl_position v0\nfrc r0, v0\nmov oPos, v0\n", Code::D3d9Operands);
    accepted("vs_2_0\ndcl_position v0\nfrc r0, v0\nmov oPos, v0\n");
}

// V909: ps_1_4's _dz / _dw.

#[test]
fn divide_modifiers_on_texld_and_texcrd_only() {
    accepted("ps_1_4\ntexcrd r1.rgb, t0\nphase\ntexld r0, r1_dz\n");
    refused("ps_1_4\ntexld r0, t0_dw\n", Code::D3d9Modifier);
    refused("ps_1_4\ntexld r0, t0_dz\n", Code::D3d9Modifier);
    refused("ps_1_4\ntexcrd r0.rgb, t0_dz\n", Code::D3d9Modifier);
    refused("ps_1_4\nmov r1, c0\nmov r0, r1_dz\n", Code::D3d9Modifier);
}

// V905: ps_2_0 writes each oC# once, without gaps.

#[test]
fn ps_2_0_writes_each_color_once_without_gaps() {
    accepted("ps_2_0\nmov oC0, c0\nmov oC1, c0\n");
    refused("ps_2_0\nmov oC0, c0\nmov oC0, c1\n", Code::D3d9RegisterType);
    refused("ps_2_0\nmov oC0, c0\nmov oC2, c0\n", Code::D3d9RegisterType);
    // ps_2_x has neither rule in D3DAssemble's verdicts.
    accepted("ps_2_x\nmov oC0, c0\nmov oC0, c1\n");
}

// V913: the highest label number.

#[test]
fn label_numbers_reach_2047_in_ps_2_x_and_15_in_vs_2_sw() {
    let prog = |v: &str, l: u32| {
        let (head, tail) =
            if v.starts_with("vs") { ("dcl_position v0\n", "mov oPos, v0\n") } else { ("", "mov oC0, c0\n") };
        format!("{v}\n{head}call l{l}\n{tail}ret\nlabel l{l}\nret\n")
    };
    accepted(&prog("ps_2_x", 2047));
    accepted(&prog("vs_2_sw", 15));
    refused(&prog("vs_2_sw", 16), Code::D3d9Subroutine);
    refused(&prog("vs_2_0", 16), Code::D3d9Subroutine);
}

// V925: no dependent read inside a ps_1_4 block of texture instructions.

#[test]
fn ps_1_4_texture_block_has_no_dependent_read() {
    accepted("ps_1_4\ntexcrd r5.rgb, t0\nphase\ntexdepth r5\n");
    accepted("ps_1_4\ntexcrd r1.rgb, t0\nphase\ntexld r0, r1\n");
    refused("ps_1_4\ntexcrd r5.rgb, t0\ntexdepth r5\n", Code::D3d9Operands);
    refused("ps_1_4\ntexcrd r1.rgb, t0\ntexld r0, r1\n", Code::D3d9Operands);
}

// V930: the phase marker loses the alpha of every r# (the phase - ps page; D3DAssemble's
// X5119 "Read of uninitialized component ... In order to read alpha from an r# register
// after the phase marker, write to it first").

#[test]
fn ps_1_4_alpha_of_r_is_lost_at_phase() {
    // The recorded case: r1 written in the first phase, read whole after it.
    refused("ps_1_4\ntexld r1, t0\nphase\nmov r0, r1\n", Code::D3d9PhaseAlpha);
    // Its colour survives; only alpha is lost.
    accepted("ps_1_4\ntexld r1, t0\nphase\nmov r0.rgb, r1\nmov r0.a, c0\n");
    // Alpha written again after the phase may be read.
    accepted("ps_1_4\ntexld r1, t0\nphase\nmov r1.a, c0\nmov r0, r1\n");
    // A replicated alpha read by one component, and dp4, read it too; dp3 does not.
    refused("ps_1_4\ntexld r1, t0\nphase\nmov r0.rgb, c0\nmov r0.a, r1.a\n", Code::D3d9PhaseAlpha);
    refused("ps_1_4\ntexld r1, t0\nphase\ndp4 r0, r1, c0\n", Code::D3d9PhaseAlpha);
    accepted("ps_1_4\ntexld r1, t0\nphase\ndp3 r0, r1, c0\n");
    // Before the phase nothing is lost.
    accepted("ps_1_4\ntexld r1, t0\nmov r0, r1\n");
}

#[test]
fn ps_1_4_colour_half_of_a_coissued_pair_reads_and_writes_no_alpha() {
    // The colour half (mask not `.a`) of a pair runs in the colour pipe: r, g, b only.
    accepted("ps_1_4\ntexld r0, t0\nphase\nmul r0, r0, c1\n+mov r0.a, c0.a\n");
    refused("ps_1_4\ntexld r0, t0\nphase\nmul r0, r0, c1\n", Code::D3d9PhaseAlpha);
    // It writes no alpha either: r0.a is still lost after the pair.
    refused("ps_1_4\ntexld r0, t0\nphase\nmul r0, r0, c1\n+mov r2.a, c0.a\nmov r3, r0\n", Code::D3d9PhaseAlpha);
    // A replicated alpha it reads is read all the same, and so is the alpha half's.
    refused("ps_1_4\ntexld r1, t0\nphase\nmul r0.rgb, c0, r1.a\n+mov r0.a, c0\n", Code::D3d9PhaseAlpha);
    refused("ps_1_4\ntexld r1, t0\nphase\nmul r0.rgb, c0, c1\n+mov r0.a, r1.a\n", Code::D3d9PhaseAlpha);
    // A register read in a pair keeps its lost alpha for later reads.
    refused("ps_1_4\ntexld r1, t0\nphase\nmul r0, r1, c1\n+mov r0.a, c0.a\nmov r2, r1\n", Code::D3d9PhaseAlpha);
}
