//! The DXBC shader container and typed codecs for its chunks.
//!
//! ```text
//! "DXBC" | checksum (16) | version = 1 | total size | chunk count | chunk offsets...
//! chunk: FourCC | size | data...
//! ```
//!
//! [`Container::parse`] borrows the input, checks every size and offset, and keeps
//! everything needed for [`Container::to_bytes`] to reproduce it exactly.
//! [`Builder`] writes a new container in fxc's layout with a correct checksum
//! ([`compute_checksum`]). Each chunk kind with a typed codec decodes to plain Rust
//! values and encodes back to identical bytes: [`Rdef`], [`Signature`], [`Stat`],
//! [`Sfi0`], [`Ifce`], and the Level9 chunk [`Aon9`] (its mapping tables and the Shader
//! Model 2 program, which the `d3dbc` crate decodes); program chunks (`SHDR`/`SHEX`) stay
//! as bytes ([`ChunkData`] keeps `Aon9` as bytes too: decode it with [`Aon9::parse`]).
//! Malformed input yields an [`Error`] naming the byte offset; nothing panics.
//!
//! ```
//! use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
//! use dxbc::{Builder, ChunkData, Container, Error, FourCc, Signature, SignatureElement, SignatureFormat};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // An output signature with one element, `SV_Position` in `o0.xyzw`.
//!     let osgn = Signature {
//!         format: SignatureFormat::Basic,
//!         elements: vec![SignatureElement {
//!             stream: 0,
//!             semantic_name: "SV_Position",
//!             semantic_index: 0,
//!             system_value: SystemValue::Position,
//!             component_type: ComponentType::Float32,
//!             register: 0,
//!             mask: 0b1111,
//!             rw_mask: 0,
//!             min_precision: MinPrecision::Default,
//!         }],
//!         raw_layout: None,
//!     };
//!     // A container in fxc's layout, checksum included. The program chunk holds the
//!     // tokens of `vs_4_0` / `ret` (version token, length in tokens, `ret`).
//!     let program: Vec<u8> = [0x0001_0040u32, 3, 0x0100_003e].iter().flat_map(|t| t.to_le_bytes()).collect();
//!     let bytes = Builder::new()
//!         .chunk(FourCc::ISGN, Signature { elements: vec![], ..osgn.clone() }.to_bytes())
//!         .chunk(FourCc::OSGN, osgn.to_bytes())
//!         .chunk(FourCc::SHDR, program)
//!         .build()?;
//!
//!     // Parsing borrows the bytes, checks every size and offset, and keeps the layout.
//!     let container = Container::parse(&bytes)?;
//!     assert!(container.checksum_ok());
//!     assert_eq!(container.to_bytes(), bytes);
//!     let chunk = container.chunk(FourCc::OSGN).ok_or("no OSGN")?;
//!     let ChunkData::Signature(decoded) = chunk.decode()? else { return Err("not a signature".into()) };
//!     assert_eq!(decoded.find("sv_position", 0).map(|e| e.register), Some(0));
//!
//!     // Errors name the byte offset.
//!     let error = Container::parse(&bytes[..40]).unwrap_err();
//!     assert!(matches!(error, Error::BadTotalSize { offset: 24, .. }));
//!     Ok(())
//! }
//! ```

#![warn(missing_docs)]

pub mod aon9;
pub mod checksum;
mod chunks;
mod container;
mod error;
mod fourcc;
pub mod ifce;
pub mod limits;
pub mod rdef;
pub mod sfi0;
pub mod signature;
pub mod stat;
mod util;

pub use aon9::Aon9;
pub use checksum::{checksum_bytes, checksum_many, checksum_of, compute_checksum, verify_many, CHECKSUM_START};
pub use chunks::ChunkData;
pub use container::{Builder, Chunk, Container, HEADER_SIZE};
pub use error::{Error, Result};
pub use fourcc::FourCc;
pub use ifce::Ifce;
pub use rdef::Rdef;
pub use sfi0::{Sfi0, ShaderFeatures};
pub use signature::{Signature, SignatureElement, SignatureFormat};
pub use stat::Stat;
pub use util::{Gap, RawLayout};
