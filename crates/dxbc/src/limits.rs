//! Every depth, count and size limit the DXBC container and chunk codecs, and the
//! listing readers built on them (crate `listing`), apply to their input, in one place,
//! each with its reason.
//!
//! A limit here is never a format rule (those live with the code that checks them and
//! cite Microsoft's pages); it bounds what hostile input can make dxref do: how deep
//! it recurses, how much it allocates, how long it runs, how much it prints.

/// The longest name (in bytes, without its NUL) a chunk may hold.
///
/// Reason: names in fxc's chunks are identifiers, and since many records may point at
/// one string, a long one would let a small blob expand into an enormous listing.
pub const MAX_STRING: usize = 1024;

/// The deepest nesting of `RDEF` shader-variable types (members of structs), counting
/// a variable's own type as 0.
///
/// Reason: type records point at each other by offset, so a cyclic chunk would recurse
/// for ever; HLSL structs in the corpus nest a few levels.
pub const MAX_RDEF_TYPE_DEPTH: usize = 64;

/// The most `RDEF` type records read for one chunk, counting a shared record once per
/// use.
///
/// Reason: members of many structs may point at one struct record; without a budget a
/// chunk of a few kilobytes expands into a tree of billions of types.
pub const MAX_RDEF_TYPE_NODES: usize = 1 << 16;

/// How deeply structures in a listing's reflection header (`// cbuffer ... { struct
/// ... }`) may nest before the header is refused.
///
/// Reason: bounds the header reader's recursion; below [`MAX_RDEF_TYPE_DEPTH`] so that
/// every structure the header reader accepts is written into an `RDEF` chunk that
/// reads back.
pub const MAX_LISTING_STRUCT_DEPTH: usize = 32;
