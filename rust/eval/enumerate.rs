//! Every hand of five or seven cards, walked in plain nested loops that build each hand one card
//! at a time (`Hand`: two adds a card), counted by strength.
//!
//! The last cards' loops are the hot ones, and hands that cannot differ in strength share one
//! lookup. Seven cards: when the first five hold no four of a suit (96% of the hands), two more
//! cards make a flush only if both are of a suit the five hold three of, so every other pair of
//! last cards with the same two ranks gives one strength, looked up once and counted once per
//! pair of cards (`last_two_cards`); the rest are looked up hand by hand. Five cards: when the
//! first four hold no four of a suit, the last card's rank alone decides (`last_card`). Every hand
//! is counted; only the lookups are shared.

use super::hand::Hand;
use super::tables::{tables, Tables, DISTINCT_STRENGTHS};
use crate::cards::{Card, DECK_SIZE};
use rayon::prelude::*;

const N: Card = DECK_SIZE as Card;
/// Histogram slots: a power of two above every strength, so a masked index needs no check.
/// Counts fit u32: there are fewer than 2^32 hands in all.
const HIST: usize = 1 << 13;

type Histogram = Box<[u32; HIST]>;

/// How many hands of `size` cards (5 or 7) have each strength: index = strength.
///
/// ```
/// use caribbean_fast::eval::{enumerate::strength_histogram, DISTINCT_STRENGTHS};
///
/// let five = strength_histogram(5);
/// assert_eq!(five.len(), DISTINCT_STRENGTHS as usize + 1); // strength 0 is no hand's
/// assert_eq!(five.iter().sum::<u64>(), 2_598_960);
/// assert_eq!(five.iter().filter(|&&n| n > 0).count(), 7462);
/// assert_eq!(five[DISTINCT_STRENGTHS as usize], 4); // one royal flush a suit
/// ```
pub fn strength_histogram(size: usize) -> Vec<u64> {
    let t = tables();
    let mut firsts: Vec<(Card, Card)> = (0..N)
        .flat_map(|a| (a + 1..N).map(move |b| (a, b)))
        .collect();
    firsts.reverse(); // biggest subtrees first, for balance across threads
    let hist = firsts
        .into_par_iter()
        .fold(
            || Histogram::new([0; HIST]),
            |mut hist, (a, b)| {
                let two = Hand::EMPTY.add_card(a).add_card(b);
                match size {
                    5 => walk5(t, two, b + 1, &mut hist),
                    _ => walk7(t, two, b + 1, &mut hist),
                }
                hist
            },
        )
        .reduce(
            || Histogram::new([0; HIST]),
            |mut x, y| {
                x.iter_mut().zip(y.iter()).for_each(|(a, b)| *a += b);
                x
            },
        );
    hist[..=DISTINCT_STRENGTHS as usize]
        .iter()
        .map(|&n| n as u64)
        .collect()
}

/// Every five-card hand extending `two` with three ids from `from` up.
fn walk5(t: &Tables, two: Hand, from: Card, hist: &mut [u32; HIST]) {
    for c in from..N - 2 {
        let three = two.add_card(c);
        for d in c + 1..N - 1 {
            last_card(t, three.add_card(d), d + 1, hist);
        }
    }
}

/// Every seven-card hand extending `two` with five ids from `from` up.
fn walk7(t: &Tables, two: Hand, from: Card, hist: &mut [u32; HIST]) {
    for c in from..N - 4 {
        let three = two.add_card(c);
        for d in c + 1..N - 3 {
            let four = three.add_card(d);
            for e in d + 1..N - 2 {
                let five = four.add_card(e);
                if five.has_suited(4) {
                    each_last_two(t, five, e + 1, hist);
                } else {
                    last_two_cards(t, five, e + 1, hist);
                }
            }
        }
    }
}

/// The first id of the rank after `card`'s (ids are `4 * rank + suit`).
#[inline(always)]
fn next_rank(card: Card) -> Card {
    (card | 3) + 1
}

/// Counts `hand` (five cards, no four of a suit) plus every two ids from `from` up (all unused:
/// the walk adds ids in order), as seven-card hands. Two cards make a flush only when both are of
/// a suit the five hold three of; every other pair of cards of the same two ranks gives one
/// strength, whichever cards they are, looked up once. Only the first rank may have fewer than
/// four cards from `from` up.
#[inline(always)]
fn last_two_cards(t: &Tables, hand: Hand, from: Card, hist: &mut [u32; HIST]) {
    let suited = (0..4).find(|&suit| (hand.mask() >> (16 * suit) & 0x1fff).count_ones() >= 3);
    let mut c = from;
    while c < N {
        let (next, low) = (next_rank(c), hand.add_card(c));
        let low_cards = (next - c) as u32; // unused cards of the lower rank
        if low_cards >= 2 {
            // Two cards of one rank are of two suits: no flush.
            let strength = t.non_flush_strength(low.add_card(c + 1).key(), 7) as usize;
            hist[strength & (HIST - 1)] += low_cards * (low_cards - 1) / 2;
        }
        // The lower rank's card of the suit with three, if unused: with each higher rank's card
        // of that suit, a pair that may make a flush, looked up whole.
        let suited_low = suited.map(|suit| (c & !3) + suit).filter(|&x| x >= c);
        let mut d = next;
        while d < N {
            let mut pairs = low_cards * 4; // every higher rank has its four cards unused
            if let Some(x) = suited_low {
                let both = hand.add_card(x).add_card(d + (x & 3));
                hist[both.strength(t) as usize & (HIST - 1)] += 1;
                pairs -= 1;
            }
            // The other pairs' strength, from any two cards of the two ranks: the stand-ins may
            // be that very flush pair, but a non-flush lookup reads the ranks alone.
            let strength = t.non_flush_strength(low.add_card(d).key(), 7) as usize;
            hist[strength & (HIST - 1)] += pairs;
            d += 4;
        }
        c = next;
    }
}

/// Counts `hand` (five cards with four of a suit: 4% of seven-card hands) plus every two ids from
/// `from` up, each hand looked up whole.
#[inline(always)]
fn each_last_two(t: &Tables, hand: Hand, from: Card, hist: &mut [u32; HIST]) {
    for f in from..N - 1 {
        let six = hand.add_card(f);
        for g in f + 1..N {
            hist[six.add_card(g).strength(t) as usize & (HIST - 1)] += 1;
        }
    }
}

/// Counts `hand` (four cards) plus each id from `from` up (all unused: the walk adds ids in
/// order), as five-card hands.
#[inline(always)]
fn last_card(t: &Tables, hand: Hand, from: Card, hist: &mut [u32; HIST]) {
    if !hand.has_suited(4) {
        // No last card makes a flush, so a rank's four suits give one strength: look it up once
        // and count that rank's cards from `from` up.
        let mut c = from;
        while c < N {
            let next = next_rank(c);
            let strength = t.non_flush_strength(hand.add_card(c).key(), 5) as usize;
            hist[strength & (HIST - 1)] += (next - c) as u32;
            c = next;
        }
    } else {
        for c in from..N {
            hist[hand.add_card(c).strength(t) as usize & (HIST - 1)] += 1;
        }
    }
}
