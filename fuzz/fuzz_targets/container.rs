//! The DXBC container and every chunk codec: what parses re-serialises to its bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(c) = dxbc::Container::parse(data) else { return };
    let _ = c.checksum_ok();
    let _ = c.is_canonical_layout();
    assert_eq!(c.to_bytes(), data, "a container that parses re-serialises to its bytes");
    let _ = c.to_builder().build();
    for ch in c.chunks() {
        if let Ok(d) = ch.decode() {
            if dxbc::ChunkData::has_codec(ch.fourcc) {
                assert_eq!(d.to_bytes(), ch.data, "{}: a decoded chunk re-encodes to its bytes", ch.fourcc);
            }
        }
        if ch.fourcc == dxbc::FourCc::AON9 {
            if let Ok(a) = dxbc::Aon9::parse(ch.data) {
                let _ = a.to_bytes();
            }
        }
    }
});
