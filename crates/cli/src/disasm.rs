//! `dxref disasm`: Microsoft's listing of each input.

use serde_json::json;

use crate::batch::{self, Message, Mode, Report};
use crate::walk::Input;
use crate::{input, Failure};

/// The listing options and the `/Fh` array to read.
pub struct Disasm {
    /// How the listing is printed (flags, float form, colour).
    pub options: listing::Options,
    /// `--var`: the array of an fxc /Fh header.
    pub var: Option<String>,
}

/// The shader's format and profile, for `--jsonl` summaries (`None` fields when the
/// blob does not say).
pub fn summary(blob: &[u8]) -> serde_json::Value {
    let (format, profile) = match inputs::family(blob) {
        Some(inputs::Family::Dxbc) => {
            let profile = dxbc::Container::parse(blob)
                .ok()
                .and_then(|c| c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).map(|p| p.data))
                .and_then(|data| tpf::Decoder::new(data).ok())
                .map(|d| d.version().profile().to_string());
            ("dxbc", profile)
        }
        Some(inputs::Family::D3dbc) => {
            let profile = blob
                .get(..4)
                .and_then(|b| b.try_into().ok())
                .and_then(|b| d3dbc::Version::from_token(u32::from_le_bytes(b)))
                .map(|v| v.name().into_owned());
            ("d3dbc", profile)
        }
        None => ("unknown", None),
    };
    json!({ "format": format, "profile": profile, "bytes": blob.len() })
}

impl Disasm {
    /// The listing of one input, with its warnings.
    pub fn listing(&self, input: &Input) -> Result<(listing::Listing, Vec<u8>), Failure> {
        let blob = input::blob(&input.source, self.var.as_deref())?;
        let name = input.name();
        let listing = listing::disassemble(&blob, &self.options).map_err(|e| Failure::input(format!("{name}: {e}")))?;
        Ok((listing, blob))
    }
}

impl batch::Command for Disasm {
    fn process(&self, input: &Input, several: bool, mode: Mode) -> Report {
        let (listing, blob) = match self.listing(input) {
            Ok(l) => l,
            Err(f) => return Report::failed(f),
        };
        let name = input.name();
        let messages =
            listing.warnings.iter().map(|w| Message { warning: true, text: format!("{name}: {w}") }).collect();
        // The summary is for --jsonl only: not computed otherwise.
        if mode != Mode::Text {
            let mut summary = summary(&blob);
            summary["lines"] = json!(listing.text.lines().count());
            return Report { json: Some(summary), messages, ..Report::default() };
        }
        let text = if several { format!("// file: {name}\n{}", listing.text) } else { listing.text };
        Report { status: 0, text: Some(text), json: None, messages, diagnostics: Vec::new() }
    }

    fn extension(&self, _mode: Mode) -> &'static str {
        "asm"
    }

    fn colorize(&self, text: &str) -> String {
        crate::color::listing(text)
    }
}
