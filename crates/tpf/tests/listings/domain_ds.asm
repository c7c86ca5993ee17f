ds_5_0
dcl_input_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_input vDomain.xy
dcl_input vicp[4][0].xyzw
dcl_input vpc0.x
dcl_output_siv o0.xyzw, position
dcl_temps 1
mul r0.xyzw, vicp[0][0].xyzw, vDomain.xxxx
mad o0.xyzw, vicp[1][0].xyzw, vDomain.yyyy, r0.xyzw
ret 
