//! Casino Hold'em rounds: two cards to the seat and the dealer, a flop, a turn and a river.

use super::decisions::HoldemDecisions;
use super::rng::{chunk_rng, draw, CHUNK_ROUNDS};
use super::stud::add_counts;
use super::{showdown, Buckets, CLASSES, EXCHANGE_SLOTS, OUTCOMES};
use crate::eval::{tables, Tables};
use rayon::prelude::*;

pub struct HoldemGame {
    pub qualifier: u16,
    pub decisions: HoldemDecisions,
    /// Buckets of the two cards and the flop (the side bets' tiers).
    pub first: Buckets,
    /// The variant's classes of the final seven-card hand.
    pub classes: Buckets,
}

impl HoldemGame {
    /// Count cells, laid out as for stud with one seat and no exchanges.
    pub fn cells(&self) -> usize {
        self.first.count * CLASSES * EXCHANGE_SLOTS * OUTCOMES
    }

    fn play_chunk(&self, t: &Tables, seed: u64, chunk: u64, rounds: u64, counts: &mut [u64]) {
        let mut rng = chunk_rng(seed, chunk);
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        for _ in 0..rounds {
            draw(&mut deck, 9, &mut rng);
            let (mut hole, mut flop) = ([deck[0], deck[1]], [deck[4], deck[5], deck[6]]);
            let board = [deck[4], deck[5], deck[6], deck[7], deck[8]];
            let board_key = t.key_of(&board);
            let seat = t.strength_from_key(board_key + t.key_of(&hole), &[hole[0], hole[1], board[0], board[1], board[2], board[3], board[4]]);
            hole.sort_unstable();
            flop.sort_unstable();
            let first = t.strength(&[hole[0], hole[1], flop[0], flop[1], flop[2]]);
            let outcome = if self.decisions.calls(&hole, &flop) {
                let dealer = t.strength_from_key(board_key + t.key_of(&deck[2..4]), &[deck[2], deck[3], board[0], board[1], board[2], board[3], board[4]]);
                showdown(seat, dealer, self.qualifier)
            } else {
                0
            };
            let cell = ((self.first.of(first) * CLASSES + self.classes.of(seat)) * EXCHANGE_SLOTS) * OUTCOMES + outcome;
            counts[cell] += 1;
        }
    }

    /// Counts of the rounds of chunks `chunks` of the run seeded `seed` with `total_rounds` rounds.
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
