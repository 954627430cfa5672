//! Bulk simulation: rounds dealt from seeded streams, played by a decision table, counted by
//! outcome category (the Python side settles the counts).

use crate::eval::{tables, Tables, DISTINCT_STRENGTHS, STRENGTH_MASK, STRENGTH_SLOTS};
use crate::layout::{SIM_AXES, SIM_CLASSES, SIM_OUTCOMES};
use rayon::prelude::*;
use rng::{chunk_rng, Stream, CHUNK_ROUNDS};
use std::ops::Range;

pub mod decisions;
pub mod holdem;
pub mod one_seat;
pub mod rng;
pub mod seen;
pub mod stud;

/// Columns of the outcome axis (see `layout::SIM_OUTCOMES`).
pub const OUTCOMES: usize = SIM_OUTCOMES.len();
/// Columns of the class axis.
pub const CLASSES: usize = SIM_CLASSES;

/// The shape of a game's counts, by `layout::SIM_AXES`.
pub type Shape = [usize; SIM_AXES.len()];

/// The flat index of a cell at `at` in counts of `shape` (row-major, as numpy reshapes).
#[inline(always)]
pub fn cell_index(shape: &Shape, at: Shape) -> usize {
    at.iter()
        .zip(shape)
        .fold(0, |index, (&i, &n)| index * n + i)
}

/// How strengths fall into buckets: `cuts` are the lowest strengths of buckets 0, 1, ...
#[derive(Clone, Debug)]
pub struct Buckets {
    /// Bucket by strength, padded to a power of two so that a masked index needs no check.
    of_strength: Box<[u8; STRENGTH_SLOTS]>,
    pub count: usize,
}

impl Buckets {
    /// Buckets from ascending cut strengths, the first being 1; a cut of 0 marks an unused bucket.
    /// At most `layout::MAX_BUCKETS` cuts (the bindings check it).
    pub fn new(cuts: &[u16]) -> Self {
        let mut of_strength = Box::new([0u8; STRENGTH_SLOTS]);
        let strengths = DISTINCT_STRENGTHS as usize + 1;
        for (s, slot) in of_strength.iter_mut().enumerate().take(strengths) {
            *slot = cuts
                .iter()
                .rposition(|&c| c != 0 && c as usize <= s)
                .unwrap_or(0) as u8;
        }
        Buckets {
            of_strength,
            count: cuts.len(),
        }
    }

    #[inline]
    pub fn of(&self, strength: u16) -> usize {
        self.of_strength[strength as usize & STRENGTH_MASK] as usize
    }
}

/// The outcome column of a raised seat (1 + its `layout::SHOWDOWNS` column; 0 is folded).
#[inline]
pub fn showdown(seat: u16, dealer: u16, qualifier: u16) -> usize {
    // Without branches: which way a showdown goes is a coin flip no predictor can learn.
    let contest = 2 + (seat <= dealer) as usize + (seat < dealer) as usize;
    if dealer < qualifier {
        1
    } else {
        contest
    }
}

/// A game the simulator can play: each round records one count cell per seat.
pub trait Game: Sync {
    /// The shape of the game's counts, by `layout::SIM_AXES`.
    fn shape(&self) -> Shape;
    /// How many count cells the game's rounds fall into.
    fn cells(&self) -> usize {
        self.shape().iter().product()
    }
    /// Deals and plays one round from `deck` (in any order) and `rng`, recording each seat's cell.
    fn play_round(
        &self,
        t: &Tables,
        deck: &mut [u8; 52],
        rng: &mut Stream,
        record: &mut impl FnMut(usize),
    );
    /// Plays `rounds` rounds, adding one to each seat's cell of `counts`: `play_round` in turn,
    /// unless a game has a faster loop for a common case (which must count the same).
    fn play_rounds(
        &self,
        t: &Tables,
        deck: &mut [u8; 52],
        rng: &mut Stream,
        rounds: u64,
        counts: &mut [u64],
    ) {
        round_by_round(self, t, deck, rng, rounds, counts);
    }
}

/// Rounds dealt before any is played (`in_batches`).
pub const BATCH: usize = 16;

/// Deals `rounds` rounds of `N` cards from `deck` and `rng`, `BATCH` at a time, handing each
/// batch to `play` with how many of its deals are new: a batch's lookups overlap, where one
/// round's alone would wait for its own. The same cards in the same order as round by round.
#[inline(always)]
pub fn in_batches<const N: usize>(
    deck: &mut [u8; 52],
    rng: &mut Stream,
    rounds: u64,
    mut play: impl FnMut(&[[u8; N]; BATCH], usize),
) {
    let mut deals = [[0u8; N]; BATCH];
    let mut left = rounds as usize;
    while left > 0 {
        let n = left.min(BATCH);
        for d in &mut deals[..n] {
            rng::draw(deck, N, rng);
            *d = std::array::from_fn(|i| deck[i]);
        }
        play(&deals, n);
        left -= n;
    }
}

/// `Game::play_rounds` by `play_round`: each round's cells counted through the closure.
pub fn round_by_round<G: Game + ?Sized>(
    game: &G,
    t: &Tables,
    deck: &mut [u8; 52],
    rng: &mut Stream,
    rounds: u64,
    counts: &mut [u64],
) {
    for _ in 0..rounds {
        game.play_round(t, deck, rng, &mut |cell| counts[cell] += 1);
    }
}

pub(crate) fn add_counts(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
    a
}

/// Counts of the rounds of chunks `chunks` of a run of `total_rounds` rounds seeded `seed`.
///
/// ```
/// use caribbean_fast::eval::{strength, tables, HandClass, LOWEST_ACE_KING};
/// use caribbean_fast::sim::decisions::StudDecisions;
/// use caribbean_fast::sim::rng::CHUNK_ROUNDS;
/// use caribbean_fast::sim::stud::StudGame;
/// use caribbean_fast::sim::{simulate, Buckets, Game, OUTCOMES};
///
/// // Caribbean Stud, one seat that raises with Ace-King or better; the dealer qualifies alike.
/// let t = tables();
/// let ace_king = strength(&LOWEST_ACE_KING);
/// let class_cuts = HandClass::ALL.map(|c| match c {
///     HandClass::AceKing => ace_king,
///     _ => t.class_floor(c),
/// });
/// let game = StudGame {
///     seats: 1,
///     qualifier: ace_king,
///     decisions: StudDecisions::threshold(ace_king),
///     first: Buckets::new(&[1]), // one bucket: the first five cards are not told apart
///     classes: Buckets::new(&class_cuts),
///     exchange: None,
/// };
/// let rounds = 4 * CHUNK_ROUNDS;
/// let counts = simulate(&game, 7, 0..4, rounds);
/// assert_eq!((counts.len(), counts.iter().sum::<u64>()), (game.cells(), rounds));
/// // The cells are (seat, first, class, exchanges, outcome): here class * OUTCOMES + outcome,
/// // and outcome 0 is folded. Only hands below Ace-King fold.
/// let folded = |class: HandClass| counts[class as usize * OUTCOMES];
/// assert!(folded(HandClass::HighCard) > 0);
/// assert!(HandClass::ALL[1..].iter().all(|&c| folded(c) == 0));
/// // The same seed and chunks give the same counts, however the chunks are run.
/// let halves = [simulate(&game, 7, 0..2, rounds), simulate(&game, 7, 2..4, rounds)];
/// let joined: Vec<u64> = halves[0].iter().zip(&halves[1]).map(|(a, b)| a + b).collect();
/// assert_eq!(joined, counts);
/// ```
pub fn simulate<G: Game>(game: &G, seed: u64, chunks: Range<u64>, total_rounds: u64) -> Vec<u64> {
    let t = tables();
    chunks
        .into_par_iter()
        .map(|chunk| {
            let mut counts = vec![0u64; game.cells()];
            let mut rng = chunk_rng(seed, chunk);
            let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
            let rounds = CHUNK_ROUNDS.min(total_rounds.saturating_sub(chunk * CHUNK_ROUNDS));
            game.play_rounds(t, &mut deck, &mut rng, rounds, &mut counts);
            counts
        })
        .reduce(|| vec![0u64; game.cells()], add_counts)
}

/// Streams of sessions are apart from the streams of runs with the same seed.
const SESSION_SALT: u64 = 0x5e55_1015_0000_0001;

/// Plays sessions `sessions` of `rounds` rounds each, one seat starting with `bankroll` antes;
/// each round's net is `nets[cell]` antes, and a seat that cannot cover `worst_loss` stops,
/// ruined. Returns each session's final bankroll and whether it was ruined.
pub fn sessions<G: Game>(
    game: &G,
    seed: u64,
    sessions: Range<u64>,
    rounds: u64,
    nets: &[f64],
    bankroll: f64,
    worst_loss: f64,
) -> Vec<(f64, bool)> {
    let t = tables();
    sessions
        .into_par_iter()
        .map(|session| {
            let mut rng = chunk_rng(seed ^ SESSION_SALT, session);
            let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
            let mut money = bankroll;
            for _ in 0..rounds {
                if money < worst_loss {
                    return (money, true);
                }
                game.play_round(t, &mut deck, &mut rng, &mut |cell| {
                    money += nets.get(cell).copied().unwrap_or(0.0);
                });
            }
            (money, false)
        })
        .collect()
}
