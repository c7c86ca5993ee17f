#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
//! Stream-output declarations as a user writes them: the text form
//! (`s1:0:TEXCOORD0.xy; $SKIP.x`, with the buffer strides and the rasterized stream
//! beside it) and the JSON form of the call's raw arguments.

use thiserror::Error;
use validate::{Api, SoArguments, StreamOutputDesc, NO_RASTERIZED_STREAM};

/// Why a text-form declaration, its strides or its rasterized stream cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SoError {
    /// The declaration's text (the column is in the error).
    #[error("{0}")]
    Declaration(String),
    /// The strides are not comma-separated 32-bit numbers.
    #[error("expected numbers separated by commas")]
    Strides,
    /// The rasterized stream is neither a number nor `none`.
    #[error("expected 0..3 or none")]
    Rasterized,
}

/// The declaration `decl`, with the buffer strides (`"16,32"`) and the rasterized
/// stream (`"0"`..`"3"` or `"none"`) when given.
pub fn declaration(decl: &str, strides: Option<&str>, rasterized: Option<&str>) -> Result<StreamOutputDesc, SoError> {
    let mut desc: StreamOutputDesc =
        decl.parse().map_err(|e: validate::so::SoParseError| SoError::Declaration(e.to_string()))?;
    if let Some(strides) = strides {
        desc.strides = strides
            .split(',')
            .map(|s| s.trim().parse::<u32>())
            .collect::<Result<_, _>>()
            .map_err(|_| SoError::Strides)?;
    }
    if let Some(r) = rasterized {
        desc.rasterized_stream = match r.trim() {
            "none" => NO_RASTERIZED_STREAM,
            n => n.parse().map_err(|_| SoError::Rasterized)?,
        };
    }
    Ok(desc)
}

/// Why a JSON-form file of the call's arguments cannot be read.
#[derive(Debug, Error)]
pub enum SoJsonError {
    /// Not JSON of the arguments' shape (the line and column are in the error).
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// A field the call of this API does not have.
    #[error("{0}")]
    Shape(String),
}

/// The call's stream-output arguments from the JSON `text`, for the call of `api`.
pub fn arguments_json(text: &str, api: Api) -> Result<SoArguments, SoJsonError> {
    let args: SoArguments = serde_json::from_str(text)?;
    args.check_shape(api).map_err(SoJsonError::Shape)?;
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_at_its_edges() {
        let d = declaration("s1:0:TEXCOORD0.xy", Some(" 16, 32"), Some("none")).unwrap();
        assert_eq!(d.strides, vec![16, 32]);
        assert_eq!(d.rasterized_stream, NO_RASTERIZED_STREAM);
        assert_eq!(declaration("A.x", None, Some("2")).unwrap().rasterized_stream, 2);
        assert!(matches!(declaration(";", None, None), Err(SoError::Declaration(_))));
        assert_eq!(declaration("A.x", Some("16,,32"), None).unwrap_err(), SoError::Strides);
        assert_eq!(declaration("A.x", Some("4294967296"), None).unwrap_err(), SoError::Strides);
        assert_eq!(declaration("A.x", None, Some("-1")).unwrap_err(), SoError::Rasterized);
    }

    #[test]
    fn json_form_at_its_edges() {
        let api = validate::Target::d3d12().api;
        assert!(matches!(arguments_json("{", api), Err(SoJsonError::Json(_))));
        assert!(matches!(arguments_json("\"declaration\"", api), Err(SoJsonError::Json(_))));
        let nested = "[".repeat(100_000);
        assert!(matches!(arguments_json(&nested, api), Err(SoJsonError::Json(_))));
    }
}
