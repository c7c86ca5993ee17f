//! Hand-written Shader Model 1–3 assembly source, as Microsoft's `D3DAssemble` reads
//! it: the preprocessor first ([`crate::preprocess`]), then a free-form token stream in
//! which line breaks mean nothing (an instruction may span lines, two may share one).
//!
//! The tokens are cut into instructions (a mnemonic, then operands separated by
//! commas), and each instruction is read by the listing parser with the source
//! spellings on: dotted versions (`vs.1.1`), `1.0f` float suffixes, mixed swizzle and
//! mask letter sets (`.xygb`: each letter is its own component), constant index
//! arithmetic (`c[2 + a0.x + 12]`, `c4[2]`) and blanks anywhere between tokens (`- c0`,
//! `r0 . x`). Diagnostics are placed in the original files, through `#include` and
//! `#line`.
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)]

use super::*;
use crate::preprocess::{self, Include, Kind, NoInclude, Origin, Token};

/// How [`assemble_source`] reads a source.
#[derive(Clone, Copy, Default)]
pub struct SourceOptions<'a> {
    /// Keep programs that the per-version rules ([`crate::rules`]) refuse but the token
    /// format encodes (for testing the validator on them); the rules are not checked.
    pub lenient: bool,
    /// The `#include` handler; `None`: every `#include` fails, as in `D3DAssemble`
    /// given no `ID3DInclude`.
    pub include: Option<&'a dyn Include>,
    /// The source's file name in diagnostics (`main.asm` when `None`).
    pub file_name: Option<&'a str>,
}

/// One instruction of a source as the parser read it, and where it came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Statement {
    /// The instruction's tokens on one line (comments and blanks between tokens that
    /// need none removed).
    pub text: String,
    /// The position in the original files of each character of `text`, and one past
    /// its end.
    pub origins: Vec<Origin>,
}

impl Parsed {
    /// A diagnostic at characters `at .. at + len` of instruction `item`'s
    /// [`Statement::text`], placed in the original file (for hand-written source).
    /// `None` when `item` has no statement (a listing).
    pub fn diagnostic_at(
        &self,
        item: usize,
        at: usize,
        len: usize,
        severity: Severity,
        message: &str,
        expected: Option<&str>,
    ) -> Option<Diagnostic> {
        let st = self.statements.get(item)?;
        let o = st.origins.get(at).or(st.origins.last())?;
        let d = Diagnostic::new(severity, o.line as usize, o.column as usize, len, message, expected);
        Some(match self.files.get(o.file as usize) {
            Some(f) => d.in_file(f),
            None => d,
        })
    }
}

/// Parses hand-written source: preprocessing, then instructions. Errors and warnings
/// name their file ([`Diagnostic::file`]).
pub fn parse_source(text: &str, options: &SourceOptions<'_>) -> Result<Parsed, Vec<Diagnostic>> {
    let name = options.file_name.unwrap_or("main.asm");
    let include: &dyn Include = options.include.unwrap_or(&NoInclude);
    let pre = preprocess::preprocess(text, name, include)?;
    let files = pre.files;
    let place = |d: &mut Diagnostic, origins: &[Origin]| {
        let o = origins.get(d.column.saturating_sub(1)).or(origins.last()).copied().unwrap_or_default();
        d.line = o.line as usize;
        d.column = o.column as usize;
        d.file = files.get(o.file as usize).cloned();
    };
    let mut p = Parser::default();
    let mut items: Vec<Item<'static>> = Vec::new();
    let mut lines = Vec::new();
    let mut debug = Vec::new();
    let mut statements = Vec::new();
    let mut version_line = 0;
    let mut first_origin = None;
    // Where the main source ends: what an instruction cut short at the end reaches.
    let eof = Origin {
        file: 0,
        line: text.matches('\n').count().saturating_add(1).min(u32::MAX as usize) as u32,
        column: text.rsplit('\n').next().unwrap_or("").chars().count().saturating_add(1).min(u32::MAX as usize) as u32,
    };
    // Each statement's origins, by statement number (the parser's line number).
    let mut all_origins: Vec<Vec<Origin>> = Vec::new();
    for range in split(&pre.tokens) {
        // An instruction that ends early is reported where the next token is (or at
        // the end of the source), as `D3DAssemble` reports it.
        let next = pre.tokens.get(range.end).map_or(eof, |t| t.origin);
        let toks = pre.tokens.get(range).unwrap_or_default();
        let (canon, origins) = canonical(toks, next);
        // `canonical` ends the origins with `next`: there is a first one.
        let first = origins.first().copied().unwrap_or(next);
        first_origin.get_or_insert(first);
        let (ne, nw, ni) = (p.errors.len(), p.warnings.len(), items.len());
        let had_version = p.version.is_some();
        // The statement number, bounded by the token count.
        let mut c = Cursor::new(&canon, all_origins.len().saturating_add(1));
        c.source = true;
        p.code_line(&mut c, &mut version_line, &mut items, &mut lines, &mut debug, None, None);
        for d in p.errors.iter_mut().skip(ne).chain(p.warnings.iter_mut().skip(nw)) {
            place(d, &origins);
        }
        // One macro expanding to many bad tokens: one error for that position.
        let before = ne.checked_sub(1).and_then(|k| p.errors.get(k));
        if before.is_some_and(|b| p.errors.get(ne) == Some(b)) {
            p.errors.truncate(ne);
        }
        if !had_version {
            version_line = first.line as usize;
        }
        if items.len() > ni {
            if let (Some(v), Some(Item::Instruction(ins))) = (p.version, items.last_mut()) {
                sub_as_add(v, ins);
            }
            let o = first;
            if let Some(l) = lines.last_mut() {
                *l = o.line as usize;
            }
            if let Some(dbg) = debug.last_mut() {
                dbg.source = Some(SourceLine { file: Some(o.file as usize), line: o.line });
            }
            statements.push(Statement { text: canon, origins: origins.clone() });
        }
        all_origins.push(origins);
    }
    p.warnings.extend(pre.warnings);
    let Some(version) = p.version else {
        let o = first_origin.unwrap_or(Origin { file: 0, line: 1, column: 1 });
        let d = Diagnostic::new(
            Severity::Error,
            o.line as usize,
            o.column as usize,
            1,
            "no shader version",
            Some("a version such as `vs.1.1`, `vs_2_0` or `ps_3_0`"),
        );
        p.errors.push(d.in_file(files.get(o.file as usize).map_or(name, |s| s.as_str())));
        return Err(p.errors);
    };
    for (opcode, line, column, _) in std::mem::take(&mut p.blocks) {
        let m = opcode.info().mnemonic;
        // At the opener: the parser's line is the statement's number.
        let at = all_origins.get(line.wrapping_sub(1)).and_then(|o| o.get(column.saturating_sub(1)).or(o.last()));
        let o = at.copied().unwrap_or_default();
        let d = Diagnostic::new(
            Severity::Warning,
            o.line as usize,
            o.column as usize,
            1,
            &format!("`{m}` is never closed"),
            Some(closer_name(opcode)),
        );
        p.warnings.push(match files.get(o.file as usize) {
            Some(f) => d.in_file(f),
            None => d,
        });
    }
    if !p.errors.is_empty() {
        return Err(p.errors);
    }
    Ok(Parsed {
        program: Program { version, items },
        warnings: p.warnings,
        version_line,
        version_text: p.version_text,
        lines,
        debug,
        files,
        header: None,
        slots: None,
        statements,
    })
}

/// `D3DAssemble` writes `sub d, a, b` as `add d, a, -b` outside ps_1_x (its recorded
/// token streams: opcode 2, the second source negated); ps_1_x keeps the `sub` opcode.
/// Only a second source without a negation is rewritten (`b` or `b_abs`): the streams
/// recorded show no other, so `sub` with `-b` is encoded as written.
fn sub_as_add(version: Version, ins: &mut Instruction) {
    let ps1 = version.kind == ShaderKind::Pixel && version.major == 1;
    if ins.opcode != Opcode::Sub || ps1 || ins.srcs.len() != 2 {
        return;
    }
    let Some(second) = ins.srcs.get_mut(1) else { return };
    second.modifier = match second.modifier {
        SrcModifier::None => SrcModifier::Neg,
        SrcModifier::Abs => SrcModifier::AbsNeg,
        _ => return,
    };
    ins.opcode = Opcode::Add;
}

/// Assembles hand-written source to a token stream (no comment blocks: `D3DAssemble`
/// writes none unless asked for debug information). Unless `options.lenient`, the
/// per-version rules ([`crate::rules::check`]) are errors. Returns the stream and the
/// warnings.
pub fn assemble_source(text: &str, options: &SourceOptions<'_>) -> Result<(Vec<u8>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut parsed = parse_source(text, options)?;
    if !options.lenient {
        // What the parser already knows the profile forbids (a register file, modifier
        // or instruction the version does not have), then the per-version rules: their
        // errors refuse the program, their warnings are kept.
        let mut broken: Vec<Diagnostic> =
            parsed.warnings.iter().filter(|d| d.message.ends_with(OUTSIDE_RULES)).cloned().collect();
        let main = options.file_name.unwrap_or("main.asm");
        for mut d in crate::rules::check(&parsed, text) {
            if d.file.is_none() {
                d.file = Some(main.to_string());
            }
            match d.severity {
                Severity::Error => broken.push(d),
                Severity::Warning => parsed.warnings.push(d),
            }
        }
        if !broken.is_empty() {
            for d in &mut broken {
                d.severity = Severity::Error;
            }
            return Err(broken);
        }
    }
    let bytes = crate::encode(&parsed.program).map_err(|e| {
        let o = parsed.statements.first().and_then(|s| s.origins.first().copied()).unwrap_or_default();
        vec![Diagnostic::new(Severity::Error, o.line as usize, o.column as usize, 1, &e.to_string(), None)]
    })?;
    Ok((bytes, parsed.warnings))
}

/// True when `text` looks like hand-written source rather than a listing: its first
/// token (after comments and blanks, `//`, `/* */` or `;`) is a preprocessor directive
/// or a dotted version (`vs.1.1`), or the text has a `;` comment, a `/* */` comment
/// or a directive line anywhere.
pub fn looks_like_source(text: &str) -> bool {
    let mut it = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//"));
    let Some(first) = it.next() else { return false };
    let word: String = first.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '_').collect();
    let dotted = (word.starts_with("vs.") || word.starts_with("ps.")) && word.len() > 3;
    dotted
        || first.starts_with('#')
        || first.starts_with(';')
        || first.starts_with("/*")
        || text.lines().any(|l| {
            let t = l.trim_start();
            let code = t.split("//").next().unwrap_or("");
            code.contains(';') || code.contains("/*") || (t.starts_with('#') && !t.starts_with("#line"))
        })
}

/// How the parser's warnings about forms the profile's rules forbid end.
const OUTSIDE_RULES: &str = "outside the profile's rules";

/// The mnemonics (before any `_` suffix) that take no operands.
const NO_OPERANDS: [&str; 8] = ["nop", "else", "endif", "endloop", "endrep", "ret", "phase", "break"];

/// Cuts the token stream into instructions: `[+] [(predicate)] mnemonic operand, ...`,
/// the version first. A token that starts no instruction is one on its own (the
/// parser reports it).
fn split(tokens: &[Token]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    let n = tokens.len();
    let text = |i: usize| tokens.get(i).map_or("", |t| t.text.as_str());
    let kind = |i: usize| tokens.get(i).map(|t| t.kind);
    let glued = |i: usize| tokens.get(i).is_some_and(|t| !t.space_before);
    // Token indices stay within one past the token count: `saturating_add` never
    // saturates.
    let next = |i: usize| i.saturating_add(1);
    while i < n {
        let start = i;
        if out.is_empty() {
            // The version: `vs_1_1`, or `vs` and a number glued to it (`vs.1.1`).
            i = next(i);
            if matches!(text(start), "vs" | "ps")
                && kind(i) == Some(Kind::Number)
                && glued(i)
                && text(i).starts_with('.')
            {
                i = next(i);
            }
            out.push(start..i);
            continue;
        }
        if text(i) == "+" {
            i = next(i);
        }
        if text(i) == "(" {
            let mut k = next(i);
            while k < n && k < i.saturating_add(12) && text(k) != ")" {
                k = next(k);
            }
            i = if text(k) == ")" { next(k) } else { next(i) };
        }
        if kind(i) != Some(Kind::Ident) {
            let end = next(i).min(n).max(next(start));
            out.push(start..end);
            i = end;
            continue;
        }
        let base = text(i).split('_').next().unwrap_or("");
        let bare = !text(i).contains('_');
        i = next(i);
        if !(NO_OPERANDS.contains(&base) && (bare || base != "break")) {
            i = operand(tokens, i);
            while text(i) == "," {
                i = operand(tokens, next(i));
            }
        }
        out.push(start..i);
    }
    out
}

/// The end of the operand starting at `i`: signs, `1 -`, then a number, or a
/// register with its index, swizzle or mask.
fn operand(tokens: &[Token], mut i: usize) -> usize {
    let text = |i: usize| tokens.get(i).map_or("", |t| t.text.as_str());
    let kind = |i: usize| tokens.get(i).map(|t| t.kind);
    let glued = |i: usize| tokens.get(i).is_some_and(|t| !t.space_before);
    // Token indices stay within a few past the token count: `saturating_add` never
    // saturates.
    let ahead = |i: usize, k: usize| i.saturating_add(k);
    if text(i) == "(" {
        // Not an operand form: let the parser say so.
        return ahead(i, 1);
    }
    if kind(i) == Some(Kind::Number) && text(ahead(i, 1)) == "-" && kind(ahead(i, 2)) == Some(Kind::Ident) {
        i = ahead(i, 2);
    }
    // At most four signs.
    for _ in 0..4 {
        if !matches!(text(i), "-" | "+" | "!") {
            break;
        }
        i = ahead(i, 1);
    }
    match kind(i) {
        // `1.#INF`, `-1.#IND`: the text Microsoft's disassembler prints.
        Some(Kind::Number)
            if text(ahead(i, 1)) == "#" && glued(ahead(i, 1)) && kind(ahead(i, 2)) == Some(Kind::Ident) =>
        {
            ahead(i, 3)
        }
        Some(Kind::Number) => ahead(i, 1),
        Some(Kind::Ident) => {
            i = ahead(i, 1);
            while text(i) == "[" {
                let mut k = ahead(i, 1);
                while k < tokens.len() && text(k) != "]" && text(k) != "," && k < ahead(i, 32) {
                    k = ahead(k, 1);
                }
                i = if text(k) == "]" { ahead(k, 1) } else { k };
            }
            if text(i) == "." {
                i = ahead(i, 1);
                if kind(i) == Some(Kind::Ident) {
                    i = ahead(i, 1);
                }
            }
            i
        }
        _ => i,
    }
}

/// The tokens as one line for the parser, with the origin of each character (and, for
/// the end of the line, `end`): blanks only between two tokens that would otherwise run
/// together (words and numbers).
fn canonical(tokens: &[Token], end: Origin) -> (String, Vec<Origin>) {
    let mut s = String::new();
    let mut origins = Vec::new();
    let wordish = |k: Kind| matches!(k, Kind::Ident | Kind::Number | Kind::Str);
    let mut before: Option<Kind> = None;
    for t in tokens {
        // `vs.1.1` is a word and a number glued to it.
        let glued = t.kind == Kind::Number && t.text.starts_with('.') && !t.space_before;
        if before.is_some_and(wordish) && wordish(t.kind) && !glued {
            s.push(' ');
            origins.push(t.origin);
        }
        for (j, ch) in t.text.chars().enumerate() {
            s.push(ch);
            let mut o = t.origin;
            if !t.expanded {
                o.column = o.column.saturating_add(j as u32);
            }
            origins.push(o);
        }
        before = Some(t.kind);
    }
    origins.push(end);
    (s, origins)
}
