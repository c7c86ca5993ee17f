//! Every depth, count and size limit the Shader Model 4/5 decoder, printer and
//! assembler apply to their input, in one place, each with its reason.
//!
//! A limit here is never a format rule (those live with the code that checks them and
//! cite Microsoft's pages, such as the operand and index counts of the token format);
//! it bounds what hostile input can make dxref do: how deep it recurses, how much it
//! allocates, how long it runs, how much it prints.

/// The most extended opcode tokens kept for one instruction.
///
/// Reason: each extended token says whether another follows, so a chain can be as long
/// as the instruction; the format defines three kinds (sample controls, resource
/// dimension, resource return type) and fxc writes each at most once, so a longer chain
/// is refused rather than stored.
pub const MAX_EXTENDED: usize = 4;

/// The deepest nesting the printer indents for.
///
/// Reason: Microsoft's disassembler indents two spaces per level without bound, so a
/// listing grows with the square of the nesting (20,000 nested `if`s, 200 KB of
/// tokens, would print 400 MB of spaces). No runtime accepts more than 64 levels
/// (D3D11_COMMONSHADER_FLOWCONTROL_NESTING_LIMIT), so up to this depth the listing is
/// Microsoft's, and beyond it (only in programs every runtime refuses) the indentation
/// stays at this level.
pub const MAX_INDENT_DEPTH: usize = 64;
