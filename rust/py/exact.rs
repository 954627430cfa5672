//! Bindings of the exact enumerations: every situation's counts as numpy arrays.

use super::checks::strength;
use crate::exact::{holdem, stud};
use crate::layout::{HOLDEM_CLASS_SLOTS, SHOWDOWNS};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Calls a Python progress callable (or nothing) from any worker thread; its errors are ignored.
fn progress_fn(callback: Option<Py<PyAny>>) -> impl Fn(f64) + Sync {
    move |done: f64| {
        if let Some(cb) = &callback {
            Python::attach(|py| {
                let _ = cb.call1(py, (done,));
            });
        }
    }
}

/// Every Caribbean Stud situation: up_rank, hand (n, 5), weight, strength, counts (n, showdown)
/// with the columns of `SHOWDOWNS`.
#[pyfunction]
#[pyo3(signature = (qualifier, progress=None))]
fn stud_situations<'py>(
    py: Python<'py>,
    qualifier: u16,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let q = strength(py, "qualifier", qualifier)?;
    let on_progress = progress_fn(progress);
    let rows = py.detach(|| stud::enumerate_with_progress(q, &on_progress));
    let out = PyDict::new(py);
    out.set_item(
        "up_rank",
        PyArray1::from_iter(py, rows.iter().map(|r| r.up_rank)),
    )?;
    let n = rows.len();
    let hands: Vec<u8> = rows.iter().flat_map(|r| r.hand).collect();
    out.set_item("hand", PyArray1::from_vec(py, hands).reshape([n, 5])?)?;
    out.set_item(
        "weight",
        PyArray1::from_iter(py, rows.iter().map(|r| r.weight)),
    )?;
    out.set_item(
        "strength",
        PyArray1::from_iter(py, rows.iter().map(|r| r.strength)),
    )?;
    let counts: Vec<u32> = rows.iter().flat_map(|r| r.counts).collect();
    out.set_item(
        "counts",
        PyArray1::from_vec(py, counts).reshape([n, SHOWDOWNS.len()])?,
    )?;
    Ok(out)
}

/// Every Casino Hold'em situation: cards (n, 5) as hole cards then flop, weight, and counts
/// (n, class slot, showdown): the slots of `HOLDEM_CLASS_SLOTS`, the columns of `SHOWDOWNS`.
#[pyfunction]
#[pyo3(signature = (qualifier, progress=None))]
fn holdem_situations<'py>(
    py: Python<'py>,
    qualifier: u16,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let q = strength(py, "qualifier", qualifier)?;
    let on_progress = progress_fn(progress);
    let (situations, counts) = py.detach(|| {
        let s = holdem::Situations::build();
        let counts = holdem::enumerate_with_progress(&s, q, &on_progress);
        (s, counts)
    });
    let n = situations.len();
    let out = PyDict::new(py);
    let cards: Vec<u8> = situations.cards.iter().flatten().copied().collect();
    out.set_item("cards", PyArray1::from_vec(py, cards).reshape([n, 5])?)?;
    out.set_item("weight", PyArray1::from_vec(py, situations.weight))?;
    out.set_item(
        "counts",
        PyArray1::from_vec(py, counts).reshape([n, holdem::CLASSES, holdem::OUTCOMES])?,
    )?;
    Ok(out)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(stud_situations, m)?)?;
    m.add_function(wrap_pyfunction!(holdem_situations, m)?)?;
    m.add("SHOWDOWNS", SHOWDOWNS.to_vec())?;
    m.add("STUD_DEALER_HANDS", stud::DEALER_HANDS)?;
    m.add("HOLDEM_DEALS_PER_FLOP", holdem::DEALS_PER_FLOP)?;
    let slots: Vec<u16> = HOLDEM_CLASS_SLOTS
        .iter()
        .map(|&c| u16::from(c as u8))
        .collect();
    m.add("HOLDEM_CLASS_SLOTS", slots)?;
    Ok(())
}
