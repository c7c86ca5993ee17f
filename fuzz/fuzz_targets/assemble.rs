//! Both assemblers on arbitrary bytes decoded as the command line decodes files: the
//! SM4/5 parser, the SM1-3 assembler, and `listing::asm::assemble` (what `dxref asm`
//! runs), whose output disassembles.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = dxref_fuzz::as_cli_text(data) else { return };
    let _ = tpf::parse::parse_program(&text);
    let _ = d3dbc::parse::assemble(&text);
    if let Ok(a) = listing::asm::assemble(&text, &listing::asm::AsmOptions::default()) {
        let _ = listing::disassemble(&a.bytes, &listing::Options::default());
    }
});
