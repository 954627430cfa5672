//! Simulation throughput of the Rust core alone (rounds per second, both cores), and where one
//! round's time goes (one thread): the round stopped after each part in turn, beside the real
//! loop, and each part's alternatives side by side. Run: `cargo bench --bench sim`.
//! The Python figures with best-strategy tables are printed by `python benches/simulation.py`.

use caribbean_fast::combinations::{index_of, PAIRS, TRIPLES};
use caribbean_fast::eval::{
    tables, Hand, HandClass, Tables, LOWEST_ACE_KING, STRENGTH_MASK, STRENGTH_SLOTS,
};
use caribbean_fast::exact::symmetry::{canonical, image, rename, ALL_PERMS};
use caribbean_fast::sim::decisions::{HoldemDecisions, StudDecisions, RAISE_ALL};
use caribbean_fast::sim::holdem::{strengths, HoldemGame};
use caribbean_fast::sim::one_seat::{strength_at, tagged_key};
use caribbean_fast::sim::rng::{chunk_rng, draw, Stream, CHUNK_ROUNDS};
use caribbean_fast::sim::stud::StudGame;
use caribbean_fast::sim::{
    cell_index, in_batches, round_by_round, showdown, simulate, Buckets, Game, BATCH,
};
use rand::RngCore;
use std::hint::black_box;
use std::time::Instant;

/// Runs of each part; each figure is their median.
const RUNS: usize = 5;
/// Rounds of one run of a part (one thread).
const PART_ROUNDS: u64 = 1 << 23;

fn main() {
    let t = tables();
    let stud = stud_game(t);
    let holdem = holdem_game(t, HoldemDecisions::constant(true));
    throughput("stud, pair-or-better threshold", &stud);
    throughput("holdem, always call", &holdem);
    stud_parts(t, &stud);
    holdem_parts(t, &holdem);
}

fn cuts(t: &Tables) -> Vec<u16> {
    let mut cuts: Vec<u16> = HandClass::ALL.iter().map(|&c| t.class_floor(c)).collect();
    cuts[1] = 0;
    cuts
}

fn stud_game(t: &Tables) -> StudGame {
    StudGame {
        seats: 1,
        qualifier: t.strength(&LOWEST_ACE_KING),
        decisions: StudDecisions::threshold(t.strength(&[0, 1, 6, 10, 14])),
        first: Buckets::new(&cuts(t)),
        classes: Buckets::new(&cuts(t)),
        exchange: None,
    }
}

fn holdem_game(t: &Tables, decisions: HoldemDecisions) -> HoldemGame {
    HoldemGame {
        qualifier: t.strength(&[8, 9, 12, 4, 0]),
        decisions,
        first: Buckets::new(&cuts(t)),
        classes: Buckets::new(&cuts(t)),
    }
}

/// Rounds a second of the real simulator on both cores.
fn throughput<G: Game>(name: &str, game: &G) {
    let chunks = 400;
    let rounds = chunks * CHUNK_ROUNDS;
    let start = Instant::now();
    let counts = simulate(game, 1, 0..chunks, rounds);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name}: {:.1} M rounds/s ({} rounds)",
        counts.iter().sum::<u64>() as f64 / secs / 1e6,
        rounds
    );
}

/// ns per round of a part of a round, run `PART_ROUNDS` times from one stream: each round's
/// value is summed, so that nothing is optimised away.
fn time_part(part: impl FnMut(&mut [u8; 52], &mut Stream) -> usize) -> f64 {
    time_part_on(std::array::from_fn(|i| i as u8), part)
}

/// `time_part` with the deck as the one-seat loop's tagged keys (`one_seat::tagged_key`).
fn time_tagged_part(t: &Tables, part: impl FnMut(&mut [u64; 52], &mut Stream) -> usize) -> f64 {
    time_part_on(std::array::from_fn(|c| tagged_key(t, c as u8)), part)
}

/// `time_part` from `deck`, cards of any form.
fn time_part_on<T>(
    mut deck: [T; 52],
    mut part: impl FnMut(&mut [T; 52], &mut Stream) -> usize,
) -> f64 {
    let mut rng = chunk_rng(1, 0);
    let start = Instant::now();
    let mut sum = 0usize;
    for _ in 0..PART_ROUNDS {
        sum = sum.wrapping_add(part(&mut deck, &mut rng));
    }
    black_box(sum);
    start.elapsed().as_secs_f64() * 1e9 / PART_ROUNDS as f64
}

/// ns per round of the real loop (`Game::play_rounds`) on one thread.
fn time_loop<G: Game>(t: &Tables, g: &G) -> f64 {
    let mut counts = vec![0u64; g.cells()];
    let mut rng = chunk_rng(1, 0);
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    let start = Instant::now();
    g.play_rounds(t, &mut deck, &mut rng, PART_ROUNDS, &mut counts);
    black_box(&counts);
    start.elapsed().as_secs_f64() * 1e9 / PART_ROUNDS as f64
}

/// ns per round of `Game::play_round` in turn on one thread, each cell counted through the
/// closure (the loop before `play_rounds`).
fn time_round_by_round<G: Game>(t: &Tables, g: &G) -> f64 {
    let mut counts = vec![0u64; g.cells()];
    let mut rng = chunk_rng(1, 0);
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    let start = Instant::now();
    round_by_round(g, t, &mut deck, &mut rng, PART_ROUNDS, &mut counts);
    black_box(&counts);
    start.elapsed().as_secs_f64() * 1e9 / PART_ROUNDS as f64
}

/// Prints the median of `RUNS` runs of each of `names`' parts, run in turn (`run(i)` times
/// part `i`), so that the machine's drift touches all alike.
fn report(game: &str, names: &[&str], mut run: impl FnMut(usize) -> f64) {
    let mut times = vec![Vec::new(); names.len()];
    for _ in 0..RUNS {
        for (i, t) in times.iter_mut().enumerate() {
            t.push(run(i));
        }
    }
    for (name, mut t) in names.iter().zip(times) {
        t.sort_by(f64::total_cmp);
        println!(
            "{game} {name:<46} {:5.1} ns/round (median of {RUNS})",
            t[RUNS / 2]
        );
    }
}

/// The draw the simulator used before the batched one: a 64-bit word per two cards, each pick
/// 32 bits scaled by multiplication (a bias under 52 / 2^32).
fn draw_pairs(deck: &mut [u8; 52], count: usize, rng: &mut Stream) {
    let pick = |i: usize, bits: u64| i + ((bits * (52 - i) as u64) >> 32) as usize;
    let mut i = 0;
    while i + 1 < count {
        let bits = rng.next_u64();
        deck.swap(i, pick(i, bits & 0xffff_ffff));
        deck.swap(i + 1, pick(i + 1, bits >> 32));
        i += 2;
    }
    if i < count {
        let bits = rng.next_u64();
        deck.swap(i, pick(i, bits & 0xffff_ffff));
    }
}

/// The batched draw of ten cards from a full deck as it was first written: each pick's leftover
/// the low half of the one before times its bound, a chain of ten multiplies (the same picks as
/// `draw`, which multiplies the word by the bounds so far, each pick on its own).
fn draw_chained(deck: &mut [u8; 52], rng: &mut Stream) {
    const P: u64 = 52 * 51 * 50 * 49 * 48 * 47 * 46 * 45 * 44 * 43;
    loop {
        let mut leftover = rng.next_u64();
        for i in 0..10 {
            let wide = leftover as u128 * (52 - i) as u128;
            deck.swap(i, i + (wide >> 64) as usize);
            leftover = wide as u64;
        }
        if leftover >= P.wrapping_neg() % P {
            return;
        }
    }
}

fn five(deck: &[u8; 52], from: usize) -> [u8; 5] {
    std::array::from_fn(|i| deck[from + i])
}

fn stud_parts(t: &Tables, g: &StudGame) {
    let mut cells = vec![0u64; g.cells()];
    let shape = g.shape();
    // As the loop evaluates: keys alone, a card mask only for a flush.
    let key_only = |h: [u8; 5]| t.strength_from_key(t.key_of(&h), &h);
    let strengths = |deck: &[u8; 52]| (key_only(five(deck, 0)), key_only(five(deck, 5)));
    let decide = |deck: &[u8; 52], s: u16, d: u16| {
        g.decisions.raises(s, &five(deck, 0), deck[9]) as usize * showdown(s, d, g.qualifier)
    };
    // The loop's since: the deck as evaluator keys tagged with their ids (sim/one_seat.rs), a
    // hand's key five adds; raise or fold a mask on the showdown column, not a branch.
    let tagged = |deck: &[u64; 52], from: usize| strength_at(t, deck, from);
    let entries: Vec<(usize, u8)> = (0..STRENGTH_SLOTS as u16)
        .map(|s| {
            let cell = cell_index(&shape, [0, g.first.of(s), g.classes.of(s), 0, 0]);
            (cell, g.decisions.by_strength(s))
        })
        .collect();
    let masked = |s: u16, d: u16| {
        let (cell, decision) = entries[s as usize & STRENGTH_MASK];
        cell + (showdown(s, d, g.qualifier) & ((decision & RAISE_ALL) as usize).wrapping_neg())
    };
    let names = [
        "deal (before: a word per 2 cards)",
        "deal (batched: one word)",
        "deal (batched, the picks chained: before)",
        "deal + evaluations",
        "deal + evaluations + decision (a branch)",
        "deal + evaluations + decision + count",
        "deal, tagged keys (the loop's)",
        "deal + evaluations, tagged keys",
        "deal + evaluations + decision (a mask), tagged",
        "deal + evaluations + decision + count, tagged",
        "the real loop, round by round (play_round)",
        "the real loop (Game::play_rounds)",
    ];
    report("stud", &names, |part| match part {
        0 => time_part(|deck, rng| {
            draw_pairs(deck, 10, rng);
            deck[0] as usize + deck[9] as usize
        }),
        1 => time_part(|deck, rng| {
            draw(deck, 10, rng);
            deck[0] as usize + deck[9] as usize
        }),
        2 => time_part(|deck, rng| {
            draw_chained(deck, rng);
            deck[0] as usize + deck[9] as usize
        }),
        3 => time_part(|deck, rng| {
            draw(deck, 10, rng);
            let (s, d) = strengths(deck);
            s as usize + d as usize
        }),
        4 => time_part(|deck, rng| {
            draw(deck, 10, rng);
            let (s, d) = strengths(deck);
            decide(deck, s, d) + s as usize
        }),
        5 => time_part(|deck, rng| {
            draw(deck, 10, rng);
            let (s, d) = strengths(deck);
            let at = [0, g.first.of(s), g.classes.of(s), 0, decide(deck, s, d)];
            cells[cell_index(&shape, at)] += 1;
            0
        }),
        6 => time_tagged_part(t, |deck, rng| {
            draw(deck, 10, rng);
            (deck[0] >> 56) as usize + (deck[9] >> 56) as usize
        }),
        7 => time_tagged_part(t, |deck, rng| {
            draw(deck, 10, rng);
            tagged(deck, 0) as usize + tagged(deck, 5) as usize
        }),
        8 => time_tagged_part(t, |deck, rng| {
            draw(deck, 10, rng);
            let (s, d) = (tagged(deck, 0), tagged(deck, 5));
            masked(s, d)
        }),
        9 => time_tagged_part(t, |deck, rng| {
            draw(deck, 10, rng);
            let (s, d) = (tagged(deck, 0), tagged(deck, 5));
            cells[masked(s, d)] += 1;
            0
        }),
        10 => time_round_by_round(t, g),
        _ => time_loop(t, g),
    });
}

/// Hold'em's decision table before: a bit per flop class and sorted renamed pair (1,755 by
/// 1,326, 291 KB, all set: always call), reached by the sorted flop's index, its class and
/// renaming (a u32 each), and the renamed pair sorted and indexed.
struct SortedCompact {
    bits: Vec<u64>,
    flops: Vec<u32>,
    renamed: [[u8; 64]; 24],
}

impl SortedCompact {
    fn new() -> Self {
        let mut classes = std::collections::HashMap::new();
        let mut flops = vec![0u32; TRIPLES];
        for (a, b, c) in (0..52u8)
            .flat_map(|a| (a + 1..52).flat_map(move |b| (b + 1..52).map(move |c| (a, b, c))))
        {
            let flop = [a, b, c];
            let least = canonical(&flop, &ALL_PERMS);
            let perm = ALL_PERMS.iter().position(|p| image(&flop, p) == least);
            let next = classes.len();
            let class = *classes.entry(least).or_insert(next);
            flops[index_of(&flop)] = class as u32 * 32 + perm.unwrap_or(0) as u32;
        }
        let renamed = std::array::from_fn(|p| {
            std::array::from_fn(|c| {
                if c < 52 {
                    rename(c as u8, &ALL_PERMS[p])
                } else {
                    0
                }
            })
        });
        SortedCompact {
            bits: vec![u64::MAX; (classes.len() * PAIRS).div_ceil(64)],
            flops,
            renamed,
        }
    }

    fn calls(&self, hole: [u8; 2], flop: [u8; 3]) -> usize {
        let entry = self.flops[index_of(&network(flop))];
        let rename = &self.renamed[entry as usize % 32];
        let (a, b) = (rename[hole[0] as usize & 63], rename[hole[1] as usize & 63]);
        let bit = (entry / 32) as usize * PAIRS + index_of(&[a.min(b), a.max(b)]);
        self.bits
            .get(bit / 64)
            .map_or(0, |w| (w >> (bit % 64) & 1) as usize)
    }
}

/// Three cards sorted without branches.
fn network([a, b, c]: [u8; 3]) -> [u8; 3] {
    let (a, b) = (a.min(b), a.max(b));
    let (b, c) = (b.min(c), b.max(c));
    [a.min(b), a.max(b), c]
}

/// Hold'em's loop before its stages: a batch's decisions, then each round evaluated (keys on
/// the shared board, a flush test per hand) and counted in turn.
fn holdem_loop_before(t: &Tables, g: &HoldemGame) -> f64 {
    let mut counts = vec![0u64; g.cells()];
    let mut rng = chunk_rng(1, 0);
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    let shape = g.shape();
    let start = Instant::now();
    in_batches::<9>(&mut deck, &mut rng, PART_ROUNDS, |deals, n| {
        let calls: [bool; BATCH] = std::array::from_fn(|i| {
            let d = &deals[i];
            g.decisions.calls(&[d[0], d[1]], &[d[4], d[5], d[6]])
        });
        for (d, &call) in deals[..n].iter().zip(&calls) {
            let (f, s, dealer) = keys_per_hand(t, d);
            let outcome = call as usize * showdown(s, dealer, g.qualifier);
            counts[cell_index(&shape, [0, g.first.of(f), g.classes.of(s), 0, outcome])] += 1;
        }
    });
    black_box(&counts);
    start.elapsed().as_secs_f64() * 1e9 / PART_ROUNDS as f64
}

/// A round's three strengths from keys on the shared board, each hand tested for a flush and
/// its card mask built in line (before `holdem::strengths`).
#[inline(always)]
fn keys_per_hand(t: &Tables, d: &[u8]) -> (u16, u16, u16) {
    let flop = t.key_of(&d[4..7]);
    let board = flop + t.key_of(&d[7..9]);
    let (hole, dealer) = (t.key_of(&d[..2]), t.key_of(&d[2..4]));
    let seven = |a: u8, b: u8| [a, b, d[4], d[5], d[6], d[7], d[8]];
    (
        t.strength_from_key(flop + hole, &[d[0], d[1], d[4], d[5], d[6]]),
        t.strength_from_key(board + hole, &seven(d[0], d[1])),
        t.strength_from_key(board + dealer, &seven(d[2], d[3])),
    )
}

fn holdem_parts(t: &Tables, g: &HoldemGame) {
    // The table it replaced: a bit per concrete (pair, flop), all set (always call), 3.7 MB.
    let full = vec![u64::MAX; (PAIRS * TRIPLES).div_ceil(64)];
    let mut cells = vec![0u64; g.cells()];
    let shape = g.shape();
    let sorted_flop = |deck: &[u8; 52]| {
        let mut flop = [deck[4], deck[5], deck[6]];
        flop.sort_unstable();
        flop
    };
    // Before: each seven cards' key from the board's key and a pass over the cards for a flush.
    let by_slices = |deck: &[u8; 52]| {
        let board = [deck[4], deck[5], deck[6], deck[7], deck[8]];
        let board_key = t.key_of(&board);
        let seven = |a: u8, b: u8| [a, b, board[0], board[1], board[2], board[3], board[4]];
        let seat = t.strength_from_key(board_key + t.key_of(&deck[..2]), &seven(deck[0], deck[1]));
        let first = t.strength(&[deck[0], deck[1], deck[4], deck[5], deck[6]]);
        let dealer =
            t.strength_from_key(board_key + t.key_of(&deck[2..4]), &seven(deck[2], deck[3]));
        first as usize + seat as usize + dealer as usize
    };
    // Before: the flop's and the board's keys once, each side's two cards' keys added.
    let keys = |d: &[u8; 52]| keys_per_hand(t, &d[..9]);
    // The loop's: the same keys, one flush test for both sevens, the slow way out of line.
    let deal_of = |d: &[u8; 52]| -> [u8; 9] { std::array::from_fn(|i| d[i]) };
    let one_test = |d: &[u8; 52]| strengths(t, &deal_of(d));
    // The same with `Hand`s (a key and a card mask; two adds a card).
    let incremental = |deck: &[u8; 52]| {
        let flop = Hand::of(&deck[4..7]);
        let board = flop.add_card(deck[7]).add_card(deck[8]);
        let hole = |h: Hand| h.add_card(deck[0]).add_card(deck[1]);
        let dealer = board.add_card(deck[2]).add_card(deck[3]);
        (
            hole(flop).strength(t),
            hole(board).strength(t),
            dealer.strength(t),
        )
    };
    let full_table = |deck: &[u8; 52], flop: [u8; 3]| {
        let hole = [deck[0].min(deck[1]), deck[0].max(deck[1])];
        let bit = index_of(&hole) * TRIPLES + index_of(&flop);
        (full[bit / 64] >> (bit % 64) & 1) as usize
    };
    let sorted_compact = SortedCompact::new();
    let compact_before =
        |deck: &[u8; 52]| sorted_compact.calls([deck[0], deck[1]], [deck[4], deck[5], deck[6]]);
    let compact = |deck: &[u8; 52]| {
        g.decisions
            .calls(&[deck[0], deck[1]], &[deck[4], deck[5], deck[6]]) as usize
    };
    let names = [
        "deal (before: a word per 2 cards)",
        "deal (batched: one word)",
        "deal + evaluations (before: by slices)",
        "deal + evaluations (Hand on the shared board)",
        "deal + evaluations (keys on the shared board)",
        "deal + evaluations (the same, one flush test)",
        "deal + evaluations + decision (before: 3.7 MB)",
        "  the same, the flop sorted without branches",
        "deal + evaluations + decision (before: 291 KB)",
        "deal + evaluations + decision (593 KB, no sort)",
        "deal + evaluations + decision + count",
        "the real loop, round by round (play_round)",
        "the real loop before (batches, then per round)",
        "the real loop (Game::play_rounds: stages)",
    ];
    report("holdem", &names, |part| match part {
        0 => time_part(|deck, rng| {
            draw_pairs(deck, 9, rng);
            deck[0] as usize + deck[8] as usize
        }),
        1 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            deck[0] as usize + deck[8] as usize
        }),
        2 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            by_slices(deck)
        }),
        3 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            let (f, s, d) = incremental(deck);
            f as usize + s as usize + d as usize
        }),
        4 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            let (f, s, d) = keys(deck);
            f as usize + s as usize + d as usize
        }),
        5 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            let [f, s, d] = one_test(deck);
            f as usize + s as usize + d as usize
        }),
        6 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            let call = full_table(deck, sorted_flop(deck));
            let (f, s, d) = keys(deck);
            call * showdown(s, d, g.qualifier) + f as usize
        }),
        7 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            let call = full_table(deck, network([deck[4], deck[5], deck[6]]));
            let (f, s, d) = keys(deck);
            call * showdown(s, d, g.qualifier) + f as usize
        }),
        8 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            let call = compact_before(deck);
            let (f, s, d) = keys(deck);
            call * showdown(s, d, g.qualifier) + f as usize
        }),
        9 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            let call = compact(deck);
            let [f, s, d] = one_test(deck);
            call * showdown(s, d, g.qualifier) + f as usize
        }),
        10 => time_part(|deck, rng| {
            draw(deck, 9, rng);
            let call = compact(deck);
            let [f, s, d] = one_test(deck);
            let outcome = call * showdown(s, d, g.qualifier);
            cells[cell_index(&shape, [0, g.first.of(f), g.classes.of(s), 0, outcome])] += 1;
            0
        }),
        11 => time_round_by_round(t, g),
        12 => holdem_loop_before(t, g),
        _ => time_loop(t, g),
    });
}
