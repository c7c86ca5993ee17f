//! `translate`'s SPIR-V post-pass (`translate::no_contraction::forbid_contraction`) on
//! arbitrary words (the bytes little-endian, a trailing partial word dropped; the first
//! input byte, when it is odd, puts the SPIR-V magic number and a header in front so
//! that most inputs reach the instruction walk): a count or a typed error, never a
//! panic; a module the pass accepts is one it accepts again, adding nothing.
#![no_main]
use libfuzzer_sys::fuzz_target;
use translate::no_contraction::forbid_contraction;

fuzz_target!(|data: &[u8]| {
    let (flags, data) = dxref_fuzz::split_flags(data);
    let mut words: Vec<u32> = Vec::with_capacity(data.len() / 4 + 5);
    if flags & 1 != 0 {
        words.extend_from_slice(&[0x0723_0203, 0x0001_0000, 0, 0x10_0000, 0]);
    }
    words.extend(data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    let before = words.len();
    match forbid_contraction(&mut words) {
        Ok(added) => {
            assert_eq!(words.len(), before + 3 * added, "three words per decoration");
            let once = words.clone();
            assert_eq!(forbid_contraction(&mut words), Ok(0), "the pass is idempotent");
            assert_eq!(words, once);
        }
        Err(e) => {
            assert_eq!(words.len(), before, "an error leaves the words alone");
            let _ = e.to_string();
        }
    }
});
