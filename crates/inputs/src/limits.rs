//! The bounds on what the readers accept, in one place, each with its reason. An input
//! past a bound is a typed error, never an unbounded allocation or a long loop.
