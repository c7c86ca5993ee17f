//! The printer and the parser are inverses: for every stream of the oracle data
//! (`tests/oracle/`) and every corpus program, `print(decode(x))` parses, the program it
//! parses to prints the same text, and it encodes back to `x`'s instructions wherever the
//! text carries all their bits. Comment blocks (`CTAB`, `DBUG`) are compared elsewhere
//! (`asm_roundtrip.rs`, `listing_level9.rs`): here only the instruction tokens.

mod common;

use d3dbc::ir::{Item, Program};
use d3dbc::parse::parse_program;
use d3dbc::print::print_program;

mod oracle_data;

/// Every stream of the oracle data of the fifteen profiles: `(profile/name, bytes)`.
fn oracle_streams() -> Vec<(String, Vec<u8>)> {
    oracle_data::all_cases().into_iter().filter(|c| c.profile != "versions").map(|c| (c.id(), c.bytes)).collect()
}

/// The program's instruction tokens (comment blocks left out), encoded.
fn instructions_only(p: &Program<'_>) -> Vec<u8> {
    let items = p.items.iter().filter(|i| matches!(i, Item::Instruction(_))).cloned().collect();
    d3dbc::encode(&Program { version: p.version, items }).expect("encodes")
}

/// Forms Microsoft's disassembler (and ours) print for values the format does not
/// define, which the text cannot give back.
fn lossy(text: &str) -> bool {
    text.contains("_unknown")
        || text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.len() > 1 && w.starts_with('x') && w[1..].bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Default, Debug)]
struct Tally {
    streams: usize,
    exact: usize,
    /// Text fixpoint, but the stream holds bits the text does not show.
    hidden_bits: Vec<String>,
    /// Refused: the text names an undefined value it does not give.
    lossy: Vec<String>,
}

/// Returns the stream's outcome, for the expectation file.
fn check(id: &str, bytes: &[u8], t: &mut Tally, failures: &mut Vec<String>) -> &'static str {
    let Ok(program) = d3dbc::decode(bytes) else { return "not decodable" };
    t.streams += 1;
    let text = print_program(&program);
    let parsed = match parse_program(&text) {
        Ok(p) => p,
        Err(e) if lossy(&text) => {
            assert!(e[0].message.contains("does not say"), "{id}: {}", e[0]);
            t.lossy.push(id.to_string());
            return "names an undefined value without giving it";
        }
        Err(e) => {
            failures.push(format!("{id}: {} in\n{text}", e[0]));
            return "does not parse";
        }
    };
    let again = print_program(&parsed.program);
    if again != text {
        failures.push(format!("{id}: prints differently after parsing:\n{text}---\n{again}"));
        return "prints differently after parsing";
    }
    if instructions_only(&parsed.program) == instructions_only(&program) {
        t.exact += 1;
        "exact"
    } else {
        t.hidden_bits.push(id.to_string());
        "holds bits the text does not show"
    }
}

#[test]
fn oracle_streams_print_parse_encode() {
    let mut t = Tally::default();
    let mut failures = Vec::new();
    let mut outcomes = std::collections::BTreeMap::new();
    for (id, bytes) in oracle_streams() {
        let outcome = check(&id, &bytes, &mut t, &mut failures);
        outcomes.insert(id, outcome.to_string());
    }
    println!(
        "oracle: {} decodable streams; {} print, parse and encode back exactly; {} print the same text \
         but hold bits it does not show (reserved bits, comment blocks, undefined comparison/usage \
         values, NaN payloads...); {} refused as their text names an undefined value without giving it",
        t.streams,
        t.exact,
        t.hidden_bits.len(),
        t.lossy.len()
    );
    println!("  hidden bits: {}", t.hidden_bits.join(" "));
    println!("  lossy: {}", t.lossy.join(" "));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(t.streams, 1865);
    // Every stream's outcome, both ways (tests/expect/print_parse_roundtrip.txt).
    corpus::expect::check(corpus::expect_file!("print_parse_roundtrip.txt"), &outcomes);
}

#[test]
fn corpus_programs_print_parse_encode() {
    let Some(programs) = common::programs("corpus_programs_print_parse_encode") else { return };
    let mut t = Tally::default();
    let mut failures = Vec::new();
    for p in &programs {
        check(&p.id, &p.bytes, &mut t, &mut failures);
    }
    println!("corpus: {} programs, {} exact", t.streams, t.exact);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(t.lossy.is_empty() && t.hidden_bits.is_empty(), "{t:?}");
    assert_eq!((t.streams, t.exact), (150, 150));
}

/// Printed with the columns and literals of the disassembly flags (instruction numbers,
/// byte offsets, `def` values as bits), every stream that prints and parses back exactly
/// without them parses back to the same instructions: the parser reads past the columns
/// and reads the bits.
#[test]
fn streams_printed_under_the_disassembly_flags_parse_back() {
    use d3dbc::print::{print_stream_with_debug, Format};
    let mut streams: Vec<(String, Vec<u8>)> = oracle_streams();
    if let Some(programs) = common::programs("streams_printed_under_the_disassembly_flags_parse_back") {
        streams.extend(programs.into_iter().map(|p| (p.id.clone(), p.bytes.clone())));
    }
    let (mut n, mut failures) = (0, Vec::new());
    for (id, bytes) in &streams {
        let Ok(program) = d3dbc::decode(bytes) else { continue };
        let plain = parse_program(&print_program(&program));
        if !plain.is_ok_and(|p| instructions_only(&p.program) == instructions_only(&program)) {
            continue;
        }
        for bits in 1..8u8 {
            let format = Format { numbering: bits & 1 != 0, offsets: bits & 2 != 0, hex_literals: bits & 4 != 0 };
            let mut text = String::new();
            print_stream_with_debug(bytes, None, format, &mut text).expect("decodes");
            n += 1;
            match parse_program(&text) {
                Ok(p) if instructions_only(&p.program) == instructions_only(&program) => {}
                Ok(_) => failures.push(format!("{id} {format:?}: parses to other instructions")),
                Err(e) => failures.push(format!("{id} {format:?}: {}", e[0])),
            }
        }
    }
    println!("{n} listings under the disassembly flags parsed back");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(n > 0);
}
