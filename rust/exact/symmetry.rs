//! Suit symmetry: poker values ignore which suit is which, so deals that differ only by a
//! renaming of suits have the same outcome. Exact counts visit one canonical deal per class of
//! such renamings and weight it by the size of the class (its orbit).

use crate::cards::{rank, suit, Card};
use std::sync::LazyLock;

/// A renaming of suits: `perm[old suit] = new suit`.
pub type SuitPerm = [u8; 4];

/// All 24 renamings, the identity first.
pub static ALL_PERMS: LazyLock<Vec<SuitPerm>> = LazyLock::new(|| {
    let mut perms = Vec::with_capacity(24);
    for a in 0..4u8 {
        for b in (0..4).filter(|&b| b != a) {
            for c in (0..4).filter(|&c| c != a && c != b) {
                perms.push([a, b, c, 6 - a - b - c]);
            }
        }
    }
    perms
});

/// The renamings that leave clubs (suit 0) in place: the symmetry left once the up card is a club.
pub static CLUB_FIXING_PERMS: LazyLock<Vec<SuitPerm>> =
    LazyLock::new(|| ALL_PERMS.iter().copied().filter(|p| p[0] == 0).collect());

#[inline]
pub fn rename(card: Card, perm: &SuitPerm) -> Card {
    4 * rank(card) + perm[suit(card) as usize]
}

/// The sorted image of `cards` under `perm`.
pub fn image<const N: usize>(cards: &[Card; N], perm: &SuitPerm) -> [Card; N] {
    let mut out = cards.map(|c| rename(c, perm));
    out.sort_unstable();
    out
}

/// Whether sorted `cards` are the least of their images under `perms`, and if so how many
/// distinct images (the orbit's size) they have.
pub fn canonical_orbit<const N: usize>(cards: &[Card; N], perms: &[SuitPerm]) -> Option<u32> {
    let mut images: Vec<[Card; N]> = Vec::with_capacity(perms.len());
    for p in perms {
        let im = image(cards, p);
        if im < *cards {
            return None;
        }
        images.push(im);
    }
    images.sort_unstable();
    images.dedup();
    Some(images.len() as u32)
}

/// The least image of sorted `cards` under `perms`.
pub fn canonical<const N: usize>(cards: &[Card; N], perms: &[SuitPerm]) -> [Card; N] {
    perms
        .iter()
        .map(|p| image(cards, p))
        .min()
        .unwrap_or(*cards)
}

/// Every sorted `N`-card set drawn from `deck` (sorted ids), in lexicographic order.
pub fn combinations<const N: usize>(deck: &[Card]) -> Vec<[Card; N]> {
    fn go<const N: usize>(
        deck: &[Card],
        from: usize,
        hand: &mut [Card; N],
        depth: usize,
        out: &mut Vec<[Card; N]>,
    ) {
        if depth == N {
            out.push(*hand);
            return;
        }
        for i in from..=deck.len() - (N - depth) {
            hand[depth] = deck[i];
            go(deck, i + 1, hand, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    if deck.len() >= N {
        go(deck, 0, &mut [0; N], 0, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_of_canonical_sets_cover_every_set() {
        let deck: Vec<Card> = (0..52).collect();
        let total: u64 = combinations::<3>(&deck)
            .iter()
            .filter_map(|h| canonical_orbit(h, &ALL_PERMS))
            .map(u64::from)
            .sum();
        assert_eq!(total as usize, crate::combinations::TRIPLES);
        assert_eq!(ALL_PERMS.len(), 24);
        assert_eq!(CLUB_FIXING_PERMS.len(), 6);
    }

    #[test]
    fn canonical_is_shared_by_the_orbit() {
        let hand = [3, 17, 22, 40, 51];
        let c = canonical(&hand, &ALL_PERMS);
        for p in ALL_PERMS.iter() {
            assert_eq!(canonical(&image(&hand, p), &ALL_PERMS), c);
        }
    }
}
