//! The fxc `/Fh` header reader on arbitrary bytes decoded as the command line decodes
//! files.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = listing::fxh::looks_like_header(data);
    let Some(text) = dxref_fuzz::as_cli_text(data) else { return };
    if let Ok(all) = listing::fxh::arrays(&text) {
        if let Some(first) = all.first() {
            let _ = listing::fxh::pick(&text, Some(&first.name));
        }
    }
    let _ = listing::fxh::pick(&text, None);
});
