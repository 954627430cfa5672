//! Every hand of five or seven cards, walked with keys summed incrementally, counted by strength.

use super::tables::{tables, Tables, DISTINCT_STRENGTHS};
use crate::cards::{Card, DECK_SIZE};
use rayon::prelude::*;

const N: u8 = DECK_SIZE as u8;
/// Histogram slots: a power of two above every strength, so a masked index needs no check.
/// Counts per two-card prefix fit u32 (at most C(50, 5) hands).
const HIST: usize = 1 << 13;

/// How many hands of `size` cards (5 or 7) have each strength: index = strength.
pub fn strength_histogram(size: usize) -> Vec<u64> {
    let t = tables();
    let mut firsts: Vec<(Card, Card)> = (0..N)
        .flat_map(|a| (a + 1..N).map(move |b| (a, b)))
        .collect();
    firsts.reverse(); // biggest subtrees first, for balance across threads
    firsts
        .into_par_iter()
        .map(|(a, b)| {
            let mut hist = [0u32; HIST];
            let key = t.card_key(a) + t.card_key(b);
            match size {
                5 => walk::<5>(t, &mut [a, b, 0, 0, 0], 2, key, &mut hist),
                _ => walk::<7>(t, &mut [a, b, 0, 0, 0, 0, 0], 2, key, &mut hist),
            }
            hist[..=DISTINCT_STRENGTHS as usize]
                .iter()
                .map(|&n| n as u64)
                .collect::<Vec<u64>>()
        })
        .reduce(
            || vec![0u64; DISTINCT_STRENGTHS as usize + 1],
            |mut x, y| {
                x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
                x
            },
        )
}

/// Fills `hand[depth..]` with increasing ids above `hand[depth - 1]`, counting each full hand.
#[inline(always)]
fn walk<const K: usize>(
    t: &Tables,
    hand: &mut [Card; K],
    depth: usize,
    key: u64,
    hist: &mut [u32; HIST],
) {
    let from = hand[depth - 1] + 1;
    if depth == K - 1 {
        // With no four of a suit so far, no last card makes a flush: skip the suit test.
        if !Tables::has_suited(key, 4) {
            for c in from..N {
                hist[t.non_flush_strength(key + t.card_key(c), K) as usize & (HIST - 1)] += 1;
            }
            return;
        }
        for c in from..N {
            hand[depth] = c;
            hist[t.strength_from_key(key + t.card_key(c), hand) as usize & (HIST - 1)] += 1;
        }
        return;
    }
    for c in from..N - (K - 1 - depth) as u8 {
        hand[depth] = c;
        walk::<K>(t, hand, depth + 1, key + t.card_key(c), hist);
    }
}
