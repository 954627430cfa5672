//! Caribbean Stud's common table, one seat without exchanges, played fast: the cards are dealt
//! as evaluator keys that carry their card ids, so that a hand's key is five adds, and every
//! decision that is a coin flip is a value, not a branch. Counts as `Game::play_round` does.

use super::decisions::{ByRanks, LOOK_UP, RAISE_ALL, ROW_STRIDE};
use super::rng::{draw_fold, Stream};
use super::stud::StudGame;
use super::{cell_index, showdown, Game};
use crate::cards::{rank, suit, Card};
use crate::eval::{Tables, STRENGTH_MASK, STRENGTH_SLOTS};

/// Where a tagged key keeps its card id: above every bit of the key (rank key, suit counters
/// and card count end at bit 52), so the sum of five tagged keys is the five cards' key plus
/// the ids' sum (at most 51 + 50 + 49 + 48 + 47 < 256) up here, which no evaluator bit reads.
const TAG_SHIFT: u32 = 56;

/// A card's evaluator key with its id in the top byte.
#[inline(always)]
pub fn tagged_key(t: &Tables, card: Card) -> u64 {
    t.card_key(card) | (card as u64) << TAG_SHIFT
}

/// The card id of a tagged key.
#[inline(always)]
fn card_of(tagged: u64) -> Card {
    (tagged >> TAG_SHIFT) as Card
}

/// The strength of the five cards at `deck[from..from + 5]`, given as tagged keys: their sum
/// is the hand's key (`strength_of`).
#[inline(always)]
pub fn strength_at(t: &Tables, deck: &[u64; 52], from: usize) -> u16 {
    strength_of(t, deck[from..from + 5].iter().sum(), deck, from)
}

/// The strength of the five cards at `deck[from..from + 5]` whose tagged keys sum to `key`:
/// only a flush (one hand in 500) reads the cards for its ranks, out of the loop (`flush_at`),
/// from the deck in memory (nothing kept for it in the loop).
#[inline(always)]
fn strength_of(t: &Tables, key: u64, deck: &[u64; 52], from: usize) -> u16 {
    if Tables::has_suited(key, 5) {
        return flush_at(t, key, deck, from);
    }
    t.non_flush_strength(key, 5)
}

/// `strength_at` of a flush.
#[cold]
#[inline(never)]
fn flush_at(t: &Tables, key: u64, deck: &[u64; 52], from: usize) -> u16 {
    let mask = deck[from..from + 5].iter().fold(0u64, |m, &k| {
        let c = card_of(k);
        m | 1 << (16 * suit(c) + rank(c))
    });
    t.flush_strength(key, mask)
}

/// `outcome` if the seat raised, else 0 (folded), by a mask: a value, not a branch, since
/// whether a seat raises is a coin flip that no predictor learns.
#[inline(always)]
pub(super) fn if_raised(raised: bool, outcome: usize) -> usize {
    outcome & (raised as usize).wrapping_neg()
}

/// Bits of an `entries` entry below its cell: the decision's.
const ENTRY_SHIFT: u32 = 2;
/// Where an entry keeps its row of `ByRanks::by_row`, above its cell.
const ROW_SHIFT: u32 = 24;
const CELL_MASK: u32 = (1 << (ROW_SHIFT - ENTRY_SHIFT)) - 1;

/// Per strength: the cell of a folded hand (the buckets of the first five cards and of the
/// final hand, which are the same five) shifted by `ENTRY_SHIFT`, the decision's `RAISE_ALL`
/// bit (`StudDecisions::by_strength`), and the strength's row of the decisions by up rank
/// (`ByRanks`), so that one load gives all three.
fn entries(game: &StudGame, by_ranks: &ByRanks) -> Vec<u32> {
    let shape = game.shape();
    (0..STRENGTH_SLOTS as u16)
        .map(|s| {
            let cell = cell_index(&shape, [0, game.first.of(s), game.classes.of(s), 0, 0]) as u32;
            assert!(cell <= CELL_MASK, "a stud table of {} cells", game.cells());
            let own = game.decisions.by_strength(s) as u32 & RAISE_ALL as u32;
            (by_ranks.row[s as usize] as u32) << ROW_SHIFT | cell << ENTRY_SHIFT | own
        })
        .collect()
}

/// An entry's folded cell.
#[inline(always)]
fn folded_cell(entry: u32) -> usize {
    (entry >> ENTRY_SHIFT & CELL_MASK) as usize
}

// A packed round's strength has 13 bits (`Deferred::pack`).
const _: () = assert!(STRENGTH_SLOTS <= 1 << 13);

/// Rounds played before the deferred rounds (`Deferred`) are settled.
const BLOCK: u64 = 512;

/// Rounds whose decision needs the cards (Ace-King high, about one in sixteen), kept to be
/// settled after a block of rounds: the loop then has no branch on their decisions, whose
/// mispredictions (a round's worth of work begun and thrown away each time, since the branch
/// waits for the whole deal and evaluation) cost more than the lookups. The loop only packs
/// such a round behind a branch on its strength's entry (`play`): packing every round and
/// keeping one in sixteen kept six cards in registers through the evaluation, and cost more.
struct Deferred {
    /// Per round: the five cards, the up card, the showdown column and the strength
    /// (`pack`).
    rounds: [u64; BLOCK as usize],
    len: usize,
}

impl Deferred {
    /// A round's cards (`deck[..5]`, a byte each), its up card (`deck[9]`), showdown column
    /// and strength in one word (a byte a card, 3 bits, 13 bits).
    #[inline(always)]
    fn pack(deck: &[u64; 52], contest: usize, strength: u16) -> u64 {
        let tag = |i: usize, at: u32| (deck[i] >> TAG_SHIFT) << at;
        tag(0, 0)
            | tag(1, 8)
            | tag(2, 16)
            | tag(3, 24)
            | tag(4, 32)
            | tag(9, 40)
            | (contest as u64) << 48
            | (strength as u64 & STRENGTH_MASK as u64) << 51
    }

    /// Keeps the round (at most `BLOCK` a block).
    #[inline(always)]
    fn push(&mut self, packed: u64) {
        self.rounds[self.len % BLOCK as usize] = packed;
        self.len += 1;
    }

    /// Settles the kept rounds, each counted in its folded cell so far: a raise moves it to
    /// its showdown column.
    fn settle(&mut self, game: &StudGame, by_strength: &[u32], counts: &mut [u64]) {
        for &p in &self.rounds[..self.len] {
            let card = |i: u32| (p >> (8 * i)) as Card;
            let (contest, strength) = ((p >> 48) as usize & 7, (p >> 51) as usize);
            let folded = folded_cell(by_strength[strength]);
            if game
                .decisions
                .looks_up(&std::array::from_fn(|i| card(i as u32)), card(5))
            {
                counts[folded] -= 1;
                counts[folded + contest] += 1;
            }
        }
        self.len = 0;
    }
}

/// Plays `rounds` rounds of `game` (one seat, no exchange) from `deck` and `rng`, adding each
/// round's cell to `counts`: the same cards as round by round, and `deck` and `rng` left as
/// round by round leaves them.
///
/// The deck is kept as tagged keys, shuffled by the same swaps as the card ids would be, so a
/// hand's key needs no lookup per card, and each hand's key is summed as its cards are placed
/// (`draw_fold`). Each round is played as soon as it is dealt: with no table lookup per card
/// and no branch on a decision, one round's work overlaps the next one's deal.
pub(super) fn play(
    game: &StudGame,
    t: &Tables,
    deck: &mut [u8; 52],
    rng: &mut Stream,
    rounds: u64,
    counts: &mut [u64],
) {
    let by_ranks = game.decisions.by_ranks();
    let by_strength = entries(game, by_ranks);
    let mut keys: [u64; 52] = deck.map(|c| tagged_key(t, c));
    // A copy the compiler keeps in registers (through `rng` it stored the state every round).
    let mut stream = rng.clone();
    let mut deferred = Deferred {
        rounds: [0; BLOCK as usize],
        len: 0,
    };
    let mut left = rounds;
    while left > 0 {
        let block = left.min(BLOCK);
        for _ in 0..block {
            // The hands' keys summed as the cards are placed, not read back from the deck, and
            // the up card (the dealer's last) kept as placed.
            let (seat, dealer, up) = draw_fold(
                &mut keys,
                0,
                10,
                &mut stream,
                (0u64, 0u64, 0u64),
                |(seat, dealer, up), at, k| {
                    if at < 5 {
                        (seat + k, dealer, up)
                    } else {
                        (seat, dealer + k, k)
                    }
                },
            );
            let s = strength_of(t, seat, &keys, 0);
            let dealer_strength = strength_of(t, dealer, &keys, 5);
            let entry = by_strength[s as usize & STRENGTH_MASK];
            // What the strength and the up card's rank settle (most Ace-King hands too), read
            // for every round: a value, not a branch.
            let up_rank = rank(card_of(up)) as usize & (ROW_STRIDE - 1);
            let by_rank = by_ranks.by_row[(entry >> ROW_SHIFT) as usize * ROW_STRIDE + up_rank];
            let contest = showdown(s, dealer_strength, game.qualifier);
            // A deal whose suits decide counts as folded until settled.
            let raised = (entry | by_rank as u32) & RAISE_ALL as u32 != 0;
            counts[folded_cell(entry) + if_raised(raised, contest)] += 1;
            // A branch taken only when the suits decide, on a value known before the
            // showdown: the cards are packed only then.
            if by_rank & LOOK_UP != 0 {
                deferred.push(Deferred::pack(&keys, contest, s));
            }
        }
        deferred.settle(game, &by_strength, counts);
        left -= block;
    }
    *rng = stream;
    *deck = keys.map(card_of);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tables;
    use crate::sim::rng::{chunk_rng, draw};

    #[test]
    fn five_tagged_keys_evaluate_as_the_cards() {
        let t = tables();
        assert!((0..52).all(|c| t.card_key(c) >> 52 == 0 && card_of(tagged_key(t, c)) == c));
        let (mut rng, mut deck) = (chunk_rng(23, 0), std::array::from_fn(|i| i as Card));
        let mut flushes = 0;
        for _ in 0..300_000 {
            draw(&mut deck, 10, &mut rng);
            let keys = deck.map(|c| tagged_key(t, c));
            for from in [0, 5] {
                let five: [Card; 5] = std::array::from_fn(|i| deck[from + i]);
                assert_eq!(strength_at(t, &keys, from), t.strength(&five), "{five:?}");
                flushes += Tables::has_suited(t.key_of(&five), 5) as usize;
            }
        }
        assert!(flushes > 600, "{flushes}"); // about 0.2%: the flush path is tested too
                                             // The highest ids: the largest sum of tags still leaves the key's bits alone.
        let top: [Card; 52] = std::array::from_fn(|i| 51 - i as Card);
        let keys = top.map(|c| tagged_key(t, c));
        assert_eq!(strength_at(t, &keys, 0), t.strength(&top[..5]));
    }

    #[test]
    fn a_packed_round_reads_back() {
        let t = tables();
        let deck: [Card; 52] = std::array::from_fn(|i| 51 - i as Card);
        let p = Deferred::pack(&deck.map(|c| tagged_key(t, c)), 4, 7462);
        let card = |i: u32| (p >> (8 * i)) as Card;
        assert_eq!(
            [card(0), card(1), card(2), card(3), card(4), card(5)],
            [51, 50, 49, 48, 47, 42]
        );
        assert_eq!(((p >> 48) & 7, p >> 51), (4, 7462));
    }

    #[test]
    fn if_raised_masks_the_outcome() {
        assert_eq!(if_raised(true, 3), 3);
        assert_eq!(if_raised(false, 3), 0);
    }
}
