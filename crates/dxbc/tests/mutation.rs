//! Mutated corpus blobs (bit flips, truncations, random size and offset fields) go
//! through container parsing and every chunk decoder without panicking; successful
//! decodes also re-encode without panicking.

use dxbc::{ChunkData, Container, FourCc};

use corpus::Rng;

/// Random 32-bit words biased towards sizes, offsets and counts.
trait Words {
    fn word(&mut self) -> u32;
}

impl Words for Rng {
    fn word(&mut self) -> u32 {
        match self.below(6) {
            0 => 0,
            1 => u32::MAX,
            2 => self.below(64) as u32,
            3 => 0x8000_0000 | self.below(16) as u32,
            4 => self.below(4096) as u32,
            _ => self.next_u64() as u32,
        }
    }
}

fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut m = bytes.to_vec();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        if m.is_empty() {
            break;
        }
        match rng.below(4) {
            0 => {
                let i = rng.below(m.len());
                m[i] ^= 1 << rng.below(8);
            }
            1 => {
                let n = rng.below(m.len());
                m.truncate(n);
            }
            _ => {
                // Overwrite an aligned 32-bit field (sizes, counts, offsets).
                if m.len() >= 4 {
                    let i = rng.below(m.len() / 4) * 4;
                    m[i..i + 4].copy_from_slice(&rng.word().to_le_bytes());
                }
            }
        }
    }
    m
}

fn exercise_chunk(fourcc: FourCc, data: &[u8]) -> bool {
    match ChunkData::decode(fourcc, data) {
        Ok(d) => {
            let _ = d.to_bytes();
            true
        }
        Err(e) => {
            assert!(e.offset() <= data.len().max(1) * 2 + 64, "implausible offset {} for {}", e.offset(), fourcc);
            false
        }
    }
}

#[test]
fn mutated_corpus_never_panics() {
    let Some(entries) = corpus::dxbc_entries("mutated_corpus_never_panics") else {
        return;
    };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut containers, mut container_errors, mut chunks, mut chunk_errors) = (0, 0, 0, 0);
    for e in &entries {
        let bytes = e.bytes();
        for _ in 0..8 {
            let m = mutate(&mut rng, &bytes);
            containers += 1;
            match Container::parse(&m) {
                Ok(c) => {
                    let _ = c.checksum_ok();
                    assert_eq!(c.to_bytes(), m, "{}: mutated container does not round-trip", e.id());
                    for ch in c.chunks() {
                        let _ = ch.decode();
                    }
                }
                Err(_) => container_errors += 1,
            }
        }
        let c = Container::parse(&bytes).unwrap();
        for ch in c.chunks() {
            if !ChunkData::has_codec(ch.fourcc) {
                continue;
            }
            for _ in 0..12 {
                let m = mutate(&mut rng, ch.data);
                chunks += 1;
                if !exercise_chunk(ch.fourcc, &m) {
                    chunk_errors += 1;
                }
            }
            // Also every chunk decoder on every chunk's bytes (wrong kind of data).
            for kind in
                [FourCc::RDEF, FourCc::ISGN, FourCc::OSG5, FourCc::ISG1, FourCc::STAT, FourCc::SFI0, FourCc::IFCE]
            {
                chunks += 1;
                if !exercise_chunk(kind, ch.data) {
                    chunk_errors += 1;
                }
            }
        }
    }
    println!("containers: {containers} mutated, {container_errors} rejected");
    println!("chunks:     {chunks} mutated, {chunk_errors} rejected");
    // Mutations must hit both the error paths and the success paths.
    assert!(container_errors > 0 && chunk_errors > 0);
    assert!(container_errors < containers && chunk_errors < chunks);
}

#[test]
fn mutated_decoded_chunks_reencode_identically() {
    // A mutated chunk that still decodes must re-encode to the mutated bytes exactly.
    let Some(entries) = corpus::dxbc_entries("mutated_decoded_chunks_reencode_identically") else {
        return;
    };
    let mut rng = Rng(42);
    let (mut decoded, mut exact) = (0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        for ch in c.chunks().iter().filter(|c| ChunkData::has_codec(c.fourcc)) {
            for _ in 0..4 {
                let m = mutate(&mut rng, ch.data);
                if let Ok(d) = ChunkData::decode(ch.fourcc, &m) {
                    decoded += 1;
                    if d.to_bytes() == m {
                        exact += 1;
                    } else {
                        println!("{}: {} mutated chunk not reproduced", e.id(), ch.fourcc);
                    }
                }
            }
        }
    }
    println!("mutated chunks decoded: {decoded}, reproduced exactly: {exact}");
    assert!(decoded > 0);
    assert_eq!(exact, decoded);
}

/// `parse_fields` of each chunk kind: `parse` without the layout, the same values and
/// the same errors.
fn fields_agree(fourcc: FourCc, data: &[u8]) -> bool {
    use dxbc::{Aon9, Ifce, Rdef, Signature, SignatureFormat};
    if let Some(format) = SignatureFormat::for_fourcc(fourcc) {
        let full = Signature::parse(data, format).map(|s| Signature { raw_layout: None, ..s });
        assert_eq!(Signature::parse_fields(data, format), full, "{fourcc}");
        return full.is_ok();
    }
    match &fourcc.0 {
        b"RDEF" => {
            let full = Rdef::parse(data).map(|r| Rdef { raw_layout: None, ..r });
            assert_eq!(Rdef::parse_fields(data), full);
            full.is_ok()
        }
        b"IFCE" => {
            let full = Ifce::parse(data).map(|i| Ifce { raw_layout: None, ..i });
            assert_eq!(Ifce::parse_fields(data), full);
            full.is_ok()
        }
        b"Aon9" => {
            let full = Aon9::parse(data).map(|a| Aon9 { raw_layout: None, ..a });
            assert_eq!(Aon9::parse_fields(data), full);
            full.is_ok()
        }
        _ => false,
    }
}

#[test]
fn chunks_read_without_layout_give_the_parsed_values() {
    let Some(entries) = corpus::dxbc_entries("chunks_read_without_layout_give_the_parsed_values") else {
        return;
    };
    let mut rng = Rng(7);
    let (mut read, mut mutated_ok, mut mutated_err) = (0, 0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        for ch in c.chunks() {
            read += fields_agree(ch.fourcc, ch.data) as usize;
            for _ in 0..4 {
                let m = mutate(&mut rng, ch.data);
                if fields_agree(ch.fourcc, &m) {
                    mutated_ok += 1;
                } else {
                    mutated_err += 1;
                }
            }
        }
    }
    println!("chunks read: {read}; mutated: {mutated_ok} read, {mutated_err} refused or without a codec");
    assert!(read > 0 && mutated_ok > 0 && mutated_err > 0);
}
