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
    ///
    /// The last word (after the last blank, the string's NULs and surrounding white
    /// space trimmed) is two to four numbers separated by dots, each read as
    /// `u32::from_str` reads it. (Read byte by byte: the string splitters and the
    /// generic number parser cost some 700 instructions a blob.)
    pub fn from_creator(creator: &str) -> Option<CompilerVersion> {
        let trimmed = creator.trim_end_matches('\0').trim();
        let tail = trimmed.rfind(' ').map_or(trimmed, |i| trimmed.get(i + 1..).unwrap_or(""));
        let mut parts = [0u32; 4];
        let mut n = 0;
        for p in tail.as_bytes().split(|&b| b == b'.') {
            if n == 4 {
                return None;
            }
            parts[n] = decimal_u32(p)?;
            n += 1;
        }
        (n >= 2).then_some(CompilerVersion(parts[0], parts[1], parts[2], parts[3]))
    }
}

/// `s` as `u32::from_str` reads it: an optional `+`, then one or more decimal digits
/// whose value fits.
fn decimal_u32(s: &[u8]) -> Option<u32> {
    let digits = match s {
        [b'+', rest @ ..] if !rest.is_empty() => rest,
        _ => s,
    };
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u32, |v, &b| {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v.checked_mul(10)?.checked_add(d as u32)
    })
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
        Style::D3DCOMPILER_47
    }
}

/// The text `D3DDisassemble` of each `d3dcompiler_*.dll` prints for a blob, whatever
/// compiler built it (the DLL does not follow the blob's creator string: the 6.3.9600
/// build of d3dcompiler_47 prints a 9.29.952 blob with its own 7-wide Format column).
///
/// The differences these styles show on a blob without reflection, and the evidence
/// for each (fxc `/Fc` listings are printed by the `D3DDisassemble` of the DLL fxc
/// ships with; the corpus holds listings of each):
///
/// | | `dcl_constantbuffer` | signature Format column | texel offsets |
/// |---|---|---|---|
/// | d3dcompiler_43 (9.29.952.3111) | `cb0[4]` | 6 wide | `sample_l(1,0,0)` |
/// | d3dcompiler_46 (9.30.9200) | `cb0[4]` | 7 wide | `sample_l_aoffimmi(1,0,0)` |
/// | d3dcompiler_47 6.3.9600 | `cb0[4]` | 7 wide | `sample_l_aoffimmi(1,0,0)` |
/// | d3dcompiler_47 10.0 (fxc 10.1) | `CB0[4]` | 7 wide | `sample_l_aoffimmi(1,0,0)` |
///
/// - d3dcompiler_43: the June 2010 DirectX SDK's fxc 9.29.952.3111 listings: every
///   constant buffer `cb#`, every signature table with the 6-wide Format column,
///   texel offsets without `_aoffimmi` (`sample_l_indexable(0,-1,0)(texture2d)...`).
///   The DLL itself cannot be run here.
/// - d3dcompiler_46: the Windows 8 SDK's fxc 9.30.9200 listings: `cb#`, 7 wide,
///   `_aoffimmi`. The DLL itself cannot be run here. Those listings also hold a
///   stray `///` line after the creator (a `/` before a raw program's version line);
///   taken for fxc's own, it is printed by the `fxc-9.30` style only (unverified).
/// - d3dcompiler_47 6.3.9600.16384 (the Windows 8.1 build, run under wine): a blob
///   compiled and stripped of its reflection (`D3DStripShader`, flag 1) prints
///   `dcl_constantbuffer cb0[1]`, the 7-wide column and `ld_aoffimmi(0,1,0)`.
/// - d3dcompiler_47 10.0 (the Windows 10 SDK's build, behind fxc 10.1): the corpus's
///   `Microsoft (R) D3D Shader Disassembler` listings of stripped blobs spell `CB0`.
///   This is [`Style::default`].
impl Style {
    /// d3dcompiler_43.dll (June 2010 DirectX SDK, 9.29.952.3111).
    pub const D3DCOMPILER_43: Style = Style { version: CompilerVersion(9, 29, 952, 3111), disassembler: true };
    /// d3dcompiler_46.dll (Windows 8 SDK, 9.30.9200).
    pub const D3DCOMPILER_46: Style = Style { version: CompilerVersion(9, 30, 9200, 16384), disassembler: true };
    /// d3dcompiler_47.dll as first shipped (Windows 8.1 SDK, 6.3.9600.16384).
    pub const D3DCOMPILER_47_6_3: Style = Style { version: CompilerVersion(6, 3, 9600, 16384), disassembler: true };
    /// d3dcompiler_47.dll of the Windows 10 SDK (fxc 10.1's): the default.
    pub const D3DCOMPILER_47: Style = Style { version: CompilerVersion::LATEST, disassembler: true };

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

    /// True for the d3dcompiler_47 6.3.9600 build (the Windows 8.1 SDK's), whose
    /// disassembler differs from both the 9.x listings and fxc 10.1's in a few spellings.
    pub fn is_d3dcompiler_47_6_3(&self) -> bool {
        (self.version.0, self.version.1) == (6, 3)
    }

    /// True when a `dcl_globalFlags` without any flag is printed `dcl_globalFlagsnone`.
    /// d3dcompiler_47 6.3.9600 prints `dcl_globalFlagsnone` (no space) for a program whose
    /// global flags are 0 (the oracle's HLSL archives); no corpus listing of another
    /// compiler holds such a declaration, so the others keep `dcl_globalFlags `.
    pub fn spells_no_global_flags_none(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when the label register file is spelled `label` (`call label0`,
    /// `label label0`, `callc_z r2.x, label1`) rather than `l` (`call l0`).
    /// d3dcompiler_47 6.3.9600 prints `label#` in every oracle listing with a label
    /// operand; no corpus listing of another compiler holds one (their `label fb0` lines
    /// name function bodies), so the others keep `l#`.
    pub fn spells_label_register_label(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when the hull shader's `Power of 2` partitioning is printed
    /// `Integer Power of 2` in the tessellation table.
    /// d3dcompiler_47 6.3.9600 prints `// Clockwise Triangles            Integer Power of 2`
    /// (the oracle's hs_5_0 archive, every `partitioning("pow2")` entry); no corpus
    /// listing of another compiler holds a pow2 hull shader, so the others keep `Power of 2`.
    pub fn spells_pow2_partitioning_integer(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when the Resource Bindings table's Dim column spells a multisampled 2D
    /// array `2darrayMS` (`2darrayMS4`) rather than `2dMSarray`.
    /// d3dcompiler_47 6.3.9600 prints `texture  float4  2darrayMS4` (the oracle's HLSL
    /// archives, every `Texture2DMSArray`); no corpus listing of another compiler holds
    /// one, so the others keep `2dMSarray`.
    pub fn spells_ms_array_dimension_2darrayms(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when the Buffer Definitions table separates a structure from the variable
    /// before it only (`//   ` before `struct`), not from the variable after it.
    /// d3dcompiler_47 6.3.9600 prints `//   } c0_1;  // Offset: 16 Size: 28` directly
    /// followed by `//   float1 c0_2[2];` (the oracle's HLSL archives); the fxc 9.29,
    /// 9.30 and 10.1 listings of the corpus put a `//   ` line between them.
    pub fn separates_structures_before_only(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when a source's minimum-precision note says `{a as b}` only where the source
    /// takes the destination's type (see `print::takes_destination_precision_6_3`), and
    /// otherwise gives the source's own precision alone (`{min16u}`, nothing for 32 bits).
    /// d3dcompiler_47 6.3.9600 prints `utof r0.x, r1.x {min16u}`, `lt r6.xyz, r4.xyzx
    /// {min16f}, ...` and `ushr r1.x {min16u}, r0.x {def32 as min16u}, l(1)` (the oracle's
    /// HLSL archives); the fxc 9.30 listings of the corpus note every source
    /// (`mov o1.x {min16u}, l(1) {def32 as min16u}`), as dxref does for the other styles.
    pub fn notes_precision_conversion_by_type(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when a source's precision note stands inside its `|...|` (`|r0.x {min16f}|`).
    /// d3dcompiler_47 6.3.9600 prints `mul r0.xyzw {min16f}, |r0.xyzw {min16f}|, ...` and
    /// `mov o0.xyzw, |r0.xyzw {min16f as def32}|` (the oracle's HLSL archives); no corpus
    /// listing of another compiler holds an absolute value with a precision.
    pub fn notes_precision_inside_absolute_value(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when the immediate condition of `movc` and the immediate address of
    /// `store_uav_typed` separate their values with `,` alone, as typeless immediates do,
    /// though they print as integers (see `print::PACKED_IMMEDIATES_6_3`).
    /// d3dcompiler_47 6.3.9600 prints `movc r0.xyz, l(1,-1,0,0), r1.xyzx, r2.xyzx` and
    /// `store_uav_typed u0.xyzw, l(1,2,0,0), r0.xxxx` (the oracle's HLSL archives, every
    /// such line), but `ld r0.xyzw, l(0, 3, 0, 0), t1.xyzw`; no corpus listing of
    /// another compiler holds either, so the others keep `, `.
    pub fn packs_condition_and_address_immediates(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when `%f` rounds the value's exact decimal expansion half away from zero
    /// (neither the 17 significant digits of the older runtimes nor ties to even).
    /// d3dcompiler_47 6.3.9600 prints `1267650600228229401496703205376.000000` for 2^100
    /// (all its digits, where the 17-digit runtimes print `...229400000000000000.000000`)
    /// and `1.007813` for 1.0078125 (a tie, away from zero), with and without a creator
    /// string (the oracle's HLSL and token-stream archives).
    pub fn rounds_exact_digits_half_away(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when a system-value name the DLL does not know prints as nothing
    /// (`dcl_output_siv o1.x, `) rather than `name<N>`.
    /// d3dcompiler_47 6.3.9600 prints `dcl_input_sgv v1.x, ` for every unknown name of
    /// the oracle's mutated token streams; no corpus listing holds an unknown name.
    pub fn spells_unknown_system_name_empty(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when `sync`'s UAV-group bit (opcode token bit 13, the bit of `_sat`) prints
    /// as `_sat` before the other flags, `_ugroup` only without `_uglobal`.
    /// d3dcompiler_47 6.3.9600 prints `sync_sat_ugroup_g_t` and, with both UAV bits,
    /// `sync_sat_uglobal_g_t` (the oracle's token streams); the corpus's fxc listings
    /// show `sync_g_t` only.
    pub fn spells_sync_group_bit_sat(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when a resource-dimension group shows a nonzero stride whatever the
    /// dimension (`ld_indexable(texture2d, stride=512)`), not for structured buffers only.
    /// d3dcompiler_47 6.3.9600 prints `exp_indexable(texture1d, stride=512) r, r0.w` for
    /// the oracle's mutated token streams; real programs carry a stride with structured
    /// buffers only, so no corpus listing shows another compiler's spelling.
    pub fn shows_stride_of_every_dimension(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when the immediates of `rcp` and `lod` print as integers (`0x3e800000`), as
    /// if the instructions took integers (see `print::INTEGER_IMMEDIATES_6_3`).
    /// d3dcompiler_47 6.3.9600 prints `rcp r2.xyzw, l(0x3e800000, 0x3a83126f, 0x3f000000,
    /// 0x41200000)` and `lod r1.y, l(0x3f800000, 0x3f800000, 0, 0), t0.x, s0` (every such
    /// line of the oracle's archives); the corpus holds neither with an immediate.
    pub fn prints_rcp_and_lod_immediates_as_integers(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
    }

    /// True when a resource dimension the DLL does not know prints `<unknown dimension>`
    /// (`dcl_resource_<unknown dimension>`, `ld_indexable(<unknown dimension>, ...)`)
    /// rather than `unknown`.
    /// d3dcompiler_47 6.3.9600 prints so for the oracle's mutated token streams; no
    /// corpus listing holds an unknown dimension.
    pub fn spells_unknown_dimension_in_angles(&self) -> bool {
        self.is_d3dcompiler_47_6_3()
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

    /// The reading of the creator string's version through `str::split` and
    /// `u32::from_str` (the parser's first form): the byte-by-byte reading must agree.
    fn from_creator_by_str(creator: &str) -> Option<CompilerVersion> {
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        #[test]
        fn creator_versions_read_as_by_str(
            s in "[ \\t\\x00\u{a0}\u{3000}a-zA-Z0-9.+\\-]{0,24}",
            v in proptest::collection::vec(0u64..=5_000_000_000, 0..6),
            pre in "(Microsoft \\(R\\) HLSL Shader Compiler ?)?",
            post in "[ \\x00.+]{0,3}",
        ) {
            let joined: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            for text in [s.clone(), format!("{pre}{}{post}", joined.join(".")), format!("{s} {}", joined.join("."))] {
                proptest::prop_assert_eq!(CompilerVersion::from_creator(&text), from_creator_by_str(&text), "{:?}", text);
            }
        }
    }
}
