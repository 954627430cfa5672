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
        // Both walks in turn, RUNS times each, so that the machine's drift hits both alike.
        let (mut new, mut old) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            new.push(timed(|| pool.install(|| strength_histogram(7))));
            old.push(timed(|| pool.install(key_only::histogram7)));
        }
        let (new_secs, new_hist) = median(new);
        let (old_secs, old_hist) = median(old);
        assert_eq!(new_hist, old_hist, "both walks count the same");
        let total: u64 = new_hist.iter().sum();
        println!(
            "all 7-card, {threads} thread(s): {new_secs:.3} s ({:.1} M hands/s); \
             key-only walk {old_secs:.3} s; {:.2}x (medians of {RUNS}, {total} hands)",
            total as f64 / new_secs / 1e6,
            old_secs / new_secs
        );
    }
}

const RUNS: usize = 7;

fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let start = Instant::now();
    let out = f();
    (start.elapsed().as_secs_f64(), out)
}

fn median<T>(mut runs: Vec<(f64, T)>) -> (f64, T) {
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    runs.swap_remove(runs.len() / 2)
}

/// The walk before `Hand`: a running key only, a flush's ranks found by a pass over the cards,
/// and a recursive walk; kept to print the two side by side.
mod key_only {
    use caribbean_fast::eval::{tables, Tables};
    use rayon::prelude::*;

    const HIST: usize = 1 << 13;

    pub fn histogram7() -> Vec<u64> {
        let t = tables();
        let mut firsts: Vec<(u8, u8)> = (0..52u8)
            .flat_map(|a| (a + 1..52).map(move |b| (a, b)))
            .collect();
        firsts.reverse();
        firsts
            .into_par_iter()
            .map(|(a, b)| {
                let mut hist = [0u32; HIST];
                let key = t.card_key(a) + t.card_key(b);
                walk(t, &mut [a, b, 0, 0, 0, 0, 0], 2, key, &mut hist);
                hist[..=7462]
                    .iter()
                    .map(|&n| n as u64)
                    .collect::<Vec<u64>>()
            })
            .reduce(
                || vec![0u64; 7463],
                |mut x, y| {
                    x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
                    x
                },
            )
    }

    fn walk(t: &Tables, hand: &mut [u8; 7], depth: usize, key: u64, hist: &mut [u32; HIST]) {
        let from = hand[depth - 1] + 1;
        if depth == 6 {
            if !Tables::has_suited(key, 4) {
                for c in from..52 {
                    hist[t.non_flush_strength(key + t.card_key(c), 7) as usize & (HIST - 1)] += 1;
                }
                return;
            }
            for c in from..52 {
                hand[depth] = c;
                hist[t.strength_from_key(key + t.card_key(c), hand) as usize & (HIST - 1)] += 1;
            }
            return;
        }
        for c in from..52 - (6 - depth) as u8 {
            hand[depth] = c;
            walk(t, hand, depth + 1, key + t.card_key(c), hist);
        }
    }
}
