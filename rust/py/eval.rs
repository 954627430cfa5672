//! Bindings of the evaluator: batches of hands as numpy arrays, and single hands.

use super::checks::{argument_error, require, strength};
use super::errors::invalid_cards;
use crate::cards::{validate, Card, CardError};
use crate::eval::batch::{self, CardId};
use crate::eval::{enumerate::strength_histogram, tables, HandClass, DISTINCT_STRENGTHS};
use numpy::{Element, PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use std::any::TypeId;
use std::fmt::Debug;

/// An (n, 5|6|7) array of card ids in any of numpy's integer dtypes, borrowed as it stands.
#[derive(FromPyObject)]
enum CardIds<'py> {
    U8(PyReadonlyArray2<'py, u8>),
    I8(PyReadonlyArray2<'py, i8>),
    U16(PyReadonlyArray2<'py, u16>),
    I16(PyReadonlyArray2<'py, i16>),
    U32(PyReadonlyArray2<'py, u32>),
    I32(PyReadonlyArray2<'py, i32>),
    U64(PyReadonlyArray2<'py, u64>),
    I64(PyReadonlyArray2<'py, i64>),
}

/// Strengths of an (n, 5|6|7) C-contiguous array of card ids of any integer dtype, read in
/// place (no copy, whatever the dtype), on every core, without the GIL.
#[pyfunction]
fn evaluate_many<'py>(py: Python<'py>, cards: CardIds<'py>) -> PyResult<Bound<'py, PyArray1<u16>>> {
    match &cards {
        CardIds::U8(a) => strengths(py, a),
        CardIds::I8(a) => strengths(py, a),
        CardIds::U16(a) => strengths(py, a),
        CardIds::I16(a) => strengths(py, a),
        CardIds::U32(a) => strengths(py, a),
        CardIds::I32(a) => strengths(py, a),
        CardIds::U64(a) => strengths(py, a),
        CardIds::I64(a) => strengths(py, a),
    }
}

fn strengths<'py, T: CardId + Element + Debug + 'static>(
    py: Python<'py>,
    cards: &PyReadonlyArray2<'py, T>,
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
        // Ids wider than a card's byte are named as given: -1 or 2**40, not the 255 they read as.
        Err((row, CardError::BadId { .. })) if TypeId::of::<T>() != TypeId::of::<Card>() => {
            let ids = &rows[row * width..(row + 1) * width];
            Err(invalid_cards(
                py,
                format!("row {row}: card ids must be in 0..51, got {ids:?}"),
            ))
        }
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
