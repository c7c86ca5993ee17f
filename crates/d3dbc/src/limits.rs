//! Every depth, count and size limit the Shader Model 1–3 readers, printer and
//! assembler apply to their input, in one place, each with its reason.
//!
//! A limit here is never a format rule (those live with the code that checks them and
//! cite Microsoft's pages); it bounds what hostile input can make dxref do: how deep
//! it recurses, how much it allocates, how long it runs, how much it prints.

/// The deepest struct nesting of a constant table's (`CTAB`) or debug-information
/// (`DBUG`) types, counting the constant's own type as 0.
///
/// Reason: type records point at each other by offset, so a cyclic table would recurse
/// for ever; fxc's own tables nest a few levels. The assembler refuses a header that
/// nests deeper, so everything it writes reads back.
pub const MAX_TYPE_DEPTH: usize = 16;

/// The most type records read for one `CTAB` or `DBUG` table, counting a record once
/// per use (and, in a `DBUG` block, each struct member walked).
///
/// Reason: members of many structs may all point at one struct record; without a
/// budget a table of a few hundred bytes would expand into a tree of billions of
/// records. fxc's largest tables in the corpus read a few hundred.
pub const MAX_TYPE_RECORDS: usize = 1 << 14;

/// The deepest nesting the printer indents for.
///
/// Reason: Microsoft's disassembler indents without bound (checked at 200 levels:
/// `4 + 2 x depth` spaces), which makes a listing grow with the square of the nesting.
/// No profile allows more than 52 levels (24 static, 24 dynamic, 4 loop), so beyond
/// this depth (only in programs every runtime refuses) the indentation stays at this
/// level and the listing stays linear in the program.
pub const MAX_INDENT_DEPTH: usize = 64;
