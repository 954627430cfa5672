//! The combinatorial number system: the sorted k-subsets of 0..n, in lexicographic order of
//! their largest element first, are numbered 0..C(n, k) by `sum C(x_i, i + 1)`. One numbering
//! for every dense table indexed by a set of cards or of positions (hole pairs, flops, hands).

use crate::cards::DECK_SIZE;

/// The largest subsets numbered: five cards.
pub const MOST: usize = 5;

/// C(n, k), in a constant context.
///
/// ```
/// use caribbean_fast::combinations::{choose, HANDS};
///
/// assert_eq!(choose(52, 5), 2_598_960);
/// assert_eq!(choose(52, 5), HANDS);
/// assert_eq!(choose(3, 5), 0);
/// ```
pub const fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let (mut out, mut i) = (1, 0);
    while i < k {
        out = out * (n - i) / (i + 1);
        i += 1;
    }
    out
}

/// Two cards from the deck: 1,326.
pub const PAIRS: usize = choose(DECK_SIZE, 2);
/// Three cards from the deck (a flop): 22,100.
pub const TRIPLES: usize = choose(DECK_SIZE, 3);
/// Five cards from the deck: 2,598,960.
pub const HANDS: usize = choose(DECK_SIZE, 5);

const fn binomials() -> [[u32; MOST + 1]; DECK_SIZE + 1] {
    let mut b = [[0u32; MOST + 1]; DECK_SIZE + 1];
    let mut n = 0;
    while n <= DECK_SIZE {
        let mut k = 0;
        while k <= MOST {
            b[n][k] = choose(n, k) as u32;
            k += 1;
        }
        n += 1;
    }
    b
}

/// C(n, k) for n up to the deck's size and k up to `MOST`, looked up.
static BINOMIAL: [[u32; MOST + 1]; DECK_SIZE + 1] = binomials();

/// The index of a strictly ascending set of at most `MOST` elements below `DECK_SIZE`, among
/// all sets of its size: below C(n, len) when every element is below n.
///
/// ```
/// use caribbean_fast::combinations::{index_of, HANDS, PAIRS};
///
/// // Pairs in order of their larger card: {0, 1}, {0, 2}, {1, 2}, {0, 3}, ...
/// assert_eq!([index_of(&[0u8, 1]), index_of(&[0u8, 2]), index_of(&[1u8, 2])], [0, 1, 2]);
/// assert_eq!(index_of(&[50u8, 51]), PAIRS - 1);
/// assert_eq!(index_of(&[47u8, 48, 49, 50, 51]), HANDS - 1);
/// ```
#[inline(always)]
pub fn index_of<T: Copy + Into<usize>>(sorted: &[T]) -> usize {
    sorted
        .iter()
        .enumerate()
        .map(|(k, &x)| BINOMIAL[x.into()][k + 1] as usize)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbering_is_dense() {
        assert_eq!((PAIRS, TRIPLES, HANDS), (1326, 22_100, 2_598_960));
        assert_eq!(index_of(&[0u8, 1, 2, 3, 4]), 0);
        assert_eq!(index_of(&[47u8, 48, 49, 50, 51]), HANDS - 1);
        assert_eq!(index_of(&[50u8, 51]), PAIRS - 1);
        assert_eq!(index_of(&[49u8, 50, 51]), TRIPLES - 1);
        assert_eq!(index_of(&[48usize, 49, 50]), choose(51, 3) - 1);
    }

    #[test]
    fn every_pair_has_its_own_index() {
        let mut seen = vec![false; PAIRS];
        for hi in 0..52u8 {
            for lo in 0..hi {
                let i = index_of(&[lo, hi]);
                assert!(!seen[i]);
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
