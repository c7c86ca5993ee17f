//! Feature level 9 devices: the create calls run the Direct3D 9 profile rules on the
//! Level 9 program of a `*_4_0_level_9_x` container (E_INVALIDARG with the
//! diagnostics when it breaks them); every corpus Level 9 blob is created; raw Shader
//! Model 1–3 programs are refused by every Direct3D 11 device.

use d3d11::*;
use validate::Code;

const LEVELS_9: [FeatureLevel; 3] = [FeatureLevel::L9_1, FeatureLevel::L9_2, FeatureLevel::L9_3];

fn create(device: &Device, stage: ProgramType, bytes: &[u8]) -> (Created, Option<Shader>) {
    let mut out = None;
    let created = match stage {
        ProgramType::Vertex => device.create_vertex_shader(bytes, bytes.len(), None, Some(&mut out)),
        ProgramType::Pixel => device.create_pixel_shader(bytes, bytes.len(), None, Some(&mut out)),
        other => panic!("no Level 9 {other:?} shaders"),
    };
    (created, out)
}

fn device(level: FeatureLevel) -> Device {
    Device::new(DeviceDesc::new(level, Runtime::D3D11_1))
}

fn stage_of(profile: &str) -> ProgramType {
    if profile.starts_with("vs") {
        ProgramType::Vertex
    } else {
        ProgramType::Pixel
    }
}

#[test]
fn every_corpus_level9_blob_is_created_at_9_x() {
    let Some(entries) = corpus::dxbc_entries("d3d11::create_level9") else { return };
    let mut n = 0;
    for e in entries.iter().filter(|e| e.is_level9()) {
        let bytes = e.bytes();
        let stage = stage_of(&e.profile);
        for level in LEVELS_9 {
            let (created, shader) = create(&device(level), stage, &bytes);
            assert_eq!(created.hr, S_OK, "{} at {level}: {:#?}", e.id(), created.diagnostics);
            assert!(shader.expect("a shader object").is_level9());
        }
        n += 1;
    }
    assert_eq!(n, 129);
}

/// Tokens to bytes, with the end token.
fn program(tokens: &[u32]) -> Vec<u8> {
    tokens.iter().chain(&[0x0000_ffff]).flat_map(|t| t.to_le_bytes()).collect()
}

const I0: u32 = 0xf0e4_0000;
const REP: u32 = 38 | 1 << 24;
const ENDREP: u32 = 39;
const C0X: u32 = 0xa000_0000;
const R1X: u32 = 0x8000_0001; // r1.x
/// `if_gt c0.x, r1.x`.
const IFGT: u32 = 41 | 1 << 16 | 2 << 24;
const ENDIF: u32 = 43;

/// `bytes` (a Level 9 container) with the program in its Aon9 chunk replaced by
/// `new_program`, rebuilt with a correct checksum.
fn with_level9_program(bytes: &[u8], new_program: &[u8]) -> Vec<u8> {
    let container = dxbc::Container::parse(bytes).unwrap();
    let mut builder = dxbc::Builder::new();
    for chunk in container.chunks() {
        if chunk.fourcc == dxbc::FourCc::AON9 {
            let word = |i: usize| u32::from_le_bytes(chunk.data[i * 4..i * 4 + 4].try_into().unwrap());
            let offset = word(3) as usize;
            // fxc places the program last.
            assert_eq!(offset + word(2) as usize, chunk.data.len());
            let mut data = chunk.data[..offset].to_vec();
            data.extend_from_slice(new_program);
            let total = data.len() as u32;
            data[0..4].copy_from_slice(&total.to_le_bytes());
            data[8..12].copy_from_slice(&(new_program.len() as u32).to_le_bytes());
            builder.push(chunk.fourcc, data);
        } else {
            builder.push(chunk.fourcc, chunk.data.to_vec());
        }
    }
    builder.build().unwrap()
}

fn level9_blob(stage: &str) -> Option<Vec<u8>> {
    let entries = corpus::dxbc_entries("d3d11::create_level9")?;
    Some(entries.iter().find(|e| e.is_level9() && e.profile.starts_with(stage)).expect("a Level 9 blob").bytes())
}

/// The Level 9 program breaks its profile's rules: E_INVALIDARG at 9_x, with the
/// diagnostic naming the instruction; the SM4 program runs at 10_0 and later.
#[test]
fn level9_program_rules_at_9_x() {
    let Some(vs) = level9_blob("vs") else { return };
    // vs_2_0: two nested reps (loop/rep nesting 1).
    let nested = with_level9_program(&vs, &program(&[0xfffe_0200, REP, I0, REP, I0, ENDREP, ENDREP]));
    for level in LEVELS_9 {
        let (created, shader) = create(&device(level), ProgramType::Vertex, &nested);
        assert_eq!(created.hr, E_INVALIDARG, "{level}");
        assert!(shader.is_none());
        assert_eq!(created.diagnostics.len(), 1, "{:#?}", created.diagnostics);
        let d = &created.diagnostics[0];
        assert_eq!(d.code, Code::D3d9LoopNesting);
        match d.location {
            validate::Location::Instruction { index, mnemonic, offset, .. } => {
                assert_eq!((index, mnemonic), (1, "rep"));
                // The byte offset is in the container: inside the Aon9 chunk.
                let aon9 = dxbc::Container::parse(&nested).unwrap().chunk(dxbc::FourCc::AON9).unwrap().data_offset();
                assert!(offset > aon9 && offset < nested.len(), "{offset}");
                assert_eq!(u32::from_le_bytes(nested[offset..offset + 4].try_into().unwrap()), REP);
            }
            ref other => panic!("{other:?}"),
        }
    }
    for level in [FeatureLevel::L10_0, FeatureLevel::L11_1] {
        assert_eq!(create(&device(level), ProgramType::Vertex, &nested).0.hr, S_OK, "{level}");
    }
    // vs_2_x: two nested reps need StaticFlowControlDepth 2: 9_3 (depth 4) runs them,
    // 9_1 / 9_2 do not run 2_x programs at all.
    let nested_2x = with_level9_program(&vs, &program(&[0xfffe_0201, REP, I0, REP, I0, ENDREP, ENDREP]));
    assert_eq!(create(&device(FeatureLevel::L9_3), ProgramType::Vertex, &nested_2x).0.hr, S_OK);
    for level in [FeatureLevel::L9_1, FeatureLevel::L9_2] {
        let (created, _) = create(&device(level), ProgramType::Vertex, &nested_2x);
        assert_eq!(created.hr, E_INVALIDARG);
        assert!(created.has(Code::Level9Version), "{:#?}", created.diagnostics);
    }
    // 9_3: dynamic flow control (vs_2_a's depth 24).
    let mut tokens = vec![0xfffe_0201];
    for _ in 0..24 {
        tokens.extend_from_slice(&[IFGT, C0X, R1X]);
    }
    tokens.extend(std::iter::repeat_n(ENDIF, 24));
    let deep = with_level9_program(&vs, &program(&tokens));
    assert_eq!(create(&device(FeatureLevel::L9_3), ProgramType::Vertex, &deep).0.hr, S_OK);
    tokens.splice(1..1, [IFGT, C0X, R1X]);
    tokens.push(ENDIF);
    let deeper = with_level9_program(&vs, &program(&tokens));
    let (created, _) = create(&device(FeatureLevel::L9_3), ProgramType::Vertex, &deeper);
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::D3d9DynamicNesting), "{:#?}", created.diagnostics);
}

/// A pixel program inside a vertex shader's container.
#[test]
fn level9_program_of_the_other_stage() {
    let Some(vs) = level9_blob("vs") else { return };
    let swapped = with_level9_program(&vs, &program(&[0xffff_0200]));
    let (created, _) = create(&device(FeatureLevel::L9_1), ProgramType::Vertex, &swapped);
    assert_eq!(created.hr, E_INVALIDARG);
    assert!(created.has(Code::Level9Stage), "{:#?}", created.diagnostics);
}

/// Raw Direct3D 9 bytecode is not a Direct3D 11 shader, at any feature level
/// (Microsoft's ID3D11Device::CreateVertexShader page: pShaderBytecode is a compiled
/// shader, which the HLSL compiler gives as a DXBC container): V116, `E_INVALIDARG`.
#[test]
fn raw_d3d9_programs_are_refused() {
    let raw = program(&[0xfffe_0200, 1 | 2 << 24, 0x800f_0000, 0xa0e4_0000]);
    assert!(validate::validate(&raw, &validate::Target::d3d9()).is_valid(), "the vs_2_0 profile accepts it");
    for level in FeatureLevel::ALL {
        let (created, shader) = create(&device(level), ProgramType::Vertex, &raw);
        assert_eq!(created.hr, E_INVALIDARG, "{level}");
        assert!(shader.is_none());
        assert_eq!(created.diagnostics.len(), 1);
        assert_eq!(created.diagnostics[0].code, Code::BytecodeApi);
        assert!(created.diagnostics[0].message.contains("DXBC"), "{}", created.diagnostics[0].message);
    }
    let ps = program(&[0xffff_0300]);
    let (created, _) = create(&device(FeatureLevel::L9_3), ProgramType::Pixel, &ps);
    assert_eq!(created.hr, E_INVALIDARG);
}
