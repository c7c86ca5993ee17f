//! The table's listing slot column, counted by `d3dbc::table::listing_slots`, reproduces
//! fxc's `// approximately N instruction slots used (T texture, A arithmetic)` line for
//! every corpus program.

mod common;

use d3dbc::decode;

/// `(total, Some((texture, arithmetic)))` from a listing's first `// approximately` line.
fn stated_slots(listing: &str) -> Option<(u32, Option<(u32, u32)>)> {
    let line = listing.lines().find(|l| l.starts_with("// approximately "))?;
    let rest = line.strip_prefix("// approximately ")?;
    let (n, tail) = rest.split_once(' ')?;
    let split = tail.split_once('(').and_then(|(_, t)| {
        let t = t.strip_suffix(')')?;
        let (a, b) = t.split_once(", ")?;
        Some((a.strip_suffix(" texture")?.parse().ok()?, b.strip_suffix(" arithmetic")?.parse().ok()?))
    });
    Some((n.parse().ok()?, split))
}

#[test]
fn slot_counts_match_fxc() {
    let Some(entries) = corpus::entries("slot_counts_match_fxc") else { return };
    let Some(programs) = common::programs("slot_counts_match_fxc") else { return };
    let mut checked = 0;
    let mut failures = Vec::new();
    for p in &programs {
        let e = entries.iter().find(|e| e.id() == p.id).unwrap();
        let Some((total, split)) = stated_slots(&e.listing()) else { continue };
        let prog = decode(&p.bytes).unwrap();
        let count = d3dbc::print::slot_count(&prog);
        let (tex, arith) = (count.texture, count.arithmetic);
        checked += 1;
        let ok = tex + arith == total && split.is_none_or(|(t, a)| (t, a) == (tex, arith));
        if !ok {
            failures.push(format!("{}: fxc {total} {split:?}, table {} ({tex}, {arith})", p.id, tex + arith));
        }
    }
    println!("slot counts: {} of {checked} programs match fxc", checked - failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 150);
}
