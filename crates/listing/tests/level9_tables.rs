//! The Level9 mapping tables, both ways, on every Level9 blob of the corpus: printed
//! from the `Aon9` chunk they equal the listing's text between the header and the
//! `// Level9 shader bytecode:` line, and read back from that text (with the chunk's
//! program) they rebuild the chunk byte for byte. Blocks the corpus does not have
//! (integer and boolean registers, clip planes, conversions other than `FLT`, the
//! runtime constants other than the position offset) are checked against the
//! disassembler's output for such chunks, typed out below.

use dxbc::aon9::{
    Aon9, ConstantMapping, ConstantTarget, DataConversion, Mappings, RegisterMapping, RuntimeConstantKind,
    RuntimeConstantMapping, SamplerMapping,
};
use dxbc::{Container, FourCc};
use listing::level9::{parse_tables, print_mappings, print_tables, BYTECODE_TITLE};

/// The listing's tables region and the 1-based line number of its first line: from
/// the line after the `//` that closes the output-signature block (the last header
/// block of every Level9 listing) up to the `// Level9 shader bytecode:` line.
fn tables_region(listing: &str) -> Option<(String, usize)> {
    let lines: Vec<&str> = listing.split_inclusive('\n').collect();
    let sig = lines.iter().position(|l| l.trim_end() == "// Output signature:")?;
    let rule = sig + lines[sig..].iter().position(|l| l.starts_with("// ---"))?;
    let close = rule + lines[rule..].iter().position(|l| l.trim_end() == "//")?;
    let end = close + lines[close..].iter().position(|l| l.trim_end() == BYTECODE_TITLE)?;
    Some((lines[close + 1..end].concat(), close + 2))
}

fn strip_trailing(text: &str) -> String {
    text.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

#[test]
fn corpus_tables_print_and_parse_back() {
    let Some(entries) = corpus::dxbc_entries("corpus_tables_print_and_parse_back") else {
        return;
    };
    let (mut total, mut printed, mut parsed, mut rebuilt) = (0, 0, 0, 0);
    let mut blocks = std::collections::BTreeMap::<&str, usize>::new();
    for e in entries.iter().filter(|e| e.is_level9()) {
        total += 1;
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        let data = c.chunk(FourCc(*b"Aon9")).expect("a Level9 blob has an Aon9 chunk").data;
        let chunk = Aon9::parse(data).unwrap();
        let listing = e.listing();
        let (region, first_line) = tables_region(&listing).unwrap_or_else(|| panic!("{}: no tables region", e.id()));
        for title in ["Constant buffer to DX9", "Runtime generated", "Sampler/Resource"] {
            if region.contains(title) {
                *blocks.entry(title).or_default() += 1;
            }
        }

        let mut got = String::new();
        print_tables(&mut got, &chunk);
        let (got_cmp, want_cmp) = if e.trailing_ws == corpus::TrailingWs::Stripped {
            (strip_trailing(&got), strip_trailing(&region))
        } else {
            (got.clone(), region.clone())
        };
        if got_cmp == want_cmp {
            printed += 1;
        } else {
            println!("PRINT FAIL {}:\n--- got\n{got}--- want\n{region}", e.id());
        }

        match parse_tables(&region, first_line) {
            Ok(m) => {
                if m == chunk.mappings {
                    parsed += 1;
                } else {
                    println!("PARSE FAIL {}: {m:?}", e.id());
                }
                // The chunk from the listing's tables and the program bytes alone.
                if Aon9::new(chunk.program, m).build().unwrap() == data {
                    rebuilt += 1;
                } else {
                    println!("BUILD FAIL {}", e.id());
                }
            }
            Err(d) => println!("PARSE FAIL {}: {}", e.id(), d[0]),
        }
    }
    println!("Level9 tables: {total} blobs; blocks: {blocks:?}");
    println!("  printed == listing: {printed}/{total}");
    println!("  parsed == chunk tables: {parsed}/{total}");
    println!("  built from listing tables + program == chunk: {rebuilt}/{total}");
    assert_eq!(total, 129);
    assert_eq!(printed, total);
    assert_eq!(parsed, total);
    assert_eq!(rebuilt, total);
}

fn rm(buffer: u16, source_reg: u16, component: u16, target_reg: u16) -> RegisterMapping {
    RegisterMapping { buffer, source_reg, component, target_reg }
}

fn constant(
    target: ConstantTarget,
    buffer: u16,
    start_reg: u16,
    reg_count: u16,
    c: [DataConversion; 4],
) -> ConstantMapping {
    ConstantMapping { buffer, start_reg, reg_count, target, conversion: c }
}

/// Every kind of row: the text Microsoft's disassembler prints for these tables
/// (booleans before integers, each table under its own header, clip planes in the
/// constant table, runtime constants before samplers, samplers in chunk order).
const ALL_BLOCKS: &str = "\
//
// Constant buffer to DX9 shader constant mappings:
//
// Target Reg Buffer  Source Reg Component
// ---------- ------- ---------- ---------
// b0         cb300            2         9
// b1         cb0              2         0
//
// Target Reg Buffer  Source Reg Component
// ---------- ------- ---------- ---------
// i4660      cb65535      40000         7
//
// Target Reg Buffer  Start Reg # of Regs        Data Conversion
// ---------- ------- --------- --------- ----------------------
// c0         cb0             0         1  ( INT, INT, INT,BOOL)
// clip4101   cb0             1         1  (UINT,UINT,UINT,UINT)
// clip3      cb12345         2         1  (BOOL,BOOL,BOOL,BOOL)
// c17        cb0             3       255  ( FLT, FLT, FLT, FLT)
//
//
// Runtime generated constant mappings:
//
// Target Reg                               Constant Description
// ---------- --------------------------------------------------
// c0                              Vertex Shader position offset
// c17                                               Instance ID
//
//
// Sampler/Resource to DX9 shader sampler mappings:
//
// Target Sampler Source Sampler  Source Resource
// -------------- --------------- ----------------
// s1             s0              t2               
// s0             s0              t1               
//
//
";

fn all_blocks() -> Mappings {
    use DataConversion::*;
    Mappings {
        constants: vec![
            constant(ConstantTarget::Register(0), 0, 0, 1, [Int, Int, Int, Bool]),
            constant(ConstantTarget::ClipPlane(4101), 0, 1, 1, [Uint; 4]),
            constant(ConstantTarget::ClipPlane(3), 12345, 2, 1, [Bool; 4]),
            constant(ConstantTarget::Register(17), 0, 3, 255, [Float; 4]),
        ],
        integers: vec![rm(65535, 40000, 7, 4660)],
        booleans: vec![rm(300, 2, 9, 0), rm(0, 2, 0, 1)],
        samplers: vec![
            SamplerMapping { target_sampler: 1, source_sampler: 0, source_resource: 2, reserved: 0 },
            SamplerMapping { target_sampler: 0, source_sampler: 0, source_resource: 1, reserved: 0 },
        ],
        runtime_constants: vec![
            RuntimeConstantMapping { kind: RuntimeConstantKind::VertexShaderPositionOffset, target_reg: 0 },
            RuntimeConstantMapping { kind: RuntimeConstantKind::InstanceId, target_reg: 17 },
        ],
    }
}

#[test]
fn every_block_kind_prints_and_parses_back() {
    let m = all_blocks();
    let mut got = String::new();
    print_mappings(&mut got, &m);
    assert_eq!(got, ALL_BLOCKS);
    assert_eq!(parse_tables(ALL_BLOCKS, 40).unwrap(), m);
    // Stripped trailing spaces, CRLF line ends and the bytecode title read the same.
    let crlf = strip_trailing(ALL_BLOCKS).replace('\n', "\r\n") + BYTECODE_TITLE + "\r\n//\n    vs_2_0\n";
    assert_eq!(parse_tables(&crlf, 1).unwrap(), m);
}

#[test]
fn only_some_blocks() {
    // Booleans alone still open the constants block; no tables at all is one `//`.
    let m = Mappings { booleans: vec![rm(0, 0, 0, 0)], ..Mappings::default() };
    let mut got = String::new();
    print_mappings(&mut got, &m);
    assert_eq!(
        got,
        "//\n// Constant buffer to DX9 shader constant mappings:\n//\n\
         // Target Reg Buffer  Source Reg Component\n// ---------- ------- ---------- ---------\n\
         // b0         cb0              0         0\n//\n//\n"
    );
    assert_eq!(parse_tables(&got, 1).unwrap(), m);
    let mut none = String::new();
    print_mappings(&mut none, &Mappings::default());
    assert_eq!(none, "//\n");
    assert_eq!(parse_tables(&none, 1).unwrap(), Mappings::default());
    assert_eq!(parse_tables("", 1).unwrap(), Mappings::default());
}

#[test]
fn unknown_codes_print_as_the_disassembler_does_and_are_refused_back() {
    let m = Mappings {
        constants: vec![constant(
            ConstantTarget::Register(0),
            0,
            0,
            1,
            [
                DataConversion::Unknown(7),
                DataConversion::Unknown(4),
                DataConversion::Unknown(255),
                DataConversion::Bool,
            ],
        )],
        runtime_constants: vec![RuntimeConstantMapping { kind: RuntimeConstantKind::Unknown(2), target_reg: 54919 }],
        ..Mappings::default()
    };
    let mut got = String::new();
    print_mappings(&mut got, &m);
    assert!(got.contains("// c0         cb0             0         1  (UNKN,UNKN,UNKN,BOOL)\n"), "{got}");
    assert!(got.contains("// c54919                                          Unknown Value\n"), "{got}");
    let errors = parse_tables(&got, 10).unwrap_err();
    assert_eq!(errors.len(), 2);
    // Line 10 is the leading `//`; the row is the 6th line; `(UNKN` starts at column 44.
    assert_eq!((errors[0].line, errors[0].column), (15, 45));
    assert!(errors[0].message.contains("UNKN"));
    assert_eq!(errors[1].line, 22);
    assert!(errors[1].message.contains("Unknown Value"));
}

#[test]
fn malformed_text_is_reported_at_line_and_column() {
    let bad = ALL_BLOCKS
        .replace("// b1         cb0 ", "// b1         cbX ")
        .replace("// s0             s0              t1", "// s0             s0              t999")
        .replace("// c17        cb0             3       255", "// c17        cb0             3");
    let errors = parse_tables(&bad, 100).unwrap_err();
    let at: Vec<(usize, usize)> = errors.iter().map(|d| (d.line, d.column)).collect();
    // `cbX` (line 7 of the text, column 15), the c17 row without its register count
    // (line 18: the `(` stands where the count should be, column 34), `t999` (line 34,
    // column 35: a sampler number is a byte).
    assert_eq!(at, [(106, 15), (117, 34), (133, 35)], "{errors:?}");
    assert!(errors[1].message.contains("register count"), "{errors:?}");
    // A stray line between blocks, and text ending inside a block.
    let errors = parse_tables("//\n// something else\n", 1).unwrap_err();
    assert_eq!((errors[0].line, errors[0].column), (2, 1));
    let errors = parse_tables("//\n// Runtime generated constant mappings:\n//\n", 1).unwrap_err();
    assert!(errors[0].message.contains("ends inside a block"), "{errors:?}");
}

#[test]
fn mutated_tables_text_never_panics() {
    // Random edits of the printed text: parse returns the tables or diagnostics with
    // positions inside the text, never panics.
    let mut rng = corpus::Rng(0x1e7e_1900_aa55_0f0f);
    let base: Vec<char> = ALL_BLOCKS.chars().collect();
    let alphabet: Vec<char> = "/ \n\r-0123456789bcistlpUNKFLT(),é".chars().collect();
    let lines = ALL_BLOCKS.lines().count() + 1;
    let (mut ok, mut err) = (0, 0);
    for _ in 0..4000 {
        let mut t = base.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(t.len());
            match rng.below(3) {
                0 => t[i] = alphabet[rng.below(alphabet.len())],
                1 => {
                    t.remove(i);
                }
                _ => t.insert(i, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text: String = t.into_iter().collect();
        match parse_tables(&text, 1) {
            Ok(_) => ok += 1,
            Err(d) => {
                err += 1;
                assert!(d.iter().all(|d| (1..=lines + 4).contains(&d.line) && d.column > 0), "{d:?}");
            }
        }
    }
    println!("mutated tables text: {ok} parsed, {err} refused");
    assert!(err > 0);
}
