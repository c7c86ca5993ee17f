//! A pass over SPIR-V words that turns a compute entry point written by naga into a
//! Vulkan geometry shader (naga's IR has no geometry stage).
//!
//! The module it reads is the one [`crate::gs_native`] writes: the geometry shader's
//! body as naga functions over `Private` variables, with
//! - staging variables for every input and output of the stage (by name: `OpName`,
//!   which naga writes with its `DEBUG` flag), which this pass moves to the `Input` or
//!   `Output` storage class (their pointer types, every access chain into them, no
//!   initializer) and decorates (`Location`, `Component`, `BuiltIn`, `Stream`,
//!   transform-feedback `XfbBuffer`/`XfbStride`/`Offset`), listed in the entry point's
//!   interface;
//! - empty marker functions, whose every call becomes `OpEmitVertex` /
//!   `OpEndPrimitive` (or, with streams, `OpEmitStreamVertex` / `OpEndStreamPrimitive`
//!   with the stream as a constant);
//! - a `GLCompute` entry point, which becomes `Geometry` with the execution modes
//!   (`Invocations`, the input primitive, `OutputVertices`, the output topology, `Xfb`)
//!   in place of its `LocalSize`, and the capabilities the stage needs.
//!
//! Every other instruction is kept as it is. New ids are numbered from the header's
//! bound, which grows by as many.

use std::collections::{BTreeMap, BTreeSet};

use crate::no_contraction::{instructions, SpirvError, HEADER, PREAMBLE};

const OP_NAME: u32 = 5;
const OP_CAPABILITY: u32 = 17;
const OP_ENTRY_POINT: u32 = 15;
const OP_EXECUTION_MODE: u32 = 16;
const OP_DECORATE: u32 = 71;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_CALL: u32 = 57;
const OP_VARIABLE: u32 = 59;
const OP_ACCESS_CHAIN: [u32; 3] = [65, 66, 67];
const OP_EMIT_VERTEX: u32 = 218;
const OP_END_PRIMITIVE: u32 = 219;
const OP_EMIT_STREAM_VERTEX: u32 = 220;
const OP_END_STREAM_PRIMITIVE: u32 = 221;

const MODEL_GL_COMPUTE: u32 = 5;
const MODEL_GEOMETRY: u32 = 3;
const MODE_LOCAL_SIZE: u32 = 17;
const STORAGE_PRIVATE: u32 = 6;

/// `Input` storage class.
pub const STORAGE_INPUT: u32 = 1;
/// `Output` storage class.
pub const STORAGE_OUTPUT: u32 = 3;

/// SPIR-V decorations the interface uses.
pub mod decoration {
    /// `BuiltIn`.
    pub const BUILT_IN: u32 = 11;
    /// `Flat`.
    pub const FLAT: u32 = 14;
    /// `Stream`.
    pub const STREAM: u32 = 29;
    /// `Location`.
    pub const LOCATION: u32 = 30;
    /// `Component`.
    pub const COMPONENT: u32 = 31;
    /// `Offset`.
    pub const OFFSET: u32 = 35;
    /// `XfbBuffer`.
    pub const XFB_BUFFER: u32 = 36;
    /// `XfbStride`.
    pub const XFB_STRIDE: u32 = 37;
}

/// SPIR-V built-ins the interface uses.
pub mod builtin {
    /// `Position`.
    pub const POSITION: u32 = 0;
    /// `ClipDistance`.
    pub const CLIP_DISTANCE: u32 = 3;
    /// `CullDistance`.
    pub const CULL_DISTANCE: u32 = 4;
    /// `PrimitiveId`.
    pub const PRIMITIVE_ID: u32 = 7;
    /// `InvocationId`.
    pub const INVOCATION_ID: u32 = 8;
    /// `Layer`.
    pub const LAYER: u32 = 9;
    /// `ViewportIndex`.
    pub const VIEWPORT_INDEX: u32 = 10;
}

/// SPIR-V capabilities the stage may need.
pub mod capability {
    /// `Geometry`.
    pub const GEOMETRY: u32 = 2;
    /// `ClipDistance`.
    pub const CLIP_DISTANCE: u32 = 32;
    /// `CullDistance`.
    pub const CULL_DISTANCE: u32 = 33;
    /// `TransformFeedback`.
    pub const TRANSFORM_FEEDBACK: u32 = 53;
    /// `GeometryStreams`.
    pub const GEOMETRY_STREAMS: u32 = 54;
    /// `MultiViewport`.
    pub const MULTI_VIEWPORT: u32 = 57;
}

/// SPIR-V execution modes of a geometry shader.
pub mod mode {
    /// `Invocations`.
    pub const INVOCATIONS: u32 = 0;
    /// `Xfb`.
    pub const XFB: u32 = 11;
    /// `InputPoints`.
    pub const INPUT_POINTS: u32 = 19;
    /// `InputLines`.
    pub const INPUT_LINES: u32 = 20;
    /// `InputLinesAdjacency`.
    pub const INPUT_LINES_ADJACENCY: u32 = 21;
    /// `Triangles`.
    pub const TRIANGLES: u32 = 22;
    /// `InputTrianglesAdjacency`.
    pub const INPUT_TRIANGLES_ADJACENCY: u32 = 23;
    /// `OutputVertices`.
    pub const OUTPUT_VERTICES: u32 = 26;
    /// `OutputPoints`.
    pub const OUTPUT_POINTS: u32 = 27;
    /// `OutputLineStrip`.
    pub const OUTPUT_LINE_STRIP: u32 = 28;
    /// `OutputTriangleStrip`.
    pub const OUTPUT_TRIANGLE_STRIP: u32 = 29;
}

/// A staging variable to move to the stage's interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interface {
    /// Its name (`OpName`).
    pub name: String,
    /// [`STORAGE_INPUT`] or [`STORAGE_OUTPUT`].
    pub storage: u32,
    /// `(decoration, operands)` pairs.
    pub decorations: Vec<(u32, Vec<u32>)>,
}

/// What a marker function's calls become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    /// `OpEmitVertex` / `OpEmitStreamVertex`.
    Emit,
    /// `OpEndPrimitive` / `OpEndStreamPrimitive`.
    Cut,
}

/// A marker function: its name, what its calls become, the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// Its name (`OpName`).
    pub name: String,
    /// Emit or cut.
    pub kind: MarkerKind,
    /// The stream (0 without streams).
    pub stream: u32,
}

/// The geometry stage to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stage {
    /// Capabilities to add (`Geometry` is always added).
    pub capabilities: Vec<u32>,
    /// Execution modes with their operands, replacing `LocalSize`.
    pub modes: Vec<(u32, Vec<u32>)>,
    /// Emits and cuts name their stream (`OpEmitStreamVertex`...; needs the
    /// `GeometryStreams` capability).
    pub streams: bool,
    /// The variables of the interface.
    pub interface: Vec<Interface>,
    /// The marker functions.
    pub markers: Vec<Marker>,
}

/// Why the pass could not make the stage.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// The words are not a module.
    #[error(transparent)]
    Words(#[from] SpirvError),
    /// Something the pass needs is not in the module.
    #[error("{0}")]
    Missing(String),
}

fn word_count(n: usize) -> Result<u32, GeometryError> {
    u32::try_from(n)
        .ok()
        .filter(|&n| n <= 0xffff)
        .ok_or_else(|| GeometryError::Missing("an instruction too long".into()))
}

/// An instruction's words.
pub(crate) fn inst(opcode: u32, operands: &[u32]) -> Result<Vec<u32>, GeometryError> {
    let count = word_count(operands.len().saturating_add(1))?;
    let mut v = Vec::with_capacity(operands.len().saturating_add(1));
    v.push(count.wrapping_shl(16) | opcode);
    v.extend_from_slice(operands);
    Ok(v)
}

/// The literal string starting at `words` (`OpName`'s operand).
pub(crate) fn string(words: &[u32]) -> String {
    let mut bytes = Vec::new();
    'outer: for w in words {
        for b in w.to_le_bytes() {
            if b == 0 {
                break 'outer;
            }
            bytes.push(b);
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Makes the geometry stage `stage` of the module `words` (see the module
/// documentation).
pub fn make_geometry(words: &mut Vec<u32>, stage: &Stage) -> Result<(), GeometryError> {
    let insts = instructions(words)?;
    let missing = |what: String| GeometryError::Missing(what);
    let mut bound = words.get(3).copied().ok_or(SpirvError::Header)?;
    let mut fresh = || -> Result<u32, GeometryError> {
        let id = bound;
        bound = bound.checked_add(1).ok_or_else(|| GeometryError::Missing("the id bound overflows".into()))?;
        Ok(id)
    };

    // Names, the entry point, the types the pass builds on.
    let mut names: BTreeMap<String, u32> = BTreeMap::new();
    let mut entry: Option<u32> = None;
    let mut uint: Option<u32> = None;
    let mut pointers: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
    let mut pointer_of: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut capabilities: BTreeSet<u32> = BTreeSet::new();
    for &(_, opcode, i) in &insts {
        match (opcode, i) {
            (OP_NAME, [_, id, rest @ ..]) => {
                names.entry(string(rest)).or_insert(*id);
            }
            (OP_ENTRY_POINT, [_, model, id, ..]) if *model == MODEL_GL_COMPUTE && entry.is_none() => entry = Some(*id),
            (OP_TYPE_INT, [_, id, 32, 0]) => uint = Some(*id),
            (OP_TYPE_POINTER, [_, id, storage, pointee]) => {
                pointers.insert(*id, (*storage, *pointee));
                pointer_of.entry((*storage, *pointee)).or_insert(*id);
            }
            (OP_CAPABILITY, [_, c]) => {
                capabilities.insert(*c);
            }
            _ => {}
        }
    }
    let entry = entry.ok_or_else(|| missing("no GLCompute entry point".into()))?;

    // The variables to move, by id.
    let mut storage_of: BTreeMap<u32, u32> = BTreeMap::new();
    let mut decorations = Vec::new();
    let mut interface_ids = Vec::new();
    for v in &stage.interface {
        // A variable naga left out (the program never emits, say) is not in the interface.
        let Some(&id) = names.get(&v.name) else { continue };
        storage_of.insert(id, v.storage);
        interface_ids.push(id);
        for (d, operands) in &v.decorations {
            let mut o = vec![id, *d];
            o.extend_from_slice(operands);
            decorations.extend(inst(OP_DECORATE, &o)?);
        }
    }
    let mut markers: BTreeMap<u32, (MarkerKind, u32)> = BTreeMap::new();
    for m in &stage.markers {
        // A marker naga left out (no call) needs nothing.
        if let Some(&id) = names.get(&m.name) {
            markers.insert(id, (m.kind, m.stream));
        }
    }

    // New pointer types, keyed by (storage, pointee), each placed after the Private
    // pointer to the same type; stream constants.
    let mut new_pointers: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut after_pointer: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut retype: BTreeMap<u32, u32> = BTreeMap::new();
    let mut pointer_in = |storage: u32, private_ptr: u32, fresh: &mut dyn FnMut() -> Result<u32, GeometryError>| {
        let &(_, pointee) = pointers.get(&private_ptr).ok_or_else(|| missing(format!("type %{private_ptr}")))?;
        if let Some(&id) = pointer_of.get(&(storage, pointee)).or_else(|| new_pointers.get(&(storage, pointee))) {
            return Ok::<u32, GeometryError>(id);
        }
        let id = fresh()?;
        new_pointers.insert((storage, pointee), id);
        after_pointer.entry(private_ptr).or_default().extend(inst(OP_TYPE_POINTER, &[id, storage, pointee])?);
        Ok(id)
    };
    for &(at, opcode, i) in &insts {
        match (opcode, i) {
            (OP_VARIABLE, [_, ty, id, storage, ..]) if storage_of.contains_key(id) => {
                if *storage != STORAGE_PRIVATE {
                    return Err(missing(format!("variable %{id} (word {at}) is not Private")));
                }
                let sc = storage_of.get(id).copied().unwrap_or(STORAGE_PRIVATE);
                let p = pointer_in(sc, *ty, &mut fresh)?;
                retype.insert(*id, p);
            }
            (op, [_, ty, id, base, ..]) if OP_ACCESS_CHAIN.contains(&op) => {
                if let Some(&sc) = storage_of.get(base) {
                    storage_of.insert(*id, sc);
                    let p = pointer_in(sc, *ty, &mut fresh)?;
                    retype.insert(*id, p);
                }
            }
            _ => {}
        }
    }
    let mut constants = Vec::new();
    let mut stream_constant: BTreeMap<u32, u32> = BTreeMap::new();
    if stage.streams {
        let uint = uint.ok_or_else(|| missing("no 32-bit unsigned integer type".into()))?;
        for &(_, s) in markers.values() {
            if let std::collections::btree_map::Entry::Vacant(e) = stream_constant.entry(s) {
                let id = fresh()?;
                e.insert(id);
                constants.extend(inst(OP_CONSTANT, &[uint, id, s])?);
            }
        }
    }
    let mut new_capabilities = Vec::new();
    let mut wanted = vec![capability::GEOMETRY];
    wanted.extend_from_slice(&stage.capabilities);
    for c in wanted {
        if capabilities.insert(c) {
            new_capabilities.extend(inst(OP_CAPABILITY, &[c])?);
        }
    }
    let mut modes = Vec::new();
    for (m, operands) in &stage.modes {
        let mut o = vec![entry, *m];
        o.extend_from_slice(operands);
        modes.extend(inst(OP_EXECUTION_MODE, &o)?);
    }

    // Rewrite.
    let mut out: Vec<u32> = Vec::with_capacity(words.len().saturating_add(decorations.len()).saturating_add(256));
    out.extend(words.get(..HEADER).ok_or(SpirvError::Header)?);
    let mut capabilities_done = false;
    let mut decorations_done = false;
    let mut modes_done = false;
    let mut constants_done = false;
    let mut in_preamble = true;
    for &(_, opcode, i) in &insts {
        if !capabilities_done && opcode != OP_CAPABILITY {
            out.append(&mut new_capabilities);
            capabilities_done = true;
        }
        if in_preamble && !PREAMBLE.contains(&opcode) {
            in_preamble = false;
            out.append(&mut decorations);
            decorations_done = true;
        }
        if opcode == OP_FUNCTION && !constants_done {
            out.append(&mut constants);
            constants_done = true;
        }
        match (opcode, i) {
            (OP_ENTRY_POINT, [_, _, id, rest @ ..]) if *id == entry => {
                let mut o = vec![MODEL_GEOMETRY, entry];
                o.extend_from_slice(rest);
                o.extend_from_slice(&interface_ids);
                out.extend(inst(OP_ENTRY_POINT, &o)?);
            }
            (OP_EXECUTION_MODE, [_, id, m, ..]) if *id == entry && *m == MODE_LOCAL_SIZE => {
                out.append(&mut modes);
                modes_done = true;
            }
            (OP_TYPE_POINTER, [_, id, ..]) => {
                out.extend_from_slice(i);
                if let Some(extra) = after_pointer.get(id) {
                    out.extend_from_slice(extra);
                }
            }
            (OP_VARIABLE, [_, _, id, ..]) if retype.contains_key(id) => {
                let p = retype.get(id).copied().unwrap_or(0);
                let sc = storage_of.get(id).copied().unwrap_or(STORAGE_PRIVATE);
                out.extend(inst(OP_VARIABLE, &[p, *id, sc])?);
            }
            (op, [_, _, id, rest @ ..]) if OP_ACCESS_CHAIN.contains(&op) && retype.contains_key(id) => {
                let p = retype.get(id).copied().unwrap_or(0);
                let mut o = vec![p, *id];
                o.extend_from_slice(rest);
                out.extend(inst(op, &o)?);
            }
            (OP_FUNCTION_CALL, [_, _, _, f, ..]) if markers.contains_key(f) => {
                let (kind, s) = markers.get(f).copied().unwrap_or((MarkerKind::Emit, 0));
                let w = match (kind, stage.streams) {
                    (MarkerKind::Emit, false) => inst(OP_EMIT_VERTEX, &[])?,
                    (MarkerKind::Cut, false) => inst(OP_END_PRIMITIVE, &[])?,
                    (k, true) => {
                        let c = stream_constant.get(&s).copied().unwrap_or(0);
                        inst(if k == MarkerKind::Emit { OP_EMIT_STREAM_VERTEX } else { OP_END_STREAM_PRIMITIVE }, &[c])?
                    }
                };
                out.extend(w);
            }
            _ => out.extend_from_slice(i),
        }
    }
    if !modes_done {
        return Err(missing("the entry point has no LocalSize execution mode".into()));
    }
    if !decorations_done || !constants_done {
        return Err(missing("no types or no functions".into()));
    }
    if let Some(b) = out.get_mut(3) {
        *b = bound;
    }
    *words = out;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<u32> {
        let m = naga::front::wgsl::parse_str(src).unwrap();
        let info = crate::validate(&m).unwrap();
        crate::spirv_words(&m, &info, naga::back::spv::WriterFlags::DEBUG).unwrap()
    }

    #[test]
    fn a_compute_entry_point_becomes_a_geometry_shader() {
        let src = "var<private> a: array<vec4<f32>, 3>;\nvar<private> b: vec4<f32>;\n\
                   fn mk_emit() {}\nfn mk_cut() {}\n\
                   @compute @workgroup_size(1) fn main() { b = a[1]; mk_emit(); mk_cut(); }";
        let mut w = words(src);
        let stage = Stage {
            capabilities: vec![],
            modes: vec![(mode::TRIANGLES, vec![]), (mode::OUTPUT_VERTICES, vec![3]), (mode::OUTPUT_POINTS, vec![])],
            streams: false,
            interface: vec![
                Interface {
                    name: "a".into(),
                    storage: STORAGE_INPUT,
                    decorations: vec![(decoration::LOCATION, vec![0])],
                },
                Interface {
                    name: "b".into(),
                    storage: STORAGE_OUTPUT,
                    decorations: vec![(decoration::LOCATION, vec![0])],
                },
            ],
            markers: vec![
                Marker { name: "mk_emit".into(), kind: MarkerKind::Emit, stream: 0 },
                Marker { name: "mk_cut".into(), kind: MarkerKind::Cut, stream: 0 },
            ],
        };
        make_geometry(&mut w, &stage).unwrap();
        let insts = instructions(&w).unwrap();
        let ops: Vec<u32> = insts.iter().map(|x| x.1).collect();
        assert!(ops.contains(&OP_EMIT_VERTEX) && ops.contains(&OP_END_PRIMITIVE));
        assert!(!ops.contains(&OP_FUNCTION_CALL), "the marker calls are replaced");
        let ep = insts.iter().find(|x| x.1 == OP_ENTRY_POINT).unwrap();
        assert_eq!(ep.2[1], MODEL_GEOMETRY);
        assert!(!insts.iter().any(|x| x.1 == OP_EXECUTION_MODE && x.2[2] == MODE_LOCAL_SIZE));
        assert!(insts.iter().any(|x| x.1 == OP_VARIABLE && x.2[3] == STORAGE_INPUT && x.2.len() == 4));
        assert!(insts.iter().any(|x| x.1 == OP_VARIABLE && x.2[3] == STORAGE_OUTPUT && x.2.len() == 4));
        let bound = w[3];
        for x in &insts {
            if let (OP_TYPE_POINTER, [_, id, ..]) = (x.1, x.2) {
                assert!(*id < bound);
            }
        }
    }

    #[test]
    fn malformed_modules_are_errors() {
        let stage = Stage { capabilities: vec![], modes: vec![], streams: false, interface: vec![], markers: vec![] };
        assert!(make_geometry(&mut vec![], &stage).is_err());
        let mut w = words("var<private> a: u32;\nfn f() { a = 1u; }\n@compute @workgroup_size(1) fn main() { f(); }");
        let with_var = Stage {
            interface: vec![Interface { name: "a".into(), storage: STORAGE_INPUT, decorations: vec![] }],
            ..stage.clone()
        };
        let mut cut = w.clone();
        cut.push((5 << 16) | 129); // an instruction claiming 5 words, 1 present
        assert!(matches!(make_geometry(&mut cut, &with_var), Err(GeometryError::Words(_))));
        let mut not_private = w.clone();
        // The variable's storage class operand: make it Function (7).
        let insts = instructions(&w).unwrap();
        let var = insts.iter().find(|x| x.1 == OP_VARIABLE).unwrap();
        not_private[var.0 + 3] = 7;
        assert!(matches!(make_geometry(&mut not_private, &with_var), Err(GeometryError::Missing(_))));
        assert!(make_geometry(&mut w, &with_var).is_ok());
        let mut w = words("@vertex fn main() -> @builtin(position) vec4<f32> { return vec4<f32>(0.0); }");
        assert!(matches!(make_geometry(&mut w, &stage), Err(GeometryError::Missing(_))));
    }
}
