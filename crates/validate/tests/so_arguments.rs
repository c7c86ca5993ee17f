//! The stream-output arguments exactly as a program passes them
//! (`validate::SoArguments`, the `--so-json` form): a NULL `pSODeclaration` apart from
//! a pointer to no entries, `NumEntries` / `NumStrides` apart from the arrays, the
//! JSON form, and an output signature given without a geometry shader. Each rule is
//! tested with both verdicts and names its source.

use validate::{validate_with_so_arguments, Code, FeatureLevel, Runtime, SoArguments, SoEntry, Target};

/// A listing with fxc's output-signature table: (name, index, register, mask).
fn shader(profile: &str, outputs: &[(&str, u32, u32, &str)]) -> Vec<u8> {
    let gs = profile.starts_with("gs");
    let mut t = String::from("//\n// Output signature:\n//\n");
    t += "// Name                 Index   Mask Register SysValue  Format   Used\n";
    t += "// -------------------- ----- ------ -------- -------- ------- ------\n";
    for (name, index, reg, mask) in outputs {
        let sv = if *name == "SV_Position" { "POS" } else { "NONE" };
        t += &format!("// {name:<20} {index:>5}   {mask:<4} {reg:>8} {sv:>8} {:>7}   {mask:<4}\n", "float");
    }
    t += "//\n";
    t += profile;
    t += "\n";
    t += if gs {
        "dcl_input v[1][0].xyzw\ndcl_inputprimitive point\ndcl_outputtopology pointlist\n"
    } else {
        "dcl_input v0.xyzw\n"
    };
    let source = if gs { "v[0][0].xyzw" } else { "v0.xyzw" };
    let mut body = String::new();
    for (name, _, reg, mask) in outputs {
        if *name == "SV_Position" {
            t += &format!("dcl_output_siv o{reg}.{mask}, position\n");
        } else {
            t += &format!("dcl_output o{reg}.{mask}\n");
        }
        body += &format!("mov o{reg}.{mask}, {source}\n");
    }
    if gs {
        t += "dcl_maxout 1\n";
        body += "emit\n";
    }
    let text = t + &body + "ret\n";
    match listing::asm::assemble(&text, &listing::asm::AsmOptions::default()) {
        Ok(a) => a.bytes,
        Err(e) => panic!("the test listing does not assemble: {e:#?}\n{text}"),
    }
}

fn gs() -> Vec<u8> {
    shader("gs_4_0", &[("SV_Position", 0, 0, "xyzw"), ("TEXCOORD", 0, 1, "xy")])
}
fn vs() -> Vec<u8> {
    shader("vs_4_0", &[("SV_Position", 0, 0, "xyzw"), ("TEXCOORD", 0, 1, "xy")])
}

fn l11() -> Target {
    Target::d3d11(FeatureLevel::L11_0, Runtime::D3D11_1)
}

fn entry(stream: u32, name: Option<&str>, start: u8, count: u8, slot: u8) -> SoEntry {
    SoEntry {
        stream,
        semantic_name: name.map(str::to_string),
        semantic_index: 0,
        start_component: start,
        component_count: count,
        output_slot: slot,
    }
}

fn position() -> SoEntry {
    entry(0, Some("SV_Position"), 0, 4, 0)
}

fn codes(bytes: &[u8], args: &SoArguments, target: &Target) -> Vec<Code> {
    validate_with_so_arguments(bytes, bytes.len(), target, args).diagnostics.iter().map(|d| d.code).collect()
}

fn args(declaration: Option<Vec<SoEntry>>, num_entries: Option<u32>) -> SoArguments {
    SoArguments { declaration, num_entries, ..SoArguments::default() }
}

/// Microsoft's ID3D11Device::CreateGeometryShaderWithStreamOutput page: pSODeclaration
/// "Cannot be NULL if NumEntries > 0", NumEntries "ranges from 0"; a geometry shader
/// without stream output is created with NULL and 0 (functional spec 14.3: NumStreams 0,
/// "Stream Output is not being used (pShaderCode MUST have a GS in this case)"), while a
/// pointer passed with zero entries is refused (the verdict Windows gives).
#[test]
fn a_null_declaration_and_a_pointer_to_no_entries() {
    let (gs, vs) = (gs(), vs());
    // NULL, 0 entries: a geometry shader choosing its rasterized stream.
    assert_eq!(codes(&gs, &args(None, None), &l11()), []);
    assert_eq!(codes(&gs, &args(None, Some(0)), &l11()), []);
    // A pointer with no entries: refused, for every stage.
    assert_eq!(codes(&gs, &args(Some(vec![]), None), &l11()), [Code::SoEntryCount]);
    assert_eq!(codes(&gs, &args(Some(vec![position()]), Some(0)), &l11()), [Code::SoEntryCount]);
    assert_eq!(codes(&vs, &args(Some(vec![]), None), &l11()), [Code::SoEntryCount], "reported once");
    // A vertex shader has no use for a geometry shader without stream output.
    assert_eq!(codes(&vs, &args(None, None), &l11()), [Code::SoEntryCount]);
    assert_eq!(codes(&vs, &args(Some(vec![position()]), None), &l11()), []);
    // NULL with a count.
    assert_eq!(codes(&gs, &args(None, Some(1)), &l11()), [Code::SoEntryCount]);
    let d = validate_with_so_arguments(&gs, gs.len(), &l11(), &args(None, Some(3))).diagnostics;
    assert!(d[0].message.contains("NULL") && d[0].message.contains('3'), "{}", d[0].message);
    // A count beyond the array; a count short of it reads that many entries.
    assert_eq!(codes(&gs, &args(Some(vec![position()]), Some(2)), &l11()), [Code::SoEntryCount]);
    let bad = entry(0, Some("NOT_THERE"), 0, 1, 0);
    assert_eq!(codes(&gs, &args(Some(vec![position(), bad.clone()]), Some(1)), &l11()), []);
    assert_eq!(codes(&gs, &args(Some(vec![position(), bad]), Some(2)), &l11()), [Code::SoSemanticNotFound]);
}

/// The same page: pBufferStrides and NumStrides "ranges from 0 to
/// D3D11_SO_BUFFER_SLOT_COUNT"; a NULL array cannot hold NumStrides > 0 strides.
#[test]
fn a_null_stride_array_and_stride_counts() {
    let gs = gs();
    let with = |strides: Option<Vec<u32>>, num_strides: Option<u32>| SoArguments {
        declaration: Some(vec![position()]),
        strides,
        num_strides,
        ..SoArguments::default()
    };
    assert_eq!(codes(&gs, &with(Some(vec![16]), None), &l11()), []);
    assert_eq!(codes(&gs, &with(None, None), &l11()), []);
    assert_eq!(codes(&gs, &with(None, Some(1)), &l11()), [Code::SoStride]);
    // NumStrides 0: nothing is read through the pointer.
    assert_eq!(codes(&gs, &with(Some(vec![4]), Some(0)), &l11()), []);
    assert_eq!(codes(&gs, &with(Some(vec![4]), None), &l11()), [Code::SoStride], "a stride below 16 bytes");
    assert_eq!(codes(&gs, &with(Some(vec![16]), Some(2)), &l11()), [Code::SoStride]);
    assert_eq!(codes(&gs, &with(Some(vec![16, 12]), Some(1)), &l11()), []);
    // RasterizedStream is passed as given.
    let r = |rasterized_stream| SoArguments { rasterized_stream, ..with(None, None) };
    assert_eq!(codes(&gs, &r(Some(validate::NO_RASTERIZED_STREAM)), &l11()), []);
    assert_eq!(codes(&gs, &r(Some(4)), &l11()), [Code::SoRasterizedStream]);
}

/// Functional spec 14.3: with no geometry shader (an output signature alone, as
/// D3DGetOutputSignatureBlob gives it) "NumEntries must be > 0", and the declaration is
/// "for Stream 0 only".
#[test]
fn an_output_signature_alone_needs_entries_on_stream_0() {
    let gs = gs();
    let container = dxbc::Container::parse(&gs).unwrap();
    let osgn = container.chunk(dxbc::FourCc::OSGN).unwrap();
    let mut builder = dxbc::Builder::new();
    builder.push(dxbc::FourCc::OSGN, osgn.data.to_vec());
    let signature = builder.build().unwrap();
    assert_eq!(codes(&signature, &args(Some(vec![position()]), None), &l11()), []);
    assert_eq!(codes(&signature, &args(None, None), &l11()), [Code::SoEntryCount]);
    assert_eq!(
        codes(&signature, &args(Some(vec![entry(1, Some("SV_Position"), 0, 4, 0)]), None), &l11()),
        [Code::SoStream]
    );
    // A Shader Model 5 geometry shader's OSG5 signature alone: still stream 0 only.
    let gs5 = "gs_5_0\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point \ndcl_stream m0\ndcl_outputtopology pointlist \ndcl_output o0.xyzw\ndcl_stream m1\ndcl_outputtopology pointlist \ndcl_output o1.xyzw\ndcl_maxout 1\nemit_stream m0\nemit_stream m1\nret \n";
    let gs5 = listing::asm::assemble(gs5, &listing::asm::AsmOptions::default()).unwrap().bytes;
    let c = dxbc::Container::parse(&gs5).unwrap();
    let osg5 = c.chunk(dxbc::FourCc::OSG5).expect("a multi-stream signature");
    let sig =
        dxbc::Signature::parse(osg5.data, dxbc::SignatureFormat::for_fourcc(dxbc::FourCc::OSG5).unwrap()).unwrap();
    let on = |stream: u32| {
        let e = sig.elements.iter().find(|e| e.stream == stream).unwrap();
        SoEntry { semantic_index: e.semantic_index, ..entry(stream, Some(e.semantic_name), 0, 1, 0) }
    };
    assert_eq!(codes(&gs5, &args(Some(vec![on(1)]), None), &l11()), [], "the geometry shader has stream 1");
    let mut builder = dxbc::Builder::new();
    builder.push(dxbc::FourCc::OSG5, osg5.data.to_vec());
    let alone = builder.build().unwrap();
    assert_eq!(codes(&alone, &args(Some(vec![on(0)]), None), &l11()), []);
    assert_eq!(codes(&alone, &args(Some(vec![on(1)]), None), &l11()), [Code::SoStream]);
}

/// The JSON form: the raw fields (snake case or the C names), `null` for NULL and for
/// a gap's SemanticName, required fields, no unknown fields.
#[test]
fn the_json_form() {
    let text = r#"{ "declaration": [
        { "stream": 0, "semantic_name": "SV_Position", "semantic_index": 0, "start_component": 0, "component_count": 4, "output_slot": 0 },
        { "semantic_name": null, "component_count": 6 },
        { "Stream": 0, "SemanticName": "TEXCOORD", "SemanticIndex": 0, "StartComponent": 1, "ComponentCount": 1, "OutputSlot": 1 } ],
      "strides": [40, 4], "rasterized_stream": 4294967295 }"#;
    let a: SoArguments = serde_json::from_str(text).unwrap();
    let d = a.declaration.as_ref().unwrap();
    assert_eq!(d.len(), 3);
    assert_eq!(d[1], entry(0, None, 0, 6, 0));
    assert_eq!(d[2], entry(0, Some("TEXCOORD"), 1, 1, 1));
    assert_eq!(a.rasterized_stream, Some(validate::NO_RASTERIZED_STREAM));
    assert_eq!(codes(&gs(), &a, &l11()), []);
    let a: SoArguments = serde_json::from_str(r#"{ "declaration": null }"#).unwrap();
    assert_eq!(a.declaration, None);
    let a: SoArguments = serde_json::from_str(r#"{ "declaration": [], "num_entries": 0 }"#).unwrap();
    assert_eq!((a.declaration, a.num_entries), (Some(vec![]), Some(0)));
    for bad in [
        r#"{ "declaration": [ { "component_count": 1 } ] }"#,
        r#"{ "declaration": [ { "semantic_name": "A" } ] }"#,
        r#"{ "declaration": [ { "semantic_name": "A", "component_count": 256 } ] }"#,
        r#"{ "declarations": [] }"#,
        r#"{ "declaration": [ { "semantic_name": "A", "component_count": 1, "mask": "x" } ] }"#,
    ] {
        assert!(serde_json::from_str::<SoArguments>(bad).is_err(), "{bad}");
    }
    // And back.
    let a = SoArguments::from_desc(&"SV_Position.xyzw".parse().unwrap());
    let again: SoArguments = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
    assert_eq!(a, again);
}

fn d3d10(level: FeatureLevel) -> Target {
    Target::d3d10(level)
}

fn d10_args(declaration: Vec<SoEntry>, output_stream_stride: Option<u32>) -> SoArguments {
    SoArguments { declaration: Some(declaration), output_stream_stride, ..SoArguments::default() }
}

/// Direct3D 10's call (Microsoft's ID3D10Device::CreateGeometryShaderWithStreamOutput
/// and D3D10_SO_DECLARATION_ENTRY pages): NumEntries "Minimum 0, maximum 64"; one
/// OutputStreamStride, "only used when the output slot is 0 for all entries";
/// ComponentCount "1 ~ 4"; no Stream, no RasterizedStream; Direct3D 10's buffer layout
/// (one buffer, or one entry per buffer: D3D10_SO_MULTIPLE_BUFFER_ELEMENTS_PER_BUFFER).
#[test]
fn direct3d_10_stream_output() {
    let gs = gs();
    let d10 = d3d10(FeatureLevel::L10_0);
    // 64 entries of one component each, then 65 (also 65 components: V611).
    let mut many = vec![entry(0, Some("TEXCOORD"), 0, 1, 0)];
    many.extend((0..63).map(|_| entry(0, None, 0, 1, 0)));
    assert_eq!(codes(&gs, &d10_args(many.clone(), None), &d10), []);
    many.push(entry(0, None, 0, 1, 0));
    assert_eq!(codes(&gs, &d10_args(many, None), &d10), [Code::SoEntryCount, Code::SoComponentCount]);
    // OutputStreamStride: checked for one buffer, ignored for several.
    assert_eq!(codes(&gs, &d10_args(vec![position()], Some(16)), &d10), []);
    assert_eq!(codes(&gs, &d10_args(vec![position()], Some(12)), &d10), [Code::SoStride]);
    assert_eq!(codes(&gs, &d10_args(vec![position()], Some(2052)), &d10), [Code::SoStride]);
    let two = vec![position(), entry(0, Some("TEXCOORD"), 0, 2, 1)];
    assert_eq!(codes(&gs, &d10_args(two.clone(), Some(12)), &d10), [], "the stride is not used");
    let mut crowded = two;
    crowded.push(entry(0, None, 0, 1, 1));
    assert_eq!(codes(&gs, &d10_args(crowded, None), &d10), [Code::SoFeatureLevel]);
    // Gaps: 1..4 components in Direct3D 10; longer in Direct3D 11 (even at 10_0).
    let gap = |n| d10_args(vec![position(), entry(0, None, 0, n, 0)], None);
    assert_eq!(codes(&gs, &gap(4), &d10), []);
    assert_eq!(codes(&gs, &gap(5), &d10), [Code::SoComponents]);
    let at_10_0 = Target::d3d11(FeatureLevel::L10_0, Runtime::D3D11_0);
    assert_eq!(
        codes(
            &gs,
            &SoArguments::from_desc(&validate::StreamOutputDesc {
                entries: gap(5).declaration.unwrap(),
                strides: vec![],
                rasterized_stream: 0
            }),
            &at_10_0
        ),
        []
    );
    // Shader Model 4.1 needs a Direct3D 10.1 device at 10_1; 5.0 no Direct3D 10 device.
    let gs41 = shader("gs_4_1", &[("SV_Position", 0, 0, "xyzw")]);
    assert_eq!(codes(&gs41, &d10_args(vec![position()], None), &d3d10(FeatureLevel::L10_1)), []);
    assert_eq!(codes(&gs41, &d10_args(vec![position()], None), &d10), [Code::ModelFeatureLevel]);
    // What the call has no field for.
    let d10_api = d10.api;
    assert!(d10_args(vec![entry(1, Some("SV_Position"), 0, 4, 0)], None).check_shape(d10_api).is_err());
    let with_strides = SoArguments { strides: Some(vec![16]), ..d10_args(vec![position()], None) };
    assert!(with_strides.check_shape(d10_api).is_err());
    assert!(with_strides.check_shape(l11().api).is_ok());
    let with_rasterized = SoArguments { rasterized_stream: Some(0), ..d10_args(vec![position()], None) };
    assert!(with_rasterized.check_shape(d10_api).is_err());
    assert!(d10_args(vec![position()], Some(16)).check_shape(d10_api).is_ok());
    assert!(d10_args(vec![position()], Some(16)).check_shape(l11().api).is_err());
}

/// Direct3D 10 creates vertex, geometry and pixel shaders only (Microsoft's
/// ID3D10Device interface page: CreateVertexShader, CreateGeometryShader,
/// CreatePixelShader): V117 for the others; Shader Model 4.0 at 10_0, 4.1 at 10_1, no
/// 5.0 (V110).
#[test]
fn direct3d_10_stages_and_models() {
    let d10 = d3d10(FeatureLevel::L10_0);
    let d101 = d3d10(FeatureLevel::L10_1);
    let cs = listing::asm::assemble("cs_4_0\ndcl_thread_group 1, 1, 1\nret \n", &Default::default()).unwrap().bytes;
    let v =
        |bytes: &[u8], t: &Target| validate::validate(bytes, t).diagnostics.iter().map(|d| d.code).collect::<Vec<_>>();
    assert_eq!(v(&cs, &d101), [Code::StageApi]);
    assert_eq!(v(&cs, &Target::d3d11(FeatureLevel::L10_1, Runtime::D3D11_0)), [], "Direct3D 11's compute on 10.x");
    assert_eq!(v(&vs(), &d10), []);
    assert_eq!(v(&gs(), &d10), []);
    let vs41 = shader("vs_4_1", &[("SV_Position", 0, 0, "xyzw")]);
    assert_eq!(v(&vs41, &d10), [Code::ModelFeatureLevel]);
    assert_eq!(v(&vs41, &d101), []);
    let vs50 = shader("vs_5_0", &[("SV_Position", 0, 0, "xyzw")]);
    assert_eq!(v(&vs50, &d101), [Code::ModelFeatureLevel]);
    assert_eq!(v(&vs50, &Target::d3d11(FeatureLevel::L11_0, Runtime::D3D11_0)), []);
    let ds = "ds_5_0\ndcl_input_control_point_count 3\ndcl_tessellator_domain domain_tri\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, l(0,0,0,0)\nret \n";
    let ds = listing::asm::assemble(ds, &Default::default()).unwrap().bytes;
    assert_eq!(v(&ds, &d101), [Code::StageApi]);
}
