//! The signature tables back into `ISGN`/`OSGN`/`PCSG` (or `OSG5`, `ISG1`/`OSG1`/`PSG1`)
//! chunks, and signatures derived from the program's declarations where a listing has
//! no tables.

use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
use dxbc::{FourCc, Signature, SignatureElement, SignatureFormat};
use tpf::{Body, Decl, GlobalFlags, Opcode, OperandType, Program, ProgramType, SystemName};

use super::text::{number, skip_blank, Diags, Line, Ruler};
use crate::header::names::{
    pixel_output_system_value, FORMATS, NAMED_REGISTERS, NOT_APPLICABLE, PIXEL_OUTPUTS, SYSTEM_VALUES,
};

/// Which table: the three titles fxc prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SigKind {
    /// `// Patch Constant signature:`.
    Patch,
    /// `// Input signature:`.
    Input,
    /// `// Output signature:`.
    Output,
}

impl SigKind {
    fn title(self) -> &'static str {
        match self {
            SigKind::Patch => "Patch Constant",
            SigKind::Input => "Input",
            SigKind::Output => "Output",
        }
    }
}

/// One table as read: its kind and its elements (system values as the table prints
/// them, not yet adjusted to what the chunk stores).
pub(crate) struct Table<'h> {
    pub kind: SigKind,
    pub rows: Vec<Row<'h>>,
}

/// One row of a signature table.
pub(crate) struct Row<'h> {
    pub stream: u32,
    pub name: &'h str,
    pub index: u32,
    /// `None` for `N/A` (elements without a register: `oDepth`, `oMask` ...).
    pub mask: Option<u8>,
    pub register: u32,
    pub system_value: SystemValue,
    pub component_type: ComponentType,
    pub min_precision: MinPrecision,
    /// The Used column: components, or 1 / 0 for `YES` / `NO`.
    pub used: u8,
}

/// Reads the components of a mask column (`xy  `, `  z `); `None` if anything else is
/// there or a component repeats.
fn components(s: &str) -> Option<u8> {
    let mut mask = 0u8;
    for c in s.chars() {
        let bit = match c {
            'x' => 1,
            'y' => 2,
            'z' => 4,
            'w' => 8,
            ' ' => continue,
            _ => return None,
        };
        if mask & bit != 0 {
            return None;
        }
        mask |= bit;
    }
    Some(mask)
}

/// Reads one signature table from the lines after its title.
pub(crate) fn parse_table<'h>(title: Line<'h>, body: &[Line<'h>], kind: SigKind, d: &mut Diags) -> Table<'h> {
    let mut table = Table { kind, rows: Vec::new() };
    let header_rule = match skip_blank(body) {
        [head, rule, rows @ ..] => {
            let header_ok = head.body().is_some_and(|b| b.trim_start().starts_with("Name"));
            Ruler::parse(rule).filter(|_| header_ok).map(|ruler| (rule, ruler, rows))
        }
        _ => None,
    };
    let Some((rule, ruler, rows)) = header_rule else {
        d.error(
            &title,
            0,
            format!("the {} signature table has no `// Name ...` header and `// ----` rule", kind.title()),
        );
        return table;
    };
    if ruler.spans.len() != 7 {
        d.error(rule, 0, format!("a signature table has 7 columns, this rule has {}", ruler.spans.len()));
        return table;
    }
    for line in rows {
        let Some(b) = line.body() else { break };
        if b.trim().is_empty() {
            break;
        }
        if b.trim().starts_with("no ") {
            continue;
        }
        if let Some(row) = parse_row(line, &ruler, d) {
            table.rows.push(row);
        }
    }
    table
}

fn parse_row<'h>(line: &Line<'h>, ruler: &Ruler, d: &mut Diags) -> Option<Row<'h>> {
    // One cell per column of the rule, which has seven.
    let Some(&[name_cell, index_cell, mask_cell, register_cell, system_value_cell, format_cell, used_cell]) =
        ruler.cells(line).as_deref()
    else {
        d.error(line, 0, "the row does not line up with the table's columns");
        return None;
    };
    let errors = d.errors.len();
    let bad = |d: &mut Diags, at: usize, what: &str, text: &str| {
        d.error(line, at, format!("{what}: `{text}`"));
    };
    let (mut stream, mut name) = (0, name_cell.text);
    if let Some((m, n)) = name.split_once(':') {
        if let Some(s) = m.strip_prefix('m').and_then(number) {
            stream = s;
            name = n;
        }
    }
    if name.is_empty() {
        bad(d, name_cell.at, "missing semantic name", name_cell.text);
    }
    let index = number(index_cell.text).unwrap_or_else(|| {
        bad(d, index_cell.at, "the semantic index is not a number", index_cell.text);
        0
    });
    let mask = if mask_cell.text == NOT_APPLICABLE {
        None
    } else {
        Some(components(mask_cell.text).unwrap_or_else(|| {
            bad(d, mask_cell.at, "the mask is not a set of components xyzw", mask_cell.text);
            0
        }))
    };
    let register = if register_cell.text == NOT_APPLICABLE || NAMED_REGISTERS.value(register_cell.text).is_some() {
        u32::MAX
    } else {
        number(register_cell.text).unwrap_or_else(|| {
            bad(d, register_cell.at, "the register is not a number", register_cell.text);
            0
        })
    };
    let system_value = SYSTEM_VALUES.value(system_value_cell.text).unwrap_or_else(|| {
        bad(d, system_value_cell.at, "unknown system value", system_value_cell.text);
        SystemValue::Undefined
    });
    let (component_type, min_precision) = FORMATS.value(format_cell.text).unwrap_or_else(|| {
        bad(d, format_cell.at, "unknown format", format_cell.text);
        (ComponentType::Unknown0, MinPrecision::Default)
    });
    let used = if mask.is_none() || register == u32::MAX {
        match used_cell.text {
            "YES" => 1,
            "NO" => 0,
            t => components(t).unwrap_or_else(|| {
                bad(d, used_cell.at, "expected YES or NO in the Used column", t);
                0
            }),
        }
    } else {
        components(used_cell.text).unwrap_or_else(|| {
            bad(d, used_cell.at, "the Used column is not a set of components xyzw", used_cell.text);
            0
        })
    };
    (d.errors.len() == errors).then_some(Row {
        stream,
        name,
        index,
        mask,
        register,
        system_value,
        component_type,
        min_precision,
        used,
    })
}

/// The read/write mask from the Used column. Inputs store the components read; outputs
/// store the components *never written* (the listing prints `mask & !rw`), which fxc
/// records over all four components.
fn rw_mask(used: u8, is_output: bool) -> u8 {
    if is_output {
        !used & 0xf
    } else {
        used
    }
}

/// Whether a table's elements are written by this stage.
fn is_output(kind: SigKind, stage: ProgramType) -> bool {
    match kind {
        SigKind::Input => false,
        SigKind::Output => true,
        SigKind::Patch => stage != ProgramType::Domain,
    }
}

/// Turns a table into chunk elements.
pub(crate) fn elements<'h>(table: &Table<'h>, stage: ProgramType) -> Vec<SignatureElement<'h>> {
    let out = is_output(table.kind, stage);
    table
        .rows
        .iter()
        .map(|r| {
            let mut system_value = r.system_value;
            if stage == ProgramType::Pixel
                && table.kind == SigKind::Output
                && pixel_output_system_value(r.name) == system_value
            {
                system_value = SystemValue::Undefined;
            }
            SignatureElement {
                stream: r.stream,
                semantic_name: r.name,
                semantic_index: r.index,
                system_value,
                component_type: r.component_type,
                register: r.register,
                // Elements without a register are one component wide.
                mask: r.mask.unwrap_or(1),
                rw_mask: rw_mask(r.used, out),
                min_precision: r.min_precision,
            }
        })
        .collect()
}

/// Whether the program declares `dcl_globalFlags enableMinimumPrecision`. fxc then
/// writes the signatures in their Shader Model 5.1 form (`ISG1`, `OSG1`, `PSG1`, whose
/// elements carry a minimum precision) and the program as `SHEX`, for every target
/// (`vs_4_0` too), even where no signature element has a minimum precision.
pub(crate) fn uses_minimum_precision(program: &Program<'_>) -> bool {
    program.instructions.iter().any(
        |ins| matches!(&ins.body, Body::Decl(Decl::GlobalFlags(g)) if g.contains(GlobalFlags::ENABLE_MINIMUM_PRECISION)),
    )
}

/// The chunks for the three signatures, in fxc's container order: input, output,
/// patch constants (hull shaders), or input, patch constants, output (domain shaders).
/// `patch` is `None` when the shader has no patch-constant signature.
pub(crate) fn chunks(
    program: &Program<'_>,
    input: Vec<SignatureElement<'_>>,
    output: Vec<SignatureElement<'_>>,
    patch: Option<Vec<SignatureElement<'_>>>,
) -> Vec<(FourCc, Vec<u8>)> {
    let v = program.version;
    // The minimum-precision forms when an element has a precision, or when the program
    // enables minimum precision at all: every blob d3dcompiler_47 6.3.9600 compiled
    // with `dcl_globalFlags ... enableMinimumPrecision` carries `ISG1` / `OSG1` / `PSG1`,
    // every other one `ISGN` / `OSGN` (`OSG5`) / `PCSG` (the oracle's HLSL archives), and
    // the corpus's fxc blobs agree.
    let min_precision = uses_minimum_precision(program)
        || input.iter().chain(&output).chain(patch.iter().flatten()).any(|e| e.min_precision != MinPrecision::Default);
    let (in_cc, out_cc, patch_cc, in_f, out_f) = if min_precision {
        (FourCc::ISG1, FourCc::OSG1, FourCc::PSG1, SignatureFormat::Sm51, SignatureFormat::Sm51)
    } else if v.ty == ProgramType::Geometry && v.major >= 5 {
        (FourCc::ISGN, FourCc::OSG5, FourCc::PCSG, SignatureFormat::Basic, SignatureFormat::Stream)
    } else {
        (FourCc::ISGN, FourCc::OSGN, FourCc::PCSG, SignatureFormat::Basic, SignatureFormat::Basic)
    };
    let bytes = |format, elements| Signature { format, elements, raw_layout: None }.to_bytes();
    let mut out = vec![(in_cc, bytes(in_f, input))];
    let output = (out_cc, bytes(out_f, output));
    match patch {
        Some(p) if v.ty == ProgramType::Domain => {
            out.push((patch_cc, bytes(in_f, p)));
            out.push(output);
        }
        Some(p) => {
            out.push(output);
            out.push((patch_cc, bytes(in_f, p)));
        }
        None => out.push(output),
    }
    out
}

/// Signatures derived from the program's declarations, for listings without tables.
pub(crate) struct Derived {
    pub input: Vec<SignatureElement<'static>>,
    pub output: Vec<SignatureElement<'static>>,
    pub patch: Vec<SignatureElement<'static>>,
}

/// The semantic fxc gives a system value, with its index, and the stored system value.
fn system_semantic(name: SystemName) -> (&'static str, u32, SystemValue) {
    use SystemName as N;
    use SystemValue as V;
    match name {
        N::Position => ("SV_Position", 0, V::Position),
        N::ClipDistance => ("SV_ClipDistance", 0, V::ClipDistance),
        N::CullDistance => ("SV_CullDistance", 0, V::CullDistance),
        N::RenderTargetArrayIndex => ("SV_RenderTargetArrayIndex", 0, V::RenderTargetArrayIndex),
        N::ViewportArrayIndex => ("SV_ViewportArrayIndex", 0, V::ViewportArrayIndex),
        N::VertexId => ("SV_VertexID", 0, V::VertexId),
        N::PrimitiveId => ("SV_PrimitiveID", 0, V::PrimitiveId),
        N::InstanceId => ("SV_InstanceID", 0, V::InstanceId),
        N::IsFrontFace => ("SV_IsFrontFace", 0, V::IsFrontFace),
        N::SampleIndex => ("SV_SampleIndex", 0, V::SampleIndex),
        N::FinalQuadUEq0EdgeTessFactor => ("SV_TessFactor", 0, V::FinalQuadEdgeTessFactor),
        N::FinalQuadVEq0EdgeTessFactor => ("SV_TessFactor", 1, V::FinalQuadEdgeTessFactor),
        N::FinalQuadUEq1EdgeTessFactor => ("SV_TessFactor", 2, V::FinalQuadEdgeTessFactor),
        N::FinalQuadVEq1EdgeTessFactor => ("SV_TessFactor", 3, V::FinalQuadEdgeTessFactor),
        N::FinalQuadUInsideTessFactor => ("SV_InsideTessFactor", 0, V::FinalQuadInsideTessFactor),
        N::FinalQuadVInsideTessFactor => ("SV_InsideTessFactor", 1, V::FinalQuadInsideTessFactor),
        N::FinalTriUEq0EdgeTessFactor => ("SV_TessFactor", 0, V::FinalTriEdgeTessFactor),
        N::FinalTriVEq0EdgeTessFactor => ("SV_TessFactor", 1, V::FinalTriEdgeTessFactor),
        N::FinalTriWEq0EdgeTessFactor => ("SV_TessFactor", 2, V::FinalTriEdgeTessFactor),
        N::FinalTriInsideTessFactor => ("SV_InsideTessFactor", 0, V::FinalTriInsideTessFactor),
        N::FinalLineDensityTessFactor => ("SV_TessFactor", 0, V::FinalLineDensityTessFactor),
        N::FinalLineDetailTessFactor => ("SV_TessFactor", 1, V::FinalLineDetailTessFactor),
        N::Barycentrics => ("SV_Barycentrics", 0, V::Barycentrics),
        N::ShadingRate => ("SV_ShadingRate", 0, V::ShadingRate),
        N::CullPrimitive => ("SV_CullPrimitive", 0, V::CullPrimitive),
        N::Undefined | N::Unknown(_) => ("TEXCOORD", 0, V::Undefined),
    }
}

/// Integer-valued system values.
fn is_integer(sv: SystemValue) -> bool {
    use SystemValue as V;
    matches!(
        sv,
        V::RenderTargetArrayIndex
            | V::ViewportArrayIndex
            | V::VertexId
            | V::PrimitiveId
            | V::InstanceId
            | V::IsFrontFace
            | V::SampleIndex
            | V::Coverage
            | V::StencilRef
            | V::ShadingRate
            | V::CullPrimitive
            | V::InnerCoverage
    )
}

/// Where a declaration's element goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Input,
    Output,
    Patch,
}

/// Derives the signatures from `dcl_input*` / `dcl_output*` declarations.
///
/// The scheme: an element per declaration (repeated declarations of the same register
/// and mask, as hull-shader phases make, count once); system values get their `SV_`
/// semantic (tessellation factors their `SV_TessFactor` / `SV_InsideTessFactor`
/// index, clip and cull distances an index counting up); other elements are
/// `TEXCOORD`, numbered in register order; pixel-shader outputs are `SV_Target` with
/// the register as index, and `oDepth`, `oMask` ... their own semantics. Inputs are
/// marked as read in every declared component, outputs as written in every declared
/// component. A hull shader without a control-point phase passes its input control
/// points through, so its output signature repeats the input's.
pub(crate) fn derive(program: &Program<'_>) -> Derived {
    let stage = program.version.ty;
    let mut found: Vec<(Target, SignatureElement<'static>, SystemName)> = Vec::new();
    let mut has_control_point_phase = false;
    let mut in_fork_or_join = false;
    let mut stream = 0u32;
    for ins in program.iter() {
        match ins.opcode {
            Opcode::HsControlPointPhase => {
                has_control_point_phase = true;
                in_fork_or_join = false;
            }
            Opcode::HsForkPhase | Opcode::HsJoinPhase => {
                in_fork_or_join = true;
            }
            _ => {}
        }
        let Body::Decl(decl) = &ins.body else { continue };
        let (operand, name) = match decl {
            Decl::Stream(op) => {
                stream = ins.operand(*op).register().unwrap_or(0) as u32;
                continue;
            }
            Decl::Register(op) | Decl::InputPs { operand: op, .. } => (ins.operand(*op), SystemName::Undefined),
            Decl::RegisterName { operand, name, .. } | Decl::InputPsName { operand, name, .. } => {
                (ins.operand(*operand), *name)
            }
            _ => continue,
        };
        let register = match operand.indices().last() {
            Some(tpf::Index::Imm32(r)) => *r,
            Some(tpf::Index::Imm64(r)) => *r as u32,
            _ => u32::MAX,
        };
        let precision = MinPrecision::from(u32::from(operand.min_precision().raw()));
        let mask = operand.mask().0 & 0xf;
        use OperandType as T;
        // Pixel-shader outputs take the semantic of the system value their register
        // stands for (fxc stores no system value for them).
        let pixel_output = |sv: SystemValue| PIXEL_OUTPUTS.name(sv).unwrap_or("SV_Target");
        let (target, semantic, index, sv, reg, mask) = match operand.ty {
            T::Input | T::InputControlPoint => {
                let (s, i, sv) = system_semantic(name);
                (Target::Input, s, i, sv, register, mask)
            }
            T::InputPatchConstant => {
                let (s, i, sv) = system_semantic(name);
                (Target::Patch, s, i, sv, register, mask)
            }
            T::Output if stage == ProgramType::Pixel => {
                (Target::Output, pixel_output(SystemValue::Target), register, SystemValue::Undefined, register, mask)
            }
            T::Output => {
                let (s, i, sv) = system_semantic(name);
                let target = if stage == ProgramType::Hull && in_fork_or_join { Target::Patch } else { Target::Output };
                (target, s, i, sv, register, mask)
            }
            T::OutputDepth
            | T::OutputDepthGreaterEqual
            | T::OutputDepthLessEqual
            | T::OutputCoverageMask
            | T::OutputStencilRef => {
                let sv = match operand.ty {
                    T::OutputDepth => SystemValue::Depth,
                    T::OutputDepthGreaterEqual => SystemValue::DepthGreaterEqual,
                    T::OutputDepthLessEqual => SystemValue::DepthLessEqual,
                    T::OutputCoverageMask => SystemValue::Coverage,
                    _ => SystemValue::StencilRef,
                };
                (Target::Output, pixel_output(sv), 0, SystemValue::Undefined, u32::MAX, 1)
            }
            _ => continue,
        };
        let integer = is_integer(sv) || matches!(operand.ty, T::OutputCoverageMask | T::OutputStencilRef);
        let element = SignatureElement {
            stream: if target == Target::Output && stage == ProgramType::Geometry { stream } else { 0 },
            semantic_name: semantic,
            semantic_index: index,
            system_value: sv,
            component_type: if integer { ComponentType::Uint32 } else { ComponentType::Float32 },
            register: reg,
            mask,
            rw_mask: 0,
            min_precision: precision,
        };
        let dup = found.iter().any(|(t, e, _)| {
            *t == target && e.register == element.register && e.mask == element.mask && e.stream == element.stream
        });
        if !dup {
            found.push((target, element, name));
        }
    }
    let mut d = Derived { input: Vec::new(), output: Vec::new(), patch: Vec::new() };
    for (target, e, _) in found {
        match target {
            Target::Input => d.input.push(e),
            Target::Output => d.output.push(e),
            Target::Patch => d.patch.push(e),
        }
    }
    if stage == ProgramType::Hull && !has_control_point_phase {
        d.output = d.input.clone();
    }
    let patch_is_output = stage != ProgramType::Domain;
    finish(&mut d.input, false);
    finish(&mut d.output, true);
    finish(&mut d.patch, patch_is_output);
    d
}

/// Orders the elements (stream, register, first component; register-less last),
/// numbers generic elements and clip/cull distances, and sets the rw masks.
fn finish(elements: &mut [SignatureElement<'static>], is_output: bool) {
    elements.sort_by_key(|e| (e.stream, e.register, e.mask.trailing_zeros()));
    let (mut generic, mut clip, mut cull) = (0, 0, 0);
    for e in elements.iter_mut() {
        let counter = match e.system_value {
            SystemValue::Undefined if e.semantic_name == "TEXCOORD" => Some(&mut generic),
            SystemValue::ClipDistance => Some(&mut clip),
            SystemValue::CullDistance => Some(&mut cull),
            _ => None,
        };
        if let Some(c) = counter {
            e.semantic_index = *c;
            // At most one per element.
            *c = c.saturating_add(1);
        }
        e.rw_mask = rw_mask(e.mask, is_output);
    }
}
