//! `listing::stat` recomputes fxc's `STAT` and `SFI0` chunks from the program: every
//! corpus blob with a `STAT` chunk is compared byte for byte, and every blob's `SFI0`
//! chunk (or its absence). Failures are printed aggregated by field, so that the
//! remaining rules are visible.

use std::collections::BTreeMap;

use listing::stat;

use dxbc::{Container, FourCc, Stat};

/// The names and values of every `STAT` word, in chunk order.
fn fields(s: &Stat<'_>) -> Vec<(&'static str, u32)> {
    let mut v = vec![
        ("instruction_count", s.instruction_count),
        ("temp_register_count", s.temp_register_count),
        ("def_count", s.def_count),
        ("dcl_count", s.dcl_count),
        ("float_instruction_count", s.float_instruction_count),
        ("int_instruction_count", s.int_instruction_count),
        ("uint_instruction_count", s.uint_instruction_count),
        ("static_flow_control_count", s.static_flow_control_count),
        ("dynamic_flow_control_count", s.dynamic_flow_control_count),
        ("macro_instruction_count", s.macro_instruction_count),
        ("temp_array_count", s.temp_array_count),
        ("array_instruction_count", s.array_instruction_count),
        ("cut_instruction_count", s.cut_instruction_count),
        ("emit_instruction_count", s.emit_instruction_count),
        ("texture_normal_instructions", s.texture_normal_instructions),
        ("texture_load_instructions", s.texture_load_instructions),
        ("texture_comp_instructions", s.texture_comp_instructions),
        ("texture_bias_instructions", s.texture_bias_instructions),
        ("texture_gradient_instructions", s.texture_gradient_instructions),
        ("mov_instruction_count", s.mov_instruction_count),
        ("movc_instruction_count", s.movc_instruction_count),
        ("conversion_instruction_count", s.conversion_instruction_count),
        ("bitwise_instruction_count", s.bitwise_instruction_count),
        ("input_primitive", s.input_primitive.into()),
        ("gs_output_topology", s.gs_output_topology.into()),
        ("gs_max_output_vertex_count", s.gs_max_output_vertex_count),
        ("gather_instructions", s.gather_instructions),
        ("lod_instructions", s.lod_instructions),
        ("sample_frequency", s.sample_frequency),
    ];
    if let Some(m) = &s.sm5 {
        v.extend([
            ("gs_instance_count", m.gs_instance_count),
            ("control_points", m.control_points),
            ("hs_output_primitive", m.hs_output_primitive.into()),
            ("hs_partitioning", m.hs_partitioning.into()),
            ("tessellator_domain", m.tessellator_domain.into()),
            ("barrier_instructions", m.barrier_instructions),
            ("interlocked_instructions", m.interlocked_instructions),
            ("texture_store_instructions", m.texture_store_instructions),
        ]);
    }
    v
}

/// The compiler family of a blob, for grouping (`9.29`, `9.30`, `10`).
fn family(version: tpf::CompilerVersion) -> &'static str {
    match stat::Rules::for_compiler(version) {
        stat::Rules::Fxc929 => "fxc 9.29",
        stat::Rules::Fxc930 => "fxc 9.30",
        stat::Rules::Fxc10 => "fxc 10",
    }
}

#[test]
fn stat_matches_fxc() {
    let Some(entries) = corpus::dxbc_entries("stat_matches_fxc") else {
        return;
    };
    let verbose = std::env::var_os("DXREF_STAT_VERBOSE").is_some();
    let mut total = 0;
    let mut exact = 0;
    let mut per_family: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    // Level9 blobs (with an `Aon9` chunk) are counted from their Shader Model 4 program.
    let (mut level9, mut level9_exact) = (0, 0);
    // field -> (blobs wrong, examples)
    let mut wrong: BTreeMap<&str, (u32, Vec<String>)> = BTreeMap::new();
    // Every entry's result (`exact`, or the compiler family and the fields that
    // differ), checked against tests/expect/stat.txt.
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    for e in &entries {
        let bytes = e.bytes();
        let container = Container::parse(&bytes).expect("corpus container");
        let Some(chunk) = container.chunk(FourCc::STAT) else {
            outcomes.insert(e.id(), "no STAT".to_string());
            continue;
        };
        let shex = container.chunk_any(&[FourCc::SHEX, FourCc::SHDR]).expect("program chunk");
        let program = tpf::decode(shex.data).expect("corpus program");
        let version = listing::header::style_for(&container).version;
        let got = stat::statistics(&program, version);
        let fam = family(version);
        total += 1;
        let entry = per_family.entry(fam).or_default();
        entry.0 += 1;
        let is_level9 = container.chunk(FourCc::AON9).is_some();
        level9 += is_level9 as u32;
        if got.to_bytes() == chunk.data {
            exact += 1;
            entry.1 += 1;
            level9_exact += is_level9 as u32;
            outcomes.insert(e.id(), "exact".to_string());
            continue;
        }
        let expected = Stat::parse(chunk.data).expect("corpus STAT");
        let (ef, gf) = (fields(&expected), fields(&got));
        assert_eq!(ef.len(), gf.len(), "{}: STAT form", e.id());
        let mut differ = Vec::new();
        for ((name, want), (_, have)) in ef.into_iter().zip(gf) {
            if want != have {
                differ.push(format!("{name} {want} not {have}"));
                let w = wrong.entry(name).or_default();
                w.0 += 1;
                w.1.push(format!("{} ({fam}, {}): expected {want}, got {have}", e.id(), e.profile));
            }
        }
        outcomes.insert(e.id(), format!("{fam} differs: {}", differ.join(", ")));
    }
    println!("STAT: {exact}/{total} byte for byte");
    for (fam, (n, ok)) in &per_family {
        println!("  {fam}: {ok}/{n}");
    }
    println!("  of which Level9 (Aon9): {level9_exact}/{level9}");
    for (field, (n, examples)) in &wrong {
        println!("  {field}: {n} blobs differ");
        let shown = if verbose { examples.len() } else { 3 };
        for ex in examples.iter().take(shown) {
            println!("      {ex}");
        }
    }
    // fxc 9.x blobs that still differ count parts of their HLSL source the bytecode
    // does not keep (see the module documentation).
    assert_eq!(level9_exact, level9);
    corpus::expect::check(corpus::expect_file!("stat.txt"), &outcomes);
}

#[test]
fn sfi0_matches_fxc() {
    let Some(entries) = corpus::dxbc_entries("sfi0_matches_fxc") else {
        return;
    };
    let mut total = 0;
    let mut exact = 0;
    let mut with_chunk = 0;
    let mut failures = Vec::new();
    for e in &entries {
        let bytes = e.bytes();
        let container = Container::parse(&bytes).expect("corpus container");
        let Some(shex) = container.chunk_any(&[FourCc::SHEX, FourCc::SHDR]) else { continue };
        let program = tpf::decode(shex.data).expect("corpus program");
        let version = listing::header::style_for(&container).version;
        let expected = container.chunk(FourCc::SFI0).map(|c| c.data.to_vec());
        with_chunk += expected.is_some() as u32;
        let got = stat::features(&program, version).map(|s| s.to_bytes());
        total += 1;
        if got == expected {
            exact += 1;
        } else {
            failures.push(format!("{}: expected {expected:?}, got {got:?}", e.id()));
        }
    }
    println!("SFI0: {exact}/{total} blobs agree ({with_chunk} have the chunk)");
    for f in &failures {
        println!("  {f}");
    }
    assert_eq!(exact, total, "SFI0: {exact}/{total}");
    assert_eq!(with_chunk, 5);
}

// ---------------------------------------------------------------------------------
// Programs fxc never wrote: every rule must hold up on odd and hand-written input.

use tpf::{
    Body, CompilerVersion, ComponentCount, Decl, ExtOperand, GlobalFlags, Mask, MinPrecision, Modifier, OpControl,
    Opcode, Operand, OperandId, OperandType, Program, ProgramType, Selection, SystemName, Test, UavFlags, Version,
};

const FXC_929: CompilerVersion = CompilerVersion(9, 29, 952, 3111);
const FXC_930: CompilerVersion = CompilerVersion(9, 30, 9200, 20499);
const FXC_10: CompilerVersion = CompilerVersion::LATEST;

fn reg(ty: OperandType, n: u32, mask: u8) -> Operand {
    Operand::new(ty, ComponentCount::Four, Selection::Mask(Mask(mask)), &[n])
}

fn src(ty: OperandType, indices: &[u32], c: u8) -> Operand {
    Operand::new(ty, ComponentCount::Four, Selection::Select1(c), indices)
}

fn imm(v: u32) -> Operand {
    let mut o = Operand::new(OperandType::Immediate32, ComponentCount::One, Selection::None, &[]);
    o.imm[0] = v;
    o
}

/// One instruction, as a program of its own (see [`program`]).
fn part() -> Program<'static> {
    Program::new(Version::new(ProgramType::Vertex, 4, 0))
}

fn op(opcode: Opcode, operands: Vec<Operand>) -> Program<'static> {
    let control = match opcode.info().controls {
        tpf::table::Controls::Test => OpControl::Test(Test::NonZero),
        _ => OpControl::None,
    };
    let mut p = part();
    if let Body::Op(op) = &mut p.push_op(opcode, &operands).body {
        op.control = control;
    }
    p
}

fn decl(opcode: Opcode, d: Decl) -> Program<'static> {
    let mut p = part();
    p.push_decl(opcode, d);
    p
}

/// A declaration of `operand`.
fn decl_of(opcode: Opcode, operand: Operand, d: impl FnOnce(OperandId) -> Decl) -> Program<'static> {
    let mut p = part();
    let id = p.add_operand(operand);
    p.push_decl(opcode, d(id));
    p
}

fn program(ty: ProgramType, major: u8, instructions: Vec<Program<'static>>) -> Program<'static> {
    let mut p = Program::new(Version::new(ty, major, 0));
    for part in &instructions {
        p.append(part);
    }
    p
}

#[test]
fn branches_on_constants_are_static_for_fxc_9() {
    use OperandType::*;
    // if_nz cb0[0].x / mov r0.x, v0.x / endif / if_nz r0.x / endif / ret
    let p = program(
        ProgramType::Pixel,
        4,
        vec![
            decl(Opcode::DclTemps, Decl::Temps(1)),
            op(Opcode::If, vec![src(ConstantBuffer, &[0, 0], 0)]),
            op(Opcode::Mov, vec![reg(Temp, 0, 1), src(Input, &[0], 0)]),
            op(Opcode::EndIf, vec![]),
            op(Opcode::If, vec![src(Temp, &[0], 0)]),
            op(Opcode::EndIf, vec![]),
            op(Opcode::Ret, vec![]),
        ],
    );
    let old = stat::statistics(&p, FXC_929);
    assert_eq!((old.static_flow_control_count, old.dynamic_flow_control_count), (2, 1));
    let new = stat::statistics(&p, FXC_10);
    assert_eq!((new.static_flow_control_count, new.dynamic_flow_control_count), (1, 2));
    assert_eq!(new.instruction_count, 6);
    assert_eq!(new.mov_instruction_count, 1);
    assert_eq!(new.temp_register_count, 1);
    assert!(new.sm5.is_none());
    // fxc 9.30 counts the main function's return copy as one more move.
    assert_eq!(stat::statistics(&p, FXC_930).mov_instruction_count, 2);
}

#[test]
fn moves_with_modifiers_and_loops() {
    use OperandType::*;
    let mut neg = src(Temp, &[0], 0);
    neg.set_ext(Some(ExtOperand::modifier(Modifier::Neg)));
    let mut low = reg(Temp, 1, 1);
    low.set_ext(Some(ExtOperand { min_precision: MinPrecision::Float16, ..ExtOperand::modifier(Modifier::None) }));
    let p = program(
        ProgramType::Compute,
        5,
        vec![
            op(Opcode::Mov, vec![reg(Temp, 0, 1), imm(0)]),
            op(Opcode::Loop, vec![]),
            op(Opcode::Ige, vec![reg(Temp, 2, 1), src(Temp, &[0], 0), imm(4)]),
            op(Opcode::Breakc, vec![src(Temp, &[2], 0)]),
            op(Opcode::Mov, vec![reg(Temp, 1, 1), neg]),
            op(Opcode::Add, vec![low, src(Temp, &[1], 0), src(Temp, &[1], 0)]),
            op(Opcode::Iadd, vec![reg(Temp, 0, 1), src(Temp, &[0], 0), imm(1)]),
            op(Opcode::Udiv, vec![reg(Temp, 3, 1), reg(Temp, 4, 1), src(Temp, &[0], 0), imm(3)]),
            op(Opcode::EndLoop, vec![]),
            op(Opcode::Ret, vec![]),
        ],
    );
    let s = stat::statistics(&p, FXC_10);
    // The loop is one dynamic flow control; its counted exit test is not counted.
    assert_eq!((s.static_flow_control_count, s.dynamic_flow_control_count), (1, 1));
    // A negating move is float arithmetic; min-precision arithmetic is not counted.
    assert_eq!((s.mov_instruction_count, s.float_instruction_count), (1, 1));
    // `ige`, `iadd`; `udiv` with both results is counted nowhere.
    assert_eq!((s.int_instruction_count, s.uint_instruction_count), (2, 0));
    assert!(s.sm5.is_some());
}

#[test]
fn feature_flags_from_declarations_and_instructions() {
    use OperandType::*;
    let flags = |p: &Program<'_>, c: CompilerVersion| stat::features(p, c).map_or(0, |s| s.features.0);
    let uav = |n: u32| {
        decl_of(
            Opcode::DclUavRaw,
            Operand::new(UnorderedAccessView, ComponentCount::Zero, Selection::None, &[n]),
            |operand| Decl::UavRaw { operand, flags: UavFlags::default(), space: None },
        )
    };
    // Nothing needed: no chunk.
    let plain = program(ProgramType::Pixel, 5, vec![op(Opcode::Ret, vec![])]);
    assert!(stat::features(&plain, FXC_10).is_none());
    // A UAV in a vertex shader, past slot 7.
    let vs = program(ProgramType::Vertex, 5, vec![uav(9), op(Opcode::Ret, vec![])]);
    assert_eq!(flags(&vs, FXC_10), 0x4 | 0x8);
    // A rasterizer-ordered UAV in a pixel shader.
    let mut rov = uav(1);
    if let Body::Decl(Decl::UavRaw { flags, .. }) = &mut rov.instructions[0].body {
        flags.rasterizer_ordered = true;
    }
    assert_eq!(flags(&program(ProgramType::Pixel, 5, vec![rov]), FXC_10), 0x1000);
    // Stencil reference output; render-target array index from a vertex shader.
    let stencil = decl_of(
        Opcode::DclOutput,
        Operand::new(OutputStencilRef, ComponentCount::One, Selection::None, &[]),
        Decl::Register,
    );
    assert_eq!(flags(&program(ProgramType::Pixel, 5, vec![stencil]), FXC_10), 0x200);
    let rt_index = decl_of(Opcode::DclOutputSiv, reg(Output, 1, 1), |operand| Decl::RegisterName {
        operand,
        name: SystemName::RenderTargetArrayIndex,
        reserved: 0,
    });
    assert_eq!(flags(&program(ProgramType::Vertex, 5, vec![rt_index.clone()]), FXC_10), 0x2000);
    assert_eq!(flags(&program(ProgramType::Geometry, 5, vec![rt_index]), FXC_10), 0);
    // Doubles and the 11.1 double extensions; msad; global flags.
    let ddiv = op(Opcode::Ddiv, vec![reg(Temp, 0, 3), src(Temp, &[1], 0), src(Temp, &[2], 0)]);
    assert_eq!(flags(&program(ProgramType::Compute, 5, vec![ddiv]), FXC_10), 0x1 | 0x20);
    let msad = op(Opcode::Msad, vec![reg(Temp, 0, 1), src(Temp, &[1], 0), src(Temp, &[2], 0), src(Temp, &[3], 0)]);
    assert_eq!(flags(&program(ProgramType::Compute, 5, vec![msad]), FXC_10), 0x40);
    let min = decl(Opcode::DclGlobalFlags, Decl::GlobalFlags(GlobalFlags(GlobalFlags::ENABLE_MINIMUM_PRECISION)));
    assert_eq!(flags(&program(ProgramType::Pixel, 5, vec![min]), FXC_930), 0x10);
    // Shader Model 4: d3dcompiler_47 writes no flag for a cs_4_0 (tests/microsoft/
    // cs40_raw_structured.bin), and bit 1 for a vs_4_0 whose global flags say
    // `enableRawAndStructuredBuffers` (tests/microsoft/vs40_structured.bin).
    assert_eq!(flags(&program(ProgramType::Compute, 4, vec![]), FXC_10), 0);
    let raw =
        decl(Opcode::DclGlobalFlags, Decl::GlobalFlags(GlobalFlags(GlobalFlags::ENABLE_RAW_AND_STRUCTURED_BUFFERS)));
    assert_eq!(flags(&program(ProgramType::Vertex, 4, vec![raw]), FXC_10), 0x2);
}

#[test]
fn unbalanced_and_mutated_programs_never_panic() {
    use OperandType::*;
    // Flow markers out of place, registers past any declaration, relative indices.
    let odd = program(
        ProgramType::Hull,
        5,
        vec![
            op(Opcode::EndIf, vec![]),
            op(Opcode::Else, vec![]),
            op(Opcode::EndLoop, vec![]),
            op(Opcode::Case, vec![imm(1)]),
            op(Opcode::EndSwitch, vec![]),
            op(Opcode::Break, vec![]),
            op(Opcode::Continuec, vec![src(Temp, &[u32::MAX], 3)]),
            op(Opcode::HsForkPhase, vec![]),
            op(Opcode::Loop, vec![]),
            op(Opcode::If, vec![src(Input, &[0], 0)]),
            op(Opcode::Mov, vec![reg(IndexableTemp, 7, 15), src(Temp, &[3], 1)]),
            op(Opcode::Loop, vec![]),
            op(Opcode::Retc, vec![src(Temp, &[0], 0)]),
        ],
    );
    for c in [FXC_929, FXC_930, FXC_10] {
        let s = stat::statistics(&odd, c);
        assert!(s.instruction_count > 0);
        let _ = stat::features(&odd, c);
    }
    let Some(entries) = corpus::dxbc_entries("unbalanced_and_mutated_programs_never_panic") else {
        return;
    };
    let mut rng = corpus::Rng(0x9e37_79b9_7f4a_7c15);
    let (mut counted, mut refused) = (0, 0);
    for e in &entries {
        let bytes = e.bytes();
        let Ok(container) = Container::parse(&bytes) else { continue };
        let Some(chunk) = container.chunk_any(&[FourCc::SHEX, FourCc::SHDR]) else { continue };
        for _ in 0..8 {
            let mut m = chunk.data.to_vec();
            for _ in 0..1 + rng.below(4) {
                if m.len() < 12 {
                    break;
                }
                let i = 8 + rng.below((m.len() - 8) / 4) * 4;
                match rng.below(3) {
                    0 => m[i + rng.below(4)] ^= 1 << rng.below(8),
                    1 => m[i..i + 4].copy_from_slice(&(rng.below(240) as u32).to_le_bytes()),
                    _ => m.truncate(i),
                }
            }
            match tpf::decode(&m) {
                Ok(p) => {
                    counted += 1;
                    for c in [FXC_929, FXC_930, FXC_10] {
                        let s = stat::statistics(&p, c);
                        assert_eq!(Stat::parse(&s.to_bytes()).as_ref(), Ok(&s));
                        let _ = stat::features(&p, c);
                    }
                }
                Err(_) => refused += 1,
            }
        }
    }
    println!("mutated programs: {counted} counted, {refused} refused by the decoder");
    assert!(counted > 500);
}
