//! Parsing the program part of a listing back into the IR: the inverse of
//! [`crate::print`].
//!
//! The grammar is fxc's listing text: one instruction per line (the immediate
//! constant buffer block spans several), `//` comments ignored. Mnemonics are
//! recognised as fxc spells them, with their suffixes (`_sat`, `_z`/`_nz`,
//! `_aoffimmi(u,v,w)`, `_indexable(dim)(types)`, `_uint`, `_glc`, ...), and in the
//! long spellings of Microsoft's reference pages (`dcl_maxOutputVertexCount`, ...).
//! Where the text leaves an encoding choice open (how many components a bare
//! register has, which index representation `r0.x + 0` uses, the order of extended
//! opcode tokens), the parser makes fxc's choice, so that a listing of an fxc blob
//! assembles to the same tokens.
//!
//! Errors carry a 1-based line and column and a length for a caret; the parser goes
//! on after an error and reports every one it finds.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)]

use arrayvec::ArrayVec;

use crate::blocks::{BlockError, Blocks, Event};
use crate::enums::*;
use crate::ir::*;
use crate::layout::{DeclLayout, DeclToken, DeclValues, Exception, Item, Once, Slot};
use crate::table::{DeclKind, Flow, Opcode, Shape, Ty};
use crate::words::Words;
use crate::written::{bare_encoding, is_object_file, lettered_mode, Note, Role};

use diagnostic::Cursor;
pub use diagnostic::{Diagnostic, Severity};

/// A parsed program and the warnings noticed on the way.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The program.
    pub program: Program<'static>,
    /// The warnings, in text order (ambiguous floats...).
    pub warnings: Vec<Diagnostic>,
    /// Line number of the version line.
    pub version_line: usize,
    /// Line number of each instruction (its first line), parallel to the program's.
    pub lines: Vec<usize>,
}

/// Parses a program listing: optional comment lines, the version line (`vs_5_0`), then
/// instructions. Line numbers in diagnostics count from 1 at the start of `text`.
pub fn parse_program(text: &str) -> Result<Parsed, Vec<Diagnostic>> {
    parse_program_at(text, 1)
}

/// As [`parse_program`], for text that starts at line `first_line` of a file.
pub fn parse_program_at(text: &str, first_line: usize) -> Result<Parsed, Vec<Diagnostic>> {
    let mut p = Parser {
        errors: Vec::new(),
        warnings: Vec::new(),
        version: None,
        blocks: Blocks::new(),
        decls: Vec::new(),
        program: Program::new(Version::new(ProgramType::Vertex, 5, 0)),
    };
    // A guess at the instruction count, capped: blank lines must not drive a huge
    // reservation.
    p.program.instructions.reserve((text.len() / 24).min(1 << 16));
    let mut lines =
        text.split('\n').enumerate().map(|(i, l)| (i.saturating_add(first_line), l.strip_suffix('\r').unwrap_or(l)));
    let mut version_line = 0;
    let mut instruction_lines = Vec::with_capacity(p.program.instructions.capacity());
    while let Some((n, raw)) = lines.next() {
        let code = strip_comment(raw);
        // The source positions of a program compiled with debug information
        // (`#line 49 "file.hlsl"`, d3dcompiler_47 6.3.9600's listings of such blobs)
        // are not part of the program.
        if code.trim().is_empty() || code.trim_start().starts_with("#line") {
            continue;
        }
        let mut c = Cursor::new(code, n);
        c.pos = line_prefix_len(code);
        c.skip_ws();
        if p.version.is_none() {
            let mut v = Cursor::new(code, n);
            v.pos = c.pos;
            match parse_version(&mut v) {
                Ok(version) => {
                    p.version = Some(version);
                    version_line = n;
                    continue;
                }
                Err(d) => {
                    // Report it and go on as `vs_5_0`, so that later errors are found
                    // too. A line that does not even try to be a version (`xx_N...`)
                    // is also parsed as an instruction.
                    p.errors.push(d);
                    p.version = Some(Version::new(ProgramType::Vertex, 5, 0));
                    version_line = n;
                    let b = c.rest().as_bytes();
                    let attempt = matches!(b, [x, y, b'_', z, ..]
                        if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() && z.is_ascii_digit());
                    if attempt {
                        continue;
                    }
                }
            }
        }
        // What Microsoft prints for a custom-data block it cannot show: its class and
        // contents are not in the text, so it becomes an empty comment block.
        if c.rest().trim_end() == crate::print::UNDECIPHERABLE_CUSTOM_DATA {
            p.warnings.push(Diagnostic {
                severity: Severity::Warning,
                line: n,
                column: c.pos.saturating_add(1),
                length: crate::print::UNDECIPHERABLE_CUSTOM_DATA.len(),
                message: "the listing does not say what this custom-data block held; it is assembled as an empty comment block".into(),
                expected: None,
                file: None,
            });
            let data = p.program.add_words(Words::empty());
            p.program.push(Instruction::new(
                Opcode::CustomData,
                Body::CustomData(CustomData { class: CustomDataClass::Comment, data }),
            ));
            instruction_lines.push(n);
            continue;
        }
        if c.rest().starts_with("dcl_immediateConstantBuffer") {
            if let Some(ins) = p.icb(&mut c, &mut lines) {
                p.program.push(ins);
                instruction_lines.push(n);
            }
            continue;
        }
        if p.line(&mut c) {
            instruction_lines.push(n);
        }
    }
    let Some(version) = p.version else {
        p.errors.push(Diagnostic::error(first_line, 1, 1, "no shader version line", Some("a line such as `vs_5_0`")));
        return Err(p.errors);
    };
    for block in p.blocks.drain() {
        let (opcode, line, column, _) = block.data;
        p.errors.push(Diagnostic::error(
            line,
            column,
            opcode.mnemonic().len(),
            &format!("`{}` is never closed", opcode.mnemonic()),
            Some(closer_of(opcode)),
        ));
    }
    if p.errors.is_empty() {
        let mut program = p.program;
        program.version = version;
        Ok(Parsed { program, warnings: p.warnings, version_line, lines: instruction_lines })
    } else {
        p.errors.sort_by_key(|d| (d.line, d.column));
        Err(p.errors)
    }
}

/// Instructions fxc ends with one zero token after their last operand (the length
/// counts it): `samplepos`, whatever its operands (learned from d3dcompiler_47's
/// output for immediate and register sample indices). The parser writes it too, so
/// that a listing of an fxc blob assembles to the same tokens.
const FXC_PADDED: &[Opcode] = &[Opcode::SamplePos];

/// The length of the columns `D3DDisassemble` prints before a line under its numbering
/// and offset flags (`  12: `, `0x000001A0: `, `  12  0x000001A0: `, and the six
/// spaces before declarations), which the parser skips; 0 when the line has none.
fn line_prefix_len(line: &str) -> usize {
    let rest = line.trim_start();
    let at = line.len().saturating_sub(rest.len());
    let b = line.as_bytes();
    let tail = |from: usize| b.get(from..).unwrap_or_default();
    let digits = |from: usize| tail(from).iter().take_while(|ch| ch.is_ascii_digit()).count();
    // `0x` and eight hex digits, then `:`.
    let offset_at = |from: usize| matches!(tail(from).get(..11), Some([b'0', b'x', hex @ .., b':']) if hex.iter().all(u8::is_ascii_hexdigit));
    if offset_at(at) {
        return at.saturating_add(11);
    }
    let n = digits(at);
    if n > 0 {
        if b.get(at.saturating_add(n)) == Some(&b':') {
            return at.saturating_add(n).saturating_add(1);
        }
        let after = at.saturating_add(n);
        let spaces = tail(after).iter().take_while(|ch| **ch == b' ').count();
        if spaces > 0 && offset_at(after.saturating_add(spaces)) {
            return after.saturating_add(spaces).saturating_add(11);
        }
    }
    0
}

fn closer_of(op: Opcode) -> &'static str {
    match op {
        Opcode::If => "`endif`",
        Opcode::Loop => "`endloop`",
        Opcode::Switch => "`endswitch`",
        _ => "its closing instruction",
    }
}

/// Removes a `//` comment, and a whole `#line 12 "file.hlsl"` line (the source position
/// a listing of a blob with debug information prints before an instruction; the program
/// does not hold it).
fn strip_comment(line: &str) -> &str {
    if line.trim_start().starts_with("#line") {
        return "";
    }
    match line.find("//") {
        // `i` is where `find` matched, a char boundary.
        Some(i) => line.get(..i).unwrap_or(line),
        None => line,
    }
}

type PResult<T> = Result<T, Diagnostic>;

/// The version line: `vs_4_0`, `gs_5_1`, ...
fn parse_version(c: &mut Cursor<'_>) -> PResult<Version> {
    let start = c.pos;
    let w = c.word();
    let bad = || {
        c.err_at(
            start,
            w.len().max(1),
            &format!("`{w}` is not a shader version"),
            Some("a version line such as `ps_4_0` or `gs_5_0`"),
        )
    };
    let mut parts = w.split('_');
    let ty = parts.next().and_then(ProgramType::from_listing_name).ok_or_else(bad)?;
    let major: u8 = parts.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    let minor: u8 = parts.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    if parts.next().is_some() || !c.at_end() || !(4..=5).contains(&major) || minor > 1 {
        return Err(bad());
    }
    Ok(Version::new(ty, major, minor))
}

/// What the mnemonic word of a line says, beyond the opcode.
#[derive(Default)]
struct Mnemonic {
    saturate: bool,
    test: Option<Test>,
    resinfo: Option<ResInfoReturnType>,
    ret_uint: Option<InstructionReturnType>,
    sync: Option<SyncFlags>,
    /// A declaration's values its mnemonic word gives (`dcl_resource_texture2dms(4)`,
    /// `dcl_uav_raw_glc`): the layout's mnemonic items.
    decl: Option<DeclValues>,
    offsets: Option<[i8; 3]>,
    dim: Option<(ResourceDimension, u16)>,
    types: Option<[ReturnType; 4]>,
    /// `_indexable` was written: a resource-dimension group must follow.
    indexable: bool,
    /// `_aoffimmi` was written: an offsets group must follow.
    aoffimmi: bool,
    /// ` [precise(...)]` written inside the mnemonic, before its groups, where
    /// Microsoft prints it (`ld_indexable [precise](texture2d)(float,float,float,float)`).
    precise: Option<Mask>,
}

/// Mnemonic spellings of Microsoft's reference pages that fxc does not print.
const ALIASES: &[(&str, Opcode)] = &[
    ("dcl_maxOutputVertexCount", Opcode::DclMaxOutputVertexCount),
    ("dcl_outputTopology", Opcode::DclOutputTopology),
    ("dcl_inputPrimitive", Opcode::DclInputPrimitive),
    ("dcl_input_sv", Opcode::DclInputSiv),
    ("dcl_output_sv", Opcode::DclOutputSiv),
    ("dcl_input_ps_sv", Opcode::DclInputPsSiv),
    ("dcl_gsInstanceCount", Opcode::DclGsInstanceCount),
    ("dcl_indexRange", Opcode::DclIndexRange),
    ("dcl_constantBuffer", Opcode::DclConstantBuffer),
    ("emitThenCut", Opcode::EmitThenCut),
    ("emitThenCut_stream", Opcode::EmitThenCutStream),
    // d3dcompiler_47 6.3.9600's spelling of a `dcl_globalFlags` without flags.
    ("dcl_globalFlagsnone", Opcode::DclGlobalFlags),
];

/// Every accepted spelling, sorted for binary search.
fn spellings() -> &'static [(&'static str, Opcode)] {
    static SPELLINGS: std::sync::OnceLock<Vec<(&'static str, Opcode)>> = std::sync::OnceLock::new();
    SPELLINGS.get_or_init(|| {
        let mut v: Vec<(&'static str, Opcode)> = crate::table::TABLE
            .iter()
            .filter(|r| r.opcode != Opcode::CustomData)
            .map(|r| (r.mnemonic, r.opcode))
            .chain(ALIASES.iter().copied())
            .collect();
        v.sort_unstable_by_key(|(name, _)| *name);
        v
    })
}

/// `text` without `suffix`, compared without regard to ASCII case (Microsoft prints
/// `_rcpfloat`; its documentation writes `_rcpFloat`).
fn strip_suffix_ignore_case<'s>(text: &'s str, suffix: &str) -> Option<&'s str> {
    let at = text.len().checked_sub(suffix.len())?;
    let (head, tail) = text.split_at_checked(at)?;
    tail.eq_ignore_ascii_case(suffix).then_some(head)
}

fn lookup(name: &str) -> Option<Opcode> {
    let table = spellings();
    table.binary_search_by_key(&name, |(n, _)| n).ok().and_then(|i| table.get(i)).map(|e| e.1)
}

/// Splits the mnemonic word into its name (identifier parts joined) and its
/// parenthesised groups, and works out the opcode and suffixes.
fn parse_mnemonic(c: &mut Cursor<'_>) -> PResult<(Opcode, Mnemonic)> {
    let start = c.pos;
    let mut name = String::new();
    let mut groups: Vec<(usize, &str)> = Vec::new();
    let mut precise = None;
    loop {
        let w = c.word();
        name.push_str(w);
        // ` [precise]` between the name and its groups (or its `_uint` suffix).
        if precise.is_none() && !name.is_empty() {
            let rest = c.rest();
            let after = rest.trim_start_matches(' ');
            if after.starts_with("[precise") {
                if let Some(close) = after.find(']') {
                    // `close` is where `]` (one byte) was found.
                    let next = after.get(close.saturating_add(1)..).and_then(|t| t.chars().next());
                    if matches!(next, Some('(' | '_')) {
                        c.pos = c.pos.saturating_add(rest.len().saturating_sub(after.len()));
                        precise = Some(parse_precise(c)?);
                        continue;
                    }
                }
            }
        }
        if c.peek() == Some('(') {
            let open = c.pos;
            let Some(close) = c.rest().find(')') else {
                return Err(c.err_at(open, 1, "unclosed `(` in the mnemonic", Some("`)`")));
            };
            // `close` is the offset of `)` from `open`.
            // Both ends are next to the one-byte `(` and `)`, so char boundaries.
            groups.push((
                open.saturating_add(1),
                c.text.get(open.saturating_add(1)..open.saturating_add(close)).unwrap_or(""),
            ));
            c.pos = open.saturating_add(close).saturating_add(1);
            continue;
        }
        if w.is_empty() {
            break;
        }
    }
    let end = c.pos;
    if name.is_empty() {
        return Err(c.err_at(start, 1, "expected an instruction", Some("an instruction or declaration mnemonic")));
    }
    let unknown = || {
        c.err_at(
            start,
            end.saturating_sub(start),
            &format!("unknown instruction `{name}`"),
            Some("an instruction or declaration mnemonic"),
        )
    };
    let mut m = Mnemonic { precise, ..Mnemonic::default() };
    let mut base: &str = &name;

    // Whole names first (`round_z` is an opcode, not `round` + `_z`).
    let opcode = match lookup(base) {
        Some(op) => op,
        None => {
            if let Some(b) = base.strip_suffix("_sat") {
                m.saturate = true;
                base = b;
            }
            if let Some(b) = base.strip_suffix("_uint") {
                m.resinfo = Some(ResInfoReturnType::Uint);
                m.ret_uint = Some(InstructionReturnType::Uint);
                base = b;
            } else if let Some(b) = strip_suffix_ignore_case(base, "_rcpfloat") {
                m.resinfo = Some(ResInfoReturnType::RcpFloat);
                base = b;
            }
            // Microsoft prints `_sat` before the return-type suffix (`resinfo_sat_uint`).
            if !m.saturate {
                if let Some(b) = base.strip_suffix("_sat") {
                    m.saturate = true;
                    base = b;
                }
            }
            if let Some(b) = base.strip_suffix("_indexable") {
                m.indexable = true;
                base = b;
            }
            if let Some(b) = base.strip_suffix("_aoffimmi") {
                m.aoffimmi = true;
                base = b;
            }
            if let Some(op) = lookup(base) {
                op
            } else if let Some((op, values)) = decl_mnemonic(base) {
                m.decl = Some(values);
                op
            } else if let Some((b, t)) = base
                .strip_suffix("_nz")
                .map(|b| (b, Test::NonZero))
                .or_else(|| base.strip_suffix("_z").map(|b| (b, Test::Zero)))
            {
                match lookup(b) {
                    Some(op) if op.info().controls == crate::table::Controls::Test => {
                        m.test = Some(t);
                        op
                    }
                    _ => return Err(unknown()),
                }
            } else if let Some(flags) = base.strip_prefix("sync") {
                let mut f = 0u8;
                let mut rest = flags;
                // d3dcompiler_47 6.3.9600 spells the UAV-group bit `_sat` (`sync_sat_uglobal_g_t`).
                if let Some(r) = rest.strip_prefix("_sat") {
                    f |= SyncFlags::UAV_GROUP;
                    rest = r;
                }
                for (suffix, bit) in [
                    ("_uglobal", SyncFlags::UAV_GLOBAL),
                    ("_ugroup", SyncFlags::UAV_GROUP),
                    ("_g", SyncFlags::TGSM),
                    ("_t", SyncFlags::THREADS_IN_GROUP),
                ] {
                    if let Some(r) = rest.strip_prefix(suffix) {
                        f |= bit;
                        rest = r;
                    }
                }
                if !rest.is_empty() {
                    return Err(unknown());
                }
                m.sync = Some(SyncFlags(f));
                Opcode::Sync
            } else {
                return Err(unknown());
            }
        }
    };

    // The parenthesised groups: offsets, dimension, return types, sample count.
    let mut sample_count = sample_count_slots(opcode);
    for (at, g) in groups {
        let g_trim = g.trim();
        let bad = |what: &str| c.err_at(at, g.len().max(1), &format!("`({g})` is not {what}"), Some(what));
        // A multisampled resource's sample count (`layout::Exception::SampleCount`).
        if let (Some((dimension, count)), Some(v)) = (sample_count, m.decl.as_mut()) {
            let dim = ResourceDimension::from_raw(v.get(dimension) as u8);
            if matches!(dim, ResourceDimension::Texture2DMS | ResourceDimension::Texture2DMSArray) {
                let n: u32 = g_trim.parse().map_err(|_| bad("a sample count"))?;
                if n > crate::layout::SAMPLE_COUNT.put(u32::MAX) >> crate::layout::SAMPLE_COUNT.shift {
                    return Err(bad("a sample count (at most 127)"));
                }
                v.set(count, Some(n));
                sample_count = None;
                continue;
            }
        }
        let items: Vec<&str> = g.split(',').map(str::trim).collect();
        if items.len() == 3 && items.iter().all(|s| s.parse::<i8>().is_ok()) {
            let o: Vec<i8> = items.iter().map(|s| s.parse().unwrap()).collect();
            if o.iter().any(|v| !(-8..=7).contains(v)) {
                return Err(c.err_at(at, g.len(), "texel offsets must lie in -8..7", Some("offsets between -8 and 7")));
            }
            // Three items, checked above.
            m.offsets = o.try_into().ok();
        } else if items.len() == 4 && items.iter().all(|s| ReturnType::from_listing_name(s).is_some()) {
            let t: Vec<ReturnType> = items.iter().map(|s| ReturnType::from_listing_name(s).unwrap()).collect();
            // Four items, checked above.
            m.types = t.try_into().ok();
        } else if let Some(d) = items.first().and_then(|s| ResourceDimension::from_listing_name(s)) {
            let stride = match items.get(1) {
                Some(s) => s
                    .strip_prefix("stride=")
                    .and_then(|v| v.trim().parse::<u16>().ok())
                    .filter(|v| *v < 4096)
                    .ok_or_else(|| bad("`stride=N` with N below 4096"))?,
                None => 0,
            };
            if items.len() > 2 {
                return Err(bad("a resource dimension"));
            }
            m.dim = Some((d, stride));
        } else {
            return Err(bad("texel offsets `(u,v,w)`, a resource dimension or return types"));
        }
    }
    let suffix_error = |what: &str| {
        c.err_at(
            start,
            end.saturating_sub(start),
            &format!("`{name}` {what}"),
            Some("the suffix's parenthesised group"),
        )
    };
    if m.indexable && m.dim.is_none() {
        return Err(suffix_error("says `_indexable` but gives no resource dimension such as `(texture2d)`"));
    }
    if m.aoffimmi && m.offsets.is_none() {
        return Err(suffix_error("says `_aoffimmi` but gives no texel offsets such as `(1,0,0)`"));
    }
    Ok((opcode, m))
}

/// A declaration whose mnemonic word carries values (`dcl_resource_texture2d`,
/// `dcl_uav_typed_buffer_glc`, `dcl_interface_dynamicindexed`): the table's mnemonic,
/// then its layout's mnemonic items ([`DeclLayout::mnemonic`]).
fn decl_mnemonic(name: &str) -> Option<(Opcode, DeclValues)> {
    crate::table::TABLE.iter().find_map(|row| {
        let Shape::Decl(kind) = row.shape else { return None };
        let layout = kind.layout();
        let rest = name.strip_prefix(row.mnemonic)?;
        if layout.mnemonic.is_empty() {
            return None;
        }
        let mut v = DeclValues::default();
        mnemonic_items(rest, layout.mnemonic, &mut v).then_some((row.opcode, v))
    })
}

/// True when `rest` is what `items` spell, setting their values: literal text, a name
/// (the longest that fits), flags in any order.
fn mnemonic_items(rest: &str, items: &[Item], v: &mut DeclValues) -> bool {
    let Some((first, more)) = items.split_first() else { return rest.is_empty() };
    match *first {
        Item::Text(t) => rest.strip_prefix(t).is_some_and(|r| mnemonic_items(r, more, v)),
        Item::Name(slot, names) => {
            let mut candidates = names.all();
            candidates.sort_by_key(|(_, n)| std::cmp::Reverse(n.len()));
            candidates.into_iter().any(|(value, n)| {
                v.set(slot, Some(value));
                rest.strip_prefix(n).is_some_and(|r| mnemonic_items(r, more, v))
            })
        }
        Item::Flag(..) => {
            // The run of flags, in any order, each at most once.
            let count = items.iter().take_while(|i| matches!(i, Item::Flag(..))).count();
            let (flags, after) = items.split_at(count);
            let mut r = rest;
            'next: while !r.is_empty() {
                for item in flags {
                    if let Item::Flag(slot, spelling) = *item {
                        if v.get(slot) == 0 {
                            if let Some(tail) = r.strip_prefix(spelling) {
                                v.set(slot, Some(1));
                                r = tail;
                                continue 'next;
                            }
                        }
                    }
                }
                break;
            }
            mnemonic_items(r, after, v)
        }
        // Read from the mnemonic's parenthesised groups.
        Item::Exception(Exception::SampleCount { .. }) => mnemonic_items(rest, more, v),
        _ => false,
    }
}

/// The dimension and count slots of a declaration whose mnemonic has a sample count.
fn sample_count_slots(opcode: Opcode) -> Option<(Slot, Slot)> {
    let Shape::Decl(kind) = opcode.info().shape else { return None };
    kind.layout().mnemonic.iter().find_map(|i| match *i {
        Item::Exception(Exception::SampleCount { dimension, count }) => Some((dimension, count)),
        _ => None,
    })
}

/// Register-file names, longest first where one is a prefix of another.
const REGISTER_NAMES: &[(&str, OperandType)] = &[
    ("vThreadIDInGroupFlattened", OperandType::InputThreadIdInGroupFlattened),
    ("vThreadIDInGroup", OperandType::InputThreadIdInGroup),
    ("vThreadGroupID", OperandType::InputThreadGroupId),
    ("vThreadID", OperandType::InputThreadId),
    ("vOutputControlPointID", OperandType::OutputControlPointId),
    ("vForkInstanceID", OperandType::InputForkInstanceId),
    ("vJoinInstanceID", OperandType::InputJoinInstanceId),
    ("vGSInstanceID", OperandType::InputGsInstanceId),
    ("vCycleCounter", OperandType::CycleCounter),
    ("vInnerCoverage", OperandType::InnerCoverage),
    ("vCoverage", OperandType::InputCoverageMask),
    ("vDomain", OperandType::InputDomainPoint),
    ("vPrim", OperandType::InputPrimitiveId),
    ("vicp", OperandType::InputControlPoint),
    ("vocp", OperandType::OutputControlPoint),
    ("vpc", OperandType::InputPatchConstant),
    ("oDepthGE", OperandType::OutputDepthGreaterEqual),
    ("oDepthLE", OperandType::OutputDepthLessEqual),
    ("oDepth", OperandType::OutputDepth),
    ("oMask", OperandType::OutputCoverageMask),
    ("oStencilRef", OperandType::OutputStencilRef),
    ("rasterizer", OperandType::Rasterizer),
    ("null", OperandType::Null),
    ("this", OperandType::ThisPointer),
    ("icb", OperandType::ImmediateConstantBuffer),
    ("cb", OperandType::ConstantBuffer),
    ("CB", OperandType::ConstantBuffer),
    ("fb", OperandType::FunctionBody),
    ("ft", OperandType::FunctionTable),
    ("fp", OperandType::Interface),
    ("fi", OperandType::FunctionInput),
    ("fo", OperandType::FunctionOutput),
    ("r", OperandType::Temp),
    ("v", OperandType::Input),
    ("o", OperandType::Output),
    ("x", OperandType::IndexableTemp),
    ("s", OperandType::Sampler),
    ("S", OperandType::Sampler),
    ("t", OperandType::Resource),
    ("T", OperandType::Resource),
    ("u", OperandType::UnorderedAccessView),
    ("U", OperandType::UnorderedAccessView),
    ("g", OperandType::ThreadGroupSharedMemory),
    ("m", OperandType::Stream),
    // d3dcompiler_47 6.3.9600 spells labels `label0`, later compilers `l0`.
    ("label", OperandType::Label),
    ("l", OperandType::Label),
];

fn component_index(ch: char) -> Option<u8> {
    match ch {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// Largest register number (exclusive) per register file outside SM5.1, from the
/// D3D11 limits; `None` where the file has no fixed limit worth checking.
fn register_limit(ty: OperandType) -> Option<u64> {
    use OperandType::*;
    Some(match ty {
        Temp | IndexableTemp => 4096,
        Input | Output | InputPatchConstant => 32,
        ConstantBuffer => 15,
        Sampler => 16,
        Resource => 128,
        UnorderedAccessView => 64,
        Stream => 4,
        ThreadGroupSharedMemory => 8192,
        _ => return None,
    })
}

struct Parser {
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    version: Option<Version>,
    /// Open `if` / `loop` / `switch` blocks (`tpf::blocks`, the structure the validator
    /// and the interpreter check too), each with its opcode, line, column, and the line
    /// of the `if`'s `else` once one is seen.
    blocks: Blocks<(Opcode, usize, usize, Option<usize>)>,
    /// Declarations seen: key and position, for duplicate detection.
    decls: Vec<(String, usize, usize)>,
    /// The program parsed so far (its version is set at the end).
    program: Program<'static>,
}

impl Parser {
    fn sm51(&self) -> bool {
        self.version.is_some_and(|v| v.is_sm51())
    }

    /// Parses one line and appends its instruction; records errors (dropping what
    /// the line added to the arenas) and says whether it parsed.
    fn line(&mut self, c: &mut Cursor<'_>) -> bool {
        let p = &self.program;
        let marks = (p.operands.len(), p.extended.len(), p.words.len());
        match self.instruction(c) {
            Ok(ins) => {
                self.program.push(ins);
                true
            }
            Err(d) => {
                self.program.operands.truncate(marks.0);
                self.program.extended.truncate(marks.1);
                self.program.words.truncate(marks.2);
                self.errors.push(d);
                false
            }
        }
    }

    fn instruction(&mut self, c: &mut Cursor<'_>) -> PResult<Instruction> {
        let start = c.pos;
        let (opcode, m) = parse_mnemonic(c)?;
        let info = opcode.info();
        // Each hull-shader phase and each geometry-shader stream declares anew.
        if info.flow == Flow::Phase || opcode == Opcode::DclStream {
            self.decls.clear();
        }
        let mnemonic_end = c.pos;
        self.track_blocks(opcode, c, start, mnemonic_end)?;

        let mut precise = m.precise.unwrap_or(Mask::NONE);
        c.skip_ws();
        if m.precise.is_none() && c.rest().starts_with("[precise") {
            precise = parse_precise(c)?;
        }

        let mut ext: ArrayVec<ExtOpcode, MAX_EXTENDED> = ArrayVec::new();
        if let Some(offsets) = m.offsets {
            ext.push(ExtOpcode::SampleControls { offsets, reserved: 0 });
        }
        if let Some((dim, stride)) = m.dim {
            ext.push(ExtOpcode::ResourceDim { dim, stride, reserved: 0 });
        }
        if let Some(types) = m.types {
            ext.push(ExtOpcode::ReturnType { types, reserved: 0 });
        }

        let mut length = LengthEncoding::Inline;
        let body = match info.shape {
            Shape::Ops => Body::Op(self.op(opcode, &m, precise, c, start)?),
            Shape::InterfaceCall => {
                if !ext.is_empty() || m.saturate || precise != Mask::NONE || m.resinfo.is_some() {
                    return Err(c.err_at(
                        start,
                        mnemonic_end.saturating_sub(start),
                        "`fcall` takes no instruction suffixes",
                        None,
                    ));
                }
                c.skip_ws();
                let at = c.pos;
                let mut o = self.operand(c, Role::Src, Ty::R)?;
                let mut indices = o.indices();
                let function = match indices.pop() {
                    Some(Index::Imm32(f)) if o.ty == OperandType::Interface && indices.len() == 2 => f,
                    _ => {
                        return Err(c.err_at(
                            at,
                            c.pos.saturating_sub(at),
                            "`fcall` takes an interface and a function index",
                            Some("`fp<N>[<array index>][<function>]`"),
                        ))
                    }
                };
                o.set_indices(&indices);
                Body::InterfaceCall { function, interface: self.program.add_operand(o) }
            }
            Shape::Decl(kind) => {
                if !ext.is_empty() || m.saturate || precise != Mask::NONE || m.resinfo.is_some() {
                    return Err(c.err_at(
                        start,
                        mnemonic_end.saturating_sub(start),
                        "a declaration takes no instruction suffixes",
                        None,
                    ));
                }
                let decl = self.decl(kind, opcode, &m, c, start)?;
                // Long function tables and interfaces carry their length in a token of
                // its own: the opcode token's length field holds at most 127.
                let layout = kind.layout();
                let run =
                    layout.tokens.iter().any(|t| matches!(t, DeclToken::CountedWords(_) | DeclToken::InterfaceTables));
                let tokens = if run {
                    // The opcode token, the layout's tokens, the run (no operand).
                    self.program.words(decl.values().words).len().saturating_add(layout.tokens.len()).saturating_add(1)
                } else {
                    0
                };
                if tokens > 127 {
                    length = LengthEncoding::Separate;
                }
                Body::Decl(decl)
            }
            Shape::CustomData => {
                return Err(c.err_at(
                    start,
                    mnemonic_end.saturating_sub(start),
                    "custom data blocks other than `dcl_immediateConstantBuffer` have no listing syntax",
                    None,
                ))
            }
        };
        if !c.at_end() {
            c.skip_ws();
            return Err(c.err_at(
                c.pos,
                c.rest().trim_end().len(),
                "unexpected text after the instruction",
                Some("the end of the line"),
            ));
        }
        let ext = if ext.is_empty() { Span::EMPTY } else { self.program.add_extended(&ext) };
        let trailing = FXC_PADDED.contains(&opcode).then(|| self.program.add_words(Words::from_tokens(&[0])));
        Ok(Instruction { opcode, body, ext, reserved: 0, length, trailing })
    }

    /// The block structure the text must have to be one program: openers and closers
    /// that match, one `else` per `if`, nothing left open at the end. What a token stream
    /// carries whatever its place (a `break` outside a loop, a `case` outside a switch, a
    /// second `default`, a label inside a block) is assembled as written: Microsoft's
    /// disassembler prints such streams, and refusing them is the validator's job (it
    /// walks the same structure, `tpf::blocks`).
    fn track_blocks(&mut self, opcode: Opcode, c: &Cursor<'_>, start: usize, end: usize) -> PResult<()> {
        let flow = opcode.info().flow;
        if matches!(flow, Flow::Label | Flow::Phase) {
            return Ok(());
        }
        let (line, col) = (c.line, c.column(start));
        let refuse =
            |why: String, expected: Option<&str>| Err(c.err_at(start, end.saturating_sub(start), &why, expected));
        match self.blocks.step(flow, || (opcode, line, col, None)) {
            Ok(Event::Else) => {
                if let Some(block) = self.blocks.innermost_mut() {
                    block.data.3 = Some(line);
                }
                Ok(())
            }
            Ok(_) => Ok(()),
            Err(BlockError::Unopened { expected, .. }) => {
                refuse(format!("`{}` without an open `{}`", opcode.mnemonic(), expected.opener()), None)
            }
            Err(BlockError::SecondElse) => {
                let first = self.blocks.innermost().and_then(|b| b.data.3).unwrap_or(line);
                refuse(format!("a second `else` in one `if` (its `else` is on line {first})"), Some("`endif`"))
            }
            Err(
                BlockError::SecondDefault
                | BlockError::CaseOutsideSwitch
                | BlockError::BreakOutside
                | BlockError::ContinueOutside
                | BlockError::NotClosed(_),
            ) => Ok(()),
        }
    }

    fn op(&mut self, opcode: Opcode, m: &Mnemonic, precise: Mask, c: &mut Cursor<'_>, start: usize) -> PResult<Op> {
        let info = opcode.info();
        let control = if let Some(t) = m.test {
            OpControl::Test(t)
        } else if info.controls == crate::table::Controls::Test {
            // fxc 9.x prints no test on an immediate condition; it encodes `_nz`.
            OpControl::Test(Test::NonZero)
        } else if let Some(f) = m.sync {
            OpControl::Sync(f)
        } else if info.controls == crate::table::Controls::ResInfo {
            OpControl::ResInfo(m.resinfo.unwrap_or(ResInfoReturnType::Float))
        } else if info.controls == crate::table::Controls::ReturnType {
            OpControl::ReturnType(m.ret_uint.unwrap_or(InstructionReturnType::Float))
        } else {
            OpControl::None
        };
        use crate::table::Controls as K;
        // Every suffix must be one the encoding can carry: nothing is dropped silently.
        let misplaced = (m.resinfo.is_some() && !matches!(info.controls, K::ResInfo | K::ReturnType))
            || (m.resinfo == Some(ResInfoReturnType::RcpFloat) && info.controls != K::ResInfo)
            || (m.saturate && !matches!(info.controls, K::Plain | K::ResInfo | K::ReturnType))
            || (precise != Mask::NONE && !matches!(info.controls, K::Plain | K::ResInfo | K::ReturnType))
            || (m.sync.is_some() && opcode != Opcode::Sync);
        if misplaced {
            return Err(c.err_at(
                start,
                c.pos.saturating_sub(start),
                &format!("a suffix that `{}` does not take", info.mnemonic),
                None,
            ));
        }
        let mut operands: ArrayVec<Operand, MAX_OPERANDS> = ArrayVec::new();
        let expected = info.operand_count();
        c.skip_ws();
        let mut first = true;
        while !c.at_end() {
            if !first {
                c.skip_ws();
                if !c.eat(",") {
                    return Err(c.err("expected `,` between operands", Some("`,`")));
                }
            }
            first = false;
            c.skip_ws();
            let i = operands.len();
            if i >= expected {
                return Err(c.err_at(
                    c.pos,
                    c.rest().trim_end().len(),
                    &operand_count_message(opcode, i.saturating_add(1)),
                    Some(&format!("{expected} operands")),
                ));
            }
            // `i < expected`, the number of destinations and sources together.
            let Some((role, ty)) =
                info.dst.iter().map(|&t| (Role::Dst, t)).chain(info.src.iter().map(|&t| (Role::Src, t))).nth(i)
            else {
                return Err(c.err_at(
                    c.pos,
                    c.rest().trim_end().len(),
                    &operand_count_message(opcode, i.saturating_add(1)),
                    Some(&format!("{expected} operands")),
                ));
            };
            let o = self.operand(c, role, ty)?;
            if operands.try_push(o).is_err() {
                return Err(c.err(&operand_count_message(opcode, i.saturating_add(1)), None));
            }
        }
        if operands.len() != expected {
            return Err(c.err_at(
                c.text.trim_end().len(),
                1,
                &operand_count_message(opcode, operands.len()),
                Some(&format!("{expected} operands")),
            ));
        }
        let operands = self.program.add_operands(&operands);
        Ok(Op { saturate: m.saturate, precise, control, operands })
    }

    /// One operand: `-|r0.xyzw|`, `cb0[r1.x + 2].y`, `l(1.0, 2, 0x3, 4)`, `v[0][1].xyzw {min16f}`.
    fn operand(&mut self, c: &mut Cursor<'_>, role: Role, ty: Ty) -> PResult<Operand> {
        let mut o = Operand::EMPTY;
        self.operand_into(c, role, ty, &mut o)?;
        Ok(o)
    }

    /// As [`Parser::operand`], writing into `o` (every field is set).
    fn operand_into(&mut self, c: &mut Cursor<'_>, role: Role, ty: Ty, o: &mut Operand) -> PResult<()> {
        let start = c.pos;
        let neg = c.eat("-");
        let abs = c.eat("|");
        let modifier = match (neg, abs) {
            (false, false) => Modifier::None,
            (true, false) => Modifier::Neg,
            (false, true) => Modifier::Abs,
            (true, true) => Modifier::AbsNeg,
        };
        if c.rest().starts_with("l(") || c.rest().starts_with("d(") {
            if role == Role::Dst {
                return Err(c.err("an immediate cannot be a destination", Some("a register")));
            }
            if ty == Ty::R {
                return Err(
                    c.err("an immediate cannot stand here", Some("a resource, sampler or other object register"))
                );
            }
            self.immediate_into(c, ty, o)?;
        } else {
            self.register_operand_into(c, role, o)?;
        }
        if abs {
            // d3dcompiler_47 6.3.9600 writes the precision inside the bars: `|r0.x {min16f}|`.
            self.operand_suffixes(c, o)?;
            c.skip_ws();
            if !c.eat("|") {
                return Err(c.err("expected the closing `|` of an absolute value", Some("`|`")));
            }
        }
        if modifier != Modifier::None {
            if role == Role::Dst {
                return Err(c.err_at(
                    start,
                    c.pos.saturating_sub(start),
                    "a destination takes no `-` or `|...|` modifier",
                    None,
                ));
            }
            let mut ext = o.ext().unwrap_or(ExtOperand::modifier(Modifier::None));
            ext.modifier = modifier;
            o.set_ext(Some(ext));
        }
        self.operand_suffixes(c, o)?;
        Ok(())
    }

    /// ` {min16f}`, ` {def32 as min16f}`, ` {nonuniform}` after an operand.
    fn operand_suffixes(&mut self, c: &mut Cursor<'_>, o: &mut Operand) -> PResult<()> {
        loop {
            let save = c.pos;
            c.skip_ws();
            if !c.eat("{") {
                c.pos = save;
                break;
            }
            let at = c.pos;
            let close = c.rest().find('}').ok_or_else(|| c.err("unclosed `{`", Some("`}`")))?;
            // `close` is where `find` matched the one-byte `}`.
            let inner = c.text.get(at..at.saturating_add(close)).unwrap_or("");
            c.pos = at.saturating_add(close).saturating_add(1);
            let mut ext = o.ext().unwrap_or(ExtOperand::modifier(Modifier::None));
            if inner == "nonuniform" {
                ext.non_uniform = true;
            } else {
                let own = inner.split(" as ").next().unwrap_or(inner);
                ext.min_precision = MinPrecision::from_listing_name(own).ok_or_else(|| {
                    c.err_at(
                        at,
                        close,
                        &format!("`{inner}` is not a precision"),
                        Some("min16f, min2_8f, min16i, min16u or def32"),
                    )
                })?;
            }
            o.set_ext((ext != ExtOperand::modifier(Modifier::None)).then_some(ext));
        }
        Ok(())
    }

    fn immediate(&mut self, c: &mut Cursor<'_>, ty: Ty) -> PResult<Operand> {
        let mut o = Operand::EMPTY;
        self.immediate_into(c, ty, &mut o)?;
        Ok(o)
    }

    fn immediate_into(&mut self, c: &mut Cursor<'_>, ty: Ty, o: &mut Operand) -> PResult<()> {
        let double = c.rest().starts_with('d');
        c.pos = c.pos.saturating_add(2);
        let mut values: ArrayVec<(usize, &str), 4> = ArrayVec::new();
        loop {
            c.skip_ws();
            let at = c.pos;
            let n = c.rest().find([',', ')']).ok_or_else(|| c.err_at(at, 1, "unclosed immediate", Some("`)`")))?;
            // `n` is where `find` matched, a char boundary.
            if values.try_push((at, c.text.get(at..at.saturating_add(n)).unwrap_or("").trim_end())).is_err() {
                return Err(c.err_at(at, n.max(1), "an immediate has at most 4 values", Some("`)`")));
            }
            c.pos = at.saturating_add(n);
            if c.eat(")") {
                break;
            }
            c.pos = c.pos.saturating_add(1);
        }
        *o = Operand::EMPTY;
        // The loop above pushed at least one value.
        let first_at = values.first().map_or(c.pos, |v| v.0);
        // `D3DDisassemble`'s hex literals print each double as its low and high words.
        let words = values.len() % 2 == 0 && values.iter().all(|(_, t)| is_hex_word(t));
        if double && words {
            o.ty = OperandType::Immediate64;
            let (components, selection) = match values.len() {
                2 => (ComponentCount::One, Selection::None),
                4 => (ComponentCount::Four, Selection::Mask(Mask::NONE)),
                _ => {
                    return Err(c.err_at(
                        first_at,
                        1,
                        "a double immediate in words has 2 or 4 values",
                        Some("`d(low, high)` or `d(low, high, low, high)`"),
                    ))
                }
            };
            o.components = components;
            o.set_selection(selection);
            for (slot, (at, text)) in o.imm.iter_mut().zip(&values) {
                *slot = parse_value(text, Ty::U)
                    .map_err(|msg| c.err_at(*at, text.len(), &msg, Some("a 32-bit hex value")))?
                    .0;
            }
            return Ok(());
        }
        if double {
            o.ty = OperandType::Immediate64;
            let (components, count) = match values.len() {
                1 => (ComponentCount::One, 1),
                2 => (ComponentCount::Four, 2),
                _ => {
                    return Err(c.err_at(
                        first_at,
                        1,
                        "a double immediate has 1 or 2 values",
                        Some("`d(a)` or `d(a, b)`"),
                    ))
                }
            };
            o.components = components;
            o.set_selection(if components == ComponentCount::Four {
                Selection::Mask(Mask::NONE)
            } else {
                Selection::None
            });
            for (pair, (at, text)) in o.imm.chunks_exact_mut(2).zip(values.iter().take(count)) {
                let bits = parse_double_text(text).ok_or_else(|| {
                    c.err_at(*at, text.len(), &format!("`{text}` is not a number"), Some("a decimal number"))
                })?;
                pair.copy_from_slice(&[bits as u32, (bits >> 32) as u32]);
            }
            return Ok(());
        }
        o.ty = OperandType::Immediate32;
        match values.len() {
            1 => {
                o.components = ComponentCount::One;
                o.set_selection(Selection::None);
            }
            4 => {
                o.components = ComponentCount::Four;
                o.set_selection(Selection::Mask(Mask::NONE));
            }
            n => {
                return Err(c.err_at(
                    first_at,
                    1,
                    &format!("an immediate has 1 or 4 values, not {n}"),
                    Some("`l(a)` or `l(a, b, c, d)`"),
                ))
            }
        }
        for (slot, (at, text)) in o.imm.iter_mut().zip(&values) {
            let (bits, ambiguous) = parse_value(text, ty)
                .map_err(|msg| c.err_at(*at, text.len(), &msg, Some("a float, an integer or a hex value")))?;
            if ambiguous {
                self.warnings.push(ambiguity_warning(c.line, c.column(*at), text, bits));
            }
            *slot = bits;
        }
        Ok(())
    }

    /// A declared register with its precision suffix (`dcl_input v1.xyzw {min16f}`).
    fn decl_operand(&mut self, c: &mut Cursor<'_>) -> PResult<Operand> {
        let mut o = self.register_operand(c, Role::Decl)?;
        self.operand_suffixes(c, &mut o)?;
        Ok(o)
    }

    fn register_operand(&mut self, c: &mut Cursor<'_>, role: Role) -> PResult<Operand> {
        let mut o = Operand::EMPTY;
        self.register_operand_into(c, role, &mut o)?;
        Ok(o)
    }

    fn register_operand_into(&mut self, c: &mut Cursor<'_>, role: Role, o: &mut Operand) -> PResult<()> {
        let mut indices = Indices::new();
        let ty = self.register_into(c, &mut indices)?;
        *o = Operand::EMPTY;
        o.ty = ty;
        o.set_indices(&indices);
        self.selection_into(c, role, o)
    }

    /// The component letters and encoding note after a register (`.xy`, ` {mask}`),
    /// or the encoding fxc gives a register written bare.
    fn selection_into(&mut self, c: &mut Cursor<'_>, role: Role, o: &mut Operand) -> PResult<()> {
        let ty = o.ty;
        let sel_at = c.pos;
        let mut letters: ArrayVec<u8, 4> = ArrayVec::new();
        let mut letters_text = "";
        let at = c.pos.saturating_add(1);
        if c.eat(".") {
            letters_text = c.letters();
            let comps: Option<ArrayVec<u8, 4>> =
                if letters_text.len() > 4 { None } else { letters_text.chars().map(component_index).collect() };
            letters = comps
                .filter(|v| !v.is_empty())
                .ok_or_else(|| c.err_at(at, letters_text.len().max(1), "not a component selection", None))?;
            if is_object_file(ty)
                && !matches!(
                    ty,
                    OperandType::Sampler
                        | OperandType::Resource
                        | OperandType::UnorderedAccessView
                        | OperandType::ThreadGroupSharedMemory
                )
            {
                return Err(c.err_at(
                    sel_at,
                    c.pos.saturating_sub(sel_at),
                    "this register takes no component selection",
                    None,
                ));
            }
        }
        let sel_end = c.pos;
        let note = self.encoding_note(c)?;
        let bad = |c: &Cursor<'_>, what: &str| c.err_at(at, letters_text.len().max(1), what, None);
        let mode = match note {
            Some(note) => note,
            None if letters.is_empty() => {
                let (components, selection) = bare_encoding(ty, role, self.sm51());
                o.components = components;
                o.set_selection(selection);
                return Ok(());
            }
            None => lettered_mode(role, letters.len())
                .ok_or_else(|| bad(c, "a source selects 1 component or swizzles 4"))?,
        };
        let (components, selection) = match mode {
            Note::Mask => {
                let mask = if letters.is_empty() { Some(Mask::NONE) } else { parse_mask(letters_text) };
                let mask =
                    mask.ok_or_else(|| bad(c, "a write mask lists components once each, in the order x, y, z, w"))?;
                (ComponentCount::Four, Selection::Mask(mask))
            }
            Note::Swizzle if letters.len() == 4 => {
                (ComponentCount::Four, Selection::Swizzle(letters.as_slice().try_into().unwrap_or_default()))
            }
            Note::Select1 if letters.len() == 1 => {
                (ComponentCount::Four, Selection::Select1(letters.first().copied().unwrap_or_default()))
            }
            Note::Mode3 if letters.is_empty() => (ComponentCount::Four, Selection::Mode3),
            Note::Count(n) if letters.is_empty() => (n, Selection::None),
            _ => {
                return Err(c.err_at(
                    sel_at,
                    (sel_end.saturating_sub(sel_at)).max(1),
                    &format!("these letters do not fit the note {{{}}}", mode.spelling()),
                    Some("4 letters with {swizzle}, 1 with {select1}, none with {mode3} or a component count"),
                ))
            }
        };
        o.components = components;
        o.set_selection(selection);
        Ok(())
    }

    /// dxref's encoding note after a register (`r1 {1 component}`, `r1.xy {mask}`),
    /// which exact listings write where fxc's text cannot show the encoding; other
    /// `{...}` suffixes (precisions) are left to the caller.
    fn encoding_note(&mut self, c: &mut Cursor<'_>) -> PResult<Option<Note>> {
        let save = c.pos;
        c.skip_ws();
        if let Some(rest) = c.rest().strip_prefix('{') {
            if let Some(close) = rest.find('}') {
                if let Some(note) = rest.get(..close).and_then(Note::from_spelling) {
                    c.pos = c.pos.saturating_add(close.saturating_add(2));
                    return Ok(Some(note));
                }
            }
        }
        c.pos = save;
        Ok(None)
    }

    /// A register name with its indices.
    fn register(&mut self, c: &mut Cursor<'_>) -> PResult<(OperandType, Indices)> {
        let mut indices = ArrayVec::new();
        let ty = self.register_into(c, &mut indices)?;
        Ok((ty, indices))
    }

    /// A register name with its indices (written into `indices`, cleared first).
    fn register_into(&mut self, c: &mut Cursor<'_>, indices: &mut Indices) -> PResult<OperandType> {
        let start = c.pos;
        let rest = c.rest();
        let name_len = rest.find(|ch: char| !ch.is_ascii_alphabetic()).unwrap_or(rest.len());
        // `name_len` is where `find` matched (or the end), a char boundary.
        let name = rest.get(..name_len).unwrap_or("");
        let Some(&(_, ty)) = REGISTER_NAMES.iter().find(|(n, _)| *n == name) else {
            return Err(c.err_at(
                start,
                name_len.max(1),
                &format!("`{name}` is not a register"),
                Some("a register such as r0, v1, o2, cb0[3], t0, s0, l(...)"),
            ));
        };
        c.pos = c.pos.saturating_add(name_len);
        indices.clear();
        let digits = c.rest().find(|ch: char| !ch.is_ascii_digit()).unwrap_or(c.rest().len());
        if digits > 0 {
            let at = c.pos;
            let v: u64 = c
                .rest()
                .get(..digits)
                .unwrap_or("")
                .parse()
                .map_err(|_| c.err_at(at, digits, "register number too large", None))?;
            c.pos = c.pos.saturating_add(digits);
            indices.push(index_value(v));
        }
        while c.peek() == Some('[') {
            let at = c.pos;
            c.pos = c.pos.saturating_add(1);
            if indices.is_full() {
                return Err(c.err_at(at, 1, "an operand has at most 3 indices", None));
            }
            let index = self.index(c)?;
            c.expect("]")?;
            // SM5.1 declaration ranges `[lo:hi]` are handled by the declaration parser.
            indices.push(index);
        }
        if !self.sm51() {
            if let (Some(limit), Some(first)) = (register_limit(ty), indices.first()) {
                let reg = match indices.get(1) {
                    Some(second)
                        if matches!(ty, OperandType::Input | OperandType::InputControlPoint) && indices.len() == 2 =>
                    {
                        second.immediate()
                    }
                    _ => first.immediate(),
                };
                if first.relative().is_none() && reg >= limit {
                    return Err(c.err_at(
                        start,
                        c.pos.saturating_sub(start),
                        &format!(
                            "register index {reg} is out of range for `{name}` (at most {})",
                            limit.saturating_sub(1)
                        ),
                        None,
                    ));
                }
            }
        }
        Ok(ty)
    }

    /// An index: `3`, `r0.x`, `r0.x + 3`, `x1[2].y + 4`.
    fn index(&mut self, c: &mut Cursor<'_>) -> PResult<Index> {
        c.skip_ws();
        if c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
            let at = c.pos;
            let digits = c.rest().find(|ch: char| !ch.is_ascii_digit()).unwrap_or(c.rest().len());
            let v: u64 = c
                .rest()
                .get(..digits)
                .unwrap_or("")
                .parse()
                .map_err(|_| c.err_at(at, digits, "index too large", None))?;
            c.pos = c.pos.saturating_add(digits);
            c.skip_ws();
            return Ok(index_value(v));
        }
        let at = c.pos;
        let (ty, indices) = self.register(c)?;
        let mut rel = Operand::EMPTY;
        rel.ty = ty;
        rel.components = ComponentCount::Four;
        rel.set_indices(&indices);
        for idx in &indices {
            match idx {
                Index::Imm32(_) => {}
                _ => {
                    return Err(c.err_at(
                        at,
                        c.pos.saturating_sub(at),
                        "an index register takes only immediate indices",
                        None,
                    ))
                }
            }
        }
        if !c.eat(".") {
            return Err(c.err("an index register selects one component", Some("`.x`, `.y`, `.z` or `.w`")));
        }
        let comp_at = c.pos;
        let letters = c.letters();
        let comp = (letters.len() == 1).then(|| letters.chars().next().and_then(component_index)).flatten();
        rel.set_selection(Selection::Select1(comp.ok_or_else(|| {
            c.err_at(
                comp_at,
                letters.len().max(1),
                "an index register selects one component",
                Some("`.x`, `.y`, `.z` or `.w`"),
            )
        })?));
        let rel = self.program.add_operand(rel);
        c.skip_ws();
        if c.eat("+") {
            let imm = c.uint("an index offset")?;
            c.skip_ws();
            // fxc writes `+ 0` for a purely relative index.
            return Ok(if imm == 0 { Index::Relative(rel) } else { Index::Imm32Relative(imm, rel) });
        }
        Ok(Index::Relative(rel))
    }

    /// `t0`, or in SM5.1 `T0[0:3]` / `CB1[2:2]`: a declared register (range).
    fn decl_register(&mut self, c: &mut Cursor<'_>) -> PResult<Operand> {
        c.skip_ws();
        if !self.sm51() {
            return self.register_operand(c, Role::Decl);
        }
        let start = c.pos;
        let name = c.letters();
        let ty = REGISTER_NAMES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).ok_or_else(|| {
            c.err_at(
                start,
                name.len().max(1),
                &format!("`{name}` is not a register"),
                Some("a register range such as `T0[0:3]`"),
            )
        })?;
        let id = c.uint("a register ID")?;
        c.expect("[")?;
        let lo = c.uint("the range's first register")?;
        c.expect(":")?;
        c.skip_ws();
        let hi = if c.eat("*") { u32::MAX } else { c.uint("the range's last register")? };
        c.expect("]")?;
        let mut o = Operand::EMPTY;
        o.ty = ty;
        o.set_indices(&[id, lo, hi].map(Index::Imm32));
        // Exact listings write letters and a note where the encoding is not fxc's.
        self.selection_into(c, Role::Decl, &mut o)?;
        Ok(o)
    }

    /// `, space=N` (SM5.1 declarations).
    fn space(&mut self, c: &mut Cursor<'_>) -> PResult<Option<u32>> {
        if !self.sm51() {
            return Ok(None);
        }
        c.expect(",")?;
        c.expect("space=")?;
        Ok(Some(c.uint("a register space")?))
    }

    fn duplicate_check(&mut self, key: String, c: &Cursor<'_>, start: usize) -> PResult<()> {
        if let Some((_, line, col)) = self.decls.iter().find(|(k, ..)| *k == key) {
            return Err(c.err_at(
                start,
                c.text.trim_end().len().saturating_sub(start),
                &format!("duplicate declaration (first declared at {line}:{col})"),
                None,
            ));
        }
        self.decls.push((key, c.line, c.column(start)));
        Ok(())
    }

    /// A declaration after its mnemonic, item by item as its kind's layout says
    /// ([`DeclLayout::text`]), then the layout's limits and duplicate rule.
    fn decl(
        &mut self,
        kind: DeclKind,
        opcode: Opcode,
        m: &Mnemonic,
        c: &mut Cursor<'_>,
        start: usize,
    ) -> PResult<Decl> {
        c.skip_ws();
        let layout = kind.layout();
        let mut v = m.decl.unwrap_or_default();
        let mut register = None;
        for item in layout.text {
            self.decl_item(*item, layout, opcode, &mut v, &mut register, c, start)?;
        }
        for limit in layout.limits {
            let value = v.get(limit.slot);
            if value < limit.min || value > limit.max {
                return Err(c.err_at(start, c.pos.saturating_sub(start), limit.message, None));
            }
        }
        self.once(layout, opcode, &v, register.as_ref(), c, start)?;
        Ok(Decl::from_values(kind, &v))
    }

    /// One item of a declaration's text: reads it into `v` (and the declared register
    /// into `register`).
    #[allow(clippy::too_many_arguments)]
    fn decl_item(
        &mut self,
        item: Item,
        layout: &DeclLayout,
        opcode: Opcode,
        v: &mut DeclValues,
        register: &mut Option<Operand>,
        c: &mut Cursor<'_>,
        start: usize,
    ) -> PResult<()> {
        match item {
            Item::Text(t) => literal(c, t)?,
            Item::Number(slot) => {
                let at = c.pos;
                let n = c.uint(&format!("the {}", layout.slot_name(slot)))?;
                if n > slot_max(layout, slot) {
                    return Err(c.err_at(
                        at,
                        c.pos.saturating_sub(at),
                        &format!("the {} is at most {}", layout.slot_name(slot), slot_max(layout, slot)),
                        None,
                    ));
                }
                v.set(slot, Some(n));
            }
            Item::Name(slot, names) => v.set(slot, Some(named(c, |w| names.value(w), names.expected())?)),
            Item::Flag(slot, spelling) => v.set(slot, Some(c.eat(spelling) as u32)),
            Item::Register(slot) | Item::Range(slot) => {
                let o = if matches!(item, Item::Register(_)) { self.decl_operand(c)? } else { self.decl_register(c)? };
                if let Some(file) = layout.file {
                    expect_type(c, &o, file, start)?;
                }
                v.set(slot, Some(self.program.add_operand(o).0));
                *register = Some(o);
            }
            Item::Space(slot) | Item::Exception(Exception::SpaceOrBlank(slot)) => v.set(slot, self.space(c)?),
            Item::Types(slot) => v.set(slot, Some(parse_return_types(c)?.token())),
            Item::SystemValue(slot) => {
                c.skip_ws();
                let at = c.pos;
                let w = c.word();
                let name = SystemName::from_listing_name(w).ok_or_else(|| {
                    c.err_at(
                        at,
                        w.len().max(1),
                        &format!("`{w}` is not a system value name"),
                        Some("a name such as position, clip_distance, vertex_id"),
                    )
                })?;
                v.set(slot, Some(name.raw() as u32));
            }
            Item::Interpolation(slot) => {
                let mode = self.interpolation(c, start)?;
                v.set(slot, Some(mode.unwrap_or(InterpolationMode::Undefined).raw() as u32));
            }
            Item::Float(slot) => v.set(slot, Some(self.immediate_operand(c)?)),
            Item::List(prefix) => {
                let list = parse_list(c, prefix)?;
                v.words = self.program.add_words(Words::from_tokens(&list));
            }
            Item::Exception(e) => self.decl_exception(e, v, register, opcode, c, start)?,
        }
        Ok(())
    }

    /// The spellings of [`Exception`], each explained there.
    fn decl_exception(
        &mut self,
        e: Exception,
        v: &mut DeclValues,
        register: &mut Option<Operand>,
        opcode: Opcode,
        c: &mut Cursor<'_>,
        start: usize,
    ) -> PResult<()> {
        match e {
            Exception::GlobalFlags => {
                let mut bits = 0u32;
                // No flag: `dcl_globalFlagsnone` (6.3.9600) or `dcl_globalFlags` alone.
                if !c.at_end() {
                    loop {
                        c.skip_ws();
                        let at = c.pos;
                        let w = c.word();
                        let (bit, _) =
                            GLOBAL_FLAG_NAMES.iter().find(|(_, n)| n.eq_ignore_ascii_case(w)).ok_or_else(|| {
                                c.err_at(
                                    at,
                                    w.len().max(1),
                                    &format!("`{w}` is not a global flag"),
                                    Some("a flag such as refactoringAllowed"),
                                )
                            })?;
                        bits |= bit;
                        c.skip_ws();
                        if !c.eat("|") {
                            break;
                        }
                    }
                }
                v.fields[0] = crate::layout::GLOBAL_FLAGS.get(bits);
            }
            Exception::ConstantBuffer => {
                let at = c.pos;
                let name = c.letters();
                if !matches!(name, "cb" | "CB") {
                    return Err(c.err_at(at, name.len().max(1), "expected a constant buffer", Some("`cb<N>[<size>]`")));
                }
                let (operand, size) = if self.sm51() {
                    c.pos = at;
                    let o = self.decl_register(c)?;
                    c.expect("[")?;
                    let size = c.uint("the buffer size")?;
                    c.expect("]")?;
                    (o, Some(size))
                } else {
                    let id = c.uint("a constant buffer number")?;
                    if id >= 15 {
                        return Err(c.err_at(
                            at,
                            c.pos.saturating_sub(at),
                            &format!("constant buffer {id} is out of range (cb0 to cb14)"),
                            None,
                        ));
                    }
                    c.expect("[")?;
                    let size = c.uint("the buffer size")?;
                    c.expect("]")?;
                    let (components, selection) = bare_encoding(OperandType::ConstantBuffer, Role::Decl, false);
                    (Operand::new(OperandType::ConstantBuffer, components, selection, &[id, size]), None)
                };
                v.tokens[0] = Some(self.program.add_operand(operand).0);
                v.tokens[1] = size;
                *register = Some(operand);
            }
            // Read with the mnemonic.
            Exception::SampleCount { .. } => {}
            Exception::SgvInterpolation(slot) => {
                // fxc prints no interpolation mode for `dcl_input_ps_sgv`; it encodes `constant`.
                let mode = match self.interpolation(c, start)? {
                    None if opcode == Opcode::DclInputPsSgv => InterpolationMode::Constant,
                    mode => mode.unwrap_or(InterpolationMode::Undefined),
                };
                v.set(slot, Some(mode.raw() as u32));
            }
            Exception::SpaceOrBlank(slot) => v.set(slot, self.space(c)?),
        }
        Ok(())
    }

    /// An interpolation mode's words (`linear noperspective centroid`), `None` when
    /// there are none.
    fn interpolation(&mut self, c: &mut Cursor<'_>, start: usize) -> PResult<Option<InterpolationMode>> {
        let mut words = Vec::new();
        loop {
            c.skip_ws();
            let save = c.pos;
            let w = c.word();
            if ["constant", "linear", "centroid", "noperspective", "sample"].contains(&w) {
                words.push(w);
            } else {
                c.pos = save;
                break;
            }
        }
        if words.is_empty() {
            return Ok(None);
        }
        let text = words.join(" ");
        InterpolationMode::from_listing_name(&text).map(Some).ok_or_else(|| {
            c.err_at(
                start,
                c.pos.saturating_sub(start),
                &format!("`{text}` is not an interpolation mode"),
                Some("constant, linear, linear centroid, linear noperspective ..."),
            )
        })
    }

    /// Refuses a declaration that clashes with an earlier one by the layout's rule.
    fn once(
        &mut self,
        layout: &DeclLayout,
        opcode: Opcode,
        v: &DeclValues,
        register: Option<&Operand>,
        c: &Cursor<'_>,
        start: usize,
    ) -> PResult<()> {
        let indices = |o: &Operand| o.indices().iter().map(|i| i.immediate()).collect::<Vec<_>>();
        let key = match (layout.once, register) {
            (Once::Never, _) => return Ok(()),
            (Once::Program(name), _) => name.to_string(),
            (Once::Number(prefix, slot), _) => format!("{prefix}{}", v.get(slot)),
            (Once::Register, Some(o)) => format!("{:?}{}", o.ty, o.index(0).map_or(0, |i| i.immediate())),
            (Once::Io, Some(o)) => format!("{}{:?}{:?}{:?}", io_class(opcode), o.ty, indices(o), o.selection()),
            (Once::IoMnemonic, Some(o)) => {
                format!("{}{:?}{:?}{:?}", opcode.mnemonic(), o.ty, indices(o), o.selection())
            }
            (_, None) => return Ok(()),
        };
        self.duplicate_check(key, c, start)
    }

    /// `l(64.000000)`: the float bits.
    fn immediate_operand(&mut self, c: &mut Cursor<'_>) -> PResult<u32> {
        c.skip_ws();
        if !c.rest().starts_with("l(") {
            return Err(c.err("expected an immediate", Some("`l(<value>)`")));
        }
        let o = self.immediate(c, Ty::F)?;
        if o.components != ComponentCount::One {
            return Err(c.err("expected one value", Some("`l(<value>)`")));
        }
        Ok(o.imm[0])
    }

    /// `dcl_immediateConstantBuffer { { a, b, c, d}, ... }`, over as many lines as it takes.
    fn icb<'a>(
        &mut self,
        c: &mut Cursor<'a>,
        lines: &mut impl Iterator<Item = (usize, &'a str)>,
    ) -> Option<Instruction> {
        const KEYWORD: &str = "dcl_immediateConstantBuffer";
        let (start_line, start_col) = (c.line, c.column(c.pos));
        c.pos = c.pos.saturating_add(KEYWORD.len());
        let first_col = c.column(c.pos);
        let mut text = String::from(c.rest());
        // (line number, offset in `text` where that line starts), in order.
        let mut positions = vec![(c.line, 0usize)];
        let depth_of = |s: &str| (s.matches('{').count() as i64).saturating_sub(s.matches('}').count() as i64);
        let mut depth = depth_of(&text);
        let mut opened = text.contains('{');
        // Gather lines until the braces balance (running totals: linear in the block).
        while depth > 0 || !opened {
            let Some((n, l)) = lines.next() else {
                self.errors.push(Diagnostic::error(
                    start_line,
                    start_col,
                    KEYWORD.len(),
                    "the immediate constant buffer block is never closed",
                    Some("`}`"),
                ));
                return None;
            };
            let l = strip_comment(l);
            text.push('\n');
            positions.push((n, text.len()));
            depth = depth.saturating_add(depth_of(l));
            opened |= l.contains('{');
            text.push_str(l);
        }
        let locate = |off: usize| -> (usize, usize) {
            let i = positions.partition_point(|(_, start)| *start <= off).saturating_sub(1);
            // `positions` starts with the first line, so `i` is in range.
            let (line, start) = positions.get(i).copied().unwrap_or_default();
            (line, if i == 0 { first_col.saturating_add(off) } else { off.saturating_sub(start).saturating_add(1) })
        };
        let mut error = |off: usize, len: usize, message: &str, expected: &str| {
            let (l, col) = locate(off);
            self.errors.push(Diagnostic::error(l, col, len, message, Some(expected)));
        };
        let open = text.len().saturating_sub(text.trim_start().len());
        let close = text.trim_end().len();
        // `open` and `close` come from trimming, so they are char boundaries.
        let (inside, head) = (text.get(open..).unwrap_or(""), text.get(..close).unwrap_or(""));
        if !inside.starts_with('{') || !head.ends_with('}') || close <= open {
            error(open, 1, "expected `{ { a, b, c, d}, ... }`", "`{`");
            return None;
        }
        // The rows, with their offsets in `text`.
        let mut rows: Vec<(usize, &str)> = Vec::new();
        let mut off = open.saturating_add(1);
        // `text[open]` is `{` and `text[close - 1]` is `}`, with `open < close - 1`.
        // Just inside the one-byte braces, so char boundaries.
        for row in text.get(open.saturating_add(1)..close.saturating_sub(1)).unwrap_or("").split('}') {
            let lead =
                row.len().saturating_sub(row.trim_start_matches(|ch: char| ch.is_whitespace() || ch == ',').len());
            if !row.trim_matches(|ch: char| ch.is_whitespace() || ch == ',').is_empty() {
                rows.push((off.saturating_add(lead), row.get(lead..).unwrap_or("").trim_end()));
            }
            off = off.saturating_add(row.len().saturating_add(1));
        }
        let mut values = Vec::with_capacity(rows.len().saturating_mul(4));
        let last = rows.len().saturating_sub(1);
        for (i, (row_off, row)) in rows.iter().enumerate() {
            let Some(items) = row.strip_prefix('{') else {
                error(*row_off, 1, "expected a row `{ a, b, c, d}`", "`{`");
                return None;
            };
            let count = items.split(',').count();
            // Rows hold four values; only the last may be shorter (a buffer whose
            // length is not a multiple of four).
            if count > 4 || (count < 4 && i != last) {
                error(*row_off, row.len(), &format!("a row has 4 values, not {count}"), "4 values");
                return None;
            }
            let mut item_off = row_off.saturating_add(1);
            for item in items.split(',') {
                let lead = item.len().saturating_sub(item.trim_start().len());
                let v = item.trim();
                match parse_value(v, Ty::Any) {
                    Ok((bits, ambiguous)) => {
                        if ambiguous {
                            let (l, col) = locate(item_off.saturating_add(lead));
                            self.warnings.push(ambiguity_warning(l, col, v, bits));
                        }
                        values.push(bits)
                    }
                    Err(msg) => {
                        error(item_off.saturating_add(lead), v.len(), &msg, "a float, an integer or a hex value");
                        return None;
                    }
                }
                item_off = item_off.saturating_add(item.len().saturating_add(1));
            }
        }
        let data = self.program.add_words(Words::from_tokens(&values));
        Some(Instruction::new(
            Opcode::CustomData,
            Body::CustomData(CustomData { class: CustomDataClass::ImmediateConstantBuffer, data }),
        ))
    }
}

/// Reads literal text of a declaration: its words and punctuation, blanks around them
/// optional.
fn literal(c: &mut Cursor<'_>, text: &str) -> PResult<()> {
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let n = match rest.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')) {
            Some(0) => rest.chars().next().map_or(1, char::len_utf8),
            Some(n) => n,
            None => rest.len(),
        };
        // `n` ends a run of ASCII characters or one whole character: a char boundary.
        let (piece, tail) = rest.split_at_checked(n).unwrap_or((rest, ""));
        c.expect(piece)?;
        rest = tail.trim_start();
    }
    Ok(())
}

/// The largest value `slot` holds: its field's width, or 32 bits for a token.
fn slot_max(layout: &DeclLayout, slot: Slot) -> u32 {
    match slot {
        Slot::Field(i) => layout.fields.get(i as usize).map_or(u32::MAX, |f| f.max()),
        Slot::Token(_) => u32::MAX,
    }
}

/// Input and output declarations of one register clash whatever their mnemonic.
fn io_class(opcode: Opcode) -> &'static str {
    if opcode.mnemonic().starts_with("dcl_input") {
        "input"
    } else {
        "output"
    }
}

fn operand_count_message(opcode: Opcode, found: usize) -> String {
    let info = opcode.info();
    format!(
        "`{}` takes {} operand{} ({} destination{}, {} source{}); found {found}",
        info.mnemonic,
        info.operand_count(),
        if info.operand_count() == 1 { "" } else { "s" },
        info.dst.len(),
        if info.dst.len() == 1 { "" } else { "s" },
        info.src.len(),
        if info.src.len() == 1 { "" } else { "s" },
    )
}

fn expect_type(c: &Cursor<'_>, o: &Operand, want: OperandType, start: usize) -> PResult<()> {
    if o.ty == want {
        Ok(())
    } else {
        Err(c.err_at(
            start,
            c.pos.saturating_sub(start),
            &format!("this declaration declares `{}` registers", want.listing_name().unwrap_or("?")),
            None,
        ))
    }
}

fn named<T>(c: &mut Cursor<'_>, f: impl Fn(&str) -> Option<T>, expected: &str) -> PResult<T> {
    c.skip_ws();
    let at = c.pos;
    let w = c.word();
    f(w).ok_or_else(|| c.err_at(at, w.len().max(1), &format!("`{w}` is not one of {expected}"), Some(expected)))
}

/// `{fb0, fb1}` / `{ft0, ft1}`.
fn parse_list(c: &mut Cursor<'_>, prefix: &str) -> PResult<Vec<u32>> {
    c.expect("{")?;
    let mut out = Vec::new();
    c.skip_ws();
    if c.eat("}") {
        return Ok(out);
    }
    loop {
        c.expect(prefix)?;
        out.push(c.uint("a number")?);
        c.skip_ws();
        if c.eat("}") {
            return Ok(out);
        }
        c.expect(",")?;
    }
}

/// `(float,float,float,float)`.
fn parse_return_types(c: &mut Cursor<'_>) -> PResult<ReturnTypes> {
    c.expect("(")?;
    let at = c.pos;
    let close = c.rest().find(')').ok_or_else(|| c.err("unclosed `(`", Some("`)`")))?;
    // `close` is where `find` matched the one-byte `)`.
    let inner = c.text.get(at..at.saturating_add(close)).unwrap_or("");
    let items: Vec<&str> = inner.split(',').map(str::trim).collect();
    let types: Option<Vec<ReturnType>> = items.iter().map(|s| ReturnType::from_listing_name(s)).collect();
    let types: [ReturnType; 4] = types.and_then(|t| t.try_into().ok()).ok_or_else(|| {
        c.err_at(
            at,
            close.max(1),
            &format!("`({inner})` is not four return types"),
            Some("four of unorm, snorm, sint, uint, float, mixed, double, continued, unused"),
        )
    })?;
    c.pos = at.saturating_add(close).saturating_add(1);
    Ok(ReturnTypes { types, reserved: 0 })
}

fn parse_mask(letters: &str) -> Option<Mask> {
    let mut mask = 0u8;
    let mut last: i8 = -1;
    for ch in letters.chars() {
        let c = component_index(ch)? as i8;
        if c <= last {
            return None;
        }
        last = c;
        mask |= 1 << c;
    }
    (!letters.is_empty()).then_some(Mask(mask))
}

fn index_value(v: u64) -> Index {
    match u32::try_from(v) {
        Ok(v) => Index::Imm32(v),
        Err(_) => Index::Imm64(v),
    }
}

/// A float written as fxc prints it (`1.000000`, `-0.5`, `1.#INF00`, `1.#QNAN0`).
fn parse_float_text(text: &str) -> Option<f64> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let v = match body {
        "1.#INF00" | "inf" | "INF" => f64::INFINITY,
        "1.#QNAN0" | "1.#IND00" | "nan" | "NAN" => f64::NAN,
        _ => {
            if !body
                .chars()
                .all(|ch| ch.is_ascii_digit() || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' || ch == '-')
            {
                return None;
            }
            body.parse::<f64>().ok()?
        }
    };
    Some(if neg { -v } else { v })
}

/// `[precise]` or `[precise(xy)]`: the components whose results must not be refactored.
fn parse_precise(c: &mut Cursor<'_>) -> PResult<Mask> {
    c.expect("[precise")?;
    let mut precise = Mask::XYZW;
    if c.eat("(") {
        let at = c.pos;
        let letters = c.letters();
        precise = parse_mask(letters).ok_or_else(|| {
            c.err_at(at, letters.len(), "not a component mask", Some("components in the order x, y, z, w"))
        })?;
        c.expect(")")?;
    }
    c.expect("]")?;
    Ok(precise)
}

/// A double immediate's value: a decimal (read as the nearest double), fxc's
/// `1.#INF00`-style spellings, either with `D3DDisassemble`'s `l` suffix, or its 64 bits as `0x` and 16 hex digits (what
/// [`crate::print::Format::exact_floats`] prints for infinities and NaNs).
fn parse_double_text(text: &str) -> Option<u64> {
    // `D3DDisassemble` ends each double with `l` (`d(1.100000l, 0.000000l)`).
    let text = text.strip_suffix(['l', 'L']).unwrap_or(text);
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"));
    if let Some(hex) = digits {
        return (hex.len() == 16).then(|| u64::from_str_radix(hex, 16).ok()).flatten();
    }
    parse_float_text(text).map(f64::to_bits)
}

/// `0x` and at most 8 hex digits: one 32-bit word.
fn is_hex_word(text: &str) -> bool {
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"));
    digits.is_some_and(|h| !h.is_empty() && h.len() <= 8 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A 32-bit float's text read as the nearest `f32` (correctly rounded, not through a
/// double); fxc's `1.#INF00`/`1.#QNAN0`/`-1.#IND00` spellings as infinity and the
/// default quiet NaNs.
fn parse_f32_text(text: &str) -> Option<f32> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let v = match body {
        "1.#INF00" | "inf" | "INF" => f32::INFINITY,
        "1.#QNAN0" | "1.#IND00" | "nan" | "NAN" => f32::NAN,
        _ => {
            if !body
                .chars()
                .all(|ch| ch.is_ascii_digit() || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' || ch == '-')
            {
                return None;
            }
            body.parse::<f32>().ok()?
        }
    };
    Some(if neg { -v } else { v })
}

/// A 32-bit immediate value in a slot of type `ty`, and whether its text is ambiguous
/// (see [`float_bits`]).
fn parse_value(text: &str, ty: Ty) -> Result<(u32, bool), String> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16)
            .map(|v| (v, false))
            .map_err(|_| format!("`{text}` is not a 32-bit hex value"));
    }
    let is_float = text.contains(['.', '#', 'e', 'E', 'n', 'i']) && !text.is_empty();
    if is_float || ty == Ty::F {
        let v = parse_f32_text(text).ok_or_else(|| format!("`{text}` is not a number"))?;
        if is_float && matches!(ty, Ty::I | Ty::U) {
            return Err(format!("`{text}` is a float where an integer is expected"));
        }
        let (bits, ambiguous) = float_bits(text, v);
        if ty == Ty::Any && is_fixed_six(text) && !text.starts_with('-') && (bits >> 23) & 0xff == 0 {
            // In a typeless slot fxc prints zero and denormal bits as integers: a
            // positive six-decimal text there (`mov r0.x, l(0.000000)`) is a normal
            // float too small for six decimals. It is read as the nearest, the smallest
            // normal float, which prints as the same text. (`-0.000000` there is -0.0,
            // which d3dcompiler_47 prints so, or a negative normal float: read as -0.0.)
            return Ok((0x0080_0000, true));
        }
        return Ok((bits, ambiguous));
    }
    let v: i64 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
    if v < i32::MIN as i64 || v > u32::MAX as i64 {
        return Err(format!("`{text}` does not fit in 32 bits"));
    }
    Ok((v as u32, false))
}

/// The warning for an immediate whose text more than one float prints as.
fn ambiguity_warning(line: usize, column: usize, text: &str, bits: u32) -> Diagnostic {
    Diagnostic::new(
        Severity::Warning,
        line,
        column,
        text.len(),
        &format!(
            "`{text}` is printed by more than one float; read as {} (0x{bits:08x}); \
             `dxref disasm --exact-floats` prints floats that assemble exactly",
            f32::from_bits(bits)
        ),
        None,
    )
}

/// Largest denominator tried when recovering a fraction from six decimals.
const MAX_DENOMINATOR: u32 = 16;
/// Most significant bits of a binary fraction recovered from six decimals.
const MAX_DYADIC_BITS: i32 = 6;
/// Fewest significant digits a six-decimal text needs before a fraction is recovered
/// from it.
const MIN_RECOVERY_DIGITS: usize = 2;

/// True when `text` has `%f`'s fixed shape: an optional `-`, digits, `.` and exactly
/// six decimals.
fn is_fixed_six(text: &str) -> bool {
    let body = text.strip_prefix('-').unwrap_or(text);
    match body.split_once('.') {
        Some((int, dec)) => {
            !int.is_empty()
                && int.bytes().all(|b| b.is_ascii_digit())
                && dec.len() == 6
                && dec.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

/// True when the float `f` prints as `text` under `%f` (the exact value rounded to six
/// decimals).
fn prints_as(f: f32, text: &str) -> bool {
    f.is_finite() && format!("{:.6}", f as f64) == text
}

/// The f32 bits for a float's text, and whether the text is ambiguous.
///
/// A text is ambiguous when it has `%f`'s fixed shape (six decimals, no exponent) and
/// more than one `f32` prints as it — the nearest float to the text and one of its
/// neighbours both do. Every other text means the nearest float (correctly rounded).
///
/// For an ambiguous text with at least [`MIN_RECOVERY_DIGITS`] significant digits
/// (counted from its first non-zero digit, so `0.000001` has one and `0.000031` two),
/// the value a compiler most likely folded is recovered, among the floats that print as
/// the text: the first fraction p/q with q from 2 to [`MAX_DENOMINATOR`] (`0.333333` is
/// 1/3), else a constant HLSL's intrinsics expand to (`1.570796` is π/2, see
/// `folded.rs`), else the binary fraction with the fewest significant bits, up to
/// [`MAX_DYADIC_BITS`] (`0.000031` is 2^-15); else the nearest float. On the fxc
/// corpus this makes more programs reassemble exactly than the nearest float alone; a
/// hand-written value with one significant digit (`0.000001`) is kept as written.
fn float_bits(text: &str, nearest: f32) -> (u32, bool) {
    let ambiguous = is_fixed_six(text)
        && prints_as(nearest, text)
        && (prints_as(next_toward(nearest, true), text) || prints_as(next_toward(nearest, false), text));
    if !ambiguous {
        return (nearest.to_bits(), false);
    }
    let significant = text.bytes().filter(u8::is_ascii_digit).skip_while(|b| *b == b'0').count();
    if nearest == 0.0 || significant < MIN_RECOVERY_DIGITS {
        return (nearest.to_bits(), true);
    }
    let v = nearest as f64;
    let exponent = v.abs().log2().floor() as i32;
    for q in 2..=MAX_DENOMINATOR {
        let cand = ((v * q as f64).round() / q as f64) as f32;
        if prints_as(cand, text) {
            return (cand.to_bits(), true);
        }
    }
    if let Some(c) = crate::folded::folded_constant(nearest, significant, |c| prints_as(c, text)) {
        return (c.to_bits(), true);
    }
    for bits in 1..=MAX_DYADIC_BITS {
        let scale = 2f64.powi(bits.saturating_sub(1).saturating_sub(exponent));
        let cand = ((v * scale).round() / scale) as f32;
        if prints_as(cand, text) {
            return (cand.to_bits(), true);
        }
    }
    (nearest.to_bits(), true)
}

/// The next float after `f` upwards or downwards (finite `f`).
fn next_toward(f: f32, up: bool) -> f32 {
    if f == 0.0 {
        let tiny = f32::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let bits = f.to_bits();
    let away = (f > 0.0) == up;
    f32::from_bits(if away { bits.saturating_add(1) } else { bits.saturating_sub(1) })
}

// Test code indexes its own fixed expectations, not input.
#[cfg(test)]
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn one(line: &str) -> Program<'static> {
        parse_program(&format!("ps_5_0\n{line}\n")).unwrap_or_else(|e| panic!("{line}: {e:?}")).program
    }

    #[test]
    fn parses_operands_and_suffixes() {
        let p = one("mad_sat r0.xyz, -r1.xyzx, |cb0[r2.x + 3].w|, l(1.000000, 2, 0x3, -4)");
        let ins = p.get(0).unwrap();
        assert_eq!(ins.opcode, Opcode::Mad);
        let Body::Op(op) = &ins.body else { panic!() };
        assert!(op.saturate);
        let operands = ins.operands();
        assert_eq!(operands[0].selection(), Selection::Mask(Mask(7)));
        assert_eq!(operands[1].modifier(), Modifier::Neg);
        assert_eq!(operands[2].modifier(), Modifier::Abs);
        let index = operands[2].indices()[1];
        assert!(matches!(index, Index::Imm32Relative(3, _)));
        let rel = ins.relative(&index).unwrap();
        assert_eq!((rel.ty, rel.register(), rel.selection()), (OperandType::Temp, Some(2), Selection::Select1(0)));
        // In a float slot an integer is a float; hex is raw bits.
        assert_eq!(operands[3].imm, [1.0f32.to_bits(), 2.0f32.to_bits(), 3, (-4.0f32).to_bits()]);
    }

    #[test]
    fn reports_every_error_with_its_position() {
        let text = "vs_4_0\nfoo r0, r1\nadd r0.x, r1.x\nmov r0.xx, r1.x\nmov r0.x, l(1, 2)\nloop \n";
        let errors = parse_program(text).unwrap_err();
        let at: Vec<(usize, usize)> = errors.iter().map(|d| (d.line, d.column)).collect();
        assert_eq!(at, vec![(2, 1), (3, 15), (4, 8), (5, 13), (6, 1)], "{errors:#?}");
        assert!(errors[0].message.contains("unknown instruction `foo`"));
        assert!(errors[1].message.contains("takes 3 operands"));
        assert!(errors[4].message.contains("never closed"));
    }

    fn errors_of(text: &str) -> Vec<(usize, usize, String)> {
        parse_program(text).unwrap_err().into_iter().map(|d| (d.line, d.column, d.message)).collect()
    }

    #[test]
    fn refuses_each_kind_of_bad_input_at_its_position() {
        // Duplicate declarations, with the first one named.
        let e = errors_of("ps_4_0\ndcl_temps 2\ndcl_temps 3\ndcl_input_ps linear v0.xy\ndcl_input_ps linear v0.xy\n");
        assert_eq!((e[0].0, e[0].1), (3, 1), "{e:?}");
        assert!(e[0].2.contains("duplicate declaration (first declared at 2:1)"), "{e:?}");
        assert_eq!(e[1].0, 5);
        // Register indices out of range for their file.
        let e = errors_of("vs_4_0\nmov r4096.x, l(0)\nmov o0.x, v32.x\ndcl_constantbuffer cb15[4], immediateIndexed\n");
        assert_eq!(e.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(), [(2, 5), (3, 11), (4, 20)], "{e:?}");
        assert!(e[0].2.contains("out of range"));
        // An unterminated immediate constant buffer.
        let e = errors_of("vs_4_0\ndcl_immediateConstantBuffer { { 1, 2, 3, 4},\n  { 5, 6, 7, 8}\n");
        assert_eq!((e[0].0, e[0].1), (2, 1), "{e:?}");
        assert!(e[0].2.contains("never closed"));
        // Closing a block that is not open; operand kinds in the wrong place.
        let e = errors_of("vs_4_0\nendif \nmov l(1), r0.x\nadd r0.x, -|r1.x, r2.x\nsample r0, v0, l(1), s0\n");
        assert_eq!(e.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(), [(2, 1), (3, 5), (4, 17), (5, 16)], "{e:?}");
        // A swizzle of two components, a bad version line.
        let e = errors_of("vs_4_0\nmov r0.x, r1.xy\n");
        assert!(e[0].2.contains("1 component or swizzles 4"), "{e:?}");
        let e = errors_of("vs_9_9\nret \n");
        assert_eq!((e[0].0, e[0].1), (1, 1));
    }

    /// Text that must survive parse → encode → decode → print unchanged.
    fn round_trips(text: &str) {
        let parsed = parse_program(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let bytes = crate::encode(&parsed.program).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut printed = String::new();
        crate::print::print_program(&crate::decode(&bytes).unwrap(), crate::Style::default(), &mut printed);
        assert_eq!(printed, text);
    }

    #[test]
    fn nothing_is_lost_through_text() {
        // A test on an immediate condition: d3dcompiler_47 prints both tests; fxc 9.x
        // leaves `_nz` out, which is what a condition without a test means.
        round_trips("ps_4_0\ndiscard_z l(0)\ndiscard_nz l(-1)\nret \n");
        let old = parse_program("ps_4_0\ndiscard l(-1)\nret \n").unwrap().program;
        let new = parse_program("ps_4_0\ndiscard_nz l(-1)\nret \n").unwrap().program;
        assert_eq!(old, new);
        // Integers in double-typed slots are bits, as the printer prints them.
        round_trips("cs_5_0\ndadd r0.xy, r1.xyxy, l(0x3f800000, 0, 0, 0)\nret \n");
        // An immediate constant buffer whose length is not a multiple of four.
        round_trips(
            "vs_4_0\ndcl_immediateConstantBuffer { { 1, 2, 3, 4},\n                              { 5} }\nret \n",
        );
        // A function table longer than an opcode token's length field can say.
        let bodies: Vec<String> = (0..130).map(|i| format!("fb{i}")).collect();
        let text = format!("ps_5_0\ndcl_function_table ft0 = {{{}}}\nret \n", bodies.join(", "));
        round_trips(&text);
    }

    #[test]
    fn refuses_suffixes_the_encoding_cannot_carry() {
        for line in [
            "if_nz [precise] r0.x",
            "sync_g_t [precise]",
            "sampleinfo_rcpFloat r0.x, t0.x",
            "dcl_temps_uint 4",
            "fcall_sat fp0[0][0]",
            "sample_indexable r0.xyzw, v0.xyxx, t0.xyzw, s0",
            "sample_aoffimmi r0.xyzw, v0.xyxx, t0.xyzw, s0",
            "breakc_nz_sat r0.x",
        ] {
            assert!(parse_program(&format!("ps_5_0\n{line}\n")).is_err(), "{line} was accepted");
        }
    }

    #[test]
    fn accepts_the_reference_pages_long_spellings() {
        let p = parse_program(
            "gs_4_0\ndcl_inputPrimitive point\ndcl_outputTopology pointlist\ndcl_maxOutputVertexCount 4\nret \n",
        )
        .unwrap();
        let ops: Vec<Opcode> = p.program.instructions.iter().map(|i| i.opcode).collect();
        assert_eq!(
            ops,
            [Opcode::DclInputPrimitive, Opcode::DclOutputTopology, Opcode::DclMaxOutputVertexCount, Opcode::Ret]
        );
    }

    #[test]
    fn recovers_simple_fractions() {
        let bits = |t: &str| parse_value(t, Ty::F).unwrap();
        assert_eq!(bits("0.333333"), ((1.0f32 / 3.0).to_bits(), true));
        assert_eq!(bits("1.000000"), (1.0f32.to_bits(), true));
        assert_eq!(bits("0.500000"), (0.5f32.to_bits(), true));
        assert_eq!(bits("0.000031"), (2f32.powi(-15).to_bits(), true));
        // Not a simple fraction: the nearest float.
        assert_eq!(bits("0.212673"), (0.212673f32.to_bits(), true));
        // One significant digit: kept as written.
        assert_eq!(bits("0.000001"), (1e-6f32.to_bits(), true));
        assert_eq!(bits("-0.000002"), ((-2e-6f32).to_bits(), true));
        // Not ambiguous: the nearest float, no warning.
        assert_eq!(bits("0.5"), (0.5f32.to_bits(), false));
        assert_eq!(bits("3.1415927"), (std::f32::consts::PI.to_bits(), false));
        assert_eq!(bits("1e-6"), (1e-6f32.to_bits(), false));
        assert_eq!(bits("0x7fc00001"), (0x7fc0_0001, false));
        // Six decimals that only one float prints: 16777216 is exact, its neighbours
        // print other texts.
        assert_eq!(bits("16777216.000000"), (16777216f32.to_bits(), false));
        // Correctly rounded, not through a double: 1.00000005960464477539062500000001
        // is just above the midpoint between 1 and the next float.
        assert_eq!(bits("1.00000005960464477539062500000001"), (0x3f80_0001, false));
    }

    #[test]
    fn ambiguous_immediates_warn_at_their_column() {
        let p = parse_program("ps_5_0\nmov r0.x, l(0.333333)\nmov r0.y, l(0.33333334)\nret\n").unwrap();
        assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
        let w = &p.warnings[0];
        assert_eq!((w.severity, w.line, w.column), (Severity::Warning, 2, 13));
        let p = parse_program(
            "ps_5_0\ndcl_immediateConstantBuffer { { 1.500000, 0, 0, 0},\n  { 0.1, 0, 0.100000, 0} }\nret\n",
        )
        .unwrap();
        let at: Vec<(usize, usize)> = p.warnings.iter().map(|w| (w.line, w.column)).collect();
        assert_eq!(at, [(2, 33), (3, 13)]);
    }

    #[test]
    fn exact_floats_read_back_to_their_bits() {
        use crate::print::{push_exact_double, push_exact_float};
        for bits in [
            0x4049_0fdb,
            0x8000_0000,
            0x0000_0001,
            0x007f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0001,
            0xffff_ffff,
            0x3580_0000,
            0x4b80_0000,
        ] {
            let mut text = String::new();
            push_exact_float(f32::from_bits(bits), &mut text);
            assert!(text.contains(['.', 'e', 'x']), "{text}");
            assert_eq!(parse_value(&text, Ty::F), Ok((bits, false)), "{text}");
        }
        for bits in [0x3ff1_9999_9999_999a_u64, 0x8000_0000_0000_0000, 1, 0x7ff8_0000_0000_0001, 0xfff0_0000_0000_0000]
        {
            let mut text = String::new();
            push_exact_double(f64::from_bits(bits), &mut text);
            text.push('l');
            assert_eq!(parse_double_text(&text), Some(bits), "{text}");
        }
    }

    #[test]
    fn reads_numbered_offset_and_hex_listings() {
        let plain =
            parse_program("ps_5_0\ndcl_temps 1\nmov r0.x, l(1.000000)\ndmov r0.xy, d(1.000000l, -2.000000l)\nret\n")
                .unwrap();
        let text =
            "      0x00000000: ps_5_0\n      0x00000008: dcl_temps 1\n   0  0x00000010: mov r0.x, l(0x3f800000)\n\
                      1: dmov r0.xy, d(0x00000000, 0x3ff00000, 0x00000000, 0xc0000000)\n0x00000040: ret \n";
        let hex = parse_program(text).unwrap();
        assert_eq!(hex.program, plain.program);
    }
}
