//! Generated SM4/5 token streams: every instruction of dxref's hand-written listings
//! (which use every opcode of the table) alone in a program, and systematic bit flips
//! of its opcode and operand tokens (controls, component selection, operand types,
//! index dimensions and representations, extended-token bits), so that Microsoft's
//! disassembler says how it spells — or whether it refuses — each form.

use std::path::Path;

/// One program to disassemble.
pub struct Stream {
    pub name: String,
    pub profile: String,
    /// A DXBC container holding the program (SHDR below 5.0, SHEX from 5.0).
    pub blob: Vec<u8>,
}

fn container(tokens: &[u32], sm5: bool) -> Vec<u8> {
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    let fourcc = if sm5 { dxbc::FourCc::SHEX } else { dxbc::FourCc::SHDR };
    dxbc::Builder::new().chunk(fourcc, bytes).build().expect("building a one-chunk container")
}

/// The program with empty input and output signatures beside it: Microsoft then prints
/// the comment header and the slot line too.
fn with_signatures(tokens: &[u32], sm5: bool) -> Vec<u8> {
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    let fourcc = if sm5 { dxbc::FourCc::SHEX } else { dxbc::FourCc::SHDR };
    let empty = dxbc::Signature { format: dxbc::SignatureFormat::Basic, elements: vec![], raw_layout: None }.to_bytes();
    dxbc::Builder::new()
        .chunk(dxbc::FourCc::ISGN, empty.clone())
        .chunk(dxbc::FourCc::OSGN, empty)
        .chunk(fourcc, bytes)
        .build()
        .expect("building a container")
}

fn program(version: u32, body: &[u32]) -> Vec<u32> {
    let mut t = vec![version, (body.len() + 2) as u32];
    t.extend_from_slice(body);
    t
}

/// Bits worth flipping in an operand token: component count, selection mode and
/// selection, operand type, index dimension, index representations, extended bit.
const OPERAND_BITS: &[u32] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 25, 26, 28, 31];

/// Every stream: each instruction of each listing alone (with and without signature
/// chunks), and separately its mutants. Shader Model 5.1 listings are left out: the
/// d3dcompiler_47 the oracle runs (6.3.9600) predates Shader Model 5.1.
pub fn generate(listings: &Path) -> (Vec<Stream>, Vec<Stream>) {
    let mut files: Vec<_> = std::fs::read_dir(listings)
        .expect("reading the hand-written listings")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    files.sort();
    let (mut base_out, mut out) = (Vec::new(), Vec::new());
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&file).expect("reading a listing");
        let parsed = match tpf::parse::parse_program(&text) {
            Ok(p) => p,
            Err(e) => panic!("{}: {:?}", file.display(), e.first()),
        };
        let v = parsed.program.version;
        if v.is_sm51() {
            continue;
        }
        let version = tpf::encode::encode_version(v);
        let sm5 = v.major >= 5;
        let profile = v.profile();
        for (i, ins) in parsed.program.instructions.iter().enumerate() {
            let mut toks = Vec::new();
            if tpf::encode::encode_instruction(ins, i, &mut toks).is_err() {
                continue;
            }
            let base = format!("{stem}-{:03}-{}", i, ins.opcode.info().mnemonic);
            let p = program(version, &toks);
            base_out.push(Stream { name: base.clone(), profile: profile.clone(), blob: container(&p, sm5) });
            base_out.push(Stream { name: format!("{base}-sig"), profile: profile.clone(), blob: with_signatures(&p, sm5) });
            // Opcode-token controls (bits 11..23) and the extended bit.
            for bit in (11..24).chain([31]) {
                let mut t = toks.clone();
                t[0] ^= 1 << bit;
                out.push(Stream {
                    name: format!("{base}-op{bit}"),
                    profile: profile.clone(),
                    blob: container(&program(version, &t), sm5),
                });
            }
            // Operand tokens: find them by walking the instruction as the decoder would
            // is the decoder's job; flipping bits of every later token is what a
            // hostile stream does, so flip the operand bits of each token after the
            // opcode token(s).
            let len = toks.len().min(12);
            for k in 1..len {
                for &bit in OPERAND_BITS {
                    let mut t = toks.clone();
                    t[k] ^= 1 << bit;
                    out.push(Stream {
                        name: format!("{base}-t{k}b{bit}"),
                        profile: profile.clone(),
                        blob: container(&program(version, &t), sm5),
                    });
                }
            }
        }
    }
    (base_out, out)
}
