cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_typed_texture2d (float,float,float,float) u0
dcl_uav_typed_texture2darray_glc (uint,uint,uint,uint) u1
dcl_uav_raw u2
dcl_uav_raw_glc u3
dcl_uav_structured u4, 16
dcl_uav_structured_opc u5, 4
dcl_resource_structured t0, 8 
dcl_input vThreadID.xyz
dcl_input vThreadGroupID.xy
dcl_input vThreadIDInGroup.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_tgsm_raw g0, 256
dcl_tgsm_structured g1, 4, 64
dcl_thread_group 8, 8, 1
store_uav_typed u0.xyzw, vThreadID.xyyy, l(1.000000,0,0,1.000000)
ld_uav_typed r0.xyzw, vThreadID.xyzz, u1.xyzw
store_raw u2.xy, vThreadIDInGroupFlattened.x, r0.xyxx
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, l(0), u2.xxxx
store_structured u4.xyzw, vThreadGroupID.x, l(0), r0.xyzw
ld_structured_indexable(structured_buffer, stride=8)(mixed,mixed,mixed,mixed) r0.xy, vThreadID.x, l(0), t0.xyxx
store_raw g0.x, l(0), r0.x
ld_raw r0.x, l(4), g0.xxxx
store_structured g1.x, vThreadIDInGroup.x, l(0), r0.x
ld_structured r0.x, vThreadIDInGroup.x, l(0), g1.xxxx
sync_g_t
sync_uglobal_g_t
sync_ugroup_g
sync_uglobal
atomic_and u2, l(0), r0.x
atomic_or u2, l(0), r0.x
atomic_xor u2, l(0), r0.x
atomic_cmp_store u2, l(0), r0.x, r0.y
atomic_iadd g0, l(0), l(1)
atomic_imax u2, l(0), r0.x
atomic_imin u2, l(0), r0.x
atomic_umax u2, l(0), r0.x
atomic_umin u2, l(0), r0.x
imm_atomic_alloc r1.x, u5
imm_atomic_consume r1.x, u5
imm_atomic_iadd r1.x, u2, l(0), l(1)
imm_atomic_and r1.x, u2, l(0), r0.x
imm_atomic_or r1.x, u2, l(0), r0.x
imm_atomic_xor r1.x, u2, l(0), r0.x
imm_atomic_exch r1.x, u2, l(0), r0.x
imm_atomic_cmp_exch r1.x, u2, l(0), r0.x, r0.y
imm_atomic_imax r1.x, u2, l(0), r0.x
imm_atomic_imin r1.x, u2, l(0), r0.x
imm_atomic_umax r1.x, g0, l(0), r0.x
imm_atomic_umin r1.x, g0, l(0), r0.x
ret 
