//! Game 4's exchange with the discarded cards out of play, counted exactly for one exchange.
//!
//! After one exchange the seat holds H, the dealer's hidden cards are D and the given-up hand H0
//! is out of play: the three are disjoint. Dealing the dealer's cards last changes nothing (every
//! disjoint triple is as likely either way), so a final hand H is counted, for each dealer hand D
//! that avoids it, with the number of exchanged hands that avoid both:
//!
//! ```text
//!     g(H, D) = #{H0 in E : H0 avoids H and D} = sum over B in D of (-1)^|B| e_H(B),
//!     e_H(B)  = #{H0 in E : H0 holds B and avoids H}
//! ```
//!
//! by inclusion and exclusion over the cards of D that H0 holds. `e_H` comes from the counts of
//! exchanged hands holding each set of up to four cards (`Exchanged`), again by inclusion and
//! exclusion over H, once per final hand; the dealer hands are then walked in nested order, so that
//! each adds the terms of its last card only. With the discards put back (the approximation) every
//! dealer hand counts all of E, which gives the stud counts times |E|: the same walk checks both.
//!
//! Two or three exchanges would need, for every (H, D), the number of disjoint pairs or triples
//! of exchanged hands avoiding both: no design measured fits (docs/games/caribbean-poker.md);
//! `dealt` counts them exactly on a small deck.

use super::symmetry::{canonical, combinations, CLUB_FIXING_PERMS};
use crate::cards::Card;
use crate::combinations::{choose, index_of};
use crate::eval::{tables, Tables};
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Dealer hands (each counted with its weight) by showdown against one final hand: not
/// qualifying, qualifying and lower, equal, higher.
pub type Showdowns = [u64; 4];

/// Whether the exchanged hand is out of play (as the round is dealt) or put back (the
/// approximation: the final hand and the dealer's are dealt as at the start of the round).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discards {
    Out,
    Back,
}

/// The up card and the cards the round is dealt from (all others, or fewer in a check), each by
/// its position: tables below are indexed by sets of positions.
#[derive(Debug)]
pub struct Deck {
    up: Card,
    cards: Vec<Card>,
    position: [u8; 52],
}

impl Deck {
    /// `cards`: distinct, without the up card.
    pub fn new(up: Card, cards: &[Card]) -> Self {
        let mut cards = cards.to_vec();
        cards.sort_unstable();
        cards.dedup();
        assert!(!cards.contains(&up), "the up card is not dealt again");
        let mut position = [u8::MAX; 52];
        cards
            .iter()
            .enumerate()
            .for_each(|(i, &c)| position[c as usize] = i as u8);
        Deck {
            up,
            cards,
            position,
        }
    }

    /// The 51 cards other than `up`.
    pub fn full(up: Card) -> Self {
        let cards: Vec<Card> = (0..52).filter(|&c| c != up).collect();
        Deck::new(up, &cards)
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    fn positions<const N: usize>(&self, cards: &[Card; N]) -> [u8; N] {
        let mut p = cards.map(|c| self.position[c as usize]);
        assert!(p.iter().all(|&x| x != u8::MAX), "a card not in the deck");
        p.sort_unstable();
        p
    }
}

/// The exchanged hands E, by how many hold each set of up to five positions.
#[derive(Debug)]
pub struct Exchanged {
    five: Vec<u64>, // a bit per five-set
    four: Vec<u8>,
    three: Vec<u16>,
    two: Vec<u32>,
    one: Vec<u32>,
    all: u64,
}

impl Exchanged {
    /// The hands of `deck` for which `exchanges` holds.
    pub fn build(deck: &Deck, exchanges: impl Fn(&[Card; 5]) -> bool) -> Self {
        let n = deck.len();
        let mut e = Exchanged {
            five: vec![0; choose(n, 5).div_ceil(64)],
            four: vec![0; choose(n, 4)],
            three: vec![0; choose(n, 3)],
            two: vec![0; choose(n, 2)],
            one: vec![0; n],
            all: 0,
        };
        let positions: Vec<u8> = (0..n as u8).collect();
        for p in combinations::<5>(&positions) {
            if !exchanges(&p.map(|i| deck.cards[i as usize])) {
                continue;
            }
            let i = index_of(&p);
            e.five[i / 64] |= 1 << (i % 64);
            e.all += 1;
            for skip in 0..5 {
                let four: Vec<u8> = (0..5).filter(|&k| k != skip).map(|k| p[k]).collect();
                e.four[index_of(&four)] += 1;
            }
            for (a, b, c) in TRIPLES_OF_FIVE {
                e.three[index_of(&[p[a], p[b], p[c]])] += 1;
            }
            for (a, b) in PAIRS_OF_FIVE {
                e.two[index_of(&[p[a], p[b]])] += 1;
            }
            p.iter().for_each(|&x| e.one[x as usize] += 1);
        }
        e
    }

    /// How many exchanged hands there are.
    pub fn len(&self) -> u64 {
        self.all
    }

    pub fn is_empty(&self) -> bool {
        self.all == 0
    }

    #[inline]
    fn has(&self, index: usize) -> bool {
        self.five[index / 64] >> (index % 64) & 1 == 1
    }

    /// How many exchanged hands hold all of `sorted` (at most five positions).
    fn holding(&self, sorted: &[u8]) -> i64 {
        let i = index_of(sorted);
        match sorted.len() {
            0 => self.all as i64,
            1 => self.one[i] as i64,
            2 => self.two[i] as i64,
            3 => self.three[i] as i64,
            4 => self.four[i] as i64,
            _ => self.has(i) as i64,
        }
    }
}

const PAIRS_OF_FIVE: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];
const TRIPLES_OF_FIVE: [(usize, usize, usize); 10] = [
    (0, 1, 2),
    (0, 1, 3),
    (0, 1, 4),
    (0, 2, 3),
    (0, 2, 4),
    (0, 3, 4),
    (1, 2, 3),
    (1, 2, 4),
    (1, 3, 4),
    (2, 3, 4),
];

fn sorted4(mut x: [u8; 4]) -> [u8; 4] {
    x.sort_unstable();
    x
}

/// The sorted union of two disjoint sorted sets.
fn union(a: &[u8], b: &[u8], out: &mut [u8; 10]) -> usize {
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i] < b[j]) {
            out[k] = a[i];
            i += 1;
        } else {
            out[k] = b[j];
            j += 1;
        }
        k += 1;
    }
    k
}

/// One up card's counting: the deck, its exchanged hands, and every dealer hand's strength.
pub struct OneExchange<'a> {
    t: &'a Tables,
    deck: &'a Deck,
    e: &'a Exchanged,
    qualifier: u16,
    dealer: Vec<u16>, // by the index of the hidden four positions
}

impl<'a> OneExchange<'a> {
    pub fn new(t: &'a Tables, deck: &'a Deck, e: &'a Exchanged, qualifier: u16) -> Self {
        let positions: Vec<u8> = (0..deck.len() as u8).collect();
        let mut dealer = vec![0u16; choose(deck.len(), 4)];
        for p in combinations::<4>(&positions) {
            let c = p.map(|i| deck.cards[i as usize]);
            dealer[index_of(&p)] = t.strength(&[deck.up, c[0], c[1], c[2], c[3]]);
        }
        OneExchange {
            t,
            deck,
            e,
            qualifier,
            dealer,
        }
    }

    /// Dealer hands and exchanged hands, all disjoint from `hand` and each other, that the final
    /// hand `hand` meets after one exchange: `Showdowns` of the dealer hands, each counted
    /// `g(hand, D)` times (the exchanged hands avoiding both), or |E| times with the discards back.
    pub fn counts(&self, hand: &[Card; 5], discards: Discards) -> Showdowns {
        let h = self.deck.positions(hand);
        let strength = self.t.strength(hand);
        let free: Vec<u8> = (0..self.deck.len() as u8)
            .filter(|p| !h.contains(p))
            .collect();
        let avoiding = match discards {
            Discards::Out => Avoiding::new(self.e, &h, &free),
            Discards::Back => Avoiding::empty(self.deck.len()),
        };
        let category = |s: u16| -> usize {
            if s < self.qualifier {
                0
            } else if s < strength {
                1
            } else if s == strength {
                2
            } else {
                3
            }
        };
        let mut out = [0u64; 4];
        let all = self.e.len() as i64;
        let pair = |a: u8, b: u8| a as usize + choose2(b);
        let triple = |a: u8, b: u8, c: u8| a as usize + choose2(b) + choose3(c);
        for (i1, &q1) in free.iter().enumerate() {
            let p1 = avoiding.none - avoiding.one[q1 as usize];
            for (i2, &q2) in free.iter().enumerate().skip(i1 + 1) {
                let p2 = p1 - avoiding.one[q2 as usize] + avoiding.two[pair(q1, q2)];
                let c2 = q1 as usize + choose2(q2);
                for (i3, &q3) in free.iter().enumerate().skip(i2 + 1) {
                    let p3 = p2 - avoiding.one[q3 as usize]
                        + avoiding.two[pair(q1, q3)]
                        + avoiding.two[pair(q2, q3)]
                        - avoiding.three[triple(q1, q2, q3)] as i64;
                    let c3 = c2 + choose3(q3);
                    // Each card x of the hand put among q1, q2, q3: where x < q4, the index of
                    // D + x is this one's plus C(q4, 5); otherwise D's own plus C(x, 5).
                    let below = h.map(|x| index_of(&sorted4([q1, q2, q3, x])));
                    for &q4 in &free[i3 + 1..] {
                        let four = c3 + choose4(q4);
                        let g = match discards {
                            Discards::Back => all,
                            Discards::Out => {
                                let mut holding = self.e.four[four] as i64;
                                for (k, &x) in h.iter().enumerate() {
                                    let five = if x < q4 {
                                        below[k] + choose_k(q4, 5)
                                    } else {
                                        four + choose_k(x, 5)
                                    };
                                    holding -= self.e.has(five) as i64;
                                }
                                p3 - avoiding.one[q4 as usize]
                                    + avoiding.two[pair(q1, q4)]
                                    + avoiding.two[pair(q2, q4)]
                                    + avoiding.two[pair(q3, q4)]
                                    - avoiding.three[triple(q1, q2, q4)] as i64
                                    - avoiding.three[triple(q1, q3, q4)] as i64
                                    - avoiding.three[triple(q2, q3, q4)] as i64
                                    + holding
                            }
                        };
                        debug_assert!(g >= 0);
                        out[category(self.dealer[four])] += g as u64;
                    }
                }
            }
        }
        out
    }

    /// Every round with one exchange whose final hand is `hand`, however the dealer stands: the
    /// exchanged hands avoiding it times the dealer hands avoiding both (its fold's count).
    pub fn paths(&self, hand: &[Card; 5], discards: Discards) -> u64 {
        let hidden = choose(self.deck.len() - 10, 4) as u64;
        match discards {
            Discards::Back => self.e.len() * choose(self.deck.len() - 5, 4) as u64,
            Discards::Out => {
                let h = self.deck.positions(hand);
                avoid_count(self.e, &h) as u64 * hidden
            }
        }
    }
}

/// C(n, k) for n up to 52 and k up to 5, looked up.
static BINOMIAL: [[u32; 6]; 53] = {
    let mut b = [[0u32; 6]; 53];
    let mut n = 0;
    while n < 53 {
        let mut k = 0;
        while k < 6 {
            b[n][k] = choose(n, k) as u32;
            k += 1;
        }
        n += 1;
    }
    b
};

#[inline(always)]
fn choose_k(n: u8, k: usize) -> usize {
    BINOMIAL[n as usize][k] as usize
}

/// One part of a whole count: against the up card `4 * up_rank` (a club), with the hands of
/// `exchanged` given up (canonical rows, each standing for its images under the renamings that
/// keep clubs), each final hand of `finals` (canonical rows): its dealer counts where `calls`
/// (zeros elsewhere), and its paths. `progress(rows done)` is called as rows finish.
pub fn one_exchange_part(
    qualifier: u16,
    up_rank: u8,
    exchanged: &[[Card; 5]],
    finals: &[[Card; 5]],
    calls: &[bool],
    discards: Discards,
    progress: &(dyn Fn(usize) + Sync),
) -> (Vec<Showdowns>, Vec<u64>) {
    let t = tables();
    let up = 4 * up_rank;
    let deck = Deck::full(up);
    let given_up: HashSet<[Card; 5]> = exchanged.iter().copied().collect();
    let e = Exchanged::build(&deck, |h| {
        given_up.contains(&canonical(h, &CLUB_FIXING_PERMS))
    });
    let one = OneExchange::new(t, &deck, &e, qualifier);
    let done = AtomicUsize::new(0);
    let rows: Vec<(Showdowns, u64)> = finals
        .par_iter()
        .zip(calls)
        .map(|(hand, &call)| {
            let counts = if call {
                one.counts(hand, discards)
            } else {
                [0; 4]
            };
            let paths = one.paths(hand, discards);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            (counts, paths)
        })
        .collect();
    rows.into_iter().unzip()
}

#[inline(always)]
fn choose2(n: u8) -> usize {
    let n = n as usize;
    n * n.saturating_sub(1) / 2
}

#[inline(always)]
fn choose3(n: u8) -> usize {
    let n = n as usize;
    n * n.saturating_sub(1) * n.saturating_sub(2) / 6
}

#[inline(always)]
fn choose4(n: u8) -> usize {
    let n = n as usize;
    n * n.saturating_sub(1) * n.saturating_sub(2) * n.saturating_sub(3) / 24
}

/// Exchanged hands avoiding `h` (sorted positions).
fn avoid_count(e: &Exchanged, h: &[u8; 5]) -> i64 {
    subsets_of(h)
        .iter()
        .map(|(a, len, sign)| sign * e.holding(&a[..*len]))
        .sum()
}

/// The 32 subsets of a sorted five-set, each sorted, with its length and sign (-1)^len.
fn subsets_of(h: &[u8; 5]) -> Vec<([u8; 5], usize, i64)> {
    (0u32..32)
        .map(|mask| {
            let mut a = [0u8; 5];
            let mut len = 0;
            for (k, &x) in h.iter().enumerate() {
                if mask >> k & 1 == 1 {
                    a[len] = x;
                    len += 1;
                }
            }
            (a, len, if len % 2 == 0 { 1 } else { -1 })
        })
        .collect()
}

/// For one final hand h: e_h(B) for every set B of up to three free positions, by B's index.
struct Avoiding {
    none: i64,
    one: Vec<i64>,
    two: Vec<i64>,
    three: Vec<i32>, // narrow: the walk reads it at random, and it should stay in cache
}

impl Avoiding {
    fn empty(n: usize) -> Self {
        Avoiding {
            none: 0,
            one: vec![0; n],
            two: vec![0; choose(n, 2)],
            three: vec![0; choose(n, 3)],
        }
    }

    /// e_h of a free triple b: those holding b, less those holding b and a card of h, plus those
    /// holding b and two (a hand has five cards).
    fn triple(e: &Exchanged, h: &[u8; 5], b: [u8; 3]) -> i64 {
        // Each card of h (ascending) with the triple: its place among b, and the index terms of
        // b's cards with none, one or two cards of h below them (k + 1, k + 2, k + 3).
        let below = h.map(|x| b.iter().filter(|&&y| y < x).count());
        let term = |shift: usize, k: usize| choose_k(b[k], k + 1 + shift);
        let mut n = e.three[index_of(&b)] as i64;
        for (i, &x) in h.iter().enumerate() {
            let m = below[i];
            let four: usize =
                (0..3).map(|k| term((k >= m) as usize, k)).sum::<usize>() + choose_k(x, m + 1);
            n -= e.four[four] as i64;
            for (j, &y) in h.iter().enumerate().skip(i + 1) {
                let my = below[j]; // at least m: y is above x
                let five: usize = (0..3)
                    .map(|k| term((k >= m) as usize + (k >= my) as usize, k))
                    .sum::<usize>()
                    + choose_k(x, m + 1)
                    + choose_k(y, my + 2);
                n += e.has(five) as i64;
            }
        }
        n
    }

    fn new(e: &Exchanged, h: &[u8; 5], free: &[u8]) -> Self {
        let n = e.one.len();
        let subsets = subsets_of(h);
        let mut buf = [0u8; 10];
        let mut avoiding = |b: &[u8]| -> i64 {
            subsets
                .iter()
                .filter(|(_, len, _)| len + b.len() <= 5)
                .map(|(a, len, sign)| {
                    let k = union(&a[..*len], b, &mut buf);
                    sign * e.holding(&buf[..k])
                })
                .sum()
        };
        let mut one = vec![0i64; n];
        let mut two = vec![0i64; choose(n, 2)];
        let mut three = vec![0i32; choose(n, 3)];
        for &x in free {
            one[x as usize] = avoiding(&[x]);
        }
        for p in combinations::<2>(free) {
            two[index_of(&p)] = avoiding(&p);
        }
        for p in combinations::<3>(free) {
            three[index_of(&p)] = Self::triple(e, h, p) as i32;
        }
        Avoiding {
            none: avoiding(&[]),
            one,
            two,
            three,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{tables, LOWEST_ACE_KING};
    use crate::exact::stud::direct_counts;

    type Rule<'a> = &'a dyn Fn(&[Card; 5]) -> bool;

    /// Counted by visiting every dealer hand and every exchanged hand: the slow check.
    fn brute(
        t: &Tables,
        deck: &Deck,
        exchanges: &dyn Fn(&[Card; 5]) -> bool,
        hand: &[Card; 5],
        q: u16,
    ) -> Showdowns {
        let s = t.strength(hand);
        let rest: Vec<Card> = deck
            .cards
            .iter()
            .copied()
            .filter(|c| !hand.contains(c))
            .collect();
        let mut out = [0u64; 4];
        for d in combinations::<4>(&rest) {
            let ds = t.strength(&[deck.up, d[0], d[1], d[2], d[3]]);
            let k = if ds < q {
                0
            } else if ds < s {
                1
            } else if ds == s {
                2
            } else {
                3
            };
            let left: Vec<Card> = rest.iter().copied().filter(|c| !d.contains(c)).collect();
            out[k] += combinations::<5>(&left)
                .iter()
                .filter(|x| exchanges(x))
                .count() as u64;
        }
        out
    }

    /// An arbitrary set of hands: about half of them, by a hash of the cards.
    fn hashed(h: &[Card; 5]) -> bool {
        let x = h.iter().fold(0x9e37_79b9_u64, |a, &c| {
            (a ^ c as u64).wrapping_mul(0x100_0000_01b3)
        });
        x >> 17 & 1 == 1
    }

    fn cards(text: &str) -> [Card; 5] {
        let v: Vec<Card> = text
            .split_whitespace()
            .map(|w| crate::cards::parse_card(w).expect(w))
            .collect();
        v.try_into().expect("five")
    }

    #[test]
    fn a_reduced_deck_equals_brute_force() {
        let t = tables();
        let q = t.strength(&LOWEST_ACE_KING);
        let up = crate::cards::parse_card("2c").unwrap();
        // Eights to aces: 24 cards, every hand weaker than a pair exchanged, or half of them by hash.
        let small: Vec<Card> = (24..52).collect();
        let deck = Deck::new(up, &small);
        let pair = t.strength(&cards("2c 2d 3h 4s 5c"));
        let below_pair = move |h: &[Card; 5]| tables().strength(h) < pair;
        let rules: [Rule; 2] = [&below_pair, &hashed];
        for rule in rules {
            let e = Exchanged::build(&deck, rule);
            let one = OneExchange::new(t, &deck, &e, q);
            for hand in [
                "Ah Kd Qc Js 9h",
                "8c 8d Th Ts Ac",
                "Ac Kc Qc Jc 9c",
                "9s 9h 9d Ks Qd",
            ] {
                let hand = cards(hand);
                let fast = one.counts(&hand, Discards::Out);
                assert_eq!(fast, brute(t, &deck, rule, &hand, q), "{hand:?}");
                assert_eq!(fast.iter().sum::<u64>(), one.paths(&hand, Discards::Out));
            }
        }
    }

    #[test]
    fn with_the_discards_back_the_counts_are_the_stud_counts_times_e() {
        let t = tables();
        let q = t.strength(&LOWEST_ACE_KING);
        let up = crate::cards::parse_card("4c").unwrap();
        let deck = Deck::full(up);
        let e = Exchanged::build(&deck, hashed);
        let one = OneExchange::new(t, &deck, &e, q);
        let hand = cards("Ah Ad 7c 5s 2h");
        let stud = direct_counts(&hand, up, q).map(|n| n as u64 * e.len());
        assert_eq!(one.counts(&hand, Discards::Back), stud);
        // Out of play: as many rounds as the hands that avoid one another allow.
        let out = one.counts(&hand, Discards::Out);
        assert_eq!(out.iter().sum::<u64>(), one.paths(&hand, Discards::Out));
        assert!(out.iter().sum::<u64>() < stud.iter().sum::<u64>());
    }
}
