//! Casino Hold'em rounds: two cards to the seat and the dealer, a flop, a turn and a river.

use super::decisions::HoldemDecisions;
use super::rng::{draw, Stream};
use super::{cell_index, showdown, Buckets, Game, Shape, CLASSES, OUTCOMES};
use crate::eval::Tables;

pub struct HoldemGame {
    pub qualifier: u16,
    pub decisions: HoldemDecisions,
    /// Buckets of the two cards and the flop (the side bets' tiers).
    pub first: Buckets,
    /// The variant's classes of the final seven-card hand.
    pub classes: Buckets,
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
        let (mut hole, mut flop) = ([deck[0], deck[1]], [deck[4], deck[5], deck[6]]);
        hole.sort_unstable();
        flop.sort_unstable();
        // The decision first: its table lookup often misses the cache, and the evaluations below
        // do not depend on it, so they run while it loads.
        let calls = self.decisions.calls(&hole, &flop);
        let board = [deck[4], deck[5], deck[6], deck[7], deck[8]];
        let board_key = t.key_of(&board);
        let seven = |a: u8, b: u8| [a, b, board[0], board[1], board[2], board[3], board[4]];
        let seat = t.strength_from_key(board_key + t.key_of(&hole), &seven(hole[0], hole[1]));
        let first = t.strength(&[hole[0], hole[1], flop[0], flop[1], flop[2]]);
        // The dealer is evaluated whether the seat calls or folds: cheaper than mispredicting.
        let dealer =
            t.strength_from_key(board_key + t.key_of(&deck[2..4]), &seven(deck[2], deck[3]));
        let outcome = calls as usize * showdown(seat, dealer, self.qualifier);
        let at = [0, self.first.of(first), self.classes.of(seat), 0, outcome];
        record(cell_index(&self.shape(), at));
    }
}
