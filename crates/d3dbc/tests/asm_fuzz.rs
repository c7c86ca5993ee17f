//! The assembler never panics: random text, token soup and mutated corpus listings
//! all give a program or positioned errors. Whatever assembles decodes back to what
//! was parsed.

use d3dbc::parse::{assemble, level9_part, parse_program, parse_program_at, Severity};
use proptest::prelude::*;

/// Checks one text; returns true when it assembled.
fn check(text: &str) -> bool {
    let lines = text.split('\n').count();
    match parse_program(text) {
        Ok(parsed) => {
            assert!(parsed.warnings.iter().all(|w| w.severity == Severity::Warning));
            match assemble(text) {
                Ok(bytes) => {
                    let back =
                        d3dbc::decode(&bytes).unwrap_or_else(|e| panic!("{text:?} assembled but does not decode: {e}"));
                    let n = parsed.program.items.len();
                    assert_eq!(&back.items[back.items.len() - n..], &parsed.program.items[..], "{text:?}");
                    true
                }
                // Only the header can still fail (a parameter without a register row).
                Err(errors) => {
                    assert!(!errors.is_empty());
                    false
                }
            }
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            for e in &errors {
                assert_eq!(e.severity, Severity::Error);
                assert!((1..=lines + 1).contains(&e.line), "{e} in {text:?}");
                assert!(e.column > 0 && e.length > 0, "{e} in {text:?}");
                assert!(e.expected.is_some(), "{e} has no hint, in {text:?}");
            }
            assert!(errors.windows(2).all(|w| (w[0].line, w[0].column) <= (w[1].line, w[1].column)));
            false
        }
    }
}

const TOKENS: &[&str] = &[
    "vs_1_1\n",
    "vs_2_0\n",
    "vs_3_0\n",
    "ps_1_1\n",
    "ps_1_4\n",
    "ps_2_0\n",
    "ps_2_x\n",
    "ps_3_0\n",
    "mov",
    "add",
    "mad",
    "texld",
    "tex",
    "texcrd",
    "texldp",
    "texldd",
    "dcl",
    "dcl_2d",
    "dcl_texcoord1",
    "dcl_position",
    "def",
    "defi",
    "defb",
    "if",
    "if_gt",
    "else",
    "endif",
    "loop",
    "endloop",
    "rep",
    "endrep",
    "break_ne",
    "setp_le",
    "call",
    "label",
    "_sat",
    "_pp",
    "_x2",
    "_centroid",
    "_bias",
    "_bx2",
    "_abs",
    "_dz",
    "r0",
    "r1",
    "v0",
    "c0",
    "c[",
    "a0.x",
    "aL",
    "i0",
    "b0",
    "p0",
    "s0",
    "t0",
    "oPos",
    "oC0",
    "oT0",
    "o0",
    "vPos",
    "l0",
    ".x",
    ".xyzw",
    ".rgb",
    ".a",
    "[",
    "]",
    "(",
    ")",
    "!",
    "+",
    "-",
    "1 - ",
    ",",
    " ",
    "\n",
    "//",
    "#line 3 \"f\"\n",
    "1.5",
    "-0",
    "1.#INF",
    "1e-005",
    "true",
    "4294967296",
    "  // x<0,1>",
    "é",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        check(&text);
        check(&format!("ps_2_0\n{text}"));
        check(&format!("vs_1_1\n{text}"));
    }

    #[test]
    fn token_soup_never_panics(tokens in proptest::collection::vec(0..TOKENS.len(), 0..60)) {
        let text: String = tokens.iter().map(|&i| TOKENS[i]).collect();
        check(&text);
        check(&format!("ps_3_0\n{text}"));
        check(&format!("ps_1_3\n{text}"));
    }
}

fn mutate(rng: &mut corpus::Rng, chars: &[char]) -> String {
    let mut m = chars.to_vec();
    for _ in 0..1 + rng.below(8) {
        if m.is_empty() {
            break;
        }
        let i = rng.below(m.len());
        match rng.below(4) {
            0 => {
                m.remove(i);
            }
            1 => {
                const CHARS: &[u8] = b"()[],.-+_!0123456789xyzwrgbaltvocsp\n /#";
                m.insert(i, CHARS[rng.below(CHARS.len())] as char)
            }
            2 => m[i] = ' ',
            _ => {
                let j = (i + rng.below(40)).min(m.len());
                m.drain(i..j);
            }
        }
    }
    m.into_iter().collect()
}

#[test]
fn mutated_corpus_listings_never_panic() {
    let Some(entries) = corpus::entries("mutated_corpus_listings_never_panic") else { return };
    let mut rng = corpus::Rng(0xa55e_3b1e_0000_0001);
    let (mut total, mut ok) = (0, 0);
    for e in entries.iter().filter(|e| e.container == corpus::Container::D3dbc || e.is_level9()) {
        let listing = e.listing();
        let text = match level9_part(&listing) {
            Some((t, _)) => t.to_string(),
            None => listing,
        };
        let chars: Vec<char> = text.chars().collect();
        let rounds = if e.container == corpus::Container::D3dbc { 60 } else { 8 };
        for _ in 0..rounds {
            let m = mutate(&mut rng, &chars);
            total += 1;
            ok += check(&m) as usize;
            let _ = parse_program_at(&m, 40);
        }
    }
    println!("mutated listings: {total}, {ok} assembled, the rest positioned errors");
    assert!(total > 0 && ok < total);
}
