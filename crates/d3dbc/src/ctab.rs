//! The constant table: the comment block with FourCC `CTAB` that fxc puts first in a
//! Direct3D 9 program (`D3DXSHADER_CONSTANTTABLE`).
//!
//! Layout (all offsets from the start of the table, i.e. just after the FourCC):
//!
//! - header, 28 bytes: `Size` (28), `Creator` (string offset), `Version` (the program's
//!   version token), `Constants` (count), `ConstantInfo` (offset of the constant records;
//!   0 when there are none), `Flags` (compile flags), `Target` (string offset);
//! - one 20-byte record per constant: `Name` (offset), `RegisterSet`, `RegisterIndex`,
//!   `RegisterCount`, `Reserved` (u16 each), `TypeInfo` (offset), `DefaultValue` (offset,
//!   0 for none);
//! - type records, 16 bytes: `Class`, `Type`, `Rows`, `Columns`, `Elements`,
//!   `StructMembers` (u16 each), `StructMemberInfo` (offset of 8-byte `Name`, `TypeInfo`
//!   records);
//! - strings, NUL-terminated.
//!
//! fxc's layout ([`ConstantTable::fresh_bytes`], measured on the corpus): header, the
//! constant records, then for each constant its name and — unless an identical
//! non-array, non-object type was already written — its type record aligned to 4 bytes
//! (padding bytes `0xab`); then the target and creator strings, and `0xab` padding to a
//! whole token. [`ConstantTable::parse`] keeps the original bytes in
//! [`ConstantTable::raw_layout`] whenever that layout does not reproduce them, so that
//! [`ConstantTable::to_bytes`] always gives back the input.

use std::borrow::Cow;

use thiserror::Error;

/// The FourCC of the constant-table comment block.
pub const FOURCC: [u8; 4] = *b"CTAB";
/// Size of the header (`D3DXSHADER_CONSTANTTABLE`).
pub const HEADER_SIZE: u32 = 28;
/// Size of a constant record (`D3DXSHADER_CONSTANTINFO`).
pub const CONSTANT_INFO_SIZE: usize = 20;
/// Size of a type record (`D3DXSHADER_TYPEINFO`).
pub const TYPE_INFO_SIZE: usize = 16;
/// Size of a struct-member record (`D3DXSHADER_STRUCTMEMBERINFO`).
pub const MEMBER_INFO_SIZE: usize = 8;
/// fxc's padding byte.
pub const PAD: u8 = 0xab;
/// The deepest struct nesting and the type-record budget (see [`crate::limits`]).
pub use crate::limits::{MAX_TYPE_DEPTH, MAX_TYPE_RECORDS};

/// A constant table could not be parsed. `offset` is from the start of the table (just
/// after the `CTAB` FourCC).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("constant table, byte {offset}: {kind}")]
pub struct CtabError {
    /// Bytes from just after the FourCC.
    pub offset: usize,
    /// What went wrong.
    pub kind: CtabErrorKind,
}

/// What went wrong while parsing a constant table.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CtabErrorKind {
    /// The comment block is not a `CTAB` block.
    #[error("the comment block does not start with the FourCC `CTAB`")]
    NotCtab,
    /// A record runs past the end of the table.
    #[error("{what} ({size} bytes) runs past the end of the table ({len} bytes)")]
    PastEnd {
        /// The record or field (`header`, `type record`...).
        what: &'static str,
        /// Its size in bytes.
        size: usize,
        /// The table's length in bytes.
        len: usize,
    },
    /// A string offset leads to bytes without a NUL before the end.
    #[error("string has no terminating NUL before the end of the table")]
    UnterminatedString,
    /// A string is not UTF-8.
    #[error("string is not valid UTF-8")]
    BadString,
    /// Struct types nest deeper than [`MAX_TYPE_DEPTH`].
    #[error("struct types nested more than {MAX_TYPE_DEPTH} deep (cyclic type offsets?)")]
    TooDeep,
    /// More than [`MAX_TYPE_RECORDS`] type records were read.
    #[error("more than {MAX_TYPE_RECORDS} type records read (struct members sharing records?)")]
    TooManyTypes,
}

fn err(offset: usize, kind: CtabErrorKind) -> CtabError {
    CtabError { offset, kind }
}

d3dcommon::u16_enum! {
    /// Register set (`D3DXREGISTER_SET`).
    pub enum RegisterSet {
        /// `b#`.
        Bool = 0,
        /// `i#`.
        Int4 = 1,
        /// `c#`.
        Float4 = 2,
        /// `s#`.
        Sampler = 3,
    }
}

impl RegisterSet {
    /// The register prefix in listings (`b`, `i`, `c`, `s`; `?` for undefined sets).
    pub fn prefix(self) -> &'static str {
        match self {
            RegisterSet::Bool => "b",
            RegisterSet::Int4 => "i",
            RegisterSet::Float4 => "c",
            RegisterSet::Sampler => "s",
            RegisterSet::Unknown(_) => "?",
        }
    }
}

d3dcommon::variable_class_enum! {
    /// Parameter class (`D3DXPARAMETER_CLASS`): the classes Direct3D 10 reflection's
    /// `D3D_SHADER_VARIABLE_CLASS` extends (see [`d3dcommon`]), none of its own.
    pub enum ParamClass {}
}

d3dcommon::variable_type_enum! {
    /// Parameter type (`D3DXPARAMETER_TYPE`): the types Direct3D 10 reflection's
    /// `D3D_SHADER_VARIABLE_TYPE` extends (see [`d3dcommon`]), and one of its own where
    /// that enumeration has `uint`.
    pub enum ParamType {
        /// `D3DXPT_UNSUPPORTED`.
        Unsupported = 19,
    }
}

impl ParamType {
    /// The HLSL spelling fxc uses in the listing's parameter list (`float`, `sampler2D`,
    /// `samplerCUBE`, `Texture2D`...; `unsupported`, and `type{n}` for a value the format
    /// does not define).
    pub fn hlsl_name(self) -> Cow<'static, str> {
        match (self, self.common_hlsl_name()) {
            (_, Some(shared)) => Cow::Borrowed(shared),
            (ParamType::Unsupported, None) => Cow::Borrowed("unsupported"),
            (other, None) => Cow::Owned(format!("type{}", other.to_u16())),
        }
    }

    /// The type spelled `name` by [`ParamType::hlsl_name`].
    pub fn from_hlsl_name(name: &str) -> Option<ParamType> {
        (0..20).map(ParamType::from_u16).find(|t| t.hlsl_name() == name)
    }

    /// True for texture types (whose type record fxc writes with 4 columns).
    pub fn is_texture(self) -> bool {
        matches!(
            self,
            ParamType::Texture
                | ParamType::Texture1D
                | ParamType::Texture2D
                | ParamType::Texture3D
                | ParamType::TextureCube
        )
    }
}

/// A type record, with its struct members.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeInfo<'a> {
    /// Scalar, vector, matrix, object or struct.
    pub class: ParamClass,
    /// The element type (`float`, `sampler2D`...).
    pub ty: ParamType,
    /// Rows (1 but for matrices).
    pub rows: u16,
    /// Columns (a vector's size; 4 for textures).
    pub columns: u16,
    /// Array elements (1 for a non-array).
    pub elements: u16,
    /// Struct members, in order (empty for other classes).
    pub members: Vec<Member<'a>>,
}

/// A struct member.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Member<'a> {
    /// The member's name.
    pub name: Cow<'a, str>,
    /// Its type.
    pub ty: TypeInfo<'a>,
}

impl<'a> TypeInfo<'a> {
    /// A non-array type with no members.
    pub fn new(class: ParamClass, ty: ParamType, rows: u16, columns: u16) -> TypeInfo<'a> {
        TypeInfo { class, ty, rows, columns, elements: 1, members: Vec::new() }
    }

    /// The HLSL spelling of the element type as fxc writes it in the parameter list:
    /// `float`, `float4`, `float4x4`, `row_major float4x4`, `sampler2D`, `struct`.
    pub fn hlsl_name(&self) -> String {
        let base = self.ty.hlsl_name();
        match self.class {
            ParamClass::Scalar | ParamClass::Object => base.into_owned(),
            ParamClass::Vector => format!("{base}{}", self.columns),
            ParamClass::MatrixColumns => format!("{base}{}x{}", self.rows, self.columns),
            ParamClass::MatrixRows => format!("row_major {base}{}x{}", self.rows, self.columns),
            ParamClass::Struct => "struct".to_string(),
            ParamClass::Unknown(n) => format!("class{n} {base}"),
        }
    }

    /// Parses a type spelling of [`TypeInfo::hlsl_name`] (not `struct`) into a
    /// non-array type. Texture types get the 4 columns fxc writes for them.
    pub fn from_hlsl_name(name: &str) -> Option<TypeInfo<'static>> {
        let (class_rows, name) = match name.strip_prefix("row_major ") {
            Some(rest) => (true, rest),
            None => (false, name),
        };
        if let Some(t) = ParamType::from_hlsl_name(name) {
            let class = match t {
                ParamType::Bool | ParamType::Int | ParamType::Float => ParamClass::Scalar,
                _ => ParamClass::Object,
            };
            let cols = if t.is_texture() { 4 } else { 1 };
            return (!class_rows).then(|| TypeInfo::new(class, t, 1, cols));
        }
        let (base, dims) = ["float", "int", "bool"].iter().find_map(|b| name.strip_prefix(b).map(|d| (*b, d)))?;
        let ty = ParamType::from_hlsl_name(base)?;
        let digit = |s: &str| s.parse::<u16>().ok().filter(|n| (1..=4).contains(n));
        match dims.split_once('x') {
            None if !class_rows => Some(TypeInfo::new(ParamClass::Vector, ty, 1, digit(dims)?)),
            None => None,
            Some((r, c)) => {
                let class = if class_rows { ParamClass::MatrixRows } else { ParamClass::MatrixColumns };
                Some(TypeInfo::new(class, ty, digit(r)?, digit(c)?))
            }
        }
    }

    /// True when fxc shares one record among constants of this type (measured on the
    /// corpus: non-array numeric types are shared; arrays and objects get their own).
    fn shareable(&self) -> bool {
        self.elements == 1 && self.members.is_empty() && !matches!(self.class, ParamClass::Object | ParamClass::Struct)
    }
}

/// One constant record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Constant<'a> {
    /// The HLSL name (`$` prefixes uniform parameters of the entry point).
    pub name: Cow<'a, str>,
    /// `b#`, `i#`, `c#` or `s#`.
    pub register_set: RegisterSet,
    /// The first register.
    pub register_index: u16,
    /// The number of registers it occupies from `register_index`.
    pub register_count: u16,
    /// The record's `Reserved` field, as stored (fxc writes 0 or, from some compiler
    /// builds, `4 * register_index + 2`; it is not in the listing).
    pub reserved: u16,
    /// Its type.
    pub ty: TypeInfo<'a>,
    /// The default value's bytes (`register_count * 16` of them), if there is one.
    pub default_value: Option<Cow<'a, [u8]>>,
}

impl<'a> Constant<'a> {
    /// The declaration as fxc lists it under `// Parameters:`, without indentation or
    /// `;`: `float4x4 g_mW2C`, `float4 g_x[120]`, `sampler2D s`. A struct gives its
    /// `struct` keyword only; see [`Constant::declaration_lines`].
    pub fn declaration(&self) -> String {
        let mut s = format!("{} {}", self.ty.hlsl_name(), self.name);
        if self.ty.elements > 1 {
            s.push_str(&format!("[{}]", self.ty.elements));
        }
        s
    }

    /// The declaration as lines, each with its `;` where fxc puts one; a struct is
    /// written as `struct`, `{`, its members indented by four spaces, `} name;`
    /// (struct layout not seen in the corpus).
    pub fn declaration_lines(&self) -> Vec<String> {
        if self.ty.class != ParamClass::Struct {
            return vec![format!("{};", self.declaration())];
        }
        let mut out = vec!["struct".to_string(), "{".to_string()];
        fn members(ty: &TypeInfo<'_>, indent: usize, out: &mut Vec<String>) {
            for m in &ty.members {
                let pad = " ".repeat(indent);
                let arr = if m.ty.elements > 1 { format!("[{}]", m.ty.elements) } else { String::new() };
                if m.ty.class == ParamClass::Struct {
                    out.push(format!("{pad}struct"));
                    out.push(format!("{pad}{{"));
                    members(&m.ty, indent + 4, out);
                    out.push(format!("{pad}}} {}{arr};", m.name));
                } else {
                    out.push(format!("{pad}{} {}{arr};", m.ty.hlsl_name(), m.name));
                }
            }
        }
        members(&self.ty, 4, &mut out);
        let arr = if self.ty.elements > 1 { format!("[{}]", self.ty.elements) } else { String::new() };
        out.push(format!("}} {}{arr};", self.name));
        out
    }

    /// The first register, as the listing's register table writes it: `c16`, `s0`, `b0`.
    pub fn register_name(&self) -> String {
        format!("{}{}", self.register_set.prefix(), self.register_index)
    }
}

/// A parsed constant table.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConstantTable<'a> {
    /// The header's `Size` field (28).
    pub header_size: u32,
    /// The compiler string (`Microsoft (R) HLSL Shader Compiler 9.30.9200.20499`).
    pub creator: Cow<'a, str>,
    /// The program's version token.
    pub version: u32,
    /// Compile flags (`D3DXSHADER_*`: fxc writes 0x100, `NO_PRESHADER`, plus e.g.
    /// 0x4, `SKIPOPTIMIZATION`).
    pub flags: u32,
    /// The target profile string (`vs_2_0`; `vs_2_a` for a `vs_2_x` program).
    pub target: Cow<'a, str>,
    /// The constants, in table order (fxc sorts them by name).
    pub constants: Vec<Constant<'a>>,
    /// The original bytes, kept when fxc's layout of the fields above would not
    /// reproduce them; [`ConstantTable::to_bytes`] returns them as they are. Set it to
    /// `None` after changing a field to get a fresh layout.
    pub raw_layout: Option<Cow<'a, [u8]>>,
}

struct Reader<'b> {
    b: &'b [u8],
    /// Type records still allowed (shared records are read once per use).
    budget: std::cell::Cell<usize>,
}

// The reader: offsets and counts come from the input.
#[deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
impl<'b> Reader<'b> {
    fn slice(&self, off: usize, size: usize, what: &'static str) -> Result<&'b [u8], CtabError> {
        off.checked_add(size)
            .and_then(|end| self.b.get(off..end))
            .ok_or(err(off, CtabErrorKind::PastEnd { what, size, len: self.b.len() }))
    }
    fn u32(&self, off: usize, what: &'static str) -> Result<u32, CtabError> {
        let s = self.slice(off, 4, what)?;
        Ok(u32::from_le_bytes(s.first_chunk().copied().unwrap_or_default()))
    }
    fn u16(&self, off: usize, what: &'static str) -> Result<u16, CtabError> {
        let s = self.slice(off, 2, what)?;
        Ok(u16::from_le_bytes(s.first_chunk().copied().unwrap_or_default()))
    }
    fn str(&self, off: usize) -> Result<&'b str, CtabError> {
        let rest = self.b.get(off..).ok_or(err(off, CtabErrorKind::UnterminatedString))?;
        d3dcommon::text::until_nul(rest)
            .ok_or(err(off, CtabErrorKind::UnterminatedString))?
            .map_err(|_| err(off, CtabErrorKind::BadString))
    }
    fn ty(&self, off: usize, depth: usize) -> Result<TypeInfo<'b>, CtabError> {
        if depth > MAX_TYPE_DEPTH {
            return Err(err(off, CtabErrorKind::TooDeep));
        }
        let left = self.budget.get();
        if left == 0 {
            return Err(err(off, CtabErrorKind::TooManyTypes));
        }
        self.budget.set(left.saturating_sub(1));
        // The whole record is inside the input, so offsets within it do not overflow.
        self.slice(off, TYPE_INFO_SIZE, "type record")?;
        let h = |i: usize| self.u16(off.saturating_add(i.saturating_mul(2)), "type record");
        let nmembers = h(5)? as usize;
        let moff = self.u32(off.saturating_add(12), "type record")? as usize;
        let mut members = Vec::with_capacity(nmembers.min(64));
        for i in 0..nmembers {
            let at = moff.saturating_add(i.saturating_mul(MEMBER_INFO_SIZE));
            let name = self.u32(at, "struct member record")? as usize;
            let toff = self.u32(at.saturating_add(4), "struct member record")? as usize;
            members.push(Member { name: Cow::Borrowed(self.str(name)?), ty: self.ty(toff, depth.saturating_add(1))? });
        }
        Ok(TypeInfo {
            class: ParamClass::from_u16(h(0)?),
            ty: ParamType::from_u16(h(1)?),
            rows: h(2)?,
            columns: h(3)?,
            elements: h(4)?,
            members,
        })
    }
}

impl<'a> ConstantTable<'a> {
    /// Parses a comment block's body (starting with the FourCC `CTAB`).
    pub fn parse_comment(data: &'a [u8]) -> Result<ConstantTable<'a>, CtabError> {
        match data.strip_prefix(&FOURCC) {
            Some(table) => ConstantTable::parse(table),
            None => Err(err(0, CtabErrorKind::NotCtab)),
        }
    }

    /// Parses a table (the bytes after the FourCC).
    #[deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
    pub fn parse(bytes: &'a [u8]) -> Result<ConstantTable<'a>, CtabError> {
        let r = Reader { b: bytes, budget: std::cell::Cell::new(MAX_TYPE_RECORDS) };
        r.slice(0, HEADER_SIZE as usize, "header")?;
        let header_size = r.u32(0, "header")?;
        let creator = r.str(r.u32(4, "header")? as usize)?;
        let version = r.u32(8, "header")?;
        let count = r.u32(12, "header")? as usize;
        let info = r.u32(16, "header")? as usize;
        let flags = r.u32(20, "header")?;
        let target = r.str(r.u32(24, "header")? as usize)?;
        // Every record must lie inside the table, which bounds the count.
        r.slice(info, count.saturating_mul(CONSTANT_INFO_SIZE), "constant records")?;
        let mut constants = Vec::with_capacity(count);
        for i in 0..count {
            // Inside the records checked above: no overflow.
            let at = info.saturating_add(i.saturating_mul(CONSTANT_INFO_SIZE));
            let field = |k: usize| at.saturating_add(k);
            let name = r.str(r.u32(at, "constant record")? as usize)?;
            let register_count = r.u16(field(8), "constant record")?;
            let dv = r.u32(field(16), "constant record")? as usize;
            let default_value = if dv == 0 {
                None
            } else {
                Some(Cow::Borrowed(r.slice(dv, usize::from(register_count).saturating_mul(16), "default value")?))
            };
            constants.push(Constant {
                name: Cow::Borrowed(name),
                register_set: RegisterSet::from_u16(r.u16(field(4), "constant record")?),
                register_index: r.u16(field(6), "constant record")?,
                register_count,
                reserved: r.u16(field(10), "constant record")?,
                ty: r.ty(r.u32(field(12), "constant record")? as usize, 0)?,
                default_value,
            });
        }
        let mut table = ConstantTable {
            header_size,
            creator: Cow::Borrowed(creator),
            version,
            flags,
            target: Cow::Borrowed(target),
            constants,
            raw_layout: None,
        };
        if table.fresh_bytes() != bytes {
            table.raw_layout = Some(Cow::Borrowed(bytes));
        }
        Ok(table)
    }

    /// The table's bytes (after the FourCC): the original bytes if they were kept in
    /// [`ConstantTable::raw_layout`], else fxc's layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        match &self.raw_layout {
            Some(raw) => raw.to_vec(),
            None => self.fresh_bytes(),
        }
    }

    /// The whole comment body: `CTAB` and [`ConstantTable::to_bytes`].
    pub fn to_comment(&self) -> Vec<u8> {
        let mut v = FOURCC.to_vec();
        v.extend(self.to_bytes());
        v
    }

    /// The table laid out as fxc lays it out (ignoring [`ConstantTable::raw_layout`]).
    pub fn fresh_bytes(&self) -> Vec<u8> {
        let n = self.constants.len();
        let mut out = vec![0u8; HEADER_SIZE as usize + n * CONSTANT_INFO_SIZE];
        let mut records = Vec::with_capacity(n);
        // Type records already written that later constants may share.
        let mut shared: Vec<(&TypeInfo<'_>, u32)> = Vec::new();
        for c in &self.constants {
            let name = put_str(&mut out, &c.name);
            let ty = match shared.iter().find(|(t, _)| c.ty.shareable() && *t == &c.ty) {
                Some(&(_, off)) => off,
                None => {
                    let off = put_type(&mut out, &c.ty);
                    if c.ty.shareable() {
                        shared.push((&c.ty, off));
                    }
                    off
                }
            };
            let dv = match &c.default_value {
                Some(bytes) => {
                    align(&mut out);
                    let off = out.len() as u32;
                    out.extend_from_slice(bytes);
                    off
                }
                None => 0,
            };
            records.push((name, ty, dv));
        }
        let target = put_str(&mut out, &self.target);
        let creator = put_str(&mut out, &self.creator);
        align(&mut out);
        let info = if n == 0 { 0 } else { HEADER_SIZE };
        let header = [self.header_size, creator, self.version, n as u32, info, self.flags, target];
        for (i, w) in header.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        for (i, (c, (name, ty, dv))) in self.constants.iter().zip(records).enumerate() {
            let at = HEADER_SIZE as usize + i * CONSTANT_INFO_SIZE;
            let mut rec = Vec::with_capacity(CONSTANT_INFO_SIZE);
            rec.extend(name.to_le_bytes());
            for h in [c.register_set.to_u16(), c.register_index, c.register_count, c.reserved] {
                rec.extend(h.to_le_bytes());
            }
            rec.extend(ty.to_le_bytes());
            rec.extend(dv.to_le_bytes());
            out[at..at + CONSTANT_INFO_SIZE].copy_from_slice(&rec);
        }
        out
    }

    /// The constants in the order of the listing's register table (by register set —
    /// bool, int4, float4, sampler — then register index).
    pub fn registers(&self) -> Vec<&Constant<'a>> {
        let mut v: Vec<_> = self.constants.iter().collect();
        v.sort_by_key(|c| (c.register_set.to_u16(), c.register_index));
        v
    }

    /// The same table owning all of its strings and bytes.
    pub fn into_owned(self) -> ConstantTable<'static> {
        fn ty(t: TypeInfo<'_>) -> TypeInfo<'static> {
            TypeInfo {
                class: t.class,
                ty: t.ty,
                rows: t.rows,
                columns: t.columns,
                elements: t.elements,
                members: t
                    .members
                    .into_iter()
                    .map(|m| Member { name: Cow::Owned(m.name.into_owned()), ty: ty(m.ty) })
                    .collect(),
            }
        }
        ConstantTable {
            header_size: self.header_size,
            creator: Cow::Owned(self.creator.into_owned()),
            version: self.version,
            flags: self.flags,
            target: Cow::Owned(self.target.into_owned()),
            constants: self
                .constants
                .into_iter()
                .map(|c| Constant {
                    name: Cow::Owned(c.name.into_owned()),
                    register_set: c.register_set,
                    register_index: c.register_index,
                    register_count: c.register_count,
                    reserved: c.reserved,
                    ty: ty(c.ty),
                    default_value: c.default_value.map(|d| Cow::Owned(d.into_owned())),
                })
                .collect(),
            raw_layout: self.raw_layout.map(|r| Cow::Owned(r.into_owned())),
        }
    }
}

/// The target string fxc writes for a program version token: `vs_2_0`, `ps_3_0`, and
/// for the `2_x` versions the `_a` profile (`vs_2_a`, as in the corpus; a `ps_2_x`
/// program may as well come from `ps_2_b`, which the token does not tell).
pub fn target_for(version: crate::ir::Version) -> String {
    let prefix = version.kind.prefix();
    match (version.major, version.minor) {
        (2, 1) => format!("{prefix}_2_a"),
        (m, 0xff) => format!("{prefix}_{m}_sw"),
        (m, n) => format!("{prefix}_{m}_{n}"),
    }
}

fn align(out: &mut Vec<u8>) {
    while !out.len().is_multiple_of(4) {
        out.push(PAD);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) -> u32 {
    let off = out.len() as u32;
    out.extend_from_slice(s.as_bytes());
    out.push(0);
    off
}

/// Writes a type record (4-aligned) and, after it, its member records and their names
/// and types (struct layout not seen in the corpus); returns the record's offset.
fn put_type(out: &mut Vec<u8>, t: &TypeInfo<'_>) -> u32 {
    align(out);
    let off = out.len();
    out.resize(off + TYPE_INFO_SIZE, 0);
    let mut member_off = 0u32;
    if !t.members.is_empty() {
        member_off = out.len() as u32;
        let base = out.len();
        out.resize(base + t.members.len() * MEMBER_INFO_SIZE, 0);
        for (i, m) in t.members.iter().enumerate() {
            let name = put_str(out, &m.name);
            let ty = put_type(out, &m.ty);
            let at = base + i * MEMBER_INFO_SIZE;
            out[at..at + 4].copy_from_slice(&name.to_le_bytes());
            out[at + 4..at + 8].copy_from_slice(&ty.to_le_bytes());
        }
    }
    let mut rec = Vec::with_capacity(TYPE_INFO_SIZE);
    for h in [t.class.to_u16(), t.ty.to_u16(), t.rows, t.columns, t.elements, t.members.len() as u16] {
        rec.extend(h.to_le_bytes());
    }
    rec.extend(member_off.to_le_bytes());
    out[off..off + TYPE_INFO_SIZE].copy_from_slice(&rec);
    off as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_spellings_round_trip() {
        for s in [
            "float",
            "float4",
            "float4x4",
            "row_major float3x4",
            "int2",
            "bool",
            "sampler2D",
            "samplerCUBE",
            "Texture2D",
        ] {
            let t = TypeInfo::from_hlsl_name(s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(t.hlsl_name(), s);
        }
        assert!(TypeInfo::from_hlsl_name("float5").is_none());
        assert!(TypeInfo::from_hlsl_name("row_major sampler2D").is_none());
        assert_eq!(TypeInfo::from_hlsl_name("Texture2D").unwrap().columns, 4);
    }

    #[test]
    fn built_tables_parse_back() {
        let mut t = ConstantTable {
            header_size: HEADER_SIZE,
            creator: "Microsoft (R) HLSL Shader Compiler 10.1".into(),
            version: 0xffff_0200,
            flags: 0x100,
            target: "ps_2_0".into(),
            constants: vec![],
            raw_layout: None,
        };
        for (name, ty, set, idx, count) in [
            ("a", "float4", RegisterSet::Float4, 0, 1),
            ("b", "float4", RegisterSet::Float4, 1, 1),
            ("s", "sampler2D", RegisterSet::Sampler, 0, 1),
        ] {
            t.constants.push(Constant {
                name: name.into(),
                register_set: set,
                register_index: idx,
                register_count: count,
                reserved: 0,
                ty: TypeInfo::from_hlsl_name(ty).unwrap(),
                default_value: None,
            });
        }
        let mut st = TypeInfo::new(ParamClass::Struct, ParamType::Void, 1, 8);
        st.members.push(Member { name: "x".into(), ty: TypeInfo::from_hlsl_name("float4").unwrap() });
        st.members.push(Member { name: "y".into(), ty: TypeInfo::from_hlsl_name("float4").unwrap() });
        t.constants.push(Constant {
            name: "st".into(),
            register_set: RegisterSet::Float4,
            register_index: 2,
            register_count: 2,
            reserved: 0,
            ty: st,
            default_value: Some(Cow::Owned(vec![7; 32])),
        });
        let bytes = t.fresh_bytes();
        assert_eq!(bytes.len() % 4, 0);
        let back = ConstantTable::parse(&bytes).unwrap();
        assert_eq!(back.raw_layout, None);
        assert_eq!(back.constants, t.constants);
        assert_eq!(back.to_bytes(), bytes);
        // `a` and `b` share one type record.
        let ti = |i: usize| u32::from_le_bytes(bytes[28 + i * 20 + 12..28 + i * 20 + 16].try_into().unwrap());
        assert_eq!(ti(0), ti(1));
        assert_eq!(back.constants[3].declaration_lines().len(), 5);
        assert_eq!(back.registers()[0].register_name(), "c0");
    }

    #[test]
    fn cyclic_struct_types_are_an_error() {
        let mut b = vec![0u8; 28 + 20 + 16 + 8 + 4];
        let w = |b: &mut Vec<u8>, at: usize, v: u32| b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        w(&mut b, 0, 28);
        w(&mut b, 4, 72); // creator "" at 72
        w(&mut b, 12, 1);
        w(&mut b, 16, 28);
        w(&mut b, 24, 72);
        w(&mut b, 28, 72); // name
        w(&mut b, 28 + 12, 48); // type at 48
        b[48] = 5; // struct
        b[48 + 10] = 1; // one member
        w(&mut b, 48 + 12, 64); // member records at 64
        w(&mut b, 64, 72);
        w(&mut b, 68, 48); // member type: itself
        assert_eq!(ConstantTable::parse(&b).unwrap_err().kind, CtabErrorKind::TooDeep);
    }
}
