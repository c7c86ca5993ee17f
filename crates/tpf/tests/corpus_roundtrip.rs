//! Every SM4/5 program in the fxc corpus decodes and re-encodes to identical bytes.

mod common;
use common::shader_chunk;

#[test]
fn corpus_programs_round_trip() {
    let Some(entries) = corpus::dxbc_entries("corpus_programs_round_trip") else {
        return;
    };
    let (mut ok, mut total) = (0, 0);
    let mut failures = Vec::new();
    let mut odd: Vec<String> = Vec::new();
    let mut padded = 0;
    for e in &entries {
        let blob = e.bytes();
        let code = shader_chunk(&blob).expect("every corpus blob has a shader chunk");
        total += 1;
        match tpf::decode(code) {
            Ok(program) => {
                // Fxc's programs set no bits outside the defined fields. (fxc pads
                // some instructions, e.g. `samplepos`, with a token after the last
                // operand; those are kept as `trailing` and only counted here.)
                for ins in &program.instructions {
                    if ins.reserved != 0 {
                        odd.push(format!("{}: {:?} has reserved bits {:#x}", e.id(), ins.opcode, ins.reserved));
                    }
                    if ins.trailing.is_some() {
                        padded += 1;
                    }
                }
                match tpf::encode(&program) {
                    Ok(bytes) if bytes == code[..bytes.len().min(code.len())] && bytes.len() == code.len() => ok += 1,
                    Ok(bytes) => {
                        let at =
                            bytes.iter().zip(code).position(|(a, b)| a != b).unwrap_or(bytes.len().min(code.len()));
                        failures.push(format!(
                            "{}: re-encoded bytes differ at byte {at} ({} vs {} bytes)",
                            e.id(),
                            bytes.len(),
                            code.len()
                        ))
                    }
                    Err(err) => failures.push(format!("{}: encode: {err}", e.id())),
                }
            }
            Err(err) => failures.push(format!("{}: decode: {err}", e.id())),
        }
    }
    println!("SM4/5 program round trip: {ok}/{total} ({padded} instructions carry padding tokens)");
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    assert!(odd.is_empty(), "{odd:#?}");
    assert_eq!(ok, total, "{} programs failed to round-trip", total - ok);
}
