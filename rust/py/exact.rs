//! Bindings of the exact enumerations: every situation's counts as numpy arrays.

use super::checks::require;
use super::checks::strength;
use crate::exact::exchange::{one_exchange_part, Discards};
use crate::exact::{holdem, stud};
use crate::layout::{HOLDEM_CLASS_SLOTS, SHOWDOWNS};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
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

/// Card rows (n, 5): each five distinct cards, none of them `up`.
fn hands(
    py: Python<'_>,
    name: &str,
    array: &PyReadonlyArray2<'_, u8>,
    up: u8,
) -> PyResult<Vec<[u8; 5]>> {
    require(py, array.shape()[1] == 5, || {
        format!("{name}: rows of five cards, not {:?}", array.shape())
    })?;
    let flat = array
        .as_slice()
        .map_err(|_| super::checks::argument_error(py, format!("{name}: not contiguous")))?;
    let rows: Vec<[u8; 5]> = flat
        .chunks_exact(5)
        .map(|c| [c[0], c[1], c[2], c[3], c[4]])
        .collect();
    for (i, r) in rows.iter().enumerate() {
        let mut sorted = *r;
        sorted.sort_unstable();
        require(
            py,
            sorted == *r && r.windows(2).all(|w| w[0] < w[1]) && r[4] < 52 && !r.contains(&up),
            || {
                format!("{name}: row {i} {r:?} is not five ascending distinct cards without the up card {up}")
            },
        )?;
    }
    Ok(rows)
}

/// Game 4 after one exchange, one part: against the up card `4 * up_rank`, with the canonical
/// rows `exchanged` given up, each row of `finals`: `counts` (n, showdown) of the dealer hands,
/// each weighted by the exchanged hands avoiding both (where `calls`, zeros elsewhere), and
/// `paths` (n,) of every deal ending on it; `out`: the discards out of play, else put back.
#[pyfunction]
#[pyo3(signature = (qualifier, up_rank, exchanged, finals, calls, out=true, progress=None))]
#[allow(clippy::too_many_arguments)]
fn one_exchange_counts<'py>(
    py: Python<'py>,
    qualifier: u16,
    up_rank: u8,
    exchanged: PyReadonlyArray2<'py, u8>,
    finals: PyReadonlyArray2<'py, u8>,
    calls: PyReadonlyArray1<'py, bool>,
    out: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let q = strength(py, "qualifier", qualifier)?;
    require(py, up_rank < 13, || {
        format!("up_rank: {up_rank} is not in 0..13")
    })?;
    let up = 4 * up_rank;
    let given_up = hands(py, "exchanged", &exchanged, up)?;
    let rows = hands(py, "finals", &finals, up)?;
    let calls = calls
        .as_slice()
        .map_err(|_| super::checks::argument_error(py, "calls: not contiguous".into()))?
        .to_vec();
    require(py, calls.len() == rows.len(), || {
        format!("calls: {} for {} finals", calls.len(), rows.len())
    })?;
    let discards = if out { Discards::Out } else { Discards::Back };
    let n = rows.len().max(1) as f64;
    let on_progress = progress_fn(progress);
    let tell = move |done: usize| {
        if done % 1024 == 0 {
            on_progress(done as f64 / n);
        }
    };
    let (counts, paths) =
        py.detach(|| one_exchange_part(q, up_rank, &given_up, &rows, &calls, discards, &tell));
    let out = PyDict::new(py);
    let flat: Vec<u64> = counts.iter().flatten().copied().collect();
    out.set_item(
        "counts",
        PyArray1::from_vec(py, flat).reshape([rows.len(), 4])?,
    )?;
    out.set_item("paths", PyArray1::from_vec(py, paths))?;
    Ok(out)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(stud_situations, m)?)?;
    m.add_function(wrap_pyfunction!(holdem_situations, m)?)?;
    m.add_function(wrap_pyfunction!(one_exchange_counts, m)?)?;
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
