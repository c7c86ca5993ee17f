//! The Direct3D 9 profile rules: a Shader Model 1–3 program (a raw `vs_*` / `ps_*`
//! token stream, or the Level 9 program of a `*_4_0_level_9_x` container's `Aon9`
//! chunk) against its own profile and a device's [`Caps9`].
//!
//! One pass over the program with [`d3dbc::Decoder::next_into`] (no allocation per
//! instruction) checks, from data:
//!
//! - that the version is a Direct3D 9 profile (V902);
//! - every instruction against the `d3dbc` table's version ranges (V903) and, in
//!   `vs_2_x` / `ps_2_x`, the device capabilities it needs (V904);
//! - every register against the profile's register files ([`profile::registers`]:
//!   type V905, count V906, relative addressing V907, declaration V908);
//! - result and source modifiers (V909) and pixel-shader source swizzles (V910);
//! - instruction slots against the profile's limit (V911);
//! - flow control: block structure (V912), subroutines and labels (V913), and the
//!   nesting counters of Microsoft's "Flow Control Nesting Limits" (vertex shaders) and
//!   "Flow Control Limitations" (pixel shaders) pages ([`flow`]: V914–V918, V919).
//!
//! and the rules the instruction and register pages state beyond the tables: `aL` only
//! inside a loop (V921), replicate swizzles (V922), reserved token bits (V923), read
//! ports ([`profile::read_ports`]: V924), operand restrictions
//! ([`profile::OPERAND_RULES`]: V925), declarations (V926), dependent texture reads
//! (V927) and the ps_1_x texture matrix sequences (V928).
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

pub mod aon9;
pub mod caps;
pub mod flow;
pub mod profile;

pub use caps::Caps9;

use crate::codes::Code;
use crate::diag::{Diagnostic, Location};
use d3dbc::decode::Step as DecStep;
use d3dbc::{
    Comparison, Decoder, FlowClass, FlowOp, Instruction, Opcode, Profile, Relative, ShaderKind, SlotClass, SrcParam,
    Version,
};
use flow::{Counter, Problem, Site, SiteKind, StructureKind};
use profile::{RegFile, SlotLimit};

/// True when `bytes` starts with a Shader Model 1–3 version token (`0xFFFE____` vertex,
/// `0xFFFF____` pixel), not a DXBC container.
pub fn is_d3dbc(bytes: &[u8]) -> bool {
    bytes.get(2..4).is_some_and(|b| b == [0xfe, 0xff] || b == [0xff, 0xff])
}

/// What the check learnt about the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct D3d9Info {
    /// The version token's shader kind and version.
    pub version: Version,
    /// The profile, when the version is one.
    pub profile: Option<Profile>,
    /// Instructions (comments not counted).
    pub instructions: usize,
    /// Instruction slots counted (arithmetic, texture), as the instruction pages give them.
    pub slots: (u32, u32),
}

/// Where an instruction is.
#[derive(Debug, Clone, Copy)]
struct At {
    index: usize,
    token: usize,
    offset: usize,
    mnemonic: &'static str,
}

impl At {
    fn loc(self) -> Location {
        Location::Instruction { index: self.index, token: self.token, offset: self.offset, mnemonic: self.mnemonic }
    }
}

/// Checks the program `bytes` (found at byte `base` of what the validator was given)
/// against its profile and `caps`, pushing every finding to `out`. `None` when the
/// program cannot be decoded far enough to know its version.
pub fn check(bytes: &[u8], base: usize, caps: &Caps9, out: &mut Vec<Diagnostic>) -> Option<D3d9Info> {
    run(bytes, base, caps, out).map(|r| r.0)
}

/// The flow walk [`check`] makes over program `bytes` for `caps`: the sites (one per
/// instruction) and the walk (the counter trace and the findings; see [`flow`]). `Err`
/// when the program cannot be decoded, is not a profile, or its profile has no
/// flow-control table (vs_1_1, ps_1_x, ps_2_0).
pub fn walk_program(bytes: &[u8], caps: &Caps9) -> Result<(Vec<Site>, flow::Walk), String> {
    let mut out = Vec::new();
    match run(bytes, 0, caps, &mut out) {
        Some((_, Some(walk), sites)) => Ok((sites, walk)),
        Some((info, None, _)) => match info.profile {
            Some(p) if out.iter().all(|d| d.code != Code::D3d9Unreadable) => {
                Err(format!("{} has no flow-control table", p.name()))
            }
            _ => Err(out.first().map_or_else(|| "not a profile".to_string(), |d| d.to_string())),
        },
        None => Err(out.first().map_or_else(String::new, |d| d.to_string())),
    }
}

type Run = (D3d9Info, Option<flow::Walk>, Vec<Site>);

fn run(bytes: &[u8], base: usize, caps: &Caps9, out: &mut Vec<Diagnostic>) -> Option<Run> {
    let mut dec = match Decoder::new(bytes) {
        Ok(d) => d,
        Err(e) => {
            let e = e.rebased(base);
            out.push(Diagnostic::new(Code::D3d9Unreadable, Location::Byte { offset: e.offset }, e.to_string()));
            return None;
        }
    };
    let version = dec.version();
    let mut info = D3d9Info { version, profile: version.profile(), instructions: 0, slots: (0, 0) };
    let Some(profile) = info.profile else {
        out.push(Diagnostic::new(
            Code::D3d9Profile,
            Location::Byte { offset: base },
            format!(
                "version {} is not a Direct3D 9 shader profile (vs_1_1, vs_2_0, vs_2_x, vs_2_sw, vs_3_0, vs_3_sw, ps_1_1 to ps_1_4, ps_2_0, ps_2_x, ps_2_sw, ps_3_0, ps_3_sw)",
                version.name()
            ),
        ));
        return Some((info, None, Vec::new()));
    };
    let mut pass = Pass::new(profile, caps, base);
    let mut ins = Instruction::new(Opcode::Nop);
    while let Some(step) = dec.next_into(&mut ins) {
        match step {
            Ok(DecStep::Comment(token, c)) => {
                if c.reserved {
                    out.push(Diagnostic::new(
                        Code::D3d9Reserved,
                        Location::Byte { offset: token_offset(base, token) },
                        format!("comment token {token}: bit 31 is set (reserved, must be 0)"),
                    ));
                }
            }
            Ok(DecStep::Instruction(token)) => {
                let offset = token_offset(base, token);
                let at = At { index: pass.index, token, offset, mnemonic: mnemonic(&ins, version) };
                pass.instruction(&ins, at, out);
                // Bounded by the number of tokens: never saturates.
                pass.index = pass.index.saturating_add(1);
            }
            Err(e) => {
                let e = e.rebased(base);
                pass.phase_alpha_finish(out);
                out.push(Diagnostic::new(Code::D3d9Unreadable, Location::Byte { offset: e.offset }, e.to_string()));
                info.instructions = pass.index;
                return Some((info, None, pass.sites));
            }
        }
    }
    let walk = pass.finish(out);
    info.instructions = pass.index;
    info.slots = (pass.arithmetic_total, pass.texture_total);
    Some((info, walk, pass.sites))
}

/// The byte offset of token `token` of a program found at byte `base`. Both are
/// positions in the input, so the sum only saturates on an input no slice can hold.
fn token_offset(base: usize, token: usize) -> usize {
    base.saturating_add(token.saturating_mul(4))
}

/// The walk's view of an instruction.
fn site(ins: &Instruction, at: At) -> Site {
    let label = |i: usize| ins.srcs.get(i).map(|s| s.reg.num as u32);
    let kind = match ins.flow_class() {
        FlowClass::None => SiteKind::Other,
        FlowClass::Label => match label(0) {
            Some(n) => SiteKind::Label(n),
            None => SiteKind::Other,
        },
        FlowClass::Op(op) => {
            let target = if op.is_call() {
                ins.srcs.first().filter(|s| s.reg.ty == d3dbc::RegisterType::Label).map(|s| s.reg.num as u32)
            } else {
                None
            };
            SiteKind::Flow { op, target }
        }
    };
    Site { kind, index: at.index, token: at.token, offset: at.offset, mnemonic: at.mnemonic }
}

/// fxc's mnemonic with the comparison or `texld` suffix, as one static string (what a
/// [`Location`] holds; `d3dbc`'s `Instruction::mnemonic` gives it in two parts).
fn mnemonic(ins: &Instruction, version: Version) -> &'static str {
    const IF: [&str; 6] = ["if_gt", "if_eq", "if_ge", "if_lt", "if_ne", "if_le"];
    const BREAK: [&str; 6] = ["break_gt", "break_eq", "break_ge", "break_lt", "break_ne", "break_le"];
    const SETP: [&str; 6] = ["setp_gt", "setp_eq", "setp_ge", "setp_lt", "setp_ne", "setp_le"];
    // Comparisons are 1-6: the suffixed names are in that order.
    let cmp = ins.comparison().and_then(|c: Comparison| usize::from(c.to_u8()).checked_sub(1));
    let suffixed = match ins.opcode {
        Opcode::Ifc => Some(&IF),
        Opcode::Breakc => Some(&BREAK),
        Opcode::Setp => Some(&SETP),
        _ => None,
    };
    if let Some(&name) = suffixed.zip(cmp).and_then(|(names, i)| names.get(i)) {
        return name;
    }
    match ins.opcode {
        Opcode::Tex if version.major >= 2 && ins.is_bias() => "texldb",
        Opcode::Tex if version.major >= 2 && ins.is_project() => "texldp",
        _ => ins.opcode.info().mnemonic_for(version.kind, version.ver()),
    }
}

/// The state of the one pass.
struct Pass<'c> {
    profile: Profile,
    kind: ShaderKind,
    ver: u16,
    caps: &'c Caps9,
    base: usize,
    index: usize,
    sites: Vec<Site>,
    /// Declared registers (bit n = register n) of the files that need a declaration.
    declared: [u64; 6],
    arithmetic: u32,
    texture: u32,
    arithmetic_total: u32,
    texture_total: u32,
    slots_reported: bool,
    /// Instruction indices already refused as not in the profile (V903).
    refused: Vec<usize>,
    /// The loop counter rule (V921): see [`LoopCounter`].
    al: LoopCounter,
    /// An executable instruction (not `dcl`/`def*`) was seen: no `dcl` after it (V926).
    executable: bool,
    /// Semantics declared (usage << 4 | index) for ps_3_0 inputs and vs_3_0 outputs.
    semantics: [u16; 16],
    /// The vertex-input usage+index pairs declared so far (one bit per index).
    input_semantics: [u16; 16],
    /// ps_2_0: the oC# written so far, and the last instruction writing one.
    color_writes: (u8, Option<At>),
    /// Components declared of each ps_3_0 input / vs_3_0 output register (V926).
    dcl_masks: [u8; 16],
    /// Uses of each [`profile::OPERAND_RULES`] row with a per-shader maximum; whether a
    /// ps_1_4 `phase` was seen.
    rule_uses: Vec<u32>,
    after_phase: bool,
    /// ps_1_4: the r# written by texture instructions in the current phase.
    tex_block_writes: u32,
    /// ps_1_4, after `phase`: the r# whose alpha the phase marker lost and no
    /// instruction has written since (bit n: r#n).
    alpha_lost: u32,
    /// ps_1_4 after `phase`: the last instruction, checked for V930 when the next one
    /// says whether it is the first member of a co-issued pair.
    alpha_held: Option<(Instruction, At)>,
    /// A ps_1_x texm3x2/texm3x3 sequence in progress (V928).
    tex_matrix: Option<TexMatrix>,
    /// Dependent-read order each temporary depends on (V927), and the temporaries written.
    dependent: [u8; 32],
    temps_written: u64,
}

/// What the `aL` rule (V921) needs: the `loop` blocks open at the current instruction
/// (in the current routine), the routine the instruction is in, the `aL` reads outside a
/// loop in subroutines (decided at the end), and the calls with whether each is inside a
/// loop.
#[derive(Default)]
struct LoopCounter {
    /// `loop` blocks open in the current routine (`rep` does not set aL).
    depth: u32,
    /// The label of the current subroutine; `None` in the main program.
    routine: Option<u32>,
    /// `aL` reads outside a loop in a subroutine: (where, the subroutine's label).
    pending: Vec<(At, u32)>,
    /// Calls: (the calling routine, the label called, inside a loop of the caller).
    calls: Vec<(Option<u32>, u32, bool)>,
    /// Labels in the order they are defined.
    labels: Vec<u32>,
}

/// A texm3x2 / texm3x3 sequence in progress: its rows (2 or 3), the pads seen, the first
/// destination t(m), the source t(n), and where it started.
#[derive(Clone, Copy)]
struct TexMatrix {
    rows: u32,
    pads: u32,
    m: u32,
    n: u32,
    at: At,
}

/// The files that need a declaration, and their slot in `declared`.
fn dcl_slot(file: RegFile) -> Option<usize> {
    Some(match file {
        RegFile::Input => 0,
        RegFile::Texture => 1,
        RegFile::Sampler => 2,
        RegFile::Output => 3,
        RegFile::Face => 4,
        RegFile::PixelPos => 5,
        _ => return None,
    })
}

impl<'c> Pass<'c> {
    fn new(profile: Profile, caps: &'c Caps9, base: usize) -> Pass<'c> {
        let v = profile.version();
        Pass {
            profile,
            kind: v.kind,
            ver: v.ver(),
            caps,
            base,
            index: 0,
            sites: Vec::new(),
            declared: [0; 6],
            arithmetic: 0,
            texture: 0,
            arithmetic_total: 0,
            texture_total: 0,
            slots_reported: false,
            refused: Vec::new(),
            al: LoopCounter::default(),
            executable: false,
            semantics: [0; 16],
            input_semantics: [0; 16],
            color_writes: (0, None),
            dcl_masks: [0; 16],
            rule_uses: vec![0; profile::OPERAND_RULES.len()],
            after_phase: false,
            tex_block_writes: 0,
            alpha_lost: 0,
            alpha_held: None,
            tex_matrix: None,
            dependent: [0; 32],
            temps_written: 0,
        }
    }

    fn name(&self) -> &'static str {
        self.profile.name()
    }

    /// The declared registers of `file`, when it needs a declaration.
    fn declared_mut(&mut self, file: RegFile) -> Option<&mut u64> {
        dcl_slot(file).and_then(|slot| self.declared.get_mut(slot))
    }

    /// `vs_2_x` or `ps_2_x`: the profiles whose features depend on caps.
    fn is_2_x(&self) -> bool {
        matches!(self.profile, Profile::Vs2_x | Profile::Ps2_x)
    }

    fn instruction(&mut self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        let info = ins.opcode.info();
        self.sites.push(site(ins, at));
        if !info.exists_in(self.kind, self.ver) {
            self.refused.push(at.index);
            out.push(Diagnostic::new(
                Code::D3d9Instruction,
                at.loc(),
                format!("`{}` does not exist in {}", at.mnemonic, self.name()),
            ));
        } else {
            self.needs_caps(ins, at, out);
            self.operand_types(ins, at, out);
            self.replicates(ins, at, out);
            self.operands(ins, at, out);
        }
        self.slots(ins, at, out);
        self.loop_counter(ins, at, out);
        self.reserved(ins, at, out);
        let decl = matches!(ins.opcode, Opcode::Dcl | Opcode::Def | Opcode::Defi | Opcode::Defb);
        let flow_operands = matches!(info.flow, d3dbc::Flow::Call | d3dbc::Flow::Callnz | d3dbc::Flow::Label);
        if !decl && info.exists_in(self.kind, self.ver) {
            self.read_ports(ins, at, out);
        }
        if matches!(self.profile, Profile::Ps1_1 | Profile::Ps1_2 | Profile::Ps1_3) {
            self.tex_matrix(ins, at, out);
        }
        if decl && ins.opcode != Opcode::Dcl && self.executable && profile::is_ps1(self.profile) {
            // D3DAssemble's errors X5063 / X5155: "Const declaration (def) must appear
            // before other instructions" (ps_1_x).
            out.push(Diagnostic::new(
                Code::D3d9Dcl,
                at.loc(),
                format!("`{}` after the first instruction ({}: every def comes first)", at.mnemonic, self.name()),
            ));
        }
        if ins.opcode == Opcode::Dcl {
            self.dcl(ins, at, out);
        } else if !decl {
            self.executable = true;
            self.dependent_reads(ins, at, out);
        }
        // Destination (`texkill`'s is the register it tests: read, not written).
        if let Some(dst) = &ins.dst {
            let written = ins.opcode != Opcode::Texkill;
            if let Some(file) = self.register(dst.reg, &dst.rel, written, decl, at, out) {
                if ins.opcode == Opcode::Dcl {
                    if let Some(declared) = self.declared_mut(file.0) {
                        if file.1 < 64 {
                            *declared |= 1 << file.1;
                        }
                    }
                } else if !decl {
                    if self.profile == Profile::Ps2_0 && file.0 == RegFile::ColorOut && file.1 < 8 {
                        // "Registers - ps_2_0" (oC#: written once each); D3DAssemble's error
                        // X5411 "oCn registers can only be written at most once each".
                        let bit = 1u8 << file.1;
                        if self.color_writes.0 & bit != 0 {
                            out.push(Diagnostic::new(
                                Code::D3d9RegisterType,
                                at.loc(),
                                format!("oC{} is written a second time (ps_2_0 writes each oC# at most once)", file.1),
                            ));
                        }
                        self.color_writes = (self.color_writes.0 | bit, Some(at));
                    }
                    if self.profile == Profile::Vs1_1 && file.0 == RegFile::Addr && dst.mask.0 != 1 {
                        // "Only .x channel is available" (Registers - vs_1_1, note 3).
                        out.push(Diagnostic::new(
                            Code::D3d9RegisterType,
                            at.loc(),
                            format!("a0 has only its .x channel in vs_1_1; written {}", mask_text(dst.mask.0)),
                        ));
                    }
                    if let Err(why) = profile::result_modifiers(self.profile, dst.modifiers.0, dst.shift) {
                        out.push(Diagnostic::new(Code::D3d9Modifier, at.loc(), format!("{why} ({})", self.name())));
                    } else if let Some(why) = self.modifier_on_instruction(ins, dst.modifiers) {
                        out.push(Diagnostic::new(
                            Code::D3d9Modifier,
                            at.loc(),
                            format!("`{}`: {why} ({})", at.mnemonic, self.name()),
                        ));
                    } else if dst.modifiers.0 & 1 != 0
                        && file.0.is_output()
                        && matches!(self.profile, Profile::Ps2_0 | Profile::Ps2_x | Profile::Ps2_sw)
                    {
                        out.push(Diagnostic::new(
                            Code::D3d9Modifier,
                            at.loc(),
                            format!(
                                "_sat on an instruction writing {} is not allowed in {}",
                                file.0.name(),
                                self.name()
                            ),
                        ));
                    }
                }
            }
        }
        // Predicate.
        if let Some(p) = &ins.predicate {
            if let Some((file, _)) = self.register(p.reg, &p.rel, false, false, at, out) {
                if file != RegFile::Predicate {
                    out.push(Diagnostic::new(
                        Code::D3d9RegisterType,
                        at.loc(),
                        format!("the predicate of a predicated instruction must be p0, not {}", file.name()),
                    ));
                }
                self.source_modifier(p, file, at, out);
            }
        }
        // Sources.
        let dst_w_only = ins.dst.is_some_and(|d| d.mask.0 == 8);
        for (i, src) in ins.srcs.iter().enumerate() {
            if flow_operands && i == 0 {
                // The label operand: its range is a subroutine rule (V913).
                if src.reg.ty != d3dbc::RegisterType::Label {
                    out.push(Diagnostic::new(
                        Code::D3d9RegisterType,
                        at.loc(),
                        format!("the first operand of `{}` must be a label l#", at.mnemonic),
                    ));
                }
                continue;
            }
            let Some((file, _)) = self.register(src.reg, &src.rel, false, false, at, out) else { continue };
            self.source_modifier(src, file, at, out);
            if let Some(why) = divide_modifier(ins.opcode, src, file) {
                out.push(Diagnostic::new(
                    Code::D3d9Modifier,
                    at.loc(),
                    format!("`{}`: {why} ({})", at.mnemonic, self.name()),
                ));
            }
            let swizzled = !matches!(
                file,
                RegFile::Sampler | RegFile::Label | RegFile::ConstBool | RegFile::ConstInt | RegFile::Loop
            ) && ins.dst.is_some()
                && !decl;
            if swizzled {
                if let Err(why) = profile::swizzle(self.profile, self.caps, src.swizzle, dst_w_only) {
                    out.push(Diagnostic::new(
                        Code::D3d9Swizzle,
                        at.loc(),
                        format!("source {} has swizzle {}: {why}", i, swizzle_text(src.swizzle)),
                    ));
                }
            }
        }
    }

    /// The register types the flow-control instructions take, and where the constant
    /// integer and boolean registers may appear: `if b#` / `if [!]p0`; `callnz l#, b#` /
    /// `callnz l#, [!]p0`; `rep i#`; `loop aL, i#`; `breakp [!]p0`; `setp_comp p0, ...`;
    /// `i#` "used only by loop and rep", `b#` only by the static flow-control
    /// instructions (`if bool`, `callnz bool`); no predication on a flow-control
    /// instruction (the `setp_comp` page: "This cannot be a static or dynamic flow
    /// control instruction"). The walk reads `if` and `callnz` by their operand's type,
    /// so an `if r0.x` must not pass as an `if bool`.
    fn operand_types(&self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        // The file of a register the profile has (the others are reported by `register`).
        let file = |r: d3dbc::Register| {
            profile::classify(self.kind, self.ver, r)
                .ok()
                .map(|x| x.0)
                .filter(|&f| f != RegFile::Label && profile::register(self.profile, f).is_some())
        };
        let mut refuse = |message: String| out.push(Diagnostic::new(Code::D3d9RegisterType, at.loc(), message));
        let flow = ins.opcode.info().flow;
        // (operand index, the files it takes, how the page writes it), for the operands
        // whose type the instruction fixes.
        let fixed: &[(usize, &[RegFile], &str)] = match flow {
            d3dbc::Flow::If => &[(0, &[RegFile::ConstBool, RegFile::Predicate], "b# or p0")],
            d3dbc::Flow::Callnz => &[(1, &[RegFile::ConstBool, RegFile::Predicate], "b# or p0")],
            d3dbc::Flow::Rep => &[(0, &[RegFile::ConstInt], "i#")],
            d3dbc::Flow::Loop => &[(0, &[RegFile::Loop], "aL"), (1, &[RegFile::ConstInt], "i#")],
            d3dbc::Flow::Breakp => &[(0, &[RegFile::Predicate], "p0")],
            _ => &[],
        };
        for &(i, files, written) in fixed {
            if let Some(src) = ins.srcs.get(i) {
                match file(src.reg) {
                    Some(f) if files.contains(&f) => {}
                    None => {}
                    Some(f) => refuse(format!("operand {i} of `{}` must be {written}, not {}", at.mnemonic, f.name())),
                }
            }
        }
        if flow == d3dbc::Flow::Setp {
            if let Some(f) = ins.dst.as_ref().and_then(|d| file(d.reg)) {
                if f != RegFile::Predicate {
                    refuse(format!("`{}` writes the predicate register p0, not {}", at.mnemonic, f.name()));
                }
            }
        }
        // "Registers - ps_3_0": vFace is read only by the comparisons (if_comp,
        // break_comp, setp_comp) and as the condition of cmp (D3DAssemble's error X5692).
        for (i, src) in ins.srcs.iter().enumerate() {
            if file(src.reg) == Some(RegFile::Face)
                && !matches!(flow, d3dbc::Flow::IfComp | d3dbc::Flow::BreakComp | d3dbc::Flow::Setp)
                && !(ins.opcode == Opcode::Cmp && i == 0)
            {
                refuse(format!(
                    "operand {i} of `{}` reads vFace: vFace is read by if_comp, break_comp, setp_comp and as the condition of cmp only",
                    at.mnemonic
                ));
            }
            // s# is read by the texture-load instructions only (D3DAssemble's errors
            // X5199, X5679, X5681: "Invalid source register type").
            if file(src.reg) == Some(RegFile::Sampler)
                && !matches!(ins.opcode, Opcode::Tex | Opcode::Texldl | Opcode::Texldd)
            {
                refuse(format!("operand {i} of `{}` reads a sampler: s# is read by texld* only", at.mnemonic));
            }
        }
        // "mova - vs": from vs_2_0, only mova writes a0 (D3DAssemble's errors X5711, X5712).
        if self.kind == ShaderKind::Vertex
            && self.ver >= d3dbc::table::V2_0
            && ins.opcode != Opcode::Mova
            && ins.dst.as_ref().and_then(|d| file(d.reg)) == Some(RegFile::Addr)
        {
            refuse(format!("`{}` writes a0: from vs_2_0 only mova writes the address register", at.mnemonic));
        }
        // "def - vs/ps", "defi - vs/ps", "defb - vs/ps": the destination is c#, i#, b#.
        let defined = match ins.opcode {
            Opcode::Def => Some((RegFile::Const, "c#")),
            Opcode::Defi => Some((RegFile::ConstInt, "i#")),
            Opcode::Defb => Some((RegFile::ConstBool, "b#")),
            _ => None,
        };
        if let (Some((want, name)), Some(f)) = (defined, ins.dst.as_ref().and_then(|d| file(d.reg))) {
            if f != want {
                refuse(format!("`{}` defines a {name} register, not {}", at.mnemonic, f.name()));
            }
        }
        // Integer and boolean constants elsewhere (their definitions aside).
        if !matches!(ins.opcode, Opcode::Defi | Opcode::Defb) {
            for (i, src) in ins.srcs.iter().enumerate() {
                if fixed.iter().any(|&(k, ..)| k == i) {
                    continue;
                }
                match file(src.reg) {
                    Some(RegFile::ConstInt) => {
                        refuse(format!("i# is read by `loop` and `rep` only, not by `{}`", at.mnemonic))
                    }
                    Some(RegFile::ConstBool) => refuse(format!(
                        "b# is read by the static flow-control instructions (`if b#`, `callnz l#, b#`) only, not by `{}`",
                        at.mnemonic
                    )),
                    _ => {}
                }
            }
        }
        if ins.predicate.is_some() && !matches!(flow, d3dbc::Flow::None | d3dbc::Flow::Setp) {
            refuse(format!(
                "`{}` is a flow-control instruction: only arithmetic and texture instructions are predicated",
                at.mnemonic
            ));
        }
    }

    /// `aL` only inside a `loop` block (V921): the Loop Counter Register pages ("it is
    /// invalid to use it outside the loop"); the `loop` page ("can be used for relative
    /// addressing ... inside the loop block"). A read as a source or as the index of a
    /// relatively addressed register counts; `loop aL, i#`'s own operand does not. In
    /// the main program the `loop` blocks are those around the read; a subroutine's
    /// read outside its own loops is accepted when every call of the subroutine is
    /// inside a loop (or in a subroutine so accepted), decided at the end.
    fn loop_counter(&mut self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        let class = ins.flow_class();
        match class {
            FlowClass::Label => {
                self.al.depth = 0;
                self.al.routine = ins.srcs.first().map(|s| s.reg.num as u32);
                if let Some(l) = self.al.routine {
                    self.al.labels.push(l);
                }
                return;
            }
            FlowClass::Op(op) if op.is_call() => {
                if let Some(l) = ins.srcs.first().filter(|s| s.reg.ty == d3dbc::RegisterType::Label) {
                    self.al.calls.push((self.al.routine, l.reg.num as u32, self.al.depth > 0));
                }
            }
            _ => {}
        }
        let is_al = |r: &d3dbc::Register| r.ty == d3dbc::RegisterType::Loop;
        let via = |rel: &Relative| matches!(rel, Relative::Token(t) if is_al(&t.reg));
        let skip = usize::from(class == FlowClass::Op(FlowOp::Loop));
        let reads = ins.srcs.iter().skip(skip).any(|s| is_al(&s.reg) || via(&s.rel))
            || ins.dst.is_some_and(|d| via(&d.rel))
            || ins.predicate.is_some_and(|p| via(&p.rel));
        // In a profile without aL the read is refused as a register (V905, V907).
        let has_al = profile::register(self.profile, RegFile::Loop).is_some();
        if reads && has_al && self.al.depth == 0 {
            match self.al.routine {
                None => out.push(Diagnostic::new(
                    Code::D3d9LoopCounter,
                    at.loc(),
                    format!("`{}` reads aL outside a loop...endloop block (main program)", at.mnemonic),
                )),
                Some(l) => self.al.pending.push((at, l)),
            }
        }
        match class {
            // Bounded by the number of instructions: never saturates.
            FlowClass::Op(FlowOp::Loop) => self.al.depth = self.al.depth.saturating_add(1),
            FlowClass::Op(FlowOp::Endloop) => self.al.depth = self.al.depth.saturating_sub(1),
            _ => {}
        }
    }

    /// The subroutine `aL` reads (V921), once every call is known.
    fn loop_counter_finish(&mut self, out: &mut Vec<Diagnostic>) {
        if self.al.pending.is_empty() {
            return;
        }
        // Calls go forward only (V913), so a caller's label is defined before the
        // label it calls: one pass in definition order decides every label.
        use std::collections::HashMap;
        let mut callers: HashMap<u32, Vec<(Option<u32>, bool)>> = HashMap::new();
        for &(from, to, inside) in &self.al.calls {
            callers.entry(to).or_default().push((from, inside));
        }
        let mut in_loop: HashMap<u32, bool> = HashMap::new();
        for &l in &self.al.labels {
            let decided = callers.get(&l).is_some_and(|cs| {
                cs.iter().all(|&(from, inside)| {
                    inside || from.is_some_and(|f| f != l && in_loop.get(&f).copied().unwrap_or(false))
                })
            });
            // A label defined twice (V913) keeps its first answer.
            in_loop.entry(l).or_insert(decided);
        }
        for &(at, l) in &self.al.pending {
            if !in_loop.get(&l).copied().unwrap_or(false) {
                out.push(Diagnostic::new(
                    Code::D3d9LoopCounter,
                    at.loc(),
                    format!(
                        "`{}` reads aL outside a loop...endloop block (subroutine l{l}, which is not called from inside a loop only)",
                        at.mnemonic
                    ),
                ));
            }
        }
    }

    /// Operands that must use a replicate swizzle (V922): `if_comp` and `break_comp`
    /// sources ("Replicate swizzle is required to select a component"); the `p0` of `if
    /// pred`, `callnz pred`, `breakp` ("the required replicate swizzle on p0"); and the
    /// address token of every register addressed through `a0` (one component; `aL` is
    /// one-dimensional).
    fn replicates(&self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        let replicate = |s: d3dbc::Swizzle| {
            let c = s.components();
            c.iter().all(|&x| x == c[0])
        };
        let operands: &[usize] = match ins.flow_class() {
            FlowClass::Op(FlowOp::IfComp) | FlowClass::Op(FlowOp::BreakComp) => &[0, 1],
            FlowClass::Op(FlowOp::IfPred) | FlowClass::Op(FlowOp::BreakP) => &[0],
            FlowClass::Op(FlowOp::CallnzPred) => &[1],
            _ => &[],
        };
        for &i in operands {
            if let Some(src) = ins.srcs.get(i) {
                // vFace is a scalar: its swizzle selects nothing (recorded D3DAssemble
                // verdict: `if_gt vFace, c0.x` is accepted).
                let face = profile::classify(self.kind, self.ver, src.reg).is_ok_and(|x| x.0 == RegFile::Face);
                if !replicate(src.swizzle) && !face {
                    out.push(Diagnostic::new(
                        Code::D3d9Replicate,
                        at.loc(),
                        format!(
                            "operand {i} of `{}` has swizzle {}: it needs a replicate swizzle (.x, .y, .z or .w)",
                            at.mnemonic,
                            swizzle_text(src.swizzle)
                        ),
                    ));
                }
            }
        }
        // sincos in 2_0/2_x (and 2_sw): "only replicate swizzle (.x | .y | .z | .w) is
        // allowed" on its predicate.
        if ins.opcode == Opcode::Sincos && self.ver < d3dbc::table::V3_0 {
            if let Some(p) = ins.predicate.as_ref().filter(|p| !replicate(p.swizzle)) {
                out.push(Diagnostic::new(
                    Code::D3d9Replicate,
                    at.loc(),
                    format!(
                        "the predicate of `sincos` has swizzle {}: in {} it needs a replicate swizzle",
                        swizzle_text(p.swizzle),
                        self.name()
                    ),
                ));
            }
        }
        let rels = ins.dst.iter().map(|d| d.rel).chain(ins.predicate.iter().map(|p| p.rel));
        for rel in rels.chain(ins.srcs.iter().map(|s| s.rel)) {
            // aL is one-dimensional (its swizzle selects nothing); a0 has four components.
            if let Relative::Token(t) = rel {
                if t.reg.ty == d3dbc::RegisterType::AddrOrTexture && !replicate(t.swizzle) {
                    out.push(Diagnostic::new(
                        Code::D3d9Replicate,
                        at.loc(),
                        format!(
                            "the a0 of a relative address in `{}` has swizzle {}: it selects one component",
                            at.mnemonic,
                            swizzle_text(t.swizzle)
                        ),
                    ));
                }
            }
        }
    }

    /// Bits the token format reserves (V923; Microsoft's "Shader Code Tokens"): the
    /// instruction token's bits 29 and 31 (24–28 too in Shader Model 1 streams), its
    /// co-issue bit outside pixel 1.x, controls an opcode does not define; parameter
    /// tokens' bits 14–15 and bit 31 (1); relative-addressing tokens' bits 13–15 and 31;
    /// the `dcl` token's bits outside usage, index and texture type, and its texture
    /// type outside a sampler's declaration.
    fn reserved(&self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        let mut report = |what: String| {
            out.push(Diagnostic::new(Code::D3d9Reserved, at.loc(), format!("`{}`: {what}", at.mnemonic)))
        };
        if ins.reserved != 0 {
            report(format!("instruction token bits {:#010x} are set (reserved, must be 0)", ins.reserved));
        }
        let ps1 = self.kind == ShaderKind::Pixel && self.ver < d3dbc::table::V2_0;
        if ins.coissue && !ps1 {
            report(format!(
                "instruction token bit 30 (co-issue) is set; co-issue exists in ps_1_1 to ps_1_4 only, not {}",
                self.name()
            ));
        }
        let defined = match ins.opcode.info().controls {
            d3dbc::table::Controls::None => ins.controls == 0,
            d3dbc::table::Controls::Compare => (1..=6).contains(&ins.controls),
            d3dbc::table::Controls::TexLd if self.kind == ShaderKind::Pixel && self.ver >= d3dbc::table::V2_0 => {
                ins.controls <= 2
            }
            d3dbc::table::Controls::TexLd => ins.controls == 0,
        };
        if !defined {
            report(format!("instruction controls (bits 16-23) {:#04x} are not defined for this opcode", ins.controls));
        }
        let param = |r: u32| -> Option<String> {
            match (r & 0x8000_0000 != 0, r & 0x7fff_ffff) {
                (false, 0) => None,
                (true, 0) => Some("bit 31 is 0 (the format requires 1)".to_string()),
                (b31, bits) => Some(format!(
                    "bits {bits:#010x} are set (reserved, must be 0){}",
                    if b31 { " and bit 31 is 0 (must be 1)" } else { "" }
                )),
            }
        };
        let mut check = |what: &str, r: u32, rel: &Relative| {
            if let Some(m) = param(r) {
                report(format!("{what} token: {m}"));
            }
            if let Relative::Token(t) = rel {
                if let Some(m) = param(t.reserved) {
                    report(format!("relative-addressing token of the {what}: {m}"));
                }
            }
        };
        if let Some(d) = &ins.dst {
            check("destination", d.reserved, &d.rel);
        }
        if let Some(p) = &ins.predicate {
            check("predicate", p.reserved, &p.rel);
        }
        for s in &ins.srcs {
            check("source", s.reserved, &s.rel);
        }
        if let d3dbc::Body::Dcl(d) = &ins.body {
            if let Some(m) = param(d.reserved) {
                report(format!("dcl token: {m}"));
            }
            // Bits 27-30 are the texture type of a sampler's dcl token and reserved in
            // every other register's (D3DAssemble's validator: error X5487, "Reserved
            // bit(s) set in dcl info token").
            let sampler = ins.dst.as_ref().is_some_and(|dst| {
                matches!(profile::classify(self.kind, self.ver, dst.reg), Ok((RegFile::Sampler, _)))
            });
            if d.texture_type != 0 && !sampler {
                report(format!(
                    "dcl token: bits 27-30 (texture type {}) are set on a register that is not a sampler (reserved, must be 0)",
                    d.texture_type
                ));
            }
        }
    }

    /// Read ports (V924): per register file, the number of different registers the
    /// sources name against [`profile::read_ports`]. Two reads are of the same register
    /// when they name the same file and index with the same relative addressing.
    fn read_ports(&self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        let ports = profile::read_ports(self.profile);
        if ports.is_empty() {
            return;
        }
        // (file, index, relative addressing) of each different source, at most four, in
        // the order first read.
        let mut keys: [Option<(RegFile, u32, Relative)>; d3dbc::MAX_SRCS] = [None; d3dbc::MAX_SRCS];
        // sincos's Shader Model 2 constants (D3DSINCOSCONST1, D3DSINCOSCONST2) are two
        // different c# by definition (its page): not counted.
        let counted = if ins.opcode == Opcode::Sincos { 1 } else { d3dbc::MAX_SRCS };
        for src in ins.srcs.iter().take(counted) {
            let Ok((file, index)) = profile::classify(self.kind, self.ver, src.reg) else { continue };
            let key = Some((file, index, src.rel));
            if !keys.contains(&key) {
                if let Some(free) = keys.iter_mut().find(|k| k.is_none()) {
                    *free = key;
                }
            }
        }
        let seen = || keys.iter().flatten();

        for (i, &(file, ..)) in seen().enumerate() {
            if seen().take(i).any(|k| k.0 == file) {
                continue; // Counted with the first of its file.
            }
            let Some(&(_, limit)) = ports.iter().find(|p| p.0 == file) else { continue };
            let count = seen().filter(|k| k.0 == file).count();
            if count as u32 <= limit {
                continue;
            }
            let regs: Vec<String> = seen()
                .filter(|k| k.0 == file)
                .map(|&(f, n, rel)| {
                    let name = f.name().trim_end_matches('#');
                    let rel = if rel.is_relative() { "[rel]" } else { "" };
                    format!("{name}{n}{rel}")
                })
                .collect();
            out.push(Diagnostic::new(
                Code::D3d9ReadPorts,
                at.loc(),
                format!(
                    "`{}` reads {count} different {} registers ({}); {} has {limit} read port{} in {}",
                    at.mnemonic,
                    file.name(),
                    regs.join(", "),
                    file.name(),
                    if limit == 1 { "" } else { "s" },
                    self.name()
                ),
            ));
        }
    }

    /// The operand restrictions of the instruction pages (V925), from
    /// [`profile::OPERAND_RULES`].
    fn operands(&mut self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        if ins.opcode == Opcode::Phase {
            self.after_phase = true;
            self.tex_block_writes = 0;
        }
        if self.profile == Profile::Ps1_4 {
            self.tex_block(ins, at, out);
            self.phase_alpha(ins, at, out);
        }
        for (i, rule) in profile::operand_rules(ins.opcode, self.profile) {
            // One use per instruction: bounded by the input's length.
            let Some(uses) = self.rule_uses.get_mut(i) else { continue };
            *uses = uses.saturating_add(1);
            let uses = *uses;
            self.operand_rule(rule, uses, ins, at, out);
        }
    }

    /// ps_1_4: the phase marker loses the alpha of every r# (the phase - ps page:
    /// hardware may discard it; D3DAssemble's error X5119 "Read of uninitialized
    /// component ... values previously written to alpha in any r# register ... are
    /// lost. In order to read alpha from an r# register after the phase marker, write
    /// to it first"): after `phase`, an instruction that reads an r#'s alpha before one
    /// writes it is refused (V930). The components read are those of the destination's
    /// write mask through the swizzle for per-component instructions, x, y and z for
    /// `dp3`, `texld` and `texcrd` (w too with `_dw`), all four for `dp4`; other
    /// instructions are not checked.
    ///
    /// Of a co-issued pair (`+` on the second), the member whose mask is not `.a` runs
    /// in the colour pipe: it reads and writes only r, g and b. Whether an instruction
    /// is the first member of a pair shows only at the next one, so each instruction
    /// is checked when the next arrives (or at the end of the program).
    fn phase_alpha(&mut self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        if let Some((prev, prev_at)) = self.alpha_held.take() {
            let colour = ins.coissue && prev.dst.as_ref().is_some_and(|d| d.mask.0 & 0xf != 0b1000);
            self.alpha_check(&prev, prev_at, colour, out);
        }
        if ins.opcode == Opcode::Phase {
            // r0..r5, the temporaries of ps_1_4.
            self.alpha_lost = 0x3f;
            return;
        }
        if self.alpha_lost != 0 {
            self.alpha_held = Some((ins.clone(), at));
        }
    }

    /// The end of the program (or of what could be read): checks the instruction
    /// [`Self::phase_alpha`] holds.
    fn phase_alpha_finish(&mut self, out: &mut Vec<Diagnostic>) {
        if let Some((prev, prev_at)) = self.alpha_held.take() {
            self.alpha_check(&prev, prev_at, false, out);
        }
    }

    fn alpha_check(&mut self, ins: &Instruction, at: At, colour: bool, out: &mut Vec<Diagnostic>) {
        let mut dst_mask = ins.dst.as_ref().map_or(0, |d| d.mask.0 & 0xf);
        // The second member of a pair is the colour half when its mask is not `.a`.
        if colour || (ins.coissue && dst_mask != 0b1000) {
            dst_mask &= 0b0111;
        }
        for src in ins.srcs.iter() {
            if src.reg.ty != d3dbc::RegisterType::Temp || u32::from(src.reg.num) >= 6 {
                continue;
            }
            let r = u32::from(src.reg.num);
            if self.alpha_lost & (1 << r) == 0 {
                continue;
            }
            // The source components the instruction reads (positions before the swizzle).
            let positions: u8 = match ins.opcode {
                Opcode::Dp3 => 0b0111,
                Opcode::Dp4 => 0b1111,
                Opcode::Tex | Opcode::Texcoord if src.modifier == d3dbc::SrcModifier::Dw => 0b1111,
                Opcode::Tex | Opcode::Texcoord => 0b0111,
                Opcode::Mov
                | Opcode::Add
                | Opcode::Sub
                | Opcode::Mul
                | Opcode::Mad
                | Opcode::Lrp
                | Opcode::Cnd
                | Opcode::Cmp => dst_mask,
                _ => 0,
            };
            let reads_alpha =
                src.swizzle.components().into_iter().enumerate().any(|(i, c)| positions & (1 << i) != 0 && c == 3);
            if reads_alpha {
                out.push(Diagnostic::new(
                    Code::D3d9PhaseAlpha,
                    at.loc(),
                    format!(
                        "`{}` reads the alpha of r{r}, which the phase marker lost: after `phase`, write r{r}.a before reading it",
                        at.mnemonic
                    ),
                ));
            }
        }
        if let Some(dst) = &ins.dst {
            if ins.opcode != Opcode::Texkill
                && dst.reg.ty == d3dbc::RegisterType::Temp
                && u32::from(dst.reg.num) < 6
                && dst_mask & 0b1000 != 0
            {
                self.alpha_lost &= !(1 << u32::from(dst.reg.num));
            }
        }
    }

    /// ps_1_4: "Dependent reads are not permitted within a single block of tex*
    /// instructions" (D3DAssemble's error X5122): a `texld`, `texcrd` or `texdepth`
    /// reads no r# an earlier one of the same phase wrote (`texdepth` reads its own).
    fn tex_block(&mut self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        if !matches!(ins.opcode, Opcode::Tex | Opcode::Texcoord | Opcode::Texdepth) {
            return;
        }
        let temp = |r: &d3dbc::Register| (r.ty == d3dbc::RegisterType::Temp && r.num < 32).then_some(r.num as u32);
        let mut read: Vec<u32> = ins.srcs.iter().filter_map(|s| temp(&s.reg)).collect();
        let written = ins.dst.as_ref().and_then(|d| temp(&d.reg));
        if ins.opcode == Opcode::Texdepth {
            read.extend(written);
        }
        if let Some(r) = read.iter().find(|&&r| self.tex_block_writes & (1 << r) != 0) {
            out.push(Diagnostic::new(
                Code::D3d9Operands,
                at.loc(),
                format!(
                    "`{}` reads r{r}, written by an earlier texture instruction of the same phase (a dependent read needs a phase between)",
                    at.mnemonic
                ),
            ));
        }
        if let Some(w) = written {
            self.tex_block_writes |= 1 << w;
        }
    }

    fn operand_rule(
        &self,
        rule: &profile::OperandRule,
        uses: u32,
        ins: &Instruction,
        at: At,
        out: &mut Vec<Diagnostic>,
    ) {
        let mut refuse = |m: String| {
            out.push(Diagnostic::new(Code::D3d9Operands, at.loc(), format!("`{}`: {m} ({})", at.mnemonic, self.name())))
        };
        let same = |a: &d3dbc::Register, arel: &Relative, b: &d3dbc::Register, brel: &Relative| {
            a == b && !arel.is_relative() && !brel.is_relative()
        };
        if rule.max_per_shader.is_some_and(|max| uses > max) {
            refuse(format!("at most {} in one shader; this is number {uses}", rule.max_per_shader.unwrap_or(0)));
        }
        if rule.no_coissue && ins.coissue {
            refuse("it cannot be co-issued".to_string());
        }
        if rule.first_phase && self.after_phase {
            refuse("it must be in the first phase (before `phase`)".to_string());
        }
        if let Some((i, reg, swizzle, text)) = rule.exact {
            if let Some(src) = ins.srcs.get(i) {
                if src.reg != reg || src.swizzle != swizzle || src.rel.is_relative() {
                    refuse(format!("source {i} must be {text}"));
                }
            }
        }
        let Some(dst) = &ins.dst else { return };
        if !rule.masks.is_empty() && !rule.masks.contains(&dst.mask.0) {
            let allowed: Vec<String> = rule.masks.iter().map(|&m| mask_text(m)).collect();
            refuse(format!("the destination mask {} is not one of {}", mask_text(dst.mask.0), allowed.join(", ")));
        }
        if rule.dst_temp && dst.reg.ty != d3dbc::RegisterType::Temp {
            refuse("the destination must be a temporary register r#".to_string());
        }
        let replicate = |s: d3dbc::Swizzle| {
            let c = s.components();
            c.iter().all(|&x| x == c[0])
        };
        for &i in rule.replicate {
            if let Some(src) = ins.srcs.get(i) {
                if !replicate(src.swizzle) {
                    refuse(format!(
                        "source {i} has swizzle {}: it needs a replicate swizzle (.x, .y, .z or .w)",
                        swizzle_text(src.swizzle)
                    ));
                }
            }
        }
        for &i in rule.identity {
            if let Some(src) = ins.srcs.get(i) {
                if src.swizzle != d3dbc::Swizzle::IDENTITY {
                    refuse(format!("source {i} has swizzle {}: it must keep .xyzw", swizzle_text(src.swizzle)));
                }
            }
        }
        for &i in rule.no_negate {
            if let Some(src) = ins.srcs.get(i) {
                if matches!(src.modifier, d3dbc::SrcModifier::Neg | d3dbc::SrcModifier::AbsNeg) {
                    refuse(format!("source {i} may not be negated"));
                }
            }
        }
        for &i in rule.no_modifier {
            if let Some(src) = ins.srcs.get(i) {
                if src.modifier != d3dbc::SrcModifier::None {
                    refuse(format!("source {i} takes no source modifier"));
                }
            }
        }
        for &(i, files) in rule.files {
            if let Some(src) = ins.srcs.get(i) {
                match profile::classify(self.kind, self.ver, src.reg) {
                    Ok((f, _)) if files.contains(&f) => {}
                    Ok((f, _)) => {
                        let names: Vec<&str> = files.iter().map(|f| f.name()).collect();
                        refuse(format!("source {i} must be {}, not {}", names.join(" or "), f.name()))
                    }
                    Err(_) => {} // Reported as a register (V905).
                }
            }
        }
        for &i in rule.not_dst {
            if let Some(src) = ins.srcs.get(i) {
                if same(&src.reg, &src.rel, &dst.reg, &dst.rel) {
                    refuse(format!("source {i} is the destination register"));
                }
            }
        }
        if let Some((i, rows)) = rule.matrix {
            if let Some(m) = ins.srcs.get(i) {
                // The row of the matrix the destination is, if it is one.
                let row = u32::from(dst.reg.num).checked_sub(u32::from(m.reg.num)).filter(|&r| r < rows);
                let row = row.filter(|_| m.reg.ty == dst.reg.ty && !m.rel.is_relative() && !dst.rel.is_relative());
                if let Some(row) = row {
                    refuse(format!(
                        "the destination is row {row} of the matrix (source {i} and the {} registers after it)",
                        rows.saturating_sub(1)
                    ));
                }
            }
        }
        if let (true, [_, a, b]) = (rule.sincos_constants, ins.srcs.as_slice()) {
            let is_c = |s: &SrcParam| {
                matches!(profile::classify(self.kind, self.ver, s.reg), Ok((RegFile::Const, _))) && !s.rel.is_relative()
            };
            if !is_c(a) || !is_c(b) {
                refuse("sources 1 and 2 must be constant registers c# (D3DSINCOSCONST1, D3DSINCOSCONST2)".to_string());
            } else if a.reg == b.reg {
                refuse("sources 1 and 2 must be two different c# registers".to_string());
            }
        }
    }

    /// Which instructions take `_sat` and `_centroid` in pixel shaders 2_0 and later
    /// ("Modifiers for ps_2_0 and Above": `_sat` "with any instruction except frc, sincos,
    /// and any tex* instructions"; `_centroid` on `dcl` and texture lookup instructions,
    /// dcl_semantics (ps)). `None` when allowed.
    fn modifier_on_instruction(&self, ins: &Instruction, m: d3dbc::ResultModifiers) -> Option<&'static str> {
        if self.kind != ShaderKind::Pixel || self.ver < d3dbc::table::V2_0 {
            return None;
        }
        let texture = ins.opcode.info().class == SlotClass::Texture;
        if m.saturate() && (texture || matches!(ins.opcode, Opcode::Frc | Opcode::Sincos)) {
            return Some("_sat is not allowed on frc, sincos and the tex* instructions");
        }
        if m.centroid() && !texture {
            return Some("_centroid applies to dcl and the texture lookup instructions only");
        }
        None
    }

    /// Dependent texture reads (V927): ps_2_0, and ps_2_x without
    /// `D3DPS20CAPS_NODEPENDENTREADLIMIT` ("may be dependent upon, at most, third order").
    /// The order a temporary depends on follows the data through every instruction, in
    /// program order.
    fn dependent_reads(&mut self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        let limited =
            self.profile == Profile::Ps2_0 || (self.profile == Profile::Ps2_x && !self.caps.no_dependent_read_limit);
        if !limited {
            return;
        }
        let temp = |r: &d3dbc::Register| (r.ty == d3dbc::RegisterType::Temp && r.num < 32).then_some(r.num as usize);
        let read = ins
            .srcs
            .iter()
            .filter_map(|s| temp(&s.reg))
            .filter_map(|n| self.dependent.get(n).copied())
            .max()
            .unwrap_or(0);
        let Some(dst) = ins.dst.as_ref() else { return };
        let Some(d) = temp(&dst.reg) else { return };
        let rewritten = self.temps_written & (1 << d) != 0;
        let info = ins.opcode.info();
        let texture = info.class == SlotClass::Texture && ins.opcode != Opcode::Texkill;
        let order = if texture {
            // Only what the instruction reads carries an order; the page also counts
            // writing a register that depends on an (n-1)th order read, which is not
            // modelled (a rewrite makes the instruction first order only).
            let deps = read;
            let first = ins.srcs.first().is_some_and(|s| temp(&s.reg).is_some()) || rewritten;
            if deps >= 1 {
                deps.saturating_add(1)
            } else {
                u8::from(first)
            }
        } else {
            read
        };
        if texture && order > 3 {
            out.push(Diagnostic::new(
                Code::D3d9DependentRead,
                at.loc(),
                format!(
                    "`{}` is a dependent texture read of order {order}; {} allows at most third order{}",
                    at.mnemonic,
                    self.name(),
                    if self.profile == Profile::Ps2_x { " without D3DPS20CAPS_NODEPENDENTREADLIMIT" } else { "" }
                ),
            ));
        }
        // A full unpredicated write replaces what the register depended on.
        let full = dst.mask.0 == 0xf && ins.predicate.is_none();
        if let Some(dependent) = self.dependent.get_mut(d) {
            *dependent = if full { order } else { order.max(*dependent) };
        }
        self.temps_written |= 1 << d;
    }

    /// The texm3x2 / texm3x3 sequences of ps_1_1-ps_1_3 (V928).
    fn tex_matrix(&mut self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        use Opcode as O;
        // The matrix's rows, its pads (one per row but the last), and whether the
        // instruction is the last row.
        let (rows, pads, last) = match ins.opcode {
            O::Texm3x2pad => (2, 1, false),
            O::Texm3x2tex | O::Texm3x2depth => (2, 1, true),
            O::Texm3x3pad => (3, 2, false),
            O::Texm3x3 | O::Texm3x3tex | O::Texm3x3spec | O::Texm3x3vspec => (3, 2, true),
            _ => return,
        };
        let mut refuse =
            |m: String| out.push(Diagnostic::new(Code::D3d9TexMatrix, at.loc(), format!("`{}`: {m}", at.mnemonic)));
        let t = |r: Option<&d3dbc::Register>| {
            r.filter(|r| r.ty == d3dbc::RegisterType::AddrOrTexture).map(|r| r.num as u32)
        };
        let (Some(dst), Some(src)) = (t(ins.dst.as_ref().map(|d| &d.reg)), t(ins.srcs.first().map(|s| &s.reg))) else {
            return; // Not t# registers: refused as registers.
        };
        let pad_name = if rows == 2 { "texm3x2pad" } else { "texm3x3pad" };
        match self.tex_matrix {
            Some(seq) if seq.rows == rows && (seq.pads < pads) != last => {
                // `row` is less than `rows` (at most 3) and `m` a register number: the
                // sums never saturate.
                let row = seq.pads;
                if Some(dst) != seq.m.checked_add(row) || src != seq.n {
                    refuse(format!(
                        "row {} of the matrix started at instruction {} writes t{} from t{} (the sequence is t(m+{row}), t(n): t{}, t{})",
                        row.saturating_add(1),
                        seq.at.index,
                        dst,
                        src,
                        seq.m.saturating_add(row),
                        seq.n
                    ));
                }
                self.tex_matrix = if last { None } else { Some(TexMatrix { pads: row.saturating_add(1), ..seq }) };
            }
            Some(seq) => {
                refuse(format!(
                    "the {}x matrix started by the `{}` at instruction {} is not complete ({} of its {} rows)",
                    seq.rows,
                    if seq.rows == 2 { "texm3x2pad" } else { "texm3x3pad" },
                    seq.at.index,
                    seq.pads,
                    seq.rows
                ));
                self.tex_matrix = None;
                if !last {
                    self.tex_matrix = Some(TexMatrix { rows, pads: 1, m: dst, n: src, at });
                }
            }
            None if last => {
                refuse(format!("it completes a matrix and needs {pads} `{pad_name}` before it"));
            }
            None => {
                if dst <= src {
                    refuse(format!("t{dst} from t{src}: the sequence is t(m), t(n) with m > n"));
                }
                self.tex_matrix = Some(TexMatrix { rows, pads: 1, m: dst, n: src, at });
            }
        }
    }

    /// The `dcl` rules (V926): before the first executable instruction; which registers
    /// each profile declares and with what (usage, sampler type, mask); a semantic once.
    fn dcl(&mut self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        let mut refuse = |m: String| {
            out.push(Diagnostic::new(
                Code::D3d9Dcl,
                at.loc(),
                format!("`{}`: {m} ({})", at.mnemonic, self.profile.name()),
            ))
        };
        if self.executable {
            refuse("dcl after the first executable instruction (every dcl must come before it)".to_string());
        }
        let (Some(dst), d3dbc::Body::Dcl(t)) = (&ins.dst, &ins.body) else { return };
        let Ok((file, index)) = profile::classify(self.kind, self.ver, dst.reg) else { return };
        let vs3 = matches!(self.profile, Profile::Vs3_0 | Profile::Vs3_sw);
        let ps2 = matches!(self.profile, Profile::Ps2_0 | Profile::Ps2_x | Profile::Ps2_sw);
        let ps3 = matches!(self.profile, Profile::Ps3_0 | Profile::Ps3_sw);
        let vs = self.kind == ShaderKind::Vertex;
        // What the register may be declared with.
        enum With {
            Usage,
            Nothing,
            SamplerType,
        }
        let with = match file {
            RegFile::Input if vs || ps3 => With::Usage,
            RegFile::Output if vs3 => With::Usage,
            RegFile::Input | RegFile::Texture if ps2 => With::Nothing,
            RegFile::Sampler if vs3 || ps2 || ps3 => With::SamplerType,
            RegFile::Face | RegFile::PixelPos if ps3 => With::Nothing,
            _ => {
                let what = if vs {
                    "v#, and in vs_3_0 o# and s#"
                } else if ps2 {
                    "v#, t# and s#"
                } else {
                    "v#, s#, vFace and vPos"
                };
                return refuse(format!("{} cannot be declared; this profile declares {what}", file.name()));
            }
        };
        match with {
            With::Usage => {
                if t.usage().name().is_none() {
                    refuse(format!("usage {} is not a D3DDECLUSAGE value (0-13)", t.usage));
                }
            }
            With::Nothing => {
                if t.usage != 0 || t.usage_index != 0 {
                    refuse(format!(
                        "{} is declared without a usage (usage {} index {} given)",
                        file.name(),
                        t.usage,
                        t.usage_index
                    ));
                }
            }
            With::SamplerType => {
                // D3DAssemble's errors X5968 / X5969: "dcl s# does not support any modifiers".
                if dst.modifiers.0 != 0 {
                    refuse(format!(
                        "a sampler is declared without modifiers (_pp, _centroid); given {}",
                        dst.modifiers.0
                    ));
                }
                if !matches!(t.texture_type, 2..=4) {
                    refuse(format!("sampler type {} is not one of _2d (2), _cube (3), _volume (4)", t.texture_type));
                }
            }
        }
        if matches!(with, With::Usage) {
            self.dcl_usage(file, t, dst.mask.0, at, out);
        }
        let mut refuse = |m: String| {
            out.push(Diagnostic::new(
                Code::D3d9Dcl,
                at.loc(),
                format!("`{}`: {m} ({})", at.mnemonic, self.profile.name()),
            ))
        };
        if matches!(with, With::Usage) && ((ps3 && file == RegFile::Input) || (vs3 && file == RegFile::Output)) {
            let u = t.usage();
            if matches!(u, d3dbc::Usage::Position | d3dbc::Usage::PSize) && vs3 && dst.mask.0 != 0xf {
                refuse(format!(
                    "a {} output is declared with all four components, not {}",
                    u.name().unwrap_or("?"),
                    mask_text(dst.mask.0)
                ));
            }
            let bit = 1u16 << (t.usage_index & 15);
            if let Some(declared) = self.semantics.get_mut(t.usage as usize & 15) {
                if *declared & bit != 0 {
                    refuse(format!("the semantic {}{} is declared twice", u.name().unwrap_or("?"), t.usage_index));
                }
                *declared |= bit;
            }
            // "The same output register may be declared multiple times, each time with a
            // unique write mask."
            if let Some(seen) = self.dcl_masks.get_mut(index as usize) {
                let overlap = *seen & dst.mask.0;
                if overlap != 0 {
                    refuse(format!(
                        "{}{index}{} is already declared (each declaration of a register has its own components)",
                        file.name().trim_end_matches('#'),
                        mask_text(overlap)
                    ));
                }
                *seen |= dst.mask.0;
            }
        }
        if file == RegFile::PixelPos && !matches!(dst.mask.0, 1..=3) {
            refuse(format!("vPos is declared .x, .y or .xy, not {}", mask_text(dst.mask.0)));
        }
    }

    /// The usage+index a declared input or output may carry (V929). Microsoft's dcl
    /// pages list the usages; which of them each register takes is D3DAssemble's
    /// recorded verdict (errors X5637, X5638, X5537, X5971-X5978, X5980, X5982).
    fn dcl_usage(&mut self, file: RegFile, t: &d3dbc::DclToken, mask: u8, at: At, out: &mut Vec<Diagnostic>) {
        use d3dbc::Usage as U;
        let u = t.usage();
        let index = t.usage_index;
        let name = u.name().unwrap_or("?");
        let vs = self.kind == ShaderKind::Vertex;
        let why = match (vs, file, u) {
            (true, RegFile::Input, U::PositionT) if index == 0 => {
                Some("a vertex input cannot be declared positiont0 (vertex data with it skips vertex processing)")
            }
            (true, RegFile::Input, U::TessFactor) => Some("a vertex input cannot be declared tessfactor"),
            (true, RegFile::Output, U::Sample) => Some("an output cannot be declared with usage sample"),
            (true, RegFile::Output, U::TessFactor) if index != 0 || mask != 1 => {
                Some("a tessfactor output is declared with usage index 0 and an .x mask")
            }
            (false, RegFile::Input, U::Position | U::PSize | U::PositionT) if index == 0 => {
                Some("a pixel shader cannot declare this usage+index")
            }
            (false, RegFile::Input, U::TessFactor | U::Sample) => Some("a pixel shader cannot declare this usage"),
            _ => None,
        };
        let mut refuse = |m: String| {
            out.push(Diagnostic::new(
                Code::D3d9DclUsage,
                at.loc(),
                format!("`{}`: {name}{index}: {m} ({})", at.mnemonic, self.profile.name()),
            ))
        };
        if let Some(why) = why {
            refuse(why.to_string());
        }
        if vs && file == RegFile::Input {
            let bit = 1u16 << (index & 15);
            if let Some(declared) = self.input_semantics.get_mut(t.usage as usize & 15) {
                if *declared & bit != 0 {
                    refuse("this usage+index is already declared on another input".to_string());
                }
                *declared |= bit;
            }
        }
    }

    /// The capabilities `vs_2_x` / `ps_2_x` instructions need.
    fn needs_caps(&self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        if !self.is_2_x() {
            return;
        }
        let class = ins.flow_class();
        let dynamic = matches!(
            class,
            FlowClass::Op(FlowOp::IfComp)
                | FlowClass::Op(FlowOp::Break)
                | FlowClass::Op(FlowOp::BreakComp)
                | FlowClass::Op(FlowOp::IfPred)
                | FlowClass::Op(FlowOp::CallnzPred)
                | FlowClass::Op(FlowOp::BreakP)
        );
        let predication = matches!(
            class,
            FlowClass::Op(FlowOp::SetpComp)
                | FlowClass::Op(FlowOp::IfPred)
                | FlowClass::Op(FlowOp::CallnzPred)
                | FlowClass::Op(FlowOp::BreakP)
        ) || ins.predicate.is_some();
        let mut need = |what: &str| {
            out.push(Diagnostic::new(
                Code::D3d9InstructionCap,
                at.loc(),
                format!("`{}` in {} needs {what}", at.mnemonic, self.name()),
            ))
        };
        if dynamic && self.caps.dynamic_flow_depth == 0 {
            need("dynamic flow control (DynamicFlowControlDepth > 0); the device has 0");
        }
        if predication && !self.caps.predication {
            need("predication (D3DVS20CAPS_PREDICATION / D3DPS20CAPS_PREDICATION)");
        }
        if self.profile == Profile::Ps2_x
            && matches!(ins.opcode, Opcode::Dsx | Opcode::Dsy | Opcode::Texldd)
            && !self.caps.gradient_instructions
        {
            need("gradient instructions (D3DPS20CAPS_GRADIENTINSTRUCTIONS)");
        }
    }

    /// Counts the instruction's slots; reports the first instruction past the limit.
    fn slots(&mut self, ins: &Instruction, at: At, out: &mut Vec<Diagnostic>) {
        let info = ins.opcode.info();
        if ins.opcode == Opcode::Phase {
            // ps_1_4: the limits are per phase.
            self.arithmetic = 0;
            self.texture = 0;
            return;
        }
        if !info.class.counted() || ins.coissue {
            // Co-issued pixel 1.x instructions share their partner's slot.
            return;
        }
        let mut n = info.slots(self.kind, self.ver);
        if ins.predicate.is_some() && info.flow == d3dbc::Flow::None {
            // "Applying the predicate register to an arithmetic or texture instruction
            // increases its instruction slot count by 1."
            n = n.saturating_add(1);
        }
        // The counts saturate: a count at `u32::MAX` is still over every limit.
        if info.class == SlotClass::Texture {
            self.texture = self.texture.saturating_add(n);
            self.texture_total = self.texture_total.saturating_add(n);
        } else {
            self.arithmetic = self.arithmetic.saturating_add(n);
            self.arithmetic_total = self.arithmetic_total.saturating_add(n);
        }
        let used = self.arithmetic.saturating_add(self.texture);
        if self.slots_reported {
            return;
        }
        let over = match profile::slot_limit(self.profile, self.caps) {
            SlotLimit::Unlimited => None,
            SlotLimit::Total(max) => (used > max).then(|| format!("more than {max} instruction slots")),
            SlotLimit::Split { arithmetic, texture } => {
                if self.arithmetic > arithmetic {
                    Some(format!("more than {arithmetic} arithmetic instruction slots"))
                } else if self.texture > texture {
                    Some(format!("more than {texture} texture instruction slots"))
                } else {
                    None
                }
            }
            SlotLimit::TotalAndTexture { total, texture } => {
                if used > total {
                    Some(format!("more than {total} instruction slots (MaxPixelShaderInstructionSlots)"))
                } else if texture.is_some_and(|t| self.texture > t) {
                    Some(format!(
                        "more than {} texture instruction slots (no D3DPS20CAPS_NOTEXINSTRUCTIONLIMIT)",
                        texture.unwrap_or(0)
                    ))
                } else {
                    None
                }
            }
        };
        if let Some(what) = over {
            self.slots_reported = true;
            let phase = if self.profile == Profile::Ps1_4 { " in this phase" } else { "" };
            out.push(Diagnostic::new(
                Code::D3d9Slots,
                at.loc(),
                format!("this instruction takes the program to {what}{phase}, the limit of {}", self.name()),
            ));
        }
    }

    /// Checks one register reference; returns its file and index when it names one the
    /// profile has.
    fn register(
        &mut self,
        reg: d3dbc::Register,
        rel: &Relative,
        written: bool,
        decl: bool,
        at: At,
        out: &mut Vec<Diagnostic>,
    ) -> Option<(RegFile, u32)> {
        let (file, index) = match profile::classify(self.kind, self.ver, reg) {
            Ok(x) => x,
            Err(why) => {
                out.push(Diagnostic::new(Code::D3d9RegisterType, at.loc(), format!("{why} ({})", self.name())));
                return None;
            }
        };
        if file == RegFile::Label {
            out.push(Diagnostic::new(
                Code::D3d9RegisterType,
                at.loc(),
                "a label l# is an operand of call, callnz and label only",
            ));
            return None;
        }
        let Some(rule) = profile::register(self.profile, file) else {
            out.push(Diagnostic::new(
                Code::D3d9RegisterType,
                at.loc(),
                format!("{} does not exist in {}", file.name(), self.name()),
            ));
            return None;
        };
        let count = rule.count(self.caps);
        if index >= count {
            let name = file.name().trim_end_matches('#');
            out.push(Diagnostic::new(
                Code::D3d9RegisterRange,
                at.loc(),
                format!("{name}{index} is beyond {} ({count} in {})", file.name(), self.name()),
            ));
        }
        if !decl {
            if written && !writable(self.profile, file) {
                out.push(Diagnostic::new(
                    Code::D3d9RegisterType,
                    at.loc(),
                    format!("{} is read-only in {}", file.name(), self.name()),
                ));
            }
            if !written && file.is_output() {
                out.push(Diagnostic::new(
                    Code::D3d9RegisterType,
                    at.loc(),
                    format!("{} is an output register, written only", file.name()),
                ));
            }
        }
        if rel.is_relative() {
            let by = match rel {
                Relative::Implicit => Some(RegFile::Addr),
                Relative::Token(t) => profile::classify(self.kind, self.ver, t.reg).ok().map(|x| x.0),
                Relative::None => None,
            };
            match by {
                Some(by) if rule.rel.contains(&by) => {}
                _ => {
                    let allowed = if rule.rel.is_empty() {
                        "no relative addressing".to_string()
                    } else {
                        rule.rel.iter().map(|f| f.name()).collect::<Vec<_>>().join(" or ")
                    };
                    out.push(Diagnostic::new(
                        Code::D3d9RelativeAddressing,
                        at.loc(),
                        format!(
                            "{} indexed by {} in {}: {} allows {allowed}",
                            file.name(),
                            by.map_or("an unknown register", |f| f.name()),
                            self.name(),
                            file.name()
                        ),
                    ));
                }
            }
        }
        if rule.dcl && !decl {
            let profile_name = self.name();
            if let Some(declared) = self.declared_mut(file) {
                if index < 64 && *declared & (1 << index) == 0 && index < count {
                    let name = file.name().trim_end_matches('#');
                    let shown = if matches!(file, RegFile::Face | RegFile::PixelPos) {
                        name.to_string()
                    } else {
                        format!("{name}{index}")
                    };
                    out.push(Diagnostic::new(
                        Code::D3d9Declaration,
                        at.loc(),
                        format!(
                            "{shown} is used without a dcl before it ({} requires one in {profile_name})",
                            file.name(),
                        ),
                    ));
                    // One report per register.
                    *declared |= 1 << index;
                }
            }
        }
        Some((file, index))
    }

    fn source_modifier(&self, src: &SrcParam, file: RegFile, at: At, out: &mut Vec<Diagnostic>) {
        if let Err(why) = profile::source_modifier(self.profile, src.modifier, file) {
            out.push(Diagnostic::new(Code::D3d9Modifier, at.loc(), format!("{why} ({})", self.name())));
        }
    }

    /// Where walk site `site` is, and its mnemonic. Site indices come from this pass's
    /// `sites`; an index outside them (never produced) is placed at the program's start
    /// with mnemonic `?`.
    fn site_at(&self, site: usize) -> (Location, &'static str) {
        self.sites.get(site).map_or((Location::Byte { offset: self.base }, "?"), |s| (site_loc(s), s.mnemonic))
    }

    fn finish(&mut self, out: &mut Vec<Diagnostic>) -> Option<flow::Walk> {
        self.phase_alpha_finish(out);
        self.loop_counter_finish(out);
        // D3DAssemble's error X5573: "When a ps_2_0 shader writes to oCn, it must write to
        // all of oC(n-1) down to oC0 (no gaps)".
        if let (written, Some(at)) = self.color_writes {
            // Written without gaps is a run of low bits, `2^n - 1`: adding 1 clears it
            // (all eight, 0xFF, wraps to 0 — the wrap is the intended arithmetic).
            if written & written.wrapping_add(1) != 0 {
                out.push(Diagnostic::new(
                    Code::D3d9RegisterType,
                    at.loc(),
                    format!(
                        "the program writes oC# {}: a ps_2_0 program writing oCn writes every oC below it",
                        (0..8)
                            .filter(|i| written & (1 << i) != 0)
                            .map(|i| format!("oC{i}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
        if let Some(seq) = self.tex_matrix.take() {
            out.push(Diagnostic::new(
                Code::D3d9TexMatrix,
                seq.at.loc(),
                format!(
                    "`{}`: the matrix it starts is not complete at the end of the program ({} of its {} rows)",
                    seq.at.mnemonic, seq.pads, seq.rows
                ),
            ));
        }
        let table = flow::table_for(self.profile)?;
        let walk = flow::walk(&self.sites, table, table.resolve(self.caps), flow::max_label(self.profile));
        for p in walk.problems.iter().cloned() {
            match p {
                Problem::Refused { site } => {
                    // Indices were pushed in increasing order.
                    let refused = self.sites.get(site).is_some_and(|s| self.refused.binary_search(&s.index).is_ok());
                    if !refused {
                        let (loc, mnemonic) = self.site_at(site);
                        out.push(Diagnostic::new(
                            Code::D3d9Instruction,
                            loc,
                            format!("`{mnemonic}` is n/a in the {} flow-control table", table.name),
                        ));
                    }
                }
                Problem::Limit { counter, limit, value, site } => {
                    let (loc, mnemonic) = self.site_at(site);
                    let code = match counter {
                        Counter::StaticNesting => Code::D3d9StaticNesting,
                        Counter::DynamicNesting => Code::D3d9DynamicNesting,
                        Counter::LoopNesting => Code::D3d9LoopNesting,
                        Counter::CallNesting => Code::D3d9CallNesting,
                        Counter::StaticFlowCount => Code::D3d9StaticFlowCount,
                    };
                    out.push(Diagnostic::new(
                        code,
                        loc,
                        format!(
                            "{} reaches {value} at this `{mnemonic}`; the {} limit of {} is {limit}{}",
                            counter.name(),
                            counter.name(),
                            self.name(),
                            limit_note(table, counter)
                        ),
                    ));
                }
                Problem::Structure { kind, site, message } => {
                    let code = match kind {
                        StructureKind::Construct => Code::D3d9FlowStructure,
                        StructureKind::Subroutine => Code::D3d9Subroutine,
                    };
                    let loc = site.and_then(|i| self.sites.get(i)).map_or(
                        Location::Byte { offset: self.base },
                        site_loc,
                    );
                    out.push(Diagnostic::new(code, loc, message));
                }
                Problem::TooComplex => out.push(Diagnostic::new(
                    Code::D3d9FlowTooComplex,
                    Location::Shader,
                    format!(
                        "walking the calls of this program takes more than {} steps; its nesting limits were not checked",
                        flow::STEP_BUDGET
                    ),
                )),
            }
        }
        Some(walk)
    }
}

fn site_loc(s: &Site) -> Location {
    Location::Instruction { index: s.index, token: s.token, offset: s.offset, mnemonic: s.mnemonic }
}

/// Where a cap-dependent limit comes from, for the message.
fn limit_note(table: &flow::FlowTable, counter: Counter) -> &'static str {
    match counter.cell(&table.limits) {
        flow::Limit::DynamicFlowDepth => " (DynamicFlowControlDepth)",
        flow::Limit::StaticFlowDepth => " (StaticFlowControlDepth)",
        flow::Limit::FixedIfStaticFlow(_) => " (24 when StaticFlowControlDepth > 0, else 0)",
        _ => "",
    }
}

/// Registers an instruction may write (besides declarations and definitions).
fn writable(profile: Profile, file: RegFile) -> bool {
    match file {
        RegFile::Temp | RegFile::Addr | RegFile::Predicate => true,
        f if f.is_output() => true,
        RegFile::Texture => matches!(profile, Profile::Ps1_1 | Profile::Ps1_2 | Profile::Ps1_3),
        _ => false,
    }
}

fn mask_text(m: u8) -> String {
    let mut t = String::from(".");
    for (i, c) in ['x', 'y', 'z', 'w'].into_iter().enumerate() {
        if m & (1 << i) != 0 {
            t.push(c);
        }
    }
    t
}

fn swizzle_text(s: d3dbc::Swizzle) -> String {
    let mut t = String::from(".");
    for c in s.components() {
        t.push(match c & 3 {
            0 => 'x',
            1 => 'y',
            2 => 'z',
            _ => 'w',
        });
    }
    t
}

/// Where ps_1_4's divide source modifiers go ("Source Register Modifiers - ps": `_dz`
/// and `_dw` on `texld` and `texcrd` sources; D3DAssemble's errors X5115, X5101, X5103,
/// X5105): `_dz` on a `texld` source that is `r#`, `_dw` on a `texld` / `texcrd` source
/// selecting `.xyw`.
fn divide_modifier(opcode: Opcode, src: &SrcParam, file: RegFile) -> Option<&'static str> {
    match src.modifier {
        d3dbc::SrcModifier::Dz if opcode == Opcode::Texcoord => {
            Some("_dz is not available on a texcrd source (texld only)")
        }
        d3dbc::SrcModifier::Dz if opcode == Opcode::Tex && file != RegFile::Temp => {
            Some("_dz on a texld source needs a temporary register r#")
        }
        d3dbc::SrcModifier::Dw
            if matches!(opcode, Opcode::Tex | Opcode::Texcoord) && src.swizzle.components() != [0, 1, 3, 3] =>
        {
            Some("_dw needs the source selector .xyw (.rga)")
        }
        d3dbc::SrcModifier::Dz | d3dbc::SrcModifier::Dw if !matches!(opcode, Opcode::Tex | Opcode::Texcoord) => {
            Some("_dz and _dw apply to texld and texcrd sources only")
        }
        _ => None,
    }
}
