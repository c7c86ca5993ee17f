//! `d3dbc::print::Printer` allocates nothing per instruction beyond the output
//! string's own growth: with the string's capacity reserved, printing every corpus
//! program (raw and Level9) makes no allocation.

#[global_allocator]
static GLOBAL: corpus::CountingAllocator = corpus::CountingAllocator;

#[test]
fn printing_instructions_allocates_nothing() {
    let Some(entries) = corpus::entries("printing_instructions_allocates_nothing") else { return };
    let mut programs = Vec::new();
    for e in &entries {
        let bytes = e.bytes();
        if e.container == corpus::Container::D3dbc {
            programs.push(bytes);
        } else if e.is_level9() {
            let c = dxbc::Container::parse(&bytes).unwrap();
            let chunk = c.chunk(dxbc::FourCc(*b"Aon9")).unwrap();
            programs.push(dxbc::aon9::Aon9::parse(chunk.data).unwrap().program.to_vec());
        }
    }
    let mut n = 0;
    for bytes in &programs {
        let program = d3dbc::decode(bytes).unwrap();
        let mut out = String::with_capacity(1 << 16);
        let before = corpus::allocations();
        let mut p = d3dbc::print::Printer::new(program.version);
        p.version_line(&mut out);
        for ins in program.instructions() {
            p.instruction(ins, &mut out);
            n += 1;
        }
        let after = corpus::allocations();
        assert!(out.len() < 1 << 16);
        assert_eq!(after, before, "printing allocated");
        // With every column and hexadecimal `def` values (the disassembly flags).
        out.clear();
        let all = d3dbc::print::Format { numbering: true, offsets: true, hex_literals: true };
        let before = corpus::allocations();
        let mut p = d3dbc::print::Printer::with_format(program.version, all);
        p.version_line(&mut out);
        for (i, ins) in program.instructions().enumerate() {
            p.instruction_at(ins, 4 * i as u32, &mut out);
        }
        let after = corpus::allocations();
        assert!(out.len() < 1 << 16);
        assert_eq!(after, before, "printing with the disassembly flags allocated");
    }
    println!("{n} instructions of {} programs printed without allocating", programs.len());
    assert!(n > 1000);
}
