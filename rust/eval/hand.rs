//! A hand built up one card at a time: a key and a card mask, so that adding a card is two adds
//! and a flush is read from the mask without a pass over the cards.
//!
//! The key packs the rank key (bits 0..32; rank keys are chosen so that every multiset of up to
//! seven ranks has its own sum), a 4-bit counter per suit (bits 32..48; a counter reaching five
//! flags a flush) and the number of cards (bits 48..52). The mask has bit `16 * suit + rank` for
//! each card, so a flush suit's 16 bits are its 13-bit rank mask. Cards are distinct, so adding
//! a card's bit is the same as setting it.

use super::tables::{Tables, RANK_KEYS};
use crate::cards::{rank, suit, Card};

/// The key of one card: its rank key, one in its suit's counter and one in the card count.
pub(crate) const fn card_key(card: Card) -> u64 {
    RANK_KEYS[rank(card) as usize] as u64 | 1 << (32 + 4 * suit(card) as u32) | 1 << 48
}

/// The mask bit of one card.
const fn card_bit(card: Card) -> u64 {
    1 << (16 * suit(card) as u32 + rank(card) as u32)
}

/// (key, mask bit) of every card id, 64 entries so that `id & 63` indexes without a check;
/// ids 52..64 add nothing.
static CARDS: [(u64, u64); 64] = {
    let mut cards = [(0, 0); 64];
    let mut c = 0;
    while c < 52 {
        cards[c] = (card_key(c as Card), card_bit(c as Card));
        c += 1;
    }
    cards
};

/// Five to seven distinct cards (or fewer, on the way there), as a key and a card mask.
///
/// ```
/// use caribbean_fast::eval::{tables, Hand, DISTINCT_STRENGTHS};
///
/// let t = tables();
/// let royal = Hand::of(&[48, 44, 40, 36, 32]); // Ac Kc Qc Jc Tc
/// assert_eq!((royal.len(), royal.strength(t)), (5, DISTINCT_STRENGTHS));
/// // A card at a time: the 2c makes six cards, whose best five are still the royal flush.
/// let six = royal.add_card(0);
/// assert_eq!(six.len(), 6);
/// assert_eq!(six.strength(t), t.strength(&[48, 44, 40, 36, 32, 0]));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hand {
    key: u64,
    mask: u64,
}

impl Hand {
    /// The hand with no cards.
    pub const EMPTY: Hand = Hand { key: 0, mask: 0 };

    /// This hand with `card` added; `card` must be a valid id not already in the hand.
    #[inline(always)]
    #[must_use]
    pub fn add_card(self, card: Card) -> Hand {
        let (key, bit) = CARDS[card as usize & 63];
        Hand {
            key: self.key + key,
            mask: self.mask + bit,
        }
    }

    /// The hand of `cards` (distinct valid ids).
    #[inline(always)]
    pub fn of(cards: &[Card]) -> Hand {
        cards.iter().fold(Hand::EMPTY, |h, &c| h.add_card(c))
    }

    /// The number of cards.
    #[inline(always)]
    pub fn len(self) -> usize {
        (self.key >> 48) as usize & 15
    }

    /// Whether the hand has no cards.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The key: rank key, suit counters and card count, as `Tables::non_flush_strength` reads it.
    #[inline(always)]
    pub fn key(self) -> u64 {
        self.key
    }

    /// The card mask: bit `16 * suit + rank` for each card.
    #[inline(always)]
    pub fn mask(self) -> u64 {
        self.mask
    }

    /// Whether at least `n` (1 to 8) of the cards share a suit.
    #[inline(always)]
    pub fn has_suited(self, n: u32) -> bool {
        Tables::has_suited(self.key, n)
    }

    /// The strength of a hand of 5 to 7 cards (any other size reads some value, never panics).
    #[inline(always)]
    pub fn strength(self, t: &Tables) -> u16 {
        if self.has_suited(5) {
            t.flush_strength(self.key, self.mask)
        } else {
            t.non_flush_strength(self.key, self.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tables;

    #[test]
    fn a_built_hand_matches_the_slice_path_and_its_best_five() {
        let t = tables();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            let (mut cards, mut seen) = (Vec::new(), 0u64);
            let size = 5 + (state % 3) as usize;
            while cards.len() < size {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let c = (state % 52) as Card;
                if seen >> c & 1 == 0 {
                    seen |= 1 << c;
                    cards.push(c);
                }
            }
            let hand = Hand::of(&cards);
            assert_eq!(hand.len(), size);
            assert_eq!(hand.mask().count_ones() as usize, size);
            // Against the slice's path (a key from the key table, a flush's ranks by a pass over
            // the cards) and the best of its five-card subsets (the five-card table alone):
            // `Tables::strength` is `Hand`'s own, so it would prove nothing.
            let strength = hand.strength(t);
            assert_eq!(
                strength,
                t.strength_from_key(t.key_of(&cards), &cards),
                "{cards:?}"
            );
            assert_eq!(strength, t.best_five(&cards).0, "{cards:?}");
        }
        assert!(Hand::EMPTY.is_empty());
        assert_eq!(Hand::EMPTY.add_card(51).add_card(50).len(), 2);
    }
}
