//! Bindings of the provably fair deal (`crate::fairness`): a round's deck, leaves and salts.

use super::checks::require;
use crate::cards::DECK_SIZE;
use crate::fairness;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The 52 card ids of `seed`'s deck, in dealing order, a byte each.
#[pyfunction]
fn seed_deck(seed: &[u8]) -> Vec<u8> {
    fairness::deck(seed).to_vec()
}

/// Every position's leaf of `deck` (card ids 0 to 51) under `seed`, joined: 32 bytes a position.
#[pyfunction]
fn deck_leaves<'py>(py: Python<'py>, seed: &[u8], deck: Vec<u8>) -> PyResult<Bound<'py, PyBytes>> {
    check_deck(py, &deck)?;
    Ok(PyBytes::new(py, &fairness::leaves(seed, &deck).concat()))
}

fn check_deck(py: Python<'_>, deck: &[u8]) -> PyResult<()> {
    require(
        py,
        deck.len() <= DECK_SIZE && deck.iter().all(|&c| (c as usize) < DECK_SIZE),
        || {
            format!(
                "deck: at most {DECK_SIZE} card ids from 0 to {}, got {deck:?}",
                DECK_SIZE - 1
            )
        },
    )
}

/// The commitment to `deck` (card ids 0 to 51) under `seed` in one call: every position's salt
/// (32 bytes each, joined), every leaf as hex, and the root as hex.
#[pyfunction]
fn deck_commitment<'py>(
    py: Python<'py>,
    seed: &[u8],
    deck: Vec<u8>,
) -> PyResult<(Bound<'py, PyBytes>, Vec<String>, String)> {
    check_deck(py, &deck)?;
    let c = fairness::commitment(seed, &deck);
    Ok((PyBytes::new(py, &c.salts.concat()), c.leaves, c.root))
}

/// The salt of each of `positions` (deck positions, 0 to 51) under `seed`, joined: 32 bytes each.
#[pyfunction]
fn position_salts<'py>(
    py: Python<'py>,
    seed: &[u8],
    positions: Vec<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    require(py, positions.iter().all(|&p| p < DECK_SIZE), || {
        format!(
            "positions: deck positions from 0 to {}, got {positions:?}",
            DECK_SIZE - 1
        )
    })?;
    Ok(PyBytes::new(
        py,
        &fairness::salts(seed, &positions).concat(),
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(seed_deck, m)?)?;
    m.add_function(wrap_pyfunction!(deck_leaves, m)?)?;
    m.add_function(wrap_pyfunction!(deck_commitment, m)?)?;
    m.add_function(wrap_pyfunction!(position_salts, m)?)
}
