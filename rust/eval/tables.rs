//! The evaluator's tables, built once per process from `five_card_code`.
//!
//! A card's key (see `hand`) packs a rank key (low 32 bits), a 4-bit counter for its suit (bits
//! 32..48) and a card count. Rank keys are chosen so that any multiset of up to seven ranks has
//! its own sum, so the sum of a hand's card keys identifies its ranks; a suit counter reaching
//! five flags a flush.

use super::class::{five_card_code, HandClass, CATEGORIES};
use super::hand::card_key;
use super::perfect_hash::PerfectHash;
use crate::cards::Card;
use std::collections::HashMap;
use std::sync::LazyLock;

/// Rank keys whose sums over multisets of up to seven ranks (at most four of each) are distinct.
pub(crate) const RANK_KEYS: [u32; 13] = [
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
];

/// Number of distinct five-card strengths.
pub const DISTINCT_STRENGTHS: u16 = 7462;

/// Tables indexed by strength (0 unused) are padded to a power of two, so that
/// `strength & STRENGTH_MASK` indexes them without a bounds check.
pub const STRENGTH_SLOTS: usize = (DISTINCT_STRENGTHS as usize + 1).next_power_of_two();
pub const STRENGTH_MASK: usize = STRENGTH_SLOTS - 1;

pub struct Tables {
    /// Card keys by id; an entry for every `u8`, so that an id indexes without a bounds check
    /// or a mask (ids 52 and up add nothing).
    pub(crate) card_keys: [u64; 256],
    /// Strength of the best flush in a 13-bit rank mask of five to seven ranks.
    pub(crate) flush: Box<[u16; 1 << 13]>,
    /// Strength of a non-flush hand of 5, 6 or 7 cards by its rank-key sum.
    pub(crate) five: PerfectHash<NON_FLUSH_FIVES>,
    pub(crate) six: PerfectHash<NON_FLUSH_SIXES>,
    pub(crate) seven: PerfectHash<NON_FLUSH_SEVENS>,
    /// The lowest strength of each class, indexed by `HandClass as usize`.
    pub(crate) class_floor: [u16; HandClass::ALL.len()],
}

/// Multisets of 5, 6 and 7 ranks with at most four of each: the keys of non-flush hands.
pub(crate) const NON_FLUSH_FIVES: usize = 6175;
pub(crate) const NON_FLUSH_SIXES: usize = 18_395;
pub(crate) const NON_FLUSH_SEVENS: usize = 49_205;

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// The process-wide tables, built on first use.
pub fn tables() -> &'static Tables {
    &TABLES
}

/// Calls `f` with every multiset of `size` ranks holding at most four of each rank.
fn for_each_multiset(size: u8, f: &mut impl FnMut(&[u8; 13])) {
    fn go(counts: &mut [u8; 13], from: usize, left: u8, f: &mut impl FnMut(&[u8; 13])) {
        if left == 0 {
            return f(counts);
        }
        for r in from..13 {
            if counts[r] < 4 {
                counts[r] += 1;
                go(counts, r, left - 1, f);
                counts[r] -= 1;
            }
        }
    }
    go(&mut [0; 13], 0, size, f);
}

fn rank_key(counts: &[u8; 13]) -> u32 {
    (0..13).map(|r| counts[r] as u32 * RANK_KEYS[r]).sum()
}

fn mask_counts(mask: u16) -> [u8; 13] {
    std::array::from_fn(|r| (mask >> r & 1) as u8)
}

/// Every distinct five-card code, sorted: a code's strength is its index plus one.
fn sorted_codes() -> Vec<u32> {
    let mut codes = Vec::with_capacity(DISTINCT_STRENGTHS as usize);
    for_each_multiset(5, &mut |counts| codes.push(five_card_code(counts, false)));
    codes.extend(
        (0u16..1 << 13)
            .filter(|m| m.count_ones() == 5)
            .map(|m| five_card_code(&mask_counts(m), true)),
    );
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// Strengths of every non-flush multiset of 5, 6 and 7 ranks, by rank key: five from the codes,
/// and a larger multiset as the best of the multisets one card smaller.
fn non_flush_strengths(strength_of: &HashMap<u32, u16>) -> [Vec<(u32, u16)>; 3] {
    let mut sizes: [HashMap<u32, u16>; 3] = Default::default();
    for size in 5..=7u8 {
        let i = (size - 5) as usize;
        let (smaller, this) = sizes.split_at_mut(i);
        for_each_multiset(size, &mut |counts| {
            let key = rank_key(counts);
            let strength = match smaller.last() {
                None => strength_of[&five_card_code(counts, false)],
                Some(prev) => (0..13)
                    .filter(|&r| counts[r] > 0)
                    .map(|r| prev[&(key - RANK_KEYS[r])])
                    .max()
                    .unwrap_or(0),
            };
            let clash = this[0].insert(key, strength);
            assert!(clash.is_none(), "rank keys collide at {key}");
        });
    }
    sizes.map(|m| m.into_iter().collect())
}

/// Strength of the best flush in every rank mask of five to seven ranks.
fn flush_strengths(strength_of: &HashMap<u32, u16>) -> Box<[u16; 1 << 13]> {
    let mut flush = Box::new([0u16; 1 << 13]);
    let mut masks: Vec<u16> = (0u16..1 << 13)
        .filter(|m| (5..=7).contains(&m.count_ones()))
        .collect();
    masks.sort_by_key(|m| m.count_ones());
    for m in masks {
        flush[m as usize] = match m.count_ones() {
            5 => strength_of[&five_card_code(&mask_counts(m), true)],
            _ => (0..13)
                .filter(|r| m >> r & 1 == 1)
                .map(|r| flush[(m & !(1 << r)) as usize])
                .max()
                .unwrap_or(0),
        };
    }
    flush
}

fn class_floors(codes: &[u32]) -> [u16; HandClass::ALL.len()] {
    let mut floor = [0u16; HandClass::ALL.len()];
    for (i, &code) in codes.iter().enumerate().rev() {
        floor[CATEGORIES[(code >> 20) as usize] as usize] = i as u16 + 1;
    }
    floor[HandClass::AceKing as usize] = floor[HandClass::OnePair as usize];
    floor[HandClass::RoyalFlush as usize] = DISTINCT_STRENGTHS;
    floor
}

impl Tables {
    fn build() -> Self {
        let codes = sorted_codes();
        assert_eq!(codes.len(), DISTINCT_STRENGTHS as usize);
        let strength_of: HashMap<u32, u16> = codes
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u16 + 1))
            .collect();
        let [five, six, seven] = non_flush_strengths(&strength_of);
        Tables {
            card_keys: std::array::from_fn(|c| if c < 52 { card_key(c as Card) } else { 0 }),
            flush: flush_strengths(&strength_of),
            five: PerfectHash::build(&five),
            six: PerfectHash::build(&six),
            seven: PerfectHash::build(&seven),
            class_floor: class_floors(&codes),
        }
    }

    /// Bytes of lookup data read by evaluation.
    pub fn footprint(&self) -> usize {
        self.flush.len() * 2
            + self.five.footprint()
            + self.six.footprint()
            + self.seven.footprint()
            + std::mem::size_of_val(&self.card_keys)
    }
}
