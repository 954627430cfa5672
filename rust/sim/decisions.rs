//! Decision tables for simulation, expanded from the canonical situations of the exact analysis
//! so that a decision is one bit lookup: by every concrete deal, or, where that table would not
//! stay in cache, by an index that every renaming of a deal shares and that takes no renaming
//! to find (stud's Ace-King hands: `ace_king_bit`; hold'em's flop classes).

use crate::cards::{rank, suit, validate, Card};
use crate::combinations::{choose, index_of, HANDS};
use crate::eval::{tables, HandClass, DISTINCT_STRENGTHS, LOWEST_ACE_KING};
use crate::eval::{STRENGTH_MASK, STRENGTH_SLOTS};
use crate::exact::symmetry::{
    canonical, combinations, image, rename, SuitPerm, ALL_PERMS, CLUB_FIXING_PERMS,
};
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
/// `StudDecisions::by_strength`'s bit for a strength at which every hand raises.
pub const RAISE_ALL: u8 = 1;
/// `StudDecisions::by_strength`'s bit for a strength at which the cards decide
/// (`StudDecisions::looks_up`).
pub const LOOK_UP: u8 = 2;

/// Raise or fold for every (five cards, up card) of Caribbean Stud.
pub struct StudDecisions {
    /// Per strength (padded for a check-free masked index): every hand folds, every hand
    /// raises, or it depends on the cards.
    by_strength: Box<[u8; STRENGTH_SLOTS]>,
    /// A bit per (hand, up card) for the strengths that depend on the cards.
    bits: BitSet,
    /// Whether `bits` covers only Ace-King hands without a pair (the usual case): then it is
    /// indexed by what a deal is up to renaming suits (`ace_king_bit`), 50 KB that stays in a
    /// core's 512 KB second-level cache, instead of by all 2,598,960 hands and up cards (17 MB).
    ace_king_only: bool,
    /// What the strength and the up card's rank settle (`ranks`, worked out once).
    by_ranks: ByRanks,
}

/// Up cards a hand may face.
const UP_CARDS: usize = crate::cards::DECK_SIZE;
/// The other three ranks of an Ace-King hand without a pair are below a king: C(11, 3).
const ACE_KING_OTHERS: usize = choose(11, 3);
/// A suit's byte in `ace_king_bit`'s labels before its first card names it, and the mask of
/// one such byte.
const UNNAMED: u32 = 0xff;

/// Five cards' suits as labels relative to an up card: 0 for the up card's suit, the others
/// 1, 2, 3 in the order they first appear (base 4, the first card most significant). Two deals
/// with the same up rank, the same ranks and the same labels are one suit renaming apart, so
/// they are decided alike.
/// Per base-4 code, its place among the codes such labels can make (`SUIT_PATTERNS` of them).
const PATTERN_INDEX: [u8; 1024] = pattern_index().0;
/// The labellings five cards' suits can have (`PATTERN_INDEX`).
const SUIT_PATTERNS: usize = 187;
const _: () = assert!(pattern_index().1 == SUIT_PATTERNS);

/// `PATTERN_INDEX` and how many codes it numbers.
const fn pattern_index() -> ([u8; 1024], usize) {
    let mut index = [0u8; 1024];
    let (mut code, mut next) = (0, 0);
    while code < 1024 {
        if labels_made(code) {
            index[code] = next;
            next += 1;
        }
        code += 1;
    }
    (index, next as usize)
}

/// Whether a base-4 code of five labels is one that labelling suits makes: each label above 1
/// appears only after one less has.
const fn labels_made(code: usize) -> bool {
    let (mut named, mut k, mut made) = (0, 5, true);
    while k > 0 {
        k -= 1;
        let label = code >> (2 * k) & 3;
        made &= label <= named + 1;
        if label > named {
            named = label;
        }
    }
    made
}

/// Each suit pattern's code (`PATTERN_INDEX` inverted).
fn pattern_codes() -> Vec<usize> {
    (0..1024).filter(|&code| labels_made(code)).collect()
}

/// A row of `ByRanks::by_row` for the strengths whose own entry decides (all fold).
const OWN_ROW: u8 = 0;
/// The row of the strengths whose cards decide every deal (all `LOOK_UP`).
const CARDS_ROW: u8 = 1;
/// The first Ace-King row: one per hand's other three ranks (`index_of`) follows.
const FIRST_ACE_KING_ROW: usize = 2;

/// The decisions that a strength and the up card's rank settle, for the one-seat loop: it then
/// looks up the cards (`StudDecisions::looks_up`) only for the deals whose suits decide, and
/// the others need no branch. An Ace-King hand's decision is one bit per (up rank, other three
/// ranks, suit pattern); for most (up rank, ranks) every pattern the deal can have gives the
/// same bit.
pub struct ByRanks {
    /// Per strength (padded as `StudDecisions::by_strength`): its row of `by_row`.
    pub row: Box<[u8; STRENGTH_SLOTS]>,
    /// Per row and up rank (`row * ROW_STRIDE + up rank`, every `u8` row and 4-bit rank in
    /// bounds): 0 (no raise beyond the strength's own `RAISE_ALL`), `RAISE_ALL`, or `LOOK_UP`
    /// (the suits decide).
    pub by_row: Box<[u8; 256 * ROW_STRIDE]>,
}

/// Entries a row of `ByRanks::by_row` takes: a power of two, so that a row's place is a shift.
pub const ROW_STRIDE: usize = 16;

impl ByRanks {
    /// Before `StudDecisions::ranks` has worked them out.
    fn none() -> Self {
        ByRanks {
            row: Box::new([OWN_ROW; STRENGTH_SLOTS]),
            by_row: Box::new([FOLD_ALL; 256 * ROW_STRIDE]),
        }
    }
}

/// Ranks an up card may have.
const UP_RANKS: usize = 13;

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
            by_ranks: ByRanks::none(),
        }
        .with_ranks()
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
        let bit_count = if ace_king_only {
            UP_RANKS * ACE_KING_OTHERS * SUIT_PATTERNS
        } else {
            HANDS * UP_CARDS
        };
        let mut d = StudDecisions {
            by_strength,
            bits: BitSet::new(bit_count),
            ace_king_only,
            by_ranks: ByRanks::none(),
        };
        // Every renaming of a row gets its bit; in the compact table they all share one, which
        // any one renaming sets.
        let renamings = if ace_king_only {
            &ALL_PERMS[..1]
        } else {
            &ALL_PERMS[..]
        };
        for (i, h) in hands.iter().enumerate() {
            if d.by_strength[strengths[i] as usize] == LOOK_UP && raises[i] {
                for p in renamings {
                    let bit = d.bit(&image(h, p), rename(4 * up_rank[i], p));
                    d.bits.set(bit);
                }
            }
        }
        d.with_ranks()
    }

    /// The bit of a sorted hand against an up card.
    #[inline]
    fn bit(&self, sorted: &[Card; 5], up: Card) -> usize {
        if self.ace_king_only {
            return ace_king_bit(sorted, up);
        }
        index_of(sorted) * UP_CARDS + up as usize
    }

    /// Whether to raise a hand of this strength against this up card.
    #[inline]
    pub fn raises(&self, strength: u16, hand: &[Card; 5], up: Card) -> bool {
        let by_strength = self.by_strength(strength);
        let mut raises = by_strength == RAISE_ALL;
        // The only branch: raise or fold is a coin flip that no predictor learns, where a
        // strength that needs the cards is rare (Ace-King high, about one hand in sixteen).
        if by_strength == LOOK_UP {
            raises = self.looks_up(hand, up);
        }
        raises
    }

    /// What every hand of this strength does: 0 (fold), `RAISE_ALL`, or `LOOK_UP` (the cards
    /// decide: `looks_up`).
    #[inline(always)]
    pub fn by_strength(&self, strength: u16) -> u8 {
        self.by_strength[strength as usize & STRENGTH_MASK]
    }

    /// The decisions the strength and the up card's rank settle (`ByRanks`).
    pub fn by_ranks(&self) -> &ByRanks {
        &self.by_ranks
    }

    fn with_ranks(mut self) -> Self {
        self.by_ranks = self.ranks();
        self
    }

    /// `by_ranks`, worked out.
    fn ranks(&self) -> ByRanks {
        let mut row = Box::new([OWN_ROW; STRENGTH_SLOTS]);
        let mut by_row = Box::new([FOLD_ALL; 256 * ROW_STRIDE]);
        by_row[CARDS_ROW as usize * ROW_STRIDE..][..UP_RANKS].fill(LOOK_UP);
        for (r, &d) in row.iter_mut().zip(self.by_strength.iter()) {
            if d == LOOK_UP {
                *r = CARDS_ROW;
            }
        }
        if self.ace_king_only {
            self.ace_king_rows(&mut row, &mut by_row);
        }
        ByRanks { row, by_row }
    }

    /// `by_ranks`' rows of the Ace-King strengths whose cards decide.
    fn ace_king_rows(&self, row: &mut [u8; STRENGTH_SLOTS], by_row: &mut [u8; 256 * ROW_STRIDE]) {
        let (t, codes) = (tables(), pattern_codes());
        let below_king: Vec<u8> = (0..11).collect();
        for ranks in combinations::<3>(&below_king) {
            // Not a flush (one card a diamond): the strength of these five ranks.
            let [a, b, c] = ranks.map(|r| 4 * r);
            let strength = t.strength(&[a, b + 1, c, 44, 48]) as usize;
            if self.by_strength[strength] != LOOK_UP {
                continue;
            }
            let others = index_of(&ranks);
            row[strength] = (FIRST_ACE_KING_ROW + others) as u8;
            let hand_ranks = [ranks[0], ranks[1], ranks[2], 11, 12];
            for up_rank in 0..UP_RANKS {
                let (mut raise, mut fold) = (false, false);
                for (pattern, &code) in codes.iter().enumerate() {
                    if dealt(code, &hand_ranks, up_rank as u8) {
                        let bit = (up_rank * ACE_KING_OTHERS + others) * SUIT_PATTERNS + pattern;
                        let raises = self.bits.get(bit);
                        (raise, fold) = (raise || raises, fold || !raises);
                    }
                }
                by_row[(FIRST_ACE_KING_ROW + others) * ROW_STRIDE + up_rank] = match (raise, fold) {
                    (true, true) => LOOK_UP,
                    (true, false) => RAISE_ALL,
                    _ => FOLD_ALL,
                };
            }
        }
    }

    /// Whether to raise this hand against this up card, for a strength at which the cards
    /// decide (`by_strength` is `LOOK_UP`).
    #[inline]
    pub fn looks_up(&self, hand: &[Card; 5], up: Card) -> bool {
        self.bits.get(self.bit(&sorted5(*hand), up))
    }
}

/// Call or fold for every (two cards, flop) of Casino Hold'em.
///
/// A bit per flop class under suit renaming (1,755) and hole cards renamed as that flop's
/// renaming says, each in either order (52 by 52): 593 KB of bits and 281 KB of flop entries
/// read (each padded to a power of two: 1 MB and 512 KB allocated, the padding never touched),
/// which stayed in a core's 2 MB cache on the host where a bit per concrete (pair, flop), 3.7 MB,
/// missed it on most rounds (other hosts have 512 KB a core; a bit per unordered pair, 291 KB,
/// was no faster there: `git show 47054fe:docs/benchmarks.md`). Every index is
/// found without sorting: the flop's entry is read by its three cards in the order dealt, and
/// the renamed cards index the bits as they come, so a lookup is three short steps (the flop's
/// entry, the two renamed cards, the bit) with no comparisons.
pub struct HoldemDecisions {
    /// A bit per (flop class, renamed first card, renamed second card).
    bits: Box<[u64; HOLDEM_WORDS]>,
    /// Per ordered flop `(a * 52 + b) * 52 + c`: its class times 32 plus its renaming (into
    /// `ALL_PERMS`) onto the class's least flop; 0 for a flop that repeats a card (padded to a
    /// power of two, so that a masked index needs no check).
    flops: Box<[u16; ORDERED_FLOPS]>,
    /// Per renaming (32 rows of 64, so that `perm * 64 + (id & 63)` needs no check): each
    /// card's image times 52, and its image.
    renamed_high: Box<[u16; 32 * 64]>,
    renamed_low: Box<[u16; 32 * 64]>,
}

/// A flop's class under suit renaming and its renaming onto the class's least flop.
#[derive(Clone, Copy, Debug, Default)]
pub struct FlopEntry(u16);

/// Flop classes under suit renaming.
const FLOP_CLASSES: usize = 1755;
/// Flops as dealt, in order (with repeated cards, never looked up), padded to a power of two.
const ORDERED_FLOPS: usize = (52 * 52 * 52usize).next_power_of_two();
/// Bits per flop class: two renamed cards, in order.
const ORDERED_PAIRS: usize = 52 * 52;
/// Words of hold'em's bits, a power of two (of which 74,149 are used) so that a masked index
/// needs no check.
const HOLDEM_WORDS: usize = (FLOP_CLASSES * ORDERED_PAIRS)
    .div_ceil(64)
    .next_power_of_two();

impl HoldemDecisions {
    /// Every flop's class and renaming, the renamings' card images, and no call yet.
    fn empty() -> Self {
        let mut class_of_least = std::collections::HashMap::new();
        let mut flops = zeroed::<u16, ORDERED_FLOPS>();
        for sorted in crate::exact::symmetry::combinations::<3>(&(0..52).collect::<Vec<Card>>()) {
            let least = canonical(&sorted, &ALL_PERMS);
            let perm = ALL_PERMS.iter().position(|p| image(&sorted, p) == least);
            let next = class_of_least.len();
            let class = *class_of_least.entry(least).or_insert(next);
            let entry = (class * 32 + perm.unwrap_or(0)) as u16;
            let [a, b, c] = sorted.map(usize::from);
            for [x, y, z] in [
                [a, b, c],
                [a, c, b],
                [b, a, c],
                [b, c, a],
                [c, a, b],
                [c, b, a],
            ] {
                flops[(x * 52 + y) * 52 + z] = entry;
            }
        }
        debug_assert_eq!(class_of_least.len(), FLOP_CLASSES);
        let image_of = |i: usize| match (i / 64, i % 64) {
            (p, c) if p < ALL_PERMS.len() && c < 52 => rename(c as Card, &ALL_PERMS[p]) as u16,
            _ => 0,
        };
        HoldemDecisions {
            bits: zeroed(),
            flops,
            renamed_high: Box::new(std::array::from_fn(|i| image_of(i) * 52)),
            renamed_low: Box::new(std::array::from_fn(image_of)),
        }
    }

    /// The bit of hole cards and a flop (each in any order): the flop's class and the hole
    /// cards renamed with it (every deal a renaming of another gets the same bit, as its
    /// decision; the hole cards' other order has a bit of its own, set alike).
    #[inline(always)]
    fn bit(&self, hole: &[Card; 2], flop: &[Card; 3]) -> usize {
        self.bit_of_flop(hole, self.flop(flop))
    }

    /// A flop's entry (its class and renaming): the first of a lookup's two steps, apart so
    /// that a batch of rounds can take each step for all its rounds in turn.
    #[inline(always)]
    pub fn flop(&self, flop: &[Card; 3]) -> FlopEntry {
        let [a, b, c] = flop.map(usize::from);
        FlopEntry(self.flops[((a * 52 + b) * 52 + c) & (ORDERED_FLOPS - 1)])
    }

    #[inline(always)]
    fn bit_of_flop(&self, hole: &[Card; 2], flop: FlopEntry) -> usize {
        let entry = flop.0 as usize;
        let row = (entry % 32) * 64;
        let high = self.renamed_high[(row + (hole[0] as usize & 63)) & (32 * 64 - 1)] as usize;
        let low = self.renamed_low[(row + (hole[1] as usize & 63)) & (32 * 64 - 1)] as usize;
        (entry / 32) * ORDERED_PAIRS + high + low
    }

    fn set(&mut self, bit: usize) {
        self.bits[bit / 64] |= 1 << (bit % 64);
    }

    /// From canonical rows (hole cards then flop, as the exact analysis lists them).
    pub fn from_canonical(cards: &[[Card; 5]], calls: &[bool]) -> Self {
        let mut d = Self::empty();
        for (c, _) in cards.iter().zip(calls).filter(|(_, &call)| call) {
            for p in ALL_PERMS.iter() {
                let ([a, b], flop) = (image(&[c[0], c[1]], p), image(&[c[2], c[3], c[4]], p));
                for hole in [[a, b], [b, a]] {
                    let bit = d.bit(&hole, &flop);
                    d.set(bit);
                }
            }
        }
        d
    }

    /// Call everything (or nothing).
    pub fn constant(call: bool) -> Self {
        let mut d = Self::empty();
        if call {
            d.bits.iter_mut().for_each(|w| *w = u64::MAX);
        }
        d
    }

    /// Whether to call with these hole cards on this flop (each in any order).
    #[inline(always)]
    pub fn calls(&self, hole: &[Card; 2], flop: &[Card; 3]) -> bool {
        self.calls_on(hole, self.flop(flop))
    }

    /// Whether to call with these hole cards on the flop of this entry (`flop`).
    #[inline(always)]
    pub fn calls_on(&self, hole: &[Card; 2], flop: FlopEntry) -> bool {
        let bit = self.bit_of_flop(hole, flop);
        self.bits[(bit / 64) & (HOLDEM_WORDS - 1)] >> (bit % 64) & 1 == 1
    }
}

/// The bit of an Ace-King hand without a pair, sorted, against an up card: the up card's rank,
/// the other three ranks and the suits' labels (`PATTERN_INDEX`), with no card's own suit.
/// Sorted, such a hand is in rank order (the ranks differ), ending with its king and its ace.
#[inline(always)]
fn ace_king_bit(sorted: &[Card; 5], up: Card) -> usize {
    debug_assert!(
        rank(sorted[2]) < 11 && rank(sorted[3]) == 11 && rank(sorted[4]) == 12,
        "not an Ace-King hand without a pair, sorted: {sorted:?}"
    );
    let others = index_of(&[rank(sorted[0]), rank(sorted[1]), rank(sorted[2])]);
    // Each suit's label in a byte (`UNNAMED` until its first card), kept in a register.
    let mut labels = !(UNNAMED << (8 * suit(up)));
    let (mut next, mut code) = (1, 0);
    for &card in sorted {
        let at = 8 * suit(card) as u32;
        let named = labels >> at & UNNAMED;
        let label = if named == UNNAMED { next } else { named };
        next += (named == UNNAMED) as u32;
        labels = labels & !(UNNAMED << at) | label << at;
        code = code * 4 + label as usize;
    }
    let pattern = PATTERN_INDEX[code] as usize;
    (rank(up) as usize * ACE_KING_OTHERS + others) * SUIT_PATTERNS + pattern
}

/// Whether a deal of five cards of these ranks (ascending) against an up card of `up_rank`
/// can have the suit labels of `code` (`ace_king_bit`): no card of the up card's suit (label 0)
/// and rank, and not all five of one suit (a flush, of another strength).
fn dealt(code: usize, ranks: &[u8; 5], up_rank: u8) -> bool {
    let label = |k: usize| code >> (2 * (4 - k)) & 3;
    let flush = (1..5).all(|k| label(k) == label(0));
    !flush && (0..5).all(|k| label(k) != 0 || ranks[k] != up_rank)
}

/// Five cards in ascending order by a sorting network of nine compare-exchanges, without
/// branches (`sort_unstable`'s insertion sort mispredicted several times a hand).
#[inline(always)]
fn sorted5(mut c: [Card; 5]) -> [Card; 5] {
    for (i, j) in [
        (0, 1),
        (3, 4),
        (2, 4),
        (2, 3),
        (0, 3),
        (0, 2),
        (1, 4),
        (1, 3),
        (1, 2),
    ] {
        (c[i], c[j]) = (c[i].min(c[j]), c[i].max(c[j]));
    }
    c
}

/// A boxed array of zeros, built on the heap (a large array built on the stack may not fit).
fn zeroed<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    match vec![T::default(); N].into_boxed_slice().try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("a vector of N elements makes an array of N"),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::exact::symmetry::{canonical, CLUB_FIXING_PERMS};

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

    /// Canonical rows for every Ace-King hand and up rank, and a raise for each by a rule
    /// that depends on the suits (so the cards, not the strength, decide).
    pub(crate) fn ace_king_rows() -> (Vec<u8>, Vec<[Card; 5]>, Vec<bool>) {
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
        (up, hands, raises)
    }

    /// Every Ace-King deal decided through `by_ranks` as `raises` decides it, and some by
    /// the ranks alone; `decisions` must be a compact table.
    fn check_by_ranks(decisions: &StudDecisions) -> (usize, usize) {
        let (t, by_ranks) = (tables(), decisions.by_ranks());
        let (mut settled, mut looked_up) = (0, 0);
        for hand in ace_king_hands() {
            let s = t.strength(&hand);
            let row = by_ranks.row[s as usize] as usize;
            for up in (0..52).filter(|c| !hand.contains(c)) {
                let d = by_ranks.by_row[row * ROW_STRIDE + rank(up) as usize];
                let raises = if d == LOOK_UP {
                    looked_up += 1;
                    decisions.looks_up(&hand, up)
                } else {
                    settled += 1;
                    d == RAISE_ALL || decisions.by_strength(s) == RAISE_ALL
                };
                assert_eq!(
                    raises,
                    decisions.raises(s, &hand, up),
                    "{hand:?} against {up}"
                );
            }
        }
        (settled, looked_up)
    }

    #[test]
    fn ranks_settle_the_ace_king_deals_whose_suits_never_decide() {
        let (up, hands, raises) = ace_king_rows();
        let mixed = StudDecisions::build(&up, &hands, &raises, true);
        let (_, looked_up) = check_by_ranks(&mixed);
        assert!(looked_up > 0);
        // Raise when the up card's rank is below the hand's lowest: the suits never decide.
        let by_rank: Vec<bool> = hands
            .iter()
            .zip(&up)
            .map(|(h, &u)| u < rank(h[0]))
            .collect();
        let ranked = StudDecisions::build(&up, &hands, &by_rank, true);
        let (settled, looked_up) = check_by_ranks(&ranked);
        assert_eq!((settled > 0, looked_up), (true, 0));
        // A threshold table has no rows of its own; a full one looks up every such deal.
        let threshold = StudDecisions::threshold(4000);
        assert!(threshold.by_ranks().row.iter().all(|&r| r == OWN_ROW));
        let full = StudDecisions::build(&up, &hands, &raises, false);
        let t = tables();
        assert!(ace_king_hands()
            .iter()
            .all(|h| full.by_ranks().row[t.strength(h) as usize] == CARDS_ROW));
    }

    #[test]
    fn suit_labels_number_as_counted() {
        // Sequences of five labels in 0..4, each label above 1 after one less: 187 (a count
        // by first appearances: 1 + 31 + 90 + 65 by the number of other suits named).
        let made = (0..1024usize)
            .filter(|&code| {
                let labels: Vec<usize> = (0..5).rev().map(|k| code >> (2 * k) & 3).collect();
                (0..5).all(|i| labels[i] <= 1 || labels[..i].contains(&(labels[i] - 1)))
            })
            .collect::<Vec<_>>();
        assert_eq!(made.len(), SUIT_PATTERNS);
        let dense: Vec<usize> = made.iter().map(|&c| PATTERN_INDEX[c] as usize).collect();
        assert_eq!(dense, (0..SUIT_PATTERNS).collect::<Vec<_>>());
    }

    #[test]
    fn the_compact_ace_king_table_decides_as_the_full_one() {
        let (up, hands, raises) = ace_king_rows();
        let (compact, full) = (
            StudDecisions::build(&up, &hands, &raises, true),
            StudDecisions::build(&up, &hands, &raises, false),
        );
        assert!(compact.ace_king_only && !full.ace_king_only);
        // One bit per canonical row: no two renaming classes share one.
        let distinct: std::collections::HashSet<usize> = hands
            .iter()
            .zip(&up)
            .map(|(h, &u)| ace_king_bit(h, 4 * u))
            .collect();
        assert_eq!(distinct.len(), hands.len());
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

    /// The canonical row of a concrete hold'em deal, as the exact analysis lists it: the least
    /// flop, then the least hole cards among the renamings onto that flop.
    fn holdem_row(hole: [Card; 2], flop: [Card; 3]) -> [Card; 5] {
        let least_flop = canonical(&flop, &ALL_PERMS);
        let hole = ALL_PERMS
            .iter()
            .filter(|p| image(&flop, p) == least_flop)
            .map(|p| image(&hole, p))
            .min()
            .unwrap_or(hole);
        [
            hole[0],
            hole[1],
            least_flop[0],
            least_flop[1],
            least_flop[2],
        ]
    }

    /// A call or fold for a canonical hold'em row, by a rule of its cards no renaming keeps.
    pub(crate) fn holdem_rule(c: &[Card; 5]) -> bool {
        (c[0] as usize * 7 + c[1] as usize * 3 + c[3] as usize) % 3 == 0
    }

    /// Every canonical hold'em row, in the exact analysis's order.
    fn holdem_rows() -> Vec<[Card; 5]> {
        let mut rows = Vec::new();
        for flop in combinations::<3>(&(0..52).collect::<Vec<Card>>()) {
            if canonical(&flop, &ALL_PERMS) != flop {
                continue;
            }
            for hole in
                combinations::<2>(&(0..52).filter(|c| !flop.contains(c)).collect::<Vec<_>>())
            {
                if holdem_row(hole, flop)[..2] == hole {
                    rows.push([hole[0], hole[1], flop[0], flop[1], flop[2]]);
                }
            }
        }
        rows
    }

    /// Decisions of every canonical row by `holdem_rule`.
    pub(crate) fn holdem_rule_decisions() -> HoldemDecisions {
        let rows = holdem_rows();
        let calls: Vec<bool> = rows.iter().map(holdem_rule).collect();
        HoldemDecisions::from_canonical(&rows, &calls)
    }

    #[test]
    fn the_compact_holdem_table_decides_every_deal_as_its_canonical_row() {
        let rows = holdem_rows();
        assert_eq!(rows.len(), 1_286_792);
        assert_eq!(check_holdem_rows(&rows[..1000]), Ok(()));
        let rule = holdem_rule;
        let d = holdem_rule_decisions();
        let mut rng = crate::sim::rng::chunk_rng(3, 1);
        let mut deck: [Card; 52] = std::array::from_fn(|i| i as Card);
        let mut called = 0;
        for _ in 0..200_000 {
            crate::sim::rng::draw(&mut deck, 5, &mut rng);
            let (hole, flop) = ([deck[0], deck[1]], [deck[2], deck[3], deck[4]]);
            let (mut sorted_hole, mut sorted_flop) = (hole, flop);
            sorted_hole.sort_unstable();
            sorted_flop.sort_unstable();
            let expected = rule(&holdem_row(sorted_hole, sorted_flop));
            assert_eq!(d.calls(&hole, &flop), expected, "{hole:?} on {flop:?}");
            called += expected as usize;
        }
        assert!((60_000..73_000).contains(&called), "{called}");
    }

    #[test]
    fn the_network_sorts_every_order() {
        // The 0-1 principle: a network that sorts every sequence of zeros and ones sorts all;
        // every order of five distinct cards is checked too.
        for bits in 0u8..32 {
            let five: [Card; 5] = std::array::from_fn(|i| bits >> i & 1);
            assert!(sorted5(five).is_sorted(), "{five:?}");
        }
        let hand = [7, 19, 23, 40, 51];
        for order in 0..3125usize {
            let picks: [usize; 5] = std::array::from_fn(|i| order / 5usize.pow(i as u32) % 5);
            let mut seen = picks;
            seen.sort_unstable();
            if seen == [0, 1, 2, 3, 4] {
                assert_eq!(sorted5(picks.map(|i| hand[i])), hand);
            }
        }
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
