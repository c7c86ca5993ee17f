//! Reading an input: a file or standard input, bounded in size, and the shader in it
//! (a DXBC blob, a raw Shader Model 1–3 stream, an effect holding one shader, an fxc
//! `/Fh` header, or — for the commands that take one — a listing, assembled first).

use std::borrow::Cow;
use std::ffi::OsStr;
use std::io::Read;
use std::path::PathBuf;

use crate::Failure;

/// The largest input dxref reads: 256 MiB. A larger file is refused before any of it is
/// read (its size is known), and a stream (standard input, a pipe, a device) is refused
/// as soon as more than this has come. Shaders are far smaller (a container's size is a
/// 32-bit field, and fxc's largest outputs are a few MiB); the limit leaves room for
/// listings and `/Fh` headers of the largest shaders, whose text is 5 to 10 times the
/// size of the blob.
pub const MAX_INPUT_SIZE: u64 = 256 << 20;

/// Where an input comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Source {
    /// Standard input (the argument `-`, or no argument).
    Stdin,
    /// A file at this path.
    File(PathBuf),
}

impl Source {
    /// `-` is standard input; anything else a path (any bytes, UTF-8 or not).
    pub fn from_arg(arg: &OsStr) -> Source {
        if arg == "-" {
            Source::Stdin
        } else {
            Source::File(PathBuf::from(arg))
        }
    }

    /// The name in messages: `<stdin>`, or the path as given (bytes that are not UTF-8
    /// shown as U+FFFD).
    pub fn name(&self) -> Cow<'_, str> {
        match self {
            Source::Stdin => Cow::Borrowed("<stdin>"),
            Source::File(p) => p.to_string_lossy(),
        }
    }
}

/// The bytes of `source`, at most [`MAX_INPUT_SIZE`].
pub fn read(source: &Source) -> Result<Vec<u8>, Failure> {
    read_limited(source, MAX_INPUT_SIZE)
}

/// The bytes of `source`, at most `limit`.
pub fn read_limited(source: &Source, limit: u64) -> Result<Vec<u8>, Failure> {
    let name = source.name();
    let too_big = |size: Option<u64>| {
        let size = size.map_or_else(String::new, |s| format!("{s} bytes, "));
        Failure::input(format!("{name}: {size}larger than the {} MiB dxref reads", limit >> 20))
    };
    let io = |e: std::io::Error| Failure::input(format!("{name}: {e}"));
    let mut buf = Vec::new();
    match source {
        Source::Stdin => {
            std::io::stdin().lock().take(limit.saturating_add(1)).read_to_end(&mut buf).map_err(io)?;
        }
        Source::File(path) => {
            let mut file = std::fs::File::open(path).map_err(io)?;
            let meta = file.metadata().map_err(io)?;
            if meta.is_dir() {
                return Err(Failure::input(format!("{name}: is a directory")));
            }
            // A regular file's size is known: refuse it before reading any of it.
            if meta.is_file() && meta.len() > limit {
                return Err(too_big(Some(meta.len())));
            }
            if meta.is_file() {
                buf.reserve_exact(usize::try_from(meta.len()).unwrap_or(0));
            }
            (&mut file).take(limit.saturating_add(1)).read_to_end(&mut buf).map_err(io)?;
        }
    }
    if buf.len() as u64 > limit {
        return Err(too_big(None));
    }
    Ok(buf)
}

fn var_on_binary(name: &str, what: &str) -> Failure {
    Failure::input(format!("{name}: --var applies to fxc /Fh headers; this is {what}"))
}

/// The shader blob in `bytes`: a binary file as it is (a DXBC container, a raw Shader
/// Model 1–3 stream), the one shader of an effect, or the array of an fxc `/Fh` header
/// (`var`: which one, when it has several).
pub fn blob_of(bytes: Vec<u8>, name: &str, var: Option<&str>) -> Result<Vec<u8>, Failure> {
    if inputs::is_effect(&bytes) {
        if var.is_some() {
            return Err(var_on_binary(name, "an effect file"));
        }
        let one = inputs::single_shader(&bytes).map_err(|e| Failure::input(format!("{name}: {e}")))?;
        return Ok(bytes.get(one.range).map(<[u8]>::to_vec).unwrap_or_default());
    }
    if inputs::family(&bytes).is_some() || !listing::text::is_text(&bytes) {
        if var.is_some() {
            return Err(var_on_binary(name, "a binary file"));
        }
        return Ok(bytes);
    }
    // UTF-8 (with or without a byte-order mark), UTF-16, a terminating NUL.
    let text = listing::text::decode(&bytes).map_err(|e| Failure::input(format!("{name}: {e}")))?;
    listing::fxh::pick(&text, var).map(|a| a.bytes).map_err(|e| Failure::input(format!("{name}:{e}")))
}

/// The shader in `bytes` for the commands that also take a listing (`validate`, `run`):
/// as [`blob_of`], and a text that is not an fxc `/Fh` header is assembled.
pub fn shader_of(bytes: Vec<u8>, name: &str, var: Option<&str>) -> Result<Vec<u8>, Failure> {
    if inputs::is_effect(&bytes) || inputs::family(&bytes).is_some() || !listing::text::is_text(&bytes) {
        return blob_of(bytes, name, var);
    }
    let text = listing::text::decode(&bytes).map_err(|e| Failure::input(format!("{name}: {e}")))?;
    // Text: an fxc /Fh header holds a byte array; anything else is taken as a listing.
    if var.is_some() || listing::fxh::arrays(&text).is_ok_and(|a| !a.is_empty()) {
        return listing::fxh::pick(&text, var).map(|a| a.bytes).map_err(|e| Failure::input(format!("{name}:{e}")));
    }
    match listing::asm::assemble(&text, &listing::asm::AsmOptions::default()) {
        Ok(a) => Ok(a.bytes),
        Err(errors) => {
            let first = errors.first().map(|d| format!("{}:{}: {}", d.line, d.column, d.message)).unwrap_or_default();
            let more = match errors.len() {
                0 | 1 => String::new(),
                n => format!(", and {} more", n - 1),
            };
            Err(Failure::input(format!(
                "{name}: neither a DXBC container, an fxc /Fh header, nor a listing that assembles ({first}{more}; `dxref asm` shows every error)"
            )))
        }
    }
}

/// [`read`] then [`blob_of`].
pub fn blob(source: &Source, var: Option<&str>) -> Result<Vec<u8>, Failure> {
    blob_of(read(source)?, &source.name(), var)
}

/// [`read`] then [`shader_of`].
pub fn shader(source: &Source, var: Option<&str>) -> Result<Vec<u8>, Failure> {
    shader_of(read(source)?, &source.name(), var)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_the_limit_is_refused_before_reading() {
        let path = std::env::temp_dir().join(format!("dxref-input-limit-{}", std::process::id()));
        std::fs::write(&path, [0u8; 100]).unwrap();
        let source = Source::File(path.clone());
        assert_eq!(read_limited(&source, 100).unwrap().len(), 100);
        let e = read_limited(&source, 99).unwrap_err();
        assert!(e.message.contains("100 bytes, larger than"), "{}", e.message);
        assert_eq!(e.status, crate::status::INPUT);
        let _ = std::fs::remove_file(path);
    }
}
