//! The comment header back into chunks: for every DXBC blob of the corpus, the chunks
//! rebuilt from Microsoft's listing header (and the blob's decoded program, standing in
//! for the assembler's parsed one) must equal the blob's own, byte for byte.
//!
//! RDEF chunks that differ are split into those that differ only in fields the listing
//! does not print (compile flags, the `USERPACKED` binding flag, Shader Model 5 type
//! names that are typedefs, or a string/type layout the fresh writer does not
//! reproduce) and real failures.

use std::collections::BTreeMap;

use dxbc::rdef::{input_flags, ShaderType};
use dxbc::{Container, FourCc, Ifce, Rdef, SignatureFormat};
use listing::reflect;

/// The listing's lines before the SM4/5 shader-version line.
fn header_of(listing: &str, profile: &str) -> String {
    let sm4 = profile.rsplit('+').next().unwrap_or(profile);
    let mut out = String::new();
    for line in listing.split_inclusive('\n') {
        if line.trim() == sm4 {
            break;
        }
        out.push_str(line);
    }
    out
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!("first differing byte {i}: got {:#04x}, want {:#04x}", a[i], b[i]),
        None => format!("lengths differ: got {}, want {}", a.len(), b.len()),
    }
}

/// Copies the SM5 type names of `from` into `to` where both have the same shape.
fn copy_names<'a>(to: &mut ShaderType<'a>, from: &ShaderType<'a>) {
    to.name = from.name;
    for (t, f) in to.members.iter_mut().zip(&from.members) {
        copy_names(&mut t.ty, &f.ty);
    }
    if let (Some(t), Some(f)) = (to.subtype.as_mut(), from.subtype.as_ref()) {
        copy_names(t, f);
    }
}

/// The fields the listing does not carry in which `got` differs from `want`, if copying
/// them over makes the chunks equal; `None` if the difference is elsewhere.
fn only_uncarried(got: &[u8], want: &[u8]) -> Option<Vec<&'static str>> {
    let want_rdef = Rdef::parse(want).ok()?;
    let mut fixed = Rdef::parse(got).ok()?;
    let mut fields = Vec::new();
    if fixed.flags != want_rdef.flags {
        fields.push("compile flags");
        fixed.flags = want_rdef.flags;
    }
    if fixed.bindings.len() == want_rdef.bindings.len() {
        for (g, w) in fixed.bindings.iter_mut().zip(&want_rdef.bindings) {
            let bit = input_flags::USERPACKED;
            if g.flags & bit != w.flags & bit {
                g.flags = (g.flags & !bit) | (w.flags & bit);
                if !fields.contains(&"binding USERPACKED flag") {
                    fields.push("binding USERPACKED flag");
                }
            }
        }
    }
    let before = fixed.clone();
    if fixed.constant_buffers.len() == want_rdef.constant_buffers.len() {
        for (g, w) in fixed.constant_buffers.iter_mut().zip(&want_rdef.constant_buffers) {
            for (gv, wv) in g.variables.iter_mut().zip(&w.variables) {
                copy_names(&mut gv.ty, &wv.ty);
            }
        }
    }
    if fixed != before {
        fields.push("type names (typedefs)");
    }
    if fixed.fresh_bytes() == want {
        return Some(fields);
    }
    // The original's layout (string sharing, order) that the fresh writer does not
    // reproduce: the values are equal, the layout is not in the listing.
    let mut values = want_rdef.clone();
    values.raw_layout = None;
    if values == fixed {
        fields.push("fxc's layout of the chunk");
        return Some(fields);
    }
    None
}

#[derive(Default)]
struct Count {
    pass: usize,
    total: usize,
    uncarried: BTreeMap<String, usize>,
    failures: Vec<String>,
}

#[test]
fn chunks_match_the_corpus() {
    let Some(entries) = corpus::dxbc_entries("chunks_match_the_corpus") else {
        return;
    };
    let mut counts: BTreeMap<String, Count> = BTreeMap::new();
    let mut rejected = Vec::new();
    // Every entry's RDEF result, checked against tests/expect/reflect_rdef.txt.
    let mut rdef: BTreeMap<String, String> = BTreeMap::new();
    for e in &entries {
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        let shex = c.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).unwrap();
        let program = tpf::decode(shex.data).unwrap();
        let header = header_of(&e.listing(), &e.profile);
        let r = match reflect::reflect(&header, &program) {
            Ok(r) => r,
            Err(errors) => {
                rejected.push(format!("{}: {}", e.id(), errors[0]));
                rdef.insert(e.id(), corpus::expect::one_line(&format!("header rejected: {}", errors[0])));
                continue;
            }
        };
        assert!(r.warnings.is_empty(), "{}: unexpected warnings {:?}", e.id(), r.warnings);
        // Signatures: the same chunks in the same order, byte for byte.
        let want_sigs: Vec<_> =
            c.chunks().iter().filter(|ch| SignatureFormat::for_fourcc(ch.fourcc).is_some()).collect();
        let got_order: Vec<FourCc> = r.signatures.iter().map(|(f, _)| *f).collect();
        let want_order: Vec<FourCc> = want_sigs.iter().map(|ch| ch.fourcc).collect();
        for ch in &want_sigs {
            let n = counts.entry(ch.fourcc.to_string()).or_default();
            n.total += 1;
            match r.signatures.iter().find(|(f, _)| *f == ch.fourcc) {
                Some((_, got)) if got == ch.data && got_order == want_order => n.pass += 1,
                Some((_, got)) if got == ch.data => {
                    n.failures.push(format!("{}: chunk order {got_order:?}, want {want_order:?}", e.id()))
                }
                Some((_, got)) => n.failures.push(format!("{}: {}", e.id(), first_difference(got, ch.data))),
                None => n.failures.push(format!("{}: not rebuilt (got {got_order:?})", e.id())),
            }
        }
        // RDEF.
        let n = counts.entry("RDEF".into()).or_default();
        let outcome = match (c.chunk(FourCc::RDEF), &r.rdef) {
            (None, None) => "no RDEF".to_string(),
            (Some(want), Some(got)) => {
                n.total += 1;
                if got == want.data {
                    n.pass += 1;
                    "exact".to_string()
                } else if let Some(fields) = only_uncarried(got, want.data) {
                    *n.uncarried.entry(fields.join(" + ")).or_default() += 1;
                    format!("differs in what the listing does not carry: {}", fields.join(" + "))
                } else {
                    let d = first_difference(got, want.data);
                    n.failures.push(format!("{}: {d}", e.id()));
                    corpus::expect::one_line(&format!("differs: {d}"))
                }
            }
            (Some(_), None) => {
                n.total += 1;
                n.failures.push(format!("{}: RDEF not rebuilt", e.id()));
                "not rebuilt".to_string()
            }
            (None, Some(_)) => {
                n.total += 1;
                n.failures.push(format!("{}: RDEF built for a blob without one", e.id()));
                "built for a blob without one".to_string()
            }
        };
        rdef.insert(e.id(), outcome);
        // IFCE.
        let n = counts.entry("IFCE".into()).or_default();
        match (c.chunk(FourCc::IFCE), &r.ifce) {
            (None, None) => {}
            (Some(want), Some(got)) => {
                n.total += 1;
                if got == want.data {
                    n.pass += 1;
                } else {
                    let mut fixed = Ifce::parse(got).unwrap();
                    let original = Ifce::parse(want.data).unwrap();
                    fixed.reserved = original.reserved;
                    if fixed.to_bytes() == want.data {
                        *n.uncarried.entry("the two uninitialised header words".into()).or_default() += 1;
                    } else {
                        n.failures.push(format!("{}: {}", e.id(), first_difference(got, want.data)));
                    }
                }
            }
            (want, got) => {
                n.total += 1;
                n.failures.push(format!("{}: IFCE in blob: {}, rebuilt: {}", e.id(), want.is_some(), got.is_some()));
            }
        }
    }
    for msg in &rejected {
        println!("REJECTED {msg}");
    }
    let mut summary = Vec::new();
    for (kind, n) in &counts {
        let mut s = format!("{kind} {}/{}", n.pass, n.total);
        let not_derivable: usize = n.uncarried.values().sum();
        if not_derivable > 0 {
            let why: Vec<String> = n.uncarried.iter().map(|(k, v)| format!("{v}: {k}")).collect();
            s.push_str(&format!(" ({not_derivable} not derivable: {})", why.join("; ")));
        }
        if !n.failures.is_empty() {
            s.push_str(&format!(" [{} FAILED]", n.failures.len()));
        }
        summary.push(s);
        for f in n.failures.iter().take(8) {
            println!("FAIL {kind} {f}");
        }
    }
    println!("reflect: {}", summary.join(", "));
    println!("rejected headers: {}", rejected.len());
    assert!(rejected.is_empty(), "{} headers rejected", rejected.len());
    for (kind, n) in &counts {
        assert!(n.failures.is_empty(), "{kind}: {} chunks differ in fields the listing carries", n.failures.len());
    }
    let get = |k: &str| counts.get(k).map_or((0, 0), |n| (n.pass, n.total));
    for kind in ["ISGN", "OSGN", "OSG5", "PCSG", "ISG1", "OSG1"] {
        let (pass, total) = get(kind);
        assert_eq!(pass, total, "{kind}");
    }
    assert_eq!(get("ISGN"), (439, 439));
    assert_eq!(get("IFCE").1, 8);
    corpus::expect::check(corpus::expect_file!("reflect_rdef.txt"), &rdef);
}

/// A fuzzing alphabet: fragments of real headers, so that mutations reach deep into
/// the table readers.
const FRAGMENTS: &[&str] = &[
    "//",
    " ",
    "  ",
    "\n",
    "// ",
    "{",
    "}",
    ";",
    "[",
    "]",
    "[unused]",
    "// Offset:",
    "Size:",
    "=",
    "0x3f800000",
    "struct",
    "cbuffer",
    "Resource bind info for",
    "interface",
    "row_major",
    "float4x4",
    "uint",
    "x",
    "xyzw",
    "N/A",
    "YES",
    "m0:",
    "-----",
    "|",
    "Type ID",
    "Table ID",
    "0-3",
    "Input signature:",
    "Output signature:",
    "Buffer Definitions:",
    "Resource Bindings:",
    "Name",
    "4294967295",
    "99999999999",
    "é",
    "\t",
    "unbounded",
    "cb0,space",
    "2dMS",
    "Interface slots, 3 total:",
    "Available Class Types:",
];

fn check_never_panics(header: &str, program: &tpf::Program<'_>) -> bool {
    match reflect::reflect(header, program) {
        Ok(r) => {
            // Whatever is accepted decodes with the chunk codecs.
            for (fourcc, data) in &r.signatures {
                dxbc::Signature::parse(data, SignatureFormat::for_fourcc(*fourcc).unwrap()).unwrap();
            }
            if let Some(rdef) = &r.rdef {
                Rdef::parse(rdef).unwrap();
            }
            if let Some(ifce) = &r.ifce {
                Ifce::parse(ifce).unwrap();
            }
            true
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            let lines = header.split('\n').count();
            for e in &errors {
                assert!((1..=lines).contains(&e.line) && e.column > 0, "{e} outside the header");
            }
            false
        }
    }
}

fn mutate(rng: &mut corpus::Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        let n = lines.len().max(1);
        let i = rng.below(n).min(lines.len().saturating_sub(1));
        match rng.below(7) {
            0 if !lines.is_empty() => {
                lines.remove(i);
            }
            1 if !lines.is_empty() => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 if lines.len() > 1 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            3 if !lines.is_empty() => {
                // Replace one character.
                let l = &mut lines[i];
                let chars: Vec<char> = l.chars().collect();
                if !chars.is_empty() {
                    let k = rng.below(chars.len());
                    let f = FRAGMENTS[rng.below(FRAGMENTS.len())];
                    *l = chars[..k].iter().collect::<String>() + f + &chars[k + 1..].iter().collect::<String>();
                }
            }
            4 if !lines.is_empty() => {
                let l = &mut lines[i];
                let keep = rng.below(l.chars().count() + 1);
                *l = l.chars().take(keep).collect();
            }
            5 => {
                let f: String = (0..1 + rng.below(6)).map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())]).collect();
                lines.insert(i.min(lines.len()), f);
            }
            _ if !lines.is_empty() => {
                // Shift a row's columns.
                let l = &mut lines[i];
                let k = rng.below(l.len() + 1);
                if l.is_char_boundary(k) {
                    l.insert(k, ' ');
                }
            }
            _ => {}
        }
    }
    lines.join("\n")
}

#[test]
fn random_headers_never_panic() {
    // Without the corpus: text made of header fragments, with a few programs.
    let programs = [
        "ps_5_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\nret\n",
        "vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nret\n",
        "cs_5_1\ndcl_thread_group 1, 1, 1\nret\n",
        "hs_5_0\nhs_decls\ndcl_input_control_point_count 3\ndcl_output_control_point_count 3\ndcl_tessellator_domain domain_tri\ndcl_tessellator_partitioning partitioning_integer\ndcl_tessellator_output_primitive output_triangle_cw\nhs_fork_phase\ndcl_output_siv o0.x, finalTriUeq0EdgeTessFactor\nret\n",
    ];
    let parsed: Vec<_> = programs.iter().map(|p| tpf::parse::parse_program(p).unwrap().program).collect();
    let mut rng = corpus::Rng(0x9e37_79b9_7f4a_7c15);
    let (mut accepted, mut rejected) = (0, 0);
    for round in 0..3000 {
        let len = rng.below(60);
        let text: String = (0..len).map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())]).collect();
        if check_never_panics(&text, &parsed[round % parsed.len()]) {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    println!("random headers: {accepted} accepted, {rejected} rejected");
    assert!(accepted > 0 && rejected > 0);
}

#[test]
fn mutated_corpus_headers_never_panic() {
    let Some(entries) = corpus::dxbc_entries("mutated_corpus_headers_never_panic") else {
        return;
    };
    let mut rng = corpus::Rng(0x2545_f491_4f6c_dd1d);
    let (mut accepted, mut rejected) = (0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        let program = tpf::decode(c.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).unwrap().data).unwrap();
        let header = header_of(&e.listing(), &e.profile);
        for _ in 0..12 {
            if check_never_panics(&mutate(&mut rng, &header), &program) {
                accepted += 1;
            } else {
                rejected += 1;
            }
        }
    }
    println!("mutated headers: {accepted} accepted, {rejected} rejected");
    assert!(accepted > 0 && rejected > 0);
}

/// Headers as the printer writes them, covering what the corpus lacks: tbuffers,
/// `row_major`, nested and arrayed structures, minimum-precision members, default
/// values, comparison samplers, multisampled and cube textures, counter UAVs, 10-letter
/// system values, the old binding layout with sample counts, class instances, and 5.1
/// register spaces and unbounded ranges.
const HEADER_10_1: &str = r"//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
//
// Buffer Definitions: 
//
// cbuffer Globals
// {
//
//   float4 tint;                       // Offset:    0 Size:    16
//   row_major float4x3 world;          // Offset:   16 Size:    60 [unused]
//   bool enabled;                      // Offset:   76 Size:     4
//      = 0x00000001 
//   uint2 counts[3];                   // Offset:   80 Size:    40
//   
//   struct Light
//   {
//       
//       float3 direction;              // Offset:  128
//       
//       struct
//       {
//           
//           float r;                   // Offset:  140
//           min16float g;              // Offset:  144
//
//       } colour;                      // Offset:  140
//
//   } lights[2];                       // Offset:  128 Size:    56
//
// }
//
// tbuffer Extra
// {
//
//   int4 values[4];                    // Offset:    0 Size:    64
//
// }
//
// Resource bind info for particles
// {
//
//   struct Particle
//   {
//       
//       float3 position;               // Offset:    0
//       uint age;                      // Offset:   12
//
//   } $Element;                        // Offset:    0 Size:    16
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- -------------- ------
// shadowSampler                   sampler_c      NA          NA             s1      1 
// msTexture                         texture  float4        2dMS             t0      1 
// cubes                             texture   uint4        cube             t1      4 
// raw                               texture    byte         r/o             t5      1 
// particles                             UAV  struct     r/w+cnt             u1      1 
// Extra                             tbuffer      NA          NA             t6      1 
// Globals                           cbuffer      NA          NA            cb2      1 
//
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xy  
// TEXCOORD                 0   xy          1     NONE   float   xy  
// TEXCOORD                 1     zw        1     NONE   float     z 
// SV_SampleIndex           0   x           2   SAMPLE    uint   x   
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
// SV_Target                1   xy          1   TARGET     int   x   
// SV_DepthGreaterEqual     0    N/A oDepthGE  DEPTHGE   float    YES
// SV_StencilRef            0    N/A oStencilRef STENCILREF    uint    YES
//
";

const HEADER_9_30: &str = r"//
// Generated by Microsoft (R) HLSL Shader Compiler 9.30.9200.20499
//
//
///
// Buffer Definitions: 
//
// cbuffer $Globals
// {
//
//   int alphaIndex;                    // Offset:    0 Size:     4
//
// }
//
// interfaces $ThisPointer
// {
//
//   interface iChangeColour gChangers[2];// Offset:    0 Size:     2
//   interface iAlpha gAlpha;           // Offset:    2 Size:     1 [unused]
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim Slot Elements
// ------------------------------ ---------- ------- ----------- ---- --------
// ms                                texture  float2       2dMS8    3        1
// img                                   UAV   unorm          1d    2        1
// $Globals                          cbuffer      NA          NA    0        1
//
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// COLOR                    0   xyz         0     NONE  min16f   xyz 
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TARGET                0   xyzw        0   TARGET   float   xyzw
//
//
// Available Class Types:
//
// Name                             ID CB Stride Texture Sampler
// ------------------------------ ---- --------- ------- -------
// cUnchangedColour                  0         0       0       0
// cHalfColour                       1        16       1       2
//
// Available Class Instances:
//
// Name                        Type CB CB Offset Texture Sampler
// --------------------------- ---- -- --------- ------- -------
// gHalf                          1  0         4       1       0
//
// Interface slots, 3 total:
//
//             Slots
// +----------+---------+---------------------------------------
// | Type ID  |   0-1   |0    1    
// | Table ID |         |0    1    
// +----------+---------+---------------------------------------
// | Type ID  |   2     |1    
// | Table ID |         |2    
// +----------+---------+---------------------------------------
";

const HEADER_5_1: &str = r"//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
//
// Buffer Definitions: 
//
// cbuffer consts
// {
//
//   uint base;                         // Offset:    0 Size:     4
//   double scale;                      // Offset:    8 Size:     8
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- ------- -------------- ------
// samplers                          sampler      NA          NA      S0             s0      2 
// textures                          texture  float4          2d      T0      t0,space1 unbounded 
// out                                   UAV   uint2     2darray      U3             u7      1 
// consts                            cbuffer      NA          NA     CB1     cb3,space2      1 
//
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Input
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Output
";

/// `(header, program)` pairs for the round-trip tests.
const ROUND_TRIPS: &[(&str, &str)] = &[
    (
        HEADER_10_1,
        "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_resource_texture2dms(4) (float,float,float,float) t0\nret \n",
    ),
    (HEADER_9_30, "ps_5_0\ndcl_globalFlags refactoringAllowed\nret \n"),
    (HEADER_5_1, "cs_5_1\ndcl_globalFlags refactoringAllowed\ndcl_thread_group 1, 1, 1\nret \n"),
];

/// Builds a container from the rebuilt chunks and the program, and prints its header.
fn print_back(r: &reflect::Reflection, program: &tpf::Program<'_>) -> String {
    let mut b = dxbc::Builder::new();
    if let Some(rdef) = &r.rdef {
        b.push(FourCc::RDEF, rdef.clone());
    }
    for (fourcc, data) in &r.signatures {
        b.push(*fourcc, data.clone());
    }
    if let Some(ifce) = &r.ifce {
        b.push(FourCc::IFCE, ifce.clone());
    }
    b.push(FourCc::SHEX, tpf::encode(program).unwrap());
    let bytes = b.build().unwrap();
    let c = Container::parse(&bytes).unwrap();
    listing::header::header(&c, listing::header::style_for(&c)).unwrap()
}

#[test]
fn printed_headers_round_trip() {
    for (header, source) in ROUND_TRIPS {
        let program = tpf::parse::parse_program(source).unwrap().program;
        let r = reflect::reflect(header, &program).unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        assert_eq!(&print_back(&r, &program), header);
    }
}

/// Offsets and sizes wider than the printer's columns (`{:>5}`, `{:>6}`) follow their
/// colon directly.
const HEADER_LARGE: &str = r"//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
//
// Buffer Definitions: 
//
// tbuffer Big
// {
//
//   float4 data[8192];                 // Offset:    0 Size:131072
//   float4 tail;                       // Offset:131072 Size:    16 [unused]
//   float4 more[6250];                 // Offset:131088 Size:100000
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- -------------- ------
// Big                               tbuffer      NA          NA             t0      1 
//
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Input
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Output
";

#[test]
fn sizes_wider_than_their_column_round_trip() {
    let program = tpf::parse::parse_program("ps_5_0\ndcl_globalFlags refactoringAllowed\nret \n").unwrap().program;
    let r = reflect::reflect(HEADER_LARGE, &program).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let rdef = Rdef::parse(r.rdef.as_deref().unwrap()).unwrap();
    let vars: Vec<(&str, u32, u32)> =
        rdef.constant_buffers[0].variables.iter().map(|v| (v.name, v.start_offset, v.size)).collect();
    assert_eq!(vars, [("data", 0, 131072), ("tail", 131072, 16), ("more", 131088, 100000)]);
    assert_eq!(print_back(&r, &program), HEADER_LARGE);
}

#[test]
fn fields_the_printer_does_not_show() {
    // 10.1 layout: the sample count comes from the program's declaration, the structure
    // stride from the `Resource bind info` block.
    let program = tpf::parse::parse_program(ROUND_TRIPS[0].1).unwrap().program;
    let r = reflect::reflect(HEADER_10_1, &program).unwrap();
    let rdef_bytes = r.rdef.unwrap();
    let rdef = Rdef::parse(&rdef_bytes).unwrap();
    let by_name = |n: &str| rdef.bindings.iter().find(|b| b.name == n).unwrap().clone();
    assert_eq!(by_name("msTexture").num_samples, 4);
    assert_eq!(by_name("particles").num_samples, 16);
    assert_eq!(by_name("cubes").num_samples, u32::MAX);
    assert_eq!(by_name("shadowSampler").flags, input_flags::COMPARISON_SAMPLER);
    assert_eq!(rdef.flags, 0x100);
    let globals = &rdef.constant_buffers[0];
    assert_eq!(globals.size, 192);
    assert_eq!(globals.variables[2].default_value, Some(&[1u8, 0, 0, 0][..]));
    assert_eq!(globals.variables[3].ty.name, Some("uint2"));
    let lights = &globals.variables[4].ty;
    assert_eq!((lights.columns, lights.elements, lights.members[1].offset), (5, 2, 12));
    assert_eq!(rdef.constant_buffers[2].size, 16);
    // Output elements without a register: one component, `YES` = written.
    let osgn = dxbc::Signature::parse(&r.signatures[1].1, SignatureFormat::Basic).unwrap();
    let depth = &osgn.elements[2];
    assert_eq!((depth.register, depth.mask, depth.rw_mask), (u32::MAX, 1, 0xe));
    assert_eq!(osgn.elements[0].system_value, dxbc::signature::SystemValue::Undefined);

    // 5.1: spaces, range IDs, unbounded ranges.
    let program = tpf::parse::parse_program(ROUND_TRIPS[2].1).unwrap().program;
    let r = reflect::reflect(HEADER_5_1, &program).unwrap();
    let rdef_bytes = r.rdef.unwrap();
    let rdef = Rdef::parse(&rdef_bytes).unwrap();
    let b = &rdef.bindings;
    assert_eq!((b[1].space, b[1].id, b[1].bind_count), (1, 0, 0));
    assert_eq!((b[3].space, b[3].id, b[3].bind_point), (2, 1, 3));
    assert_eq!(rdef.rd11.unwrap().binding_size, 40);
}

#[test]
fn a_header_without_tables_gets_derived_signatures() {
    let source = "ps_5_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xyz
dcl_input_ps constant v1.w
dcl_input_ps_sgv constant v2.x, primitive_id
dcl_output o0.xyzw
dcl_output o1.xy
dcl_output oDepth
ret
";
    let program = tpf::parse::parse_program(source).unwrap().program;
    let r = reflect::reflect("// A shader written by hand.\n//\n", &program).unwrap();
    assert_eq!((r.rdef.is_some(), r.ifce.is_some()), (false, false));
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    assert!(r.warnings[0].message.contains("derived"));
    let order: Vec<FourCc> = r.signatures.iter().map(|s| s.0).collect();
    assert_eq!(order, [FourCc::ISGN, FourCc::OSGN]);
    let isgn = dxbc::Signature::parse(&r.signatures[0].1, SignatureFormat::Basic).unwrap();
    let got: Vec<_> = isgn.elements.iter().map(|e| (e.semantic_name, e.semantic_index, e.register, e.mask)).collect();
    assert_eq!(
        got,
        [("SV_Position", 0, 0, 3), ("TEXCOORD", 0, 1, 7), ("TEXCOORD", 1, 1, 8), ("SV_PrimitiveID", 0, 2, 1)]
    );
    assert_eq!(isgn.elements[3].component_type, dxbc::signature::ComponentType::Uint32);
    let osgn = dxbc::Signature::parse(&r.signatures[1].1, SignatureFormat::Basic).unwrap();
    let got: Vec<_> =
        osgn.elements.iter().map(|e| (e.semantic_name, e.semantic_index, e.register, e.mask, e.rw_mask)).collect();
    assert_eq!(got, [("SV_Target", 0, 0, 15, 0), ("SV_Target", 1, 1, 3, 12), ("SV_Depth", 0, u32::MAX, 1, 14)]);

    // Hull shaders: fork-phase outputs are patch constants; no control-point phase
    // means the control points pass through.
    let source = "hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
hs_fork_phase
dcl_output_siv o0.x, finalTriUeq0EdgeTessFactor
dcl_output_siv o1.x, finalTriVeq0EdgeTessFactor
dcl_output_siv o2.x, finalTriWeq0EdgeTessFactor
dcl_output_siv o3.x, finalTriInsideTessFactor
dcl_input vicp[3][0].xyz
ret
";
    let program = tpf::parse::parse_program(source).unwrap().program;
    let r = reflect::reflect("", &program).unwrap();
    let order: Vec<FourCc> = r.signatures.iter().map(|s| s.0).collect();
    assert_eq!(order, [FourCc::ISGN, FourCc::OSGN, FourCc::PCSG]);
    let pcsg = dxbc::Signature::parse(&r.signatures[2].1, SignatureFormat::Basic).unwrap();
    let got: Vec<_> = pcsg.elements.iter().map(|e| (e.semantic_name, e.semantic_index, e.register)).collect();
    assert_eq!(
        got,
        [("SV_TessFactor", 0, 0), ("SV_TessFactor", 1, 1), ("SV_TessFactor", 2, 2), ("SV_InsideTessFactor", 0, 3)]
    );
    let osgn = dxbc::Signature::parse(&r.signatures[1].1, SignatureFormat::Basic).unwrap();
    assert_eq!(osgn.elements.len(), 1);
    assert_eq!((osgn.elements[0].register, osgn.elements[0].mask), (0, 7));
}

#[test]
fn errors_name_their_line_and_column() {
    let header = "//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// TEXCOORD                 0   xyzw        0    BOGUS   float   xyzw
// TEXCOORD                 1   xyzw        1     NONE  float9   xyzw
// TEXCOORD                 2   xyxw        2     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Output
ps_5_0
";
    let program = tpf::parse::parse_program("ps_5_0\nret\n").unwrap().program;
    let errors = reflect::reflect(header, &program).unwrap_err();
    let at = |line: usize, what: &str| {
        let text = header.lines().nth(line - 1).unwrap();
        (line, text.find(what).unwrap() + 1)
    };
    let got: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(got, [at(9, "BOGUS"), at(10, "float9"), at(11, "xyxw"), at(19, "ps_5_0")], "{errors:?}");
    assert!(errors[0].message.contains("system value"), "{}", errors[0]);
}

#[test]
fn derived_signatures_against_the_corpus() {
    // How close declarations alone come to fxc's signatures (for hand-written
    // listings): elements compared on register, mask, system value and stream.
    // Declarations only name the components a shader uses, and unused elements are
    // not declared at all, so many differ; which entries differ in which chunks is
    // checked against tests/expect/derived_signatures.txt.
    let Some(entries) = corpus::dxbc_entries("derived_signatures_against_the_corpus") else {
        return;
    };
    let (mut same, mut total) = (0, 0);
    let mut outcomes = BTreeMap::new();
    for e in &entries {
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        let program = tpf::decode(c.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).unwrap().data).unwrap();
        let derived = reflect::derive_signatures(&program);
        let mut differ = Vec::new();
        for ch in c.chunks() {
            let Some(format) = SignatureFormat::for_fourcc(ch.fourcc) else { continue };
            let want = dxbc::Signature::parse(ch.data, format).unwrap();
            let got = match &ch.fourcc.0 {
                b"ISGN" | b"ISG1" => &derived.input,
                b"PCSG" | b"PSG1" => &derived.patch,
                _ => &derived.output,
            };
            let key = |e: &dxbc::SignatureElement<'_>| (e.register, e.mask, e.stream, e.system_value);
            total += 1;
            if want.elements.iter().map(key).eq(got.iter().map(key)) {
                same += 1;
            } else {
                differ.push(ch.fourcc.to_string());
            }
        }
        let outcome = if differ.is_empty() { "exact".to_string() } else { format!("differs in {}", differ.join("+")) };
        outcomes.insert(e.id(), outcome);
    }
    println!("derived signatures equal to fxc's in register, mask, system value: {same}/{total}");
    corpus::expect::check(corpus::expect_file!("derived_signatures.txt"), &outcomes);
}

#[test]
fn the_generated_by_line_decides_the_rdef() {
    let program = tpf::parse::parse_program("vs_4_0\nret\n").unwrap().program;
    let tables = "//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Input
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Output
";
    let with = |creator: &str| format!("//\n// Generated by {creator}\n//\n//\n{tables}");
    // A blob without RDEF is listed as generated by the disassembler, or by dxref.
    for creator in [listing::header::DISASSEMBLER, listing::header::DXREF] {
        let r = reflect::reflect(&with(creator), &program).unwrap();
        assert_eq!((r.rdef.is_some(), r.warnings.len()), (false, 0), "{creator}");
    }
    // A compiler's name is the RDEF's creator string, even with no buffers or bindings.
    let r = reflect::reflect(&with("Microsoft (R) HLSL Shader Compiler 9.30.9200.16384"), &program).unwrap();
    let rdef = r.rdef.unwrap();
    let rdef = Rdef::parse(&rdef).unwrap();
    assert_eq!(rdef.creator, "Microsoft (R) HLSL Shader Compiler 9.30.9200.16384");
    assert!(rdef.rd11.is_none() && rdef.bindings.is_empty() && rdef.constant_buffers.is_empty());
    // Reflection tables without a compiler's name: an RDEF all the same, with a warning.
    let header = "// Resource Bindings:
//
// Name                                 Type  Format         Dim      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- -------------- ------
// tex                               texture  float4          2d             t0      1 
//
";
    let r = reflect::reflect(&format!("{header}{tables}"), &program).unwrap();
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    let rdef = r.rdef.unwrap();
    assert_eq!(Rdef::parse(&rdef).unwrap().creator, listing::header::DXREF);
}

#[test]
fn fxc_9_29_command_line_options_are_compile_flags() {
    let program = tpf::parse::parse_program("ps_4_0\nret\n").unwrap().program;
    let header = "//
// Generated by Microsoft (R) HLSL Shader Compiler 9.29.952.3111
//
//
//   fxc /T ps_4_0 /Fo a.o /Fc a.asm /Gfp /Zpr
//    /Gec a.hlsl
//
//
";
    let r = reflect::reflect(header, &program).unwrap();
    let rdef = r.rdef.unwrap();
    assert_eq!(Rdef::parse(&rdef).unwrap().flags, 0x100 | 0x400 | 0x8 | 0x1000);
}
