//! Review of the Shader Model 1–3 work: hostile inputs never panic (nor loop) any entry
//! point that reads a Direct3D 9 program — `d3dbc::decode`, `d3dbc::print::listing`,
//! `d3dbc::parse::assemble` of what was printed, `validate::validate` on the raw stream
//! and inside a Level 9 container, `validate::d3d9::walk_program` — for every single-bit
//! flip of small programs that use every flow-control construct, huge and lying comment
//! blocks, very deep nesting, very long programs, giant register numbers, and truncated
//! `Aon9` chunks of the corpus's Level 9 containers.

use validate::{validate, Caps9, Code, FeatureLevel, Runtime, Target};

/// Small programs touching every flow instruction, predication, relative addressing,
/// declarations, definitions and subroutines, in four families.
const PROGRAMS: &[&str] = &[
    "vs_3_0
dcl_position v0
dcl_position o0
defi i0, 3, 0, 1, 0
defb b0, true
def c0, 1, 2, 3, 4
setp_gt p0, c0, r1
if b0
if_lt c0.x, c0.y
rep i0
break_gt c0.x, c0.y
breakp p0.x
loop aL, i0
mov r0, c[aL]
break
endloop
endrep
else
callnz l1, p0.x
endif
endif
call l0
callnz l0, b0
(p0) mov o0, v0
ret
label l0
mov r1, c0
ret
label l1
if p0.y
mov r2, c0
endif
ret
",
    "ps_2_x
dcl t0
dcl_2d s0
defb b1, true
def c0, 1, 0, 0.5, -1
setp_ne p0, c0, c0.y
if_gt c0.x, c0.z
texld r0, t0, s0
else
(!p0) mov r0, c0
endif
rep i0
break_ne c0.y, c0.x
endrep
callnz l2, b1
mov oC0, r0
ret
label l2
dsx r1, t0
ret
",
    "vs_2_0
dcl_position v0
dcl_texcoord v1
defb b0, true
defi i1, 2, 0, 0, 0
if b0
mov oPos, v0
else
mov oPos, c0
endif
loop aL, i1
add r0, r0, c[a0.x]
endloop
call l3
ret
label l3
mov oT0, v1
ret
",
    "ps_1_4
texld r0, t0
texcrd r1.xyz, t1
phase
texld r2, r0
mul r0, r0, r2
+mov r0.a, c0.a
",
    "vs_1_1
dcl_position v0
m4x4 oPos, v0, c0
mov oD0, c[a0.x + 4]
",
];

fn assemble(text: &str) -> Vec<u8> {
    d3dbc::parse::assemble(text).unwrap_or_else(|e| panic!("review program does not assemble: {e:?}\n{text}"))
}

/// Every entry point on `bytes`; returns whether the validator accepted it.
fn all_entry_points(bytes: &[u8]) -> bool {
    if let Ok(program) = d3dbc::decode(bytes) {
        // What decodes re-encodes to the same bytes.
        let again = d3dbc::encode(&program).expect("a decoded program encodes");
        assert!(again == bytes, "decode/encode changed the bytes");
    }
    if let Ok(text) = d3dbc::print::listing(bytes) {
        // The assembler reads back what the printer wrote: a result or errors, no panic.
        let _ = d3dbc::parse::assemble(&text);
        let _ = d3dbc::parse::parse_program(&text);
    }
    let _ = d3dbc::print::disassemble(bytes);
    let report = validate(bytes, &Target::d3d9());
    for d in &report.diagnostics {
        assert!(!d.message.is_empty(), "empty message for {}", d.code);
    }
    for caps in [Caps9::for_level(FeatureLevel::L9_1), Caps9 { dynamic_flow_depth: 0, ..Caps9::default() }] {
        let _ = validate::validate_with_d3d9_caps(bytes, bytes.len(), &Target::d3d9(), &caps);
        let _ = validate::d3d9::walk_program(bytes, &caps);
    }
    report.is_valid()
}

#[test]
fn every_single_bit_flip_of_small_programs() {
    let mut cases = 0;
    for text in PROGRAMS {
        let bytes = assemble(text);
        assert!(all_entry_points(&bytes), "the unflipped program is valid:\n{text}");
        let (mut valid, mut refused) = (0, 0);
        for bit in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            if all_entry_points(&b) {
                valid += 1;
            } else {
                refused += 1;
            }
            cases += 1;
        }
        assert!(valid > 0 && refused > 0, "both verdicts among the flips ({valid} valid, {refused} refused)");
    }
    println!("{cases} single-bit flips");
}

/// Every prefix of every small program (not a multiple of 4 too).
#[test]
fn every_truncation_of_small_programs() {
    for text in PROGRAMS {
        let bytes = assemble(text);
        for cut in 0..bytes.len() {
            assert!(!all_entry_points(&bytes[..cut]), "a {cut}-byte prefix is valid");
        }
    }
}

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

const END: u32 = 0x0000_ffff;
const VS_3_0: u32 = 0xfffe_0300;
const PS_2_0: u32 = 0xffff_0200;

fn comment(len_words: u32) -> u32 {
    0xfffe | (len_words << 16)
}

#[test]
fn huge_and_lying_comment_blocks() {
    // The largest comment a token can describe (32767 words), with nothing after it.
    for version in [VS_3_0, PS_2_0] {
        let b = words(&[version, comment(0x7fff), END]);
        assert!(!all_entry_points(&b));
        let report = validate(&b, &Target::d3d9());
        assert_eq!(report.diagnostics[0].code, Code::D3d9Unreadable, "{:?}", report.diagnostics);
        // The same comment present in full, full of 0xff, then a real end.
        let mut ws = vec![version, comment(0x7fff)];
        ws.extend(std::iter::repeat_n(0xffff_ffff, 0x7fff));
        ws.push(END);
        let _ = all_entry_points(&words(&ws));
        // A CTAB comment whose counts and offsets are all huge.
        let mut ws = vec![version, comment(12), u32::from_le_bytes(*b"CTAB")];
        ws.extend([28, 0xffff_fff0, version, 0x7fff_ffff, 0xffff_fff0, 0, 0xffff_ff00, 0xffff_fff0, 0, 0, 0]);
        ws.push(END);
        let _ = all_entry_points(&words(&ws));
        // A CTAB comment with a plausible header whose constant records point past the block.
        let mut ws = vec![version, comment(10), u32::from_le_bytes(*b"CTAB")];
        ws.extend([28, 36, version, 1000, 28, 0, 0, 36]);
        ws.push(0);
        ws.push(END);
        let _ = all_entry_points(&words(&ws));
        // Comment lengths 0..=40 with random-ish contents, alone and between instructions.
        let mut rng = corpus::Rng(0x0bad_c0de);
        for len in 0..=40u32 {
            let mut ws = vec![version, comment(len)];
            ws.extend((0..len).map(|_| rng.next_u64() as u32));
            ws.extend([0x0100_0001, 0x800f_0000, 0xa0e4_0000, comment(1), rng.next_u64() as u32, END]);
            let _ = all_entry_points(&words(&ws));
        }
        // A DBUG block claiming everything.
        let mut ws = vec![version, comment(8), u32::from_le_bytes(*b"DBUG")];
        ws.extend([0xffff_ffff; 7]);
        ws.push(END);
        let _ = all_entry_points(&words(&ws));
    }
}

#[test]
fn giant_register_numbers_and_types() {
    // mov with every register type and the largest register number the token holds.
    for version in [VS_3_0, 0xfffe_0301, 0xffff_0300, PS_2_0, 0xfffe_0101, 0xffff_0104] {
        for ty in 0..32u32 {
            let reg = |num: u32| ((ty & 7) << 28) | ((ty >> 3) << 11) | (num & 0x7ff) | 0x8000_0000;
            let dst = reg(0x7ff) | 0x000f_0000;
            let src = reg(0x7ff) | 0x00e4_0000;
            let src_rel = src | 0x0000_2000;
            for program in [
                vec![version, 0x0200_0001, dst, src, END],
                vec![version, 0x0300_0001, dst, src_rel, 0xb000_0000, END],
                vec![version, 0x0300_0001, dst | 0x0000_2000, src, 0xb000_0000, END],
                vec![version, 0x0200_0019, src, src, END], // call
                vec![version, 0x0300_001a, src, src, END], // callnz
                vec![version, 0x0200_001e, src, END, 0x0200_001c, src, END], // label
                vec![version, 0x0300_001b, src, src, 0x0000_001d, END], // loop
                vec![version, 0x0500_0051, dst, 0xffff_ffff, 0x7f80_0000, 0, 0, END], // def
            ] {
                let _ = all_entry_points(&words(&program));
            }
        }
    }
}

/// A program of `n` copies of `body` words after the version token.
fn repeated(version: u32, prefix: &[u32], body: &[u32], n: usize, suffix: &[u32]) -> Vec<u8> {
    let mut ws = vec![version];
    ws.extend_from_slice(prefix);
    for _ in 0..n {
        ws.extend_from_slice(body);
    }
    ws.extend_from_slice(suffix);
    ws.push(END);
    words(&ws)
}

const IF_B0: [u32; 2] = [0x0100_0028, 0xe0e4_0800];
const ENDIF: [u32; 1] = [0x0000_002b];
const MOV_R0_C0: [u32; 3] = [0x0200_0001, 0x800f_0000, 0xa0e4_0000];

#[test]
fn deep_and_long_programs_answer() {
    const N: usize = 30_000;
    let vs_3_sw = 0xfffe_03ff;
    // Nested `if b0` far past every limit.
    let deep = {
        let mut ws = vec![vs_3_sw];
        for _ in 0..N {
            ws.extend(IF_B0);
        }
        ws.extend(MOV_R0_C0);
        for _ in 0..N {
            ws.extend(ENDIF);
        }
        ws.push(END);
        words(&ws)
    };
    let report = validate(&deep, &Target::d3d9());
    let codes: Vec<Code> = report.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::D3d9StaticNesting], "{:?}", report.diagnostics);
    // Opened and never closed; closed and never opened.
    let open = repeated(vs_3_sw, &[], &IF_B0, N, &[]);
    assert!(!validate(&open, &Target::d3d9()).is_valid());
    let close = repeated(vs_3_sw, &[], &ENDIF, N, &[]);
    assert!(!validate(&close, &Target::d3d9()).is_valid());
    // 100k plain instructions.
    let long = repeated(vs_3_sw, &[], &MOV_R0_C0, 100_000, &[]);
    assert!(validate(&long, &Target::d3d9()).is_valid());
    // 100k instructions are over vs_3_0's 32768 slots: one diagnostic, at the first one past.
    let long30 = repeated(VS_3_0, &[], &MOV_R0_C0, 100_000, &[]);
    let report = validate(&long30, &Target::d3d9());
    assert_eq!(report.diagnostics.len(), 1, "{:?}", report.diagnostics);
    assert!(matches!(report.diagnostics[0].location, validate::Location::Instruction { index: 32768, .. }));
    // 2000 subroutines each calling the next (a chain past the call-nesting limit).
    let mut ws = vec![vs_3_sw];
    let label = |n: u32| 0xa000_1000 | n; // l#: type 18 = (2 << 3) | 2
    ws.extend([0x0100_0019, label(0), 0x0000_001c]);
    for k in 0..2000u32 {
        ws.extend([0x0100_001e, label(k)]);
        if k + 1 < 2000 {
            ws.extend([0x0100_0019, label(k + 1)]);
        }
        ws.push(0x0000_001c);
    }
    ws.push(END);
    let chain = words(&ws);
    let report = validate(&chain, &Target::d3d9());
    let codes: Vec<Code> = report.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::D3d9CallNesting], "{:?}", report.diagnostics);
    // A fan: the main program calls each of 200 subroutines from inside 0..23 nested
    // `if`s (distinct counters every time) and each subroutine calls the next three:
    // walked naively the calls multiply; the walk answers within its budget.
    let mut ws = vec![vs_3_sw];
    for k in 0..200u32 {
        let depth = k % 24;
        for _ in 0..depth {
            ws.extend(IF_B0);
        }
        ws.extend([0x0100_0019, label(k)]);
        for _ in 0..depth {
            ws.extend(ENDIF);
        }
    }
    ws.push(0x0000_001c);
    for k in 0..200u32 {
        ws.extend([0x0100_001e, label(k)]);
        for j in k + 1..(k + 4).min(200) {
            ws.extend([0x0100_0019, label(j)]);
        }
        ws.push(0x0000_001c);
    }
    ws.push(END);
    let fan = words(&ws);
    let report = validate(&fan, &Target::d3d9());
    assert!(
        report.diagnostics.iter().all(|d| matches!(d.code, Code::D3d9CallNesting | Code::D3d9FlowTooComplex)),
        "{:?}",
        report.diagnostics
    );
}

/// The Level 9 containers of the corpus with their `Aon9` chunk truncated at every
/// length (the container's chunk size rewritten to match), and with single bits of the
/// chunk flipped: the validator, the listing and the 9_x create path answer.
#[test]
fn truncated_and_flipped_aon9_chunks() {
    let Some(entries) = corpus::entries("validate::review_d3d9_hostile aon9") else { return };
    let mut done = 0;
    for e in entries.iter().filter(|e| e.is_level9()).take(6) {
        let bytes = e.bytes();
        let container = dxbc::Container::parse(&bytes).expect("corpus container");
        let chunk = container.chunk(dxbc::FourCc::AON9).expect("Aon9 chunk");
        let (start, len) = (chunk.data_offset(), chunk.data.len());
        let stage = validate::parse_stage(&e.profile[..2]).unwrap();
        let targets = [
            Target::d3d11(FeatureLevel::L9_1, Runtime::D3D11_1).for_stage(stage),
            Target::d3d11(FeatureLevel::L9_3, Runtime::D3D11_0).for_stage(stage),
        ];
        // Truncations: rebuild the container with the shorter chunk.
        let step = (len / 97).max(1);
        for cut in (0..len).step_by(step).chain([len.saturating_sub(1), len.saturating_sub(4)]) {
            let mut builder = dxbc::Builder::new();
            for c in container.chunks() {
                let data = if c.fourcc == dxbc::FourCc::AON9 { &c.data[..cut] } else { c.data };
                builder.push(c.fourcc, data.to_vec());
            }
            let Ok(rebuilt) = builder.build() else { continue };
            for t in &targets {
                let report = validate(&rebuilt, t);
                if cut < len {
                    assert!(!report.is_valid(), "{}: Aon9 cut to {cut} bytes is valid", e.id());
                }
            }
            let _ = listing::disassemble(&rebuilt, &listing::Options::default());
            done += 1;
        }
        // Single-bit flips inside the chunk (checksum left stale and recomputed).
        for bit in (0..len * 8).step_by(7) {
            let mut b = bytes.clone();
            b[start + bit / 8] ^= 1 << (bit % 8);
            for t in &targets {
                let _ = validate(&b, t);
            }
            let _ = listing::disassemble(&b, &listing::Options::default());
            done += 1;
        }
    }
    println!("{done} Aon9 variants");
}
