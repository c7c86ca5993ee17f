//! Every DXBC blob of the fxc corpus: checksum, container round trip, fxc-layout
//! rebuild, and decode + re-encode of every chunk with a codec.

use std::collections::BTreeMap;

use dxbc::{Builder, ChunkData, Container};

#[derive(Default)]
struct Count {
    total: usize,
    round_trip: usize,
    fresh_layout: usize,
}

#[test]
fn corpus_round_trips() {
    let Some(entries) = corpus::dxbc_entries("corpus_round_trips") else {
        return;
    };
    assert!(!entries.is_empty());
    let (mut checksum_ok, mut container_ok, mut rebuild_ok) = (0, 0, 0);
    let mut kinds: BTreeMap<String, Count> = BTreeMap::new();
    let mut failures = Vec::new();
    for e in &entries {
        let bytes = e.bytes();
        let c = match Container::parse(&bytes) {
            Ok(c) => c,
            Err(err) => {
                failures.push(format!("{}: parse: {err}", e.id()));
                continue;
            }
        };
        let names: Vec<String> = c.chunks().iter().map(|c| c.fourcc.to_string()).collect();
        assert_eq!(names, e.chunks, "{}: chunk list differs from the manifest", e.id());
        if c.checksum_ok() {
            checksum_ok += 1;
        } else {
            failures.push(format!("{}: checksum", e.id()));
        }
        if c.to_bytes() == bytes {
            container_ok += 1;
        } else {
            failures.push(format!("{}: container to_bytes", e.id()));
        }
        if c.is_canonical_layout() && c.to_builder().build().unwrap() == bytes {
            rebuild_ok += 1;
        } else {
            failures.push(format!("{}: builder rebuild", e.id()));
        }
        for chunk in c.chunks() {
            if !ChunkData::has_codec(chunk.fourcc) {
                continue;
            }
            let k = kinds.entry(chunk.fourcc.to_string()).or_default();
            k.total += 1;
            match chunk.decode() {
                Ok(d) => {
                    if d.to_bytes() == chunk.data {
                        k.round_trip += 1;
                    } else {
                        failures.push(format!("{}: {} re-encode differs", e.id(), chunk.fourcc));
                    }
                    let fresh = match &d {
                        ChunkData::Rdef(r) => r.raw_layout.is_none(),
                        ChunkData::Signature(s) => s.raw_layout.is_none(),
                        ChunkData::Ifce(i) => i.raw_layout.is_none(),
                        _ => true,
                    };
                    if fresh {
                        k.fresh_layout += 1;
                    }
                }
                Err(err) => failures.push(format!("{}: {} decode: {err}", e.id(), chunk.fourcc)),
            }
        }
    }
    let n = entries.len();
    println!("checksum          {checksum_ok}/{n}");
    println!("container bytes   {container_ok}/{n}");
    println!("builder rebuild   {rebuild_ok}/{n}");
    for (k, c) in &kinds {
        println!("{k} {}/{} (fxc layout re-derived: {}/{})", c.round_trip, c.total, c.fresh_layout, c.total);
    }
    for f in failures.iter().take(20) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    assert_eq!(checksum_ok, n);
    // The signature and STAT/SFI0 layouts are fully derivable: no original offsets kept.
    for k in ["ISGN", "OSGN", "PCSG", "OSG5", "ISG1", "OSG1", "STAT", "SFI0"] {
        if let Some(c) = kinds.get(k) {
            assert_eq!(c.fresh_layout, c.total, "{k}: fxc layout not re-derived for every chunk");
        }
    }
}

#[test]
fn corpus_builder_from_typed_chunks() {
    // Re-encode every chunk through its codec and rebuild the container with the
    // builder: the result must be the original blob, checksum included.
    let Some(entries) = corpus::dxbc_entries("corpus_builder_from_typed_chunks") else {
        return;
    };
    let mut ok = 0;
    for e in &entries {
        let bytes = e.bytes();
        let c = Container::parse(&bytes).unwrap();
        let mut b = Builder::new();
        for chunk in c.chunks() {
            b.push(chunk.fourcc, chunk.decode().unwrap().to_bytes());
        }
        let out = b.build().unwrap();
        assert_eq!(out, bytes, "{}", e.id());
        ok += 1;
    }
    println!("rebuilt from typed chunks {ok}/{}", entries.len());
}
