//! The hand evaluator: 5, 6 or 7 cards to a strength, where greater is stronger and equal ties.
//!
//! Strengths run from 1 (7-5-4-3-2 offsuit) to 7462 (royal flush): the rank of the best five
//! cards among the 7,462 distinct five-card hands. A hand costs one add per card, a flush test
//! and one lookup in tables of about 200 KB (see `tables`).

pub mod batch;
mod class;
pub mod enumerate;
mod hand;
mod perfect_hash;
mod tables;

pub use class::{HandClass, LOWEST_ACE_KING};
pub use hand::Hand;
pub use tables::{tables, Tables, DISTINCT_STRENGTHS, STRENGTH_MASK, STRENGTH_SLOTS};

use crate::cards::{rank, suit, Card};

impl Tables {
    /// The sum of the card keys of `cards`; hands can be built up incrementally by adding keys.
    #[inline(always)]
    pub fn key_of(&self, cards: &[Card]) -> u64 {
        cards.iter().map(|&c| self.card_keys[c as usize]).sum()
    }

    /// The key of one card.
    #[inline(always)]
    pub fn card_key(&self, card: Card) -> u64 {
        self.card_keys[card as usize]
    }

    /// The strength of `cards` (5 to 7 distinct valid ids) whose keys sum to `key`.
    #[inline(always)]
    pub fn strength_from_key(&self, key: u64, cards: &[Card]) -> u16 {
        if Self::has_suited(key, 5) {
            let mask = cards
                .iter()
                .fold(0u64, |m, &c| m | 1 << (16 * suit(c) + rank(c)));
            return self.flush_strength(key, mask);
        }
        self.non_flush_strength(key, cards.len())
    }

    /// The strength of 5 to 7 cards known to hold a flush: `key` flags the suit, and `mask` (bit
    /// `16 * suit + rank` per card, as `Hand` keeps it) gives the suit's ranks.
    #[inline(always)]
    pub fn flush_strength(&self, key: u64, mask: u64) -> u16 {
        let flushes = ((key >> 32) as u32 + 0x3333) & 0x8888;
        let flush_suit = flushes.trailing_zeros() / 4;
        self.flush[(mask >> (16 * flush_suit)) as usize & 0x1fff]
    }

    /// The strength of `size` cards (5 to 7) whose keys sum to `key`, known to hold no flush.
    #[inline(always)]
    pub fn non_flush_strength(&self, key: u64, size: usize) -> u16 {
        match size {
            5 => self.five.get(key as u32),
            6 => self.six.get(key as u32),
            _ => self.seven.get(key as u32),
        }
    }

    /// Whether cards whose keys sum to `key` hold at least `n` (1 to 8) cards of one suit.
    #[inline(always)]
    pub fn has_suited(key: u64, n: u32) -> bool {
        Self::any_suited(&[key], n)
    }

    /// Whether any of the hands whose keys are `keys` holds at least `n` (1 to 8) cards of one
    /// suit: one test for them all (each suit's counter raised so that `n` sets its top bit).
    #[inline(always)]
    pub fn any_suited(keys: &[u64], n: u32) -> bool {
        let raised = keys.iter().fold(0, |flags, &key| {
            flags | ((key >> 32) as u32 + 0x1111 * (8 - n))
        });
        raised & 0x8888 != 0
    }

    /// The strength of 5 to 7 distinct valid card ids.
    #[inline(always)]
    pub fn strength(&self, cards: &[Card]) -> u16 {
        Hand::of(cards).strength(self)
    }

    /// The class of a strength (never `AceKing`: that is a variant's reading of high cards).
    pub fn class_of(&self, strength: u16) -> HandClass {
        // Highest first; Ace-King shares one pair's floor, so one pair is always found first.
        HandClass::ALL
            .into_iter()
            .rev()
            .find(|&c| c != HandClass::AceKing && self.class_floor[c as usize] <= strength)
            .unwrap_or(HandClass::HighCard)
    }

    /// The lowest strength of a class.
    ///
    /// ```
    /// use caribbean_fast::eval::{tables, HandClass};
    ///
    /// let t = tables();
    /// let flush = t.class_floor(HandClass::Flush);
    /// assert_eq!(t.class_of(flush), HandClass::Flush);
    /// assert_eq!(t.class_of(flush - 1), HandClass::Straight);
    /// assert_eq!(t.class_floor(HandClass::HighCard), 1);
    /// ```
    pub fn class_floor(&self, class: HandClass) -> u16 {
        self.class_floor[class as usize]
    }

    /// The strength and the best five of 5 to 7 distinct valid ids (the first best found).
    ///
    /// ```
    /// use caribbean_fast::cards::parse_card;
    /// use caribbean_fast::eval::{tables, HandClass};
    ///
    /// let t = tables();
    /// let hand: Vec<u8> = "9h 9d 9c 4s 4h Ac Kd"
    ///     .split(' ')
    ///     .map(|c| parse_card(c).unwrap())
    ///     .collect();
    /// let (strength, mut five) = t.best_five(&hand);
    /// assert_eq!(strength, t.strength(&hand));
    /// five.sort();
    /// assert_eq!(five, [10, 11, 28, 29, 30]); // 4h 4s 9c 9d 9h: nines full, no ace or king
    /// assert_eq!(t.class_of(strength), HandClass::FullHouse);
    /// ```
    pub fn best_five(&self, cards: &[Card]) -> (u16, [Card; 5]) {
        let n = cards.len();
        let mut best = (0u16, [0; 5]);
        for skip in 0u32..1 << n {
            if n as u32 - skip.count_ones() != 5 {
                continue;
            }
            let mut five = [0; 5];
            let chosen = (0..n).filter(|&i| skip >> i & 1 == 0).map(|i| cards[i]);
            five.iter_mut().zip(chosen).for_each(|(slot, c)| *slot = c);
            let s = self.strength(&five);
            if s > best.0 {
                best = (s, five);
            }
        }
        best
    }
}

/// The strength of 5 to 7 distinct valid card ids (check them first with
/// `cards::validate`: other input reads some strength, never panics).
///
/// ```
/// use caribbean_fast::cards::parse_card;
/// use caribbean_fast::eval::{strength, tables, HandClass, DISTINCT_STRENGTHS};
///
/// let ids = |text: &str| -> Vec<u8> { text.split(' ').map(|c| parse_card(c).unwrap()).collect() };
/// assert_eq!(strength(&ids("As Ks Qs Js Ts")), DISTINCT_STRENGTHS); // the royal flush
/// // Seven cards are worth their best five: a pair of aces beats a pair of kings.
/// let aces = strength(&ids("Ah Ad 9c 7s 5h 3d 2c"));
/// let kings = strength(&ids("Kh Kd Qc Js 9h 3d 2c"));
/// assert!(aces > kings);
/// assert_eq!(tables().class_of(aces), HandClass::OnePair);
/// // Suits never break ties.
/// assert_eq!(strength(&ids("Ah Ad 9c 7s 5h")), strength(&ids("As Ac 9d 7h 5s")));
/// ```
#[inline]
pub fn strength(cards: &[Card]) -> u16 {
    tables().strength(cards)
}

#[cfg(test)]
mod tests;
