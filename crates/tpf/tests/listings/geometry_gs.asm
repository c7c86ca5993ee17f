gs_5_0
dcl_input_siv v[3][0].xyzw, position
dcl_input v[3][1].xy
dcl_input vGSInstanceID
dcl_temps 2
dcl_inputprimitive triangle 
dcl_stream m0
dcl_outputtopology trianglestrip 
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_stream m1
dcl_outputtopology pointlist 
dcl_output o0.xyzw
dcl_output_siv o1.x, rendertarget_array_index
dcl_maxout 12
dcl_gsinstances 6
mov r0.x, l(0)
loop 
  ige r0.y, r0.x, l(3)
  breakc_nz r0.y
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  mov o1.xy, v[r0.x + 0][1].xyxx
  emit_stream m0
  iadd r0.x, r0.x, l(1)
endloop 
cut_stream m0
mov o0.xyzw, v[0][0].xyzw
mov o1.x, vGSInstanceID.x
emit_then_cut_stream m1
ret 
