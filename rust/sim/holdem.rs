//! Casino Hold'em rounds: two cards to the seat and the dealer, a flop, a turn and a river.

use super::decisions::HoldemDecisions;
use super::rng::{draw, Stream};
use super::{cell_index, in_batches, showdown, Buckets, Game, Shape, BATCH, CLASSES, OUTCOMES};
use crate::eval::Tables;

pub struct HoldemGame {
    pub qualifier: u16,
    pub decisions: HoldemDecisions,
    /// Buckets of the two cards and the flop (the side bets' tiers).
    pub first: Buckets,
    /// The variant's classes of the final seven-card hand.
    pub classes: Buckets,
}

/// A round's nine cards: the seat's two, the dealer's two, the flop, the turn and the river.
type Deal = [u8; 9];

impl HoldemGame {
    /// The cell of a dealt round, given whether the seat calls.
    #[inline(always)]
    fn cell(&self, t: &Tables, shape: &Shape, d: &Deal, calls: bool) -> usize {
        // The flop's and the board's keys once, each side's two cards' keys added to them; a
        // card mask is built only for the rare flush.
        let flop = t.key_of(&d[4..7]);
        let board = flop + t.key_of(&d[7..9]);
        let (hole, dealer) = (t.key_of(&d[..2]), t.key_of(&d[2..4]));
        let seven = |a: u8, b: u8| [a, b, d[4], d[5], d[6], d[7], d[8]];
        let first = t.strength_from_key(flop + hole, &[d[0], d[1], d[4], d[5], d[6]]);
        let seat = t.strength_from_key(board + hole, &seven(d[0], d[1]));
        // The dealer is evaluated whether the seat calls or folds: cheaper than mispredicting.
        let dealer = t.strength_from_key(board + dealer, &seven(d[2], d[3]));
        let outcome = calls as usize * showdown(seat, dealer, self.qualifier);
        cell_index(
            shape,
            [0, self.first.of(first), self.classes.of(seat), 0, outcome],
        )
    }

    #[inline(always)]
    fn calls(&self, d: &Deal) -> bool {
        self.decisions.calls(&[d[0], d[1]], &[d[4], d[5], d[6]])
    }
}

impl Game for HoldemGame {
    /// Laid out as for stud, with one seat and no exchanges.
    fn shape(&self) -> Shape {
        [1, self.first.count, CLASSES, 1, OUTCOMES]
    }

    fn play_round(
        &self,
        t: &Tables,
        deck: &mut [u8; 52],
        rng: &mut Stream,
        record: &mut impl FnMut(usize),
    ) {
        draw(deck, 9, rng);
        let d: Deal = std::array::from_fn(|i| deck[i]);
        record(self.cell(t, &self.shape(), &d, self.calls(&d)));
    }

    /// As `play_round` in turn, in batches: `BATCH` rounds dealt, then all their decisions
    /// looked up (the loads overlap, where one round's lookup alone would wait for its own),
    /// then each round evaluated and counted. The same cards in the same order: the same counts.
    fn play_rounds(
        &self,
        t: &Tables,
        deck: &mut [u8; 52],
        rng: &mut Stream,
        rounds: u64,
        counts: &mut [u64],
    ) {
        let shape = self.shape();
        in_batches::<9>(deck, rng, rounds, |deals, n| {
            let calls: [bool; BATCH] = std::array::from_fn(|i| self.calls(&deals[i]));
            for (d, &call) in deals[..n].iter().zip(&calls) {
                counts[self.cell(t, &shape, d, call)] += 1;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tables;
    use crate::sim::decisions::tests::holdem_rule_decisions;
    use crate::sim::rng::{chunk_rng, CHUNK_ROUNDS};
    use crate::sim::{round_by_round, simulate};

    #[test]
    fn batches_count_as_round_by_round() {
        // Decisions that depend on the cards, so a call looked up for the wrong deal shows.
        let t = tables();
        let cuts: Vec<u16> = crate::eval::HandClass::ALL
            .iter()
            .map(|&c| t.class_floor(c))
            .collect();
        let g = HoldemGame {
            qualifier: t.strength(&[8, 9, 12, 4, 0]), // a pair of fours
            decisions: holdem_rule_decisions(),
            first: Buckets::new(&cuts),
            classes: Buckets::new(&cuts),
        };
        let total = 2 * CHUNK_ROUNDS + 13; // a last chunk that is not a whole number of batches
        let fast = simulate(&g, 17, 0..3, total);
        let mut slow = vec![0u64; g.cells()];
        for (chunk, rounds) in [(0, CHUNK_ROUNDS), (1, CHUNK_ROUNDS), (2, 13)] {
            let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
            round_by_round(
                &g,
                t,
                &mut deck,
                &mut chunk_rng(17, chunk),
                rounds,
                &mut slow,
            );
        }
        assert_eq!(fast, slow);
        assert_eq!(fast.iter().sum::<u64>(), total);
        let folded: u64 = fast.iter().step_by(OUTCOMES).sum(); // outcome 0: folded
        assert!(
            folded > total / 2 && folded < total * 4 / 5,
            "{folded} folds"
        ); // the rule calls a third
    }
}
