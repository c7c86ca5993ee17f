ps_5_0
dcl_uav_typed_texture2d_glc_rov (float,float,float,float) u1
dcl_uav_raw_glc_rov u2
dcl_uav_structured_glc_rov_opc u3, 16
dcl_temps 1
dcl_indexableTemp x1[4], 4
ret 
