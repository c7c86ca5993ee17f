//! Corrupted shaders never panic the translator: every corpus vertex, pixel and compute
//! shader with bytes of its program chunk changed (a few words set to random values)
//! is translated and, where that succeeds, written in every language; each attempt ends
//! in a module or an error. The corpus is optional (SKIP without it).

mod common;

use translate::{Options, Target};

#[test]
fn corrupted_programs_give_errors_not_panics() {
    let Some(entries) = corpus::dxbc_entries("corrupted_programs_give_errors_not_panics") else { return };
    let mut rng = corpus::Rng(0x7261_6e73_6c61_7465);
    let (mut tried, mut translated) = (0, 0);
    for e in entries.iter().filter(|e| {
        let last = e.profile.rsplit('+').next().unwrap_or("");
        ["vs_4", "vs_5_0", "ps_4", "ps_5_0", "cs_4", "cs_5_0"].iter().any(|p| last.starts_with(p))
    }) {
        let bytes = e.bytes();
        let Ok(container) = dxbc::Container::parse(&bytes) else { continue };
        let Some(chunk) = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]) else { continue };
        let (start, len) = (chunk.data_offset(), chunk.data.len());
        for _ in 0..8 {
            let mutated = common::mutated(&bytes, (start, len), &mut rng);
            tried += 1;
            let result = std::panic::catch_unwind(|| {
                translate::module(&mutated, &Options::default()).map(|m| {
                    for target in Target::ALL {
                        let _ = translate::write(&m, target);
                    }
                })
            });
            match result {
                Ok(Ok(())) => translated += 1,
                Ok(Err(_)) => {}
                Err(_) => panic!("{}: a mutation panicked: {:02x?}", e.id(), &mutated[start..start + len]),
            }
        }
    }
    println!("{tried} mutations, {translated} translated");
    assert!(tried > 1000, "{tried}");
}
