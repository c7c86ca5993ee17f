//! `DebugInfo::parse_comment_for_listing` (what the Level9 listing reads from a `DBUG`
//! block: every field but the type records) gives `parse_comment_fields`'s result
//! without its type records, and the same error, on every corpus block and on mutated
//! ones (struct types, shared records and cycles among them).

use d3dbc::dbug::DebugInfo;

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
