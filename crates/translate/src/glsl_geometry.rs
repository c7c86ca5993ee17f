//! A pass over GLSL text that turns a compute shader written by naga's GLSL back end
//! into a GLSL geometry shader (naga's IR has no geometry stage).
//!
//! The text it reads is naga's GLSL of the module [`crate::gs_native`] writes, the same
//! module the SPIR-V pass ([`crate::spirv_geometry`]) reads, described by the same
//! [`Stage`]:
//! - the `layout(local_size_x = ...) in;` line (and naga's `GL_ARB_compute_shader`
//!   extension line) becomes the stage's layout qualifiers
//!   (GLSL 4.50, 4.4.1.2 "Geometry Shader Inputs" and 4.4.2.2 "Geometry Shader
//!   Outputs"): the input primitive (`points`, `lines`, `lines_adjacency`,
//!   `triangles`, `triangles_adjacency`), `invocations` (`dcl_gsinstances`), the output
//!   topology (`points`, `line_strip`, `triangle_strip`) with `max_vertices`;
//! - each staging variable with a `Location` (a naga `Private` global, written at file
//!   scope as `TYPE NAME[DIMS] = ZERO;`) becomes an `in` or `out` variable with a
//!   `layout(location, component, stream, xfb_buffer, xfb_offset, xfb_stride)`
//!   qualifier (GLSL 4.50, 4.4.2.1 "Transform Feedback Layout Qualifiers");
//! - the staging variables of built-ins stay private: `main` first copies the inputs
//!   into them (`gl_in[k].gl_Position`, `gl_in[k].gl_ClipDistance[j]`,
//!   `gl_in[k].gl_CullDistance[j]`, `gl_PrimitiveIDIn`, `gl_InvocationID`), and each
//!   emit copies them to the outputs (`gl_Position`, `gl_ClipDistance[j]`,
//!   `gl_CullDistance[j]`, `gl_Layer`, `gl_ViewportIndex`, `gl_PrimitiveID`) of the
//!   stream they belong to, the `gl_PerVertex` blocks redeclared with the distances'
//!   sizes;
//! - the empty marker functions (`void NAME() { return; }`) get the body their calls
//!   stand for: `EmitVertex()` / `EndPrimitive()`, or with streams
//!   `EmitStreamVertex(s)` / `EndStreamPrimitive(s)`.
//!
//! The [`Flavor`] chooses the resource model and clip space: Vulkan's (`set` = group,
//! `binding` = binding, as in the SPIR-V) or desktop OpenGL's (`binding` = binding, the
//! position's depth in OpenGL's `[-w, w]` as naga's GLSL vertex shaders write it).
//! The pass looks for every name it needs as a whole declaration or definition and
//! stops with an error when naga wrote one otherwise; everything else is kept as it is.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::spirv_geometry::{builtin, decoration, mode, MarkerKind, Stage, STORAGE_INPUT, STORAGE_OUTPUT};

/// Which GLSL the geometry shader is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Flavor {
    /// GLSL 4.50 for Vulkan (`glslangValidator -V`, `GL_KHR_vulkan_glsl`): resources at
    /// `layout(set = group, binding = binding)`, positions in Vulkan's clip space as
    /// in the SPIR-V geometry shader.
    #[default]
    Vulkan,
    /// GLSL 4.50 core for desktop OpenGL: resources at `layout(binding = binding)`
    /// (OpenGL's binding points are per kind of resource, so two of one kind from
    /// different groups at one binding are refused), positions as naga's GLSL
    /// vertex shaders write them (its `ADJUST_COORDINATE_SPACE`: depth in `[-w, w]`).
    Desktop,
}

/// Why the pass could not make the stage.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GlslGeometryError {
    /// Something the pass needs is not in the text as naga writes it.
    #[error("{0}")]
    Missing(String),
    /// The stage holds something GLSL cannot say.
    #[error("{0}")]
    Unsupported(String),
}

type R<T> = Result<T, GlslGeometryError>;

/// A file-scope declaration `TYPE NAME[D0][D1]... [= INIT];`.
struct Declaration {
    line: usize,
    ty: String,
    dims: Vec<u32>,
}

/// Whether `name` is kept as it is by naga's namer: ASCII letters, digits and single
/// underscores, not ending in a digit.
fn plain(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.contains("__")
        && !name.ends_with(|c: char| c.is_ascii_digit())
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `name` occurs in `text` as a whole identifier.
fn mentions(text: &str, name: &str) -> bool {
    let mut from = 0;
    while let Some(at) = text.get(from..).and_then(|t| t.find(name)) {
        let start = from.saturating_add(at);
        let end = start.saturating_add(name.len());
        let before = text.get(..start).and_then(|t| t.chars().next_back()).is_some_and(is_ident);
        let after = text.get(end..).and_then(|t| t.chars().next()).is_some_and(is_ident);
        if !before && !after {
            return true;
        }
        from = end;
    }
    false
}

/// The file-scope declaration of `name` among `lines`, if there is one.
fn declaration(lines: &[String], name: &str) -> R<Option<Declaration>> {
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with(char::is_whitespace) {
            continue;
        }
        let head = l.split(" = ").next().unwrap_or(l).trim_end_matches(';');
        let Some((ty, rest)) = head.rsplit_once(' ') else { continue };
        let (n, dims) = rest.split_once('[').map_or((rest, ""), |(n, d)| (n, d));
        if n != name {
            continue;
        }
        let mut sizes = Vec::new();
        if !dims.is_empty() {
            for d in format!("[{dims}").split('[').skip(1) {
                let d = d.strip_suffix(']').unwrap_or(d);
                sizes.push(
                    d.parse::<u32>()
                        .map_err(|_| GlslGeometryError::Missing(format!("`{name}`: array size `{d}` in `{l}`")))?,
                );
            }
        }
        if !l.ends_with(';') || ty.is_empty() || ty.contains(['(', '{', '}']) {
            return Err(GlslGeometryError::Missing(format!("`{name}`: not a declaration naga writes: `{l}`")));
        }
        return Ok(Some(Declaration { line: i, ty: ty.to_string(), dims: sizes }));
    }
    Ok(None)
}

fn missing(what: impl Into<String>) -> GlslGeometryError {
    GlslGeometryError::Missing(what.into())
}

/// The GLSL name of an input primitive or output topology mode.
fn mode_name(m: u32) -> Option<&'static str> {
    Some(match m {
        mode::INPUT_POINTS | mode::OUTPUT_POINTS => "points",
        mode::INPUT_LINES => "lines",
        mode::INPUT_LINES_ADJACENCY => "lines_adjacency",
        mode::TRIANGLES => "triangles",
        mode::INPUT_TRIANGLES_ADJACENCY => "triangles_adjacency",
        mode::OUTPUT_LINE_STRIP => "line_strip",
        mode::OUTPUT_TRIANGLE_STRIP => "triangle_strip",
        _ => return None,
    })
}

/// The decorations' value of `d`, if present with one operand.
fn one(decorations: &[(u32, Vec<u32>)], d: u32) -> Option<u32> {
    decorations.iter().find(|(x, _)| *x == d).and_then(|(_, o)| o.first().copied())
}

/// Rewrites naga's GLSL `text` of the module [`crate::gs_native`] writes into the
/// geometry shader `stage` (see the module documentation). `bindings` maps each
/// `binding = N` naga wrote (its binding map's value) to the resource's `(group,
/// binding)`, which the [`Flavor::Vulkan`] form writes as `set = group, binding =
/// binding`.
pub fn make_geometry(text: &str, stage: &Stage, flavor: Flavor, bindings: &BTreeMap<u8, (u32, u32)>) -> R<String> {
    // naga's extension for compute shaders below GLSL 4.30 is not the stage's.
    let mut lines: Vec<String> =
        text.lines().filter(|l| *l != "#extension GL_ARB_compute_shader : require").map(str::to_string).collect();

    // The layout qualifiers of the stage.
    let mut input = None;
    let mut output = None;
    let mut max_vertices = None;
    let mut invocations = 1u32;
    for (m, operands) in &stage.modes {
        match *m {
            mode::INVOCATIONS => invocations = operands.first().copied().unwrap_or(1),
            mode::OUTPUT_VERTICES => max_vertices = operands.first().copied(),
            mode::XFB => {}
            mode::OUTPUT_POINTS | mode::OUTPUT_LINE_STRIP | mode::OUTPUT_TRIANGLE_STRIP => output = mode_name(*m),
            m => {
                input = Some(mode_name(m).ok_or_else(|| GlslGeometryError::Unsupported(format!("execution mode {m}")))?)
            }
        }
    }
    let input = input.ok_or_else(|| missing("the stage has no input primitive"))?;
    let output = output.ok_or_else(|| missing("the stage has no output topology"))?;
    let max_vertices = max_vertices.ok_or_else(|| missing("the stage has no vertex count"))?;
    let mut head = format!("layout({input}) in;\n");
    if invocations != 1 {
        let _ = writeln!(head, "layout(invocations = {invocations}) in;");
    }
    let _ = write!(head, "layout({output}, max_vertices = {max_vertices}) out;");

    // Interface variables.
    let mut prologue = String::new();
    let mut emits: [String; 4] = Default::default();
    let mut per_vertex_in: Vec<String> = Vec::new();
    let mut per_vertex_out: Vec<String> = Vec::new();
    let mut replace: BTreeMap<usize, String> = BTreeMap::new();
    for v in &stage.interface {
        if !plain(&v.name) {
            return Err(missing(format!("`{}`: a name naga's GLSL back end would change", v.name)));
        }
        let Some(decl) = declaration(&lines, &v.name)? else {
            if mentions(text, &v.name) {
                return Err(missing(format!("`{}` is used but not declared at file scope", v.name)));
            }
            // naga left it out: the entry point never uses it.
            continue;
        };
        let name = &v.name;
        let dims: String = decl.dims.iter().map(|d| format!("[{d}]")).collect();
        let stream = one(&v.decorations, decoration::STREAM).unwrap_or(0);
        let input = match v.storage {
            STORAGE_INPUT => true,
            STORAGE_OUTPUT => false,
            s => return Err(GlslGeometryError::Unsupported(format!("`{name}`: storage class {s}"))),
        };
        if let Some(b) = one(&v.decorations, decoration::BUILT_IN) {
            let vertices = if input { decl.dims.first().copied().unwrap_or(0) } else { 1 };
            let inner = if input { decl.dims.get(1) } else { decl.dims.first() }.copied().unwrap_or(0);
            let target = emits.get_mut(stream as usize).ok_or_else(|| missing(format!("`{name}`: stream {stream}")))?;
            match (input, b) {
                (true, builtin::POSITION) => {
                    for k in 0..vertices {
                        let p = format!("gl_in[{k}].gl_Position");
                        match flavor {
                            Flavor::Vulkan => {
                                let _ = writeln!(prologue, "    {name}[{k}] = {p};");
                            }
                            Flavor::Desktop => {
                                let _ =
                                    writeln!(prologue, "    {name}[{k}] = vec4({p}.xy, ({p}.z + {p}.w) * 0.5, {p}.w);");
                            }
                        }
                    }
                    per_vertex_in.push("    vec4 gl_Position;".into());
                }
                (true, builtin::CLIP_DISTANCE | builtin::CULL_DISTANCE) => {
                    let member = if b == builtin::CLIP_DISTANCE { "gl_ClipDistance" } else { "gl_CullDistance" };
                    for k in 0..vertices {
                        for j in 0..inner {
                            let _ = writeln!(prologue, "    {name}[{k}][{j}] = gl_in[{k}].{member}[{j}];");
                        }
                    }
                    per_vertex_in.push(format!("    float {member}[{inner}];"));
                }
                (true, builtin::PRIMITIVE_ID) => {
                    let _ = writeln!(prologue, "    {name} = uint(gl_PrimitiveIDIn);");
                }
                (true, builtin::INVOCATION_ID) => {
                    let _ = writeln!(prologue, "    {name} = uint(gl_InvocationID);");
                }
                (false, builtin::POSITION) => {
                    let _ = writeln!(target, "    gl_Position = {name};");
                    if flavor == Flavor::Desktop {
                        let _ = writeln!(target, "    gl_Position.z = {name}.z * 2.0 - {name}.w;");
                    }
                    per_vertex_out.push("    vec4 gl_Position;".into());
                }
                (false, builtin::CLIP_DISTANCE | builtin::CULL_DISTANCE) => {
                    let member = if b == builtin::CLIP_DISTANCE { "gl_ClipDistance" } else { "gl_CullDistance" };
                    for j in 0..inner {
                        let _ = writeln!(target, "    {member}[{j}] = {name}[{j}];");
                    }
                    per_vertex_out.push(format!("    float {member}[{inner}];"));
                }
                (false, builtin::LAYER) => {
                    let _ = writeln!(target, "    gl_Layer = int({name});");
                }
                (false, builtin::VIEWPORT_INDEX) => {
                    let _ = writeln!(target, "    gl_ViewportIndex = int({name});");
                }
                (false, builtin::PRIMITIVE_ID) => {
                    let _ = writeln!(target, "    gl_PrimitiveID = int({name});");
                }
                (_, b) => {
                    return Err(GlslGeometryError::Unsupported(format!("`{name}`: built-in {b} as this interface")))
                }
            }
            continue;
        }
        let mut qualifiers = Vec::new();
        for (d, operands) in &v.decorations {
            let value = operands.first().copied().unwrap_or(0);
            match *d {
                decoration::LOCATION => qualifiers.push(format!("location = {value}")),
                decoration::COMPONENT => qualifiers.push(format!("component = {value}")),
                decoration::STREAM => qualifiers.push(format!("stream = {value}")),
                decoration::XFB_BUFFER => qualifiers.push(format!("xfb_buffer = {value}")),
                decoration::OFFSET => qualifiers.push(format!("xfb_offset = {value}")),
                decoration::XFB_STRIDE => qualifiers.push(format!("xfb_stride = {value}")),
                decoration::FLAT => {}
                d => return Err(GlslGeometryError::Unsupported(format!("`{name}`: decoration {d}"))),
            }
        }
        let flat = if v.decorations.iter().any(|(d, _)| *d == decoration::FLAT) { "flat " } else { "" };
        let storage = if input { "in" } else { "out" };
        replace
            .insert(decl.line, format!("layout({}) {flat}{storage} {} {name}{dims};", qualifiers.join(", "), decl.ty));
    }
    for (at, l) in replace {
        if let Some(line) = lines.get_mut(at) {
            *line = l;
        }
    }

    // Marker functions.
    for m in &stage.markers {
        if !plain(&m.name) {
            return Err(missing(format!("`{}`: a name naga's GLSL back end would change", m.name)));
        }
        let signature = format!("void {}() {{", m.name);
        let Some(start) = lines.iter().position(|l| *l == signature) else {
            if mentions(text, &m.name) {
                return Err(missing(format!("`{}` is called but not defined as naga writes it", m.name)));
            }
            continue;
        };
        let end = lines
            .iter()
            .skip(start)
            .position(|l| l == "}")
            .map(|n| start.saturating_add(n))
            .ok_or_else(|| missing(format!("`{}`: no end", m.name)))?;
        let body = lines.get(start.saturating_add(1)..end).unwrap_or_default();
        if body.iter().any(|l| !matches!(l.trim(), "" | "return;")) {
            return Err(missing(format!("`{}`: not empty", m.name)));
        }
        let s = m.stream;
        let mut new = vec![signature];
        let action = match (m.kind, stage.streams) {
            (MarkerKind::Emit, false) => "EmitVertex();".to_string(),
            (MarkerKind::Cut, false) => "EndPrimitive();".to_string(),
            (MarkerKind::Emit, true) => format!("EmitStreamVertex({s});"),
            (MarkerKind::Cut, true) => format!("EndStreamPrimitive({s});"),
        };
        if m.kind == MarkerKind::Emit {
            let copies = emits.get(s as usize).ok_or_else(|| missing(format!("`{}`: stream {s}", m.name)))?;
            new.extend(copies.lines().map(str::to_string));
        }
        new.push(format!("    {action}"));
        new.push("}".into());
        lines.splice(start..=end, new);
    }

    // The entry point's prologue.
    let mains: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| *l == "void main() {").map(|(i, _)| i).collect();
    let &[main] = mains.as_slice() else {
        return Err(missing(format!("{} `void main() {{` lines", mains.len())));
    };
    let at = main.saturating_add(1);
    lines.splice(at..at, prologue.lines().map(str::to_string));

    // Resources. Desktop OpenGL has no sets: each kind of binding point (uniform blocks,
    // storage blocks, texture units, image units) is one flat range, so two resources of
    // one kind from different groups must not share a binding.
    let mut pending = BTreeMap::new();
    let mut desktop_points: BTreeMap<(&'static str, u32), u32> = BTreeMap::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with("layout(") || !l.contains("binding = ") {
            continue;
        }
        let kind = if l.contains(" buffer ") {
            "storage block"
        } else if l.contains(" image") {
            "image unit"
        } else if l.contains(" sampler") || l.contains(" texture") {
            "texture unit"
        } else {
            "uniform block"
        };
        let mut out = String::new();
        let mut rest = l.as_str();
        while let Some(at) = rest.find("binding = ") {
            let (before, after) = rest.split_at(at);
            let after = after.get("binding = ".len()..).unwrap_or("");
            let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
            let n: u8 = digits.parse().map_err(|_| missing(format!("a binding in `{l}`")))?;
            let (group, binding) =
                bindings.get(&n).copied().ok_or_else(|| missing(format!("binding {n} of `{l}` is not in the map")))?;
            out.push_str(before);
            match flavor {
                Flavor::Vulkan => {
                    let _ = write!(out, "set = {group}, binding = {binding}");
                }
                Flavor::Desktop => {
                    if let Some(other) = desktop_points.insert((kind, binding), group).filter(|&g| g != group) {
                        return Err(GlslGeometryError::Unsupported(format!(
                            "desktop OpenGL has one range of {kind} bindings: groups {other} and {group} both \
                             use binding {binding} (map one of them elsewhere in the bindings)"
                        )));
                    }
                    let _ = write!(out, "binding = {binding}");
                }
            }
            rest = after.get(digits.len()..).unwrap_or("");
        }
        out.push_str(rest);
        pending.insert(i, out);
    }
    for (i, l) in pending {
        if let Some(line) = lines.get_mut(i) {
            *line = l;
        }
    }

    // The head: the stage's layout in place of the workgroup size, the redeclared
    // gl_PerVertex blocks after it.
    let local: Vec<usize> =
        lines.iter().enumerate().filter(|(_, l)| l.starts_with("layout(local_size_x")).map(|(i, _)| i).collect();
    let &[local] = local.as_slice() else {
        return Err(missing(format!("{} `layout(local_size_x = ...) in;` lines", local.len())));
    };
    let mut blocks = String::new();
    if per_vertex_in.iter().any(|m| m.contains("Distance")) {
        let _ = write!(blocks, "\nin gl_PerVertex {{\n{}\n}} gl_in[];", per_vertex_in.join("\n"));
    }
    if per_vertex_out.iter().any(|m| m.contains("Distance")) {
        let _ = write!(blocks, "\nout gl_PerVertex {{\n{}\n}};", per_vertex_out.join("\n"));
    }
    if let Some(l) = lines.get_mut(local) {
        *l = head + &blocks;
    }
    if !lines.first().is_some_and(|l| l.starts_with("#version 450")) {
        return Err(missing("no `#version 450` line"));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;
    use crate::spirv_geometry::{Interface, Marker};

    fn glsl(src: &str) -> String {
        glsl_bound(src, naga::back::glsl::BindingMap::default())
    }

    fn glsl_bound(src: &str, map: naga::back::glsl::BindingMap) -> String {
        let m = naga::front::wgsl::parse_str(src).unwrap();
        let info = crate::validate(&m).unwrap();
        crate::glsl_text(&m, &info, map).unwrap()
    }

    const SRC: &str = "var<private> a: array<vec4<f32>, 3>;\nvar<private> b: vec4<f32>;\n\
                       var<private> p: vec4<f32>;\nvar<private> q: array<vec4<f32>, 3>;\n\
                       fn mk_emit() {}\nfn mk_cut() {}\n\
                       @compute @workgroup_size(1) fn main() { b = a[1]; p = q[2]; mk_emit(); mk_cut(); }";

    fn stage(streams: bool) -> Stage {
        Stage {
            capabilities: vec![],
            modes: vec![
                (mode::INVOCATIONS, vec![2]),
                (mode::TRIANGLES, vec![]),
                (mode::OUTPUT_VERTICES, vec![3]),
                (mode::OUTPUT_POINTS, vec![]),
            ],
            streams,
            interface: vec![
                Interface {
                    name: "a".into(),
                    storage: STORAGE_INPUT,
                    decorations: vec![(decoration::LOCATION, vec![0])],
                },
                Interface {
                    name: "b".into(),
                    storage: STORAGE_OUTPUT,
                    decorations: vec![
                        (decoration::LOCATION, vec![1]),
                        (decoration::COMPONENT, vec![0]),
                        (decoration::XFB_BUFFER, vec![0]),
                        (decoration::XFB_STRIDE, vec![16]),
                        (decoration::OFFSET, vec![0]),
                    ],
                },
                Interface {
                    name: "p".into(),
                    storage: STORAGE_OUTPUT,
                    decorations: vec![(decoration::BUILT_IN, vec![builtin::POSITION])],
                },
                Interface {
                    name: "q".into(),
                    storage: STORAGE_INPUT,
                    decorations: vec![(decoration::BUILT_IN, vec![builtin::POSITION])],
                },
            ],
            markers: vec![
                Marker { name: "mk_emit".into(), kind: MarkerKind::Emit, stream: 0 },
                Marker { name: "mk_cut".into(), kind: MarkerKind::Cut, stream: 0 },
            ],
        }
    }

    #[test]
    fn a_compute_shader_becomes_a_geometry_shader() {
        let out = make_geometry(&glsl(SRC), &stage(false), Flavor::Vulkan, &BTreeMap::new()).unwrap();
        for line in [
            "layout(triangles) in;",
            "layout(invocations = 2) in;",
            "layout(points, max_vertices = 3) out;",
            "layout(location = 0) in vec4 a[3];",
            "layout(location = 1, component = 0, xfb_buffer = 0, xfb_stride = 16, xfb_offset = 0) out vec4 b;",
            "    q[2] = gl_in[2].gl_Position;",
            "    gl_Position = p;",
            "    EmitVertex();",
            "    EndPrimitive();",
        ] {
            assert!(out.lines().any(|l| l == line), "no `{line}` in\n{out}");
        }
        assert!(!out.contains("local_size"));
        let streams = make_geometry(&glsl(SRC), &stage(true), Flavor::Desktop, &BTreeMap::new()).unwrap();
        assert!(streams.contains("EmitStreamVertex(0);") && streams.contains("EndStreamPrimitive(0);"));
        assert!(streams.contains("gl_Position.z = p.z * 2.0 - p.w;"), "{streams}");
    }

    #[test]
    fn desktop_bindings_of_one_kind_from_two_groups_must_differ() {
        let src = SRC.replace(
            "fn mk_emit() {}",
            "@group(1) @binding(0) var<storage, read> s: array<u32>;\n\
             @group(3) @binding(BINDING) var<storage, read_write> u: array<u32>;\nfn mk_emit() {}",
        );
        let src =
            |binding: u32| src.replace("BINDING", &binding.to_string()).replace("p = q[2];", "p = q[2]; u[0] = s[0];");
        let rb = |group, binding| naga::ResourceBinding { group, binding };
        for (binding, collides) in [(0, true), (1, false)] {
            let map = naga::back::glsl::BindingMap::from([(rb(1, 0), 0u8), (rb(3, binding), 1u8)]);
            let text = glsl_bound(&src(binding), map);
            let bindings = BTreeMap::from([(0u8, (1, 0)), (1u8, (3, binding))]);
            assert!(make_geometry(&text, &stage(false), Flavor::Vulkan, &bindings).is_ok());
            let desktop = make_geometry(&text, &stage(false), Flavor::Desktop, &bindings);
            assert_eq!(matches!(desktop, Err(GlslGeometryError::Unsupported(_))), collides, "{desktop:?}");
        }
    }

    #[test]
    fn text_naga_did_not_write_is_an_error() {
        let text = glsl(SRC);
        let s = stage(false);
        let none = BTreeMap::new();
        // No workgroup-size line, no main, a marker with a body, a name naga renames.
        let no_local: String = text.lines().filter(|l| !l.starts_with("layout(local")).collect::<Vec<_>>().join("\n");
        assert!(make_geometry(&no_local, &s, Flavor::Vulkan, &none).is_err());
        assert!(make_geometry(&text.replace("void main()", "void main2()"), &s, Flavor::Vulkan, &none).is_err());
        let busy = text.replace("void mk_cut() {\n", "void mk_cut() {\n    a[0] = vec4(1.0);\n");
        assert!(matches!(make_geometry(&busy, &s, Flavor::Vulkan, &none), Err(GlslGeometryError::Missing(_))));
        let mut renamed = s.clone();
        renamed.interface[0].name = "a0".into();
        assert!(make_geometry(&text, &renamed, Flavor::Vulkan, &none).is_err());
        // A declaration that is used but not where naga writes globals.
        let hidden = text.replace("vec4 a[3]", "    vec4 a[3]");
        assert!(make_geometry(&hidden, &s, Flavor::Vulkan, &none).is_err());
        assert!(make_geometry("", &s, Flavor::Vulkan, &none).is_err());
        let mut unknown = s.clone();
        unknown.modes.push((999, vec![]));
        assert!(matches!(
            make_geometry(&text, &unknown, Flavor::Vulkan, &none),
            Err(GlslGeometryError::Unsupported(_))
        ));
    }
}
