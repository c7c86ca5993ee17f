//! `dxref disasm`: Microsoft's listing of each input.

use serde_json::json;

use crate::batch::{self, Message, Mode, Report};
use crate::walk::Input;
use crate::{input, Failure};

/// The most bytes of blobs [`Disasm`] reads before listing them together (a run of
/// inputs is read and listed in parts of about this size).
pub const BATCH_BYTES: usize = 16 << 20;

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

    /// Appends the reports of inputs already read, their blobs listed together.
    fn list_read(
        &self,
        read: &[(&Input, Result<Vec<u8>, Failure>)],
        several: bool,
        mode: Mode,
        reports: &mut Vec<Report>,
    ) {
        let readable: Vec<&[u8]> = read.iter().filter_map(|(_, b)| b.as_deref().ok()).collect();
        let mut listings = listing::disassemble_many(&readable, &self.options);
        for (input, blob) in read {
            let report = match blob {
                Err(f) => Report::failed(f.clone()),
                Ok(blob) => {
                    // One result per readable blob: `disassemble` is never called here.
                    let listed = listings
                        .next()
                        .unwrap_or_else(|| listing::disassemble(blob, &self.options))
                        .map_err(|e| Failure::input(format!("{}: {e}", input.name())));
                    self.report(input, several, mode, listed, blob)
                }
            };
            reports.push(report);
        }
    }

    /// The report of one input from its listing (or what stopped it) and its blob.
    fn report(
        &self,
        input: &Input,
        several: bool,
        mode: Mode,
        listed: Result<listing::Listing, Failure>,
        blob: &[u8],
    ) -> Report {
        let listing = match listed {
            Ok(l) => l,
            Err(f) => return Report::failed(f),
        };
        let name = input.name();
        let messages =
            listing.warnings.iter().map(|w| Message { warning: true, text: format!("{name}: {w}") }).collect();
        // The summary is for --jsonl only: not computed otherwise.
        if mode != Mode::Text {
            let mut summary = summary(blob);
            summary["lines"] = json!(listing.text.lines().count());
            return Report { json: Some(summary), messages, ..Report::default() };
        }
        let text = if several {
            let mut labelled = String::with_capacity(listing.text.len().saturating_add(name.len()).saturating_add(10));
            labelled.push_str("// file: ");
            labelled.push_str(&name);
            labelled.push('\n');
            labelled.push_str(&listing.text);
            labelled
        } else {
            listing.text
        };
        Report { status: 0, text: Some(text), json: None, messages, diagnostics: Vec::new() }
    }
}

impl batch::Command for Disasm {
    fn process(&self, input: &Input, several: bool, mode: Mode) -> Report {
        match self.listing(input) {
            Ok((listing, blob)) => self.report(input, several, mode, Ok(listing), &blob),
            Err(f) => Report::failed(f),
        }
    }

    /// The inputs are read, then listed together ([`listing::disassemble_many`]: their
    /// checksums computed side by side), [`BATCH_BYTES`] of blobs at most at a time;
    /// each report is the one [`process`](batch::Command::process) gives.
    fn process_many(&self, inputs: &[&Input], several: bool, mode: Mode) -> Vec<Report> {
        let mut reports = Vec::with_capacity(inputs.len());
        let mut read: Vec<(&Input, Result<Vec<u8>, Failure>)> = Vec::new();
        let mut bytes = 0usize;
        for (k, input) in inputs.iter().enumerate() {
            let blob = input::blob(&input.source, self.var.as_deref());
            bytes = bytes.saturating_add(blob.as_ref().map_or(0, Vec::len));
            read.push((input, blob));
            if bytes >= BATCH_BYTES || k + 1 == inputs.len() {
                self.list_read(&read, several, mode, &mut reports);
                read.clear();
                bytes = 0;
            }
        }
        reports
    }

    /// One AVX-512 call's worth of checksums (32 streams); fewer inputs still gain.
    fn batch_len(&self) -> usize {
        32
    }

    fn extension(&self, _mode: Mode) -> &'static str {
        "asm"
    }

    fn colorize(&self, text: &str) -> String {
        crate::color::listing(text)
    }
}
