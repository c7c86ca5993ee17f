//! Hostile variants of the Microsoft oracle's inputs, which no corpus test reaches:
//! mutated blobs Microsoft compiled (through `disassemble` under every flag set) and
//! mutated texts Microsoft printed under every flag set (instruction numbers, byte
//! offsets, hex literals — through the text decoder and `assemble`). Every input must
//! give a listing, an assembled blob or a typed error; none may panic. Errors in text
//! must name a line inside it. Deterministic (a fixed seed), so a failure reproduces.

use corpus::Rng;
use listing::asm::{assemble, AsmOptions};
use listing::{disassemble, Options};

fn options(flags: u32) -> Options {
    Options {
        number_instructions: flags & corpus::oracle::DISASM_NUMBERING != 0,
        byte_offsets: flags & corpus::oracle::DISASM_OFFSETS != 0,
        hex_literals: flags & corpus::oracle::DISASM_HEX != 0,
        ..Options::default()
    }
}

fn mutate_text(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            break;
        }
        let i = rng.below(b.len());
        match rng.below(6) {
            0 => b[i] = b" \n,.()[]-+0123456789xyzwlrvotsucb#:_|"[rng.below(37)],
            1 => {
                b.remove(i);
            }
            2 => {
                let j = (i + rng.below(64)).min(b.len());
                let chunk = b[i..j].to_vec();
                let k = rng.below(b.len());
                b.splice(k..k, chunk);
            }
            3 => b.truncate(i),
            4 => b.insert(i, [0u8, 0xff, 0xfe, b'\r', 0xc3][rng.below(5)]),
            _ => {
                let j = (i + rng.below(200)).min(b.len());
                b.drain(i..j);
            }
        }
    }
    b
}

#[test]
fn mutated_oracle_texts_and_blobs_never_panic() {
    let mut rng = Rng(0x05ee_d0f0_ac1e);
    let (mut texts, mut blobs) = (0usize, 0usize);
    for (archive, records) in corpus::oracle::archives() {
        if archive.starts_with("mutants-") {
            continue; // already hostile; listed by oracle_microsoft
        }
        for r in records.iter().step_by(8) {
            for t in &r.texts {
                if t.hr != 0 {
                    continue;
                }
                for _ in 0..4 {
                    let bytes = mutate_text(&mut rng, &t.text);
                    texts += 1;
                    let Ok(text) = listing::text::decode(&bytes) else { continue };
                    if let Err(errors) = assemble(&text, &AsmOptions::default()) {
                        let lines = text.lines().count() + 1;
                        for e in &errors {
                            assert!((1..=lines + 4).contains(&e.line), "{}: {e}", r.name);
                        }
                    }
                }
            }
            for _ in 0..4 {
                let mut b = r.blob.clone();
                for _ in 0..1 + rng.below(3) {
                    let i = rng.below(b.len());
                    b[i] ^= 1 << rng.below(8);
                }
                blobs += 1;
                let flags = [0, 4, 0x20, 0x80][rng.below(4)];
                let _ = disassemble(&b, &options(flags));
            }
        }
    }
    println!("{texts} mutated texts, {blobs} mutated blobs: no panic");
    assert!(texts > 0 && blobs > 0);
}
