//! Simulation throughput of the Rust core alone (rounds per second, both cores).
//! Run: `cargo bench --bench sim`. The Python figures with best-strategy tables are printed by
//! `python benches/simulation.py`.

use caribbean_fast::eval::{tables, HandClass, LOWEST_ACE_KING};
use caribbean_fast::sim::decisions::{HoldemDecisions, StudDecisions};
use caribbean_fast::sim::holdem::HoldemGame;
use caribbean_fast::sim::rng::CHUNK_ROUNDS;
use caribbean_fast::sim::stud::StudGame;
use caribbean_fast::sim::{simulate, Buckets};
use std::time::Instant;

fn main() {
    let t = tables();
    let mut cuts: Vec<u16> = HandClass::ALL.iter().map(|&c| t.class_floor(c)).collect();
    cuts[1] = 0;
    let chunks = 400;
    let rounds = chunks * CHUNK_ROUNDS;
    let stud = StudGame {
        seats: 1,
        qualifier: t.strength(&LOWEST_ACE_KING),
        decisions: StudDecisions::threshold(t.strength(&[0, 1, 6, 10, 14])),
        first: Buckets::new(&cuts),
        classes: Buckets::new(&cuts),
        exchange: None,
    };
    let start = Instant::now();
    let counts = simulate(&stud, 1, 0..chunks, rounds);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "stud, pair-or-better threshold: {:.1} M rounds/s ({} rounds)",
        counts.iter().sum::<u64>() as f64 / secs / 1e6,
        rounds
    );
    let holdem = HoldemGame {
        qualifier: t.strength(&[8, 9, 12, 4, 0]),
        decisions: HoldemDecisions::constant(true),
        first: Buckets::new(&cuts),
        classes: Buckets::new(&cuts),
    };
    let start = Instant::now();
    let counts = simulate(&holdem, 1, 0..chunks, rounds);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "holdem, always call: {:.1} M rounds/s ({} rounds)",
        counts.iter().sum::<u64>() as f64 / secs / 1e6,
        rounds
    );
}
