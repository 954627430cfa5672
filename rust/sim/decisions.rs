//! Decision tables for simulation, expanded from the canonical situations of the exact analysis
//! to every concrete deal, so that a decision is one bit lookup, with no suit renaming per round.

use crate::cards::validate;
use crate::cards::Card;
use crate::combinations::{choose, index_of, HANDS, PAIRS, TRIPLES};
use crate::eval::{tables, HandClass, DISTINCT_STRENGTHS, LOWEST_ACE_KING};
use crate::eval::{STRENGTH_MASK, STRENGTH_SLOTS};
use crate::exact::symmetry::{canonical, image, rename, SuitPerm, ALL_PERMS, CLUB_FIXING_PERMS};
use rayon::prelude::*;

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

/// Checks rows as the exact analysis lists stud situations: each up rank below 13, each hand
/// five distinct ids, sorted, without the up card (a club), and least among its renamings of
/// the other suits. Names the first row that is not.
pub fn check_stud_rows(up_rank: &[u8], hands: &[[Card; 5]]) -> Result<(), String> {
    if up_rank.len() != hands.len() {
        return Err(format!(
            "{} up ranks for {} hands",
            up_rank.len(),
            hands.len()
        ));
    }
    first_bad(hands.len(), |i| {
        let (u, h) = (up_rank[i], &hands[i]);
        if u >= 13 {
            return Some(format!("up rank {u} is not in 0..13"));
        }
        let up = 4 * u;
        if let Err(e) = validate(&[h[0], h[1], h[2], h[3], h[4], up], 6, 6) {
            return Some(format!("the hand and its up card: {e}"));
        }
        (!h.is_sorted() || canonical(h, &CLUB_FIXING_PERMS) != *h)
            .then(|| format!("hand {h:?} is not sorted and least under suit renaming"))
    })
}

/// Checks rows as the exact analysis lists hold'em situations: hole cards then flop, five
/// distinct ids, each part sorted, the flop least among its renamings and the hole cards least
/// among those that keep the flop. Names the first row that is not.
pub fn check_holdem_rows(cards: &[[Card; 5]]) -> Result<(), String> {
    first_bad(cards.len(), |i| {
        let c = &cards[i];
        if let Err(e) = validate(c, 5, 5) {
            return Some(e.to_string());
        }
        let (hole, flop) = ([c[0], c[1]], [c[2], c[3], c[4]]);
        let keeping: Vec<SuitPerm> = ALL_PERMS
            .iter()
            .copied()
            .filter(|p| image(&flop, p) == flop)
            .collect();
        let least = hole.is_sorted()
            && flop.is_sorted()
            && canonical(&flop, &ALL_PERMS) == flop
            && canonical(&hole, &keeping) == hole;
        (!least).then(|| format!("{c:?} is not sorted and least under suit renaming"))
    })
}

/// The first row `0..n` for which `fault` says what is wrong, as an error naming it.
fn first_bad(n: usize, fault: impl Fn(usize) -> Option<String> + Sync) -> Result<(), String> {
    match (0..n).into_par_iter().find_first(|&i| fault(i).is_some()) {
        Some(i) => Err(format!("row {i}: {}", fault(i).unwrap_or_default())),
        None => Ok(()),
    }
}

const FOLD_ALL: u8 = 0;
const RAISE_ALL: u8 = 1;
const LOOK_UP: u8 = 2;

/// Raise or fold for every (five cards, up card) of Caribbean Stud.
pub struct StudDecisions {
    /// Per strength (padded for a check-free masked index): every hand folds, every hand
    /// raises, or it depends on the cards.
    by_strength: Box<[u8; STRENGTH_SLOTS]>,
    /// A bit per (hand, up card) for the strengths that depend on the cards.
    bits: BitSet,
    /// Whether `bits` covers only Ace-King hands without a pair (the usual case): then it is
    /// indexed by the ace's and king's suits and the other three cards, 1.4 MB that stays in
    /// cache, instead of by all 2,598,960 hands (17 MB).
    ace_king_only: bool,
}

/// The other three cards of an Ace-King hand without a pair are all below a king: C(44, 3).
const ACE_KING_OTHERS: usize = choose(44, 3);
/// The suits of an Ace-King hand's ace and king.
const ACE_KING_SUITS: usize = 16;
/// Up cards a hand may face.
const UP_CARDS: usize = crate::cards::DECK_SIZE;

impl StudDecisions {
    /// Raise from `threshold` strength up, fold below.
    pub fn threshold(threshold: u16) -> Self {
        let mut by_strength = Box::new([FOLD_ALL; STRENGTH_SLOTS]);
        by_strength
            .iter_mut()
            .enumerate()
            .skip(threshold as usize)
            .for_each(|(_, d)| *d = RAISE_ALL);
        StudDecisions {
            by_strength,
            bits: BitSet::new(0),
            ace_king_only: false,
        }
    }

    /// From canonical rows (up card a club of `up_rank`, sorted hand, decision).
    pub fn from_canonical(up_rank: &[u8], hands: &[[Card; 5]], raises: &[bool]) -> Self {
        Self::build(up_rank, hands, raises, true)
    }

    fn build(up_rank: &[u8], hands: &[[Card; 5]], raises: &[bool], compact: bool) -> Self {
        let t = tables();
        let mut seen = vec![[false; 2]; DISTINCT_STRENGTHS as usize + 1];
        let strengths: Vec<u16> = hands.iter().map(|h| t.strength(h)).collect();
        for (&s, &r) in strengths.iter().zip(raises) {
            seen[s as usize][r as usize] = true;
        }
        let mut by_strength = Box::new([FOLD_ALL; STRENGTH_SLOTS]);
        for (slot, [f, r]) in by_strength.iter_mut().zip(&seen) {
            *slot = if *f && *r {
                LOOK_UP
            } else if *r {
                RAISE_ALL
            } else {
                FOLD_ALL
            };
        }
        let ace_king =
            t.strength(&LOWEST_ACE_KING) as usize..t.class_floor(HandClass::OnePair) as usize;
        let ace_king_only = compact
            && (0..=DISTINCT_STRENGTHS as usize)
                .all(|s| by_strength[s] != LOOK_UP || ace_king.contains(&s));
        let indexed = if ace_king_only {
            ACE_KING_SUITS * ACE_KING_OTHERS
        } else {
            HANDS
        };
        let mut d = StudDecisions {
            by_strength,
            bits: BitSet::new(indexed * UP_CARDS),
            ace_king_only,
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
            suits * ACE_KING_OTHERS + index_of(&sorted[..3])
        } else {
            index_of(sorted)
        };
        hand * UP_CARDS + up as usize
    }

    /// Whether to raise a hand of this strength against this up card.
    #[inline]
    pub fn raises(&self, strength: u16, hand: &[Card; 5], up: Card) -> bool {
        let by_strength = self.by_strength[strength as usize & STRENGTH_MASK];
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
    /// A bit per (hole pair index, flop index).
    bits: BitSet,
}

/// The bit of sorted hole cards and a sorted flop.
#[inline]
fn holdem_bit(hole: &[Card; 2], flop: &[Card; 3]) -> usize {
    index_of(hole) * TRIPLES + index_of(flop)
}

impl HoldemDecisions {
    /// From canonical rows (hole cards then flop, as the exact analysis lists them).
    pub fn from_canonical(cards: &[[Card; 5]], calls: &[bool]) -> Self {
        let mut bits = BitSet::new(PAIRS * TRIPLES);
        for (c, _) in cards.iter().zip(calls).filter(|(_, &call)| call) {
            for p in ALL_PERMS.iter() {
                let hole = image(&[c[0], c[1]], p);
                let flop = image(&[c[2], c[3], c[4]], p);
                bits.set(holdem_bit(&hole, &flop));
            }
        }
        HoldemDecisions { bits }
    }

    /// Call everything (or nothing).
    pub fn constant(call: bool) -> Self {
        let mut d = HoldemDecisions {
            bits: BitSet::new(PAIRS * TRIPLES),
        };
        if call {
            d.bits.0.iter_mut().for_each(|w| *w = u64::MAX);
        }
        d
    }

    #[inline]
    pub fn calls(&self, sorted_hole: &[Card; 2], sorted_flop: &[Card; 3]) -> bool {
        self.bits.get(holdem_bit(sorted_hole, sorted_flop))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::symmetry::{canonical, combinations, CLUB_FIXING_PERMS};

    /// Every Ace-King high-card hand (no pair, straight or flush), sorted.
    fn ace_king_hands() -> Vec<[Card; 5]> {
        let t = tables();
        let high_card = t.strength(&LOWEST_ACE_KING)..t.class_floor(HandClass::OnePair);
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
    fn rows_that_are_not_canonical_are_named() {
        let ace_high = [0, 5, 10, 14, 48]; // 2c 3d 4h 5h Ac
        assert_eq!(check_stud_rows(&[3], &[ace_high]), Ok(()));
        assert!(check_stud_rows(&[3, 4], &[ace_high]).is_err());
        assert!(check_stud_rows(&[13], &[ace_high]).is_err_and(|e| e.contains("up rank 13")));
        assert!(check_stud_rows(&[0], &[ace_high]).is_err()); // holds the up card, 2c
        let unsorted = [5, 0, 10, 14, 48];
        assert!(check_stud_rows(&[3], &[unsorted]).is_err_and(|e| e.starts_with("row 0")));
        let renamed = [0, 6, 9, 13, 48]; // 2c 3h 4d 5d Ac: diamonds and hearts swapped
        assert!(
            check_stud_rows(&[3, 3], &[ace_high, renamed]).is_err_and(|e| e.starts_with("row 1"))
        );
        assert_eq!(check_holdem_rows(&[[0, 4, 8, 12, 16]]), Ok(()));
        assert!(check_holdem_rows(&[[0, 4, 9, 13, 17]]).is_err()); // a diamond flop: clubs are least
        assert!(check_holdem_rows(&[[0, 0, 8, 12, 16]]).is_err());
        assert!(check_holdem_rows(&[[0, 4, 8, 12, 60]]).is_err());
    }
}
