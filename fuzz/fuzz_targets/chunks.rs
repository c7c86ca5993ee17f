//! Every chunk codec on arbitrary bytes (the first byte picks the codec): what decodes
//! re-encodes to the same bytes.
#![no_main]
use dxbc::{ChunkData, FourCc};
use libfuzzer_sys::fuzz_target;

const KINDS: [FourCc; 12] = [
    FourCc::RDEF,
    FourCc::ISGN,
    FourCc::OSGN,
    FourCc::PCSG,
    FourCc::ISG1,
    FourCc::OSG1,
    FourCc::PSG1,
    FourCc::OSG5,
    FourCc::STAT,
    FourCc::SFI0,
    FourCc::IFCE,
    FourCc::AON9,
];

fuzz_target!(|data: &[u8]| {
    let (flags, data) = dxref_fuzz::split_flags(data);
    let kind = KINDS[usize::from(flags) % KINDS.len()];
    if kind == FourCc::AON9 {
        if let Ok(a) = dxbc::Aon9::parse(data) {
            if let Ok(b) = a.to_bytes() {
                assert_eq!(b, data, "Aon9: a decoded chunk re-encodes to its bytes");
            }
        }
        return;
    }
    if let Ok(d) = ChunkData::decode(kind, data) {
        assert_eq!(d.to_bytes(), data, "{kind}: a decoded chunk re-encodes to its bytes");
    }
});
