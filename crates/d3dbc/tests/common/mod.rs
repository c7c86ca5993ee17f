//! Test support: every Shader Model 1–3 program of the corpus, raw d3dbc blobs and the
//! SM2 programs inside Level9 containers' `Aon9` chunks.
#![allow(dead_code)]

/// One corpus program: its id, the program's bytes, and its byte offset in the blob.
pub struct CorpusProgram {
    pub id: String,
    pub bytes: Vec<u8>,
    pub offset: usize,
    pub level9: bool,
}

/// The Shader Model 2 program inside an `Aon9` chunk's data: the chunk's third u32 is
/// the program's size in bytes and its fourth the program's offset from the start of the
/// chunk data. Returns `(offset, bytes)`.
pub fn aon9_program(data: &[u8]) -> Option<(usize, &[u8])> {
    let u = |i: usize| data.get(i * 4..i * 4 + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
    let (size, off) = (u(2)?, u(3)?);
    Some((off, data.get(off..off.checked_add(size)?)?))
}

/// Every SM1–3 program of the corpus (`None` when the corpus is absent).
pub fn programs(test: &str) -> Option<Vec<CorpusProgram>> {
    let entries = corpus::entries(test)?;
    let mut out = Vec::new();
    for e in entries {
        let bytes = e.bytes();
        match e.container {
            corpus::Container::D3dbc => out.push(CorpusProgram { id: e.id(), bytes, offset: 0, level9: false }),
            corpus::Container::Dxbc if e.is_level9() => {
                let c = dxbc::Container::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
                let chunk = c.chunk(dxbc::FourCc::AON9).unwrap_or_else(|| panic!("{}: no Aon9 chunk", e.id()));
                let (off, prog) = aon9_program(chunk.data).unwrap_or_else(|| panic!("{}: bad Aon9 header", e.id()));
                out.push(CorpusProgram {
                    id: e.id(),
                    bytes: prog.to_vec(),
                    offset: chunk.data_offset() + off,
                    level9: true,
                });
            }
            _ => {}
        }
    }
    Some(out)
}
