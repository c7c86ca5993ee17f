//! The `Aon9` codec: every Level9 chunk of the corpus decodes, re-encodes byte for
//! byte, and is rebuilt identically from its typed value alone; hand-laid layouts
//! round-trip; mutated chunks never panic.

use dxbc::aon9::{
    Aon9, ConstantMapping, ConstantTarget, DataConversion, Mappings, RegisterMapping, RuntimeConstantKind,
    RuntimeConstantMapping, SamplerMapping,
};
use dxbc::{Container, FourCc};

use corpus::Rng;

/// The `Aon9` chunk data of every corpus blob that has one, with the entry's id.
fn corpus_chunks(test: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let entries = corpus::dxbc_entries(test)?;
    let mut out = Vec::new();
    for e in entries.iter().filter(|e| e.chunks.iter().any(|c| c == "Aon9")) {
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        let chunk = c.chunk(FourCc(*b"Aon9")).expect("manifest lists an Aon9 chunk");
        out.push((e.id(), chunk.data.to_vec()));
    }
    Some(out)
}

#[test]
fn corpus_chunks_round_trip_and_rebuild() {
    let Some(chunks) = corpus_chunks("corpus_chunks_round_trip_and_rebuild") else {
        return;
    };
    let (mut encoded, mut fxc_layout, mut rebuilt, mut from_model) = (0, 0, 0, 0);
    let (mut vs, mut ps) = (0, 0);
    for (id, data) in &chunks {
        let a = Aon9::parse(data).unwrap_or_else(|e| panic!("{id}: {e}"));
        // The embedded program is a whole SM2 token stream.
        assert!(a.program.ends_with(&[0xff, 0xff, 0, 0]), "{id}: program does not end with the end token");
        match a.version >> 16 {
            0xfffe => vs += 1,
            0xffff => ps += 1,
            v => panic!("{id}: version type {v:#x}"),
        }
        if a.to_bytes().unwrap() == *data {
            encoded += 1;
        }
        if a.raw_layout.is_none() {
            fxc_layout += 1;
        }
        if a.build().unwrap() == *data {
            rebuilt += 1;
        }
        // From the typed tables and the program alone (the version word derived).
        let fresh = Aon9::new(a.program, a.mappings.clone());
        if fresh.build().unwrap() == *data {
            from_model += 1;
        } else {
            println!("FAIL {id}: rebuilt from the model differs");
        }
    }
    let n = chunks.len();
    println!("Aon9 chunks: {n} ({vs} vs, {ps} ps)");
    println!("  encode(parse(x)) == x: {encoded}/{n}");
    println!("  fxc layout (no raw layout kept): {fxc_layout}/{n}");
    println!("  build(parse(x)) == x: {rebuilt}/{n}");
    println!("  Aon9::new(program, mappings).build() == x: {from_model}/{n}");
    assert_eq!(n, 129, "the corpus has 129 Level9 blobs");
    assert_eq!(encoded, n);
    assert_eq!(fxc_layout, n);
    assert_eq!(rebuilt, n);
    assert_eq!(from_model, n);
}

#[test]
fn corpus_tables_have_the_listing_facts() {
    // Facts the listings state, checked against the decoded values: every vertex shader
    // has the position-offset constant (c0, or a higher
    // register in the skinned DGSL shaders), and no corpus chunk uses the integer,
    // boolean or clip-plane mappings.
    let Some(chunks) = corpus_chunks("corpus_tables_have_the_listing_facts") else {
        return;
    };
    for (id, data) in &chunks {
        let a = Aon9::parse(data).unwrap();
        let m = &a.mappings;
        if a.version >> 16 == 0xfffe {
            assert_eq!(m.runtime_constants.len(), 1, "{id}");
            assert_eq!(m.runtime_constants[0].kind, RuntimeConstantKind::VertexShaderPositionOffset, "{id}");
            assert!(m.samplers.is_empty(), "{id}");
        } else {
            assert!(m.runtime_constants.is_empty(), "{id}");
        }
        assert!(m.integers.is_empty() && m.booleans.is_empty(), "{id}");
        for c in &m.constants {
            assert!(matches!(c.target, ConstantTarget::Register(_)), "{id}");
            assert_eq!(c.conversion, [DataConversion::Float; 4], "{id}");
        }
    }
}

/// A minimal vs_2_0 program: version token, end token.
const VS_2_0: [u8; 8] = [0x00, 0x02, 0xfe, 0xff, 0xff, 0xff, 0x00, 0x00];

fn rm(buffer: u16, source_reg: u16, component: u16, target_reg: u16) -> RegisterMapping {
    RegisterMapping { buffer, source_reg, component, target_reg }
}

fn le16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn build_lays_out_every_table_in_fxc_order() {
    // The layout Microsoft's compiler writes for a vertex shader with two `rep i#`
    // loops and two `if b#` branches reading a constant buffer: samplers (none),
    // constants at 0x24, booleans at 0x30, integers at 0x40, runtime constants at 0x50,
    // program at 0x54.
    let mappings = Mappings {
        constants: vec![ConstantMapping {
            buffer: 0,
            start_reg: 1,
            reg_count: 1,
            target: ConstantTarget::Register(1),
            conversion: [DataConversion::Float; 4],
        }],
        integers: vec![rm(0, 0, 1, 1), rm(0, 2, 2, 2)],
        booleans: vec![rm(0, 2, 1, 0), rm(0, 2, 0, 1)],
        samplers: vec![],
        runtime_constants: vec![RuntimeConstantMapping {
            kind: RuntimeConstantKind::VertexShaderPositionOffset,
            target_reg: 0,
        }],
    };
    let a = Aon9::new(&VS_2_0, mappings);
    assert_eq!(a.version, 0xfffe_0200);
    let bytes = a.build().unwrap();
    let mut want = Vec::new();
    want.extend(0x5cu32.to_le_bytes()); // size
    want.extend(0xfffe_0200u32.to_le_bytes());
    want.extend(8u32.to_le_bytes());
    want.extend(0x54u32.to_le_bytes());
    // (count, offset): constants, integers, booleans, samplers, runtime.
    want.extend(le16(&[1, 0x24, 2, 0x40, 2, 0x30, 0, 0x24, 1, 0x50]));
    want.extend(le16(&[0, 1, 1, 1]));
    want.extend([0, 0, 0, 0]);
    want.extend(le16(&[0, 2, 1, 0, 0, 2, 0, 1]));
    want.extend(le16(&[0, 0, 1, 1, 0, 2, 2, 2]));
    want.extend(le16(&[0, 0]));
    want.extend(VS_2_0);
    assert_eq!(bytes, want);
    let back = Aon9::parse(&bytes).unwrap();
    assert_eq!(back, a);
}

#[test]
fn clip_planes_conversions_and_samplers_decode() {
    // Clip-plane targets are 0x1000 + n; conversions are one byte per component;
    // sampler records are (resource, sampler, target, reserved).
    let mappings = Mappings {
        constants: vec![
            ConstantMapping {
                buffer: 0,
                start_reg: 4,
                reg_count: 2,
                target: ConstantTarget::ClipPlane(0),
                conversion: [DataConversion::Int, DataConversion::Uint, DataConversion::Bool, DataConversion::Float],
            },
            ConstantMapping {
                buffer: 3,
                start_reg: 0,
                reg_count: 1,
                target: ConstantTarget::ClipPlane(2),
                conversion: [DataConversion::Unknown(7); 4],
            },
        ],
        samplers: vec![SamplerMapping { target_sampler: 2, source_sampler: 3, source_resource: 5, reserved: 0 }],
        ..Mappings::default()
    };
    let a = Aon9::new(&VS_2_0, mappings);
    let bytes = a.build().unwrap();
    // Samplers first, at 0x24.
    assert_eq!(&bytes[0x24..0x28], &[5, 3, 2, 0]);
    // Then the constants: the clip-plane targets and the conversion bytes.
    assert_eq!(&bytes[0x28..0x34], &[0, 0, 4, 0, 2, 0, 0x00, 0x10, 2, 3, 1, 0]);
    assert_eq!(&bytes[0x3a..0x3c], &[0x02, 0x10]);
    assert_eq!(&bytes[0x3c..0x40], &[7, 7, 7, 7]);
    assert_eq!(Aon9::parse(&bytes).unwrap(), a);
    // Targets that cannot be stored are refused, naming the constant table's field.
    let mut bad = a.clone();
    bad.mappings.constants[0].target = ConstantTarget::Register(0x1000);
    assert_eq!(bad.build().unwrap_err().offset(), 16);
    assert_eq!(ConstantTarget::from_raw(0x2005), ConstantTarget::ClipPlane(0x1005));
    assert_eq!(ConstantTarget::ClipPlane(0xf000).to_raw(), None);
}

#[test]
fn other_layouts_are_kept() {
    // Tables in another order, padding between them, a size word that disagrees, and
    // trailing bytes: parse keeps the layout, to_bytes reproduces it, build lays it out
    // afresh with the same values.
    let mut data = vec![0u8; 36];
    data[0..4].copy_from_slice(&999u32.to_le_bytes());
    data[4..8].copy_from_slice(&0xfffe_0201u32.to_le_bytes());
    // Runtime table at 36, then 4 padding bytes, integers at 44, program at 52.
    data.extend(le16(&[0, 5]));
    data.extend([0xab; 4]);
    data.extend(le16(&[1, 2, 3, 4]));
    let program_offset = data.len() as u32;
    data.extend(VS_2_0);
    data.extend([1, 2, 3]);
    data[8..12].copy_from_slice(&8u32.to_le_bytes());
    data[12..16].copy_from_slice(&program_offset.to_le_bytes());
    let header = le16(&[0, 36, 1, 44, 0, 36, 0, 36, 1, 36]);
    data[16..36].copy_from_slice(&header);
    let a = Aon9::parse(&data).unwrap();
    assert_eq!(a.mappings.integers, [rm(1, 2, 3, 4)]);
    assert_eq!(a.mappings.runtime_constants[0].target_reg, 5);
    let raw = a.raw_layout.as_ref().expect("a layout fxc would not write");
    assert_eq!(raw.size_field, 999);
    assert_eq!(raw.gaps.len(), 2);
    assert_eq!(a.to_bytes().unwrap(), data);
    let fresh = a.build().unwrap();
    assert_ne!(fresh, data);
    let b = Aon9::parse(&fresh).unwrap();
    assert!(b.raw_layout.is_none());
    assert_eq!(b.mappings, a.mappings);
    assert_eq!(b.version, 0xfffe_0201);
    // An edit that no longer fits the kept layout falls back to fxc's layout.
    let mut edited = a.clone();
    edited.mappings.integers.push(rm(0, 0, 0, 0));
    let out = edited.to_bytes().unwrap();
    assert_eq!(Aon9::parse(&out).unwrap().mappings, edited.mappings);
}

#[test]
fn malformed_headers_are_errors_with_offsets() {
    let a = Aon9::new(&VS_2_0, Mappings::default());
    let good = a.build().unwrap();
    assert_eq!(good.len(), 44);
    // Truncated header.
    let e = Aon9::parse(&good[..20]).unwrap_err();
    assert_eq!(e.offset(), 0);
    // Program past the end: the error names the program-offset field.
    let mut bad = good.clone();
    bad[8..12].copy_from_slice(&9u32.to_le_bytes());
    assert_eq!(Aon9::parse(&bad).unwrap_err().offset(), 12);
    // A table past the end: the error names its offset field (samplers: 28 + 2).
    let mut bad = good.clone();
    bad[28..30].copy_from_slice(&3u16.to_le_bytes());
    assert_eq!(Aon9::parse(&bad).unwrap_err().offset(), 30);
    // Too many records for a 16-bit count.
    let mut big = a.clone();
    big.mappings.booleans = vec![rm(0, 0, 0, 0); 70_000];
    assert_eq!(big.build().unwrap_err().offset(), 24);
}

#[test]
fn mutated_chunks_never_panic() {
    let Some(chunks) = corpus_chunks("mutated_chunks_never_panic") else {
        return;
    };
    let mut rng = Rng(0x51a7_e5ee_d0a0_9001);
    let (mut total, mut decoded, mut truncations) = (0, 0, 0);
    for (id, data) in &chunks {
        for round in 0..64 {
            let mut m = data.clone();
            match round % 4 {
                0 => {
                    m.truncate(rng.below(m.len()));
                    truncations += 1;
                }
                1 => {
                    let i = rng.below(m.len());
                    m[i] ^= 1 << rng.below(8);
                }
                2 => {
                    // A header field (sizes, counts, offsets).
                    let i = rng.below(9) * 4;
                    let v = match rng.below(4) {
                        0 => 0,
                        1 => u32::MAX,
                        2 => rng.below(m.len() + 8) as u32,
                        _ => rng.next_u64() as u32,
                    };
                    m[i..i + 4].copy_from_slice(&v.to_le_bytes());
                }
                _ => {
                    // A 16-bit table count or offset.
                    let i = 16 + rng.below(10) * 2;
                    let v = rng.below(0x80) as u16;
                    m[i..i + 2].copy_from_slice(&v.to_le_bytes());
                }
            }
            total += 1;
            match Aon9::parse(&m) {
                Ok(a) => {
                    decoded += 1;
                    // Whatever decodes re-encodes to the same bytes.
                    assert_eq!(a.to_bytes().unwrap(), m, "{id} round {round}");
                    let _ = a.build();
                }
                Err(e) => assert!(e.offset() <= m.len().max(HEADER), "{id}: implausible offset {}", e.offset()),
            }
        }
    }
    println!("mutated Aon9 chunks: {total} ({truncations} truncations), {decoded} decoded and re-encoded exactly");
    assert!(decoded > 0 && decoded < total);
}

const HEADER: usize = dxbc::aon9::HEADER_SIZE;
