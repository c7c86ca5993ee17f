//! The assembler's rules as data: one table per version.
//!
//! Each table says which register files the version's assembler knows (with their
//! counts and the address registers that may index them), which source modifiers,
//! instruction modifiers and `dcl` forms it reads, whether it co-issues and predicates,
//! and the instructions it has beyond the instruction table's (`OpInfo::exists_in`).
//!
//! Sources. The register files and counts are the register pages' ("Registers -
//! vs_1_1", "Registers - vs_2_0", "Registers - vs_2_x", "Registers - vs_3_0",
//! "ps_1_1, ps_1_2, ps_1_3, ps_1_4 Registers", "ps_2_0 Registers", "ps_2_x Registers",
//! "ps_3_0 Registers", "Software Shaders"), as `D3DAssemble` (d3dcompiler_47 6.3.9600,
//! with `D3DCOMPILE_SKIP_VALIDATION`) applies them: every vertex profile reads any
//! constant register the token can name, `c0` to `c8191` (the pages' counts of `c#` are
//! the device's, which the validator checks); ps_3_0 reads `c0` to `c223`. The source
//! modifiers are those of "Pixel Shader Source Register Modifiers" and "Vertex Shader
//! Source Register Modifiers" as `D3DAssemble` reads them (it reads `_x2`, `_dz` and
//! `_dw` in every ps_1_x version, and refuses them elsewhere as part of the register
//! name, X2005); the instruction modifiers those of "Instruction Modifiers" (vs) and
//! "Modifiers for ps_2_0 and Above" and the ps_1_x instruction-modifier page (every
//! shift in every ps_1_x version); the `dcl` forms those of "dcl_usage input (sm2, sm3 -
//! vs asm)", "dcl_usage input (sm2, sm3 - ps asm)" and "dcl_samplerType (sm2, sm3 -
//! ps asm)". Where a page and `D3DAssemble` differ, the table follows `D3DAssemble`'s
//! recorded verdict (`crates/d3dbc/tests/asm-oracle/asm-rules.dxo`) and says so.
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::table::Opcode;

/// A register file a version's assembler knows: its name as written (`r`, `oPos`),
/// whether it takes a number, how many registers it has, and which address registers
/// may index it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegFile {
    /// The name as written, without the number (`r`, `oPos`).
    pub name: &'static str,
    /// Registers `name0` to `name{count-1}`; 1 for the unnumbered (`oPos`, `aL`).
    pub count: u32,
    /// Written with a number (`r0`); `false` for `oPos`, `aL`, `vFace`...
    pub numbered: bool,
    /// The address registers that may index it: `a0`, `aL`.
    pub rel: &'static [&'static str],
}

/// The source modifiers a version reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceModifiers {
    /// `_bias`, `_bx2` (and negated).
    pub bias_bx2: bool,
    /// `1 - r`.
    pub complement: bool,
    /// `_x2` (and negated).
    pub x2: bool,
    /// `_dz`, `_dw` (`_db`, `_da`).
    pub dz_dw: bool,
    /// `_abs` (and negated).
    pub abs: bool,
}

/// The `dcl` forms a version reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DclForms {
    /// `dcl` with no usage and no texture type (`dcl t0`, `dcl v0`).
    pub plain: bool,
    /// `dcl_texcoord1` and the other usages.
    pub usage: bool,
    /// `dcl_2d`, `dcl_cube`, `dcl_volume`.
    pub texture_type: bool,
    /// `_pp` and `_centroid` after the `dcl` word.
    pub pp_centroid: bool,
    /// `dcl_position0` (the position is `vPos` in ps_3_0: "ps_3_0 Registers", and
    /// D3DAssemble refuses it, X2024).
    pub position0: bool,
}

/// Everything the assembler of one version checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VersionRules {
    /// `vs_2_0`.
    pub name: &'static str,
    /// The register page the register files come from.
    pub register_page: &'static str,
    /// The register files the version has.
    pub registers: &'static [RegFile],
    /// The source modifiers it reads.
    pub source: SourceModifiers,
    /// `_sat` on instructions.
    pub sat: bool,
    /// `_pp` on instructions.
    pub pp: bool,
    /// Result shifts `_x2`, `_x4`, `_x8`, `_d2`, `_d4`, `_d8`.
    pub shifts: bool,
    /// Co-issue (`+`).
    pub coissue: bool,
    /// Predication (`(p0) add ...`).
    pub predication: bool,
    /// Relative addressing reads `a0.x` only.
    pub a0_x_only: bool,
    /// The `dcl` forms it reads.
    pub dcl: DclForms,
    /// Instructions the assembler reads in this version although the instruction
    /// table's version ranges leave them out.
    pub extra_instructions: &'static [Opcode],
}

const fn n(name: &'static str, count: u32) -> RegFile {
    RegFile { name, count, numbered: true, rel: &[] }
}
const fn nr(name: &'static str, count: u32, rel: &'static [&'static str]) -> RegFile {
    RegFile { name, count, numbered: true, rel }
}
const fn one(name: &'static str) -> RegFile {
    RegFile { name, count: 1, numbered: false, rel: &[] }
}

const A0: &[&str] = &["a0"];
const A0_AL: &[&str] = &["a0", "aL"];
const AL: &[&str] = &["aL"];

/// `c0` to `c8191`: the constant registers the token can name.
const C_ALL: u32 = 8192;

const VS_OUT_1_2: [RegFile; 5] = [one("oPos"), one("oFog"), one("oPts"), n("oD", 2), n("oT", 8)];

const VS_1_1_REGS: &[RegFile] = &[
    n("r", 12),
    n("v", 16),
    nr("c", C_ALL, A0),
    n("a", 1),
    VS_OUT_1_2[0],
    VS_OUT_1_2[1],
    VS_OUT_1_2[2],
    VS_OUT_1_2[3],
    VS_OUT_1_2[4],
];
const VS_2_0_REGS: &[RegFile] = &[
    n("r", 12),
    n("v", 16),
    nr("c", C_ALL, A0_AL),
    n("a", 1),
    n("b", 16),
    n("i", 16),
    one("aL"),
    n("l", 2048),
    VS_OUT_1_2[0],
    VS_OUT_1_2[1],
    VS_OUT_1_2[2],
    VS_OUT_1_2[3],
    VS_OUT_1_2[4],
];
const VS_2_X_REGS: &[RegFile] = &[
    n("r", 32),
    n("v", 16),
    nr("c", C_ALL, A0_AL),
    n("a", 1),
    n("b", 16),
    n("i", 16),
    one("aL"),
    n("p", 1),
    n("l", 2048),
    VS_OUT_1_2[0],
    VS_OUT_1_2[1],
    VS_OUT_1_2[2],
    VS_OUT_1_2[3],
    VS_OUT_1_2[4],
];
const VS_2_SW_REGS: &[RegFile] = &[
    n("r", 32),
    n("v", 16),
    nr("c", C_ALL, A0_AL),
    n("a", 1),
    n("b", 2048),
    n("i", 2048),
    one("aL"),
    n("p", 1),
    n("l", 2048),
    VS_OUT_1_2[0],
    VS_OUT_1_2[1],
    VS_OUT_1_2[2],
    VS_OUT_1_2[3],
    VS_OUT_1_2[4],
];
const VS_3_0_REGS: &[RegFile] = &[
    n("r", 32),
    nr("v", 16, A0_AL),
    nr("c", C_ALL, A0_AL),
    n("a", 1),
    n("b", 16),
    n("i", 16),
    one("aL"),
    n("p", 1),
    n("s", 4),
    n("l", 2048),
    nr("o", 12, A0_AL),
];
const VS_3_SW_REGS: &[RegFile] = &[
    n("r", 32),
    nr("v", 16, A0_AL),
    nr("c", C_ALL, A0_AL),
    n("a", 1),
    n("b", 2048),
    n("i", 2048),
    one("aL"),
    n("p", 1),
    n("s", 4),
    n("l", 2048),
    nr("o", 16, A0_AL),
];
const PS_1_1_REGS: &[RegFile] = &[n("r", 2), n("v", 2), n("c", 8), n("t", 4)];
const PS_1_4_REGS: &[RegFile] = &[n("r", 6), n("v", 2), n("c", 8), n("t", 6)];
/// ps_2_0: `b#` as `D3DAssemble` reads it (`defb`, `if b#`; the validator refuses them).
const PS_2_0_REGS: &[RegFile] =
    &[n("r", 12), n("v", 2), n("c", 32), n("t", 8), n("s", 16), n("b", 16), n("oC", 4), one("oDepth")];
const PS_2_X_REGS: &[RegFile] = &[
    n("r", 32),
    n("v", 2),
    n("c", 32),
    n("t", 8),
    n("s", 16),
    n("b", 16),
    n("i", 16),
    n("p", 1),
    n("l", 2048),
    n("oC", 4),
    one("oDepth"),
];
const PS_2_SW_REGS: &[RegFile] = &[
    n("r", 32),
    n("v", 2),
    n("c", C_ALL),
    n("t", 8),
    n("s", 16),
    n("b", 2048),
    n("i", 2048),
    n("p", 1),
    n("l", 2048),
    n("oC", 4),
    one("oDepth"),
];
const PS_3_0_REGS: &[RegFile] = &[
    n("r", 32),
    nr("v", 10, AL),
    n("c", 224),
    n("s", 16),
    n("b", 16),
    n("i", 16),
    n("p", 1),
    one("aL"),
    n("l", 2048),
    one("vPos"),
    one("vFace"),
    n("oC", 4),
    one("oDepth"),
];
/// ps_3_sw: `v0` to `v13` as `D3DAssemble` reads them ("Software Shaders" gives no
/// count of its own).
const PS_3_SW_REGS: &[RegFile] = &[
    n("r", 32),
    nr("v", 14, AL),
    n("c", C_ALL),
    n("s", 16),
    n("b", 2048),
    n("i", 2048),
    n("p", 1),
    one("aL"),
    n("l", 2048),
    one("vPos"),
    one("vFace"),
    n("oC", 4),
    one("oDepth"),
];

const VS_SRC: SourceModifiers =
    SourceModifiers { bias_bx2: false, complement: false, x2: false, dz_dw: false, abs: false };
const SM3_SRC: SourceModifiers = SourceModifiers { abs: true, ..VS_SRC };
const PS1_SRC: SourceModifiers =
    SourceModifiers { bias_bx2: true, complement: true, x2: true, dz_dw: true, abs: false };

/// Vertex shaders: a usage on every `dcl` of an input or output; sampler types from
/// 3_0; no modifier on a `dcl` ("dcl_usage input (sm2, sm3 - vs asm)").
const VS_DCL: DclForms =
    DclForms { plain: false, usage: true, texture_type: false, pp_centroid: false, position0: true };
const VS3_DCL: DclForms = DclForms { texture_type: true, ..VS_DCL };
/// ps_1_x has no `dcl`.
const PS1_DCL: DclForms =
    DclForms { plain: false, usage: false, texture_type: false, pp_centroid: false, position0: false };
/// ps_2_0 and 2_x: `dcl v#` / `dcl t#` with no usage, sampler types, `_pp` and
/// `_centroid` ("dcl_usage input (sm2, sm3 - ps asm)", "dcl_samplerType (sm2, sm3 - ps
/// asm)").
const PS2_DCL: DclForms =
    DclForms { plain: true, usage: false, texture_type: true, pp_centroid: true, position0: false };
/// ps_3_0: usages on `v#` too, but for `position0`.
const PS3_DCL: DclForms = DclForms { usage: true, ..PS2_DCL };

const fn vs(name: &'static str, page: &'static str, registers: &'static [RegFile]) -> VersionRules {
    VersionRules {
        name,
        register_page: page,
        registers,
        source: VS_SRC,
        sat: false,
        pp: false,
        shifts: false,
        coissue: false,
        predication: false,
        a0_x_only: false,
        dcl: VS_DCL,
        extra_instructions: &[],
    }
}

const fn ps(name: &'static str, page: &'static str, registers: &'static [RegFile]) -> VersionRules {
    VersionRules {
        name,
        register_page: page,
        registers,
        source: VS_SRC,
        sat: true,
        pp: true,
        shifts: false,
        coissue: false,
        predication: false,
        a0_x_only: false,
        dcl: PS2_DCL,
        extra_instructions: &[],
    }
}

const fn ps1(name: &'static str, registers: &'static [RegFile]) -> VersionRules {
    VersionRules {
        source: PS1_SRC,
        pp: false,
        shifts: true,
        coissue: true,
        dcl: PS1_DCL,
        ..ps(name, "ps_1_1, ps_1_2, ps_1_3, ps_1_4 Registers", registers)
    }
}

/// The tables, in version order.
pub const VERSIONS: &[VersionRules] = &[
    VersionRules { a0_x_only: true, ..vs("vs_1_1", "Registers - vs_1_1", VS_1_1_REGS) },
    // D3DAssemble reads `break` in vs_2_0 (the instruction page gives vs_2_x).
    VersionRules { extra_instructions: &[Opcode::Break], ..vs("vs_2_0", "Registers - vs_2_0", VS_2_0_REGS) },
    VersionRules { predication: true, ..vs("vs_2_x", "Registers - vs_2_x", VS_2_X_REGS) },
    VersionRules { predication: true, ..vs("vs_2_sw", "Software Shaders", VS_2_SW_REGS) },
    VersionRules {
        source: SM3_SRC,
        sat: true,
        predication: true,
        dcl: VS3_DCL,
        ..vs("vs_3_0", "Registers - vs_3_0", VS_3_0_REGS)
    },
    VersionRules {
        source: SM3_SRC,
        sat: true,
        predication: true,
        dcl: VS3_DCL,
        ..vs("vs_3_sw", "Software Shaders", VS_3_SW_REGS)
    },
    ps1("ps_1_1", PS_1_1_REGS),
    ps1("ps_1_2", PS_1_1_REGS),
    ps1("ps_1_3", PS_1_1_REGS),
    ps1("ps_1_4", PS_1_4_REGS),
    // D3DAssemble reads `defb`, `if`, `else` and `endif` in ps_2_0 (the validator
    // refuses them; the ps_2_0 instruction page does not list them).
    VersionRules {
        extra_instructions: &[Opcode::Defb, Opcode::If, Opcode::Else, Opcode::Endif],
        ..ps("ps_2_0", "ps_2_0 Registers", PS_2_0_REGS)
    },
    VersionRules { predication: true, ..ps("ps_2_x", "ps_2_x Registers", PS_2_X_REGS) },
    VersionRules { predication: true, ..ps("ps_2_sw", "Software Shaders", PS_2_SW_REGS) },
    VersionRules { source: SM3_SRC, predication: true, dcl: PS3_DCL, ..ps("ps_3_0", "ps_3_0 Registers", PS_3_0_REGS) },
    VersionRules {
        source: SM3_SRC,
        predication: true,
        dcl: PS3_DCL,
        ..ps("ps_3_sw", "Software Shaders", PS_3_SW_REGS)
    },
];

/// The table of version `name` (`vs_2_0`). `vs_1_0` and `ps_1_0` are read as `vs_1_1`
/// and `ps_1_1` (D3DAssemble: "X2015: ps_1_0 is no longer supported; using ps_1_1").
pub fn version(name: &str) -> Option<&'static VersionRules> {
    let name = match name {
        "vs_1_0" => "vs_1_1",
        "ps_1_0" => "ps_1_1",
        n => n,
    };
    VERSIONS.iter().find(|v| v.name == name)
}

/// The version lines D3DAssemble refuses although fxc's listings print them: the
/// compiler targets `vs_2_a`, `ps_2_a` and `ps_2_b`, whose programs are `vs_2_x` and
/// `ps_2_x` ("X2001: shader version expected"), with the version to write instead.
pub const COMPILER_TARGETS: &[(&str, &str)] = &[("vs_2_a", "vs_2_x"), ("ps_2_a", "ps_2_x"), ("ps_2_b", "ps_2_x")];

/// The versions D3DAssemble reads as another, with a warning.
pub const RETIRED: &[(&str, &str)] = &[("vs_1_0", "vs_1_1"), ("ps_1_0", "ps_1_1")];

impl VersionRules {
    /// The register file written `name`, if the version has it.
    pub fn register(&self, name: &str) -> Option<&'static RegFile> {
        self.registers.iter().find(|r| r.name == name)
    }
}
