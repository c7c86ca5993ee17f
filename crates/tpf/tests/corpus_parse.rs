//! The program part of every corpus listing parses back into the IR, and that IR
//! encodes to the blob's own SHDR/SHEX bytes (except where the listing's text has lost
//! information), and prints back to the same text. Every entry's encoding result is
//! checked against `tests/expect/corpus_parse.txt`.

mod common;
use common::{creator, program_text, shader_chunk};

use tpf::parse::parse_program;
use tpf::print::print_program;
use tpf::Style;

#[test]
fn corpus_listings_parse_back_to_their_bytes() {
    let Some(entries) = corpus::dxbc_entries("corpus_listings_parse_back_to_their_bytes") else { return };
    let (mut identical, mut reprinted, mut total) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut outcomes = std::collections::BTreeMap::new();
    for e in &entries {
        total += 1;
        let blob = e.bytes();
        let code = shader_chunk(&blob).unwrap();
        let text = program_text(&e.listing(), &e.profile);
        let parsed = match parse_program(&text) {
            Ok(p) => p,
            Err(errors) => {
                failures.push(format!("{}: {}", e.id(), errors[0]));
                outcomes.insert(e.id(), corpus::expect::one_line(&format!("parse error: {}", errors[0])));
                continue;
            }
        };
        let bytes = tpf::encode(&parsed.program).unwrap();
        if bytes == code {
            identical += 1;
            outcomes.insert(e.id(), "exact".to_string());
        } else {
            let original = tpf::decode(code).unwrap();
            let which = original
                .iter()
                .zip(parsed.program.iter())
                .position(|(a, b)| a != b)
                .unwrap_or(original.instructions.len().min(parsed.program.instructions.len()));
            let (a, b) = (original.get(which), parsed.program.get(which));
            let mut outcome = format!("instruction {which} ({:?}) differs", a.map(|i| i.opcode));
            let detail = match (a, b) {
                (Some(a), Some(b))
                    if matches!((&a.body, &b.body), (tpf::Body::Op(_), tpf::Body::Op(_)))
                        && a.operands().len() == b.operands().len() =>
                {
                    let (x, y) = (a.operands(), b.operands());
                    match x.iter().zip(y).position(|(p, q)| !a.pool().same_operand(p, b.pool(), q)) {
                        Some(k) => {
                            outcome += &format!(" in operand {k}");
                            format!("operand {k}:\n    original: {:?}\n    parsed:   {:?}", x[k], y[k])
                        }
                        None => format!("\n    original: {a:?}\n    parsed:   {b:?}"),
                    }
                }
                _ => format!("\n    original: {a:?}\n    parsed:   {b:?}"),
            };
            failures.push(format!("{}: instruction {which} ({:?}) differs: {detail}", e.id(), a.map(|i| i.opcode)));
            outcomes.insert(e.id(), outcome);
        }
        let style = Style::for_creator(creator(&blob).as_deref());
        let mut again = String::new();
        print_program(&parsed.program, style, &mut again);
        if again.lines().map(str::trim_end).eq(text.lines().map(str::trim_end)) {
            reprinted += 1;
        } else {
            let (g, w): (Vec<&str>, Vec<&str>) = (again.lines().collect(), text.lines().collect());
            let i = (0..g.len().max(w.len()))
                .find(|&i| g.get(i).map(|s| s.trim_end()) != w.get(i).map(|s| s.trim_end()))
                .unwrap_or(0);
            failures.push(format!(
                "{}: reprinted line {} differs:\n    got:  {:?}\n    want: {:?}",
                e.id(),
                i + 1,
                g.get(i),
                w.get(i)
            ));
        }
    }
    println!("parsed programs: {identical}/{total} encode to the blob's bytes; {reprinted}/{total} print back to the listing");
    for f in failures.iter().filter(|f| !f.contains("Immediate32")).take(15) {
        println!("FAIL {f}");
    }
    assert_eq!(reprinted, total);
    // Those that differ print immediates with fewer digits than the value has (six
    // decimals): the listing does not carry their bits.
    corpus::expect::check(corpus::expect_file!("corpus_parse.txt"), &outcomes);
}
