//! Game 4 played by a seat that sees its discards: after an exchange, keeping is valued exactly
//! over the dealer's hidden cards drawn from the cards the seat has not seen (its hand, the up
//! card and its discards out), and the paired run that plays the same deals by two strategies.
//!
//! The table's strategy values every fresh hand as if dealt at the start (the approximation);
//! this one knows which cards left play, so its decisions after an exchange are its own. Its
//! first decision sees no discard and is the table's.

use super::rng::{chunk_rng, draw, CHUNK_ROUNDS};
use super::stud::StudGame;
use super::{add_counts, showdown, OUTCOMES};
use crate::cards::{rank, Card};
use crate::eval::{tables, Hand, Tables};
use rayon::prelude::*;
use std::ops::Range;

/// Up card ranks, deuce to ace.
pub const UP_RANKS: usize = 13;

/// What the seat that sees its discards weighs, in antes, beside what it counts.
pub struct SeenValues {
    /// `exchange[k][u]`: exchanging with `k + 1` exchanges left against up rank `u` (the fee
    /// lost plus a fresh hand's value under the approximation).
    pub exchange: Vec<[f64; UP_RANKS]>,
    /// `raised[class][column]`: the main game's net of a raised hand, none exchanged.
    pub raised: Vec<[f64; OUTCOMES]>,
    /// The net of folding, none exchanged.
    pub fold: f64,
}

/// A bit per card.
pub fn card_mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, &c| m | 1 << c)
}

/// How calling with a hand of strength `seat` ends against every dealer hand of the up card
/// `up` and four hidden cards from those not in `seen` (a bit per card; `up` among them),
/// counted by outcome column.
pub fn showdown_counts(
    t: &Tables,
    seat: u16,
    up: Card,
    seen: u64,
    qualifier: u16,
) -> [u64; OUTCOMES] {
    debug_assert!(seen >> up & 1 == 1, "the up card is seen");
    let unseen: Vec<Card> = (0..52).filter(|&c| seen >> c & 1 == 0).collect();
    let n = unseen.len();
    let mut counts = [0u64; OUTCOMES];
    let with_up = Hand::of(&[up]);
    for a in 0..n {
        let ha = with_up.add_card(unseen[a]);
        for b in a + 1..n {
            let hb = ha.add_card(unseen[b]);
            for c in b + 1..n {
                let hc = hb.add_card(unseen[c]);
                for &d in &unseen[c + 1..] {
                    counts[showdown(seat, hc.add_card(d).strength(t), qualifier)] += 1;
                }
            }
        }
    }
    counts
}

impl SeenValues {
    /// The value of calling with a hand of strength `seat` and class `class`, given the cards
    /// `seen`: the mean net over the dealer hands `showdown_counts` counts.
    pub fn call_value(
        &self,
        t: &Tables,
        seat: u16,
        class: usize,
        up: Card,
        seen: u64,
        qualifier: u16,
    ) -> f64 {
        let counts = showdown_counts(t, seat, up, seen, qualifier);
        let total: u64 = counts.iter().sum();
        let net: f64 = counts
            .iter()
            .zip(&self.raised[class])
            .map(|(&k, &v)| k as f64 * v)
            .sum();
        net / total as f64
    }

    /// Exchanging against up card `up` with `left` exchanges left beats `keep`.
    pub fn exchanges(&self, up: Card, left: usize, keep: f64) -> bool {
        left > 0 && self.exchange[left - 1][rank(up) as usize] > keep
    }
}

/// Joint counts of the same deals played by `a` and `b`, one seat each, over chunks `chunks` of
/// a run of `total_rounds` seeded `seed`: cell `i * n + j` counts the rounds that `a` ended in
/// its main cell `i` and `b` in `j` (`StudGame::main_cell`, `n` of them). Each round deals the
/// seat, the dealer and every exchange's cards up front, so both play the same cards.
pub fn paired(
    a: &StudGame,
    b: &StudGame,
    seed: u64,
    chunks: Range<u64>,
    total_rounds: u64,
) -> Vec<u64> {
    let t = tables();
    let n = a.main_cells();
    let spare = a.most_exchanges().max(b.most_exchanges());
    let dealt = (10 + 5 * spare).min(52);
    chunks
        .into_par_iter()
        .map(|chunk| {
            let mut counts = vec![0u64; n * n];
            let mut rng = chunk_rng(seed, chunk);
            let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
            let rounds = CHUNK_ROUNDS.min(total_rounds.saturating_sub(chunk * CHUNK_ROUNDS));
            for _ in 0..rounds {
                draw(&mut deck, dealt, &mut rng);
                let hand: [Card; 5] = std::array::from_fn(|i| deck[i]);
                let dealer: [Card; 5] = std::array::from_fn(|i| deck[5 + i]);
                let ds = t.strength(&dealer);
                let i = a.main_cell(t, hand, dealer[4], ds, &deck[10..dealt]);
                let j = b.main_cell(t, hand, dealer[4], ds, &deck[10..dealt]);
                counts[i * n + j] += 1;
            }
            counts
        })
        .reduce(|| vec![0u64; n * n], add_counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::LOWEST_ACE_KING;

    /// Every dealer hand dealt from the whole deck, the seen cards skipped: the count the
    /// nested loops must give.
    fn brute_force(seat: u16, up: Card, seen: u64, qualifier: u16) -> [u64; OUTCOMES] {
        let t = tables();
        let mut counts = [0u64; OUTCOMES];
        let free = |c: Card| seen >> c & 1 == 0;
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        if [a, b, c, d].iter().all(|&x| free(x)) {
                            let s = t.strength(&[a, b, c, d, up]);
                            counts[showdown(seat, s, qualifier)] += 1;
                        }
                    }
                }
            }
        }
        counts
    }

    #[test]
    fn seen_cards_counted_as_a_brute_force_deal() {
        let t = tables();
        let q = t.strength(&LOWEST_ACE_KING);
        // A named deal: the seat holds A-K-Q-7-3 (no flush) against a 4 up after giving up
        // 2-5-8-J-K and 6-9-T-J-Q.
        let hand: [Card; 5] = [48, 45, 42, 22, 7];
        let up: Card = 8;
        let discards: [Card; 10] = [0, 13, 24, 36, 47, 17, 28, 33, 38, 43];
        let seen = card_mask(&hand) | card_mask(&discards) | 1 << up;
        assert_eq!(seen.count_ones(), 16, "the named deal's cards are distinct");
        let s = t.strength(&hand);
        let counts = showdown_counts(t, s, up, seen, q);
        let brute = brute_force(s, up, seen, q);
        assert_eq!(counts, brute);
        // The value of calling is the brute-force mean net (nets of A-K-Q high, raised: no
        // qualifier 1, seat higher 3, equal 0, dealer higher -3).
        let v = SeenValues {
            exchange: vec![[0.0; UP_RANKS]],
            raised: vec![[-1.0, 1.0, 3.0, 0.0, -3.0]; crate::sim::CLASSES],
            fold: -1.0,
        };
        let mean = (brute[1] as f64 + 3.0 * brute[2] as f64 - 3.0 * brute[4] as f64)
            / brute.iter().sum::<u64>() as f64;
        let class = t.class_of(s) as usize;
        assert_eq!(v.call_value(t, s, class, up, seen, q), mean);
        assert_eq!(counts.iter().sum::<u64>(), 58_905); // C(36, 4)
                                                        // Seeing no discard counts every one of the 163,185 hidden hands.
        let none = showdown_counts(t, s, up, card_mask(&hand) | 1 << up, q);
        assert_eq!(none.iter().sum::<u64>(), 163_185);
        assert_ne!(none, counts);
    }
}
