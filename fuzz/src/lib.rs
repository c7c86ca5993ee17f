//! What the fuzz targets share: reading bytes the way the command line reads files,
//! and picking options from input bytes.

/// The bytes as the command line reads a listing or header file
/// (`listing::text::decode`: UTF-8 with or without a byte-order mark, UTF-16, a
/// terminating NUL); `None` when it would refuse them.
pub fn as_cli_text(data: &[u8]) -> Option<String> {
    listing::text::decode(data).ok().map(|t| t.into_owned())
}

/// Splits off the first byte (option bits) from the rest.
pub fn split_flags(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&f, rest)) => (f, rest),
        None => (0, data),
    }
}

/// Disassembly options chosen by the bits of `flags`.
pub fn listing_options(flags: u8) -> listing::Options {
    listing::Options {
        exact_floats: flags & 1 != 0,
        number_instructions: flags & 2 != 0,
        byte_offsets: flags & 4 != 0,
        hex_literals: flags & 8 != 0,
        ..Default::default()
    }
}
