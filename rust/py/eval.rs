//! Bindings of the evaluator: batches of hands as numpy arrays, and single hands.

use super::checks::{argument_error, require, strength};
use super::errors::invalid_cards;
use crate::cards::{validate, CardError};
use crate::eval::{batch, enumerate::strength_histogram, tables, HandClass, DISTINCT_STRENGTHS};
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
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
        .map_err(|_| argument_error(py, "cards must be a C-contiguous array".into()))?;
    let mut out = vec![0u16; n];
    let result = py.detach(|| batch::strengths(rows, width, &mut out));
    match result {
        Ok(()) => Ok(PyArray1::from_vec(py, out)),
        Err((_, fault @ CardError::BadCount { .. })) => Err(argument_error(
            py,
            format!("each row must hold 5 to 7 cards: {fault}"),
        )),
        Err((row, fault)) => Err(invalid_cards(py, format!("row {row}: {fault}"))),
    }
}

/// The strength and the best five cards of one hand of 5 to 7 ids.
#[pyfunction]
fn best_five(py: Python<'_>, cards: Vec<u8>) -> PyResult<(u16, [u8; 5])> {
    validate(&cards, 5, 7).map_err(|e| invalid_cards(py, e.to_string()))?;
    Ok(tables().best_five(&cards))
}

/// The class number (`HandClass` value) of a strength.
#[pyfunction]
fn class_of(py: Python<'_>, strength: u16) -> PyResult<u8> {
    Ok(tables().class_of(self::strength(py, "strength", strength)?) as u8)
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
    require(py, size == 5 || size == 7, || {
        format!("size must be 5 or 7, not {size}")
    })?;
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
