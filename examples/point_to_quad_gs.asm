//
// Point sprites: each input point becomes a 0.2 x 0.2 quad (a 4-vertex triangle
// strip) centred on it, carrying the point's colour and texture coordinates.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
// TEXCOORD                 0   xy          2     NONE   float   xy  
//
gs_4_0
dcl_input_siv v[1][0].xyzw, position
dcl_input v[1][1].xyzw
dcl_inputprimitive point 
dcl_outputtopology trianglestrip 
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_output o2.xy
dcl_maxout 4
add o0.xyzw, v[0][0].xyzw, l(-0.100000, -0.100000, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
mov o2.xy, l(0,1.000000,0,0)
emit 
add o0.xyzw, v[0][0].xyzw, l(0.100000, -0.100000, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
mov o2.xy, l(1.000000,1.000000,0,0)
emit 
add o0.xyzw, v[0][0].xyzw, l(-0.100000, 0.100000, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
mov o2.xy, l(0,0,0,0)
emit 
add o0.xyzw, v[0][0].xyzw, l(0.100000, 0.100000, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
mov o2.xy, l(1.000000,0,0,0)
emit 
cut 
ret 
