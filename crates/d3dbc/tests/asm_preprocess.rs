//! The preprocessor of Shader Model 1–3 source ([`d3dbc::preprocess`]): each directive,
//! positions through `#include` and `#line`, and the bounds on expansion (every limit of
//! [`d3dbc::preprocess::LIMITS`] reached is an error, quickly, never a hang). The
//! behaviours follow what Microsoft's `D3DAssemble` answered for the grammar cases of
//! `tests/asm-oracle/asm-grammar.dxo` (case names in the comments).

use std::time::{Duration, Instant};

use d3dbc::preprocess::{preprocess, Include, MemoryInclude, NoInclude, Output, LIMITS};
use diagnostic::Diagnostic;

fn run(text: &str, files: &[(&str, &str)]) -> Result<Output, Vec<Diagnostic>> {
    let inc = MemoryInclude { files: files.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect() };
    preprocess(text, "main.asm", &inc)
}

/// The output tokens' texts, joined by blanks.
fn text(text: &str) -> String {
    let out = run(text, &[]).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    out.tokens.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ")
}

fn errors(text: &str, files: &[(&str, &str)]) -> Vec<String> {
    match run(text, files) {
        Ok(o) => panic!("accepted: {text} => {:?}", o.tokens.iter().map(|t| &t.text).collect::<Vec<_>>()),
        Err(e) => e.iter().filter(|d| d.severity == diagnostic::Severity::Error).map(|d| d.to_string()).collect(),
    }
}

#[test]
fn comments_of_every_kind() {
    // grammar/comment/*: `;`, `//`, `/* */` (across lines); a `;` comment hides `/*`
    // and quotes.
    assert_eq!(text("mov r0, c0 ; a\n// b\nmov /* c\n d */ r1, c1 ; don't /* \"\n"), "mov r0 , c0 mov r1 , c1");
    // grammar/comment/*/block-unclosed: X1001.
    assert!(errors("mov r0, c0 /* never\n", &[])[0].contains("continues past the end"));
}

#[test]
fn object_and_function_macros() {
    assert_eq!(text("#define SRC c0\nmov r0, SRC.x\n"), "mov r0 , c0 . x");
    // Line continuations (grammar/preprocess/*/define-continued, -crlf).
    assert_eq!(text("#define OUT mov oPos, \\\n  c0\nOUT\n"), "mov oPos , c0");
    assert_eq!(text("#define OUT mov oPos, \\\r\n  c0\r\nOUT\r\n"), "mov oPos , c0");
    assert_eq!(text("#define M(a, b) mov a, b\nM(oPos, c0)\n"), "mov oPos , c0");
    // Arguments expanded first, then the body rescanned.
    assert_eq!(text("#define ID(x) x\n#define M(a, b) mov a, ID(b)\nM(r0, ID(c0))\n"), "mov r0 , c0");
    // Arguments across lines (grammar/preprocess/*/define-function-args-lines).
    assert_eq!(text("#define M(a, b) mov a, b\nM(r0,\n c0)\n"), "mov r0 , c0");
    // A function-like macro's name alone is not a call.
    assert_eq!(text("#define F(x) c0\nmov r0, F\n"), "mov r0 , F");
    // `##` and `#`.
    assert_eq!(text("#define REG(n) c##n\nmov r0, REG(3)\n"), "mov r0 , c3");
    assert_eq!(text("#define S(x) #x\nS(c0)\n"), "\"c0\"");
    // `#undef`.
    assert_eq!(text("#define S c0\n#undef S\nS\n"), "S");
    // grammar/preprocess/*/define-function-no-args: `D3DAssemble` has no empty
    // parameter list; the wrong argument count and an unclosed call are errors.
    assert!(errors("#define S() c0\nS()\n", &[])[0].contains("parameter list"));
    assert!(errors("#define S(x) c0\nS(1, 2)\n", &[])[0].contains("takes 1 argument"));
    assert!(errors("#define S(x) c0\nS(1\n", &[])[0].contains("not closed"));
}

#[test]
fn a_recursive_define_stops_as_c_says() {
    // grammar/preprocess/*/recursive*: Microsoft leaves the name (then "invalid register").
    assert_eq!(text("#define A A\nA\n"), "A");
    assert_eq!(text("#define A B\n#define B A\nA B\n"), "A B");
    assert_eq!(text("#define F(x) F(x)\nF(c0)\n"), "F ( c0 )");
}

#[test]
fn conditionals_and_expressions() {
    assert_eq!(text("#define X\n#ifdef X\na\n#else\nb\n#endif\n#ifndef X\nc\n#endif\n"), "a");
    assert_eq!(text("#define N 2\n#if N == 1\na\n#elif N == 2\nb\n#else\nc\n#endif\n"), "b");
    assert_eq!(text("#if 1\n#if 0\na\n#else\nb\n#endif\n#endif\n"), "b");
    assert_eq!(text("#if defined X || defined(Y)\na\n#else\nb\n#endif\n"), "b");
    assert_eq!(text("#if (1 + 2 * 3 == 7) && (1 ? 1 : 0) && 0x10 == 16 && 010 == 8\na\n#endif\n"), "a");
    // grammar/preprocess/*/if-unsigned, if-unsigned-division: unsigned 32-bit values.
    assert_eq!(text("#if -1 > 0 && 4294967295 + 1 == 0\na\n#endif\n"), "a");
    assert_eq!(text("#if -2 / 2 == -1\na\n#else\nb\n#endif\n"), "b");
    // grammar/preprocess/*/if-modulo, if-shift, if-complement: operators it lacks.
    for e in ["5 % 3", "1 << 2", "8 >> 1", "~0"] {
        assert!(!errors(&format!("#if {e}\n#endif\n"), &[]).is_empty(), "{e}");
    }
    assert!(errors("#if 1 / 0\n#endif\n", &[])[0].contains("division by zero"));
    assert!(errors("#if 1\na\n", &[])[0].contains("has no `#endif`"));
    assert!(errors("a\n#endif\n", &[])[0].contains("without `#if`"));
    assert!(errors("#if 1\n#else\n#else\n#endif\n", &[])[0].contains("after `#else`"));
    // Directives in a skipped block are not read (grammar/preprocess/*/error-skipped).
    assert_eq!(text("#if 0\n#error no\n#frobnicate\n#endif\na\n"), "a");
}

#[test]
fn other_directives() {
    // grammar/preprocess/*/error: the message, at the directive.
    let e = errors("a\n#error stop here\n", &[]);
    assert_eq!(e, ["main.asm:2:2: error: #error: stop here"]);
    // grammar/preprocess/*/pragma: a warning.
    let out = run("#pragma something\na\n", &[]).unwrap();
    assert!(out.warnings[0].message.contains("unknown pragma"));
    // grammar/preprocess/*/unknown-directive, null-directive.
    assert!(!errors("#frobnicate\n", &[]).is_empty());
    assert!(!errors("#\n", &[]).is_empty());
}

#[test]
fn positions_through_line_and_include() {
    let out = run("a\n#line 100 \"other.asm\"\nb\n#include \"x.inc\"\nc\n", &[("x.inc", "\n  d\n")]).unwrap();
    let at: Vec<(String, u32, u32)> = out
        .tokens
        .iter()
        .map(|t| (out.files[t.origin.file as usize].clone(), t.origin.line, t.origin.column))
        .collect();
    assert_eq!(
        at,
        [("main.asm".into(), 1, 1), ("other.asm".into(), 100, 1), ("x.inc".into(), 2, 3), ("other.asm".into(), 102, 1)]
    );
    // grammar/include/*/error-inside: errors name the included file.
    let e = errors("#include \"x.inc\"\n", &[("x.inc", "\n#error here\n")]);
    assert_eq!(e, ["x.inc:2:2: error: #error: here"]);
    // grammar/include/*/missing, no-handler: X1507, at the file name.
    let e = errors("\n#include \"nope.inc\"\n", &[]);
    assert!(e[0].starts_with("main.asm:2:10: error: failed to open source file: 'nope.inc'"), "{e:?}");
    let none = preprocess("#include \"a.inc\"\n", "main.asm", &NoInclude).unwrap_err();
    assert!(none[0].message.contains("no include handler"));
    // `<file>` reads the same files.
    assert_eq!(run("#include <x.inc>\n", &[("x.inc", "d\n")]).unwrap().tokens[0].text, "d");
}

#[test]
fn include_depth_is_bounded_as_microsoft_bounds_it() {
    // grammar/include/*/chain-31 and chain-32: 31 nested files open, the 32nd is X1506.
    let chain = |n: usize| -> Vec<(String, String)> {
        (1..=n)
            .map(|i| {
                let t = if i < n { format!("#include \"c{}.inc\"\n", i + 1) } else { "end\n".to_string() };
                (format!("c{i}.inc"), t)
            })
            .collect()
    };
    assert_eq!(LIMITS.include_depth, 31);
    let ok = MemoryInclude { files: chain(31) };
    assert_eq!(preprocess("#include \"c1.inc\"\n", "main.asm", &ok).unwrap().tokens[0].text, "end");
    let deep = MemoryInclude { files: chain(32) };
    let e = preprocess("#include \"c1.inc\"\n", "main.asm", &deep).unwrap_err();
    assert!(e[0].to_string().starts_with("c31.inc:1:10: error: `#include` nested more than 31 deep"), "{}", e[0]);
    // A file that includes itself (grammar/include/*/self) ends at the same bound.
    let selfish = MemoryInclude { files: vec![("s.inc".into(), "#include \"s.inc\"\n".into())] };
    assert!(preprocess("#include \"s.inc\"\n", "main.asm", &selfish).is_err());
}

/// Fails unless `f` returns within a couple of seconds (a bound, not a hang).
fn quickly<T>(f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let v = f();
    assert!(t.elapsed() < Duration::from_secs(20), "took {:?}", t.elapsed());
    v
}

#[test]
fn huge_expansions_are_errors() {
    // Each level doubles: 2^40 tokens.
    let mut src = String::from("#define A0 x\n");
    for i in 1..=40 {
        src.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    src.push_str("A40\n");
    let e = quickly(|| run(&src, &[])).unwrap_err();
    assert!(
        e[0].message.contains(&format!("more than {} tokens", LIMITS.tokens)) || e[0].message.contains("expansions"),
        "{}",
        e[0]
    );
    // Arguments nested past the limit.
    let deep = format!(
        "#define F(x) x\n{}c0{}\n",
        "F(".repeat(LIMITS.argument_depth + 8),
        ")".repeat(LIMITS.argument_depth + 8)
    );
    let e = quickly(|| run(&deep, &[])).unwrap_err();
    assert!(e[0].message.contains("nested more than"), "{}", e[0]);
    // Conditionals nested past the limit.
    let ifs = format!(
        "{}{}",
        "#if 1\n".repeat(LIMITS.conditional_depth + 1),
        "#endif\n".repeat(LIMITS.conditional_depth + 1)
    );
    let e = quickly(|| run(&ifs, &[])).unwrap_err();
    assert!(e[0].message.contains("nested `#if`"), "{}", e[0]);
    // Expansions: a macro used many times, each use cheap, is fine below the bound.
    let many = format!("#define X c0\n{}", "X\n".repeat(10_000));
    assert_eq!(quickly(|| run(&many, &[])).unwrap().tokens.len(), 10_000);
}

#[test]
fn include_handler_sees_the_including_file() {
    struct Record(std::cell::RefCell<Vec<(String, bool, String)>>);
    impl Include for Record {
        fn open(&self, name: &str, system: bool, from: &str) -> Result<String, String> {
            self.0.borrow_mut().push((name.into(), system, from.into()));
            Ok(if name == "a.inc" { "#include <b.inc>\n".into() } else { String::new() })
        }
    }
    let r = Record(Default::default());
    preprocess("#include \"a.inc\"\n", "main.asm", &r).unwrap();
    assert_eq!(*r.0.borrow(), [("a.inc".into(), false, "main.asm".into()), ("b.inc".into(), true, "a.inc".into())]);
}

#[test]
fn no_panic_on_broken_directives() {
    for src in [
        "#define\n",
        "#define (\n",
        "#define F(\n",
        "#define F(a,\n",
        "#define F(a b)\n",
        "#undef\n",
        "#line\n",
        "#line 0\n",
        "#line 5 x\n",
        "#include\n",
        "#include \"\n",
        "#include <a\n",
        "#if\n#endif\n",
        "#if (\n#endif\n",
        "#if 1 ?\n#endif\n",
        "#elif 1\n",
        "#else\n",
        "#ifdef\n#endif\n",
        "\"unterminated\n",
        "'\n",
        "\\",
        "#if 1 +\n#endif\n",
        "#define F(x) #\nF(1)\n",
        "#define F(x) ## x\nF(1)\n",
        "#define F(x) x ##\nF(1)\n",
        "\u{0}\u{ffff}#",
    ] {
        let _ = run(src, &[]);
    }
}

/// An unterminated string in `#include` or `#line` is a positioned error, whatever its
/// last character (a multibyte one used to panic on a char boundary, and an ASCII one
/// lost its last character).
#[test]
fn unterminated_strings_in_directives_are_errors() {
    for text in ["vs.1.1\n#include \"é\n", "vs.1.1\n#line 3 \"é\n", "vs.1.1\n#include \"ab\n", "vs.1.1\n#line 3 \"ab\n"]
    {
        let e = d3dbc::parse::assemble_source(text, &d3dbc::parse::SourceOptions::default())
            .expect_err(&format!("{text:?} is refused"));
        assert!(e.iter().any(|d| d.line == 2), "{text:?}: {e:?}");
    }
}
