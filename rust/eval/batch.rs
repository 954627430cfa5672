//! Batches of hands in one flat row-major array: validated and evaluated on every core.

use super::tables::{tables, Tables};
use crate::cards::{validate, Card, CardError};
use rayon::prelude::*;

/// Rows per parallel task: big enough that scheduling costs nothing.
const CHUNK_ROWS: usize = 1 << 14;

/// A bad row of a batch: its index and what is wrong with it.
pub type RowError = (usize, CardError);

/// Strengths of `rows` (each `W` ids), or the first bad row.
fn strengths_of<const W: usize>(
    t: &Tables,
    first_row: usize,
    rows: &[Card],
    out: &mut [u16],
) -> Result<(), RowError> {
    for (i, (hand, slot)) in rows.chunks_exact(W).zip(out.iter_mut()).enumerate() {
        // Validate and sum the keys in one pass: W distinct ids set W bits, all below 52.
        let (mut seen, mut top, mut key) = (0u64, 0u8, 0u64);
        for &c in hand {
            seen |= 1 << (c & 63);
            top = top.max(c);
            key += t.card_key(c);
        }
        if seen.count_ones() != W as u32 || top >= 52 {
            let fault = validate(hand, W, W).err().unwrap_or(CardError::BadCount {
                count: W,
                min: W,
                max: W,
            });
            return Err((first_row + i, fault));
        }
        *slot = t.strength_from_key(key, hand);
    }
    Ok(())
}

fn first_error(a: Result<(), RowError>, b: Result<(), RowError>) -> Result<(), RowError> {
    match (a, b) {
        (Err(x), Err(y)) => Err(if x.0 <= y.0 { x } else { y }),
        (Err(x), _) | (_, Err(x)) => Err(x),
        _ => Ok(()),
    }
}

fn strengths_parallel<const W: usize>(rows: &[Card], out: &mut [u16]) -> Result<(), RowError> {
    let t = tables();
    out.par_chunks_mut(CHUNK_ROWS)
        .zip(rows.par_chunks(CHUNK_ROWS * W))
        .enumerate()
        .map(|(i, (o, r))| strengths_of::<W>(t, i * CHUNK_ROWS, r, o))
        .reduce(|| Ok(()), first_error)
}

/// Strengths of the hands in `rows`, `width` (5 to 7) ids each, written to `out` (one per row).
/// Fails with the first row holding an id outside 0..52 or a repeated card; a width outside
/// 5..=7 or an `out` of the wrong length fails as row 0 with `BadCount`.
pub fn strengths(rows: &[Card], width: usize, out: &mut [u16]) -> Result<(), RowError> {
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
        5 => strengths_parallel::<5>(rows, out),
        6 => strengths_parallel::<6>(rows, out),
        _ => strengths_parallel::<7>(rows, out),
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
