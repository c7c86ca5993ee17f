ps_5_0
dcl_globalFlags refactoringAllowed | forceEarlyDepthStencil
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texturecube (float,float,float,float) t1
dcl_uav_typed_texture2d (float,float,float,float) u1
dcl_input_ps linear v0.xy
dcl_input_ps linear centroid v0.zw
dcl_input_ps constant v1.x
dcl_input_ps linear noperspective sample v1.yzw
dcl_input_ps_siv linear noperspective v2.xyzw, position
dcl_input_ps_sgv v3.x, is_front_face
dcl_input vCoverage
dcl_output o0.xyzw
dcl_output oDepth
dcl_output oMask
dcl_temps 4
sample r0.xyzw, v0.xyxx, t0.xyzw, s0
sample_c r0.x, v0.xyxx, t0.xxxx, s1, l(0.500000)
sample_b r0.xyzw, v0.xyxx, t0.xyzw, s0, l(-1.000000)
sample_indexable(texturecube)(float,float,float,float) r0.xyzw, v1.yzwy, t1.xyzw, s0
lod r0.x, v0.xyxx, t0.xxxx, s0
deriv_rtx r1.xy, v0.xyxx
deriv_rty r1.zw, v0.xxxy
deriv_rtx_coarse r1.xy, v0.xyxx
deriv_rtx_fine r1.xy, v0.xyxx
deriv_rty_coarse r1.xy, v0.xyxx
deriv_rty_fine r1.xy, v0.xyxx
eval_snapped r2.xy, v0.xyxx, l(1, -1, 0, 0)
eval_sample_index r2.xy, v0.xyxx, l(2)
eval_centroid r2.xy, v0.xyxx
sample_cl_s r0.xyzw, r3.x, v0.xyxx, t0.xyzw, s0, l(1.000000)
sample_b_cl_s r0.xyzw, r3.x, v0.xyxx, t0.xyzw, s0, l(0.000000), l(1.000000)
sample_c_cl_s r0.x, r3.x, v0.xyxx, t0.xxxx, s1, l(0.500000), l(1.000000)
ld_uav_typed_indexable(texture2d)(float,float,float,float) r0.xyzw, r3.xyyy, u1.xyzw
ld_uav_typed_s r0.xyzw, r3.x, r3.xyyy, u1.xyzw
discard_nz r0.x
discard_z r0.y
mov_sat o0.xyzw, r0.xyzw
mov oDepth, r0.x
mov oMask, vCoverage.x
ret 
