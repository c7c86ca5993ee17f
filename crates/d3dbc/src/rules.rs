//! The per-version rules that Microsoft's `D3DAssemble` enforces on Shader Model 1–3
//! assembly source, beyond what the token format can encode: register types and
//! numbers, relative addressing, source and instruction modifiers, co-issue, `dcl`
//! modifiers, instructions by version. Each is an error at its line and column that
//! names the rule and its source.
//!
//! The rules are data ([`data::VERSIONS`], one table per version); [`check`] applies
//! them to a parsed program and the text it was parsed from. The parser itself encodes
//! every such form it can (with a warning), so that the validator can be tested on
//! programs the rules forbid; these rules are what makes them errors.
//!
//! What the assembler checks is told apart from what the Direct3D 9 validator checks
//! (which `D3DAssemble` also runs unless given `D3DCOMPILE_SKIP_VALIDATION`): reads of
//! registers that were never written, `dcl` of an output in a pixel shader, `_pp` or
//! `_centroid` on a sampler `dcl`, a `dcl` of `r#` or `c#`, `_x2` on a source below
//! ps_1_4, the device's constant counts... are the validator's (`validate::d3d9`), not
//! these.
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)]

pub mod data;

use crate::ir::{
    Body, Instruction, Item, Register, RegisterType, Relative, ResultModifiers, ShaderKind, SrcModifier, Swizzle,
};
use crate::parse::{columns_len, Diagnostic, Parsed, Severity};
use crate::table::{Layout, Opcode};
use data::VersionRules;

/// The rule violations of a parsed program; `text` is the text it was parsed from
/// (after any preprocessing; line numbers in `parsed` count from 1 at its start). The
/// rules decide on the parsed program; the text places the errors and tells what the
/// tokens do not (`t0` or `a0`, `oT0` or `o0`, whether a `dcl` names a usage, a shift on
/// a `dcl`). Where the text does not show an operand (a caller's other text), the
/// error is placed at the instruction. Errors and warnings (a
/// retired version read as another); callers refuse the program on any error.
pub fn check(parsed: &Parsed, text: &str) -> Vec<Diagnostic> {
    let version = parsed.program.version;
    let Some(rules) = data::version(&version.name()) else { return Vec::new() };
    let lines: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let mut out = Vec::new();
    version_line(parsed, &lines, &mut out);
    for (i, item) in parsed.program.items.iter().enumerate() {
        let Item::Instruction(ins) = item else { continue };
        let line_no = parsed.lines.get(i).copied().unwrap_or(0);
        let raw = line_no.checked_sub(1).and_then(|l| lines.get(l)).copied().unwrap_or("");
        let next = next_token(&lines, line_no);
        let mut c = Checker { rules, kind: version.kind, ver: version.ver(), line: line_no, raw, next, out: &mut out };
        c.instruction(ins, &LineView::new(raw));
    }
    out.sort_by_key(|d| (d.line, d.column));
    out
}

/// Every error of a listing-grammar program (one instruction a line), in line order:
/// the parser's, and the rules' ([`check`]) for the lines before the parser's first
/// error (`D3DAssemble` reports every error it meets, in order, so a rule broken on an
/// earlier line comes before a later line the grammar refuses). Warnings are kept when
/// the program parses.
pub fn check_listing(text: &str) -> Vec<Diagnostic> {
    let mut out = match crate::parse::parse_program(text) {
        Ok(p) => return check(&p, text),
        Err(e) => e,
    };
    let first = out.iter().map(|d| d.line).min().unwrap_or(0);
    if first > 1 {
        let lines_before = first.saturating_sub(1);
        // The lines before the first error, line numbers unchanged.
        let before: String = text.split_inclusive('\n').take(lines_before).collect();
        if let Ok(p) = crate::parse::parse_program(&before) {
            out.extend(check(&p, &before).into_iter().filter(|d| d.severity == Severity::Error));
        }
    }
    out.sort_by_key(|d| (d.line, d.column));
    out
}

/// The version line as written: the compiler targets D3DAssemble does not read, and
/// the retired versions it reads as another.
fn version_line(parsed: &Parsed, lines: &[&str], out: &mut Vec<Diagnostic>) {
    let written = parsed.version_text.split_whitespace().next().unwrap_or("");
    let name = written.replace('.', "_").to_ascii_lowercase();
    let raw = parsed.version_line.checked_sub(1).and_then(|l| lines.get(l)).copied().unwrap_or("");
    let col = raw.find(written).filter(|_| !written.is_empty()).map_or(1, |at| column(raw, at));
    let len = written.chars().count().max(1);
    if let Some((_, instead)) = data::COMPILER_TARGETS.iter().find(|(t, _)| *t == name) {
        let m = format!(
            "`{written}` is a compiler target, not a version D3DAssemble reads (write `{instead}`) [versions: D3DAssemble X2001, \"shader version expected\"]"
        );
        out.push(Diagnostic::new(Severity::Error, parsed.version_line, col, len, &m, Some(&format!("`{instead}`"))));
    }
    if let Some((_, instead)) = data::RETIRED.iter().find(|(t, _)| *t == name) {
        let m = format!(
            "`{written}` is read as `{instead}` and checked by its rules [versions: D3DAssemble X2015, \"{written} \
             is no longer supported; using {instead}\"]"
        );
        out.push(Diagnostic::new(Severity::Warning, parsed.version_line, col, len, &m, None));
    }
}

/// Where the parts of one instruction line are (byte offsets into the line).
#[derive(Debug, Default)]
struct LineView<'a> {
    word: (usize, &'a str),
    operands: Vec<(usize, &'a str)>,
    /// The byte offset of the `,` before each operand after the first.
    commas: Vec<usize>,
}

impl<'a> LineView<'a> {
    fn new(raw: &'a str) -> LineView<'a> {
        let code_end = [raw.find("//"), raw.find(';')].into_iter().flatten().min().unwrap_or(raw.len());
        let code = raw.get(..code_end).unwrap_or(raw);
        // Where `rest`, a tail of `code`, starts.
        let at = |rest: &str| code.len().saturating_sub(rest.len());
        let mut v = LineView::default();
        let mut rest = code.get(columns_len(code)..).unwrap_or("").trim_start();
        if let Some(r) = rest.strip_prefix('/') {
            rest = r.trim_start();
        }
        if let Some(r) = rest.strip_prefix('+') {
            rest = r.trim_start();
        }
        if rest.starts_with('(') {
            rest = rest.split_once(')').map_or("", |(_, after)| after).trim_start();
        }
        let wlen = rest.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).unwrap_or(rest.len());
        let (word, after) = split_at(rest, wlen);
        v.word = (at(rest), word);
        if !after.trim().is_empty() {
            let mut part_rest = after;
            loop {
                let (part, next) = match part_rest.split_once(',') {
                    Some((part, next)) => (part, Some(next)),
                    None => (part_rest, None),
                };
                let lead = part.len().saturating_sub(part.trim_start().len());
                v.operands.push((at(part_rest).saturating_add(lead), part.trim()));
                let Some(next) = next else { break };
                // The `,` is the byte before `next`.
                v.commas.push(at(next).saturating_sub(1));
                part_rest = next;
            }
        }
        v
    }
}

/// `s` split at byte `at` (a position `find` gave, so a character boundary); all of
/// `s` and nothing where it is not.
fn split_at(s: &str, at: usize) -> (&str, &str) {
    s.split_at_checked(at).unwrap_or((s, ""))
}

/// One operand as written: modifiers, register name and number, index, suffix.
#[derive(Debug, Default)]
struct Operand<'a> {
    complement: bool,
    /// The register name and number and where they start.
    name: &'a str,
    digits: &'a str,
    reg_at: usize,
    /// The text inside `[...]` and where it starts.
    index: Option<(usize, &'a str)>,
    /// A source-modifier suffix (`abs`, `bx2`) and where its `_` is.
    suffix: Option<(usize, &'a str)>,
}

impl<'a> Operand<'a> {
    fn new(at: usize, s: &'a str) -> Operand<'a> {
        let mut o = Operand::default();
        let b = s.as_bytes();
        // Byte offsets in `s`: each steps over ASCII bytes of `s`, so stays within its
        // length (`saturating_add` never saturates) and on a character boundary.
        let from = |i: usize| s.get(i..).unwrap_or("");
        let count = |i: usize, f: fn(&u8) -> bool| b.get(i..).unwrap_or_default().iter().take_while(|c| f(c)).count();
        let skip_ws = |i: usize| i.saturating_add(count(i, u8::is_ascii_whitespace));
        let mut i = 0;
        if b.first() == Some(&b'-') {
            i = skip_ws(1);
        } else if b.first() == Some(&b'1') {
            let j = skip_ws(1);
            if b.get(j) == Some(&b'-') {
                o.complement = true;
                i = skip_ws(j.saturating_add(1));
            }
        }
        if b.get(i) == Some(&b'!') {
            i = skip_ws(i.saturating_add(1));
        }
        o.reg_at = at.saturating_add(i);
        let name = from(i);
        let (name, after) = split_at(name, name.find(|ch: char| !ch.is_ascii_alphabetic()).unwrap_or(name.len()));
        let (digits, _) = split_at(after, after.find(|ch: char| !ch.is_ascii_digit()).unwrap_or(after.len()));
        o.name = name;
        o.digits = digits;
        let mut j = i.saturating_add(o.len());
        loop {
            match b.get(j) {
                Some(b'_') => {
                    let w = from(j.saturating_add(1));
                    let (w, _) = split_at(w, w.find(|ch: char| !ch.is_ascii_alphanumeric()).unwrap_or(w.len()));
                    o.suffix = Some((at.saturating_add(j), w));
                    j = j.saturating_add(1).saturating_add(w.len());
                }
                Some(b'[') => {
                    let iat = j.saturating_add(1);
                    let inside = from(iat);
                    let (text, end) = match inside.split_once(']') {
                        // Past the `]`.
                        Some((text, _)) => (text, iat.saturating_add(text.len()).saturating_add(1)),
                        None => (inside, s.len()),
                    };
                    o.index = Some((at.saturating_add(iat), text));
                    j = end;
                }
                Some(b'.') => {
                    j = j.saturating_add(1);
                    j = j.saturating_add(count(j, u8::is_ascii_alphabetic));
                }
                _ => break,
            }
        }
        o
    }

    fn len(&self) -> usize {
        self.name.len().saturating_add(self.digits.len())
    }
}

/// The address register of an index: its name (`a0`, `aL`, `r1`), where it is, and
/// where a swizzle on it is.
struct Index {
    addr: String,
    at: usize,
    len: usize,
    swizzle: Option<(usize, usize)>,
}

impl Index {
    /// From the text inside `[...]`, which starts at byte `iat` of the line.
    fn of_text(iat: usize, index: &str) -> Option<Index> {
        let start = index.find(|ch: char| ch.is_ascii_alphabetic())?;
        let rest = index.get(start..)?;
        let (addr, after) = split_at(rest, rest.find(|ch: char| !ch.is_ascii_alphanumeric()).unwrap_or(rest.len()));
        // Offsets in the line: bounded by its length.
        let at = iat.saturating_add(start);
        let swizzle = after.trim_start().strip_prefix('.').map(|dot| {
            // `dot` is a tail of `rest`.
            let sw = at.saturating_add(rest.len().saturating_sub(dot.len()));
            (sw, dot.find(|ch: char| !ch.is_ascii_alphabetic()).unwrap_or(dot.len()).max(1))
        });
        Some(Index { addr: addr.to_string(), at, len: addr.len(), swizzle })
    }

    /// From the parameter, placed at byte `at` (when the text does not show it).
    fn of_parameter(rel: &Relative, kind: ShaderKind, ver: u16, at: usize) -> Option<Index> {
        let (addr, swizzle) = match rel {
            Relative::None => return None,
            Relative::Implicit => ("a0".to_string(), None),
            Relative::Token(a) => {
                let swizzled = a.reg.ty == RegisterType::Loop && a.swizzle != Swizzle::IDENTITY;
                (ir_spelling(a.reg, kind, ver), swizzled.then_some((at, 1)))
            }
        };
        Some(Index { len: 1, addr, at, swizzle })
    }
}

/// How a register of type `ty` may be written in a shader of `kind` at `ver`.
fn spellings(ty: RegisterType, kind: ShaderKind, ver: u16) -> &'static [&'static str] {
    use RegisterType as T;
    match ty {
        T::Temp => &["r"],
        T::Input => &["v"],
        T::Const | T::Const2 | T::Const3 | T::Const4 => &["c"],
        T::AddrOrTexture => &["a", "t"],
        T::RastOut => &["oPos", "oFog", "oPts", "oX"],
        T::AttrOut => &["oD"],
        T::Output if kind == ShaderKind::Vertex && ver >= crate::table::V3_0 => &["o", "oT"],
        T::Output => &["oT", "o"],
        T::ConstInt => &["i"],
        T::ColorOut => &["oC"],
        T::DepthOut => &["oDepth"],
        T::Sampler => &["s"],
        T::ConstBool => &["b"],
        T::Loop => &["aL"],
        T::Misc => &["vPos", "vFace", "m"],
        T::Label => &["l"],
        T::Predicate => &["p"],
        _ => &[],
    }
}

/// The register as Microsoft's disassembler writes it (`r1`, `oPos`, `c2050`).
fn ir_spelling(reg: Register, kind: ShaderKind, ver: u16) -> String {
    use RegisterType as T;
    let n = reg.num as u32;
    let numbered = |name: &str, n: u32| format!("{name}{n}");
    // The four constant files of 2048 are numbered on from one another (`n` is a
    // 16-bit number: the sums do not saturate).
    match reg.ty {
        T::Const2 => numbered("c", n.saturating_add(2048)),
        T::Const3 => numbered("c", n.saturating_add(4096)),
        T::Const4 => numbered("c", n.saturating_add(6144)),
        T::AddrOrTexture if kind == ShaderKind::Vertex => numbered("a", n),
        T::AddrOrTexture => numbered("t", n),
        T::RastOut => match n {
            0 => "oPos".to_string(),
            1 => "oFog".to_string(),
            2 => "oPts".to_string(),
            _ => numbered("oX", n),
        },
        T::Misc => match n {
            0 => "vPos".to_string(),
            1 => "vFace".to_string(),
            _ => numbered("m", n),
        },
        T::DepthOut => "oDepth".to_string(),
        T::Loop => "aL".to_string(),
        ty => match spellings(ty, kind, ver).first() {
            Some(name) => numbered(name, n),
            None => numbered("x", n),
        },
    }
}

struct Checker<'r, 'o> {
    rules: &'static VersionRules,
    kind: ShaderKind,
    ver: u16,
    line: usize,
    raw: &'r str,
    /// Where the next token after this instruction's line is (line, column): the first
    /// code on a later line, else the end of the text.
    next: (usize, usize),
    out: &'o mut Vec<Diagnostic>,
}

/// Where each rule comes from, as cited in the messages.
mod source {
    pub const INSTRUCTIONS: &str =
        "the version's instruction page (\"vs_2_0 Instructions\", \"ps_1_X Instructions\" ...); D3DAssemble X2023";
    pub const OPERANDS: &str =
        "the instruction's page (\"texld - ps_2_0 and up\", \"sincos - vs\", \"sincos - ps\" ...); D3DAssemble X2000";
    pub const COMPARISON: &str =
        "\"setp_comp - vs\", \"if_comp - vs\", \"break_comp - vs\" (and ps); D3DAssemble X2000";
    pub const MASK: &str = "D3DAssemble X2000 (a `.` with no component)";
    pub const COISSUE: &str = "\"Instruction Modifiers\" / co-issue, ps_1_1 to ps_1_4 only; D3DAssemble X2027";
    pub const PREDICATION: &str = "\"Predicate Register\" (vs_2_x, vs_3_0, ps_2_x, ps_3_0); D3DAssemble X2028";
    pub const INSTRUCTION_MODIFIERS: &str =
        "\"Instruction Modifiers\" (vs), \"Modifiers for ps_2_0 and Above\", ps_1_X instruction modifiers; D3DAssemble X2024";
    pub const DCL: &str = "\"dcl_usage input (sm2, sm3 - vs asm)\", \"dcl_usage input (sm2, sm3 - ps asm)\", \"dcl_samplerType (sm2, sm3 - ps asm)\"; D3DAssemble X2024";
    pub const REGISTERS: &str = "D3DAssemble X2005";
    pub const RELATIVE: &str = "the register page's RelAddr column; D3DAssemble X2005";
    pub const SCALAR: &str = "\"Loop Counter Register\" (aL is a scalar); D3DAssemble X2022";
    pub const SOURCE_MODIFIERS: &str =
        "\"Pixel Shader Source Register Modifiers\", \"Vertex Shader Source Register Modifiers\"; D3DAssemble X2005";
    pub const COMPLEMENT: &str = "\"Source Register Modifiers\" (invert, ps_1_1 to ps_1_4); D3DAssemble X2029";
}

const SHIFTS: &[&str] = &["x2", "x4", "x8", "d2", "d4", "d8"];

/// The position of the first token after line `line_no` (1-based): the first line
/// after it with code (not blank, not only a `//` or `;` comment), at its first
/// non-blank character; else the end of the text.
fn next_token(lines: &[&str], line_no: usize) -> (usize, usize) {
    for (i, l) in lines.iter().enumerate().skip(line_no) {
        let t = l.trim_start();
        if !t.is_empty() && !t.starts_with("//") && !t.starts_with(';') {
            // 1-based: the line number and the column after the blanks (bounded by
            // the text's length).
            let blanks = l.chars().count().saturating_sub(t.chars().count());
            return (i.saturating_add(1), blanks.saturating_add(1));
        }
    }
    let last = lines.len().max(1);
    (last, lines.last().map_or(0, |l| l.chars().count()).saturating_add(1))
}

fn column(raw: &str, at: usize) -> usize {
    raw.get(..at).map_or(at, |s| s.chars().count()).saturating_add(1)
}

impl Checker<'_, '_> {
    fn error(&mut self, at: usize, len: usize, what: String, rule: &str, source: &str) {
        let message = format!("{what} [{rule}: {source}]");
        self.out.push(Diagnostic::new(Severity::Error, self.line, column(self.raw, at), len, &message, None));
    }

    fn instruction(&mut self, ins: &Instruction, v: &LineView<'_>) {
        let r = self.rules;
        let info = ins.opcode.info();
        let (wat, word) = v.word;
        let base = word.split('_').next().unwrap_or("");
        if matches!(ins.opcode, Opcode::Comment | Opcode::End) {
            return;
        }
        // Instructions by version.
        let exists = info.exists_in(self.kind, self.ver) || r.extra_instructions.contains(&ins.opcode);
        let tex_control = ins.opcode == Opcode::Tex && ins.controls != 0 && self.ver < crate::table::V2_0;
        if !exists || tex_control {
            self.error(
                wat,
                base.len().max(1),
                format!("`{base}` is not an instruction of {}", r.name),
                "instructions by version",
                source::INSTRUCTIONS,
            );
        }
        // Operand counts by version (`texld` takes two sources from ps_2_0, `sincos`
        // three in Shader Model 2 and one in 3_0).
        if let (true, Some((dst, srcs))) = (exists && !tex_control, info.operands(self.kind, self.ver)) {
            // Operand counts: a few each.
            let want = (dst as usize).saturating_add(srcs as usize);
            let found = (ins.dst.is_some() as usize).saturating_add(ins.srcs.len());
            if want != found && !matches!(ins.opcode, Opcode::Breakp) {
                // Too many: at the `,` before the first extra operand, as D3DAssemble
                // reports it; too few: at the instruction.
                let (at, len) = match want.checked_sub(1).and_then(|k| v.commas.get(k)) {
                    Some(&comma) if found > want => (comma, 1),
                    _ => (wat, word.len().max(1)),
                };
                self.error(
                    at,
                    len,
                    format!(
                        "`{base}` takes {want} operand{} in {}; found {found}",
                        if want == 1 { "" } else { "s" },
                        r.name
                    ),
                    "operands by version",
                    source::OPERANDS,
                );
            }
        }
        if ins.coissue && !r.coissue {
            // At the instruction after the `+`, as D3DAssemble reports it.
            self.error(
                wat,
                word.len().max(1),
                format!("co-issue (`+`) does not exist in {}", r.name),
                "co-issue",
                source::COISSUE,
            );
        }
        if ins.predicate.is_some() && !r.predication {
            // At the instruction after the predicate, as D3DAssemble reports it.
            let m = format!("{} has no predication", r.name);
            self.error(wat, word.len().max(1), m, "predication", source::PREDICATION);
        }
        // A comparison instruction names its comparison (`setp_gt`, `if_lt`, `break_ne`):
        // D3DAssemble reads `setp` alone as no instruction, and `if` / `break` with two
        // operands as the one-operand forms, refusing the `,` (X2000).
        if matches!(ins.opcode, Opcode::Ifc | Opcode::Breakc | Opcode::Setp) && ins.comparison().is_none() {
            let (at, len) = match (ins.opcode, v.commas.first()) {
                (Opcode::Ifc | Opcode::Breakc, Some(&comma)) => (comma, 1),
                _ => (wat, word.len().max(1)),
            };
            self.error(
                at,
                len,
                format!("`{base}` without a comparison (`{base}_gt`, `_eq`, `_ge`, `_lt`, `_ne`, `_le`)"),
                "comparisons",
                source::COMPARISON,
            );
        }
        // An empty write mask (`r0.`): D3DAssemble wants a component after the `.`.
        if ins.dst.is_some_and(|d| d.mask.0 == 0) {
            let end = v.operands.first().map_or(wat, |&(at, t)| at.saturating_add(t.len()));
            let at = v.commas.first().copied().unwrap_or(end);
            self.error(at, 1, "an empty write mask".to_string(), "write masks", source::MASK);
        }
        if ins.opcode == Opcode::Dcl {
            self.dcl_word(ins, wat, word);
        } else {
            self.modifiers(ins, wat, word);
        }
        // Operands.
        let has_dst = ins.dst.is_some();
        let parameters = match info.layout {
            Layout::Def | Layout::DefI | Layout::DefB | Layout::Dcl => 1,
            _ => (has_dst as usize).saturating_add(ins.srcs.len()),
        };
        for k in 0..parameters {
            // The operand's text, or (a line that does not show it) the instruction's.
            let (at, text) = v.operands.get(k).copied().unwrap_or((wat, ""));
            // The parameter the operand was parsed into: the rules decide on it; the
            // text gives the positions, and the spelling where `t0` and `a0` (or `o0`
            // and `oT0`) are one register type.
            let (reg, rel, modifier) = match (has_dst, k) {
                (true, 0) => match &ins.dst {
                    Some(d) => (d.reg, d.rel, None),
                    None => continue,
                },
                _ => match k.checked_sub(has_dst as usize).and_then(|s| ins.srcs.get(s)) {
                    Some(s) => (s.reg, s.rel, Some(s.modifier)),
                    None => continue,
                },
            };
            let written = Operand::new(at, text);
            let spelled = spellings(reg.ty, self.kind, self.ver).contains(&written.name)
                && written.index.is_some() == rel.is_relative();
            let fallback;
            let op = if spelled {
                written
            } else {
                // The text is not the parsed operand (a caller passed other text):
                // the register as the parameter names it, at the operand.
                fallback = ir_spelling(reg, self.kind, self.ver);
                let name_len = fallback.find(|ch: char| ch.is_ascii_digit()).unwrap_or(fallback.len());
                let (name, digits) = fallback.split_at(name_len);
                Operand { complement: false, name, digits, reg_at: at, index: None, suffix: written.suffix }
            };
            self.register(&op);
            let index = match op.index {
                Some((iat, text)) => Index::of_text(iat, text),
                None => Index::of_parameter(&rel, self.kind, self.ver, op.reg_at),
            };
            if let (Some(index), Some(file)) = (index, self.rules.register(op.name)) {
                self.index(file, &op, &index);
            }
            if let Some(m) = modifier {
                self.source_modifiers(&op, m, v.word);
            }
        }
    }

    /// `_sat`, `_pp`, `_centroid` and the shifts after an instruction's mnemonic.
    fn modifiers(&mut self, ins: &Instruction, wat: usize, word: &str) {
        let r = self.rules;
        let Some(dst) = &ins.dst else { return };
        let m = dst.modifiers.0;
        let checks = [
            (m & ResultModifiers::SATURATE != 0, r.sat, "`_sat`"),
            (m & ResultModifiers::PARTIAL_PRECISION != 0, r.pp, "`_pp`"),
            // D3DAssemble reads `_centroid` on `dcl` only (it refuses `texld_centroid`
            // too).
            (m & ResultModifiers::CENTROID != 0, false, "`_centroid` (on `dcl` only)"),
            (dst.shift != 0, r.shifts, "a result shift"),
        ];
        for (present, ok, what) in checks {
            if present && !ok {
                // At the instruction word, as D3DAssemble reports it.
                self.error(
                    wat,
                    word.len().max(1),
                    format!("{what} is not an instruction modifier of {}", r.name),
                    "instruction modifiers by version",
                    source::INSTRUCTION_MODIFIERS,
                );
            }
        }
    }

    /// The parts of a `dcl` word: a usage or a sampler type, then modifiers.
    fn dcl_word(&mut self, ins: &Instruction, wat: usize, word: &str) {
        let r = self.rules;
        let d = r.dcl;
        let mut bad = Vec::new();
        let texture = matches!(ins.body, Body::Dcl(t) if t.texture_type != 0);
        // Whether a usage is named, the word says (`dcl v1` and `dcl_position v1` are
        // one token); text that is not a `dcl` word says nothing.
        let is_modifier = |p: &str| matches!(p, "sat" | "pp" | "centroid") || SHIFTS.contains(&p);
        let usage = word.starts_with("dcl").then(|| {
            word.split('_').nth(1).filter(|p| !is_modifier(p) && !matches!(*p, "1d" | "2d" | "cube" | "volume"))
        });
        if texture {
            if !d.texture_type {
                bad.push(format!("`{word}`: {} has no sampler-type declaration", r.name));
            }
        } else {
            match usage {
                Some(Some(p)) => {
                    let name = p.trim_end_matches(|ch: char| ch.is_ascii_digit());
                    let index = p.strip_prefix(name).unwrap_or("");
                    if !d.usage {
                        bad.push(format!("`dcl_{p}`: a `dcl` of {} takes no usage", r.name));
                    } else if !d.position0 && name == "position" && index.trim_start_matches('0').is_empty() {
                        bad.push(format!("`dcl_{p}`: the position input of {} is `vPos`", r.name));
                    }
                }
                Some(None) if !d.plain => bad.push(format!("a `dcl` of {} names a usage (`dcl_texcoord0`)", r.name)),
                _ => {}
            }
        }
        if let Some(dst) = &ins.dst {
            let m = dst.modifiers.0;
            // (The parser keeps no shift on a `dcl`: the word shows it.)
            let shift = dst.shift != 0 || word.split('_').skip(1).any(|p| SHIFTS.contains(&p));
            if m & ResultModifiers::SATURATE != 0 || shift {
                bad.push(
                    "`_sat` or a shift on a `dcl` (a declaration takes `_pp` and `_centroid` only, in pixel shaders)"
                        .to_string(),
                );
            }
            if m & (ResultModifiers::PARTIAL_PRECISION | ResultModifiers::CENTROID) != 0 && !d.pp_centroid {
                bad.push(format!("`_pp` or `_centroid` on a `dcl` of {}", r.name));
            }
        }
        // At the `dcl` word, as D3DAssemble reports it.
        for what in bad {
            self.error(wat, word.len().max(1), what, "dcl modifiers", source::DCL);
        }
    }

    /// The register an operand names and its index.
    fn register(&mut self, op: &Operand<'_>) {
        let r = self.rules;
        let written = format!("{}{}", op.name, op.digits);
        match r.register(op.name) {
            None => self.error(
                op.reg_at,
                op.len(),
                format!("`{written}` is not a register of {}", r.name),
                "register files by version",
                &format!("\"{}\"; {}", r.register_page, source::REGISTERS),
            ),
            Some(file) => {
                let n: Option<u32> = op.digits.parse().ok();
                if let (true, Some(n)) = (file.numbered, n) {
                    if n >= file.count {
                        self.error(
                            op.reg_at,
                            op.len(),
                            format!(
                                "`{written}`: {} has {} `{}#` register{} ({}0 to {}{})",
                                r.name,
                                file.count,
                                file.name,
                                if file.count == 1 { "" } else { "s" },
                                file.name,
                                file.name,
                                file.count.saturating_sub(1)
                            ),
                            "register numbers by version",
                            &format!("\"{}\"; {}", r.register_page, source::REGISTERS),
                        );
                    }
                }
            }
        }
    }

    /// The address register inside `[...]`.
    fn index(&mut self, file: &data::RegFile, op: &Operand<'_>, index: &Index) {
        let r = self.rules;
        let written = format!("{}{}", op.name, op.digits);
        let (addr, at, len) = (index.addr.as_str(), index.at, index.len);
        // The address registers are `a0` and `aL`; D3DAssemble's assembler reads any
        // register of the version there from vs_2_0 on (`c0[r1.x]`; the validator
        // refuses it), vs_1_1 only `a0.x` (X2007).
        let name_len = addr.find(|ch: char| ch.is_ascii_digit()).unwrap_or(addr.len());
        let any = addr != "a0" && addr != "aL";
        let known = match addr {
            "a0" => r.register("a").is_some(),
            "aL" => r.register("aL").is_some(),
            _ => !r.a0_x_only && r.register(split_at(addr, name_len).0).is_some(),
        };
        if !known {
            self.error(
                at,
                len,
                format!("`{addr}` is not an address register of {}", r.name),
                "relative addressing",
                &format!("\"{}\"; {}", r.register_page, source::RELATIVE),
            );
            return;
        }
        // Any register indexes a file that takes an index at all.
        let indexable = if any { !file.rel.is_empty() } else { file.rel.contains(&addr) };
        if !indexable {
            let m = if file.rel.is_empty() {
                format!("`{written}`: `{}#` registers are not indexed in {}", file.name, r.name)
            } else {
                format!(
                    "`{written}`: `{}#` registers are indexed by {} in {}",
                    file.name,
                    file.rel.join(" or "),
                    r.name
                )
            };
            // At the indexed register, as D3DAssemble reports it.
            self.error(
                op.reg_at,
                op.len(),
                m,
                "relative addressing",
                &format!("\"{}\"; {}", r.register_page, source::RELATIVE),
            );
        }
        if let (true, Some((sw, sw_len))) = (addr == "aL", index.swizzle) {
            // At the swizzle, as D3DAssemble reports it.
            self.error(sw, sw_len, "`aL` is read without a swizzle".to_string(), "relative addressing", source::SCALAR);
        }
    }

    /// `1 -`, `_bias`, `_bx2`, `_x2`, `_dz`, `_dw`, `_abs` on a source.
    fn source_modifiers(&mut self, op: &Operand<'_>, m: SrcModifier, _word: (usize, &str)) {
        use SrcModifier as M;
        let r = self.rules;
        let s = r.source;
        let (ok, w) = match m {
            M::Comp => (s.complement, "1 -"),
            M::Bias | M::BiasNeg => (s.bias_bx2, "_bias"),
            M::Sign | M::SignNeg => (s.bias_bx2, "_bx2"),
            M::X2 | M::X2Neg => (s.x2, "_x2"),
            M::Dz => (s.dz_dw, "_dz"),
            M::Dw => (s.dz_dw, "_dw"),
            M::Abs | M::AbsNeg => (s.abs, "_abs"),
            _ => (true, ""),
        };
        if ok {
            return;
        }
        if m == M::Comp {
            // At the token after the instruction (where it ends), as D3DAssemble
            // reports it.
            let message = format!(
                "the `1 -` (complement) source modifier does not exist in {} [source modifiers by version: {}]",
                r.name,
                source::COMPLEMENT
            );
            self.out.push(Diagnostic::new(Severity::Error, self.next.0, self.next.1, 1, &message, None));
        } else {
            // At the register the suffix is read as part of, as D3DAssemble reports it.
            // The suffix with its `_`.
            let suffix_len = op.suffix.map_or(0, |(_, t)| t.len().saturating_add(1));
            self.error(
                op.reg_at,
                op.len().saturating_add(suffix_len),
                format!("the `{w}` source modifier does not exist in {}", r.name),
                "source modifiers by version",
                source::SOURCE_MODIFIERS,
            );
        }
    }
}
