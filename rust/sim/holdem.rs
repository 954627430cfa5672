//! Casino Hold'em rounds: two cards to the seat and the dealer, a flop, a turn and a river.

use super::decisions::{FlopEntry, HoldemDecisions};
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
pub type Deal = [u8; 9];

impl HoldemGame {
    /// The cell of a dealt round, given whether the seat calls.
    #[inline(always)]
    fn cell(&self, shape: &Shape, outcomes: &Outcomes, s: [u16; 3], calls: bool) -> usize {
        let [first, seat, dealer] = s;
        // The dealer is evaluated whether the seat calls or folds: cheaper than mispredicting.
        let outcome = outcomes.of(calls, seat, dealer, self.qualifier);
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

/// The outcome column of a round (0: folded, else `showdown`'s), read from a table of the cases
/// by an index made of comparisons, with no branch: whether the seat calls and how a showdown
/// goes are coin flips no predictor learns, and the compiler turned `showdown`'s select into a
/// branch in this loop (the round took half as long again).
struct Outcomes([u8; 16]);

impl Outcomes {
    /// `showdown` of strengths standing for each case: the dealer 2 against a qualifier of 2
    /// (qualifies) or 3 (does not), the seat 3, 2 or 1 (above, level, below).
    fn new() -> Self {
        Outcomes(std::array::from_fn(|i| {
            let (calls, qualifier, seat) = (i / 8, 3 - (i / 4 % 2) as u16, [3, 2, 1, 1][i % 4]);
            (calls * showdown(seat, 2, qualifier)) as u8
        }))
    }

    #[inline(always)]
    fn of(&self, calls: bool, seat: u16, dealer: u16, qualifier: u16) -> usize {
        let case = (calls as usize) << 3
            | ((dealer >= qualifier) as usize) << 2
            | ((seat <= dealer) as usize + (seat < dealer) as usize);
        self.0[case & 15] as usize
    }
}

/// The strengths of a round: the seat's two cards and the flop, the seat's seven cards and the
/// dealer's. The flop's and the board's keys are summed once and each side's two cards' keys
/// added to them; when neither seven holds five of a suit (about 19 rounds in 20; the seat's
/// five are among its seven), three lookups finish them, and the rest go the slow way, out of
/// the loop's registers.
#[inline(always)]
pub fn strengths(t: &Tables, d: &Deal) -> [u16; 3] {
    let flop = t.key_of(&d[4..7]);
    let board = flop + t.key_of(&d[7..9]);
    let hole = t.key_of(&d[..2]);
    let keys = [flop + hole, board + hole, board + t.key_of(&d[2..4])];
    if Tables::any_suited(&keys[1..], 5) {
        return strengths_with_a_flush(t, d);
    }
    [
        t.non_flush_strength(keys[0], 5),
        t.non_flush_strength(keys[1], 7),
        t.non_flush_strength(keys[2], 7),
    ]
}

/// `strengths` when a hand may hold a flush.
#[cold]
#[inline(never)]
fn strengths_with_a_flush(t: &Tables, d: &Deal) -> [u16; 3] {
    let seven = |a: u8, b: u8| [a, b, d[4], d[5], d[6], d[7], d[8]];
    [
        t.strength(&[d[0], d[1], d[4], d[5], d[6]]),
        t.strength(&seven(d[0], d[1])),
        t.strength(&seven(d[2], d[3])),
    ]
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
        let s = strengths(t, &d);
        record(self.cell(&self.shape(), &Outcomes::new(), s, self.calls(&d)));
    }

    /// As `play_round` in turn, in batches of `BATCH` rounds dealt, then played in stages, each
    /// stage for every round of the batch before the next: the flops' entries, the decisions,
    /// the strengths, the counts. A stage's loads for different rounds overlap, where one
    /// round's alone would wait for its own (the stages took a round from about 33 to 28 ns on
    /// one thread). The same cards in the same order: the same counts.
    fn play_rounds(
        &self,
        t: &Tables,
        deck: &mut [u8; 52],
        rng: &mut Stream,
        rounds: u64,
        counts: &mut [u64],
    ) {
        let (shape, outcomes) = (self.shape(), Outcomes::new());
        in_batches::<9>(deck, rng, rounds, |deals, n| {
            let d = &self.decisions;
            let flops: [FlopEntry; BATCH] =
                std::array::from_fn(|i| d.flop(&[deals[i][4], deals[i][5], deals[i][6]]));
            let calls: [bool; BATCH] =
                std::array::from_fn(|i| d.calls_on(&[deals[i][0], deals[i][1]], flops[i]));
            let strengths: [[u16; 3]; BATCH] = std::array::from_fn(|i| strengths(t, &deals[i]));
            for (&s, &call) in strengths[..n].iter().zip(&calls) {
                counts[self.cell(&shape, &outcomes, s, call)] += 1;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{tables, HandClass};
    use crate::sim::decisions::tests::holdem_rule_decisions;
    use crate::sim::rng::{chunk_rng, CHUNK_ROUNDS};
    use crate::sim::{round_by_round, simulate};

    #[test]
    fn the_outcome_table_is_showdown() {
        for (seat, dealer, qualifier) in
            (1..8u16).flat_map(|s| (1..8u16).flat_map(move |d| (1..8u16).map(move |q| (s, d, q))))
        {
            for calls in [false, true] {
                assert_eq!(
                    Outcomes::new().of(calls, seat, dealer, qualifier),
                    calls as usize * showdown(seat, dealer, qualifier),
                    "{calls} {seat} {dealer} {qualifier}"
                );
            }
        }
    }

    #[test]
    fn a_rounds_strengths_are_its_hands_strengths() {
        // Random deals, about one in twenty with a flush somewhere (the slow way).
        let t = tables();
        let mut rng = chunk_rng(5, 0);
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        let mut flushes = 0;
        for _ in 0..200_000 {
            draw(&mut deck, 9, &mut rng);
            let d: Deal = std::array::from_fn(|i| deck[i]);
            let seven = |a: u8, b: u8| [a, b, d[4], d[5], d[6], d[7], d[8]];
            let expected = [
                t.strength(&[d[0], d[1], d[4], d[5], d[6]]),
                t.strength(&seven(d[0], d[1])),
                t.strength(&seven(d[2], d[3])),
            ];
            assert_eq!(strengths(t, &d), expected, "{d:?}");
            flushes += expected.iter().any(|&s| t.class_of(s) == HandClass::Flush) as u32;
        }
        assert!((4_000..20_000).contains(&flushes), "{flushes}");
    }

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
