//! Review of the Direct3D 9 rules: the operand types of the flow-control instructions.
//! The flow walk classifies `if`/`callnz` by their operand (`if b#` is "if bool", `if p0`
//! is "if pred"), so an `if r0.x` must not pass as an `if bool`. Microsoft's pages:
//! `if b#` / `if [!]pred`; `callnz l#, b#` / `callnz l#, [!]p0`; `rep i#`; `loop aL, i#`;
//! `breakp [!]p0`; `setp_comp`'s "dst is the Predicate Register, p0"; integer constants
//! "are used only by loop and rep"; boolean constants are "used in static flow control
//! instructions"; and a predicated instruction "cannot be a static or dynamic flow
//! control instruction".

use validate::{validate, Code, Target};

fn report(text: &str) -> validate::Report {
    let bytes = d3dbc::parse::assemble(text).unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{text}"));
    validate(&bytes, &Target::d3d9())
}

fn refused_with(text: &str, code: Code, index: usize) {
    let r = report(text);
    let hit = r.diagnostics.iter().any(|d| {
        d.code == code && matches!(d.location, validate::Location::Instruction { index: i, .. } if i == index)
    });
    assert!(hit, "expected {code} at instruction {index} for\n{text}\ngot {:#?}", r.diagnostics);
}

fn valid(text: &str) {
    let r = report(text);
    assert!(r.is_valid(), "expected valid:\n{text}\ngot {:#?}", r.diagnostics);
}

#[test]
fn if_takes_a_boolean_constant_or_the_predicate() {
    valid("vs_3_0\nif b0\nendif\n");
    valid("vs_3_0\nsetp_gt p0, c0, r1\nif p0.x\nendif\n");
    valid("vs_3_0\nsetp_gt p0, c0, r1\nif !p0.y\nendif\n");
    for reg in ["r0.x", "c0.x", "i0"] {
        refused_with(&format!("vs_3_0\nif {reg}\nendif\n"), Code::D3d9RegisterType, 0);
        refused_with(&format!("ps_3_0\nif {reg}\nendif\n"), Code::D3d9RegisterType, 0);
    }
    refused_with("vs_2_0\nif c0.x\nendif\n", Code::D3d9RegisterType, 0);
}

#[test]
fn callnz_takes_a_boolean_constant_or_the_predicate() {
    valid("vs_3_0\ncallnz l0, b0\nret\nlabel l0\nret\n");
    valid("vs_3_0\nsetp_gt p0, c0, r1\ncallnz l0, p0.x\nret\nlabel l0\nret\n");
    refused_with("vs_3_0\ncallnz l0, r0.x\nret\nlabel l0\nret\n", Code::D3d9RegisterType, 0);
    refused_with("vs_2_0\ncallnz l0, c0.x\nret\nlabel l0\nret\n", Code::D3d9RegisterType, 0);
}

#[test]
fn rep_and_loop_take_an_integer_constant() {
    valid("vs_3_0\nrep i0\nendrep\nloop aL, i1\nendloop\n");
    refused_with("vs_3_0\nrep c0\nendrep\n", Code::D3d9RegisterType, 0);
    refused_with("vs_3_0\nrep r0.x\nendrep\n", Code::D3d9RegisterType, 0);
    refused_with("vs_3_0\nloop aL, c0\nendloop\n", Code::D3d9RegisterType, 0);
    refused_with("ps_3_0\nrep b0\nendrep\n", Code::D3d9RegisterType, 0);
}

#[test]
fn breakp_takes_the_predicate_and_setp_writes_it() {
    valid("vs_3_0\nsetp_gt p0, c0, r1\nrep i0\nbreakp p0.x\nendrep\n");
    refused_with("vs_3_0\nrep i0\nbreakp r0.x\nendrep\n", Code::D3d9RegisterType, 1);
    refused_with("vs_3_0\nsetp_gt r0, c0, c1\n", Code::D3d9RegisterType, 0);
    refused_with("ps_3_0\nsetp_gt r0, c0, c1\n", Code::D3d9RegisterType, 0);
}

#[test]
fn integer_and_boolean_constants_only_in_flow_control() {
    refused_with("vs_3_0\nmov r0, b0\n", Code::D3d9RegisterType, 0);
    refused_with("vs_3_0\nadd r0, i0, c0\n", Code::D3d9RegisterType, 0);
    refused_with("vs_3_0\nif_gt i0.x, c0.x\nendif\n", Code::D3d9RegisterType, 0);
    refused_with("vs_3_0\nsetp_gt p0, b0, c0\n", Code::D3d9RegisterType, 0);
    refused_with("ps_3_0\nrep i0\nbreak_gt b0, c0.x\nendrep\n", Code::D3d9RegisterType, 1);
    // Their definitions are fine.
    valid("vs_3_0\ndefi i0, 1, 0, 0, 0\ndefb b0, true\nrep i0\nendrep\nif b0\nendif\n");
}

#[test]
fn flow_control_is_not_predicated() {
    valid("vs_3_0\nsetp_gt p0, c0, r1\n(p0) mov r0, c0\n");
    refused_with("vs_3_0\nsetp_gt p0, c0, r1\n(p0) rep i0\nendrep\n", Code::D3d9RegisterType, 1);
    refused_with("vs_3_0\nsetp_gt p0, c0, r1\n(p0) call l0\nret\nlabel l0\nret\n", Code::D3d9RegisterType, 1);
    refused_with("vs_3_0\nsetp_gt p0, c0, r1\nrep i0\n(p0) break\nendrep\n", Code::D3d9RegisterType, 2);
}
