//! The grammar of hand-written Shader Model 1–3 assembly source
//! ([`d3dbc::parse::assemble_source`]), one test per construct: each source form gives
//! the token stream of the listing spelling Microsoft's disassembler prints for what
//! `D3DAssemble` made of it (the grammar cases of `tests/asm-oracle/asm-grammar.dxo`
//! named in the comments), and each near miss `D3DAssemble` refuses is an error at its
//! line and column.

use d3dbc::parse::{assemble_source, parse_source, SourceOptions};
use d3dbc::preprocess::MemoryInclude;

fn source(text: &str) -> Vec<u8> {
    match assemble_source(text, &SourceOptions::default()) {
        Ok((bytes, _)) => bytes,
        Err(e) => panic!("refused:\n{text}\n{}", e.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")),
    }
}

/// The stream of a listing (the fxc grammar, read by [`d3dbc::parse::assemble`]).
fn listing(text: &str) -> Vec<u8> {
    d3dbc::parse::assemble(text).unwrap_or_else(|e| panic!("listing refused: {text}\n{e:?}"))
}

fn same(src: &str, list: &str) {
    assert_eq!(source(src), listing(list), "source:\n{src}\nlisting:\n{list}");
}

/// The errors, as `file:line:column: error: ...`.
fn refused(text: &str) -> Vec<String> {
    match assemble_source(text, &SourceOptions::default()) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.iter().map(|d| d.to_string()).collect(),
    }
}

#[test]
fn dotted_versions() {
    // grammar/version/*/dotted, version-other/any/vs.2.sw, vs.1.0.
    same("vs.1.1\nmov oPos, v0\n", "vs_1_1\nmov oPos, v0\n");
    same("vs.2.x\nmov oPos, c0\n", "vs_2_x\nmov oPos, c0\n");
    same("ps.1.4\nmov r0, c0\n", "ps_1_4\nmov r0, c0\n");
    same("ps.3.0\nmov oC0, c0\n", "ps_3_0\nmov oC0, c0\n");
    same("vs.3.sw\nmov o0, c0\n", "vs_3_sw\nmov o0, c0\n");
    same("vs_2_0\nmov oPos, c0\n", "vs_2_0\nmov oPos, c0\n");
    // D3DAssemble writes 1.0 as 1.1.
    same("vs.1.0\nmov oPos, c0\n", "vs_1_1\nmov oPos, c0\n");
    same("ps_1_0\nmov r0, c0\n", "ps_1_1\nmov r0, c0\n");
    // grammar/version/*/upper, spaced, space-before-dot, trailing-dot, mixed-separators;
    // version-other/any/vs.2.a, ps_2_b, vs.2.X, vs.1.2: X2001.
    for bad in
        ["VS.1.1", "vs . 1 . 1", "vs .1.1", "vs.1.1.", "vs_1.1", "vs.2.a", "ps_2_b", "vs.2.X", "vs.1.2", "tx.1.0"]
    {
        let e = refused(&format!("{bad}\nmov oPos, c0\n"));
        assert!(e[0].starts_with("main.asm:1:1: error:"), "{bad}: {e:?}");
    }
    // grammar/version/*/missing, empty-source, twice, after-instruction.
    assert!(refused("mov oPos, c0\n")[0].starts_with("main.asm:1:1: error:"));
    assert!(refused("")[0].contains("no shader version"));
    assert!(refused("vs.1.1\nvs.1.1\nmov oPos, c0\n")[0].starts_with("main.asm:2:1: error:"));
}

#[test]
fn comments() {
    // grammar/comment/*: `;`, `//`, `/* */` inline and across lines.
    let want = listing("vs_2_0\nmov oPos, c0\n");
    for src in [
        "vs.2.0 ; the version\nmov oPos, c0 ; a comment\n",
        "; first\nvs.2.0\n;\n; between\nmov oPos, c0\n; last",
        "// first\nvs.2.0 // the version\nmov oPos, c0 // a comment\n",
        "vs.2.0\nmov /* the output */ oPos, /* a constant */ c0\n",
        "/* a\n   header\n*/ vs.2.0\n/* x */mov oPos, c0 /* y\n z */\n",
        "vs.2.0\nmov oPos, c0 ; don't \"stop\n",
        "vs.2.0\n/* a /* b */ mov oPos, c0\n",
    ] {
        assert_eq!(source(src), want, "{src}");
    }
    // grammar/comment/*/block-in-semicolon: a `;` comment hides `/*`.
    same("vs.2.0\nmov r1, c0 ; /* not opened\nmov oPos, c0\n", "vs_2_0\nmov r1, c0\nmov oPos, c0\n");
    // grammar/comment/*/block-unclosed (X1001, at the end of the file), hash-comment,
    // block-in-register, slash-alone.
    assert_eq!(refused("vs.2.0\nmov oPos, c0 /* never closed\n")[0].split(": error").next(), Some("main.asm:3:1"));
    refused("vs.2.0\nmov oPos, c0 # not a comment\n");
    refused("vs.2.0\nmov oPos, c/**/0\n");
    refused("vs.2.0\nmov oPos, c0 / 2\n");
}

#[test]
fn free_layout() {
    // grammar/layout/*: line breaks mean nothing; blanks anywhere between tokens.
    let want = listing("vs_2_0\nmov r1, c0\nmov oPos, r1\n");
    for src in [
        "vs.2.0\nmov r1, c0 mov oPos, r1\n",
        "vs.2.0 mov r1, c0 mov oPos, r1",
        "vs.2.0\nmov r1,\n  c0\nmov\noPos\n , r1\n",
        "\tvs.2.0\n\tmov\tr1,\tc0\n\tmov oPos,r1\n",
        "vs.2.0\r\nmov r1 , c0\r\nmov oPos, r1",
        "\n\nvs.2.0\n\nmov r1, c0\n\n\nmov oPos, r1\n\n",
    ] {
        assert_eq!(source(src), want, "{src:?}");
    }
    same("vs.2.0\nmov oPos . xyzw , c0 . xyzw\n", "vs_2_0\nmov oPos, c0\n");
    same("vs.2.0\nnop mov oPos, c0 nop\n", "vs_2_0\nnop\nmov oPos, c0\nnop\n");
    same("ps.1.1\nmov r0.rgb, c0 +mov r0.a, c0\n", "ps_1_1\nmov r0.rgb, c0\n+mov r0.a, c0\n");
    same("ps.1.1\nmov r0.rgb, c0\n+ mov r0.a, c0\n", "ps_1_1\nmov r0.rgb, c0\n+mov r0.a, c0\n");
    same(
        "vs.2.x\nsetp_gt p0, c1, c0\n( !p0 . x ) mov oPos, c1\n",
        "vs_2_x\nsetp_gt p0, c1, c0\n(!p0.x) mov oPos, c1\n",
    );
    // Case matters; a register is one word; operands are counted (X2000, X2005).
    for bad in [
        "vs.2.0\nMOV oPos, c0\n",
        "vs.2.0\nmov oPos, C0\n",
        "vs.2.0\nmov oPos.XYZW, c0\n",
        "vs.2.0\nmov oPos, c 0\n",
        "vs.2.0\nmov oPos, c0,\n",
        "vs.2.0\nmov oPos c0\n",
        "vs.2.0\nmov oPos,, c0\n",
        "vs.2.0\nmov oPos\n",
        "vs.2.0\nmov oPos, c0, c1\n",
        "vs.2.0\nadd oPos, c0\n",
        "vs.3.0\nmov _sat o0, c0\n",
    ] {
        refused(bad);
    }
    // An instruction cut short is reported where the next token is (X2000 "unexpected
    // end of file" is at the end).
    assert!(refused("vs.2.0\nmov oPos\n")[0].starts_with("main.asm:3:1:"));
}

#[test]
fn float_literals() {
    // grammar/def/*: suffixes `f`, `F`, `h`, `l`; a leading dot; exponents; a blank
    // after the sign; `+`; integers; a hexadecimal integer is that number.
    let want = listing("vs_2_0\ndef c1, 0.5, -0.5, 1, 0\nmov oPos, c1\n");
    for vals in [
        "0.5, -0.5, 1, 0",
        "0.5f, -0.5f, 1.0f, 0.0f",
        "0.5F, -.5F, 1.f, 0.f",
        "0.5h, -0.5l, 1, 0",
        ".5, -.5, 1., 0",
        "5e-1, -5E-1, 1e0, 0e+0",
        "0.5, - 0.5, + 1, 0",
    ] {
        assert_eq!(source(&format!("vs.2.0\ndef c1, {vals}\nmov oPos, c1\n")), want, "{vals}");
    }
    same("vs.2.0\ndef c1, 0x3f000000, 0, 0, 0\nmov oPos, c1\n", "vs_2_0\ndef c1, 1056964608, 0, 0, 0\nmov oPos, c1\n");
    same("vs.2.0\ndef c1, 1.#INF, 0, 0, 0\nmov oPos, c1\n", "vs_2_0\ndef c1, 1.#INF, 0, 0, 0\nmov oPos, c1\n");
    for bad in ["0.5ff", "0.5.5", "--0.5", "1e", "1 + 1", "(0.5)", "0.5, 0, 0", "0.5, 0, 0, 0, 0"] {
        let vals = if bad.contains(',') { bad.to_string() } else { format!("{bad}, 0, 0, 0") };
        refused(&format!("vs.2.0\ndef c1, {vals}\nmov oPos, c1\n"));
    }
    // grammar/defi/*, defb/*.
    same("vs.2.0\ndefi i0, 2, - 1, +1, 0x10\nmov oPos, c0\n", "vs_2_0\ndefi i0, 2, -1, 1, 16\nmov oPos, c0\n");
    same("vs.2.0\ndefb b0, true\nmov oPos, c0\n", "vs_2_0\ndefb b0, true\nmov oPos, c0\n");
    for bad in ["defi i0, 1.0, 0, 1, 0", "defi i0, 1f, 0, 1, 0", "defb b0, TRUE", "defb b0, 1"] {
        refused(&format!("vs.2.0\n{bad}\nmov oPos, c0\n"));
    }
}

#[test]
fn mixed_swizzle_and_mask_letters() {
    // grammar/swizzle/*/mixed-*, mask/*/mixed-*: each letter is its component.
    same("vs.2.0\nmov oPos, c0.xygb\n", "vs_2_0\nmov oPos, c0.xyyz\n");
    same("vs.2.0\nmov oPos, c0.rgzw\n", "vs_2_0\nmov oPos, c0\n");
    same("vs.2.0\nmov oPos, c0.xg\n", "vs_2_0\nmov oPos, c0.xy\n");
    same(
        "vs.2.0\nmov r1.xg, c0\nmov r1.rgzw, c0\nmov r1.xgba, c0\nmov oPos, r1\n",
        "vs_2_0\nmov r1.xy, c0\nmov r1, c0\nmov r1, c0\nmov oPos, r1\n",
    );
    for bad in ["c0.xyzwx", "c0.xyzq", "c0.", "c0..x"] {
        refused(&format!("vs.2.0\nmov oPos, {bad}\n"));
    }
    for bad in ["r1.yx", "r1.xx", "r1.q"] {
        refused(&format!("vs.2.0\nmov {bad}, c0\nmov oPos, r1\n"));
    }
}

#[test]
fn index_arithmetic() {
    // grammar/index/vs_*: a constant index adds to the register number.
    same("vs.2.0\nmov oPos, c[2 + 10 + 12]\n", "vs_2_0\nmov oPos, c24\n");
    same("vs.2.0\nmov oPos, c4[2]\n", "vs_2_0\nmov oPos, c6\n");
    same("vs.2.0\nmov oPos, c4[2 + 1]\n", "vs_2_0\nmov oPos, c7\n");
    same("vs.2.0\nmov oPos, c [ 3 ]\n", "vs_2_0\nmov oPos, c3\n");
    same("vs.2.0\nmov oPos, c[0x10]\n", "vs_2_0\nmov oPos, c16\n");
    // grammar/index-relative/*: offsets on either side of the address register.
    same("vs.1.1\nmov oPos, c[2 + a0.x + 12]\n", "vs_1_1\nmov oPos, c14[a0.x]\n");
    same("vs.2.0\nmov oPos, c4[a0.x + 2]\n", "vs_2_0\nmov oPos, c6[a0.x]\n");
    same("vs.2.0\nmov oPos, c[ a0 . x + 1 ]\n", "vs_2_0\nmov oPos, c1[a0.x]\n");
    same("vs.2.0\nmov oPos, c[aL + 1 + 3]\n", "vs_2_0\nmov oPos, c4[aL]\n");
    same("vs.3.0\nmov o0, v0[aL + 1 + 3]\n", "vs_3_0\nmov o0, v4[aL]\n");
    same("vs.3.0\nmov o0, v[2 + aL]\n", "vs_3_0\nmov o0, v2[aL]\n");
    same("ps.3.0\nmov oC0, v0[aL + 1 + 3]\n", "ps_3_0\nmov oC0, v4[aL]\n");
    // grammar/index*/: no subtraction, products, two address registers, empty or
    // nested brackets; in a pixel shader no index but on ps_3_0's inputs (X2005).
    for bad in ["c[a0.x - 1]", "c[5 - 1]", "c[2 * 3]", "c[(2 + 3)]", "c[]", "c[1][2]", "c[-1]", "c[a0.x + a0.x]"] {
        refused(&format!("vs.2.0\nmov oPos, {bad}\n"));
    }
    for v in ["ps.1.1", "ps.1.4", "ps.2.0", "ps.3.0"] {
        let out = if v.starts_with("ps.1") { "r0" } else { "oC0" };
        let e = refused(&format!("{v}\nmov {out}, c[2]\n"));
        assert!(e[0].contains("an index is not a register"), "{v}: {e:?}");
    }
    refused("ps.3.0\nmov oC0, c[2 + aL + 1]\n");
}

#[test]
fn signs_with_blanks() {
    // grammar/sign/*.
    same("vs.2.0\nmov oPos, - c0\n", "vs_2_0\nmov oPos, -c0\n");
    same("vs.2.0\nmov oPos, -\tc0\n", "vs_2_0\nmov oPos, -c0\n");
    same("ps.1.1\nmov r0, 1 - c0\n", "ps_1_1\nmov r0, 1 - c0\n");
    same("ps.1.1\nmov r0, 1-c0\n", "ps_1_1\nmov r0, 1 - c0\n");
    same("vs.3.0\nmov o0, - c0_abs\n", "vs_3_0\nmov o0, -c0_abs\n");
    for bad in ["- -c0", "+c0"] {
        refused(&format!("vs.2.0\nmov oPos, {bad}\n"));
    }
    refused("ps.1.1\nmov r0, 2 - c0\n");
}

#[test]
fn preprocessor_in_programs() {
    // grammar/preprocess/*.
    same("#define SRC c0\nvs.2.0\nmov oPos, SRC.xyzw\n", "vs_2_0\nmov oPos, c0\n");
    same("#define VER vs.2.0\nVER\nmov oPos, c0\n", "vs_2_0\nmov oPos, c0\n");
    same("vs.2.0\n#define MOVE(a, b) mov a, b\nMOVE(oPos, c0)\n", "vs_2_0\nmov oPos, c0\n");
    same("vs.2.0\n#define REG(n) c##n\nmov oPos, REG(0)\n", "vs_2_0\nmov oPos, c0\n");
    same("vs.2.0\n#define BASE 1\nmov oPos, c[BASE + 1]\n", "vs_2_0\nmov oPos, c2\n");
    same("vs.2.0\n#define NOTHING\nmov oPos, NOTHING c0\n", "vs_2_0\nmov oPos, c0\n");
    // A recursive macro stays a name, which is no register: the error is at its use.
    let e = refused("vs.2.0\n#define SRC SRC\nmov oPos, SRC\n");
    assert!(e[0].starts_with("main.asm:3:11: error:"), "{e:?}");
    // A macro that expands to many bad tokens gives one error there.
    let e = refused("#define A c0 c0 c0 c0\nvs.2.0\nmov oPos, c0 A\n");
    assert_eq!(e.len(), 1, "{e:?}");
    // #line renames the file and renumbers (grammar/preprocess/*/line-then-error).
    let e = refused("vs.2.0\n#line 100 \"other.asm\"\nmov oPos, q0\n");
    assert!(e[0].starts_with("other.asm:100:11: error: `q` is not a register"), "{e:?}");
    let e = refused("vs.2.0\n#error stop here\nmov oPos, c0\n");
    assert_eq!(e[0], "main.asm:2:2: error: #error: stop here");
}

#[test]
fn includes_and_positions_in_them() {
    let files = MemoryInclude {
        files: vec![
            ("body.inc".into(), "mov oPos, c0\n".into()),
            ("head.inc".into(), "vs.2.0\n".into()),
            ("bad.inc".into(), "\nmov r1, q0\n".into()),
        ],
    };
    let opts = SourceOptions { include: Some(&files), ..SourceOptions::default() };
    let want = listing("vs_2_0\nmov oPos, c0\n");
    assert_eq!(assemble_source("vs.2.0\n#include \"body.inc\"\n", &opts).unwrap().0, want);
    assert_eq!(assemble_source("#include <head.inc>\nmov oPos, c0\n", &opts).unwrap().0, want);
    let e = assemble_source("vs.2.0\n#include \"bad.inc\"\nmov oPos, c0\n", &opts).unwrap_err();
    assert!(e[0].to_string().starts_with("bad.inc:2:9: error:"), "{}", e[0]);
    // The parsed program says where each instruction came from.
    let p = parse_source("vs.2.0\n#include \"body.inc\"\n  mov oPos, c1\n", &opts).unwrap();
    assert_eq!(p.files, ["main.asm", "body.inc"]);
    assert_eq!(p.lines, [1, 3]);
    assert_eq!(p.statements[1].text, "mov oPos,c1");
    let d = p.diagnostic_at(1, 9, 2, diagnostic::Severity::Error, "here", None).unwrap();
    assert_eq!(d.to_string(), "main.asm:3:13: error: here");
    let d = p.diagnostic_at(0, 0, 3, diagnostic::Severity::Error, "there", None).unwrap();
    assert_eq!(d.to_string(), "body.inc:1:1: error: there");
    // Without an include handler, every #include fails (grammar/include/*/no-handler).
    assert!(assemble_source("vs.2.0\n#include \"body.inc\"\n", &SourceOptions::default()).is_err());
}

#[test]
fn several_errors_in_one_run_and_no_panic() {
    let e = refused("vs.2.0\nmov oPos, q0\nmov r0, c0.xq\nadd r0\nmov oPos, c0\n");
    assert_eq!(e.len(), 3, "{e:?}");
    // An instruction cut short is reported at the next token, as D3DAssemble does.
    for (d, line) in e.iter().zip(["main.asm:2:11:", "main.asm:3:12:", "main.asm:5:1:"]) {
        assert!(d.starts_with(line), "{e:?}");
    }
    for text in [
        "vs.2.0\n(\n",
        "vs.2.0\n+\n",
        "vs.2.0\n)\n",
        "vs.2.0\nmov oPos, c[\n",
        "vs.2.0\nmov oPos, c[4294967295 + 1]\n",
        "vs.2.0\nmov oPos, c[99999999999]\n",
        "vs.2.0\nmov oPos, c[a0.x + 4294967295 + 4294967295]\n",
        "vs.2.0\ndef c0, 1e999, 0, 0, 0\n",
        "vs.\n",
        "vs.2.0\n\u{0}\u{ffff}é ,,, [[[ ]]] ... ### \"\n",
        "ps.1.1\n1 - - 1 -\n",
    ] {
        let _ = assemble_source(text, &SourceOptions::default());
    }
}

#[test]
fn an_unclosed_block_is_a_warning_at_its_opener() {
    let (_, warnings) =
        assemble_source("vs.2.0\ndefb b0, true\nmov oPos, c0 if b0\n  mov oPos, c1\n", &SourceOptions::default())
            .unwrap();
    let w: Vec<String> = warnings.iter().map(|d| d.to_string()).collect();
    assert!(w.iter().any(|d| d.starts_with("main.asm:3:14: warning: `if` is never closed")), "{w:?}");
}

/// Every grammar case's source, cut, spliced and with bytes replaced, is answered
/// (accepted or refused with positioned errors) without a panic; every error names a
/// file and a line of it.
#[test]
fn damaged_sources_are_answered() {
    let records = corpus::asm_oracle::archive("asm-grammar.dxo");
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    const BYTES: &[u8] = b" \n\t,.;[]+-()!#\"/*\\_0123456789abcrvxyzwaLoPsDC";
    let mut runs = 0;
    for r in &records {
        let include = MemoryInclude { files: r.includes.clone() };
        let options = SourceOptions { include: Some(&include), ..SourceOptions::default() };
        for _ in 0..6 {
            let mut b = r.source.clone().into_bytes();
            for _ in 0..1 + next(3) {
                let at = next(b.len() + 1);
                match next(3) {
                    0 if at < b.len() => {
                        b.remove(at);
                    }
                    1 => b.insert(at, BYTES[next(BYTES.len())]),
                    _ if at < b.len() => b[at] = BYTES[next(BYTES.len())],
                    _ => {}
                }
            }
            let text = String::from_utf8_lossy(&b).into_owned();
            if let Err(errors) = assemble_source(&text, &options) {
                assert!(!errors.is_empty(), "refused without an error: {text:?}");
                for d in &errors {
                    assert!(d.file.is_some() && d.line > 0 && d.column > 0, "{d:?} for {text:?}");
                }
            }
            runs += 1;
        }
    }
    assert_eq!(runs, records.len() * 6);
}

/// Outside ps_1_x `D3DAssemble` writes `sub d, a, b` as `add d, a, -b` (asm-rules.dxo,
/// `rules/instruction/sub/*`); ps_1_x keeps `sub`, and so does the listing parser.
#[test]
fn sub_is_written_as_add_with_a_negated_source_outside_ps_1_x() {
    for v in ["vs_1_1", "vs_2_0", "vs_3_0"] {
        same(&format!("{v}\ndcl_position v0\nsub r0, v0, c0\n"), &format!("{v}\ndcl_position v0\nadd r0, v0, -c0\n"));
    }
    same("vs_3_0\ndcl_position v0\nsub r0, v0, c0_abs\n", "vs_3_0\ndcl_position v0\nadd r0, v0, -c0_abs\n");
    same("ps_2_0\ndcl t0\nsub r0, t0, c0\nmov oC0, r0\n", "ps_2_0\ndcl t0\nadd r0, t0, -c0\nmov oC0, r0\n");
    // Already negated: encoded as written.
    same("vs_2_0\ndcl_position v0\nsub r0, v0, -c0\n", "vs_2_0\ndcl_position v0\nsub r0, v0, -c0\n");
    // ps_1_x keeps `sub`.
    same("ps_1_4\nsub r0, v0, c0\n", "ps_1_4\nsub r0, v0, c0\n");
    assert_ne!(
        listing("vs_2_0\ndcl_position v0\nsub r0, v0, c0\n"),
        listing("vs_2_0\ndcl_position v0\nadd r0, v0, -c0\n")
    );
}
