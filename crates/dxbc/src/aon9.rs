//! `Aon9`: the Level 9 part of a `*_4_0_level_9_*` blob — a Shader Model 2 program
//! for Direct3D 9-class hardware and the tables that map the Shader Model 4 resources
//! (constant buffers, samplers, textures) onto Direct3D 9 registers.
//!
//! ```text
//! offset  field
//!  0      u32  chunk size in bytes (the data's length)
//!  4      u32  version: the program's type with version 2.0 (0xFFFF0200 / 0xFFFE0200),
//!              also for 9_3 programs whose own version token says 2.x
//!  8      u32  program size in bytes
//! 12      u32  program offset
//! 16      u16 count, u16 offset: constant-register mappings (12 bytes each)
//! 20      u16 count, u16 offset: integer-register (i#) mappings (8 bytes each)
//! 24      u16 count, u16 offset: boolean-register (b#) mappings (8 bytes each)
//! 28      u16 count, u16 offset: sampler mappings (4 bytes each)
//! 32      u16 count, u16 offset: runtime-constant mappings (4 bytes each)
//! 36      tables, then the program (version token ... 0x0000FFFF)
//! ```
//!
//! Records (little-endian):
//!
//! - constant mapping: `u16 buffer, u16 start register, u16 register count, u16 target,
//!   u8 conversion[4]`; a target of `0x1000 + n` is clip plane `n` (`[clipplanes(...)]`),
//!   below `0x1000` it is constant register `c#`; conversions are 0 float, 1 bool, 2 int,
//!   3 uint, one per component;
//! - integer / boolean mapping: `u16 buffer, u16 source register, u16 component, u16
//!   target register` (`i#` used by `rep`/`loop`, `b#` used by `if b#`);
//! - sampler mapping: `u8 source resource (t#), u8 source sampler (s#), u8 target sampler,
//!   u8 reserved (0)`;
//! - runtime constant: `u16 kind (0 the vertex shader position offset, 1 the instance
//!   ID), u16 target register`.
//!
//! fxc lays the chunk out as: header, sampler table, constant table, boolean table,
//! integer table, runtime-constant table, program; an empty table's offset is where it
//! would have started. [`Aon9::build`] writes that layout from the typed value;
//! [`Aon9::parse`] keeps any other layout (offsets, bytes no field describes) in
//! [`Aon9::raw_layout`] so that [`Aon9::to_bytes`] reproduces the input exactly.
//!
//! The record layouts were read from the corpus (constant, sampler and runtime tables)
//! and from chunks that Microsoft's compiler (`d3dcompiler_47`) writes for shaders
//! with `rep`/`if b#` flow control reading constant buffers, `int`/`uint`/`bool`
//! constants and `[clipplanes(...)]` (integer and boolean tables, conversions,
//! clip-plane targets, the layout order). Runtime kind 1 is what Microsoft's
//! disassembler prints as `Instance ID`; the compiler refuses `SV_InstanceID` for
//! Level 9 targets, so no compiled chunk with it was seen.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::error::{Error, Result};
use crate::util::{code_enum, write_at, Bytes, Canvas, Coverage, Gap};

/// Size of the fixed header before the tables.
pub const HEADER_SIZE: usize = 36;

/// Bytes per record of each table.
const CONSTANT_SIZE: usize = 12;
const REGISTER_SIZE: usize = 8;
const SAMPLER_SIZE: usize = 4;
const RUNTIME_SIZE: usize = 4;

/// The first constant-mapping target that names a clip plane (`0x1000 + n`).
pub const CLIP_PLANE_BASE: u16 = 0x1000;

code_enum! {
    /// How one component of a constant register is converted from the constant
    /// buffer's bits (the listing's `Data Conversion` column).
    #[derive(Default)]
    pub enum DataConversion: u8 {
        /// `FLT`: used as is.
        #[default]
        Float = 0,
        /// `BOOL`.
        Bool = 1,
        /// `INT`.
        Int = 2,
        /// `UINT`.
        Uint = 3,
    }
}

code_enum! {
    /// What the runtime writes into a runtime-generated constant.
    pub enum RuntimeConstantKind: u16 {
        /// `Vertex Shader position offset`: the half-pixel offset the runtime adds to the
        /// position (every Level 9 vertex shader has one).
        VertexShaderPositionOffset = 0,
        /// `Instance ID`.
        InstanceId = 1,
    }
}

/// Where a constant mapping lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConstantTarget {
    /// Constant register `c#` (stored as the number, below [`CLIP_PLANE_BASE`]).
    Register(u16),
    /// User clip plane `#` (stored as [`CLIP_PLANE_BASE`]` + #`).
    ClipPlane(u16),
}

impl ConstantTarget {
    /// The target as stored.
    pub fn from_raw(raw: u16) -> ConstantTarget {
        if raw >= CLIP_PLANE_BASE {
            ConstantTarget::ClipPlane(raw.saturating_sub(CLIP_PLANE_BASE))
        } else {
            ConstantTarget::Register(raw)
        }
    }

    /// The stored value, or `None` if the target cannot be stored (a register number of
    /// 0x1000 or more, a clip plane past 0xEFFF).
    pub fn to_raw(self) -> Option<u16> {
        match self {
            ConstantTarget::Register(r) => (r < CLIP_PLANE_BASE).then_some(r),
            ConstantTarget::ClipPlane(p) => p.checked_add(CLIP_PLANE_BASE),
        }
    }
}

/// A run of constant-buffer registers copied into Direct3D 9 constant registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ConstantMapping {
    /// Constant-buffer slot (`cb#`).
    pub buffer: u16,
    /// First register of the buffer.
    pub start_reg: u16,
    /// Number of registers.
    pub reg_count: u16,
    /// First target register (or clip plane).
    pub target: ConstantTarget,
    /// Conversion of the x, y, z, w components.
    pub conversion: [DataConversion; 4],
}

/// One component of a constant-buffer register copied into an integer (`i#`) or
/// boolean (`b#`) register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegisterMapping {
    /// Constant-buffer slot (`cb#`).
    pub buffer: u16,
    /// Register of the buffer.
    pub source_reg: u16,
    /// Component of that register (0 = x ... 3 = w).
    pub component: u16,
    /// Target register number.
    pub target_reg: u16,
}

/// A (texture, sampler) pair bound to a Direct3D 9 sampler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SamplerMapping {
    /// Target sampler (`s#` of the SM2 program).
    pub target_sampler: u8,
    /// Source sampler state (`s#` of the SM4 program).
    pub source_sampler: u8,
    /// Source texture (`t#` of the SM4 program).
    pub source_resource: u8,
    /// The record's fourth byte (0 in every compiler output seen).
    pub reserved: u8,
}

/// A constant register the runtime fills in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuntimeConstantMapping {
    /// What the runtime writes.
    pub kind: RuntimeConstantKind,
    /// Target constant register (`c#`).
    pub target_reg: u16,
}

/// The five mapping tables, in the order the listing prints them within each table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mappings {
    /// Constant-register (and clip-plane) mappings.
    pub constants: Vec<ConstantMapping>,
    /// Integer-register (`i#`) mappings.
    pub integers: Vec<RegisterMapping>,
    /// Boolean-register (`b#`) mappings.
    pub booleans: Vec<RegisterMapping>,
    /// Sampler mappings.
    pub samplers: Vec<SamplerMapping>,
    /// Runtime-generated constants.
    pub runtime_constants: Vec<RuntimeConstantMapping>,
}

/// The tables by their slot in the header (header order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    Constants = 0,
    Integers = 1,
    Booleans = 2,
    Samplers = 3,
    Runtime = 4,
}

impl Table {
    /// Header order.
    const ALL: [Table; 5] = [Table::Constants, Table::Integers, Table::Booleans, Table::Samplers, Table::Runtime];
    /// fxc's layout order.
    const LAYOUT: [Table; 5] = [Table::Samplers, Table::Constants, Table::Booleans, Table::Integers, Table::Runtime];

    fn record_size(self) -> usize {
        match self {
            Table::Constants => CONSTANT_SIZE,
            Table::Integers | Table::Booleans => REGISTER_SIZE,
            Table::Samplers => SAMPLER_SIZE,
            Table::Runtime => RUNTIME_SIZE,
        }
    }

    /// Where the table's (count, offset) pair is in the header.
    fn field(self) -> usize {
        (self as usize).saturating_mul(4).saturating_add(16)
    }

    fn what(self) -> &'static str {
        match self {
            Table::Constants => "Aon9 constant mappings",
            Table::Integers => "Aon9 integer-register mappings",
            Table::Booleans => "Aon9 boolean-register mappings",
            Table::Samplers => "Aon9 sampler mappings",
            Table::Runtime => "Aon9 runtime-constant mappings",
        }
    }
}

impl Mappings {
    fn count(&self, t: Table) -> usize {
        match t {
            Table::Constants => self.constants.len(),
            Table::Integers => self.integers.len(),
            Table::Booleans => self.booleans.len(),
            Table::Samplers => self.samplers.len(),
            Table::Runtime => self.runtime_constants.len(),
        }
    }

    /// The records of table `t`, encoded, appended to `out`. Fails on a constant target
    /// that cannot be stored; `field` names the header field for the error.
    fn encode(&self, t: Table, out: &mut Vec<u8>) -> Result<()> {
        match t {
            Table::Constants => {
                for (i, m) in self.constants.iter().enumerate() {
                    let target = m.target.to_raw().ok_or(Error::Invalid {
                        offset: t.field(),
                        what: "Aon9 constant mapping target (record index)",
                        value: i as u64,
                    })?;
                    for v in [m.buffer, m.start_reg, m.reg_count, target] {
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                    out.extend(m.conversion.iter().map(|&c| u8::from(c)));
                }
            }
            Table::Integers | Table::Booleans => {
                let list = if t == Table::Integers { &self.integers } else { &self.booleans };
                for m in list {
                    for v in [m.buffer, m.source_reg, m.component, m.target_reg] {
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
            Table::Samplers => {
                for m in &self.samplers {
                    out.extend_from_slice(&[m.source_resource, m.source_sampler, m.target_sampler, m.reserved]);
                }
            }
            Table::Runtime => {
                for m in &self.runtime_constants {
                    out.extend_from_slice(&u16::from(m.kind).to_le_bytes());
                    out.extend_from_slice(&m.target_reg.to_le_bytes());
                }
            }
        }
        Ok(())
    }
}

/// The original layout of a chunk that [`Aon9::build`] would lay out differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aon9Layout<'a> {
    /// The chunk's length in bytes.
    pub len: usize,
    /// Word 0 as stored (fxc: the chunk's length).
    pub size_field: u32,
    /// Where the program starts.
    pub program_offset: u32,
    /// The tables' offsets in header order (constants, integers, booleans, samplers,
    /// runtime constants).
    pub table_offsets: [u16; 5],
    /// Bytes no field describes.
    pub gaps: Vec<Gap<'a>>,
}

/// A decoded `Aon9` chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aon9<'a> {
    /// Word 1: the program's type with version 2.0 (see [`Aon9::version_for`]).
    pub version: u32,
    /// The Shader Model 2 program: a d3dbc token stream, borrowed from the input.
    pub program: &'a [u8],
    /// The mapping tables.
    pub mappings: Mappings,
    /// The original layout when it differs from the one [`Aon9::build`] chooses;
    /// `None` for fxc-laid-out chunks and new values.
    pub raw_layout: Option<Aon9Layout<'a>>,
}

impl<'a> Aon9<'a> {
    /// A chunk for `program` with fxc's version word ([`Aon9::version_for`]).
    pub fn new(program: &'a [u8], mappings: Mappings) -> Aon9<'a> {
        Aon9 { version: Aon9::version_for(program), program, mappings, raw_layout: None }
    }

    /// The version word fxc writes for `program`: the type half of the program's version
    /// token (`0xFFFF` pixel, `0xFFFE` vertex) with version 2.0, also when the program is
    /// a 2.x one (9_3 targets). 0 if the program is shorter than a token.
    pub fn version_for(program: &[u8]) -> u32 {
        match program.get(0..4) {
            Some(b) => (Bytes::new(b).u32(0, "version").unwrap_or(0) & 0xffff_0000) | 0x0200,
            None => 0,
        }
    }

    /// Decodes an `Aon9` chunk's data, keeping its byte layout when it is not the one
    /// [`Aon9::build`] chooses. Errors name offsets inside `data`.
    pub fn parse(data: &'a [u8]) -> Result<Aon9<'a>> {
        Aon9::parse_with(data, true)
    }

    /// Decodes the chunk's values only, for a reader: the same checks and errors as
    /// [`Aon9::parse`], without working out whether the bytes follow fxc's layout
    /// ([`Aon9::raw_layout`] is `None`).
    pub fn parse_fields(data: &'a [u8]) -> Result<Aon9<'a>> {
        Aon9::parse_with(data, false)
    }

    fn parse_with(data: &'a [u8], keep_layout: bool) -> Result<Aon9<'a>> {
        let b = Bytes::new(data);
        b.slice(0, HEADER_SIZE, "Aon9 header")?;
        let size_field = b.u32(0, "Aon9 chunk size")?;
        let version = b.u32(4, "Aon9 version")?;
        let program_size = b.u32(8, "Aon9 program size")?;
        let program_offset = b.u32(12, "Aon9 program offset")?;
        let start = b.array(12, program_offset, program_size, 1, "Aon9 program")?;
        let program = b.slice(start, program_size as usize, "Aon9 program")?;
        // A coverage of no bytes records nothing.
        let mut cover = Coverage::new(if keep_layout { data.len() } else { 0 });
        cover.mark(0, HEADER_SIZE);
        cover.mark(start, program.len());
        let mut m = Mappings::default();
        let mut table_offsets = [0u16; 5];
        for t in Table::ALL {
            let count = b.u16(t.field(), "Aon9 table count")?;
            let offset_field = t.field().saturating_add(2);
            let offset = b.u16(offset_field, "Aon9 table offset")?;
            if let Some(slot) = table_offsets.get_mut(t as usize) {
                *slot = offset;
            }
            let size = t.record_size();
            let at = b.array(offset_field, offset as u32, count as u32, size, t.what())?;
            // `array` checked that `count * size` bytes from `at` lie inside the data.
            cover.mark(at, (count as usize).saturating_mul(size));
            for i in 0..count as usize {
                let r = at.saturating_add(i.saturating_mul(size));
                let u16_at = |k: usize| b.u16(r.saturating_add(k.saturating_mul(2)), t.what());
                match t {
                    Table::Constants => {
                        let c: [u8; 4] = b.array_of(r.saturating_add(8), t.what())?;
                        m.constants.push(ConstantMapping {
                            buffer: u16_at(0)?,
                            start_reg: u16_at(1)?,
                            reg_count: u16_at(2)?,
                            target: ConstantTarget::from_raw(u16_at(3)?),
                            conversion: [c[0].into(), c[1].into(), c[2].into(), c[3].into()],
                        });
                    }
                    Table::Integers | Table::Booleans => {
                        let rm = RegisterMapping {
                            buffer: u16_at(0)?,
                            source_reg: u16_at(1)?,
                            component: u16_at(2)?,
                            target_reg: u16_at(3)?,
                        };
                        if t == Table::Integers {
                            m.integers.push(rm);
                        } else {
                            m.booleans.push(rm);
                        }
                    }
                    Table::Samplers => {
                        let s: [u8; 4] = b.array_of(r, t.what())?;
                        m.samplers.push(SamplerMapping {
                            source_resource: s[0],
                            source_sampler: s[1],
                            target_sampler: s[2],
                            reserved: s[3],
                        });
                    }
                    Table::Runtime => m.runtime_constants.push(RuntimeConstantMapping {
                        kind: RuntimeConstantKind::from(u16_at(0)?),
                        target_reg: u16_at(1)?,
                    }),
                }
            }
        }
        let mut chunk = Aon9 { version, program, mappings: m, raw_layout: None };
        if keep_layout && chunk.build().ok().as_deref() != Some(data) {
            chunk.raw_layout =
                Some(Aon9Layout { len: data.len(), size_field, program_offset, table_offsets, gaps: cover.gaps(data) });
        }
        Ok(chunk)
    }

    /// Serialises the chunk: in its original layout if it has one that still fits the
    /// value, else as [`Aon9::build`] lays it out.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        if let Some(raw) = &self.raw_layout {
            if let Some(bytes) = self.raw_bytes(raw) {
                return Ok(bytes);
            }
        }
        self.build()
    }

    /// Lays the chunk out as fxc does (ignoring [`Aon9::raw_layout`]): header, sampler,
    /// constant, boolean, integer and runtime-constant tables, program. Fails if a table
    /// has more than 65535 records, the tables end past byte 65535 (offsets are 16-bit)
    /// or a constant target cannot be stored; the error names the header field.
    pub fn build(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; HEADER_SIZE];
        let mut header = [(0u16, 0u16); 5];
        for t in Table::LAYOUT {
            let count = self.mappings.count(t);
            let count = u16::try_from(count).map_err(|_| Error::Invalid {
                offset: t.field(),
                what: "Aon9 table record count",
                value: count as u64,
            })?;
            let offset = u16::try_from(out.len()).map_err(|_| Error::Invalid {
                offset: t.field().saturating_add(2),
                what: "Aon9 table offset",
                value: out.len() as u64,
            })?;
            if let Some(slot) = header.get_mut(t as usize) {
                *slot = (count, offset);
            }
            self.mappings.encode(t, &mut out)?;
        }
        let program_offset = out.len();
        out.extend_from_slice(self.program);
        let total = u32::try_from(out.len()).map_err(|_| Error::Invalid {
            offset: 0,
            what: "Aon9 chunk size",
            value: out.len() as u64,
        })?;
        // The header's HEADER_SIZE bytes were reserved above.
        write_at(&mut out, 0, &total.to_le_bytes());
        write_at(&mut out, 4, &self.version.to_le_bytes());
        write_at(&mut out, 8, &(self.program.len() as u32).to_le_bytes());
        write_at(&mut out, 12, &(program_offset as u32).to_le_bytes());
        for (t, (count, offset)) in Table::ALL.iter().zip(header) {
            write_at(&mut out, t.field(), &count.to_le_bytes());
            write_at(&mut out, t.field().saturating_add(2), &offset.to_le_bytes());
        }
        Ok(out)
    }

    fn raw_bytes(&self, raw: &Aon9Layout<'_>) -> Option<Vec<u8>> {
        let mut c = Canvas::new(raw.len);
        c.u32(0, raw.size_field);
        c.u32(4, self.version);
        c.u32(8, u32::try_from(self.program.len()).ok()?);
        c.u32(12, raw.program_offset);
        c.put(raw.program_offset as usize, self.program);
        let mut records = Vec::new();
        for t in Table::ALL {
            let offset = *raw.table_offsets.get(t as usize)?;
            c.u16(t.field(), u16::try_from(self.mappings.count(t)).ok()?);
            c.u16(t.field().saturating_add(2), offset);
            records.clear();
            self.mappings.encode(t, &mut records).ok()?;
            c.put(offset as usize, &records);
        }
        c.finish(&raw.gaps)
    }
}
