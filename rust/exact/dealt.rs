//! Game 4 counted as dealt on a small deck, with up to three exchanges: the exact sum over every
//! deal, by the dead cards, that a whole-deck count of three exchanges must equal.
//!
//! The dealer's hidden cards D are dealt first (every disjoint sequence of hands is as likely in
//! either order). With D fixed and A the cards still undealt, a round with k exchanges left sums,
//! over every sequence of the k + 1 hands it could be dealt (each counted once, whether or not
//! the round gets to it):
//!
//! ```text
//!     T_0(A) = sum over H in A of net(H, D)
//!     T_k(A) = sum over H in A of [x_k(H)] (T_(k-1)(A - H) - M_(k-1)) + [not x_k(H)] net(H, D) M_(k-1)
//! ```
//!
//! with M_j the number of sequences of j + 1 hands from the |A| - 5 cards left, and an exchange's
//! fee one ante. T_k depends on A, the whole dead set: the states kept grow as C(|A|, 5 j), which
//! is why this count is only for small decks (docs/games/caribbean-poker.md measures the whole
//! deck's). `nested` visits every sequence for the tests.

use super::symmetry::combinations;
use crate::cards::Card;
use crate::combinations::{choose, index_of};
use std::collections::HashMap;

/// Whether a hand is given up with `left` exchanges left (1 ..= most).
pub type Exchanges<'a> = &'a (dyn Fn(usize, &[Card; 5]) -> bool + Sync);
/// A final hand's net in antes against the dealer's hidden cards: the strategy's call or fold.
pub type Net<'a> = &'a (dyn Fn(&[Card; 5], &[Card; 4]) -> i64 + Sync);

/// A small deck (the up card's rank and suit are the caller's: `net` knows the up card).
pub struct SmallDeal<'a> {
    cards: Vec<Card>,
    exchanges: Exchanges<'a>,
    net: Net<'a>,
}

impl<'a> SmallDeal<'a> {
    /// `cards`: distinct, at most 32, the up card not among them.
    pub fn new(cards: &[Card], exchanges: Exchanges<'a>, net: Net<'a>) -> Self {
        let mut cards = cards.to_vec();
        cards.sort_unstable();
        cards.dedup();
        assert!(cards.len() <= 32, "a small deck: at most 32 cards");
        SmallDeal {
            cards,
            exchanges,
            net,
        }
    }

    /// Sequences of `hands` hands dealt one after another from `n` cards.
    pub fn sequences(n: usize, hands: usize) -> u128 {
        (0..hands).map(|i| choose(n - 5 * i, 5) as u128).product()
    }

    /// Every deal against the hidden cards `hidden`, up to `most` exchanges: the sum of the net
    /// (fees included) over the `sequences(cards - 4, most + 1)` sequences of hands.
    pub fn total(&self, most: usize, hidden: &[Card; 4]) -> i128 {
        assert!(
            self.cards.len() >= 4 + 5 * (most + 1),
            "too few cards for the exchanges"
        );
        let walk = Walk::new(self, hidden);
        let all = self.mask() & !walk.hidden;
        walk.value(most, all, &mut HashMap::new())
    }

    /// The same sum, visiting every sequence (the tests' check).
    pub fn nested(&self, most: usize, hidden: &[Card; 4]) -> i128 {
        let walk = Walk::new(self, hidden);
        walk.visit(most, self.mask() & !walk.hidden)
    }

    /// The exact return per ante over every dealer hand: numerator and denominator, reduced.
    pub fn value(&self, most: usize) -> (i128, u128) {
        let sum: i128 = combinations::<4>(&self.cards)
            .iter()
            .map(|d| self.total(most, d))
            .sum();
        let n = self.cards.len();
        let deals = choose(n, 4) as u128 * Self::sequences(n - 4, most + 1);
        let g = gcd(sum.unsigned_abs(), deals);
        (sum / g as i128, deals / g)
    }

    fn mask(&self) -> u32 {
        ((1u64 << self.cards.len()) - 1) as u32
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// One dealer hand's count: each hand's net and exchanges looked up by its positions' index.
struct Walk<'a> {
    deal: &'a SmallDeal<'a>,
    hidden: u32,
    net: Vec<i64>,
    given_up: Vec<u8>, // the fewest exchanges left with which the hand is given up (0: never)
}

impl<'a> Walk<'a> {
    fn new(deal: &'a SmallDeal<'a>, hidden: &[Card; 4]) -> Self {
        let n = deal.cards.len();
        let at = |c: Card| {
            deal.cards
                .iter()
                .position(|&x| x == c)
                .expect("a hidden card in the deck")
        };
        let hidden_mask = hidden.iter().fold(0u32, |m, &c| m | 1 << at(c));
        let positions: Vec<u8> = (0..n as u8).collect();
        let mut net = vec![0i64; choose(n, 5)];
        let mut given_up = vec![0u8; choose(n, 5)];
        for p in combinations::<5>(&positions) {
            let hand = p.map(|i| deal.cards[i as usize]);
            let i = index_of(&p);
            given_up[i] = (1..=3).find(|&k| (deal.exchanges)(k, &hand)).unwrap_or(0) as u8;
            if p.iter().all(|&x| hidden_mask >> x & 1 == 0) {
                net[i] = (deal.net)(&hand, hidden);
            }
        }
        Walk {
            deal,
            hidden: hidden_mask,
            net,
            given_up,
        }
    }

    fn hands(&self, left: u32) -> Vec<([u8; 5], usize)> {
        let positions: Vec<u8> = (0..self.deal.cards.len() as u8)
            .filter(|&x| left >> x & 1 == 1)
            .collect();
        combinations::<5>(&positions)
            .into_iter()
            .map(|p| (p, index_of(&p)))
            .collect()
    }

    fn exchanged(&self, k: usize, i: usize) -> bool {
        k > 0 && self.given_up[i] != 0 && self.given_up[i] as usize <= k
    }

    /// T_k(left), each dead set's sum kept once.
    fn value(&self, k: usize, left: u32, memo: &mut HashMap<u32, i128>) -> i128 {
        if let Some(&v) = memo.get(&left) {
            return v;
        }
        let after = SmallDeal::sequences(left.count_ones() as usize - 5, k) as i128;
        let mut sum = 0i128;
        for (p, i) in self.hands(left) {
            sum += if self.exchanged(k, i) {
                let rest = left & !p.iter().fold(0u32, |m, &x| m | 1 << x);
                self.value(k - 1, rest, memo) - after
            } else {
                self.net[i] as i128 * after
            };
        }
        memo.insert(left, sum);
        sum
    }

    /// T_k(left) visiting every sequence: a hand not exchanged stands for every sequence after it.
    fn visit(&self, k: usize, left: u32) -> i128 {
        let after = SmallDeal::sequences(left.count_ones() as usize - 5, k) as i128;
        let mut sum = 0i128;
        for (p, i) in self.hands(left) {
            if self.exchanged(k, i) {
                let rest = left & !p.iter().fold(0u32, |m, &x| m | 1 << x);
                sum += self.visit(k - 1, rest) - after;
            } else {
                sum += self.net[i] as i128 * after;
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card;
    use crate::eval::{tables, LOWEST_ACE_KING};
    use crate::exact::exchange::{Deck, Discards, Exchanged, OneExchange};

    fn cards<const N: usize>(text: &str) -> [Card; N] {
        let v: Vec<Card> = text
            .split_whitespace()
            .map(|w| parse_card(w).expect(w))
            .collect();
        v.try_into().expect("the count")
    }

    /// Game 4's settlement against a club up card: fold -1; called, the dealer not qualifying
    /// +1, the seat higher 1 + 2 pay, equal 0, lower -3 (pay: an arbitrary function of the hand).
    fn settle(up: Card, calls: fn(&[Card; 5]) -> bool) -> impl Fn(&[Card; 5], &[Card; 4]) -> i64 {
        let t = tables();
        let q = t.strength(&LOWEST_ACE_KING);
        move |h, d| {
            if !calls(h) {
                return -1;
            }
            let (s, ds) = (t.strength(h), t.strength(&[up, d[0], d[1], d[2], d[3]]));
            match ds {
                _ if ds < q => 1,
                _ if ds < s => 1 + 2 * (1 + (s % 3) as i64),
                _ if ds == s => 0,
                _ => -3,
            }
        }
    }

    fn calls(h: &[Card; 5]) -> bool {
        tables().strength(h) >= tables().strength(&cards::<5>("Ac Kd 9h 8s 7c"))
    }

    /// A sixteenth to three sixteenths of the hands, nested: fewer given up with fewer left.
    fn hashed(left: usize, h: &[Card; 5]) -> bool {
        let x = h.iter().fold(0x9e37_79b9_u64, |a, &c| {
            (a ^ c as u64).wrapping_mul(0x100_0000_01b3)
        });
        (x >> 17) % 16 < [0, 1, 2, 3][left]
    }

    #[test]
    fn three_exchanges_by_the_dead_set_equal_every_sequence_visited() {
        let up = parse_card("2c").unwrap();
        let small: Vec<Card> = (28..52).collect(); // nines to aces: 24 cards, every card dealt
        let net = settle(up, calls);
        let deal = SmallDeal::new(&small, &hashed, &net);
        let hidden = cards("Ac Kc Qc Jc");
        assert_eq!(deal.total(3, &hidden), deal.nested(3, &hidden));
    }

    #[test]
    fn one_exchange_by_the_dead_set_equals_the_one_exchange_walk() {
        let t = tables();
        let q = t.strength(&LOWEST_ACE_KING);
        let up = parse_card("2c").unwrap();
        let small: Vec<Card> = (36..52).collect(); // jacks to aces: 16 cards
        let once = |k: usize, h: &[Card; 5]| k == 1 && hashed(1, h);
        let net = settle(up, calls);
        let deal = SmallDeal::new(&small, &once, &net);
        let by_dead_set: i128 = combinations::<4>(&small)
            .iter()
            .map(|d| deal.total(1, d))
            .sum();

        // The walk: each final hand's dealer hands, weighted by the given-up hands avoiding both;
        // the hands kept at once count every hand that could have followed them.
        let deck = Deck::new(up, &small);
        let e = Exchanged::build(&deck, |h| once(1, h));
        let one = OneExchange::new(t, &deck, &e, q);
        let after = choose(small.len() - 9, 5) as i128;
        let mut walk = 0i128;
        for h in combinations::<5>(&small) {
            let counts = one.counts(&h, Discards::Out);
            walk += if calls(&h) {
                let pay = 1 + (t.strength(&h) % 3) as i128;
                [1, 1 + 2 * pay, 0, -3]
                    .iter()
                    .zip(counts)
                    .map(|(v, n)| v * n as i128)
                    .sum::<i128>()
            } else {
                -(one.paths(&h, Discards::Out) as i128)
            };
            let rest: Vec<Card> = small.iter().copied().filter(|c| !h.contains(c)).collect();
            for d in combinations::<4>(&rest) {
                walk += if once(1, &h) {
                    -after
                } else {
                    net(&h, &d) as i128 * after
                };
            }
        }
        assert_eq!(by_dead_set, walk);
        let (num, den) = deal.value(1);
        assert_eq!(
            num * (choose(16, 4) as u128 * SmallDeal::sequences(12, 2) / den) as i128,
            walk
        );
    }
}
