//! Caribbean Stud rounds: one to four seats and the dealer dealt from one shuffled deck.

use super::decisions::StudDecisions;
use super::rng::{draw, draw_after, Stream};
use super::{showdown, Buckets, Game, CLASSES, EXCHANGE_SLOTS, OUTCOMES};
use crate::cards::{rank, Card};
use crate::eval::Tables;

/// Which cards a seat keeps when it exchanges (game 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Exchange all five cards.
    Nothing,
    /// Keep an ace and a king, exchange the rest.
    AceKing,
}

/// An exchange strategy: while the hand is weaker than `below` and fewer than `most` exchanges
/// were made, exchange the cards `keep` does not keep (each exchange costs its fee on settling).
#[derive(Clone, Copy, Debug)]
pub struct Exchange {
    pub keep: Keep,
    pub below: u16,
    pub most: usize,
}

impl Exchange {
    fn exchanges(&self, card: Card) -> bool {
        match self.keep {
            Keep::Nothing => true,
            Keep::AceKing => rank(card) < 11,
        }
    }
}

/// A table's fixed rules for simulation, compiled from the variant by the Python side.
pub struct StudGame {
    pub seats: usize,
    pub qualifier: u16,
    pub decisions: StudDecisions,
    /// Buckets of the first five cards' strength (the progressive's classes).
    pub first: Buckets,
    /// The variant's classes of the final hand.
    pub classes: Buckets,
    /// Game 4's exchanges, if the seat makes any (one seat only).
    pub exchange: Option<Exchange>,
}

impl StudGame {
    #[inline]
    fn cell(
        &self,
        seat: usize,
        first: usize,
        class: usize,
        exchanges: usize,
        outcome: usize,
    ) -> usize {
        (((seat * self.first.count + first) * CLASSES + class) * EXCHANGE_SLOTS + exchanges)
            * OUTCOMES
            + outcome
    }
}

impl Game for StudGame {
    /// Count cells: seat, first-five bucket, final class, exchanges, outcome.
    fn cells(&self) -> usize {
        self.seats * self.first.count * CLASSES * EXCHANGE_SLOTS * OUTCOMES
    }

    fn play_round(
        &self,
        t: &Tables,
        deck: &mut [u8; 52],
        rng: &mut Stream,
        record: &mut impl FnMut(usize),
    ) {
        let dealt = 5 * self.seats + 5;
        draw(deck, dealt, rng);
        let dealer = [
            deck[dealt - 5],
            deck[dealt - 4],
            deck[dealt - 3],
            deck[dealt - 2],
            deck[dealt - 1],
        ];
        let up = dealer[4];
        // Evaluated every round: cheaper than the mispredicted branch on whether a seat raised.
        let dealer_strength = t.strength(&dealer);
        for seat in 0..self.seats {
            let mut hand = [
                deck[5 * seat],
                deck[5 * seat + 1],
                deck[5 * seat + 2],
                deck[5 * seat + 3],
                deck[5 * seat + 4],
            ];
            let first = t.strength(&hand);
            let (s, exchanges) = match &self.exchange {
                Some(x) => exchange(t, x, &mut hand, first, deck, dealt, rng),
                None => (first, 0),
            };
            let raised = self.decisions.raises(s, &hand, up) as usize;
            let outcome = raised * showdown(s, dealer_strength, self.qualifier);
            record(self.cell(
                seat,
                self.first.of(first),
                self.classes.of(s),
                exchanges,
                outcome,
            ));
        }
    }
}

/// Exchanges cards of `hand` by the plan, drawing from `deck` after the first `dealt` cards;
/// returns the final strength and how many exchanges were made.
fn exchange(
    t: &Tables,
    x: &Exchange,
    hand: &mut [Card; 5],
    mut strength: u16,
    deck: &mut [u8; 52],
    dealt: usize,
    rng: &mut Stream,
) -> (u16, usize) {
    let (mut made, mut next) = (0, dealt);
    while made < x.most && strength < x.below {
        let swap: Vec<usize> = (0..5).filter(|&i| x.exchanges(hand[i])).collect();
        if swap.is_empty() || next + swap.len() > 52 {
            break;
        }
        draw_after(deck, next, swap.len(), rng);
        for (k, &i) in swap.iter().enumerate() {
            hand[i] = deck[next + k];
        }
        next += swap.len();
        made += 1;
        strength = t.strength(hand);
    }
    (strength, made)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tables;
    use crate::sim::rng::CHUNK_ROUNDS;
    use crate::sim::{add_counts, simulate};

    fn game(seats: usize) -> StudGame {
        let t = tables();
        let floors: Vec<u16> = crate::eval::HandClass::ALL
            .iter()
            .map(|&c| t.class_floor(c))
            .collect();
        let mut cuts = floors.clone();
        cuts[1] = 0; // no Ace-King class
        StudGame {
            seats,
            qualifier: t.strength(&[48, 44, 8, 4, 1]),
            decisions: StudDecisions::threshold(t.strength(&[0, 1, 6, 10, 14])), // a pair of deuces
            first: Buckets::new(&cuts),
            classes: Buckets::new(&cuts),
            exchange: None,
        }
    }

    #[test]
    fn same_seed_same_counts_whatever_the_split() {
        let g = game(3);
        let total = 5 * CHUNK_ROUNDS / 2;
        let whole = simulate(&g, 11, 0..3, total);
        let parts = add_counts(simulate(&g, 11, 0..1, total), simulate(&g, 11, 1..3, total));
        assert_eq!(whole, parts);
        assert_eq!(whole.iter().sum::<u64>(), 3 * total);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("pool");
        assert_eq!(pool.install(|| simulate(&g, 11, 0..3, total)), whole);
        assert_ne!(simulate(&g, 12, 0..3, total), whole);
    }

    #[test]
    fn exchanges_are_counted_and_bounded() {
        let mut g = game(1);
        let ak = tables().strength(&[48, 44, 8, 4, 1]);
        g.exchange = Some(Exchange {
            keep: Keep::AceKing,
            below: ak,
            most: 3,
        });
        let counts = simulate(&g, 3, 0..2, 2 * CHUNK_ROUNDS);
        let by_exchanges: Vec<u64> = (0..EXCHANGE_SLOTS)
            .map(|e| {
                counts
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i / OUTCOMES % EXCHANGE_SLOTS == e)
                    .map(|(_, n)| n)
                    .sum()
            })
            .collect();
        assert_eq!(by_exchanges.iter().sum::<u64>(), 2 * CHUNK_ROUNDS);
        assert!(by_exchanges.iter().all(|&n| n > 0), "{by_exchanges:?}");
    }
}
