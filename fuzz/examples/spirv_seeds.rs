//! Writes seeds for the `spirv_no_contraction` target: the SPIR-V `translate` writes
//! for each container of the `translate` target's seeds (`fuzz/corpus/translate/`,
//! option byte 0), before and after its post-pass is the same module, so the seed is
//! the written module (already decorated: the pass must then add nothing).
//! `tools/fuzz-seeds.py` runs it.
//!
//!   cargo run --release --example spirv_seeds -- fuzz/corpus/translate fuzz/corpus/spirv_no_contraction

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (from, to) = (std::path::Path::new(&args[1]), std::path::Path::new(&args[2]));
    std::fs::create_dir_all(to).expect("output directory");
    let mut n = 0;
    for entry in std::fs::read_dir(from).expect("translate seeds") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("seed");
        let Some((0, blob)) = bytes.split_first() else { continue };
        let Ok(spirv) = translate::translate(blob, &translate::Options::default(), translate::Target::Spirv) else {
            continue;
        };
        let mut seed = vec![0u8];
        seed.extend_from_slice(&spirv);
        std::fs::write(to.join(path.file_name().expect("name")), seed).expect("write");
        n += 1;
    }
    println!("  spirv_no_contraction: {n} seeds");
}
