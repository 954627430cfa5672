//! Batches of hands in one flat row-major array: validated and evaluated on every core.

use super::tables::{tables, Tables};
use crate::cards::{validate, Card, CardError};
use rayon::prelude::*;

/// Rows per parallel task: big enough that scheduling costs nothing.
const CHUNK_ROWS: usize = 1 << 14;

/// A bad row of a batch: its index and what is wrong with it.
pub type RowError = (usize, CardError);

/// How many rows ahead of the one being looked up a wider type's ids are prefetched: far enough
/// that they come from memory while the rows between are looked up, near enough that they are
/// still in the cache when their turn comes (`benches/evaluate_dtypes.py`: 256 rows beat 512 and
/// 1,024; without a prefetch, 64-bit ids took their read's time plus the lookups', twice uint8's).
const PREFETCH_ROWS: usize = 256;

/// An integer type that a batch's card ids may come in, as numpy's integer dtypes do. Every type
/// is read in place: no array of ids is ever converted (copied) whole.
pub trait CardId: Copy + Send + Sync {
    /// Whether the ids are wider than a byte: reading them from memory then costs as much as the
    /// row's lookups, so they are prefetched on x86-64 (byte ids gained nothing measurable;
    /// other targets read without the hint).
    const WIDE: bool = std::mem::size_of::<Self>() > 1;

    /// The value's bits as an unsigned number (a negative value becomes a large one).
    fn bits(self) -> u64;

    /// The value as a `Card` when it fits in one (52..=255 stay bad ids, for the row's check);
    /// any other value (negative, or 256 and up) becomes 255, never a wrapped-around valid id.
    #[inline(always)]
    fn to_card(self) -> Card {
        self.bits().min(255) as Card
    }
}

impl CardId for Card {
    #[inline(always)]
    fn bits(self) -> u64 {
        u64::from(self)
    }
}

macro_rules! card_ids {
    ($($t:ty as $unsigned:ty),*) => {$(
        impl CardId for $t {
            #[inline(always)]
            fn bits(self) -> u64 {
                self as $unsigned as u64
            }
        }
    )*};
}

card_ids!(u16 as u16, u32 as u32, u64 as u64, i8 as u8, i16 as u16, i32 as u32, i64 as u64);

/// Strengths of `rows` (each `W` ids), or the first bad row.
fn strengths_of<T: CardId, const W: usize>(
    t: &Tables,
    first_row: usize,
    rows: &[T],
    out: &mut [u16],
) -> Result<(), RowError> {
    for (i, (ids, slot)) in rows.chunks_exact(W).zip(out.iter_mut()).enumerate() {
        if T::WIDE {
            if let Some(ahead) = rows.get((i + PREFETCH_ROWS) * W) {
                prefetch(ahead);
            }
        }
        // Validate and sum the keys in one pass: W distinct ids set W bits, all below 52. A card
        // is the id cut to a byte, used only once `top` (the whole id) has passed the check:
        // 260 never becomes card 4.
        let (mut hand, mut seen, mut top, mut key) = ([0 as Card; W], 0u64, 0u64, 0u64);
        for (card, &id) in hand.iter_mut().zip(ids) {
            let bits = id.bits();
            *card = bits as Card;
            seen |= 1 << (bits & 63);
            top = top.max(bits);
            key += t.card_key(*card);
        }
        if seen.count_ones() != W as u32 || top >= 52 {
            let cards: Vec<Card> = ids.iter().map(|&id| id.to_card()).collect();
            let fault = validate(&cards, W, W).err().unwrap_or(CardError::BadCount {
                count: W,
                min: W,
                max: W,
            });
            return Err((first_row + i, fault));
        }
        *slot = t.strength_from_key(key, &hand);
    }
    Ok(())
}

/// Asks for the cache line holding `value` without waiting for it: a hint, never a fault.
#[inline(always)]
fn prefetch<T>(value: &T) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
    safe_arch::prefetch_t0(value);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
    let _ = value;
}

fn first_error(a: Result<(), RowError>, b: Result<(), RowError>) -> Result<(), RowError> {
    match (a, b) {
        (Err(x), Err(y)) => Err(if x.0 <= y.0 { x } else { y }),
        (Err(x), _) | (_, Err(x)) => Err(x),
        _ => Ok(()),
    }
}

fn strengths_parallel<T: CardId, const W: usize>(
    rows: &[T],
    out: &mut [u16],
) -> Result<(), RowError> {
    let t = tables();
    out.par_chunks_mut(CHUNK_ROWS)
        .zip(rows.par_chunks(CHUNK_ROWS * W))
        .enumerate()
        .map(|(i, (o, r))| strengths_of::<T, W>(t, i * CHUNK_ROWS, r, o))
        .reduce(|| Ok(()), first_error)
}

/// Strengths of the hands in `rows`, `width` (5 to 7) ids each, written to `out` (one per row).
/// The ids may be any integer type (`CardId`): no converted copy of `rows` is made.
///
/// Fails with the first row holding an id outside 0..52 or a repeated card; a bad id that is no
/// `u8` (negative, or past 255) is reported as `BadId` with id 255. A width outside 5..=7 or an
/// `out` of the wrong length fails as row 0 with `BadCount`.
///
/// ```
/// use caribbean_fast::cards::{parse_card, CardError};
/// use caribbean_fast::eval::batch::strengths;
///
/// // A royal flush and a nine-high straight flush, as i64 ids (numpy's default integer).
/// let ids: Vec<i64> = "As Ks Qs Js Ts 9s 8s 7s 6s 5s"
///     .split(' ')
///     .map(|t| i64::from(parse_card(t).unwrap()))
///     .collect();
/// let mut out = [0u16; 2];
/// strengths(&ids, 5, &mut out).unwrap();
/// assert_eq!(out, [7462, 7457]);
///
/// // A negative id is refused, never wrapped around to a card.
/// let bad: [i64; 5] = [0, 1, 2, 3, -1];
/// assert_eq!(
///     strengths(&bad, 5, &mut out[..1]),
///     Err((0, CardError::BadId { position: 4, id: 255 }))
/// );
/// ```
pub fn strengths<T: CardId>(rows: &[T], width: usize, out: &mut [u16]) -> Result<(), RowError> {
    if !(5..=7).contains(&width) || rows.len() != out.len() * width {
        return Err((
            0,
            CardError::BadCount {
                count: width,
                min: 5,
                max: 7,
            },
        ));
    }
    match width {
        5 => strengths_parallel::<T, 5>(rows, out),
        6 => strengths_parallel::<T, 6>(rows, out),
        _ => strengths_parallel::<T, 7>(rows, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_matches_single_hands_and_reports_the_first_bad_row() {
        let t = tables();
        let mut rows: Vec<Card> = (0..40_000u32)
            .flat_map(|i| (0..7).map(move |j| ((i * 7 + j * 11) % 52) as Card))
            .collect();
        let mut out = vec![0u16; 40_000];
        strengths(&rows, 7, &mut out).expect("all rows valid");
        assert!(rows.chunks(7).zip(&out).all(|(h, &s)| t.strength(h) == s));
        rows[7 * 30_000] = 99;
        rows[7 * 20_000 + 3] = rows[7 * 20_000];
        assert_eq!(
            strengths(&rows, 7, &mut out),
            Err((
                20_000,
                CardError::Repeated {
                    card: rows[7 * 20_000]
                }
            ))
        );
        assert!(strengths(&rows, 8, &mut out).is_err());
    }
}
