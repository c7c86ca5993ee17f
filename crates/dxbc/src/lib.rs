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
