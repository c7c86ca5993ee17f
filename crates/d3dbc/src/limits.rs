//! Every depth, count and size limit the Shader Model 1–3 readers and the assembler
//! apply to their input, in one place, each with its reason.
//!
//! A limit here is never a format rule (those live with the code that checks them and
//! cite Microsoft's pages); it bounds what hostile input can make dxref do: how deep
//! it recurses, how much it allocates, how long it runs.

/// The deepest struct nesting of a constant table's types (`D3DXSHADER_TYPEINFO`
/// records reached through member records), counting the constant's own type as 0.
///
/// Reason: type records point at each other by offset, so a cyclic table would recurse
/// for ever; fxc's own tables nest a few levels. The assembler refuses a header that
/// nests deeper, so everything it writes reads back.
pub const MAX_TYPE_DEPTH: usize = 16;
