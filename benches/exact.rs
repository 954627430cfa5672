//! Exact enumeration timings: every Caribbean Stud deal (and, once built, Casino Hold'em).
//! Run: `cargo bench --bench exact`.

use caribbean_fast::eval::{tables, LOWEST_ACE_KING};
use caribbean_fast::exact::{holdem, stud};
use std::time::Instant;

fn main() {
    let ace_king = tables().strength(&LOWEST_ACE_KING);
    let start = Instant::now();
    let rows = stud::enumerate(ace_king);
    let secs = start.elapsed().as_secs_f64();
    let deals: u64 = rows
        .iter()
        .map(|r| r.weight as u64 * stud::DEALER_HANDS as u64)
        .sum();
    println!(
        "stud: {} situations, {deals} deals in {secs:.2} s ({:.2e} deals/s)",
        rows.len(),
        deals as f64 / secs
    );

    let pair_of_fours = tables().strength(&[8, 9, 12, 4, 0]);
    let start = Instant::now();
    let situations = holdem::Situations::build();
    let built = start.elapsed().as_secs_f64();
    let counts = holdem::enumerate(&situations, pair_of_fours);
    let secs = start.elapsed().as_secs_f64();
    let deals: u64 = counts.iter().map(|&n| n as u64).sum();
    println!(
        "holdem: {} situations (indexed in {built:.2} s), {deals} deals in {secs:.2} s ({:.2e} deals/s)",
        situations.len(),
        deals as f64 / secs
    );
}
