//! Shader Model 1–3 assembly sources at the edges of the per-version rules that
//! `D3DAssemble` enforces: register types and numbers, relative addressing, source and
//! instruction modifiers, co-issue, `dcl` modifiers, instructions by version.
//! Deterministic: the same cases every run.
//!
//! Every case is a small program in the fxc listing syntax (underscore versions, `//`
//! comments): a frame that is valid in its version (the inputs it reads declared and
//! the outputs the Direct3D 9 validator wants written), and one probe in it. Each is
//! recorded twice: with flags 0 (the assembler and the validator) and with
//! `D3DCOMPILE_SKIP_VALIDATION` (the assembler alone), so that the two sets of rules
//! can be told apart. Registers read are written first, so that an accepted probe is
//! not refused by the validator for an uninitialized read.

use crate::AsmCase;

/// The versions of the rules: every Shader Model 1–3 profile D3DAssemble names.
pub const VERSIONS: &[&str] = &[
    "vs_1_1", "vs_2_0", "vs_2_x", "vs_2_sw", "vs_3_0", "vs_3_sw", "ps_1_1", "ps_1_2", "ps_1_3", "ps_1_4", "ps_2_0",
    "ps_2_x", "ps_2_sw", "ps_3_0", "ps_3_sw",
];

fn vs(v: &str) -> bool {
    v.starts_with("vs")
}
fn ps1(v: &str) -> bool {
    v.starts_with("ps_1")
}
fn sm3(v: &str) -> bool {
    v.ends_with("3_0") || v.ends_with("3_sw")
}

/// A program: the version, the frame's declarations, the probe, the frame's output
/// writes, then what must follow the main program (subroutines).
fn program(v: &str, probe: &str, after: &str) -> String {
    let (head, tail) = if vs(v) {
        if sm3(v) {
            ("dcl_position v0\ndcl_position o0\n", "mov o0, v0\n")
        } else {
            ("dcl_position v0\n", "mov oPos, v0\n")
        }
    } else if ps1(v) {
        ("", "mov r0, v0\n")
    } else if sm3(v) {
        ("dcl_color v0\n", "mov oC0, v0\n")
    } else {
        ("dcl v0\n", "mov oC0, v0\n")
    };
    let mut s = format!("{v}\n{head}");
    // Declarations and definitions first, as the validator wants them.
    let first = |l: &str| l.starts_with("dcl") || l.starts_with("def");
    for l in probe.lines().filter(|l| first(l)).chain(probe.lines().filter(|l| !first(l))) {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str(tail);
    for l in after.lines() {
        s.push_str(l);
        s.push('\n');
    }
    s
}

struct Gen {
    out: Vec<AsmCase>,
}

impl Gen {
    /// The probe `probe` in version `v`, under both flag sets.
    fn case(&mut self, family: &str, what: &str, v: &str, probe: &str, after: &str) {
        let source = program(v, probe, after);
        for flags in [0u32, 2] {
            self.out.push(AsmCase {
                name: format!("rules/{family}/{what}/{v}/{flags}"),
                source: source.clone(),
                includes: Vec::new(),
                flags,
            });
        }
    }
}

/// Three source registers that hold values in `v` (written first where needed), and
/// the lines that write them.
fn sources(v: &str) -> ([&'static str; 3], &'static str) {
    if ps1(v) {
        (["v0", "c0", "v1"], "")
    } else {
        (["r1", "r2", "r3"], "mov r1, c0\nmov r2, c1\nmov r3, c2\n")
    }
}

/// How an input register `reg` is declared in `v` (nothing in pixel 1.x).
fn dcl_input(v: &str, reg: &str) -> String {
    if vs(v) {
        format!("dcl_texcoord {reg}\n")
    } else if ps1(v) {
        String::new()
    } else if sm3(v) {
        format!("dcl_texcoord {reg}\n")
    } else {
        format!("dcl {reg}\n")
    }
}

/// How `a0` is written in `v`.
fn set_a0(v: &str) -> &'static str {
    if v == "vs_1_1" || !vs(v) {
        "mov a0.x, c0.x\n"
    } else {
        "mova a0.x, c0.x\n"
    }
}

/// Register types and numbers: each register file at numbers around every limit the
/// register pages give for some version, in a use that the file allows.
fn registers(g: &mut Gen) {
    let numbers: &[(&str, &[u32])] = &[
        ("r", &[1, 2, 5, 6, 11, 12, 31, 32]),
        ("v", &[1, 2, 9, 10, 11, 12, 13, 14, 15, 16, 17]),
        ("c", &[7, 8, 31, 32, 95, 96, 223, 224, 255, 256, 2047, 2048, 8191]),
        ("t", &[0, 3, 4, 5, 6, 7, 8]),
        ("s", &[0, 3, 4, 15, 16]),
        ("i", &[0, 15, 16, 2047]),
        ("b", &[0, 15, 16, 2047]),
        ("p", &[0, 1]),
        ("a", &[0, 1]),
        ("o", &[0, 1, 11, 12, 13, 15, 16]),
        ("oD", &[0, 1, 2]),
        ("oT", &[0, 7, 8]),
        ("oC", &[0, 1, 3, 4]),
    ];
    for v in VERSIONS {
        for (file, ns) in numbers {
            for &n in *ns {
                let reg = format!("{file}{n}");
                let probe = match *file {
                    "r" => format!("mov {reg}, c0\nmov r0, {reg}"),
                    "v" => format!("{}mov r0, {reg}", dcl_input(v, &reg)),
                    "c" => format!("mov r0, {reg}"),
                    "t" if ps1(v) && *v != "ps_1_4" => format!("tex {reg}\nmov r0, {reg}"),
                    "t" if *v == "ps_1_4" => format!("texcrd r0.rgb, {reg}"),
                    "t" if !vs(v) && !sm3(v) => format!("dcl {reg}\nmov r0, {reg}"),
                    "t" => format!("mov r0, {reg}"),
                    "s" => format!("dcl_2d {reg}"),
                    "i" => format!("defi {reg}, 1, 0, 0, 0"),
                    "b" => format!("defb {reg}, true"),
                    "p" => format!("setp_gt {reg}, c0, c1"),
                    "a" => set_a0(v).replace("a0", &reg),
                    "o" if sm3(v) && vs(v) => format!("dcl_texcoord {reg}\nmov {reg}, c0"),
                    "o" => format!("mov {reg}, c0"),
                    "oC" if ps1(v) => format!("mov {reg}, c0"),
                    _ => format!("mov {reg}, c0"),
                };
                g.case("register", &reg, v, &probe, "");
            }
        }
        // The registers without a number.
        let fixed: &[(&str, &str)] = &[
            ("oPos", "mov oPos, c0"),
            ("oFog", "mov oFog, c0.x"),
            ("oPts", "mov oPts, c0.x"),
            ("oDepth", "mov oDepth, c0.x"),
            ("vPos", "dcl vPos.xy\nmov r0, vPos.xy"),
            ("vFace", "dcl vFace\nmov r0, vFace"),
            ("vFace-if", "dcl vFace\nif_gt vFace, c0.x\nendif"),
            ("aL", "defi i0, 1, 0, 0, 0\nloop aL, i0\nendloop"),
        ];
        for (what, probe) in fixed {
            g.case("register", what, v, probe, "");
        }
        // A register read and written in places its file does not allow.
        let misuse: &[(&str, &str)] = &[
            ("write-c", "mov c0, c1"),
            ("write-v", "mov v0, c0"),
            ("read-oPos", "mov r0, oPos"),
            ("read-oC0", "mov oC0, c0\nmov r0, oC0"),
            ("read-o1", "dcl_texcoord o1\nmov o1, c0\nmov r0, o1"),
            ("read-s0", "dcl_2d s0\nmov r0, s0"),
        ];
        for (what, probe) in misuse {
            g.case("register-use", what, v, probe, "");
        }
    }
}

/// Relative addressing: which register files take which address registers, and the
/// address register's swizzle.
fn relative(g: &mut Gen) {
    let in_loop = |body: &str| format!("defi i0, 1, 0, 0, 0\nloop aL, i0\n{body}\nendloop");
    for v in VERSIONS {
        let a0 = set_a0(v);
        let cases: Vec<(&str, String)> = vec![
            ("c-a0.x", format!("{a0}mov r0, c0[a0.x]")),
            ("c-a0.y", format!("{}mov r0, c0[a0.y]", a0.replace("a0.x, c0.x", "a0, c0"))),
            ("c-a0.w", format!("{}mov r0, c0[a0.w]", a0.replace("a0.x, c0.x", "a0, c0"))),
            ("c-a0-offset", format!("{a0}mov r0, c2[a0.x]")),
            ("c-aL", in_loop("mov r0, c0[aL]")),
            ("c-aL.x", in_loop("mov r0, c0[aL.x]")),
            ("c-aL-outside-loop", "mov r0, c0[aL]".to_string()),
            ("v-a0.x", format!("{}{a0}mov r0, v1[a0.x]", dcl_input(v, "v1"))),
            ("v-aL", format!("{}{}", dcl_input(v, "v1"), in_loop("mov r0, v1[aL]"))),
            ("r-a0.x", format!("{a0}mov r1, c0\nmov r0, r1[a0.x]")),
            ("r-aL", format!("mov r1, c0\n{}", in_loop("mov r0, r1[aL]"))),
            ("o-aL", format!("dcl_texcoord o1\n{}", in_loop("mov o1[aL], c0"))),
            ("o-a0.x", format!("dcl_texcoord o1\n{a0}mov o1[a0.x], c0")),
            ("oT-a0.x", format!("{a0}mov oT0[a0.x], c0")),
            ("t-a0.x", format!("{a0}mov r0, t0[a0.x]")),
            ("dst-r-a0.x", format!("{a0}mov r0[a0.x], c0")),
        ];
        for (what, probe) in cases {
            g.case("relative", what, v, &probe, "");
        }
    }
}

/// Source modifiers, each on a temporary register that holds a value.
fn source_modifiers(g: &mut Gen) {
    let mods: &[(&str, &str)] = &[
        ("neg", "-R"),
        ("bias", "R_bias"),
        ("neg-bias", "-R_bias"),
        ("bx2", "R_bx2"),
        ("neg-bx2", "-R_bx2"),
        ("comp", "1-R"),
        ("comp-spaced", "1 - R"),
        ("x2", "R_x2"),
        ("neg-x2", "-R_x2"),
        ("abs", "R_abs"),
        ("neg-abs", "-R_abs"),
        ("dz", "R_dz"),
        ("dw", "R_dw"),
    ];
    for v in VERSIONS {
        let reg = "r1";
        for (what, m) in mods {
            let probe = format!("mov r1, c0\nmov r0, {}", m.replace('R', reg));
            g.case("source-modifier", what, v, &probe, "");
        }
        // `_dz` / `_dw` where the page has them: ps_1_4's `texld` / `texcrd` sources.
        g.case("source-modifier", "texld-dz", v, "texld r0, t0_dz", "");
        g.case("source-modifier", "texld-dw", v, "texld r0, t0_dw", "");
        g.case("source-modifier", "texcrd-dz", v, "texcrd r0.rgb, t0_dz", "");
        // `!` on a boolean constant and on the predicate.
        g.case("source-modifier", "not-b", v, "defb b0, true\nif !b0\nendif", "");
        g.case("source-modifier", "not-p", v, "setp_gt p0, c0, c1\n(!p0) mov r0, c0", "");
        g.case("source-modifier", "pred-p", v, "setp_gt p0, c0, c1\n(p0) mov r0, c0", "");
    }
}

/// Instruction (result) modifiers and co-issue.
fn instruction_modifiers(g: &mut Gen) {
    let mods = ["sat", "pp", "centroid", "x2", "x4", "x8", "d2", "d4", "d8", "sat_pp", "x2_sat"];
    for v in VERSIONS {
        for m in mods {
            g.case("instruction-modifier", m, v, &format!("mov_{m} r0, c0"), "");
        }
        // `_centroid` where the pages have it: texture reads in pixel 2_0 and later.
        g.case("instruction-modifier", "texld-centroid", v, "dcl t0\ndcl_2d s0\ntexld_centroid r0, t0, s0", "");
        g.case("instruction-modifier", "texld-pp", v, "dcl t0\ndcl_2d s0\ntexld_pp r0, t0, s0", "");
        g.case("coissue", "rgb-a", v, "mov r0.rgb, c0\n+mov r0.a, c1", "");
        g.case("coissue", "xyz-w", v, "mov r0.xyz, c0\n+mov r0.w, c1", "");
    }
}

/// `dcl` modifiers and the registers a `dcl` may name.
fn dcl(g: &mut Gen) {
    let cases: &[(&str, &str)] = &[
        ("output-oC0", "dcl oC0"),
        ("output-color-oC0", "dcl_color oC0"),
        ("output-oDepth", "dcl oDepth"),
        ("output-o0", "dcl_texcoord o1"),
        ("output-oT0", "dcl_texcoord oT0"),
        ("output-oPos", "dcl_position oPos"),
        ("sat-t", "dcl_sat t0"),
        ("sat-v", "dcl_texcoord_sat v1"),
        ("sat-o", "dcl_texcoord_sat o1"),
        ("x2-t", "dcl_x2 t0"),
        ("x2-v", "dcl_texcoord_x2 v1"),
        ("centroid-t", "dcl_centroid t0"),
        ("centroid-v", "dcl_texcoord_centroid v1"),
        ("centroid-color-v", "dcl_color1_centroid v1"),
        ("centroid-o", "dcl_texcoord_centroid o1"),
        ("centroid-s", "dcl_2d_centroid s0"),
        ("pp-t", "dcl_pp t0"),
        ("pp-v", "dcl_texcoord_pp v1"),
        ("pp-o", "dcl_texcoord_pp o1"),
        ("pp-s", "dcl_2d_pp s0"),
        ("pp-cube-s", "dcl_cube_pp s1"),
        ("usage-v", "dcl_texcoord v1"),
        ("usage-t", "dcl_texcoord t0"),
        ("plain-v", "dcl v1"),
        ("plain-s", "dcl s0"),
        ("volume-s", "dcl_volume s0"),
        ("2d-t", "dcl_2d t0"),
        ("r", "dcl r0"),
        ("c", "dcl c0"),
    ];
    for v in VERSIONS {
        for (what, probe) in cases {
            g.case("dcl", what, v, probe, "");
        }
    }
    // Every usage, on an input and (vs_3_0) an output.
    let usages = [
        "position",
        "blendweight",
        "blendindices",
        "normal",
        "psize",
        "texcoord",
        "tangent",
        "binormal",
        "tessfactor",
        "positiont",
        "color",
        "fog",
        "depth",
        "sample",
    ];
    for v in VERSIONS {
        for u in usages {
            g.case("dcl-usage", &format!("{u}-v"), v, &format!("dcl_{u}1 v1"), "");
            g.case("dcl-usage", &format!("{u}-o"), v, &format!("dcl_{u}1 o1"), "");
            g.case("dcl-usage", &format!("{u}0-v"), v, &format!("dcl_{u} v1"), "");
        }
        g.case("dcl-usage", "texcoord15-v", v, "dcl_texcoord15 v1", "");
    }
}

/// Every instruction in every version: a form of it that is valid where it exists.
fn instructions(g: &mut Gen) {
    for v in VERSIONS {
        let ([a, b, c], init) = sources(v);
        let r = |s: &str| s.replace("$a", a).replace("$b", b).replace("$c", c);
        let arith: Vec<(&str, String)> = vec![
            ("nop", "nop".into()),
            ("mov", r("mov r0, $a")),
            ("add", r("add r0, $a, $b")),
            ("sub", r("sub r0, $a, $b")),
            ("mad", r("mad r0, $a, $b, $c")),
            ("mul", r("mul r0, $a, $b")),
            ("rcp", r("rcp r0, $a.x")),
            ("rsq", r("rsq r0, $a.x")),
            ("dp3", r("dp3 r0, $a, $b")),
            ("dp4", r("dp4 r0, $a, $b")),
            ("min", r("min r0, $a, $b")),
            ("max", r("max r0, $a, $b")),
            ("slt", r("slt r0, $a, $b")),
            ("sge", r("sge r0, $a, $b")),
            ("exp", r("exp r0, $a.x")),
            ("log", r("log r0, $a.x")),
            ("lit", r("lit r0, $a")),
            ("dst", r("dst r0, $a, $b")),
            ("lrp", r("lrp r0, $a, $b, $c")),
            ("frc", r("frc r0, $a")),
            ("m4x4", "m4x4 r0, $a, c4".replace("$a", a)),
            ("m4x3", "m4x3 r0.xyz, $a, c4".replace("$a", a)),
            ("m3x4", "m3x4 r0, $a, c4".replace("$a", a)),
            ("m3x3", "m3x3 r0.xyz, $a, c4".replace("$a", a)),
            ("m3x2", "m3x2 r0.xy, $a, c4".replace("$a", a)),
            ("pow", r("pow r0, $a.x, $b.y")),
            ("crs", r("crs r0.xyz, $a, $b")),
            ("sgn", r("sgn r0, $a, $b, $c")),
            ("abs", r("abs r0, $a")),
            ("nrm", r("nrm r0, $a")),
            ("expp", r("expp r0, $a.x")),
            ("logp", r("logp r0, $a.x")),
            ("cnd", r("mov r0, $a\ncnd r0, r0.a, $a, $b")),
            ("cmp", r("cmp r0, $a, $b, $c")),
            ("dp2add", r("dp2add r0, $a, $b, $c.x")),
            ("dsx", r("dsx r0, $a")),
            ("dsy", r("dsy r0, $a")),
            ("mova", "mova a0.x, c0.x".into()),
            ("def", "def c0, 1, 0, 0, 0".into()),
            ("defi", "defi i0, 1, 0, 0, 0".into()),
            ("defb", "defb b0, true".into()),
            ("setp", r("setp_gt p0, $a, $b")),
            ("bem", "texld r1, t0\nbem r0.rg, r1, c0".into()),
            ("texdepth", "texcrd r5.rgb, t0\ntexdepth r5".into()),
            ("phase", "texld r1, t0\nphase\nmov r0, r1".into()),
            ("sincos-2", r("def c5, 1, 0, 0, 0\ndef c6, 1, 0, 0, 0\nsincos r0.xy, $a.x, c5, c6")),
            ("sincos-3", r("sincos r0.xy, $a.x")),
        ];
        for (what, probe) in arith {
            g.case("instruction", what, v, &format!("{init}{probe}"), "");
        }
        let flow: Vec<(&str, String, &str)> = vec![
            ("call", "call l0".into(), "ret\nlabel l0\nret"),
            ("callnz", "defb b0, true\ncallnz l0, b0".into(), "ret\nlabel l0\nret"),
            ("loop", "defi i0, 1, 0, 0, 0\nloop aL, i0\nendloop".into(), ""),
            ("rep", "defi i0, 1, 0, 0, 0\nrep i0\nendrep".into(), ""),
            ("if", "defb b0, true\nif b0\nelse\nendif".into(), ""),
            ("ifc", r("if_gt $a.x, $b.x\nendif"), ""),
            ("break", "defi i0, 1, 0, 0, 0\nrep i0\nbreak\nendrep".into(), ""),
            ("breakc", r("defi i0, 1, 0, 0, 0\nrep i0\nbreak_gt $a.x, $b.x\nendrep"), ""),
            ("breakp", r("setp_gt p0, $a, $b\ndefi i0, 1, 0, 0, 0\nrep i0\nbreakp p0.x\nendrep"), ""),
        ];
        for (what, probe, after) in flow {
            g.case("instruction", what, v, &format!("{init}{probe}"), after);
        }
        // Texture instructions, in the form of each version.
        let tex_in = if ps1(v) {
            ""
        } else if sm3(v) {
            "dcl_texcoord v1\ndcl_2d s0\n"
        } else {
            "dcl t0\ndcl_2d s0\n"
        };
        let coord = if sm3(v) { "v1" } else { "t0" };
        let tex: Vec<(&str, String)> = vec![
            ("tex", "tex t0".into()),
            ("texcoord", "texcoord t0".into()),
            ("texcrd", "texcrd r0.rgb, t0".into()),
            ("texld-1_4", "texld r0, t0".into()),
            ("texld", format!("{tex_in}texld r0, {coord}, s0")),
            ("texldp", format!("{tex_in}texldp r0, {coord}, s0")),
            ("texldb", format!("{tex_in}texldb r0, {coord}, s0")),
            ("texldp-1_4", "texldp r0, t0".into()),
            ("texldd", format!("{tex_in}{init}texldd r0, {coord}, s0, r1, r2")),
            ("texldl", format!("{tex_in}{init}texldl r0, r1, s0")),
            ("texldl-vs", format!("dcl_2d s0\n{init}texldl r0, r1, s0")),
            ("texkill", if ps1(v) { "texkill t0".into() } else { format!("{init}texkill r1") }),
            ("texbem", "tex t0\ntexbem t1, t0".into()),
            ("texbeml", "tex t0\ntexbeml t1, t0".into()),
            ("texreg2ar", "tex t0\ntexreg2ar t1, t0".into()),
            ("texreg2gb", "tex t0\ntexreg2gb t1, t0".into()),
            ("texreg2rgb", "tex t0\ntexreg2rgb t1, t0".into()),
            ("texm3x2pad", "tex t0\ntexm3x2pad t1, t0\ntexm3x2tex t2, t0".into()),
            ("texm3x2depth", "tex t0\ntexm3x2pad t1, t0\ntexm3x2depth t2, t0".into()),
            ("texm3x3pad", "tex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3tex t3, t0".into()),
            ("texm3x3", "tex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3 t3, t0".into()),
            ("texm3x3spec", "tex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3spec t3, t0, c0".into()),
            ("texm3x3vspec", "tex t0\ntexm3x3pad t1, t0\ntexm3x3pad t2, t0\ntexm3x3vspec t3, t0".into()),
            ("texdp3tex", "tex t0\ntexdp3tex t1, t0".into()),
            ("texdp3", "tex t0\ntexdp3 t1, t0".into()),
        ];
        for (what, probe) in tex {
            g.case("instruction", what, v, &probe, "");
        }
    }
}

/// A definition after an instruction (the validator refuses it; the assembler does
/// not): written out, not reordered.
fn order(g: &mut Gen) {
    for v in VERSIONS {
        let mut source = program(v, "", "");
        let at = source.find('\n').map_or(0, |i| i + 1);
        source.insert_str(at, "mov r0, c0\ndef c1, 1, 0, 0, 0\n");
        for flags in [0u32, 2] {
            g.out.push(AsmCase {
                name: format!("rules/order/def-after-instruction/{v}/{flags}"),
                source: source.clone(),
                includes: Vec::new(),
                flags,
            });
        }
    }
}

/// The version line: every name a version could be written with.
fn versions(g: &mut Gen) {
    let names = [
        "vs_1_0", "vs_1_1", "vs_2_0", "vs_2_a", "vs_2_x", "vs_2_sw", "vs_3_0", "vs_3_sw", "ps_1_0", "ps_1_1", "ps_1_2",
        "ps_1_3", "ps_1_4", "ps_2_0", "ps_2_a", "ps_2_b", "ps_2_x", "ps_2_sw", "ps_3_0", "ps_3_sw",
    ];
    for v in names {
        g.case("version", "frame", v, "", "");
    }
}

/// Forms the token format encodes that the parser reads with a warning: a `def*` of
/// another register file, `loop` on another register, a comparison instruction without
/// its comparison, a predicate other than `p0`, `!` on another register, an index
/// through another register or more than one component, `a0` written by `mov` where
/// `mova` exists, an empty write mask.
fn forms(g: &mut Gen) {
    let cases: &[(&str, &str)] = &[
        ("def-r", "def r0, 1, 0, 0, 0"),
        ("def-i", "def i0, 1, 0, 0, 0"),
        ("defi-c", "defi c0, 1, 0, 0, 0"),
        ("defb-i", "defb i0, true"),
        ("defb-c", "defb c0, true"),
        ("loop-a0", "defi i0, 1, 0, 0, 0\nloop a0, i0\nendloop"),
        ("loop-r", "defi i0, 1, 0, 0, 0\nloop r0, i0\nendloop"),
        ("setp-no-comparison", "setp p0, c0, c1"),
        ("if-no-comparison", "if c0.x, c1.x\nendif"),
        ("pred-b0", "defb b0, true\n(b0) mov r0, c0"),
        ("pred-p0-swizzle", "setp_gt p0, c0, c1\n(p0.x) mov r0, c0"),
        ("not-r", "mov r1, c0\nmov r0, !r1"),
        ("not-c", "mov r0, !c0"),
        ("index-r", "mov r1, c0\nmov r0, c0[r1.x]"),
        ("index-i", "defi i0, 1, 0, 0, 0\nmov r0, c0[i0.x]"),
        ("index-a0.xy", "mova a0, c0\nmov r0, c0[a0.xy]"),
        ("index-a0-no-swizzle", "mova a0, c0\nmov r0, c0[a0]"),
        ("index-offset-first", "mova a0.x, c0.x\nmov r0, c[4 + a0.x]"),
        ("mov-a0", "mov a0.x, c0.x"),
        ("mova-a0", "mova a0.x, c0.x"),
        ("empty-mask", "mov r0., c0"),
        ("label-2047", "call l2047"),
        ("oX3", "mov oX3, c0"),
        ("m2", "mov r0, m2"),
    ];
    for v in VERSIONS {
        for (what, probe) in cases {
            let after = if what.starts_with("label") { "ret\nlabel l2047\nret" } else { "" };
            g.case("forms", what, v, probe, after);
        }
    }
}

/// Every rules case.
pub fn generate() -> Vec<AsmCase> {
    let mut g = Gen { out: Vec::new() };
    registers(&mut g);
    relative(&mut g);
    source_modifiers(&mut g);
    instruction_modifiers(&mut g);
    dcl(&mut g);
    instructions(&mut g);
    order(&mut g);
    versions(&mut g);
    forms(&mut g);
    g.out
}
