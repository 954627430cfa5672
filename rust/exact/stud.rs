//! Caribbean Stud by full enumeration: for every player hand and dealer up card, how many of the
//! dealer's 163,185 possible hidden hands do not qualify, lose to, tie or beat the player.
//!
//! Up cards are taken as clubs (each stands for its four suits), and player hands up to a
//! renaming of the other three suits. For a player hand P and up card u, the dealer hands that
//! avoid P are counted by inclusion and exclusion over the subsets S of P: the hands holding all
//! of S, with tables by S's size built once per up card (see `UpCardTables`).

use super::symmetry::{canonical_orbit, combinations, CLUB_FIXING_PERMS};
use crate::cards::{Card, DECK_SIZE};
use crate::combinations::{choose, index_of};
use crate::eval::{tables, Tables, DISTINCT_STRENGTHS};
use rayon::prelude::*;

/// Hidden dealer hands against one player hand: C(46, 4).
pub const DEALER_HANDS: u32 = 163_185;
const STRENGTHS: usize = DISTINCT_STRENGTHS as usize + 2;
/// Hidden dealer hands holding three given cards: the fourth is any of the other 48.
const TRIPLE_HANDS: usize = OTHERS - 3;

/// One canonical situation: a player hand against an up card, with its counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StudSituation {
    /// The up card's rank (its suit is clubs; the weight counts all four suits).
    pub up_rank: u8,
    /// The player's five cards, sorted, canonical under renamings of diamonds, hearts, spades.
    pub hand: [Card; 5],
    /// How many (player hand, up card) pairs this situation stands for.
    pub weight: u32,
    /// The player's strength.
    pub strength: u16,
    /// Dealer hidden hands: not qualifying, qualifying and lower, equal, higher.
    pub counts: [u32; 4],
}

/// Cards other than the up card, and the hidden dealer hands that hold three given ones of them.
const OTHERS: usize = DECK_SIZE - 1;
const PAIRS_OF_OTHERS: usize = choose(OTHERS, 2);
const TRIPLES_OF_OTHERS: usize = choose(OTHERS, 3);

/// For one up card: every hidden dealer hand's strength, arranged so that "how many hidden hands
/// that hold all of S are weaker than x" is a lookup for |S| <= 2 and a binary search for 3.
struct UpCardTables {
    up: Card,
    /// Position of each card among the 51 others (255 for the up card itself).
    position: [u8; 52],
    below: Vec<u32>,           // [x]: hands weaker than x
    below_with: Vec<u32>,      // [card position * STRENGTHS + x]
    below_with_pair: Vec<u16>, // [pair index * STRENGTHS + x]
    triple_sorted: Vec<u16>,   // [triple index * TRIPLE_HANDS ..]: strengths, sorted
}

impl UpCardTables {
    fn build(t: &Tables, up: Card) -> Self {
        let others: Vec<Card> = (0..DECK_SIZE as Card).filter(|&c| c != up).collect();
        let mut position = [255u8; 52];
        others
            .iter()
            .enumerate()
            .for_each(|(i, &c)| position[c as usize] = i as u8);
        let mut counts = vec![0u32; STRENGTHS];
        let mut with = vec![0u32; OTHERS * STRENGTHS];
        let mut with_pair = vec![0u16; PAIRS_OF_OTHERS * STRENGTHS];
        let mut triple_sorted = vec![0u16; TRIPLES_OF_OTHERS * TRIPLE_HANDS];
        let mut triple_fill = vec![0u8; TRIPLES_OF_OTHERS];
        let positions: Vec<u8> = (0..OTHERS as u8).collect();
        for h in combinations::<4>(&positions) {
            let cards = [
                up,
                others[h[0] as usize],
                others[h[1] as usize],
                others[h[2] as usize],
                others[h[3] as usize],
            ];
            let s = t.strength(&cards);
            counts[s as usize] += 1;
            let [a, b, c, d] = h.map(usize::from);
            for i in [a, b, c, d] {
                with[i * STRENGTHS + s as usize] += 1;
            }
            for (i, j) in [(a, b), (a, c), (a, d), (b, c), (b, d), (c, d)] {
                with_pair[index_of(&[i, j]) * STRENGTHS + s as usize] += 1;
            }
            for (i, j, k) in [(a, b, c), (a, b, d), (a, c, d), (b, c, d)] {
                let p = index_of(&[i, j, k]);
                triple_sorted[p * TRIPLE_HANDS + triple_fill[p] as usize] = s;
                triple_fill[p] += 1;
            }
        }
        with_pair
            .chunks_mut(STRENGTHS)
            .for_each(prefix_sums_in_place);
        triple_sorted
            .chunks_mut(TRIPLE_HANDS)
            .for_each(|c| c.sort_unstable());
        UpCardTables {
            up,
            position,
            below: prefix_sums(&counts),
            below_with: with.chunks(STRENGTHS).flat_map(prefix_sums).collect(),
            below_with_pair: with_pair,
            triple_sorted,
        }
    }

    /// How many hidden hands avoiding all of `hand` (positions, sorted) are weaker than each of `xs`.
    fn weaker_avoiding(
        &self,
        t: &Tables,
        hand: &[usize; 5],
        cards: &[Card; 5],
        xs: [u16; 3],
    ) -> [i64; 3] {
        let mut n = xs.map(|x| self.below[x as usize] as i64);
        for &i in hand {
            for (k, &x) in xs.iter().enumerate() {
                n[k] -= self.below_with[i * STRENGTHS + x as usize] as i64;
            }
        }
        for a in 0..5 {
            for b in a + 1..5 {
                let row =
                    &self.below_with_pair[index_of(&[hand[a], hand[b]]) * STRENGTHS..][..STRENGTHS];
                for (k, &x) in xs.iter().enumerate() {
                    n[k] += row[x as usize] as i64;
                }
                for c in b + 1..5 {
                    let row = &self.triple_sorted
                        [index_of(&[hand[a], hand[b], hand[c]]) * TRIPLE_HANDS..][..TRIPLE_HANDS];
                    for (k, &x) in xs.iter().enumerate() {
                        n[k] -= row.partition_point(|&s| s < x) as i64;
                    }
                }
            }
        }
        for skip in 0..5 {
            let mut four = [self.up; 5];
            (0..5)
                .filter(|&i| i != skip)
                .enumerate()
                .for_each(|(j, i)| four[j + 1] = cards[i]);
            let s = t.strength(&four);
            for (k, &x) in xs.iter().enumerate() {
                n[k] += (s < x) as i64;
            }
        }
        n
    }

    fn situation(
        &self,
        t: &Tables,
        hand: &[Card; 5],
        weight: u32,
        qualifier: u16,
    ) -> StudSituation {
        let strength = t.strength(hand);
        let positions = hand.map(|c| self.position[c as usize] as usize);
        let [no_qualify, lower, lower_or_equal] =
            self.weaker_avoiding(t, &positions, hand, [qualifier, strength, strength + 1]);
        let (win, tie) = if strength >= qualifier {
            (lower - no_qualify, lower_or_equal - lower)
        } else {
            (0, 0)
        };
        let lose = DEALER_HANDS as i64 - no_qualify - win - tie;
        StudSituation {
            up_rank: self.up / 4,
            hand: *hand,
            weight,
            strength,
            counts: [no_qualify, win, tie, lose].map(|n| n as u32),
        }
    }
}

/// Turns counts by strength into counts of everything weaker: `row[x]` = sum of `row[..x]`.
fn prefix_sums_in_place(row: &mut [u16]) {
    let mut total = 0;
    for slot in row.iter_mut() {
        (*slot, total) = (total, total + *slot);
    }
}

fn prefix_sums(counts: &[u32]) -> Vec<u32> {
    let mut out = vec![0u32; STRENGTHS];
    for x in 1..STRENGTHS {
        out[x] = out[x - 1] + counts[x - 1];
    }
    out
}

/// Every player hand canonical under renamings that keep clubs, with its orbit size.
fn canonical_hands() -> Vec<([Card; 5], u32)> {
    let deck: Vec<Card> = (0..52).collect();
    combinations::<5>(&deck)
        .into_par_iter()
        .filter_map(|h| canonical_orbit(&h, &CLUB_FIXING_PERMS).map(|w| (h, w)))
        .collect()
}

/// Every canonical situation for a dealer that qualifies from strength `qualifier` up; the
/// weights add up to 52 * C(51, 5) and each row's counts to 163,185.
///
/// ```
/// use caribbean_fast::combinations::choose;
/// use caribbean_fast::eval::{strength, LOWEST_ACE_KING};
/// use caribbean_fast::exact::stud::{direct_counts, enumerate, DEALER_HANDS};
///
/// let qualifier = strength(&LOWEST_ACE_KING); // the dealer qualifies with Ace-King or better
/// let rows = enumerate(qualifier); // every deal, a few seconds on two cores
/// let deals: u64 = rows.iter().map(|r| u64::from(r.weight)).sum();
/// assert_eq!(deals, 52 * choose(51, 5) as u64);
/// assert!(rows.iter().all(|r| r.counts.iter().sum::<u32>() == DEALER_HANDS));
/// // Any row agrees with the slow count of its own deal (the up card is a club: id 4 * rank).
/// let row = rows[rows.len() / 2];
/// assert_eq!(row.counts, direct_counts(&row.hand, 4 * row.up_rank, qualifier));
/// ```
pub fn enumerate(qualifier: u16) -> Vec<StudSituation> {
    enumerate_with_progress(qualifier, &|_| {})
}

/// `enumerate`, calling `progress(fraction done)` after each up card.
pub fn enumerate_with_progress(
    qualifier: u16,
    progress: &(dyn Fn(f64) + Sync),
) -> Vec<StudSituation> {
    let t = tables();
    let hands = canonical_hands();
    let done = std::sync::atomic::AtomicU32::new(0);
    // One up card per task: each builds its own tables and walks every hand against them.
    let by_up: Vec<Vec<StudSituation>> = (0..13u8)
        .into_par_iter()
        .map(|up_rank| {
            let up = 4 * up_rank; // clubs, standing for all four suits
            let up_tables = UpCardTables::build(t, up);
            let rows = hands
                .iter()
                .filter(|(h, _)| !h.contains(&up))
                .map(|(h, w)| up_tables.situation(t, h, 4 * w, qualifier))
                .collect();
            progress((done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1) as f64 / 13.0);
            rows
        })
        .collect();
    by_up.concat()
}

/// The counts for one (hand, up card) by visiting every hidden dealer hand: the slow check.
///
/// ```
/// use caribbean_fast::cards::parse_card;
/// use caribbean_fast::eval::{strength, LOWEST_ACE_KING};
/// use caribbean_fast::exact::stud::{direct_counts, DEALER_HANDS};
///
/// let qualifier = strength(&LOWEST_ACE_KING);
/// let hand = ["Ah", "Ad", "Kc", "7s", "2h"].map(|c| parse_card(c).unwrap());
/// let up = parse_card("Qc").unwrap();
/// let [not_qualifying, lower, equal, higher] = direct_counts(&hand, up, qualifier);
/// assert_eq!(not_qualifying + lower + equal + higher, DEALER_HANDS);
/// assert!(lower > higher); // a pair of aces beats most qualifying dealers
/// ```
pub fn direct_counts(hand: &[Card; 5], up: Card, qualifier: u16) -> [u32; 4] {
    let t = tables();
    let rest: Vec<Card> = (0..52).filter(|c| *c != up && !hand.contains(c)).collect();
    let player = t.strength(hand);
    let mut counts = [0u32; 4];
    for hidden in combinations::<4>(&rest) {
        let dealer = t.strength(&[up, hidden[0], hidden[1], hidden[2], hidden[3]]);
        let k = if dealer < qualifier {
            0
        } else if dealer < player {
            1
        } else if dealer == player {
            2
        } else {
            3
        };
        counts[k] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card;

    fn cards(text: &str) -> [Card; 5] {
        let mut h: Vec<Card> = text
            .split_whitespace()
            .map(|w| parse_card(w).expect(w))
            .collect();
        h.sort_unstable();
        h.try_into().expect("five cards")
    }

    #[test]
    fn fast_counts_equal_direct_enumeration() {
        let t = tables();
        let ak = t.strength(&cards("As Kd 4h 3c 2s"));
        for (hand, up) in [
            ("As Kd Qh 7c 3s", "Kc"),
            ("9h 9d 5c 5s 2h", "2c"),
            ("Ah Kh Qh Jh Th", "7c"),
            ("7s 5h 4d 3c 2s", "Ac"),
            ("Ac Kd 4h 3c 2s", "5c"),
            ("8c 8d 8h Ks 2d", "8s"),
        ] {
            let (hand, up) = (cards(hand), parse_card(up).expect(up));
            let canonical_up = 4 * (up / 4);
            let table = UpCardTables::build(t, canonical_up);
            // Rename suits so that the up card is a club, as the enumeration does.
            let perm = super::super::symmetry::ALL_PERMS
                .iter()
                .find(|p| p[(up % 4) as usize] == 0)
                .expect("a perm");
            let renamed = super::super::symmetry::image(&hand, perm);
            let fast = table.situation(t, &renamed, 1, ak);
            assert_eq!(fast.counts, direct_counts(&hand, up, ak), "{hand:?} {up}");
            assert_eq!(fast.counts.iter().sum::<u32>(), DEALER_HANDS);
        }
    }

    #[test]
    fn weights_cover_every_deal() {
        let rows = enumerate(1);
        let weight: u64 = rows.iter().map(|r| r.weight as u64).sum();
        assert_eq!(weight, 52 * 2_349_060);
        let deals: u64 = rows
            .iter()
            .map(|r| r.weight as u64 * r.counts.iter().sum::<u32>() as u64)
            .sum();
        assert_eq!(deals, 19_933_230_517_200);
        assert!(rows.iter().all(|r| r.counts[0] == 0)); // strength 1 qualifies everything
    }
}
