//! Direct3D 11's compute-shader limits, one table for the validator (create-time rules)
//! and the interpreter (what a dispatch can declare).

/// `dcl_thread_group` limits: the most threads in x, in y, in z, and in all
/// (`D3D11_CS_THREAD_GROUP_MAX_X/_Y/_Z` and `_THREADS_PER_GROUP` for `cs_5_0`,
/// `D3D11_CS_4_X_THREAD_GROUP_MAX_*` for `cs_4_0`/`cs_4_1`: D3D11.3 functional spec,
/// 18.5 "Compute Shader Invocation"; Microsoft's `dcl_thread_group` page).
pub const fn thread_group_max(cs_4_x: bool) -> [u32; 4] {
    if cs_4_x {
        [768, 768, 1, 768]
    } else {
        [1024, 1024, 64, 1024]
    }
}

/// Thread-group shared memory a group may declare, in bytes
/// (`D3D11_CS_TGSM_REGISTER_COUNT`, 8192 32-bit registers, for `cs_5_0`;
/// `D3D11_CS_4_X_TGSM_REGISTER_COUNT`, 4096, for `cs_4_x`: functional spec 18.6 "Shared
/// Memory"; Microsoft's `dcl_tgsm_raw` and `dcl_tgsm_structured` pages).
pub const fn tgsm_bytes_max(cs_4_x: bool) -> u32 {
    if cs_4_x {
        16 * 1024
    } else {
        32 * 1024
    }
}
