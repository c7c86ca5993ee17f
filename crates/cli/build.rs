//! Links the `dxref` executable (on Linux with glibc) as a position-dependent
//! executable.
//!
//! Why: a position-independent executable is relocated by the dynamic loader at every
//! start, and the tables of the library crates (instruction tables, names, rules: some
//! 5,700 pointers) make that 75,000 instructions and 37 copy-on-write page faults of
//! the 1.3 ms a `dxref disasm one.bin` process takes (measured with callgrind and `perf
//! stat`). A tool started once per file in scripts pays that each time. The code is
//! compiled position-independent as usual; only the executable's load address is fixed
//! (shared libraries, heap and stack are still placed at random). Set
//! `DXREF_PIE=1` when building to keep the default. A static build (`RUSTFLAGS="-C
//! target-feature=+crt-static"`, a static PIE with no loader work at all) is left as it
//! is.

fn main() {
    println!("cargo:rerun-if-env-changed=DXREF_PIE");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // A static build (`-C target-feature=+crt-static`) is a static PIE: leave it be.
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let static_crt = features.split(',').any(|f| f == "crt-static");
    if os == "linux" && env == "gnu" && !static_crt && std::env::var_os("DXREF_PIE").is_none() {
        println!("cargo:rustc-link-arg-bin=dxref=-no-pie");
    }
}
