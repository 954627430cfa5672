//! Hand classes and the one rule that ranks five cards: the class, then the ranks that break ties.
//!
//! `five_card_code` is the slow, obvious ranking used only to build the lookup tables; every
//! evaluation at run time reads the tables.

/// Poker hand classes, lowest to highest, numbered as in the Python `HandClass` enum.
/// `AceKing` is never produced by the evaluator: a variant that names it reclassifies high cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum HandClass {
    HighCard = 0,
    AceKing = 1,
    OnePair = 2,
    TwoPair = 3,
    ThreeOfAKind = 4,
    Straight = 5,
    Flush = 6,
    FullHouse = 7,
    FourOfAKind = 8,
    StraightFlush = 9,
    RoyalFlush = 10,
}

impl HandClass {
    /// Every class, lowest first.
    pub const ALL: [HandClass; 11] = [
        HandClass::HighCard,
        HandClass::AceKing,
        HandClass::OnePair,
        HandClass::TwoPair,
        HandClass::ThreeOfAKind,
        HandClass::Straight,
        HandClass::Flush,
        HandClass::FullHouse,
        HandClass::FourOfAKind,
        HandClass::StraightFlush,
        HandClass::RoyalFlush,
    ];

    /// Every class but the two named, lowest first (`N` must be how many are left).
    pub const fn all_but<const N: usize>(skip: [HandClass; 2]) -> [HandClass; N] {
        let mut out = [HandClass::HighCard; N];
        let (mut i, mut n) = (0, 0);
        while i < HandClass::ALL.len() {
            let c = HandClass::ALL[i];
            if c as u8 != skip[0] as u8 && c as u8 != skip[1] as u8 {
                out[n] = c;
                n += 1;
            }
            i += 1;
        }
        assert!(n == N, "all_but: N must count the classes left");
        out
    }

    /// The snake-case name, as in variant files and golden data: "four_of_a_kind".
    pub fn name(self) -> &'static str {
        [
            "high_card",
            "ace_king",
            "one_pair",
            "two_pair",
            "three_of_a_kind",
            "straight",
            "flush",
            "full_house",
            "four_of_a_kind",
            "straight_flush",
            "royal_flush",
        ][self as usize]
    }

    /// The class of a snake-case name.
    pub fn from_name(name: &str) -> Option<HandClass> {
        HandClass::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The lowest Ace-King hand, A-K-4-3-2 (Ac Kc 4c 3c 2d): where a variant's Ace-King class begins.
pub const LOWEST_ACE_KING: [crate::cards::Card; 5] = [48, 44, 8, 4, 1];

/// The classes the evaluator produces, in order: all but Ace-King (a variant's reading of high
/// cards) and royal flush (split from straight flush later).
pub(crate) const CATEGORIES: [HandClass; 9] =
    HandClass::all_but([HandClass::AceKing, HandClass::RoyalFlush]);

/// The top rank of a straight in five distinct ranks given as a bit mask, if they make one.
pub(crate) fn straight_top(rank_mask: u16) -> Option<u8> {
    const WHEEL: u16 = 0b1_0000_0000_1111;
    if rank_mask == WHEEL {
        return Some(3);
    }
    let low = rank_mask.trailing_zeros();
    (rank_mask >> low == 0b11111).then(|| (low + 4) as u8)
}

/// A totally ordered code for five cards given by their rank counts: the category index in
/// `CATEGORIES` times 2^20, plus the tie-break ranks, four bits each, most significant first.
pub(crate) fn five_card_code(counts: &[u8; 13], flush: bool) -> u32 {
    let mask = (0..13)
        .filter(|&r| counts[r] > 0)
        .fold(0u16, |m, r| m | 1 << r);
    // Ranks ordered by how many of them, then by rank: pairs before kickers, high before low.
    let mut ranks: Vec<(u8, u8)> = (0..13u8)
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    let shape: Vec<u8> = ranks.iter().map(|&(c, _)| c).collect();
    let straight = straight_top(mask);
    let category = match (shape.as_slice(), straight, flush) {
        (_, Some(_), true) => HandClass::StraightFlush,
        ([4, 1], _, _) => HandClass::FourOfAKind,
        ([3, 2], _, _) => HandClass::FullHouse,
        (_, _, true) => HandClass::Flush,
        (_, Some(_), false) => HandClass::Straight,
        ([3, 1, 1], _, _) => HandClass::ThreeOfAKind,
        ([2, 2, 1], _, _) => HandClass::TwoPair,
        ([2, 1, 1, 1], _, _) => HandClass::OnePair,
        _ => HandClass::HighCard,
    };
    let index = CATEGORIES.iter().position(|&c| c == category).unwrap_or(0) as u32;
    let tiebreak = match straight {
        Some(top) if matches!(category, HandClass::Straight | HandClass::StraightFlush) => {
            top as u32
        }
        _ => ranks.iter().fold(0u32, |acc, &(_, r)| acc << 4 | r as u32) << (4 * (5 - ranks.len())),
    };
    index << 20 | tiebreak
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(ranks: &[u8]) -> [u8; 13] {
        let mut c = [0u8; 13];
        ranks.iter().for_each(|&r| c[r as usize] += 1);
        c
    }

    #[test]
    fn straights_include_the_wheel_only_as_five_high() {
        assert_eq!(straight_top(0b1_0000_0000_1111), Some(3));
        assert_eq!(straight_top(0b1_1111_0000_0000), Some(12));
        assert_eq!(straight_top(0b1_1110_1000_0000), None);
    }

    #[test]
    fn codes_order_hands() {
        // J J T 8 4 beats J J T 6 5 (ranks 9 9 8 6 2 and 9 9 8 4 3).
        assert!(
            five_card_code(&counts(&[9, 9, 8, 6, 2]), false)
                > five_card_code(&counts(&[9, 9, 8, 4, 3]), false)
        );
        // A-K-Q-J-9 suited is a flush, which beats a king-high straight.
        assert!(
            five_card_code(&counts(&[12, 11, 10, 9, 7]), true)
                > five_card_code(&counts(&[11, 10, 9, 8, 7]), false)
        );
        // The wheel loses to a six-high straight.
        assert!(
            five_card_code(&counts(&[12, 0, 1, 2, 3]), false)
                < five_card_code(&counts(&[0, 1, 2, 3, 4]), false)
        );
    }
}
