//! The comment header of d3dcompiler_47 6.3.9600's listings (the oracle archives in
//! `tests/oracle/`) read back into an RDEF chunk: for the spellings of that DLL which
//! the other compilers' listings do not hold, the rebuilt chunk must carry what the
//! blob's own RDEF says.

use dxbc::{Container, FourCc, Rdef};
use listing::reflect;

/// Every HLSL record whose listing (under the default flags) contains `needle`: its
/// name, Microsoft's header (the lines before the shader-version line), the blob's
/// program and its RDEF bytes.
fn records_with(needle: &str) -> Vec<(String, String, Vec<u8>)> {
    let mut out = Vec::new();
    for (archive, records) in corpus::oracle::archives() {
        if !archive.starts_with("hlsl-") {
            continue;
        }
        for r in records {
            let Some(t) = r.text(0).filter(|t| t.hr == 0 && t.text.contains(needle)) else {
                continue;
            };
            let mut header = String::new();
            for line in t.text.split_inclusive('\n') {
                if line.trim() == r.profile {
                    break;
                }
                header.push_str(line);
            }
            out.push((r.name.clone(), header, r.blob.clone()));
        }
    }
    out
}

/// The RDEF rebuilt from `header` and the blob's own; `None` when the reader refuses
/// the header for a reason other than `construct` (a spelling not handled yet, listed
/// by the oracle's `assemble` expectations), which must not be named in the error.
fn rebuilt_rdef(name: &str, header: &str, blob: &[u8], construct: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let c = Container::parse(blob).unwrap();
    let program = tpf::decode(c.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).unwrap().data).unwrap();
    match reflect::reflect(header, &program) {
        Ok(r) => Some((
            r.rdef.unwrap_or_else(|| panic!("{name}: no RDEF rebuilt")),
            c.chunk(FourCc::RDEF).unwrap().data.to_vec(),
        )),
        Err(e) => {
            let all: Vec<String> = e.iter().map(|d| d.to_string()).collect();
            assert!(!all.iter().any(|m| m.contains(construct)), "{name}: {all:?}");
            None
        }
    }
}

#[test]
fn multisampled_array_dimension_reads_back() {
    let records = records_with("2darrayMS");
    assert!(!records.is_empty(), "no oracle listing holds a 2darrayMS binding");
    let mut checked = 0;
    for (name, header, blob) in &records {
        let Some((got, want)) = rebuilt_rdef(name, header, blob, "dimension") else {
            continue;
        };
        checked += 1;
        let (got, want) = (Rdef::parse(&got).unwrap(), Rdef::parse(&want).unwrap());
        let dims = |r: &Rdef<'_>| -> Vec<_> {
            r.bindings.iter().map(|b| (b.name.to_string(), b.dimension, b.num_samples)).collect()
        };
        assert_eq!(dims(&got), dims(&want), "{name}");
    }
    assert!(checked > 0, "every header with a 2darrayMS binding was refused");
}

/// A structure variable followed by another variable, without the `//   ` line the
/// other compilers print between them.
#[test]
fn variables_after_a_structure_read_back() {
    let records: Vec<_> = records_with("//   } ")
        .into_iter()
        .filter(|(_, h, _)| {
            h.lines().zip(h.lines().skip(1)).any(|(a, b)| {
                a.starts_with("//   } ")
                    && b.starts_with("//   ")
                    && b.len() > 5
                    && !b.starts_with("//   }")
                    && !b.starts_with("//   struct")
            })
        })
        .collect();
    assert!(!records.is_empty(), "no oracle listing holds a variable right after a structure");
    let mut checked = 0;
    for (name, header, blob) in &records {
        let Some((got, want)) = rebuilt_rdef(name, header, blob, "Buffer") else {
            continue;
        };
        checked += 1;
        let (got, want) = (Rdef::parse(&got).unwrap(), Rdef::parse(&want).unwrap());
        let vars = |r: &Rdef<'_>| -> Vec<_> {
            r.constant_buffers
                .iter()
                .flat_map(|cb| {
                    cb.variables
                        .iter()
                        .map(move |v| (cb.name.to_string(), v.name.to_string(), v.start_offset, v.size, v.flags))
                })
                .collect()
        };
        assert_eq!(vars(&got), vars(&want), "{name}");
    }
    assert!(checked > 0, "every header with a variable after a structure was refused");
}
