//! The example shader bundled with dxref (`examples/point_sprite_gs.dxbc`, the one the
//! README's first command disassembles) is built here from the IR: this test rebuilds
//! it and checks the committed file is exactly that, and that `dxref disasm` prints
//! the listing written beside it.
//!
//! Set `DXREF_BLESS=1` to rewrite the committed files after an intended change.

use std::path::PathBuf;

use dxbc::signature::{ComponentType, MinPrecision, SystemValue};
use dxbc::{Builder, FourCc, Signature, SignatureElement, SignatureFormat};
use tpf::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn reg(ty: OperandType, selection: Selection, indices: &[u32]) -> Operand {
    Operand::new(
        ty,
        if selection == Selection::None { ComponentCount::Zero } else { ComponentCount::Four },
        selection,
        indices,
    )
}

fn imm4(values: [f32; 4]) -> Operand {
    let mut o = Operand::new(OperandType::Immediate32, ComponentCount::Four, Selection::Mask(Mask::NONE), &[]);
    o.imm = values.map(f32::to_bits);
    o
}

/// The point-sprite geometry shader of the `quad` benchmark workload: one point in,
/// a four-vertex triangle strip out.
fn point_sprite_gs() -> Vec<u8> {
    let xyzw = Selection::Mask(Mask::XYZW);
    let swz = Selection::Swizzle([0, 1, 2, 3]);
    let mut program = Program::new(Version::new(ProgramType::Geometry, 4, 0));
    let operand = program.add_operand(reg(OperandType::Input, xyzw, &[1, 0]));
    program.push_decl(Opcode::DclInputSiv, Decl::RegisterName { operand, name: SystemName::Position, reserved: 0 });
    program.push_decl(Opcode::DclInputPrimitive, Decl::InputPrimitive(Primitive::Point));
    program.push_decl(Opcode::DclOutputTopology, Decl::OutputTopology(PrimitiveTopology::TriangleStrip));
    let operand = program.add_operand(reg(OperandType::Output, xyzw, &[0]));
    program.push_decl(Opcode::DclOutputSiv, Decl::RegisterName { operand, name: SystemName::Position, reserved: 0 });
    program.push_decl(Opcode::DclMaxOutputVertexCount, Decl::MaxOutputVertexCount(4));
    for (dx, dy) in [(-0.1, -0.1), (0.1, -0.1), (-0.1, 0.1), (0.1, 0.1)] {
        program.push_op(
            Opcode::Add,
            &[reg(OperandType::Output, xyzw, &[0]), reg(OperandType::Input, swz, &[0, 0]), imm4([dx, dy, 0.0, 0.0])],
        );
        program.push_op(Opcode::Emit, &[]);
    }
    program.push_op(Opcode::Cut, &[]);
    program.push_op(Opcode::Ret, &[]);

    let position = |used: u8| SignatureElement {
        stream: 0,
        semantic_name: "SV_Position",
        semantic_index: 0,
        system_value: SystemValue::Position,
        component_type: ComponentType::Float32,
        register: 0,
        mask: 0xf,
        rw_mask: used,
        min_precision: MinPrecision::Default,
    };
    let isgn = Signature { format: SignatureFormat::Basic, elements: vec![position(0xf)], raw_layout: None };
    let osgn = Signature { format: SignatureFormat::Basic, elements: vec![position(0)], raw_layout: None };
    Builder::new()
        .chunk(FourCc::ISGN, isgn.to_bytes())
        .chunk(FourCc::OSGN, osgn.to_bytes())
        .chunk(FourCc::SHDR, tpf::encode(&program).unwrap())
        .build()
        .unwrap()
}

#[test]
fn bundled_example_is_reproducible_and_disassembles() {
    let blob = point_sprite_gs();
    let path = root().join("examples/point_sprite_gs.dxbc");
    let listing_path = root().join("examples/point_sprite_gs.asm");
    let text = listing::disassemble(&blob, &listing::Options::default()).unwrap().text;
    if std::env::var_os("DXREF_BLESS").is_some() {
        std::fs::write(&path, &blob).unwrap();
        std::fs::write(&listing_path, &text).unwrap();
    }
    assert_eq!(std::fs::read(&path).unwrap(), blob, "examples/point_sprite_gs.dxbc is out of date (DXREF_BLESS=1)");
    assert_eq!(std::fs::read_to_string(&listing_path).unwrap(), text, "examples/point_sprite_gs.asm is out of date");

    // The tool prints the same listing.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dxref")).arg("disasm").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), text);
    assert!(text.contains("dcl_maxout 4\n") && text.contains("emit \n") && text.contains("cut \n"), "{text}");
}
