//! The call and the container: length, readability, checksum, chunks, the shader type
//! against the create call, shader model and stage against the feature level, Level 9.

mod common;
use common::*;
use dxbc::FourCc;
use validate::{Caps, Code, FeatureLevel, Location, Runtime, Target};

const VS40: &str = "vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret \n";

#[test]
fn length_must_equal_the_container_size() {
    let bytes = asm(VS40);
    let t = fl11_1();
    assert!(validate::validate_call(&bytes, bytes.len(), &t).is_valid());
    for length in [bytes.len() - 1, bytes.len() + 1, 0] {
        let report = validate::validate_call(&bytes, length, &t);
        assert_eq!(codes(&report), [Code::BytecodeLength], "{length}");
    }
    // Bytes after the container's declared size.
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 4]);
    assert_eq!(codes(&validate::validate(&longer, &t)), [Code::BytecodeLength]);
}

#[test]
fn unreadable_container_names_the_byte() {
    let report = validate::validate(b"hello world, not a shader", &fl11_1());
    assert_eq!(codes(&report), [Code::ContainerUnreadable]);
    assert_eq!(report.diagnostics[0].location, Location::Byte { offset: 0 });
    assert_eq!(codes(&validate::validate(&[], &fl11_1())), [Code::ContainerUnreadable]);
    // A chunk offset past the end.
    let mut bytes = asm(VS40);
    bytes[32] = 0xff;
    bytes[33] = 0xff;
    let report = validate::validate(&bytes, &fl11_1());
    assert_eq!(codes(&report), [Code::ContainerUnreadable]);
    assert!(matches!(report.diagnostics[0].location, Location::Byte { offset } if (32..).contains(&offset)));
}

#[test]
fn checksum_must_match() {
    let mut bytes = asm(VS40);
    bytes[4] ^= 1;
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::Checksum]);
    resign(&mut bytes);
    assert!(validate::validate(&bytes, &fl11_1()).is_valid());
}

#[test]
fn program_chunk_required_once() {
    let bytes = asm(VS40);
    let none = rebuild(&bytes, |c| c.retain(|(f, _)| *f != FourCc::SHDR));
    assert_eq!(codes(&validate::validate(&none, &fl11_1())), [Code::MissingProgram]);
    let two = rebuild(&bytes, |c| {
        let p = c.iter().find(|(f, _)| *f == FourCc::SHDR).unwrap().clone();
        c.push(p);
    });
    let report = validate::validate(&two, &fl11_1());
    assert_eq!(codes(&report), [Code::DuplicateProgram]);
    assert!(matches!(report.diagnostics[0].location, Location::Chunk { ref fourcc, .. } if fourcc == "SHDR"));
}

#[test]
fn program_must_decode() {
    let bytes = asm(VS40);
    // The length token says more tokens than the chunk holds.
    let broken = rebuild(&bytes, |c| {
        let p = &mut c.iter_mut().find(|(f, _)| *f == FourCc::SHDR).unwrap().1;
        p[4..8].copy_from_slice(&1000u32.to_le_bytes());
    });
    let report = validate::validate(&broken, &fl11_1());
    assert_eq!(codes(&report), [Code::ProgramUnreadable]);
    // An unknown opcode in the middle: the offset is the instruction's.
    let broken = rebuild(&bytes, |c| {
        let p = &mut c.iter_mut().find(|(f, _)| *f == FourCc::SHDR).unwrap().1;
        let n = p.len();
        p[n - 4] = 0xfe; // `ret` becomes opcode 0x7fe
        p[n - 3] = 0x07;
    });
    let report = validate::validate(&broken, &fl11_1());
    assert_eq!(codes(&report), [Code::ProgramUnreadable]);
    let container = dxbc::Container::parse(&broken).unwrap();
    let program = container.chunk(FourCc::SHDR).unwrap();
    assert_eq!(
        report.diagnostics[0].location,
        Location::Byte { offset: program.data_offset() + program.data.len() - 4 }
    );
}

#[test]
fn signatures_are_required_for_graphics_stages() {
    let bytes = asm(VS40);
    for sig in [FourCc::ISGN, FourCc::OSGN] {
        let without = rebuild(&bytes, |c| c.retain(|(f, _)| *f != sig));
        assert_eq!(codes(&validate::validate(&without, &fl11_1())), [Code::MissingSignature], "{sig}");
    }
    let broken = rebuild(&bytes, |c| c.iter_mut().find(|(f, _)| *f == FourCc::ISGN).unwrap().1.truncate(4));
    assert_eq!(codes(&validate::validate(&broken, &fl11_1())), [Code::ChunkUnreadable]);
    // Compute shaders need none.
    let cs = asm("cs_5_0\ndcl_thread_group 1, 1, 1\nret \n");
    let bare = rebuild(&cs, |c| c.retain(|(f, _)| *f == FourCc::SHEX));
    assert!(validate::validate(&bare, &fl11_1()).is_valid());
}

#[test]
fn shader_type_must_match_the_call() {
    let bytes = asm(VS40);
    for (stage, ok) in [("vs", true), ("hs", false), ("ds", false), ("gs", false), ("ps", false), ("cs", false)] {
        let target = fl11_1().for_stage(validate::parse_stage(stage).unwrap());
        let report = validate::validate(&bytes, &target);
        if ok {
            assert!(report.is_valid(), "{stage}: {:?}", report.diagnostics);
        } else {
            assert_eq!(codes(&report), [Code::WrongStage], "{stage}");
            assert!(report.diagnostics[0].message.contains("vs_4_0"), "{}", report.diagnostics[0].message);
        }
    }
}

fn gs(version: &str) -> String {
    format!("{version}\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_maxout 1\nemit \nret \n")
}

/// gs_4_0 needs 10_0, gs_4_1 needs 10_1, gs_5_0 needs 11_0; no geometry shaders on 9_x.
#[test]
fn shader_model_against_feature_level() {
    use FeatureLevel::*;
    let r = Runtime::D3D11_1;
    for (version, min) in [("gs_4_0", L10_0), ("gs_4_1", L10_1), ("gs_5_0", L11_0)] {
        let text = gs(version);
        for level in FeatureLevel::ALL {
            let codes = check(&text, &device(level, r));
            if level >= min {
                assert!(codes.is_empty(), "{version} on {level}: {codes:?}");
            } else if level.is_9_x() {
                assert_eq!(codes, [Code::StageFeatureLevel], "{version} on {level}");
            } else {
                assert_eq!(codes, [Code::ModelFeatureLevel], "{version} on {level}");
            }
        }
    }
    // Hull and domain shaders need 11_0.
    let hs = "hs_5_0\nhs_decls \ndcl_input_control_point_count 1\ndcl_output_control_point_count 1\ndcl_tessellator_domain domain_tri\ndcl_tessellator_partitioning partitioning_integer\ndcl_tessellator_output_primitive output_triangle_cw\nret \n";
    assert_eq!(check(hs, &device(L10_1, r)), [Code::StageFeatureLevel]);
    accepted(hs, &device(L11_0, r));
    // Compute shaders: cs_4_x on 10.x with the option, cs_5_0 from 11_0.
    let cs4 = "cs_4_0\ndcl_thread_group 1, 1, 1\nret \n";
    let cs5 = "cs_5_0\ndcl_thread_group 1, 1, 1\nret \n";
    accepted(cs4, &device(L10_0, r));
    let no = Caps { compute_on_10_x: false, ..Caps::typical(L10_0, r) };
    assert_eq!(check(cs4, &device_caps(L10_0, r, no)), [Code::StageFeatureLevel]);
    assert_eq!(check(cs5, &device(L10_1, r)), [Code::ModelFeatureLevel]);
    accepted(cs5, &device(L11_0, r));
}

/// Shader Model 5.1 is Direct3D 12's: refused by every Direct3D 11 call, checked by
/// the Direct3D 12 rules.
#[test]
fn shader_model_5_1_is_direct3d_12() {
    let text = "vs_5_1\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret \n";
    for level in FeatureLevel::ALL {
        let codes = check(text, &device(level, Runtime::D3D11_1));
        assert!(codes.contains(&Code::Direct3D12Only), "{level}: {codes:?}");
    }
    let report = validate::validate(&asm(text), &fl11_1());
    assert!(report.diagnostics[0].message.contains("Direct3D 12"), "{}", report.diagnostics[0].message);
    accepted(text, &Target::d3d12());
    // The Direct3D 12 rules still apply.
    let bad = "vs_5_1\nderiv_rtx r0.x, v0.x\nret \n";
    assert_eq!(check(bad, &Target::d3d12()), [Code::InstructionStage]);
}

#[test]
fn unknown_version_token() {
    let mut bytes = asm(VS40);
    // vs_4_0 token 0x00010040 -> model 6.0
    patch_version(&mut bytes, 0x0001_0060);
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::UnknownModel]);
    patch_version(&mut bytes, 0x0009_0040);
    assert_eq!(codes(&validate::validate(&bytes, &fl11_1())), [Code::UnknownModel]);
}

fn patch_version(bytes: &mut Vec<u8>, token: u32) {
    *bytes = rebuild(bytes, |c| {
        c.iter_mut().find(|(f, _)| *f == FourCc::SHDR).unwrap().1[0..4].copy_from_slice(&token.to_le_bytes())
    });
}

/// Feature level 9 devices run the Level 9 (Aon9) program: 2.0 programs from 9_1,
/// 2.x programs from 9_3, and at 9_1 and 9_2 when they use 2_0 features only (the
/// verdict recorded on Windows; see level9_programs.rs for fxc's blobs).
#[test]
fn level_9_needs_its_program() {
    use FeatureLevel::*;
    let bytes = asm(VS40);
    for level in [L9_1, L9_2, L9_3] {
        assert_eq!(codes(&validate::validate(&bytes, &device(level, Runtime::D3D11_1))), [Code::Level9ProgramMissing]);
    }
    assert!(validate::validate(&bytes, &device(L10_0, Runtime::D3D11_1)).is_valid());
    let with_body = |token: u32, body: &[u32]| {
        rebuild(&bytes, |c| {
            // A chunk as fxc lays it out (no mapping tables) around the program: its
            // version token, the instructions and the end token.
            let words: Vec<u32> = [token].iter().chain(body).chain(&[0x0000_ffff]).copied().collect();
            let program: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let data = dxbc::Aon9::new(&program, Default::default()).build().unwrap();
            c.insert(0, (FourCc::AON9, data));
        })
    };
    let with = |token: u32| with_body(token, &[]);
    let v20 = with(0xfffe_0200);
    let v2x = with(0xfffe_0201);
    for level in [L9_1, L9_2, L9_3, L10_0, L11_1] {
        assert!(validate::validate(&v20, &device(level, Runtime::D3D11_1)).is_valid(), "{level}");
        assert!(validate::validate(&v2x, &device(level, Runtime::D3D11_1)).is_valid(), "{level}: 2_0 features only");
    }
    // vs_2_x with `if_gt c0.x, r1.x` / `endif`: dynamic flow control, which vs_2_0 lacks.
    let dynamic = with_body(0xfffe_0201, &[41 | 1 << 16 | 2 << 24, 0xa000_0000, 0x8000_0001, 43]);
    for level in [L9_1, L9_2] {
        let found = codes(&validate::validate(&dynamic, &device(level, Runtime::D3D11_1)));
        assert_eq!(found[0], Code::Level9Version, "{level}: {found:?}");
    }
    assert!(validate::validate(&dynamic, &device(L9_3, Runtime::D3D11_1)).is_valid());
    let v30 = with(0xfffe_0300);
    assert_eq!(codes(&validate::validate(&v30, &device(L9_3, Runtime::D3D11_1))), [Code::Level9Version]);
}

/// The corpus's Level 9 shaders run on 9_1.
#[test]
fn corpus_level9_shaders_on_9_1() {
    let Some(entries) = corpus::dxbc_entries("validate::container") else { return };
    let mut n = 0;
    for e in entries.iter().filter(|e| e.is_level9()) {
        let report = validate::validate(&e.bytes(), &device(FeatureLevel::L9_1, Runtime::D3D11_1));
        assert!(report.is_valid(), "{}: {:?}", e.id(), report.diagnostics);
        n += 1;
    }
    assert!(n > 100, "{n} Level 9 shaders");
}

/// CreateGeometryShaderWithStreamOutput also takes an output signature alone (stream
/// output with no geometry shader): the declaration is checked against it.
#[test]
fn stream_output_against_an_output_signature_blob() {
    let gs = asm("gs_5_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_maxout 1\nemit_stream m0\nret \n");
    let signature_only = rebuild(&gs, |c| c.retain(|(f, _)| *f == FourCc::OSG5));
    let name = {
        let container = dxbc::Container::parse(&signature_only).unwrap();
        let chunk = container.chunk(FourCc::OSG5).unwrap();
        let sig = dxbc::Signature::parse(chunk.data, dxbc::SignatureFormat::for_fourcc(FourCc::OSG5).unwrap()).unwrap();
        format!("{}{}", sig.elements[0].semantic_name, sig.elements[0].semantic_index)
    };
    let mut good: validate::StreamOutputDesc = format!("{name}.xyzw").parse().unwrap();
    good.resolve_masks_in(&signature_only);
    let report = validate::validate_with_stream_output(&signature_only, signature_only.len(), &fl11_1(), &good);
    assert!(report.is_valid(), "{:#?}", report.diagnostics);
    let bad: validate::StreamOutputDesc = "NOT_THERE.xy".parse().unwrap();
    let report = validate::validate_with_stream_output(&signature_only, signature_only.len(), &fl11_1(), &bad);
    assert_eq!(codes(&report), [Code::SoSemanticNotFound]);
    // Without a stream-output declaration the blob is no shader.
    assert_eq!(codes(&validate::validate(&signature_only, &fl11_1())), [Code::MissingProgram]);
}
