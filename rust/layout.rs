//! The layout of the count tables that Rust fills and Python settles: the axes in order, the
//! names of their columns, and the limits of each. This module is their one owner: `_core`
//! exports these values, and Python's `analysis.categories` maps a cell to an outcome from them,
//! never from numbers of its own.
//!
//! - Exact analysis, per situation: stud `(showdown)`; hold'em `(class slot, showdown)`.
//! - Simulation: `(seat, first bucket, class, exchanges, outcome)`.

use crate::cards::DECK_SIZE;
use crate::eval::HandClass;

/// How a raised (called) hand ended against the dealer: the showdown columns of exact counts.
pub const SHOWDOWNS: [&str; 4] = [
    "dealer_not_qualifying",
    "seat_higher",
    "equal",
    "dealer_higher",
];

/// The outcome axis of simulated counts: folded, then the showdown columns in their order.
pub const SIM_OUTCOMES: [&str; 5] = [
    "folded",
    SHOWDOWNS[0],
    SHOWDOWNS[1],
    SHOWDOWNS[2],
    SHOWDOWNS[3],
];

/// The axes of simulated counts, in order.
pub const SIM_AXES: [&str; 5] = ["seat", "first", "class", "exchanges", "outcome"];

/// The class axis of simulated counts: every `HandClass`, its number being its index.
pub const SIM_CLASSES: usize = HandClass::ALL.len();

/// The class slots of hold'em's exact counts: every class but Ace-King, which no hold'em
/// variant names.
pub const HOLDEM_CLASS_SLOTS: [HandClass; 10] =
    HandClass::all_but([HandClass::AceKing, HandClass::AceKing]);

/// Cards dealt to a stud seat and to the dealer.
const STUD_HAND: usize = 5;

/// Most stud seats one deck deals: five cards each and five to the dealer.
pub const MAX_SEATS: usize = (DECK_SIZE - STUD_HAND) / STUD_HAND;

/// Most exchanges a simulated seat can make: one card each from what one seat and the dealer
/// leave of the deck (a seat also stops when the deck runs out).
pub const MAX_EXCHANGES: usize = DECK_SIZE - 2 * STUD_HAND;

/// Most buckets of a strength axis: a bucket index is one byte.
pub const MAX_BUCKETS: usize = u8::MAX as usize + 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_cover_the_rules_book() {
        assert_eq!(MAX_SEATS, 9); // a variant seats at most 7
        assert_eq!(MAX_EXCHANGES, 42); // a variant exchanges at most 10 times
        assert!(!HOLDEM_CLASS_SLOTS.contains(&HandClass::AceKing));
        assert_eq!(HOLDEM_CLASS_SLOTS[9], HandClass::RoyalFlush);
    }
}
