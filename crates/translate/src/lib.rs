//! Translates Shader Model 4.0–5.1 programs (the `SHDR`/`SHEX` chunk of a DXBC
//! container) into a [`naga::Module`], validates it with naga's validator, and writes it
//! as WGSL, SPIR-V, MSL, GLSL or HLSL through naga's back ends. Vertex, pixel and
//! compute shaders go to every target; geometry shaders become native geometry shaders
//! in SPIR-V ([`geometry_spirv`]) and GLSL ([`geometry_glsl`]) and, with their vertex
//! shader, compute passes for every target ([`lower`]).
//!
//! ```
//! use translate::{module, write, Options, Target};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // A vertex shader from its listing text (any SM4/5 container works the same).
//!     let text = "vs_4_0\n\
//!                 dcl_input v0.xyzw\n\
//!                 dcl_output_siv o0.xyzw, position\n\
//!                 dcl_temps 1\n\
//!                 mul r0.xyzw, v0.xyzw, l(2.000000, 2.000000, 2.000000, 1.000000)\n\
//!                 mov o0.xyzw, r0.xyzw\n\
//!                 ret \n";
//!     let program = tpf::parse::parse_program(text).map_err(|d| format!("{d:?}"))?.program;
//!     let m = translate::module_from_program(&program, &[], &[], &Options::default())?;
//!     assert_eq!(m.entry_points[0].stage, naga::ShaderStage::Vertex);
//!
//!     // Every output is validated first; SPIR-V comes back as bytes.
//!     let wgsl = String::from_utf8(write(&m, Target::Wgsl)?)?;
//!     assert!(wgsl.contains("@vertex"));
//!     let spirv = write(&m, Target::Spirv)?;
//!     assert_eq!(&spirv[..4], &0x0723_0203u32.to_le_bytes());
//!
//!     // What is not translated yet is an error naming the instruction.
//!     let gs = tpf::parse::parse_program("gs_4_0\nret \n").map_err(|d| format!("{d:?}"))?.program;
//!     let e = translate::module_from_program(&gs, &[], &[], &Options::default()).unwrap_err();
//!     assert_eq!(e.code(), "stage");
//!     # let _ = module;
//!     Ok(())
//! }
//! ```
//!
//! # How a program is translated
//!
//! The front end ([`wgsl_source`]) writes one WGSL entry point for the program, which
//! naga's WGSL front end parses into the module (so that naga's type checking guards
//! every expression the translator writes); helper functions the program does not use
//! are then removed ([`naga::compact`]). The register model is exact: every temp `r#`
//! is a `vec4<u32>` of bits, indexable temps `x#` arrays of them, inputs and outputs
//! private arrays; each instruction converts its sources to the type its row of the
//! instruction table gives each slot and its result back to bits, so integer and float
//! bits survive every move. The arithmetic of each opcode is one row of `ops::row` (a
//! table keyed by [`tpf::Opcode`]); flow control follows [`tpf::blocks`].
//!
//! Bindings: constant buffers `cb#` are `array<vec4<u32>, N>` uniforms in group 0,
//! shader resource views `t#` group 1, samplers `s#` group 2, UAVs `u#` group 3, each at
//! binding = register number, unless [`Options::bindings`] says otherwise
//! ([`Bindings::parse`] reads the text form). In Shader Model 5.1 a declaration
//! names a register range in a register space (`T2[5:7], space=1`; Microsoft's
//! "Bytecode changes in SM5.1" page): the variable is named by the range's ID (`t2`:
//! IDs are unique within a class, so two spaces' register 5 are two variables) and bound
//! at the slot of the range's first register in its space ([`Bindings::slot_in`]):
//! space `s` in the class's group + 4 · `s` ([`bindings::SPACE_GROUP_STRIDE`]; space
//! 1: `cb#` group 4, `t#` 5, `s#` 6, `u#` 7), binding = register, unless a `t5 space1 =
//! 2:7` line of the text form places it. (Groups 4 and 5 are also those of the buffers
//! [`Options::vertex_as_compute`] and [`lower`] add: such a pass of a space-1 program
//! needs its resources placed; a collision is an error.) A range of one register is
//! that register; a larger one is a naga binding array (`enable wgpu_binding_array;`,
//! `binding_array<texture_2d<f32>, 3>`; buffers as structs holding their words or
//! vectors, `binding_array<dx_cb1, 3>`; typed buffer views' conversion functions take
//! the element, and the format of the range's first register for every view) at that
//! one binding, and an unbounded one (`[n:*]`) a runtime-sized binding array. An
//! operand's register (`T2[r0.x + 6]`, `CB1[r0.x + 2][4]`) counts from the start of the
//! space, so the element is it less the range's first register: an immediate register
//! outside the range is an error, a register index past it is undefined as in Direct3D
//! 12 (naga's binding-array bounds-check policy is `Unchecked`; its writers bound an
//! index into constant buffers by the index policy all the same). `NonUniformResourceIndex` (the operand's non-uniform flag) has no WGSL
//! form and needs none: naga's uniformity analysis takes every register as non-uniform,
//! so the SPIR-V decorates every access through a register index `NonUniform`. The
//! SPIR-V writer's output gets what Vulkan needs and naga leaves out: `Block` on a
//! uniform binding array's struct, the `RuntimeDescriptorArray` capability for a
//! runtime-sized one. The hidden counter of a structured UAV
//! that `imm_atomic_alloc` (the count before its increment) or `imm_atomic_consume`
//! (the count after its decrement) uses is a storage buffer of one `atomic<u32>`, `uc#`,
//! in the UAV group at binding 64 + the UAV's register (the application keeps the
//! count there: initial values, `CopyStructureCount`). Typed buffer views (`Buffer<T>`,
//! `dcl_resource_buffer`; `RWBuffer<T>`, `dcl_uav_typed_buffer`) are storage buffers of
//! their elements' bytes (`array<u32>`; a UAV of elements narrower than a word, or one
//! that atomics use, `array<atomic<u32>>`): WGSL has no texel buffers, so the shader
//! converts each element by the view's DXGI format, which the bytecode does not hold —
//! `R32G32B32A32_FLOAT`/`_UINT`/`_SINT` by the declared return type (stride 16 bytes;
//! `R32_*` for a UAV that atomics use) unless [`Bindings::formats`] names another
//! (`t3 = R8G8B8A8_UNORM`); the conversions, the element count and the out-of-bounds
//! rules are those of [`buffer_format`]. 1D textures and 1D texture arrays (views
//! and typed UAVs) are 2D ones of height 1 (`texture_2d`, `texture_2d_array`,
//! `texture_storage_2d*`): WGSL has no 1D array, and its `texture_1d` has no level,
//! bias, gradient or offset sampling (nor mipmaps in WebGPU), so the application binds
//! a 2D view of height 1 there. A load reads row 0, a sample the row's texel centre
//! (v = 0.5: row 0 alone under every address mode and filter, with zero derivatives, so
//! the LOD is the 1D one), `resinfo` gives height 0 and a 1D array's size in y. Inputs and outputs are locations equal to
//! their register numbers (`vec4` of the signature's component type), and the system
//! values `SV_Position`, `SV_ClipDistance`, `SV_CullDistance`, `SV_VertexID`, `SV_InstanceID`,
//! `SV_PrimitiveID`, `SV_IsFrontFace`, `SV_SampleIndex`, `SV_Depth` (and its
//! conservative forms), `SV_Coverage`, `SV_Target#` and the compute thread IDs
//! are built-ins; `dcl_thread_group` is the workgroup size.
//!
//! # Subroutines and interfaces
//!
//! Each `label l#` or `label fb#` starts a WGSL function (`dx_l#`, `dx_fb#`) that runs
//! to the next label; the temps and indexable temps of a program with labels are
//! module-scope (`var<private>`) so that every function shares them, as Direct3D's
//! subroutines do. `call` and `callc` call the function (WGSL, like Direct3D, has no
//! recursion: naga's validator refuses it). An interface call `fcall fp#[index][site]`
//! calls body `site` of the function table (`dcl_function_table`) bound to interface
//! slot `fp# + index` (a `dcl_interface fp#[n]` occupies slots `fp#`…`fp# + n - 1`):
//! the binding is the one the class instances of `*SetShader` make, fixed at
//! translation time by [`Options::class_instances`] (slot → `ft#` and `this` data; a
//! slot not named gets the first table its declaration lists and `this` = 0: the rule
//! of [`tpf::interfaces`], which `exec` applies too), so the module is specialised to
//! it as a driver specialises the program. A register index
//! (`dcl_interface_dynamicindexed`) switches over the interface's slots (an index beyond
//! them calls nothing, as in `exec`). `this[k]` is the bound instance's data as a
//! constant; `this[r# + k]` reads a private array of every slot's (0 past them).
//!
//! # Uniform indexing
//!
//! Shader Model 5.0 indexes `t#`, `s#`, `u#` and `cb#` slots by a register
//! (D3D11.3 functional spec 7.11 "Uniform Indexing of Resources and Samplers"); fxc
//! does it to reach a class's textures (`t[r# + k]`, the index `this[].z` plus the
//! member's offset) and buffers (`cb[r# + k][e]`, `this[].x`), and for arrays of
//! resources without interfaces. The spec leaves an index out of range undefined; the
//! documented choice of this crate and of `exec` is: **an index naming a slot the
//! program declares reads that slot; any other index reads as an unbound slot, 0**
//! (and the `_s` forms' status reads "fully mapped", 1, as `exec` gives it). A class's
//! textures are the one exception: fxc does not declare them, the application binds
//! them with the class instance, so the `t#` slots the bound class instances name
//! (`this.z + k` for every interface slot, [`Options::class_instances`]) are read too.
//! So a uniformly indexed texture `t[r# + k]` is a switch over the declared `t#` slots
//! and those the class instances name, each case the instruction written for that
//! slot (a slot only a class instance names declared as the instruction's dimension
//! and return type), and a `default` of 0; every candidate must be of the
//! instruction's kind (dimension and return type, or raw/structured stride: its
//! extended tokens), a mismatch is [`TranslateError::Unsupported`] naming the
//! instruction; a comparison (`sample_c`, `gather4_c`...) types every candidate as a
//! depth texture. A uniformly indexed constant buffer `cb[r# + k][e]` selects among
//! the declared buffers, 0 for any other slot (a class's constant buffer is declared).
//!
//! # Vertex shaders as compute
//!
//! With [`Options::vertex_as_compute`] a vertex shader's entry point is
//! `@compute @workgroup_size(64)` ([`VERTEX_AS_COMPUTE_WORKGROUP`]) and the body is
//! unchanged: invocation `i` (`global_invocation_id.x`) runs vertex `i`. Its registers
//! travel through two storage buffers of `array<vec4<u32>>` (bits, as in the
//! registers) in group 4 ([`VERTEX_AS_COMPUTE_GROUP`]):
//! - binding 0, read: `IN` vec4s per vertex, `IN` = one more than the highest declared
//!   input register; vertex `i`'s `v#r` is element `i * IN + r` (undeclared registers in between
//!   are slots that are not read). The system values are not read from it:
//!   `SV_VertexID` is `i` and `SV_InstanceID` 0, in the components their declaration
//!   names (other input system values are an error);
//! - binding 1, read-write: `OUT` vec4s per vertex, `OUT` = the highest declared output
//!   register + 1; the entry point writes all of vertex `i`'s `o#` registers (those the
//!   program did not write are 0) to elements `i * OUT + r`. The vertex count is the
//!   length of this buffer divided by `OUT`: invocations beyond it return at once.
//!
//! Constant buffers and resources keep their bindings. This is how
//! `tests/lavapipe_vertex.rs` runs translated vertex shaders on a Vulkan device and
//! compares them with the reference interpreter (see [What is proven](#what-is-proven)).
//!
//! # What is proven
//!
//! `tests/lavapipe_vertex.rs` runs translated vertex shaders on Mesa's lavapipe and
//! compares every output component with the reference interpreter (`exec`) on the same
//! inputs: every corpus vertex shader both run, hand-written one-instruction programs,
//! and random programs from fixed seeds (straight-line arithmetic, nested flow control,
//! indexable temps, the immediate constant buffer). Outputs must be bit for bit equal
//! (NaNs equal whatever their bits) except where an instruction's precision is the
//! device's (`exp`, `log`, `rsq`...: a stated tolerance); each outcome is one line of an
//! expectation file under `tests/expect/`, including the differences that remain: those
//! lavapipe itself causes (it folds `x * 0` and `x + 0` with a constant 0 against IEEE
//! 754's -0, infinity and NaN rules; its `fma` for doubles rounds twice), and six corpus
//! shaders whose device-precision instructions differ within their tolerance but are
//! amplified by the arithmetic after them beyond it (traced instruction by instruction:
//! the first result that differs is a `log` of a `pow` in five, a `sincos` in one, 1 or 2
//! ulps from the reference's correctly rounded value; every result before it is
//! identical). The trace (`tests/support/cut.rs`, the ignored
//! `trace_the_first_differing_instruction` tests with `DXREF_TRACE=<entry>`) runs a
//! program changed to write one instruction's result, at its n-th run, to `o0`, through
//! both sides, in the order the instructions run.
//!
//! `tests/lavapipe_compute.rs` dispatches compute shaders on lavapipe and with the
//! reference's `exec::compute::dispatch` (2 × 2 × 1 groups, the same generated
//! constant buffers, raw, structured and typed buffers, float textures (multisampled
//! ones too), typed UAV textures and point samplers; lavapipe on one thread) and
//! compares every UAV word: 94 corpus compute shaders are exact, all writing values
//! other than 0 (where the first round of generated memory makes a program write
//! nothing or only zeros, or makes threads of a group race, later rounds draw
//! constants from its own immediates and whole 32-bit words, then mostly small numbers
//! packed into the bit fields it extracts, until the reference writes values the same
//! in every order), 4 are left out because their result depends on the order of
//! thread groups (groups racing through UAVs: `exec` gives other results with the
//! groups reversed); and so are
//! hand-written programs with shared memory, barriers and atomics (a reduction, a
//! prefix sum, interlocked adds on UAVs and `g#`, each `imm_atomic_*`, out-of-bounds
//! raw `g#` accesses, every sample of a multisampled texture); the one difference kept is a structured `g#` offset past the
//! stride (see below).
//!
//! `tests/lavapipe_pixel.rs` draws translated pixel shaders on lavapipe in a real
//! render pass (a point list, one point per pixel of 16 × 4 `R32G32B32A32` float, uint
//! or sint targets, a generated pass-through vertex shader with the pixel shader's
//! interpolation, a depth target when it writes `oDepth`) and compares every target
//! word and depth value with `exec::pixel::shade` run on the same quads (each point's
//! pixel covered, its three helper pixels with the same attributes; generated constant
//! buffers, buffers, textures of one level of every dimension, float or integer, depth
//! textures with comparison samplers, UAVs read back after the draw (typed UAV textures
//! of every dimension but cubes; `R32_*` ones where the program loads them), point
//! samplers).
//! Of the 162 corpus pixel shaders, 143 are exact (the 8 with interfaces among them,
//! under class instances derived from their declarations and bound alike on both
//! sides: each array element's non-default table, `this` pointing into a bound
//! constant buffer and at textures bound for their uniformly indexed reads) and 6
//! within the tolerance of `log` or `div`; 11 differ, by what their instructions allow
//! (each traced to the first result that differs, every one before it identical; the
//! causes are in the expectation file's header): two where the device's `log` is 1 ulp
//! off and the PQ curve after it (`exp`, `div`, `log`, a `mul` by 78.84) amplifies it
//! beyond the tolerance, four where a point sample's coordinate lies within 1/512 texel of a texel
//! edge (the reference rounds coordinates to 8-bit sub-texel fixed point, lavapipe
//! floors floats: the three `EnvironmentMapEffect` ones — a cube's at 54.9991 texels,
//! a 2D array's at 34.9985, a 2D texture's at 50.9997 — and a Gaussian blur's sixth
//! tap at 31.999996), one where lavapipe folds `x * 0` with a literal 0 to +0
//! for a negative or infinite `x` (the reference gives -0 or NaN), four that sample a cube at a NaN
//! direction (a normal made from derivatives, which are 0 over a point, is NaN; the
//! face is undefined and each picks its own); cube gathers across a face's edge match
//! (both seamless: D3D11.3 functional spec 7.18.12, Vulkan's cube filtering); 2 are
//! not compared (one reads `eval_centroid`, which WGSL cannot express: it is drawn in
//! SPIR-V and GLSL by `tests/lavapipe_pull_model.rs`; one samples a texture with a bias and a gradient that comparing
//! instructions also read, which WGSL's depth textures cannot). Over a point every interpolation gives the vertex's value: on
//! lavapipe flat and noperspective inputs are exact at any clip-space w, perspective
//! ones (`linear`, `linear centroid`) only where w is a power of two (the corpus runs
//! use w = 1); at w = 3 or 0.7 they are 1 ulp off (lavapipe interpolates a/w and
//! multiplies back). Points prove the attributes' locations and types; the interpolation
//! modes themselves are proven by `tests/lavapipe_interpolation.rs`, which draws
//! triangles (clip w from 0.25 to 5 at their vertices, edges shared through pixel
//! centres, one clipped at the target's side, one back-facing) with a translated vertex
//! shader and translated pixel shaders reading inputs `constant`, `linear`, `linear
//! centroid`, `linear sample`, `linear noperspective` (and its `centroid` and `sample`
//! forms), `SV_Position` and `SV_IsFrontFace`, into 32 × 32 float targets, and compares
//! them with `exec`'s vertex shader and rasterizer (`exec::raster::draw`): of 5120 pixels
//! the same 2930 are written, constant attributes, the face and `SV_Position.xy` are
//! exact, the interpolated values within 2⁻¹⁶ · (1 + |value|) (the largest difference
//! 5.0·10⁻⁶ · (1 + |value|): lavapipe's float32 plane equations against the reference's
//! float64 barycentrics of the snapped triangle).
//! `tests/lavapipe_pixel_derivatives.rs` draws every corpus pixel shader as two
//! triangles covering the targets (clip w 1, vertices on the pixel grid), so that quads
//! have real helper pixels and derivatives, and compares with `exec::raster::draw`: its
//! inputs are affine in the position with power-of-two gradients on a 2⁻¹² grid (the
//! point harness's generated value at pixel (0, 0)), exactly representable at every
//! step of either side's interpolation, so the inputs are bit-identical and a difference
//! is the shader's. Of the 162, 140 are exact (78 of the 97 using a derivative or an
//! implicit-LOD instruction) and 7 within `log`'s or `lod`'s tolerance; 13 differ, each
//! traced: eight by the texel-edge rounding above, one by a cube sampled at a NaN
//! direction from a normal map's `sqrt` of a negative, two by the PQ curve, two by UAV
//! atomics whose results depend on the order pixels run (Direct3D leaves it open);
//! plain and fine derivatives are exact, coarse ones of values not affine over the quad
//! differ (lavapipe computes them as fine ones). The corpus run's textures have one
//! level, so an implicit-LOD sample's texel does not depend on its LOD (`lod`'s result
//! does); hand-written programs on textures of every mip level prove the level implicit
//! samples read (footprints along the axes, a skewed one measured by its length, one
//! LOD per quad for an address not affine over it), and show `lod` of such an address
//! differ (the translation's coarse derivatives are fine ones on lavapipe).
//! `tests/lavapipe_pull_model.rs` draws the same triangles with pixel shaders using
//! `eval_centroid`, `eval_sample_index` (a literal and a register index) and
//! `eval_snapped` (literal and register offsets, negative ones, bits above the low 4
//! set, `_sat`), of perspective, noperspective, `centroid` and `sample` inputs and of a
//! constant one, in the translation's SPIR-V (through `spirv-val`) and its GLSL
//! (compiled by `glslangValidator -V`), and the corpus's `ps5__evaluateAttrib`, against
//! `exec::raster::draw`'s pull-model evaluation (single-sample: the centre, moved by the
//! offset): the same pixels are written (4688 over the eight draws), the values within
//! the same bound (the largest difference 2.2·10⁻⁶ · (1 + |value|)), constant ones
//! exact. One difference is lavapipe's: it divides a perspective input evaluated at an
//! offset by the pixel centre's w, not the offset point's (llvmpipe's interpolation), so
//! `eval_snapped` of a `linear` input there is compared with a model the reference runs
//! (a / w interpolated without perspective at the offset, divided by 1 / w at the
//! centre: within 1.8·10⁻⁶ · (1 + |value|)), and differs from the exact evaluation
//! (Direct3D's, `exec`'s: 14062 components of 2 × 3 × 586 pixels beyond the bound);
//! `linear noperspective` inputs at offsets, and every input at the centroid or a
//! sample, match the exact evaluation. The corpus shader's `eval_sample_index` of
//! sample 2 is not compared (a single-sample target has no sample 2: undefined, 16.5.2).
//! Hand-written programs (fine and unsuffixed
//! derivatives of non-linear functions of `SV_Position`, `discard`, implicit-LOD
//! `sample`/`sample_b` at position-made coordinates, `lod` of every dimension at
//! addresses linear in the position, `gather4_po`/`gather4_po_c` with register offsets
//! (negative, past [-32, 31], clamped past the edges; of a 48 × 40 texture too, at
//! addresses on footprint edges included, where the offset / size quotient is
//! inexact: lavapipe gathers the same texels there), typed UAV textures of every
//! dimension loaded and stored, `oDepth` and several targets, `ld`, `sample_c_lz` and
//! `gather4_c` through a uniformly indexed `t[r# + k]` without interfaces, an index
//! past the declared slots included) are exact, but `lod` of
//! skewed derivatives and of a cube, within `log`'s tolerance (1 ulp: the footprint is
//! made orthogonal in float32 here, in double precision by the reference); coarse derivatives differ by design: Direct3D lets them use any row or
//! column of the quad, `exec` takes the top row and left column, lavapipe the pixel's
//! own (as fine ones).
//!
//! `tests/lavapipe_typed_buffers.rs` runs typed buffer loads and stores of every
//! format [`buffer_format::formats`] converts on lavapipe (every value of each 8-, 10-, 11- and
//! 16-bit component; the edge values of the conversion rules for stores; out-of-bounds
//! indices) and programs mixing views, formats, `bufinfo` and atomics, against `exec`,
//! bit for bit.
//!
//! `tests/lavapipe_binding_arrays.rs` runs a `cs_5_1` program's SPIR-V on lavapipe
//! (through `ash`: descriptor arrays at the default places) reading a range of four
//! structured buffers with immediate registers and a `NonUniformResourceIndex` register
//! index, a range of three 2D textures loaded through such an index, and a range of two
//! constant buffers indexed by the thread group's number,
//! against `exec`, word for word (`exec` runs 5.1 ranges with immediate registers only,
//! so its program reads the indexed element through a `switch` over the range).
//!
//! `tests/lavapipe_gs.rs` runs vertex + geometry shader pairs lowered by [`lower`] on
//! lavapipe and compares the stream-output buffers, the statistics of every stream, the
//! pipeline counters, the rasterized primitives and the indirect arguments with
//! `exec::pipeline::draw`: the two geometry-shader benchmark workloads (at a smaller
//! size), every input topology (lists and strips, with and without adjacency), a shader
//! reading typed buffers of two formats, and every corpus geometry shader both run (typed
//! buffers and 1D textures bound), all exact.
//!
//! `tests/lavapipe_gs_native.rs` runs native geometry shaders ([`geometry_spirv`])
//! through a real Vulkan graphics pipeline on lavapipe (through `ash`: the translated
//! vertex shader, the native geometry shader, rasterizer discard, transform feedback
//! of every output element, pipeline-statistics and transform-feedback-stream
//! queries) and compares it with `exec::pipeline::draw`: the transform-feedback bytes
//! and every stream's primitives written and needed are exact for both workloads, a
//! shader sampling a 2D texture and a 2D texture array and loading from a typed buffer,
//! and the six corpus geometry shaders compared (multiple streams, 24 instances, triangle
//! strips, buffers that overflow, and typed buffers, a 1D texture and a sampler read:
//! the harness binds the translation's resources — constant buffers, typed buffers as
//! storage buffers of their bytes, textures as sampled images, samplers — with the data
//! `exec` gets, generated once for both lavapipe geometry-shader tests), and so are
//! `IAVertices`, `IAPrimitives`, `VSInvocations` and `GSPrimitives`; lavapipe's
//! `GSInvocations` counts one invocation per input primitive where Vulkan and
//! Direct3D count one per instance (`dcl_gsinstances`), the one difference recorded.
//! The three corpus shaders that read `SV_CullDistance` are exact too, behind a
//! vertex shader whose SPIR-V writes the `CullDistance` built-in (10 exact, 2 with
//! lavapipe's `GSInvocations` only). The GLSL geometry
//! shaders ([`geometry_glsl`], Vulkan form; textures as combined image samplers at the
//! texture's binding) compiled by `glslangValidator -V` give the same outcomes there,
//! every one. The desktop-OpenGL
//! form ([`GlslFlavor::Desktop`]) runs on Mesa's llvmpipe OpenGL (a headless 4.5 core
//! context through EGL, `tests/opengl_gs_native.rs`), behind naga's desktop GLSL of the
//! vertex shader, the stream output captured by transform feedback as its `xfb_*`
//! qualifiers say, the same draws compared the same way: 5 exact, 2 with llvmpipe's
//! per-primitive `GSInvocations` only, 2 differing by one or two units in the last
//! place (the depth of an input position makes a round trip through OpenGL's clip
//! space, `((z * 2 - w) + w) * 0.5`, which rounds), 3 not compared (the xenia shaders'
//! 308-byte transform-feedback stride, over llvmpipe's 256). In
//! `tests/gs_native.rs`, `glslangValidator` accepts all 40 GLSL texts (both forms of
//! every corpus geometry shader and both workloads, with and without stream output;
//! the Vulkan form's SPIR-V also passes `spirv-val --target-env vulkan1.1`), given
//! resource limits raised to Direct3D 11's stream output: the three xenia shaders
//! capturing every output element into one buffer have a 308-byte stride, within
//! Direct3D's 2048 bytes (`D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES`) and lavapipe's 512
//! (`maxTransformFeedbackBufferDataStride`), not within glslang's default
//! `gl_MaxTransformFeedbackInterleavedComponents` of 64 (256 bytes).
//!
//! # Geometry shaders as compute
//!
//! [`lower`] turns a vertex shader and a geometry shader (DXBC containers) into four
//! compute modules ([`GsLowering`]) that together do what a non-indexed draw of one
//! instance (vertices `0..V`, the topology of [`GsOptions::topology`]) through the two
//! stages and stream output does. A geometry shader alone still gives the `stage`
//! error from [`module`] (naga's IR has no geometry stage; SPIR-V and GLSL get a native
//! one: [Geometry shaders in SPIR-V](#geometry-shaders-in-spir-v),
//! [Geometry shaders in GLSL](#geometry-shaders-in-glsl)). Every buffer the passes add is in group 4
//! ([`gs::GS_COMPUTE_GROUP`]) and holds `vec4<u32>` of bits unless said otherwise; the
//! shaders' own constant buffers and resources keep their bindings (one bind group set
//! per pass, so the two stages' `cb0` do not collide). `I` = invocations = input
//! primitives × `dcl_gsinstances`; `MAX` = `dcl_maxout`; `REGS` = the geometry shader's
//! highest output register + 1; `SLOT` = `REGS + 1` ([`GsLayout`] has them all).
//!
//! 1. `vertex`: the vertex shader as in [Vertex shaders as compute](#vertex-shaders-as-compute),
//!    once per vertex (as the reference shades each vertex of a non-indexed draw once).
//! 2. `expand` (workgroup 64, invocation `i` = `x + y · 64 · groups.x`): invocation
//!    `i` is input primitive `i / instances` (`vPrim`), instance `i % instances`
//!    (`vGSInstanceID`) — the order D3D defines (D3D11.3 functional spec 13.2.1, "the
//!    outputs of each GS instance follow those of the previous one"). Its `v[k][r]` are
//!    the vertex pass's outputs of the primitive's vertex `k` (lists: `p·n + k`; line
//!    strips `p + k`; line strips with adjacency `p + k` over four vertices; triangle
//!    strips `p, p+1, p+2` with the last two swapped for odd `p`; triangle strips with
//!    adjacency `2p` plus the six offsets of `tpf::Topology::strip_adj_offsets`, which
//!    differ for the first, the other even, the odd and the last triangle; functional
//!    spec 8.4), register for register. The body runs unchanged; `emit`,
//!    `emit_stream`, `emit_then_cut*` write `o` and one bookkeeping vector (stream, the
//!    vertex's number among its stream's emits) into the invocation's next slot; the
//!    emit that reaches `dcl_maxout` ends the invocation, and one past it emits nothing
//!    (as the reference does, Microsoft's `dcl_maxOutputVertexCount` page). Strips are
//!    assembled as they are emitted: each completed primitive is recorded as its
//!    stream and emit numbers, triangle strips with the parity rule (triangle `k` of a
//!    strip is `(k, k+1, k+2)` for even `k`, `(k, k+2, k+1)` for odd), `cut*` restarting
//!    the strip and incomplete primitives dropped (the `cut_stream` page; the end of the
//!    invocation is a cut). Bindings: 0 read, the vertex pass's output; 1 slots
//!    (`I·MAX·SLOT`); 2 primitives (`I·MAX`: stream, three emit numbers); 3 counts
//!    (`2·I`: primitives per stream, emitted vertices per stream) — its length gives `I`.
//! 3. `scan` (one workgroup of 256): exclusive prefix sums of the counts (each thread
//!    sums a contiguous chunk, one thread scans the 256 sums, each thread writes its
//!    chunk's offsets). Bindings: 0 read, counts; 1 offsets (`2·I`); 2 statistics (20
//!    `u32`s: 0–3 primitives per stream, 4–7 emitted vertices per stream, 16
//!    `GSInvocations`, 17 `GSPrimitives`, 18 `CInvocations` = `CPrimitives`, the
//!    rasterized stream's primitives).
//! 4. `compact` (workgroup 64, one invocation per `expand` invocation; dispatch at
//!    least one group): each primitive of stream `s` is number `j` = its invocation's
//!    offset + its rank, so the output is in (input primitive, instance, emission)
//!    order. Stream output (functional spec 14): primitive `j` is written to every
//!    buffer of its stream when `j` is below every buffer's room (`bytes / (vertices ·
//!    stride)`, writing from offset 0) and to none otherwise (14.5), each entry's
//!    components resolved against the output signature as the reference resolves them;
//!    statistics words 8–11 `NumPrimitivesWritten`, 12–15 `PrimitivesStorageNeeded`
//!    per stream (0 for a stream without entries). The rasterized stream (the
//!    declaration's, stream 0 without one) goes to a vertex buffer (its emitted
//!    vertices, `REGS` vec4s each, in order) and an index buffer (`u32`, `vertices`
//!    per primitive, lists), with `DrawIndexedIndirect` arguments (index count, 1, 0,
//!    0, 0). Bindings: 0 slots, 1 primitives, 2 counts, 3 offsets (read); 4 statistics;
//!    5 vertex buffer; 6 index buffer; 7 indirect arguments (5 `u32`); the
//!    stream-output buffers are `array<u32>` in group 5 ([`gs::GS_STREAM_OUTPUT_GROUP`])
//!    at binding = slot.
//!
//! `IAVertices` and `VSInvocations` are `V` and `IAPrimitives` the primitive count
//! ([`Topology::primitives`]); the host knows them. Counters are 32-bit. Not lowered
//! yet: indexed and instanced draws, non-zero stream-output
//! start offsets, UAVs written by both stages. `tests/lavapipe_gs.rs` runs the passes on
//! lavapipe and compares everything above with `exec`'s pipeline.
//!
//! # Geometry shaders in SPIR-V
//!
//! SPIR-V has a geometry stage where naga's IR has none: [`geometry_spirv`] (and
//! [`translate()`] with [`Target::Spirv`], and `dxref translate GS --to spirv`) writes a
//! geometry shader as a native `Geometry` entry point ([`gs_native`]). The body is the
//! front end's, as for the compute lowering, in a WGSL module whose compute entry point
//! stands for the stage: inputs and outputs are staging variables, `emit*`/`cut*`
//! call empty marker functions; naga writes its SPIR-V (`OpName`s kept), and the pass
//! [`spirv_geometry`] then makes the stage:
//! - execution modes `Invocations` = `dcl_gsinstances`, the input primitive
//!   (`InputPoints`, `InputLines`, `InputLinesAdjacency`, `Triangles`,
//!   `InputTrianglesAdjacency`), `OutputVertices` = `dcl_maxout`, the output topology
//!   (`OutputPoints`, `OutputLineStrip`, `OutputTriangleStrip`); capability `Geometry`,
//!   and `GeometryStreams` when a stream other than 0 is declared (emits and cuts are
//!   then `OpEmitStreamVertex`/`OpEndStreamPrimitive`, every output decorated `Stream`);
//! - inputs: each register with data (an input-signature element that is not
//!   `SV_Position`, `SV_ClipDistance` or `SV_CullDistance`) is an array over the
//!   primitive's vertices of `vec4` of the signature's component type at
//!   `Location` = register, which is what a translated vertex shader writes; those three
//!   system values are read from the `Position`, `ClipDistance` and `CullDistance`
//!   built-in arrays (clip and cull components in register and component order, as the
//!   vertex shader writes them), `vPrim` from `PrimitiveId`, `vGSInstanceID` from
//!   `InvocationId`. The position's y is negated back (the translated vertex shader
//!   negates it for Vulkan's clip space), bit for bit (the sign bit);
//! - outputs: each register of stream 0 with data (or captured by stream output) is
//!   written at `Location` = register (stream `s` > 0 at `s · REGS` + register: Vulkan
//!   rasterizes stream 0, the others only feed transform feedback), as D3D wrote it;
//!   `SV_Position` is also the `Position` built-in (y negated for Vulkan),
//!   `SV_ClipDistance`/`SV_CullDistance` the `ClipDistance`/`CullDistance` arrays,
//!   `SV_RenderTargetArrayIndex` `Layer`, `SV_ViewportArrayIndex` `ViewportIndex`,
//!   `SV_PrimitiveID` `PrimitiveId`. Each emit copies the registers of its stream into
//!   the outputs, then emits;
//! - `dcl_maxout`: as in the compute lowering and the reference, emits past it are
//!   dropped and the emit that reaches it ends the invocation (Vulkan leaves more
//!   emits than `OutputVertices` undefined);
//! - stream output ([`NativeGsOptions::stream_output`], `--so`): Vulkan's transform
//!   feedback (`VK_EXT_transform_feedback`): capability `TransformFeedback`, mode
//!   `Xfb`; each entry's components of a register are an output of their own
//!   (`Location` = register, `Component` = first component) decorated `XfbBuffer` =
//!   output slot, `XfbStride` = the slot's stride, `Offset` = the entry's byte offset
//!   (strides and offsets resolved as in the compute lowering). A declaration that
//!   captures one component twice is refused (two outputs cannot share a component).
//!
//! Vulkan's rasterization stream is pipeline state (stream 0 unless
//! `VkPipelineRasterizationStateStreamCreateInfoEXT` says otherwise), as are the
//! transform-feedback buffers' sizes, so the overflow rule of stream output (a
//! primitive is written whole or not at all) is the device's. GLSL gets the same
//! geometry shader ([Geometry shaders in GLSL](#geometry-shaders-in-glsl)); naga's
//! other back ends have no geometry stage: HLSL, MSL and WGSL output of a geometry
//! shader is [`TranslateError::Stage`] (the compute lowering, [`lower`], serves them).
//! `tests/gs_native.rs` checks the SPIR-V with `spirv-val --target-env vulkan1.1`;
//! `tests/lavapipe_gs_native.rs` runs it through a Vulkan graphics pipeline on
//! lavapipe and compares it with the reference (see [What is proven](#what-is-proven)).
//!
//! # Geometry shaders in GLSL
//!
//! [`geometry_glsl`] (and [`translate()`] with [`Target::Glsl`], and `dxref translate GS
//! --to glsl`) writes the module of [`geometry_spirv`] (the same WGSL, the same
//! [`spirv_geometry::Stage`]) with naga's GLSL back end (4.50 core, every resource at a
//! binding of its own) and makes the text a geometry shader with [`glsl_geometry`]:
//! - `layout(INPUT) in;` (`points`, `lines`, `lines_adjacency`, `triangles`,
//!   `triangles_adjacency`), `layout(invocations = K) in;` for `dcl_gsinstances` K > 1,
//!   `layout(OUTPUT, max_vertices = N) out;` (`points`, `line_strip`,
//!   `triangle_strip`; N = `dcl_maxout`) in place of the workgroup size;
//! - the registers with data as `in` arrays over the primitive's vertices and `out`
//!   variables at the SPIR-V form's locations (`layout(location, component, stream)`);
//!   stream output as `xfb_buffer` = output slot, `xfb_stride`, `xfb_offset`
//!   (GLSL 4.50, 4.4.2.1 "Transform Feedback Layout Qualifiers");
//! - the built-ins through private copies: `gl_in[k].gl_Position`,
//!   `gl_in[k].gl_ClipDistance`/`gl_CullDistance` (the `gl_PerVertex` blocks
//!   redeclared with the distances' sizes), `gl_PrimitiveIDIn`, `gl_InvocationID` read
//!   at the start of `main`; `gl_Position`, `gl_ClipDistance`, `gl_CullDistance`,
//!   `gl_Layer`, `gl_ViewportIndex`, `gl_PrimitiveID` written by every emit of stream 0;
//! - emits and cuts as `EmitVertex()`/`EndPrimitive()`, or `EmitStreamVertex(s)`/
//!   `EndStreamPrimitive(s)` when a stream other than 0 is declared.
//!
//! Two forms ([`GlslFlavor`]): for Vulkan (`GL_KHR_vulkan_glsl`: resources at `set` =
//! group, `binding` = binding; positions in Vulkan's clip space as in the SPIR-V form),
//! which `glslangValidator -V` compiles, and for desktop OpenGL (`binding` = binding;
//! the position's depth taken from and given back in OpenGL's `[-w, w]`, as naga's
//! GLSL vertex shaders write it). naga's GLSL has no `NoContraction`: a driver may
//! fuse a multiply and an add (see [What a target cannot express](#what-a-target-cannot-express-documented-not-emulated)).
//! A texture and its sampler are one combined sampler in naga's GLSL, at the
//! texture's binding. `tests/gs_native.rs` compiles both forms of every corpus geometry
//! shader and both workloads with `glslangValidator`; `tests/lavapipe_gs_native.rs`
//! runs the Vulkan form, compiled by it, through the same pipeline as the SPIR-V one,
//! and `tests/opengl_gs_native.rs` runs the desktop form on Mesa's llvmpipe OpenGL (see
//! [What is proven](#what-is-proven)). The desktop form takes the depth of its input
//! positions back from OpenGL's `[-w, w]` and gives it back there, so a position the
//! vertex shader wrote is not always the one the geometry shader reads: `(z * 2 - w)`
//! and `(.. + w) * 0.5` each round.
//!
//! # Pull-model attribute evaluation
//!
//! `eval_centroid`, `eval_sample_index` and `eval_snapped` (D3D11.3 functional spec
//! 16.5 "Pull Model Attribute Evaluation") evaluate a pixel shader's input at the
//! centroid, at a sample, or at the pixel centre moved by an offset on a 16 × 16 grid.
//! SPIR-V (`GLSL.std.450` `InterpolateAtCentroid`, `InterpolateAtSample`,
//! `InterpolateAtOffset`, capability `InterpolationFunction`) and GLSL
//! (`interpolateAtCentroid`, `interpolateAtSample`, `interpolateAtOffset`) have them;
//! WGSL and naga's IR do not. With [`Options::pull_model`] (which [`translate()`] sets
//! for SPIR-V and GLSL) each such instruction of an interpolated input is a call of a
//! marker function of its own, which [`write()`] gives its body after naga's SPIR-V or
//! GLSL writer ([`pull_model`]): the function of the kind on the input variable at the
//! register's location (the `Input` variable, `_vs2fs_location#`), `eval_snapped`'s
//! offset passed as its low 4 bits' signed sixteenths of a pixel (16.5.3),
//! `eval_sample_index`'s index as its first component. The input's `linear` or
//! `linear noperspective` interpolation applies, its `centroid` or `sample` modifier does
//! not (as in SPIR-V and GLSL); an input with constant interpolation (or an integer
//! one) reads the register itself (16.5: the position has no effect), with no marker.
//! The source's swizzle and modifier apply to the value, then `_sat`. Refused: a
//! relatively indexed input (`v[r# + k]`), a system value (a position cannot be
//! pulled), and WGSL, MSL and HLSL output of a module with markers
//! ([`TranslateError::Unsupported`] naming the first instruction). A program without
//! `eval_*` is written the same with or without the option.
//!
//! # The arithmetic rules kept
//!
//! From the Direct3D 11.3 functional spec (3.1, "32-bit Floating Point Rules"; the
//! integer and bit instructions' own pages), as the reference interpreter (`exec::alu`)
//! implements them:
//! - float32 operations read their sources with denormals flushed to a zero of the same
//!   sign and flush denormal results (`dx_f`, `dx_r`);
//! - `_sat` gives 0 for NaN; `min`/`max` return the number when one operand is NaN,
//!   `min(-0, +0) = -0`, `max(-0, +0) = +0`;
//! - `ftoi`/`ftou` round toward zero and saturate, NaN gives 0;
//! - shift counts are masked to 5 bits; `udiv` by zero gives `0xffffffff` quotient and
//!   remainder; `ubfe`/`ibfe`/`bfi` mask width and offset to 5 bits;
//! - `firstbit_hi`/`firstbit_shi` count from the most significant bit, and all three
//!   give `0xffffffff` when no bit is found;
//! - comparisons give `0xffffffff` or 0, and `ne` is true when an operand is NaN (it is
//!   written `!(a == b)`: naga writes a float `!=` as SPIR-V's ordered not-equal);
//! - source modifiers `-`/`|x|` act on the sign bit of a float slot and as two's
//!   complement on an integer slot, swizzles and write masks as written; `mov`, `movc`
//!   and `swapc` move bits;
//! - `frc` stays below 1.0; the dot products add left to right; `mad` is not fused;
//!   the SPIR-V marks every float operation `NoContraction`, so that a Vulkan driver
//!   neither fuses a multiply and an add nor reorders a sum. Direct3D would allow
//!   either within `mad` and `dp#` (3.1.3.2, "fused operations... no less accurate than
//!   the worst possible serial ordering of evaluation of the unfused expansion") and
//!   across instructions under `refactoringAllowed` (22.3.2); the order written is one
//!   Direct3D always allows, and the reference's. WGSL, MSL, GLSL and HLSL have no such
//!   marking: their compilers may contract;
//! - `f32tof16` rounds toward zero and gives the largest half for a value beyond the
//!   half range (3.2.2, "Floating Point Conversion"), bit by bit.
//! - Doubles ("64-bit (double precision) floating point rules"; the double
//!   instructions' pages) are `f64` (naga's WGSL `f64`, SPIR-V `Float64` and `Int64`):
//!   a register holds two, `.xy` and `.zw`, low word first; a source modifier acts on
//!   the high word's sign bit; comparisons and `dtof`/`dtoi`/`dtou` write their two
//!   results to the first two components the mask names; `dmin`/`dmax` follow the
//!   32-bit NaN and signed-zero rules; `dtoi`/`dtou` round toward zero and saturate
//!   (NaN gives 0); `dtof` rounds to nearest even and flushes a float32 denormal;
//!   `ftod` flushes its float32 denormal input; `_sat` gives +0 for NaN.
//!
//! # What a target cannot express (documented, not emulated)
//!
//! - NaN bit patterns: the reference makes every float32 NaN result one quiet NaN; the
//!   GPU keeps whatever its arithmetic gives ("32-bit Floating Point Rules" leaves the
//!   bits free).
//! - Precision: `exp`, `log`, `rsq`, `rcp`, `sqrt`, `sincos`, `div` have the target's
//!   accuracy (the spec's ULP tolerances for each instruction apply on both sides).
//! - Doubles: `ddiv`, `drcp` have the target's accuracy; `dfma` is the target's `fma`,
//!   which SPIR-V (`GLSL.std.450 Fma`) does not promise to round once (lavapipe rounds
//!   twice); double denormals are kept only where the device keeps them (Vulkan's
//!   `shaderDenormPreserveFloat64`; the module asks for no float-controls mode). A
//!   register's words become a double through a 64-bit integer (naga's bitcasts keep
//!   the width), so the SPIR-V needs `Int64` as well as `Float64` (Vulkan's
//!   `shaderInt64`, `shaderFloat64`). Metal has no doubles: MSL output of a module with
//!   doubles is a back-end error.
//! - Derivatives and implicit-LOD sampling in non-uniform control flow are allowed
//!   (`diagnostic(off, derivative_uniformity)`), as in Direct3D; a `sync` in non-uniform
//!   control flow is refused by naga's validator.
//! - `sync` without `_t` is written as a full barrier; `_ugroup`/`_uglobal` become
//!   `storageBarrier`, `_g` or `_t` a `workgroupBarrier`. (The reference runs the
//!   fences without `_t` as nothing, one thread after another; only a program with a
//!   race in Direct3D can tell.)
//! - `imm_atomic_cmp_exch` and `atomic_cmp_store` use WGSL's
//!   `atomicCompareExchangeWeak` (naga writes a strong compare-exchange to SPIR-V, MSL
//!   and HLSL).
//! - Out-of-range accesses: naga's bounds-check policy `ReadZeroSkipWrite` is asked of
//!   the SPIR-V and MSL writers, which matches the spec's out-of-bounds rules for
//!   buffers, UAVs and `ld` (reads give 0, writes are dropped); indexable temps,
//!   constant buffers and the immediate constant buffer are clamped or read as zero as
//!   the target decides. naga's SPIR-V writer cannot skip an out-of-bounds atomic, so
//!   a module with atomics has its buffer indices clamped (`Restrict`) in SPIR-V, and
//!   one with atomics on thread-group shared memory its array indices too (an
//!   out-of-bounds `g#` access then reaches the last word; Direct3D leaves it
//!   undefined, the reference reads 0 and drops the write).
//! - Thread-group shared memory (`g#`) is one `var<workgroup>` array of words per
//!   register, bounds-checked as an array: a structured access whose byte offset is
//!   past the stride reaches the next structure's words, where the reference
//!   (`exec::compute`) treats it as out of bounds (reads 0, drops the write) — as for
//!   structured buffers and UAVs. WGSL zeroes workgroup memory, as the reference does
//!   at the start of each group.
//! - WGSL's clip space is Direct3D's (y up, depth 0 to 1); the SPIR-V writer negates the
//!   position's y for Vulkan (naga's `ADJUST_COORDINATE_SPACE`), and naga bounds
//!   loops in SPIR-V and MSL (`force_loop_bounding`), which only an endless loop notices.
//! - A vertex shader without an `SV_Position` output (one feeding a geometry shader or
//!   stream output) gets a zero position: WGSL's vertex stage must write one.
//! - `SV_ClipDistance` outputs become WGSL's one `clip_distances` array (its
//!   extension), in register and component order. `SV_CullDistance` outputs become
//!   naga's `CullDistance` array the same way (SPIR-V's `CullDistance`, GLSL's
//!   `gl_CullDistance`, HLSL's `SV_CullDistance`); WGSL and MSL have none, and their
//!   back ends refuse such a module.
//! - Texel offsets on cube sampling have no WGSL form and are refused.
//! - A texture that comparing instructions read is a WGSL depth texture, which has no
//!   biased or gradient sampling: `sample_b` and `sample_d` of it are refused.
//! - `SV_PrimitiveID` in a pixel shader needs WGSL's `primitive_index` extension;
//!   `oDepthGE`/`oDepthLE` and `forceEarlyDepthStencil` become naga's
//!   `@early_depth_test`, which not every back end writes.
//! - Typed texture UAVs are storage textures of the return type's 32-bit formats
//!   (`r32*` when the shader loads them, `rgba32*` write-only otherwise): the view's
//!   real format is not in the shader.
//! - `lod` has no WGSL or naga form: it is computed as the reference computes it
//!   (D3D11.3 functional spec 7.18.11, the isotropic LOD): the coarse x and y
//!   derivatives of the address (`dpdxCoarse`, `dpdyCoarse`: a device may take them
//!   from another row or column of the quad than the reference's top row and left
//!   column), scaled by mip 0's size (for a cube, moved onto the face), made orthogonal
//!   in float32 where the reference uses doubles, log2 of the longer one (the device's
//!   `log2`); the clamped value is that clamped to the view's levels
//!   (`textureNumLevels`). The sampler's MipLODBias, MinLOD and MaxLOD are not in the
//!   shader: the clamped value is right for a sampler with the defaults (bias 0, no
//!   LOD clamp) only. Outside a pixel shader `lod` is refused.
//! - `gather4_po`/`gather4_po_c` (offsets from a register; WGSL's texel offsets are
//!   constant expressions in [-8, 7]) gather at the coordinate moved by offset / size
//!   (each offset's low 6 bits, sign-extended, as Microsoft's gather4_po page says): the
//!   quotient is exact when the size is a power of two, and the sum rounds to the
//!   coordinate's float32 precision, so an address within that rounding of a texel
//!   boundary can gather the neighbouring footprint.
//! - `eval_centroid`, `eval_sample_index` and `eval_snapped` (pull-model interpolation)
//!   have no WGSL form, nor one in naga's IR, MSL or HLSL writers: they are translated
//!   for SPIR-V and GLSL only ([Pull-model attribute evaluation](#pull-model-attribute-evaluation)),
//!   and refused naming the instruction for WGSL, MSL and HLSL (and by [`module()`]
//!   without [`Options::pull_model`]); `sampleinfo`/`samplepos` of the rasterizer (no
//!   WGSL query of its sample count) are refused ([`ops::inexpressible`]).
//! - `samplepos` of a texture gives the standard pattern of its sample count
//!   (`D3D11_STANDARD_MULTISAMPLE_PATTERN`, Vulkan's standard sample locations): a
//!   device with other positions differs.
//! - Typed buffer views (`Buffer<T>`, `RWBuffer<T>`) are storage buffers converted in
//!   the shader ([`buffer_format`]): the view's format is not in the shader, so the
//!   module is specialised to the one [`Bindings::formats`] gives (or the default), as
//!   a driver would not need to be; sRGB formats are refused (their transfer function
//!   is not exact on a device), and depth formats (not buffer views); `resinfo` of a buffer is refused (`bufinfo` gives its
//!   size).
//! - Shader Model 5.1 ranges of more than one register are binding arrays, which not
//!   every back end writes: naga's GLSL writer has none, its HLSL writer none of storage
//!   buffers nor runtime-sized ones, and its SPIR-V writer cannot bounds-check an
//!   unbounded range of constant buffers (`CB0[0:*]`): each is
//!   [`TranslateError::Backend`] at [`write()`] (after validation), not naga's panic. The
//!   hidden counter of a UAV range (`imm_atomic_alloc`/`_consume` on `U0[0:3]`) is refused.
//! - Multisampled arrays with sampling, atomics on typed texture UAVs, uniformly
//!   indexed UAVs and samplers (Shader Model 5.0),
//!   and the hull/domain stages are errors ([`TranslateError`]) for now; geometry
//!   shaders are native geometry shaders in SPIR-V and GLSL only ([`geometry_spirv`],
//!   [`geometry_glsl`]), and
//!   compute passes with their vertex shader for every target ([`lower`]).

#![warn(missing_docs)]
#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

pub mod bindings;
pub mod buffer_format;
mod front;
pub mod glsl_geometry;
pub mod gs;
pub mod gs_native;
pub mod limits;
pub mod no_contraction;
pub mod ops;
pub mod pull_model;
pub mod spirv_geometry;

pub use bindings::{Bindings, BindingsError, Class, Slot};
pub use dxgi::Format;
pub use glsl_geometry::Flavor as GlslFlavor;
pub use gs::{lower, GsLayout, GsLowering, GsOptions};
pub use gs_native::{geometry_glsl, geometry_spirv, NativeGsOptions};
pub use tpf::interfaces::{ClassInstance, ClassInstances};
pub use tpf::Topology;

/// The helper functions every translated module starts with (unused ones are removed).
pub(crate) const PRELUDE: &str = include_str!("prelude.wgsl");

/// An element of an input or output signature, as the translator reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigElement {
    /// The semantic name (`TEXCOORD`, `SV_Target`).
    pub semantic_name: String,
    /// The semantic index.
    pub semantic_index: u32,
    /// The register.
    pub register: u32,
    /// The components present (bit 0 = x).
    pub mask: u8,
    /// `D3D_REGISTER_COMPONENT_TYPE`: 1 uint, 2 sint, 3 float (0 unknown).
    pub component_type: u32,
}

/// A signature: its elements.
pub type Signature = [SigElement];

/// Choices of the translation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The entry point's name.
    pub entry_point: String,
    /// Where registers are bound.
    pub bindings: Bindings,
    /// Write a vertex shader as a compute entry point that runs one vertex per
    /// invocation over storage buffers (other stages ignore it): see
    /// [Vertex shaders as compute](crate#vertex-shaders-as-compute).
    pub vertex_as_compute: bool,
    /// The class instance bound to each interface slot (slot `fp# + index` of
    /// `dcl_interface fp#[n]`), as `*SetShader` binds them: the function table `fcall`
    /// runs and the `this[]` register. A slot not named gets the first table its
    /// declaration lists and `this` = 0 (the rule `exec` applies, both from
    /// [`tpf::interfaces`]). See [Subroutines and interfaces](crate#subroutines-and-interfaces).
    pub class_instances: ClassInstances,
    /// Translate the pull-model evaluation instructions (`eval_centroid`,
    /// `eval_sample_index`, `eval_snapped`) as calls of marker functions that
    /// [`write()`] turns into SPIR-V's and GLSL's `interpolateAt*` ([`pull_model`]);
    /// [`write()`] refuses such a module for WGSL, MSL and HLSL. Off (the default),
    /// [`module()`] refuses the instructions: the markers' own bodies are placeholders, so
    /// a module with them means what the program says only through [`write()`] (not,
    /// say, through another SPIR-V writer). [`translate()`] turns it on for SPIR-V and
    /// GLSL. See [Pull-model attribute evaluation](crate#pull-model-attribute-evaluation).
    pub pull_model: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            entry_point: "main".into(),
            bindings: Bindings::default(),
            vertex_as_compute: false,
            class_instances: ClassInstances::new(),
            pull_model: false,
        }
    }
}

/// The bind group of the input and output buffers of a vertex shader written as a
/// compute entry point ([`Options::vertex_as_compute`]): binding 0 the inputs, binding 1
/// the outputs.
pub const VERTEX_AS_COMPUTE_GROUP: u32 = 4;

/// The workgroup size (x) of a vertex shader written as a compute entry point.
pub const VERTEX_AS_COMPUTE_WORKGROUP: u32 = 64;

/// An output language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// WebGPU Shading Language (text).
    Wgsl,
    /// SPIR-V 1.0 (binary words, little-endian bytes).
    Spirv,
    /// Metal Shading Language 2.3 (text).
    Msl,
    /// GLSL 4.50 core (text).
    Glsl,
    /// HLSL Shader Model 5.1 (text).
    Hlsl,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 5] = [Target::Wgsl, Target::Spirv, Target::Msl, Target::Glsl, Target::Hlsl];

    /// The name the command line uses (`wgsl`, `spirv`...).
    pub fn name(self) -> &'static str {
        match self {
            Target::Wgsl => "wgsl",
            Target::Spirv => "spirv",
            Target::Msl => "msl",
            Target::Glsl => "glsl",
            Target::Hlsl => "hlsl",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Why a program was not translated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TranslateError {
    /// The bytes are not a container with an SM4/5 program.
    #[error("not a shader: {0}")]
    Input(String),
    /// A stage the translator does not handle yet.
    #[error("{profile}: only vertex, pixel and compute shaders are translated")]
    Stage {
        /// The program's profile (`gs_5_0`).
        profile: String,
    },
    /// A Shader Model the translator does not handle (no longer returned: Shader
    /// Model 5.1's ranges are handled, or refused as [`TranslateError::Resource`]).
    #[error("{profile}: Shader Model 5.1 is not translated")]
    Model {
        /// The program's profile.
        profile: String,
    },
    /// An instruction or declaration the translator does not handle.
    #[error("instruction {index} ({mnemonic}): {what} is not translated")]
    Unsupported {
        /// The instruction's index in the program.
        index: usize,
        /// Its mnemonic.
        mnemonic: &'static str,
        /// What about it.
        what: String,
    },
    /// Misnested flow control.
    #[error("instruction {index} ({mnemonic}): {message}")]
    Structure {
        /// The instruction's index in the program.
        index: usize,
        /// Its mnemonic.
        mnemonic: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A resource the target has no type for.
    #[error("{register}: {what} is not translated")]
    Resource {
        /// The register (`t3`, `u0`).
        register: String,
        /// What about it.
        what: String,
    },
    /// A system value the translator does not map yet.
    #[error("{register}: system value {name} is not translated")]
    SystemValue {
        /// The register.
        register: String,
        /// The system value.
        name: String,
    },
    /// A signature the translator cannot express.
    #[error("{register}: {what}")]
    Signature {
        /// The register.
        register: String,
        /// What about it.
        what: String,
    },
    /// naga's WGSL front end refused the generated source (a translator bug).
    #[error("internal: generated WGSL refused: {0}")]
    Generated(String),
    /// naga's validator refused the module.
    #[error("naga validation: {0}")]
    Validation(String),
    /// A vertex and geometry shader pair, or a stream-output declaration, the lowering
    /// to compute cannot run as asked ([`gs::lower`]).
    #[error("pipeline: {what}")]
    Pipeline {
        /// What does not fit.
        what: String,
    },
    /// A naga back end failed.
    #[error("{target} back end: {message}")]
    Backend {
        /// The target's name.
        target: &'static str,
        /// naga's message.
        message: String,
    },
}

impl TranslateError {
    /// A short stable code for the kind of error (expectation files, exit codes).
    pub fn code(&self) -> &'static str {
        match self {
            TranslateError::Input(_) => "input",
            TranslateError::Stage { .. } => "stage",
            TranslateError::Model { .. } => "model",
            TranslateError::Unsupported { .. } => "unsupported",
            TranslateError::Structure { .. } => "structure",
            TranslateError::Resource { .. } => "resource",
            TranslateError::SystemValue { .. } => "system-value",
            TranslateError::Signature { .. } => "signature",
            TranslateError::Generated(_) => "generated",
            TranslateError::Validation(_) => "validation",
            TranslateError::Pipeline { .. } => "pipeline",
            TranslateError::Backend { .. } => "backend",
        }
    }

    /// The mnemonic of the instruction at fault, if one is.
    pub fn mnemonic(&self) -> Option<&'static str> {
        match self {
            TranslateError::Unsupported { mnemonic, .. } | TranslateError::Structure { mnemonic, .. } => Some(mnemonic),
            _ => None,
        }
    }
}

/// The program and signatures of a DXBC container.
fn parts(bytes: &[u8]) -> Result<(tpf::Program<'_>, Vec<SigElement>, Vec<SigElement>), TranslateError> {
    let container = dxbc::Container::parse(bytes).map_err(|e| TranslateError::Input(e.to_string()))?;
    let chunk = container
        .chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])
        .ok_or_else(|| TranslateError::Input("no SHDR or SHEX chunk".into()))?;
    let program =
        tpf::decode(chunk.data).map_err(|e| TranslateError::Input(e.rebased(chunk.data_offset()).to_string()))?;
    let signature = |fourccs: &[dxbc::FourCc]| -> Result<Vec<SigElement>, TranslateError> {
        let Some(chunk) = container.chunk_any(fourccs) else { return Ok(Vec::new()) };
        let Some(format) = dxbc::SignatureFormat::for_fourcc(chunk.fourcc) else { return Ok(Vec::new()) };
        let sig =
            dxbc::Signature::parse_fields(chunk.data, format).map_err(|e| TranslateError::Input(e.to_string()))?;
        Ok(sig
            .elements
            .iter()
            .map(|e| SigElement {
                semantic_name: e.semantic_name.to_string(),
                semantic_index: e.semantic_index,
                register: e.register,
                mask: e.mask,
                component_type: u32::from(e.component_type),
            })
            .collect())
    };
    let isgn = signature(&[dxbc::FourCc::ISGN, dxbc::FourCc::ISG1])?;
    let osgn = signature(&[dxbc::FourCc::OSGN, dxbc::FourCc::OSG5, dxbc::FourCc::OSG1])?;
    Ok((program, isgn, osgn))
}

/// The WGSL source the front end writes for a DXBC container (before naga parses it).
/// It is an intermediate form, not a WGSL translation: `SV_CullDistance` outputs are a
/// second `clip_distances` member there (rebound to naga's `CullDistance` after
/// parsing), and with [`Options::pull_model`] each `eval_*` calls a placeholder that the
/// SPIR-V and GLSL writers give its body; [`write()`] with [`Target::Wgsl`] is the WGSL.
pub fn wgsl_source(bytes: &[u8], options: &Options) -> Result<String, TranslateError> {
    let (program, isgn, osgn) = parts(bytes)?;
    front::wgsl(&program, &isgn, &osgn, options)
}

/// The WGSL source the front end writes for a decoded program (before naga parses it):
/// the intermediate form [`wgsl_source`] describes.
pub fn wgsl_source_of_program(
    program: &tpf::Program<'_>,
    isgn: &Signature,
    osgn: &Signature,
    options: &Options,
) -> Result<String, TranslateError> {
    front::wgsl(program, isgn, osgn, options)
}

/// Translates the SM4/5 program of a DXBC container into a naga module (validated).
pub fn module(bytes: &[u8], options: &Options) -> Result<naga::Module, TranslateError> {
    let (program, isgn, osgn) = parts(bytes)?;
    module_from_program(&program, &isgn, &osgn, options)
}

/// Translates a decoded program with its input and output signatures (empty
/// signatures: every register is a float `vec4`). The module is validated.
pub fn module_from_program(
    program: &tpf::Program<'_>,
    isgn: &Signature,
    osgn: &Signature,
    options: &Options,
) -> Result<naga::Module, TranslateError> {
    let source = front::wgsl(program, isgn, osgn, options)?;
    let mut module =
        naga::front::wgsl::parse_str(&source).map_err(|e| TranslateError::Generated(e.emit_to_string(&source)))?;
    cull_distances(&mut module);
    naga::compact::compact(&mut module, naga::compact::KeepUnused::No);
    distinct_bindings(&module)?;
    validate(&module)?;
    Ok(module)
}

/// Rebinds the vertex shader's output member [`front::CULL_MEMBER`] (its
/// `SV_CullDistance` components, in register and component order, parsed as a second
/// `clip_distances` array) to naga's `CullDistance` built-in: SPIR-V's `CullDistance`,
/// GLSL's `gl_CullDistance`, HLSL's `SV_CullDistance`; the WGSL and MSL back ends have
/// none and refuse it.
pub(crate) fn cull_distances(module: &mut naga::Module) {
    let found: Vec<(naga::Handle<naga::Type>, naga::Type)> = module
        .types
        .iter()
        .filter_map(|(h, ty)| {
            let naga::TypeInner::Struct { members, span } = &ty.inner else { return None };
            if !members.iter().any(|m| m.name.as_deref() == Some(front::CULL_MEMBER)) {
                return None;
            }
            let members = members
                .iter()
                .map(|m| match m.name.as_deref() {
                    Some(front::CULL_MEMBER) => naga::StructMember {
                        binding: Some(naga::Binding::BuiltIn(naga::BuiltIn::CullDistance)),
                        ..m.clone()
                    },
                    _ => m.clone(),
                })
                .collect();
            Some((h, naga::Type { name: ty.name.clone(), inner: naga::TypeInner::Struct { members, span: *span } }))
        })
        .collect();
    for (h, ty) in found {
        module.types.replace(h, ty);
    }
}

/// Two resources at one group and binding (an override onto a taken slot, a Shader
/// Model 5.1 UAV register of 64 or more on the default place of a UAV counter, or a
/// resource of register space 1 on a buffer of the compute passes in group 4) are an
/// error naming both: a target binds one resource per slot.
pub(crate) fn distinct_bindings(module: &naga::Module) -> Result<(), TranslateError> {
    let mut taken: std::collections::BTreeMap<(u32, u32), &str> = std::collections::BTreeMap::new();
    for (_, g) in module.global_variables.iter() {
        let Some(b) = &g.binding else { continue };
        let name = g.name.as_deref().unwrap_or("?").trim_end_matches('_');
        if let Some(other) = taken.insert((b.group, b.binding), name) {
            return Err(TranslateError::Resource {
                register: name.to_string(),
                what: format!("group {} binding {}, which {other} also takes,", b.group, b.binding),
            });
        }
    }
    Ok(())
}

/// Runs naga's validator (every capability the back ends may need allowed).
pub fn validate(module: &naga::Module) -> Result<naga::valid::ModuleInfo, TranslateError> {
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(module)
        .map_err(|e| {
            let mut message = e.as_inner().to_string();
            let mut source = std::error::Error::source(e.as_inner());
            while let Some(s) = source {
                message.push_str(": ");
                message.push_str(&s.to_string());
                source = s.source();
            }
            TranslateError::Validation(one_line(&message))
        })
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The bounds checks every back end writes: an out-of-range index, buffer access or
/// texel load reads 0 and drops a write (the functional spec's out-of-bounds rules; see
/// the crate documentation for what each target can express).
fn bounds_check_policies() -> naga::proc::BoundsCheckPolicies {
    naga::proc::BoundsCheckPolicies {
        index: naga::proc::BoundsCheckPolicy::ReadZeroSkipWrite,
        buffer: naga::proc::BoundsCheckPolicy::ReadZeroSkipWrite,
        image_load: naga::proc::BoundsCheckPolicy::ReadZeroSkipWrite,
        binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
    }
}

/// Validates `module` and writes it in `target`'s language: text as UTF-8, SPIR-V as
/// its words in little-endian order.
pub fn write(module: &naga::Module, target: Target) -> Result<Vec<u8>, TranslateError> {
    let info = validate(module)?;
    let backend = |message: String| TranslateError::Backend { target: target.name(), message: one_line(&message) };
    let ep = module.entry_points.first().ok_or_else(|| backend("no entry point".into()))?;
    let policies = bounds_check_policies();
    if let Some(m) = pull_model::markers(module).first() {
        if !matches!(target, Target::Spirv | Target::Glsl) {
            return Err(pull_model::refusal(m, target));
        }
    }
    Ok(match target {
        Target::Wgsl => naga::back::wgsl::write_string(module, &info, naga::back::wgsl::WriterFlags::empty())
            .map_err(|e| backend(e.to_string()))?
            .into_bytes(),
        Target::Spirv => {
            let words = spirv_words(module, &info, naga::back::spv::WriterFlags::empty())?;
            words.iter().flat_map(|w| w.to_le_bytes()).collect()
        }
        Target::Msl => {
            // Metal has no double precision (naga's MSL writer would stop at it).
            if uses_f64(module) {
                return Err(backend("Metal has no double-precision floats".into()));
            }
            let options = naga::back::msl::Options {
                lang_version: (2, 3),
                bounds_check_policies: policies,
                fake_missing_bindings: true,
                ..Default::default()
            };
            let pipeline = naga::back::msl::PipelineOptions {
                entry_point: Some((ep.stage, ep.name.clone())),
                ..Default::default()
            };
            naga::back::msl::write_string(module, &info, &options, &pipeline)
                .map_err(|e| backend(e.to_string()))?
                .0
                .into_bytes()
        }
        Target::Glsl => glsl_text(module, &info, naga::back::glsl::BindingMap::default())?.into_bytes(),
        Target::Hlsl => {
            // naga's HLSL writer cannot size a runtime-sized binding array (an unbounded
            // Shader Model 5.1 range, `T0[0:*]`) nor address a binding array of storage
            // buffers (a range of raw, structured or typed buffer views or UAVs): it
            // would stop at them.
            if has_unbounded_binding_array(module) {
                return Err(backend("naga's HLSL writer has no unbounded binding array (a range `[n:*]`)".into()));
            }
            if has_storage_binding_array(module) {
                return Err(backend(
                    "naga's HLSL writer has no binding array of storage buffers (a range of buffer views or UAVs)"
                        .into(),
                ));
            }
            let options = naga::back::hlsl::Options {
                shader_model: naga::back::hlsl::ShaderModel::V5_1,
                fake_missing_bindings: true,
                ..Default::default()
            };
            let pipeline = naga::back::hlsl::PipelineOptions { entry_point: Some((ep.stage, ep.name.clone())) };
            let mut out = String::new();
            let mut w = naga::back::hlsl::Writer::new(&mut out, &options, &pipeline);
            w.write(module, &info, None).map_err(|e| backend(e.to_string()))?;
            out.into_bytes()
        }
    })
}

/// The GLSL 4.50 core text of a validated module (its first entry point), with the
/// translation's bounds-check policies and the resources' bindings of `binding_map`.
pub(crate) fn glsl_text(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    binding_map: naga::back::glsl::BindingMap,
) -> Result<String, TranslateError> {
    let backend = |message: String| TranslateError::Backend { target: "glsl", message: one_line(&message) };
    let ep = module.entry_points.first().ok_or_else(|| backend("no entry point".into()))?;
    // naga's GLSL writer has no binding arrays (it would stop at one of textures or
    // samplers): a Shader Model 5.1 range of more than one register.
    if module
        .global_variables
        .iter()
        .any(|(_, g)| matches!(module.types[g.ty].inner, naga::TypeInner::BindingArray { .. }))
    {
        return Err(backend("naga's GLSL writer has no binding arrays (a range of more than one register)".into()));
    }
    let policies = bounds_check_policies();
    let options = naga::back::glsl::Options {
        version: naga::back::glsl::Version::Desktop(450),
        binding_map,
        ..Default::default()
    };
    let pipeline =
        naga::back::glsl::PipelineOptions { shader_stage: ep.stage, entry_point: ep.name.clone(), multiview: None };
    let mut out = String::new();
    let mut w = naga::back::glsl::Writer::new(&mut out, module, info, &options, &pipeline, policies)
        .map_err(|e| backend(e.to_string()))?;
    w.write().map_err(|e| backend(e.to_string()))?;
    let out = redeclare_cull_distances(module, out);
    let markers = pull_model::markers(module);
    if markers.is_empty() {
        return Ok(out);
    }
    pull_model::glsl(&out, &markers).map_err(|e| backend(e.to_string()))
}

/// naga's GLSL writer assigns a vertex shader's cull distances to `gl_CullDistance`
/// without the redeclaration with a size that GLSL 4.50 requires of an array assigned
/// whole (section 7.1, "Built-In Language Variables"; it does redeclare
/// `gl_ClipDistance`): the redeclaration is added after the preprocessor lines.
fn redeclare_cull_distances(module: &naga::Module, text: String) -> String {
    let size = module.types.iter().find_map(|(_, ty)| match &ty.inner {
        naga::TypeInner::Struct { members, .. } => members.iter().find_map(|m| {
            if m.binding != Some(naga::Binding::BuiltIn(naga::BuiltIn::CullDistance)) {
                return None;
            }
            match module.types[m.ty].inner {
                naga::TypeInner::Array { size: naga::ArraySize::Constant(n), .. } => Some(n.get()),
                _ => None,
            }
        }),
        _ => None,
    });
    let Some(size) = size else { return text };
    if text.contains("out float gl_CullDistance[") {
        return text;
    }
    let at: usize = text.split_inclusive('\n').take_while(|line| line.starts_with('#')).map(str::len).sum();
    match text.split_at_checked(at) {
        Some((head, tail)) => format!("{head}out float gl_CullDistance[{size}];\n{tail}"),
        None => text,
    }
}

/// The SPIR-V words of a validated module (its first entry point), with the
/// translation's bounds-check policies and writer flags (plus `extra`), every float
/// operation marked `NoContraction`.
pub(crate) fn spirv_words(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    extra: naga::back::spv::WriterFlags,
) -> Result<Vec<u32>, TranslateError> {
    let backend = |message: String| TranslateError::Backend { target: "spirv", message: one_line(&message) };
    let ep = module.entry_points.first().ok_or_else(|| backend("no entry point".into()))?;
    let policies = bounds_check_policies();
    // The pull-model markers are found by their names.
    let markers = pull_model::markers(module);
    let extra = if markers.is_empty() { extra } else { extra | naga::back::spv::WriterFlags::DEBUG };
    let options = naga::back::spv::Options {
        bounds_check_policies: policies,
        flags: naga::back::spv::WriterFlags::ADJUST_COORDINATE_SPACE
            | naga::back::spv::WriterFlags::LABEL_VARYINGS
            | extra,
        ..Default::default()
    };
    let pipeline = naga::back::spv::PipelineOptions { shader_stage: ep.stage, entry_point: ep.name.clone() };
    let atomics_oob = |e: &naga::back::spv::Error| matches!(e, naga::back::spv::Error::FeatureNotImplemented(w) if w.contains("Atomics"));
    let clamped = |buffer, index| {
        let options = naga::back::spv::Options {
            bounds_check_policies: naga::proc::BoundsCheckPolicies { buffer, index, ..policies },
            ..options.clone()
        };
        naga::back::spv::write_vec(module, info, &options, Some(&pipeline))
    };
    let words = match naga::back::spv::write_vec(module, info, &options, Some(&pipeline)) {
        // naga's SPIR-V writer cannot skip an out-of-bounds atomic: buffer indices are
        // clamped instead in a module with atomics on buffers, and array indices too in
        // one with atomics on shared memory (`g#`).
        Err(e) if atomics_oob(&e) => match clamped(naga::proc::BoundsCheckPolicy::Restrict, policies.index) {
            Err(e) if atomics_oob(&e) => {
                clamped(naga::proc::BoundsCheckPolicy::Restrict, naga::proc::BoundsCheckPolicy::Restrict)
            }
            other => other,
        },
        other => other,
    }
    .map_err(|e| backend(e.to_string()))?;
    // Every float operation evaluated as written (no FMA, no reordering).
    let mut words = words;
    if !markers.is_empty() {
        pull_model::spirv(&mut words, &markers).map_err(|e| backend(e.to_string()))?;
    }
    no_contraction::forbid_contraction(&mut words).map_err(|e| backend(e.to_string()))?;
    decorate_uniform_binding_arrays(&mut words);
    if has_unbounded_binding_array(module) {
        declare_runtime_descriptor_arrays(&mut words);
    }
    Ok(words)
}

/// naga writes a binding array of uniform buffers (a Shader Model 5.1 range of
/// constant buffers, `CB1[2:4]`) without the `Block` decoration on its element struct
/// that Vulkan requires of a `Uniform` variable's struct
/// (`VUID-StandaloneSpirv-Uniform-06676`; naga decorates it for storage buffers
/// only): the decoration is added, before the first annotation, for the struct element
/// of every `Uniform` variable's (runtime) array type that lacks it.
fn decorate_uniform_binding_arrays(words: &mut Vec<u32>) {
    const OP_DECORATE: u32 = 71;
    const OP_MEMBER_DECORATE: u32 = 72;
    const OP_TYPE_ARRAY: u32 = 28;
    const OP_TYPE_RUNTIME_ARRAY: u32 = 29;
    const OP_TYPE_STRUCT: u32 = 30;
    const OP_TYPE_POINTER: u32 = 32;
    const OP_VARIABLE: u32 = 59;
    const UNIFORM: u32 = 2;
    const BLOCK: u32 = 2;
    let mut pointers = std::collections::BTreeMap::new();
    let mut arrays = std::collections::BTreeMap::new();
    let mut structs = std::collections::BTreeSet::new();
    let mut blocks = std::collections::BTreeSet::new();
    let mut variables = Vec::new();
    let mut first_annotation = None;
    let mut at = 5usize;
    while let Some(&w) = words.get(at) {
        let (count, op) = ((w >> 16) as usize, w & 0xffff);
        let Some(ins) = words.get(at..at.saturating_add(count)).filter(|_| count > 0) else { return };
        let arg = |k: usize| ins.get(k).copied().unwrap_or(u32::MAX);
        match op {
            OP_DECORATE | OP_MEMBER_DECORATE => {
                first_annotation.get_or_insert(at);
                if op == OP_DECORATE && arg(2) == BLOCK {
                    blocks.insert(arg(1));
                }
            }
            OP_TYPE_ARRAY | OP_TYPE_RUNTIME_ARRAY => {
                arrays.insert(arg(1), arg(2));
            }
            OP_TYPE_STRUCT => {
                structs.insert(arg(1));
            }
            OP_TYPE_POINTER if arg(2) == UNIFORM => {
                pointers.insert(arg(1), arg(3));
            }
            OP_VARIABLE if arg(3) == UNIFORM => variables.push(arg(1)),
            _ => {}
        }
        at = at.saturating_add(count);
    }
    let missing: std::collections::BTreeSet<u32> = variables
        .iter()
        .filter_map(|p| pointers.get(p))
        .filter_map(|pointee| arrays.get(pointee))
        .copied()
        .filter(|element| structs.contains(element) && !blocks.contains(element))
        .collect();
    let Some(at) = first_annotation else { return };
    let decorations: Vec<u32> = missing.iter().flat_map(|&s| [OP_DECORATE | (3 << 16), s, BLOCK]).collect();
    words.splice(at..at, decorations);
}

/// naga writes a runtime-sized binding array (an unbounded Shader Model 5.1 range,
/// `T0[0:*]`) as an `OpTypeRuntimeArray` variable without the `RuntimeDescriptorArray`
/// capability that Vulkan requires of one (`VUID-StandaloneSpirv-OpTypeRuntimeArray-04680`):
/// the capability is added after the header, and the `SPV_EXT_descriptor_indexing`
/// extension that defines it after the capabilities when naga has not declared it.
fn declare_runtime_descriptor_arrays(words: &mut Vec<u32>) {
    const OP_CAPABILITY: u32 = 17;
    const OP_EXTENSION: u32 = 10;
    const RUNTIME_DESCRIPTOR_ARRAY: u32 = 5302;
    const EXTENSION: &[u8] = b"SPV_EXT_descriptor_indexing";
    // The string, nul-terminated, in little-endian words.
    let mut bytes = EXTENSION.to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    let literal: Vec<u32> = bytes.chunks_exact(4).map(|c| c.try_into().map(u32::from_le_bytes).unwrap_or(0)).collect();
    // The instructions after the five header words: (start, word count, opcode).
    let mut at = 5usize;
    let mut end_of_capabilities = None;
    let mut declared = false;
    while let Some(&w) = words.get(at) {
        let (count, op) = ((w >> 16) as usize, w & 0xffff);
        if count == 0 {
            return;
        }
        if op != OP_CAPABILITY && end_of_capabilities.is_none() {
            end_of_capabilities = Some(at);
        }
        if op == OP_EXTENSION && words.get(at.saturating_add(1)..at.saturating_add(count)) == Some(&literal[..]) {
            declared = true;
        }
        if !matches!(op, OP_CAPABILITY | OP_EXTENSION) {
            break;
        }
        at = at.saturating_add(count);
    }
    let Some(end) = end_of_capabilities else { return };
    if !declared {
        let mut extension = vec![OP_EXTENSION | ((literal.len() as u32).saturating_add(1) << 16)];
        extension.extend_from_slice(&literal);
        words.splice(end..end, extension);
    }
    if words.len() >= 5 {
        words.splice(5..5, [OP_CAPABILITY | (2 << 16), RUNTIME_DESCRIPTOR_ARRAY]);
    }
}

/// Whether a global of the module is a binding array of storage buffers.
fn has_storage_binding_array(module: &naga::Module) -> bool {
    module.global_variables.iter().any(|(_, g)| {
        matches!(g.space, naga::AddressSpace::Storage { .. })
            && matches!(module.types[g.ty].inner, naga::TypeInner::BindingArray { .. })
    })
}

/// Whether a global of the module is a runtime-sized binding array.
fn has_unbounded_binding_array(module: &naga::Module) -> bool {
    module.global_variables.iter().any(|(_, g)| {
        matches!(module.types[g.ty].inner, naga::TypeInner::BindingArray { size: naga::ArraySize::Dynamic, .. })
    })
}

/// Whether a module has a double-precision type or literal.
fn uses_f64(module: &naga::Module) -> bool {
    let f64_scalar = |s: Option<naga::Scalar>| s.is_some_and(|s| s.kind == naga::ScalarKind::Float && s.width == 8);
    let f64_literal = |e: &naga::Expression| matches!(e, naga::Expression::Literal(naga::Literal::F64(_)));
    module.types.iter().any(|(_, t)| f64_scalar(t.inner.scalar()))
        || module.global_expressions.iter().any(|(_, e)| f64_literal(e))
        || module
            .functions
            .iter()
            .map(|(_, f)| f)
            .chain(module.entry_points.iter().map(|ep| &ep.function))
            .any(|f| f.expressions.iter().any(|(_, e)| f64_literal(e)))
}

/// [`module()`] then [`write()`]: a DXBC container in `target`'s language. A geometry
/// shader becomes a native SPIR-V or GLSL (Vulkan form) geometry shader
/// ([`geometry_spirv`], [`geometry_glsl`], without stream output); the other targets
/// have no geometry stage in naga, and give [`TranslateError::Stage`] for it (see
/// [Geometry shaders in SPIR-V](crate#geometry-shaders-in-spir-v)).
pub fn translate(bytes: &[u8], options: &Options, target: Target) -> Result<Vec<u8>, TranslateError> {
    if matches!(target, Target::Spirv | Target::Glsl) && is_geometry(bytes) {
        let native = NativeGsOptions { gs: options.clone(), stream_output: None };
        if target == Target::Glsl {
            return geometry_glsl(bytes, &native, GlslFlavor::Vulkan).map(String::into_bytes);
        }
        return geometry_spirv(bytes, &native);
    }
    if matches!(target, Target::Spirv | Target::Glsl) && !options.pull_model {
        let options = Options { pull_model: true, ..options.clone() };
        return write(&module(bytes, &options)?, target);
    }
    write(&module(bytes, options)?, target)
}

/// Whether the bytes are a container with a geometry shader's program.
pub fn is_geometry(bytes: &[u8]) -> bool {
    parts(bytes).is_ok_and(|(p, _, _)| p.version.ty == tpf::ProgramType::Geometry)
}
