//! Helpers shared by the corpus tests of `tpf`.
#![allow(dead_code)]

/// The SHDR/SHEX chunk's data.
pub fn shader_chunk(blob: &[u8]) -> Option<&[u8]> {
    let c = dxbc::Container::parse(blob).ok()?;
    c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).map(|c| c.data)
}

/// The compiler string of the blob's RDEF chunk.
pub fn creator(blob: &[u8]) -> Option<String> {
    let c = dxbc::Container::parse(blob).ok()?;
    let rdef = dxbc::Rdef::parse(c.chunk(dxbc::FourCc::RDEF)?.data).ok()?;
    Some(rdef.creator.to_string())
}

/// Microsoft's program part: from the SM4/5 version line to before the footer.
pub fn program_text(listing: &str, profile: &str) -> String {
    let sm4 = profile.rsplit('+').next().unwrap();
    let lines: Vec<&str> = listing.split_inclusive('\n').collect();
    let start = lines.iter().position(|l| l.trim_end() == sm4).expect("version line");
    let end = lines.iter().rposition(|l| l.starts_with("// Approximately")).expect("footer");
    lines[start..end].concat()
}

/// `code` with one to four random changes: flipped bits, random or small tokens, a
/// truncation, corrupted opcode-token fields, a duplicated run of tokens.
pub fn mutate(rng: &mut corpus::Rng, code: &[u8]) -> Vec<u8> {
    let mut m = code.to_vec();
    for _ in 0..1 + rng.below(4) {
        if m.len() < 8 {
            break;
        }
        let tokens = m.len() / 4;
        match rng.below(6) {
            // flip one bit
            0 => {
                let i = rng.below(m.len());
                m[i] ^= 1 << rng.below(8);
            }
            // replace a token with a random one
            1 => {
                let t = rng.below(tokens) * 4;
                let v = rng.next_u64() as u32;
                m[t..t + 4].copy_from_slice(&v.to_le_bytes());
            }
            // replace a token with a small number (lengths, counts)
            2 => {
                let t = rng.below(tokens) * 4;
                let v = rng.below(300) as u32;
                m[t..t + 4].copy_from_slice(&v.to_le_bytes());
            }
            // truncate
            3 => m.truncate(rng.below(m.len() + 1)),
            // corrupt an opcode token's length or opcode bits
            4 => {
                let t = rng.below(tokens) * 4;
                let v = u32::from_le_bytes(m[t..t + 4].try_into().unwrap()) ^ ((rng.next_u64() as u32) & 0x7f00_07ff);
                m[t..t + 4].copy_from_slice(&v.to_le_bytes());
            }
            // duplicate a run of tokens
            _ => {
                let a = rng.below(tokens) * 4;
                let b = (a + 4 * (1 + rng.below(8))).min(m.len());
                let run = m[a..b].to_vec();
                m.splice(a..a, run);
            }
        }
    }
    m
}
