//! The parser never panics: random text, random token soup, and mutated corpus
//! listings all give a program or positioned errors. Whatever parses also encodes.

use proptest::prelude::*;

fn check(text: &str) {
    match tpf::parse::parse_program(text) {
        Ok(parsed) => {
            // Whatever parses encodes, and decodes back to what was parsed.
            let bytes =
                tpf::encode(&parsed.program).unwrap_or_else(|e| panic!("{text:?} parsed but does not encode: {e}"));
            assert_eq!(tpf::decode(&bytes).unwrap().instructions.len(), parsed.program.instructions.len(), "{text:?}");
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            let lines = text.split('\n').count();
            for e in &errors {
                assert!((1..=lines + 1).contains(&e.line), "{e} in {text:?}");
                assert!(e.column > 0);
            }
        }
    }
}

const TOKENS: &[&str] = &[
    "vs_5_0\n",
    "ps_4_0\n",
    "gs_5_1\n",
    "mov",
    "add",
    "dcl_temps",
    "dcl_input",
    "dcl_constantbuffer",
    "sample_indexable",
    "(texture2d)",
    "(float,float,float,float)",
    "(1,2,3)",
    "_sat",
    "_nz",
    "_z",
    "loop",
    "endloop",
    "if_nz",
    "endif",
    "else",
    "switch",
    "case",
    "r0",
    "r1",
    ".x",
    ".xyzw",
    ".xxyy",
    "v[0][1]",
    "cb0[r0.x + 2]",
    "CB0[0:0][2]",
    "l(",
    ")",
    "l(1.000000)",
    "l(0x7fffffff, 1, 2, 3)",
    "d(1.0, 2.0)",
    "-",
    "|",
    "[",
    "]",
    "{",
    "}",
    ",",
    " ",
    "\n",
    "//",
    "x0[3]",
    "icb[",
    "dcl_immediateConstantBuffer {",
    "{ 1, 2, 3, 4}",
    "fcall fp0[0][0]",
    "space=",
    "{min16f}",
    "{def32 as min16f}",
    "[precise(xy)]",
    "T0[0:*]",
    "0",
    "4294967296",
    "-1.#INF00",
    "sync_g_t",
    "dcl_interface fp0[1][1] = {ft0}",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        check(&text);
        check(&format!("vs_5_0\n{text}"));
    }

    #[test]
    fn token_soup_never_panics(tokens in proptest::collection::vec(0..TOKENS.len(), 0..60)) {
        let text: String = tokens.iter().map(|&i| TOKENS[i]).collect();
        check(&text);
        check(&format!("ps_5_0\n{text}"));
    }
}

#[test]
fn mutated_corpus_listings_never_panic() {
    let Some(entries) = corpus::dxbc_entries("mutated_corpus_listings_never_panic") else { return };
    let mut rng = corpus::Rng(0x1234_5678_9abc_def1);
    let mut parsed = 0;
    for e in entries.iter().step_by(3) {
        let listing = e.listing();
        let chars: Vec<char> = listing.chars().collect();
        for _ in 0..6 {
            let mut m = chars.clone();
            for _ in 0..1 + rng.below(8) {
                let i = rng.below(m.len());
                match rng.below(4) {
                    0 => {
                        m.remove(i);
                    }
                    1 => {
                        const CHARS: &[u8] = b"(){}[],.|-+:=_0123456789xyzwlrvo\n ";
                        m.insert(i, CHARS[rng.below(CHARS.len())] as char)
                    }
                    2 => m[i] = ' ',
                    _ => {
                        let j = (i + rng.below(40)).min(m.len());
                        m.drain(i..j);
                    }
                }
                if m.is_empty() {
                    break;
                }
            }
            let text: String = m.into_iter().collect();
            let program = text
                .find(&format!("\n{}\n", e.profile.rsplit('+').next().unwrap()))
                .map_or(&text[..], |i| &text[i + 1..]);
            check(program);
            if tpf::parse::parse_program(program).is_ok() {
                parsed += 1;
            }
        }
    }
    println!("mutated listings: {parsed} still parsed");
}
