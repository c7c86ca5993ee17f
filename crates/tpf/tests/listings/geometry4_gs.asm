gs_4_0
dcl_input_siv v[1][0].xyzw, position
dcl_inputprimitive point 
dcl_outputtopology linestrip 
dcl_output_siv o0.xyzw, position
dcl_maxout 4
mov o0.xyzw, v[0][0].xyzw
emit 
emit_then_cut 
cut 
ret 
