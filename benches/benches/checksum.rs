//! The DXBC checksum's throughput, in bytes of checksummed data per second, on one core.
//!
//! Single stream, on the same bytes in the same run:
//!
//! - `single/*/dxref`: `dxbc::checksum_of` (its own MD5 compression function, Microsoft's
//!   padding);
//! - `single/*/md5_crate`: the `md-5` crate's compression function over the same whole
//!   blocks in one call, then the same padding blocks (what the checksum used before);
//! - `single/*/openssl`: OpenSSL's MD5 (`MD5_Init`, `MD5_Update`, `MD5_Final` of the
//!   system's `libcrypto.so.3`, loaded at run time) over the same bytes. Its padding
//!   differs from Microsoft's but, like it, adds one or two blocks. Skipped with a message
//!   where the library cannot be loaded.
//!
//! each on `corpus` (every corpus blob's checksummed bytes, one call per blob) and on
//! `1mib` (one buffer of 1 MiB).
//!
//! Many streams, on the corpus blobs: `many/corpus/single_stream` (one `checksum_of` per
//! blob) against `many/corpus/<kernel>` (`dxbc::checksum::checksum_many_with`, for each
//! kernel this CPU can run: SSE2, AVX2, AVX-512).
//!
//! The corpus is read from `$DXREF_CORPUS` or `../shared/corpus`; without it the corpus
//! benchmarks are skipped with a message. Run on one core: `taskset -c 1 cargo bench
//! --bench checksum`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dxbc::checksum::{self, Kernel};
use std::hint::black_box;

/// The checksummed bytes of every corpus blob: all but the first 20.
fn corpus_data() -> Option<Vec<Vec<u8>>> {
    let entries = corpus::dxbc_entries("benchmarks")?;
    Some(entries.iter().map(|e| e.bytes()[dxbc::CHECKSUM_START..].to_vec()).collect())
}

/// Microsoft's checksum with the `md-5` crate's compression function: all whole blocks
/// in one call, then the padding.
fn md5_crate_checksum(data: &[u8]) -> [u32; 4] {
    let mut state = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    let (whole, tail) = data.as_chunks::<64>();
    md5::block_api::compress(&mut state, whole);
    let bits = (data.len() as u32).wrapping_mul(8);
    let last_word = ((bits >> 2) | 1).to_le_bytes();
    let mut pad = [[0u8; 64]; 2];
    let n = if tail.len() < 56 {
        pad[0][..4].copy_from_slice(&bits.to_le_bytes());
        pad[0][4..4 + tail.len()].copy_from_slice(tail);
        pad[0][4 + tail.len()] = 0x80;
        pad[0][60..].copy_from_slice(&last_word);
        1
    } else {
        pad[0][..tail.len()].copy_from_slice(tail);
        pad[0][tail.len()] = 0x80;
        pad[1][..4].copy_from_slice(&bits.to_le_bytes());
        pad[1][60..].copy_from_slice(&last_word);
        2
    };
    md5::block_api::compress(&mut state, &pad[..n]);
    state
}

/// OpenSSL's MD5, through the symbols of `libcrypto.so.3`.
struct OpenSsl {
    init: unsafe extern "C" fn(*mut u8) -> i32,
    update: unsafe extern "C" fn(*mut u8, *const u8, usize) -> i32,
    finish: unsafe extern "C" fn(*mut u8, *mut u8) -> i32,
    _lib: libloading::Library,
}

impl OpenSsl {
    fn load() -> Result<OpenSsl, libloading::Error> {
        // SAFETY: loading libcrypto runs its initialisers, which have no preconditions;
        // the three symbols have these C signatures in OpenSSL 3 (`openssl/md5.h`:
        // `int MD5_Init(MD5_CTX *)`, `int MD5_Update(MD5_CTX *, const void *, size_t)`,
        // `int MD5_Final(unsigned char *md, MD5_CTX *)`), and the library is kept alive
        // with the pointers.
        unsafe {
            let lib = libloading::Library::new("libcrypto.so.3")?;
            let init = *lib.get(b"MD5_Init\0")?;
            let update = *lib.get(b"MD5_Update\0")?;
            let finish = *lib.get(b"MD5_Final\0")?;
            Ok(OpenSsl { init, update, finish, _lib: lib })
        }
    }

    fn md5(&self, data: &[u8]) -> [u8; 16] {
        // `MD5_CTX` is 92 bytes with 4-byte alignment; this is larger and 8-aligned.
        let mut ctx = [0u64; 16];
        let mut out = [0u8; 16];
        let ctx_ptr = ctx.as_mut_ptr().cast::<u8>();
        // SAFETY: `ctx` is larger than an `MD5_CTX` and suitably aligned, `data` is
        // readable for its length, `out` holds the 16 bytes of the digest.
        unsafe {
            (self.init)(ctx_ptr);
            (self.update)(ctx_ptr, data.as_ptr(), data.len());
            (self.finish)(out.as_mut_ptr(), ctx_ptr);
        }
        out
    }
}

fn single_stream(c: &mut Criterion) {
    let openssl = match OpenSsl::load() {
        Ok(o) => {
            assert_eq!(o.md5(b"abc"), *b"\x90\x01\x50\x98\x3c\xd2\x4f\xb0\xd6\x96\x3f\x7d\x28\xe1\x7f\x72");
            Some(o)
        }
        Err(e) => {
            eprintln!("SKIP checksum/single/*/openssl: cannot load libcrypto.so.3 ({e})");
            None
        }
    };
    let mut inputs: Vec<(&str, Vec<Vec<u8>>)> = Vec::new();
    match corpus_data() {
        Some(blobs) => inputs.push(("corpus", blobs)),
        None => eprintln!("SKIP checksum/single/corpus: no corpus"),
    }
    inputs.push(("1mib", vec![(0..1usize << 20).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect()]));
    for (name, blobs) in &inputs {
        for b in blobs {
            assert_eq!(dxbc::checksum_of(b), md5_crate_checksum(b));
        }
        let bytes: usize = blobs.iter().map(Vec::len).sum();
        let mut g = c.benchmark_group(format!("single/{name}"));
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function("dxref", |b| b.iter(|| blobs.iter().map(|d| dxbc::checksum_of(black_box(d))[0]).sum::<u32>()));
        g.bench_function("md5_crate", |b| {
            b.iter(|| blobs.iter().map(|d| md5_crate_checksum(black_box(d))[0]).sum::<u32>())
        });
        if let Some(o) = &openssl {
            g.bench_function("openssl", |b| {
                b.iter(|| blobs.iter().map(|d| o.md5(black_box(d))[0] as u32).sum::<u32>())
            });
        }
        g.finish();
    }
}

fn many_streams(c: &mut Criterion) {
    let Some(blobs) = corpus_data() else {
        eprintln!("SKIP checksum/many: no corpus");
        return;
    };
    let refs: Vec<&[u8]> = blobs.iter().map(Vec::as_slice).collect();
    let expected: Vec<[u32; 4]> = refs.iter().map(|d| dxbc::checksum_of(d)).collect();
    let bytes: usize = refs.iter().map(|d| d.len()).sum();
    let mut g = c.benchmark_group("many/corpus");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("single_stream", |b| {
        b.iter(|| refs.iter().map(|d| dxbc::checksum_of(black_box(d))).collect::<Vec<_>>())
    });
    for k in Kernel::ALL.into_iter().filter(|k| *k != Kernel::Scalar) {
        if !k.is_available() {
            eprintln!("SKIP checksum/many/corpus/{k:?}: this CPU cannot run it");
            continue;
        }
        assert_eq!(checksum::checksum_many_with(k, &refs), expected, "{k:?}");
        g.bench_function(format!("{k:?}").to_lowercase(), |b| {
            b.iter(|| checksum::checksum_many_with(k, black_box(&refs)))
        });
    }
    g.finish();
}

criterion_group!(checksum_benches, single_stream, many_streams);
criterion_main!(checksum_benches);
