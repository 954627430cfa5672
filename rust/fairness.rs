//! A live table's provably fair deal (the protocols are the engine's, `engine/shuffle.py` and
//! `engine/fairness.py`, which the page checks too), worked out once a round:
//!
//! - the deck is a function of the round's seed: Fisher-Yates from the top down, each index drawn
//!   without bias by rejection from the 32-bit big-endian words of HMAC-SHA256(seed, counter as 8
//!   big-endian bytes), counter 0, 1, 2...;
//! - the commitment to every position: position `p`'s salt is HMAC-SHA256(seed, `"position:p"`),
//!   and its leaf SHA-256(the salt followed by the card's id as one byte).
//!
//! The key's HMAC state is set up once for all of a round's digests.

use crate::cards::{Card, DECK_SIZE};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// A SHA-256 digest: a salt or a leaf.
pub type Digest32 = [u8; 32];

/// The deck of `seed`: the 52 card ids in dealing order.
///
/// ```
/// use caribbean_fast::fairness::deck;
///
/// let mut sorted = deck(b"seed");
/// assert_ne!(sorted, deck(b"seed2"));
/// sorted.sort_unstable();
/// assert!(sorted.iter().enumerate().all(|(i, &c)| c as usize == i));
/// ```
pub fn deck(seed: &[u8]) -> [Card; DECK_SIZE] {
    let mut deck: [Card; DECK_SIZE] = std::array::from_fn(|i| i as Card);
    let mut words = Words::new(seed);
    for i in (1..DECK_SIZE).rev() {
        deck.swap(i, words.below(i as u32 + 1) as usize);
    }
    deck
}

/// The endless stream of 32-bit words of HMAC-SHA256(seed, counter).
struct Words {
    keyed: Hmac<Sha256>,
    counter: u64,
    block: [u8; 32],
    next: usize,
}

impl Words {
    fn new(seed: &[u8]) -> Self {
        let keyed = Hmac::<Sha256>::new_from_slice(seed).expect("HMAC takes a key of any length");
        let next = 32; // no block yet
        Self {
            keyed,
            counter: 0,
            block: [0; 32],
            next,
        }
    }

    fn word(&mut self) -> u32 {
        if self.next == 32 {
            let mut mac = self.keyed.clone();
            mac.update(&self.counter.to_be_bytes());
            self.block = mac.finalize().into_bytes().into();
            (self.counter, self.next) = (self.counter + 1, 0);
        }
        let word = &self.block[self.next..self.next + 4];
        self.next += 4;
        u32::from_be_bytes([word[0], word[1], word[2], word[3]])
    }

    /// A uniform integer from 0 to n - 1: words at or above the largest multiple of n are rejected.
    fn below(&mut self, n: u32) -> u32 {
        let limit = (1u64 << 32) - (1u64 << 32) % u64::from(n);
        loop {
            let word = self.word();
            if u64::from(word) < limit {
                return word % n;
            }
        }
    }
}

/// The salt of each of `positions` under `seed`.
///
/// ```
/// use caribbean_fast::fairness::salts;
///
/// let [a, b] = salts(b"seed", &[0, 1])[..] else { panic!() };
/// assert_ne!(a, b);
/// assert_eq!(salts(b"seed", &[1]), vec![b]);
/// ```
pub fn salts(seed: &[u8], positions: &[usize]) -> Vec<Digest32> {
    let keyed = Hmac::<Sha256>::new_from_slice(seed).expect("HMAC takes a key of any length");
    positions
        .iter()
        .map(|p| {
            let mut mac = keyed.clone();
            mac.update(format!("position:{p}").as_bytes());
            mac.finalize().into_bytes().into()
        })
        .collect()
}

/// Every position's leaf of `deck` under `seed`, in deck order.
///
/// ```
/// use caribbean_fast::fairness::{leaves, salts};
/// use sha2::{Digest, Sha256};
///
/// let deck = [51, 0, 7];
/// let leaf = leaves(b"seed", &deck)[1];
/// let salt = salts(b"seed", &[1])[0];
/// assert_eq!(leaf, <[u8; 32]>::from(Sha256::new().chain_update(salt).chain_update([0]).finalize()));
/// ```
pub fn leaves(seed: &[u8], deck: &[Card]) -> Vec<Digest32> {
    let positions: Vec<usize> = (0..deck.len()).collect();
    salts(seed, &positions)
        .iter()
        .zip(deck)
        .map(|(salt, &card)| {
            Sha256::new()
                .chain_update(salt)
                .chain_update([card])
                .finalize()
                .into()
        })
        .collect()
}
