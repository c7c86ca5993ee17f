//! The Microsoft listing of a shader container.

/// The listing format (which fxc version's text to reproduce); defined in `tpf`,
/// whose program printer also follows it.
pub mod style {
    pub use tpf::style::*;
}
pub use style::{CompilerVersion, Style};
