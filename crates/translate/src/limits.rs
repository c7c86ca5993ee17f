//! Every limit the translator applies to its input, in one place, each with its reason.
//!
//! A limit here is never a translation rule; it bounds what a hostile program can make
//! the translator do: how deep the WGSL it writes nests and how much text it writes
//! (naga then parses that text, so its size is also naga's work).

/// The deepest nesting of `if`, `loop` and `switch` blocks translated.
///
/// Reason: no runtime accepts a deeper program (the functional spec's flow-control
/// nesting limit, `D3D11_COMMONSHADER_FLOWCONTROL_NESTING_LIMIT`, is 64), and the WGSL
/// written indents each level, so an unbounded depth would make the text grow with its
/// square (20,000 nested loops, a 160 KB blob, would take gigabytes before naga refused
/// the braces).
pub const MAX_BLOCK_DEPTH: usize = 64;

/// The most WGSL text written for one program, in bytes.
///
/// Reason: a few instructions write text out of proportion to their size (an `fcall`
/// with a register index writes one `case` per function table entry); the largest
/// corpus program writes well under 1 MB, so this bounds the worst case far above any
/// real shader.
pub const MAX_SOURCE_BYTES: usize = 64 << 20;
