//! Shaders of the geometry-shader tests (native and lowered): the two workloads of
//! the geometry-shader benchmarks (`benches/benches/gs_lavapipe.rs` has the same listings),
//! the corpus geometry shaders with a vertex shader fitted to each one's input
//! signature, and stream-output declarations of every output element.
//!
//! Included with `#[path = "support/gs_shaders.rs"] mod gs_shaders;`.
#![allow(dead_code)]

use translate::Topology;

pub fn assemble(text: &str) -> Vec<u8> {
    match listing::asm::assemble(text, &listing::asm::AsmOptions::default()) {
        Ok(a) => a.bytes,
        Err(e) => panic!("assembling:\n{text}\n{e:#?}"),
    }
}

/// A signature table for a listing header: `(name, index, mask, register, sysvalue,
/// format)` rows.
pub fn signature(title: &str, rows: &[(&str, u32, &str, u32, &str, &str)]) -> String {
    let mut s = format!(
        "//\n// {title}:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n"
    );
    for (name, index, mask, register, sv, format) in rows {
        s += &format!("// {name:<20} {index:>5}   {mask:<4} {register:>8} {sv:>8} {format:>7}   {mask:<4}\n");
    }
    s += "//\n";
    s
}

/// `POSITION` (float4) to `SV_Position`.
pub fn passthrough_position_vs() -> Vec<u8> {
    assemble(&format!(
        "{}{}vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret\n",
        signature("Input signature", &[("POSITION", 0, "xyzw", 0, "NONE", "float")]),
        signature("Output signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
    ))
}

/// *quad*: a point to a 4-vertex triangle strip around it.
pub fn quad_gs() -> Vec<u8> {
    let mut body = String::new();
    for (dx, dy) in [(-0.1, -0.1), (0.1, -0.1), (-0.1, 0.1), (0.1, 0.1)] {
        body += &format!("add o0.xyzw, v[0][0].xyzw, l({dx:.6}, {dy:.6}, 0.000000, 0.000000)\nemit\n");
    }
    assemble(&format!(
        "{}{}gs_4_0\ndcl_input_siv v[1][0].xyzw, position\ndcl_inputprimitive point\ndcl_outputtopology trianglestrip\n\
         dcl_output_siv o0.xyzw, position\ndcl_maxout 4\n{body}cut\nret\n",
        signature("Input signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
        signature("Output signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
    ))
}

/// *cube*: a triangle to each of six faces through `dcl_gsinstances 6` (row `c` of
/// face `k` is `cb0[4k + c]`).
pub fn cube_gs() -> Vec<u8> {
    let mut body = String::from("ishl r0.x, vGSInstanceID.x, l(2)\n");
    for k in 0..3 {
        for (c, letter) in ["x", "y", "z", "w"].iter().enumerate() {
            body += &format!("dp4 o0.{letter}, v[{k}][0].xyzw, cb0[r0.x + {c}].xyzw\n");
        }
        body += "mov o1.x, vGSInstanceID.x\nmov o2.x, vGSInstanceID.x\nemit\n";
    }
    assemble(&format!(
        "{}{}gs_5_0\ndcl_constantbuffer cb0[24], dynamicIndexed\ndcl_input_siv v[3][0].xyzw, position\n\
         dcl_input vGSInstanceID\ndcl_temps 1\ndcl_gsinstances 6\ndcl_inputprimitive triangle\n\
         dcl_stream m0\ndcl_outputtopology trianglestrip\ndcl_output_siv o0.xyzw, position\n\
         dcl_output_siv o1.x, rendertarget_array_index\ndcl_output o2.x\ndcl_maxout 3\n{body}ret\n",
        signature("Input signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
        signature(
            "Output signature",
            &[
                ("SV_Position", 0, "xyzw", 0, "POS", "float"),
                ("SV_RenderTargetArrayIndex", 0, "x", 1, "RTINDEX", "uint"),
                ("FACE", 0, "x", 2, "NONE", "uint"),
            ]
        ),
    ))
}

pub fn so_decl(text: &str, strides: &[u32], rasterized: u32) -> streamout::StreamOutputDesc {
    let mut d: streamout::StreamOutputDesc = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    d.strides = strides.to_vec();
    d.rasterized_stream = rasterized;
    d
}

/// The geometry shaders of the corpus: (id, bytes, input topology).
pub fn corpus_geometry_shaders(entries: &[corpus::Entry]) -> Vec<(String, Vec<u8>, Option<Topology>)> {
    let mut out = Vec::new();
    for e in entries {
        let bytes = e.bytes();
        let Ok(c) = dxbc::Container::parse(&bytes) else { continue };
        let Some(chunk) = c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]) else { continue };
        let Ok(p) = tpf::decode(chunk.data) else { continue };
        if p.version.ty != tpf::ProgramType::Geometry {
            continue;
        }
        let topology = p.iter().find_map(|ins| match ins.body {
            tpf::Body::Decl(tpf::Decl::InputPrimitive(prim)) => Topology::list_for(prim),
            _ => None,
        });
        out.push((e.id(), bytes, topology));
    }
    out
}

/// Stream output of every element of the output signature, stream `s` to slot `s`
/// (strides the elements' sizes), stream 0 rasterized.
pub fn every_output(bytes: &[u8]) -> Option<streamout::StreamOutputDesc> {
    let c = dxbc::Container::parse(bytes).ok()?;
    let chunk = c.chunk_any(&[dxbc::FourCc::OSGN, dxbc::FourCc::OSG5, dxbc::FourCc::OSG1])?;
    let sig = dxbc::Signature::parse_fields(chunk.data, dxbc::SignatureFormat::for_fourcc(chunk.fourcc)?).ok()?;
    let entries = sig
        .elements
        .iter()
        .filter(|e| e.mask & 15 != 0 && e.stream < 4)
        .map(|e| streamout::SoEntry {
            stream: e.stream,
            semantic_name: Some(e.semantic_name.to_string()),
            semantic_index: e.semantic_index,
            start_component: 0,
            component_count: streamout::element_span(e.mask).1 as u8,
            output_slot: e.stream as u8,
        })
        .collect();
    Some(streamout::StreamOutputDesc { entries, strides: vec![], rasterized_stream: 0 })
}

/// A vertex shader that feeds the geometry shader `gs`: input `TEXCOORD r` (uint4) of
/// each register the geometry shader reads, moved to an output element of the
/// geometry shader's input signature (`SV_Position`, `SV_ClipDistance` and
/// `SV_CullDistance` with their system values), so that a Vulkan pipeline links them as
/// Direct3D does. The registers it reads, in order.
pub fn fitted_vs(gs: &[u8]) -> Result<(Vec<u8>, Vec<u32>), String> {
    let c = dxbc::Container::parse(gs).map_err(|e| e.to_string())?;
    let chunk = c.chunk_any(&[dxbc::FourCc::ISGN, dxbc::FourCc::ISG1]).ok_or("no input signature")?;
    let sig =
        dxbc::Signature::parse_fields(chunk.data, dxbc::SignatureFormat::for_fourcc(chunk.fourcc).ok_or("format")?)
            .map_err(|e| e.to_string())?;
    let mut registers: Vec<u32> = sig.elements.iter().map(|e| e.register).collect();
    registers.sort_unstable();
    registers.dedup();
    let (mut isg, mut osg, mut decls, mut body) = (Vec::new(), Vec::new(), String::new(), String::new());
    let names: Vec<String> = sig.elements.iter().map(|e| e.semantic_name.to_string()).collect();
    let masks: Vec<String> = sig
        .elements
        .iter()
        .map(|e| {
            ["x", "y", "z", "w"].iter().enumerate().filter(|(c, _)| e.mask & (1 << c) != 0).map(|(_, l)| *l).collect()
        })
        .collect();
    for &r in &registers {
        decls += &format!("dcl_input v{r}.xyzw\n");
        isg.push(("TEXCOORD", r, "xyzw", r, "NONE", "uint"));
    }
    for (k, e) in sig.elements.iter().enumerate() {
        let sv = u32::from(e.system_value);
        let mask = masks[k].as_str();
        let (svname, siv) = match sv {
            0 => ("NONE", None),
            1 => ("POS", Some("position")),
            2 => ("CLIPDST", Some("clip_distance")),
            3 => ("CULLDST", Some("cull_distance")),
            _ => ("NONE", None),
        };
        let r = e.register;
        match siv {
            Some(s) => decls += &format!("dcl_output_siv o{r}.{mask}, {s}\n"),
            None => decls += &format!("dcl_output o{r}.{mask}\n"),
        }
        body += &format!("mov o{r}.{mask}, v{r}.xyzw\n");
        let format = match u32::from(e.component_type) {
            1 => "uint",
            2 => "int",
            _ => "float",
        };
        osg.push((names[k].as_str(), e.semantic_index, mask, r, svname, format));
    }
    let text = format!(
        "{}{}vs_4_0\n{decls}{body}ret\n",
        signature("Input signature", &isg),
        signature("Output signature", &osg)
    );
    Ok((assemble(&text), registers))
}
