//! The decoder's operand numbering rests on two facts about the instruction table and
//! the declaration layouts (`Operands::begin` in `decode.rs` clamps an instruction's
//! own operands to `MAX_OPERANDS`, and a declaration's operand takes id 0): every
//! instruction row has at most `MAX_OPERANDS` operands, and every declaration layout
//! has at most one operand token. If a new row or layout breaks either, this fails
//! (instead of operand ids silently pointing at the wrong operands).

use tpf::layout::DeclToken;
use tpf::table::{Shape, TABLE};
use tpf::MAX_OPERANDS;

#[test]
fn every_instruction_row_fits_max_operands() {
    let over: Vec<_> = TABLE
        .iter()
        .filter(|row| row.shape == Shape::Ops && row.operand_count() > MAX_OPERANDS)
        .map(|row| (row.mnemonic, row.operand_count()))
        .collect();
    assert!(over.is_empty(), "rows with more than {MAX_OPERANDS} operands: {over:?}");
    // The bound is used, not vacuous: the widest row is close to it.
    let widest = TABLE.iter().filter(|r| r.shape == Shape::Ops).map(|r| r.operand_count()).max().unwrap_or(0);
    assert!((4..=MAX_OPERANDS).contains(&widest), "widest row: {widest}");
}

#[test]
fn every_declaration_layout_has_at_most_one_operand() {
    let mut decls = 0usize;
    for row in TABLE {
        if let Shape::Decl(kind) = row.shape {
            decls += 1;
            let operands = kind.layout().tokens.iter().filter(|t| matches!(t, DeclToken::Operand)).count();
            assert!(operands <= 1, "{}: {operands} operand tokens in its layout", row.mnemonic);
        }
    }
    assert!(decls > 30, "only {decls} declaration rows");
}
