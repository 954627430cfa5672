//! Decision tables for simulation, expanded from the canonical situations of the exact analysis
//! to every concrete deal, so that a decision is one bit lookup, with no suit renaming per round.

use crate::cards::Card;
use crate::eval::tables;
use crate::exact::symmetry::{image, rename, ALL_PERMS};

/// binomial[n][k] for n < 53, k < 6.
fn binomials() -> [[u32; 6]; 53] {
    let mut b = [[0u32; 6]; 53];
    for n in 0..53 {
        b[n][0] = 1;
        for k in 1..6 {
            b[n][k] = if n == 0 {
                0
            } else {
                b[n - 1][k - 1] + b[n - 1][k]
            };
        }
    }
    b
}

/// Combinatorial index of a sorted card set among all sets of its size.
#[inline]
fn comb_index(cards: &[Card], binomial: &[[u32; 6]; 53]) -> usize {
    cards
        .iter()
        .enumerate()
        .map(|(k, &c)| binomial[c as usize][k + 1] as usize)
        .sum()
}

struct BitSet(Vec<u64>);

impl BitSet {
    fn new(bits: usize) -> Self {
        BitSet(vec![0; bits.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
}

const FOLD_ALL: u8 = 0;
const RAISE_ALL: u8 = 1;
const LOOK_UP: u8 = 2;

/// Raise or fold for every (five cards, up card) of Caribbean Stud.
pub struct StudDecisions {
    /// Per strength (padded to 8192 for a check-free masked index): every hand folds, every
    /// hand raises, or it depends on the cards.
    by_strength: Box<[u8; 8192]>,
    /// A bit per (hand, up card) for the strengths that depend on the cards.
    bits: BitSet,
    /// Whether `bits` covers only Ace-King hands without a pair (the usual case): then it is
    /// indexed by the ace's and king's suits and the other three cards, 1.4 MB that stays in
    /// cache, instead of by all 2,598,960 hands (17 MB).
    ace_king_only: bool,
    binomial: [[u32; 6]; 53],
}

/// C(44, 3): the other three cards of an Ace-King hand without a pair are all below a king.
const ACE_KING_OTHERS: usize = 13_244;

impl StudDecisions {
    /// Raise from `threshold` strength up, fold below.
    pub fn threshold(threshold: u16) -> Self {
        let mut by_strength = Box::new([FOLD_ALL; 8192]);
        by_strength
            .iter_mut()
            .enumerate()
            .skip(threshold as usize)
            .for_each(|(_, d)| *d = RAISE_ALL);
        StudDecisions {
            by_strength,
            bits: BitSet::new(0),
            ace_king_only: false,
            binomial: binomials(),
        }
    }

    /// From canonical rows (up card a club of `up_rank`, sorted hand, decision).
    pub fn from_canonical(up_rank: &[u8], hands: &[[Card; 5]], raises: &[bool]) -> Self {
        Self::build(up_rank, hands, raises, true)
    }

    fn build(up_rank: &[u8], hands: &[[Card; 5]], raises: &[bool], compact: bool) -> Self {
        let t = tables();
        let mut seen = vec![[false; 2]; 7463];
        let strengths: Vec<u16> = hands.iter().map(|h| t.strength(h)).collect();
        for (&s, &r) in strengths.iter().zip(raises) {
            seen[s as usize][r as usize] = true;
        }
        let mut by_strength = Box::new([FOLD_ALL; 8192]);
        for (slot, [f, r]) in by_strength.iter_mut().zip(&seen) {
            *slot = if *f && *r {
                LOOK_UP
            } else if *r {
                RAISE_ALL
            } else {
                FOLD_ALL
            };
        }
        let (ace_king, pair) = (
            t.strength(&[48, 44, 8, 4, 1]),
            t.class_floor(crate::eval::HandClass::OnePair),
        );
        let ace_king_only = compact
            && (0..7463).all(|s| {
                by_strength[s] != LOOK_UP || (ace_king as usize..pair as usize).contains(&s)
            });
        let size = if ace_king_only {
            16 * ACE_KING_OTHERS * 52
        } else {
            2_598_960 * 52
        };
        let mut d = StudDecisions {
            by_strength,
            bits: BitSet::new(size),
            ace_king_only,
            binomial: binomials(),
        };
        for (i, h) in hands.iter().enumerate() {
            if d.by_strength[strengths[i] as usize] == LOOK_UP && raises[i] {
                for p in ALL_PERMS.iter() {
                    let bit = d.bit(&image(h, p), rename(4 * up_rank[i], p));
                    d.bits.set(bit);
                }
            }
        }
        d
    }

    /// The bit of a sorted hand against an up card.
    #[inline]
    fn bit(&self, sorted: &[Card; 5], up: Card) -> usize {
        let hand = if self.ace_king_only {
            // Sorted, an Ace-King hand without a pair ends with its king and its ace.
            let suits = (sorted[4] & 3) as usize * 4 + (sorted[3] & 3) as usize;
            suits * ACE_KING_OTHERS + comb_index(&sorted[..3], &self.binomial)
        } else {
            comb_index(sorted, &self.binomial)
        };
        hand * 52 + up as usize
    }

    /// Whether to raise a hand of this strength against this up card.
    #[inline]
    pub fn raises(&self, strength: u16, hand: &[Card; 5], up: Card) -> bool {
        let by_strength = self.by_strength[strength as usize & 8191];
        if by_strength != LOOK_UP {
            return by_strength == RAISE_ALL; // a value, not a branch: raise or fold is a coin flip
        }
        let mut sorted = *hand;
        sorted.sort_unstable();
        self.bits.get(self.bit(&sorted, up))
    }
}

/// Call or fold for every (two cards, flop) of Casino Hold'em.
pub struct HoldemDecisions {
    bits: BitSet,
    binomial: [[u32; 6]; 53],
}

impl HoldemDecisions {
    /// From canonical rows (hole cards then flop, as the exact analysis lists them).
    pub fn from_canonical(cards: &[[Card; 5]], calls: &[bool]) -> Self {
        let binomial = binomials();
        let mut bits = BitSet::new(1326 * 22_100);
        for (c, _) in cards.iter().zip(calls).filter(|(_, &call)| call) {
            for p in ALL_PERMS.iter() {
                let hole = image(&[c[0], c[1]], p);
                let flop = image(&[c[2], c[3], c[4]], p);
                bits.set(comb_index(&hole, &binomial) * 22_100 + comb_index(&flop, &binomial));
            }
        }
        HoldemDecisions { bits, binomial }
    }

    /// Call everything (or nothing).
    pub fn constant(call: bool) -> Self {
        let mut d = HoldemDecisions {
            bits: BitSet::new(1326 * 22_100),
            binomial: binomials(),
        };
        if call {
            d.bits.0.iter_mut().for_each(|w| *w = u64::MAX);
        }
        d
    }

    #[inline]
    pub fn calls(&self, sorted_hole: &[Card; 2], sorted_flop: &[Card; 3]) -> bool {
        self.bits.get(
            comb_index(sorted_hole, &self.binomial) * 22_100
                + comb_index(sorted_flop, &self.binomial),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::symmetry::{canonical, combinations, CLUB_FIXING_PERMS};

    /// Every Ace-King high-card hand (no pair, straight or flush), sorted.
    fn ace_king_hands() -> Vec<[Card; 5]> {
        let t = tables();
        let high_card =
            t.strength(&[48, 44, 8, 4, 1])..t.class_floor(crate::eval::HandClass::OnePair);
        let low: Vec<Card> = (0..44).collect();
        let mut out = Vec::new();
        for others in combinations::<3>(&low) {
            for (a, k) in (0..4).flat_map(|a| (0..4).map(move |k| (a, k))) {
                let hand = [others[0], others[1], others[2], 44 + k, 48 + a];
                if high_card.contains(&t.strength(&hand)) {
                    out.push(hand);
                }
            }
        }
        out
    }

    #[test]
    fn the_compact_ace_king_table_decides_as_the_full_one() {
        // Canonical rows for every Ace-King hand, raised by a rule that depends on the suits.
        let mut rows = std::collections::BTreeSet::new();
        for up_rank in 0..13u8 {
            for hand in ace_king_hands()
                .iter()
                .filter(|h| !h.contains(&(4 * up_rank)))
            {
                rows.insert((up_rank, canonical(hand, &CLUB_FIXING_PERMS)));
            }
        }
        let (up, hands): (Vec<u8>, Vec<[Card; 5]>) = rows.into_iter().unzip();
        let raises: Vec<bool> = hands
            .iter()
            .zip(&up)
            .map(|(h, &u)| (h[0] as usize * 7 + h[2] as usize + u as usize) % 3 == 0)
            .collect();
        let (compact, full) = (
            StudDecisions::build(&up, &hands, &raises, true),
            StudDecisions::build(&up, &hands, &raises, false),
        );
        assert!(compact.ace_king_only && !full.ace_king_only);
        let t = tables();
        let mut raised = 0;
        for hand in ace_king_hands() {
            for up in (0..52).filter(|c| !hand.contains(c)) {
                let s = t.strength(&hand);
                assert_eq!(
                    compact.raises(s, &hand, up),
                    full.raises(s, &hand, up),
                    "{hand:?} against {up}"
                );
                raised += compact.raises(s, &hand, up) as usize;
            }
        }
        assert!(raised > 0);
    }

    #[test]
    fn combination_indices_are_dense() {
        let b = binomials();
        assert_eq!(comb_index(&[0, 1, 2, 3, 4], &b), 0);
        assert_eq!(comb_index(&[47, 48, 49, 50, 51], &b), 2_598_959);
        assert_eq!(comb_index(&[50, 51], &b), 1325);
        assert_eq!(comb_index(&[49, 50, 51], &b), 22_099);
    }
}
