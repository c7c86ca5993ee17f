//! `IFCE`: class linkage (Shader Model 5 interfaces): class types, class instances and
//! interface slots.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::error::Result;
use crate::util::{write_at, Bytes, Canvas, LayoutLog, Offsets, RawLayout, Writer};

/// A class type available to the shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassType<'a> {
    /// Class name.
    pub name: &'a str,
    /// The 16-bit field after the name, stored as found (zero in every corpus blob;
    /// fxc's listing numbers class types by their position instead).
    pub id: u16,
    /// Constant-buffer stride.
    pub cb_stride: u16,
    /// Texture count.
    pub texture: u16,
    /// Sampler count.
    pub sampler: u16,
}

/// A class instance. No corpus blob has one; the field layout follows the
/// `D3D11_CLASS_INSTANCE`-style order (name, type, then constant buffer, offset,
/// texture, sampler) and decodes and re-encodes losslessly either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInstance<'a> {
    /// Instance name.
    pub name: &'a str,
    /// Index of the instance's class type.
    pub type_index: u16,
    /// Unknown 16-bit field following the type index.
    pub unknown: u16,
    /// Constant buffer.
    pub constant_buffer: u16,
    /// Offset inside the constant buffer.
    pub constant_buffer_offset: u16,
    /// Texture.
    pub texture: u16,
    /// Sampler.
    pub sampler: u16,
}

/// One interface-slot record: a run of `slot_span` slots sharing a table of
/// (type ID, table ID) pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceSlot {
    /// Number of consecutive slots the record covers.
    pub slot_span: u32,
    /// Class type IDs that may fill the slots.
    pub type_ids: Vec<u16>,
    /// Function table IDs, one per type ID.
    pub table_ids: Vec<u32>,
}

/// A decoded `IFCE` chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ifce<'a> {
    /// Total number of interface slots.
    pub slot_count: u32,
    /// Two header words after the offsets; fxc leaves whatever was in memory there.
    pub reserved: [u32; 2],
    /// Class instances.
    pub instances: Vec<ClassInstance<'a>>,
    /// Class types.
    pub types: Vec<ClassType<'a>>,
    /// Interface-slot records.
    pub slots: Vec<InterfaceSlot>,
    /// The original layout when it differs from fxc's (see [`RawLayout`]).
    pub raw_layout: Option<RawLayout<'a>>,
}

const HEADER: usize = 36;

impl<'a> Ifce<'a> {
    /// Decodes an `IFCE` chunk, keeping its byte layout when it is not fxc's (so that
    /// [`Ifce::to_bytes`] gives `data` back).
    pub fn parse(data: &'a [u8]) -> Result<Ifce<'a>> {
        Ifce::parse_with(data, true)
    }

    /// Decodes the chunk's values only, for a reader: the same checks and errors as
    /// [`Ifce::parse`], without working out whether the bytes follow fxc's layout
    /// ([`Ifce::raw_layout`] is `None`).
    pub fn parse_fields(data: &'a [u8]) -> Result<Ifce<'a>> {
        Ifce::parse_with(data, false)
    }

    fn parse_with(data: &'a [u8], keep_layout: bool) -> Result<Ifce<'a>> {
        let b = Bytes::new(data);
        let instance_count = b.u32(0, "class instance count")?;
        let type_count = b.u32(4, "class type count")?;
        let record_count = b.u32(8, "interface slot record count")?;
        let slot_count = b.u32(12, "interface slot count")?;
        let inst_off = b.u32(16, "class instance offset")?;
        let type_off = b.u32(20, "class type offset")?;
        let rec_off = b.u32(24, "interface slot offset")?;
        let reserved = [b.u32(28, "IFCE header")?, b.u32(32, "IFCE header")?];
        let mut log = LayoutLog::new(data.len(), keep_layout);
        log.mark(0, HEADER);
        log.offset(inst_off);
        log.offset(type_off);
        log.offset(rec_off);

        let mut slots = Vec::new();
        let rec_start = b.array(24, rec_off, record_count, 16, "interface slot records")?;
        log.mark(rec_start, (record_count as usize).saturating_mul(16));
        for i in 0..record_count as usize {
            let at = rec_start.saturating_add(i.saturating_mul(16));
            let slot_span = b.u32(at, "slot span")?;
            let count = b.u32(at.saturating_add(4), "slot type count")?;
            let ids_off = b.u32(at.saturating_add(8), "type ID offset")?;
            let tables_off = b.u32(at.saturating_add(12), "table ID offset")?;
            let ids_at = b.array(at.saturating_add(8), ids_off, count, 2, "type IDs")?;
            let tables_at = b.array(at.saturating_add(12), tables_off, count, 4, "table IDs")?;
            log.mark(ids_at, (count as usize).saturating_mul(2));
            log.mark(tables_at, (count as usize).saturating_mul(4));
            log.offset(ids_off);
            log.offset(tables_off);
            let mut type_ids = Vec::with_capacity(count as usize);
            let mut table_ids = Vec::with_capacity(count as usize);
            for j in 0..count as usize {
                type_ids.push(b.u16(ids_at.saturating_add(j.saturating_mul(2)), "type ID")?);
                table_ids.push(b.u32(tables_at.saturating_add(j.saturating_mul(4)), "table ID")?);
            }
            slots.push(InterfaceSlot { slot_span, type_ids, table_ids });
        }

        let mut types = Vec::new();
        let type_start = b.array(20, type_off, type_count, 12, "class types")?;
        log.mark(type_start, (type_count as usize).saturating_mul(12));
        for i in 0..type_count as usize {
            let at = type_start.saturating_add(i.saturating_mul(12));
            let name_off = b.u32(at, "class type name offset")?;
            let (name, len) = b.cstr(at, name_off)?;
            log.mark(name_off as usize, len);
            log.offset(name_off);
            types.push(ClassType {
                name,
                id: b.u16(at.saturating_add(4), "class type ID")?,
                cb_stride: b.u16(at.saturating_add(6), "class type CB stride")?,
                texture: b.u16(at.saturating_add(8), "class type texture")?,
                sampler: b.u16(at.saturating_add(10), "class type sampler")?,
            });
        }

        let mut instances = Vec::new();
        let inst_start = b.array(16, inst_off, instance_count, 16, "class instances")?;
        log.mark(inst_start, (instance_count as usize).saturating_mul(16));
        for i in 0..instance_count as usize {
            let at = inst_start.saturating_add(i.saturating_mul(16));
            let name_off = b.u32(at, "class instance name offset")?;
            let (name, len) = b.cstr(at, name_off)?;
            log.mark(name_off as usize, len);
            log.offset(name_off);
            instances.push(ClassInstance {
                name,
                type_index: b.u16(at.saturating_add(4), "class instance type")?,
                unknown: b.u16(at.saturating_add(6), "class instance")?,
                constant_buffer: b.u16(at.saturating_add(8), "class instance constant buffer")?,
                constant_buffer_offset: b.u16(at.saturating_add(10), "class instance CB offset")?,
                texture: b.u16(at.saturating_add(12), "class instance texture")?,
                sampler: b.u16(at.saturating_add(14), "class instance sampler")?,
            });
        }

        let mut ifce = Ifce { slot_count, reserved, instances, types, slots, raw_layout: None };
        if keep_layout && ifce.fresh_bytes() != data {
            ifce.raw_layout = Some(log.into_layout(data));
        }
        Ok(ifce)
    }

    /// Serialises the chunk: in its original layout if it has one that still fits,
    /// else in fxc's layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        if let Some(raw) = &self.raw_layout {
            if let Some(bytes) = self.raw_bytes(raw) {
                return bytes;
            }
        }
        self.fresh_bytes()
    }

    fn header(&self, inst_off: u32, type_off: u32, rec_off: u32) -> [u32; 9] {
        [
            self.instances.len() as u32,
            self.types.len() as u32,
            self.slots.len() as u32,
            self.slot_count,
            inst_off,
            type_off,
            rec_off,
            self.reserved[0],
            self.reserved[1],
        ]
    }

    fn type_record(t: &ClassType<'_>, name_off: u32) -> [u8; 12] {
        let mut r = [0u8; 12];
        write_at(&mut r, 0, &name_off.to_le_bytes());
        for (i, v) in [t.id, t.cb_stride, t.texture, t.sampler].into_iter().enumerate() {
            write_at(&mut r, i.saturating_mul(2).saturating_add(4), &v.to_le_bytes());
        }
        r
    }

    fn instance_record(t: &ClassInstance<'_>, name_off: u32) -> [u8; 16] {
        let mut r = [0u8; 16];
        write_at(&mut r, 0, &name_off.to_le_bytes());
        let fields = [t.type_index, t.unknown, t.constant_buffer, t.constant_buffer_offset, t.texture, t.sampler];
        for (i, v) in fields.into_iter().enumerate() {
            write_at(&mut r, i.saturating_mul(2).saturating_add(4), &v.to_le_bytes());
        }
        r
    }

    fn raw_bytes(&self, raw: &RawLayout<'_>) -> Option<Vec<u8>> {
        let mut c = Canvas::new(raw.size);
        let mut o = Offsets::new(&raw.offsets);
        let (inst_off, type_off, rec_off) = (o.next(), o.next(), o.next());
        for (i, w) in self.header(inst_off, type_off, rec_off).into_iter().enumerate() {
            c.u32(i.saturating_mul(4), w);
        }
        for (i, s) in self.slots.iter().enumerate() {
            let at = (rec_off as usize).checked_add(i.saturating_mul(16))?;
            let (ids_off, tables_off) = (o.next(), o.next());
            if s.type_ids.len() != s.table_ids.len() {
                return None;
            }
            for (k, v) in [s.slot_span, s.type_ids.len() as u32, ids_off, tables_off].into_iter().enumerate() {
                c.u32(at.saturating_add(k.saturating_mul(4)), v);
            }
            for (j, (&t, &tab)) in s.type_ids.iter().zip(&s.table_ids).enumerate() {
                c.u16((ids_off as usize).saturating_add(j.saturating_mul(2)), t);
                c.u32((tables_off as usize).saturating_add(j.saturating_mul(4)), tab);
            }
        }
        for (i, t) in self.types.iter().enumerate() {
            let name_off = o.next();
            c.cstr(name_off as usize, t.name);
            c.put((type_off as usize).checked_add(i.saturating_mul(12))?, &Self::type_record(t, name_off));
        }
        for (i, t) in self.instances.iter().enumerate() {
            let name_off = o.next();
            c.cstr(name_off as usize, t.name);
            c.put((inst_off as usize).checked_add(i.saturating_mul(16))?, &Self::instance_record(t, name_off));
        }
        if !o.done() {
            return None;
        }
        c.finish(&raw.gaps)
    }

    fn fresh_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        let header = w.reserve(HEADER);
        let rec_off = w.pos();
        let recs = w.reserve(self.slots.len().saturating_mul(16));
        let type_off = w.pos();
        let types = w.reserve(self.types.len().saturating_mul(12));
        let inst_off = w.pos();
        let insts = w.reserve(self.instances.len().saturating_mul(16));
        for (i, s) in self.slots.iter().enumerate() {
            let n = s.type_ids.len().min(s.table_ids.len());
            let ids_off = w.pos();
            s.type_ids.iter().take(n).for_each(|&t| w.u16(t));
            w.align4();
            let tables_off = w.pos();
            s.table_ids.iter().take(n).for_each(|&t| w.u32(t));
            let at = recs.saturating_add(i.saturating_mul(16));
            for (k, v) in [s.slot_span, n as u32, ids_off, tables_off].into_iter().enumerate() {
                w.set_u32(at.saturating_add(k.saturating_mul(4)), v);
            }
        }
        for (i, t) in self.types.iter().enumerate() {
            let name_off = w.pos();
            w.cstr(t.name);
            w.align4();
            let at = types.saturating_add(i.saturating_mul(12));
            write_at(&mut w.buf, at, &Self::type_record(t, name_off));
        }
        for (i, t) in self.instances.iter().enumerate() {
            let name_off = w.pos();
            w.cstr(t.name);
            w.align4();
            let at = insts.saturating_add(i.saturating_mul(16));
            write_at(&mut w.buf, at, &Self::instance_record(t, name_off));
        }
        for (i, v) in self.header(inst_off, type_off, rec_off).into_iter().enumerate() {
            w.set_u32(header.saturating_add(i.saturating_mul(4)), v);
        }
        w.buf
    }
}
