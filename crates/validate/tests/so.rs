//! Stream-output declarations (`CreateGeometryShaderWithStreamOutput`): every rule at
//! its limit (accepted) and one past it (refused with its code), the `--so` text form,
//! and valid declarations for a vertex shader and a multi-stream geometry shader.
//!
//! The shaders are assembled from listings written here, with fxc's output-signature
//! table (`m1:NAME` for an element of stream 1).

use validate::so::{parse_entries, SoParseError, SoParseErrorKind};
use validate::{
    validate_with_stream_output, Diagnostic, FeatureLevel, Location, Runtime, SoEntry, StreamOutputDesc, Target,
    NO_RASTERIZED_STREAM,
};

// ---------------------------------------------------------------------------------
// Shaders
// ---------------------------------------------------------------------------------

/// One output element: stream, semantic, index, register, mask.
#[derive(Clone, Copy)]
struct Out {
    stream: u32,
    name: &'static str,
    index: u32,
    reg: u32,
    mask: &'static str,
}

const fn out(stream: u32, name: &'static str, index: u32, reg: u32, mask: &'static str) -> Out {
    Out { stream, name, index, reg, mask }
}

/// A listing of `profile` (`vs_*` or `gs_*`) writing `outputs`. For a geometry
/// shader, `streams` says whether it declares its streams with `dcl_stream` (the
/// streams are those of the outputs); every stream outputs a point list.
fn listing(profile: &str, streams: bool, outputs: &[Out]) -> String {
    let gs = profile.starts_with("gs");
    let mut t = String::from("//\n// Output signature:\n//\n");
    t += "// Name                 Index   Mask Register SysValue  Format   Used\n";
    t += "// -------------------- ----- ------ -------- -------- ------- ------\n";
    for o in outputs {
        let name = if streams { format!("m{}:{}", o.stream, o.name) } else { o.name.to_string() };
        let sv = if o.name == "SV_Position" { "POS" } else { "NONE" };
        t += &format!(
            "// {name:<20} {:>5}   {:<4} {:>8} {sv:>8} {:>7}   {:<4}\n",
            o.index, o.mask, o.reg, "float", o.mask
        );
    }
    t += "//\n";
    t += profile;
    t += "\n";
    let mut body = String::new();
    if gs {
        t += "dcl_input v[1][0].xyzw\ndcl_inputprimitive point\n";
    } else {
        t += "dcl_input v0.xyzw\n";
    }
    let mut stream_ids: Vec<u32> = outputs.iter().map(|o| o.stream).collect();
    stream_ids.sort();
    stream_ids.dedup();
    if !gs || !streams {
        stream_ids = vec![0];
    }
    let source = if gs { "v[0][0].xyzw" } else { "v0.xyzw" };
    for s in &stream_ids {
        if gs {
            if streams {
                t += &format!("dcl_stream m{s}\n");
            }
            t += "dcl_outputtopology pointlist\n";
        }
        for o in outputs.iter().filter(|o| !streams || o.stream == *s) {
            if o.name == "SV_Position" {
                t += &format!("dcl_output_siv o{}.{}, position\n", o.reg, o.mask);
            } else {
                t += &format!("dcl_output o{}.{}\n", o.reg, o.mask);
            }
            body += &format!("mov o{}.{}, {source}\n", o.reg, o.mask);
        }
        if gs {
            body += &if streams { format!("emit_stream m{s}\n") } else { "emit\n".to_string() };
        }
    }
    if gs {
        t += "dcl_maxout 1\n";
    }
    t + &body + "ret\n"
}

fn assemble(text: &str) -> Vec<u8> {
    match listing::asm::assemble(text, &listing::asm::AsmOptions::default()) {
        Ok(a) => a.bytes,
        Err(e) => panic!("the test listing does not assemble: {e:#?}\n{text}"),
    }
}

/// gs_5_0 with streams 0, 1 and 3 (not 2).
fn gs_streams() -> Vec<u8> {
    assemble(&listing(
        "gs_5_0",
        true,
        &[
            out(0, "SV_Position", 0, 0, "xyzw"),
            out(0, "TEXCOORD", 1, 1, "xy"),
            out(1, "NORMAL", 0, 0, "xyz"),
            out(1, "COLOR", 0, 1, "xyzw"),
            out(1, "TEXCOORD", 1, 2, "xy"),
            out(3, "FOG", 0, 0, "x"),
        ],
    ))
}

/// gs_5_0 with all four streams, one `TEXCOORD0.x` each.
fn gs_four_streams() -> Vec<u8> {
    assemble(&listing("gs_5_0", true, &(0..4).map(|s| out(s, "TEXCOORD", 0, 0, "x")).collect::<Vec<_>>()))
}

/// gs_5_0 without dcl_stream.
fn gs5_single() -> Vec<u8> {
    assemble(&listing("gs_5_0", false, &[out(0, "SV_Position", 0, 0, "xyzw"), out(0, "TEXCOORD", 0, 1, "xy")]))
}

/// gs_4_0 (feature level 10_0) with SV_Position and TEXCOORD0..15 (xyzw each).
fn gs4() -> Vec<u8> {
    let mut outs = vec![out(0, "SV_Position", 0, 0, "xyzw")];
    const INDICES: [u32; 15] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
    for i in INDICES {
        outs.push(out(0, "TEXCOORD", i, i + 1, "xyzw"));
    }
    assemble(&listing("gs_4_0", false, &outs))
}

/// vs_4_0 with SV_Position, TEXCOORD0.xy and TEXCOORD1.xyzw.
fn vs() -> Vec<u8> {
    assemble(&listing(
        "vs_4_0",
        false,
        &[out(0, "SV_Position", 0, 0, "xyzw"), out(0, "TEXCOORD", 0, 1, "xy"), out(0, "TEXCOORD", 1, 2, "xyzw")],
    ))
}

// ---------------------------------------------------------------------------------
// Running the checks
// ---------------------------------------------------------------------------------

fn l10() -> Target {
    Target::d3d11(FeatureLevel::L10_0, Runtime::D3D11_1)
}
fn l11() -> Target {
    Target::d3d11(FeatureLevel::L11_0, Runtime::D3D11_1)
}

fn run_desc(bytes: &[u8], desc: &StreamOutputDesc, target: &Target) -> Vec<Diagnostic> {
    validate_with_stream_output(bytes, bytes.len(), target, desc).diagnostics
}

/// `decl` (the text form, masks resolved against the shader) with `strides` and
/// `rasterized`.
fn run(bytes: &[u8], decl: &str, strides: &[u32], rasterized: u32, target: &Target) -> Vec<Diagnostic> {
    let mut desc: StreamOutputDesc = decl.parse().unwrap_or_else(|e| panic!("{decl}: {e}"));
    desc.strides = strides.to_vec();
    desc.rasterized_stream = rasterized;
    desc.resolve_masks_in(bytes);
    run_desc(bytes, &desc, target)
}

fn ids(d: &[Diagnostic]) -> Vec<&'static str> {
    d.iter().map(|d| d.code.id()).collect()
}

/// Accepted at feature level 11_0.
#[track_caller]
fn ok(bytes: &[u8], decl: &str) {
    let d = run(bytes, decl, &[], 0, &l11());
    assert!(d.is_empty(), "{decl}: {d:#?}");
}

/// Refused at feature level 11_0 with exactly `codes`.
#[track_caller]
fn refused(bytes: &[u8], decl: &str, codes: &[&str]) -> Vec<Diagnostic> {
    let d = run(bytes, decl, &[], 0, &l11());
    assert_eq!(ids(&d), codes, "{decl}: {d:#?}");
    d
}

fn entry(stream: u32, name: Option<&str>, index: u32, start: u8, count: u8, slot: u8) -> SoEntry {
    SoEntry {
        stream,
        semantic_name: name.map(str::to_string),
        semantic_index: index,
        start_component: start,
        component_count: count,
        output_slot: slot,
    }
}

fn desc(entries: Vec<SoEntry>) -> StreamOutputDesc {
    StreamOutputDesc { entries, strides: Vec::new(), rasterized_stream: 0 }
}

// ---------------------------------------------------------------------------------
// Valid declarations
// ---------------------------------------------------------------------------------

/// Microsoft's ID3D11Device::CreateGeometryShaderWithStreamOutput page,
/// pShaderBytecode: "You can also pass a pointer to the compiled shader for the prior
/// stage (for example, the vertex-shader stage or domain-shader stage)".
#[test]
fn vertex_shader_with_stream_output_is_accepted() {
    let vs = vs();
    for target in [l10(), l11(), Target::default(), Target::d3d12()] {
        for decl in ["SV_Position.xyzw; TEXCOORD0.xy", "SV_Position; 1:TEXCOORD1.zw", "$SKIP.x; TEXCOORD1.xyzw"] {
            let d = run(&vs, decl, &[], 0, &target);
            assert!(d.is_empty(), "{decl} on {target:?}: {d:#?}");
        }
    }
    let d = run(&vs, "SV_Position.xyzw; TEXCOORD0.xy; $SKIP.xy", &[32], 0, &l10());
    assert!(d.is_empty(), "{d:#?}");
}

/// Functional spec 14.1: "Stream Output can send data from any Stream to up to 4
/// Buffers", each stream to its own buffers.
#[test]
fn multi_stream_geometry_shader_with_stream_output_is_accepted() {
    let gs = gs_streams();
    let decl = "SV_Position.xyzw; $SKIP.xyzw; TEXCOORD1.xy; s1:1:NORMAL.xyz; s1:2:COLOR; s1:2:texcoord1.y; s3:3:FOG.x";
    for target in [l11(), Target::default(), Target::d3d12()] {
        for rasterized in [0, 1, 3, NO_RASTERIZED_STREAM] {
            let d = run(&gs, decl, &[40, 12, 20, 4], rasterized, &target);
            assert!(d.is_empty(), "rasterized {rasterized} on {target:?}: {d:#?}");
        }
    }
}

/// The CreateGeometryShaderWithStreamOutput page: NumEntries "ranges from 0";
/// functional spec 14.3: with no stream declared "Stream Output is not being used
/// (pShaderCode MUST have a GS in this case)".
#[test]
fn a_geometry_shader_may_come_without_entries() {
    // Only to choose the rasterized stream.
    let d = run(&gs_streams(), "", &[], 1, &l11());
    assert!(d.is_empty(), "{d:#?}");
}

// ---------------------------------------------------------------------------------
// Each rule: the limit, and one past it
// ---------------------------------------------------------------------------------

/// The CreateGeometryShaderWithStreamOutput page: NumEntries "ranges from 0 to
/// D3D11_SO_STREAM_COUNT * D3D11_SO_OUTPUT_COMPONENT_COUNT" (512).
#[test]
fn entry_count_512_accepted_513_refused() {
    let gs = gs_four_streams();
    let mut entries = Vec::new();
    for s in 0..4u8 {
        entries.push(entry(u32::from(s), Some("TEXCOORD"), 0, 0, 1, s));
        for _ in 0..127 {
            entries.push(entry(u32::from(s), None, 0, 0, 1, s));
        }
    }
    assert_eq!(entries.len(), 512);
    let d = run_desc(&gs, &desc(entries.clone()), &l11());
    assert!(d.is_empty(), "{d:#?}");
    entries.push(entry(0, None, 0, 0, 1, 0));
    let d = run_desc(&gs, &desc(entries), &l11());
    // The 513th entry is also the 129th component of stream 0.
    assert_eq!(ids(&d), ["V602", "V611"], "{d:#?}");
    assert_eq!(d[0].location, Location::StreamOutput { entry: None });
    assert!(d[0].message.contains("513"), "{}", d[0].message);
}

/// Functional spec 14.3: without a geometry shader "stream output is being defined
/// (NumEntries must be > 0)"; a vertex shader is accepted with an entry
/// (vertex_shader_with_stream_output_is_accepted).
#[test]
fn no_entries_refused_for_a_vertex_shader() {
    let d = run(&vs(), "", &[], 0, &l11());
    assert_eq!(ids(&d), ["V602"], "{d:#?}");
}

/// D3D11_SO_DECLARATION_ENTRY: Stream, "Zero-based, stream number"; functional spec
/// 14.1: "Up to 4 Streams can be present when the GS is used, otherwise there is a
/// single Stream, Stream 0", and 13.5 (the streams a geometry shader declares).
#[test]
fn streams_declared_accepted_undeclared_refused() {
    let gs = gs_streams();
    ok(&gs, "s3:FOG.x");
    ok(&gs, "s1:NORMAL.xyz");
    let d = refused(&gs, "s2:FOG.x", &["V603"]);
    assert_eq!(d[0].location, Location::StreamOutput { entry: Some(0) });
    assert!(d[0].message.contains("0, 1, 3"), "{}", d[0].message);
    refused(&gs, "SV_Position; s4:FOG.x", &["V603"]);
    refused(&gs, "s2:$SKIP.x", &["V603", "V614"]);
    // A Shader Model 5 geometry shader without dcl_stream, and a vertex shader, have
    // stream 0 only.
    ok(&gs5_single(), "SV_Position.xyzw");
    refused(&gs5_single(), "s1:SV_Position.xyzw", &["V603"]);
    refused(&vs(), "SV_Position; s1:1:TEXCOORD0.xy", &["V603"]);
    // Below 11_0 there is stream 0 only.
    let d = run(&gs4(), "SV_Position; s1:1:TEXCOORD0.xyzw", &[], 0, &l10());
    assert_eq!(ids(&d), ["V613"], "{d:#?}");
}

/// D3D11_SO_DECLARATION_ENTRY: "The valid range for OutputSlot is 0 to 3".
#[test]
fn output_slot_3_accepted_4_refused() {
    let vs = vs();
    ok(&vs, "3:SV_Position.xyzw");
    let d = refused(&vs, "4:SV_Position.xyzw", &["V604"]);
    assert!(d[0].message.contains("slot 4"), "{}", d[0].message);
    let d = run_desc(&vs, &desc(vec![entry(0, Some("SV_Position"), 0, 0, 4, 255)]), &l11());
    assert_eq!(ids(&d), ["V604"], "{d:#?}");
}

/// D3D11_SO_DECLARATION_ENTRY: StartComponent "Valid values are 0 to 3", ComponentCount
/// "Valid values are 1 to 4", and with a NULL SemanticName "ComponentCount can be
/// greater than 4" (a gap).
#[test]
fn component_ranges() {
    let vs = vs();
    let e = |start, count| desc(vec![entry(0, Some("SV_Position"), 0, start, count, 0)]);
    for (start, count) in [(0, 4), (3, 1), (1, 3), (0, 1)] {
        let d = run_desc(&vs, &e(start, count), &l11());
        assert!(d.is_empty(), "start {start} count {count}: {d:#?}");
    }
    for (start, count) in [(0, 5), (3, 2), (4, 0), (4, 1), (0, 0), (255, 255)] {
        let d = run_desc(&vs, &e(start, count), &l11());
        assert_eq!(ids(&d), ["V605"], "start {start} count {count}: {d:#?}");
    }
    // Gaps: any size from 1 (the API reference allows more than 4), from component 0,
    // index 0.
    let gap = |start, count, index| {
        desc(vec![entry(0, Some("SV_Position"), 0, 0, 4, 0), entry(0, None, index, start, count, 0)])
    };
    for count in [1, 4, 5, 124] {
        let d = run_desc(&vs, &gap(0, count, 0), &l11());
        assert!(d.is_empty(), "gap of {count}: {d:#?}");
    }
    for (start, count, index) in [(0, 0, 0), (1, 2, 0), (0, 1, 1)] {
        let d = run_desc(&vs, &gap(start, count, index), &l11());
        assert_eq!(ids(&d), ["V605"], "gap start {start} count {count} index {index}: {d:#?}");
        assert_eq!(d[0].location, Location::StreamOutput { entry: Some(1) });
    }
}

/// D3D11_SO_DECLARATION_ENTRY: SemanticName and SemanticIndex name an output element;
/// functional spec 14.3: the API uses "string names for elements in a shader output
/// signature".
#[test]
fn semantic_must_be_an_output_of_the_stream() {
    let gs = gs_streams();
    ok(&gs, "sv_POSITION.xyzw; texcoord1.xy");
    let d = refused(&gs, "TEXCOORD2.xy", &["V606"]);
    assert!(d[0].message.contains("TEXCOORD2") && d[0].message.contains("index 1"), "{}", d[0].message);
    // NORMAL is an output of stream 1.
    let d = refused(&gs, "SV_Position; NORMAL.xyz", &["V606"]);
    assert!(d[0].message.contains("stream 1"), "{}", d[0].message);
    assert_eq!(d[0].location, Location::StreamOutput { entry: Some(1) });
    ok(&gs, "s1:NORMAL.xyz");
}

/// Functional spec 14.3, RegisterMask: "This must be a subset of the mask for the
/// register in the source Pipeline Stage's output".
#[test]
fn components_must_be_in_the_element_mask() {
    let gs = gs_streams();
    ok(&gs, "TEXCOORD1.xy");
    ok(&gs, "TEXCOORD1.y");
    let d = refused(&gs, "TEXCOORD1.xyz", &["V607"]);
    assert!(d[0].message.contains(".z"), "{}", d[0].message);
    refused(&gs, "s1:NORMAL.yzw", &["V607"]);
    ok(&gs, "s1:NORMAL.yz");
}

/// vs_4_0 with packed outputs: TEXCOORD0 in `o1.xy`, TEXCOORD1 in `o1.z`, TEXCOORD2 in
/// `o1.w`, TEXCOORD3 in `o2.x`, TEXCOORD4 in `o2.yzw`.
fn vs_packed() -> Vec<u8> {
    assemble(&listing(
        "vs_4_0",
        false,
        &[
            out(0, "SV_Position", 0, 0, "xyzw"),
            out(0, "TEXCOORD", 0, 1, "xy"),
            out(0, "TEXCOORD", 1, 1, "z"),
            out(0, "TEXCOORD", 2, 1, "w"),
            out(0, "TEXCOORD", 3, 2, "x"),
            out(0, "TEXCOORD", 4, 2, "yzw"),
        ],
    ))
}

/// `StartComponent` counts from the element's first component, not the register's x:
/// an element packed in `.z` is written `StartComponent 0, ComponentCount 1`. Sources:
/// the functional spec 14.3 ("the API ... using string names for elements in a shader
/// output signature, and component counts / offets to identify data within elements",
/// where the DDI uses register masks), and D3D11_SO_DECLARATION_ENTRY ("Which
/// component of the entry to begin writing out to"). Each edge: the element's last
/// component accepted, one past it refused (V607).
#[test]
fn start_component_counts_from_the_element() {
    let vs = vs_packed();
    let one = |index, start, count| {
        let d = run_desc(&vs, &desc(vec![entry(0, Some("TEXCOORD"), index, start, count, 0)]), &l11());
        ids(&d).into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    // TEXCOORD1 in o1.z: one component, StartComponent 0.
    assert!(one(1, 0, 1).is_empty());
    assert_eq!(one(1, 2, 1), ["V607"], "the register's z is not the element's component 2");
    assert_eq!(one(1, 0, 2), ["V607"]);
    // TEXCOORD2 in o1.w.
    assert!(one(2, 0, 1).is_empty());
    assert_eq!(one(2, 3, 1), ["V607"]);
    assert_eq!(one(2, 1, 1), ["V607"]);
    // TEXCOORD4 in o2.yzw: components 0..2.
    assert!(one(4, 0, 3).is_empty());
    assert!(one(4, 2, 1).is_empty());
    assert!(one(4, 1, 2).is_empty());
    assert_eq!(one(4, 1, 3), ["V607"]);
    assert_eq!(one(4, 3, 1), ["V607"]);
    // TEXCOORD0 in o1.xy (first component x: both readings agree).
    assert!(one(0, 1, 1).is_empty());
    assert_eq!(one(0, 2, 1), ["V607"]);
    let d = run_desc(&vs, &desc(vec![entry(0, Some("TEXCOORD"), 4, 1, 3, 0)]), &l11());
    assert!(d[0].message.contains("TEXCOORD4 has 3 components"), "{}", d[0].message);
    // The text form counts the same way, and an entry without a mask is all of the element.
    ok(&vs, "TEXCOORD1.x; TEXCOORD2.x; TEXCOORD3.x; TEXCOORD4.xyz; TEXCOORD0.xy");
    refused(&vs, "TEXCOORD1.z", &["V607"]);
    refused(&vs, "TEXCOORD4.yzw", &["V607"]);
    let mut d: StreamOutputDesc = "TEXCOORD1; TEXCOORD4; SV_Position".parse().unwrap();
    assert!(d.resolve_masks_in(&vs).is_empty());
    let ranges: Vec<(u8, u8)> = d.entries.iter().map(|e| (e.start_component, e.component_count)).collect();
    assert_eq!(ranges, [(0, 1), (0, 3), (0, 4)]);
    assert!(run_desc(&vs, &d, &l11()).is_empty());
    // Writing a packed element's component twice is still a duplicate.
    refused(&vs, "TEXCOORD4.y; TEXCOORD4.xy", &["V612"]);
}

/// Functional spec 14.3, RegisterIndex: a register may appear several times "as long as
/// the RegisterMask does not overlap for repeated registers within a Stream"; 14.1:
/// "Stream data cannot be replicated across multiple buffers".
#[test]
fn the_same_component_twice() {
    let gs = gs_streams();
    ok(&gs, "SV_Position.xy; 1:SV_Position.zw");
    let d = refused(&gs, "SV_Position.xy; SV_Position.yz", &["V612"]);
    assert_eq!(d[0].location, Location::StreamOutput { entry: Some(1) });
    assert!(d[0].message.contains(".y") && d[0].message.contains("entry 0"), "{}", d[0].message);
    // Across slots too, and regardless of case.
    refused(&gs, "SV_Position.xyzw; 1:sv_position.w", &["V612"]);
    // The same semantic on two streams is two elements.
    ok(&gs, "TEXCOORD1.xy; s1:1:TEXCOORD1.xy");
}

/// Functional spec 14.1: "Data from multiple Streams cannot go to a single Buffer, but
/// each Stream can send its output to multiple Buffers".
#[test]
fn one_slot_one_stream() {
    let gs = gs_streams();
    ok(&gs, "SV_Position.xyzw; s1:1:NORMAL.xyz");
    let d = refused(&gs, "SV_Position.xyzw; s1:NORMAL.xyz", &["V608"]);
    assert_eq!(d[0].location, Location::StreamOutput { entry: Some(1) });
    assert!(d[0].message.contains("slot 0"), "{}", d[0].message);
}

/// The debug layer's
/// D3D11_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_CANTHAVEONLYGAPS
/// (d3d11sdklayers.h).
#[test]
fn a_slot_of_gaps_only() {
    let vs = vs();
    ok(&vs, "SV_Position.xyzw; 1:$SKIP.xy; 1:TEXCOORD0.xy");
    let d = refused(&vs, "SV_Position.xyzw; 1:$SKIP.xy", &["V614"]);
    assert_eq!(d[0].location, Location::StreamOutput { entry: Some(1) });
}

/// The CreateGeometryShaderWithStreamOutput page: NumStrides "ranges from 0 to
/// D3D11_SO_BUFFER_SLOT_COUNT"; functional spec 14.3: "The stride value must be >= the
/// declared size of the stream output structure (including gaps), up to 2048 bytes max"
/// (D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES).
#[test]
fn strides() {
    let vs = vs();
    let with = |decl: &str, strides: &[u32]| run(&vs, decl, strides, 0, &l11());
    // The largest stride.
    assert!(with("SV_Position", &[2048]).is_empty());
    assert_eq!(ids(&with("SV_Position", &[2052])), ["V609"]);
    // A multiple of 4.
    assert_eq!(ids(&with("SV_Position", &[18])), ["V609"]);
    // Four strides, not five.
    assert!(with("SV_Position", &[16, 0, 0, 2048]).is_empty());
    let d = with("SV_Position", &[16, 0, 0, 0, 0]);
    assert_eq!(ids(&d), ["V609"], "{d:#?}");
    assert_eq!(d[0].location, Location::StreamOutput { entry: None });
    // At least the slot's bytes, gaps included.
    assert!(with("SV_Position.xyzw; $SKIP.xy", &[24]).is_empty());
    let d = with("SV_Position.xyzw; $SKIP.xy", &[20]);
    assert_eq!(ids(&d), ["V609"], "{d:#?}");
    assert!(d[0].message.contains("24 bytes"), "{}", d[0].message);
    // Every used slot has a stride when strides are given.
    assert!(with("SV_Position; 1:TEXCOORD0", &[16, 8]).is_empty());
    assert!(with("SV_Position; 1:TEXCOORD0", &[]).is_empty());
    let d = with("SV_Position; 1:TEXCOORD0", &[16]);
    assert_eq!(ids(&d), ["V609"], "{d:#?}");
    assert!(d[0].message.contains("slot 1"), "{}", d[0].message);
}

/// The CreateGeometryShaderWithStreamOutput page: RasterizedStream "ranges from 0 to
/// D3D11_SO_STREAM_COUNT - 1", or D3D11_SO_NO_RASTERIZED_STREAM; below 11_0 only stream
/// 0 exists (functional spec 14, changes from D3D10).
#[test]
fn rasterized_stream() {
    let gs = gs_streams();
    let with = |r: u32, target: &Target| run(&gs, "SV_Position", &[], r, target);
    for r in [0, 1, 3, NO_RASTERIZED_STREAM] {
        assert!(with(r, &l11()).is_empty(), "rasterized {r}");
    }
    // Not a stream the shader declares: the functional spec (13.5.2) makes rasterizing
    // it undefined behaviour, not a creation error.
    assert!(with(2, &l11()).is_empty());
    for r in [4, 5, 0xffff_fffe] {
        let d = with(r, &l11());
        assert_eq!(ids(&d), ["V610"], "rasterized {r}: {d:#?}");
        assert_eq!(d[0].location, Location::StreamOutput { entry: None });
    }
    // Below 11_0 stream 0 is rasterized.
    let gs4 = gs4();
    assert!(run(&gs4, "SV_Position", &[], 0, &l10()).is_empty());
    for r in [1, NO_RASTERIZED_STREAM] {
        let d = run(&gs4, "SV_Position", &[], r, &l10());
        assert_eq!(ids(&d), ["V610"], "rasterized {r}: {d:#?}");
    }
}

/// `SV_Position.xyzw` then gaps up to `total` components on stream 0.
fn padded(total: u32) -> String {
    let mut decl = String::from("SV_Position.xyzw");
    let mut left = total - 4;
    while left > 0 {
        let n = left.min(100);
        decl += &format!("; $SKIP.{n}");
        left -= n;
    }
    decl
}

/// Functional spec 14.3: "Maximum count is 128 per Stream"
/// (D3D11_SO_OUTPUT_COMPONENT_COUNT), gaps included: "how many Elements (including gaps
/// ...)".
#[test]
fn components_per_stream_128_accepted_129_refused() {
    let gs = gs_streams();
    ok(&gs, &padded(128));
    let d = refused(&gs, &padded(129), &["V611"]);
    assert!(d[0].message.contains("129"), "{}", d[0].message);
    // Spread over two slots of one stream.
    ok(&gs, "SV_Position; $SKIP.100; 1:TEXCOORD1.xy; 1:$SKIP.22");
    refused(&gs, "SV_Position; $SKIP.100; 1:TEXCOORD1.xy; 1:$SKIP.23", &["V611"]);
    // Each stream has its own 128.
    ok(&gs, &format!("{}; s1:1:NORMAL.xyz; s1:1:$SKIP.125", padded(128)));

    // 128 components of data: 32 registers of xyzw.
    const REGS: [u32; 32] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31,
    ];
    let outs: Vec<Out> = REGS.iter().map(|&r| out(0, "TEXCOORD", r, r, "xyzw")).collect();
    let wide = assemble(&listing("gs_5_0", false, &outs));
    let all: Vec<String> = REGS.iter().map(|r| format!("TEXCOORD{r}.xyzw")).collect();
    ok(&wide, &all.join(";"));
    refused(&wide, &format!("{}; $SKIP.x", all.join(";")), &["V611"]);
}

/// Functional spec 14, changes from D3D10: "Total number of scalars in a Stream Output
/// declaration increased from 64 to 128" (D3D10_SO_SINGLE_BUFFER_COMPONENT_LIMIT at
/// 10_0 and 10_1).
#[test]
fn components_per_stream_64_at_10_0() {
    let gs4 = gs4();
    assert!(run(&gs4, &padded(64), &[], 0, &l10()).is_empty());
    let d = run(&gs4, &padded(65), &[], 0, &l10());
    assert_eq!(ids(&d), ["V611"], "{d:#?}");
    assert!(d[0].message.contains("10_0"), "{}", d[0].message);
    // 10_1 too (D3D10_1_SO_SINGLE_BUFFER_COMPONENT_LIMIT).
    let l10_1 = Target::d3d11(FeatureLevel::L10_1, Runtime::D3D11_1);
    assert_eq!(ids(&run(&gs4, &padded(65), &[], 0, &l10_1)), ["V611"]);
    assert!(run(&gs4, &padded(65), &[], 0, &l11()).is_empty());
}

/// Functional spec 14, changes from D3D10: "Removed D3D10 constraint that when
/// streaming to multiple Buffers, they can only have one element each"
/// (D3D10_SO_MULTIPLE_BUFFER_ELEMENTS_PER_BUFFER), and Direct3D 10's single
/// OutputStreamStride (ID3D10Device::CreateGeometryShaderWithStreamOutput page).
#[test]
fn feature_level_10_buffer_layout() {
    let gs4 = gs4();
    let at10 = |decl: &str, strides: &[u32]| run(&gs4, decl, strides, 0, &l10());
    // One buffer (slot 0) with every entry.
    assert!(at10("SV_Position; TEXCOORD0; TEXCOORD1", &[48]).is_empty());
    // Several buffers of one entry each.
    assert!(at10("SV_Position; 1:TEXCOORD0; 3:TEXCOORD1", &[]).is_empty());
    assert!(at10("1:SV_Position", &[]).is_empty());
    // Anything else.
    let d = at10("SV_Position; 1:TEXCOORD0; 1:TEXCOORD1", &[]);
    assert_eq!(ids(&d), ["V613"], "{d:#?}");
    assert_eq!(d[0].location, Location::StreamOutput { entry: Some(2) });
    assert_eq!(ids(&at10("1:SV_Position; 1:TEXCOORD0", &[])), ["V613"]);
    // One stride (Direct3D 10's OutputStreamStride).
    assert_eq!(ids(&at10("SV_Position; TEXCOORD0", &[32, 16])), ["V613"]);
    // 11_0 has none of these restrictions.
    assert!(run(&gs4, "SV_Position; 1:TEXCOORD0; 1:TEXCOORD1", &[16, 32], 0, &l11()).is_empty());
}

/// Direct3D feature levels: 9_x has no geometry-shader stage and no stream output; 10_0
/// has both.
#[test]
fn no_stream_output_at_feature_level_9() {
    let l9 = Target::d3d11(FeatureLevel::L9_3, Runtime::D3D11_1);
    let vs = vs();
    let report = validate_with_stream_output(&vs, vs.len(), &l9, &"SV_Position".parse().unwrap());
    assert!(report.diagnostics.iter().any(|d| d.code.id() == "V613"), "{:#?}", report.diagnostics);
    assert!(run(&vs, "SV_Position", &[], 0, &l10()).is_empty());
}

/// The CreateGeometryShaderWithStreamOutput page: pShaderBytecode is a geometry shader,
/// the prior stage's compiled shader (vertex or domain) or its output signature; a
/// pixel, hull or compute shader is refused (V601).
#[test]
fn stream_output_takes_a_vertex_domain_or_geometry_shader() {
    ok(&vs(), "SV_Position");
    ok(&gs5_single(), "SV_Position");
    let ps = assemble(&listing("ps_4_0", false, &[out(0, "SV_Target", 0, 0, "xyzw")]));
    let report = validate_with_stream_output(&ps, ps.len(), &l11(), &"SV_Target".parse().unwrap());
    assert!(report.diagnostics.iter().any(|d| d.code.id() == "V601"), "{:#?}", report.diagnostics);
}

#[test]
fn masks_left_out_are_resolved_against_the_signature() {
    let gs = gs_streams();
    let mut desc: StreamOutputDesc = "SV_Position; TEXCOORD1; s1:1:NORMAL; s1:2:COLOR.zw; TEXCOORD7".parse().unwrap();
    let unresolved = desc.resolve_masks_in(&gs);
    assert_eq!(unresolved, [4]);
    let ranges: Vec<(u8, u8)> = desc.entries.iter().map(|e| (e.start_component, e.component_count)).collect();
    assert_eq!(ranges, [(0, 4), (0, 2), (0, 3), (2, 2), (0, 0)]);
    // (Every element here starts at x; vs_packed's start later, see
    // start_component_counts_from_the_element.)
    // The entry left unresolved is refused.
    let d = run_desc(&gs, &desc, &l11());
    assert_eq!(ids(&d), ["V605", "V606"], "{d:#?}");
    // Not a container: nothing resolves.
    let mut desc: StreamOutputDesc = "SV_Position".parse().unwrap();
    assert_eq!(desc.resolve_masks_in(b"not a shader"), [0]);
}

// ---------------------------------------------------------------------------------
// The text form
// ---------------------------------------------------------------------------------

#[test]
fn parse_good_declarations() {
    let e = parse_entries("s1:2:TEXCOORD12.yz").unwrap();
    assert_eq!(e, [entry(1, Some("TEXCOORD"), 12, 1, 2, 2)]);
    let e = parse_entries(" s3 : 1 : POS . xyzw ; $SKIP.xy ;3:COLOR.rgb;$skip.8; SV_Position ;").unwrap();
    assert_eq!(
        e,
        [
            entry(3, Some("POS"), 0, 0, 4, 1),
            entry(0, None, 0, 0, 2, 0),
            entry(0, Some("COLOR"), 0, 0, 3, 3),
            entry(0, None, 0, 0, 8, 0),
            entry(0, Some("SV_Position"), 0, 0, 0, 0),
        ]
    );
    assert_eq!(parse_entries("0:SV_POSITION.xyzw").unwrap(), [entry(0, Some("SV_POSITION"), 0, 0, 4, 0)]);
    assert_eq!(parse_entries("N.w").unwrap(), [entry(0, Some("N"), 0, 3, 1, 0)]);
    assert_eq!(parse_entries("_X01.A").unwrap(), [entry(0, Some("_X"), 1, 3, 1, 0)]);
    // Values the checks refuse still parse: the text says what is passed.
    assert_eq!(parse_entries("s9:7:A").unwrap(), [entry(9, Some("A"), 0, 0, 0, 7)]);
    assert_eq!(parse_entries("").unwrap(), []);
    assert_eq!(parse_entries("  ").unwrap(), []);
    let d: StreamOutputDesc = "A.x".parse().unwrap();
    assert_eq!(
        d,
        StreamOutputDesc { entries: vec![entry(0, Some("A"), 0, 0, 1, 0)], strides: vec![], rasterized_stream: 0 }
    );
}

#[test]
fn parse_errors_name_their_column() {
    use SoParseErrorKind as K;
    let cases: &[(&str, usize, K)] = &[
        ("POS.xz", 5, K::MaskNotContiguous("xz".into())),
        ("POS.yx", 5, K::MaskNotContiguous("yx".into())),
        ("POS.xg", 5, K::MixedComponentSets("xg".into())),
        ("POS.xq", 6, K::BadComponent('q')),
        ("POS.xyzwx", 5, K::MaskNotContiguous("xyzwx".into())),
        ("POS.", 5, K::MissingMask),
        ("POS.;B", 5, K::MissingMask),
        ("A; $SKIP", 4, K::GapNeedsMask),
        ("$SKIP.yz", 7, K::GapMaskStart("yz".into())),
        ("$SKIP.0", 7, K::GapCount("0".into())),
        ("$SKIP.256", 7, K::GapCount("256".into())),
        ("A;;B", 3, K::EmptyEntry),
        (";", 1, K::EmptyEntry),
        (" ; A", 2, K::EmptyEntry),
        ("0:s1:POS", 3, K::PrefixOrder),
        ("s1:s2:POS", 4, K::DuplicatePrefix("stream")),
        ("1:2:POS", 3, K::DuplicatePrefix("slot")),
        ("256:POS", 1, K::SlotTooLarge("256".into())),
        ("s4294967296:POS", 1, K::StreamTooLarge("s4294967296".into())),
        ("x1:POS", 1, K::BadPrefix("x1".into())),
        ("A; 1POS", 4, K::BadSemantic("1POS".into())),
        ("A$B", 1, K::BadSemantic("A$B".into())),
        ("POS99999999999", 4, K::IndexTooLarge("99999999999".into())),
        ("POS.xy z", 8, K::Unexpected('z')),
        ("POS-1", 4, K::Unexpected('-')),
        ("s1:", 4, K::MissingSemantic),
        ("é:A", 1, K::Unexpected('é')),
        ("A; é", 4, K::Unexpected('é')),
        ("A.x; éé.q", 6, K::Unexpected('é')),
        ("éé; B.q", 1, K::Unexpected('é')),
        ("A; B.x é", 8, K::Unexpected('é')),
    ];
    for (text, column, kind) in cases {
        let got = parse_entries(text);
        assert_eq!(got, Err(SoParseError { column: *column, kind: kind.clone() }), "{text:?}");
        let message = got.unwrap_err().to_string();
        assert!(message.starts_with(&format!("column {column}: ")), "{text:?}: {message}");
        assert!(text.parse::<StreamOutputDesc>().is_err());
    }
    // The error type is a std error.
    let e: Box<dyn std::error::Error> = Box::new(parse_entries("$SKIP").unwrap_err());
    assert!(e.to_string().contains("$SKIP"));
}

// ---------------------------------------------------------------------------------
// No panics
// ---------------------------------------------------------------------------------

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[(self.next() % v.len() as u64) as usize]
    }
}

#[test]
fn arbitrary_declarations_do_not_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let shaders = [gs_streams(), gs4(), vs(), b"garbage".to_vec()];
    let targets =
        [l10(), l11(), Target::d3d12(), Target::d3d11(FeatureLevel::L9_1, Runtime::D3D11_0), Target::default()];
    let names = [Some("SV_Position"), Some("TEXCOORD"), Some("sv_position"), Some(""), Some("NORMAL"), None];
    for _ in 0..3000 {
        let n = (rng.next() % 12) as usize;
        let entries = (0..n)
            .map(|_| SoEntry {
                stream: rng.pick(&[0, 1, 2, 3, 4, 0xffff_ffff]),
                semantic_name: rng.pick(&names).map(str::to_string),
                semantic_index: rng.pick(&[0, 1, 2, u32::MAX]),
                start_component: rng.pick(&[0, 1, 3, 4, 255]),
                component_count: rng.pick(&[0, 1, 2, 4, 5, 255]),
                output_slot: rng.pick(&[0, 1, 3, 4, 255]),
            })
            .collect();
        let strides = (0..rng.next() % 7).map(|_| rng.pick(&[0, 3, 4, 16, 2048, 2052, u32::MAX])).collect();
        let mut desc = StreamOutputDesc {
            entries,
            strides,
            rasterized_stream: rng.pick(&[0, 1, 3, 4, NO_RASTERIZED_STREAM, 0xffff_fffe]),
        };
        let shader = &shaders[(rng.next() % shaders.len() as u64) as usize];
        desc.resolve_masks_in(shader);
        let target = rng.pick(&targets);
        let _ = validate_with_stream_output(shader, shader.len(), &target, &desc);
    }
    // Arbitrary text.
    let alphabet: Vec<char> = "s0123:;.$SKIPxyzwrgbaPOSé _\t-".chars().collect();
    for _ in 0..20000 {
        let len = (rng.next() % 16) as usize;
        let text: String = (0..len).map(|_| rng.pick(&alphabet)).collect();
        if let Err(e) = parse_entries(&text) {
            assert!((1..=text.chars().count() + 1).contains(&e.column), "{text:?}: {e}");
        }
    }
}
