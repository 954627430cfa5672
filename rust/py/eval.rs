//! Bindings of the evaluator: batches of hands as numpy arrays, and single hands.

use super::errors::invalid_cards;
use crate::cards::{validate, CardError};
use crate::eval::{batch, enumerate::strength_histogram, tables, HandClass, DISTINCT_STRENGTHS};
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Strengths of an (n, 5|6|7) uint8 array of card ids, on every core, without the GIL.
#[pyfunction]
fn evaluate_many<'py>(
    py: Python<'py>,
    cards: PyReadonlyArray2<'py, u8>,
) -> PyResult<Bound<'py, PyArray1<u16>>> {
    let [n, width] = [cards.shape()[0], cards.shape()[1]];
    let rows = cards
        .as_slice()
        .map_err(|_| PyValueError::new_err("cards must be a C-contiguous array"))?;
    let mut out = vec![0u16; n];
    let result = py.detach(|| batch::strengths(rows, width, &mut out));
    match result {
        Ok(()) => Ok(PyArray1::from_vec(py, out)),
        Err((_, fault @ CardError::BadCount { .. })) => Err(PyValueError::new_err(format!(
            "each row must hold 5 to 7 cards: {fault}"
        ))),
        Err((row, fault)) => Err(invalid_cards(py, format!("row {row}: {fault}"))),
    }
}

/// The strength and the best five cards of one hand of 5 to 7 ids.
#[pyfunction]
fn best_five(py: Python<'_>, cards: Vec<u8>) -> PyResult<(u16, [u8; 5])> {
    validate(&cards, 5, 7).map_err(|e| invalid_cards(py, e.to_string()))?;
    Ok(tables().best_five(&cards))
}

fn checked_strength(strength: u16) -> PyResult<u16> {
    match strength {
        1..=DISTINCT_STRENGTHS => Ok(strength),
        _ => Err(PyValueError::new_err(format!(
            "strength {strength} is not in 1..={DISTINCT_STRENGTHS}"
        ))),
    }
}

/// The class number (`HandClass` value) of a strength.
#[pyfunction]
fn class_of(strength: u16) -> PyResult<u8> {
    Ok(tables().class_of(checked_strength(strength)?) as u8)
}

/// The lowest strength of each class, indexed by class number (Ace-King's equals one pair's).
#[pyfunction]
fn class_floors() -> Vec<u16> {
    HandClass::ALL
        .iter()
        .map(|&c| tables().class_floor(c))
        .collect()
}

/// How many hands of `size` cards (5 or 7) have each strength (index = strength), by walking them all.
#[pyfunction]
fn strength_histogram_all<'py>(
    py: Python<'py>,
    size: usize,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    if size != 5 && size != 7 {
        return Err(PyValueError::new_err(format!(
            "size must be 5 or 7, not {size}"
        )));
    }
    Ok(PyArray1::from_vec(
        py,
        py.detach(|| strength_histogram(size)),
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evaluate_many, m)?)?;
    m.add_function(wrap_pyfunction!(best_five, m)?)?;
    m.add_function(wrap_pyfunction!(class_of, m)?)?;
    m.add_function(wrap_pyfunction!(class_floors, m)?)?;
    m.add_function(wrap_pyfunction!(strength_histogram_all, m)?)?;
    m.add("DISTINCT_STRENGTHS", DISTINCT_STRENGTHS)?;
    Ok(())
}
