//! Reading the files a user gives dxref, as pure functions over bytes and text: what
//! kind of shader file it is ([`shader`]: a DXBC container, a raw Shader Model 1–3
//! stream, an effect holding one shader), the vertices of a draw ([`vertices`]: JSON or
//! CSV), stream-output declarations ([`so`]: the
//! text form and the JSON form of the call's arguments), and what a draw binds
//! ([`binding`]: binding arguments, words of constant buffers and buffers, samplers by
//! name; [`texture`]: PNG files as 2D textures). Reading the files themselves and printing the errors is the
//! command-line tool's job; fxc `/Fh` headers and listings are read by the `listing`
//! crate.
//!
//! No function here panics on any input: each problem is a typed error naming where it
//! is.

pub mod binding;
pub mod shader;
pub mod so;
pub mod texture;
pub mod vertices;

pub use shader::{d3dbc_end, embedded_shaders, family, is_effect, single_shader, EffectError, Embedded, Family};
