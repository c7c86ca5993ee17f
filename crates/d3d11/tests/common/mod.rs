//! Test support: shaders assembled from listing text, devices, corpus blobs.
#![allow(dead_code)]

use d3d11::{ClassLinkage, Created, Device, DeviceDesc, FeatureLevel, ProgramType, Runtime, Shader, StreamOutputDesc};

/// Assembles `text` (an fxc-style listing); panics with the assembler's diagnostics if
/// it does not assemble (a broken test, not a finding).
pub fn asm(text: &str) -> Vec<u8> {
    match listing::asm::assemble(text, &listing::asm::AsmOptions::default()) {
        Ok(a) => a.bytes,
        Err(d) => panic!("test listing does not assemble: {d:#?}\n{text}"),
    }
}

/// A minimal listing of `stage` with extra declarations and instructions.
pub fn listing(stage: ProgramType, decls: &str, ops: &str) -> String {
    match stage {
        ProgramType::Vertex => {
            format!("vs_5_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\n{decls}mov o0.xyzw, v0.xyzw\n{ops}ret \n")
        }
        ProgramType::Pixel => format!("ps_5_0\ndcl_output o0.xyzw\n{decls}mov o0.xyzw, l(1.0, 0.5, 0.25, 1.0)\n{ops}ret \n"),
        ProgramType::Compute => format!("cs_5_0\ndcl_thread_group 8, 8, 1\n{decls}{ops}ret \n"),
        ProgramType::Geometry => format!(
            "gs_5_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output_siv o0.xyzw, position\ndcl_maxout 1\n{decls}mov o0.xyzw, v[0][0].xyzw\n{ops}emit \nret \n"
        ),
        ProgramType::Domain => {
            format!("ds_5_0\ndcl_input_control_point_count 1\ndcl_tessellator_domain domain_tri\n{decls}{ops}ret \n")
        }
        ProgramType::Hull => format!(
            "hs_5_0\nhs_decls \ndcl_input_control_point_count 1\ndcl_output_control_point_count 1\ndcl_tessellator_domain domain_tri\ndcl_tessellator_partitioning partitioning_integer\ndcl_tessellator_output_primitive output_triangle_cw\n{decls}hs_fork_phase \n{ops}ret \n"
        ),
        other => panic!("no listing for {other:?}"),
    }
}

/// The assembled minimal shader of `stage`.
pub fn bytes_of(stage: ProgramType) -> Vec<u8> {
    asm(&listing(stage, "", ""))
}

pub const STAGES: [ProgramType; 6] = [
    ProgramType::Vertex,
    ProgramType::Hull,
    ProgramType::Domain,
    ProgramType::Geometry,
    ProgramType::Pixel,
    ProgramType::Compute,
];

/// Feature level 11_0 on the 11.1 runtime, typical caps.
pub fn device_11_0() -> Device {
    Device::new(DeviceDesc::new(FeatureLevel::L11_0, Runtime::D3D11_1))
}

/// The create call of `stage`.
pub fn create(
    device: &Device,
    stage: ProgramType,
    bytes: &[u8],
    length: usize,
    linkage: Option<&ClassLinkage>,
    out: Option<&mut Option<Shader>>,
) -> Created {
    match stage {
        ProgramType::Vertex => device.create_vertex_shader(bytes, length, linkage, out),
        ProgramType::Hull => device.create_hull_shader(bytes, length, linkage, out),
        ProgramType::Domain => device.create_domain_shader(bytes, length, linkage, out),
        ProgramType::Geometry => device.create_geometry_shader(bytes, length, linkage, out),
        ProgramType::Pixel => device.create_pixel_shader(bytes, length, linkage, out),
        ProgramType::Compute => device.create_compute_shader(bytes, length, linkage, out),
        other => panic!("no create call for {other:?}"),
    }
}

/// A one-entry stream-output declaration: `SV_Position` (4 components) of stream 0 to
/// buffer 0, stride 16, stream 0 rasterized.
pub fn so_position() -> StreamOutputDesc {
    StreamOutputDesc {
        entries: vec![d3d11::SoEntry {
            stream: 0,
            semantic_name: Some("SV_Position".into()),
            semantic_index: 0,
            start_component: 0,
            component_count: 4,
            output_slot: 0,
        }],
        strides: vec![16],
        rasterized_stream: 0,
    }
}

/// An empty stream-output declaration.
pub fn so_empty() -> StreamOutputDesc {
    StreamOutputDesc { entries: Vec::new(), strides: Vec::new(), rasterized_stream: d3d11::NO_RASTERIZED_STREAM }
}

/// The corpus blob `source/name`; `None` (after a visible SKIP line) when the corpus
/// is absent.
pub fn corpus_blob(test: &str, source: &str, name: &str) -> Option<Vec<u8>> {
    let entries = corpus::dxbc_entries(test)?;
    let entry = entries
        .iter()
        .find(|e| e.source == source && e.name == name)
        .unwrap_or_else(|| panic!("the corpus has no {source}/{name}"));
    Some(entry.bytes())
}

/// One class instance record to add to an `IFCE` chunk.
pub struct NewInstance {
    pub name: &'static str,
    pub type_index: u16,
    pub element_count: u16,
    pub constant_buffer: u16,
    pub constant_buffer_offset: u16,
    pub texture: u16,
    pub sampler: u16,
}

/// `bytes` with its `IFCE` chunk given class-type CB strides (`strides[i]` for type i,
/// where given) and the extra class instances; rebuilt in fxc's layout with a correct
/// checksum.
pub fn with_instances(bytes: &[u8], strides: &[u16], instances: &[NewInstance]) -> Vec<u8> {
    let container = dxbc::Container::parse(bytes).expect("a container");
    let ifce_chunk = container.chunk(dxbc::FourCc(*b"IFCE")).expect("an IFCE chunk");
    let mut ifce = dxbc::Ifce::parse(ifce_chunk.data).expect("a readable IFCE chunk");
    ifce.raw_layout = None;
    for (t, &s) in ifce.types.iter_mut().zip(strides) {
        t.cb_stride = s;
    }
    for i in instances {
        ifce.instances.push(dxbc::ifce::ClassInstance {
            name: i.name,
            type_index: i.type_index,
            unknown: i.element_count,
            constant_buffer: i.constant_buffer,
            constant_buffer_offset: i.constant_buffer_offset,
            texture: i.texture,
            sampler: i.sampler,
        });
    }
    let new_ifce = ifce.to_bytes();
    let mut builder = dxbc::Builder::new();
    for c in container.chunks() {
        if c.fourcc == dxbc::FourCc(*b"IFCE") {
            builder.push(c.fourcc, new_ifce.clone());
        } else {
            builder.push(c.fourcc, c.data);
        }
    }
    builder.build().expect("a container")
}
