//! Exact enumeration timings: every Caribbean Stud deal (and, once built, Casino Hold'em).
//! Run: `cargo bench --bench exact`.

use caribbean_fast::eval::tables;
use caribbean_fast::exact::stud;
use std::time::Instant;

fn main() {
    let ace_king = tables().strength(&[48, 44, 8, 4, 1]);
    let start = Instant::now();
    let rows = stud::enumerate(ace_king);
    let secs = start.elapsed().as_secs_f64();
    let deals: u64 = rows.iter().map(|r| r.weight as u64 * stud::DEALER_HANDS as u64).sum();
    println!("stud: {} situations, {deals} deals in {secs:.2} s ({:.2e} deals/s)", rows.len(), deals as f64 / secs);
}
