#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)]
//! The Direct3D 9 mapping tables of a Level9 listing, both ways: printed from an
//! `Aon9` chunk ([`print_tables`]) and read back from listing text ([`parse_tables`]).
//!
//! In a Level9 listing the tables follow the signature blocks and precede the
//! `// Level9 shader bytecode:` line:
//!
//! ```text
//! // SV_Position              0   xyzw        3      POS   float   xyzw
//! //                                  <- last line of the header (write_header)
//! //                                  <- first line of print_tables' text
//! // Constant buffer to DX9 shader constant mappings:
//! //
//! // Target Reg Buffer  Start Reg # of Regs        Data Conversion
//! // ---------- ------- --------- --------- ----------------------
//! // c1         cb0             0         1  ( FLT, FLT, FLT, FLT)
//! //
//! //
//! // Runtime generated constant mappings:
//! // ...
//! //
//! //                                  <- last line of print_tables' text
//! // Level9 shader bytecode:
//! ```
//!
//! [`print_tables`] writes everything between the header printed by
//! [`crate::header::write_header`] and the `// Level9 shader bytecode:` line
//! ([`BYTECODE_TITLE`]): one `//` line, then each non-empty block followed by two `//`
//! lines. The blocks, in the disassembler's order:
//!
//! 1. `Constant buffer to DX9 shader constant mappings`: the boolean-register table
//!    (`b#` rows), the integer-register table (`i#`), each under its own
//!    `Target Reg Buffer  Source Reg Component` header and followed by `//`, then the
//!    constant table (`c#` and `clip#` rows) followed by `//`;
//! 2. `Runtime generated constant mappings`;
//! 3. `Sampler/Resource to DX9 shader sampler mappings`, in chunk order (not sorted).
//!
//! Row formats (C `printf`): `// b%-9d cb%-5d %10d %9d`, `// i%-9d ...`,
//! `// c%-9d cb%-5d %9d %9d  (` + four 4-wide conversions joined by `,` + `)`,
//! `// clip%-6d ...`, `// c%-10d %49s` (runtime), `// s%-13d s%-14d t%-16d` (samplers,
//! whose trailing spaces some repositories strip). Values the disassembler cannot
//! name print as `UNKN` (a conversion) and `Unknown Value` (a runtime constant); the
//! stored number is lost in the listing, so [`parse_tables`] refuses those words.

use crate::header::columns::{left_dec, right_dec, right_str};

use dxbc::aon9::{
    Aon9, ConstantMapping, ConstantTarget, DataConversion, Mappings, RegisterMapping, RuntimeConstantKind,
    RuntimeConstantMapping, SamplerMapping,
};

pub use crate::reflect::Diagnostic;

/// The line that follows the tables.
pub const BYTECODE_TITLE: &str = "// Level9 shader bytecode:";

const CONSTANTS_TITLE: &str = "// Constant buffer to DX9 shader constant mappings:";
const RUNTIME_TITLE: &str = "// Runtime generated constant mappings:";
const SAMPLERS_TITLE: &str = "// Sampler/Resource to DX9 shader sampler mappings:";
const REGISTER_HEAD: &str = "// Target Reg Buffer  Source Reg Component";
const REGISTER_RULE: &str = "// ---------- ------- ---------- ---------";
const CONSTANT_HEAD: &str = "// Target Reg Buffer  Start Reg # of Regs        Data Conversion";
const CONSTANT_RULE: &str = "// ---------- ------- --------- --------- ----------------------";
const RUNTIME_HEAD: &str = "// Target Reg                               Constant Description";
const RUNTIME_RULE: &str = "// ---------- --------------------------------------------------";
const SAMPLER_HEAD: &str = "// Target Sampler Source Sampler  Source Resource";
const SAMPLER_RULE: &str = "// -------------- --------------- ----------------";

/// The Level9 tables of a listing's comment header: the text from the first Level9
/// title (a mapping block's, or [`BYTECODE_TITLE`] when there are no tables) to the end
/// of `header`, and the 1-based line number it starts at — what [`parse_tables`] reads.
/// `None` when the header has no Level9 part.
pub fn tables_region(header: &str) -> Option<(&str, usize)> {
    let mut rest = header;
    let mut no = 1usize;
    while !rest.is_empty() {
        let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
        if [CONSTANTS_TITLE, RUNTIME_TITLE, SAMPLERS_TITLE, BYTECODE_TITLE].contains(&line.trim_end()) {
            return Some((rest, no));
        }
        rest = after;
        // At most one per byte of `header`.
        no = no.saturating_add(1);
    }
    None
}

/// The listing's word for a conversion (4 characters, right-aligned).
fn conversion_name(c: DataConversion) -> &'static str {
    match c {
        DataConversion::Float => " FLT",
        DataConversion::Bool => "BOOL",
        DataConversion::Int => " INT",
        DataConversion::Uint => "UINT",
        DataConversion::Unknown(_) => "UNKN",
    }
}

fn runtime_name(k: RuntimeConstantKind) -> &'static str {
    match k {
        RuntimeConstantKind::VertexShaderPositionOffset => "Vertex Shader position offset",
        RuntimeConstantKind::InstanceId => "Instance ID",
        RuntimeConstantKind::Unknown(_) => "Unknown Value",
    }
}

/// Appends the tables of `chunk` as the disassembler prints them: the text between the
/// listing's header and the `// Level9 shader bytecode:` line (see the module
/// documentation), always starting with a `//` line.
pub fn print_tables(out: &mut String, chunk: &Aon9<'_>) {
    print_mappings(out, &chunk.mappings);
}

/// [`print_tables`] for the tables alone.
pub fn print_mappings(out: &mut String, m: &Mappings) {
    out.push_str("//\n");
    if !(m.constants.is_empty() && m.integers.is_empty() && m.booleans.is_empty()) {
        out.push_str(CONSTANTS_TITLE);
        out.push_str("\n//\n");
        for (letter, list) in [('b', &m.booleans), ('i', &m.integers)] {
            if list.is_empty() {
                continue;
            }
            out.push_str(REGISTER_HEAD);
            out.push('\n');
            out.push_str(REGISTER_RULE);
            out.push('\n');
            for r in list {
                // `// {letter}{target:<9} cb{buffer:<5} {source:>10} {component:>9}`
                out.push_str("// ");
                out.push(letter);
                left_dec(out, r.target_reg, 9);
                out.push_str(" cb");
                left_dec(out, r.buffer, 5);
                out.push(' ');
                right_dec(out, r.source_reg, 10);
                out.push(' ');
                right_dec(out, r.component, 9);
                out.push('\n');
            }
            out.push_str("//\n");
        }
        if !m.constants.is_empty() {
            out.push_str(CONSTANT_HEAD);
            out.push('\n');
            out.push_str(CONSTANT_RULE);
            out.push('\n');
            for c in &m.constants {
                match c.target {
                    ConstantTarget::Register(r) => {
                        out.push_str("// c");
                        left_dec(out, r, 9);
                    }
                    ConstantTarget::ClipPlane(p) => {
                        out.push_str("// clip");
                        left_dec(out, p, 6);
                    }
                }
                // ` cb{buffer:<5} {start:>9} {count:>9}  (`
                out.push_str(" cb");
                left_dec(out, c.buffer, 5);
                out.push(' ');
                right_dec(out, c.start_reg, 9);
                out.push(' ');
                right_dec(out, c.reg_count, 9);
                out.push_str("  (");
                for (i, &conv) in c.conversion.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(conversion_name(conv));
                }
                out.push_str(")\n");
            }
            out.push_str("//\n");
        }
        out.push_str("//\n");
    }
    if !m.runtime_constants.is_empty() {
        out.push_str(RUNTIME_TITLE);
        out.push_str("\n//\n");
        out.push_str(RUNTIME_HEAD);
        out.push('\n');
        out.push_str(RUNTIME_RULE);
        out.push('\n');
        for r in &m.runtime_constants {
            // `// c{target:<10} {name:>49}`
            out.push_str("// c");
            left_dec(out, r.target_reg, 10);
            out.push(' ');
            right_str(out, runtime_name(r.kind), 49);
            out.push('\n');
        }
        out.push_str("//\n//\n");
    }
    if !m.samplers.is_empty() {
        out.push_str(SAMPLERS_TITLE);
        out.push_str("\n//\n");
        out.push_str(SAMPLER_HEAD);
        out.push('\n');
        out.push_str(SAMPLER_RULE);
        out.push('\n');
        for s in &m.samplers {
            // `// s{target:<13} s{sampler:<14} t{resource:<16}`
            out.push_str("// s");
            left_dec(out, s.target_sampler, 13);
            out.push_str(" s");
            left_dec(out, s.source_sampler, 14);
            out.push_str(" t");
            left_dec(out, s.source_resource, 16);
            out.push('\n');
        }
        out.push_str("//\n//\n");
    }
}

/// Where the reader is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before any block, or between blocks.
    Outside,
    /// Inside a block, between its tables: a column header may follow, or a `//` line
    /// that closes the block (once a table was read; the `//` after the title does not).
    Block { block: Block, tables: usize },
    /// After a table's column header, expecting its rule line.
    Head { block: Block, tables: usize, rows: Rows },
    /// Reading a table's rows, up to a `//` line.
    Rows { block: Block, tables: usize, rows: Rows },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Constants,
    Runtime,
    Samplers,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rows {
    Registers,
    Constants,
    Runtime,
    Samplers,
}

impl Rows {
    fn rule(self) -> &'static str {
        match self {
            Rows::Registers => REGISTER_RULE,
            Rows::Constants => CONSTANT_RULE,
            Rows::Runtime => RUNTIME_RULE,
            Rows::Samplers => SAMPLER_RULE,
        }
    }
}

/// One line of the text with its number; `text` has no line ending and no trailing
/// spaces (listings whose trailing spaces were stripped read the same).
struct Line<'a> {
    no: usize,
    raw: &'a str,
    text: &'a str,
}

impl Line<'_> {
    /// The 1-based character column of byte offset `at` of the line.
    fn column(&self, at: usize) -> usize {
        // The characters before `at`, or before the character `at` falls inside.
        let at = at.min(self.raw.len());
        let before = (0..=at).rev().find_map(|a| self.raw.get(..a)).map_or(0, |s| s.chars().count());
        before.saturating_add(1)
    }

    fn error(&self, at: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic { line: self.no, column: self.column(at), message: message.into() }
    }
}

/// A word of a row with its byte offset in the line.
#[derive(Clone, Copy)]
struct Word<'a> {
    at: usize,
    text: &'a str,
}

fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (ch == ' ' || ch == '\t', start) {
            (true, Some(s)) => {
                out.push(Word { at: s, text: text.get(s..i).unwrap_or("") });
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// Reads the text [`print_tables`] writes back into the tables.
///
/// `text` is the part of a listing between the header and the
/// `// Level9 shader bytecode:` line (that line may end the text; nothing after it is
/// read); `first_line` is the 1-based line number of its first line in the listing,
/// so that diagnostics name the listing's lines. Blank `//` lines may appear anywhere
/// between blocks and rows; spacing inside rows is free (values wider than their
/// column shift the row, as in the disassembler's output); trailing spaces and `\r`
/// are ignored. Every problem found is reported, in line order.
pub fn parse_tables(text: &str, first_line: usize) -> Result<Mappings, Vec<Diagnostic>> {
    let mut m = Mappings::default();
    let mut errors = Vec::new();
    let mut state = State::Outside;
    let mut lines = text.split('\n').enumerate().peekable();
    while let Some((i, raw)) = lines.next() {
        if raw.is_empty() && lines.peek().is_none() {
            break; // after the newline that ends the last line
        }
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let line = Line { no: first_line.saturating_add(i), raw, text: raw.trim_end() };
        if line.text == BYTECODE_TITLE {
            break;
        }
        let title = match line.text {
            CONSTANTS_TITLE => Some(Block::Constants),
            RUNTIME_TITLE => Some(Block::Runtime),
            SAMPLERS_TITLE => Some(Block::Samplers),
            _ => None,
        };
        if let Some(block) = title {
            if state != State::Outside {
                errors.push(line.error(0, "a block title where the previous block has not ended"));
            }
            state = State::Block { block, tables: 0 };
            continue;
        }
        state = match state {
            State::Outside if line.text == "//" => State::Outside,
            State::Outside => {
                errors.push(line.error(0, "expected a Level9 mapping block title or `// Level9 shader bytecode:`"));
                State::Outside
            }
            State::Block { tables: 0, .. } if line.text == "//" => state,
            State::Block { .. } if line.text == "//" => State::Outside,
            State::Block { block, tables } => {
                let rows = match (block, line.text) {
                    (Block::Constants, REGISTER_HEAD) => Some(Rows::Registers),
                    (Block::Constants, CONSTANT_HEAD) => Some(Rows::Constants),
                    (Block::Runtime, RUNTIME_HEAD) => Some(Rows::Runtime),
                    (Block::Samplers, SAMPLER_HEAD) => Some(Rows::Samplers),
                    _ => None,
                };
                match rows {
                    Some(rows) => State::Head { block, tables, rows },
                    None => {
                        errors.push(line.error(0, "expected the column header of one of the block's tables"));
                        state
                    }
                }
            }
            State::Head { block, tables, rows } => {
                if line.text != rows.rule() {
                    errors.push(line.error(0, "expected the table's rule line"));
                }
                State::Rows { block, tables: tables.saturating_add(1), rows }
            }
            State::Rows { block, tables, .. } if line.text == "//" => State::Block { block, tables },
            State::Rows { rows, .. } => {
                if let Err(e) = parse_row(&line, rows, &mut m) {
                    errors.push(e);
                }
                state
            }
        };
    }
    if !matches!(state, State::Outside) {
        let last = text.trim_end_matches('\n').split('\n').count();
        errors.push(Diagnostic {
            line: first_line.saturating_add(last.saturating_sub(1)),
            column: 1,
            message: "the text ends inside a block (a block ends with two `//` lines)".into(),
        });
    }
    if errors.is_empty() {
        Ok(m)
    } else {
        Err(errors)
    }
}

/// Strips `prefix` from a word and reads the rest as a number that fits `T`.
fn number<T: TryFrom<u64>>(line: &Line<'_>, w: Word<'_>, prefix: &str, what: &str) -> Result<T, Diagnostic> {
    let Some(digits) = w.text.strip_prefix(prefix) else {
        return Err(line.error(w.at, format!("expected {what} (`{prefix}` and a number), found `{}`", w.text)));
    };
    let value = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse::<u64>().ok()
    } else {
        None
    };
    value
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| line.error(w.at, format!("{what} `{}` is not a number in range", w.text)))
}

fn parse_row(line: &Line<'_>, rows: Rows, m: &mut Mappings) -> Result<(), Diagnostic> {
    let Some(body) = line.text.strip_prefix("//") else {
        return Err(line.error(0, "expected a `//` comment line"));
    };
    // Offsets in the line: `//` is two bytes.
    let ws: Vec<Word<'_>> =
        words(body).into_iter().map(|w| Word { at: w.at.saturating_add(2), text: w.text }).collect();
    // The first `N` words, or an error naming how many the row has.
    fn columns<'a, const N: usize>(line: &Line<'_>, ws: &[Word<'a>]) -> Result<[Word<'a>; N], Diagnostic> {
        ws.first_chunk::<N>()
            .copied()
            .ok_or_else(|| line.error(line.text.len(), format!("expected {N} columns, found {}", ws.len())))
    }
    match rows {
        Rows::Registers => {
            let [target, buffer, source, component] = columns(line, &ws)?;
            if let Some(extra) = ws.get(4) {
                return Err(line.error(extra.at, "unexpected text after the component column"));
            }
            let (prefix, booleans) = if target.text.starts_with('b') { ("b", true) } else { ("i", false) };
            let r = RegisterMapping {
                target_reg: number(line, target, prefix, "a `b#` or `i#` target register")?,
                buffer: number(line, buffer, "cb", "a constant buffer")?,
                source_reg: number(line, source, "", "a source register")?,
                component: number(line, component, "", "a component")?,
            };
            if booleans {
                m.booleans.push(r);
            } else {
                m.integers.push(r);
            }
        }
        Rows::Constants => {
            let [target_word, buffer, start_reg, reg_count, conversions] = columns(line, &ws)?;
            let target = if target_word.text.starts_with("clip") {
                ConstantTarget::ClipPlane(number(line, target_word, "clip", "a clip plane")?)
            } else {
                ConstantTarget::Register(number(line, target_word, "c", "a `c#` or `clip#` target")?)
            };
            if target.to_raw().is_none() {
                return Err(
                    line.error(target_word.at, "target register out of range (c0 to c4095, clip0 to clip61439)")
                );
            }
            let buffer = number(line, buffer, "cb", "a constant buffer")?;
            let start_reg = number(line, start_reg, "", "a start register")?;
            let reg_count = number(line, reg_count, "", "a register count")?;
            // The conversions: `(` four names separated by `,` `)`, spaces free.
            let at = conversions.at;
            let rest = line.text.get(at..).unwrap_or("");
            let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
                return Err(line.error(at, "expected the data conversions in parentheses"));
            };
            let mut conversion = [DataConversion::Float; 4];
            let mut slots = conversion.iter_mut();
            // Byte offsets in the line, which they cannot pass.
            let mut offset = at.saturating_add(1);
            for part in inner.split(',') {
                let name = part.trim();
                let name_at = offset.saturating_add(part.len().saturating_sub(part.trim_start().len()));
                offset = offset.saturating_add(part.len()).saturating_add(1);
                let Some(slot) = slots.next() else {
                    return Err(line.error(name_at, "more than four data conversions"));
                };
                *slot = match name {
                    "FLT" => DataConversion::Float,
                    "BOOL" => DataConversion::Bool,
                    "INT" => DataConversion::Int,
                    "UINT" => DataConversion::Uint,
                    "UNKN" => {
                        return Err(line.error(
                            name_at,
                            "`UNKN` stands for a conversion code the listing does not show; it cannot be rebuilt",
                        ))
                    }
                    _ => return Err(line.error(name_at, format!("unknown data conversion `{name}`"))),
                };
            }
            if slots.next().is_some() {
                // Every name was read: as many as there are parts.
                let n = inner.split(',').count();
                return Err(line.error(at, format!("expected four data conversions, found {n}")));
            }
            m.constants.push(ConstantMapping { buffer, start_reg, reg_count, target, conversion });
        }
        Rows::Runtime => {
            let [target, description] = columns(line, &ws)?;
            let target_reg = number(line, target, "c", "a `c#` target register")?;
            let at = description.at;
            let kind = match line.text.get(at..).unwrap_or("") {
                "Vertex Shader position offset" => RuntimeConstantKind::VertexShaderPositionOffset,
                "Instance ID" => RuntimeConstantKind::InstanceId,
                "Unknown Value" => {
                    return Err(line.error(
                        at,
                        "`Unknown Value` stands for a runtime constant code the listing does not show; \
                         it cannot be rebuilt",
                    ))
                }
                other => return Err(line.error(at, format!("unknown runtime constant `{other}`"))),
            };
            m.runtime_constants.push(RuntimeConstantMapping { kind, target_reg });
        }
        Rows::Samplers => {
            let [target, source, resource] = columns(line, &ws)?;
            if let Some(extra) = ws.get(3) {
                return Err(line.error(extra.at, "unexpected text after the source resource"));
            }
            m.samplers.push(SamplerMapping {
                target_sampler: number(line, target, "s", "a target sampler")?,
                source_sampler: number(line, source, "s", "a source sampler")?,
                source_resource: number(line, resource, "t", "a source resource")?,
                reserved: 0,
            });
        }
    }
    Ok(())
}
