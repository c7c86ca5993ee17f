ps_5_0
dcl_globalFlags refactoringAllowed
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface fp0[1][1] = {ft0, ft1}
dcl_interface_dynamicindexed fp1[2][1] = {ft0, ft1}
dcl_input_ps constant v0.x
dcl_output o0.xyzw
dcl_temps 1
ftou r0.x, v0.x
fcall fp0[0][0]
fcall fp1[r0.x + 0][0]
mov o0.xyzw, r0.xyzw
ret 
label fb0
mov r0.xyzw, l(1.000000,0,0,1.000000)
ret 
label fb1
mov r0.xyzw, this[0].xyzw
ret 
