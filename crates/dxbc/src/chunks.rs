//! Dispatch from a chunk's FourCC to its codec.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::error::Result;
use crate::{FourCc, Ifce, Rdef, Sfi0, Signature, SignatureFormat, Stat};

/// A chunk decoded by the codec its FourCC selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkData<'a> {
    /// `RDEF`.
    Rdef(Rdef<'a>),
    /// `ISGN`, `OSGN`, `PCSG`, `OSG5`, `ISG1`, `OSG1`, `PSG1`.
    Signature(Signature<'a>),
    /// `STAT`.
    Stat(Stat<'a>),
    /// `SFI0`.
    Sfi0(Sfi0<'a>),
    /// `IFCE`.
    Ifce(Ifce<'a>),
    /// `SHDR` / `SHEX`: the SM4/5 token stream, decoded by the `tpf` crate.
    Program(&'a [u8]),
    /// `Aon9`: the Level 9 part, kept as bytes.
    Level9(&'a [u8]),
    /// Any other chunk, kept as bytes.
    Unknown(&'a [u8]),
}

impl<'a> ChunkData<'a> {
    /// Decodes `data` as a chunk of kind `fourcc`. Errors name offsets inside `data`.
    pub fn decode(fourcc: FourCc, data: &'a [u8]) -> Result<ChunkData<'a>> {
        if let Some(format) = SignatureFormat::for_fourcc(fourcc) {
            return Ok(ChunkData::Signature(Signature::parse(data, format)?));
        }
        Ok(match &fourcc.0 {
            b"RDEF" => ChunkData::Rdef(Rdef::parse(data)?),
            b"STAT" => ChunkData::Stat(Stat::parse(data)?),
            b"SFI0" => ChunkData::Sfi0(Sfi0::parse(data)?),
            b"IFCE" => ChunkData::Ifce(Ifce::parse(data)?),
            b"SHDR" | b"SHEX" => ChunkData::Program(data),
            b"Aon9" => ChunkData::Level9(data),
            _ => ChunkData::Unknown(data),
        })
    }

    /// True if a typed codec (not raw bytes) handles chunks of kind `fourcc`.
    #[inline]
    pub fn has_codec(fourcc: FourCc) -> bool {
        SignatureFormat::for_fourcc(fourcc).is_some() || matches!(&fourcc.0, b"RDEF" | b"STAT" | b"SFI0" | b"IFCE")
    }

    /// Serialises the chunk data.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            ChunkData::Rdef(c) => c.to_bytes(),
            ChunkData::Signature(c) => c.to_bytes(),
            ChunkData::Stat(c) => c.to_bytes(),
            ChunkData::Sfi0(c) => c.to_bytes(),
            ChunkData::Ifce(c) => c.to_bytes(),
            ChunkData::Program(b) | ChunkData::Level9(b) | ChunkData::Unknown(b) => b.to_vec(),
        }
    }
}
