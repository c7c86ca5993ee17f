//! `listing::disassemble` (what `dxref disasm` prints) on arbitrary bytes, with the
//! disassembly flags the first byte picks.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (flags, data) = dxref_fuzz::split_flags(data);
    let _ = listing::disassemble(data, &dxref_fuzz::listing_options(flags));
});
