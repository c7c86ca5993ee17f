//! Flow control (if/else, loops, switch, subroutines), the step and call-depth limits,
//! and geometry-shader output: emit/cut sequences, `dcl_maxout` ending the invocation,
//! system values, streams and checking mode.

mod common_interp;
use common_interp::*;
use exec::machine::{EmitSink, GsRun, GsSystemValues, Machine};
use exec::{ExecErrorKind, Plan, Resources};

fn run1(body: &str, v0: [u32; 4]) -> u32 {
    eval(body, &[v0])[0]
}

#[test]
fn if_else() {
    let body =
        "if_nz v0.x\n  mov o0.x, l(1)\nelse\n  mov o0.x, l(2)\nendif\nif_z v0.y\n  iadd o0.x, o0.x, l(10)\nendif";
    assert_eq!(run1(body, [0, 0, 0, 0]), 12);
    assert_eq!(run1(body, [7, 0, 0, 0]), 11);
    assert_eq!(run1(body, [0x8000_0000, 1, 0, 0]), 1); // -0.0 has a bit set: true
    assert_eq!(run1(body, [0, 5, 0, 0]), 2);
    // Nested.
    let body = "mov r0.x, l(0)\nif_nz v0.x\n  if_nz v0.y\n    mov r0.x, l(3)\n  else\n    mov r0.x, l(2)\n  endif\nelse\n  if_z v0.y\n    mov r0.x, l(4)\n  endif\nendif\nmov o0.x, r0.x";
    assert_eq!(run1(body, [1, 1, 0, 0]), 3);
    assert_eq!(run1(body, [1, 0, 0, 0]), 2);
    assert_eq!(run1(body, [0, 0, 0, 0]), 4);
    assert_eq!(run1(body, [0, 1, 0, 0]), 0);
}

#[test]
fn nested_loops_with_break_and_continue() {
    let body = "
mov r0.x, l(0)
mov r1.x, l(0)
loop
  ige r0.y, r0.x, l(4)
  breakc_nz r0.y
  iadd r0.x, r0.x, l(1)
  ieq r0.y, r0.x, l(2)
  continuec_nz r0.y
  mov r0.z, l(0)
  loop
    iadd r0.z, r0.z, l(1)
    ieq r0.w, r0.z, l(3)
    continuec_nz r0.w
    ilt r0.w, l(5), r0.z
    breakc_nz r0.w
    ieq r0.w, r0.x, l(4)
    if_nz r0.w
      ieq r0.w, r0.z, l(2)
      if_nz r0.w
        break
      endif
    endif
    imad r1.x, r0.x, l(10), r1.x
    iadd r1.x, r1.x, r0.z
  endloop
endloop
mov o0.x, r1.x";
    let mut want = 0;
    let mut i = 0;
    loop {
        if i >= 4 {
            break;
        }
        i += 1;
        if i == 2 {
            continue;
        }
        let mut j = 0;
        loop {
            j += 1;
            if j == 3 {
                continue;
            }
            if 5 < j {
                break;
            }
            if i == 4 && j == 2 {
                break;
            }
            want += i * 10 + j;
        }
    }
    assert_eq!(want, 225);
    assert_eq!(run1(body, [0; 4]), want);
    // breakc_z / continuec_z.
    let body = "mov r0.xy, l(0, 0, 0, 0)\nloop\n  iadd r0.x, r0.x, l(1)\n  and r0.z, r0.x, l(1)\n  continuec_z r0.z\n  iadd r0.y, r0.y, r0.x\n  ult r0.z, r0.x, l(9)\n  breakc_z r0.z\nendloop\nmov o0.x, r0.y";
    assert_eq!(run1(body, [0; 4]), 1 + 3 + 5 + 7 + 9);
}

const SWITCH: &str = "
switch v0.x
  case l(0)
  case l(1)
    mov r0.x, l(10)
    break
  default
  case l(5)
    mov r0.x, l(20)
    break
  case l(2)
    mov r0.x, l(30)
    break
  case l(3)
    switch v0.y
      case l(7)
        mov r0.x, l(40)
        break
      default
        mov r0.x, l(50)
        break
    endswitch
    iadd r0.x, r0.x, l(1)
    break
endswitch
mov o0.x, r0.x";

#[test]
fn switch_with_shared_cases_and_default() {
    let p = plan(&vs(SWITCH, 1));
    let mut m = Machine::new(&p);
    let mut run = |x: u32, y: u32| m.run_vertex(&p, &[[x, y, 0, 0]], &mut Resources::default()).unwrap()[0][0];
    assert_eq!(run(0, 0), 10);
    assert_eq!(run(1, 0), 10);
    assert_eq!(run(5, 0), 20);
    assert_eq!(run(9, 0), 20);
    assert_eq!(run(u32::MAX, 0), 20);
    assert_eq!(run(2, 0), 30);
    assert_eq!(run(3, 7), 41);
    assert_eq!(run(3, 8), 51);
    // No default and no match: nothing runs.
    assert_eq!(
        run1(
            "mov r0.x, l(1)\nswitch v0.x\n  case l(4)\n    mov r0.x, l(2)\n    break\nendswitch\nmov o0.x, r0.x",
            [3, 0, 0, 0]
        ),
        1
    );
}

#[test]
fn switch_inside_loop_break_and_continue() {
    let body = "
mov r0.x, l(0)
mov r1.x, l(0)
loop
  ige r0.y, r0.x, l(6)
  breakc_nz r0.y
  iadd r0.x, r0.x, l(1)
  switch r0.x
    case l(2)
      continue
    case l(4)
      iadd r1.x, r1.x, l(100)
      break
    default
      iadd r1.x, r1.x, l(1)
      break
  endswitch
  iadd r1.x, r1.x, l(1000)
endloop
mov o0.x, r1.x";
    assert_eq!(run1(body, [0; 4]), 5104);
}

const CALLS: &str = "
mov r0.x, l(1)
call l1
callc_nz v0.x, l2
callc_z v0.x, l1
retc_nz v0.z
mov o0.x, r0.x
ret
label l1
iadd r0.x, r0.x, l(10)
retc_nz v0.y
iadd r0.x, r0.x, l(100)
ret
label l2
imul null, r0.x, r0.x, l(2)
call l1
ret";

#[test]
fn call_ret_with_labels() {
    assert_eq!(run1(CALLS, [0, 0, 0, 0]), 221);
    assert_eq!(run1(CALLS, [1, 0, 0, 0]), 332);
    assert_eq!(run1(CALLS, [1, 1, 0, 0]), 32);
    // retc in the main program ends the invocation.
    assert_eq!(run1(CALLS, [1, 1, 1, 0]), 0);
}

fn chain(depth: usize) -> String {
    let mut s = String::from("call l0\nret\n");
    for k in 0..depth {
        if k + 1 < depth {
            s += &format!("label l{k}\ncall l{}\nret\n", k + 1);
        } else {
            s += &format!("label l{k}\nmov o0.x, l({depth})\nret\n");
        }
    }
    s
}

/// Spec 7.12: "If there are already 32 entries on the return address stack and a
/// call is issued, the call is skipped over."
#[test]
fn call_depth_limit() {
    assert_eq!(run1(&chain(32), [0; 4]), 32);
    // The 33rd nested call (to the label that writes o0.x) is skipped: o0.x stays 0.
    assert_eq!(run1(&chain(33), [0; 4]), 0);
    // Recursion: 32 calls run the body, the 33rd is skipped, every level returns.
    assert_eq!(run1("call l0\nret\nlabel l0\niadd o0.x, o0.x, l(1)\ncall l0\nret", [0; 4]), 32);
}

#[test]
fn step_limit_stops_endless_loops() {
    let p = plan(&vs("loop\n  iadd r0.x, r0.x, l(1)\nendloop", 1));
    let mut m = Machine::new(&p);
    m.set_step_limit(1000);
    let e = m.run_vertex(&p, &[], &mut Resources::default()).unwrap_err();
    assert_eq!(e.kind, ExecErrorKind::StepLimit(1000));
    // The default limit too, quickly.
    let mut m = Machine::new(&p);
    let e = m.run_vertex(&p, &[], &mut Resources::default()).unwrap_err();
    assert_eq!(e.kind, ExecErrorKind::StepLimit(Machine::DEFAULT_STEP_LIMIT));
    // An empty loop, and a machine reused after the error.
    let p2 = plan(&vs("loop\nendloop", 1));
    m.set_step_limit(10);
    assert_eq!(m.run_vertex(&p2, &[], &mut Resources::default()).unwrap_err().kind, ExecErrorKind::StepLimit(10));
    // Exactly the limit is allowed: 3 instructions (mov, mov, ret).
    let p3 = plan(&vs("mov o0.x, l(1)\nmov o0.y, l(2)", 1));
    m.set_step_limit(3);
    assert_eq!(m.run_vertex(&p3, &[], &mut Resources::default()).unwrap()[0], [1, 2, 0, 0]);
    m.set_step_limit(2);
    assert!(m.run_vertex(&p3, &[], &mut Resources::default()).is_err());
}

/// Parses `text`, applies `edit` to the program, compiles.
fn compile_edited(text: &str, edit: impl FnOnce(&mut tpf::Program<'static>)) -> exec::ExecError {
    let mut parsed = tpf::parse::parse_program(text).expect("parses");
    edit(&mut parsed.program);
    Plan::compile(&parsed.program, Vec::new(), Vec::new()).expect_err("refused")
}

fn remove(mnemonic: &'static str) -> impl FnOnce(&mut tpf::Program<'static>) {
    move |p| {
        let at = p.instructions.iter().position(|i| i.opcode.mnemonic() == mnemonic).unwrap();
        p.instructions.remove(at);
    }
}

#[test]
fn malformed_structure_is_refused() {
    let ife = "vs_5_0\ndcl_output o0.xyzw\nif_nz l(1)\nmov o0.x, l(1)\nelse\nmov o0.x, l(2)\nendif\nret\n";
    for (cut, want) in [("if", "else without if"), ("endif", "if without endif")] {
        let e = compile_edited(ife, remove(cut));
        assert_eq!(e.kind, ExecErrorKind::Malformed(want.into()), "removing {cut}");
    }
    let lp = "vs_5_0\ndcl_output o0.xyzw\nloop\nbreak\nendloop\nswitch l(0)\ncase l(0)\nbreak\nendswitch\nret\n";
    let e = compile_edited(lp, remove("loop"));
    assert_eq!(e.kind, ExecErrorKind::Malformed("break outside a loop or switch".into()));
    assert_eq!(e.instruction, Some(1));
    let e = compile_edited(lp, remove("endloop"));
    assert_eq!(e.kind, ExecErrorKind::Malformed("loop without endloop".into()));
    let e = compile_edited(lp, |p| {
        p.instructions.remove(1); // loop
        p.instructions.remove(1); // break
    });
    assert_eq!(e.kind, ExecErrorKind::Malformed("endloop without loop".into()));
    let e = compile_edited(lp, |p| {
        let n = p.instructions.len();
        p.instructions.remove(n - 2); // endswitch
    });
    assert_eq!(e.kind, ExecErrorKind::Malformed("switch without endswitch".into()));
    assert_eq!(
        compile_edited(lp, remove("switch")).kind,
        ExecErrorKind::Malformed("case or default outside a switch".into())
    );
    // What the assembler refuses, made by editing the program: a second `else`, a
    // second `default`.
    let e = compile_edited(ife, |p| {
        let at = p.instructions.iter().position(|i| i.opcode.mnemonic() == "else").unwrap();
        let again = p.instructions[at];
        p.instructions.insert(at + 1, again);
    });
    assert_eq!(e.kind, ExecErrorKind::Malformed("else without if".into()));
    let sw = "vs_5_0\ndcl_output o0.xyzw\nswitch l(0)\ndefault\nbreak\nendswitch\nret\n";
    let e = compile_edited(sw, |p| {
        let again = p.instructions[2]; // default
        p.instructions.insert(4, again);
    });
    assert_eq!(e.kind, ExecErrorKind::Malformed("two defaults in one switch".into()));
    assert_eq!(e.instruction, Some(4));
    let e = try_plan("vs_5_0\ncall l3\nret\n").unwrap_err();
    assert_eq!(e.kind, ExecErrorKind::Malformed("call to l3, which is not defined".into()));
    assert_eq!(e.instruction, Some(0));
    let e = try_plan("vs_5_0\ndcl_output o0.xyzw\nemit\nret\n").unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::Malformed(_)));
}

#[test]
fn unsupported_things_are_refused_at_compile_time() {
    let e = try_plan("vs_5_0\ndcl_output o0.xyzw\nderiv_rtx o0.xyzw, l(1,1,1,1)\nret\n").unwrap_err();
    assert_eq!(e.instruction, Some(1));
    assert!(matches!(&e.kind, ExecErrorKind::Unsupported(m) if m.starts_with("deriv_rtx")), "{e}");
    // Pixel shaders compile (their quads: `pixel_*` tests); hull and domain shaders
    // are refused (compute shaders compile: `compute_*` tests).
    assert!(try_plan("ps_5_0\nret\n").is_ok());
    for stage in ["hs_5_0", "ds_5_0"] {
        let e = try_plan(&format!("{stage}\nret\n")).unwrap_err();
        assert!(matches!(e.kind, ExecErrorKind::Unsupported(_)), "{stage}: {e}");
    }
    assert!(try_plan("cs_5_0\ndcl_thread_group 1, 1, 1\nret\n").is_ok());
    let s = "vs_5_0\ndcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_output o0.xyzw\n";
    for (line, name) in [
        ("sample o0.xyzw, l(0,0,0,0), t0.xyzw, s0", "sample"),
        ("sample_b o0.xyzw, l(0,0,0,0), t0.xyzw, s0, l(0)", "sample_b"),
        ("lod o0.xyzw, l(0,0,0,0), t0.xyzw, s0", "lod"),
    ] {
        let e = try_plan(&format!("{s}{line}\nret\n")).unwrap_err();
        assert!(matches!(&e.kind, ExecErrorKind::Unsupported(m) if m.starts_with(name)), "{e}");
    }
}

const GS_HEAD: &str = "gs_4_0
dcl_input v[1][0].xyzw
dcl_temps 2
dcl_inputprimitive point
dcl_outputtopology trianglestrip
dcl_output o0.xyzw
";

#[test]
fn gs_emit_and_cut_sequence() {
    let p = plan(&format!(
        "{GS_HEAD}dcl_maxout 8
mov r0.xyzw, v[0][0].xyzw
mov o0.xyzw, r0.xyzw
emit
iadd r0.x, r0.x, l(1)
mov o0.xyzw, r0.xyzw
emit
cut
iadd r0.x, r0.x, l(1)
mov o0.xyzw, r0.xyzw
emit_then_cut
iadd r0.x, r0.x, l(1)
mov o0.xyzw, r0.xyzw
emit
ret
"
    ));
    assert_eq!(p.max_vertex_count, 8);
    assert_eq!(p.input_vertices, 1);
    assert_eq!(p.input_registers, 1);
    assert_eq!(p.output_registers, 1);
    assert_eq!(p.output_topology[0], Some(tpf::PrimitiveTopology::TriangleStrip));
    let (r, rec) = run_gs(&p, &[[10, 1, 2, 3]], GsSystemValues::default(), &mut Resources::default());
    assert_eq!(r.unwrap(), GsRun { emitted: 4, hit_max_vertex_count: false });
    let e = |x: u32| Event::Emit(0, vec![[x, 1, 2, 3]]);
    assert_eq!(rec.events, vec![e(10), e(11), Event::Cut(0), e(12), Event::Cut(0), e(13)]);
}

#[test]
fn gs_maxout_ends_the_invocation() {
    // Tries 5 emits with dcl_maxout 4: exactly 4 reach the sink, nothing after.
    let p = plan(&format!(
        "{GS_HEAD}dcl_maxout 4
mov r0.x, l(0)
loop
  uge r0.y, r0.x, l(5)
  breakc_nz r0.y
  mov o0.xyzw, r0.xxxx
  emit
  iadd r0.x, r0.x, l(1)
endloop
cut
ret
"
    ));
    let (r, rec) = run_gs(&p, &[[0; 4]], GsSystemValues::default(), &mut Resources::default());
    assert_eq!(r.unwrap(), GsRun { emitted: 4, hit_max_vertex_count: true });
    assert_eq!(rec.o0(), vec![[0; 4], [1; 4], [2; 4], [3; 4]]);
    assert!(matches!(rec.events.last(), Some(Event::Emit(..))), "no cut after the invocation ended");
    // Exactly maxout emits followed by a cut: the cut is not reached either.
    let p = plan(&format!("{GS_HEAD}dcl_maxout 2\nemit\nemit\ncut\nret\n"));
    let (r, rec) = run_gs(&p, &[[0; 4]], GsSystemValues::default(), &mut Resources::default());
    assert_eq!(r.unwrap(), GsRun { emitted: 2, hit_max_vertex_count: true });
    assert_eq!(rec.events.len(), 2);
    // Fewer emits than maxout: not hit.
    let p = plan(&format!("{GS_HEAD}dcl_maxout 3\nemit\nemit\ncut\nret\n"));
    let (r, rec) = run_gs(&p, &[[0; 4]], GsSystemValues::default(), &mut Resources::default());
    assert_eq!(r.unwrap(), GsRun { emitted: 2, hit_max_vertex_count: false });
    assert_eq!(rec.events.len(), 3);
}

#[test]
fn gs_system_values() {
    let p = plan(
        "gs_5_0
dcl_input vPrim
dcl_input vGSInstanceID
dcl_temps 1
dcl_inputprimitive triangle
dcl_outputtopology pointlist
dcl_output o0.xyzw
dcl_maxout 1
dcl_gsinstances 3
mov o0.x, vPrim
mov o0.y, vGSInstanceID.x
iadd o0.z, vPrim, vGSInstanceID.x
emit
ret
",
    );
    assert!(p.uses_primitive_id && p.uses_gs_instance_id);
    assert_eq!(p.instance_count, 3);
    assert_eq!(p.input_vertices, 3);
    assert_eq!(p.input_primitive, Some(tpf::Primitive::Triangle));
    let sys = GsSystemValues { primitive_id: 40, gs_instance_id: 2 };
    let (r, rec) = run_gs(&p, &[], sys, &mut Resources::default());
    assert_eq!(r.unwrap().emitted, 1);
    assert_eq!(rec.o0(), vec![[40, 2, 42, 0]]);
    // A plan without them.
    let q = plan(&format!("{GS_HEAD}dcl_maxout 1\nemit\nret\n"));
    assert!(!q.uses_primitive_id && !q.uses_gs_instance_id);
    assert_eq!(q.instance_count, 1);
}

#[test]
fn gs_relative_vertex_index() {
    // geometry_gs-style loop over the vertices, plus reads past the last vertex.
    let p = plan(
        "gs_5_0
dcl_input v[3][0].xyzw
dcl_input v[3][1].xy
dcl_temps 2
dcl_inputprimitive triangle
dcl_outputtopology trianglestrip
dcl_output o0.xyzw
dcl_output o1.xy
dcl_maxout 6
mov r0.x, l(0)
loop
  ige r0.y, r0.x, l(4)
  breakc_nz r0.y
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  mov o1.xy, v[r0.x + 0][1].yxxx
  emit
  iadd r0.x, r0.x, l(1)
endloop
mov r0.x, l(-1)
mov o0.xyzw, v[r0.x + 2][0].xyzw
emit
ret
",
    );
    assert_eq!((p.input_vertices, p.input_registers, p.output_registers), (3, 2, 2));
    let inputs = [[1, 1, 1, 1], [2, 3, 0, 0], [5, 5, 5, 5], [6, 7, 0, 0], [8, 8, 8, 8], [9, 10, 0, 0]];
    let (r, rec) = run_gs(&p, &inputs, GsSystemValues::default(), &mut Resources::default());
    assert_eq!(r.unwrap().emitted, 5);
    let vs: Vec<_> = rec
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Emit(0, o) => Some((o[0], o[1])),
            _ => None,
        })
        .collect();
    assert_eq!(
        vs,
        vec![
            ([1; 4], [3, 2, 0, 0]),
            ([5; 4], [7, 6, 0, 0]),
            ([8; 4], [10, 9, 0, 0]),
            ([0; 4], [0, 0, 0, 0]), // vertex 3 does not exist: 0
            ([5; 4], [0, 0, 0, 0]), // -1 + 2 = vertex 1; o1 keeps its value
        ]
    );
}

#[test]
fn gs_streams() {
    let p = plan(
        "gs_5_0
dcl_input v[1][0].xyzw
dcl_inputprimitive point
dcl_stream m0
dcl_outputtopology trianglestrip
dcl_output o0.xyzw
dcl_stream m1
dcl_outputtopology pointlist
dcl_output o0.xyzw
dcl_output o1.x
dcl_maxout 4
mov o0.xyzw, v[0][0].xyzw
emit_stream m0
mov o1.x, l(7)
emit_stream m1
cut_stream m0
emit_then_cut_stream m1
ret
",
    );
    assert_eq!(p.streams, 0b11);
    assert_eq!(p.output_topology[0], Some(tpf::PrimitiveTopology::TriangleStrip));
    assert_eq!(p.output_topology[1], Some(tpf::PrimitiveTopology::PointList));
    assert_eq!(p.stream_outputs(1).count(), 2);
    assert_eq!(p.stream_outputs(0).count(), 1);
    let (r, rec) = run_gs(&p, &[[1, 2, 3, 4]], GsSystemValues::default(), &mut Resources::default());
    assert_eq!(r.unwrap().emitted, 3);
    let v0 = vec![[1, 2, 3, 4], [0, 0, 0, 0]];
    let v1 = vec![[1, 2, 3, 4], [7, 0, 0, 0]];
    assert_eq!(
        rec.events,
        vec![Event::Emit(0, v0), Event::Emit(1, v1.clone()), Event::Cut(0), Event::Emit(1, v1), Event::Cut(1)]
    );
}

#[test]
fn checking_mode_reports_stale_outputs() {
    let p = plan(
        "gs_4_0
dcl_input v[1][0].xyzw
dcl_inputprimitive point
dcl_outputtopology pointlist
dcl_output o0.xyzw
dcl_output o1.xy
dcl_maxout 3
mov o0.xyzw, v[0][0].xyzw
mov o1.xy, l(5, 6, 0, 0)
emit
mov o0.xyzw, l(1, 2, 3, 4)
mov o1.x, l(9)
emit
emit
ret
",
    );
    let mut m = Machine::new(&p);
    m.set_checking(true);
    let mut rec = Recorder::default();
    let r = m.run_geometry(&p, &[[0; 4]], GsSystemValues::default(), &mut Resources::default(), &mut rec).unwrap();
    assert_eq!(r.emitted, 3);
    // The stale values are still what is emitted.
    assert_eq!(rec.events[1], Event::Emit(0, vec![[1, 2, 3, 4], [9, 6, 0, 0]]));
    let d = m.take_diagnostics();
    let msgs: Vec<(usize, &str)> = d.iter().map(|d| (d.instruction, d.message.as_str())).collect();
    assert_eq!(
        msgs,
        vec![
            (11, "emit on stream 0: o1.y was not written since the previous emit (its value is undefined)"),
            (12, "emit on stream 0: o0.xyzw was not written since the previous emit (its value is undefined)"),
            (12, "emit on stream 0: o1.xy was not written since the previous emit (its value is undefined)"),
        ]
    );
    assert!(m.take_diagnostics().is_empty());
    // A new invocation starts clean: nothing written yet counts.
    let q = plan(&format!("{GS_HEAD}dcl_maxout 1\nemit\nret\n"));
    m.run_geometry(&q, &[[0; 4]], GsSystemValues::default(), &mut Resources::default(), &mut rec).unwrap();
    assert_eq!(m.take_diagnostics().len(), 1);
    // Off: nothing recorded.
    m.set_checking(false);
    m.run_geometry(&p, &[[0; 4]], GsSystemValues::default(), &mut Resources::default(), &mut rec).unwrap();
    assert!(m.take_diagnostics().is_empty());
}

#[test]
fn machines_are_reused_across_invocations_and_plans() {
    let a = plan(&vs("iadd o0.x, v0.x, l(1)\nmov r3.x, l(5)", 1));
    let b = plan(&vs("mov o0.xyzw, r3.xyzw\nmov o1.x, l(2)", 2));
    let mut m = Machine::new(&a);
    for i in 0..100u32 {
        assert_eq!(m.run_vertex(&a, &[[i, 0, 0, 0]], &mut Resources::default()).unwrap()[0][0], i + 1);
    }
    // Temps start at zero in every invocation.
    assert_eq!(m.run_vertex(&b, &[], &mut Resources::default()).unwrap(), &[[0; 4], [2, 0, 0, 0]]);
    assert_eq!(m.run_vertex(&a, &[[1, 0, 0, 0]], &mut Resources::default()).unwrap()[0][0], 2);
    // The wrong kind of run is an error, not a panic.
    let g = plan(&format!("{GS_HEAD}dcl_maxout 1\nemit\nret\n"));
    assert!(matches!(m.run_vertex(&g, &[], &mut Resources::default()).unwrap_err().kind, ExecErrorKind::Draw(_)));
    struct Nothing;
    impl EmitSink for Nothing {
        fn emit(&mut self, _: u32, _: &[[u32; 4]]) {}
        fn cut(&mut self, _: u32) {}
    }
    let r = m.run_geometry(&a, &[], GsSystemValues::default(), &mut Resources::default(), &mut Nothing);
    assert!(matches!(r.unwrap_err().kind, ExecErrorKind::Draw(_)));
}
