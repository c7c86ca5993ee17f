//! A `DBUG` block's type records are read within a budget that counts struct members
//! too: many records sharing one member table would otherwise expand a small block
//! into millions of members.

use d3dbc::dbug::{DbugErrorKind, DebugInfo};

fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_u16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

/// One variable whose struct type has `outer` members, each a distinct struct record
/// whose `inner` members all share one member table (of one scalar type).
fn shared_member_tables(outer: u16, inner: u16) -> Vec<u8> {
    let (outer_n, inner_n) = (outer as usize, inner as usize);
    let var = 40;
    let name = var + 20;
    let scalar = name + 4;
    let outer_record = scalar + 16;
    let outer_table = outer_record + 16;
    let leaves = outer_table + 8 * outer_n;
    let shared_table = leaves + 16 * outer_n;
    let end = shared_table + 8 * inner_n;
    let mut b = vec![0u8; end];
    for (i, v) in [40, 0, 0, 0, 0, 0, 0, 1, var as u32, 0].into_iter().enumerate() {
        put_u32(&mut b, 4 * i, v);
    }
    put_u32(&mut b, var + 4, name as u32);
    put_u32(&mut b, var + 8, outer_record as u32);
    b[name] = b'v';
    // The scalar: class 0 (scalar), type 3 (float), 1 x 1, 1 element, no members.
    for (k, v) in [0u16, 3, 1, 1, 1, 0].into_iter().enumerate() {
        put_u16(&mut b, scalar + 2 * k, v);
    }
    let record = |b: &mut [u8], at: usize, members: u16, table: usize| {
        for (k, v) in [5u16, 0, 1, 1, 1, members].into_iter().enumerate() {
            put_u16(b, at + 2 * k, v);
        }
        put_u32(b, at + 12, table as u32);
    };
    record(&mut b, outer_record, outer, outer_table);
    for i in 0..outer_n {
        put_u32(&mut b, outer_table + 8 * i, name as u32);
        put_u32(&mut b, outer_table + 8 * i + 4, (leaves + 16 * i) as u32);
        record(&mut b, leaves + 16 * i, inner, shared_table);
    }
    for i in 0..inner_n {
        put_u32(&mut b, shared_table + 8 * i, name as u32);
        put_u32(&mut b, shared_table + 8 * i + 4, scalar as u32);
    }
    b
}

#[test]
fn records_sharing_a_member_table_walk_it_within_the_budget() {
    // 2,000 records x 2,000 shared members: 4 million members from 64 KB.
    let b = shared_member_tables(2000, 2000);
    for parse in [DebugInfo::parse, DebugInfo::parse_fields] {
        let e = parse(&b).expect_err("over the budget");
        assert_eq!(e.kind, DbugErrorKind::TooManyTypes, "{e:?}");
    }
}

#[test]
fn a_few_records_sharing_a_member_table_read_each_its_members() {
    let b = shared_member_tables(3, 4);
    let info = DebugInfo::parse_fields(&b).expect("within the budget");
    let outer = &info.types[info.variables[0].ty];
    assert_eq!(outer.members.len(), 3);
    for (_, leaf) in &outer.members {
        assert_eq!(info.types[*leaf].members.len(), 4);
    }
}
