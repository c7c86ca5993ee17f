//! Shared helpers of the interpreter tests: assemble a listing, run it, record what a
//! geometry shader emits.

#![allow(dead_code)]

use exec::machine::{EmitSink, GsRun, GsSystemValues, Machine};
use exec::{ExecError, Plan, Resources};

/// Assembles a listing (fxc's syntax) and compiles it.
pub fn plan(text: &str) -> Plan {
    let bytes = match listing::asm::assemble(text, &listing::asm::AsmOptions::default()) {
        Ok(a) => a.bytes,
        Err(e) => panic!("assembling:\n{text}\n{e:#?}"),
    };
    match Plan::from_bytecode(&bytes) {
        Ok(p) => p,
        Err(e) => panic!("compiling:\n{text}\n{e}"),
    }
}

/// Assembles and compiles, returning the compile result.
pub fn try_plan(text: &str) -> Result<Plan, ExecError> {
    let bytes = listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling:\n{text}\n{e:#?}"))
        .bytes;
    Plan::from_bytecode(&bytes)
}

/// Runs a vertex shader once; returns its outputs.
pub fn run_vs(text: &str, inputs: &[[u32; 4]]) -> Vec<[u32; 4]> {
    run_vs_with(text, inputs, &mut Resources::default())
}

/// Runs a vertex shader once with resources.
pub fn run_vs_with(text: &str, inputs: &[[u32; 4]], res: &mut Resources<'_>) -> Vec<[u32; 4]> {
    let p = plan(text);
    let mut m = Machine::new(&p);
    match m.run_vertex(&p, inputs, res) {
        Ok(o) => o.to_vec(),
        Err(e) => panic!("running:\n{text}\n{e}"),
    }
}

/// A vertex shader body with `dcl_output o0..o{n-1}`, inputs v0..v3 and 8 temps.
pub fn vs(body: &str, outputs: usize) -> String {
    let mut s = String::from("vs_5_0\ndcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps\n");
    for i in 0..4 {
        s += &format!("dcl_input v{i}.xyzw\n");
    }
    for i in 0..outputs {
        s += &format!("dcl_output o{i}.xyzw\n");
    }
    s += "dcl_temps 8\n";
    s += body;
    s += "\nret\n";
    s
}

/// Runs `body` as a vertex shader with one output, inputs `v`; returns o0.
pub fn eval(body: &str, v: &[[u32; 4]]) -> [u32; 4] {
    run_vs(&vs(body, 1), v)[0]
}

/// Float bits.
pub fn fb(x: f32) -> u32 {
    x.to_bits()
}

/// Four floats as bits.
pub fn f4(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// What a geometry shader did, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Emit(u32, Vec<[u32; 4]>),
    Cut(u32),
}

/// A sink recording every emit (with the whole output file) and cut.
#[derive(Debug, Default)]
pub struct Recorder {
    pub events: Vec<Event>,
}

impl EmitSink for Recorder {
    fn emit(&mut self, stream: u32, outputs: &[[u32; 4]]) {
        self.events.push(Event::Emit(stream, outputs.to_vec()));
    }
    fn cut(&mut self, stream: u32) {
        self.events.push(Event::Cut(stream));
    }
}

impl Recorder {
    /// The emitted vertices' o0.
    pub fn o0(&self) -> Vec<[u32; 4]> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Emit(_, o) => Some(o[0]),
                _ => None,
            })
            .collect()
    }
}

/// Runs a geometry shader once.
pub fn run_gs(
    p: &Plan,
    inputs: &[[u32; 4]],
    system: GsSystemValues,
    res: &mut Resources<'_>,
) -> (Result<GsRun, ExecError>, Recorder) {
    let mut m = Machine::new(p);
    let mut rec = Recorder::default();
    let r = m.run_geometry(p, inputs, system, res, &mut rec);
    (r, rec)
}
