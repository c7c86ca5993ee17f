//! The program printer's direct path (`tpf::print::Printer::instructions` prints the
//! common instructions straight from their tokens) writes exactly what its general
//! path writes for the decoded program (`tpf::print::print_program_with`): on every
//! program of the fxc corpus and of the Microsoft oracle's archives (compiled HLSL,
//! generated and bit-flipped token streams), on mutations of each, in every listing
//! style, with and without hex literals. Where the program does not decode, both
//! report the same error.

use corpus::Rng;
use tpf::print::{print_program_with, Format, Printer};
use tpf::{DecodeError, Style};

/// The listing styles: every compiler's, and fxc 10.1's `/Fc` (not the disassembler's).
fn styles() -> [Style; 5] {
    [
        Style::D3DCOMPILER_43,
        Style::D3DCOMPILER_46,
        Style::D3DCOMPILER_47_6_3,
        Style::D3DCOMPILER_47,
        Style::for_creator(Some("Microsoft (R) HLSL Shader Compiler 10.1")),
    ]
}

const FORMATS: [Format; 2] = [
    Format { exact_floats: false, hex_literals: false, numbering: false, offsets: false },
    Format { exact_floats: false, hex_literals: true, numbering: false, offsets: false },
];

/// The listing as the streaming printer writes it (direct path where it applies).
fn direct(code: &[u8], style: Style, format: Format) -> Result<String, DecodeError> {
    let mut decoder = tpf::Decoder::new(code)?;
    let mut printer = Printer::with_format(decoder.version(), style, format);
    let mut text = String::new();
    printer.version_line(&mut text);
    printer.instructions(&mut decoder, &mut text, |_, _| {})?;
    Ok(text)
}

/// The listing of the decoded program (general path only).
fn general(code: &[u8], style: Style, format: Format) -> Result<String, DecodeError> {
    let program = tpf::decode(code)?;
    let mut text = String::new();
    print_program_with(&program, style, format, &mut text);
    Ok(text)
}

fn first_difference(a: &str, b: &str) -> String {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let i = (0..la.len().max(lb.len())).find(|&i| la.get(i) != lb.get(i)).unwrap_or(0);
    format!("line {}: direct {:?}, general {:?}", i + 1, la.get(i), lb.get(i))
}

/// Compares the two paths on `code` in every style and format; the number of lines
/// compared.
fn compare(name: &str, code: &[u8]) -> usize {
    let mut lines = 0;
    for style in styles() {
        for format in FORMATS {
            match (direct(code, style, format), general(code, style, format)) {
                (Ok(a), Ok(b)) => {
                    assert!(a == b, "{name} ({style:?}, {format:?}): {}", first_difference(&a, &b));
                    lines += a.lines().count();
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{name} ({style:?}, {format:?})"),
                (a, b) => panic!("{name} ({style:?}, {format:?}): direct {:?}, general {:?}", a.err(), b.err()),
            }
        }
    }
    lines
}

/// A copy of `code` with a few tokens of its instructions changed: bits of operand
/// tokens flipped (types, selections, index representations, extensions), values
/// replaced, opcode-token fields changed.
fn mutate(rng: &mut Rng, code: &[u8]) -> Vec<u8> {
    let mut m = code.to_vec();
    let tokens = m.len() / 4;
    if tokens <= 2 {
        return m;
    }
    for _ in 0..1 + rng.below(3) {
        let t = 4 * (2 + rng.below(tokens - 2));
        let v = u32::from_le_bytes(m[t..t + 4].try_into().unwrap());
        let v = match rng.below(4) {
            0 => v ^ 1 << rng.below(32),
            1 => v ^ (rng.next_u64() as u32 & 0x00ff_f800),
            2 => rng.below(20) as u32,
            _ => rng.next_u64() as u32,
        };
        m[t..t + 4].copy_from_slice(&v.to_le_bytes());
    }
    m
}

fn program(blob: &[u8]) -> Option<&[u8]> {
    let c = dxbc::Container::parse(blob).ok()?;
    c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).map(|c| c.data)
}

#[test]
fn direct_path_prints_what_the_general_path_prints() {
    let mut codes: Vec<(String, Vec<u8>)> = Vec::new();
    if let Some(entries) = corpus::dxbc_entries("direct_path_prints_what_the_general_path_prints") {
        for e in &entries {
            if let Some(code) = program(&e.bytes()) {
                codes.push((e.id(), code.to_vec()));
            }
        }
    }
    for (archive, records) in corpus::oracle::archives() {
        for r in &records {
            if let Some(code) = program(&r.blob) {
                codes.push((format!("{archive}/{}", r.name), code.to_vec()));
            }
        }
    }
    assert!(codes.len() > 10_000, "{} programs", codes.len());
    let (mut lines, mut mutants) = (0, 0);
    let mut rng = Rng(0xd1ec_7ba7_4000_0001);
    for (name, code) in &codes {
        lines += compare(name, code);
        for round in 0..2 {
            let m = mutate(&mut rng, code);
            lines += compare(&format!("{name} mutant {round}"), &m);
            mutants += 1;
        }
    }
    println!("{} programs and {mutants} mutants: {lines} lines compared", codes.len());
}
