//! The per-profile rules: instructions (the d3dbc table's version ranges), the vs_2_x /
//! ps_2_x capabilities, register files (count, relative addressing, declarations),
//! modifiers, pixel-shader swizzles and instruction slots; the version, decoding and
//! the create call's stage.

mod d3d9_common;
use d3d9_common::*;
use validate::{Caps9, Code, FeatureLevel, Runtime, Target};

const VS_1_1: u32 = 0xfffe_0101;
const PS_1_1: u32 = 0xffff_0101;
const PS_1_4: u32 = 0xffff_0104;
const PS_2_SW: u32 = 0xffff_02ff;

fn caps() -> Caps9 {
    Caps9::default()
}

/// `op dst, src` with register types and numbers.
fn unary(p: &mut Prog, opcode: u16, d: (u8, u16), s: (u8, u16)) -> usize {
    p.op(opcode, 0, &[dst(d.0, d.1, 0xf), src(s.0, s.1, XYZW)])
}

/// `dcl` of `reg` (`token`: the usage / sampler-type token).
fn dcl(p: &mut Prog, token: u32, reg: (u8, u16)) -> usize {
    p.op(DCL, 0, &[0x8000_0000 | token, dst(reg.0, reg.1, 0xf)])
}
const DCL_2D: u32 = 2 << 27;
const DCL_TEXCOORD: u32 = 5;

/// One-instruction programs: accepted in `ok` profiles, V903 in `bad` ones.
#[test]
fn instructions_by_profile() {
    type Build = fn(&mut Prog) -> usize;
    let cases: &[(&str, Build, &[u32], &[u32])] = &[
        ("setp", |p| p.setp(), &[VS_2_X, VS_3_0, PS_2_X, PS_3_0], &[VS_2_0, PS_2_0]),
        (
            "rep",
            |p| {
                let i = p.rep();
                p.endrep();
                i
            },
            &[VS_2_0, PS_2_X],
            &[VS_1_1, PS_2_0, PS_1_4],
        ),
        (
            "loop",
            |p| {
                let i = p.loop_();
                p.endloop();
                i
            },
            &[VS_2_0, PS_3_0],
            &[PS_2_X, PS_2_SW, PS_2_0, VS_1_1],
        ),
        ("mov", |p| p.mov(), &[VS_1_1, VS_2_0, VS_3_0], &[]),
        // slt: vertex shaders only.
        (
            "slt",
            |p| p.op(12, 0, &[dst(TEMP, 0, 0xf), src(CONST, 0, XYZW), src(TEMP, 1, XYZW)]),
            &[VS_2_0],
            &[PS_2_0, PS_3_0],
        ),
        // mova: vertex 2.0 and later.
        ("mova", |p| p.op(46, 0, &[dst(ADDR, 0, 1), src(CONST, 0, XXXX)]), &[VS_2_0, VS_3_0], &[VS_1_1]),
    ];
    for (name, build, ok, bad) in cases {
        for &v in *ok {
            let mut p = Prog::new(v);
            build(&mut p);
            accepted(&p, &caps());
        }
        for &v in *bad {
            let mut p = Prog::new(v);
            let at = build(&mut p);
            let r = run(&p, &caps());
            assert!(
                r.diagnostics.iter().any(|d| d.code == Code::D3d9Instruction
                    && matches!(d.location, validate::Location::Instruction { index, .. } if index == at)),
                "{name} in {v:#x}: {:#?}",
                r.diagnostics
            );
        }
    }
    // texldl: vs_3_0 only among vertex shaders.
    let texldl = |v: u32| {
        let mut p = Prog::new(v);
        dcl(&mut p, DCL_2D, (SAMPLER, 0));
        let at = p.op(95, 0, &[dst(TEMP, 0, 0xf), src(CONST, 0, XYZW), src(SAMPLER, 0, XYZW)]);
        (p, at)
    };
    accepted(&texldl(VS_3_0).0, &caps());
    let (p, at) = texldl(VS_2_X);
    let r = run(&p, &caps());
    assert!(r.diagnostics.iter().any(|d| d.code == Code::D3d9Instruction
        && matches!(d.location, validate::Location::Instruction { index, .. } if index == at)));
}

/// vs_2_x / ps_2_x instructions that need a device capability (V904).
#[test]
fn capabilities_of_2_x() {
    let no_pred = Caps9 { predication: false, ..caps() };
    let mut p = Prog::new(VS_2_X);
    let at = p.setp();
    refused_at(&p, &no_pred, Code::D3d9InstructionCap, at, "setp_gt");
    accepted(&p, &caps());
    // A predicated instruction.
    let mut p = Prog::new(VS_2_X);
    p.setp();
    let at = p.predicated(ADD, dst(TEMP, 0, 0xf), &[src(CONST, 0, XYZW), src(TEMP, 1, XYZW)]);
    accepted(&p, &caps());
    let r = run(&p, &no_pred);
    assert_eq!(r.diagnostics.len(), 2, "{:#?}", r.diagnostics);
    assert!(r.diagnostics.iter().all(|d| d.code == Code::D3d9InstructionCap));
    let _ = at;
    // break needs DynamicFlowControlDepth > 0 (it counts nothing itself).
    let mut p = Prog::new(VS_2_X);
    p.rep();
    let at = p.break_();
    p.endrep();
    accepted(&p, &caps());
    refused_at(&p, &Caps9 { dynamic_flow_depth: 0, ..caps() }, Code::D3d9InstructionCap, at, "break");
    // vs_3_0 has them without caps.
    let mut p = Prog::new(VS_3_0);
    p.setp();
    p.rep();
    p.break_();
    p.endrep();
    accepted(&p, &Caps9 { dynamic_flow_depth: 0, predication: false, ..caps() });
    // ps_2_x gradients.
    let dsx = |v: u32| {
        let mut p = Prog::new(v);
        let at = p.op(91, 0, &[dst(TEMP, 0, 0xf), src(TEMP, 1, XYZW)]);
        (p, at)
    };
    accepted(&dsx(PS_2_X).0, &caps());
    let (p, at) = dsx(PS_2_X);
    refused_at(&p, &Caps9 { gradient_instructions: false, ..caps() }, Code::D3d9InstructionCap, at, "dsx");
    accepted(&dsx(PS_3_0).0, &Caps9 { gradient_instructions: false, ..caps() });
    let (p, at) = dsx(PS_2_0);
    refused_at(&p, &caps(), Code::D3d9Instruction, at, "dsx");
}

/// Register counts per profile (V906), and the device's NumTemps / MaxVertexShaderConst.
#[test]
fn register_counts() {
    // (version, register type, last valid index, caps)
    let cases: &[(u32, u8, u16, Caps9)] = &[
        (VS_2_0, TEMP, 11, caps()),
        (VS_2_X, TEMP, 31, caps()),
        (VS_2_X, TEMP, 11, Caps9 { temps: 12, ..caps() }),
        (VS_3_0, TEMP, 31, caps()),
        (VS_1_1, TEMP, 11, caps()),
        (PS_2_0, TEMP, 11, caps()),
        (PS_2_X, TEMP, 21, Caps9 { temps: 22, ..caps() }),
        (PS_3_0, TEMP, 31, caps()),
        (PS_1_1, TEMP, 1, caps()),
        (PS_1_4, TEMP, 5, caps()),
    ];
    for &(v, ty, last, caps) in cases {
        let write = |n: u16| {
            let mut p = Prog::new(v);
            let at = p.op(MOV, 0, &[dst(ty, n, 0xf), src(ty, 0, XYZW)]);
            (p, at)
        };
        accepted(&write(last).0, &caps);
        let (p, at) = write(last + 1);
        let m = refused_at(&p, &caps, Code::D3d9RegisterRange, at, "mov");
        assert!(m.contains(&format!("r{}", last + 1)), "{m}");
    }
    // Constants: read c#.
    let consts: &[(u32, u16, Caps9)] = &[
        (VS_2_0, 255, Caps9 { vs_constants: 256, ..caps() }),
        (VS_2_0, 511, Caps9 { vs_constants: 512, ..caps() }),
        (VS_1_1, 95, Caps9 { vs_constants: 96, ..caps() }),
        (VS_3_0, 255, Caps9 { vs_constants: 256, ..caps() }),
        (PS_2_0, 31, caps()),
        (PS_2_X, 31, caps()),
        (PS_3_0, 223, caps()),
        (PS_1_4, 7, caps()),
    ];
    for &(v, last, caps) in consts {
        let read = |n: u16| {
            let mut p = Prog::new(v);
            let at = unary(&mut p, MOV, (TEMP, 0), (CONST, n));
            (p, at)
        };
        accepted(&read(last).0, &caps);
        let (p, at) = read(last + 1);
        refused_at(&p, &caps, Code::D3d9RegisterRange, at, "mov");
    }
    // Software profiles: 8192 float constants (c2048.. as the CONST2..4 types).
    let mut p = Prog::new(VS_2_SW);
    unary(&mut p, MOV, (TEMP, 0), (13, 2047)); // c8191
    accepted(&p, &caps());
    // vs_2_0 outputs: oT0..oT7, oD0..oD1.
    for (ty, last) in [(OUTPUT, 7u16), (5, 1)] {
        let mut p = Prog::new(VS_2_0);
        unary(&mut p, MOV, (ty, last), (CONST, 0));
        accepted(&p, &caps());
        let mut p = Prog::new(VS_2_0);
        let at = unary(&mut p, MOV, (ty, last + 1), (CONST, 0));
        refused_at(&p, &caps(), Code::D3d9RegisterRange, at, "mov");
    }
    // oPos, oFog, oPts are rasterizer outputs 0..2; 3 is none.
    let mut p = Prog::new(VS_2_0);
    let at = unary(&mut p, MOV, (RASTOUT, 3), (CONST, 0));
    refused_at(&p, &caps(), Code::D3d9RegisterType, at, "mov");
    // vs_3_0 o0..o11 (declared), vs_3_sw o0..o15.
    for (v, last) in [(VS_3_0, 11u16), (VS_3_SW, 15)] {
        let out = |n: u16| {
            let mut p = Prog::new(v);
            dcl(&mut p, DCL_TEXCOORD, (OUTPUT, n));
            unary(&mut p, MOV, (OUTPUT, n), (CONST, 0));
            p
        };
        accepted(&out(last), &caps());
        let r = run(&out(last + 1), &caps());
        assert!(r.diagnostics.iter().all(|d| d.code == Code::D3d9RegisterRange) && !r.diagnostics.is_empty());
    }
}

/// Register types a profile does not have (V905) and read/write direction.
#[test]
fn register_types() {
    // p0 in vs_2_0; b# in ps_2_0; a0 in vs... t# is the same type as a0: in ps it is t#.
    let mut p = Prog::new(VS_2_0);
    let at = p.op(MOV, 0, &[dst(PREDICATE, 0, 0xf), src(CONST, 0, XYZW)]);
    refused_at(&p, &caps(), Code::D3d9RegisterType, at, "mov");
    let mut p = Prog::new(PS_2_0);
    let at = unary(&mut p, MOV, (TEMP, 0), (CONSTBOOL, 0));
    refused_at(&p, &caps(), Code::D3d9RegisterType, at, "mov");
    // Writing a constant, reading an output.
    let mut p = Prog::new(VS_2_0);
    let at = unary(&mut p, MOV, (CONST, 0), (CONST, 1));
    refused_at(&p, &caps(), Code::D3d9RegisterType, at, "mov");
    let mut p = Prog::new(VS_2_0);
    let at = unary(&mut p, MOV, (TEMP, 0), (OUTPUT, 0));
    refused_at(&p, &caps(), Code::D3d9RegisterType, at, "mov");
    // vFace and vPos exist in ps_3_0 only (vFace read as cmp's condition: a mov of it
    // is refused, D3DAssemble's error X5692).
    let mut p = Prog::new(PS_3_0);
    dcl(&mut p, 0, (MISC, 1));
    p.op(88, 0, &[dst(TEMP, 0, 0xf), src(MISC, 1, XYZW), src(CONST, 0, XYZW), src(TEMP, 1, XYZW)]);
    accepted(&p, &caps());
    let mut p = Prog::new(PS_2_X);
    let at = unary(&mut p, MOV, (TEMP, 0), (MISC, 1));
    refused_at(&p, &caps(), Code::D3d9RegisterType, at, "mov");
    // Undefined register types.
    let mut p = Prog::new(VS_3_0);
    let at = unary(&mut p, MOV, (TEMP, 0), (25, 0));
    refused_at(&p, &caps(), Code::D3d9RegisterType, at, "mov");
}

fn rel_src(ty: u8, num: u16, addr: (u8, u16, u8)) -> [u32; 2] {
    [src(ty, num, XYZW) | 0x2000, src(addr.0, addr.1, addr.2)]
}

/// Relative addressing (V907): vs_2_0 c[a0.x] and c[aL]; vs_3_0 v[aL], o[aL]; ps_3_0
/// v[aL] only.
#[test]
fn relative_addressing() {
    let mov_rel = |v: u32, ty: u8, addr: (u8, u16, u8), wrap_loop: bool| {
        let mut p = Prog::new(v);
        if ty == INPUT {
            dcl(&mut p, DCL_TEXCOORD, (INPUT, 0));
        }
        if wrap_loop {
            p.loop_();
        }
        let r = rel_src(ty, 0, addr);
        let at = p.op(MOV, 0, &[dst(TEMP, 0, 0xf), r[0], r[1]]);
        if wrap_loop {
            p.endloop();
        }
        (p, at)
    };
    accepted(&mov_rel(VS_2_0, CONST, (ADDR, 0, XXXX), false).0, &caps());
    accepted(&mov_rel(VS_2_0, CONST, (LOOP, 0, XXXX), true).0, &caps());
    accepted(&mov_rel(VS_3_0, INPUT, (LOOP, 0, XXXX), true).0, &caps());
    accepted(&mov_rel(PS_3_0, INPUT, (LOOP, 0, XXXX), true).0, &caps());
    for (v, ty, addr, lp) in [
        (VS_2_0, TEMP, (ADDR, 0, XXXX), false),
        (VS_2_0, INPUT, (ADDR, 0, XXXX), false),
        (PS_3_0, CONST, (LOOP, 0, XXXX), true),
        (PS_2_X, CONST, (LOOP, 0, XXXX), false),
    ] {
        let (p, at) = mov_rel(v, ty, addr, lp);
        let m = refused_at(&p, &caps(), Code::D3d9RelativeAddressing, at, "mov");
        assert!(m.contains("indexed by"), "{m}");
    }
}

/// Registers that need a declaration (V908).
#[test]
fn declarations() {
    let mut p = Prog::new(VS_2_0);
    let at = unary(&mut p, MOV, (TEMP, 0), (INPUT, 3));
    let m = refused_at(&p, &caps(), Code::D3d9Declaration, at, "mov");
    assert!(m.contains("v3"), "{m}");
    let mut p = Prog::new(VS_2_0);
    dcl(&mut p, DCL_TEXCOORD, (INPUT, 3));
    unary(&mut p, MOV, (TEMP, 0), (INPUT, 3));
    accepted(&p, &caps());
    // ps_2_0 texld: t# and s# are declared.
    let texld = |with_dcl: bool| {
        let mut p = Prog::new(PS_2_0);
        if with_dcl {
            dcl(&mut p, 0, (TEXTURE, 0));
            dcl(&mut p, DCL_2D, (SAMPLER, 0));
        }
        let at = p.op(TEX, 0, &[dst(TEMP, 0, 0xf), src(TEXTURE, 0, XYZW), src(SAMPLER, 0, XYZW)]);
        unary(&mut p, MOV, (COLOROUT, 0), (TEMP, 0));
        (p, at)
    };
    accepted(&texld(true).0, &caps());
    let (p, at) = texld(false);
    let r = run(&p, &caps());
    assert_eq!(r.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::D3d9Declaration; 2]);
    assert!(r
        .diagnostics
        .iter()
        .all(|d| matches!(d.location, validate::Location::Instruction { index, .. } if index == at)));
    // vs_3_0 outputs.
    let mut p = Prog::new(VS_3_0);
    let at = unary(&mut p, MOV, (OUTPUT, 0), (CONST, 0));
    refused_at(&p, &caps(), Code::D3d9Declaration, at, "mov");
}

/// Result and source modifiers (V909).
#[test]
fn modifiers() {
    let sat = |v: u32, d: (u8, u16)| {
        let mut p = Prog::new(v);
        let at = p.op(MOV, 0, &[dst(d.0, d.1, 0xf) | 1 << 20, src(CONST, 0, XYZW)]);
        (p, at)
    };
    // _sat: vertex 3_0 only; every pixel profile.
    for v in [VS_3_0, VS_3_SW, PS_1_1, PS_2_0, PS_3_0] {
        accepted(&sat(v, (TEMP, 0)).0, &caps());
    }
    for v in [VS_1_1, VS_2_0, VS_2_X, VS_2_SW] {
        let (p, at) = sat(v, (TEMP, 0));
        refused_at(&p, &caps(), Code::D3d9Modifier, at, "mov");
    }
    // _sat on an output register: refused in ps_2_0 .. ps_2_sw, not in ps_3_0.
    let (p, at) = sat(PS_2_0, (COLOROUT, 0));
    refused_at(&p, &caps(), Code::D3d9Modifier, at, "mov");
    accepted(&sat(PS_3_0, (COLOROUT, 0)).0, &caps());
    // _pp: pixel 2_0 and later.
    let pp = |v: u32| {
        let mut p = Prog::new(v);
        let at = p.op(MOV, 0, &[dst(TEMP, 0, 0xf) | 2 << 20, src(CONST, 0, XYZW)]);
        (p, at)
    };
    accepted(&pp(PS_2_0).0, &caps());
    let (p, at) = pp(VS_2_0);
    refused_at(&p, &caps(), Code::D3d9Modifier, at, "mov");
    // Shifts: ps_1_x only.
    let shift = |v: u32| {
        let mut p = Prog::new(v);
        let at = p.op(MOV, 0, &[dst(TEMP, 0, 0xf) | 1 << 24, src(CONST, 0, XYZW)]);
        (p, at)
    };
    accepted(&shift(PS_1_4).0, &caps());
    let (p, at) = shift(PS_2_0);
    refused_at(&p, &caps(), Code::D3d9Modifier, at, "mov");
    // Source modifiers: abs (11) in 3_0; bx2 (4) in ps_1_x; x2 (7) in ps_1_4.
    let m = |v: u32, modifier: u8| {
        let mut p = Prog::new(v);
        let at = p.op(MOV, 0, &[dst(TEMP, 0, 0xf), src_mod(TEMP, 1, XYZW, modifier)]);
        (p, at)
    };
    for (v, modifier) in [(VS_3_0, 11), (PS_3_0, 12), (PS_1_1, 4), (PS_1_4, 7), (VS_2_0, 1), (PS_2_0, 1)] {
        accepted(&m(v, modifier).0, &caps());
    }
    for (v, modifier) in [(VS_2_X, 11), (PS_2_0, 11), (PS_2_0, 4), (PS_1_1, 7), (VS_3_0, 6), (VS_3_0, 14), (VS_3_0, 13)]
    {
        let (p, at) = m(v, modifier);
        refused_at(&p, &caps(), Code::D3d9Modifier, at, "mov");
    }
    // ! on the predicate of callnz / breakp is fine.
    let mut p = Prog::new(VS_2_X);
    p.setp();
    p.rep();
    p.op(BREAKP, 0, &[src_mod(PREDICATE, 0, XXXX, 13)]);
    p.endrep();
    accepted(&p, &caps());
}

/// Pixel-shader source swizzles (V910).
#[test]
fn swizzles() {
    let sw = |v: u32, s: u8| {
        let mut p = Prog::new(v);
        let at = p.op(MOV, 0, &[dst(TEMP, 0, 0xf), src(TEMP, 1, s)]);
        (p, at)
    };
    let yxzw = 0b11_10_00_01;
    let wzyx = 0b00_01_10_11;
    for v in [PS_2_0, PS_2_X, PS_1_4] {
        accepted(&sw(v, XXXX).0, &caps());
    }
    accepted(&sw(PS_2_0, wzyx).0, &caps());
    let (p, at) = sw(PS_2_0, yxzw);
    refused_at(&p, &caps(), Code::D3d9Swizzle, at, "mov");
    accepted(&sw(PS_2_X, yxzw).0, &caps());
    let (p, at) = sw(PS_2_X, yxzw);
    refused_at(&p, &Caps9 { arbitrary_swizzle: false, ..caps() }, Code::D3d9Swizzle, at, "mov");
    accepted(&sw(PS_3_0, yxzw).0, &caps());
    accepted(&sw(VS_2_0, yxzw).0, &caps());
    // ps_1_1: .w replicate; .z only when writing .w.
    accepted(&sw(PS_1_1, 0xff).0, &caps());
    let (p, at) = sw(PS_1_1, 0xaa);
    refused_at(&p, &caps(), Code::D3d9Swizzle, at, "mov");
    let mut p = Prog::new(PS_1_1);
    p.op(MOV, 0, &[dst(TEMP, 0, 8), src(TEMP, 1, 0xaa)]);
    accepted(&p, &caps());
}

/// Instruction slots (V911): the first instruction past the limit is named.
#[test]
fn instruction_slots() {
    let movs = |v: u32, n: usize| {
        let mut p = Prog::new(v);
        let mut last = 0;
        for _ in 0..n {
            last = p.op(MOV, 0, &[dst(TEMP, 0, 0xf), src(CONST, 0, XYZW)]);
        }
        (p, last)
    };
    for (v, max, caps) in [
        (VS_2_0, 256, caps()),
        (VS_2_X, 256, caps()),
        (VS_1_1, 128, caps()),
        (VS_3_0, 512, Caps9 { slots_3_0: 512, ..caps() }),
        (PS_2_0, 64, caps()),
        (PS_2_X, 96, Caps9 { ps_2_x_slots: 96, ..caps() }),
        (PS_1_1, 8, caps()),
    ] {
        accepted(&movs(v, max).0, &caps);
        let (p, at) = movs(v, max + 1);
        let m = refused_at(&p, &caps, Code::D3d9Slots, at, "mov");
        assert!(m.contains(&max.to_string()), "{m}");
    }
    accepted(&movs(VS_3_SW, 2000).0, &caps());
    // ps_2_0: 32 texture instructions.
    let texlds = |n: usize| {
        let mut p = Prog::new(PS_2_0);
        dcl(&mut p, 0, (TEXTURE, 0));
        dcl(&mut p, DCL_2D, (SAMPLER, 0));
        let mut last = 0;
        for _ in 0..n {
            last = p.op(TEX, 0, &[dst(TEMP, 0, 0xf), src(TEXTURE, 0, XYZW), src(SAMPLER, 0, XYZW)]);
        }
        (p, last)
    };
    accepted(&texlds(32).0, &caps());
    let (p, at) = texlds(33);
    let m = refused_at(&p, &caps(), Code::D3d9Slots, at, "texld");
    assert!(m.contains("32 texture"), "{m}");
    // A predicated instruction takes one more slot: 127 predicated adds + setp = 255.
    let mut p = Prog::new(VS_2_X);
    p.setp();
    let mut last = 0;
    for _ in 0..127 {
        last = p.predicated(ADD, dst(TEMP, 0, 0xf), &[src(CONST, 0, XYZW), src(TEMP, 1, XYZW)]);
    }
    accepted(&p, &caps());
    p.mov();
    accepted(&p, &caps());
    let at = p.predicated(ADD, dst(TEMP, 0, 0xf), &[src(CONST, 0, XYZW), src(TEMP, 1, XYZW)]);
    refused_at(&p, &caps(), Code::D3d9Slots, at, "add");
    let _ = last;
}

/// Versions that are not Direct3D 9 profiles (V902); streams that do not decode (V901).
#[test]
fn versions_and_decoding() {
    for v in [0xfffe_0100u32, 0xffff_0100, 0xfffe_0400, 0xffff_0202, 0xfffe_0302] {
        let p = Prog::new(v);
        let r = run(&p, &caps());
        assert_eq!(r.diagnostics.len(), 1, "{v:#x}: {:#?}", r.diagnostics);
        assert_eq!(r.diagnostics[0].code, Code::D3d9Profile);
    }
    let mut p = Prog::new(VS_2_0);
    p.mov();
    let mut bytes = p.bytes();
    bytes.truncate(bytes.len() - 4);
    let r = validate::validate(&bytes, &Target::d3d9());
    assert_eq!(r.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::D3d9Unreadable]);
    // Unknown opcode.
    let mut p = Prog::new(VS_2_0);
    p.op(200, 0, &[]);
    assert_eq!(codes(&p, &caps()), [Code::D3d9Unreadable]);
}

/// The create call's stage: a vertex program given to a Direct3D 9 pixel-shader call
/// is refused (V109). Direct3D 10, 11 and 12 create calls take DXBC containers, so a raw
/// program is refused by them at every feature level (V116: Microsoft's
/// ID3D11Device::CreateVertexShader page, pShaderBytecode "a pointer to the compiled
/// shader"; IDirect3DDevice9::CreateVertexShader takes the token array), and a DXBC
/// container by a Direct3D 9 call.
#[test]
fn raw_programs_and_the_target() {
    let mut p = Prog::new(VS_2_0);
    p.mov();
    let bytes = p.bytes();
    let r = validate::validate(&bytes, &Target::d3d9().for_stage(tpf::ProgramType::Pixel));
    assert_eq!(r.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::WrongStage]);
    let r = validate::validate(&bytes, &Target::d3d9().for_stage(tpf::ProgramType::Vertex));
    assert!(r.is_valid());
    let info = r.shader.unwrap();
    assert_eq!((info.stage, info.model, info.level9), (tpf::ProgramType::Vertex, (2, 0), false));
    let mut others: Vec<Target> = FeatureLevel::ALL.iter().map(|&l| Target::d3d11(l, Runtime::D3D11_0)).collect();
    others.extend([Target::d3d12(), Target::d3d10(FeatureLevel::L10_0), Target::d3d10(FeatureLevel::L10_1)]);
    for target in others {
        let r = validate::validate(&bytes, &target);
        assert_eq!(r.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::BytecodeApi], "{target:?}");
        assert!(r.shader.is_none());
    }
    // A pixel program too, through every create call's stage.
    let ps = Prog::new(0xffff_0200).bytes();
    let r = validate::validate(&ps, &Target::default().for_stage(tpf::ProgramType::Pixel));
    assert_eq!(r.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::BytecodeApi]);
    // A DXBC container (or anything else) given to a Direct3D 9 call.
    let r = validate::validate(b"DXBC not really", &Target::d3d9());
    assert_eq!(r.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::BytecodeApi]);
    // The length argument still applies.
    let r = validate::validate_call(&bytes, bytes.len() + 4, &Target::d3d9());
    assert_eq!(r.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::BytecodeLength]);
}

/// `--caps` text.
#[test]
fn caps_text() {
    let c = Caps9::default().parse_over("dynamic-flow-depth=0, static-flow-depth=2,predication=false").unwrap();
    assert_eq!((c.dynamic_flow_depth, c.static_flow_depth, c.predication), (0, 2, false));
    assert!(Caps9::default().parse_over("dynamic-flow-depth=25").is_err());
    assert!(Caps9::default().parse_over("temps=11").is_err());
    assert!(Caps9::default().parse_over("bogus=1").is_err());
    assert!(Caps9::default().parse_over("static-flow-depth").is_err());
    assert_eq!(Caps9::default().parse_over("").unwrap(), Caps9::default());
    assert_eq!(Caps9::for_level(FeatureLevel::L9_3), Caps9::default());
    assert_eq!(Caps9::for_level(FeatureLevel::L9_1).static_flow_depth, 1);
}

/// `texkill` tests its register: a read-only `t#` in ps_2_0 is fine.
#[test]
fn texkill_reads_its_register() {
    let mut p = Prog::new(PS_2_0);
    dcl(&mut p, 0, (TEXTURE, 0));
    p.op(65, 0, &[dst(TEXTURE, 0, 0xf)]);
    accepted(&p, &caps());
    let mut p = Prog::new(PS_2_0);
    let at = p.op(65, 0, &[dst(COLOROUT, 0, 0xf)]);
    refused_at(&p, &caps(), Code::D3d9RegisterType, at, "texkill");
}
