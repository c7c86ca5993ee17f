//! Stream-output declarations: the `D3D11_SO_DECLARATION_ENTRY` entries, buffer
//! strides and rasterized stream of `CreateGeometryShaderWithStreamOutput`, the API's
//! limits on them, and a text form. The validator (`validate`, which checks a
//! declaration against a shader's output signature) and the reference pipeline
//! (`exec`, which writes the buffers a declaration describes) both build on these
//! types; neither depends on the other for them.
//!
//! ```
//! use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
//! use dxbc::{Builder, FourCc, Signature, SignatureElement, SignatureFormat};
//! use streamout::{SoEntry, StreamOutputDesc, NO_RASTERIZED_STREAM};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // The `--so` text form: the entries, no strides, rasterized stream 0.
//!     let mut desc: StreamOutputDesc = "SV_Position.xyzw; $SKIP.x; 1:TEXCOORD1".parse()?;
//!     let gap = SoEntry {
//!         stream: 0,
//!         semantic_name: None,
//!         semantic_index: 0,
//!         start_component: 0,
//!         component_count: 1,
//!         output_slot: 0,
//!     };
//!     assert_eq!(desc.entries[1], gap);
//!
//!     // `TEXCOORD1` has no mask: its width comes from the shader's output signature,
//!     // here an `OSGN` chunk in a container built for the example.
//!     let element = |name, system_value, register, mask| SignatureElement {
//!         stream: 0,
//!         semantic_name: name,
//!         semantic_index: if name == "TEXCOORD" { 1 } else { 0 },
//!         system_value,
//!         component_type: ComponentType::Float32,
//!         register,
//!         mask,
//!         rw_mask: mask,
//!         min_precision: MinPrecision::Default,
//!     };
//!     let osgn = Signature {
//!         format: SignatureFormat::Basic,
//!         elements: vec![
//!             element("SV_Position", SystemValue::Position, 0, 0b1111),
//!             element("TEXCOORD", SystemValue::Undefined, 1, 0b0011),
//!         ],
//!         raw_layout: None,
//!     };
//!     let shader = Builder::new().chunk(FourCc::OSGN, osgn.to_bytes()).build()?;
//!     let unresolved = desc.resolve_masks_in(&shader);
//!     assert!(unresolved.is_empty());
//!     assert_eq!((desc.entries[2].start_component, desc.entries[2].component_count), (0, 2));
//!
//!     // Strides and the rasterized stream are arguments of their own.
//!     desc.strides = vec![20, 8];
//!     desc.rasterized_stream = NO_RASTERIZED_STREAM;
//!
//!     // Errors name the column.
//!     let error = "POSITION.xz".parse::<StreamOutputDesc>().unwrap_err();
//!     assert_eq!(error.column, 10);
//!     assert!(error.to_string().starts_with("column 10: mask `.xz` is not a contiguous run"));
//!     Ok(())
//! }
//! ```
//!
//! # The declaration syntax (`--so DECL`)
//!
//! `DECL` is a list of entries separated by `;` (a trailing `;` is allowed; the empty
//! string is a declaration without entries). Whitespace may surround every token.
//! One entry is
//!
//! ```text
//! [s<STREAM>:][<SLOT>:]<SEMANTIC>[<INDEX>][.<MASK>]
//! [s<STREAM>:][<SLOT>:]$SKIP.<MASK>      (a gap)
//! [s<STREAM>:][<SLOT>:]$SKIP.<COUNT>     (a gap of COUNT components)
//! ```
//!
//! - `s<STREAM>:` — the stream (`Stream`), default 0: `s1:TEXCOORD0`.
//! - `<SLOT>:` — the output slot, the stream-output buffer (`OutputSlot`), default 0,
//!   as in Effects 11's `"0:SV_POSITION.xyzw"`. When both prefixes are given the
//!   stream comes first: `s1:2:COLOR.xyz`.
//! - `<SEMANTIC>[<INDEX>]` — the output element: trailing decimal digits are the
//!   semantic index (`TEXCOORD1` is `TEXCOORD`, index 1; no digits is index 0). Names
//!   match the output signature case-insensitively.
//! - `.<MASK>` — the components written, contiguous and in order, from `xyzw` or
//!   `rgba` (either case): `.yz` is `StartComponent` 1, `ComponentCount` 2. Like
//!   `StartComponent`, the letters count from the element's first component, not the
//!   register's: for `TEXCOORD1` declared in `o1.zw`, `TEXCOORD1.x` is its first
//!   component (the register's `z`) and `TEXCOORD1.xy` all of it. Without a mask the entry
//!   takes the element's components: it is stored with `ComponentCount` 0 until
//!   [`StreamOutputDesc::resolve_masks`] (or [`StreamOutputDesc::resolve_masks_in`])
//!   looks the element up in the output signature; an entry left unresolved is
//!   refused by the validator's checks (`validate`, V605).
//! - `$SKIP` — a gap (`SemanticName` NULL): nothing is written, the buffer position
//!   advances. A gap needs its size: a mask starting at `x` (`.x`, `.xy`, `.xyz`,
//!   `.xyzw`) or a component count (`$SKIP.8`), which may exceed 4.
//!
//! Example: `SV_Position.xyzw; $SKIP.x; 1:TEXCOORD1.xy; s1:2:NORMAL.xyz`.
//!
//! The strides and the rasterized stream are separate arguments of the call (the
//! CLI's `--so-strides` and `--so-rasterized`); parsing a `DECL` gives no strides
//! and rasterized stream 0.

#![warn(missing_docs)]
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)]

use dxbc::{Container, FourCc, Signature, SignatureElement, SignatureFormat};
use serde::{Deserialize, Serialize};

/// `D3D11_SO_NO_RASTERIZED_STREAM`.
pub const NO_RASTERIZED_STREAM: u32 = 0xffff_ffff;
/// `D3D11_SO_STREAM_COUNT`.
pub const STREAM_COUNT: u32 = 4;
/// `D3D11_SO_BUFFER_SLOT_COUNT`.
pub const BUFFER_SLOT_COUNT: u32 = 4;
/// `D3D11_SO_OUTPUT_COMPONENT_COUNT`: components (gaps included) per stream.
pub const OUTPUT_COMPONENT_COUNT: u32 = 128;
/// `D3D10_SO_SINGLE_BUFFER_COMPONENT_LIMIT` (and `D3D10_1_...`): the component limit
/// of feature levels 10_0 and 10_1.
pub const OUTPUT_COMPONENT_COUNT_10: u32 = 64;
/// `D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES`.
pub const BUFFER_MAX_STRIDE_IN_BYTES: u32 = 2048;
/// The most entries a declaration can have: `D3D11_SO_STREAM_COUNT *
/// D3D11_SO_OUTPUT_COMPONENT_COUNT`.
pub const MAX_ENTRIES: usize = (STREAM_COUNT * OUTPUT_COMPONENT_COUNT) as usize;

/// `D3D10_SO_SINGLE_BUFFER_COMPONENT_LIMIT`... and the Direct3D 10 page's `NumEntries`:
/// "Minimum 0, maximum 64".
pub const MAX_ENTRIES_10: usize = 64;

/// One `D3D11_SO_DECLARATION_ENTRY` (a `D3D10_SO_DECLARATION_ENTRY` is the same
/// without `Stream`, which is then 0). In JSON (`--so-json`) the fields are
/// `stream`, `semantic_name` (a string, or `null` for a gap; required),
/// `semantic_index`, `start_component`, `component_count` (required) and
/// `output_slot`, or their `D3D11_SO_DECLARATION_ENTRY` names (`Stream`,
/// `SemanticName`, ...); the others default to 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoEntry {
    /// `Stream`: the geometry shader's output stream the entry reads, 0 to
    /// [`STREAM_COUNT`]` - 1`.
    #[serde(default, alias = "Stream")]
    pub stream: u32,
    /// `SemanticName`: the output element's semantic, matched case-insensitively
    /// against the output signature; `None` (NULL) is a gap of `component_count`
    /// components, which advances the buffer position without writing.
    #[serde(alias = "SemanticName", deserialize_with = "required_option")]
    pub semantic_name: Option<String>,
    /// `SemanticIndex`: the element's semantic index (`TEXCOORD1` is 1).
    #[serde(default, alias = "SemanticIndex")]
    pub semantic_index: u32,
    /// `StartComponent`: the first component written, 0 to 3, counted from the
    /// element's first component (not the register's).
    #[serde(default, alias = "StartComponent")]
    pub start_component: u8,
    /// `ComponentCount`: the number of components written, 1 to 4 for an element; a
    /// gap may be longer. 0 marks an entry of the text form written without a mask,
    /// until [`StreamOutputDesc::resolve_masks`] fills it in.
    #[serde(alias = "ComponentCount")]
    pub component_count: u8,
    /// `OutputSlot`: the stream-output buffer written, 0 to [`BUFFER_SLOT_COUNT`]` - 1`.
    #[serde(default, alias = "OutputSlot")]
    pub output_slot: u8,
}

/// An `Option` field that must be present (`null` for `None`).
fn required_option<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d)
}

/// The stream-output arguments of `CreateGeometryShaderWithStreamOutput`, as arrays:
/// `pSODeclaration` points to `entries` (`NumEntries` is their number) or is NULL when
/// there are none; `pBufferStrides` likewise. The validator's `validate::SoArguments`
/// says anything else a program can pass (a pointer with zero entries, NULL with a
/// count).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOutputDesc {
    /// `pSODeclaration` (`NumEntries` of them), in declaration order: within each
    /// output slot, the order in which components are written to the buffer.
    pub entries: Vec<SoEntry>,
    /// `pBufferStrides` (`NumStrides` of them): bytes per vertex of each output slot's
    /// buffer, at most [`BUFFER_MAX_STRIDE_IN_BYTES`].
    pub strides: Vec<u32>,
    /// 0..3, or [`NO_RASTERIZED_STREAM`].
    pub rasterized_stream: u32,
}

/// An element's first component (0 = x) and its number of components, from its first
/// to its last (elements are contiguous runs of a register: `.zw` is 2, 2).
pub fn element_span(mask: u8) -> (u32, u32) {
    let mask = u32::from(mask) & 0xf;
    if mask == 0 {
        return (0, 0);
    }
    let first = mask.trailing_zeros();
    let last = 31u32.saturating_sub(mask.leading_zeros());
    (first, last.saturating_sub(first).saturating_add(1))
}

// ---------------------------------------------------------------------------------
// Masks left out of the text form
// ---------------------------------------------------------------------------------

impl StreamOutputDesc {
    /// Gives every entry with a semantic and `ComponentCount` 0 (what the text form
    /// stores for an entry written without a mask) the components of its element in
    /// `outputs` (same stream, semantic name compared case-insensitively, same index):
    /// all of them, `StartComponent` 0 (which is the element's first component, where
    /// the register's may be later) and `ComponentCount` the element's width. Returns the indices of the
    /// entries left unresolved (no such element), which the checks then refuse.
    pub fn resolve_masks(&mut self, outputs: &[SignatureElement<'_>]) -> Vec<usize> {
        self.resolve_with(|stream, name, index| {
            outputs
                .iter()
                .find(|el| {
                    el.stream == stream && el.semantic_index == index && el.semantic_name.eq_ignore_ascii_case(name)
                })
                .map(|el| el.mask)
        })
    }

    /// [`resolve_masks`](Self::resolve_masks) against the output signature (`OSGN`,
    /// `OSG5` or `OSG1`) of the container in `bytecode`. When there is none, or it
    /// cannot be read, every entry without a mask is returned unresolved.
    pub fn resolve_masks_in(&mut self, bytecode: &[u8]) -> Vec<usize> {
        let container = Container::parse(bytecode).ok();
        let signature = container.as_ref().and_then(|c| {
            let chunk = c.chunk_any(&[FourCc::OSGN, FourCc::OSG5, FourCc::OSG1])?;
            Signature::parse(chunk.data, SignatureFormat::for_fourcc(chunk.fourcc)?).ok()
        });
        let elements = signature.as_ref().map_or(&[][..], |s| s.elements.as_slice());
        self.resolve_masks(elements)
    }

    fn resolve_with(&mut self, mask_of: impl Fn(u32, &str, u32) -> Option<u8>) -> Vec<usize> {
        let mut unresolved = Vec::new();
        for (i, e) in self.entries.iter_mut().enumerate() {
            let Some(name) = &e.semantic_name else { continue };
            if e.component_count != 0 {
                continue;
            }
            let mask = mask_of(e.stream, name, e.semantic_index).unwrap_or(0) & 0xf;
            if mask == 0 {
                unresolved.push(i);
                continue;
            }
            // StartComponent counts from the element's first component.
            let (_, width) = element_span(mask);
            e.start_component = 0;
            e.component_count = width as u8;
        }
        unresolved
    }
}

// ---------------------------------------------------------------------------------
// The text form
// ---------------------------------------------------------------------------------

/// A declaration that cannot be read: where (1-based character column of the whole
/// text) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoParseError {
    /// The 1-based column, in characters of the whole declaration text.
    pub column: usize,
    /// What is wrong there.
    pub kind: SoParseErrorKind,
}

/// What is wrong with a declaration's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SoParseErrorKind {
    /// Nothing between two `;` (or before the first).
    EmptyEntry,
    /// A `PREFIX:` that is neither `s<N>` nor `<N>`.
    BadPrefix(String),
    /// A stream number that does not fit 32 bits.
    StreamTooLarge(String),
    /// An output slot that does not fit `OutputSlot` (a byte).
    SlotTooLarge(String),
    /// The stream prefix after the slot prefix.
    PrefixOrder,
    /// A second stream (`"stream"`) or slot (`"slot"`) prefix.
    DuplicatePrefix(&'static str),
    /// No semantic (or `$SKIP`) after the prefixes.
    MissingSemantic,
    /// A semantic name that is not `[A-Za-z_][A-Za-z0-9_]*`.
    BadSemantic(String),
    /// A semantic index that does not fit 32 bits.
    IndexTooLarge(String),
    /// A `.` with no mask after it.
    MissingMask,
    /// A mask letter outside `xyzw` / `rgba`.
    BadComponent(char),
    /// A mask mixing `xyzw` and `rgba`.
    MixedComponentSets(String),
    /// A mask whose components are not contiguous and in order (`.xz`, `.yx`).
    MaskNotContiguous(String),
    /// `$SKIP` without a mask or count.
    GapNeedsMask,
    /// A gap mask not starting at `x` (`$SKIP.yz`).
    GapMaskStart(String),
    /// A gap count that is 0 or does not fit `ComponentCount` (a byte).
    GapCount(String),
    /// Anything else where it does not belong.
    Unexpected(char),
}

impl std::fmt::Display for SoParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use SoParseErrorKind as K;
        write!(f, "column {}: ", self.column)?;
        match &self.kind {
            K::EmptyEntry => f.write_str("empty entry (entries are separated by `;`)"),
            K::BadPrefix(p) => {
                write!(f, "`{p}:` is not a stream prefix (`s0:`..`s3:`) or an output-slot prefix (`0:`..`3:`)")
            }
            K::StreamTooLarge(p) => write!(f, "stream `{p}` does not fit 32 bits"),
            K::SlotTooLarge(p) => write!(f, "output slot `{p}` does not fit OutputSlot (0..255; valid slots are 0..3)"),
            K::PrefixOrder => f.write_str("the stream prefix `s<N>:` comes before the output-slot prefix `<N>:`"),
            K::DuplicatePrefix(what) => write!(f, "a second {what} prefix"),
            K::MissingSemantic => f.write_str("expected a semantic (`TEXCOORD1`) or `$SKIP`"),
            K::BadSemantic(s) => write!(f, "`{s}` is not a semantic name (a letter or `_`, then letters, digits, `_`)"),
            K::IndexTooLarge(s) => write!(f, "semantic index `{s}` does not fit 32 bits"),
            K::MissingMask => f.write_str("expected a component mask after `.` (`.xyzw`, `.rg`)"),
            K::BadComponent(c) => write!(f, "`{c}` is not a component (use `xyzw` or `rgba`)"),
            K::MixedComponentSets(m) => write!(f, "mask `.{m}` mixes `xyzw` and `rgba`"),
            K::MaskNotContiguous(m) => {
                write!(f, "mask `.{m}` is not a contiguous run of components in order (use one entry per run)")
            }
            K::GapNeedsMask => f.write_str("`$SKIP` needs a size: a mask from `x` (`$SKIP.xy`) or a count (`$SKIP.8`)"),
            K::GapMaskStart(m) => {
                write!(f, "gap mask `.{m}` does not start at `x` (a gap is `.x`, `.xy`, `.xyz` or `.xyzw`, or a count)")
            }
            K::GapCount(c) => write!(f, "gap size `{c}` is not 1..255"),
            K::Unexpected(c) => write!(f, "unexpected `{c}`"),
        }
    }
}

impl std::error::Error for SoParseError {}

/// A cursor over one entry's text, with columns counted in characters of the whole
/// declaration.
struct Cursor<'s> {
    text: &'s str,
    /// Byte position in `text`.
    pos: usize,
}

impl<'s> Cursor<'s> {
    fn column(&self, pos: usize) -> usize {
        column_of(self.text, pos)
    }
    fn peek(&self) -> Option<char> {
        self.text.get(self.pos..).and_then(|rest| rest.chars().next())
    }
    /// Moves past `c`, the character at the position (`peek`).
    fn bump(&mut self, c: char) {
        self.pos = self.pos.saturating_add(c.len_utf8());
    }
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            self.bump(c);
        }
    }
    /// A run of `[A-Za-z0-9_$]`.
    fn word(&mut self) -> (usize, &'s str) {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !(c.is_ascii_alphanumeric() || c == '_' || c == '$') {
                break;
            }
            self.bump(c);
        }
        (start, self.text.get(start..self.pos).unwrap_or(""))
    }
    fn error(&self, pos: usize, kind: SoParseErrorKind) -> SoParseError {
        SoParseError { column: self.column(pos), kind }
    }
}

/// The 1-based column (in characters) of byte `pos` of `text`.
fn column_of(text: &str, pos: usize) -> usize {
    text.get(..pos).unwrap_or(text).chars().count().saturating_add(1)
}

fn is_gap(word: &str) -> bool {
    word.eq_ignore_ascii_case("$SKIP")
}

/// Parses one entry of `text` spanning bytes `start..end`.
fn parse_entry(text: &str, start: usize, end: usize) -> Result<SoEntry, SoParseError> {
    use SoParseErrorKind as K;
    let mut cur = Cursor { text: text.get(..end).unwrap_or(text), pos: start };
    let mut stream: Option<u32> = None;
    let mut slot: Option<u8> = None;
    cur.skip_ws();
    // Prefixes, then the semantic.
    let (word_at, word) = loop {
        let (at, word) = cur.word();
        if word.is_empty() {
            return Err(match cur.peek() {
                None => cur.error(at, K::MissingSemantic),
                Some(c) => cur.error(at, K::Unexpected(c)),
            });
        }
        cur.skip_ws();
        if cur.peek() != Some(':') {
            break (at, word);
        }
        cur.bump(':');
        cur.skip_ws();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if let Some(number) = word.strip_prefix(['s', 'S']).filter(|n| digits(n)) {
            if stream.is_some() {
                return Err(cur.error(at, K::DuplicatePrefix("stream")));
            }
            if slot.is_some() {
                return Err(cur.error(at, K::PrefixOrder));
            }
            stream = Some(number.parse().map_err(|_| cur.error(at, K::StreamTooLarge(word.to_string())))?);
        } else if digits(word) {
            if slot.is_some() {
                return Err(cur.error(at, K::DuplicatePrefix("slot")));
            }
            slot = Some(word.parse().map_err(|_| cur.error(at, K::SlotTooLarge(word.to_string())))?);
        } else {
            return Err(cur.error(at, K::BadPrefix(word.to_string())));
        }
    };

    let gap = is_gap(word);
    let (name, index) = if gap {
        (None, 0)
    } else {
        let mut chars = word.chars();
        let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if !first_ok || word.contains('$') {
            return Err(cur.error(word_at, K::BadSemantic(word.to_string())));
        }
        let name = word.trim_end_matches(|c: char| c.is_ascii_digit());
        let digits = word.get(name.len()..).unwrap_or("");
        let index = if digits.is_empty() {
            0
        } else {
            digits
                .parse::<u32>()
                .map_err(|_| cur.error(word_at.saturating_add(name.len()), K::IndexTooLarge(digits.to_string())))?
        };
        (Some(name.to_string()), index)
    };

    // The mask.
    let mut start_component = 0u8;
    let mut component_count = 0u8;
    if cur.peek() == Some('.') {
        cur.bump('.');
        cur.skip_ws();
        let mask_at = cur.pos;
        let mut mask = String::new();
        while let Some(c) = cur.peek() {
            if !c.is_ascii_alphanumeric() {
                break;
            }
            mask.push(c);
            cur.bump(c);
        }
        if mask.is_empty() {
            return Err(match cur.peek() {
                Some(c) if !c.is_whitespace() => cur.error(mask_at, K::Unexpected(c)),
                _ => cur.error(mask_at, K::MissingMask),
            });
        }
        if gap && mask.bytes().all(|b| b.is_ascii_digit()) {
            component_count = match mask.parse::<u8>() {
                Ok(n) if n > 0 => n,
                _ => return Err(cur.error(mask_at, K::GapCount(mask))),
            };
        } else {
            let mut set: Option<&str> = None;
            let mut positions = Vec::new();
            for (k, c) in mask.char_indices() {
                let lower = c.to_ascii_lowercase();
                let (this_set, p) = match ("xyzw".find(lower), "rgba".find(lower)) {
                    (Some(p), _) => ("xyzw", p),
                    (None, Some(p)) => ("rgba", p),
                    (None, None) => return Err(cur.error(mask_at.saturating_add(k), K::BadComponent(c))),
                };
                if *set.get_or_insert(this_set) != this_set {
                    return Err(cur.error(mask_at, K::MixedComponentSets(mask)));
                }
                positions.push(p);
            }
            let contiguous = positions.windows(2).all(|w| matches!(w, [a, b] if *b == a.saturating_add(1)));
            if !contiguous {
                return Err(cur.error(mask_at, K::MaskNotContiguous(mask)));
            }
            // Each position is 0..3 (one of four letters) and a contiguous run of them
            // has at most four.
            start_component = positions.first().map_or(0, |&p| p as u8);
            component_count = positions.len() as u8;
            if gap && start_component != 0 {
                return Err(cur.error(mask_at, K::GapMaskStart(mask)));
            }
        }
        cur.skip_ws();
    } else if gap {
        return Err(cur.error(word_at, K::GapNeedsMask));
    }
    if let Some(c) = cur.peek() {
        return Err(cur.error(cur.pos, K::Unexpected(c)));
    }
    Ok(SoEntry {
        stream: stream.unwrap_or(0),
        semantic_name: name,
        semantic_index: index,
        start_component,
        component_count,
        output_slot: slot.unwrap_or(0),
    })
}

/// Parses the entries of a declaration in the text form (see the module
/// documentation). Entries without a mask have `ComponentCount` 0: resolve them with
/// [`StreamOutputDesc::resolve_masks`].
pub fn parse_entries(text: &str) -> Result<Vec<SoEntry>, SoParseError> {
    let mut entries = Vec::new();
    if text.trim().is_empty() {
        return Ok(entries);
    }
    let pieces: Vec<(usize, usize)> = {
        let mut v = Vec::new();
        let mut start = 0;
        for (i, _) in text.match_indices(';') {
            v.push((start, i));
            start = i.saturating_add(1);
        }
        v.push((start, text.len()));
        v
    };
    let last = pieces.len().saturating_sub(1);
    for (k, &(start, end)) in pieces.iter().enumerate() {
        if text.get(start..end).unwrap_or("").trim().is_empty() {
            if k == last && k > 0 {
                break; // a trailing `;`
            }
            // Point at the `;` that ends the empty entry (or at its start).
            let at = if end < text.len() { end } else { start };
            return Err(SoParseError { column: column_of(text, at), kind: SoParseErrorKind::EmptyEntry });
        }
        entries.push(parse_entry(text, start, end)?);
    }
    Ok(entries)
}

impl std::str::FromStr for StreamOutputDesc {
    type Err = SoParseError;

    /// The `--so DECL` text form (see the module documentation): the entries; no
    /// strides, rasterized stream 0.
    fn from_str(s: &str) -> Result<StreamOutputDesc, SoParseError> {
        Ok(StreamOutputDesc { entries: parse_entries(s)?, strides: Vec::new(), rasterized_stream: 0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_form_reads_prefixes_semantics_masks_and_gaps() {
        let entries = parse_entries("SV_Position.xyzw; $SKIP.3; s1:2:TEXCOORD1.yz;").unwrap();
        let gap = SoEntry {
            stream: 0,
            semantic_name: None,
            semantic_index: 0,
            start_component: 0,
            component_count: 3,
            output_slot: 0,
        };
        let texcoord = SoEntry {
            stream: 1,
            semantic_name: Some("TEXCOORD".into()),
            semantic_index: 1,
            start_component: 1,
            component_count: 2,
            output_slot: 2,
        };
        assert_eq!(entries.len(), 3);
        assert_eq!(entries.get(1), Some(&gap));
        assert_eq!(entries.get(2), Some(&texcoord));
        assert_eq!(parse_entries("  "), Ok(Vec::new()));
    }

    #[test]
    fn errors_name_the_character_column() {
        let e = parse_entries("é:POSITION").unwrap_err();
        assert_eq!(e.column, 1);
        let e = parse_entries("POSITION.xz").unwrap_err();
        assert_eq!((e.column, e.kind), (10, SoParseErrorKind::MaskNotContiguous("xz".into())));
        let e = parse_entries("A;;B").unwrap_err();
        assert_eq!((e.column, e.kind), (3, SoParseErrorKind::EmptyEntry));
    }

    #[test]
    fn element_spans_run_from_the_first_to_the_last_component() {
        assert_eq!(element_span(0b1100), (2, 2));
        assert_eq!(element_span(0b0101), (0, 3));
        assert_eq!(element_span(0), (0, 0));
    }
}
