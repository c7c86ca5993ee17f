//! The preprocessor that Microsoft's `D3DAssemble` runs over Shader Model 1–3 assembly
//! source before it reads instructions: the C preprocessor of the HLSL compiler
//! ("Preprocessor Directives (DirectX HLSL)" in Microsoft's HLSL reference) with the
//! assembler's `;` comments.
//!
//! It reads `//`, `/* */` and `;` comments, `\` line continuations, `#define` (object
//! and function-like macros, `#` and `##`), `#undef`, `#include "file"` / `<file>`
//! through an [`Include`] handler, `#line`, `#if` / `#ifdef` / `#ifndef` / `#elif` /
//! `#else` / `#endif` with C integer expressions and `defined`, `#error` and `#pragma`
//! (warned and ignored, as `D3DAssemble` does). Macros follow C's rule that a macro is
//! not expanded again inside its own expansion, so a recursive `#define` ends (and what
//! it leaves is then not an instruction or register).
//!
//! The output is a list of tokens, each with the position it came from in the original
//! files (through `#include` and `#line`); tokens of a macro expansion carry the position
//! of the macro's name where it was used. Expansion is bounded: the nesting of includes,
//! of macro arguments and of conditionals, the number of expansions and the number of
//! tokens are capped by [`LIMITS`], and going past a cap is an error, never a hang.
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)]

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;

use diagnostic::{Diagnostic, Severity};

/// The preprocessor's bounds, in one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Files open at once through `#include` (the main source is depth 0): 31, as
    /// `D3DAssemble` allows (a 32nd nested `#include` is its error X1506).
    pub include_depth: usize,
    /// Macro invocations nested inside macro arguments.
    pub argument_depth: usize,
    /// Open `#if` blocks.
    pub conditional_depth: usize,
    /// Macro expansions in a run.
    pub expansions: usize,
    /// Tokens the output (and any one expansion in progress) may hold.
    pub tokens: usize,
    /// Bytes of source read in a run (the main source and every included file).
    pub source_bytes: usize,
}

/// The bounds [`preprocess`] keeps.
pub const LIMITS: Limits = Limits {
    include_depth: 31,
    argument_depth: 64,
    conditional_depth: 256,
    expansions: 200_000,
    tokens: 1_000_000,
    source_bytes: 64 << 20,
};

/// What `#include` reads files through.
pub trait Include {
    /// The text of the file `name` (`system`: written `<name>`), included from the file
    /// `from` (a name [`Include::open`] returned, or the main source's).
    fn open(&self, name: &str, system: bool, from: &str) -> Result<String, String>;
}

/// No include handler: every `#include` fails (`D3DAssemble` given no `ID3DInclude`).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoInclude;

impl Include for NoInclude {
    fn open(&self, name: &str, _system: bool, _from: &str) -> Result<String, String> {
        Err(format!("failed to open source file: '{name}' (no include handler)"))
    }
}

/// Files in one folder, as Microsoft's standard include handler
/// (`D3D_COMPILE_STANDARD_FILE_INCLUDE`) reads them for a source in that folder: a
/// name is read relative to the folder of the main source.
#[derive(Debug, Clone)]
pub struct FileInclude {
    /// The main source's folder.
    pub dir: PathBuf,
}

impl FileInclude {
    /// Files relative to `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> FileInclude {
        FileInclude { dir: dir.into() }
    }
}

impl Include for FileInclude {
    fn open(&self, name: &str, _system: bool, _from: &str) -> Result<String, String> {
        let path = self.dir.join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("failed to open source file: '{name}' ({e})"))
    }
}

/// Files held in memory as (name, text) pairs.
#[derive(Debug, Clone, Default)]
pub struct MemoryInclude {
    /// (name as `#include` writes it, text).
    pub files: Vec<(String, String)>,
}

impl Include for MemoryInclude {
    fn open(&self, name: &str, _system: bool, _from: &str) -> Result<String, String> {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.clone())
            .ok_or_else(|| format!("failed to open source file: '{name}'"))
    }
}

/// A position in the original files: an index into [`Output::files`], a 1-based line
/// (as `#line` set it) and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Origin {
    /// Index into [`Output::files`].
    pub file: u32,
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column, in characters.
    pub column: u32,
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Letters, digits and `_`, not starting with a digit.
    Ident,
    /// A preprocessing number: a digit (or `.` and a digit), then letters, digits, `.`,
    /// `_` and signs after an exponent letter (`1.0f`, `.5`, `1e-5`, `0x1F`, `.1.1`).
    Number,
    /// A string `"..."`.
    Str,
    /// Punctuation (`,`, `[`, `##`, `&&` ...) or a character that is nothing else.
    Punct,
}

/// One token of the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Identifier, number, string or punctuation.
    pub kind: Kind,
    /// Its text (a string with its quotes).
    pub text: String,
    /// Blank (or a comment) before it on its line, or it starts a line.
    pub space_before: bool,
    /// Where it was read; for a macro's expansion, where the macro was named.
    pub origin: Origin,
    /// It came from a macro's expansion (its columns are those of the macro's name).
    pub expanded: bool,
}

/// The preprocessed source.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// The tokens after preprocessing, in order.
    pub tokens: Vec<Token>,
    /// File names: the main source's first, then each included file and each name a
    /// `#line` gave, in order of first appearance.
    pub files: Vec<String>,
    /// The warnings (text after `#else`, unknown pragmas...), in order.
    pub warnings: Vec<Diagnostic>,
}

/// Preprocesses `text` (the file `name`), reading `#include`d files through `include`.
/// Errors (and warnings) name their file in [`Diagnostic::file`].
pub fn preprocess(text: &str, name: &str, include: &dyn Include) -> Result<Output, Vec<Diagnostic>> {
    let mut p = Pre {
        include,
        files: vec![name.to_string()],
        macros: HashMap::new(),
        macro_names: Vec::new(),
        out: Vec::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        expansions: 0,
        bytes: 0,
        halted: false,
    };
    p.file(text, 0, 0);
    if p.errors.is_empty() {
        Ok(Output { tokens: p.out.into_iter().map(|t| t.tok).collect(), files: p.files, warnings: p.warnings })
    } else {
        p.errors.extend(p.warnings);
        p.errors.sort_by_key(|d| d.severity == Severity::Warning);
        Err(p.errors)
    }
}

/// A token in the engine: with the macros it may no longer expand (C's "hide set").
#[derive(Debug, Clone)]
struct PTok {
    tok: Token,
    hide: Rc<[u32]>,
}

#[derive(Debug, Clone)]
struct Macro {
    id: u32,
    /// `Some(parameters)` for a function-like macro.
    params: Option<Vec<String>>,
    body: Vec<Token>,
}

struct Pre<'i> {
    include: &'i dyn Include,
    files: Vec<String>,
    macros: HashMap<String, Macro>,
    macro_names: Vec<String>,
    out: Vec<PTok>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    expansions: usize,
    bytes: usize,
    /// A limit was reached: stop reading (the error is recorded).
    halted: bool,
}

/// A lexed line: its tokens (with raw positions) and its raw line number.
struct Line {
    tokens: Vec<Token>,
    /// Raw (physical) line of the first character of the logical line.
    line: u32,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}
fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Lexes a whole file into logical lines (continuations joined, comments dropped).
/// Positions are raw (physical line and column in `file`).
fn lex(text: &str, file: u32) -> (Vec<Line>, Option<Origin>) {
    // Characters with their positions, line continuations removed.
    let mut chars: Vec<(char, u32, u32)> = Vec::with_capacity(text.len());
    let (mut line, mut col) = (1u32, 1u32);
    let raw: Vec<char> = text.chars().collect();
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        if c == '\\' {
            let nl = match (raw.get(i.saturating_add(1)), raw.get(i.saturating_add(2))) {
                (Some('\n'), _) => Some(2),
                (Some('\r'), Some('\n')) => Some(3),
                _ => None,
            };
            if let Some(n) = nl {
                i = i.saturating_add(n);
                line = line.saturating_add(1);
                col = 1;
                continue;
            }
        }
        if c == '\r' && raw.get(i.saturating_add(1)) == Some(&'\n') {
            i = i.saturating_add(1);
            continue;
        }
        chars.push((c, line, col));
        if c == '\n' {
            line = line.saturating_add(1);
            col = 1;
        } else {
            col = col.saturating_add(1);
        }
        i = i.saturating_add(1);
    }
    let mut lines = Vec::new();
    let mut unclosed = None;
    let mut cur = Line { tokens: Vec::new(), line: 1 };
    let mut space = true;
    let mut i = 0;
    let at = |i: usize| chars.get(i).map(|&(c, _, _)| c);
    while let Some(&(c, l, cl)) = chars.get(i) {
        let origin = Origin { file, line: l, column: cl };
        if c == '\n' {
            lines.push(std::mem::replace(&mut cur, Line { tokens: Vec::new(), line: l.saturating_add(1) }));
            space = true;
            i = i.saturating_add(1);
            continue;
        }
        if c.is_whitespace() {
            space = true;
            i = i.saturating_add(1);
            continue;
        }
        // Comments: `//` and `;` to the end of the line, `/* */` (a space).
        if c == ';' || (c == '/' && at(i.saturating_add(1)) == Some('/')) {
            while at(i).is_some_and(|c| c != '\n') {
                i = i.saturating_add(1);
            }
            space = true;
            continue;
        }
        if c == '/' && at(i.saturating_add(1)) == Some('*') {
            i = i.saturating_add(2);
            while at(i).is_some_and(|c| !(c == '*' && at(i.saturating_add(1)) == Some('/'))) {
                i = i.saturating_add(1);
            }
            if i >= chars.len() {
                unclosed = Some(origin);
            }
            i = (i.saturating_add(2)).min(chars.len());
            space = true;
            continue;
        }
        let start = i;
        let kind = if is_ident_start(c) {
            while at(i).is_some_and(is_ident) {
                i = i.saturating_add(1);
            }
            Kind::Ident
        } else if c.is_ascii_digit() || (c == '.' && at(i.saturating_add(1)).is_some_and(|d| d.is_ascii_digit())) {
            i = i.saturating_add(1);
            while let Some(d) = at(i) {
                let exp_sign = matches!(d, '+' | '-')
                    && matches!(at(i.saturating_sub(1)), Some('e' | 'E' | 'p' | 'P'))
                    && !is_hex_before(&chars, start, i);
                if is_ident(d) || d == '.' || exp_sign {
                    i = i.saturating_add(1);
                } else {
                    break;
                }
            }
            Kind::Number
        } else if c == '"' {
            i = i.saturating_add(1);
            while let Some(d) = at(i) {
                i = i.saturating_add(1);
                if d == '"' {
                    break;
                }
                if d == '\\' && at(i).is_some_and(|e| e != '\n') {
                    i = i.saturating_add(1);
                }
                if at(i) == Some('\n') {
                    break;
                }
            }
            Kind::Str
        } else {
            const TWO: [&str; 10] = ["##", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "->"];
            let pair: String = [c, at(i.saturating_add(1)).unwrap_or(' ')].iter().collect();
            i = i.saturating_add(if TWO.contains(&pair.as_str()) { 2 } else { 1 });
            Kind::Punct
        };
        let text: String = chars.get(start..i).unwrap_or_default().iter().map(|&(c, _, _)| c).collect();
        cur.tokens.push(Token { kind, text, space_before: space, origin, expanded: false });
        space = false;
    }
    if !cur.tokens.is_empty() {
        lines.push(cur);
    }
    (lines, unclosed)
}

/// `0x1e+` is not an exponent: the number is hexadecimal.
fn is_hex_before(chars: &[(char, u32, u32)], start: usize, i: usize) -> bool {
    let at = |k: usize| chars.get(k).map(|&(c, _, _)| c);
    i >= start.saturating_add(2)
        && at(start) == Some('0')
        && matches!(at(start.saturating_add(1)), Some('x' | 'X'))
        && !matches!(at(i.saturating_sub(1)), Some('p' | 'P'))
}

/// An open conditional block.
struct Cond {
    /// The lines of the enclosing block are read.
    outer: bool,
    /// A branch of this block was taken.
    taken: bool,
    /// This branch is read.
    active: bool,
    seen_else: bool,
    origin: Origin,
}

impl Pre<'_> {
    fn error(&mut self, o: Origin, len: usize, message: &str, expected: Option<&str>) {
        let d = Diagnostic::new(Severity::Error, o.line as usize, o.column as usize, len, message, expected);
        let f = self.files.get(o.file as usize).cloned().unwrap_or_default();
        self.errors.push(d.in_file(&f));
    }
    fn warning(&mut self, o: Origin, len: usize, message: &str) {
        let d = Diagnostic::new(Severity::Warning, o.line as usize, o.column as usize, len, message, None);
        let f = self.files.get(o.file as usize).cloned().unwrap_or_default();
        self.warnings.push(d.in_file(&f));
    }
    fn file_index(&mut self, name: &str) -> u32 {
        match self.files.iter().position(|f| f == name) {
            Some(i) => i as u32,
            None => {
                self.files.push(name.to_string());
                self.files.len().saturating_sub(1) as u32
            }
        }
    }

    /// Reads one file (index `file`, at include depth `depth`).
    fn file(&mut self, text: &str, file: u32, depth: usize) {
        self.bytes = self.bytes.saturating_add(text.len());
        if self.bytes > LIMITS.source_bytes {
            let o = Origin { file, line: 1, column: 1 };
            self.error(o, 1, &format!("more than {} bytes of source in one run", LIMITS.source_bytes), None);
            self.halted = true;
            return;
        }
        let (lines, unclosed) = lex(text, file);
        // The end of this file, where `D3DAssemble` reports what is left open.
        let eof = Origin {
            file,
            line: text.matches('\n').count().saturating_add(1).min(u32::MAX as usize) as u32,
            column: text.rsplit('\n').next().unwrap_or("").chars().count().saturating_add(1).min(u32::MAX as usize)
                as u32,
        };
        if let Some(o) = unclosed {
            let m = format!("the comment opened at {}:{} continues past the end of the file", o.line, o.column);
            self.error(eof, 1, &m, Some("`*/`"));
        }
        // `#line`: the presumed file and the difference between presumed and raw lines.
        let mut presumed = file;
        let mut delta: i64 = 0;
        let mut conds: Vec<Cond> = Vec::new();
        let mut pending: Vec<PTok> = Vec::new();
        for line in lines {
            if self.halted {
                return;
            }
            let place = |t: &Token, presumed: u32, delta: i64| -> Token {
                let mut t = t.clone();
                t.origin.file = presumed;
                t.origin.line = i64::from(t.origin.line).saturating_add(delta).clamp(1, i64::from(u32::MAX)) as u32;
                t
            };
            let active = conds.last().is_none_or(|c| c.active);
            let toks: Vec<Token> = line.tokens.iter().map(|t| place(t, presumed, delta)).collect();
            let is_directive = toks.first().is_some_and(|t| t.text == "#");
            if !is_directive {
                if active {
                    pending.extend(toks.into_iter().map(|tok| PTok { tok, hide: Rc::from(Vec::new()) }));
                }
                continue;
            }
            let Some(hash) = toks.first().map(|t| t.origin) else { continue };
            let Some(dname) = toks.get(1) else {
                // `D3DAssemble` has no null directive.
                if active {
                    self.error(hash, 1, "a `#` with no directive", Some("a directive such as `#define`"));
                }
                continue;
            };
            let args = toks.get(2..).unwrap_or_default();
            let dir = dname.text.as_str();
            let conditional = matches!(dir, "if" | "ifdef" | "ifndef" | "elif" | "else" | "endif");
            if !active && !conditional {
                continue;
            }
            // Lines before a directive are expanded first (macro arguments do not run
            // across directives).
            if !pending.is_empty() {
                let run = std::mem::take(&mut pending);
                self.flush(run);
            }
            let o = dname.origin;
            match dir {
                "if" | "ifdef" | "ifndef" => {
                    if conds.len() >= LIMITS.conditional_depth {
                        self.error(
                            o,
                            dir.len(),
                            &format!("more than {} nested `#if` blocks", LIMITS.conditional_depth),
                            None,
                        );
                        self.halted = true;
                        return;
                    }
                    let value = if !active {
                        false
                    } else if dir == "if" {
                        self.condition(args, o)
                    } else {
                        match args {
                            [n] if n.kind == Kind::Ident => (dir == "ifdef") == self.macros.contains_key(&n.text),
                            _ => {
                                self.error(
                                    o,
                                    dir.len(),
                                    &format!("`#{dir}` takes one macro name"),
                                    Some("`#ifdef NAME`"),
                                );
                                false
                            }
                        }
                    };
                    conds.push(Cond { outer: active, taken: value, active: value, seen_else: false, origin: hash });
                }
                "elif" | "else" => {
                    let Some(top) = conds.last() else {
                        self.error(o, dir.len(), &format!("`#{dir}` without `#if`"), None);
                        continue;
                    };
                    if top.seen_else {
                        self.error(o, dir.len(), &format!("`#{dir}` after `#else`"), Some("`#endif`"));
                        continue;
                    }
                    let (outer, taken) = (top.outer, top.taken);
                    let value = if dir == "else" {
                        outer && !taken
                    } else if outer && !taken {
                        self.condition(args, o)
                    } else {
                        false
                    };
                    if let (true, Some(first)) = (dir == "else", args.first()) {
                        self.warning(first.origin, first.text.len(), "text after `#else` ignored");
                    }
                    let top = conds.last_mut().expect("checked above");
                    top.active = value;
                    top.taken |= value;
                    top.seen_else = dir == "else";
                }
                "endif" => {
                    if conds.pop().is_none() {
                        self.error(o, 5, "`#endif` without `#if`", None);
                    }
                }
                "define" => self.define(args, o),
                "undef" => match args {
                    [n] if n.kind == Kind::Ident => {
                        self.macros.remove(&n.text);
                    }
                    _ => self.error(o, 5, "`#undef` takes one macro name", Some("`#undef NAME`")),
                },
                "line" => {
                    let expanded = self.expand_list(args.to_vec(), 0);
                    match expanded.as_slice() {
                        [n, rest @ ..] if n.kind == Kind::Number && rest.len() <= 1 => {
                            let Some(num) = n.text.parse::<u32>().ok().filter(|&v| v > 0) else {
                                self.error(n.origin, n.text.len(), "not a line number", Some("a line number from 1"));
                                continue;
                            };
                            if let Some(f) = rest.first() {
                                let Some(name) = quoted(f) else {
                                    self.error(f.origin, f.text.len(), "not a file name", Some("`\"file\"`"));
                                    continue;
                                };
                                presumed = self.file_index(name);
                            }
                            // The line after the directive is line `num`.
                            delta = i64::from(num).saturating_sub(i64::from(line.line).saturating_add(1));
                        }
                        _ => {
                            self.error(o, 4, "`#line` takes a line number and a file name", Some("`#line 12 \"file\"`"))
                        }
                    }
                }
                "include" => {
                    // The name is written out: `D3DAssemble` does not expand macros there.
                    let (name, system) = match args {
                        [s] if quoted(s).is_some() => (quoted(s).unwrap_or_default().to_string(), false),
                        [lt, mid @ .., gt] if lt.text == "<" && gt.text == ">" && !mid.is_empty() => {
                            (mid.iter().map(|t| t.text.as_str()).collect::<String>(), true)
                        }
                        _ => {
                            self.error(o, 7, "`#include` takes a file name", Some("`#include \"file\"` or `<file>`"));
                            continue;
                        }
                    };
                    if depth >= LIMITS.include_depth {
                        self.error(
                            args.first().map_or(o, |t| t.origin),
                            args.iter().map(|t| t.text.len()).sum(),
                            &format!("`#include` nested more than {} deep", LIMITS.include_depth),
                            None,
                        );
                        self.halted = true;
                        return;
                    }
                    let from = self.files.get(file as usize).cloned().unwrap_or_default();
                    match self.include.open(&name, system, &from) {
                        Ok(text) => {
                            // Each inclusion reads the file again under its own index when
                            // its name is new; the same name shares one.
                            let idx = self.file_index(&name);
                            self.file(&text, idx, depth.saturating_add(1));
                        }
                        Err(e) => {
                            let at = args.first().map_or(o, |t| t.origin);
                            let len = args.iter().map(|t| t.text.len()).sum::<usize>();
                            self.error(at, len, &e, None);
                        }
                    }
                }
                "error" => {
                    let msg = join_text(args);
                    self.error(o, 5, &format!("#error: {msg}"), None);
                }
                "pragma" => {
                    let what = args.first().map_or(String::new(), |t| t.text.clone());
                    let at = args.first().map_or(o, |t| t.origin);
                    self.warning(at, what.len(), &format!("'{what}' : unknown pragma ignored"));
                }
                _ => self.error(o, dir.len(), &format!("`#{dir}` is not a preprocessor directive"), None),
            }
        }
        if !pending.is_empty() {
            self.flush(pending);
        }
        for c in conds {
            let m = format!("the `#if` at {}:{} has no `#endif`", c.origin.line, c.origin.column);
            self.error(eof, 1, &m, Some("`#endif`"));
        }
    }

    /// Expands a run of text lines into the output.
    fn flush(&mut self, run: Vec<PTok>) {
        if let Some(done) = self.expand(run, 0) {
            if self.out.len().saturating_add(done.len()) > LIMITS.tokens {
                let o = done.first().map(|t| t.tok.origin).unwrap_or_default();
                self.error(o, 1, &format!("the source expands to more than {} tokens", LIMITS.tokens), None);
                self.halted = true;
                return;
            }
            self.out.extend(done);
        }
    }

    fn define(&mut self, args: &[Token], o: Origin) {
        let Some(name) = args.first().filter(|t| t.kind == Kind::Ident) else {
            self.error(o, 6, "`#define` takes a macro name", Some("`#define NAME text`"));
            return;
        };
        if name.text == "defined" {
            self.error(name.origin, 7, "`defined` cannot be a macro name", None);
            return;
        }
        let mut rest = args.get(1..).unwrap_or_default();
        let mut params = None;
        if rest.first().is_some_and(|t| t.text == "(" && !t.space_before) {
            let mut list = Vec::new();
            let mut i = 1;
            let mut ok = false;
            loop {
                match rest.get(i) {
                    Some(t) if t.kind == Kind::Ident => {
                        list.push(t.text.clone());
                        match rest.get(i.saturating_add(1)) {
                            Some(s) if s.text == "," => i = i.saturating_add(2),
                            Some(s) if s.text == ")" => {
                                ok = true;
                                i = i.saturating_add(2);
                                break;
                            }
                            _ => break,
                        }
                    }
                    _ => break,
                }
            }
            if !ok {
                let at = rest.get(i.min(rest.len().saturating_sub(1))).map_or(o, |t| t.origin);
                self.error(at, 1, "bad macro parameter list", Some("`(a, b)`"));
                return;
            }
            rest = rest.get(i..).unwrap_or_default();
            params = Some(list);
        }
        let body: Vec<Token> = rest.to_vec();
        let id = match self.macros.get(&name.text) {
            Some(m) => m.id,
            None => {
                self.macro_names.push(name.text.clone());
                self.macro_names.len().saturating_sub(1) as u32
            }
        };
        if let Some(old) = self.macros.get(&name.text) {
            let same = old.params == params
                && old.body.len() == body.len()
                && old.body.iter().zip(&body).all(|(a, b)| a.text == b.text);
            if !same {
                self.warning(name.origin, name.text.len(), &format!("`{}` redefined", name.text));
            }
        }
        self.macros.insert(name.text.clone(), Macro { id, params, body });
    }

    /// Expands tokens that have no hide sets yet; `None` after an error.
    fn expand_list(&mut self, toks: Vec<Token>, depth: usize) -> Vec<Token> {
        let p = toks.into_iter().map(|tok| PTok { tok, hide: Rc::from(Vec::new()) }).collect();
        self.expand(p, depth).map(|v| v.into_iter().map(|t| t.tok).collect()).unwrap_or_default()
    }

    /// Macro expansion of `input` (C's rescanning, with hide sets).
    fn expand(&mut self, input: Vec<PTok>, depth: usize) -> Option<Vec<PTok>> {
        let mut input: VecDeque<PTok> = input.into();
        let mut out: Vec<PTok> = Vec::with_capacity(input.len());
        while let Some(t) = input.pop_front() {
            let m = match (t.tok.kind, self.macros.get(&t.tok.text)) {
                (Kind::Ident, Some(m)) if !t.hide.contains(&m.id) => m.clone(),
                _ => {
                    out.push(t);
                    continue;
                }
            };
            self.expansions = self.expansions.saturating_add(1);
            if self.expansions > LIMITS.expansions {
                self.error(
                    t.tok.origin,
                    t.tok.text.len(),
                    &format!("more than {} macro expansions", LIMITS.expansions),
                    None,
                );
                self.halted = true;
                return None;
            }
            let mut hide: Vec<u32> = t.hide.to_vec();
            hide.push(m.id);
            let hide: Rc<[u32]> = Rc::from(hide);
            let body: Vec<PTok> = match &m.params {
                None => m.body.iter().map(|b| PTok { tok: b.clone(), hide: hide.clone() }).collect(),
                Some(params) => {
                    if input.front().is_none_or(|n| n.tok.text != "(") {
                        out.push(t);
                        continue;
                    }
                    input.pop_front();
                    // The arguments: split at commas outside parentheses.
                    let mut args: Vec<Vec<PTok>> = vec![Vec::new()];
                    let mut level = 0usize;
                    let mut closed = false;
                    while let Some(a) = input.pop_front() {
                        match a.tok.text.as_str() {
                            "(" => level = level.saturating_add(1),
                            ")" if level == 0 => {
                                closed = true;
                                break;
                            }
                            ")" => level = level.saturating_sub(1),
                            "," if level == 0 => {
                                args.push(Vec::new());
                                continue;
                            }
                            _ => {}
                        }
                        if let Some(last) = args.last_mut() {
                            last.push(a);
                        }
                    }
                    if !closed {
                        self.error(
                            t.tok.origin,
                            t.tok.text.len(),
                            &format!("`{}(`: the arguments are not closed", t.tok.text),
                            Some("`)`"),
                        );
                        return None;
                    }
                    if params.is_empty() && matches!(args.as_slice(), [only] if only.is_empty()) {
                        args.clear();
                    }
                    if args.len() != params.len() {
                        self.error(
                            t.tok.origin,
                            t.tok.text.len(),
                            &format!("`{}` takes {} argument(s), given {}", t.tok.text, params.len(), args.len()),
                            None,
                        );
                        return None;
                    }
                    if depth >= LIMITS.argument_depth {
                        self.error(
                            t.tok.origin,
                            t.tok.text.len(),
                            &format!("macro arguments nested more than {} deep", LIMITS.argument_depth),
                            None,
                        );
                        self.halted = true;
                        return None;
                    }
                    self.substitute(&m, params, args, &hide, depth)?
                }
            };
            let mut body = body;
            for (k, b) in body.iter_mut().enumerate() {
                b.tok.origin = t.tok.origin;
                b.tok.expanded = true;
                if k == 0 {
                    b.tok.space_before = t.tok.space_before;
                }
            }
            // A macro that expands to nothing leaves a space.
            if body.is_empty() {
                if let Some(n) = input.front_mut() {
                    n.tok.space_before |= t.tok.space_before;
                }
            }
            if input.len().saturating_add(body.len()).saturating_add(out.len()) > LIMITS.tokens {
                self.error(
                    t.tok.origin,
                    t.tok.text.len(),
                    &format!("the source expands to more than {} tokens", LIMITS.tokens),
                    None,
                );
                self.halted = true;
                return None;
            }
            for b in body.into_iter().rev() {
                input.push_front(b);
            }
        }
        Some(out)
    }

    /// A function-like macro's body with its arguments in place.
    fn substitute(
        &mut self,
        m: &Macro,
        params: &[String],
        args: Vec<Vec<PTok>>,
        hide: &Rc<[u32]>,
        depth: usize,
    ) -> Option<Vec<PTok>> {
        let param = |t: &Token| (t.kind == Kind::Ident).then(|| params.iter().position(|p| *p == t.text)).flatten();
        let mut expanded: Vec<Option<Vec<PTok>>> = vec![None; args.len()];
        let mut out: Vec<PTok> = Vec::new();
        let body = &m.body;
        let mut i = 0;
        let mut paste_next = false;
        while let Some(b) = body.get(i) {
            let next_is_paste = body.get(i.saturating_add(1)).is_some_and(|n| n.text == "##");
            let mut piece: Vec<PTok> = if b.text == "#" && body.get(i.saturating_add(1)).and_then(param).is_some() {
                // `#param`: the argument as a string.
                let k = body.get(i.saturating_add(1)).and_then(param).unwrap_or(0);
                i = i.saturating_add(1);
                let text = format!(
                    "\"{}\"",
                    join_text(
                        &args.get(k).map(|a| a.iter().map(|a| a.tok.clone()).collect::<Vec<_>>()).unwrap_or_default()
                    )
                    .replace('"', "\\\"")
                );
                vec![PTok { tok: Token { kind: Kind::Str, text, ..b.clone() }, hide: hide.clone() }]
            } else if let Some(k) = param(b) {
                // `param` gives indices of the macro's parameters, and args has one per
                // parameter (checked by the caller).
                let arg = args.get(k).cloned().unwrap_or_default();
                if paste_next || next_is_paste {
                    arg
                } else {
                    match expanded.get_mut(k) {
                        Some(Some(done)) => done.clone(),
                        Some(slot) => {
                            let done = self.expand(arg, depth.saturating_add(1))?;
                            *slot = Some(done.clone());
                            done
                        }
                        None => Vec::new(),
                    }
                }
            } else if b.text == "##" {
                paste_next = true;
                i = i.saturating_add(1);
                continue;
            } else {
                vec![PTok { tok: b.clone(), hide: hide.clone() }]
            };
            if let Some(first) = piece.first_mut() {
                first.tok.space_before = b.space_before;
            }
            if paste_next && !piece.is_empty() && !out.is_empty() {
                let right = piece.remove(0);
                let left = out.pop().expect("checked");
                let text = format!("{}{}", left.tok.text, right.tok.text);
                let kind = lex(&text, 0)
                    .0
                    .first()
                    .and_then(|l| match l.tokens.as_slice() {
                        [only] => Some(only.kind),
                        _ => None,
                    })
                    .unwrap_or(Kind::Punct);
                out.push(PTok { tok: Token { kind, text, ..left.tok }, hide: hide.clone() });
            }
            paste_next = false;
            for mut p in piece {
                let mut h: Vec<u32> = p.hide.to_vec();
                for x in hide.iter() {
                    if !h.contains(x) {
                        h.push(*x);
                    }
                }
                p.hide = Rc::from(h);
                out.push(p);
            }
            i = i.saturating_add(1);
            if out.len() > LIMITS.tokens {
                let o = b.origin;
                self.error(o, 1, &format!("the source expands to more than {} tokens", LIMITS.tokens), None);
                self.halted = true;
                return None;
            }
        }
        Some(out)
    }

    /// The value of an `#if` / `#elif` expression.
    fn condition(&mut self, args: &[Token], o: Origin) -> bool {
        // `defined X` and `defined(X)` before expansion.
        let mut toks = Vec::with_capacity(args.len());
        let mut i = 0;
        while let Some(t) = args.get(i) {
            if t.kind == Kind::Ident && t.text == "defined" {
                let (name, skip) =
                    match (args.get(i.saturating_add(1)), args.get(i.saturating_add(2)), args.get(i.saturating_add(3)))
                    {
                        (Some(p), Some(n), Some(c)) if p.text == "(" && c.text == ")" && n.kind == Kind::Ident => {
                            (Some(n), 4)
                        }
                        (Some(n), ..) if n.kind == Kind::Ident => (Some(n), 2),
                        _ => (None, 1),
                    };
                let Some(name) = name else {
                    self.error(t.origin, 7, "`defined` takes a macro name", Some("`defined(NAME)`"));
                    return false;
                };
                let v = self.macros.contains_key(&name.text);
                toks.push(Token { kind: Kind::Number, text: if v { "1" } else { "0" }.into(), ..t.clone() });
                i = i.saturating_add(skip);
                continue;
            }
            toks.push(t.clone());
            i = i.saturating_add(1);
        }
        let toks = self.expand_list(toks, 0);
        if toks.is_empty() {
            self.error(o, 2, "`#if` without an expression", Some("an integer expression"));
            return false;
        }
        let mut e = Expr { toks: &toks, at: 0, depth: 0 };
        match e.ternary().and_then(|v| {
            if e.at < toks.len() {
                Err((e.at, "unexpected token in the expression".into()))
            } else {
                Ok(v)
            }
        }) {
            Ok(v) => v != 0,
            Err((at, msg)) => {
                let t = toks.get(at).or(toks.last()).map_or(o, |t| t.origin);
                self.error(t, 1, &msg, Some("an integer expression"));
                false
            }
        }
    }
}

fn join_text(toks: &[Token]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.space_before {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}

/// A C integer expression (`#if`) in unsigned 32-bit arithmetic: identifiers left after
/// expansion are 0.
struct Expr<'t> {
    toks: &'t [Token],
    at: usize,
    depth: usize,
}

type EResult = Result<u32, (usize, String)>;

impl Expr<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.at).map(|t| t.text.as_str())
    }
    fn eat(&mut self, s: &str) -> bool {
        if self.peek() == Some(s) {
            self.at = self.at.saturating_add(1);
            true
        } else {
            false
        }
    }
    fn ternary(&mut self) -> EResult {
        self.depth = self.depth.saturating_add(1);
        if self.depth > 256 {
            return Err((self.at, "the expression is nested too deep".into()));
        }
        let c = self.binary(0)?;
        let v = if self.eat("?") {
            let a = self.ternary()?;
            if !self.eat(":") {
                return Err((self.at, "expected `:`".into()));
            }
            let b = self.ternary()?;
            if c != 0 {
                a
            } else {
                b
            }
        } else {
            c
        };
        self.depth = self.depth.saturating_sub(1);
        Ok(v)
    }
    fn binary(&mut self, level: usize) -> EResult {
        // `D3DAssemble`'s preprocessor has no `%`, `<<`, `>>` or `~`.
        const LEVELS: [&[&str]; 9] = [
            &["||"],
            &["&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<", ">", "<=", ">="],
            &["+", "-"],
            &["*", "/"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut l = self.binary(level.saturating_add(1))?;
        let ops = LEVELS.get(level).copied().unwrap_or_default();
        while let Some(op) = self.peek().filter(|p| ops.contains(p)).map(str::to_string) {
            let at = self.at;
            self.at = self.at.saturating_add(1);
            let r = self.binary(level.saturating_add(1))?;
            l = match op.as_str() {
                "||" => ((l != 0) || (r != 0)) as u32,
                "&&" => ((l != 0) && (r != 0)) as u32,
                "|" => l | r,
                "^" => l ^ r,
                "&" => l & r,
                "==" => (l == r) as u32,
                "!=" => (l != r) as u32,
                "<" => (l < r) as u32,
                ">" => (l > r) as u32,
                "<=" => (l <= r) as u32,
                ">=" => (l >= r) as u32,
                "+" => l.wrapping_add(r),
                "-" => l.wrapping_sub(r),
                "*" => l.wrapping_mul(r),
                _ => {
                    if r == 0 {
                        return Err((at, "division by zero in `#if`".into()));
                    }
                    l.checked_div(r).unwrap_or(0)
                }
            };
        }
        Ok(l)
    }
    fn unary(&mut self) -> EResult {
        self.depth = self.depth.saturating_add(1);
        if self.depth > 256 {
            return Err((self.at, "the expression is nested too deep".into()));
        }
        let v = if self.eat("!") {
            (self.unary()? == 0) as u32
        } else if self.eat("-") {
            self.unary()?.wrapping_neg()
        } else if self.eat("+") {
            self.unary()?
        } else if self.eat("(") {
            let v = self.ternary()?;
            if !self.eat(")") {
                return Err((self.at, "expected `)`".into()));
            }
            v
        } else {
            let Some(t) = self.toks.get(self.at) else { return Err((self.at, "the expression ends early".into())) };
            self.at = self.at.saturating_add(1);
            match t.kind {
                Kind::Ident => 0,
                Kind::Number => {
                    int_value(&t.text).ok_or((self.at.saturating_sub(1), format!("`{}` is not an integer", t.text)))?
                }
                _ => return Err((self.at.saturating_sub(1), format!("unexpected `{}` in the expression", t.text))),
            }
        };
        self.depth = self.depth.saturating_sub(1);
        Ok(v)
    }
}

/// A C integer literal (decimal, `0x` hexadecimal, `0` octal, `u` / `l` suffixes),
/// kept to 32 bits: `D3DAssemble`'s preprocessor computes in unsigned 32-bit integers
/// (`4294967295 + 1 == 0`, `-1 > 0`).
fn int_value(text: &str) -> Option<u32> {
    let t = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else if let Some(o) = t.strip_prefix('0').filter(|o| !o.is_empty()) {
        u64::from_str_radix(o, 8).ok()?
    } else {
        t.parse::<u64>().ok()?
    };
    Some(v as u32)
}

/// The text between the quotes of a string token; `None` when it is not one or its
/// closing quote is missing (an unterminated string).
fn quoted(t: &Token) -> Option<&str> {
    if t.kind != Kind::Str {
        return None;
    }
    t.text.strip_prefix('"')?.strip_suffix('"')
}
