//! Listings as users feed them to `dxref`: other text encodings and terminators (every
//! corpus listing through the library's decoder, a sample of each kind through the
//! command), and `dxref disasm` then `dxref asm` over every corpus program.

use std::collections::BTreeMap;
use std::path::Path;

mod common;
use common::*;

fn utf16(text: &str, little: bool) -> Vec<u8> {
    std::iter::once(0xfeff)
        .chain(text.encode_utf16())
        .flat_map(|u: u16| if little { u.to_le_bytes() } else { u.to_be_bytes() })
        .collect()
}

/// The encodings a listing is tried in: name and bytes.
fn variants(text: &str) -> Vec<(&'static str, Vec<u8>)> {
    let mut nul = text.as_bytes().to_vec();
    nul.extend_from_slice(b"\0");
    let mut nul_ws = nul.clone();
    nul_ws.extend_from_slice(b"\r\n\0\0 ");
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend_from_slice(text.as_bytes());
    let le = utf16(text, true);
    let be = utf16(text, false);
    // Without the byte-order mark (the NUL pattern tells the order).
    let le_plain = le[2..].to_vec();
    let be_plain = be[2..].to_vec();
    vec![
        ("nul", nul),
        ("nul-ws", nul_ws),
        ("bom", bom),
        ("utf16le", le),
        ("utf16be", be),
        ("utf16le-nobom", le_plain),
        ("utf16be-nobom", be_plain),
    ]
}

/// The kind of a corpus entry, for sampling.
fn kind(e: &corpus::Entry) -> &'static str {
    match e.container {
        corpus::Container::Dxbc if e.is_level9() => "level9",
        corpus::Container::Dxbc => "dxbc",
        corpus::Container::D3dbc if e.creator.contains(" 9.30.") => "d3dbc-9.30",
        corpus::Container::D3dbc => "d3dbc",
    }
}

#[test]
fn every_listing_reads_the_same_in_every_encoding() {
    let Some(entries) = corpus::entries("every_listing_reads_the_same_in_every_encoding") else { return };
    assert_eq!(entries.len(), 462);
    for e in &entries {
        let text = e.listing();
        for (name, bytes) in variants(&text) {
            let got = listing::text::decode(&bytes).unwrap_or_else(|err| panic!("{} ({name}): {err}", e.id()));
            assert!(got == text, "{} ({name}): decodes to other text", e.id());
            assert!(listing::text::is_text(&bytes), "{} ({name}): not taken for text", e.id());
        }
    }
}

#[test]
fn a_sample_of_each_kind_assembles_the_same_from_the_command_line() {
    let Some(entries) = corpus::entries("a_sample_of_each_kind_assembles_the_same_from_the_command_line") else {
        return;
    };
    let dir = temp_dir("encodings");
    let mut per_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &entries {
        let k = kind(e);
        let n = per_kind.entry(k).or_default();
        if *n == 2 {
            continue;
        }
        *n += 1;
        let text = e.listing();
        let plain = dir.join(format!("{}.asm", e.name));
        std::fs::write(&plain, &text).unwrap();
        let want_path = dir.join(format!("{}.out", e.name));
        let out = dxref(&["asm", plain.to_str().unwrap(), "-o", want_path.to_str().unwrap()]);
        assert!(out.status.success(), "{}: {}", e.id(), String::from_utf8_lossy(&out.stderr));
        let want = std::fs::read(&want_path).unwrap();
        for (name, bytes) in variants(&text) {
            let file = dir.join(format!("{}.{name}.asm", e.name));
            std::fs::write(&file, &bytes).unwrap();
            let got_path = dir.join(format!("{}.{name}.out", e.name));
            let out = dxref(&["asm", file.to_str().unwrap(), "-o", got_path.to_str().unwrap()]);
            assert!(out.status.success(), "{} ({name}): {}", e.id(), String::from_utf8_lossy(&out.stderr));
            assert!(std::fs::read(&got_path).unwrap() == want, "{} ({name}): other bytes", e.id());
        }
    }
    assert_eq!(per_kind.values().sum::<usize>(), 8, "{per_kind:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn validate_run_and_disasm_read_other_encodings() {
    let dir = temp_dir("paths");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    // validate: a UTF-16 listing.
    let vs = std::fs::read_to_string(examples.join("passthrough_vs.asm")).unwrap();
    let vs16 = dir.join("vs16.asm");
    std::fs::write(&vs16, utf16(&vs, false)).unwrap();
    let out = dxref(&["validate", vs16.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "valid");
    // run: a listing with a BOM and a terminating NUL, the same draw as the plain one.
    let mut vs_bom = b"\xef\xbb\xbf".to_vec();
    vs_bom.extend_from_slice(vs.as_bytes());
    vs_bom.push(0);
    let vs_bom_file = dir.join("vs_bom.asm");
    std::fs::write(&vs_bom_file, &vs_bom).unwrap();
    let points = examples.join("points.json");
    let plain = dxref(&[
        "run",
        "--vs",
        examples.join("passthrough_vs.asm").to_str().unwrap(),
        "--input",
        points.to_str().unwrap(),
    ]);
    let bom = dxref(&["run", "--vs", vs_bom_file.to_str().unwrap(), "--input", points.to_str().unwrap()]);
    assert!(plain.status.success() && bom.status.success(), "{}", String::from_utf8_lossy(&bom.stderr));
    assert_eq!(plain.stdout, bom.stdout);
    // disasm and info: an fxc /Fh header written by `dxref asm --fh`, in UTF-16 LE.
    let fh = dxref(&["asm", examples.join("passthrough_vs.asm").to_str().unwrap(), "-o", "-", "--fh", "g_vs"]);
    assert!(fh.status.success());
    let fh16 = dir.join("vs16.h");
    std::fs::write(&fh16, utf16(&String::from_utf8(fh.stdout.clone()).unwrap(), true)).unwrap();
    let fh8 = dir.join("vs8.h");
    std::fs::write(&fh8, &fh.stdout).unwrap();
    for cmd in ["disasm", "info"] {
        let a = dxref(&[cmd, fh8.to_str().unwrap()]);
        let b = dxref(&[cmd, fh16.to_str().unwrap()]);
        assert!(a.status.success() && b.status.success(), "{cmd}: {}", String::from_utf8_lossy(&b.stderr));
        // `info` names its input.
        let a = String::from_utf8_lossy(&a.stdout).replace("vs8.h", "vs.h");
        let b = String::from_utf8_lossy(&b.stdout).replace("vs16.h", "vs.h");
        assert_eq!(a, b, "{cmd}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn undecodable_text_is_an_error_naming_the_byte() {
    let dir = temp_dir("errors");
    let cases: [(&str, &[u8], &str); 3] = [
        ("utf8.asm", b"// ok\nvs_4_0\n\xff\nret \n", "byte offset 13: invalid UTF-8"),
        (
            "nul.asm",
            b"vs_4_0\nret \n\0\n\0dcl_temps 1\n",
            "byte offset 12: a NUL character, and after it more text at byte offset 15",
        ),
        ("odd.asm", b"\xff\xfev\0s\0_", "odd number of bytes (7)"),
    ];
    for (name, bytes, message) in cases {
        let file = dir.join(name);
        std::fs::write(&file, bytes).unwrap();
        for cmd in ["asm", "validate"] {
            let args: Vec<&str> = match cmd {
                "asm" => vec!["asm", file.to_str().unwrap(), "-o", "-"],
                _ => vec!["validate", file.to_str().unwrap()],
            };
            let out = dxref(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} {name}: {err}");
            assert!(err.contains(message), "{cmd} {name}: {err}");
            assert!(!err.contains("panicked"), "{cmd} {name}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// --- dxref disasm, then dxref asm, over every corpus program ---

/// What the round trip compares: the SHDR/SHEX chunk of a container, the instruction
/// tokens (comment blocks left out) of a raw Shader Model 1–3 stream.
fn program_of(e: &corpus::Entry, bytes: &[u8]) -> Result<Vec<u8>, String> {
    match e.container {
        corpus::Container::Dxbc => {
            let c = dxbc::Container::parse(bytes).map_err(|err| err.to_string())?;
            let chunk = c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).ok_or("no program chunk")?;
            Ok(chunk.data.to_vec())
        }
        corpus::Container::D3dbc => {
            let mut p = d3dbc::decode(bytes).map_err(|err| err.to_string())?;
            p.items.retain(|i| matches!(i, d3dbc::Item::Instruction(_)));
            d3dbc::encode(&p).map_err(|err| err.to_string())
        }
    }
}

/// `dxref disasm` (with `extra` arguments), then `dxref asm` of each listing, over every
/// corpus program; the outcome per entry (`same`, or how it differs) is checked against
/// `expect` (a `corpus::expect` file: both ways, `DXREF_BLESS=1` rewrites it).
fn disasm_then_asm(test: &str, extra: &[&str], expect: &str) {
    let Some(entries) = corpus::entries(test) else { return };
    let dir = temp_dir(test);
    // One `disasm --out-dir DIR` per source folder (names are unique within a folder).
    let mut by_source: BTreeMap<&str, Vec<&corpus::Entry>> = BTreeMap::new();
    for e in &entries {
        by_source.entry(e.source.as_str()).or_default().push(e);
    }
    let mut outcomes = BTreeMap::new();
    for (source, list) in &by_source {
        let out_dir = dir.join(source);
        let mut args = vec!["disasm".to_string()];
        args.extend(extra.iter().map(|a| a.to_string()));
        args.extend(list.iter().map(|e| e.bin.to_str().unwrap().to_string()));
        args.extend(["--out-dir".to_string(), out_dir.to_str().unwrap().to_string()]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = dxref(&refs);
        assert!(out.status.success(), "disasm {source}: {}", String::from_utf8_lossy(&out.stderr));
        for e in list {
            let asm = out_dir.join(format!("{}.asm", e.name));
            let bin = out_dir.join(format!("{}.out", e.name));
            let out = dxref(&["asm", asm.to_str().unwrap(), "-o", bin.to_str().unwrap()]);
            let outcome = if !out.status.success() {
                let err = String::from_utf8_lossy(&out.stderr);
                format!("asm-error: {}", err.lines().next().unwrap_or(""))
            } else {
                let want = program_of(e, &e.bytes()).unwrap();
                match program_of(e, &std::fs::read(&bin).unwrap()) {
                    Ok(got) if got == want => "same".to_string(),
                    Ok(got) => {
                        let i = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(got.len().min(want.len()));
                        format!("differs: first at token {} ({} and {} bytes)", i / 4, got.len(), want.len())
                    }
                    Err(err) => format!("undecodable: {err}"),
                }
            };
            outcomes.insert(e.id(), corpus::expect::one_line(&outcome));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let counts = outcomes.values().fold(BTreeMap::<&str, usize>::new(), |mut m, o| {
        *m.entry(o.split(':').next().unwrap()).or_default() += 1;
        m
    });
    println!("disasm {extra:?} then asm over {} programs: {counts:?}", outcomes.len());
    corpus::expect::check(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expect").join(expect), &outcomes);
}

/// What fxc prints: the programs whose six-decimal floats have more digits than the
/// text shows come back different (each listed with where).
#[test]
fn disasm_then_asm_gives_back_every_program() {
    disasm_then_asm("disasm_then_asm_gives_back_every_program", &[], "disasm_asm.txt");
}

/// With `--exact-floats` every program comes back byte for byte.
#[test]
fn disasm_exact_floats_then_asm_gives_back_every_program() {
    disasm_then_asm(
        "disasm_exact_floats_then_asm_gives_back_every_program",
        &["--exact-floats"],
        "disasm_exact_asm.txt",
    );
}

// --- --style: the disassemblers of older d3dcompiler DLLs ---

/// `container` without its RDEF chunk (what `D3DStripShader` leaves of the reflection).
fn without_rdef(bytes: &[u8]) -> Vec<u8> {
    let c = dxbc::Container::parse(bytes).unwrap();
    let mut b = dxbc::Builder::new();
    for ch in c.chunks().iter().filter(|ch| ch.fourcc != dxbc::FourCc::RDEF) {
        b.push(ch.fourcc, ch.data.to_vec());
    }
    b.build().unwrap()
}

#[test]
fn older_disassemblers_print_their_spellings_and_assemble_back() {
    let Some(entries) = corpus::entries("older_disassemblers_print_their_spellings_and_assemble_back") else {
        return;
    };
    // A pixel shader with a constant buffer and texel offsets.
    let e = entries.iter().find(|e| e.id() == "hlslcc/ps5__sample1DLod").expect("corpus entry");
    let dir = temp_dir("styles");
    let stripped = without_rdef(&e.bytes());
    let blob = dir.join("stripped.dxbc");
    std::fs::write(&blob, &stripped).unwrap();
    let mut texts = BTreeMap::new();
    for style in ["d3dcompiler_43", "d3dcompiler_46", "d3dcompiler_47-6.3", "d3dcompiler_47", "disassembler", "default"]
    {
        let mut args = vec!["disasm", blob.to_str().unwrap()];
        if style != "default" {
            args.extend(["--style", style]);
        }
        let out = dxref(&args);
        assert!(out.status.success(), "{style}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        // Each assembles back to the program and the signatures.
        let file = dir.join(format!("{style}.asm"));
        std::fs::write(&file, &text).unwrap();
        let back = dir.join(format!("{style}.dxbc"));
        let out = dxref(&["asm", file.to_str().unwrap(), "-o", back.to_str().unwrap()]);
        assert!(out.status.success(), "{style}: {}", String::from_utf8_lossy(&out.stderr));
        let (a, b) = (std::fs::read(&back).unwrap(), stripped.clone());
        let (ours, theirs) = (dxbc::Container::parse(&a).unwrap(), dxbc::Container::parse(&b).unwrap());
        for f in [dxbc::FourCc::SHEX, dxbc::FourCc::ISGN, dxbc::FourCc::OSGN] {
            assert_eq!(ours.chunk(f).map(|c| c.data), theirs.chunk(f).map(|c| c.data), "{style}: {f}");
        }
        texts.insert(style, text);
    }
    let t = |s: &str| texts[s].as_str();
    // Constant buffers: `cb#` before the Windows 10 SDK's d3dcompiler_47, `CB#` after.
    for s in ["d3dcompiler_43", "d3dcompiler_46", "d3dcompiler_47-6.3"] {
        assert!(t(s).contains("\ndcl_constantbuffer cb0[") && !t(s).contains("CB0"), "{s}");
    }
    assert!(
        t("d3dcompiler_47").contains("\ndcl_constantbuffer CB0[")
            && !t("d3dcompiler_47").contains("dcl_constantbuffer cb")
    );
    // The signatures' Format column: 6 wide for d3dcompiler_43, 7 for the others.
    let six = "// Name                 Index   Mask Register SysValue Format   Used\n// -------------------- ----- ------ -------- -------- ------ ------\n";
    let seven = "// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n";
    assert!(t("d3dcompiler_43").contains(six) && !t("d3dcompiler_43").contains(seven));
    for s in ["d3dcompiler_46", "d3dcompiler_47-6.3", "d3dcompiler_47"] {
        assert!(t(s).contains(seven) && !t(s).contains(six), "{s}");
    }
    // Texel offsets: `_aoffimmi` from d3dcompiler_46 on.
    assert!(!t("d3dcompiler_43").contains("_aoffimmi") && t("d3dcompiler_43").contains("sample_l_indexable(1,0,0)"));
    for s in ["d3dcompiler_46", "d3dcompiler_47-6.3", "d3dcompiler_47"] {
        assert!(t(s).contains("sample_l_aoffimmi_indexable(1,0,0)"), "{s}");
    }
    // Nothing else differs: d3dcompiler_46 and the 6.3.9600 build print the same text,
    // the Windows 10 build differs from them in the spelling of the buffer alone, and
    // `disassembler` is its alias and the default for a blob without a creator.
    assert_eq!(t("d3dcompiler_46"), t("d3dcompiler_47-6.3"));
    assert_eq!(t("d3dcompiler_47-6.3").replace("dcl_constantbuffer cb", "dcl_constantbuffer CB"), t("d3dcompiler_47"));
    assert_eq!(t("d3dcompiler_47"), t("disassembler"));
    assert_eq!(t("d3dcompiler_47"), t("default"));
    // d3dcompiler_43 against d3dcompiler_46: the spacing of the tables and `_aoffimmi`
    // only.
    let words =
        |s: &str| s.replace(six, seven).replace("_aoffimmi", "").split_whitespace().collect::<Vec<_>>().join(" ");
    assert_ne!(t("d3dcompiler_43"), t("d3dcompiler_46"));
    assert_eq!(words(t("d3dcompiler_43")), words(t("d3dcompiler_46")));
    let _ = std::fs::remove_dir_all(&dir);
}
