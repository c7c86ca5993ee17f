#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
//! Many listings at once: [`disassemble_many`].
//!
//! Listing a container verifies its checksum, MD5's compression function over the whole
//! blob; one stream of it cannot go much faster, and over fxc's blobs it is about a third
//! of the work of a listing. A batch computes the checksums of a window of blobs side by
//! side, one stream per lane of a vector register ([`dxbc::checksum_many`]: AVX-512,
//! AVX2 or SSE2 as the CPU has them, checked at run time, one stream at a time
//! elsewhere), then prints each listing with its checksum already known. The window is
//! a few dozen blobs, so that the blobs are still in the cache when they are printed,
//! and so that the first listing comes without waiting for the whole batch.
//!
//! ```
//! use listing::{disassemble, disassemble_many, Options};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let good = listing::asm::assemble("vs_4_0\nret \n", &Default::default()).map_err(|d| format!("{d:?}"))?.bytes;
//!     let mut bad_sum = good.clone();
//!     bad_sum[4] ^= 1;
//!     let blobs = [good.clone(), b"not a shader".to_vec(), bad_sum];
//!     let options = Options::default();
//!     // One result per blob, in order, each what `disassemble` gives for that blob.
//!     let mut results = disassemble_many(&blobs, &options);
//!     assert_eq!(results.len(), 3);
//!     assert_eq!(results.next().ok_or("a result per blob")??.text, disassemble(&good, &options)?.text);
//!     assert!(results.next().ok_or("a result per blob")?.is_err());
//!     let third = results.next().ok_or("a result per blob")??;
//!     assert!(matches!(third.warnings[..], [listing::Warning::BadChecksum { .. }]));
//!     assert!(results.next().is_none());
//!     Ok(())
//! }
//! ```

use std::iter::FusedIterator;

use dxbc::checksum::Kernel;

use crate::{disassemble_summed, Error, Listing, Options};

/// Most blobs whose checksums are computed together.
const WINDOW_BLOBS: usize = 64;

/// Most checksummed bytes in a window (once it holds a blob), so that a window of large
/// blobs is still in the cache when they are printed.
const WINDOW_BYTES: usize = 256 << 10;

/// The listings of `blobs`, in order: item `i` is what [`disassemble`](crate::disassemble)`(&blobs[i], options)`
/// gives (the same text, warnings and errors), the checksums computed several at a
/// time (see the [module](self) documentation). Nothing is computed before the first
/// item is asked for; each window of blobs is checksummed when its first listing is.
pub fn disassemble_many<'a, B: AsRef<[u8]>>(blobs: &'a [B], options: &Options) -> Batch<'a, B> {
    let window = blobs.len().min(WINDOW_BLOBS);
    Batch {
        blobs,
        options: *options,
        kernel: None,
        next: 0,
        window_start: 0,
        sums: Vec::with_capacity(window),
        covered: Vec::with_capacity(window),
    }
}

/// The iterator of [`disassemble_many`]: one `Result<Listing, Error>` per blob.
pub struct Batch<'a, B> {
    blobs: &'a [B],
    options: Options,
    /// The checksum kernel: `None` for [`dxbc::checksum_many`]'s choice.
    kernel: Option<Kernel>,
    /// The next blob to list.
    next: usize,
    /// The first blob of the window whose checksums are in `sums`.
    window_start: usize,
    /// The checksum of each blob of the window (blob `window_start + k` at `k`); `None`
    /// for a blob without a container header, which has no checksum to verify.
    sums: Vec<Option<[u32; 4]>>,
    /// The window's checksummed bytes (kept for its allocation).
    covered: Vec<&'a [u8]>,
}

impl<B> std::fmt::Debug for Batch<'_, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("blobs", &self.blobs.len())
            .field("next", &self.next)
            .field("options", &self.options)
            .field("kernel", &self.kernel)
            .finish_non_exhaustive()
    }
}

impl<'a, B: AsRef<[u8]>> Batch<'a, B> {
    /// The checksums computed with `kernel` (one stream at a time where the CPU cannot
    /// run it), rather than the widest one the CPU has. The listings do not depend on
    /// the kernel.
    #[must_use]
    pub fn kernel(mut self, kernel: Kernel) -> Self {
        self.kernel = Some(kernel);
        self
    }

    /// Computes the checksums of the window that starts at `self.next`.
    fn fill(&mut self) {
        let rest = self.blobs.get(self.next..).unwrap_or_default();
        self.covered.clear();
        self.sums.clear();
        let mut bytes = 0usize;
        for blob in rest.iter().take(WINDOW_BLOBS) {
            if bytes >= WINDOW_BYTES && !self.sums.is_empty() {
                break;
            }
            // A raw Shader Model 1-3 stream never begins with `DXBC`: `covered` is `None`.
            let covered = dxbc::checksum::covered(blob.as_ref());
            if let Some(c) = covered {
                bytes = bytes.saturating_add(c.len());
                self.covered.push(c);
            }
            self.sums.push(covered.map(|_| [0; 4]));
        }
        let computed = match self.kernel {
            None => dxbc::checksum_many(&self.covered),
            Some(k) => dxbc::checksum::checksum_many_with(k, &self.covered),
        };
        let mut computed = computed.into_iter();
        for slot in self.sums.iter_mut().flatten() {
            *slot = computed.next().unwrap_or_default();
        }
        self.window_start = self.next;
    }
}

impl<B: AsRef<[u8]>> Iterator for Batch<'_, B> {
    type Item = Result<Listing, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let blob = self.blobs.get(self.next)?.as_ref();
        let mut k = self.next.wrapping_sub(self.window_start);
        if k >= self.sums.len() {
            self.fill();
            k = 0;
        }
        let sum = self.sums.get(k).copied().flatten();
        self.next = self.next.saturating_add(1);
        // A blob with a container header has its checksum in the window; any other is
        // refused before its checksum would be looked at.
        Some(disassemble_summed(blob, &self.options, sum))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.blobs.len().saturating_sub(self.next);
        (n, Some(n))
    }
}

impl<B: AsRef<[u8]>> ExactSizeIterator for Batch<'_, B> {}

impl<B: AsRef<[u8]>> FusedIterator for Batch<'_, B> {}
