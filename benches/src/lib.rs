//! Benchmarks live in `benches/benches/`.

#![warn(missing_docs)]
