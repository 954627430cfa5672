//! Caribbean Stud rounds: one to `layout::MAX_SEATS` seats and the dealer dealt from one
//! shuffled deck.

use super::decisions::StudDecisions;
use super::one_seat::{self, if_raised};
use super::rng::{draw, draw_after, Stream};
use super::seen::{card_mask, SeenValues};
use super::{cell_index, round_by_round, showdown, Buckets, Game, Shape, CLASSES, OUTCOMES};
use crate::cards::{rank, Card};
use crate::eval::Tables;

/// Which cards a seat keeps when it exchanges (game 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Exchange all five cards.
    Nothing,
    /// Keep an ace and a king, exchange the rest.
    AceKing,
}

/// When a seat exchanges.
pub enum When {
    /// While the hand is weaker than this strength.
    Below(u16),
    /// As the best strategy says, by exchanges left (`levels[0]`: one left).
    Table(Vec<ExchangeLevel>),
    /// As the best strategy says at the first decision; after an exchange, by the seat's own
    /// count given the cards it has seen (`seen`), which decides the call too.
    SeesDiscards(Vec<ExchangeLevel>, SeenValues),
}

/// The best strategy's exchanges with some number of exchanges left: against the up ranks in
/// `folds` (a bit per rank), every hand the seat would fold; and the hands it would call that
/// `called` marks (a fresh hand is worth more than the call there).
pub struct ExchangeLevel {
    pub folds: u16,
    pub called: StudDecisions,
}

impl ExchangeLevel {
    /// The level from canonical rows: each row's call decision and the fewest exchanges left
    /// with which it is exchanged (0: never).
    pub fn from_canonical(
        up_rank: &[u8],
        hands: &[[Card; 5]],
        raises: &[bool],
        exchange_from: &[u8],
        left: u8,
    ) -> Self {
        let swaps = |i: usize| exchange_from[i] != 0 && exchange_from[i] <= left;
        let folds = (0..hands.len())
            .filter(|&i| !raises[i] && swaps(i))
            .fold(0u16, |m, i| m | 1 << up_rank[i]);
        let called: Vec<bool> = (0..hands.len()).map(|i| raises[i] && swaps(i)).collect();
        ExchangeLevel {
            folds,
            called: StudDecisions::from_canonical(up_rank, hands, &called),
        }
    }
}

/// An exchange strategy: while `when` says so and fewer than `most` exchanges were made,
/// exchange the cards `keep` does not keep (each exchange costs its fee on settling).
pub struct Exchange {
    pub keep: Keep,
    pub when: When,
    pub most: usize,
}

impl Exchange {
    fn exchanges(&self, card: Card) -> bool {
        match self.keep {
            Keep::Nothing => true,
            Keep::AceKing => rank(card) < 11,
        }
    }

    /// Whether to exchange this hand with `left` exchanges left, given the call decision.
    #[inline]
    fn wants(
        &self,
        strength: u16,
        hand: &[Card; 5],
        up: Card,
        left: usize,
        calls: &StudDecisions,
    ) -> bool {
        match &self.when {
            When::Below(below) => strength < *below,
            When::Table(levels) | When::SeesDiscards(levels, _) => {
                let level = &levels[left - 1];
                if calls.raises(strength, hand, up) {
                    level.called.raises(strength, hand, up)
                } else {
                    level.folds >> rank(up) & 1 == 1
                }
            }
        }
    }
}

/// A table's fixed rules for simulation, compiled from the variant by the Python side.
pub struct StudGame {
    pub seats: usize,
    pub qualifier: u16,
    pub decisions: StudDecisions,
    /// Buckets of the first five cards' strength (the progressive's classes).
    pub first: Buckets,
    /// The variant's classes of the final hand.
    pub classes: Buckets,
    /// Game 4's exchanges, if the seat makes any (one seat only).
    pub exchange: Option<Exchange>,
}

impl StudGame {
    /// Columns of the exchanges axis: none, one, ... up to the plan's most.
    fn exchange_slots(&self) -> usize {
        self.exchange.as_ref().map_or(1, |x| x.most + 1)
    }
}

impl Game for StudGame {
    fn shape(&self) -> Shape {
        [
            self.seats,
            self.first.count,
            CLASSES,
            self.exchange_slots(),
            OUTCOMES,
        ]
    }

    fn play_round(
        &self,
        t: &Tables,
        deck: &mut [u8; 52],
        rng: &mut Stream,
        record: &mut impl FnMut(usize),
    ) {
        let shape = self.shape();
        let dealt = 5 * self.seats + 5;
        draw(deck, dealt, rng);
        let dealer = [
            deck[dealt - 5],
            deck[dealt - 4],
            deck[dealt - 3],
            deck[dealt - 2],
            deck[dealt - 1],
        ];
        let up = dealer[4];
        // Evaluated every round: cheaper than the mispredicted branch on whether a seat raised.
        let dealer_strength = t.strength(&dealer);
        let mut next = dealt; // the next undealt card: seats never draw one another's
        for seat in 0..self.seats {
            let mut hand = [
                deck[5 * seat],
                deck[5 * seat + 1],
                deck[5 * seat + 2],
                deck[5 * seat + 3],
                deck[5 * seat + 4],
            ];
            let first = t.strength(&hand);
            let (s, exchanges, call) = match &self.exchange {
                Some(x) => self.exchange(t, x, &mut hand, up, deck, &mut next, rng),
                None => (first, 0, None),
            };
            let raised = call.unwrap_or_else(|| self.decisions.raises(s, &hand, up));
            let outcome = if_raised(raised, showdown(s, dealer_strength, self.qualifier));
            let at = [
                seat,
                self.first.of(first),
                self.classes.of(s),
                exchanges,
                outcome,
            ];
            record(cell_index(&shape, at));
        }
    }

    fn play_rounds(
        &self,
        t: &Tables,
        deck: &mut [u8; 52],
        rng: &mut Stream,
        rounds: u64,
        counts: &mut [u64],
    ) {
        if self.seats == 1 && self.exchange.is_none() {
            one_seat::play(self, t, deck, rng, rounds, counts);
        } else {
            round_by_round(self, t, deck, rng, rounds, counts);
        }
    }
}

impl StudGame {
    /// Exchanges cards of `hand` by the plan, drawing from `deck` from `next` on (discarded
    /// cards stay out of play); returns the final strength, how many exchanges were made, and
    /// the call decision where the seat's seen cards decide it (None: the table's).
    #[allow(clippy::too_many_arguments)]
    fn exchange(
        &self,
        t: &Tables,
        x: &Exchange,
        hand: &mut [Card; 5],
        up: Card,
        deck: &mut [u8; 52],
        next: &mut usize,
        rng: &mut Stream,
    ) -> (u16, usize, Option<bool>) {
        self.play_exchanges(t, x, hand, up, |swap, hand| {
            if *next + swap.len() > 52 {
                return false;
            }
            draw_after(deck, *next, swap.len(), rng);
            for (k, &i) in swap.iter().enumerate() {
                hand[i] = deck[*next + k];
            }
            *next += swap.len();
            true
        })
    }

    /// The exchanges of `exchange`, each one's cards put into the hand's positions `swap` by
    /// `fresh` (false: no cards left).
    fn play_exchanges(
        &self,
        t: &Tables,
        x: &Exchange,
        hand: &mut [Card; 5],
        up: Card,
        mut fresh: impl FnMut(&[usize], &mut [Card; 5]) -> bool,
    ) -> (u16, usize, Option<bool>) {
        let (mut made, mut strength, mut call) = (0, t.strength(hand), None);
        let mut seen = card_mask(hand) | 1 << up;
        loop {
            let left = x.most - made;
            let wants = match &x.when {
                When::SeesDiscards(_, v) if made > 0 => {
                    let class = self.classes.of(strength);
                    let value = v.call_value(t, strength, class, up, seen, self.qualifier);
                    call = Some(value > v.fold);
                    v.exchanges(up, left, value.max(v.fold))
                }
                _ => left > 0 && x.wants(strength, hand, up, left, &self.decisions),
            };
            if !wants {
                return (strength, made, call);
            }
            let swap: Vec<usize> = (0..5).filter(|&i| x.exchanges(hand[i])).collect();
            if swap.is_empty() || !fresh(&swap, hand) {
                return (strength, made, call);
            }
            seen |= card_mask(hand);
            made += 1;
            strength = t.strength(hand);
        }
    }

    /// The most exchanges the seat makes in a round.
    pub fn most_exchanges(&self) -> usize {
        self.exchange.as_ref().map_or(0, |x| x.most)
    }

    /// How many main cells `main_cell` numbers: (final class, exchanges made, outcome).
    pub fn main_cells(&self) -> usize {
        CLASSES * self.exchange_slots() * OUTCOMES
    }

    /// One seat's round on cards dealt in full: `hand`, the up card `up`, the dealer's strength
    /// and every exchange's cards in `spare`, in turn. Returns its main cell: (final class,
    /// exchanges made, outcome), numbered row-major.
    pub fn main_cell(
        &self,
        t: &Tables,
        hand: [Card; 5],
        up: Card,
        dealer: u16,
        spare: &[Card],
    ) -> usize {
        let mut hand = hand;
        let mut next = 0;
        let (s, made, call) = match &self.exchange {
            Some(x) => self.play_exchanges(t, x, &mut hand, up, |swap, hand| {
                if next + swap.len() > spare.len() {
                    return false;
                }
                for (k, &i) in swap.iter().enumerate() {
                    hand[i] = spare[next + k];
                }
                next += swap.len();
                true
            }),
            None => (t.strength(&hand), 0, None),
        };
        let raised = call.unwrap_or_else(|| self.decisions.raises(s, &hand, up));
        let outcome = if_raised(raised, showdown(s, dealer, self.qualifier));
        (self.classes.of(s) * self.exchange_slots() + made) * OUTCOMES + outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{tables, LOWEST_ACE_KING, STRENGTH_SLOTS};
    use crate::sim::decisions::LOOK_UP;
    use crate::sim::rng::CHUNK_ROUNDS;
    use crate::sim::{add_counts, simulate};

    fn game(seats: usize) -> StudGame {
        let t = tables();
        let floors: Vec<u16> = crate::eval::HandClass::ALL
            .iter()
            .map(|&c| t.class_floor(c))
            .collect();
        let mut cuts = floors;
        cuts[1] = 0; // no Ace-King class
        StudGame {
            seats,
            qualifier: t.strength(&LOWEST_ACE_KING),
            decisions: StudDecisions::threshold(t.strength(&[0, 1, 6, 10, 14])), // a pair of deuces
            first: Buckets::new(&cuts),
            classes: Buckets::new(&cuts),
            exchange: None,
        }
    }

    #[test]
    fn same_seed_same_counts_whatever_the_split() {
        let g = game(3);
        let total = 5 * CHUNK_ROUNDS / 2;
        let whole = simulate(&g, 11, 0..3, total);
        let parts = add_counts(simulate(&g, 11, 0..1, total), simulate(&g, 11, 1..3, total));
        assert_eq!(whole, parts);
        assert_eq!(whole.iter().sum::<u64>(), 3 * total);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("pool");
        assert_eq!(pool.install(|| simulate(&g, 11, 0..3, total)), whole);
        assert_ne!(simulate(&g, 12, 0..3, total), whole);
    }

    /// The counts of `simulate(g, seed, all chunks, total)` played round by round.
    fn round_by_round_counts(g: &StudGame, seed: u64, total: u64) -> Vec<u64> {
        let mut counts = vec![0u64; g.cells()];
        for chunk in 0..total.div_ceil(CHUNK_ROUNDS) {
            let mut rng = crate::sim::rng::chunk_rng(seed, chunk);
            let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
            let rounds = CHUNK_ROUNDS.min(total - chunk * CHUNK_ROUNDS);
            round_by_round(g, tables(), &mut deck, &mut rng, rounds, &mut counts);
        }
        counts
    }

    #[test]
    fn one_seat_counts_as_round_by_round() {
        let g = game(1);
        let total = 3 * CHUNK_ROUNDS;
        let fast = simulate(&g, 13, 0..3, total);
        assert_eq!(fast, round_by_round_counts(&g, 13, total));
        assert_eq!(fast.iter().sum::<u64>(), total);
    }

    /// One seat with a table like the best strategy's: fold below Ace-King, Ace-King by a rule
    /// of its suits and the up card (the cards decide), raise a pair or better.
    fn ace_king_rule_game() -> StudGame {
        let t = tables();
        let (mut up, mut hands, mut raises) = crate::sim::decisions::tests::ace_king_rows();
        let ace_king = t.strength(&LOWEST_ACE_KING)..t.class_floor(crate::eval::HandClass::OnePair);
        let mut rng = crate::sim::rng::chunk_rng(17, 0);
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        for _ in 0..200_000 {
            draw(&mut deck, 5, &mut rng);
            let hand = [deck[0], deck[1], deck[2], deck[3], deck[4]];
            let s = t.strength(&hand);
            if !ace_king.contains(&s) {
                up.push(0);
                hands.push(hand);
                raises.push(s >= ace_king.end);
            }
        }
        let mut g = game(1);
        g.decisions = StudDecisions::from_canonical(&up, &hands, &raises);
        g
    }

    #[test]
    fn one_seat_counts_as_round_by_round_when_the_cards_decide() {
        let g = ace_king_rule_game();
        let looked_up = (0..STRENGTH_SLOTS as u16)
            .filter(|&s| g.decisions.by_strength(s) == LOOK_UP)
            .count();
        assert!(looked_up > 100, "{looked_up}");
        // A last chunk that ends inside a block of deferred rounds too.
        let total = 2 * CHUNK_ROUNDS + 13;
        let fast = simulate(&g, 19, 0..3, total);
        assert_eq!(fast, round_by_round_counts(&g, 19, total));
        // Ace-King high both raised and folded: the high-card class's cells, first bucket 0.
        let ace_king_cells = &fast[..OUTCOMES];
        assert!(ace_king_cells[0] > 0 && ace_king_cells[1..].iter().sum::<u64>() > 0);
    }

    #[test]
    fn exchanges_are_counted_and_bounded() {
        let mut g = game(1);
        let ak = tables().strength(&LOWEST_ACE_KING);
        g.exchange = Some(Exchange {
            keep: Keep::AceKing,
            when: When::Below(ak),
            most: 3,
        });
        let counts = simulate(&g, 3, 0..2, 2 * CHUNK_ROUNDS);
        let slots = g.shape()[3];
        assert_eq!(slots, 4);
        let by_exchanges: Vec<u64> = (0..slots)
            .map(|e| {
                counts
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i / OUTCOMES % slots == e)
                    .map(|(_, n)| n)
                    .sum()
            })
            .collect();
        assert_eq!(by_exchanges.iter().sum::<u64>(), 2 * CHUNK_ROUNDS);
        assert!(by_exchanges.iter().all(|&n| n > 0), "{by_exchanges:?}");
    }

    #[test]
    fn seats_draw_apart_and_discarded_cards_stay_out() {
        let t = tables();
        let mut g = game(2);
        g.exchange = Some(Exchange {
            keep: Keep::Nothing,
            when: When::Below(u16::MAX),
            most: 3,
        });
        let mut rng = crate::sim::rng::chunk_rng(5, 0);
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        draw(&mut deck, 15, &mut rng);
        let x = g.exchange.as_ref().expect("plan");
        let mut next = 15;
        let mut seen: Vec<Card> = deck[..15].to_vec();
        for seat in 0..2 {
            let mut hand = [
                deck[5 * seat],
                deck[5 * seat + 1],
                deck[5 * seat + 2],
                deck[5 * seat + 3],
                deck[5 * seat + 4],
            ];
            let (s, made, _) =
                g.exchange(t, x, &mut hand, deck[14], &mut deck, &mut next, &mut rng);
            assert_eq!((made, s), (3, t.strength(&hand)));
            seen.extend_from_slice(&deck[next - 15..next]);
            assert_eq!(&hand[..], &deck[next - 5..next]);
        }
        assert_eq!(next, 45);
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 45, "a card was dealt twice");
    }

    #[test]
    fn an_exchange_level_reads_its_rows() {
        let (up, hands) = (
            vec![0u8, 0, 5, 5],
            vec![
                [0, 5, 10, 15, 20],
                [48, 49, 1, 2, 3],
                [4, 9, 14, 19, 26],
                LOWEST_ACE_KING,
            ],
        );
        let raises = [false, true, false, true];
        let level = ExchangeLevel::from_canonical(&up, &hands, &raises, &[2, 2, 0, 1], 2);
        assert_eq!(level.folds, 1);
        let t = tables();
        assert!(level.called.raises(t.strength(&hands[1]), &hands[1], 0));
        assert!(level.called.raises(t.strength(&hands[3]), &hands[3], 20));
        assert_eq!(
            ExchangeLevel::from_canonical(&up, &hands, &raises, &[2, 2, 0, 1], 1).folds,
            0
        );
    }

    #[test]
    fn seven_seats_and_six_exchanges_have_cells_of_their_own() {
        // Seven seats, as a valid variant may have: each seat's rounds are all counted.
        let g = game(7);
        let counts = simulate(&g, 5, 0..1, 1000);
        let per_seat = g.cells() / 7;
        for seat in counts.chunks(per_seat) {
            assert_eq!(seat.iter().sum::<u64>(), 1000);
        }
        // Six exchanges, more than game 4's three: the sixth has its own column.
        let mut g = game(1);
        let straight = tables().class_floor(crate::eval::HandClass::Straight);
        g.exchange = Some(Exchange {
            keep: Keep::Nothing,
            when: When::Below(straight),
            most: 6,
        });
        let counts = simulate(&g, 5, 0..1, 10_000);
        let slots = g.shape()[3];
        assert_eq!(slots, 7);
        let sixth: u64 = counts
            .iter()
            .enumerate()
            .filter(|(i, _)| i / OUTCOMES % slots == 6)
            .map(|(_, n)| n)
            .sum();
        assert!(sixth > 0);
    }
}
