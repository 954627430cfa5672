//! Game 4 with the discards out of play: the time to count one final hand after one exchange
//! (every dealer hand, each weighted by the exchanged hands avoiding both), against the same walk
//! with the discards put back (one lookup per dealer hand). Run: `cargo bench --bench exchange`.

use caribbean_fast::eval::{tables, LOWEST_ACE_KING};
use caribbean_fast::exact::exchange::{Deck, Discards, Exchanged, OneExchange};
use caribbean_fast::exact::symmetry::combinations;
use std::time::Instant;

mod shared;
use shared::cpu_seconds;

fn main() {
    let t = tables();
    let qualifier = t.strength(&LOWEST_ACE_KING);
    let pair = t.strength(&[0, 1, 4, 8, 12]);
    let deck = Deck::full(0); // the up card: the two of clubs
    let start = Instant::now();
    let e = Exchanged::build(&deck, |h| t.strength(h) < pair);
    let one = OneExchange::new(t, &deck, &e, qualifier);
    println!(
        "tables for one up card: {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let hands: Vec<[u8; 5]> = combinations::<5>(deck.cards())
        .into_iter()
        .step_by(36_709)
        .take(64)
        .collect();
    for discards in [Discards::Back, Discards::Out] {
        let (start, cpu) = (Instant::now(), cpu_seconds());
        let total: u64 = hands
            .iter()
            .map(|h| one.counts(h, discards).iter().sum::<u64>())
            .sum();
        let per_hand = start.elapsed().as_secs_f64() / hands.len() as f64;
        let per_hand_cpu = (cpu_seconds() - cpu) / hands.len() as f64;
        println!(
            "{discards:?}: {:.2} ms a final hand on one thread, {:.2} ms of it on a CPU ({total} weighted deals)",
            per_hand * 1e3,
            per_hand_cpu * 1e3
        );
    }
}
