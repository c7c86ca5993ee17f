//! Builder output and typed errors with their byte offsets.

use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
use dxbc::{
    checksum_bytes, compute_checksum, Builder, Container, Error, FourCc, Signature, SignatureElement, SignatureFormat,
};

fn two_chunks() -> Vec<u8> {
    Builder::new()
        .chunk(FourCc::SHDR, vec![1u8, 2, 3, 4, 5, 6, 7, 8])
        .chunk(FourCc(*b"XYZW"), &[9u8, 10, 11][..])
        .build()
        .unwrap()
}

#[test]
fn builder_writes_fxc_layout() {
    let b = two_chunks();
    // header 32 + table 8, then "SHDR" 8+8, then "XYZW" 8+3 padded to 4.
    assert_eq!(b.len(), 40 + 16 + 12);
    assert_eq!(&b[0..4], b"DXBC");
    assert_eq!(u32::from_le_bytes(b[20..24].try_into().unwrap()), 1);
    assert_eq!(u32::from_le_bytes(b[24..28].try_into().unwrap()) as usize, b.len());
    assert_eq!(u32::from_le_bytes(b[28..32].try_into().unwrap()), 2);
    assert_eq!(u32::from_le_bytes(b[32..36].try_into().unwrap()), 40);
    assert_eq!(u32::from_le_bytes(b[36..40].try_into().unwrap()), 56);
    assert_eq!(&b[40..44], b"SHDR");
    assert_eq!(&b[56..60], b"XYZW");
    assert_eq!(u32::from_le_bytes(b[60..64].try_into().unwrap()), 3);
    assert_eq!(&b[64..68], &[9, 10, 11, 0]);
    assert_eq!(&b[4..20], &checksum_bytes(compute_checksum(&b)));

    let c = Container::parse(&b).unwrap();
    assert!(c.checksum_ok());
    assert_eq!(c.chunks().len(), 2);
    assert_eq!(c.chunks()[0].data, &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(c.chunks()[0].offset, 40);
    assert_eq!(c.chunks()[1].data, &[9, 10, 11]);
    // The pad byte after the odd-sized chunk is kept as a gap.
    assert_eq!(c.gaps().len(), 1);
    assert_eq!(c.gaps()[0].offset, 67);
    assert_eq!(c.to_bytes(), b);
}

#[test]
fn checksum_detects_a_flipped_byte() {
    let mut b = two_chunks();
    b[50] ^= 0x40;
    let c = Container::parse(&b).unwrap();
    assert!(!c.checksum_ok());
}

#[test]
fn empty_container() {
    let b = Builder::new().build().unwrap();
    assert_eq!(b.len(), 32);
    let c = Container::parse(&b).unwrap();
    assert!(c.checksum_ok() && c.chunks().is_empty() && c.is_canonical_layout());
}

#[test]
fn unusual_layout_round_trips() {
    // A gap between the table and the chunk, and trailing bytes after the total size.
    let mut b = vec![0u8; 32 + 4];
    b[0..4].copy_from_slice(b"DXBC");
    b[20..24].copy_from_slice(&1u32.to_le_bytes());
    b[28..32].copy_from_slice(&1u32.to_le_bytes());
    b[32..36].copy_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&[0xee; 4]);
    b.extend_from_slice(b"ABCD");
    b.extend_from_slice(&4u32.to_le_bytes());
    b.extend_from_slice(&[1, 2, 3, 4]);
    let total = b.len() as u32;
    b[24..28].copy_from_slice(&total.to_le_bytes());
    b.extend_from_slice(&[0x55, 0x66]);
    let c = Container::parse(&b).unwrap();
    assert!(!c.is_canonical_layout());
    assert_eq!(c.trailing(), &[0x55, 0x66]);
    assert_eq!(c.gaps()[0].offset, 36);
    assert_eq!(c.to_bytes(), b);
}

#[test]
fn truncated_header() {
    let b = two_chunks();
    match Container::parse(&b[..20]) {
        Err(Error::Truncated { offset: 0, needed: 32, available: 20, .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(matches!(Container::parse(&b[..2]), Err(Error::Truncated { offset: 0, .. })));
}

#[test]
fn bad_magic_and_version() {
    let mut b = two_chunks();
    b[0] = b'X';
    assert!(matches!(Container::parse(&b), Err(Error::BadMagic { offset: 0, found }) if &found == b"XXBC"));
    let mut b = two_chunks();
    b[20] = 2;
    let e = Container::parse(&b).unwrap_err();
    assert!(matches!(e, Error::BadVersion { offset: 20, version: 2 }), "{e:?}");
}

#[test]
fn total_size_larger_than_buffer() {
    let b = two_chunks();
    let e = Container::parse(&b[..b.len() - 1]).unwrap_err();
    assert!(matches!(e, Error::BadTotalSize { offset: 24, actual, .. } if actual == b.len() - 1), "{e:?}");
    assert_eq!(e.offset(), 24);
}

#[test]
fn chunk_count_past_end() {
    let mut b = two_chunks();
    b[28..32].copy_from_slice(&1000u32.to_le_bytes());
    let e = Container::parse(&b).unwrap_err();
    assert!(matches!(e, Error::Truncated { offset: 32, .. }), "{e:?}");
}

#[test]
fn chunk_offset_past_end() {
    let mut b = two_chunks();
    b[36..40].copy_from_slice(&0x1000u32.to_le_bytes());
    let e = Container::parse(&b).unwrap_err();
    // The error names the table entry holding the bad offset.
    assert!(matches!(e, Error::OffsetOutOfBounds { offset: 36, target: 0x1000, .. }), "{e:?}");
    assert_eq!(e.offset(), 36);
}

#[test]
fn chunk_size_past_end() {
    let mut b = two_chunks();
    b[44..48].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    let e = Container::parse(&b).unwrap_err();
    assert!(matches!(e, Error::ChunkOutOfBounds { offset: 40, fourcc: FourCc::SHDR, .. }), "{e:?}");
}

#[test]
fn chunk_offset_inside_header() {
    let mut b = two_chunks();
    b[32..36].copy_from_slice(&8u32.to_le_bytes());
    let e = Container::parse(&b).unwrap_err();
    assert!(matches!(e, Error::Invalid { offset: 32, .. }), "{e:?}");
}

fn element(name: &'static str, register: u32) -> SignatureElement<'static> {
    SignatureElement {
        stream: 0,
        semantic_name: name,
        semantic_index: 0,
        system_value: SystemValue::Undefined,
        component_type: ComponentType::Float32,
        register,
        mask: 0xf,
        rw_mask: 0x3,
        min_precision: MinPrecision::Default,
    }
}

#[test]
fn signature_fresh_layout_and_errors() {
    let sig = Signature {
        format: SignatureFormat::Basic,
        elements: vec![element("TEXCOORD", 0), element("COLOR", 1), element("TEXCOORD", 2)],
        raw_layout: None,
    };
    let bytes = sig.to_bytes();
    // 8 header + 3*24 elements, then "TEXCOORD\0COLOR\0" once each, 0xAB padded.
    assert_eq!(bytes.len(), 8 + 72 + 16);
    assert_eq!(&bytes[80..89], b"TEXCOORD\0");
    assert_eq!(&bytes[89..95], b"COLOR\0");
    assert_eq!(&bytes[95..96], &[0xab]);
    let back = Signature::parse(&bytes, SignatureFormat::Basic).unwrap();
    assert_eq!(back, sig);

    // A name offset past the end is reported at the element's name field (8 + 24).
    let mut bad = bytes.clone();
    bad[32..36].copy_from_slice(&500u32.to_le_bytes());
    let e = Signature::parse(&bad, SignatureFormat::Basic).unwrap_err();
    assert!(matches!(e, Error::OffsetOutOfBounds { offset: 32, target: 500, .. }), "{e:?}");

    // An element count that runs past the data.
    let mut bad = bytes.clone();
    bad[0..4].copy_from_slice(&100u32.to_le_bytes());
    let e = Signature::parse(&bad, SignatureFormat::Basic).unwrap_err();
    assert!(matches!(e, Error::OffsetOutOfBounds { offset: 4, .. }), "{e:?}");

    // An unterminated name.
    let mut bad = bytes[..94].to_vec();
    bad[93] = b'R';
    let e = Signature::parse(&bad, SignatureFormat::Basic).unwrap_err();
    assert!(matches!(e, Error::UnterminatedString { offset: 89 }), "{e:?}");
}

#[test]
fn chunk_decode_errors_are_rebased_onto_the_container() {
    let sig = Signature { format: SignatureFormat::Basic, elements: vec![element("A", 0)], raw_layout: None };
    let mut data = sig.to_bytes();
    data[8..12].copy_from_slice(&999u32.to_le_bytes());
    let b = Builder::new().chunk(FourCc::ISGN, data).build().unwrap();
    let c = Container::parse(&b).unwrap();
    let e = c.chunks()[0].decode().unwrap_err();
    // Chunk data starts at 32 + 4 + 8 = 44; the name field is at data offset 8.
    assert_eq!(e.offset(), 44 + 8);
}

#[test]
fn edited_signature_falls_back_to_fresh_layout() {
    // Raw layout: names stored in an unusual order.
    let sig = Signature {
        format: SignatureFormat::Basic,
        elements: vec![element("AA", 0), element("BB", 1)],
        raw_layout: None,
    };
    let mut bytes = sig.to_bytes();
    // Swap the two name strings and their offsets.
    bytes[56..62].copy_from_slice(b"BB\0AA\0");
    bytes[8..12].copy_from_slice(&59u32.to_le_bytes());
    bytes[32..36].copy_from_slice(&56u32.to_le_bytes());
    let mut parsed = Signature::parse(&bytes, SignatureFormat::Basic).unwrap();
    assert!(parsed.raw_layout.is_some());
    assert_eq!(parsed.to_bytes(), bytes);
    parsed.elements[0].semantic_name = "A_LONGER_NAME";
    let out = parsed.to_bytes();
    let again = Signature::parse(&out, SignatureFormat::Basic).unwrap();
    assert_eq!(again.elements, parsed.elements);
    assert!(again.raw_layout.is_none());
}

#[test]
fn fresh_rdef_serialises_and_parses_back() {
    use dxbc::rdef::*;
    let float4 = ShaderType {
        class: VariableClass::Vector,
        base: VariableType::Float,
        rows: 1,
        columns: 4,
        elements: 0,
        members: vec![],
        name: Some("float4"),
        subtype: None,
        reserved: [0; 3],
    };
    let st = ShaderType {
        class: VariableClass::Struct,
        base: VariableType::Void,
        rows: 1,
        columns: 8,
        elements: 0,
        members: vec![
            Member { name: "a", offset: 0, ty: float4.clone() },
            Member { name: "b", offset: 16, ty: float4.clone() },
        ],
        name: Some("S"),
        subtype: None,
        reserved: [0; 3],
    };
    let var = |name, start, ty: ShaderType<'static>, size, default| Variable {
        name,
        start_offset: start,
        size,
        flags: variable_flags::USED,
        ty,
        default_value: default,
        start_texture: u32::MAX,
        texture_size: 0,
        start_sampler: u32::MAX,
        sampler_size: 0,
    };
    const DEFAULT: [u8; 16] = [0, 0, 128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let rdef = Rdef {
        target: RdefTarget { program_type: ProgramType::Pixel, major: 5, minor: 0 },
        flags: 0x100,
        creator: "dxref",
        rd11: Some(Rd11Header::fxc(false, 0)),
        constant_buffers: vec![ConstantBuffer {
            name: "cb",
            variables: vec![var("s", 0, st, 32, None), var("c", 32, float4.clone(), 16, Some(&DEFAULT[..]))],
            size: 48,
            flags: 0,
            kind: CbufferType::CBuffer,
        }],
        bindings: vec![ResourceBinding {
            name: "cb",
            input_type: ShaderInputType::CBuffer,
            return_type: ReturnType::None,
            dimension: ResourceDimension::Unknown0,
            num_samples: 0,
            bind_point: 0,
            bind_count: 1,
            flags: 0,
            space: 0,
            id: 0,
        }],
        raw_layout: None,
    };
    let bytes = rdef.to_bytes();
    assert_eq!(bytes.len() % 4, 0);
    // Header with RD11, then the binding record right after it.
    assert_eq!(&bytes[28..32], b"RD11");
    assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 60);
    // "float4" and "cb" appear once each: strings and types are shared.
    let count = |needle: &[u8]| bytes.windows(needle.len()).filter(|w| *w == needle).count();
    assert_eq!(count(b"float4\0"), 1);
    assert_eq!(count(b"cb\0"), 1);
    let back = Rdef::parse(&bytes).unwrap();
    assert!(back.raw_layout.is_none());
    assert_eq!(back, rdef);
}

#[test]
fn overlong_names_are_refused_with_their_offset() {
    use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
    use dxbc::{Signature, SignatureElement, SignatureFormat};
    let long = "N".repeat(2000);
    let element = SignatureElement {
        stream: 0,
        semantic_name: &long,
        semantic_index: 0,
        system_value: SystemValue::Undefined,
        component_type: ComponentType::Float32,
        register: 0,
        mask: 1,
        rw_mask: 1,
        min_precision: MinPrecision::Default,
    };
    let bytes = Signature { format: SignatureFormat::Basic, elements: vec![element], raw_layout: None }.to_bytes();
    match Signature::parse(&bytes, SignatureFormat::Basic) {
        Err(dxbc::Error::StringTooLong { offset, limit }) => {
            assert_eq!(limit, 1024);
            assert_eq!(offset, 8 + 24, "the name follows the header and the one element");
        }
        other => panic!("expected StringTooLong, got {other:?}"),
    }
}
