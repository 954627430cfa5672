//! Evaluator throughput: every 7-card hand, and 10 million random ones.
//! Run: `cargo bench --bench eval` (prints hands per second; no harness).

use caribbean_fast::eval::{batch, enumerate::strength_histogram, tables};
use rand::{rngs::SmallRng, seq::index::sample, SeedableRng};
use std::time::Instant;

fn random_hands(n: usize, seed: u64) -> Vec<[u8; 7]> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut hand = [0u8; 7];
            sample(&mut rng, 52, 7)
                .iter()
                .zip(hand.iter_mut())
                .for_each(|(c, slot)| *slot = c as u8);
            hand
        })
        .collect()
}

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = (f64::INFINITY, None);
    for _ in 0..runs {
        let start = Instant::now();
        let out = f();
        let secs = start.elapsed().as_secs_f64();
        if secs < best.0 {
            best = (secs, Some(out));
        }
    }
    (best.0, best.1.expect("at least one run"))
}

fn main() {
    let t = tables();
    let hands = random_hands(10_000_000, 7);
    let (secs, sum) = best_of(20, || {
        hands.iter().map(|h| t.strength(h) as u64).sum::<u64>()
    });
    println!(
        "random 7-card, 1 thread: {:>7.1} M hands/s ({secs:.3} s, checksum {sum})",
        hands.len() as f64 / secs / 1e6
    );

    let flat: Vec<u8> = hands.iter().flatten().copied().collect();
    let mut out = vec![0u16; hands.len()];
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        let (secs, ()) = best_of(20, || {
            pool.install(|| batch::strengths(&flat, 7, &mut out))
                .expect("valid hands");
        });
        println!(
            "validated batch, {threads} thread(s): {:>7.1} M hands/s ({secs:.3} s)",
            hands.len() as f64 / secs / 1e6
        );
    }

    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        let (secs, hist) = best_of(5, || pool.install(|| strength_histogram(7)));
        let total: u64 = hist.iter().sum();
        println!(
            "all 7-card, {threads} thread(s): {:>7.1} M hands/s ({total} hands in {secs:.3} s)",
            total as f64 / secs / 1e6
        );
    }
}
