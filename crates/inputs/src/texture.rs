#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
//! 2D textures for `dxref run --srv SLOT=FILE.png:FORMAT`: a PNG file decoded by the
//! `image` crate and stored in a DXGI format, one mip level, one array slice.
//!
//! # How PNG channels become texels
//!
//! A PNG's samples are first made RGBA: grey `g` gives (g, g, g), a palette its colours,
//! a PNG without alpha has alpha at its maximum; PNGs of 1, 2 or 4 bits per sample are
//! read as 8-bit ones (scaled to 0..255). A format with fewer channels keeps the first
//! ones (R8G8 takes red and green); `A8_UNORM` takes alpha; `B8G8R8X8_UNORM` drops it.
//! Then, per the format's kind, with `c` a sample and `max` 255 (8-bit PNG) or 65535
//! (16-bit PNG):
//!
//! - 8-bit UNORM and UNORM_SRGB formats store the 8-bit sample as it is (a 16-bit sample
//!   rounded to 8 bits): the PNG's bytes are the texture's bytes, and an `_SRGB` format
//!   reads them as sRGB-encoded, as the GPU would;
//! - 16-bit UNORM formats store `c / max` (an 8-bit sample `c` is `c × 257`);
//! - FLOAT formats store `c / max` as a float (rounded to 16 bits in the 16-bit ones);
//! - UINT formats store the sample's integer value, 0..max (a 16-bit PNG into an 8-bit
//!   UINT format is refused).
//!
//! Signed (SNORM, SINT), packed (R10G10B10A2, R11G11B10) and depth formats are not
//! filled from PNGs.

use exec::{Convert, Format};
use thiserror::Error;

/// `D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION`.
pub const MAX_TEXTURE_SIZE: u32 = 16384;

/// The most bytes a decoded texture may take (the image crate's decoding budget too).
pub const MAX_TEXTURE_BYTES: usize = 1 << 30;

/// The formats a PNG can fill, in the order the help lists them.
pub const PNG_FORMATS: &[Format] = &[
    Format::R8G8B8A8_UNORM,
    Format::R8G8B8A8_UNORM_SRGB,
    Format::B8G8R8A8_UNORM,
    Format::B8G8R8A8_UNORM_SRGB,
    Format::B8G8R8X8_UNORM,
    Format::R8G8_UNORM,
    Format::R8_UNORM,
    Format::A8_UNORM,
    Format::R8G8B8A8_UINT,
    Format::R8G8_UINT,
    Format::R8_UINT,
    Format::R16G16B16A16_UNORM,
    Format::R16G16_UNORM,
    Format::R16_UNORM,
    Format::R16G16B16A16_UINT,
    Format::R16G16_UINT,
    Format::R16_UINT,
    Format::R32G32B32A32_FLOAT,
    Format::R32G32_FLOAT,
    Format::R32_FLOAT,
    Format::R16G16B16A16_FLOAT,
    Format::R16G16_FLOAT,
    Format::R16_FLOAT,
];

/// A decoded texture: `width × height` texels of `format`, rows top to bottom, tightly
/// packed (`exec::resources::TextureView`'s layout of one mip level).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texture {
    /// Texels per row, 1 to [`MAX_TEXTURE_SIZE`].
    pub width: u32,
    /// Rows, 1 to [`MAX_TEXTURE_SIZE`].
    pub height: u32,
    /// The DXGI format of the texels, one of [`PNG_FORMATS`].
    pub format: Format,
    /// `width × height × format.size()` bytes, row after row from the top.
    pub data: Vec<u8>,
}

/// Why a PNG cannot become a texture.
#[derive(Debug, Error)]
pub enum TextureError {
    /// Not a PNG the decoder reads (its message says where).
    #[error("not a readable PNG: {0}")]
    Png(String),
    /// A format not in [`PNG_FORMATS`] (its name).
    #[error("{0} is not filled from PNGs; these are: {list}", list = png_format_names())]
    Format(&'static str),
    /// A 16-bit PNG for an 8-bit UINT format (its name).
    #[error("a 16-bit PNG does not fit {0} (8-bit integers); use a 16-bit UINT format")]
    Depth(&'static str),
    /// Wider or taller than `D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION`.
    #[error("{width} x {height}: a 2D texture is at most {MAX_TEXTURE_SIZE} x {MAX_TEXTURE_SIZE}")]
    TooLarge {
        /// The PNG's width.
        width: u32,
        /// The PNG's height.
        height: u32,
    },
}

/// [`PNG_FORMATS`]' names, comma-separated.
pub fn png_format_names() -> String {
    PNG_FORMATS.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

/// How a format is filled (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fill {
    /// 8-bit samples stored as they are, through this UNORM twin's encoding.
    Bytes(Format),
    Unorm,
    Float,
    Uint {
        bits: u32,
    },
}

fn fill(format: Format) -> Option<Fill> {
    use Format as F;
    Some(match format {
        F::R8G8B8A8_UNORM_SRGB => Fill::Bytes(F::R8G8B8A8_UNORM),
        F::B8G8R8A8_UNORM_SRGB => Fill::Bytes(F::B8G8R8A8_UNORM),
        F::R8G8B8A8_UNORM | F::B8G8R8A8_UNORM | F::B8G8R8X8_UNORM | F::R8G8_UNORM | F::R8_UNORM | F::A8_UNORM => {
            Fill::Bytes(format)
        }
        F::R8G8B8A8_UINT | F::R8G8_UINT | F::R8_UINT => Fill::Uint { bits: 8 },
        F::R16G16B16A16_UNORM | F::R16G16_UNORM | F::R16_UNORM => Fill::Unorm,
        F::R16G16B16A16_UINT | F::R16G16_UINT | F::R16_UINT => Fill::Uint { bits: 16 },
        F::R32G32B32A32_FLOAT
        | F::R32G32_FLOAT
        | F::R32_FLOAT
        | F::R16G16B16A16_FLOAT
        | F::R16G16_FLOAT
        | F::R16_FLOAT => Fill::Float,
        _ => return None,
    })
}

/// Decodes the PNG `bytes` into a texture of `format`.
pub fn png_texture(bytes: &[u8], format: Format) -> Result<Texture, TextureError> {
    let how = fill(format).ok_or(TextureError::Format(format.name()))?;
    let mut reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Png);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_TEXTURE_SIZE);
    limits.max_image_height = Some(MAX_TEXTURE_SIZE);
    limits.max_alloc = Some(MAX_TEXTURE_BYTES as u64);
    reader.limits(limits);
    let image = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => {
            match image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Png)
                .into_dimensions()
            {
                Ok((width, height)) if width > MAX_TEXTURE_SIZE || height > MAX_TEXTURE_SIZE => {
                    TextureError::TooLarge { width, height }
                }
                _ => TextureError::Png(e.to_string()),
            }
        }
        e => TextureError::Png(e.to_string()),
    })?;
    let wide = image.color().bytes_per_pixel() > image.color().channel_count();
    if wide && how == (Fill::Uint { bits: 8 }) {
        return Err(TextureError::Depth(format.name()));
    }
    let (width, height) = (image.width(), image.height());
    let max: u32 = if wide { 65535 } else { 255 };
    let samples = image.to_rgba16();
    let size = format.size();
    let texels = (width as usize).saturating_mul(height as usize);
    let total =
        texels.checked_mul(size).filter(|&n| n <= MAX_TEXTURE_BYTES).ok_or(TextureError::TooLarge { width, height })?;
    let mut data = vec![0u8; total];
    for (texel, pixel) in data.chunks_exact_mut(size).zip(samples.pixels()) {
        // The sample at the PNG's own depth (8-bit samples were widened × 257).
        let own = pixel.0.map(|c| if wide { u32::from(c) } else { u32::from(c) / 257 });
        let (encoding, value) = match how {
            Fill::Bytes(twin) => {
                let byte = |c: u16| (u32::from(c).saturating_add(128) / 257) as f32 / 255.0;
                (twin, pixel.0.map(|c| byte(c).to_bits()))
            }
            Fill::Unorm => (format, pixel.0.map(|c| (f32::from(c) / 65535.0).to_bits())),
            Fill::Float => (format, own.map(|c| (c as f32 / max as f32).to_bits())),
            Fill::Uint { .. } => (format, own),
        };
        encoding.encode(value, texel);
    }
    Ok(Texture { width, height, format, data })
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects, clippy::string_slice)]
mod tests {
    use super::*;

    /// A PNG of `width × height` with `color` and `depth`, from its raw samples.
    fn png(width: u32, height: u32, color: png::ColorType, depth: png::BitDepth, samples: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut e = png::Encoder::new(&mut out, width, height);
            e.set_color(color);
            e.set_depth(depth);
            let mut w = e.write_header().unwrap();
            w.write_image_data(samples).unwrap();
        }
        out
    }

    #[test]
    fn rgba8_bytes_are_the_texture_bytes() {
        let samples = [255, 0, 0, 255, 0, 128, 255, 10, 1, 2, 3, 4, 250, 251, 252, 0];
        let file = png(2, 2, png::ColorType::Rgba, png::BitDepth::Eight, &samples);
        let t = png_texture(&file, Format::R8G8B8A8_UNORM).unwrap();
        assert_eq!((t.width, t.height, t.data.as_slice()), (2, 2, &samples[..]));
        assert_eq!(png_texture(&file, Format::R8G8B8A8_UNORM_SRGB).unwrap().data, samples);
        let bgra = png_texture(&file, Format::B8G8R8A8_UNORM).unwrap();
        assert_eq!(&bgra.data[..4], &[0, 0, 255, 255]);
        assert_eq!(png_texture(&file, Format::A8_UNORM).unwrap().data, vec![255, 10, 4, 0]);
        assert_eq!(png_texture(&file, Format::R8G8_UINT).unwrap().data, vec![255, 0, 0, 128, 1, 2, 250, 251]);
        let f = png_texture(&file, Format::R32_FLOAT).unwrap();
        assert_eq!(f32::from_le_bytes(f.data[4..8].try_into().unwrap()), 0.0);
        assert_eq!(f32::from_le_bytes(f.data[8..12].try_into().unwrap()), 1.0 / 255.0);
        let u16s = png_texture(&file, Format::R16_UNORM).unwrap();
        assert_eq!(u16::from_le_bytes(u16s.data[4..6].try_into().unwrap()), 257);
        assert_eq!(png_texture(&file, Format::R16_UINT).unwrap().data[..2], [255, 0]);
    }

    #[test]
    fn grey_and_sixteen_bits() {
        let file = png(2, 1, png::ColorType::Grayscale, png::BitDepth::Eight, &[7, 200]);
        assert_eq!(png_texture(&file, Format::R8G8B8A8_UNORM).unwrap().data, vec![7, 7, 7, 255, 200, 200, 200, 255]);
        // 16-bit samples, big-endian in the PNG.
        let file = png(1, 1, png::ColorType::Rgb, png::BitDepth::Sixteen, &[0x12, 0x34, 0xff, 0xff, 0, 0x80]);
        let t = png_texture(&file, Format::R16G16B16A16_UINT).unwrap();
        assert_eq!(t.data, vec![0x34, 0x12, 0xff, 0xff, 0x80, 0, 0xff, 0xff]);
        assert_eq!(png_texture(&file, Format::R8G8B8A8_UNORM).unwrap().data, vec![0x12, 0xff, 0, 255]);
        let f = png_texture(&file, Format::R32_FLOAT).unwrap();
        assert_eq!(f32::from_le_bytes(f.data[..4].try_into().unwrap()), 0x1234 as f32 / 65535.0);
        assert!(matches!(png_texture(&file, Format::R8_UINT), Err(TextureError::Depth(_))));
    }

    #[test]
    fn refusals() {
        let file = png(1, 1, png::ColorType::Grayscale, png::BitDepth::Eight, &[0]);
        assert!(matches!(png_texture(&file, Format::R8G8B8A8_SNORM), Err(TextureError::Format(_))));
        assert!(matches!(png_texture(&file[..20], Format::R8_UNORM), Err(TextureError::Png(_))));
        assert!(matches!(png_texture(b"not a png", Format::R8_UNORM), Err(TextureError::Png(_))));
        // Every truncation and a sample of corruptions are errors, not panics.
        for n in 0..file.len() {
            let _ = png_texture(&file[..n], Format::R8G8B8A8_UNORM);
        }
        for i in 0..file.len() {
            let mut bad = file.clone();
            bad[i] ^= 0x5a;
            let _ = png_texture(&bad, Format::R8G8B8A8_UNORM);
        }
        let big = png(MAX_TEXTURE_SIZE + 1, 1, png::ColorType::Grayscale, png::BitDepth::One, &vec![0; 2049]);
        assert!(matches!(png_texture(&big, Format::R8_UNORM), Err(TextureError::TooLarge { .. })));
    }
}
