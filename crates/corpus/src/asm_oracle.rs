//! The Microsoft oracle's verdicts on Shader Model 1–3 assembly text: what
//! `D3DAssemble` (in `d3dcompiler_47.dll`) answered for sources dxref generated
//! (tools/oracle writes them with its `asm` command; docs/ORACLE.md describes it).
//!
//! An archive file (`*.dxo`, zstd-compressed) holds records: a case's name, the source
//! and the files beside it that `#include` may name, `D3DAssemble`'s flags, its
//! HRESULT, its messages and the token stream it produced. The layout, after
//! decompression:
//!
//! ```text
//! "DXREF-ASM-ORACLE 1\n"
//! per record: 'A', name, source (strings), n (u32), n × { file name, text (strings) },
//!             flags, hr (u32), errors (string), blob (bytes)
//! 'E', record count (u32)
//! ```
//!
//! Strings and byte runs are a little-endian u32 length and the bytes. The trailer makes
//! a truncated file an error, never a shorter list.

use crate::archive::{put, unpack, Cursor};
use std::path::{Path, PathBuf};

/// `D3DCOMPILE_DEBUG`: `D3DAssemble` adds a debug comment block.
pub const ASM_DEBUG: u32 = 0x1;
/// `D3DCOMPILE_SKIP_VALIDATION`: `D3DAssemble` skips the Direct3D 9 validator.
pub const ASM_SKIP_VALIDATION: u32 = 0x2;

/// One source and what `D3DAssemble` made of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembly {
    /// The case's name: the generator's family and index (`grammar/dotted-version/3`).
    pub name: String,
    /// The source text given to `D3DAssemble` (its file name is `main.asm`).
    pub source: String,
    /// Files beside `main.asm` that `#include` may name, as (file name, text). When
    /// there are none, `D3DAssemble` was given no include handler.
    pub includes: Vec<(String, String)>,
    /// `D3DAssemble`'s flags ([`ASM_DEBUG`], [`ASM_SKIP_VALIDATION`]).
    pub flags: u32,
    /// Its HRESULT (0 = S_OK).
    pub hr: u32,
    /// Its messages (errors and warnings), as printed.
    pub errors: String,
    /// The token stream it produced; empty when it refused the source.
    pub blob: Vec<u8>,
}

impl Assembly {
    /// `D3DAssemble` accepted the source.
    pub fn accepted(&self) -> bool {
        self.hr == 0 && !self.blob.is_empty()
    }
}

const MAGIC: &[u8] = b"DXREF-ASM-ORACLE 1\n";

/// The uncompressed archive of `records`.
pub fn encode(records: &[Assembly]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for r in records {
        out.push(b'A');
        put(&mut out, r.name.as_bytes());
        put(&mut out, r.source.as_bytes());
        out.extend_from_slice(&(r.includes.len() as u32).to_le_bytes());
        for (f, t) in &r.includes {
            put(&mut out, f.as_bytes());
            put(&mut out, t.as_bytes());
        }
        out.extend_from_slice(&r.flags.to_le_bytes());
        out.extend_from_slice(&r.hr.to_le_bytes());
        put(&mut out, r.errors.as_bytes());
        put(&mut out, &r.blob);
    }
    out.push(b'E');
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out
}

/// Decodes an archive (zstd-compressed or not). Errors name the byte offset in the
/// uncompressed data.
pub fn decode(data: &[u8]) -> Result<Vec<Assembly>, String> {
    let unpacked = unpack(data)?;
    let data = &unpacked[..];
    if !data.starts_with(MAGIC) {
        return Err("not an assembler oracle archive (no `DXREF-ASM-ORACLE 1` line)".into());
    }
    let mut c = Cursor { data, at: MAGIC.len() };
    let mut out = Vec::new();
    loop {
        let at = c.at;
        match c.take(1)?[0] {
            b'A' => {
                let name = c.string()?;
                let source = c.string()?;
                let n = c.u32()? as usize;
                if n > 64 {
                    return Err(format!("record `{name}` at byte {at} claims {n} include files"));
                }
                let mut includes = Vec::with_capacity(n);
                for _ in 0..n {
                    includes.push((c.string()?, c.string()?));
                }
                let (flags, hr) = (c.u32()?, c.u32()?);
                let errors = c.string()?;
                let blob = c.bytes()?.to_vec();
                out.push(Assembly { name, source, includes, flags, hr, errors, blob });
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
            b => return Err(format!("byte {at}: expected a record ('A') or the trailer ('E'), found 0x{b:02x}")),
        }
    }
}

/// Reads an archive file; panics naming the file on any fault (for tests: data that is
/// present but broken is a failure).
pub fn read(path: &Path) -> Vec<Assembly> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    decode(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The assembler oracle data folder of the repository (`crates/d3dbc/tests/asm-oracle`).
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../d3dbc/tests/asm-oracle")
}

/// The archive `file` of [`data_dir`], checked against the record count that the
/// folder's `MANIFEST.tsv` (`file`, `records` columns) pins for it; panics naming the
/// file and row on any fault, and when the manifest has no row for `file`.
pub fn archive(file: &str) -> Vec<Assembly> {
    let dir = data_dir();
    let all = crate::archive::pinned(&dir, read);
    let records = all.into_iter().find(|(f, _)| f == file).map(|(_, r)| r);
    let records = records.unwrap_or_else(|| panic!("{}: no row for {file}", dir.join("MANIFEST.tsv").display()));
    assert!(!records.is_empty(), "{}: {file} pins no records", dir.display());
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Assembly> {
        vec![Assembly {
            name: "grammar/x/0".into(),
            source: "vs.1.1\n#include \"a.inc\"\n".into(),
            includes: vec![("a.inc".into(), "mov oPos, v0\n".into())],
            flags: ASM_SKIP_VALIDATION,
            hr: 0,
            errors: String::new(),
            blob: vec![1, 1, 0xfe, 0xff, 0xff, 0xff, 0, 0],
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
