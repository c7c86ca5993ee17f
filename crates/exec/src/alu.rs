//! The arithmetic rules of the functional spec (chapter 3.1 and the instruction
//! pages): 32-bit float operations with denormals flushed to sign-preserved zero on
//! input and output, `min`/`max` NaN rules, comparisons, float-to-integer conversions
//! (saturating, NaN to 0), integer division by zero, shift counts masked to 5 bits,
//! bit-field instructions, half-float conversions, doubles.
