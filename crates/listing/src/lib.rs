//! The Microsoft listing of a shader container.

pub mod style;
pub use style::{CompilerVersion, Style};
