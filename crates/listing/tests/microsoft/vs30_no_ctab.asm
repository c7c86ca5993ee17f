    vs_3_0
    dcl_position v0
    dcl_position o0
    add o0, v0, v0

// approximately 1 instruction slot used
