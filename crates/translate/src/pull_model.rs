//! Pull-model attribute evaluation (`eval_centroid`, `eval_sample_index`,
//! `eval_snapped`) for the targets that can express it: SPIR-V (`GLSL.std.450`
//! `InterpolateAtCentroid`, `InterpolateAtSample`, `InterpolateAtOffset`) and GLSL
//! (`interpolateAtCentroid`, `interpolateAtSample`, `interpolateAtOffset`).
//!
//! naga's IR has no `interpolateAt*`, so with [`crate::Options::pull_model`] the front
//! end writes each such instruction of an interpolated input as a call of a marker
//! function of its own, [`Marker::name`] (`dx_eval_centroid_v3_i7_mark()`,
//! `dx_eval_sample_v3_i8_mark(dx_sample: i32)`,
//! `dx_eval_snapped_v3_i9_mark(dx_offset: vec2<f32>)`, each returning the `vec4<f32>` of
//! input register 3 evaluated there), whose naga body is a placeholder; naga validates
//! and writes the module as usual, and then
//! - [`spirv`] gives each marker function's SPIR-V body the one instruction it stands
//!   for, on the `Input` variable decorated with the register's `Location` (the entry
//!   point's argument `@location(r)`, a `vec4` of floats, as the pass checks), and adds
//!   the `InterpolationFunction` capability;
//! - [`glsl`] gives each marker function's GLSL body the call of the GLSL function on the
//!   `in` variable naga writes for that location (`_vs2fs_location3`).
//!
//! D3D11.3 functional spec 16.5 "Pull Model Attribute Evaluation": the evaluation keeps
//! the input's `linear` (perspective) or `linear noperspective` interpolation and
//! ignores its `centroid` or `sample` modifier, as SPIR-V's and GLSL's functions do (the
//! `Centroid` or `Sample` decoration of the variable is ignored by `interpolateAtSample`
//! and `interpolateAtOffset`, GLSL 4.50 8.13.2 "Interpolation Functions"); an input with
//! constant interpolation (or an integer one) gives its value, whatever the position,
//! so the front end reads the register itself there (no marker: SPIR-V's functions take
//! no `Flat` input). `eval_snapped`'s offset is the low 4 bits of each of its first two
//! components, signed sixteenths of a pixel (16.5.3, "Mapping Fixed Point Coordinates
//! to Float Offsets on Sample Grid"): the front end passes `offset / 16` in pixels, the
//! unit of `InterpolateAtOffset` (Vulkan requires offsets in [-0.5, 0.5 - 2⁻ⁿ] with n ≥ 4
//! sub-pixel bits, `subPixelInterpolationOffsetBits`: the 16 values are all exact).
//! `eval_sample_index`'s index is its source's first component; an index past the
//! render target's samples is undefined in Direct3D (16.5.2) as in Vulkan.
//!
//! WGSL, MSL and HLSL output of a module with markers is refused ([`refusal`]) naming the
//! first instruction.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::no_contraction::{instructions, SpirvError, HEADER};
use crate::spirv_geometry::{decoration, inst, string, STORAGE_INPUT};
use crate::{Target, TranslateError};

const OP_NAME: u32 = 5;
const OP_EXT_INST_IMPORT: u32 = 11;
const OP_EXT_INST: u32 = 12;
const OP_CAPABILITY: u32 = 17;
const OP_TYPE_POINTER: u32 = 32;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_PARAMETER: u32 = 55;
const OP_FUNCTION_END: u32 = 56;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const OP_LABEL: u32 = 248;
const OP_RETURN_VALUE: u32 = 254;
/// The `InterpolationFunction` capability.
const CAPABILITY_INTERPOLATION_FUNCTION: u32 = 52;

/// Which evaluation an instruction asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `eval_centroid`: at the centroid of the pixel's covered samples.
    Centroid,
    /// `eval_sample_index`: at a sample, by index.
    SampleIndex,
    /// `eval_snapped`: at the pixel centre moved by an offset on a 16 × 16 grid.
    Snapped,
}

impl Kind {
    /// The kind of an opcode, if it is one of the three.
    pub fn of(op: tpf::Opcode) -> Option<Kind> {
        Some(match op {
            tpf::Opcode::EvalCentroid => Kind::Centroid,
            tpf::Opcode::EvalSampleIndex => Kind::SampleIndex,
            tpf::Opcode::EvalSnapped => Kind::Snapped,
            _ => return None,
        })
    }

    /// The instruction's mnemonic.
    pub fn mnemonic(self) -> &'static str {
        match self {
            Kind::Centroid => "eval_centroid",
            Kind::SampleIndex => "eval_sample_index",
            Kind::Snapped => "eval_snapped",
        }
    }

    /// The word of the marker function's name.
    fn word(self) -> &'static str {
        match self {
            Kind::Centroid => "centroid",
            Kind::SampleIndex => "sample",
            Kind::Snapped => "snapped",
        }
    }

    /// The `GLSL.std.450` instruction (`InterpolateAtCentroid` 76, `InterpolateAtSample`
    /// 77, `InterpolateAtOffset` 78).
    fn spirv(self) -> u32 {
        match self {
            Kind::Centroid => 76,
            Kind::SampleIndex => 77,
            Kind::Snapped => 78,
        }
    }

    /// The GLSL function.
    fn glsl(self) -> &'static str {
        match self {
            Kind::Centroid => "interpolateAtCentroid",
            Kind::SampleIndex => "interpolateAtSample",
            Kind::Snapped => "interpolateAtOffset",
        }
    }

    /// The marker function's parameters (none, the sample index, the offset).
    fn parameters(self) -> usize {
        match self {
            Kind::Centroid => 0,
            Kind::SampleIndex | Kind::Snapped => 1,
        }
    }
}

/// One `eval_*` instruction of an interpolated input: its marker function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Marker {
    /// The evaluation.
    pub kind: Kind,
    /// The input register (the location).
    pub register: u32,
    /// The instruction's index in the program.
    pub index: usize,
}

impl Marker {
    /// The marker function's name: `dx_eval_{centroid|sample|snapped}_v{register}_i{index}_mark`
    /// (a name naga's GLSL and SPIR-V writers keep as it is).
    pub fn name(&self) -> String {
        format!("dx_eval_{}_v{}_i{}_mark", self.kind.word(), self.register, self.index)
    }

    /// The marker a function name is, if it is one.
    pub fn parse(name: &str) -> Option<Marker> {
        let rest = name.strip_prefix("dx_eval_")?.strip_suffix("_mark")?;
        let mut parts = rest.split('_');
        let kind = match parts.next()? {
            "centroid" => Kind::Centroid,
            "sample" => Kind::SampleIndex,
            "snapped" => Kind::Snapped,
            _ => return None,
        };
        fn number(p: Option<&str>, prefix: char) -> Option<usize> {
            let digits = p?.strip_prefix(prefix)?;
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            digits.parse().ok()
        }
        let register = u32::try_from(number(parts.next(), 'v')?).ok()?;
        let index = number(parts.next(), 'i')?;
        if parts.next().is_some() {
            return None;
        }
        let m = Marker { kind, register, index };
        (m.name() == name).then_some(m)
    }
}

/// The marker functions of a module, in the order of their instructions.
pub fn markers(module: &naga::Module) -> Vec<Marker> {
    let mut m: Vec<Marker> =
        module.functions.iter().filter_map(|(_, f)| f.name.as_deref().and_then(Marker::parse)).collect();
    m.sort_by_key(|m| m.index);
    m
}

/// The error of a target without pull-model evaluation, naming the marker's instruction.
pub fn refusal(marker: &Marker, target: Target) -> TranslateError {
    TranslateError::Unsupported {
        index: marker.index,
        mnemonic: marker.kind.mnemonic(),
        what: format!(
            "pull-model interpolation in {} (naga has no interpolateAt*; SPIR-V and GLSL output have it)",
            target.name()
        ),
    }
}

/// Why a pass could not give the markers their bodies.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PullModelError {
    /// The words are not a module.
    #[error(transparent)]
    Words(#[from] SpirvError),
    /// Something the pass needs is not in the output as naga writes it.
    #[error("pull-model evaluation: {0}")]
    Missing(String),
}

fn missing(what: impl Into<String>) -> PullModelError {
    PullModelError::Missing(what.into())
}

fn instruction(opcode: u32, operands: &[u32]) -> Result<Vec<u32>, PullModelError> {
    inst(opcode, operands).map_err(|e| missing(e.to_string()))
}

/// Gives each marker function of the SPIR-V module `words` (written with naga's `DEBUG`
/// names) the body `OpExtInst %vec4 %GLSL.std.450 InterpolateAt* %input [%operand]` and
/// `OpReturnValue` of it, `%input` the `Input` variable at the marker's location, and
/// adds the `InterpolationFunction` capability. Every marker must be there with its
/// name (the front end calls each one, so naga writes it), with one `Input` variable at
/// its location.
pub fn spirv(words: &mut Vec<u32>, markers: &[Marker]) -> Result<(), PullModelError> {
    let insts = instructions(words)?;
    let mut bound = words.get(3).copied().ok_or(SpirvError::Header)?;
    let by_name: BTreeMap<String, &Marker> = markers.iter().map(|m| (m.name(), m)).collect();
    let mut marker_of: BTreeMap<u32, Marker> = BTreeMap::new();
    let mut glsl_std: Option<u32> = None;
    let mut capabilities: BTreeSet<u32> = BTreeSet::new();
    let mut locations: BTreeMap<u32, u32> = BTreeMap::new();
    let mut pointee_of: BTreeMap<u32, u32> = BTreeMap::new();
    let mut inputs: BTreeMap<u32, u32> = BTreeMap::new();
    for &(_, opcode, i) in &insts {
        match (opcode, i) {
            (OP_NAME, [_, id, rest @ ..]) => {
                if let Some(m) = by_name.get(&string(rest)) {
                    marker_of.insert(*id, **m);
                }
            }
            (OP_EXT_INST_IMPORT, [_, id, rest @ ..]) if string(rest) == "GLSL.std.450" => glsl_std = Some(*id),
            (OP_CAPABILITY, [_, c]) => {
                capabilities.insert(*c);
            }
            (OP_DECORATE, [_, id, d, l]) if *d == decoration::LOCATION => {
                locations.insert(*id, *l);
            }
            (OP_TYPE_POINTER, [_, id, STORAGE_INPUT, pointee]) => {
                pointee_of.insert(*id, *pointee);
            }
            (OP_VARIABLE, [_, ty, id, STORAGE_INPUT, ..]) => {
                inputs.insert(*id, *ty);
            }
            _ => {}
        }
    }
    if markers.is_empty() {
        return Ok(());
    }
    if marker_of.len() != by_name.len() {
        return Err(missing(format!("{} of the {} marker functions named", marker_of.len(), by_name.len())));
    }
    if let Some(id) = marker_of.keys().chain(inputs.keys()).find(|&&id| id >= bound) {
        return Err(missing(format!("id {id} past the module's bound {bound}")));
    }
    let glsl_std = glsl_std.ok_or_else(|| missing("no GLSL.std.450 import"))?;
    // Location → (variable, its vec4 type).
    let mut input_at: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
    for (&var, ptr) in &inputs {
        if let (Some(&l), Some(&pointee)) = (locations.get(&var), pointee_of.get(ptr)) {
            if input_at.insert(l, (var, pointee)).is_some() {
                return Err(missing(format!("two Input variables at location {l}")));
            }
        }
    }

    let mut out: Vec<u32> = Vec::with_capacity(words.len());
    out.extend(words.get(..HEADER).ok_or(SpirvError::Header)?);
    let mut capability_done = capabilities.contains(&CAPABILITY_INTERPOLATION_FUNCTION);
    // The marker whose function is being written: its result type, its parameters.
    let mut current: Option<(Marker, u32, Vec<u32>)> = None;
    let mut skipping = false;
    let mut done = 0usize;
    for &(_, opcode, i) in &insts {
        if !capability_done && opcode != OP_CAPABILITY {
            out.extend(instruction(OP_CAPABILITY, &[CAPABILITY_INTERPOLATION_FUNCTION])?);
            capability_done = true;
        }
        match (opcode, i) {
            (OP_FUNCTION, _) if skipping => return Err(missing("a marker function without its end")),
            (OP_FUNCTION, [_, ty, id, ..]) => {
                current = marker_of.get(id).map(|m| (*m, *ty, Vec::new()));
                out.extend_from_slice(i);
            }
            (OP_FUNCTION_PARAMETER, [_, _, id]) if current.is_some() => {
                if let Some((_, _, params)) = current.as_mut() {
                    params.push(*id);
                }
                out.extend_from_slice(i);
            }
            (OP_LABEL, _) if !skipping && current.is_some() => {
                out.extend_from_slice(i);
                let Some((m, ty, params)) = current.take() else { continue };
                if params.len() != m.kind.parameters() {
                    return Err(missing(format!("{} has {} parameters", m.name(), params.len())));
                }
                let &(var, pointee) = input_at
                    .get(&m.register)
                    .ok_or_else(|| missing(format!("no Input variable at location {}", m.register)))?;
                if pointee != ty {
                    return Err(missing(format!("the input at location {} is not the marker's type", m.register)));
                }
                let result = bound;
                bound = bound.checked_add(1).ok_or_else(|| missing("the id bound overflows"))?;
                let mut operands = vec![ty, result, glsl_std, m.kind.spirv(), var];
                operands.extend_from_slice(&params);
                out.extend(instruction(OP_EXT_INST, &operands)?);
                out.extend(instruction(OP_RETURN_VALUE, &[result])?);
                skipping = true;
                done = done.saturating_add(1);
            }
            (OP_FUNCTION_END, _) => {
                skipping = false;
                current = None;
                out.extend_from_slice(i);
            }
            _ if skipping => {}
            _ => out.extend_from_slice(i),
        }
    }
    if skipping {
        return Err(missing("a marker function without its end"));
    }
    if done != marker_of.len() {
        return Err(missing("a marker function without a body"));
    }
    if let Some(b) = out.get_mut(3) {
        *b = bound;
    }
    *words = out;
    Ok(())
}

/// Gives each marker function of naga's GLSL text (`vec4 NAME(...) {` … `}` at the
/// start of lines) the body `return interpolateAt*(_vs2fs_locationR[, parameter]);`,
/// the `in` variable naga declares for the marker's location. Every marker must be
/// there (the front end calls each one, so naga writes it).
pub fn glsl(text: &str, markers: &[Marker]) -> Result<String, PullModelError> {
    let by_name: BTreeMap<String, &Marker> = markers.iter().map(|m| (m.name(), m)).collect();
    let mut out = String::with_capacity(text.len());
    let mut skipping = false;
    let mut done = 0usize;
    for line in text.split_inclusive('\n') {
        if skipping {
            if line.trim_end() == "}" {
                skipping = false;
                out.push_str(line);
            }
            continue;
        }
        out.push_str(line);
        let Some(rest) = line.strip_prefix("vec4 ") else { continue };
        let Some((name, rest)) = rest.split_once('(') else { continue };
        let Some(m) = by_name.get(name) else { continue };
        let params = rest.trim_end().strip_suffix(") {").ok_or_else(|| missing(format!("the definition of {name}")))?;
        let param: Vec<&str> = params.split(',').filter_map(|p| p.split_whitespace().nth(1)).collect();
        if param.len() != m.kind.parameters() {
            return Err(missing(format!("{name} has {} parameters", param.len())));
        }
        let input = format!("_vs2fs_location{}", m.register);
        let declared = text.lines().any(|l| {
            l.starts_with("layout(location = ")
                && l.trim_end().strip_suffix(';').is_some_and(|l| l.ends_with(&format!(" in vec4 {input}")))
        });
        if !declared {
            return Err(missing(format!("no `in vec4 {input}` declaration")));
        }
        let mut args = vec![input];
        args.extend(param.iter().map(|p| p.to_string()));
        let _ = writeln!(out, "    return {}({});", m.kind.glsl(), args.join(", "));
        skipping = true;
        done = done.saturating_add(1);
    }
    if skipping {
        return Err(missing("a marker function without its end"));
    }
    if done != by_name.len() {
        return Err(missing(format!("{done} of the {} marker functions defined", by_name.len())));
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    const SRC: &str = "fn dx_eval_snapped_v2_i5_mark(dx_offset: vec2<f32>) -> vec4<f32> { return vec4<f32>(0.0); }\n\
                       fn dx_eval_centroid_v2_i6_mark() -> vec4<f32> { return vec4<f32>(0.0); }\n\
                       @fragment fn main(@location(2) a: vec4<f32>) -> @location(0) vec4<f32> {\n\
                       return a + dx_eval_snapped_v2_i5_mark(vec2<f32>(0.25)) + dx_eval_centroid_v2_i6_mark(); }";

    fn module() -> naga::Module {
        naga::front::wgsl::parse_str(SRC).unwrap()
    }

    #[test]
    fn markers_become_interpolate_at_in_spirv() {
        let m = module();
        assert_eq!(markers(&m).iter().map(|m| m.index).collect::<Vec<_>>(), [5, 6]);
        let info = crate::validate(&m).unwrap();
        let w = crate::spirv_words(&m, &info, naga::back::spv::WriterFlags::empty()).unwrap();
        let insts = instructions(&w).unwrap();
        let ext: Vec<&[u32]> = insts.iter().filter(|x| x.1 == OP_EXT_INST).map(|x| x.2).collect();
        let interpolations: Vec<u32> = ext.iter().filter(|i| i[4] >= 76 && i[4] <= 78).map(|i| i[4]).collect();
        assert_eq!(interpolations, [78, 76]);
        // Both on the Input variable at location 2.
        let var = insts
            .iter()
            .find(|x| x.1 == OP_DECORATE && x.2[2] == decoration::LOCATION && x.2[3] == 2)
            .map(|x| x.2[1])
            .unwrap();
        assert!(ext.iter().filter(|i| i[4] >= 76).all(|i| i[5] == var));
        assert!(insts.iter().any(|x| x.1 == OP_CAPABILITY && x.2[1] == CAPABILITY_INTERPOLATION_FUNCTION));
        assert!(insts.iter().all(|x| x.1 != OP_EXT_INST || x.2[2] < w[3]), "new ids below the bound");
        // Idempotent on the capability, and nothing to do without markers.
        let mut again = w.clone();
        spirv(&mut again, &[]).unwrap();
        assert_eq!(again, w);
    }

    #[test]
    fn markers_become_interpolate_at_in_glsl() {
        let m = module();
        let info = crate::validate(&m).unwrap();
        let text = crate::glsl_text(&m, &info, Default::default()).unwrap();
        assert!(text.contains("return interpolateAtOffset(_vs2fs_location2, dx_offset);"), "{text}");
        assert!(text.contains("return interpolateAtCentroid(_vs2fs_location2);"), "{text}");
        assert!(!text.contains("return vec4(0.0);"), "{text}");
    }

    #[test]
    fn what_the_passes_cannot_find_is_an_error() {
        let m = module();
        let info = crate::validate(&m).unwrap();
        let mut w = naga::back::spv::write_vec(
            &m,
            &info,
            &naga::back::spv::Options { flags: naga::back::spv::WriterFlags::DEBUG, ..Default::default() },
            None,
        )
        .unwrap();
        // A marker at a location without an input.
        let m7 = naga::front::wgsl::parse_str(&SRC.replace("centroid_v2", "centroid_v7")).unwrap();
        let info7 = crate::validate(&m7).unwrap();
        let options = naga::back::spv::Options { flags: naga::back::spv::WriterFlags::DEBUG, ..Default::default() };
        let w7 = naga::back::spv::write_vec(&m7, &info7, &options, None).unwrap();
        let elsewhere = markers(&m7);
        assert!(matches!(spirv(&mut w7.clone(), &elsewhere), Err(PullModelError::Missing(_))));
        let text7 = crate::glsl_text(&m7, &info7, Default::default());
        assert!(matches!(text7, Err(TranslateError::Backend { .. })), "{text7:?}");
        // A marker with no function of its name is an error: its body would stay 0.
        let absent = [Marker { kind: Kind::Centroid, register: 2, index: 5 }];
        assert!(matches!(spirv(&mut w.clone(), &absent), Err(PullModelError::Missing(_))));
        let glsl_text = crate::glsl_text(&m, &info, Default::default()).unwrap();
        assert!(matches!(glsl(&glsl_text, &absent), Err(PullModelError::Missing(_))));
        // A marker function cut before its end.
        let mut unended = w.clone();
        let insts = instructions(&unended).unwrap();
        let marker_id = insts
            .iter()
            .find(|x| x.1 == OP_NAME && string(&x.2[2..]) == markers(&m)[1].name())
            .map(|x| x.2[1])
            .unwrap();
        let start = insts.iter().find(|x| x.1 == OP_FUNCTION && x.2[2] == marker_id).unwrap().0;
        let end = insts.iter().find(|x| x.1 == OP_FUNCTION_END && x.0 > start).unwrap().0;
        unended.remove(end);
        assert!(matches!(spirv(&mut unended, &markers(&m)), Err(PullModelError::Missing(_))));
        let mut cut = w.clone();
        cut.push((5 << 16) | 129);
        assert!(matches!(spirv(&mut cut, &elsewhere), Err(PullModelError::Words(_))));
        assert!(spirv(&mut vec![], &elsewhere).is_err());
        let markers = markers(&m);
        spirv(&mut w, &markers).unwrap();
        let text = "vec4 dx_eval_centroid_v2_i6_mark() {\n    return vec4(0.0);\n}\n";
        assert!(matches!(glsl(text, &markers), Err(PullModelError::Missing(_))), "no input declared");
        assert!(glsl("vec4 dx_eval_centroid_v2_i6_mark() {\n", &markers).is_err());
    }

    #[test]
    fn marker_names_round_trip() {
        for kind in [Kind::Centroid, Kind::SampleIndex, Kind::Snapped] {
            let m = Marker { kind, register: 31, index: 1234 };
            assert_eq!(Marker::parse(&m.name()), Some(m));
        }
        for not in [
            "dx_eval_centroid_v1_mark",
            "dx_eval_centroid_v_i1_mark",
            "dx_eval_x_v1_i1_mark",
            "dx_eval_sample_v01_i1_mark",
        ] {
            assert_eq!(Marker::parse(not), None, "{not}");
        }
    }
}
