//! The commitment to every position of a shuffled deck that makes a live table's deal provably
//! fair (the protocol is `python/caribbean_fast/engine/fairness.py`'s, which the page checks too):
//! position `p`'s salt is HMAC-SHA256(the round's seed, `"position:p"`), and its leaf is
//! SHA-256(the salt followed by the card's id as one byte). A table works out a round's 52 leaves
//! once; here the key's HMAC state is set up once for all of them.

use crate::cards::Card;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// A SHA-256 digest: a salt or a leaf.
pub type Digest32 = [u8; 32];

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
