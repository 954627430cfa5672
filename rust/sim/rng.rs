//! Random streams for simulation: the rounds are cut into fixed chunks, and chunk k of a run
//! with seed s draws from its own generator seeded from (s, k). The same seed gives the same
//! rounds however the chunks are spread over threads, batches or machines.

use rand::{RngCore, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};

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
/// whatever order the deck is in, the front is a uniform random draw).
#[inline]
pub fn draw(deck: &mut [u8; 52], count: usize, rng: &mut impl RngCore) {
    draw_after(deck, 0, count, rng);
}

/// Draws `count` more cards into `deck[start..start + count]` from the cards after `start`.
/// Each pick scales 32 random bits by multiplication, two picks to a 64-bit draw: the bias, under
/// 52 / 2^32 of a card's chance, is far below what any simulation can see.
#[inline]
pub fn draw_after(deck: &mut [u8; 52], start: usize, count: usize, rng: &mut impl RngCore) {
    let end = (start + count).min(52);
    let pick = |i: usize, bits: u64| i + ((bits * (52 - i) as u64) >> 32) as usize;
    let mut i = start;
    while i + 1 < end {
        let bits = rng.next_u64();
        deck.swap(i, pick(i, bits & 0xffff_ffff));
        deck.swap(i + 1, pick(i + 1, bits >> 32));
        i += 2;
    }
    if i < end {
        let bits = rng.next_u64();
        deck.swap(i, pick(i, bits & 0xffff_ffff));
    }
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
