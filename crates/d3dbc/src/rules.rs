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

pub mod data;

use crate::ir::{Instruction, Item, ShaderKind};
use crate::parse::{columns_len, Diagnostic, Parsed, Severity};
use crate::table::{Layout, Opcode};
use data::VersionRules;

/// The rule violations of a parsed program; `text` is the text it was parsed from
/// (line numbers in `parsed` count from 1 at its start). Errors and warnings (a
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
        let mut c = Checker { rules, kind: version.kind, ver: version.ver(), line: line_no, raw, out: &mut out };
        c.instruction(ins, &LineView::new(raw));
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
    coissue: Option<usize>,
    predicate: Option<(usize, usize)>,
    word: (usize, &'a str),
    operands: Vec<(usize, &'a str)>,
    /// The byte offset of the `,` before each operand after the first.
    commas: Vec<usize>,
}

impl<'a> LineView<'a> {
    fn new(raw: &'a str) -> LineView<'a> {
        let code_end = [raw.find("//"), raw.find(';')].into_iter().flatten().min().unwrap_or(raw.len());
        let code = &raw[..code_end];
        let mut v = LineView::default();
        let mut pos = columns_len(code);
        let skip = |p: usize| p + code[p..].len() - code[p..].trim_start().len();
        pos = skip(pos);
        if code[pos..].starts_with('/') {
            pos = skip(pos + 1);
        }
        if code[pos..].starts_with('+') {
            v.coissue = Some(pos);
            pos = skip(pos + 1);
        }
        if code[pos..].starts_with('(') {
            let end = code[pos..].find(')').map_or(code.len(), |e| pos + e + 1);
            v.predicate = Some((pos, end - pos));
            pos = skip(end);
        }
        let wlen = code[pos..].find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).unwrap_or(code.len() - pos);
        v.word = (pos, &code[pos..pos + wlen]);
        pos += wlen;
        if !code[pos..].trim().is_empty() {
            let mut at = pos;
            for (k, part) in code[pos..].split(',').enumerate() {
                if k > 0 {
                    v.commas.push(at - 1);
                }
                let lead = part.len() - part.trim_start().len();
                v.operands.push((at + lead, part.trim()));
                at += part.len() + 1;
            }
        }
        v
    }
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
        let mut i = 0;
        let b = s.as_bytes();
        let skip_ws = |mut i: usize| {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            i
        };
        if b.first() == Some(&b'-') {
            i = skip_ws(1);
        } else if b.first() == Some(&b'1') {
            let j = skip_ws(1);
            if b.get(j) == Some(&b'-') {
                o.complement = true;
                i = skip_ws(j + 1);
            }
        }
        if b.get(i) == Some(&b'!') {
            i = skip_ws(i + 1);
        }
        o.reg_at = at + i;
        let name_end = i + s[i..].find(|ch: char| !ch.is_ascii_alphabetic()).unwrap_or(s.len() - i);
        let digits_end = name_end + s[name_end..].find(|ch: char| !ch.is_ascii_digit()).unwrap_or(s.len() - name_end);
        o.name = &s[i..name_end];
        o.digits = &s[name_end..digits_end];
        let mut j = digits_end;
        let suffix = |j: usize| -> (usize, &'a str) {
            let end = j + 1 + s[j + 1..].find(|ch: char| !ch.is_ascii_alphanumeric()).unwrap_or(s.len() - j - 1);
            (end, &s[j + 1..end])
        };
        loop {
            match b.get(j) {
                Some(b'_') => {
                    let (end, w) = suffix(j);
                    o.suffix = Some((at + j, w));
                    j = end;
                }
                Some(b'[') => {
                    let close = s[j..].find(']').map_or(s.len(), |c| j + c);
                    o.index = Some((at + j + 1, &s[j + 1..close]));
                    j = (close + 1).min(s.len());
                }
                Some(b'.') => {
                    j += 1;
                    while j < b.len() && b[j].is_ascii_alphabetic() {
                        j += 1;
                    }
                }
                _ => break,
            }
        }
        o
    }

    fn len(&self) -> usize {
        self.name.len() + self.digits.len()
    }
}

struct Checker<'r, 'o> {
    rules: &'static VersionRules,
    kind: ShaderKind,
    ver: u16,
    line: usize,
    raw: &'r str,
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

fn column(raw: &str, at: usize) -> usize {
    raw.get(..at).map_or(at, |s| s.chars().count()) + 1
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
            let want = dst as usize + srcs as usize;
            let found = ins.dst.is_some() as usize + ins.srcs.len();
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
        if let (true, Some(_)) = (ins.coissue && !r.coissue, v.coissue) {
            // At the instruction after the `+`, as D3DAssemble reports it.
            self.error(
                wat,
                word.len().max(1),
                format!("co-issue (`+`) does not exist in {}", r.name),
                "co-issue",
                source::COISSUE,
            );
        }
        if let (true, Some(_)) = (ins.predicate.is_some() && !r.predication, v.predicate) {
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
        if let (true, Some(&(_, dst))) = (ins.dst.is_some(), v.operands.first()) {
            if dst.ends_with('.') {
                let at = v.commas.first().copied().unwrap_or(v.operands[0].0 + dst.len());
                self.error(at, 1, "an empty write mask".to_string(), "write masks", source::MASK);
            }
        }
        if ins.opcode == Opcode::Dcl {
            self.dcl_word(wat, word);
        } else {
            self.modifiers(wat, word);
        }
        // Operands.
        let has_dst = ins.dst.is_some();
        let register_operands = match info.layout {
            Layout::Def | Layout::DefI | Layout::DefB | Layout::Dcl => 1,
            _ => v.operands.len(),
        };
        for (k, &(at, text)) in v.operands.iter().take(register_operands).enumerate() {
            let op = Operand::new(at, text);
            if op.name.is_empty() {
                continue;
            }
            self.register(&op);
            let is_src = !(has_dst && k == 0);
            if is_src {
                self.source_modifiers(&op, v.word);
            }
        }
    }

    /// `_sat`, `_pp`, `_centroid` and the shifts after an instruction's mnemonic.
    fn modifiers(&mut self, wat: usize, word: &str) {
        let r = self.rules;
        for (k, part) in word.split('_').enumerate() {
            if k == 0 {
                continue;
            }
            let (ok, what) = match part {
                "sat" => (r.sat, "`_sat`"),
                "pp" => (r.pp, "`_pp`"),
                // D3DAssemble reads `_centroid` on `dcl` only (it refuses
                // `texld_centroid` too).
                "centroid" => (false, "`_centroid` (on `dcl` only)"),
                p if SHIFTS.contains(&p) => (r.shifts, "a result shift"),
                _ => continue,
            };
            if !ok {
                // At the instruction word, as D3DAssemble reports it.
                self.error(
                    wat,
                    word.len(),
                    format!("{what} (`_{part}`) is not an instruction modifier of {}", r.name),
                    "instruction modifiers by version",
                    source::INSTRUCTION_MODIFIERS,
                );
            }
        }
    }

    /// The parts of a `dcl` word: a usage or a sampler type, then modifiers.
    fn dcl_word(&mut self, wat: usize, word: &str) {
        let r = self.rules;
        let d = r.dcl;
        let mut parts = word.split('_').skip(1).peekable();
        let mut at = wat + 3;
        let mut bad = Vec::new();
        let first = parts.peek().copied();
        let is_modifier = |p: &str| matches!(p, "sat" | "pp" | "centroid") || SHIFTS.contains(&p);
        match first {
            Some(p) if matches!(p, "1d" | "2d" | "cube" | "volume") => {
                if !d.texture_type {
                    bad.push((at, p.len() + 1, format!("`dcl_{p}`: {} has no sampler-type declaration", r.name)));
                }
                at += p.len() + 1;
                parts.next();
            }
            Some(p) if !is_modifier(p) => {
                let name = p.trim_end_matches(|ch: char| ch.is_ascii_digit());
                let index = &p[name.len()..];
                if !d.usage {
                    bad.push((at, p.len() + 1, format!("`dcl_{p}`: a `dcl` of {} takes no usage", r.name)));
                } else if !d.position0 && name == "position" && index.trim_start_matches('0').is_empty() {
                    bad.push((at, p.len() + 1, format!("`dcl_{p}`: the position input of {} is `vPos`", r.name)));
                }
                at += p.len() + 1;
                parts.next();
            }
            _ => {
                if !d.plain {
                    bad.push((wat, 3, format!("a `dcl` of {} names a usage (`dcl_texcoord0`)", r.name)));
                }
            }
        }
        for p in parts {
            let ok = match p {
                "pp" | "centroid" => d.pp_centroid,
                _ => false,
            };
            if !ok {
                let what = if matches!(p, "pp" | "centroid") {
                    format!("`_{p}` on a `dcl` of {}", r.name)
                } else {
                    format!("`_{p}` on a `dcl` (a declaration takes `_pp` and `_centroid` only, in pixel shaders)")
                };
                bad.push((at, p.len() + 1, what));
            }
            at += p.len() + 1;
        }
        // At the `dcl` word, as D3DAssemble reports it.
        for (_, _, what) in bad {
            self.error(wat, word.len(), what, "dcl modifiers", source::DCL);
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
                                file.count - 1
                            ),
                            "register numbers by version",
                            &format!("\"{}\"; {}", r.register_page, source::REGISTERS),
                        );
                    }
                }
                if let Some((iat, index)) = op.index {
                    self.index(file, op, &written, iat, index);
                }
            }
        }
    }

    /// The address register inside `[...]`.
    fn index(&mut self, file: &data::RegFile, op: &Operand<'_>, written: &str, iat: usize, index: &str) {
        let r = self.rules;
        let Some(start) = index.find(|ch: char| ch.is_ascii_alphabetic()) else { return };
        let rest = &index[start..];
        let len = rest.find(|ch: char| !ch.is_ascii_alphanumeric()).unwrap_or(rest.len());
        let addr = &rest[..len];
        let at = iat + start;
        // The address registers are `a0` and `aL`; D3DAssemble's assembler reads any
        // register of the version there from vs_2_0 on (`c0[r1.x]`; the validator
        // refuses it), vs_1_1 only `a0.x` (X2007).
        let name_len = addr.find(|ch: char| ch.is_ascii_digit()).unwrap_or(addr.len());
        let any = addr != "a0" && addr != "aL";
        let known = match addr {
            "a0" => r.register("a").is_some(),
            "aL" => r.register("aL").is_some(),
            _ => !r.a0_x_only && r.register(&addr[..name_len]).is_some(),
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
        if let (true, Some(dot)) = (addr == "aL", rest[len..].trim_start().strip_prefix('.')) {
            // At the swizzle, as D3DAssemble reports it.
            let sw = at + rest.len() - dot.len();
            self.error(
                sw,
                dot.find(|ch: char| !ch.is_ascii_alphabetic()).unwrap_or(dot.len()).max(1),
                "`aL` is read without a swizzle".to_string(),
                "relative addressing",
                source::SCALAR,
            );
        }
    }

    /// `1 -`, `_bias`, `_bx2`, `_x2`, `_dz`, `_dw`, `_abs` on a source.
    fn source_modifiers(&mut self, op: &Operand<'_>, (wat, word): (usize, &str)) {
        let r = self.rules;
        let s = r.source;
        if op.complement && !s.complement {
            // At the instruction word, as D3DAssemble reports it.
            self.error(
                wat,
                word.len().max(1),
                format!("the `1 -` (complement) source modifier does not exist in {}", r.name),
                "source modifiers by version",
                source::COMPLEMENT,
            );
        }
        if let Some((_, w)) = op.suffix {
            let ok = match w {
                "bias" | "bx2" => s.bias_bx2,
                "x2" => s.x2,
                "dz" | "db" | "dw" | "da" => s.dz_dw,
                "abs" => s.abs,
                _ => true,
            };
            if !ok {
                // At the register the suffix is read as part of, as D3DAssemble
                // reports it.
                self.error(
                    op.reg_at,
                    op.len() + w.len() + 1,
                    format!("the `_{w}` source modifier does not exist in {}", r.name),
                    "source modifiers by version",
                    source::SOURCE_MODIFIERS,
                );
            }
        }
    }
}
