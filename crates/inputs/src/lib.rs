//! Reading the files a user gives dxref, as pure functions over bytes and text: what
//! kind of shader file it is ([`shader`]: a DXBC container, a raw Shader Model 1–3
//! stream, an effect holding one shader), the vertices of a draw ([`vertices`]: JSON or
//! CSV), stream-output declarations ([`so`]: the text form and the JSON form of the
//! call's arguments), and what a draw binds
//! ([`binding`]: binding arguments, words of constant buffers and buffers, samplers by
//! name; [`texture`]: PNG files as 2D textures). Reading the files themselves and
//! printing the errors is the command-line tool's job; fxc `/Fh` headers and listings
//! are read by the `listing` crate.
//!
//! No function here panics on any input: each problem is a typed error naming where it
//! is.
//!
//! ```
//! use inputs::binding::{binding_arg, sampler, words_json, Stage};
//! use inputs::{family, single_shader, so, texture, vertices, Family};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // What a shader file holds: here an fx_2_0 effect around one vs_2_0 stream
//!     // (version token, `nop`, end token).
//!     let words = [0xfeff_0901u32, 0, 0xfffe_0200, 0x0000_0000, 0x0000_ffff];
//!     let effect: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//!     assert!(inputs::is_effect(&effect));
//!     let shader = single_shader(&effect)?;
//!     assert_eq!((shader.family, shader.range.clone()), (Family::D3dbc, 8..20));
//!     assert_eq!(family(&effect[shader.range]), Some(Family::D3dbc));
//!
//!     // Vertices: JSON keyed by semantic, or CSV with one column per component.
//!     let json = vertices::read(r#"[{"POSITION": [0, 0, 0, 1], "TEXCOORD1": [0.5, "0x3f800000"]}]"#)?;
//!     let csv = vertices::read("POSITION.x,POSITION.y\n1,2\n3,4\n")?;
//!     assert_eq!((json.len(), csv.len()), (1, 2));
//!     assert_eq!((json[0][1].0.as_str(), json[0][1].1), ("TEXCOORD", 1));
//!
//!     // A stream-output declaration with its strides and rasterized stream.
//!     let desc = so::declaration("SV_Position.xyzw; 1:TEXCOORD0.xy", Some("16,8"), Some("none"))?;
//!     assert_eq!(desc.entries.len(), 2);
//!
//!     // What `dxref run` binds: arguments, words, samplers, PNG textures.
//!     let arg = binding_arg("gs:space1:b2=constants.json", "b")?;
//!     assert_eq!((arg.stage, arg.space, arg.slot), (Some(Stage::Geometry), Some(1), 2));
//!     assert_eq!(words_json("[1, 1.0, -1, \"NaN\"]")?, [1, 0x3f80_0000, 0xffff_ffff, 0x7fc0_0000]);
//!     assert!(sampler("linear-clamp").is_some());
//!     let mut png = Vec::new();
//!     image::RgbaImage::from_pixel(2, 1, image::Rgba([255, 128, 0, 255]))
//!         .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)?;
//!     let texture = texture::png_texture(&png, exec::Format::R8G8B8A8_UNORM)?;
//!     assert_eq!(texture.data, [255, 128, 0, 255, 255, 128, 0, 255]);
//!
//!     // Errors say where.
//!     let error = vertices::read("POSITION.x\n1\nz\n").unwrap_err();
//!     assert_eq!(error.to_string(), "3: `z` is not a number");
//!     Ok(())
//! }
//! ```

#![warn(missing_docs)]

pub mod binding;
pub mod shader;
pub mod so;
pub mod texture;
pub mod vertices;

pub use shader::{d3dbc_end, embedded_shaders, family, is_effect, single_shader, EffectError, Embedded, Family};
