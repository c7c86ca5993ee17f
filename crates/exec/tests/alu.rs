//! ALU instructions: the special cases of the functional spec, exact bits.

mod common_interp;
use common_interp::*;

#[test]
fn smoke() {
    let o = eval("add o0.xyzw, v0.xyzw, l(1.0, 2.0, 3.0, 4.0)", &[f4([1.0, 1.0, 1.0, 1.0])]);
    assert_eq!(o, f4([2.0, 3.0, 4.0, 5.0]));
}
