//! Casino Hold'em by full enumeration: for every seat's two cards and flop, how the turn, the
//! river and the dealer's two cards end, by the seat's final class and the showdown.
//!
//! The walk goes board by board (five community cards, one per class of suit renamings). On a
//! board, every pair of the other 47 cards is a possible hand for either side; sorted by
//! strength, each pair's rank tells how many dealer pairs it beats or ties, and per-card counts
//! remove the dealer pairs that share a card with the seat (inclusion and exclusion). Each
//! (board, seat pair) then adds to the ten situations whose flop is three of the board's cards.

use super::symmetry::{
    canonical, canonical_orbit, combinations, image, rename, SuitPerm, ALL_PERMS,
};
use crate::cards::Card;
use crate::combinations::{index_of, PAIRS};
use crate::eval::{tables, HandClass, Tables};
use crate::layout::{HOLDEM_CLASS_SLOTS, SHOWDOWNS};
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Dealer pairs against one seat and board: C(45, 2).
pub const DEALER_PAIRS: u32 = 990;
/// Deals that follow one seat's two cards and flop: turns and rivers, C(47, 2), times the
/// dealer's pairs.
pub const DEALS_PER_FLOP: u64 = crate::combinations::choose(47, 2) as u64 * DEALER_PAIRS as u64;
/// Class slots of a final hand (`layout::HOLDEM_CLASS_SLOTS`).
pub const CLASSES: usize = HOLDEM_CLASS_SLOTS.len();
/// Showdown outcomes (`layout::SHOWDOWNS`).
pub const OUTCOMES: usize = SHOWDOWNS.len();
const CELLS: usize = CLASSES * OUTCOMES;
const NO_SITUATION: u32 = u32::MAX;

/// The situations (two cards, flop) up to suit renaming, and how to find one from any deal.
pub struct Situations {
    /// Per situation: hole cards then flop, as dealt in the canonical flop's suits.
    pub cards: Vec<[Card; 5]>,
    /// Per situation: how many concrete (two cards, flop) it stands for.
    pub weight: Vec<u32>,
    /// Per flop index (combinatorial, 22,100): its canonical flop and the renaming to it.
    flop_canon: Vec<(u32, u8)>,
    /// Per canonical flop, per pair index (1,326): the situation id.
    by_flop_pair: Vec<u32>,
}

/// The index of two cards in either order.
fn pair_index(a: Card, b: Card) -> usize {
    index_of(&[a.min(b), a.max(b)])
}

impl Situations {
    /// Every situation, and the tables that find one from any deal.
    ///
    /// ```
    /// use caribbean_fast::combinations::choose;
    /// use caribbean_fast::exact::holdem::Situations;
    ///
    /// let situations = Situations::build();
    /// let concrete: usize = situations.weight.iter().map(|&w| w as usize).sum();
    /// assert_eq!(concrete, choose(52, 2) * choose(50, 3)); // two cards, then a flop of the rest
    /// // A deal and its image under a renaming of suits (clubs and spades swapped) are one
    /// // situation: As Ks on 2c 7c Qh, and Ac Kc on 2s 7s Qh.
    /// let a = situations.find(&[51, 47], &[0, 20, 42]);
    /// let b = situations.find(&[48, 44], &[3, 23, 42]);
    /// assert_eq!(a, b);
    /// ```
    pub fn build() -> Self {
        let deck: Vec<Card> = (0..52).collect();
        let flops = combinations::<3>(&deck);
        let canon_flops: Vec<[Card; 3]> = flops
            .iter()
            .filter(|f| canonical_orbit(f, &ALL_PERMS).is_some())
            .copied()
            .collect();
        let canon_id = |f: &[Card; 3]| {
            canon_flops
                .binary_search(f)
                .map(|i| i as u32)
                .unwrap_or(NO_SITUATION)
        };
        let mut flop_canon = vec![(0u32, 0u8); flops.len()];
        for f in &flops {
            let (p, im) = ALL_PERMS
                .iter()
                .enumerate()
                .map(|(i, p)| (i, image(f, p)))
                .min_by_key(|&(_, im)| im)
                .expect("perms");
            flop_canon[index_of(f)] = (canon_id(&im), p as u8);
        }
        let mut cards = Vec::new();
        let mut by_flop_pair = vec![NO_SITUATION; canon_flops.len() * PAIRS];
        for (fid, f) in canon_flops.iter().enumerate() {
            let stabiliser: Vec<SuitPerm> = ALL_PERMS
                .iter()
                .copied()
                .filter(|p| image(f, p) == *f)
                .collect();
            let rest: Vec<Card> = deck.iter().copied().filter(|c| !f.contains(c)).collect();
            for hole in combinations::<2>(&rest) {
                let least = canonical(&hole, &stabiliser);
                let slot = fid * PAIRS + pair_index(least[0], least[1]);
                if by_flop_pair[slot] == NO_SITUATION {
                    by_flop_pair[slot] = cards.len() as u32;
                    cards.push([least[0], least[1], f[0], f[1], f[2]]);
                }
                by_flop_pair[fid * PAIRS + pair_index(hole[0], hole[1])] = by_flop_pair[slot];
            }
        }
        let mut s = Situations {
            weight: vec![0; cards.len()],
            cards,
            flop_canon,
            by_flop_pair,
        };
        for f in &flops {
            let rest: Vec<Card> = deck.iter().copied().filter(|c| !f.contains(c)).collect();
            for hole in combinations::<2>(&rest) {
                let id = s.find(&hole, f);
                s.weight[id as usize] += 1;
            }
        }
        s
    }

    /// The situation of a seat's two cards and a sorted flop.
    #[inline]
    pub fn find(&self, hole: &[Card; 2], flop: &[Card; 3]) -> u32 {
        let (fid, perm) = self.flop_canon[index_of(flop)];
        let p = &ALL_PERMS[perm as usize];
        let [a, b] = hole.map(|c| rename(c, p));
        self.by_flop_pair[fid as usize * PAIRS + pair_index(a, b)]
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

/// The class slot of a strength (`layout::HOLDEM_CLASS_SLOTS`: every class but Ace-King).
fn class_slot(t: &Tables, strength: u16) -> usize {
    let c = t.class_of(strength) as usize;
    c - (c > HandClass::AceKing as usize) as usize
}

/// On one board: every pair of the other 47 cards with its strength and, against the dealer
/// pairs that share no card with it, how many do not qualify, lose, tie.
struct BoardPairs {
    pairs: Vec<(u16, Card, Card)>,
    no_qualify: Vec<u32>,
    lower: Vec<u32>,
    equal: Vec<u32>,
}

fn board_pairs(t: &Tables, board: &[Card; 5], qualifier: u16) -> BoardPairs {
    let rest: Vec<Card> = (0..52).filter(|c| !board.contains(c)).collect();
    let board_key = t.key_of(board);
    let mut cards = [board[0], board[1], board[2], board[3], board[4], 0, 0];
    let mut pairs: Vec<(u16, Card, Card)> = Vec::with_capacity(1081);
    for (i, &a) in rest.iter().enumerate() {
        for &b in &rest[i + 1..] {
            cards[5] = a;
            cards[6] = b;
            pairs.push((
                t.strength_from_key(board_key + t.card_key(a) + t.card_key(b), &cards),
                a,
                b,
            ));
        }
    }
    pairs.sort_unstable();
    let n = pairs.len();
    let (mut lower, mut equal) = (vec![0u32; n], vec![0u32; n]);
    // Walk groups of equal strength upwards, counting by card what lies below.
    let mut below_with = [0u32; 52];
    let mut below_q_with: Option<([u32; 52], u32)> = None;
    let mut start = 0;
    while start < n {
        let s = pairs[start].0;
        let end = start + pairs[start..].iter().take_while(|p| p.0 == s).count();
        if s >= qualifier && below_q_with.is_none() {
            below_q_with = Some((below_with, start as u32));
        }
        let mut in_group = [0u32; 52];
        for &(_, a, b) in &pairs[start..end] {
            in_group[a as usize] += 1;
            in_group[b as usize] += 1;
        }
        for (k, &(_, a, b)) in pairs[start..end].iter().enumerate() {
            let (a, b) = (a as usize, b as usize);
            lower[start + k] = start as u32 - below_with[a] - below_with[b];
            equal[start + k] = (end - start) as u32 + 1 - in_group[a] - in_group[b];
        }
        for &(_, a, b) in &pairs[start..end] {
            below_with[a as usize] += 1;
            below_with[b as usize] += 1;
        }
        start = end;
    }
    let (q_with, q_all) = below_q_with.unwrap_or((below_with, n as u32));
    let no_qualify = pairs
        .iter()
        .map(|&(s, a, b)| q_all - q_with[a as usize] - q_with[b as usize] + (s < qualifier) as u32)
        .collect();
    BoardPairs {
        pairs,
        no_qualify,
        lower,
        equal,
    }
}

/// The ten flops of a board, with their canonical forms, as (flop, the two other cards).
fn flops_of(board: &[Card; 5]) -> impl Iterator<Item = [Card; 3]> + '_ {
    (0..5)
        .flat_map(move |i| (i + 1..5).map(move |j| (i, j)))
        .map(move |(i, j)| {
            let mut f = [0; 3];
            (0..5)
                .filter(|&k| k != i && k != j)
                .enumerate()
                .for_each(|(n, k)| f[n] = board[k]);
            f
        })
}

/// Seat outcome counts for a seat of strength `s` given its pair's board counts.
fn outcome_counts(s: u16, qualifier: u16, no_qualify: u32, lower: u32, equal: u32) -> [u32; 4] {
    let (win, tie) = if s >= qualifier {
        (lower - no_qualify, equal)
    } else {
        (0, 0)
    };
    [no_qualify, win, tie, DEALER_PAIRS - no_qualify - win - tie]
}

/// Counts per situation, `CELLS` per row (class slot * 4 + outcome), weighted to cover every
/// deal: rows add up to weight * C(47, 2) * C(45, 2).
///
/// Not run as a test (it walks every board: half a minute on two cores); `direct_counts` shows
/// the same counts for one situation.
///
/// ```no_run
/// use caribbean_fast::cards::parse_card;
/// use caribbean_fast::eval::strength;
/// use caribbean_fast::exact::holdem::{direct_counts, enumerate, Situations, CLASSES, OUTCOMES};
///
/// let qualifier = strength(&["4c", "4d", "5h", "3s", "2c"].map(|c| parse_card(c).unwrap()));
/// let situations = Situations::build();
/// let counts = enumerate(&situations, qualifier);
/// let row = |id: usize| &counts[id * CLASSES * OUTCOMES..][..CLASSES * OUTCOMES];
/// // A situation's row is its weight times the counts of any one deal it stands for.
/// let (hole, flop) = ([51, 47], [0, 20, 42]); // As Ks, 2c 7c Qh
/// let id = situations.find(&hole, &flop) as usize;
/// let one = direct_counts(&hole, &flop, qualifier);
/// assert!(row(id).iter().zip(one).all(|(&n, d)| n == situations.weight[id] * d));
/// ```
pub fn enumerate(situations: &Situations, qualifier: u16) -> Vec<u32> {
    enumerate_with_progress(situations, qualifier, &|_| {})
}

/// Boards between two calls of the progress callback.
const PROGRESS_EVERY: usize = 2048;

/// `enumerate`, calling `progress(fraction done)` from time to time.
pub fn enumerate_with_progress(
    situations: &Situations,
    qualifier: u16,
    progress: &(dyn Fn(f64) + Sync),
) -> Vec<u32> {
    let t = tables();
    let deck: Vec<Card> = (0..52).collect();
    let boards: Vec<([Card; 5], u32)> = combinations::<5>(&deck)
        .into_par_iter()
        .filter_map(|b| canonical_orbit(&b, &ALL_PERMS).map(|w| (b, w)))
        .collect();
    // One table per worker, filled with plain adds, then summed: boards are handed out in turn.
    let next = AtomicUsize::new(0);
    let workers = rayon::current_num_threads();
    let tables_per_worker: Vec<Vec<u32>> = (0..workers)
        .into_par_iter()
        .map(|_| {
            let mut counts = vec![0u32; situations.len() * CELLS];
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((board, weight)) = boards.get(i) else {
                    break;
                };
                add_board(t, situations, board, *weight, qualifier, &mut counts);
                if i % PROGRESS_EVERY == 0 {
                    progress(i as f64 / boards.len() as f64);
                }
            }
            counts
        })
        .collect();
    tables_per_worker
        .into_iter()
        .reduce(|mut a, b| {
            a.par_iter_mut()
                .zip(b.par_iter())
                .for_each(|(x, y)| *x += y);
            a
        })
        .unwrap_or_default()
}

fn add_board(
    t: &Tables,
    situations: &Situations,
    board: &[Card; 5],
    weight: u32,
    qualifier: u16,
    counts: &mut [u32],
) {
    let bp = board_pairs(t, board, qualifier);
    let adds: Vec<(usize, [u32; 4])> = bp
        .pairs
        .iter()
        .enumerate()
        .map(|(k, &(s, ..))| {
            let add = outcome_counts(s, qualifier, bp.no_qualify[k], bp.lower[k], bp.equal[k]);
            (class_slot(t, s) * OUTCOMES, add.map(|n| n * weight))
        })
        .collect();
    // Flop by flop: one flop's situations sit together, so the adds stay in cache.
    for f in flops_of(board) {
        let (fid, perm) = situations.flop_canon[index_of(&f)];
        let by_pair = &situations.by_flop_pair[fid as usize * PAIRS..][..PAIRS];
        let p = &ALL_PERMS[perm as usize];
        for (&(_, a, b), &(cell, add)) in bp.pairs.iter().zip(&adds) {
            let id = by_pair[pair_index(rename(a, p), rename(b, p))] as usize;
            let row = &mut counts[id * CELLS + cell..][..OUTCOMES];
            row.iter_mut().zip(add).for_each(|(slot, n)| *slot += n);
        }
    }
}

/// One situation's counts by visiting every turn, river and dealer pair: the slow check.
///
/// ```
/// use caribbean_fast::cards::parse_card;
/// use caribbean_fast::eval::strength;
/// use caribbean_fast::exact::holdem::{direct_counts, DEALS_PER_FLOP, OUTCOMES};
///
/// // The dealer qualifies with a pair of fours or better: 4-4-5-3-2 is the lowest such hand.
/// let qualifier = strength(&["4c", "4d", "5h", "3s", "2c"].map(|c| parse_card(c).unwrap()));
/// let hole = ["As", "Ks"].map(|c| parse_card(c).unwrap());
/// let flop = ["Qs", "Js", "2d"].map(|c| parse_card(c).unwrap());
/// let counts = direct_counts(&hole, &flop, qualifier);
/// assert_eq!(counts.iter().map(|&n| u64::from(n)).sum::<u64>(), DEALS_PER_FLOP);
/// // Cells are (class slot, showdown): the top slot is the royal flush, made with Ts on the
/// // turn or river, which the dealer can only tie with a royal flush of its own (none is left).
/// let royal = &counts[counts.len() - OUTCOMES..];
/// assert_eq!(royal[0] + royal[1], 46 * 990); // Ts and any other card, every dealer pair
/// assert_eq!(royal[2] + royal[3], 0);
/// ```
pub fn direct_counts(hole: &[Card; 2], flop: &[Card; 3], qualifier: u16) -> [u32; CELLS] {
    let t = tables();
    let rest: Vec<Card> = (0..52)
        .filter(|c| !hole.contains(c) && !flop.contains(c))
        .collect();
    let mut out = [0u32; CELLS];
    for tr in combinations::<2>(&rest) {
        let seat = t.strength(&[hole[0], hole[1], flop[0], flop[1], flop[2], tr[0], tr[1]]);
        let dealer_cards: Vec<Card> = rest.iter().copied().filter(|c| !tr.contains(c)).collect();
        for d in combinations::<2>(&dealer_cards) {
            let dealer = t.strength(&[d[0], d[1], flop[0], flop[1], flop[2], tr[0], tr[1]]);
            let o = if dealer < qualifier {
                0
            } else if dealer < seat {
                1
            } else if dealer == seat {
                2
            } else {
                3
            };
            out[class_slot(t, seat) * OUTCOMES + o] += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn situations_cover_every_seat_and_flop() {
        let s = Situations::build();
        assert_eq!(
            s.weight.iter().map(|&w| w as u64).sum::<u64>(),
            (PAIRS * crate::combinations::choose(50, 3)) as u64
        );
        let (hole, flop) = ([51, 50], [0, 4, 8]);
        let id = s.find(&hole, &flop);
        // Renaming suits leads to the same situation.
        for p in ALL_PERMS.iter() {
            let f = image(&flop, p);
            let h = hole.map(|c| super::super::symmetry::rename(c, p));
            assert_eq!(s.find(&h, &f), id);
        }
    }

    #[test]
    fn full_walk_matches_direct_counts_and_covers_every_deal() {
        let t = tables();
        let q = t.strength(&[8, 9, 12, 4, 0]); // 4-4-5-3-2: a pair of fours
        let s = Situations::build();
        let counts = enumerate(&s, q);
        let deals: u64 = counts.iter().map(|&n| n as u64).sum();
        assert_eq!(deals, 27_813_810_024_000);
        for id in [0usize, 1234, 77_777, s.len() / 2, s.len() - 1] {
            let c = s.cards[id];
            let direct = direct_counts(&[c[0], c[1]], &[c[2], c[3], c[4]], q);
            let row = &counts[id * CELLS..][..CELLS];
            assert_eq!(
                row.to_vec(),
                direct.map(|n| n * s.weight[id]).to_vec(),
                "situation {id} {c:?}"
            );
        }
    }
}
