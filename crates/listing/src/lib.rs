//! The Microsoft listing of a shader container: what `fxc /Fc` and `D3DDisassemble`
//! print.
//!
//! A listing has three parts: the comment header printed from the container's
//! chunks (creator, buffer definitions, resource bindings, signatures ...), the
//! program printed from the `SHDR`/`SHEX` chunk (by [`tpf::print`]), and the closing
//! `// Approximately N instruction slots used` line from the `STAT` chunk.
//!
//! Level9 blobs (`*_4_0_level_9_*`, with an `Aon9` chunk) also carry a Shader Model 2
//! program that fxc prints between the header and the SM4 program, with the Direct3D 9
//! mapping tables before it ([`level9_listing`]). A raw Shader Model 1–3 stream (no
//! container) gets its own listing from [`d3dbc::print`].

use std::fmt;

pub mod asm;
pub mod fxh;
pub mod header;
pub mod level9;
pub mod level9_listing;
pub mod reflect;
pub mod stat;

use dxbc::{Container, FourCc};
use thiserror::Error;

/// The listing format (which fxc version's text to reproduce); defined in `tpf`,
/// whose program printer also follows it.
pub mod style {
    pub use tpf::style::*;
}
pub use style::{CompilerVersion, Style};

/// How to print a listing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The format to reproduce; `None` follows the compiler named in the blob.
    pub style: Option<Style>,
}

/// Something worth telling the user that did not stop the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// The stored checksum does not match the container's bytes.
    BadChecksum { stored: [u8; 16], computed: [u8; 16] },
    /// No longer produced: the Level9 part of the listing is printed.
    Level9PartOmitted,
    /// The program holds a custom-data block other than an immediate constant buffer
    /// (a comment, debug information ...), which the listing shows, as Microsoft's
    /// does, only as `undecipherable custom data`: assembling the listing gives an
    /// empty comment block in its place.
    CustomDataAsComment { class: String, tokens: usize },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::BadChecksum { stored, computed } => {
                write!(f, "the container's checksum is wrong (stored {}, computed {})", hex(stored), hex(computed))
            }
            Warning::Level9PartOmitted => {
                write!(f, "the Level9 (Shader Model 2) part of the listing is not printed yet; the SM4 part follows")
            }
            Warning::CustomDataAsComment { class, tokens } => write!(
                f,
                "a {class} block of {tokens} tokens is shown as `undecipherable custom data`; reassembling the listing gives an empty comment block"
            ),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A blob could not be listed. Offsets are byte offsets in the whole blob.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    #[error("{0}")]
    Container(#[from] dxbc::Error),
    #[error("the container has no SHDR or SHEX chunk (no SM4/SM5 program)")]
    NoProgram,
    #[error("in the {chunk} chunk's program: {error}")]
    Program { chunk: FourCc, error: tpf::DecodeError },
    #[error("{0}")]
    Header(#[from] header::HeaderError),
    #[error("{0}")]
    D3dbc(#[from] d3dbc::print::ListingError),
    #[error("in the Level9 part: {0}")]
    Level9(Box<level9_listing::Level9Error>),
}

/// A printed listing and what was noticed while printing it.
#[derive(Debug, Clone)]
pub struct Listing {
    pub text: String,
    pub warnings: Vec<Warning>,
}

/// True when `bytes` starts with a Shader Model 1–3 version token (a raw d3dbc stream,
/// not a DXBC container).
pub fn is_d3dbc(bytes: &[u8]) -> bool {
    bytes.get(..4).is_some_and(|b| d3dbc::Version::from_token(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).is_some())
}

/// Disassembles a DXBC container, or a raw Shader Model 1–3 stream, into Microsoft's
/// listing.
pub fn disassemble(bytes: &[u8], options: &Options) -> Result<Listing, Error> {
    if is_d3dbc(bytes) {
        return disassemble_d3dbc(bytes, options);
    }
    let container = Container::parse(bytes)?;
    let mut warnings = Vec::new();
    if !container.checksum_ok() {
        warnings.push(Warning::BadChecksum {
            stored: container.stored_checksum(),
            computed: dxbc::checksum_bytes(container.computed_checksum()),
        });
    }
    let style = options.style.unwrap_or_else(|| header::style_for(&container));
    let chunk = container.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).ok_or(Error::NoProgram)?;
    let program_error =
        |error: tpf::DecodeError| Error::Program { chunk: chunk.fourcc, error: error.rebased(chunk.data_offset()) };
    let mut decoder = tpf::Decoder::new(chunk.data).map_err(program_error)?;

    let mut text = String::with_capacity(chunk.data.len() * 8);
    header::write_header(&mut text, &container, style)?;
    if container.chunk(FourCc::AON9).is_some() {
        let part = level9_listing::level9_part(&container).map_err(|e| Error::Level9(Box::new(e)))?;
        text.push_str(&part);
    }
    // The program is printed as it is decoded, one reused instruction at a time.
    let mut printer = tpf::print::Printer::new(decoder.version(), style);
    printer.version_line(&mut text);
    let mut ins = tpf::Instruction::placeholder();
    while let Some(item) = decoder.next_into(&mut ins) {
        item.map_err(program_error)?;
        if let tpf::Body::CustomData(c) = &ins.body {
            if c.class != tpf::CustomDataClass::ImmediateConstantBuffer {
                let class = c.class.listing_name().map_or_else(|| format!("class {}", c.class.raw()), str::to_string);
                warnings.push(Warning::CustomDataAsComment { class, tokens: c.data.len() });
            }
        }
        printer.instruction(&ins, &mut text);
    }
    let slots = container
        .chunk(FourCc::STAT)
        .and_then(|c| dxbc::Stat::parse(c.data).ok())
        .map_or(0, |stat| stat.instruction_count);
    text.push_str(&format!("// Approximately {slots} instruction slots used\n"));
    Ok(Listing { text, warnings })
}

/// A raw Shader Model 1–3 stream: the header in the style of the compiler its constant
/// table names (or of `options.style`), the program, the slot line.
fn disassemble_d3dbc(bytes: &[u8], options: &Options) -> Result<Listing, Error> {
    use d3dbc::print::HeaderStyle;
    let text = match options.style {
        None => d3dbc::print::listing(bytes)?,
        Some(style) => {
            let program = d3dbc::decode(bytes).map_err(d3dbc::print::ListingError::Decode)?;
            let header = if style.disassembler {
                HeaderStyle::Disassembler
            } else if (style.version.0, style.version.1) == (9, 30) {
                HeaderStyle::Slash
            } else {
                HeaderStyle::Plain
            };
            d3dbc::print::listing_program(&program, header)
        }
    };
    Ok(Listing { text, warnings: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_blocks_without_listing_syntax_are_flagged() {
        use tpf::*;
        let comment = Instruction::new(
            Opcode::CustomData,
            Body::CustomData(CustomData { class: CustomDataClass::Comment, data: Words::from_tokens(&[1, 2]) }),
        );
        let ret = Instruction::new(Opcode::Ret, Body::Op(Op::EMPTY));
        let program = Program { version: Version::new(ProgramType::Vertex, 4, 0), instructions: vec![comment, ret] };
        let empty = dxbc::Signature { format: dxbc::SignatureFormat::Basic, elements: vec![], raw_layout: None };
        let blob = dxbc::Builder::new()
            .chunk(FourCc::ISGN, empty.to_bytes())
            .chunk(FourCc::OSGN, empty.to_bytes())
            .chunk(FourCc::SHDR, tpf::encode(&program).unwrap())
            .build()
            .unwrap();
        let listing = disassemble(&blob, &Options::default()).unwrap();
        assert_eq!(listing.warnings, [Warning::CustomDataAsComment { class: "comment".into(), tokens: 2 }]);
        assert!(listing.text.contains("\nundecipherable custom data\nret \n"), "{}", listing.text);
    }
}
