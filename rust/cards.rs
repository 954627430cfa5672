//! Card ids (`4 * rank + suit`, rank 0..12 for 2..A, suit 0..3 for c d h s) and their validation.

use std::fmt;

/// A card id in 0..52.
pub type Card = u8;

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 52;

/// The rank of a card, 0 (deuce) to 12 (ace).
#[inline]
pub const fn rank(card: Card) -> u8 {
    card >> 2
}

/// The suit of a card, 0..3 for clubs, diamonds, hearts, spades.
#[inline]
pub const fn suit(card: Card) -> u8 {
    card & 3
}

const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
const SUIT_CHARS: &[u8; 4] = b"cdhs";

/// The two-character text of a card id that is known to be valid, e.g. "As".
pub fn card_text(card: Card) -> String {
    let (r, s) = (rank(card) as usize, suit(card) as usize);
    format!("{}{}", RANK_CHARS[r] as char, SUIT_CHARS[s] as char)
}

/// The id of a card's text such as "As", "td" or "10h", if it is one.
///
/// ```
/// use caribbean_fast::cards::{card_text, parse_card, rank, suit};
///
/// let ace = parse_card("As").unwrap();
/// assert_eq!(ace, 51); // 4 * rank + suit: the ace is rank 12, spades suit 3
/// assert_eq!((rank(ace), suit(ace)), (12, 3));
/// assert_eq!(parse_card("10h"), parse_card("th"));
/// assert_eq!(card_text(parse_card("10h").unwrap()), "Th");
/// assert_eq!(parse_card("1x"), None);
/// ```
pub fn parse_card(text: &str) -> Option<Card> {
    let text = text.to_ascii_lowercase();
    let (rank_text, suit_text) = text.split_at(text.len().checked_sub(1)?);
    let rank_text = if rank_text == "10" { "t" } else { rank_text };
    let r = RANK_CHARS
        .iter()
        .position(|&c| rank_text.as_bytes() == [c.to_ascii_lowercase()])?;
    let s = SUIT_CHARS
        .iter()
        .position(|&c| suit_text.as_bytes() == [c])?;
    Some((4 * r + s) as Card)
}

/// Why a set of card ids is not a hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardError {
    /// An id outside 0..52, at this position of the hand.
    BadId { position: usize, id: u8 },
    /// The same card twice.
    Repeated { card: Card },
    /// Too few or too many cards.
    BadCount {
        count: usize,
        min: usize,
        max: usize,
    },
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardError::BadId { position, id } => {
                write!(f, "card id {id} at position {position} is not in 0..51")
            }
            CardError::Repeated { card } => write!(f, "card {} appears twice", card_text(*card)),
            CardError::BadCount { count, min, max } => {
                write!(f, "{count} cards given where {min} to {max} are needed")
            }
        }
    }
}

impl std::error::Error for CardError {}

/// Checks that `cards` are `min..=max` distinct valid ids.
///
/// ```
/// use caribbean_fast::cards::{validate, CardError};
///
/// assert_eq!(validate(&[0, 1, 2, 3, 4], 5, 7), Ok(()));
/// assert_eq!(validate(&[0, 1, 2, 3, 0], 5, 7), Err(CardError::Repeated { card: 0 }));
/// assert_eq!(
///     validate(&[0, 1, 2, 3, 60], 5, 7),
///     Err(CardError::BadId { position: 4, id: 60 })
/// );
/// assert!(validate(&[0, 1, 2, 3], 5, 7).is_err()); // too few
/// ```
pub fn validate(cards: &[Card], min: usize, max: usize) -> Result<(), CardError> {
    if cards.len() < min || cards.len() > max {
        return Err(CardError::BadCount {
            count: cards.len(),
            min,
            max,
        });
    }
    let mut seen = 0u64;
    for (position, &id) in cards.iter().enumerate() {
        if id as usize >= DECK_SIZE {
            return Err(CardError::BadId { position, id });
        }
        let bit = 1u64 << id;
        if seen & bit != 0 {
            return Err(CardError::Repeated { card: id });
        }
        seen |= bit;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_split_into_rank_and_suit() {
        assert_eq!(card_text(51), "As");
        assert_eq!(card_text(0), "2c");
        assert_eq!((rank(38), suit(38)), (9, 2));
        assert_eq!(parse_card("As"), Some(51));
        assert_eq!(parse_card("10h"), parse_card("Th"));
        assert_eq!(parse_card("1x"), None);
        assert_eq!(parse_card(""), None);
    }

    #[test]
    fn validation_names_the_fault() {
        assert_eq!(validate(&[0, 1, 2, 3, 4], 5, 7), Ok(()));
        assert_eq!(
            validate(&[0, 1, 2, 3], 5, 7),
            Err(CardError::BadCount {
                count: 4,
                min: 5,
                max: 7
            })
        );
        assert_eq!(
            validate(&[0, 1, 52, 3, 4], 5, 7),
            Err(CardError::BadId {
                position: 2,
                id: 52
            })
        );
        assert_eq!(
            validate(&[51, 1, 2, 51, 4], 5, 7),
            Err(CardError::Repeated { card: 51 })
        );
    }
}
