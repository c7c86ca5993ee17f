//! Helpers shared by the corpus tests of `tpf`.
#![allow(dead_code)]

/// The SHDR/SHEX chunk's data.
pub fn shader_chunk(blob: &[u8]) -> Option<&[u8]> {
    let c = dxbc::Container::parse(blob).ok()?;
    c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).map(|c| c.data)
}

/// The compiler string of the blob's RDEF chunk.
pub fn creator(blob: &[u8]) -> Option<String> {
    let c = dxbc::Container::parse(blob).ok()?;
    let rdef = dxbc::Rdef::parse(c.chunk(dxbc::FourCc::RDEF)?.data).ok()?;
    Some(rdef.creator.to_string())
}

/// Microsoft's program part: from the SM4/5 version line to before the footer.
pub fn program_text(listing: &str, profile: &str) -> String {
    let sm4 = profile.rsplit('+').next().unwrap();
    let lines: Vec<&str> = listing.split_inclusive('\n').collect();
    let start = lines.iter().position(|l| l.trim_end() == sm4).expect("version line");
    let end = lines.iter().rposition(|l| l.starts_with("// Approximately")).expect("footer");
    lines[start..end].concat()
}
