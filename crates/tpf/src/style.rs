//! Which Microsoft disassembler's text to reproduce.
//!
//! fxc's listing format changed between compiler releases (column layouts of the
//! resource-binding table, spellings of some declarations, spacing). The blob records
//! the compiler that built it (the RDEF creator string), and fxc `/Fc` listings are
//! printed by that same compiler, so by default the listing follows the version named
//! in the blob; blobs without a creator string get the newest format, the one printed
//! by today's `D3DDisassemble` (d3dcompiler_47, "10.1").

use std::fmt;

/// A Microsoft HLSL compiler version, `major.minor.build.revision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CompilerVersion(pub u32, pub u32, pub u32, pub u32);

impl CompilerVersion {
    /// d3dcompiler_47 / fxc 10.1: the newest format, and the default.
    pub const LATEST: CompilerVersion = CompilerVersion(10, 1, 0, 0);

    /// The version of the Microsoft HLSL compiler a creator string names
    /// (`Microsoft (R) HLSL Shader Compiler 9.30.9200.20499`), or `None` when the string
    /// names anything else (another compiler, a disassembler, dxref).
    pub fn of_microsoft_compiler(creator: &str) -> Option<CompilerVersion> {
        creator
            .trim_start()
            .starts_with("Microsoft (R) HLSL Shader Compiler")
            .then(|| Self::from_creator(creator))
            .flatten()
    }

    /// Parses the version out of a creator string such as
    /// `Microsoft (R) HLSL Shader Compiler 9.30.9200.20499`.
    pub fn from_creator(creator: &str) -> Option<CompilerVersion> {
        let tail = creator.trim_end_matches('\0').trim().rsplit(' ').next()?;
        let mut parts = [0u32; 4];
        let mut n = 0;
        for p in tail.split('.') {
            if n == 4 {
                return None;
            }
            parts[n] = p.parse().ok()?;
            n += 1;
        }
        (n >= 2).then_some(CompilerVersion(parts[0], parts[1], parts[2], parts[3]))
    }
}

impl fmt::Display for CompilerVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}.{}", self.0, self.1, self.2, self.3)
    }
}

/// The listing format to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// The compiler whose disassembler's text is reproduced.
    pub version: CompilerVersion,
    /// True when the blob names no compiler, so the listing is the one
    /// `D3DDisassemble` prints by itself ("Microsoft (R) D3D Shader Disassembler").
    /// Its number formatting differs slightly from fxc 10.1's `/Fc` listings
    /// (exact ties round away from zero: `0.0078125` prints `0.007813`).
    pub disassembler: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style { version: CompilerVersion::LATEST, disassembler: true }
    }
}

impl Style {
    /// The style for a blob whose RDEF creator string is `creator` (or which has none).
    /// A creator that is not a Microsoft compiler gets the newest fxc format.
    pub fn for_creator(creator: Option<&str>) -> Style {
        match creator {
            None => Style::default(),
            Some(c) => Style {
                version: CompilerVersion::of_microsoft_compiler(c).unwrap_or(CompilerVersion::LATEST),
                disassembler: false,
            },
        }
    }

    /// True when `%f` rounds the value's 17 significant digits half away from zero
    /// (the older C runtimes); false when it rounds the exact value, ties to even.
    pub fn rounds_from_17_digits(&self) -> bool {
        self.disassembler || self.version.0 < 10
    }

    /// True for compilers older than `major.minor` (e.g. `older_than(10, 0)` for the 9.x family).
    pub fn older_than(&self, major: u32, minor: u32) -> bool {
        (self.version.0, self.version.1) < (major, minor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_creator_strings() {
        assert_eq!(
            CompilerVersion::from_creator("Microsoft (R) HLSL Shader Compiler 9.30.9200.20499"),
            Some(CompilerVersion(9, 30, 9200, 20499))
        );
        assert_eq!(
            CompilerVersion::from_creator("Microsoft (R) HLSL Shader Compiler 10.1"),
            Some(CompilerVersion(10, 1, 0, 0))
        );
        assert_eq!(CompilerVersion::from_creator("garbage"), None);
        assert!(Style::for_creator(Some("Microsoft (R) HLSL Shader Compiler 9.29.952.3111")).older_than(10, 0));
        assert_eq!(Style::for_creator(None), Style::default());
        assert!(Style::for_creator(None).disassembler);
        // Other compilers' creator strings do not select an old fxc format.
        let other = Style::for_creator(Some("vkd3d-shader 1.2"));
        assert_eq!(other, Style { version: CompilerVersion::LATEST, disassembler: false });
        assert_eq!(CompilerVersion::of_microsoft_compiler("Microsoft (R) D3D Shader Disassembler"), None);
        assert_eq!(CompilerVersion::of_microsoft_compiler("dxref 0.1.0"), None);
    }
}
