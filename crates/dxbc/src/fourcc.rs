//! Four-character codes naming chunks.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use std::fmt;

/// A chunk's four-character code, as the four bytes stored in the container.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FourCc(pub [u8; 4]);

impl FourCc {
    /// Resource definitions.
    pub const RDEF: FourCc = FourCc(*b"RDEF");
    /// Input signature.
    pub const ISGN: FourCc = FourCc(*b"ISGN");
    /// Output signature.
    pub const OSGN: FourCc = FourCc(*b"OSGN");
    /// Patch-constant signature.
    pub const PCSG: FourCc = FourCc(*b"PCSG");
    /// Input signature, Shader Model 5.1 form.
    pub const ISG1: FourCc = FourCc(*b"ISG1");
    /// Output signature, Shader Model 5.1 form.
    pub const OSG1: FourCc = FourCc(*b"OSG1");
    /// Patch-constant signature, Shader Model 5.1 form.
    pub const PSG1: FourCc = FourCc(*b"PSG1");
    /// Output signature with stream indices (geometry shaders, SM5).
    pub const OSG5: FourCc = FourCc(*b"OSG5");
    /// Shader Model 4 program.
    pub const SHDR: FourCc = FourCc(*b"SHDR");
    /// Shader Model 5 program.
    pub const SHEX: FourCc = FourCc(*b"SHEX");
    /// Statistics.
    pub const STAT: FourCc = FourCc(*b"STAT");
    /// Shader feature info.
    pub const SFI0: FourCc = FourCc(*b"SFI0");
    /// Interfaces (class linkage).
    pub const IFCE: FourCc = FourCc(*b"IFCE");
    /// Level 9 (SM2) program with its constant mappings.
    pub const AON9: FourCc = FourCc(*b"Aon9");

    /// The code as the little-endian `u32` stored in the file.
    pub fn to_u32(self) -> u32 {
        u32::from_le_bytes(self.0)
    }
}

impl From<[u8; 4]> for FourCc {
    fn from(b: [u8; 4]) -> Self {
        FourCc(b)
    }
}

impl From<&[u8; 4]> for FourCc {
    fn from(b: &[u8; 4]) -> Self {
        FourCc(*b)
    }
}

impl fmt::Display for FourCc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in &self.0 {
            if b.is_ascii_graphic() || b == b' ' {
                write!(f, "{}", b as char)?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for FourCc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FourCc(\"{self}\")")
    }
}
