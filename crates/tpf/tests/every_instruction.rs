//! Hand-written listings (`tests/listings/*.asm`) that together use every opcode of the
//! instruction table: each parses, encodes, decodes and prints back to its own text,
//! and re-encodes to identical bytes.

use std::collections::BTreeSet;
use std::path::Path;

use tpf::parse::parse_program;
use tpf::print::print_program;
use tpf::{Opcode, Style, TABLE};

#[test]
fn every_instruction_round_trips_through_text_and_bytes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/listings");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut seen: BTreeSet<Opcode> = BTreeSet::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        let parsed = parse_program(&text).unwrap_or_else(|errors| {
            panic!("{name}:\n{}", errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))
        });
        let bytes = tpf::encode(&parsed.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let decoded = tpf::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(decoded, parsed.program, "{name}: decode(encode(parse(text))) differs from parse(text)");
        let mut printed = String::new();
        print_program(&decoded, Style::default(), &mut printed);
        for (i, (a, b)) in printed.lines().zip(text.lines()).enumerate() {
            assert_eq!(a, b, "{name} line {}", i + 1);
        }
        assert_eq!(printed, text, "{name}: printed text differs");
        assert_eq!(tpf::encode(&tpf::parse::parse_program(&printed).unwrap().program).unwrap(), bytes, "{name}");
        seen.extend(decoded.instructions.iter().map(|i| i.opcode));
    }
    let missing: Vec<&str> = TABLE.iter().filter(|r| !seen.contains(&r.opcode)).map(|r| r.mnemonic).collect();
    assert!(missing.is_empty(), "opcodes no listing uses: {missing:?}");
    println!("{} listings use all {} opcodes of the table", paths.len(), TABLE.len());
}

/// Every declaration layout goes through every direction: each declaration of the
/// hand-written listings (and of `tests/layouts/*.asm`, for the values the listings do
/// not use) parses, encodes, decodes to the same declaration and prints back to its
/// line; and over them, every field and token of every layout ([`tpf::layout`]) takes a
/// value other than 0 (so that a field or token the decoder, encoder, printer or
/// assembler skipped would change the outcome), every optional token is both present
/// and absent, and every run of tokens holds some.
#[test]
fn every_declaration_layout_goes_through_every_direction() {
    use std::collections::BTreeMap;
    use tpf::layout::{DeclToken, Slot};
    use tpf::table::{DeclKind, Shape};

    /// What the declarations of one kind exercised: per field and token, a value other
    /// than 0 (a token: present), and for optional tokens an absence.
    #[derive(Default)]
    struct Seen {
        fields: [bool; 3],
        tokens: [bool; 3],
        absent: [bool; 3],
        words: bool,
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut paths: Vec<_> = ["listings", "layouts"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap().map(|e| e.unwrap().path()))
        .collect();
    paths.sort();
    let mut seen: BTreeMap<String, Seen> = BTreeMap::new();
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let parsed = parse_program(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let bytes = tpf::encode(&parsed.program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let decoded = tpf::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (i, ins) in parsed.program.iter().enumerate() {
            let tpf::Body::Decl(decl) = &ins.body else { continue };
            let kind = decl.kind();
            assert_eq!(ins.opcode.info().shape, Shape::Decl(kind), "{name}: instruction {i}");
            let again = decoded.get(i).unwrap();
            assert_eq!(again, ins, "{name}: {} does not decode to what it encodes", ins.opcode.mnemonic());
            let line = text.lines().nth(parsed.lines[i] - 1).unwrap();
            let mut printed = String::new();
            tpf::print::Printer::new(decoded.version, Style::default()).instruction(again, &mut printed);
            assert_eq!(printed.trim_end_matches('\n'), line, "{name}: instruction {i} prints differently");
            let layout = kind.layout();
            let v = decl.values();
            let s = seen.entry(format!("{kind:?}")).or_default();
            for (k, _) in layout.fields.iter().enumerate() {
                s.fields[k] |= v.get(Slot::Field(k as u8)) != 0;
            }
            for (k, token) in layout.tokens.iter().enumerate() {
                let value = v.opt(Slot::Token(k as u8));
                s.tokens[k] |= match token {
                    DeclToken::Operand | DeclToken::Optional(_) | DeclToken::CountedWords(_) => value.is_some(),
                    _ => value.is_some_and(|x| x != 0),
                } || matches!(token, DeclToken::CountedWords(_));
                s.absent[k] |= value.is_none();
            }
            s.words |= !again.words(v.words).is_empty();
        }
    }
    let mut missing = Vec::new();
    for kind in tpf::layout::kinds() {
        let layout = kind.layout();
        let Some(s) = seen.get(&format!("{kind:?}")) else {
            missing.push(format!("{kind:?}: no declaration"));
            continue;
        };
        for (k, f) in layout.fields.iter().enumerate() {
            if !s.fields[k] {
                missing.push(format!("{kind:?}: field `{}` is never other than 0", f.name));
            }
        }
        for (k, t) in layout.tokens.iter().enumerate() {
            if !s.tokens[k] {
                missing.push(format!("{kind:?}: token `{}` is never other than 0", t.name()));
            }
            if matches!(t, DeclToken::Optional(_)) && !s.absent[k] {
                missing.push(format!("{kind:?}: optional token `{}` is never absent", t.name()));
            }
            if matches!(t, DeclToken::CountedWords(_) | DeclToken::InterfaceTables) && !s.words {
                missing.push(format!("{kind:?}: the run of tokens is never other than empty"));
            }
        }
    }
    assert!(missing.is_empty(), "declaration layouts not exercised in every direction:\n{}", missing.join("\n"));
    let kinds: Vec<DeclKind> = tpf::layout::kinds();
    println!("{} files exercise all {} declaration layouts", paths.len(), kinds.len());
}
