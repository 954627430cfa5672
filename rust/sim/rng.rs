//! Random streams for simulation: the rounds are cut into fixed chunks, and chunk k of a run
//! with seed s draws from its own generator seeded from (s, k). The same seed gives the same
//! rounds however the chunks are spread over threads, batches or machines.

use rand::{RngCore, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};
use std::ops::Range;

/// Rounds in one chunk.
pub const CHUNK_ROUNDS: u64 = 1 << 16;

/// The generator every round draws from.
pub type Stream = Xoshiro256PlusPlus;

/// The generator of chunk `chunk` of a run seeded with `seed`.
pub fn chunk_rng(seed: u64, chunk: u64) -> Stream {
    let mut mix = SplitMix64::seed_from_u64(seed ^ chunk.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    Xoshiro256PlusPlus::from_rng(&mut mix)
}

/// Moves `count` uniformly chosen cards of `deck` to its front (a partial Fisher-Yates shuffle:
/// whatever order the deck is in, the front is an exactly uniform random draw).
#[inline]
pub fn draw<T: Copy>(deck: &mut [T; 52], count: usize, rng: &mut impl RngCore) {
    draw_after(deck, 0, count, rng);
}

/// A batch of picks shares one 64-bit word while the product of their bounds stays at most
/// this: ten picks from a full deck (52 * 51 * ... * 43 < 2^56), so a stud seat and the
/// dealer, or a hold'em round, take one word. The slow path (below) runs with a chance of at
/// most 2^57 / 2^64 = 1/128 a batch, 1/300 for ten cards from a full deck.
const BATCH_PRODUCT: u64 = 1 << 57;

/// The batch that starts at each position: where it ends (the most picks whose bounds
/// `52 - i` multiply to at most `BATCH_PRODUCT`) and that product. A constant, so that a deal
/// of a known size from a known position has its batches worked out when it is compiled.
const BATCHES: [(usize, u64); 53] = {
    let mut batches = [(52, 1); 53];
    let mut first = 0;
    while first < 52 {
        let (mut last, mut product) = (first, 1u64);
        while last < 52 && product * (52 - last) as u64 <= BATCH_PRODUCT {
            product *= (52 - last) as u64;
            last += 1;
        }
        batches[first] = (last, product);
        first += 1;
    }
    batches
};

/// Draws `count` more cards into `deck[start..start + count]` from the cards after `start`.
///
/// The picks of a partial Fisher-Yates shuffle come in batches from one 64-bit word each
/// (Brackett-Rozinsky and Lemire, "Batched Ranged Random Integer Generation", 2024): for bounds
/// `n_1 .. n_k` whose product `P` is at most `BATCH_PRODUCT`, multiplying the word `r` by `n_1`
/// gives the first pick in the high 64 bits and a leftover in the low ones, which is multiplied
/// by `n_2`, and so on. The picks are then the digits of `floor(r * P / 2^64)` in the mixed radix
/// of the bounds, and the last leftover is `r * P mod 2^64`: Lemire's bounded draw of one integer
/// below `P`, which is exactly uniform once leftovers below `2^64 mod P` are rejected (the whole
/// batch is then drawn again from a fresh word). No pick has any bias.
#[inline(always)]
pub fn draw_after<T: Copy>(deck: &mut [T; 52], start: usize, count: usize, rng: &mut impl RngCore) {
    draw_fold(deck, start, count, rng, (), |(), _, _| ());
}

/// `draw_after`, folding each card into `init` as it is placed (`fold(acc, position, card)`,
/// positions in turn): a deal's cards without reading them back from the deck, whose 8-byte
/// stores a wider load just after would wait for (a failed store-to-load forwarding).
#[inline(always)]
pub fn draw_fold<T: Copy, A: Copy>(
    deck: &mut [T; 52],
    start: usize,
    count: usize,
    rng: &mut impl RngCore,
    init: A,
    mut fold: impl FnMut(A, usize, T) -> A,
) -> A {
    let end = (start + count).min(52);
    let (mut first, mut acc) = (start, init);
    while first < end {
        let (batch_end, batch_product) = BATCHES[first];
        let last = batch_end.min(end);
        acc = loop {
            if let Some(done) = draw_batch(deck, first..last, batch_product, rng, acc, &mut fold) {
                break done;
            }
        };
        first = last;
    }
    acc
}

/// One batch of picks into `deck[picks]` from one word, as `draw_after` says, each card folded
/// into `acc`; `None` when the word is rejected (the deck is then permuted among the positions
/// from `picks.start` on, which leaves the next word's draw as uniform as any, and the batch's
/// folds are dropped). `bound` is at least the product of the picks' bounds: a leftover at or
/// above it is never rejected.
#[inline(always)]
#[allow(clippy::manual_swap)] // the swap is written out on purpose: see the loop
fn draw_batch<T: Copy, A: Copy>(
    deck: &mut [T; 52],
    picks: Range<usize>,
    bound: u64,
    rng: &mut impl RngCore,
    mut acc: A,
    fold: &mut impl FnMut(A, usize, T) -> A,
) -> Option<A> {
    // The leftover before each pick is the word times the bounds so far, mod 2^64 (the low half
    // of each product is all the next one keeps): one multiply from the word each, not a chain
    // of them through every pick, so the picks of a deal are worked out side by side.
    let word = rng.next_u64();
    let mut so_far = 1u64; // at most `BATCH_PRODUCT`: no overflow
    for i in picks.clone() {
        let choices = (52 - i) as u64;
        let leftover = word.wrapping_mul(so_far);
        let j = i + ((leftover as u128 * choices as u128) >> 64) as usize;
        so_far *= choices;
        // The swap by hand, folding the picked card as read (`deck.swap` then `deck[i]` read it
        // back from memory: a load on the store just made, for every card).
        let picked = deck[j];
        deck[j] = deck[i];
        deck[i] = picked;
        acc = fold(acc, i, picked);
    }
    let leftover = word.wrapping_mul(so_far);
    (leftover >= bound || kept(leftover, picks)).then_some(acc)
}

/// Whether a batch's last leftover is kept: not below 2^64 mod P, for P the product of the
/// picks' bounds (the rare slow path, with a division).
#[cold]
#[inline(never)]
fn kept(leftover: u64, picks: Range<usize>) -> bool {
    let product: u64 = picks.map(|i| (52 - i) as u64).product();
    leftover >= product.wrapping_neg() % product
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn chunks_repeat_and_differ() {
        let a: Vec<u64> = (0..4).map(|_| chunk_rng(7, 3).random()).collect();
        assert_eq!(
            a,
            (0..4)
                .map(|_| chunk_rng(7, 3).random())
                .collect::<Vec<u64>>()
        );
        assert_ne!(
            chunk_rng(7, 3).random::<u64>(),
            chunk_rng(7, 4).random::<u64>()
        );
        assert_ne!(
            chunk_rng(7, 3).random::<u64>(),
            chunk_rng(8, 3).random::<u64>()
        );
    }

    /// An "RNG" that returns the given words in turn.
    struct Words(Vec<u64>);

    impl RngCore for Words {
        fn next_u32(&mut self) -> u32 {
            self.next_u64() as u32
        }
        fn next_u64(&mut self) -> u64 {
            self.0.remove(0)
        }
        fn fill_bytes(&mut self, _: &mut [u8]) {
            unreachable!("draws take whole words")
        }
    }

    /// The deck after the partial shuffle whose picks are the mixed-radix digits of `value`
    /// (bounds 52 - start, 51 - start, ...; the first pick most significant).
    fn shuffled(start: usize, count: usize, mut value: u128) -> [u8; 52] {
        let mut picks = vec![0; count];
        for k in (0..count).rev() {
            let bound = (52 - start - k) as u128;
            picks[k] = (value % bound) as usize;
            value /= bound;
        }
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        for (k, pick) in picks.into_iter().enumerate() {
            deck.swap(start + k, start + k + pick);
        }
        deck
    }

    #[test]
    fn a_batch_is_one_bounded_draw_below_the_product() {
        // Ten picks from a full deck, and three near its end: the picks are the digits of
        // floor(r * P / 2^64), Lemire's draw of one integer below P = the bounds' product.
        let mut state = chunk_rng(9, 9);
        for (start, count) in [(0, 10), (0, 9), (49, 3), (20, 6)] {
            let product: u128 = (start..start + count).map(|i| (52 - i) as u128).product();
            let threshold = (1u128 << 64) % product;
            for _ in 0..10_000 {
                let r = state.next_u64();
                if ((r as u128 * product) as u64 as u128) < threshold {
                    continue; // rejected (a chance below P / 2^64): tested below
                }
                let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
                draw_after(&mut deck, start, count, &mut Words(vec![r]));
                assert_eq!(deck, shuffled(start, count, (r as u128 * product) >> 64));
            }
        }
    }

    #[test]
    fn a_word_left_below_the_threshold_is_drawn_again() {
        // r = 0 leaves 0 < 2^64 mod P (P = 52 * ... * 43 does not divide 2^64): rejected, and
        // its picks are all 0 (the deck unchanged); the next word is then the draw.
        let product: u128 = (43..=52).product();
        assert_ne!((1u128 << 64) % product, 0);
        let r = 0x0123_4567_89ab_cdef;
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        let mut words = Words(vec![0, r]);
        draw(&mut deck, 10, &mut words);
        assert!(words.0.is_empty());
        assert_eq!(deck, shuffled(0, 10, (r as u128 * product) >> 64));
    }

    #[test]
    fn draws_are_uniform_enough() {
        let mut rng = chunk_rng(1, 0);
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        let mut first = [0u32; 52];
        for _ in 0..520_000 {
            draw(&mut deck, 5, &mut rng);
            first[deck[0] as usize] += 1;
        }
        assert!(
            first.iter().all(|&n| (9_300..10_700).contains(&n)),
            "{first:?}"
        );
    }
}
