//! Prints the WGSL source the front end writes for a container, then the result of
//! translating it (`cargo run -p dxref-translate --example wgsl_source -- shader.cso`).

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: wgsl_source SHADER");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&path).unwrap_or_default();
    let options = translate::Options::default();
    match translate::wgsl_source(&bytes, &options) {
        Ok(s) => println!("{s}"),
        Err(e) => println!("// {e}"),
    }
    if let Err(e) = translate::module(&bytes, &options) {
        println!("// {e}");
    }
}
