//! Game 4 with three exchanges counted by colour classes (docs/games/caribbean-poker.md): the
//! time to form the product of two given-up pattern sets on the classes of 10 cards, the first
//! step of that design, and from it the projected time of the third hand's product on the classes
//! of 15 cards. The peer, run in turn: the same pairs of patterns checked and weighed without
//! being kept (the share of the time the table of classes takes). Run: `cargo bench --bench
//! colour_classes`.
//!
//! A colour pattern holds, for each rank, whether the hand has its club and how many of its
//! three other cards (4 bits a rank: the club, two bits of count, a guard bit). Given up here: the
//! hands below a pair and not a flush against the two of clubs (about as many patterns as the
//! package's strategy gives up).

use caribbean_fast::cards::Card;
use caribbean_fast::eval::tables;
use caribbean_fast::exact::symmetry::combinations;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

mod shared;
use shared::cpu_seconds;

const CLUBS: u64 = 0x1_1111_1111_1111; // bit 0 of each of the 13 ranks' nibbles
const COUNTS: u64 = CLUBS * 0b110;
const FOURS: u64 = CLUBS << 2; // a rank's count of other cards at four or more

fn pattern(hand: &[Card; 5]) -> u64 {
    hand.iter().fold(0, |p, &c| {
        let at = 4 * (c >> 2) as u64;
        p + if c & 3 == 0 { 1 << at } else { 2 << at }
    })
}

/// Two patterns' union, if their cards can be disjoint: one club at most and three other cards
/// at most at each rank; and the number of ways to deal them so (3! / (3 - a - b)! a! b! a rank).
#[inline]
fn union(a: u64, b: u64) -> Option<(u64, u64)> {
    let counts = ((a & COUNTS) >> 1) + ((b & COUNTS) >> 1); // each rank's sum, 0 to 6, in 3 bits
    if a & b & CLUBS != 0 || counts & FOURS != 0 {
        return None;
    }
    const WAYS: [[u64; 4]; 4] = [[1, 3, 3, 1], [3, 6, 3, 0], [3, 3, 0, 0], [1, 0, 0, 0]];
    let mut ways = 1;
    let (mut x, mut y) = ((a & COUNTS) >> 1, (b & COUNTS) >> 1);
    while x | y != 0 {
        ways *= WAYS[(x & 3) as usize][(y & 3) as usize];
        x >>= 4;
        y >>= 4;
    }
    Some(((a & CLUBS) + (b & CLUBS) + (counts << 1), ways))
}

/// A multiplicative hash: the keys are already well spread.
#[derive(Default)]
struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("u64 keys only")
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
}

fn main() {
    let t = tables();
    let pair = t.strength(&[0, 1, 4, 8, 12]);
    let deck: Vec<Card> = (1..52).collect(); // the up card: the two of clubs
    let mut given_up: HashMap<u64, u64> = HashMap::new();
    for h in combinations::<5>(&deck) {
        let flush = h.iter().all(|&c| c & 3 == h[0] & 3);
        if t.strength(&h) < pair && !flush {
            *given_up.entry(pattern(&h)).or_default() += 1;
        }
    }
    let patterns: Vec<u64> = given_up.keys().copied().collect();
    println!("given-up patterns: {}", patterns.len());

    let (start, cpu) = (Instant::now(), cpu_seconds());
    let mut weighed = 0u64;
    for &a in &patterns {
        for &b in &patterns {
            if let Some((_, ways)) = union(a, b) {
                weighed = weighed.wrapping_add(ways);
            }
        }
    }
    let peer = cpu_seconds() - cpu;
    println!(
        "peer, pairs weighed only: {:.1} s on a CPU ({:.1} s wall), checksum {weighed}",
        peer,
        start.elapsed().as_secs_f64()
    );

    let (start, cpu) = (Instant::now(), cpu_seconds());
    let mut classes: HashMap<u64, u128, BuildHasherDefault<Spread>> = HashMap::default();
    let mut kept = 0u64;
    for &a in &patterns {
        for &b in &patterns {
            if let Some((u, ways)) = union(a, b) {
                *classes.entry(u).or_default() += ways as u128;
                kept += 1;
            }
        }
    }
    let seconds = cpu_seconds() - cpu;
    let pairs = (patterns.len() as f64).powi(2);
    let per_pair = seconds / kept as f64;
    println!(
        "two hands: {} classes of 10 cards from {kept} compatible pairs of {pairs:.3e}: {seconds:.1} s on a CPU ({:.1} s wall), {:.1} ns a kept pair, {:.2} times the peer",
        classes.len(),
        start.elapsed().as_secs_f64(),
        per_pair * 1e9,
        seconds / peer
    );
    // The third hand: each 10-card class against each pattern, kept as often as the pairs were.
    let third = classes.len() as f64 * patterns.len() as f64 * kept as f64 / pairs;
    println!(
        "projected third hand: {third:.3e} kept pairs, {:.0} s of a CPU at the same rate (a larger table: slower)",
        third * per_pair
    );
}
