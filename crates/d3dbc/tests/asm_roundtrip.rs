//! Hand-written programs of every profile: assemble, decode, compare; and the exact
//! tokens of the forms whose encoding the text leaves open.

use d3dbc::parse::{assemble, parse_program, Severity};
use d3dbc::{decode, encode, Item, Opcode, RegisterType, Relative, SrcModifier};

/// Assembles `text`, checks that the bytes decode back to the parsed program, and
/// returns the instruction tokens (without the version and end tokens).
fn round_trip(text: &str) -> Vec<u32> {
    let parsed = parse_program(text)
        .unwrap_or_else(|d| panic!("{}\n{text}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")));
    let errors: Vec<_> = parsed.warnings.iter().filter(|w| w.severity == Severity::Error).collect();
    assert!(errors.is_empty());
    let bytes = assemble(text).unwrap();
    let back = decode(&bytes).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, parsed.program, "{text}");
    assert_eq!(encode(&back).unwrap(), bytes);
    let words: Vec<u32> = bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    assert_eq!(words.last(), Some(&0xffff));
    words[1..words.len() - 1].to_vec()
}

const VS_1_1: &str = "
    vs_1_1
    dcl_position v0
    dcl_normal v1
    dcl_texcoord v2
    def c95, 1, 0.5, -0, 9.99999975e-005
    mov r0, v0
    m4x4 oPos, v0, c0
    m3x3 r9.xyz, v1, c4
    m4x3 r9.xyz, v1, c4
    m3x4 r9, v1, c4
    m3x2 r9.xy, v1, c4
    mov a0.x, r0.x
    mov r1, c[a0.x + 4]
    mov r2, c10[a0.x]
    add oD0, r1, -r2.yzxw
    expp r3, r0.x
    logp r3.z, r0.w
    exp r3, r0.x
    log r3, r0.x
    lit r4, r1
    dst r5, r1, r2
    slt r6, r0, r1
    sge r6.xy, r0.x, r1
    frc r7.xy, r0
    rcp r8.w, r0.w
    rsq r8.x, r0.y
    min r8, r0, r1
    max r8, r0, r1
    mad r8, r0, r1, r2
    mul r8, r0, r1
    sub r8, r0, r1
    dp3 r8, r0, r1
    dp4 r8, r0, r1
    mov oT0.xy, v2
    mov oT7, v2
    mov oFog, r0.x
    mov oPts, r0.x
    mov oD1, c95
    nop
";

const VS_2_0: &str = "
    vs_2_0
    dcl_position v0
    dcl_blendindices v1
    dcl_texcoord3 v2
    defi i0, 4, 0, 1, -1
    defb b1, true
    defb b2, false
    def c0, 1, 2, 3, 4
    mova a0.x, v1.x
    mova a0.w, v1.y
    mov r0, c4[a0.x]
    mov r0, c[a0.w + 2]
    loop aL, i0
      add r0, r0, c10[aL]
    endloop
    rep i0
      add r0, r0, c0
    endrep
    if b0
      mul r0, r0, c0.x
    else
      mov r0, -r0
    endif
    call l0
    callnz l1, b1
    sincos r1.xy, r0.x, c1, c2
    sgn r2, r0, r3, r4
    nrm r3.xyz, r0
    pow r4.x, r0.x, r0.y
    crs r5.xyz, r0, r1
    abs r6, -r0
    lrp r7, r0, r1, r2
    mov_sat r7, r0
    mov oPos, r0
    mov oT7, r1
    ret
    label l0
    mov r0, r0
    ret
    label l1
    ret
";

const VS_2_X: &str = "
    vs_2_x
    dcl_position v0
    def c0, 0, 1, 2, 3
    defi i0, 2, 0, 0, 0
    setp_gt p0, v0, c0
    (p0) mov r0, v0
    (!p0.y) add r0, r0, c0
    if_lt r0.x, c0.y
      mov r0, c0
    endif
    rep i0
      breakp p0.x
      breakp !p0.w
      break_ne r0.x, c0.x
      break
    endrep
    if p0.x
      mov r1, c0
    endif
    if !p0.y
    endif
    callnz l0, !p0.z
    callnz l0, p0.x
    mov oPos, r0
    ret
    label l0
    ret
";

const VS_2_SW: &str = "
    vs_2_sw
    dcl_position v0
    setp_le p0.xy, v0, c1000
    mov oPos, c5000
";

const VS_3_0: &str = "
    vs_3_0
    dcl_position v0
    dcl_texcoord1 v1
    dcl_position o0
    dcl_texcoord o1.xy
    dcl_psize o2.x
    dcl_color3 o3
    dcl_2d s0
    dcl_cube s1
    dcl_volume s2
    defi i0, 4, 0, 1, 0
    texldl r0, v1, s0
    mov o0, v0
    mov o1.xy, r0
    loop aL, i0
      mov o3[aL], r0
      mov r1, v0[aL]
    endloop
    mov_sat o2.x, r0.w
    sincos r2.xy, r0.x
    sincos r2.x, r0_abs.x
    add r0, -r0_abs, c0[a0.y]
";

const VS_3_SW: &str = "
    vs_3_sw
    dcl_position v0
    dcl_position o0
    mov o0, c8191
";

const PS_1_1: &str = "
    ps_1_1
    def c0, 1, 0.5, 0, 1
    tex t0
    tex t1
    texcoord t2
    texbem t3, t1
    mul r0, t0, c0
    +mov r0.a, t0.a
    add_x2 r1.rgb, t0_bx2, -t1_bias
    +add_d4_sat r1.a, 1 - t0.b, -c0_bx2.a
    mad_d2 r0, 1 - t0, c0, v0
    lrp r0, c0.a, t0, t1
    dp3_sat r1, t0_bx2, v0_bx2
    cnd r0, r0.a, t0, t1
    sub_x4 r0, t0, t1
    nop
";

const PS_1_1_MATRIX: &str = "
    ps_1_1
    tex t0
    texm3x2pad t1, t0_bx2
    texm3x2tex t2, t0_bx2
    texreg2ar t3, t0
    mov r0, t2
";

const PS_1_1_MATRIX3: &str = "
    ps_1_1
    tex t0
    texm3x3pad t1, t0_bx2
    texm3x3pad t2, t0_bx2
    texm3x3vspec t3, t0_bx2
    texkill t0
    mov r0, t3
";

const PS_1_2: &str = "
    ps_1_2
    tex t0
    texreg2gb t1, t0
    texdp3tex t2, t0
    texm3x3spec t3, t0, c0
    cmp r0, t0, t1, t2
    dp4 r1, t0, t1
    texbeml t3, t1
";

const PS_1_3: &str = "
    ps_1_3
    tex t0
    texm3x2pad t1, t0
    texm3x2depth t2, t0
    texreg2rgb t3, t0
    texdp3 t3, t0
    texm3x3 t3, t0
    texm3x3tex t3, t0_bx2
    mov r0, t0
";

const PS_1_4: &str = "
    ps_1_4
    def c0, 1, 0, 0, 1
    texld r0, t0
    texld r1, t1_dz
    texld r4, r2.xyz_dw
    texcrd r2.xyz, t2
    texcrd r3.rgb, t3_da.rga
    texdepth r5
    texkill t0
    phase
    texld r3, r0
    bem r4.rg, c0, r1
    add r0, r0_x2, -r1_bx2
    add r0, r0, -r1_x2
    cnd r0, r0.a, r1, r2
    cmp r0, r1, r2, r3
    mov_sat r0.a, r1.b
    +mov r0.a, r1.b
";

const PS_2_0: &str = "
    ps_2_0
    dcl t0.xy
    dcl_pp t1
    dcl v0.xyz
    dcl_2d s0
    dcl_cube s1
    dcl_volume s2
    def c0, 1, 0.5, 0, -1
    def c1, 1.#INF, -1.#INF, 3.40282347e+038, 1.17549435e-038
    texld r0, t0, s0
    texldp r1, t1, s1
    texldb_pp r2, t1, s2
    texkill t0
    mul_pp r0, r0, v0
    dp2add r1.x, r0, c0, c0.x
    cmp_sat r2, -r0, c0, c0.y
    frc r3, r0
    rcp r3.x, r0.y
    exp r3.x, r0.y
    log r3.x, r0.y
    m3x2 r4.xy, r0, c0
    mov oC0, r0
    mov oC3, r0
    mov oDepth, r0.x
";

const PS_2_X: &str = "
    ps_2_x
    dcl t0
    dcl_2d s0
    defi i0, 3, 0, 0, 0
    defb b0, false
    dsx r0, t0
    dsy r1, t0
    texldd r2, t0, s0, r0, r1
    setp_ne p0, r0, r1
    (p0.x) mov r3, r2
    (!p0) texld r3, t0, s0
    rep i0
      if b0
        break
      endif
      if_eq r0.x, r1.x
        break_lt r0.y, r1.y
      endif
    endrep
    call l0
    mov oC0, r3
    ret
    label l0
    ret
";

const PS_2_SW: &str = "
    ps_2_sw
    dcl t0
    mov oC0, t0
";

const PS_3_0: &str = "
    ps_3_0
    dcl_texcoord v0.xy
    dcl_color1_centroid v1
    dcl_texcoord2_pp v2
    dcl vPos.xy
    dcl vFace
    dcl_2d s0
    dcl_centroid_pp_sat s1
    defi i0, 4, 0, 1, 0
    def c0, 0, 1, 2, 3
    texldl r0, v0, s0
    texld r1, v0, s0
    texldb r1, v0, s0
    texldp r1, v0, s0
    loop aL, i0
      add r0, r0, v0[aL]
      break_gt r0.x, c0.x
    endloop
    cmp r0, vFace, r0, -r0
    mov r1, vPos.xyxy
    sincos r2.xy, r0.x
    add r0, r0_abs, -r1_abs
    texkill r0
    mov oC0, r0
    mov oC1, r1
    mov oDepth, r0.x
";

const PS_3_SW: &str = "
    ps_3_sw
    dcl_texcoord v0
    mov oC0, v0
";

#[test]
fn every_profile_round_trips() {
    let programs = [
        VS_1_1,
        VS_2_0,
        VS_2_X,
        VS_2_SW,
        VS_3_0,
        VS_3_SW,
        PS_1_1,
        PS_1_1_MATRIX,
        PS_1_1_MATRIX3,
        PS_1_2,
        PS_1_3,
        PS_1_4,
        PS_2_0,
        PS_2_X,
        PS_2_SW,
        PS_3_0,
        PS_3_SW,
    ];
    let mut seen = std::collections::BTreeSet::new();
    let mut count = 0;
    for text in programs {
        round_trip(text);
        let p = parse_program(text).unwrap();
        let name = p.program.version.name().into_owned();
        let expected = text.lines().filter(|l| !l.trim().is_empty()).count() - 1;
        assert_eq!(p.program.items.len(), expected, "{name}: one instruction per line");
        for ins in p.program.instructions() {
            seen.insert(ins.opcode);
        }
        count += expected;
    }
    let missing: Vec<_> = d3dbc::TABLE
        .iter()
        .map(|r| r.opcode)
        .filter(|o| !matches!(o, Opcode::Comment | Opcode::End) && !seen.contains(o))
        .collect();
    assert!(missing.is_empty(), "opcodes never assembled: {missing:?}");
    println!("{} profiles' programs, {count} instructions, every opcode of the table", programs.len());
}

#[test]
fn tokens_of_the_open_choices() {
    // Shader Model 1: no length field; relative addressing is bit 13 with no token.
    let w = round_trip("vs_1_1\nmov r1, c[a0.x + 4]\nmov r2.xy, -c10[a0.x].y\n");
    assert_eq!(w, [0x0000_0001, 0x800f_0001, 0xa0e4_2004, 0x0000_0001, 0x8003_0002, 0xa155_200a]);
    // Shader Model 2: the length, an address token after a relative source (`.xxxx`
    // for `a0.x`, identity for `aL`).
    let w = round_trip("vs_2_0\nmov r0, c16[a0.x]\nloop aL, i0\nmov r0, c2[aL]\nendloop\n");
    assert_eq!(
        w,
        [
            0x0300_0001,
            0x800f_0000,
            0xa0e4_2010,
            0xb000_0000,
            0x0200_001b,
            0xf0e4_0800,
            0xf0e4_0000,
            0x0300_0001,
            0x800f_0000,
            0xa0e4_2002,
            0xf0e4_0800,
            0x0000_001d
        ]
    );
    // Shortened swizzles repeat the last component; masks default to .xyzw.
    let w = round_trip("ps_2_0\nmov r0.xy, c0.xz\nmov r0, -c0.w\n");
    assert_eq!(w, [0x0200_0001, 0x8003_0000, 0xa0a8_0000, 0x0200_0001, 0x800f_0000, 0xa1ff_0000]);
    // dcl: usage token, then the register with its mask.
    let w = round_trip("ps_2_0\ndcl t0.xy\ndcl_2d s0\ndcl_cube s1\n");
    assert_eq!(
        w,
        [
            0x0200_001f,
            0x8000_0000,
            0xb003_0000,
            0x0200_001f,
            0x9000_0000,
            0xa00f_0800,
            0x0200_001f,
            0x9800_0000,
            0xa00f_0801
        ]
    );
    let w = round_trip("vs_3_0\ndcl_texcoord7 o5.xy\n");
    assert_eq!(w, [0x0200_001f, 0x8007_0005, 0xe003_0005]);
    // def: four f32 values as printed (-0 keeps its sign).
    let w = round_trip("ps_2_0\ndef c4, 0.879999995, -0, 9.99999975e-005, 1\n");
    assert_eq!(w, [0x0500_0051, 0xa00f_0004, 0.88f32.to_bits(), 0x8000_0000, 1e-4f32.to_bits(), 0x3f80_0000]);
    // Controls: comparisons and texld's project / bias bits.
    let w = round_trip("ps_2_x\nif_ge r0.x, c0.y\nendif\ntexldp r0, t0, s0\ntexldb r0, t0, s0\n");
    assert_eq!(w[0], 0x0203_0029);
    assert_eq!(w[3], 0x0000_002b);
    assert_eq!(w[4], 0x0301_0042);
    assert_eq!(w[8], 0x0302_0042);
    // Predication: bit 28, the predicate after the destination.
    let w = round_trip("vs_2_x\n(!p0.y) add r0, r0, c0\n");
    assert_eq!(w, [0x1400_0002, 0x800f_0000, 0xbd55_1000, 0x80e4_0000, 0xa0e4_0000]);
    // Co-issue and result shift in ps_1_x.
    let w = round_trip("ps_1_1\ntex t0\nadd_x2_sat r0.rgb, t0_bx2, 1 - v0\n+mul_d2 r0.a, t0_bias, -v0_bx2\n");
    assert_eq!(w[0], 0x0000_0042);
    assert_eq!(w[2], 0x0000_0002);
    assert_eq!(w[3], 0x8117_0000);
    assert_eq!(&w[4..6], &[0xb4e4_0000, 0x96e4_0000]);
    assert_eq!(w[6], 0x4000_0005);
    assert_eq!(w[7], 0x8f08_0000);
    assert_eq!(&w[8..10], &[0xb2e4_0000, 0x95e4_0000]);
}

#[test]
fn registers_and_modifiers_are_typed() {
    let p = parse_program("ps_3_0\ndcl vFace\nmov r0, -c2049_abs.x\nmov oC0, vPos.xy\n").unwrap();
    let ins: Vec<_> = p.program.instructions().collect();
    assert_eq!(ins[0].dst.unwrap().reg.ty, RegisterType::Misc);
    assert_eq!(ins[0].dst.unwrap().reg.num, 1);
    let s = ins[1].srcs[0];
    assert_eq!((s.reg.ty, s.reg.num, s.modifier), (RegisterType::Const2, 1, SrcModifier::AbsNeg));
    assert_eq!(ins[2].srcs[0].reg.ty, RegisterType::Misc);
    let p = parse_program("vs_1_1\nmov r0, c[a0.x + 7]\n").unwrap();
    let s = p.program.instructions().next().unwrap().srcs[0];
    assert_eq!((s.reg.num, s.rel), (7, Relative::Implicit));
    // Annotations and #line.
    let p = d3dbc::parse::parse_program(
        "ps_2_0\n#line 7 \"a.fx\"\nmov r0, c0  // ::x<0,1,2,3>, y<4>\n#line 9\nmov oC0, r0  // plain words\n",
    )
    .unwrap();
    assert_eq!(p.files, ["a.fx"]);
    assert_eq!(p.debug[0].source.unwrap().line, 7);
    assert_eq!(p.debug[0].annotations.len(), 2);
    assert_eq!(p.debug[0].annotations[1].name, "y");
    assert_eq!(p.debug[0].annotations[1].components, [4]);
    assert_eq!(p.debug[1].source, Some(d3dbc::parse::SourceLine { file: Some(0), line: 9 }));
    assert_eq!(p.debug[1].comment.as_deref(), Some("plain words"));
    assert!(matches!(p.program.items[0], Item::Instruction(_)));
}

#[test]
fn limits_are_not_syntax() {
    // Nesting far beyond any profile's limit, a register number no profile has, and
    // more instructions than vs_2_0 allows: all encoded, for the validator to judge.
    let mut text = String::from("vs_2_0\n");
    for _ in 0..40 {
        text.push_str("if b0\n");
    }
    for _ in 0..40 {
        text.push_str("endif\n");
    }
    for i in 0..400 {
        text.push_str(&format!("add r{}, r1, c{}\n", i % 40, i));
    }
    text.push_str("mov oT15, r2047\n");
    let bytes = assemble(&text).unwrap();
    let p = decode(&bytes).unwrap();
    assert_eq!(p.instructions().count(), 481);
    // Unbalanced blocks are warnings, and still encoded.
    let p = parse_program("vs_2_0\nif b0\nelse\nelse\nendloop\n").unwrap();
    assert_eq!(p.program.items.len(), 4);
    assert_eq!(p.warnings.len(), 3, "{:?}", p.warnings);
    assert!(p.warnings.iter().all(|w| w.severity == Severity::Warning));
}

#[test]
fn header_builds_the_constant_table() {
    let text = "//\n// Generated by Microsoft (R) HLSL Shader Compiler 10.1\n//\n//   fxc /T ps_2_b /Od /Zpr\n//    a.fx\n//\n// Parameters:\n//\n//   float4 a[2];\n//   row_major float3x4 m;\n//   sampler2D s;\n//\n//\n// Registers:\n//\n//   Name Reg Size\n//   ---- ----- ----\n//   a    c0       2\n//   m    c2       3\n//   s    s0       1\n//\n\n    ps_2_b\n    mov oC0, c0\n";
    let p = parse_program(text).unwrap();
    assert_eq!(p.program.version.name(), "ps_2_x");
    assert_eq!(p.target(), "ps_2_b");
    let t = p.constant_table(&Default::default()).unwrap().unwrap();
    assert_eq!(t.flags, 0x100 | 0x4 | 0x8);
    assert_eq!(t.target, "ps_2_b");
    assert_eq!(t.creator, "Microsoft (R) HLSL Shader Compiler 10.1");
    let names: Vec<_> =
        t.constants.iter().map(|c| (c.name.to_string(), c.register_index, c.register_count, c.ty.elements)).collect();
    assert_eq!(names, [("a".to_string(), 0, 2, 2), ("m".to_string(), 2, 3, 1), ("s".to_string(), 0, 1, 1)]);
    assert_eq!(t.constants[1].ty.hlsl_name(), "row_major float3x4");
    // The block is first in the stream, and parses back to the same table.
    let bytes = assemble(text).unwrap();
    let prog = decode(&bytes).unwrap();
    assert!(matches!(prog.items[0], Item::Comment(_)));
    let back = d3dbc::ctab::ConstantTable::parse_comment(prog.comment_with(b"CTAB").unwrap()).unwrap();
    assert_eq!(back.constants, t.constants);
    assert_eq!(back.raw_layout, None);
    // No header, no table.
    let bytes = assemble("ps_2_0\nmov oC0, c0\n").unwrap();
    assert!(decode(&bytes).unwrap().comments().next().is_none());
}

#[test]
fn forms_of_undefined_values_microsoft_prints() {
    // A comparison value of 0 prints with no suffix; an empty mask as `r0.`. Both
    // assemble to those bits, with a warning.
    let p = parse_program(
        "vs_2_x\nsetp p0.x, r0.x, c0.x\nif r0.x, c0.x\nendif\nrep i0\nbreak r0.x, -r1.y\nendrep\nmov r0., r1\n",
    )
    .unwrap();
    let ins: Vec<_> = p.program.instructions().collect();
    assert_eq!((ins[0].opcode, ins[0].controls), (Opcode::Setp, 0));
    assert_eq!((ins[1].opcode, ins[1].controls), (Opcode::Ifc, 0));
    assert_eq!((ins[4].opcode, ins[4].controls), (Opcode::Breakc, 0));
    assert_eq!(ins[6].dst.unwrap().mask.0, 0);
    assert_eq!(p.warnings.len(), 4, "{:?}", p.warnings);
    assert_eq!((p.warnings[0].line, p.warnings[0].column), (2, 1));
    // `if b0` and `break` keep their own opcodes.
    let p = parse_program("vs_2_x\nif b0\nendif\nrep i0\nbreak\nendrep\n").unwrap();
    let ops: Vec<_> = p.program.instructions().map(|i| i.opcode).collect();
    assert_eq!(ops, [Opcode::If, Opcode::Endif, Opcode::Rep, Opcode::Break, Opcode::Endrep]);
    assert!(p.warnings.is_empty());
}
