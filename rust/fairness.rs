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

/// A deck's commitment worked out in one pass: every position's salt and leaf, in deck order,
/// and the root every seat is shown before the deal; the leaves and root as lowercase hex, as
/// the proofs and views show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commitment {
    pub salts: Vec<Digest32>,
    pub leaves: Vec<String>,
    /// SHA-256 of the leaves' hex, joined in deck order.
    pub root: String,
}

/// The commitment to `deck` under `seed`: what `salts`, `leaves` and the root of their hex give,
/// with each salt worked out once for its leaf and the proofs' openings.
///
/// ```
/// use caribbean_fast::fairness::{commitment, hex, leaves, salts};
/// use sha2::{Digest, Sha256};
///
/// let deck = [51, 0, 7];
/// let c = commitment(b"seed", &deck);
/// assert_eq!(c.salts, salts(b"seed", &[0, 1, 2]));
/// assert_eq!(c.leaves, leaves(b"seed", &deck).iter().map(|leaf| hex(leaf)).collect::<Vec<_>>());
/// assert_eq!(c.root, hex(&Sha256::digest(c.leaves.concat().as_bytes())));
/// ```
pub fn commitment(seed: &[u8], deck: &[Card]) -> Commitment {
    let positions: Vec<usize> = (0..deck.len()).collect();
    let salts = salts(seed, &positions);
    let leaves: Vec<String> = salts
        .iter()
        .zip(deck)
        .map(|(salt, &card)| {
            hex(&Sha256::new()
                .chain_update(salt)
                .chain_update([card])
                .finalize())
        })
        .collect();
    let mut root = Sha256::new();
    for leaf in &leaves {
        root.update(leaf.as_bytes());
    }
    Commitment {
        salts,
        leaves,
        root: hex(&root.finalize()),
    }
}

/// Bytes as lowercase hex, as Python's `bytes.hex` writes them.
///
/// ```
/// assert_eq!(caribbean_fast::fairness::hex(&[0, 0xab, 0x5f]), "00ab5f");
/// ```
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let text: Vec<u8> = bytes
        .iter()
        .flat_map(|&b| [DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 15)]])
        .collect();
    String::from_utf8(text).expect("hex digits are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitment_of_a_whole_deck_is_its_salts_leaves_and_root() {
        let deck = deck(b"a round's seed");
        let c = commitment(b"a round's seed", &deck);
        assert_eq!(
            c.salts,
            salts(b"a round's seed", &(0..DECK_SIZE).collect::<Vec<_>>())
        );
        let hexes: Vec<String> = leaves(b"a round's seed", &deck)
            .iter()
            .map(|leaf| hex(leaf))
            .collect();
        assert_eq!(c.leaves, hexes);
        let joined = c.leaves.concat();
        assert_eq!(joined.len(), 64 * DECK_SIZE);
        assert_eq!(c.root, hex(&Sha256::digest(joined.as_bytes())));
        assert_ne!(commitment(b"another seed", &deck).root, c.root);
    }
}
