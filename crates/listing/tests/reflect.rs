//! The comment header back into chunks: for every DXBC blob of the corpus, the chunks
//! rebuilt from Microsoft's listing header (and the blob's decoded program, standing in
//! for the assembler's parsed one) must equal the blob's own, byte for byte.
//!
//! RDEF chunks that differ are split into those that differ only in fields the listing
//! does not print (compile flags, the `USERPACKED` binding flag, Shader Model 5 type
//! names that are typedefs, or a string/type layout the fresh writer does not
//! reproduce) and real failures.

#[path = "../src/reflect/mod.rs"]
#[allow(dead_code)]
mod reflect;

/// The reflect module names `crate::header`; in this test crate that is the library's.
mod header {
    pub use listing::header::*;
}

use std::collections::BTreeMap;

use dxbc::rdef::{input_flags, ShaderType};
use dxbc::{Container, FourCc, Ifce, Rdef, SignatureFormat};

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
        match (c.chunk(FourCc::RDEF), &r.rdef) {
            (None, None) => {}
            (Some(want), Some(got)) => {
                n.total += 1;
                if got == want.data {
                    n.pass += 1;
                } else if let Some(fields) = only_uncarried(got, want.data) {
                    *n.uncarried.entry(fields.join(" + ")).or_default() += 1;
                } else {
                    n.failures.push(format!("{}: {}", e.id(), first_difference(got, want.data)));
                }
            }
            (Some(_), None) => {
                n.total += 1;
                n.failures.push(format!("{}: RDEF not rebuilt", e.id()));
            }
            (None, Some(_)) => {
                n.total += 1;
                n.failures.push(format!("{}: RDEF built for a blob without one", e.id()));
            }
        }
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
    let get = |k: &str| counts.get(k).map_or((0, 0, 0), |n| (n.pass, n.total, n.uncarried.values().sum::<usize>()));
    assert!(rejected.is_empty(), "{} headers rejected", rejected.len());
    assert_eq!(get("ISGN").0, get("ISGN").1);
    assert_eq!(get("OSGN").0, get("OSGN").1);
    assert!(get("ISGN").1 > 0);
}
