//! The Level 9 program inside an `Aon9` chunk, read with [`dxbc::Aon9`] (which also
//! checks the chunk's mapping tables).

/// Why the program cannot be found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aon9Error {
    /// Byte offset in the chunk data.
    pub offset: usize,
    /// What is wrong (the `dxbc` error's text).
    pub message: String,
}

/// The program bytes inside the `Aon9` chunk data, and their offset in the data.
pub fn program(data: &[u8]) -> Result<(&[u8], usize), Aon9Error> {
    let chunk = dxbc::Aon9::parse(data).map_err(|e| Aon9Error { offset: e.offset(), message: e.to_string() })?;
    // The program is a sub-slice of `data`, so its start is at or after the data's.
    let offset = (chunk.program.as_ptr() as usize)
        .checked_sub(data.as_ptr() as usize)
        .ok_or_else(|| Aon9Error { offset: 0, message: "the program is not inside the chunk data".into() })?;
    Ok((chunk.program, offset))
}

#[cfg(test)]
// Test code indexes its own fixed expectations, not input.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_program_and_refuses_bad_bounds() {
        let program_bytes: Vec<u8> = [0xFFFE_0200u32, 0x0000_FFFF].iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut data = dxbc::Aon9::new(&program_bytes, Default::default()).build().unwrap();
        let (p, at) = program(&data).unwrap();
        assert_eq!(p, &program_bytes[..]);
        assert_eq!(&data[at..at + 8], &program_bytes[..]);
        assert!(program(&data[..12]).is_err());
        data[8] = 200; // the program size runs past the chunk
        assert!(program(&data).is_err());
    }
}
