//! Input, output and patch-constant signatures: `ISGN`, `OSGN`, `PCSG` (24-byte
//! elements), `OSG5` (28 bytes, with a stream index) and `ISG1`, `OSG1`, `PSG1`
//! (Shader Model 5.1, 32 bytes, with stream and minimum precision).

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use crate::error::Result;
use crate::util::{code_enum, write_at, Bytes, Canvas, LayoutLog, Offsets, RawLayout, Writer};
use crate::FourCc;

code_enum! {
    /// The system value an element carries (`D3D_NAME`).
    pub enum SystemValue: u32 {
        /// No system value.
        Undefined = 0,
        /// `SV_Position`.
        Position = 1,
        /// `SV_ClipDistance`.
        ClipDistance = 2,
        /// `SV_CullDistance`.
        CullDistance = 3,
        /// `SV_RenderTargetArrayIndex`.
        RenderTargetArrayIndex = 4,
        /// `SV_ViewportArrayIndex`.
        ViewportArrayIndex = 5,
        /// `SV_VertexID`.
        VertexId = 6,
        /// `SV_PrimitiveID`.
        PrimitiveId = 7,
        /// `SV_InstanceID`.
        InstanceId = 8,
        /// `SV_IsFrontFace`.
        IsFrontFace = 9,
        /// `SV_SampleIndex`.
        SampleIndex = 10,
        /// Quad edge tessellation factor.
        FinalQuadEdgeTessFactor = 11,
        /// Quad inside tessellation factor.
        FinalQuadInsideTessFactor = 12,
        /// Triangle edge tessellation factor.
        FinalTriEdgeTessFactor = 13,
        /// Triangle inside tessellation factor.
        FinalTriInsideTessFactor = 14,
        /// Isoline detail factor.
        FinalLineDetailTessFactor = 15,
        /// Isoline density factor.
        FinalLineDensityTessFactor = 16,
        /// `SV_Barycentrics`.
        Barycentrics = 23,
        /// `SV_ShadingRate`.
        ShadingRate = 24,
        /// `SV_CullPrimitive`.
        CullPrimitive = 25,
        /// `SV_Target`.
        Target = 64,
        /// `SV_Depth`.
        Depth = 65,
        /// `SV_Coverage`.
        Coverage = 66,
        /// `SV_DepthGreaterEqual`.
        DepthGreaterEqual = 67,
        /// `SV_DepthLessEqual`.
        DepthLessEqual = 68,
        /// `SV_StencilRef`.
        StencilRef = 69,
        /// `SV_InnerCoverage`.
        InnerCoverage = 70,
    }
}

code_enum! {
    /// The component type of an element (`D3D_REGISTER_COMPONENT_TYPE`).
    pub enum ComponentType: u32 {
        /// Unknown.
        Unknown0 = 0,
        /// 32-bit unsigned integer.
        Uint32 = 1,
        /// 32-bit signed integer.
        Sint32 = 2,
        /// 32-bit float.
        Float32 = 3,
    }
}

code_enum! {
    /// The minimum precision of an element (`D3D_MIN_PRECISION`), SM5.1 signatures only.
    pub enum MinPrecision: u32 {
        /// Full precision.
        Default = 0,
        /// 16-bit float.
        Float16 = 1,
        /// 2.8 fixed point.
        Float2_8 = 2,
        /// Reserved.
        Reserved = 3,
        /// 16-bit signed integer.
        Sint16 = 4,
        /// 16-bit unsigned integer.
        Uint16 = 5,
        /// Any 16-bit type.
        Any16 = 0xf0,
        /// Any 10-bit type.
        Any10 = 0xf1,
    }
}

/// Which of the three record layouts a signature chunk uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignatureFormat {
    /// 24-byte elements (`ISGN`, `OSGN`, `PCSG`).
    Basic,
    /// 28-byte elements with a leading stream index (`OSG5`).
    Stream,
    /// 32-byte elements with stream and minimum precision (`ISG1`, `OSG1`, `PSG1`).
    Sm51,
}

impl SignatureFormat {
    /// Bytes per element.
    pub fn element_size(self) -> usize {
        match self {
            SignatureFormat::Basic => 24,
            SignatureFormat::Stream => 28,
            SignatureFormat::Sm51 => 32,
        }
    }

    /// The format a FourCC implies, if it is a signature chunk.
    pub fn for_fourcc(fourcc: FourCc) -> Option<SignatureFormat> {
        match &fourcc.0 {
            b"ISGN" | b"OSGN" | b"PCSG" => Some(SignatureFormat::Basic),
            b"OSG5" => Some(SignatureFormat::Stream),
            b"ISG1" | b"OSG1" | b"PSG1" => Some(SignatureFormat::Sm51),
            _ => None,
        }
    }
}

/// One element (one semantic) of a signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureElement<'a> {
    /// Output stream (0 unless the format carries one).
    pub stream: u32,
    /// Semantic name as written in the shader (`TEXCOORD`, `SV_Position`).
    pub semantic_name: &'a str,
    /// Semantic index.
    pub semantic_index: u32,
    /// System value.
    pub system_value: SystemValue,
    /// Component type.
    pub component_type: ComponentType,
    /// Register number.
    pub register: u32,
    /// Components present (bit 0 = x).
    pub mask: u8,
    /// The read/write mask (`ReadWriteMask`): for inputs, the components the shader
    /// reads; for outputs, as the compiler recorded it.
    pub rw_mask: u8,
    /// Minimum precision (SM5.1 formats only; `Default` otherwise).
    pub min_precision: MinPrecision,
}

/// A decoded signature chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature<'a> {
    /// Record layout.
    pub format: SignatureFormat,
    /// Elements in chunk order.
    pub elements: Vec<SignatureElement<'a>>,
    /// The original layout when it differs from the one [`Signature::to_bytes`] would
    /// choose (header, elements, deduplicated names in order of first use, 0xAB
    /// padding); `None` for fxc-laid-out chunks and freshly built values.
    pub raw_layout: Option<RawLayout<'a>>,
}

impl<'a> Signature<'a> {
    /// Decodes a signature chunk's data in the given format, keeping its byte layout
    /// when it is not fxc's (so that [`Signature::to_bytes`] gives `data` back).
    pub fn parse(data: &'a [u8], format: SignatureFormat) -> Result<Signature<'a>> {
        Signature::parse_with(data, format, true)
    }

    /// Decodes the elements only, for a reader: the same checks and errors as
    /// [`Signature::parse`], without working out whether the bytes follow fxc's layout
    /// ([`Signature::raw_layout`] is `None`).
    pub fn parse_fields(data: &'a [u8], format: SignatureFormat) -> Result<Signature<'a>> {
        Signature::parse_with(data, format, false)
    }

    fn parse_with(data: &'a [u8], format: SignatureFormat, keep_layout: bool) -> Result<Signature<'a>> {
        let b = Bytes::new(data);
        let count = b.u32(0, "signature element count")?;
        let elem_off = b.u32(4, "signature element offset")?;
        let size = format.element_size();
        let start = b.array(4, elem_off, count, size, "signature elements")?;
        let mut log = LayoutLog::new(data.len(), keep_layout);
        log.mark(0, 8);
        log.offset(elem_off);
        let mut elements = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let at = start.saturating_add(i.saturating_mul(size));
            let (stream, base) = match format {
                SignatureFormat::Basic => (0, at),
                _ => (b.u32(at, "stream")?, at.saturating_add(4)),
            };
            let name_off = b.u32(base, "semantic name offset")?;
            let (name, name_len) = b.cstr(base, name_off)?;
            log.mark(name_off as usize, name_len);
            log.offset(name_off);
            let min_precision = match format {
                SignatureFormat::Sm51 => MinPrecision::from(b.u32(base.saturating_add(24), "min precision")?),
                _ => MinPrecision::Default,
            };
            log.mark(at, base.saturating_add(22).saturating_sub(at));
            if format == SignatureFormat::Sm51 {
                log.mark(base.saturating_add(24), 4);
            }
            elements.push(SignatureElement {
                stream,
                semantic_name: name,
                semantic_index: b.u32(base.saturating_add(4), "semantic index")?,
                system_value: SystemValue::from(b.u32(base.saturating_add(8), "system value")?),
                component_type: ComponentType::from(b.u32(base.saturating_add(12), "component type")?),
                register: b.u32(base.saturating_add(16), "register")?,
                mask: b.u8(base.saturating_add(20), "mask")?,
                rw_mask: b.u8(base.saturating_add(21), "read/write mask")?,
                min_precision,
            });
        }
        let mut sig = Signature { format, elements, raw_layout: None };
        if keep_layout && sig.fresh_bytes() != data {
            sig.raw_layout = Some(log.into_layout(data));
        }
        Ok(sig)
    }

    /// Serialises the signature: in its original layout if it has one that still
    /// fits, else in fxc's layout.
    pub fn to_bytes(&self) -> Vec<u8> {
        if let Some(raw) = &self.raw_layout {
            if let Some(bytes) = self.raw_bytes(raw) {
                return bytes;
            }
        }
        self.fresh_bytes()
    }

    fn write_element(&self, e: &SignatureElement<'_>, name_off: u32, put: &mut dyn FnMut(usize, u32, usize)) {
        // `put(relative offset, value, width in bytes)`.
        let mut base = 0;
        if self.format != SignatureFormat::Basic {
            put(0, e.stream, 4);
            base = 4;
        }
        put(base, name_off, 4);
        put(base.saturating_add(4), e.semantic_index, 4);
        put(base.saturating_add(8), e.system_value.into(), 4);
        put(base.saturating_add(12), e.component_type.into(), 4);
        put(base.saturating_add(16), e.register, 4);
        put(base.saturating_add(20), e.mask as u32, 1);
        put(base.saturating_add(21), e.rw_mask as u32, 1);
        if self.format == SignatureFormat::Sm51 {
            put(base.saturating_add(24), e.min_precision.into(), 4);
        }
    }

    fn raw_bytes(&self, raw: &RawLayout<'_>) -> Option<Vec<u8>> {
        let mut c = Canvas::new(raw.size);
        let mut offs = Offsets::new(&raw.offsets);
        let elem_off = offs.next() as usize;
        c.u32(0, self.elements.len() as u32);
        c.u32(4, elem_off as u32);
        let size = self.format.element_size();
        for (i, e) in self.elements.iter().enumerate() {
            let name_off = offs.next();
            c.cstr(name_off as usize, e.semantic_name);
            let at = elem_off.checked_add(i.checked_mul(size)?)?;
            self.write_element(e, name_off, &mut |rel, v, w| match w {
                1 => c.put(at.saturating_add(rel), &[v as u8]),
                _ => c.u32(at.saturating_add(rel), v),
            });
        }
        if !offs.done() {
            return None;
        }
        c.finish(&raw.gaps)
    }

    fn fresh_bytes(&self) -> Vec<u8> {
        let size = self.format.element_size();
        let mut w = Writer::default();
        w.u32(self.elements.len() as u32);
        w.u32(8);
        let table = w.reserve(self.elements.len().saturating_mul(size));
        let mut names: Vec<(&str, u32)> = Vec::new();
        let mut name_offs = Vec::with_capacity(self.elements.len());
        for e in &self.elements {
            let off = match names.iter().find(|(n, _)| *n == e.semantic_name) {
                Some(&(_, off)) => off,
                None => {
                    let off = w.pos();
                    w.cstr(e.semantic_name);
                    names.push((e.semantic_name, off));
                    off
                }
            };
            name_offs.push(off);
        }
        w.align4();
        let mut buf = w.buf;
        for (i, (e, &name_off)) in self.elements.iter().zip(&name_offs).enumerate() {
            let at = table.saturating_add(i.saturating_mul(size));
            self.write_element(e, name_off, &mut |rel, v, width| {
                write_at(&mut buf, at.saturating_add(rel), v.to_le_bytes().get(..width).unwrap_or_default());
            });
        }
        buf
    }

    /// The first element with this semantic name (case-insensitive) and index.
    pub fn find(&self, name: &str, index: u32) -> Option<&SignatureElement<'a>> {
        self.elements.iter().find(|e| e.semantic_name.eq_ignore_ascii_case(name) && e.semantic_index == index)
    }
}
