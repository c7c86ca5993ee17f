vs_5_0
dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps | enable11_1DoubleExtensions | enable11_1ShaderExtensions
dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},
                              { 2.000000, 1, 0x7fffffff, -3} }
dcl_constantbuffer CB0[4], dynamicIndexed
dcl_constantbuffer CB1[1], immediateIndexed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2dms(4) (float,float,float,float) t1
dcl_resource_buffer (uint,uint,uint,uint) t2
dcl_resource_raw t3
dcl_resource_structured t4, 16 
dcl_input v0.xyzw
dcl_input_sgv v1.x, vertex_id
dcl_input_siv v2.x, instance_id
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_output_sgv o2.x, primitive_id
dcl_temps 8
dcl_indexableTemp x0[4], 4
add r0.xyzw, -v0.xyzw, |cb0[1].xyzw|
and r1.xy, r0.xyxx, l(0x3f800000, 255, 0, 0)
div r0.x, r0.x, -|r0.y|
dp2 r0.x, r0.xyxx, r1.xyxx
dp3_sat r0.y, r0.xyzx, cb0[r1.x + 1].xyzx
dp4 r0.z, r0.xyzw, cb0[r1.y + 0].xyzw
eq r2.x, r0.x, l(0.333333)
exp r0.w, r0.w
frc r0.w, r0.w
ftoi r2.y, r0.x
ftou r2.z, r0.y
ge r2.w, r0.z, l(-1.500000)
iadd r3.x, r2.y, l(-1)
ieq r3.y, r2.y, l(0x00010000)
ige r3.z, r2.y, l(3)
ilt r3.w, r2.y, l(-4)
imad r4.x, r2.y, r2.z, l(7)
imax r4.y, r2.y, l(0)
imin r4.z, r2.y, l(10000)
imul null, r4.w, r2.y, r2.z
ine r5.x, r2.y, l(2)
ineg r5.y, r2.y
ishl r5.z, r2.y, l(4)
ishr r5.w, r2.y, l(31)
itof r6.x, r2.y
log r6.y, r0.x
lt r6.z, r0.x, r0.y
mad r6.w, r0.x, r0.y, r0.z
min r7.x, r0.x, l(1.000000)
max r7.y, r0.x, l(0.000000)
mov r7.z, icb[r2.y + 0].x
mov x0[r2.z + 1].xyzw, r0.xyzw
mov r1.xyzw, x0[1].xyzw
movc r7.w, r2.x, l(1.000000), l(-1)
mul r0.xyzw, r0.xyzw, l(2.000000, 0.500000, 1.000000, 0.000000)
ne r1.x, r0.x, r0.y
nop 
not r1.y, r2.y
or r1.z, r2.y, l(0xff000000)
round_ne r1.w, r0.x
round_ni r1.w, r0.x
round_pi r1.w, r0.x
round_z r1.w, r0.x
rsq r1.w, r0.x
sqrt r1.w, r0.x
sincos r1.x, r1.y, r0.x
udiv r1.x, r1.y, r2.y, l(3)
ult r1.z, r2.y, l(5)
uge r1.w, r2.y, l(6)
umul r1.x, r1.y, r2.y, r2.z
umad r1.z, r2.y, r2.z, l(1)
umax r1.w, r2.y, r2.z
umin r1.w, r2.y, r2.z
ushr r1.w, r2.y, l(8)
utof r1.w, r2.y
xor r1.w, r2.y, l(0x55555555)
rcp r1.w, r0.x
f32tof16 r1.w, r0.x
f16tof32 r1.w, r2.y
uaddc r1.x, r1.y, r2.y, r2.z
usubb r1.x, r1.y, r2.y, r2.z
countbits r1.w, r2.y
firstbit_hi r1.w, r2.y
firstbit_lo r1.w, r2.y
firstbit_shi r1.w, r2.y
ubfe r1.w, l(8), l(16), r2.y
ibfe r1.w, l(8), l(16), r2.y
bfi r1.w, l(8), l(16), r2.y, r2.z
bfrev r1.w, r2.y
swapc r1.x, r1.y, r2.x, r0.x, r0.y
msad r1.w, r2.y, r2.z, r2.w
ld_indexable(texture2d)(float,float,float,float) r0.xyzw, r2.yyyy, t0.xyzw
ld_aoffimmi_indexable(1,-2,0)(texture2d)(float,float,float,float) r0.xyzw, r2.yyyy, t0.xyzw
ldms r0.xyzw, r2.yyyy, t1.xyzw, l(1)
ld r0.xyzw, r2.yyyy, t2.xyzw
ld_raw r0.xyzw, r2.y, t3.xyzw
ld_structured r0.xyzw, r2.y, l(4), t4.xyzw
resinfo_uint r0.xyzw, l(0), t0.xyzw
resinfo r0.xyzw, l(0), t0.xyzw
resinfo_rcpfloat r0.xyzw, l(0), t0.xyzw
sample_l_aoffimmi(1,-2,0) r0.xyzw, r0.xyxx, t0.xyzw, s0, l(0.000000)
sample_c_lz r0.x, r0.xyxx, t0.xxxx, s0, r0.z
sample_d r0.xyzw, r0.xyxx, t0.xyzw, s0, r1.xyxx, r1.zwzz
gather4 r0.xyzw, r0.xyxx, t0.xyzw, s0.x
gather4_c r0.xyzw, r0.xyxx, t0.xyzw, s0.x, r0.z
gather4_po r0.xyzw, r0.xyxx, r2.yzyy, t0.xyzw, s0.x
gather4_po_c r0.xyzw, r0.xyxx, r2.yzyy, t0.xyzw, s0.x, r0.z
samplepos r0.xy, t1.xyxx, l(0)
sampleinfo r0.x, t1.x
sampleinfo_uint r0.x, t1.x
bufinfo r0.x, t2.xxxx
check_access_fully_mapped r0.x, r2.y
gather4_s r0.xyzw, r1.x, r0.xyxx, t0.xyzw, s0.x
gather4_c_s r0.xyzw, r1.x, r0.xyxx, t0.xyzw, s0.x, r0.z
gather4_po_s r0.xyzw, r1.x, r0.xyxx, r2.yzyy, t0.xyzw, s0.x
gather4_po_c_s r0.xyzw, r1.x, r0.xyxx, r2.yzyy, t0.xyzw, s0.x, r0.z
ld_s r0.xyzw, r1.x, r2.yyyy, t0.xyzw
ldms_s r0.xyzw, r1.x, r2.yyyy, t1.xyzw, l(0)
ld_raw_s r0.xyzw, r1.x, r2.y, t3.xyzw
ld_structured_s r0.xyzw, r1.x, r2.y, l(0), t4.xyzw
sample_l_s r0.xyzw, r1.x, r0.xyxx, t0.xyzw, s0, l(0.000000)
sample_c_lz_s r0.x, r1.x, r0.xyxx, t0.xxxx, s0, r0.z
sample_d_cl_s r0.xyzw, r1.x, r0.xyxx, t0.xyzw, s0, r1.xyxx, r1.zwzz, l(1.000000)
dadd r0.xy, r1.xyxx, r2.zwzw
dmax r0.xy, r1.xyxx, r2.zwzw
dmin r0.xy, r1.xyxx, r2.zwzw
dmul r0.xy, r1.xyxx, r2.zwzw
deq r0.x, r1.xyxx, r2.zwzw
dge r0.x, r1.xyxx, r2.zwzw
dlt r0.x, r1.xyxx, r2.zwzw
dne r0.x, r1.xyxx, r2.zwzw
dmov r0.xy, d(1.000000l, -2.500000l)
dmovc r0.xy, r2.x, r1.xyxx, r2.zwzw
dtof r0.x, r1.xyxx
ftod r0.xy, r1.x
ddiv r0.xy, r1.xyxx, r2.zwzw
dfma r0.xy, r1.xyxx, r2.zwzw, r3.xyxy
drcp r0.xy, r1.xyxx
dtoi r0.x, r1.xyxx
dtou r0.x, r1.xyxx
itod r0.xy, r2.y
utod r0.xy, r2.y
loop 
  breakc_z r2.x
  continuec_nz r2.y
  if_nz r2.z
    break 
  else 
    continue 
  endif 
endloop 
switch r2.y
  case l(0)
  mov r0.x, l(1.000000)
  break 
  case l(1)
  default 
  mov r0.x, l(0)
  break 
endswitch 
call l1
callc_z r2.x, l1
retc_nz r2.y
mov o0.xyzw, r0.xyzw
mov o1.xyzw, l(1.000000,0,0,1.000000)
mov o2.x, l(7)
debug_break 
abort 
ret 
label l1
mov r0.x, l(3)
ret 
