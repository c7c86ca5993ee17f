//! Shader Model 1–3 assembly sources that exercise `D3DAssemble`'s grammar: how it
//! spells versions, comments, the preprocessor, literals, swizzles and register
//! indices, and what layout it allows. Deterministic: the same cases every run.
//!
//! Each construct is written into a program of every version (vs_1_1 ... ps_3_0) that
//! the Direct3D 9 validator accepts (what it reads is written first), so that those
//! cases are asked with validation on (flags 0); near-miss spellings are asked the
//! same way, and forms whose only point is the grammar (relative addressing, which
//! needs an initialised address register) with `D3DCOMPILE_SKIP_VALIDATION`.

use crate::AsmCase;

const SKIP_VALIDATION: u32 = 0x2;

/// The versions, as (underscore name, dotted name).
const VERSIONS: [(&str, &str); 11] = [
    ("vs_1_1", "vs.1.1"),
    ("vs_2_0", "vs.2.0"),
    ("vs_2_x", "vs.2.x"),
    ("vs_3_0", "vs.3.0"),
    ("ps_1_1", "ps.1.1"),
    ("ps_1_2", "ps.1.2"),
    ("ps_1_3", "ps.1.3"),
    ("ps_1_4", "ps.1.4"),
    ("ps_2_0", "ps.2.0"),
    ("ps_2_x", "ps.2.x"),
    ("ps_3_0", "ps.3.0"),
];

fn is_vs(v: &str) -> bool {
    v.starts_with("vs")
}
fn is_ps1(v: &str) -> bool {
    v.starts_with("ps_1")
}

/// The declarations a program of `v` needs before its body (vs_3_0 declares `o0`).
fn decls(v: &str) -> &'static str {
    if v == "vs_3_0" {
        "dcl_position o0\n"
    } else {
        ""
    }
}

/// The output register of `v` (what the program must write).
fn out(v: &str) -> &'static str {
    match v {
        "vs_3_0" => "o0",
        _ if is_vs(v) => "oPos",
        _ if is_ps1(v) => "r0",
        _ => "oC0",
    }
}

/// A program of `v` (written with `version`) that runs `body` and writes `src` to the
/// output.
fn program(v: &str, version: &str, body: &str, src: &str) -> String {
    format!("{version}\n{}{body}mov {}, {src}\n", decls(v), out(v))
}

struct Gen {
    out: Vec<AsmCase>,
}

impl Gen {
    fn add(&mut self, family: &str, v: &str, what: &str, source: String, flags: u32) {
        self.add_with(family, v, what, source, Vec::new(), flags);
    }
    fn add_with(
        &mut self,
        family: &str,
        v: &str,
        what: &str,
        source: String,
        includes: Vec<(String, String)>,
        flags: u32,
    ) {
        let name = format!("grammar/{family}/{v}/{what}");
        self.out.push(AsmCase { name, source, includes, flags });
    }
}

/// Every grammar case.
pub fn generate() -> Vec<AsmCase> {
    let mut g = Gen { out: Vec::new() };
    for (v, dotted) in VERSIONS {
        versions(&mut g, v, dotted);
        comments(&mut g, v, dotted);
        layout(&mut g, v, dotted);
        literals(&mut g, v, dotted);
        swizzles(&mut g, v, dotted);
        indices(&mut g, v, dotted);
        signs(&mut g, v, dotted);
        preprocessor(&mut g, v, dotted);
        includes(&mut g, v, dotted);
        programs(&mut g, v, dotted);
    }
    other_versions(&mut g);
    g.out
}

fn versions(g: &mut Gen, v: &str, dotted: &str) {
    let upper = dotted.to_ascii_uppercase();
    let (kind, rest) = dotted.split_at(2);
    let spaced = format!("{kind} {}", rest.replace('.', " . "));
    let half = format!("{kind} {rest}");
    let tail_dot = format!("{dotted}.");
    let mixed = format!("{kind}_{}", &rest[1..]);
    let cases: [(&str, String); 9] = [
        ("underscore", v.to_string()),
        ("dotted", dotted.to_string()),
        ("upper", upper),
        ("upper-underscore", v.to_ascii_uppercase()),
        ("spaced", spaced),
        ("space-before-dot", half),
        ("trailing-dot", tail_dot),
        ("mixed-separators", mixed),
        ("indented", format!("\t  {dotted}")),
    ];
    for (what, version) in cases {
        g.add("version", v, what, program(v, &version, "", "c0"), 0);
    }
    // The version on the same line as the first instruction; instructions before it.
    g.add("version", v, "same-line", format!("{dotted} {}mov {}, c0\n", decls(v).replace('\n', " "), out(v)), 0);
    g.add("version", v, "after-instruction", format!("mov {}, c0\n{dotted}\n", out(v)), 0);
    g.add("version", v, "twice", program(v, &format!("{dotted}\n{dotted}"), "", "c0"), 0);
    g.add("version", v, "missing", format!("{}mov {}, c0\n", decls(v), out(v)), 0);
    g.add("version", v, "empty-source", String::new(), 0);
    g.add("version", v, "only-version", format!("{dotted}\n"), SKIP_VALIDATION);
}

fn other_versions(g: &mut Gen) {
    let progs = [
        ("vs.1.0", "mov oPos, c0\n"),
        ("vs_1_0", "mov oPos, c0\n"),
        ("ps.1.0", "mov r0, c0\n"),
        ("ps_1_0", "mov r0, c0\n"),
        ("vs.2.a", "mov oPos, c0\n"),
        ("vs_2_a", "mov oPos, c0\n"),
        ("ps.2.a", "mov oC0, c0\n"),
        ("ps_2_a", "mov oC0, c0\n"),
        ("ps.2.b", "mov oC0, c0\n"),
        ("ps_2_b", "mov oC0, c0\n"),
        ("vs.2.sw", "mov oPos, c0\n"),
        ("vs_2_sw", "mov oPos, c0\n"),
        ("ps.2.sw", "mov oC0, c0\n"),
        ("ps_2_sw", "mov oC0, c0\n"),
        ("vs.3.sw", "dcl_position o0\nmov o0, c0\n"),
        ("vs_3_sw", "dcl_position o0\nmov o0, c0\n"),
        ("ps.3.sw", "mov oC0, c0\n"),
        ("ps_3_sw", "mov oC0, c0\n"),
        ("vs.1.2", "mov oPos, c0\n"),
        ("ps.1.5", "mov r0, c0\n"),
        ("vs.4.0", "mov oPos, c0\n"),
        ("vs.2.1", "mov oPos, c0\n"),
        ("tx.1.0", "mov r0, c0\n"),
        ("vs.1.1.1", "mov oPos, c0\n"),
        ("vs.01.1", "mov oPos, c0\n"),
        ("vs_2_X", "mov oPos, c0\n"),
        ("vs.2.X", "mov oPos, c0\n"),
    ];
    for (ver, body) in progs {
        g.add("version-other", "any", ver, format!("{ver}\n{body}"), 0);
        g.add("version-other", "any", &format!("{ver}-novalidate"), format!("{ver}\n{body}"), SKIP_VALIDATION);
    }
}

fn comments(g: &mut Gen, v: &str, dotted: &str) {
    let o = out(v);
    let d = decls(v);
    let cases: [(&str, String); 14] = [
        ("semicolon-after", format!("{dotted} ; the version\n{d}mov {o}, c0 ; a comment\n")),
        ("semicolon-line", format!("; first\n{dotted}\n;\n{d}; between\nmov {o}, c0\n; last")),
        ("slashes", format!("// first\n{dotted} // the version\n{d}mov {o}, c0 // a comment\n")),
        ("block-inline", format!("{dotted}\n{d}mov /* the output */ {o}, /* a constant */ c0\n")),
        ("block-lines", format!("/* a\n   header\n*/ {dotted}\n{d}/* x */mov {o}, c0 /* y\n z */\n")),
        ("block-in-semicolon", format!("{dotted}\n{d}mov r1, c0 ; /* not opened\nmov {o}, c0\n")),
        ("quotes-in-semicolon", format!("{dotted}\n{d}mov {o}, c0 ; don't \"stop\n")),
        ("quotes-in-slashes", format!("{dotted}\n{d}mov {o}, c0 // it's\n")),
        ("block-unclosed", format!("{dotted}\n{d}mov {o}, c0 /* never closed\n")),
        ("hash-comment", format!("{dotted}\n{d}mov {o}, c0 # not a comment\n")),
        ("semicolon-in-operand", format!("{dotted}\n{d}mov {o};, c0\n")),
        ("block-in-register", format!("{dotted}\n{d}mov {o}, c/**/0\n")),
        ("slash-alone", format!("{dotted}\n{d}mov {o}, c0 / 2\n")),
        ("nested-block", format!("{dotted}\n{d}/* a /* b */ mov {o}, c0\n")),
    ];
    for (what, source) in cases {
        g.add("comment", v, what, source, 0);
    }
}

fn layout(g: &mut Gen, v: &str, dotted: &str) {
    let o = out(v);
    let d = decls(v);
    let dl = d.replace('\n', " ");
    let cases: [(&str, String); 20] = [
        ("two-per-line", format!("{dotted}\n{d}mov r1, c0 mov {o}, r1\n")),
        ("all-on-one-line", format!("{dotted} {dl}mov r1, c0 mov {o}, r1")),
        ("split-after-comma", format!("{dotted}\n{d}mov {o},\n  c0\n")),
        ("split-before-comma", format!("{dotted}\n{d}mov {o}\n , c0\n")),
        ("split-after-mnemonic", format!("{dotted}\n{d}mov\n{o}, c0\n")),
        ("tabs", format!("\t{dotted}\n{d}\tmov\t{o},\tc0\n")),
        ("no-space-after-comma", format!("{dotted}\n{d}mov {o},c0\n")),
        ("space-before-comma", format!("{dotted}\n{d}mov {o} , c0\n")),
        ("crlf", format!("{dotted}\r\n{}mov {o}, c0\r\n", d.replace('\n', "\r\n"))),
        ("no-final-newline", format!("{dotted}\n{d}mov {o}, c0")),
        ("blank-lines", format!("\n\n{dotted}\n\n{d}\n\nmov {o}, c0\n\n")),
        ("upper-mnemonic", format!("{dotted}\n{d}MOV {o}, c0\n")),
        ("upper-register", format!("{dotted}\n{d}mov {o}, C0\n")),
        ("upper-mask", format!("{dotted}\n{d}mov {o}.XYZW, c0\n")),
        ("upper-swizzle", format!("{dotted}\n{d}mov {o}, c0.XYZW\n")),
        ("space-in-register", format!("{dotted}\n{d}mov {o}, c 0\n")),
        ("spaces-around-dot", format!("{dotted}\n{d}mov {o} . xyzw , c0 . xyzw\n")),
        ("trailing-comma", format!("{dotted}\n{d}mov {o}, c0,\n")),
        ("missing-comma", format!("{dotted}\n{d}mov {o} c0\n")),
        ("double-comma", format!("{dotted}\n{d}mov {o},, c0\n")),
    ];
    for (what, source) in cases {
        g.add("layout", v, what, source, 0);
    }
    // The modifier spelling of the mnemonic.
    let sat = [
        ("sat", format!("{dotted}\n{d}mov_sat {o}, c0\n")),
        ("sat-spaced", format!("{dotted}\n{d}mov _sat {o}, c0\n")),
        ("sat-upper", format!("{dotted}\n{d}mov_SAT {o}, c0\n")),
    ];
    for (what, source) in sat {
        g.add("layout", v, what, source, SKIP_VALIDATION);
    }
    // Operand counts.
    let counts = [
        ("one-operand-short", format!("{dotted}\n{d}mov {o}\n")),
        ("one-operand-extra", format!("{dotted}\n{d}mov {o}, c0, c1\n")),
        ("add-short", format!("{dotted}\n{d}add {o}, c0\n")),
        ("nop-between", format!("{dotted}\n{d}nop mov {o}, c0 nop\n")),
    ];
    for (what, source) in counts {
        g.add("layout", v, what, source, 0);
    }
    if is_ps1(v) {
        let co = [
            ("coissue", format!("{dotted}\nmov r0.rgb, c0\n+mov r0.a, c0\n")),
            ("coissue-spaced", format!("{dotted}\nmov r0.rgb, c0\n+ mov r0.a, c0\n")),
            ("coissue-same-line", format!("{dotted}\nmov r0.rgb, c0 +mov r0.a, c0\n")),
        ];
        for (what, source) in co {
            g.add("layout", v, what, source, 0);
        }
    }
    if !v.contains("_1_") {
        let pred = [
            (
                "predicate",
                format!("{dotted}\n{d}def c1, 1, 0, 0, 0\nsetp_gt p0, c1, c0\nmov {o}, c0\n(p0) mov {o}, c1\n"),
            ),
            (
                "predicate-spaced",
                format!("{dotted}\n{d}def c1, 1, 0, 0, 0\nsetp_gt p0, c1, c0\nmov {o}, c0\n( !p0 . x ) mov {o}, c1\n"),
            ),
            (
                "predicate-glued",
                format!("{dotted}\n{d}def c1, 1, 0, 0, 0\nsetp_gt p0, c1, c0\nmov {o}, c0\n(p0.x)mov {o}, c1\n"),
            ),
        ];
        for (what, source) in pred {
            // Predication exists in vs_2_x, ps_2_x and Shader Model 3 only: elsewhere the
            // validator refuses it; the grammar question is asked without it.
            g.add("layout", v, what, source, SKIP_VALIDATION);
        }
    }
}

fn literals(g: &mut Gen, v: &str, dotted: &str) {
    let d = decls(v);
    // ps_1_x constants are within [-1, 1].
    let vals = [
        ("plain", "0.5, -0.5, 1, 0"),
        ("suffix-f", "0.5f, -0.5f, 1.0f, 0.0f"),
        ("suffix-upper-f", "0.5F, 1.0F, 0, 0"),
        ("suffix-dot-f", "1.f, 0.f, -1.f, 0"),
        ("leading-dot", ".5, -.25, .5f, 0"),
        ("exponent", "5e-1, 2.5e-1f, 1e0, 0E0"),
        ("exponent-plus", "5e+0, 1e+0f, 0, 0"),
        ("space-after-minus", "- 0.5, - 1, -0.25, 0"),
        ("plus-sign", "+0.5, + 1, 0, 0"),
        ("integers", "1, 0, -1, 0"),
        ("hex", "0x3f000000, 0, 0, 0"),
        ("double-f", "0.5ff, 0, 0, 0"),
        ("suffix-h", "0.5h, 0, 0, 0"),
        ("suffix-l", "0.5l, 0, 0, 0"),
        ("two-dots", "0.5.5, 0, 0, 0"),
        ("inf-text", "1.#INF, 0, 0, 0"),
        ("three-values", "0.5, 0, 0"),
        ("five-values", "0.5, 0, 0, 0, 0"),
        ("double-minus", "--0.5, 0, 0, 0"),
        ("trailing-e", "1e, 0, 0, 0"),
        ("expression", "1 + 1, 0, 0, 0"),
        ("parenthesised", "(0.5), 0, 0, 0"),
    ];
    for (what, vals) in vals {
        let body = format!("def c1, {vals}\n");
        g.add("def", v, what, format!("{dotted}\n{d}{body}mov {}, c1\n", out(v)), 0);
    }
    if !v.contains("_1_") {
        let ints = [
            ("plain", "2, 0, 1, 0"),
            ("space-after-minus", "2, - 1, 1, 0"),
            ("hex", "0x10, 0, 1, 0"),
            ("float", "1.0, 0, 1, 0"),
            ("suffix-f", "1f, 0, 1, 0"),
            ("plus-sign", "+1, 0, 1, 0"),
        ];
        for (what, vals) in ints {
            // The validator's ranges for `i#` differ by version: grammar only.
            g.add("defi", v, what, format!("{dotted}\n{d}defi i0, {vals}\nmov {}, c0\n", out(v)), SKIP_VALIDATION);
        }
        let bools = [("true", "true"), ("false", "false"), ("upper", "TRUE"), ("one", "1"), ("zero", "0")];
        for (what, val) in bools {
            g.add("defb", v, what, format!("{dotted}\n{d}defb b0, {val}\nmov {}, c0\n", out(v)), 0);
        }
    }
}

fn swizzles(g: &mut Gen, v: &str, dotted: &str) {
    let d = decls(v);
    let o = out(v);
    let srcs = [
        ("xyzw", "c0.xyzw"),
        ("rgba", "c0.rgba"),
        ("x", "c0.x"),
        ("a", "c0.a"),
        ("xy", "c0.xy"),
        ("xyz", "c0.xyz"),
        ("mixed-xygb", "c0.xygb"),
        ("mixed-rgzw", "c0.rgzw"),
        ("mixed-xg", "c0.xg"),
        ("wzyx", "c0.wzyx"),
        ("abgr", "c0.abgr"),
        ("five", "c0.xyzwx"),
        ("bad-letter", "c0.xyzq"),
        ("empty", "c0."),
        ("two-dots", "c0..x"),
    ];
    for (what, src) in srcs {
        g.add("swizzle", v, what, program(v, dotted, "", src), SKIP_VALIDATION);
    }
    // Write masks on a temporary (every component written before it is read).
    let masks = [
        ("xyzw", "r1.xyzw"),
        ("rgba", "r1.rgba"),
        ("mixed-xg", "r1.xg"),
        ("mixed-rgzw", "r1.rgzw"),
        ("mixed-xgba", "r1.xgba"),
        ("out-of-order", "r1.yx"),
        ("repeated", "r1.xx"),
        ("bad-letter", "r1.q"),
    ];
    for (what, dst) in masks {
        let body = format!("mov r1, c0\nmov {dst}, c0\n");
        g.add("mask", v, what, format!("{dotted}\n{d}{body}mov {o}, r1\n"), SKIP_VALIDATION);
    }
}

fn indices(g: &mut Gen, v: &str, dotted: &str) {
    let d = decls(v);
    let o = out(v);
    // Constant index arithmetic: no address register, every version.
    let consts = [
        ("bracket", "c[2]"),
        ("sum", "c[2 + 10 + 12]"),
        ("number-and-bracket", "c4[2]"),
        ("number-and-sum", "c4[2 + 1]"),
        ("spaced-bracket", "c [ 3 ]"),
        ("difference", "c[5 - 1]"),
        ("product", "c[2 * 3]"),
        ("parenthesised", "c[(2 + 3)]"),
        ("empty-bracket", "c[]"),
        ("two-brackets", "c[1][2]"),
        ("negative", "c[-1]"),
        ("hex", "c[0x10]"),
    ];
    for (what, src) in consts {
        g.add("index", v, what, program(v, dotted, "", src), 0);
    }
    // Relative addressing: grammar only (the address register is not initialised).
    let rel: Vec<(&str, String)> = if is_vs(v) {
        let mut r = vec![
            ("a0", "c[a0.x]".to_string()),
            ("lead-and-a0-and-tail", "c[2 + a0.x + 12]".to_string()),
            ("a0-plus", "c[a0.x + 3]".to_string()),
            ("number-and-a0", "c4[a0.x]".to_string()),
            ("number-and-a0-plus", "c4[a0.x + 2]".to_string()),
            ("a0-minus", "c[a0.x - 1]".to_string()),
            ("two-a0", "c[a0.x + a0.x]".to_string()),
            ("a0-spaced", "c[ a0 . x + 1 ]".to_string()),
            ("a0-no-component", "c[a0]".to_string()),
            ("a0-y", "c[a0.y]".to_string()),
        ];
        if v != "vs_1_1" {
            r.push(("aL", "c[aL]".to_string()));
            r.push(("aL-sum", "c[aL + 1 + 3]".to_string()));
        }
        if v == "vs_3_0" {
            r.push(("input-aL-sum", "v0[aL + 1 + 3]".to_string()));
            r.push(("input-lead-aL", "v[2 + aL]".to_string()));
        }
        r
    } else if v == "ps_3_0" {
        vec![
            ("input-aL", "v0[aL]".to_string()),
            ("input-aL-sum", "v0[aL + 1 + 3]".to_string()),
            ("const-aL", "c[2 + aL + 1]".to_string()),
        ]
    } else {
        Vec::new()
    };
    let body = if v == "vs_3_0" {
        "dcl_texcoord v0\ndcl_texcoord1 v4\n"
    } else if v == "ps_3_0" {
        "dcl_texcoord v0\ndcl_texcoord1 v4\n"
    } else {
        ""
    };
    for (what, src) in rel {
        g.add("index-relative", v, what, format!("{dotted}\n{d}{body}mov {o}, {src}\n"), SKIP_VALIDATION);
    }
}

fn signs(g: &mut Gen, v: &str, dotted: &str) {
    let mut srcs = vec![
        ("minus", "-c0"),
        ("minus-space", "- c0"),
        ("minus-tab", "-\tc0"),
        ("minus-minus", "- -c0"),
        ("plus", "+c0"),
        ("not", "!c0"),
    ];
    if is_ps1(v) {
        srcs.extend([
            ("complement", "1 - c0"),
            ("complement-glued", "1-c0"),
            ("complement-spaced", "1 -  c0"),
            ("two-minus", "2 - c0"),
        ]);
    }
    if !v.contains("_1_") {
        srcs.extend([("abs-minus-space", "- c0_abs"), ("abs", "c0_abs")]);
    }
    for (what, src) in srcs {
        g.add("sign", v, what, program(v, dotted, "", src), SKIP_VALIDATION);
    }
    // `!` on a register other than the predicate: the grammar takes it, the validator
    // does not.
    g.add("sign", v, "not-validated", program(v, dotted, "", "!c0"), 0);
}

fn preprocessor(g: &mut Gen, v: &str, dotted: &str) {
    let d = decls(v);
    let o = out(v);
    let cases: Vec<(&str, String)> = vec![
        ("define-object", format!("#define SRC c0\n{dotted}\n{d}mov {o}, SRC\n")),
        ("define-swizzled", format!("#define SRC c0\n{dotted}\n{d}mov {o}, SRC.xyzw\n")),
        ("define-version", format!("#define VER {dotted}\nVER\n{d}mov {o}, c0\n")),
        ("define-instruction", format!("{dotted}\n#define OUT mov {o}, c0\n{d}OUT\n")),
        ("define-continued", format!("{dotted}\n#define OUT mov {o}, \\\n  c0\n{d}OUT\n")),
        ("define-continued-crlf", format!("{dotted}\r\n#define OUT mov {o}, \\\r\n  c0\r\n{}OUT\r\n", d.replace('\n', "\r\n"))),
        ("define-function", format!("{dotted}\n#define MOVE(a, b) mov a, b\n{d}MOVE({o}, c0)\n")),
        ("define-function-nested", format!("{dotted}\n#define ID(x) x\n#define MOVE(a, b) mov a, ID(b)\n{d}MOVE({o}, ID(c0))\n")),
        ("define-function-no-args", format!("{dotted}\n#define SRC() c0\n{d}mov {o}, SRC()\n")),
        ("define-function-not-called", format!("{dotted}\n#define SRC(x) c0\n{d}mov {o}, SRC\n")),
        ("define-function-wrong-count", format!("{dotted}\n#define SRC(x) c0\n{d}mov {o}, SRC(1, 2)\n")),
        ("define-function-unclosed", format!("{dotted}\n#define SRC(x) c0\n{d}mov {o}, SRC(1\n")),
        ("define-paste", format!("{dotted}\n#define REG(n) c##n\n{d}mov {o}, REG(0)\n")),
        ("define-number", format!("{dotted}\n#define N 0\n{d}mov {o}, c[N]\n")),
        ("define-index-sum", format!("{dotted}\n#define BASE 1\n{d}mov {o}, c[BASE + 1]\n")),
        ("define-empty", format!("{dotted}\n#define NOTHING\n{d}mov {o}, NOTHING c0\n")),
        ("define-redefined", format!("{dotted}\n#define SRC c1\n#define SRC c0\n{d}mov {o}, SRC\n")),
        ("undef", format!("{dotted}\n#define SRC c0\n#undef SRC\n{d}mov {o}, SRC\n")),
        ("recursive", format!("{dotted}\n#define SRC SRC\n{d}mov {o}, SRC\n")),
        ("recursive-pair", format!("{dotted}\n#define A B\n#define B A\n{d}mov {o}, A\n")),
        ("recursive-function", format!("{dotted}\n#define F(x) F(x)\n{d}mov {o}, F(c0)\n")),
        ("recursive-to-register", format!("{dotted}\n#define c0 c0\n{d}mov {o}, c0\n")),
        ("ifdef-taken", format!("{dotted}\n#define X\n#ifdef X\n{d}mov {o}, c0\n#endif\n")),
        ("ifdef-skipped", format!("{dotted}\n{d}#ifdef X\nnot an instruction\n#endif\nmov {o}, c0\n")),
        ("ifndef", format!("{dotted}\n{d}#ifndef X\nmov {o}, c0\n#else\nbad\n#endif\n")),
        ("if-elif-else", format!("{dotted}\n{d}#define N 2\n#if N == 1\nbad\n#elif N == 2\nmov {o}, c0\n#else\nworse\n#endif\n")),
        ("if-expression", format!("{dotted}\n{d}#if (1 + 2 * 3 == 7) && !defined(Y) && (8 >> 2 == 2) && (5 % 3 == 2) && (1 ? 1 : 0)\nmov {o}, c0\n#endif\n")),
        ("if-defined-no-parens", format!("{dotted}\n{d}#define Y 0\n#if defined Y && Y == 0\nmov {o}, c0\n#endif\n")),
        ("if-undefined-is-zero", format!("{dotted}\n{d}#if UNDEFINED\nbad\n#else\nmov {o}, c0\n#endif\n")),
        ("if-nested", format!("{dotted}\n{d}#if 1\n#if 0\nbad\n#else\nmov {o}, c0\n#endif\n#endif\n")),
        ("if-hex-octal", format!("{dotted}\n{d}#if 0x10 == 16 && 010 == 8\nmov {o}, c0\n#endif\n")),
        ("if-division-by-zero", format!("{dotted}\n{d}#if 1 / 0\n#endif\nmov {o}, c0\n")),
        ("if-unclosed", format!("{dotted}\n{d}#if 1\nmov {o}, c0\n")),
        ("endif-alone", format!("{dotted}\n{d}mov {o}, c0\n#endif\n")),
        ("else-twice", format!("{dotted}\n{d}#if 1\nmov {o}, c0\n#else\n#else\n#endif\n")),
        ("if-empty", format!("{dotted}\n{d}#if\n#endif\nmov {o}, c0\n")),
        ("error", format!("{dotted}\n{d}#error stop here\nmov {o}, c0\n")),
        ("error-skipped", format!("{dotted}\n{d}#if 0\n#error not here\n#endif\nmov {o}, c0\n")),
        ("pragma", format!("{dotted}\n{d}#pragma something\nmov {o}, c0\n")),
        ("unknown-directive", format!("{dotted}\n{d}#frobnicate\nmov {o}, c0\n")),
        ("null-directive", format!("{dotted}\n{d}#\nmov {o}, c0\n")),
        ("indented-directive", format!("{dotted}\n{d}   #  define SRC c0\nmov {o}, SRC\n")),
        ("line", format!("{dotted}\n{d}#line 100 \"other.asm\"\nmov {o}, c0\n")),
        ("line-then-error", format!("{dotted}\n{d}#line 100 \"other.asm\"\nmov {o}, q0\n")),
        ("line-number-only", format!("{dotted}\n{d}#line 7\nmov {o}, c0\n")),
        ("line-bad", format!("{dotted}\n{d}#line x\nmov {o}, c0\n")),
        ("directive-mid-line", format!("{dotted}\n{d}mov {o}, c0 #define X\n")),
        ("stringify", format!("{dotted}\n#define S(x) #x\n{d}mov {o}, S(c0)\n")),
        ("if-modulo", format!("{dotted}\n{d}#if 5 % 3 == 2\n#endif\nmov {o}, c0\n")),
        ("if-shift", format!("{dotted}\n{d}#if (1 << 2) == 4\n#endif\nmov {o}, c0\n")),
        ("if-complement", format!("{dotted}\n{d}#if ~0\n#endif\nmov {o}, c0\n")),
        ("if-unsigned", format!("{dotted}\n{d}#if -1 > 0 && 4294967295 + 1 == 0\nmov {o}, c0\n#else\nbad\n#endif\n")),
        ("if-unsigned-division", format!("{dotted}\n{d}#if -2 / 2 == -1\nbad\n#else\nmov {o}, c0\n#endif\n")),
        ("if-operators", format!("{dotted}\n{d}#if (6 & 3) == 2 && (4 | 1) == 5 && (1 ^ 3) == 2 && 1 < 2 && 2 >= 2 && 1 != 2 && 3 / 2 == 1 && +1\nmov {o}, c0\n#endif\n")),
        ("define-function-space-before-paren", format!("{dotted}\n#define SRC (x) c0\n{d}mov {o}, c0\n")),
        ("define-function-args-lines", format!("{dotted}\n#define MOVE(a, b) mov a, b\n{d}MOVE({o},\n c0)\n")),
        ("define-exponential", format!("{dotted}\n#define A0 c0\n#define A1 A0 A0\n#define A2 A1 A1\n#define A3 A2 A2\n#define A4 A3 A3\n{d}mov {o}, A4\n")),
    ];
    for (what, source) in cases {
        g.add("preprocess", v, what, source, 0);
    }
}

fn includes(g: &mut Gen, v: &str, dotted: &str) {
    let d = decls(v);
    let o = out(v);
    let f = |n: &str, t: String| (n.to_string(), t);
    let cases: Vec<(&str, String, Vec<(String, String)>)> = vec![
        ("quoted", format!("{dotted}\n{d}#include \"body.inc\"\n"), vec![f("body.inc", format!("mov {o}, c0\n"))]),
        ("angled", format!("{dotted}\n{d}#include <body.inc>\n"), vec![f("body.inc", format!("mov {o}, c0\n"))]),
        (
            "version-inside",
            format!("#include \"head.inc\"\n{d}mov {o}, c0\n"),
            vec![f("head.inc", format!("{dotted}\n"))],
        ),
        (
            "defines-inside",
            format!("#include \"defs.inc\"\n{dotted}\n{d}mov {o}, SRC\n"),
            vec![f("defs.inc", "#define SRC c0\n".into())],
        ),
        (
            "nested",
            format!("{dotted}\n{d}#include \"a.inc\"\n"),
            vec![f("a.inc", "#include \"b.inc\"\n".into()), f("b.inc", format!("mov {o}, c0\n"))],
        ),
        (
            "missing",
            format!("{dotted}\n{d}#include \"missing.inc\"\nmov {o}, c0\n"),
            vec![f("other.inc", String::new())],
        ),
        (
            "error-inside",
            format!("{dotted}\n{d}#include \"bad.inc\"\nmov {o}, c0\n"),
            vec![f("bad.inc", "\nmov r1, q0\n".into())],
        ),
        (
            "no-newline-at-end",
            format!("{dotted}\n{d}#include \"body.inc\"\nmov {o}, c0\n"),
            vec![f("body.inc", "mov r1, c0".into())],
        ),
        (
            "macro-name",
            format!("{dotted}\n{d}#define FILE \"body.inc\"\n#include FILE\n"),
            vec![f("body.inc", format!("mov {o}, c0\n"))],
        ),
        (
            "self",
            format!("{dotted}\n{d}#include \"loop.inc\"\nmov {o}, c0\n"),
            vec![f("loop.inc", "#include \"loop.inc\"\n".into())],
        ),
        (
            "guarded-twice",
            format!("{dotted}\n{d}#include \"g.inc\"\n#include \"g.inc\"\nmov {o}, c0\n"),
            vec![f("g.inc", "#ifndef G\n#define G\nmov r1, c0\n#endif\n".into())],
        ),
        (
            "unclosed-if-inside",
            format!("{dotted}\n{d}#include \"u.inc\"\nmov {o}, c0\n#endif\n"),
            vec![f("u.inc", "#if 1\n".into())],
        ),
        ("no-handler", format!("{dotted}\n{d}#include \"body.inc\"\n"), Vec::new()),
    ];
    for (what, source, inc) in cases {
        g.add_with("include", v, what, source, inc, 0);
    }
    // `D3DAssemble` opens 31 nested files; the 32nd `#include` is an error.
    for n in [31, 32] {
        let files = (1..=n)
            .map(|i| {
                let text = if i < n { format!("#include \"chain{}.inc\"\n", i + 1) } else { format!("mov {o}, c0\n") };
                (format!("chain{i}.inc"), text)
            })
            .collect();
        g.add_with("include", v, &format!("chain-{n}"), format!("{dotted}\n{d}#include \"chain1.inc\"\n"), files, 0);
    }
}

/// Whole hand-written programs of each version, in the style of the DirectX SDK's
/// samples (dotted version, `;` comments, `def` with suffixed floats, relative
/// addressing with the address register written first), asked with validation on.
fn programs(g: &mut Gen, v: &str, dotted: &str) {
    let progs: Vec<(&str, String)> = match v {
        "vs_1_1" => vec![
            ("transform", format!("{dotted} ; transform and light\ndcl_position v0\ndcl_normal v3\ndp4 oPos.x, v0, c0\ndp4 oPos.y, v0, c1\ndp4 oPos.z, v0, c2\ndp4 oPos.w, v0, c3\ndp3 r0.x, v3, c4 ; n.l\nmax r0.x, r0.x, c5.x\nmul oD0, r0.x, c6\n")),
            ("relative", format!("{dotted}\ndcl_position v0\ndcl_blendindices v1\ndef c95, 3.0f, 0.0f, 1.0f, 0.5f\nmul r0.x, v1.x, c95.x\nmov a0.x, r0.x\ndp4 oPos.x, v0, c[a0.x + 10]\ndp4 oPos.y, v0, c[11 + a0.x]\ndp4 oPos.z, v0, c[a0.x + 4 + 8]\nmov oPos.w, c95.z\n")),
            ("macros", format!("#define TRANSFORM(o, p, m) \\\n  dp4 o.x, p, c[m]     \\\n  dp4 o.y, p, c[m + 1] \\\n  dp4 o.z, p, c[m + 2] \\\n  dp4 o.w, p, c[m + 3]\n{dotted}\ndcl_position v0\nTRANSFORM(oPos, v0, 0)\nmov oT0.xy, v0\n")),
        ],
        "vs_2_0" | "vs_2_x" => vec![
            ("loop", format!("{dotted}\ndcl_position v0\ndefi i0, 3, 0, 1, 0\ndef c90, 0.0f, 0, 0, 0\nmov r0, c90.x\nloop aL, i0\n  add r0, r0, c[aL + 1]\nendloop\nadd oPos, r0, v0\n")),
            ("relative", format!("{dotted}\ndcl_position v0\ndcl_blendindices v1\nmova a0.x, v1.x\ndp4 oPos.x, v0, c[a0.x + 10]\ndp4 oPos.y, v0, c[2 + a0.x + 9]\ndp4 oPos.z, v0, c12[a0.x]\ndp4 oPos.w, v0, c[a0.x + 13]\n")),
            ("branch", format!("{dotted}\ndcl_position v0\ndefb b0, true\nif b0\n  mov oPos, v0\nelse\n  mov oPos, -v0\nendif\n")),
        ],
        "vs_3_0" => vec![
            ("loop", format!("{dotted}\ndcl_position v0\ndcl_position o0\ndefi i0, 3, 0, 1, 0\ndef c90, 0.0f, 0, 0, 0\nmov r0, c90.x\nloop aL, i0\n  add r0, r0, c[aL + 1]\nendloop\nadd o0, r0, v0\n")),
            ("texld", format!("{dotted}\ndcl_position v0\ndcl_texcoord v1\ndcl_position o0\ndcl_2d s0\ntexldl r0, v1, s0\nadd o0, r0, v0\n")),
        ],
        "ps_1_1" | "ps_1_2" | "ps_1_3" => vec![
            ("modulate", format!("{dotted} ; modulate\ndef c0, 1.0f, 0.5f, 0.25f, 1.0f\ntex t0\nmul r0, t0, v0\nmul_x2 r0.rgb, r0, c0\n+mov r0.a, c0.a\n")),
            ("lerp", format!("{dotted}\ntex t0\ntex t1\nlrp r0, v0.a, t0, t1 // blend\n")),
        ],
        "ps_1_4" => vec![
            ("phases",
                format!(
                    "{dotted}\ndef c0, 1.0f, 0.5f, 0.25f, 1.0f\ntexcrd r1.rgb, t1\nphase\ntexld r0, t0\ntexld r2, r1\nmul r0, r0, r2\nmul_x2 r0.rgb, r0, c0\n"
                )),
        ],
        "ps_2_0" | "ps_2_x" => vec![
            ("texld", format!("{dotted}\ndcl t0.xy\ndcl v0\ndcl_2d s0\ndef c0, 1.0f, 0.5f, .25f, 1.f\ntexld r0, t0, s0\nmul r0, r0, v0\nmad r0, r0, c0, c0.w\nmov oC0, r0\n")),
        ],
        "ps_3_0" => vec![
            ("texld", format!("{dotted}\ndcl_texcoord v0.xy\ndcl_color v1\ndcl_2d s0\ndef c0, 1.0f, 0.5f, .25f, 1.f\ntexld r0, v0, s0\nmul r0, r0, v1\nmad oC0, r0, c0, c0.w\n")),
            ("input-loop", format!("{dotted}\ndcl_texcoord v0\ndcl_texcoord1 v1\ndcl_texcoord2 v2\ndefi i0, 3, 0, 1, 0\ndef c0, 0.0f, 0, 0, 0\nmov r0, c0\nloop aL, i0\n  add r0, r0, v[aL]\nendloop\nmov oC0, r0\n")),
        ],
        _ => Vec::new(),
    };
    for (what, source) in progs {
        g.add("program", v, what, source, 0);
    }
}
