//! `tpf::interfaces`: a program's interface declarations and the class-instance binding
//! both `exec` and `translate` resolve through them (functional spec 22.3.50, 22.3.51,
//! 22.7.19): slots numbered across declarations, the default table of an unbound slot,
//! `this` = 0 unbound, and the errors of a binding that does not fit.

use tpf::interfaces::{ClassInstance, ClassInstances, InterfaceError, Interfaces};

const PROGRAM: &str = "ps_5_0
dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_table ft0 = {fb0, fb1}
dcl_function_table ft1 = {fb2, fb0}
dcl_function_table ft2 = {fb1}
dcl_interface fp0[2][2] = {ft0, ft1}
dcl_interface_dynamicindexed fp2[3][2] = {ft1}
dcl_output o0.xyzw
ret
label fb0
ret
label fb1
ret
label fb2
ret
";

fn interfaces() -> Interfaces {
    let program = tpf::parse::parse_program(PROGRAM).unwrap_or_else(|d| panic!("{d:?}")).program;
    Interfaces::of(&program)
}

#[test]
fn declarations_are_read_with_their_slots() {
    let f = interfaces();
    assert_eq!(f.tables.get(&1), Some(&vec![2, 0]));
    assert_eq!(f.interfaces.len(), 2);
    assert!(f.interfaces[1].dynamic && !f.interfaces[0].dynamic);
    assert_eq!((f.interfaces[1].array_length, f.interfaces[1].call_sites), (3, 2));
    // fp0 occupies slots 0 and 1, fp2 slots 2 to 4.
    assert_eq!(f.slots(), 5);
    assert_eq!(f.covering(1).map(|i| i.id), Some(0));
    assert_eq!(f.covering(4).map(|i| i.id), Some(2));
    assert!(f.covering(5).is_none());
}

#[test]
fn a_binding_resolves_to_bodies_with_one_default() {
    let f = interfaces();
    let none = ClassInstances::new();
    // Unbound: the first table listed; `this` zeros.
    assert_eq!(f.body(&none, 0, 1), Ok(1));
    assert_eq!(f.body(&none, 3, 0), Ok(2));
    assert_eq!(none.this(3), [0; 4]);
    let mut bound = ClassInstances::new();
    bound.bind(1, ClassInstance { table: 1, this: [1, 2, 3, 4] });
    assert_eq!(f.body(&bound, 1, 0), Ok(2));
    assert_eq!(f.body(&bound, 1, 1), Ok(0));
    assert_eq!(f.body(&bound, 0, 1), Ok(1), "slot 0 is not bound");
    assert_eq!(bound.this(1), [1, 2, 3, 4]);
    // Slot 3 is fp2's; `fcall fp0[3]` does not reach it: the array index stays within
    // fp0's array of 2 (spec 22.7.19), static or not.
    assert_eq!(f.table(&bound, 3), Ok(1));
    assert_eq!(f.call(&bound, 2, 1, 0), Ok(2), "fp2[1] is slot 3");
    assert_eq!(f.call(&bound, 0, 1, 0), Ok(2), "fp0[1] is slot 1");
    assert_eq!(
        f.call(&bound, 0, 3, 0),
        Err(InterfaceError::IndexOutOfRange { interface: 0, index: 3, array_length: 2 })
    );
    assert_eq!(f.slot_of(0, 2), Err(InterfaceError::IndexOutOfRange { interface: 0, index: 2, array_length: 2 }));
    assert_eq!(f.slot_of(1, 0), Err(InterfaceError::InterfaceNotDeclared { interface: 1 }));
    assert_eq!(f.slot_of(2, 2), Ok(4));
}

fn with_interfaces(decls: &str) -> Interfaces {
    let text = format!(
        "ps_5_0\ndcl_function_body fb0\ndcl_function_table ft0 = {{fb0}}\n{decls}dcl_output o0.xyzw\nret\nlabel fb0\nret\n"
    );
    let program = tpf::parse::parse_program(&text).unwrap_or_else(|d| panic!("{d:?}")).program;
    Interfaces::of(&program)
}

#[test]
fn the_slot_limit_is_checked_once() {
    assert_eq!(interfaces().check(), Ok(()));
    // 253 slots (D3D11_SHADER_MAX_INTERFACES) fit; one more does not, counted either as
    // the sum of the array sizes or as the slot numbers used.
    let at_limit = with_interfaces("dcl_interface fp0[200][1] = {ft0}\ndcl_interface fp200[53][1] = {ft0}\n");
    assert_eq!((at_limit.check(), at_limit.slots()), (Ok(()), 253));
    let sum = with_interfaces("dcl_interface fp0[200][1] = {ft0}\ndcl_interface fp200[54][1] = {ft0}\n");
    assert_eq!(sum.check(), Err(InterfaceError::TooManySlots { slots: 254 }));
    let numbered = with_interfaces("dcl_interface fp1000[2][1] = {ft0}\n");
    assert_eq!(numbered.check(), Err(InterfaceError::TooManySlots { slots: 1002 }));
    assert_eq!(numbered.slots(), 253, "capped");
    let e = InterfaceError::TooManySlots { slots: 1002 };
    assert_eq!(e.to_string(), "1002 interface slots (the limit is 253, D3D11_SHADER_MAX_INTERFACES)");
}

#[test]
fn bindings_that_do_not_fit_are_errors() {
    let f = interfaces();
    let mut c = ClassInstances::new();
    c.bind(0, ClassInstance { table: 2, this: [0; 4] });
    assert_eq!(f.body(&c, 0, 0), Err(InterfaceError::TableNotListed { slot: 0, table: 2, interface: 0 }));
    assert_eq!(f.body(&c, 7, 0), Err(InterfaceError::SlotNotDeclared { slot: 7 }));
    assert_eq!(
        f.body(&ClassInstances::new(), 0, 2),
        Err(InterfaceError::CallSiteOutOfRange { table: 0, site: 2, bodies: 2 })
    );
    let e = InterfaceError::TableNotListed { slot: 0, table: 2, interface: 0 };
    assert_eq!(e.to_string(), "interface slot 0 is bound to ft2, which fp0 does not list");
}
