//! `DebugInfo::parse_comment_for_listing` (what the Level9 listing reads from a `DBUG`
//! block: every field but the type records) gives `parse_comment_fields`'s result
//! without its type records, and the same error, on every corpus block and on mutated
//! ones (struct types, shared records and cycles among them); and `DebugView` (the
//! block read in place, what the listing prints from) gives the same fields, the same
//! annotations and the same error.

use d3dbc::dbug::{DebugInfo, DebugView, InstructionInfo, RegisterInfo};

#[test]
fn debug_info_read_for_the_listing_is_the_parsed_one_without_types() {
    let Some(entries) = corpus::dxbc_entries("debug_info_read_for_the_listing_is_the_parsed_one_without_types") else {
        return;
    };
    let mut rng = corpus::Rng(0x11_57_1e);
    let (mut parsed, mut typed, mut refused) = (0, 0, 0);
    for e in entries.iter().filter(|e| e.is_level9()) {
        let bytes = e.bytes();
        let c = dxbc::Container::parse(&bytes).unwrap();
        let chunk = c.chunk(dxbc::FourCc(*b"Aon9")).expect("Aon9 chunk");
        let program = dxbc::aon9::Aon9::parse(chunk.data).expect("Aon9").program.to_vec();
        let p = d3dbc::decode(&program).unwrap();
        let Some(body) = p.comment_with(b"DBUG") else { continue };
        let mut check = |bytes: &[u8]| {
            let full = DebugInfo::parse_comment_fields(bytes);
            let read = DebugInfo::parse_comment_for_listing(bytes);
            check_view(bytes, &full);
            match (&full, &read) {
                (Ok(full), Ok(read)) => {
                    assert!(read.types.is_empty());
                    typed += !full.types.is_empty() as usize;
                    assert_eq!(*read, DebugInfo { types: Vec::new(), ..full.clone() });
                    parsed += 1;
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a, b);
                    refused += 1;
                }
                _ => panic!("{}: fields {full:?}, listing {read:?}", e.id()),
            }
        };
        check(body);
        for _ in 0..40 {
            let mut b = body.to_vec();
            for _ in 0..1 + rng.below(4) {
                let i = 4 + rng.below(b.len() - 4);
                b[i] = rng.next_u64() as u8;
            }
            check(&b);
        }
    }
    println!("DBUG blocks read for the listing: {parsed} ({typed} with types), {refused} refused");
    assert!(parsed > 0 && typed > 0 && refused > 0);
}

/// The view of `bytes` has the fields of `full` (or its error), and writes the same
/// annotations.
fn check_view(bytes: &[u8], full: &Result<DebugInfo<'_>, d3dbc::dbug::DbugError>) {
    let view = DebugView::parse_comment(bytes);
    let (view, full) = match (view, full) {
        (Ok(v), Ok(f)) => (v, f),
        (Err(a), Err(b)) => return assert_eq!(&a, b),
        (v, f) => panic!("view {v:?}, fields {f:?}"),
    };
    assert_eq!(view.header_size, full.header_size);
    assert_eq!(view.creator, full.creator);
    assert_eq!(view.source_code, full.source_code);
    assert_eq!(view.entry_point, full.entry_point.as_deref());
    assert!(view.files().eq(full.files.iter().map(|f| &**f)));
    assert_eq!(view.files().len(), full.files.len());
    for (i, f) in full.files.iter().enumerate() {
        assert_eq!(view.file(i), Some(&**f));
    }
    assert_eq!(view.file(full.files.len()), None);
    assert_eq!(view.instructions().collect::<Vec<InstructionInfo>>(), full.instructions);
    for (i, r) in full.instructions.iter().enumerate() {
        assert_eq!(view.instruction(i), Some(*r));
    }
    assert_eq!(view.instruction(full.instructions.len()), None);
    assert_eq!(view.variables().len(), full.variables.len());
    for (v, f) in view.variables().zip(&full.variables) {
        assert_eq!(v.scope, f.scope.as_deref());
        assert_eq!(v.name, f.name);
        assert_eq!(v.registers.len(), f.registers.len());
        assert_eq!(v.registers.collect::<Vec<RegisterInfo>>(), f.registers);
    }
    let (mut a, mut b) = (view.annotations(), full.annotations());
    for i in 0..full.instructions.len() as u32 + 2 {
        let (mut x, mut y) = (String::new(), String::new());
        assert_eq!(a.write(i, &mut x), b.write(i, &mut y));
        assert_eq!(x, y, "instruction {i}");
    }
}
