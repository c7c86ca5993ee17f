//! The Level 9 program inside an `Aon9` chunk. The one function the validator reads it
//! through, so that a shared reader can replace this one.
//!
//! Layout of the chunk data (little-endian 32-bit words): word 0 the chunk size, word 1
//! the program's version token, word 2 the program's size in bytes, word 3 the
//! program's offset from the start of the chunk data; the program (a Shader Model 2
//! token stream ending with `0x0000FFFF`) lies at that offset.

/// Why the program cannot be found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aon9Error {
    /// Byte offset in the chunk data.
    pub offset: usize,
    pub message: String,
}

/// The program bytes inside the `Aon9` chunk data, and their offset in the data.
pub fn program(data: &[u8]) -> Result<(&[u8], usize), Aon9Error> {
    let word = |i: usize| {
        data.get(i * 4..i * 4 + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok_or_else(|| Aon9Error {
            offset: data.len(),
            message: format!("the Aon9 chunk is {} bytes, too short for its header (16 bytes)", data.len()),
        })
    };
    let size = word(2)? as usize;
    let offset = word(3)? as usize;
    let end = offset.checked_add(size).filter(|&e| e <= data.len()).ok_or_else(|| Aon9Error {
        offset: 8,
        message: format!(
            "the Aon9 chunk places its program at bytes {offset}..{} of its {} bytes of data",
            offset as u64 + size as u64,
            data.len()
        ),
    })?;
    Ok((&data[offset..end], offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_program_and_refuses_bad_bounds() {
        let mut data = Vec::new();
        for w in [28u32, 0xFFFE_0200, 8, 20, 0, 0xFFFE_0200, 0x0000_FFFF] {
            data.extend_from_slice(&w.to_le_bytes());
        }
        let (p, at) = program(&data).unwrap();
        assert_eq!(at, 20);
        assert_eq!(p, &data[20..28]);
        assert!(program(&data[..12]).is_err());
        data[8] = 12;
        assert!(program(&data).is_err());
    }
}
