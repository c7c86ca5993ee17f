//! How much of the instruction tables and of the chunk layouts the Microsoft oracle
//! data (`tests/oracle/*.dxo`) exercises: every SM4/5 opcode of `tpf::table::TABLE` and
//! every SM1–3 opcode of `d3dbc::TABLE`, with the number of programs Microsoft listed
//! that hold it, and every chunk kind the blobs carry. The expectation file
//! `tests/expect/oracle_coverage.txt` lists each row, so a row that loses (or gains) its
//! coverage when the data is regenerated fails until blessed.

use std::collections::BTreeMap;

use dxbc::{Container, FourCc};

fn bucket(n: usize) -> &'static str {
    match n {
        0 => "not covered",
        1..=9 => "covered by 1-9 programs",
        10..=99 => "covered by 10-99 programs",
        _ => "covered by 100+ programs",
    }
}

#[test]
fn oracle_coverage_of_the_tables_and_chunks() {
    let mut tpf_seen: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut d3dbc_seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut chunks: BTreeMap<String, usize> = BTreeMap::new();
    let sm13 = |program: &[u8], seen: &mut BTreeMap<String, usize>| {
        if let Ok(p) = d3dbc::decode(program) {
            let mut here = std::collections::BTreeSet::new();
            for i in p.instructions() {
                here.insert(format!("{:?}", i.opcode));
            }
            for k in here {
                *seen.entry(k).or_default() += 1;
            }
        }
    };
    for (_, records) in corpus::oracle::archives() {
        for r in &records {
            // Only what Microsoft itself listed counts as checked against it.
            if r.text(0).is_none_or(|t| t.hr != 0) {
                continue;
            }
            if listing::is_d3dbc(&r.blob) {
                sm13(&r.blob, &mut d3dbc_seen);
                continue;
            }
            let Ok(c) = Container::parse(&r.blob) else { continue };
            for chunk in c.chunks() {
                *chunks.entry(chunk.fourcc.to_string()).or_default() += 1;
            }
            if let Some(aon9) = c.chunk(FourCc::AON9).and_then(|a| dxbc::Aon9::parse(a.data).ok()) {
                sm13(aon9.program, &mut d3dbc_seen);
            }
            let Some(code) = c.chunk_any(&[FourCc::SHEX, FourCc::SHDR]) else { continue };
            let Ok(p) = tpf::decode(code.data) else { continue };
            let mut here = std::collections::BTreeSet::new();
            for i in &p.instructions {
                here.insert(i.opcode.info().mnemonic);
            }
            for m in here {
                *tpf_seen.entry(m).or_default() += 1;
            }
        }
    }
    let mut got = BTreeMap::new();
    let (mut tpf_covered, mut d3dbc_covered) = (0, 0);
    for row in tpf::table::TABLE {
        let n = tpf_seen.get(row.mnemonic).copied().unwrap_or(0);
        tpf_covered += usize::from(n > 0);
        got.insert(format!("sm4-5/{:03}-{}", row.opcode as u16, row.mnemonic), bucket(n).to_string());
    }
    for row in d3dbc::TABLE {
        let name = format!("{:?}", row.opcode);
        let n = d3dbc_seen.get(&name).copied().unwrap_or(0);
        d3dbc_covered += usize::from(n > 0);
        got.insert(format!("sm1-3/{:03}-{}", row.opcode as u16, row.mnemonic), bucket(n).to_string());
    }
    for (fourcc, n) in &chunks {
        got.insert(format!("chunk/{fourcc}"), bucket(*n).to_string());
    }
    println!(
        "oracle coverage: SM4/5 opcodes {tpf_covered}/{}, SM1-3 opcodes {d3dbc_covered}/{}, chunk kinds {:?}",
        tpf::table::TABLE.len(),
        d3dbc::TABLE.len(),
        chunks
    );
    corpus::expect::check(corpus::expect_file!("oracle_coverage.txt"), &got);
}
