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
    // fp0[3] is slot 3, fp2's (spec 22.7.19: fp# plus the array index picks the slot).
    assert_eq!(f.table(&bound, 3), Ok(1));
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
