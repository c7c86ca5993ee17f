//! The Direct3D 9 rules beyond the profile tables of `d3d9_profiles`: each at its edge,
//! accepted and refused, on programs assembled from text (`d3dbc::parse::assemble`
//! encodes well-formed programs that break rules, with warnings).

use validate::{validate, Code, Location, Target};

fn report(text: &str) -> validate::Report {
    let bytes = d3dbc::parse::assemble(text).unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{text}"));
    validate(&bytes, &Target::d3d9())
}

fn report_bytes(bytes: &[u8]) -> validate::Report {
    validate(bytes, &Target::d3d9())
}

/// The program is refused with `code` at instruction `index`, and the message holds `needle`.
fn refused_with(text: &str, code: Code, index: usize, needle: &str) {
    let r = report(text);
    let hit = r.diagnostics.iter().any(|d| {
        d.code == code
            && matches!(d.location, Location::Instruction { index: i, .. } if i == index)
            && d.message.contains(needle)
    });
    assert!(hit, "expected {code} at instruction {index} ({needle:?}) for\n{text}\ngot {:#?}", r.diagnostics);
}

fn valid(text: &str) {
    let r = report(text);
    assert!(r.is_valid(), "expected valid:\n{text}\ngot {:#?}", r.diagnostics);
}

fn count(text: &str, code: Code) -> usize {
    report(text).diagnostics.iter().filter(|d| d.code == code).count()
}

// ---------------------------------------------------------------------------------
// V921: aL only inside a loop block.

#[test]
fn al_inside_a_loop_is_accepted() {
    valid("vs_3_0\ndcl_position v0\ndcl_position o0\nloop aL, i0\nadd r0, v0, c0[aL]\nendloop\nmov o0, r0\n");
    valid("vs_2_0\nloop aL, i0\nmov r0, c0[aL]\nendloop\n");
    // Nested in a rep inside the loop: aL is the loop's.
    valid("vs_3_0\nloop aL, i0\nrep i1\nmov r0, c0[aL]\nendrep\nendloop\n");
    valid("ps_3_0\ndcl_texcoord v0\nloop aL, i0\nadd r0, r0, v0[aL]\nendloop\nmov oC0, r0\n");
}

#[test]
fn al_outside_a_loop_is_refused() {
    refused_with("vs_2_0\nmov r0, c0[aL]\n", Code::D3d9LoopCounter, 0, "outside a loop");
    // After the loop closed.
    refused_with("vs_3_0\nloop aL, i0\nendloop\nmov r0, c0[aL]\n", Code::D3d9LoopCounter, 2, "main program");
    // Inside a rep only.
    refused_with("vs_3_0\nrep i0\nmov r0, c0[aL]\nendrep\n", Code::D3d9LoopCounter, 1, "outside a loop");
    // As the index of an output.
    refused_with("vs_3_0\ndcl_texcoord o0\nmov o0[aL], c0\n", Code::D3d9LoopCounter, 1, "outside a loop");
    refused_with("ps_3_0\ndcl_texcoord v0\nmov r0, v0[aL]\n", Code::D3d9LoopCounter, 1, "outside a loop");
    // One report per read.
    assert_eq!(count("vs_2_0\nmov r0, c0[aL]\nmov r1, c1[aL]\n", Code::D3d9LoopCounter), 2);
}

#[test]
fn al_in_a_subroutine_depends_on_its_calls() {
    // Called from inside a loop only: accepted.
    valid("vs_3_0\nloop aL, i0\ncall l1\nendloop\nret\nlabel l1\nmov r0, c0[aL]\nret\n");
    // Through a second subroutine that is itself called from a loop only.
    valid("vs_3_0\nloop aL, i0\ncall l1\nendloop\nret\nlabel l1\ncall l2\nret\nlabel l2\nmov r0, c0[aL]\nret\n");
    // Called from outside a loop as well: refused at the read.
    refused_with(
        "vs_3_0\nloop aL, i0\ncall l1\nendloop\ncall l1\nret\nlabel l1\nmov r0, c0[aL]\nret\n",
        Code::D3d9LoopCounter,
        6,
        "subroutine l1",
    );
    // Never called.
    refused_with("vs_3_0\nret\nlabel l1\nmov r0, c0[aL]\nret\n", Code::D3d9LoopCounter, 2, "subroutine l1");
    // Inside a loop of the subroutine itself: accepted whatever the calls.
    valid("vs_3_0\ncall l1\nret\nlabel l1\nloop aL, i0\nmov r0, c0[aL]\nendloop\nret\n");
}

// ---------------------------------------------------------------------------------
// V922: replicate swizzles.

#[test]
fn comparisons_in_flow_control_need_replicate_swizzles() {
    valid("vs_3_0\nif_gt c0.x, r1.y\nendif\n");
    valid("ps_3_0\nif_lt r0.w, c1.z\nendif\nmov oC0, c0\n");
    valid("vs_3_0\nrep i0\nbreak_ge c0.z, r1.z\nendrep\n");
    refused_with("vs_3_0\nif_gt c0, r1.x\nendif\n", Code::D3d9Replicate, 0, "operand 0 of `if_gt` has swizzle .xyzw");
    refused_with("vs_3_0\nif_gt c0.x, r1.xy\nendif\n", Code::D3d9Replicate, 0, "operand 1");
    refused_with("ps_3_0\nrep i0\nbreak_ne c0.x, r1.yxzw\nendrep\n", Code::D3d9Replicate, 1, "operand 1 of `break_ne`");
    refused_with("vs_2_x\nrep i0\nbreak_eq c0.xy, r1.x\nendrep\n", Code::D3d9Replicate, 1, "operand 0");
}

#[test]
fn predicate_operands_need_replicate_swizzles() {
    valid("vs_3_0\nsetp_gt p0, c0, r1\nif p0.z\nendif\n");
    valid("vs_3_0\nsetp_gt p0, c0, r1\nrep i0\nbreakp !p0.w\nendrep\n");
    valid("vs_3_0\nsetp_gt p0, c0, r1\ncallnz l0, p0.y\nret\nlabel l0\nret\n");
    refused_with("vs_3_0\nsetp_gt p0, c0, r1\nif p0\nendif\n", Code::D3d9Replicate, 1, "operand 0 of `if`");
    refused_with(
        "ps_3_0\nsetp_gt p0, c0, r1\nrep i0\nbreakp p0.xy\nendrep\nmov oC0, c0\n",
        Code::D3d9Replicate,
        2,
        "breakp",
    );
    refused_with(
        "vs_3_0\nsetp_gt p0, c0, r1\ncallnz l0, p0.xyzw\nret\nlabel l0\nret\n",
        Code::D3d9Replicate,
        1,
        "operand 1 of `callnz`",
    );
    // setp itself compares per component: any swizzle.
    valid("vs_3_0\nsetp_gt p0, c0.yxwz, r1\n");
}

#[test]
fn a0_is_read_through_one_component() {
    valid("vs_2_0\nmova a0.x, c0.x\nmov r0, c1[a0.x]\n");
    valid("vs_2_0\nmova a0, c0\nmov r0, c1[a0.w]\n");
    refused_with("vs_2_0\nmova a0, c0\nmov r0, c1[a0.xy]\n", Code::D3d9Replicate, 1, "the a0 of a relative address");
}

// ---------------------------------------------------------------------------------
// V923: reserved bits.

fn words(text: &str) -> Vec<u32> {
    let bytes = d3dbc::parse::assemble(text).unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{text}"));
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// `text` with token `token` XORed with `bits`: refused with V923 whose message holds
/// `needle` (and nothing else is wrong), or accepted when `needle` is `None`.
fn flipped(text: &str, token: usize, bits: u32, needle: Option<&str>) {
    let mut w = words(text);
    assert!(report_bytes(&bytes_of(&w)).is_valid(), "the unflipped program is valid: {text}");
    w[token] ^= bits;
    let r = report_bytes(&bytes_of(&w));
    match needle {
        None => assert!(r.is_valid(), "token {token} ^ {bits:#x} of\n{text}\nexpected valid, got {:#?}", r.diagnostics),
        Some(n) => {
            assert!(
                !r.diagnostics.is_empty()
                    && r.diagnostics.iter().all(|d| d.code == Code::D3d9Reserved)
                    && r.diagnostics.iter().any(|d| d.message.contains(n)),
                "token {token} ^ {bits:#x} of\n{text}\nexpected V923 ({n:?}), got {:#?}",
                r.diagnostics
            );
        }
    }
}

#[test]
fn reserved_bits_of_the_instruction_token() {
    let mov = "vs_2_0\nmov r0, c0\n";
    // Tokens: version, mov, dst, src, end.
    flipped(mov, 1, 1 << 29, Some("instruction token bits 0x20000000"));
    flipped(mov, 1, 1 << 31, Some("instruction token bits 0x80000000"));
    flipped(mov, 1, 1 << 30, Some("co-issue"));
    flipped(mov, 1, 1 << 16, Some("controls"));
    flipped(mov, 1, 1 << 23, Some("controls (bits 16-23) 0x80"));
    flipped("ps_2_0\nmov oC0, c0\n", 1, 1 << 30, Some("co-issue exists in ps_1_1 to ps_1_4 only"));
    // Shader Model 1: bits 24-28 too (no length, no predicate).
    flipped("vs_1_1\nmov r0, c0\n", 1, 1 << 24, Some("0x01000000"));
    flipped("vs_1_1\nmov r0, c0\n", 1, 1 << 28, Some("0x10000000"));
    // ps_1_x co-issue is the format's.
    valid("ps_1_1\ntex t0\nmov r0.rgb, t0\n+mov r0.a, t0\n");
}

#[test]
fn comparison_and_texld_controls() {
    // if_gt c0.x, r1.x: the comparison is 1..6.
    let ifc = "vs_3_0\nif_gt c0.x, r1.x\nendif\n";
    let w = words(ifc);
    let gt = (w[1] >> 16) & 7;
    flipped(ifc, 1, gt << 16, Some("controls (bits 16-23) 0x00")); // comparison 0
    flipped(ifc, 1, (gt ^ 7) << 16, Some("0x07")); // comparison 7
                                                   // texld: texldp (1) and texldb (2) in pixel 2.0+, not both.
    let tex = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n";
    let at = 1 + 3 + 3; // version, dcl (3 tokens), dcl (3 tokens)
    flipped(tex, at, 1 << 16, None);
    flipped(tex, at, 2 << 16, None);
    flipped(tex, at, 3 << 16, Some("0x03"));
    flipped(tex, at, 4 << 16, Some("0x04"));
}

#[test]
fn reserved_bits_of_parameter_and_dcl_tokens() {
    let mov = "vs_2_0\nmov r0, c0\n";
    flipped(mov, 2, 1 << 14, Some("destination token: bits 0x00004000"));
    flipped(mov, 3, 1 << 15, Some("source token: bits 0x00008000"));
    flipped(mov, 3, 1 << 31, Some("source token: bit 31 is 0"));
    flipped(mov, 2, 1 << 31, Some("destination token: bit 31 is 0"));
    // Relative-addressing token: bits 13-15.
    let rel = "vs_2_0\nmova a0.x, c0.x\nmov r0, c1[a0.x]\n";
    // version, mova (3), mov, dst, src, addr
    flipped(rel, 7, 1 << 13, Some("relative-addressing token of the source"));
    // dcl token (after the dcl instruction token): bits 5-15 and 20-26.
    let dcl = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    flipped(dcl, 2, 1 << 5, Some("dcl token: bits 0x00000020"));
    flipped(dcl, 2, 1 << 26, Some("dcl token: bits 0x04000000"));
    flipped(dcl, 2, 1 << 31, Some("dcl token: bit 31 is 0"));
}

#[test]
fn reserved_bit_of_a_comment_token() {
    let mut w = words("vs_2_0\nmov r0, c0\n");
    // A one-token comment after the version.
    w.splice(1..1, [0x0001_fffe, 0x1234_5678]);
    assert!(report_bytes(&bytes_of(&w)).is_valid());
    w[1] |= 1 << 31;
    let r = report_bytes(&bytes_of(&w));
    assert_eq!(r.diagnostics.len(), 1, "{:#?}", r.diagnostics);
    assert_eq!(r.diagnostics[0].code, Code::D3d9Reserved);
    assert!(matches!(r.diagnostics[0].location, Location::Byte { offset: 4 }), "{:?}", r.diagnostics[0].location);
}

// ---------------------------------------------------------------------------------
// V924: read ports.

#[test]
fn one_constant_read_port() {
    valid("vs_1_1\nadd r0, c0, c0.x\n");
    valid("vs_1_1\nmad r0, c0, r1, c0.y\n");
    refused_with("vs_1_1\nadd r0, c0, c1\n", Code::D3d9ReadPorts, 0, "reads 2 different c# registers (c0, c1)");
    refused_with("vs_1_1\nmad r0, c0, r1, c2\n", Code::D3d9ReadPorts, 0, "c# has 1 read port in vs_1_1");
    // The pages give c# one read port in 2_0-3_0 as well.
    for p in ["vs_2_0", "vs_3_0", "ps_2_0", "ps_3_0"] {
        assert_eq!(
            validate::d3d9::profile::read_ports(d3dbc::Profile::from_name(p).unwrap())
                .iter()
                .find(|x| x.0 == validate::d3d9::profile::RegFile::Const)
                .map(|x| x.1),
            Some(1),
            "{p}"
        );
    }
    refused_with("vs_2_0\nadd r0, c0, c1\n", Code::D3d9ReadPorts, 0, "c# has 1 read port in vs_2_0");
    refused_with("ps_3_0\nadd r0, c0, c1\nmov oC0, r0\n", Code::D3d9ReadPorts, 0, "c# has 1 read port in ps_3_0");
    valid("vs_3_0\nmad r0, c0.x, c0.y, c0\n");
    // No limit in the software profiles.
    valid("vs_2_sw\ndcl_position v0\ndcl_normal v1\nadd r0, v0, v1\n");
    valid("ps_3_sw\ndcl_texcoord v0\ndcl_color v1\nadd r0, v0, v1\nmov oC0, r0\n");
}

#[test]
fn three_temporary_read_ports_and_one_input_port() {
    valid("vs_2_0\nmad r0, r1, r2, r3\n");
    valid("vs_3_0\ndcl_position v0\nmad r0, v0, v0.x, r1\n");
    refused_with(
        "vs_3_0\ndcl_position v0\ndcl_normal v1\nadd r0, v0, v1\n",
        Code::D3d9ReadPorts,
        2,
        "v# has 1 read port",
    );
    refused_with("vs_1_1\ndcl_position v0\ndcl_normal v1\nadd r0, v0, v1\n", Code::D3d9ReadPorts, 2, "v0, v1");
    refused_with("ps_2_0\ndcl t0\ndcl t1\nadd r0, t0, t1\nmov oC0, r0\n", Code::D3d9ReadPorts, 2, "t# has 1 read port");
    refused_with("ps_2_0\ndcl v0\ndcl v1\nadd r0, v0, v1\nmov oC0, r0\n", Code::D3d9ReadPorts, 2, "v#");
    // texldd's three temporaries are within the three ports (the destination is not read).
    valid("ps_2_x\ndcl_2d s0\ntexldd r0, r1, s0, r2, r3\nmov oC0, r0\n");
    valid("ps_2_x\ndcl t0\ndcl_2d s0\ntexldd r0, t0, s0, r2, r3\nmov oC0, r0\n");
}

#[test]
fn pixel_1_x_read_ports() {
    // Two constants, two colors in ps_1_1-1_4 (the page's example: mad r0, v1, c2, v0).
    valid("ps_1_1\nmad r0, v1, c2, v0\n");
    valid("ps_1_1\nmad r0, c0, c1, v0\n");
    refused_with("ps_1_1\ndef c2, 0, 0, 0, 0\nmad r0, c0, c1, c2\n", Code::D3d9ReadPorts, 1, "2 read ports in ps_1_1");
    // Texture registers: 2 in ps_1_1, 3 in ps_1_2.
    refused_with("ps_1_1\ntex t0\ntex t1\ntex t2\nmad r0, t0, t1, t2\n", Code::D3d9ReadPorts, 3, "t# has 2 read ports");
    valid("ps_1_2\ntex t0\ntex t1\ntex t2\nmad r0, t0, t1, t2\n");
    // Temporaries: 3 in ps_1_4 (ps_1_1-1_3 have two temporaries, within their two ports).
    valid("ps_1_4\ntexld r0, t0\ntexld r1, t1\ntexld r2, t2\nmad r0, r0, r1, r2\n");
}

#[test]
fn relative_reads_are_different_registers() {
    valid("vs_1_1\nmov a0.x, c0.x\nmul r0, c1[a0.x], c1[a0.x]\n");
    refused_with("vs_1_1\nmov a0.x, c0.x\nmul r0, c1[a0.x], c1\n", Code::D3d9ReadPorts, 1, "c1[rel], c1");
}

#[test]
fn sincos_constants_are_outside_the_port_count() {
    // sincos's Shader Model 2 constants are two different c# by definition.
    valid("vs_2_0\ndef c1, 1, 2, 3, 4\ndef c2, 1, 2, 3, 4\nsincos r0.xy, r1.x, c1, c2\n");
    // Its angle counts with the others of its file.
    refused_with("vs_3_0\ndcl_position v0\ndcl_normal v1\nsetp_gt p0, v0, v1\n", Code::D3d9ReadPorts, 2, "v#");
}

// ---------------------------------------------------------------------------------
// V925: operand restrictions of the instruction pages.

#[test]
fn matrix_instructions() {
    valid("vs_2_0\nm4x4 r0, r1, c0\n");
    valid("vs_2_0\nm4x3 r0.xyz, -r1.yxzw, c0\n");
    valid("vs_1_1\nm3x2 r0.xy, r1, c4\n");
    valid("ps_2_0\nm3x3 r0.xyz, r1, c0\nmov oC0, r0\n");
    // Masks.
    refused_with("vs_2_0\nm4x4 r0.xyz, r1, c0\n", Code::D3d9Operands, 0, "mask .xyz is not one of .xyzw");
    refused_with("vs_2_0\nm4x3 r0, r1, c0\n", Code::D3d9Operands, 0, "not one of .xyz");
    refused_with("vs_2_0\nm3x2 r0.xyz, r1, c0\n", Code::D3d9Operands, 0, "not one of .xy");
    refused_with("vs_2_0\nm3x4 r0.xy, r1, c0\n", Code::D3d9Operands, 0, "not one of .xyzw");
    // The matrix keeps .xyzw and is not negated.
    refused_with("vs_2_0\nm4x4 r0, r1, c0.yxzw\n", Code::D3d9Operands, 0, "source 1 has swizzle .yxzw");
    refused_with("vs_2_0\nm4x4 r0, r1, -c0\n", Code::D3d9Operands, 0, "source 1 may not be negated");
    // The destination is neither the vector nor a row.
    refused_with("vs_2_0\nm4x4 r1, r1, c0\n", Code::D3d9Operands, 0, "source 0 is the destination");
    refused_with("vs_2_0\nm3x3 r2.xyz, r0, r0\n", Code::D3d9Operands, 0, "row 2 of the matrix");
    valid("vs_2_0\nm3x3 r3.xyz, r5, r0\n");
    refused_with("ps_2_0\nm3x2 r1.xy, r5, r0\nmov oC0, r1\n", Code::D3d9Operands, 0, "row 1");
    valid("ps_2_0\nm3x2 r2.xy, r5, r0\nmov oC0, r2\n");
}

#[test]
fn sincos_operands() {
    let sm2 = "def c1, 1, 2, 3, 4\ndef c2, 1, 2, 3, 4\n";
    valid(&format!("vs_2_0\n{sm2}sincos r0.xy, r1.x, c1, c2\n"));
    valid(&format!("ps_2_0\n{sm2}sincos r0.y, r1.w, c1, c2\nmov oC0, r0\n"));
    valid("vs_3_0\nsincos r0.x, r1.z\n");
    refused_with("vs_3_0\nsincos r0.xyz, r1.z\n", Code::D3d9Operands, 0, "mask .xyz is not one of .x, .y, .xy");
    refused_with("vs_3_0\nsincos r0.xy, r1\n", Code::D3d9Operands, 0, "source 0 has swizzle .xyzw");
    refused_with("vs_3_0\ndcl_texcoord o0\nsincos o0.xy, r1.x\n", Code::D3d9Operands, 1, "temporary register");
    refused_with(&format!("vs_2_0\n{sm2}sincos r0.xy, r1.x, c1, c1\n"), Code::D3d9Operands, 2, "two different c#");
    refused_with(&format!("vs_2_0\n{sm2}sincos r0.xy, r1.x, r2, c2\n"), Code::D3d9Operands, 2, "constant registers");
}

#[test]
fn nrm_crs_pow_dp2add_texldl() {
    valid("vs_2_0\nnrm r0, r1\n");
    refused_with("vs_2_0\nnrm r1, r1\n", Code::D3d9Operands, 0, "source 0 is the destination");
    refused_with("vs_2_0\nnrm oT0, r1\n", Code::D3d9Operands, 0, "temporary register");
    valid("ps_2_0\ncrs r0.xyz, r1, r2\nmov oC0, r0\n");
    valid("vs_2_0\ncrs r0.xz, r1, c2\n");
    refused_with("vs_2_0\ncrs r0, r1, r2\n", Code::D3d9Operands, 0, "mask .xyzw is not one of");
    refused_with("vs_2_0\ncrs r0.xyz, r1.zxyw, r2\n", Code::D3d9Operands, 0, "source 0 has swizzle .zxyw");
    refused_with("vs_2_0\ncrs r2.xyz, r1, r2\n", Code::D3d9Operands, 0, "source 1 is the destination");
    valid("vs_2_0\npow r0, r1.x, c0.y\n");
    refused_with("vs_2_0\npow r0, r1, c0.y\n", Code::D3d9Operands, 0, "source 0 has swizzle .xyzw");
    valid("ps_2_0\ndp2add r0, r1, r2, c0.x\nmov oC0, r0\n");
    refused_with("ps_2_0\ndp2add r0, r1, r2, c0\nmov oC0, r0\n", Code::D3d9Operands, 0, "source 2");
    valid("vs_3_0\ndcl_2d s0\ntexldl r0, r1, s0\n");
    refused_with("vs_3_0\ndcl_2d s0\ndcl_texcoord o0\ntexldl o0, r1, s0\n", Code::D3d9Operands, 2, "temporary");
    // lrp, texldd, dsx, dsy: no restriction stated.
    valid("ps_2_x\nlrp r0, r0, r0, r0\ndsx r1, r1\ndsy r2, r2\nmov oC0, r0\n");
}

// ---------------------------------------------------------------------------------
// V926: declarations.

#[test]
fn dcl_before_the_first_executable_instruction() {
    valid("vs_2_0\ndef c0, 1, 2, 3, 4\ndcl_position v0\nadd r0, v0, c0\n");
    refused_with(
        "vs_2_0\ndcl_position v0\nmov r0, v0\ndcl_normal v1\n",
        Code::D3d9Dcl,
        2,
        "after the first executable",
    );
    refused_with("ps_2_0\ndcl t0\nmov r0, t0\ndcl_2d s0\nmov oC0, r0\n", Code::D3d9Dcl, 2, "after the first");
}

#[test]
fn what_each_profile_declares() {
    // vs_1_1 to vs_2_sw: v# only.
    valid("vs_1_1\ndcl_texcoord3 v2\nmov oT0, v2\n");
    refused_with("vs_2_0\ndcl_texcoord oT0\nmov oT0, c0\n", Code::D3d9Dcl, 0, "oT# cannot be declared");
    // vs_3_0: o# with a usage, s# with a sampler type.
    valid("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord2 o1.xy\ndcl_volume s1\nmov o0, v0\nmov o1.xy, v0\n");
    // ps_2_0: v#, t# without a usage; s#.
    valid("ps_2_0\ndcl v0\ndcl t7\ndcl_cube s3\nmov oC0, v0\n");
    refused_with(
        "ps_2_0\ndcl_texcoord1 t0\nmov oC0, t0\n",
        Code::D3d9Dcl,
        0,
        "declared without a usage (usage 5 index 1",
    );
    // ps_3_0: v# with semantics, vFace, vPos.xy.
    valid("ps_3_0\ndcl_texcoord1 v0.xy\ndcl_color v1\ndcl vFace\ndcl vPos.xy\nmov oC0, v1\n");
    refused_with("ps_3_0\ndcl vPos\nmov oC0, c0\n", Code::D3d9Dcl, 0, "vPos is declared .x, .y or .xy, not .xyzw");
}

#[test]
fn sampler_types_and_usages() {
    // The assembler writes `dcl_2d s0`; rewrite its type bits (27-30) of the dcl token.
    let text = "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n";
    let w = words(text);
    let token = 1 + 3 + 1; // version, dcl t0 (3 tokens), the dcl instruction of s0
    for (ty, ok) in [(0u32, false), (1, false), (2, true), (3, true), (4, true), (5, false)] {
        let mut w = w.clone();
        w[token] = (w[token] & !(0xf << 27)) | ty << 27;
        let r = report_bytes(&bytes_of(&w));
        let refused = r.diagnostics.iter().any(|d| d.code == Code::D3d9Dcl && d.message.contains("sampler type"));
        assert_eq!(!refused, ok, "type {ty}: {:#?}", r.diagnostics);
    }
    // A usage beyond D3DDECLUSAGE (14).
    let text = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    let mut w = words(text);
    w[2] = (w[2] & !0x1f) | 14;
    let r = report_bytes(&bytes_of(&w));
    assert!(
        r.diagnostics.iter().any(|d| d.code == Code::D3d9Dcl && d.message.contains("usage 14")),
        "{:#?}",
        r.diagnostics
    );
}

#[test]
fn semantics_once_and_full_masks() {
    refused_with(
        "ps_3_0\ndcl_texcoord1 v0.xy\ndcl_texcoord1 v1\nmov oC0, v1\n",
        Code::D3d9Dcl,
        1,
        "the semantic texcoord1 is declared twice",
    );
    valid("ps_3_0\ndcl_texcoord1 v0.xy\ndcl_texcoord0 v0.zw\nmov oC0, v0\n");
    refused_with("vs_3_0\ndcl_position o0.xyz\nmov o0.xyz, c0\n", Code::D3d9Dcl, 0, "all four components, not .xyz");
    refused_with("vs_3_0\ndcl_psize o1.x\nmov o1.x, c0\n", Code::D3d9Dcl, 0, "psize output");
    refused_with("vs_3_0\ndcl_color o0\ndcl_color o1\nmov o0, c0\n", Code::D3d9Dcl, 1, "color0 is declared twice");
}

#[test]
fn texld_operands_in_ps_2_0_and_ps_2_x() {
    let head = "dcl t0\ndcl_2d s0\n";
    for p in ["ps_2_0", "ps_2_x"] {
        valid(&format!("{p}\n{head}texld r0, t0, s0\nmov oC0, r0\n"));
        valid(&format!("{p}\n{head}mov r1, t0\ntexldp r0, r1, s0\nmov oC0, r0\n"));
        refused_with(&format!("{p}\n{head}texld r0.xy, t0, s0\nmov oC0, r0\n"), Code::D3d9Operands, 2, "mask .xy");
        refused_with(
            &format!("{p}\n{head}texld r0, t0.yxzw, s0\nmov oC0, r0\n"),
            Code::D3d9Operands,
            2,
            "source 0 has swizzle",
        );
        refused_with(
            &format!("{p}\n{head}texld r0, -t0, s0\nmov oC0, r0\n"),
            Code::D3d9Operands,
            2,
            "source 0 takes no source modifier",
        );
        refused_with(
            &format!("{p}\n{head}texldb r0, c0, s0\nmov oC0, r0\n"),
            Code::D3d9Operands,
            2,
            "source 0 must be t# or r#, not c#",
        );
        refused_with(
            &format!("{p}\n{head}texld r0, t0, s0.x\nmov oC0, r0\n"),
            Code::D3d9Operands,
            2,
            "source 1 has swizzle",
        );
    }
    // ps_3_0: swizzles allowed; the sampler takes no modifier.
    valid("ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexld r0.xy, v0.yxzw, s0.x\nmov oC0, r0\n");
    refused_with(
        "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexld r0, v0, -s0\nmov oC0, r0\n",
        Code::D3d9Operands,
        2,
        "source 1 takes no",
    );
}

#[test]
fn sat_and_centroid_by_instruction() {
    valid("ps_2_0\nadd_sat r0, c0, c0\nmov oC0, r0\n");
    refused_with("ps_2_0\nfrc_sat r0, c0\nmov oC0, r0\n", Code::D3d9Modifier, 0, "_sat is not allowed on frc");
    refused_with(
        "ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexld_sat r0, v0, s0\nmov oC0, r0\n",
        Code::D3d9Modifier,
        2,
        "tex* instructions",
    );
    valid("ps_3_0\ndcl_texcoord v0\ndcl_2d s0\ntexld_centroid r0, v0, s0\nmov oC0, r0\n");
    valid("ps_3_0\ndcl_texcoord_centroid v0\nmov oC0, v0\n");
    refused_with("ps_3_0\nadd_centroid r0, c0, c0\nmov oC0, r0\n", Code::D3d9Modifier, 0, "_centroid applies to dcl");
}

#[test]
fn predicated_sincos_in_shader_model_2() {
    let sm2 = "def c1, 1, 2, 3, 4\ndef c2, 1, 2, 3, 4\nmov r1, c0\nsetp_gt p0, c0, r3\n";
    valid(&format!("vs_2_x\n{sm2}(p0.x) sincos r0.xy, r1.x, c1, c2\n"));
    refused_with(
        &format!("vs_2_x\n{sm2}(p0) sincos r0.xy, r1.x, c1, c2\n"),
        Code::D3d9Replicate,
        4,
        "predicate of `sincos`",
    );
    // vs_3_0: "without any restriction".
    valid("vs_3_0\nmov r1, c0\nsetp_gt p0, c0, r3\n(p0) sincos r0.xy, r1.x\n");
}

#[test]
fn a_register_declared_again_takes_other_components() {
    valid("vs_3_0\ndcl_color4 o3.x\ndcl_texcoord3 o3.yz\ndcl_fog o3.w\ndcl_position o7\nmov o7, c0\nmov o3, c0\n");
    refused_with(
        "vs_3_0\ndcl_color4 o3.xy\ndcl_texcoord3 o3.yz\nmov o3, c0\n",
        Code::D3d9Dcl,
        1,
        "o3.y is already declared",
    );
    // psize takes the whole register.
    refused_with("vs_3_0\ndcl_psize o6\ndcl_fog o6.w\nmov o6, c0\n", Code::D3d9Dcl, 1, "o6.w is already declared");
    refused_with("ps_3_0\ndcl_normal v0.xyz\ndcl_blendweight v0.zw\nmov oC0, v0\n", Code::D3d9Dcl, 1, "v0.z");
    valid("ps_3_0\ndcl_normal v0.xyz\ndcl_blendweight v0.w\nmov oC0, v0\n");
}

#[test]
fn vs_1_1_a0_has_only_x() {
    valid("vs_1_1\nmov a0.x, c0.x\nmov r0, c1[a0.x]\n");
    refused_with("vs_1_1\nmov a0, c0\n", Code::D3d9RegisterType, 0, "only its .x channel in vs_1_1; written .xyzw");
    refused_with("vs_1_1\nmov a0.y, c0.x\n", Code::D3d9RegisterType, 0, "written .y");
    valid("vs_2_0\nmova a0.xy, c0\n");
}

// ---------------------------------------------------------------------------------
// V927: dependent texture reads.

/// A chain of `n` texture reads, each reading the previous result as its coordinate.
fn chain(profile: &str, n: usize, between: &str) -> String {
    let mut t = format!("{profile}\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\n");
    for i in 1..=n {
        t.push_str(&between.replace("{p}", &format!("r{}", i - 1)));
        t.push_str(&format!("texld r{i}, r{}, s0\n", i - 1));
    }
    t.push_str(&format!("mov oC0, r{n}\n"));
    t
}

#[test]
fn third_order_dependent_reads_are_the_limit() {
    // texld r1, r0 is first order (its coordinate is an r#), r2 second, r3 third.
    valid(&chain("ps_2_0", 3, ""));
    refused_with(&chain("ps_2_0", 4, ""), Code::D3d9DependentRead, 6, "order 4; ps_2_0 allows at most third order");
    // Through arithmetic.
    valid(&chain("ps_2_0", 3, "add {p}, {p}, c0\n"));
    let text = chain("ps_2_0", 4, "mul {p}, {p}, c0\n");
    assert_eq!(count(&text, Code::D3d9DependentRead), 1, "{text}");
    // Rewriting the destination is first order, and does not chain (see the docs).
    let mut rewrites = String::from("ps_2_0\ndcl t0\ndcl_2d s0\n");
    for _ in 0..8 {
        rewrites.push_str("texld r0, t0, s0\n");
    }
    rewrites.push_str("mov oC0, r0\n");
    valid(&rewrites);
    // A rewrite is first order: r0 (rewritten) then three reads through it is the fourth.
    refused_with(
        "ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\ntexld r0, t0, s0\ntexld r1, r0, s0\ntexld r2, r1, s0\ntexld r3, r2, s0\nmov oC0, r3\n",
        Code::D3d9DependentRead,
        6,
        "order 4",
    );
    // ps_2_x: only without the cap.
    let deep = chain("ps_2_x", 5, "");
    valid(&deep);
    let caps = validate::Caps9 { no_dependent_read_limit: false, ..validate::Caps9::default() };
    let bytes = d3dbc::parse::assemble(&deep).unwrap();
    let r = validate::validate_with_d3d9_caps(&bytes, bytes.len(), &Target::d3d9(), &caps);
    assert_eq!(r.diagnostics.iter().filter(|d| d.code == Code::D3d9DependentRead).count(), 2, "{:#?}", r.diagnostics);
    assert!(validate::Caps9::default()
        .parse_over("no-dependent-read-limit=0")
        .is_ok_and(|c| !c.no_dependent_read_limit));
    // Not in ps_3_0.
    valid(&chain("ps_3_0", 5, "").replace("dcl t0", "dcl_texcoord v0").replace("t0,", "v0,"));
}

#[test]
fn pixel_1_x_instruction_rules() {
    // cnd: r0.a in ps_1_1-1_3; any register in ps_1_4.
    valid("ps_1_1\ntex t0\nmov r0, t0\ncnd r1, r0.a, t0, v0\n");
    refused_with("ps_1_1\ntex t0\nmov r1, t0\ncnd r0, r1.a, t0, v0\n", Code::D3d9Operands, 2, "source 0 must be r0.a");
    valid("ps_1_4\ntexld r1, t0\ncnd r0, r1, c0, c1\n");
    // cmp in ps_1_2: three at most, destination none of its sources.
    let cmp = "cmp r1, t0, c0, c1\n";
    valid(&format!("ps_1_2\ntex t0\n{cmp}{cmp}{cmp}"));
    refused_with(
        &format!("ps_1_2\ntex t0\n{cmp}{cmp}{cmp}{cmp}"),
        Code::D3d9Operands,
        4,
        "at most 3 in one shader; this is number 4",
    );
    refused_with(
        "ps_1_3\ntex t0\nmov r0, c0\ncmp r0, t0, r0, c1\n",
        Code::D3d9Operands,
        2,
        "source 1 is the destination",
    );
    // dp4 in ps_1_2: four at most, not co-issued.
    let dp4 = "dp4 r0, t0, c0\n";
    valid(&format!("ps_1_2\ntex t0\n{dp4}{dp4}{dp4}{dp4}"));
    refused_with(&format!("ps_1_2\ntex t0\n{dp4}{dp4}{dp4}{dp4}{dp4}"), Code::D3d9Operands, 5, "at most 4");
    refused_with(
        "ps_1_4\ntexld r1, t0\nmov r0.rgb, r1\n+dp4 r0.a, r1, c0\n",
        Code::D3d9Operands,
        2,
        "cannot be co-issued",
    );
    // bem: once, first phase, .xy, its second source r# (D3DAssemble refuses `bem r0.rg, r1, c0`).
    valid("ps_1_4\ntexld r1, t0\nbem r2.xy, r1, r1\nphase\ntexld r2, r2\nmov r0, r2\n");
    refused_with("ps_1_4\ntexld r1, t0\nbem r2, r1, r1\n", Code::D3d9Operands, 1, "mask .xyzw is not one of .xy");
    refused_with("ps_1_4\ntexld r1, t0\nbem r2.xy, r1, r1\nbem r3.xy, r1, r1\n", Code::D3d9Operands, 2, "at most 1");
    refused_with("ps_1_4\ntexld r1, t0\nphase\nbem r2.xy, r1, r1\n", Code::D3d9Operands, 2, "first phase");
}

// ---------------------------------------------------------------------------------
// V928: texm3x2 / texm3x3 sequences (ps_1_1-1_3).

#[test]
fn texture_matrix_sequences() {
    valid("ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0\nmov r0, t2\n");
    valid("ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0\nmov r0, t3\n");
    valid("ps_1_3\ntex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0\nmov r0, t0\n");
    // Alone.
    refused_with("ps_1_1\ntex t0\ntexm3x2pad t1, t0\nmov r0, t1\n", Code::D3d9TexMatrix, 1, "not complete at the end");
    refused_with(
        "ps_1_1\ntex t0\ntexm3x2tex t2, t0\nmov r0, t2\n",
        Code::D3d9TexMatrix,
        1,
        "needs 1 `texm3x2pad` before it",
    );
    refused_with(
        "ps_1_1\ntex t0\ntexm3x3pad t1, t0\ntexm3x3tex t2, t0\nmov r0, t2\n",
        Code::D3d9TexMatrix,
        2,
        "not complete (1 of its 3 rows)",
    );
    // Registers out of sequence.
    refused_with("ps_1_1\ntex t1\ntexm3x2pad t0, t1\ntexm3x2tex t1, t1\nmov r0, t1\n", Code::D3d9TexMatrix, 1, "m > n");
    refused_with(
        "ps_1_1\ntex t0\ntexm3x2pad t1, t0\ntexm3x2tex t3, t0\nmov r0, t3\n",
        Code::D3d9TexMatrix,
        2,
        "writes t3 from t0",
    );
    refused_with(
        "ps_1_2\ntex t0\ntex t1\ntexm3x3pad t2, t0\ntexm3x3pad t3, t1\n",
        Code::D3d9TexMatrix,
        3,
        "row 2 of the matrix",
    );
}
