//! The Microsoft oracle's test data: what `d3dcompiler_47.dll` produced for inputs
//! dxref generated (tools/oracle writes it; docs/ORACLE.md describes it).
//!
//! An archive file (`*.dxo`, zstd-compressed) holds records: an input's name, the
//! profile and flags it was compiled with, the blob, and `D3DDisassemble`'s HRESULT and
//! text under each disassembly flag set. The layout, after decompression:
//!
//! ```text
//! "DXREF-ORACLE 1\n"
//! per record: 'R', name, profile (strings), flags1, flags2, strip (u32),
//!             blob (bytes), n (u32), n × { flags, hr (u32), text (string) }
//! 'E', record count (u32)
//! ```
//!
//! Strings and byte runs are a little-endian u32 length and the bytes. The trailer makes
//! a truncated file an error, never a shorter list.

use crate::archive::{put, unpack, Cursor};
use std::path::Path;

/// `D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING`.
pub const DISASM_NUMBERING: u32 = 0x4;
/// `D3D_DISASM_ENABLE_INSTRUCTION_OFFSET`.
pub const DISASM_OFFSETS: u32 = 0x20;
/// `D3D_DISASM_PRINT_HEX_LITERALS`.
pub const DISASM_HEX: u32 = 0x80;

/// One text `D3DDisassemble` returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    /// The disassembly flags.
    pub flags: u32,
    /// Its HRESULT (0 = S_OK).
    pub hr: u32,
    /// The text, without its terminating NUL.
    pub text: String,
}

/// One input and what Microsoft made of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The input's name, unique in its archive.
    pub name: String,
    /// The compile target (`vs_5_0`), or for token streams the program's own profile.
    pub profile: String,
    /// `D3DCompile`'s Flags1 (0 for token streams).
    pub flags1: u32,
    /// `D3DCompile`'s Flags2 (0 for token streams).
    pub flags2: u32,
    /// `D3DStripShader`'s flags applied after compiling (0: not stripped).
    pub strip: u32,
    /// The blob Microsoft disassembled.
    pub blob: Vec<u8>,
    /// `D3DDisassemble`'s result under each disassembly flag set asked for.
    pub texts: Vec<Text>,
}

impl Record {
    /// The text under `flags`, if it was asked for.
    pub fn text(&self, flags: u32) -> Option<&Text> {
        self.texts.iter().find(|t| t.flags == flags)
    }
}

const MAGIC: &[u8] = b"DXREF-ORACLE 1\n";

/// The uncompressed archive of `records`.
pub fn encode(records: &[Record]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for r in records {
        out.push(b'R');
        put(&mut out, r.name.as_bytes());
        put(&mut out, r.profile.as_bytes());
        for v in [r.flags1, r.flags2, r.strip] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        put(&mut out, &r.blob);
        out.extend_from_slice(&(r.texts.len() as u32).to_le_bytes());
        for t in &r.texts {
            out.extend_from_slice(&t.flags.to_le_bytes());
            out.extend_from_slice(&t.hr.to_le_bytes());
            put(&mut out, t.text.as_bytes());
        }
    }
    out.push(b'E');
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out
}

/// Decodes an archive (zstd-compressed or not). Errors name the byte offset in the
/// uncompressed data.
pub fn decode(data: &[u8]) -> Result<Vec<Record>, String> {
    let unpacked = unpack(data)?;
    let data = &unpacked[..];
    if !data.starts_with(MAGIC) {
        return Err("not an oracle archive (no `DXREF-ORACLE 1` line)".into());
    }
    let mut c = Cursor { data, at: MAGIC.len() };
    let mut out = Vec::new();
    loop {
        let at = c.at;
        match c.take(1)?[0] {
            b'R' => {
                let name = c.string()?;
                let profile = c.string()?;
                let (flags1, flags2, strip) = (c.u32()?, c.u32()?, c.u32()?);
                let blob = c.bytes()?.to_vec();
                let n = c.u32()? as usize;
                if n > 64 {
                    return Err(format!("record `{name}` at byte {at} claims {n} texts"));
                }
                let mut texts = Vec::with_capacity(n);
                for _ in 0..n {
                    let (flags, hr) = (c.u32()?, c.u32()?);
                    texts.push(Text { flags, hr, text: c.string()? });
                }
                out.push(Record { name, profile, flags1, flags2, strip, blob, texts });
            }
            b'E' => {
                let n = c.u32()? as usize;
                if n != out.len() {
                    return Err(format!("the trailer counts {n} records, the archive holds {}", out.len()));
                }
                if c.at != data.len() {
                    return Err(format!("{} bytes after the trailer", data.len() - c.at));
                }
                return Ok(out);
            }
            b => return Err(format!("byte {at}: expected a record ('R') or the trailer ('E'), found 0x{b:02x}")),
        }
    }
}

/// Reads an archive file; panics naming the file on any fault (for tests: data that is
/// present but broken is a failure).
pub fn read(path: &Path) -> Vec<Record> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    decode(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The oracle data folder of the repository (`crates/listing/tests/oracle`).
pub fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../listing/tests/oracle")
}

/// Every archive listed in the folder's `MANIFEST.tsv` (`file`, `records` columns), each
/// checked against its pinned record count; panics naming the file and row on any fault.
pub fn archives() -> Vec<(String, Vec<Record>)> {
    crate::archive::pinned(&data_dir(), read)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Record> {
        vec![Record {
            name: "a".into(),
            profile: "vs_5_0".into(),
            flags1: 1,
            flags2: 0,
            strip: 2,
            blob: vec![1, 2, 3],
            texts: vec![Text { flags: 4, hr: 0, text: "vs_5_0\nret \n".into() }],
        }]
    }

    #[test]
    fn round_trip() {
        assert_eq!(decode(&encode(&sample())).unwrap(), sample());
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = encode(&sample());
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n]).is_err(), "prefix of {n} bytes accepted");
        }
    }

    #[test]
    fn a_wrong_trailer_count_is_an_error() {
        let mut bytes = encode(&sample());
        let n = bytes.len();
        bytes[n - 4] = 2;
        assert!(decode(&bytes).unwrap_err().contains("trailer counts 2"));
    }
}
