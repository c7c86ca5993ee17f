//! Geometry shaders as native SPIR-V and GLSL geometry shaders (see
//! [Geometry shaders in SPIR-V](crate#geometry-shaders-in-spir-v)).
//!
//! naga's IR has no geometry stage, so the shader is written in two steps: the front
//! end's body of the program (`dx_run`, as for the compute lowering) goes into a WGSL
//! module whose compute entry point copies staging variables into the input registers,
//! runs the body, and whose `dx_emit`/`dx_cut` copy the output registers into staging
//! variables and call empty marker functions; naga writes that module as SPIR-V, and
//! [`crate::spirv_geometry`] then moves the staging variables to the stage's `Input` and
//! `Output` interface, turns the marker calls into `OpEmitVertex`/`OpEndPrimitive`
//! (or their stream forms), and makes the entry point a `Geometry` one. The same module
//! written by naga's GLSL back end becomes a GLSL geometry shader through
//! [`crate::glsl_geometry`], driven by the same [`Stage`] (see
//! [Geometry shaders in GLSL](crate#geometry-shaders-in-glsl)).

use std::fmt::Write as _;

use tpf::{Decl, Index, OperandType, Primitive, PrimitiveTopology, ProgramType};

use crate::gs::{so_layout, OutElement};
use crate::spirv_geometry::{
    builtin, capability, decoration, mode, Interface, Marker, MarkerKind, Stage, STORAGE_INPUT, STORAGE_OUTPUT,
};
use crate::{Options, SigElement, TranslateError};

type R<T> = Result<T, TranslateError>;

/// `D3D_NAME` values read here.
const SV_POSITION: u32 = 1;
const SV_CLIP_DISTANCE: u32 = 2;
const SV_CULL_DISTANCE: u32 = 3;
const SV_RENDER_TARGET_ARRAY_INDEX: u32 = 4;
const SV_VIEWPORT_ARRAY_INDEX: u32 = 5;
const SV_PRIMITIVE_ID: u32 = 7;

/// The y component's sign bit: Vulkan's clip space has y down, Direct3D's y up (as
/// naga's `ADJUST_COORDINATE_SPACE` does for a vertex shader's position).
const FLIP_Y: &str = "vec4<u32>(0u, 0x80000000u, 0u, 0u)";

/// Choices of the native geometry shader.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NativeGsOptions {
    /// The translation options (entry point name, bindings, interfaces).
    pub gs: Options,
    /// A stream-output declaration: the captured components become transform-feedback
    /// outputs (`XfbBuffer` = output slot, `XfbStride`, `Offset`).
    pub stream_output: Option<streamout::StreamOutputDesc>,
}

/// A signature element with everything the interface needs.
#[derive(Debug, Clone)]
struct Element {
    stream: u32,
    name: String,
    index: u32,
    system_value: u32,
    component_type: u32,
    register: u32,
    mask: u8,
}

fn input_error(e: impl std::fmt::Display) -> TranslateError {
    TranslateError::Input(e.to_string())
}

fn pipeline(what: impl Into<String>) -> TranslateError {
    TranslateError::Pipeline { what: what.into() }
}

/// A container's program and its input and output signatures.
fn container(bytes: &[u8]) -> R<(tpf::Program<'_>, Vec<Element>, Vec<Element>)> {
    let c = dxbc::Container::parse(bytes).map_err(input_error)?;
    let chunk = c
        .chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])
        .ok_or_else(|| TranslateError::Input("no SHDR or SHEX chunk".into()))?;
    let program = tpf::decode(chunk.data).map_err(|e| input_error(e.rebased(chunk.data_offset())))?;
    let read = |fourccs: &[dxbc::FourCc]| -> R<Vec<Element>> {
        let Some(chunk) = c.chunk_any(fourccs) else { return Ok(Vec::new()) };
        let Some(format) = dxbc::SignatureFormat::for_fourcc(chunk.fourcc) else { return Ok(Vec::new()) };
        let sig = dxbc::Signature::parse_fields(chunk.data, format).map_err(input_error)?;
        Ok(sig
            .elements
            .iter()
            .map(|e| Element {
                stream: e.stream,
                name: e.semantic_name.to_string(),
                index: e.semantic_index,
                system_value: u32::from(e.system_value),
                component_type: u32::from(e.component_type),
                register: e.register,
                mask: e.mask & 15,
            })
            .collect())
    };
    let isgn = read(&[dxbc::FourCc::ISGN, dxbc::FourCc::ISG1])?;
    let osgn = read(&[dxbc::FourCc::OSGN, dxbc::FourCc::OSG5, dxbc::FourCc::OSG1])?;
    Ok((program, isgn, osgn))
}

fn sig(elements: &[Element]) -> Vec<SigElement> {
    elements
        .iter()
        .map(|e| SigElement {
            semantic_name: e.name.clone(),
            semantic_index: e.index,
            register: e.register,
            mask: e.mask,
            component_type: e.component_type,
        })
        .collect()
}

/// The WGSL scalar type of a `D3D_REGISTER_COMPONENT_TYPE`.
fn scalar(component_type: u32) -> &'static str {
    match component_type {
        1 => "u32",
        2 => "i32",
        _ => "f32",
    }
}

/// `T` for one component, `vecN<T>` for more.
fn vector(n: u32, t: &str) -> String {
    if n <= 1 {
        t.to_string()
    } else {
        format!("vec{n}<{t}>")
    }
}

/// The swizzle of `count` components from `first`.
fn swizzle(first: u32, count: u32) -> String {
    "xyzw".chars().skip(first as usize).take(count as usize).collect()
}

/// The native geometry shader's parts: the WGSL module source and the stage the
/// SPIR-V pass makes of it.
struct Plan {
    source: String,
    stage: Stage,
}

/// One output variable: `count` components of register `register` from `first` in
/// stream `stream`, at `location`, with its transform-feedback place.
struct Piece {
    stream: u32,
    register: u32,
    first: u32,
    count: u32,
    location: u32,
    ty: &'static str,
    xfb: Option<Xfb>,
}

/// A transform-feedback place: buffer, stride, byte offset.
type Xfb = (u32, u32, u32);

fn plan(bytes: &[u8], options: &NativeGsOptions) -> R<Plan> {
    let (program, isgn, osgn) = container(bytes)?;
    if program.version.ty != ProgramType::Geometry {
        return Err(TranslateError::Stage { profile: program.version.profile() });
    }
    let (globals, body, decls) = crate::front::geometry(&program, &sig(&isgn), &sig(&osgn), &options.gs)?;
    let input = decls.input_primitive.ok_or_else(|| pipeline("the geometry shader declares no input primitive"))?;
    let (vertices, input_mode) = match input {
        Primitive::Point => (1u32, mode::INPUT_POINTS),
        Primitive::Line => (2, mode::INPUT_LINES),
        Primitive::Triangle => (3, mode::TRIANGLES),
        Primitive::LineAdj => (4, mode::INPUT_LINES_ADJACENCY),
        Primitive::TriangleAdj => (6, mode::INPUT_TRIANGLES_ADJACENCY),
        _ => return Err(pipeline("this input primitive")),
    };
    let declared: Vec<usize> = (0..4).filter(|&s| decls.topologies.get(s).copied().flatten().is_some()).collect();
    let first = declared.first().and_then(|&s| decls.topologies.get(s).copied().flatten());
    let output_mode = match first {
        Some(PrimitiveTopology::PointList) | None => mode::OUTPUT_POINTS,
        Some(PrimitiveTopology::LineStrip) => mode::OUTPUT_LINE_STRIP,
        Some(PrimitiveTopology::TriangleStrip) => mode::OUTPUT_TRIANGLE_STRIP,
        Some(t) => return Err(pipeline(format!("output topology {t:?}: a geometry shader emits points or strips"))),
    };
    let streams = declared.iter().any(|&s| s > 0);

    // What the program declares: input registers, vPrim, vGSInstanceID.
    let mut input_registers = std::collections::BTreeSet::new();
    let (mut uses_prim, mut uses_instance) = (false, false);
    let mut output_registers = std::collections::BTreeSet::new();
    for ins in program.iter() {
        let tpf::Body::Decl(d) = ins.body else { continue };
        let (Decl::Register(o) | Decl::RegisterName { operand: o, .. }) = d else { continue };
        let o = ins.operand(o);
        match o.ty {
            OperandType::Input => {
                if let Some(Index::Imm32(r)) = o.index(1) {
                    input_registers.insert(r);
                }
            }
            OperandType::Output => {
                if let Some(r) = o.register() {
                    output_registers.insert(r as u32);
                }
            }
            OperandType::InputPrimitiveId => uses_prim = true,
            OperandType::InputGsInstanceId => uses_instance = true,
            _ => {}
        }
    }

    let mut stage = Stage {
        capabilities: Vec::new(),
        modes: vec![
            (mode::INVOCATIONS, vec![decls.instances.max(1)]),
            (input_mode, vec![]),
            (mode::OUTPUT_VERTICES, vec![decls.max_vertices.max(1)]),
            (output_mode, vec![]),
        ],
        streams,
        interface: Vec::new(),
        markers: Vec::new(),
    };
    if streams {
        stage.capabilities.push(capability::GEOMETRY_STREAMS);
    }
    let mut vars = String::new();
    let mut copy_in = String::new();
    let interface = |stage: &mut Stage, name: &str, storage: u32, decorations: Vec<(u32, Vec<u32>)>| {
        stage.interface.push(Interface { name: name.to_string(), storage, decorations });
    };
    let n_in = decls.input_vertices.min(vertices);

    // Inputs: registers of data at their location; SV_Position, SV_ClipDistance and
    // SV_CullDistance from the built-ins the vertex shader wrote.
    let mut clip_in: Vec<(u32, u32)> = Vec::new();
    let mut cull_in: Vec<(u32, u32)> = Vec::new();
    for &r in &input_registers {
        let here: Vec<&Element> = isgn.iter().filter(|e| e.register == r).collect();
        let data = here.is_empty()
            || here.iter().any(|e| !matches!(e.system_value, SV_POSITION | SV_CLIP_DISTANCE | SV_CULL_DISTANCE));
        if data {
            let ty = here
                .iter()
                .find(|e| !matches!(e.system_value, SV_POSITION | SV_CLIP_DISTANCE | SV_CULL_DISTANCE))
                .map_or("f32", |e| scalar(e.component_type));
            let name = format!("dx_gi{r}_in");
            let _ = writeln!(vars, "var<private> {name}: array<vec4<{ty}>, {vertices}>;");
            interface(&mut stage, &name, STORAGE_INPUT, vec![(decoration::LOCATION, vec![r])]);
            for k in 0..n_in {
                let _ = writeln!(copy_in, "    v[{k}][{r}] = bitcast<vec4<u32>>({name}[{k}]);");
            }
        }
        for e in &here {
            for c in 0..4u32 {
                if e.mask & (1 << c) == 0 {
                    continue;
                }
                match e.system_value {
                    SV_POSITION => {
                        for k in 0..n_in {
                            let _ = writeln!(
                                copy_in,
                                "    v[{k}][{r}].{l} = (bitcast<vec4<u32>>(dx_gi_pos[{k}]) ^ {FLIP_Y}).{l};",
                                l = swizzle(c, 1)
                            );
                        }
                    }
                    SV_CLIP_DISTANCE => clip_in.push((r, c)),
                    SV_CULL_DISTANCE => cull_in.push((r, c)),
                    _ => {}
                }
            }
        }
    }
    if copy_in.contains("dx_gi_pos") {
        let _ = writeln!(vars, "var<private> dx_gi_pos: array<vec4<f32>, {vertices}>;");
        interface(&mut stage, "dx_gi_pos", STORAGE_INPUT, vec![(decoration::BUILT_IN, vec![builtin::POSITION])]);
    }
    for (list, name, b, cap) in [
        (&clip_in, "dx_gi_clip", builtin::CLIP_DISTANCE, capability::CLIP_DISTANCE),
        (&cull_in, "dx_gi_cull", builtin::CULL_DISTANCE, capability::CULL_DISTANCE),
    ] {
        if list.is_empty() {
            continue;
        }
        if list.len() > 8 {
            return Err(pipeline(format!("{name}: more than 8 components")));
        }
        let _ = writeln!(vars, "var<private> {name}: array<array<f32, {}>, {vertices}>;", list.len());
        interface(&mut stage, name, STORAGE_INPUT, vec![(decoration::BUILT_IN, vec![b])]);
        stage.capabilities.push(cap);
        for k in 0..n_in {
            for (j, (r, c)) in list.iter().enumerate() {
                let _ = writeln!(copy_in, "    v[{k}][{r}].{} = bitcast<u32>({name}[{k}][{j}]);", swizzle(*c, 1));
            }
        }
    }
    if uses_prim {
        vars.push_str("var<private> dx_gi_prim: u32;\n");
        interface(&mut stage, "dx_gi_prim", STORAGE_INPUT, vec![(decoration::BUILT_IN, vec![builtin::PRIMITIVE_ID])]);
        copy_in.push_str("    vPrim = dx_gi_prim;\n");
    }
    if uses_instance {
        vars.push_str("var<private> dx_gi_inst: u32;\n");
        interface(&mut stage, "dx_gi_inst", STORAGE_INPUT, vec![(decoration::BUILT_IN, vec![builtin::INVOCATION_ID])]);
        copy_in.push_str("    vGSInstanceID = dx_gi_inst;\n");
    }

    // Stream output: per stream the copies (components of registers to slot places).
    let out_elements: Vec<OutElement> = osgn
        .iter()
        .map(|e| OutElement {
            stream: e.stream,
            name: e.name.clone(),
            index: e.index,
            register: e.register,
            mask: e.mask,
        })
        .collect();
    let (copies, _, strides) = match &options.stream_output {
        Some(desc) => so_layout(desc, &out_elements)?,
        None => Default::default(),
    };
    let xfb = copies.iter().any(|c| !c.is_empty());
    if xfb {
        stage.capabilities.push(capability::TRANSFORM_FEEDBACK);
        stage.modes.push((mode::XFB, vec![]));
    }

    // Outputs: per stream and register, the pieces at its location (stream s > 0 at
    // s · REGS + register: those streams are not rasterized, their locations only
    // carry transform feedback); the built-ins of stream 0.
    let regs = decls.output_registers.max(1);
    let mut pieces: Vec<Piece> = Vec::new();
    let mut emit_copies: [String; 4] = Default::default();
    let mut clip_out: Vec<(u32, u32)> = Vec::new();
    let mut cull_out: Vec<(u32, u32)> = Vec::new();
    let mut single_out: Vec<(&'static str, u32, u32, u32)> = Vec::new();
    for s in 0..4u32 {
        if !declared.contains(&(s as usize)) {
            continue;
        }
        let mut registers: std::collections::BTreeSet<u32> =
            osgn.iter().filter(|e| e.stream == s).map(|e| e.register).collect();
        if osgn.is_empty() && s == 0 {
            registers = output_registers.clone();
        }
        for &r in &registers {
            let here: Vec<&Element> = osgn.iter().filter(|e| e.stream == s && e.register == r).collect();
            let builtin_only = s == 0
                && !here.is_empty()
                && here.iter().all(|e| {
                    matches!(
                        e.system_value,
                        SV_POSITION
                            | SV_CLIP_DISTANCE
                            | SV_CULL_DISTANCE
                            | SV_RENDER_TARGET_ARRAY_INDEX
                            | SV_VIEWPORT_ARRAY_INDEX
                            | SV_PRIMITIVE_ID
                    )
                });
            let mine: Vec<&crate::gs::Copy> =
                copies.get(s as usize).map(|v| v.iter().filter(|c| c.register == r).collect()).unwrap_or_default();
            if s == 0 {
                for e in &here {
                    let first = e.mask.trailing_zeros();
                    match e.system_value {
                        SV_POSITION => single_out.push(("pos", r, 0, 0)),
                        SV_CLIP_DISTANCE | SV_CULL_DISTANCE => {
                            for c in 0..4u32 {
                                if e.mask & (1 << c) != 0 {
                                    if e.system_value == SV_CLIP_DISTANCE {
                                        clip_out.push((r, c));
                                    } else {
                                        cull_out.push((r, c));
                                    }
                                }
                            }
                        }
                        SV_RENDER_TARGET_ARRAY_INDEX => single_out.push(("layer", r, first, builtin::LAYER)),
                        SV_VIEWPORT_ARRAY_INDEX => single_out.push(("viewport", r, first, builtin::VIEWPORT_INDEX)),
                        SV_PRIMITIVE_ID => single_out.push(("prim", r, first, builtin::PRIMITIVE_ID)),
                        _ => {}
                    }
                }
            }
            if builtin_only && mine.is_empty() {
                continue;
            }
            // The captured ranges, disjoint, then the rest of the register.
            let mut ranges: Vec<(u32, u32, Option<Xfb>)> = Vec::new();
            for c in &mine {
                let slot = c.slot as u32;
                let stride = strides.get(c.slot).copied().unwrap_or(0);
                ranges.push((c.start, c.count, Some((slot, stride, c.word.saturating_mul(4)))));
            }
            ranges.sort_by_key(|x| x.0);
            let mut at = 0u32;
            let mut all = Vec::new();
            for (start, count, x) in ranges {
                if start < at {
                    return Err(pipeline(format!(
                        "stream output captures a component of o{r} twice: a native geometry shader cannot"
                    )));
                }
                if start > at {
                    all.push((at, start.saturating_sub(at), None));
                }
                all.push((start, count, x));
                at = start.saturating_add(count);
            }
            if at < 4 {
                all.push((at, 4u32.saturating_sub(at), None));
            }
            let location = s.saturating_mul(regs).saturating_add(r);
            for (first, count, x) in all {
                let ty = here
                    .iter()
                    .find(|e| e.mask & (1 << first) != 0)
                    .or(here.first())
                    .map_or("f32", |e| scalar(e.component_type));
                pieces.push(Piece { stream: s, register: r, first, count, location, ty, xfb: x });
            }
        }
    }
    for p in &pieces {
        let name = format!("dx_go{}_{}_{}_out", p.stream, p.register, p.first);
        let ty = vector(p.count, p.ty);
        let _ = writeln!(vars, "var<private> {name}: {ty};");
        let mut d = vec![(decoration::LOCATION, vec![p.location])];
        if p.first != 0 {
            d.push((decoration::COMPONENT, vec![p.first]));
        }
        if streams {
            d.push((decoration::STREAM, vec![p.stream]));
        }
        if let Some((buffer, stride, offset)) = p.xfb {
            d.push((decoration::XFB_BUFFER, vec![buffer]));
            d.push((decoration::XFB_STRIDE, vec![stride]));
            d.push((decoration::OFFSET, vec![offset]));
        }
        interface(&mut stage, &name, STORAGE_OUTPUT, d);
        if let Some(c) = emit_copies.get_mut(p.stream as usize) {
            let _ = writeln!(c, "        {name} = bitcast<{ty}>(o[{}].{});", p.register, swizzle(p.first, p.count));
        }
    }
    let stream0 = |d: Vec<(u32, Vec<u32>)>| -> Vec<(u32, Vec<u32>)> {
        let mut d = d;
        if streams {
            d.push((decoration::STREAM, vec![0]));
        }
        d
    };
    let mut c0 = String::new();
    for (what, r, c, b) in &single_out {
        if *what == "pos" {
            vars.push_str("var<private> dx_go_pos: vec4<f32>;\n");
            interface(
                &mut stage,
                "dx_go_pos",
                STORAGE_OUTPUT,
                stream0(vec![(decoration::BUILT_IN, vec![builtin::POSITION])]),
            );
            let _ = writeln!(c0, "        dx_go_pos = bitcast<vec4<f32>>(o[{r}] ^ {FLIP_Y});");
        } else {
            let name = format!("dx_go_{what}");
            let _ = writeln!(vars, "var<private> {name}: u32;");
            interface(&mut stage, &name, STORAGE_OUTPUT, stream0(vec![(decoration::BUILT_IN, vec![*b])]));
            if *b == builtin::VIEWPORT_INDEX {
                stage.capabilities.push(capability::MULTI_VIEWPORT);
            }
            let _ = writeln!(c0, "        {name} = o[{r}].{};", swizzle(*c, 1));
        }
    }
    for (list, name, b, cap) in [
        (&clip_out, "dx_go_clip", builtin::CLIP_DISTANCE, capability::CLIP_DISTANCE),
        (&cull_out, "dx_go_cull", builtin::CULL_DISTANCE, capability::CULL_DISTANCE),
    ] {
        if list.is_empty() {
            continue;
        }
        if list.len() > 8 {
            return Err(pipeline(format!("{name}: more than 8 components")));
        }
        let _ = writeln!(vars, "var<private> {name}: array<f32, {}>;", list.len());
        interface(&mut stage, name, STORAGE_OUTPUT, stream0(vec![(decoration::BUILT_IN, vec![b])]));
        if !stage.capabilities.contains(&cap) {
            stage.capabilities.push(cap);
        }
        for (j, (r, c)) in list.iter().enumerate() {
            let _ = writeln!(c0, "        {name}[{j}] = bitcast<f32>(o[{r}].{});", swizzle(*c, 1));
        }
    }
    if let Some(e) = emit_copies.get_mut(0) {
        e.push_str(&c0);
    }

    // The module.
    let max = decls.max_vertices;
    let mut s = String::from(crate::front::enables(&globals));
    s.push_str("diagnostic(off, derivative_uniformity);\n\n");
    s.push_str(crate::PRELUDE);
    s.push('\n');
    s.push_str(&globals);
    s.push_str(&vars);
    s.push_str("var<private> dx_emitted: u32;\n\nfn dx_run() {\n");
    s.push_str(&body);
    s.push_str("}\n\n");
    let mut emits = String::new();
    let mut cuts = String::new();
    for &st in &declared {
        let _ = writeln!(s, "fn dx_mk_emit{st}_mark() {{}}\nfn dx_mk_cut{st}_mark() {{}}");
        for (kind, k) in [(MarkerKind::Emit, "emit"), (MarkerKind::Cut, "cut")] {
            stage.markers.push(Marker { name: format!("dx_mk_{k}{st}_mark"), kind, stream: st as u32 });
        }
        let copies = emit_copies.get(st).map(String::as_str).unwrap_or("");
        let _ = write!(emits, "        case {st}u: {{\n{copies}        dx_mk_emit{st}_mark();\n        }}\n");
        let _ = write!(cuts, "        case {st}u: {{\n        dx_mk_cut{st}_mark();\n        }}\n");
    }
    let _ = write!(
        s,
        "
// Emits beyond dcl_maxout are dropped, and the emit that reaches it ends the
// invocation (as the reference pipeline does).
fn dx_emit(s: u32) -> bool {{
    if (dx_emitted >= {max}u) {{
        return true;
    }}
    dx_emitted = dx_emitted + 1u;
    switch (s) {{
{emits}        default: {{}}
    }}
    return dx_emitted >= {max}u;
}}

fn dx_cut(s: u32) {{
    switch (s) {{
{cuts}        default: {{}}
    }}
}}

fn dx_emit_then_cut(s: u32) -> bool {{
    let e = dx_emit(s);
    dx_cut(s);
    return e;
}}

@compute @workgroup_size(1)
fn {entry}() {{
{copy_in}    dx_run();
}}
",
        entry = options.gs.entry_point
    );
    Ok(Plan { source: s, stage })
}

/// The WGSL module the native geometry shader is written from (its compute entry
/// point stands for the geometry stage; see the module documentation).
pub fn geometry_wgsl(bytes: &[u8], options: &NativeGsOptions) -> R<String> {
    Ok(plan(bytes, options)?.source)
}

/// A geometry shader (DXBC container) as a GLSL 4.50 geometry shader of `flavor`: the
/// module of [`geometry_spirv`] written by naga's GLSL back end, then made a geometry
/// stage by [`crate::glsl_geometry`]. See
/// [Geometry shaders in GLSL](crate#geometry-shaders-in-glsl).
pub fn geometry_glsl(bytes: &[u8], options: &NativeGsOptions, flavor: crate::glsl_geometry::Flavor) -> R<String> {
    let plan = plan(bytes, options)?;
    let mut module = naga::front::wgsl::parse_str(&plan.source)
        .map_err(|e| TranslateError::Generated(e.emit_to_string(&plan.source)))?;
    naga::compact::compact(&mut module, naga::compact::KeepUnused::No);
    crate::distinct_bindings(&module)?;
    let info = crate::validate(&module)?;
    // Every resource at a binding of its own in naga's text, resolved by the pass.
    let mut map = naga::back::glsl::BindingMap::default();
    let mut resolve = std::collections::BTreeMap::new();
    for (_, g) in module.global_variables.iter() {
        let Some(b) = &g.binding else { continue };
        if map.contains_key(b) {
            continue;
        }
        let n = u8::try_from(map.len())
            .map_err(|_| TranslateError::Backend { target: "glsl", message: "more than 256 resources".into() })?;
        map.insert(*b, n);
        resolve.insert(n, (b.group, b.binding));
    }
    let text = crate::glsl_text(&module, &info, map)?;
    crate::glsl_geometry::make_geometry(&text, &plan.stage, flavor, &resolve)
        .map_err(|e| TranslateError::Backend { target: "glsl", message: e.to_string() })
}

/// A geometry shader (DXBC container) as a SPIR-V geometry shader: its words as
/// little-endian bytes. See [Geometry shaders in SPIR-V](crate#geometry-shaders-in-spir-v).
pub fn geometry_spirv(bytes: &[u8], options: &NativeGsOptions) -> R<Vec<u8>> {
    let plan = plan(bytes, options)?;
    let mut module = naga::front::wgsl::parse_str(&plan.source)
        .map_err(|e| TranslateError::Generated(e.emit_to_string(&plan.source)))?;
    naga::compact::compact(&mut module, naga::compact::KeepUnused::No);
    crate::distinct_bindings(&module)?;
    let info = crate::validate(&module)?;
    let mut words = crate::spirv_words(&module, &info, naga::back::spv::WriterFlags::DEBUG)?;
    crate::spirv_geometry::make_geometry(&mut words, &plan.stage)
        .map_err(|e| TranslateError::Backend { target: "spirv", message: e.to_string() })?;
    Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}
