//! Caribbean Stud rounds: one to four seats and the dealer dealt from one shuffled deck.

use super::decisions::StudDecisions;
use super::rng::{chunk_rng, draw, CHUNK_ROUNDS};
use super::{showdown, Buckets, CLASSES, EXCHANGE_SLOTS, OUTCOMES};
use crate::eval::{tables, Tables};
use rayon::prelude::*;

/// A table's fixed rules for simulation, compiled from the variant by the Python side.
pub struct StudGame {
    pub seats: usize,
    pub qualifier: u16,
    pub decisions: StudDecisions,
    /// Buckets of the first five cards' strength (the progressive's classes).
    pub first: Buckets,
    /// The variant's classes of the final hand.
    pub classes: Buckets,
}

impl StudGame {
    /// Count cells: seat, first-five bucket, final class, exchanges, outcome.
    pub fn cells(&self) -> usize {
        self.seats * self.first.count * CLASSES * EXCHANGE_SLOTS * OUTCOMES
    }

    #[inline]
    fn cell(&self, seat: usize, first: usize, class: usize, exchanges: usize, outcome: usize) -> usize {
        (((seat * self.first.count + first) * CLASSES + class) * EXCHANGE_SLOTS + exchanges) * OUTCOMES + outcome
    }

    fn play_chunk(&self, t: &Tables, seed: u64, chunk: u64, rounds: u64, counts: &mut [u64]) {
        let mut rng = chunk_rng(seed, chunk);
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        let dealt = 5 * self.seats + 5;
        for _ in 0..rounds {
            draw(&mut deck, dealt, &mut rng);
            let dealer = [deck[dealt - 5], deck[dealt - 4], deck[dealt - 3], deck[dealt - 2], deck[dealt - 1]];
            let up = dealer[4];
            let mut dealer_strength = 0; // evaluated once, when a seat first raises
            for seat in 0..self.seats {
                let hand = [deck[5 * seat], deck[5 * seat + 1], deck[5 * seat + 2], deck[5 * seat + 3], deck[5 * seat + 4]];
                let s = t.strength(&hand);
                let outcome = if self.decisions.raises(s, &hand, up) {
                    if dealer_strength == 0 {
                        dealer_strength = t.strength(&dealer);
                    }
                    showdown(s, dealer_strength, self.qualifier)
                } else {
                    0
                };
                let bucket = self.first.of(s);
                counts[self.cell(seat, bucket, self.classes.of(s), 0, outcome)] += 1;
            }
        }
    }

    /// Counts of rounds `[chunk_start * CHUNK_ROUNDS, min(end, total))` of the run seeded `seed`.
    pub fn simulate(&self, seed: u64, chunks: std::ops::Range<u64>, total_rounds: u64) -> Vec<u64> {
        let t = tables();
        chunks
            .into_par_iter()
            .map(|chunk| {
                let mut counts = vec![0u64; self.cells()];
                let rounds = CHUNK_ROUNDS.min(total_rounds.saturating_sub(chunk * CHUNK_ROUNDS));
                self.play_chunk(t, seed, chunk, rounds, &mut counts);
                counts
            })
            .reduce(|| vec![0u64; self.cells()], add_counts)
    }
}

pub(crate) fn add_counts(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seats: usize) -> StudGame {
        let t = tables();
        let floors: Vec<u16> = crate::eval::HandClass::ALL.iter().map(|&c| t.class_floor(c)).collect();
        let mut cuts = floors.clone();
        cuts[1] = 0; // no Ace-King class
        StudGame {
            seats,
            qualifier: t.strength(&[48, 44, 8, 4, 1]),
            decisions: StudDecisions::threshold(t.strength(&[0, 1, 6, 10, 14])), // a pair of deuces
            first: Buckets::new(&cuts),
            classes: Buckets::new(&cuts),
        }
    }

    #[test]
    fn same_seed_same_counts_whatever_the_split() {
        let g = game(3);
        let total = 5 * CHUNK_ROUNDS / 2;
        let whole = g.simulate(11, 0..3, total);
        let parts = add_counts(g.simulate(11, 0..1, total), g.simulate(11, 1..3, total));
        assert_eq!(whole, parts);
        assert_eq!(whole.iter().sum::<u64>(), 3 * total);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
        assert_eq!(pool.install(|| g.simulate(11, 0..3, total)), whole);
        assert_ne!(g.simulate(12, 0..3, total), whole);
    }
}
