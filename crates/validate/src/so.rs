//! Stream-output declarations (`CreateGeometryShaderWithStreamOutput`): the entries,
//! buffer strides and rasterized stream, checked against the shader's output
//! signature and the limits of the API.
//!
//! The declaration types, the API's limits and the text form (`--so DECL`) are the
//! `streamout` crate's, re-exported here.
//!
//! # The rules
//!
//! From the API reference (`ID3D11Device::CreateGeometryShaderWithStreamOutput`,
//! `D3D11_SO_DECLARATION_ENTRY`), the functional spec (13.5, 14) and the `d3d11.h` /
//! `d3d10_1.h` constants; see [`check`] for the list.
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::string_slice)]

use crate::codes::Code;
use crate::diag::{Diagnostic, Location};
use crate::program::ProgramFacts;
use crate::target::{stage_name, Api, FeatureLevel};
use dxbc::SignatureElement;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tpf::ProgramType;

pub use streamout::{
    element_span, parse_entries, SoEntry, SoParseError, SoParseErrorKind, StreamOutputDesc, BUFFER_MAX_STRIDE_IN_BYTES,
    BUFFER_SLOT_COUNT, MAX_ENTRIES, MAX_ENTRIES_10, NO_RASTERIZED_STREAM, OUTPUT_COMPONENT_COUNT,
    OUTPUT_COMPONENT_COUNT_10, STREAM_COUNT,
};

/// The stream-output arguments exactly as a program passes them: the raw fields of
/// `ID3D11Device::CreateGeometryShaderWithStreamOutput` (`pSODeclaration`,
/// `NumEntries`, `pBufferStrides`, `NumStrides`, `RasterizedStream`) or of
/// `ID3D10Device::CreateGeometryShaderWithStreamOutput` (`pSODeclaration`,
/// `NumEntries`, `OutputStreamStride`). The `--so-json` file:
///
/// ```json
/// { "declaration": [ { "stream": 0, "semantic_name": "SV_Position", "semantic_index": 0,
///                      "start_component": 0, "component_count": 4, "output_slot": 0 },
///                    { "semantic_name": null, "component_count": 2 } ],
///   "strides": [24], "rasterized_stream": 0 }
/// ```
///
/// `declaration` `null` (or left out) is a NULL `pSODeclaration`, `[]` a pointer to no
/// entries; `num_entries` defaults to the array's length (0 for NULL) and may be less
/// than it (the call reads that many). `strides` / `num_strides` likewise for
/// `pBufferStrides`; `rasterized_stream` defaults to 0 (`4294967295` is
/// `D3D11_SO_NO_RASTERIZED_STREAM`). For Direct3D 10, `output_stream_stride` replaces
/// `strides`, `num_strides` and `rasterized_stream`, and entries have no stream.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoArguments {
    /// `pSODeclaration`: `None` is NULL.
    #[serde(default, alias = "pSODeclaration")]
    pub declaration: Option<Vec<SoEntry>>,
    /// `NumEntries`; `None`: the array's length (0 for NULL).
    #[serde(default, alias = "NumEntries")]
    pub num_entries: Option<u32>,
    /// `pBufferStrides`: `None` is NULL.
    #[serde(default, alias = "pBufferStrides")]
    pub strides: Option<Vec<u32>>,
    /// `NumStrides`; `None`: the array's length (0 for NULL).
    #[serde(default, alias = "NumStrides")]
    pub num_strides: Option<u32>,
    /// `RasterizedStream`; `None`: 0.
    #[serde(default, alias = "RasterizedStream")]
    pub rasterized_stream: Option<u32>,
    /// Direct3D 10's `OutputStreamStride`.
    #[serde(default, alias = "OutputStreamStride")]
    pub output_stream_stride: Option<u32>,
}

impl SoArguments {
    /// The arguments `desc` stands for: NULL pointers for empty arrays.
    pub fn from_desc(desc: &StreamOutputDesc) -> SoArguments {
        SoArguments {
            declaration: (!desc.entries.is_empty()).then(|| desc.entries.clone()),
            num_entries: None,
            strides: (!desc.strides.is_empty()).then(|| desc.strides.clone()),
            num_strides: None,
            rasterized_stream: Some(desc.rasterized_stream),
            output_stream_stride: None,
        }
    }

    /// Fields the call of `api` does not have: Direct3D 10's has no streams, buffer
    /// stride array or rasterized stream; Direct3D 11's no `OutputStreamStride`.
    /// `Err` names the first such field.
    pub fn check_shape(&self, api: Api) -> Result<(), String> {
        let d3d10 = matches!(api, Api::D3D10 { .. });
        if d3d10 {
            for (field, given) in [
                ("strides", self.strides.is_some()),
                ("num_strides", self.num_strides.is_some()),
                ("rasterized_stream", self.rasterized_stream.is_some()),
            ] {
                if given {
                    return Err(format!(
                        "`{field}`: ID3D10Device::CreateGeometryShaderWithStreamOutput has no such argument (it takes one OutputStreamStride: `output_stream_stride`)"
                    ));
                }
            }
            if let Some((i, e)) = self.declaration.iter().flatten().enumerate().find(|(_, e)| e.stream != 0) {
                return Err(format!(
                    "entry {i}: stream {}: D3D10_SO_DECLARATION_ENTRY has no Stream (Direct3D 10 has stream 0 only)",
                    e.stream
                ));
            }
        } else if self.output_stream_stride.is_some() {
            return Err(
                "`output_stream_stride` is Direct3D 10's argument (--api d3d10); Direct3D 11 takes `strides`".into()
            );
        }
        Ok(())
    }

    /// What the call reads: the first `NumEntries` entries and `NumStrides` strides
    /// (none through a NULL pointer), and the diagnostics of the pointer rules —
    /// Microsoft's ID3D11Device::CreateGeometryShaderWithStreamOutput page:
    /// pSODeclaration "Cannot be NULL if NumEntries > 0" (V602); a pointer given with
    /// `NumEntries` 0 is refused too (V602); `pBufferStrides` NULL with `NumStrides` > 0
    /// (V609); a count beyond the array given is refused (the call would read past it).
    /// The bool is true when the entry count is already refused.
    pub fn read(&self) -> (StreamOutputDesc, Vec<Diagnostic>, bool) {
        let whole = Location::StreamOutput { entry: None };
        let mut out = Vec::new();
        let mut count_refused = false;
        let entries = match (&self.declaration, self.num_entries) {
            (None, None | Some(0)) => Vec::new(),
            (None, Some(n)) => {
                out.push(Diagnostic::new(
                    Code::SoEntryCount,
                    whole.clone(),
                    format!("pSODeclaration is NULL but NumEntries is {n} (it cannot be NULL if NumEntries > 0)"),
                ));
                count_refused = true;
                Vec::new()
            }
            (Some(v), n) => {
                let n = n.map_or(v.len(), |n| n as usize);
                if n == 0 {
                    out.push(Diagnostic::new(
                        Code::SoEntryCount,
                        whole.clone(),
                        "pSODeclaration points to a declaration but NumEntries is 0: a declaration has at least one entry (pass NULL to create a geometry shader without stream-output entries)",
                    ));
                    count_refused = true;
                } else if n > v.len() {
                    out.push(Diagnostic::new(
                        Code::SoEntryCount,
                        whole.clone(),
                        format!("NumEntries is {n} but pSODeclaration holds {} entries", v.len()),
                    ));
                    count_refused = true;
                }
                v.iter().take(n).cloned().collect()
            }
        };
        let strides = if let Some(stride) = self.output_stream_stride {
            // Direct3D 10: "only used when the output slot is 0 for all entries".
            if entries.iter().all(|e| e.output_slot == 0) {
                vec![stride]
            } else {
                Vec::new()
            }
        } else {
            match (&self.strides, self.num_strides) {
                (None, None | Some(0)) => Vec::new(),
                (None, Some(n)) => {
                    out.push(Diagnostic::new(
                        Code::SoStride,
                        whole.clone(),
                        format!("pBufferStrides is NULL but NumStrides is {n}"),
                    ));
                    Vec::new()
                }
                (Some(v), n) => {
                    let n = n.map_or(v.len(), |n| n as usize);
                    if n > v.len() {
                        out.push(Diagnostic::new(
                            Code::SoStride,
                            whole.clone(),
                            format!("NumStrides is {n} but pBufferStrides holds {} strides", v.len()),
                        ));
                    }
                    v.iter().take(n).copied().collect()
                }
            }
        };
        let desc = StreamOutputDesc { entries, strides, rasterized_stream: self.rasterized_stream.unwrap_or(0) };
        (desc, out, count_refused)
    }
}

/// What the checks know about the shader and the device.
pub struct SoContext<'a> {
    /// The shader's stage (vertex, domain or geometry for stream output).
    pub stage: ProgramType,
    /// The shader model, `(major, minor)`.
    pub model: (u8, u8),
    /// The API (and the device's feature level).
    pub api: Api,
    /// The output signature's elements (with their streams).
    pub outputs: &'a [SignatureElement<'a>],
    /// What the validator gathered from the program (declared streams and outputs).
    pub facts: &'a ProgramFacts,
    /// The entry count is already refused (by [`SoArguments::read`]'s pointer rules).
    pub entry_count_refused: bool,
    /// The bytecode is an output signature alone (no geometry shader): stream 0 only.
    pub signature_only: bool,
}

// ---------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------

/// `.xyzw`-style text for a component mask (bit 0 = x).
fn mask_text(mask: u32) -> String {
    let s: String = "xyzw".chars().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| c).collect();
    if s.is_empty() {
        "(none)".to_string()
    } else {
        format!(".{s}")
    }
}

/// Whether entry `i` passed the check whose per-entry results `flags` holds.
fn flag(flags: &[bool], i: usize) -> bool {
    flags.get(i).copied().unwrap_or(false)
}

/// Records that entry `i` passed the check whose per-entry results `flags` holds.
fn set(flags: &mut [bool], i: usize) {
    if let Some(f) = flags.get_mut(i) {
        *f = true;
    }
}

/// `TEXCOORD1`-style name of an entry's element (`SV_Position` for index 0).
fn element_text(name: &str, index: u32) -> String {
    if index == 0 {
        name.to_string()
    } else {
        format!("{name}{index}")
    }
}

/// The shader's name (`gs_5_0`).
fn shader_text(ctx: &SoContext<'_>) -> String {
    format!("{}_{}_{}", stage_name(ctx.stage), ctx.model.0, ctx.model.1)
}

/// The streams the shader has, as a bit set: a Shader Model 5 geometry shader's
/// `dcl_stream` declarations (or, when it declares none, stream 0); stream 0 for
/// everything else.
fn available_streams(ctx: &SoContext<'_>) -> u8 {
    if ctx.stage != ProgramType::Geometry || ctx.model.0 < 5 || ctx.signature_only {
        return 1;
    }
    let mut declared = ctx.facts.streams & 0xf;
    if declared == 0 {
        // No dcl_stream seen (or the program was not walked): the signature's streams.
        for e in ctx.outputs {
            if e.stream < STREAM_COUNT {
                declared |= 1 << e.stream;
            }
        }
    }
    if declared == 0 {
        1
    } else {
        declared
    }
}

fn stream_list(streams: u8) -> String {
    let v: Vec<String> = (0..4).filter(|s| streams & (1 << s) != 0).map(|s| s.to_string()).collect();
    v.join(", ")
}

/// Checks `desc` in `ctx`, appending a diagnostic per broken rule:
///
/// - V613: feature level 9_x has no stream output at all; at 10_0 and 10_1 entries
///   are on stream 0, at most one stride is given (Direct3D 10's single
///   `OutputStreamStride`), and either every entry goes to slot 0 or every slot has at
///   most one entry (`D3D10_SO_MULTIPLE_BUFFER_ELEMENTS_PER_BUFFER`);
/// - V602: at most 512 entries (`D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT`;
///   64 for Direct3D 10's call, whose page gives NumEntries "Minimum 0, maximum 64");
///   none is allowed only with a geometry shader (the call then just chooses the
///   rasterized stream);
/// - V603: an entry's stream is 0..3 and one the shader has: the streams a Shader
///   Model 5 geometry shader declares with `dcl_stream` (stream 0 when it declares
///   none), stream 0 for other shaders;
/// - V604: an output slot is 0..3;
/// - V605: a gap has `StartComponent` 0, `SemanticIndex` 0 and at least one component
///   (it may have more than 4 in Direct3D 11, not in Direct3D 10, whose
///   D3D10_SO_DECLARATION_ENTRY page gives ComponentCount 1..4 with no exception); a regular entry has 1..4 components from
///   `StartComponent` 0..3, within the 4 components of a register;
/// - V606: the semantic and index name an element of the output signature on the
///   entry's stream (names compare case-insensitively);
/// - V607: the components are the element's: `StartComponent` counts from the
///   element's first component (an element in `.zw` has components 0 and 1), so
///   `StartComponent + ComponentCount` is at most the element's width;
/// - V612: no component of an element (on one stream) is written twice;
/// - V608: an output slot receives entries from one stream only;
/// - V614: an output slot does not receive only gaps;
/// - V611: a stream's entries take at most 128 components per vertex, gaps included
///   (64 at feature levels 10_0 and 10_1);
/// - V609: at most 4 strides, each a multiple of 4 and at most 2048 bytes; when
///   strides are given, each used slot has one, at least the size of the slot's
///   entries (gaps included);
/// - V610: the rasterized stream is 0..3 or `D3D11_SO_NO_RASTERIZED_STREAM`, and 0 below
///   feature level 11_0.
pub fn check(desc: &StreamOutputDesc, ctx: &SoContext<'_>, out: &mut Vec<Diagnostic>) {
    let whole = Location::StreamOutput { entry: None };
    let at = |i: usize| Location::StreamOutput { entry: Some(i) };
    // Feature level 10_0 / 10_1 (the Direct3D 10 stream-output model).
    let level10 = ctx.api.level().filter(|l| *l < FeatureLevel::L11_0);
    if let Some(level) = ctx.api.level() {
        if level.is_9_x() {
            out.push(Diagnostic::new(
                Code::SoFeatureLevel,
                whole,
                format!("feature level {level} has no stream output (it needs feature level 10_0)"),
            ));
            return;
        }
    }

    // NumEntries.
    let n = desc.entries.len();
    if n > MAX_ENTRIES {
        out.push(Diagnostic::new(
            Code::SoEntryCount,
            whole.clone(),
            format!("{n} entries; at most {MAX_ENTRIES} (D3D11_SO_STREAM_COUNT x D3D11_SO_OUTPUT_COMPONENT_COUNT)"),
        ));
    }
    if let (Api::D3D10 { .. }, true) = (ctx.api, n > MAX_ENTRIES_10) {
        out.push(Diagnostic::new(
            Code::SoEntryCount,
            whole.clone(),
            format!(
                "{n} entries; ID3D10Device::CreateGeometryShaderWithStreamOutput takes at most {MAX_ENTRIES_10} (NumEntries: minimum 0, maximum 64)"
            ),
        ));
    }
    if n == 0 && ctx.stage != ProgramType::Geometry && !ctx.entry_count_refused {
        out.push(Diagnostic::new(
            Code::SoEntryCount,
            whole.clone(),
            format!(
                "no entries: with a {} shader the call creates nothing but stream output, so it needs at least one entry (only a geometry shader may be given without entries)",
                shader_text(ctx)
            ),
        ));
    }

    let streams = available_streams(ctx);
    // Per entry: is the stream usable, is the slot 0..3, is the component range valid.
    let mut stream_ok = vec![false; n];
    let mut slot_ok = vec![false; n];
    let mut range_ok = vec![false; n];
    for (i, e) in desc.entries.iter().enumerate() {
        // Stream.
        if e.stream >= STREAM_COUNT {
            out.push(Diagnostic::new(
                Code::SoStream,
                at(i),
                format!("stream {} is not 0..3 (D3D11_SO_STREAM_COUNT is 4)", e.stream),
            ));
        } else if let (true, Some(level)) = (e.stream != 0, level10) {
            out.push(Diagnostic::new(
                Code::SoFeatureLevel,
                at(i),
                format!("stream {}: feature level {level} has stream 0 only (several streams need 11_0)", e.stream),
            ));
        } else if streams & (1 << e.stream) == 0 {
            let why = if ctx.signature_only {
                "without a geometry shader (an output signature alone) stream output takes stream 0 only (functional spec 14.3: a \"NULL\" GS with a declaration for Stream 0 only)".to_string()
            } else if ctx.stage != ProgramType::Geometry || ctx.model.0 < 5 {
                format!(
                    "a {} shader has stream 0 only (several streams need a Shader Model 5 geometry shader that declares them with dcl_stream)",
                    shader_text(ctx)
                )
            } else {
                format!("the geometry shader declares stream(s) {} (dcl_stream)", stream_list(streams))
            };
            out.push(Diagnostic::new(Code::SoStream, at(i), format!("stream {} does not exist: {why}", e.stream)));
        } else {
            set(&mut stream_ok, i);
        }

        // Output slot.
        if u32::from(e.output_slot) >= BUFFER_SLOT_COUNT {
            out.push(Diagnostic::new(
                Code::SoOutputSlot,
                at(i),
                format!("output slot {} is not 0..3 (D3D11_SO_BUFFER_SLOT_COUNT is 4)", e.output_slot),
            ));
        } else {
            set(&mut slot_ok, i);
        }

        // Component range.
        let (start, count) = (u32::from(e.start_component), u32::from(e.component_count));
        match &e.semantic_name {
            None => {
                if count == 0 {
                    out.push(Diagnostic::new(
                        Code::SoComponents,
                        at(i),
                        "a gap of 0 components (ComponentCount must be at least 1)",
                    ));
                } else if let (Api::D3D10 { .. }, true) = (ctx.api, count > 4) {
                    out.push(Diagnostic::new(
                        Code::SoComponents,
                        at(i),
                        format!(
                            "a gap of {count} components: D3D10_SO_DECLARATION_ENTRY's ComponentCount is 1..4 (gaps longer than 4 components are Direct3D 11's; chain gaps of 4)"
                        ),
                    ));
                } else if start != 0 || e.semantic_index != 0 {
                    out.push(Diagnostic::new(
                        Code::SoComponents,
                        at(i),
                        format!(
                            "a gap (SemanticName NULL) has StartComponent {start} and SemanticIndex {}; both must be 0",
                            e.semantic_index
                        ),
                    ));
                } else {
                    set(&mut range_ok, i);
                }
            }
            Some(name) => {
                if count == 0 {
                    out.push(Diagnostic::new(
                        Code::SoComponents,
                        at(i),
                        format!(
                            "{}: ComponentCount is 0 (valid: 1..4; an entry written without a mask must be resolved against the output signature first)",
                            element_text(name, e.semantic_index)
                        ),
                    ));
                } else if count > 4 || start > 3 || start.saturating_add(count) > 4 {
                    out.push(Diagnostic::new(
                        Code::SoComponents,
                        at(i),
                        format!(
                            "{}: StartComponent {start} and ComponentCount {count} (valid: start 0..3, count 1..4, start + count at most 4)",
                            element_text(name, e.semantic_index)
                        ),
                    ));
                } else {
                    set(&mut range_ok, i);
                }
            }
        }

        // The element in the output signature.
        let Some(name) = &e.semantic_name else { continue };
        if !flag(&stream_ok, i) {
            continue;
        }
        let element = ctx.outputs.iter().find(|el| {
            el.stream == e.stream
                && el.semantic_index == e.semantic_index
                && el.semantic_name.eq_ignore_ascii_case(name)
        });
        let Some(element) = element else {
            let mut hint = String::new();
            let elsewhere: Vec<u32> = ctx
                .outputs
                .iter()
                .filter(|el| el.semantic_index == e.semantic_index && el.semantic_name.eq_ignore_ascii_case(name))
                .map(|el| el.stream)
                .collect();
            if let Some(s) = elsewhere.first() {
                hint = format!(" (it is an output of stream {s})");
            } else {
                let indices: Vec<String> = ctx
                    .outputs
                    .iter()
                    .filter(|el| el.stream == e.stream && el.semantic_name.eq_ignore_ascii_case(name))
                    .map(|el| el.semantic_index.to_string())
                    .collect();
                if !indices.is_empty() {
                    hint = format!(" (stream {} has {name} with index {})", e.stream, indices.join(", "));
                }
            }
            out.push(Diagnostic::new(
                Code::SoSemanticNotFound,
                at(i),
                format!(
                    "{} is not in the output signature on stream {}{hint}",
                    element_text(name, e.semantic_index),
                    e.stream
                ),
            ));
            continue;
        };
        if flag(&range_ok, i) {
            // StartComponent counts from the element's first component, not from the
            // register's x: an element packed in `.z` is written StartComponent 0,
            // ComponentCount 1 (the functional spec 14.3: the API uses "component counts
            // / offsets to identify data within elements", where the DDI has register
            // masks).
            let have = u32::from(element.mask) & 0xf;
            let (first, width) = element_span(element.mask);
            // count is 1..4 and start + first at most 6 here (range_ok).
            let wanted = ((1u32 << count).wrapping_sub(1)).wrapping_shl(start.saturating_add(first));
            let missing = wanted & !have;
            if start.saturating_add(count) > width || missing != 0 {
                let mut not_in = Vec::new();
                if missing & 0xf != 0 {
                    not_in.push(format!("the register's {}", mask_text(missing & 0xf)));
                }
                if missing >> 4 != 0 {
                    not_in.push("components past the register's w".to_string());
                }
                out.push(Diagnostic::new(
                    Code::SoComponentsNotOutput,
                    at(i),
                    format!(
                        "{} has {width} component{} (o{}{}); StartComponent {start} and ComponentCount {count} count from its first component and take {}, which the element does not output",
                        element_text(name, e.semantic_index),
                        if width == 1 { "" } else { "s" },
                        element.register,
                        mask_text(have),
                        not_in.join(" and "),
                    ),
                ));
            }
        }
    }

    // The same component of the same element (on one stream) twice.
    let mut written: HashMap<(u32, String, u32), [Option<usize>; 4]> = HashMap::new();
    for (i, e) in desc.entries.iter().enumerate() {
        let Some(name) = &e.semantic_name else { continue };
        if !flag(&range_ok, i) || e.stream >= STREAM_COUNT {
            continue;
        }
        let key = (e.stream, name.to_ascii_uppercase(), e.semantic_index);
        let components = written.entry(key).or_insert([None; 4]);
        let (start, count) = (usize::from(e.start_component), usize::from(e.component_count));
        let mut first_clash = None;
        let mut clashing = 0u32;
        for (c, slot) in components.iter_mut().enumerate().skip(start).take(count) {
            match slot {
                Some(j) => {
                    first_clash.get_or_insert(*j);
                    clashing |= 1 << c;
                }
                None => *slot = Some(i),
            }
        }
        if let Some(j) = first_clash {
            out.push(Diagnostic::new(
                Code::SoDuplicate,
                at(i),
                format!(
                    "{}{} on stream {} is already written by entry {j}",
                    element_text(name, e.semantic_index),
                    mask_text(clashing),
                    e.stream
                ),
            ));
        }
    }

    // Slots: one stream each, not only gaps; the bytes per vertex each receives.
    let mut slot_stream: [Option<(u32, usize)>; 4] = [None; 4];
    let mut slot_mixed = [false; 4];
    let mut slot_bytes = [0u64; 4];
    let mut slot_first: [Option<usize>; 4] = [None; 4];
    let mut slot_entries = [0usize; 4];
    // (stream, slot) -> (entries, gaps, first entry)
    let mut groups: [[(usize, usize, usize); 4]; 4] = [[(0, 0, 0); 4]; 4];
    for (i, e) in desc.entries.iter().enumerate() {
        if !flag(&slot_ok, i) {
            continue;
        }
        let slot = usize::from(e.output_slot);
        // slot_ok: the slot is 0..3.
        let (Some(bytes), Some(first), Some(entries), Some(stream_of), Some(mixed)) = (
            slot_bytes.get_mut(slot),
            slot_first.get_mut(slot),
            slot_entries.get_mut(slot),
            slot_stream.get_mut(slot),
            slot_mixed.get_mut(slot),
        ) else {
            continue;
        };
        if flag(&range_ok, i) {
            *bytes = bytes.saturating_add(4 * u64::from(e.component_count));
        }
        first.get_or_insert(i);
        *entries = entries.saturating_add(1);
        if e.stream >= STREAM_COUNT {
            continue;
        }
        match *stream_of {
            None => *stream_of = Some((e.stream, i)),
            Some((s, j)) if s != e.stream && !*mixed => {
                *mixed = true;
                out.push(Diagnostic::new(
                    Code::SoSlotStreams,
                    at(i),
                    format!(
                        "output slot {slot} receives stream {s} (entry {j}) and stream {} (this entry); a buffer receives data from one stream",
                        e.stream
                    ),
                ));
            }
            Some(_) => {}
        }
        let Some(g) = groups.get_mut(e.stream as usize).and_then(|row| row.get_mut(slot)) else { continue };
        if g.0 == 0 {
            g.2 = i;
        }
        g.0 = g.0.saturating_add(1);
        if e.semantic_name.is_none() {
            g.1 = g.1.saturating_add(1);
        }
    }
    for (stream, row) in groups.iter().enumerate() {
        for (slot, &(entries, gaps, first)) in row.iter().enumerate() {
            if entries > 0 && entries == gaps {
                out.push(Diagnostic::new(
                    Code::SoOnlyGaps,
                    at(first),
                    format!(
                        "output slot {slot} receives only gaps from stream {stream} ({entries} gap entr{}); a buffer must receive some data",
                        if entries == 1 { "y" } else { "ies" }
                    ),
                ));
            }
        }
    }

    // Components per stream (gaps included).
    let limit = if level10.is_some() { OUTPUT_COMPONENT_COUNT_10 } else { OUTPUT_COMPONENT_COUNT };
    let mut totals = [0u64; 4];
    let mut past: [Option<usize>; 4] = [None; 4];
    for (i, e) in desc.entries.iter().enumerate() {
        if e.stream >= STREAM_COUNT || !flag(&range_ok, i) {
            continue;
        }
        let (Some(total), Some(past)) = (totals.get_mut(e.stream as usize), past.get_mut(e.stream as usize)) else {
            continue;
        };
        *total = total.saturating_add(u64::from(e.component_count));
        if *total > u64::from(limit) {
            past.get_or_insert(i);
        }
    }
    for (s, first_past) in past.iter().enumerate() {
        if let Some(i) = *first_past {
            let limit_text = match level10 {
                Some(level) => format!("feature level {level} allows {limit} (D3D10_SO_SINGLE_BUFFER_COMPONENT_LIMIT)"),
                None => format!("at most {limit} (D3D11_SO_OUTPUT_COMPONENT_COUNT)"),
            };
            out.push(Diagnostic::new(
                Code::SoComponentCount,
                at(i),
                format!(
                    "stream {s} declares {} components per vertex (gaps included) and this entry goes past the limit: {limit_text}",
                    totals.get(s).copied().unwrap_or(0)
                ),
            ));
        }
    }

    // Strides.
    let ns = desc.strides.len();
    if ns > BUFFER_SLOT_COUNT as usize {
        out.push(Diagnostic::new(
            Code::SoStride,
            whole.clone(),
            format!("{ns} buffer strides; at most 4 (D3D11_SO_BUFFER_SLOT_COUNT)"),
        ));
    }
    if let (true, Some(level)) = (ns > 1, level10) {
        out.push(Diagnostic::new(
            Code::SoFeatureLevel,
            whole.clone(),
            format!("{ns} buffer strides; feature level {level} takes at most one (Direct3D 10's OutputStreamStride)"),
        ));
    }
    for (k, &stride) in desc.strides.iter().enumerate() {
        if stride % 4 != 0 {
            out.push(Diagnostic::new(
                Code::SoStride,
                whole.clone(),
                format!("the stride of buffer {k} is {stride} bytes, not a multiple of 4"),
            ));
        }
        if stride > BUFFER_MAX_STRIDE_IN_BYTES {
            out.push(Diagnostic::new(
                Code::SoStride,
                whole.clone(),
                format!(
                    "the stride of buffer {k} is {stride} bytes; at most {BUFFER_MAX_STRIDE_IN_BYTES} (D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES)"
                ),
            ));
        }
    }
    if ns > 0 {
        for (slot, (&first, &bytes)) in slot_first.iter().zip(&slot_bytes).enumerate() {
            let Some(first) = first else { continue };
            match desc.strides.get(slot) {
                None => out.push(Diagnostic::new(
                    Code::SoStride,
                    whole.clone(),
                    format!(
                        "output slot {slot} is used (entry {first}) but only {ns} stride(s) are given; when strides are given, every used slot needs one"
                    ),
                )),
                Some(&stride) if u64::from(stride) < bytes => out.push(Diagnostic::new(
                    Code::SoStride,
                    whole.clone(),
                    format!(
                        "the stride of buffer {slot} is {stride} bytes but its entries take {bytes} bytes per vertex (gaps included)"
                    ),
                )),
                Some(_) => {}
            }
        }
    }

    // Rasterized stream.
    let r = desc.rasterized_stream;
    if r != NO_RASTERIZED_STREAM && r >= STREAM_COUNT {
        out.push(Diagnostic::new(
            Code::SoRasterizedStream,
            whole.clone(),
            format!("RasterizedStream is {r}; valid: 0..3 or D3D11_SO_NO_RASTERIZED_STREAM (0xffffffff)"),
        ));
    } else if let (true, Some(level)) = (r != 0, level10) {
        let what = if r == NO_RASTERIZED_STREAM { "D3D11_SO_NO_RASTERIZED_STREAM".to_string() } else { r.to_string() };
        out.push(Diagnostic::new(
            Code::SoRasterizedStream,
            whole.clone(),
            format!("RasterizedStream is {what}; feature level {level} rasterizes stream 0 (anything else needs 11_0)"),
        ));
    }

    // Direct3D 10 buffer layout: one buffer (slot 0), or one entry per buffer.
    if let Some(level) = level10 {
        let all_in_slot0 = desc.entries.iter().enumerate().all(|(i, e)| !flag(&slot_ok, i) || e.output_slot == 0);
        if !all_in_slot0 {
            for (slot, &count) in slot_entries.iter().enumerate() {
                if count > 1 {
                    let second = desc
                        .entries
                        .iter()
                        .enumerate()
                        .filter(|(i, e)| flag(&slot_ok, *i) && usize::from(e.output_slot) == slot)
                        .nth(1)
                        .map_or(0, |(i, _)| i);
                    out.push(Diagnostic::new(
                        Code::SoFeatureLevel,
                        at(second),
                        format!(
                            "output slot {slot} has {count} entries; at feature level {level} either every entry goes to slot 0 or each buffer has exactly one entry"
                        ),
                    ));
                }
            }
        }
    }
}
