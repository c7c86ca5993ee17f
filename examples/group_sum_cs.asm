//
// Each thread group of 64 threads sums 64 words of u0 in thread-group shared memory
// (a tree reduction: six steps, a barrier after each) and writes the sum to
// u1[group]. Run it with:
//
//   dxref run --cs examples/group_sum_cs.asm --dispatch 2,1,1 --uav 0=examples/numbers.json --uav-size 8
//
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_structured g0, 4, 64
dcl_thread_group 64, 1, 1
imad r0.x, vThreadGroupID.x, l(64), vThreadIDInGroupFlattened.x
ishl r0.x, r0.x, l(2)
ld_raw r0.y, r0.x, u0.xxxx
store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.y
sync_g_t
mov r0.z, l(32)
loop
  ieq r1.x, r0.z, l(0)
  breakc_nz r1.x
  ult r1.x, vThreadIDInGroupFlattened.x, r0.z
  if_nz r1.x
    iadd r1.y, vThreadIDInGroupFlattened.x, r0.z
    ld_structured r1.y, r1.y, l(0), g0.xxxx
    ld_structured r1.z, vThreadIDInGroupFlattened.x, l(0), g0.xxxx
    iadd r1.y, r1.y, r1.z
    store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r1.y
  endif
  sync_g_t
  ushr r0.z, r0.z, l(1)
endloop
if_z vThreadIDInGroupFlattened.x
  ld_structured r1.x, l(0), l(0), g0.xxxx
  ishl r1.y, vThreadGroupID.x, l(2)
  store_raw u1.x, r1.y, r1.x
endif
ret
