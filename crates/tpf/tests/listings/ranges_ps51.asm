ps_5_1
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[0:0][4], immediateIndexed, space=0
dcl_constantbuffer CB1[1:3][2], dynamicIndexed, space=1
dcl_sampler S0[0:0], mode_default, space=0
dcl_resource_texture2d (float,float,float,float) T0[0:*], space=2
dcl_resource_raw T1[4:4], space=0
dcl_resource_structured T2[5:5], 16, space=0
dcl_uav_typed_texture2d (unorm,unorm,unorm,unorm) U0[0:0], space=0
dcl_uav_raw U1[1:1], space=0
dcl_uav_structured U2[2:2], 4, space=0
dcl_input_ps linear v0.xy
dcl_input_ps linear v1.xyzw {min2_8f}
dcl_output o0.xyzw
dcl_output o1.x {min16u}
dcl_temps 2
ftou r0.x, CB0[0][0].x
sample r1.xyzw, v0.xyxx, T0[r0.x + 0].xyzw, S0[0]
mad r1.xyzw {min16f}, r1.xyzw {def32 as min16f}, CB1[r0.x + 1][1].xyzw {def32 as min16f}, v1.xyzw {min2_8f as min16f}
mov o0.xyzw, r1.xyzw {min16f as def32}
mov o1.x {min16u}, l(1) {def32 as min16u}
ret 
