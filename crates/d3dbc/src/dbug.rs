//! Debug information: the comment block with FourCC `DBUG` that fxc writes first in
//! the Shader Model 2 program of a Level9 blob compiled with debug information (the
//! layout of D3DX9's shader debug information).
//!
//! Layout (offsets from just after the FourCC), measured on the corpus:
//!
//! - header, 40 bytes, ten `u32`: `Size` (40), `Creator` (string offset), `SourceCode`
//!   (0 in every blob seen), `Files` (count), `FileInfo` (offset of one `u32` name
//!   offset per file), `Instructions` (count), `InstructionInfo` (offset of 8-byte
//!   records: `u16` line, `u16` file index — `0xffff` for none —, `u32` byte offset of
//!   the instruction in the program), `Variables` (count), `VariableInfo` (offset of
//!   20-byte records), `EntrypointName` (string offset);
//! - variable record: `Scope` (string offset, 0 for the global scope), `Name`, `Type`
//!   (offset of a 16-byte type record, as in the constant table), `Registers` (count),
//!   `RegisterInfo` (offset of 12-byte records: `u32` instruction index, then four `u16`
//!   — for each destination component x, y, z, w the index of the variable's scalar it
//!   holds, `0xffff` for none).
//!
//! fxc's layout ([`DebugInfo::fresh_bytes`]): header, file names, file records,
//! instruction records, then per variable its new strings (scope,
//! name), its type record unless already written (for a struct: each member's name and
//! type, the member records, then the record itself; strings are written once), its register records; the variable
//! records; the creator; `0xab` padding to 4 bytes before every record and at the end.
//! [`DebugInfo::parse`] keeps the original bytes when that layout would not reproduce
//! them, so that [`DebugInfo::to_bytes`] always gives back the input.
//!
//! [`DebugView`] is the one reader of the block: it checks the whole block when made,
//! then reads its records in place without allocating (what the Level9 listing prints
//! from); [`DebugInfo`] copies the fields out of it.
//!
//! In a listing the debug information shows as `#line` lines and `  // name<…>`
//! annotations ([`DebugInfo::annotation`], [`DebugView::annotations`], [`LineTracker`]).

use std::borrow::Cow;

use thiserror::Error;

use crate::ctab::{Member, ParamClass, ParamType, TypeInfo, MAX_TYPE_DEPTH, MEMBER_INFO_SIZE, PAD, TYPE_INFO_SIZE};

/// The FourCC of the debug-information comment block.
pub const FOURCC: [u8; 4] = *b"DBUG";
/// Size of the header.
pub const HEADER_SIZE: u32 = 40;
/// Size of an instruction record.
pub const INSTRUCTION_INFO_SIZE: usize = 8;
/// Size of a variable record.
pub const VARIABLE_INFO_SIZE: usize = 20;
/// Size of a register record.
pub const REGISTER_INFO_SIZE: usize = 12;
/// The file index of an instruction that has no source position.
pub const NO_FILE: u16 = 0xffff;
/// A component a register record does not map.
pub const NO_COMPONENT: u16 = 0xffff;
use crate::limits::MAX_TYPE_RECORDS;

/// Debug information could not be parsed. `offset` is from just after the FourCC.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("debug information, byte {offset}: {kind}")]
pub struct DbugError {
    /// Bytes from just after the FourCC.
    pub offset: usize,
    /// What went wrong.
    pub kind: DbugErrorKind,
}

/// What went wrong while parsing debug information.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DbugErrorKind {
    /// The comment block is not a `DBUG` block.
    #[error("the comment block does not start with the FourCC `DBUG`")]
    NotDbug,
    /// A record runs past the end of the block.
    #[error("{what} ({size} bytes) runs past the end of the block ({len} bytes)")]
    PastEnd {
        /// The record or field (`header`, `type record`...).
        what: &'static str,
        /// Its size in bytes.
        size: usize,
        /// The block's length in bytes.
        len: usize,
    },
    /// A string offset leads to bytes without a NUL before the end.
    #[error("string has no terminating NUL before the end of the block")]
    UnterminatedString,
    /// A string is not UTF-8.
    #[error("string is not valid UTF-8")]
    BadString,
    /// Struct types nest deeper than [`MAX_TYPE_DEPTH`].
    #[error("struct types nested more than {MAX_TYPE_DEPTH} deep (cyclic type offsets?)")]
    TooDeep,
    /// More than [`MAX_TYPE_RECORDS`] type records and struct members were read.
    #[error("too many type records and struct members read (struct members sharing records?)")]
    TooManyTypes,
}

fn err(offset: usize, kind: DbugErrorKind) -> DbugError {
    DbugError { offset, kind }
}

/// Source position of one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InstructionInfo {
    /// 1-based source line (0 with no file).
    pub line: u16,
    /// Index into [`DebugInfo::files`], or [`NO_FILE`].
    pub file: u16,
    /// Byte offset of the instruction token in the program (version token at 0).
    pub offset: u32,
}

/// Which scalars of a variable one instruction's destination holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegisterInfo {
    /// Index of the instruction (comments not counted).
    pub instruction: u32,
    /// For destination components x, y, z, w: the variable's scalar index, or
    /// [`NO_COMPONENT`].
    pub components: [u16; 4],
}

/// A type record (the constant table's 16-byte layout). Records are shared: fxc
/// writes one record for several variables or struct members when its compiler sees
/// one type (which equal contents do not imply: a function's `float4` result and a
/// `float4` parameter get two records), so the records are kept as a list that
/// variables and members index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeRecord<'a> {
    /// Scalar, vector, matrix, object or struct.
    pub class: ParamClass,
    /// The element type.
    pub ty: ParamType,
    /// Rows (1 but for matrices).
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (1 for a non-array).
    pub elements: u16,
    /// Struct members: name and index into [`DebugInfo::types`].
    pub members: Vec<(Cow<'a, str>, usize)>,
    /// An earlier record whose member records this one points at (fxc gives a
    /// function's result and a local of the same struct type two type records over one
    /// set of member records); `None` when it has its own.
    pub members_shared_with: Option<usize>,
}

/// A variable of the debug information.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Variable<'a> {
    /// The function scope (`None`: global, written `::name`; the entry point's own
    /// parameters and locals have the entry point's name, written `name`).
    pub scope: Option<Cow<'a, str>>,
    /// The variable's name.
    pub name: Cow<'a, str>,
    /// Index into [`DebugInfo::types`] (see [`DebugInfo::type_info`] for the tree).
    pub ty: usize,
    /// The instructions that write it, and which of its scalars each writes.
    pub registers: Vec<RegisterInfo>,
}

/// A parsed `DBUG` block.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DebugInfo<'a> {
    /// The header's `Size` field (40).
    pub header_size: u32,
    /// The compiler string.
    pub creator: Cow<'a, str>,
    /// The header's third field (a source-code offset; 0 in every blob seen).
    pub source_code: u32,
    /// Source file names, as written on `#line` lines.
    pub files: Vec<Cow<'a, str>>,
    /// One record per instruction of the program, in order.
    pub instructions: Vec<InstructionInfo>,
    /// The variables (globals, parameters, locals) with the registers that hold them.
    pub variables: Vec<Variable<'a>>,
    /// The type records, in the order of their first use.
    pub types: Vec<TypeRecord<'a>>,
    /// The entry point's name (`None` when the offset is 0).
    pub entry_point: Option<Cow<'a, str>>,
    /// The original bytes, kept when fxc's layout of the fields above would not
    /// reproduce them. Set it to `None` after changing a field to get a fresh layout.
    pub raw_layout: Option<Cow<'a, [u8]>>,
}

/// What [`DebugInfo::parse_with`] keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parse {
    /// Every field, and the bytes when fxc's layout would not reproduce them.
    KeepLayout,
    /// Every field.
    Fields,
    /// Every field but the type records (checked, not kept).
    Listing,
}

/// Type records read so far, by offset.
struct Types<'b> {
    list: Vec<TypeRecord<'b>>,
    seen: Vec<(usize, usize)>,
    /// Member-record offsets read so far, with the record that pointed at them first.
    member_tables: Vec<(usize, usize)>,
}

/// What [`Reader::ty`] does with the type records it walks.
trait TypeSink<'b> {
    /// The index of the record at `off`, if already walked.
    fn index_of(&self, off: usize) -> Option<usize>;
    /// A new record (class, type, rows, columns, elements; member count and table
    /// offset): its index.
    fn record(&mut self, off: usize, fields: [u16; 5], nmembers: usize, moff: usize) -> usize;
    /// Member `name` of record `index` has the type record `member`.
    fn member(&mut self, index: usize, name: &'b str, member: usize);
}

impl<'b> TypeSink<'b> for Types<'b> {
    fn index_of(&self, off: usize) -> Option<usize> {
        self.seen.iter().find(|(o, _)| *o == off).map(|&(_, i)| i)
    }
    fn record(
        &mut self,
        off: usize,
        [class, ty, rows, columns, elements]: [u16; 5],
        nmembers: usize,
        moff: usize,
    ) -> usize {
        let index = self.list.len();
        let mut members_shared_with = None;
        if nmembers > 0 {
            match self.member_tables.iter().find(|(o, _)| *o == moff) {
                Some(&(_, first)) => members_shared_with = Some(first),
                None => self.member_tables.push((moff, index)),
            }
        }
        self.list.push(TypeRecord {
            class: ParamClass::from_u16(class),
            ty: ParamType::from_u16(ty),
            rows,
            columns,
            elements,
            members: Vec::with_capacity(nmembers.min(64)),
            members_shared_with,
        });
        self.seen.push((off, index));
        index
    }
    fn member(&mut self, index: usize, name: &'b str, member: usize) {
        if let Some(record) = self.list.get_mut(index) {
            record.members.push((Cow::Borrowed(name), member));
        }
    }
}

/// The offsets of the type records walked, for a reader that checks the records
/// without keeping them (the same indices as [`Types`]).
struct SeenTypes(Vec<usize>);

impl<'b> TypeSink<'b> for SeenTypes {
    fn index_of(&self, off: usize) -> Option<usize> {
        self.0.iter().position(|&o| o == off)
    }
    fn record(&mut self, off: usize, _: [u16; 5], _: usize, _: usize) -> usize {
        self.0.push(off);
        self.0.len().saturating_sub(1)
    }
    fn member(&mut self, _: usize, _: &'b str, _: usize) {}
}

struct Reader<'b> {
    b: &'b [u8],
    budget: std::cell::Cell<usize>,
}

// The reader: offsets and counts come from the input.
#[deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
impl<'b> Reader<'b> {
    fn slice(&self, off: usize, size: usize, what: &'static str) -> Result<&'b [u8], DbugError> {
        off.checked_add(size)
            .and_then(|end| self.b.get(off..end))
            .ok_or(err(off, DbugErrorKind::PastEnd { what, size, len: self.b.len() }))
    }
    fn u32(&self, off: usize, what: &'static str) -> Result<u32, DbugError> {
        let s = self.slice(off, 4, what)?;
        Ok(u32::from_le_bytes(s.first_chunk().copied().unwrap_or_default()))
    }
    fn str(&self, off: usize) -> Result<&'b str, DbugError> {
        let rest = self.b.get(off..).ok_or(err(off, DbugErrorKind::UnterminatedString))?;
        d3dcommon::text::until_nul(rest)
            .ok_or(err(off, DbugErrorKind::UnterminatedString))?
            .map_err(|_| err(off, DbugErrorKind::BadString))
    }
    /// The index of the type record at `off` in the sink, walking it (and its members)
    /// on first sight: one walk, checks and errors for the reader that keeps the
    /// records ([`Types`]) and the one that only checks them ([`SeenTypes`]).
    fn ty<S: TypeSink<'b>>(&self, off: usize, depth: usize, sink: &mut S) -> Result<usize, DbugError> {
        if let Some(i) = sink.index_of(off) {
            return Ok(i);
        }
        if depth > MAX_TYPE_DEPTH {
            return Err(err(off, DbugErrorKind::TooDeep));
        }
        let left = self.budget.get();
        if left == 0 {
            return Err(err(off, DbugErrorKind::TooManyTypes));
        }
        self.budget.set(left.saturating_sub(1));
        // One check of the whole record, then its fields.
        let rec = self.slice(off, TYPE_INFO_SIZE, "type record")?;
        let fields = [le_u16(rec, 0), le_u16(rec, 2), le_u16(rec, 4), le_u16(rec, 6), le_u16(rec, 8)];
        let nmembers = le_u16(rec, 10) as usize;
        let moff = le_u32(rec, 12) as usize;
        // Members count against the same budget: records sharing one member table walk
        // it once each, so records alone would not bound the work or the memory.
        let left = self.budget.get();
        if nmembers > left {
            return Err(err(off, DbugErrorKind::TooManyTypes));
        }
        self.budget.set(left.saturating_sub(nmembers));
        let index = sink.record(off, fields, nmembers, moff);
        for i in 0..nmembers {
            let at = moff.saturating_add(i.saturating_mul(MEMBER_INFO_SIZE));
            let name = self.u32(at, "struct member record")? as usize;
            let toff = self.u32(at.saturating_add(4), "struct member record")? as usize;
            let name = self.str(name)?;
            let member = self.ty(toff, depth.saturating_add(1), sink)?;
            sink.member(index, name, member);
        }
        Ok(index)
    }
    /// A record array of `count` records of `size` bytes at `off` (checked whole).
    fn array(&self, off: u32, count: u32, size: usize, what: &'static str) -> Result<&'b [u8], DbugError> {
        let total = (count as usize).saturating_mul(size);
        self.slice(off as usize, total, what)
    }
}

/// The little-endian `u16` at `at` in `b` (0 past the end: callers read records whose
/// size was checked).
fn le_u16(b: &[u8], at: usize) -> u16 {
    b.get(at..).and_then(|s| s.first_chunk()).copied().map_or(0, u16::from_le_bytes)
}

/// The little-endian `u32` at `at` in `b` (0 past the end, as [`le_u16`]).
fn le_u32(b: &[u8], at: usize) -> u32 {
    b.get(at..).and_then(|s| s.first_chunk()).copied().map_or(0, u32::from_le_bytes)
}

/// The string at `off` in a checked block (`""` if it were not one: not reached).
fn checked_str(b: &[u8], off: usize) -> &str {
    b.get(off..).and_then(d3dcommon::text::until_nul).and_then(Result::ok).unwrap_or_default()
}

/// An 8-byte instruction record.
fn instruction_record(r: &[u8]) -> InstructionInfo {
    InstructionInfo { line: le_u16(r, 0), file: le_u16(r, 2), offset: le_u32(r, 4) }
}

/// A 12-byte register record.
fn register_record(r: &[u8]) -> RegisterInfo {
    RegisterInfo { instruction: le_u32(r, 0), components: [le_u16(r, 4), le_u16(r, 6), le_u16(r, 8), le_u16(r, 10)] }
}

/// A `DBUG` block read in place: checked whole when made ([`DebugView::parse`], the
/// checks and errors of [`DebugInfo::parse`]), then read record by record from its
/// bytes without allocating. It is what a listing reads; [`DebugInfo`] is built from
/// it. The type records are checked, not read (a listing does not print them).
#[derive(Debug, Clone, Copy)]
pub struct DebugView<'a> {
    /// The header's `Size` field (40).
    pub header_size: u32,
    /// The compiler string.
    pub creator: &'a str,
    /// The header's third field (a source-code offset; 0 in every blob seen).
    pub source_code: u32,
    /// The entry point's name (`None` when the offset is 0).
    pub entry_point: Option<&'a str>,
    /// The block after its FourCC.
    bytes: &'a [u8],
    /// The file records (a `u32` string offset each).
    files: &'a [u8],
    /// The instruction records.
    instructions: &'a [u8],
    /// The variable records.
    variables: &'a [u8],
    /// The register records of every variable, counted.
    registers: usize,
}

/// A variable of a [`DebugView`].
#[derive(Debug, Clone)]
pub struct VariableView<'a> {
    /// The function scope, as [`Variable::scope`].
    pub scope: Option<&'a str>,
    /// The variable's name.
    pub name: &'a str,
    /// The offset of its type record in the block.
    pub type_offset: usize,
    /// The instructions that write it, and which of its scalars each writes.
    pub registers: Registers<'a>,
}

/// The register records of a [`VariableView`], in order.
#[derive(Debug, Clone)]
pub struct Registers<'a>(std::slice::ChunksExact<'a, u8>);

impl Iterator for Registers<'_> {
    type Item = RegisterInfo;
    fn next(&mut self) -> Option<RegisterInfo> {
        self.0.next().map(register_record)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Registers<'_> {}

// The reader: offsets and counts come from the input.
#[deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
impl<'a> DebugView<'a> {
    /// Reads a comment block's body (starting with the FourCC `DBUG`).
    pub fn parse_comment(data: &'a [u8]) -> Result<DebugView<'a>, DbugError> {
        match data.strip_prefix(&FOURCC) {
            Some(body) => DebugView::parse(body),
            None => Err(err(0, DbugErrorKind::NotDbug)),
        }
    }

    /// Reads the block after its FourCC, checking all of it (strings, record arrays,
    /// type records) as [`DebugInfo::parse`] does, with the same errors.
    pub fn parse(b: &'a [u8]) -> Result<DebugView<'a>, DbugError> {
        DebugView::read(b, &mut SeenTypes(Vec::new()))
    }

    /// The one reader of the block: checks it in [`DebugInfo::parse`]'s order, walking
    /// each variable's type record into `sink`.
    fn read<S: TypeSink<'a>>(b: &'a [u8], sink: &mut S) -> Result<DebugView<'a>, DbugError> {
        let r = Reader { b, budget: std::cell::Cell::new(MAX_TYPE_RECORDS) };
        let h = |i: usize| r.u32(i.saturating_mul(4), "header");
        let header_size = h(0)?;
        let creator = match h(1)? {
            0 => "",
            o => r.str(o as usize)?,
        };
        let source_code = h(2)?;
        let (nfiles, file_off) = (h(3)?, h(4)?);
        let (nins, ins_off) = (h(5)?, h(6)?);
        let (nvars, var_off) = (h(7)?, h(8)?);
        let entry = h(9)?;
        let files = r.array(file_off, nfiles, 4, "file records")?;
        for f in files.chunks_exact(4) {
            r.str(le_u32(f, 0) as usize)?;
        }
        let instructions = r.array(ins_off, nins, INSTRUCTION_INFO_SIZE, "instruction records")?;
        let variables = r.array(var_off, nvars, VARIABLE_INFO_SIZE, "variable records")?;
        let mut registers = 0usize;
        for v in variables.chunks_exact(VARIABLE_INFO_SIZE) {
            if let s @ 1.. = le_u32(v, 0) {
                r.str(s as usize)?;
            }
            r.str(le_u32(v, 4) as usize)?;
            r.ty(le_u32(v, 8) as usize, 0, sink)?;
            let nreg = le_u32(v, 12);
            r.array(le_u32(v, 16), nreg, REGISTER_INFO_SIZE, "register records")?;
            registers = registers.saturating_add(nreg as usize);
        }
        let entry_point = match entry {
            0 => None,
            o => Some(r.str(o as usize)?),
        };
        Ok(DebugView {
            header_size,
            creator,
            source_code,
            entry_point,
            bytes: b,
            files,
            instructions,
            variables,
            registers,
        })
    }

    /// The source file names, as written on `#line` lines.
    pub fn files(&self) -> impl ExactSizeIterator<Item = &'a str> + 'a {
        let b = self.bytes;
        self.files.chunks_exact(4).map(move |f| checked_str(b, le_u32(f, 0) as usize))
    }

    /// Source file `index`'s name.
    pub fn file(&self, index: usize) -> Option<&'a str> {
        let at = index.checked_mul(4)?;
        Some(checked_str(self.bytes, le_u32(self.files.get(at..)?.first_chunk::<4>()?, 0) as usize))
    }

    /// One record per instruction of the program, in order.
    pub fn instructions(&self) -> impl ExactSizeIterator<Item = InstructionInfo> + 'a {
        self.instructions.chunks_exact(INSTRUCTION_INFO_SIZE).map(instruction_record)
    }

    /// The record of instruction `index`.
    pub fn instruction(&self, index: usize) -> Option<InstructionInfo> {
        let at = index.checked_mul(INSTRUCTION_INFO_SIZE)?;
        Some(instruction_record(self.instructions.get(at..)?.first_chunk::<INSTRUCTION_INFO_SIZE>()?))
    }

    /// The variables (globals, parameters, locals) with the registers that hold them.
    pub fn variables(&self) -> impl ExactSizeIterator<Item = VariableView<'a>> + 'a {
        let b = self.bytes;
        self.variables.chunks_exact(VARIABLE_INFO_SIZE).map(move |v| {
            let (count, at) = (le_u32(v, 12) as usize, le_u32(v, 16) as usize);
            let records = count
                .checked_mul(REGISTER_INFO_SIZE)
                .and_then(|size| at.checked_add(size))
                .and_then(|end| b.get(at..end))
                .unwrap_or_default();
            VariableView {
                scope: match le_u32(v, 0) {
                    0 => None,
                    s => Some(checked_str(b, s as usize)),
                },
                name: checked_str(b, le_u32(v, 4) as usize),
                type_offset: le_u32(v, 8) as usize,
                registers: Registers(records.chunks_exact(REGISTER_INFO_SIZE)),
            }
        })
    }

    /// The annotations of every instruction, as [`DebugInfo::annotations`].
    pub fn annotations(&self) -> Annotations<'a> {
        let variables = self.variables().map(|v| (v.scope, v.name, v.registers));
        Annotations::new(
            self.entry_point,
            variables,
            self.variables.chunks_exact(VARIABLE_INFO_SIZE).len(),
            self.registers,
        )
    }
}

impl<'a> DebugInfo<'a> {
    /// Parses a comment block's body (starting with the FourCC `DBUG`).
    pub fn parse_comment(data: &'a [u8]) -> Result<DebugInfo<'a>, DbugError> {
        match data.strip_prefix(&FOURCC) {
            Some(body) => DebugInfo::parse(body),
            None => Err(err(0, DbugErrorKind::NotDbug)),
        }
    }

    /// Parses a comment block's body as [`DebugInfo::parse_fields`] does.
    pub fn parse_comment_fields(data: &'a [u8]) -> Result<DebugInfo<'a>, DbugError> {
        match data.strip_prefix(&FOURCC) {
            Some(body) => DebugInfo::parse_fields(body),
            None => Err(err(0, DbugErrorKind::NotDbug)),
        }
    }

    /// Parses a comment block's body for the listing: as
    /// [`DebugInfo::parse_comment_fields`] (the same checks and errors, the same
    /// variables with the same [`Variable::ty`] indices) without keeping the type
    /// records, which the listing does not print: [`DebugInfo::types`] is empty.
    pub fn parse_comment_for_listing(data: &'a [u8]) -> Result<DebugInfo<'a>, DbugError> {
        match data.strip_prefix(&FOURCC) {
            Some(body) => DebugInfo::parse_with(body, Parse::Listing),
            None => Err(err(0, DbugErrorKind::NotDbug)),
        }
    }

    /// Parses the block after its FourCC, keeping its bytes when fxc's layout of the
    /// fields would not reproduce them ([`DebugInfo::raw_layout`]).
    pub fn parse(b: &'a [u8]) -> Result<DebugInfo<'a>, DbugError> {
        DebugInfo::parse_with(b, Parse::KeepLayout)
    }

    /// Parses the fields only, for a reader (the listing): the same checks and errors
    /// as [`DebugInfo::parse`], without laying the fields out again to compare them
    /// with the bytes; [`DebugInfo::raw_layout`] is `None`.
    pub fn parse_fields(b: &'a [u8]) -> Result<DebugInfo<'a>, DbugError> {
        DebugInfo::parse_with(b, Parse::Fields)
    }

    fn parse_with(b: &'a [u8], what: Parse) -> Result<DebugInfo<'a>, DbugError> {
        // One reader: the view checks the block (walking the type records into `types`,
        // or only past them for the listing), then the fields are copied out of it.
        let mut types = Types { list: Vec::new(), seen: Vec::new(), member_tables: Vec::new() };
        let mut seen_offsets = SeenTypes(Vec::new());
        let view = match what {
            Parse::Listing => DebugView::read(b, &mut seen_offsets)?,
            Parse::KeepLayout | Parse::Fields => DebugView::read(b, &mut types)?,
        };
        let type_index = |off: usize| {
            match what {
                Parse::Listing => seen_offsets.index_of(off),
                Parse::KeepLayout | Parse::Fields => types.index_of(off),
            }
            // Every variable's type record was walked by the view.
            .unwrap_or_default()
        };
        let variables = view
            .variables()
            .map(|v| Variable {
                scope: v.scope.map(Cow::Borrowed),
                name: Cow::Borrowed(v.name),
                ty: type_index(v.type_offset),
                registers: v.registers.collect(),
            })
            .collect();
        let mut info = DebugInfo {
            header_size: view.header_size,
            creator: Cow::Borrowed(view.creator),
            source_code: view.source_code,
            files: view.files().map(Cow::Borrowed).collect(),
            instructions: view.instructions().collect(),
            variables,
            types: types.list,
            entry_point: view.entry_point.map(Cow::Borrowed),
            raw_layout: None,
        };
        if what == Parse::KeepLayout && info.fresh_bytes() != b {
            info.raw_layout = Some(Cow::Borrowed(b));
        }
        Ok(info)
    }

    /// The block after its FourCC: the original bytes if they were kept, else fxc's
    /// layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        match &self.raw_layout {
            Some(raw) => raw.to_vec(),
            None => self.fresh_bytes(),
        }
    }

    /// The whole comment body, FourCC first.
    pub fn to_comment(&self) -> Vec<u8> {
        let mut out = FOURCC.to_vec();
        out.extend(self.to_bytes());
        out
    }

    /// The fields laid out as fxc lays them out (see the module documentation).
    pub fn fresh_bytes(&self) -> Vec<u8> {
        let mut w = Writer {
            out: vec![0; HEADER_SIZE as usize],
            strings: Vec::new(),
            written: vec![None; self.types.len()],
            in_progress: vec![false; self.types.len()],
            member_offs: vec![None; self.types.len()],
        };
        let mut names = Vec::with_capacity(self.files.len());
        for f in &self.files {
            names.push(w.string(f));
        }
        w.align();
        let file_off = w.out.len() as u32;
        for n in names {
            w.out.extend(n.to_le_bytes());
        }
        w.align();
        let ins_off = w.out.len() as u32;
        for i in &self.instructions {
            w.out.extend(i.line.to_le_bytes());
            w.out.extend(i.file.to_le_bytes());
            w.out.extend(i.offset.to_le_bytes());
        }
        let mut records = Vec::with_capacity(self.variables.len());
        for v in &self.variables {
            let scope = v.scope.as_ref().map_or(0, |s| w.string(s));
            let name = w.string(&v.name);
            let ty = w.ty(&self.types, v.ty, 0);
            w.align();
            let reg_off = w.out.len() as u32;
            for r in &v.registers {
                w.out.extend(r.instruction.to_le_bytes());
                for c in r.components {
                    w.out.extend(c.to_le_bytes());
                }
            }
            records.push([scope, name, ty, v.registers.len() as u32, reg_off]);
        }
        // The entry point's name is the name of its result variable, written with the
        // variables (where no variable has it, it is placed after them: not seen).
        let entry = self.entry_point.as_ref().map_or(0, |e| w.string(e));
        w.align();
        let var_off = w.out.len() as u32;
        for rec in records {
            for x in rec {
                w.out.extend(x.to_le_bytes());
            }
        }
        let creator = w.string_new(&self.creator);
        w.align();
        let header = [
            self.header_size,
            creator,
            self.source_code,
            self.files.len() as u32,
            if self.files.is_empty() { 0 } else { file_off },
            self.instructions.len() as u32,
            if self.instructions.is_empty() { 0 } else { ins_off },
            self.variables.len() as u32,
            if self.variables.is_empty() { 0 } else { var_off },
            entry,
        ];
        for (i, x) in header.iter().enumerate() {
            w.out[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
        }
        w.out
    }

    /// The same information owning all of its strings and bytes.
    pub fn into_owned(self) -> DebugInfo<'static> {
        fn s(c: Cow<'_, str>) -> Cow<'static, str> {
            Cow::Owned(c.into_owned())
        }
        DebugInfo {
            header_size: self.header_size,
            creator: s(self.creator),
            source_code: self.source_code,
            files: self.files.into_iter().map(s).collect(),
            instructions: self.instructions,
            variables: self
                .variables
                .into_iter()
                .map(|v| Variable { scope: v.scope.map(s), name: s(v.name), ty: v.ty, registers: v.registers })
                .collect(),
            types: self
                .types
                .into_iter()
                .map(|t| TypeRecord {
                    class: t.class,
                    ty: t.ty,
                    rows: t.rows,
                    columns: t.columns,
                    elements: t.elements,
                    members: t.members.into_iter().map(|(n, i)| (s(n), i)).collect(),
                    members_shared_with: t.members_shared_with,
                })
                .collect(),
            entry_point: self.entry_point.map(s),
            raw_layout: self.raw_layout.map(|r| Cow::Owned(r.into_owned())),
        }
    }

    /// Type record `index` as a tree (members expanded; `None` for an index out of
    /// range, or a struct nested deeper than [`MAX_TYPE_DEPTH`], e.g. a cyclic one).
    pub fn type_info(&self, index: usize) -> Option<TypeInfo<'a>> {
        self.type_tree(index, 0)
    }

    fn type_tree(&self, index: usize, depth: usize) -> Option<TypeInfo<'a>> {
        if depth > MAX_TYPE_DEPTH {
            return None;
        }
        let t = self.types.get(index)?;
        let mut members = Vec::with_capacity(t.members.len());
        for (name, i) in &t.members {
            members.push(Member { name: name.clone(), ty: self.type_tree(*i, depth + 1)? });
        }
        Some(TypeInfo { class: t.class, ty: t.ty, rows: t.rows, columns: t.columns, elements: t.elements, members })
    }

    /// How a listing names variable `v`: `name` for the entry point's own variables,
    /// `::name` for globals, `scope::name` otherwise.
    pub fn variable_name(&self, v: &Variable<'_>) -> String {
        let mut s = String::new();
        self.write_variable_name(&mut s, v);
        s
    }

    fn write_variable_name(&self, out: &mut String, v: &Variable<'_>) {
        write_variable_name(out, self.entry_point.as_deref(), v.scope.as_deref(), &v.name);
    }

    /// Appends the listing's annotation of instruction `index` (`  // ::color<0,1,2,3>`,
    /// several joined by `, `); nothing when no variable maps it. Returns whether it
    /// wrote anything. (To annotate a whole program, [`DebugInfo::annotations`] finds
    /// each instruction's registers without reading every variable.)
    pub fn annotation(&self, index: u32, out: &mut String) -> bool {
        let mut first = true;
        for v in &self.variables {
            for r in v.registers.iter().filter(|r| r.instruction == index) {
                write_mapping(out, self.entry_point.as_deref(), (v.scope.as_deref(), &v.name), &r.components, first);
                first = false;
            }
        }
        !first
    }

    /// The annotations of every instruction, indexed by instruction: what
    /// [`DebugInfo::annotation`] prints, found by a binary search instead of a pass over
    /// every variable's registers.
    pub fn annotations(&self) -> Annotations<'_> {
        let variables = self.variables.iter().map(|v| (v.scope.as_deref(), &*v.name, v.registers.iter().copied()));
        let registers = self.variables.iter().map(|v| v.registers.len()).sum();
        Annotations::new(self.entry_point.as_deref(), variables, self.variables.len(), registers)
    }

    /// Builds debug information from what a Level9 listing shows: the files named on
    /// `#line` lines, each instruction's source position (`None`: no position) and byte
    /// size, and the annotations `(instruction, scope, name, components)` (scope as
    /// [`Variable::scope`]; components as printed). The listing shows neither the
    /// variables' types (each gets a `float` vector or scalar as wide as the highest
    /// component it maps), nor the source line of instructions within two lines of the
    /// previous one (`#line` is printed only on a jump of three lines or more: the
    /// caller repeats the last printed line), nor the `SourceCode` field (0). The
    /// instruction offsets assume the block is the program's first item, right after
    /// the version token.
    pub fn build(
        creator: &str,
        entry_point: Option<&str>,
        files: &[&str],
        positions: &[(Option<(u16, u16)>, u32)],
        annotations: &[(u32, Option<&str>, &str, Vec<u16>)],
    ) -> DebugInfo<'static> {
        let mut variables: Vec<Variable<'static>> = Vec::new();
        let mut widths: Vec<u16> = Vec::new();
        for (ins, scope, name, comps) in annotations {
            let mut components = [NO_COMPONENT; 4];
            for (i, c) in comps.iter().take(4).enumerate() {
                components[i] = *c;
            }
            let reg = RegisterInfo { instruction: *ins, components };
            let width = comps.iter().copied().max().map_or(1, |m| m + 1);
            match variables.iter().position(|v| v.scope.as_deref() == *scope && v.name == *name) {
                Some(i) => {
                    variables[i].registers.push(reg);
                    widths[i] = widths[i].max(width);
                }
                None => {
                    variables.push(Variable {
                        scope: scope.map(|s| Cow::Owned(s.to_string())),
                        name: Cow::Owned(name.to_string()),
                        ty: variables.len(),
                        registers: vec![reg],
                    });
                    widths.push(width);
                }
            }
        }
        let types = widths.into_iter().map(float_type).collect();
        let mut info = DebugInfo {
            header_size: HEADER_SIZE,
            creator: Cow::Owned(creator.to_string()),
            source_code: 0,
            files: files.iter().map(|f| Cow::Owned(f.to_string())).collect(),
            instructions: positions
                .iter()
                .map(|(p, _)| {
                    let (line, file) = p.unwrap_or((0, NO_FILE));
                    InstructionInfo { line, file, offset: 0 }
                })
                .collect(),
            variables,
            types,
            entry_point: entry_point.map(|e| Cow::Owned(e.to_string())),
            raw_layout: None,
        };
        // The block's own size decides where the instructions start: version token,
        // comment token, FourCC, body.
        let mut offset = 4 + 4 + 4 + info.fresh_bytes().len() as u32;
        for (rec, (_, size)) in info.instructions.iter_mut().zip(positions) {
            rec.offset = offset;
            offset += size;
        }
        info
    }
}

/// A `float` scalar (width 1) or vector (2–4; wider values give rows of 4 columns).
fn float_type(width: u16) -> TypeRecord<'static> {
    let (class, rows, columns) = match width {
        0 | 1 => (ParamClass::Scalar, 1, 1),
        2..=4 => (ParamClass::Vector, 1, width),
        w => (ParamClass::MatrixColumns, w.div_ceil(4), 4),
    };
    TypeRecord {
        class,
        ty: ParamType::Float,
        rows,
        columns,
        elements: 1,
        members: Vec::new(),
        members_shared_with: None,
    }
}

/// How a listing names a variable: `name` for the entry point's own variables,
/// `::name` for globals, `scope::name` otherwise.
fn write_variable_name(out: &mut String, entry_point: Option<&str>, scope: Option<&str>, name: &str) {
    match scope {
        None => out.push_str("::"),
        Some(s) if entry_point == Some(s) => {}
        Some(s) => {
            out.push_str(s);
            out.push_str("::");
        }
    }
    out.push_str(name);
}

/// One `name<components>` of an annotation, after `  // ` if it is the first.
fn write_mapping(
    out: &mut String,
    entry_point: Option<&str>,
    (scope, name): (Option<&str>, &str),
    components: &[u16; 4],
    first: bool,
) {
    // Constant pieces, each pushed as itself (a piece chosen at run time is copied
    // by a call to `memcpy`).
    if first {
        out.push_str("  // ");
    } else {
        out.push_str(", ");
    }
    write_variable_name(out, entry_point, scope, name);
    out.push('<');
    let mut later = false;
    for &c in components.iter().filter(|&&c| c != NO_COMPONENT) {
        if later {
            out.push(',');
        }
        crate::print::push_decimal(out, u32::from(c));
        later = true;
    }
    out.push('>');
}

/// Lays out a block as fxc does: strings written once, each type record once.
struct Writer {
    out: Vec<u8>,
    strings: Vec<(String, u32)>,
    written: Vec<Option<u32>>,
    in_progress: Vec<bool>,
    /// Offset of each record's member records, once written.
    member_offs: Vec<Option<u32>>,
}

impl Writer {
    fn align(&mut self) {
        while !self.out.len().is_multiple_of(4) {
            self.out.push(PAD);
        }
    }
    fn string_new(&mut self, s: &str) -> u32 {
        let off = self.out.len() as u32;
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(0);
        off
    }
    fn string(&mut self, s: &str) -> u32 {
        if let Some(&(_, off)) = self.strings.iter().find(|(t, _)| t == s) {
            return off;
        }
        let off = self.string_new(s);
        self.strings.push((s.to_string(), off));
        off
    }
    /// Writes type record `index` unless it was written (a struct: each member's
    /// name and type, the member records, then the record); returns its offset (0 for an
    /// index out of range or a cyclic struct).
    fn ty(&mut self, types: &[TypeRecord<'_>], index: usize, depth: usize) -> u32 {
        let Some(t) = types.get(index) else { return 0 };
        if let Some(off) = self.written[index] {
            return off;
        }
        if self.in_progress[index] || depth > MAX_TYPE_DEPTH {
            return 0;
        }
        self.in_progress[index] = true;
        let shared = t.members_shared_with.and_then(|i| self.member_offs.get(i).copied().flatten());
        if let Some(member_off) = shared {
            return self.record(t, index, member_off);
        }
        let mut names = Vec::with_capacity(t.members.len());
        let mut offs = Vec::with_capacity(t.members.len());
        for (n, i) in &t.members {
            names.push(self.string(n));
            offs.push(self.ty(types, *i, depth + 1));
        }
        let mut member_off = 0u32;
        if !t.members.is_empty() {
            self.align();
            member_off = self.out.len() as u32;
            for (n, o) in names.iter().zip(&offs) {
                self.out.extend(n.to_le_bytes());
                self.out.extend(o.to_le_bytes());
            }
        }
        self.member_offs[index] = (!t.members.is_empty()).then_some(member_off);
        self.record(t, index, member_off)
    }

    /// Writes the 16-byte record of type `index`.
    fn record(&mut self, t: &TypeRecord<'_>, index: usize, member_off: u32) -> u32 {
        self.align();
        let off = self.out.len() as u32;
        for h in [t.class.to_u16(), t.ty.to_u16(), t.rows, t.columns, t.elements, t.members.len() as u16] {
            self.out.extend(h.to_le_bytes());
        }
        self.out.extend(member_off.to_le_bytes());
        self.written[index] = Some(off);
        self.in_progress[index] = false;
        off
    }
}

/// The annotations of a program's instructions ([`DebugInfo::annotations`],
/// [`DebugView::annotations`]).
pub struct Annotations<'d> {
    entry_point: Option<&'d str>,
    /// Each variable's scope and name.
    names: Vec<(Option<&'d str>, &'d str)>,
    /// `(instruction, n, variable, components)` for every register record, `n` its
    /// place in variable then register order (as [`DebugInfo::annotation`] writes
    /// them), sorted by instruction then `n`: the first two in one `u64`.
    order: Vec<(u64, usize, [u16; 4])>,
    /// Where the records after the last instruction written start: where the next
    /// instruction's start when they are asked for in order, as a listing does.
    next: usize,
}

impl<'d> Annotations<'d> {
    /// The annotations of `variables` (scope, name, registers), `count` of them with
    /// `registers` register records in all.
    fn new<R: Iterator<Item = RegisterInfo>>(
        entry_point: Option<&'d str>,
        variables: impl Iterator<Item = (Option<&'d str>, &'d str, R)>,
        count: usize,
        registers: usize,
    ) -> Annotations<'d> {
        let mut names = Vec::with_capacity(count);
        let mut order = Vec::with_capacity(registers);
        for (vi, (scope, name, records)) in variables.enumerate() {
            names.push((scope, name));
            for r in records {
                let n = order.len() as u64;
                order.push((u64::from(r.instruction) << 32 | n, vi, r.components));
            }
        }
        order.sort_unstable_by_key(|&(key, ..)| key);
        Annotations { entry_point, names, order, next: 0 }
    }

    /// As [`DebugInfo::annotation`]: appends the annotation of instruction `index`, and
    /// returns whether there was one.
    pub fn write(&mut self, index: u32, out: &mut String) -> bool {
        // The first record of `index` or later: the last call's end when every record
        // before it is of an earlier instruction (checked), else a binary search.
        let hint = self.next;
        let before = hint.checked_sub(1).and_then(|h| self.order.get(h));
        let ins = |&(key, ..): &(u64, usize, [u16; 4])| (key >> 32) as u32;
        let from_hint = before.is_none_or(|e| ins(e) < index) && self.order.get(hint).is_none_or(|e| ins(e) >= index);
        let start = if from_hint { hint } else { self.order.partition_point(|e| ins(e) < index) };
        let mut first = true;
        let mut end = start;
        for (_, vi, components) in self.order.get(start..).unwrap_or_default().iter().take_while(|e| ins(e) == index) {
            end = end.saturating_add(1);
            let Some(&name) = self.names.get(*vi) else { continue };
            write_mapping(out, self.entry_point, name, components, first);
            first = false;
        }
        self.next = end;
        !first
    }
}

/// When a Level9 listing prints a `#line` line: on a change of file (`#line N "file"`),
/// or a jump of three or more lines from the previous instruction with a position
/// (`#line N`). Measured on the corpus (121/121 listings).
#[derive(Debug, Clone, Default)]
pub struct LineTracker {
    file: Option<u16>,
    prev: u16,
}

impl LineTracker {
    /// A tracker before the first instruction.
    pub fn new() -> LineTracker {
        LineTracker::default()
    }

    /// Writes the blank line and `#line` line due before an instruction at `info`, if
    /// any.
    pub fn before(&mut self, info: &InstructionInfo, files: &[Cow<'_, str>], out: &mut String) {
        self.before_named(info, |f| files.get(f).map(|f| &**f), out);
    }

    /// As [`LineTracker::before`], with the name of file `index` given by `file`.
    pub fn before_named<'f>(
        &mut self,
        info: &InstructionInfo,
        file: impl FnOnce(usize) -> Option<&'f str>,
        out: &mut String,
    ) {
        if info.file == NO_FILE {
            return;
        }
        if self.file != Some(info.file) {
            self.file = Some(info.file);
            let name = file(info.file as usize).unwrap_or_default();
            out.push_str("\n#line ");
            crate::print::push_decimal(out, u32::from(info.line));
            out.push_str(" \"");
            out.push_str(name);
            out.push_str("\"\n");
        } else if info.line.abs_diff(self.prev) >= 3 {
            out.push_str("\n#line ");
            crate::print::push_decimal(out, u32::from(info.line));
            out.push('\n');
        }
        self.prev = info.line;
    }
}
