//! Geometry-shader rules: the seed `dcl_maxOutputVertexCount` page (000), the
//! functional spec's instancing limits, required declarations, the input primitive,
//! and the stream rules of the seed `cut_stream` page (003) and the spec (22.3.9,
//! 22.8.x, 13.5.2).

mod common;
use common::*;
use validate::Code;

/// A gs_4_0 with the given output declarations and `dcl_maxout`.
fn gs(outputs: &str, maxout: u32) -> String {
    format!(
        "gs_4_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \n{outputs}dcl_maxout {maxout}\nemit \nret \n"
    )
}

/// Seed 000: position (.xyzw) and colour (.rgb): 7 scalars, 1024 / 7 = 146 vertices.
#[test]
fn seed_000_seven_scalars_allow_146_vertices_not_147() {
    let outputs = "dcl_output_siv o0.xyzw, position\ndcl_output o1.xyz\n";
    accepted(&gs(outputs, 146), &fl11_1());
    refused(&gs(outputs, 147), &fl11_1(), &[Code::GsOutputRecordSize]);
    // The diagnostic points at the declaration and says the limit.
    let report = validate::validate(&asm(&gs(outputs, 147)), &fl11_1());
    let d = &report.diagnostics[0];
    assert!(matches!(d.location, validate::Location::Instruction { mnemonic: "dcl_maxout", .. }), "{:?}", d.location);
    assert!(d.message.contains("146"), "{}", d.message);
}

/// Seed 000: 32 four-component vectors: 1024 / 128 = 8 vertices.
#[test]
fn seed_000_thirty_two_vectors_allow_8_vertices_not_9() {
    let outputs: String = (0..32).map(|i| format!("dcl_output o{i}.xyzw\n")).collect();
    accepted(&gs(&outputs, 8), &fl11_1());
    refused(&gs(&outputs, 9), &fl11_1(), &[Code::GsOutputRecordSize]);
}

/// Seed 000: the count is between 1 and n (n * outputs <= 1024): 1 and 1024 accepted,
/// 0 and 1025 refused.
#[test]
fn max_output_vertex_count_range() {
    let one = "dcl_output o0.x\n";
    accepted(&gs(one, 1), &fl11_1());
    accepted(&gs(one, 1024), &fl11_1());
    refused(&gs(one, 0), &fl11_1(), &[Code::GsMaxVertexCount]);
    refused(&gs(one, 1025), &fl11_1(), &[Code::GsMaxVertexCount]);
    let two = "dcl_output o0.xy\n";
    accepted(&gs(two, 512), &fl11_1());
    refused(&gs(two, 513), &fl11_1(), &[Code::GsOutputRecordSize]);
}

/// A register declared with two masks counts the union of its components.
#[test]
fn output_scalars_are_the_union_of_components() {
    let outputs = "dcl_output o0.xy\ndcl_output o0.zw\n";
    accepted(&gs(outputs, 256), &fl11_1());
    refused(&gs(outputs, 257), &fl11_1(), &[Code::GsOutputRecordSize]);
}

/// Spec 13.3: with several streams the record is the union of their declarations:
/// the spec's own example, stream 0 `o0.xy, o1.xyzw` and stream 1 `o0.xyz, o1.xyz`,
/// is 7 scalars, so 170 vertices (1190) fail and 146 pass; with identical
/// declarations (6 scalars) 170 pass.
#[test]
fn spec_13_3_union_across_streams() {
    let text = |s1: &str, maxout: u32| {
        format!(
            "gs_5_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.xy\ndcl_output o1.xyzw\ndcl_stream m1\ndcl_outputtopology pointlist \n{s1}dcl_maxout {maxout}\nemit_stream m0\nemit_stream m1\nret \n"
        )
    };
    let different = "dcl_output o0.xyz\ndcl_output o1.xyz\n";
    refused(&text(different, 170), &fl11_1(), &[Code::GsOutputRecordSize]);
    accepted(&text(different, 146), &fl11_1());
    refused(&text(different, 147), &fl11_1(), &[Code::GsOutputRecordSize]);
    let same = "dcl_output o0.xy\ndcl_output o1.xyzw\n";
    accepted(&text(same, 170), &fl11_1());
}

fn instanced(instances: u32, maxout: u32) -> String {
    format!(
        "gs_5_0\ndcl_input v[1][0].xyzw\ndcl_input vGSInstanceID\ndcl_gsinstances {instances}\ndcl_inputprimitive point \ndcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.x\ndcl_maxout {maxout}\nemit_stream m0\nret \n"
    )
}

/// Spec 22.3.7: at most 32 instances, and instances x max vertex count <= 1024.
#[test]
fn instancing_limits() {
    accepted(&instanced(32, 32), &fl11_1());
    accepted(&instanced(1, 1024), &fl11_1());
    refused(&instanced(33, 1), &fl11_1(), &[Code::GsInstanceCount]);
    refused(&instanced(0, 1), &fl11_1(), &[Code::GsInstanceCount]);
    refused(&instanced(32, 33), &fl11_1(), &[Code::GsInstanceVertexCount]);
    accepted(&instanced(24, 42), &fl11_1());
    refused(&instanced(24, 43), &fl11_1(), &[Code::GsInstanceVertexCount]);
}

/// Spec 22.3.5, 22.3.6, 22.3.8: the three declarations are required.
#[test]
fn required_declarations() {
    let text = "gs_4_0\ndcl_input v[1][0].xyzw\ndcl_output o0.xyzw\nemit \nret \n";
    refused(text, &fl11_1(), &[Code::GsMissingDeclaration]);
    let report = validate::validate(&asm(text), &fl11_1());
    let message = &report.diagnostics[0].message;
    for name in ["dcl_inputprimitive", "dcl_outputtopology", "dcl_maxout"] {
        assert!(message.contains(name), "{message}");
    }
}

/// The input arrays match the input primitive; the output topology is one of three.
#[test]
fn input_primitive_and_output_topology() {
    let text = |prim: &str, n: u32, topo: &str| {
        format!("gs_4_0\ndcl_input v[{n}][0].xyzw\ndcl_inputprimitive {prim} \ndcl_outputtopology {topo} \ndcl_output o0.xyzw\ndcl_maxout 3\nemit \nret \n")
    };
    for (prim, n) in [("point", 1), ("line", 2), ("triangle", 3), ("lineadj", 4), ("triangleadj", 6)] {
        accepted(&text(prim, n, "trianglestrip"), &fl11_1());
        refused(&text(prim, n + 1, "trianglestrip"), &fl11_1(), &[Code::GsInputVertexCount]);
    }
    for topo in ["pointlist", "linestrip", "trianglestrip"] {
        accepted(&text("triangle", 3, topo), &fl11_1());
    }
    for topo in ["trianglelist", "linelist"] {
        refused(&text("triangle", 3, topo), &fl11_1(), &[Code::GsOutputTopology]);
    }
    // Patches need gs_5_0.
    let patch = |version: &str| {
        format!("{version}\ndcl_input v[5][0].xyzw\ndcl_inputprimitive patch5 \ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_maxout 3\nemit \nret \n")
    };
    accepted(&patch("gs_5_0"), &fl11_1());
    refused(&patch("gs_4_1"), &fl11_1(), &[Code::GsInputPrimitive]);
}

fn streams(decls: &str, body: &str) -> String {
    format!("gs_5_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \n{decls}dcl_maxout 4\n{body}ret \n")
}

const ONE_STREAM: &str = "dcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.xyzw\n";
const TWO_STREAMS: &str =
    "dcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_stream m1\ndcl_outputtopology pointlist \ndcl_output o1.xyzw\n";
const NO_STREAM: &str = "dcl_outputtopology pointlist \ndcl_output o0.xyzw\n";

/// Seed 003: cut_stream (and emit_stream, emit_then_cut_stream) exist in gs_5_0 only,
/// and in geometry shaders only.
#[test]
fn stream_instructions_need_gs_5_0() {
    for op in ["cut_stream", "emit_stream", "emit_then_cut_stream"] {
        accepted(&streams(ONE_STREAM, &format!("{op} m0\n")), &fl11_1());
        let gs41 = format!("gs_4_1\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_maxout 4\n{op} m0\nret \n");
        // In 4.1 there is no dcl_stream either, so the _stream form is also "without streams".
        refused(&gs41, &fl11_1(), &[Code::InstructionModel, Code::OperandModel, Code::StreamEmitWithoutStreams]);
        let vs = format!("vs_5_0\n{op} m0\nret \n");
        refused(&vs, &fl11_1(), &[Code::InstructionStage, Code::OperandStage]);
    }
}

/// Seed 003: the stream index must be an immediate value 0..3 for a declared stream.
#[test]
fn stream_index_is_a_declared_immediate_0_to_3() {
    let four = "dcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_stream m1\ndcl_outputtopology pointlist \ndcl_stream m2\ndcl_outputtopology pointlist \ndcl_stream m3\ndcl_outputtopology pointlist \n";
    accepted(&streams(four, "cut_stream m3\nemit_stream m2\n"), &fl11_1());
    // m4 does not assemble (the parser checks the range): patch the index.
    let mut bytes = asm(&streams(four, "cut_stream m3\n"));
    patch_after_opcode(&mut bytes, 118, 3, 4);
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::StreamOperand]);
    refused(&streams(ONE_STREAM, "cut_stream m1\n"), &fl11_1(), &[Code::StreamNotDeclared]);
    refused(&streams(ONE_STREAM, "emit_then_cut_stream m2\n"), &fl11_1(), &[Code::StreamNotDeclared]);
    let mut bytes =
        asm(&streams("dcl_stream m3\ndcl_outputtopology pointlist \ndcl_output o0.x\n", "emit_stream m3\n"));
    patch_after_opcode(&mut bytes, 143, 3, 4);
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::StreamOperand, Code::StreamEmitWithoutStreams]);
}

/// Seed 003 and spec 22.8.1/3/5: with streams declared, the plain forms are refused;
/// without, the _stream forms are.
#[test]
fn plain_and_stream_forms() {
    accepted(&streams(NO_STREAM, "emit \ncut \nemit_then_cut \n"), &fl11_1());
    for op in ["emit", "cut", "emit_then_cut"] {
        refused(&streams(ONE_STREAM, &format!("{op} \n")), &fl11_1(), &[Code::PlainEmitWithStreams]);
    }
    for op in ["emit_stream", "cut_stream", "emit_then_cut_stream"] {
        refused(&streams(NO_STREAM, &format!("{op} m0\n")), &fl11_1(), &[Code::StreamEmitWithoutStreams]);
    }
}

/// Spec 22.3.9: each stream declared once; the first dcl_stream before any output or
/// topology declaration.
#[test]
fn stream_declaration_order_and_uniqueness() {
    let twice = "dcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_stream m0\n";
    refused(&streams(twice, "emit_stream m0\n"), &fl11_1(), &[Code::StreamDeclaredTwice]);
    let late = "dcl_output o0.xyzw\ndcl_stream m0\ndcl_outputtopology pointlist \n";
    refused(&streams(late, "emit_stream m0\n"), &fl11_1(), &[Code::StreamAfterOutputs]);
    let late_topology = "dcl_outputtopology pointlist \ndcl_stream m0\ndcl_output o0.xyzw\n";
    let codes = check(&streams(late_topology, "emit_stream m0\n"), &fl11_1());
    assert!(codes.contains(&Code::StreamAfterOutputs), "{codes:?}");
}

/// Spec 13.5.2: several streams force pointlist output, declared for each stream.
#[test]
fn several_streams_force_pointlist() {
    accepted(&streams(TWO_STREAMS, "emit_stream m0\nemit_stream m1\n"), &fl11_1());
    let strips = TWO_STREAMS.replacen("pointlist", "trianglestrip", 1);
    refused(&streams(&strips, "emit_stream m0\n"), &fl11_1(), &[Code::MultiStreamTopology]);
    // One stream may output strips.
    let one_strip = ONE_STREAM.replace("pointlist", "trianglestrip");
    accepted(&streams(&one_strip, "emit_stream m0\n"), &fl11_1());
    // A second stream without its topology.
    let missing =
        "dcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_stream m1\ndcl_output o1.xyzw\n";
    refused(&streams(missing, "emit_stream m1\n"), &fl11_1(), &[Code::StreamTopologyMissing]);
}

/// Every diagnostic about an instruction names its index and byte offset.
#[test]
fn diagnostics_name_the_instruction() {
    let bytes = asm(&streams(ONE_STREAM, "emit \n"));
    let report = validate::validate(&bytes, &fl11_1());
    let d = &report.diagnostics[0];
    match d.location {
        validate::Location::Instruction { index, token, offset, mnemonic } => {
            assert_eq!(mnemonic, "emit");
            // dcl_input, dcl_inputprimitive, dcl_stream, dcl_outputtopology, dcl_output, dcl_maxout, emit
            assert_eq!(index, 6);
            let container = dxbc::Container::parse(&bytes).unwrap();
            let program = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).unwrap();
            assert_eq!(offset, program.data_offset() + token * 4);
            let word = u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap());
            assert_eq!(word & 0x7ff, 19, "the token at the offset is the emit opcode");
        }
        ref other => panic!("{other:?}"),
    }
}
