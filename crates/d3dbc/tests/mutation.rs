//! Corrupted programs never panic the decoder: every corpus program truncated at every
//! token, with bits flipped, tokens replaced and its version token swapped, decodes to a
//! program or a typed error. Whatever decodes re-encodes to exactly its bytes.

mod common;

use d3dbc::{decode, encode, DecodeErrorKind, Profile};
use proptest::prelude::*;

/// Decodes `bytes`; if that succeeds, encoding must give `bytes` back. Returns whether
/// it decoded.
fn check(bytes: &[u8], what: &dyn Fn() -> String) -> bool {
    match decode(bytes) {
        Ok(prog) => {
            let again = encode(&prog).unwrap_or_else(|e| panic!("{}: decoded but does not encode: {e}", what()));
            assert!(again == bytes, "{}: decoded but re-encodes differently", what());
            true
        }
        Err(e) => {
            assert!(e.offset <= bytes.len() + 4, "{}: error offset {} past the end", what(), e.offset);
            assert_eq!(e.offset, e.token * 4, "{}", what());
            false
        }
    }
}

#[test]
fn truncated_programs_are_errors() {
    let Some(programs) = common::programs("truncated_programs_are_errors") else { return };
    let mut cases = 0;
    for p in &programs {
        for cut in 0..p.bytes.len() {
            let r = decode(&p.bytes[..cut]);
            assert!(r.is_err(), "{}: a {cut}-byte prefix decoded", p.id);
            if cut % 4 == 0 && cut > 0 {
                let kind = r.unwrap_err().kind;
                assert!(
                    matches!(
                        kind,
                        DecodeErrorKind::MissingEnd
                            | DecodeErrorKind::CommentPastEnd { .. }
                            | DecodeErrorKind::InstructionPastEnd { .. }
                            | DecodeErrorKind::Truncated { .. }
                    ),
                    "{}: prefix of {cut} bytes: {kind}",
                    p.id
                );
            }
            cases += 1;
        }
        // Bytes after the end token are refused.
        let mut longer = p.bytes.clone();
        longer.extend_from_slice(&[0; 4]);
        assert_eq!(decode(&longer).unwrap_err().kind, DecodeErrorKind::TrailingData(4), "{}", p.id);
    }
    println!("truncation: {cases} prefixes, all errors");
}

#[test]
fn mutated_programs_never_panic() {
    let Some(programs) = common::programs("mutated_programs_never_panic") else { return };
    let mut rng = corpus::Rng(0x0d3d_bc00_1234_5678);
    let interesting = [
        0u32,
        0xffff_ffff,
        0x0000_ffff,
        0x0000_fffe,
        0x7fff_fffe,
        0x0f00_0001,
        0x1000_0001,
        0x8000_2000,
        0xa000_2000,
        0x9000_2000,
        0x0000_001f,
        0x0500_0051,
        0x0200_002f,
        0x0100_0026,
        0x4000_0001,
        0xf000_0000,
    ];
    let (mut total, mut decoded) = (0, 0);
    for p in &programs {
        let n = p.bytes.len() / 4;
        for round in 0..60 {
            let mut m = p.bytes.clone();
            let edits = 1 + rng.below(3);
            for _ in 0..edits {
                let t = rng.below(n);
                let w = u32::from_le_bytes(m[t * 4..t * 4 + 4].try_into().unwrap());
                let w = match rng.below(3) {
                    0 => w ^ 1 << rng.below(32),
                    1 => interesting[rng.below(interesting.len())],
                    _ => rng.next_u64() as u32,
                };
                m[t * 4..t * 4 + 4].copy_from_slice(&w.to_le_bytes());
            }
            total += 1;
            decoded += check(&m, &|| format!("{} (mutation round {round})", p.id)) as usize;
        }
        // The same tokens read as every other profile (Shader Model 1 streams have no
        // instruction lengths, so this walks the table-driven path on real data).
        for profile in Profile::ALL {
            let mut m = p.bytes.clone();
            m[..4].copy_from_slice(&profile.version().token().to_le_bytes());
            total += 1;
            decoded += check(&m, &|| format!("{} as {}", p.id, profile.name())) as usize;
        }
    }
    println!("mutation: {total} corrupted programs, {decoded} decoded (and re-encoded exactly), the rest typed errors");
    assert!(decoded > 0 && decoded < total);
}

/// A token that is often meaningful: a version, an instruction with a plausible
/// opcode and length, a parameter token, a comment, the end token, or anything.
fn token() -> impl Strategy<Value = u32> {
    prop_oneof![
        (0u32..97, 0u32..16, 0u32..8, any::<bool>(), any::<bool>()).prop_map(|(op, len, ctl, pred, co)| op
            | ctl << 16
            | len << 24
            | (pred as u32) << 28
            | (co as u32) << 30),
        (0u32..0x800, 0u32..32, any::<bool>(), 0u32..256, 0u32..16).prop_map(|(num, ty, rel, mid, hi)| {
            0x8000_0000 | num | (ty & 7) << 28 | (ty & 0x18) << 8 | (rel as u32) << 13 | mid << 16 | hi << 24
        }),
        (0u32..6).prop_map(|n| 0xfffe | n << 16),
        Just(0x0000_ffffu32),
        Just(0x0000_fffdu32),
        any::<u32>(),
    ]
}

fn version() -> impl Strategy<Value = u32> {
    prop_oneof![(0..Profile::ALL.len()).prop_map(|i| Profile::ALL[i].version().token()), any::<u32>()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// encode(decode(x)) == x for arbitrary token streams that decode.
    #[test]
    fn arbitrary_streams_round_trip(v in version(), body in proptest::collection::vec(token(), 0..40)) {
        let mut bytes = v.to_le_bytes().to_vec();
        for t in &body {
            bytes.extend_from_slice(&t.to_le_bytes());
        }
        bytes.extend_from_slice(&0x0000_ffffu32.to_le_bytes());
        check(&bytes, &|| format!("{bytes:02x?}"));
    }

    /// Arbitrary bytes never panic the decoder.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check(&bytes, &|| format!("{bytes:02x?}"));
    }
}
