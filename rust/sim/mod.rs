//! Bulk simulation: rounds dealt from seeded streams, played by a decision table, counted by
//! outcome category (the Python side settles the counts).

pub mod decisions;
pub mod holdem;
pub mod rng;
pub mod stud;

/// Outcome columns of a count cell: folded, then raised with the dealer not qualifying, seat
/// higher, equal, dealer higher.
pub const OUTCOMES: usize = 5;
/// Most exchanges counted (game 4 allows three).
pub const EXCHANGE_SLOTS: usize = 4;
/// Hand classes (HandClass numbering, Ace-King included).
pub const CLASSES: usize = 11;

/// How strengths fall into buckets: `cuts` are the lowest strengths of buckets 0, 1, ...
#[derive(Clone, Debug)]
pub struct Buckets {
    /// Bucket by strength, padded to a power of two so that a masked index needs no check.
    of_strength: Box<[u8; 8192]>,
    pub count: usize,
}

impl Buckets {
    /// Buckets from ascending cut strengths, the first being 1; a cut of 0 marks an unused bucket.
    pub fn new(cuts: &[u16]) -> Self {
        let mut of_strength = Box::new([0u8; 8192]);
        for (s, slot) in of_strength.iter_mut().enumerate().take(7463) {
            *slot = cuts.iter().rposition(|&c| c != 0 && c as usize <= s).unwrap_or(0) as u8;
        }
        Buckets { of_strength, count: cuts.len() }
    }

    #[inline]
    pub fn of(&self, strength: u16) -> usize {
        self.of_strength[strength as usize & 8191] as usize
    }
}

/// The showdown column of a raised seat.
#[inline]
pub fn showdown(seat: u16, dealer: u16, qualifier: u16) -> usize {
    if dealer < qualifier {
        1
    } else if seat > dealer {
        2
    } else if seat == dealer {
        3
    } else {
        4
    }
}
