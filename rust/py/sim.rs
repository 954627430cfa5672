//! Bindings of the simulator: a table compiled once, then batches of chunks run without the GIL.

use crate::sim::decisions::{HoldemDecisions, StudDecisions};
use crate::sim::holdem::HoldemGame;
use crate::sim::stud::StudGame;
use crate::sim::{rng::CHUNK_ROUNDS, Buckets};
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn rows<const N: usize>(array: &PyReadonlyArray2<'_, u8>) -> PyResult<Vec<[u8; N]>> {
    let flat = array.as_slice().map_err(|_| PyValueError::new_err("card rows must be C-contiguous"))?;
    if array.shape()[1] != N || flat.iter().any(|&c| c >= 52) {
        return Err(PyValueError::new_err(format!("card rows must be (n, {N}) ids in 0..52")));
    }
    Ok(flat.chunks_exact(N).map(|c| c.try_into().unwrap_or([0; N])).collect())
}

fn bools(array: &PyReadonlyArray1<'_, bool>, n: usize) -> PyResult<Vec<bool>> {
    let v = array.as_slice().map_err(|_| PyValueError::new_err("decisions must be contiguous"))?.to_vec();
    if v.len() != n {
        return Err(PyValueError::new_err(format!("{} decisions for {n} rows", v.len())));
    }
    Ok(v)
}

fn run_in_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    match threads {
        None => Ok(f()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok(pool.install(f))
        }
    }
}

/// A Caribbean Stud table for simulation.
#[pyclass(frozen)]
struct StudSimulator {
    game: StudGame,
}

#[pymethods]
impl StudSimulator {
    /// `decide`: either a raise threshold strength, or canonical rows (up_rank, hands, raises).
    #[new]
    #[pyo3(signature = (seats, qualifier, first_cuts, class_cuts, threshold=None, up_rank=None, hands=None, raises=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        seats: usize,
        qualifier: u16,
        first_cuts: Vec<u16>,
        class_cuts: Vec<u16>,
        threshold: Option<u16>,
        up_rank: Option<PyReadonlyArray1<'_, u8>>,
        hands: Option<PyReadonlyArray2<'_, u8>>,
        raises: Option<PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<Self> {
        if !(1..=4).contains(&seats) {
            return Err(PyValueError::new_err(format!("seats must be 1 to 4, not {seats}")));
        }
        let decisions = match (threshold, up_rank, hands, raises) {
            (Some(t), None, None, None) => StudDecisions::threshold(t),
            (None, Some(u), Some(h), Some(r)) => {
                let hands = rows::<5>(&h)?;
                let (up, raises) = (u.as_slice().map_err(|_| PyValueError::new_err("up_rank must be contiguous"))?.to_vec(), bools(&r, hands.len())?);
                py.detach(|| StudDecisions::from_canonical(&up, &hands, &raises))
            }
            _ => return Err(PyValueError::new_err("give a threshold, or up_rank, hands and raises")),
        };
        let game = StudGame { seats, qualifier, decisions, first: Buckets::new(&first_cuts), classes: Buckets::new(&class_cuts) };
        Ok(StudSimulator { game })
    }

    #[getter]
    fn cells(&self) -> usize {
        self.game.cells()
    }

    /// Counts of chunks [start, end) of a run of `total` rounds seeded `seed`.
    #[pyo3(signature = (seed, start, end, total, threads=None))]
    fn run<'py>(&self, py: Python<'py>, seed: u64, start: u64, end: u64, total: u64, threads: Option<usize>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let counts = py.detach(|| run_in_pool(threads, || self.game.simulate(seed, start..end, total)))?;
        Ok(PyArray1::from_vec(py, counts))
    }
}

/// A Casino Hold'em table for simulation.
#[pyclass(frozen)]
struct HoldemSimulator {
    game: HoldemGame,
}

#[pymethods]
impl HoldemSimulator {
    /// `cards` (n, 5) canonical rows (hole cards then flop) and `calls`; or `call_all`.
    #[new]
    #[pyo3(signature = (qualifier, first_cuts, class_cuts, cards=None, calls=None, call_all=None))]
    fn new(
        py: Python<'_>,
        qualifier: u16,
        first_cuts: Vec<u16>,
        class_cuts: Vec<u16>,
        cards: Option<PyReadonlyArray2<'_, u8>>,
        calls: Option<PyReadonlyArray1<'_, bool>>,
        call_all: Option<bool>,
    ) -> PyResult<Self> {
        let decisions = match (cards, calls, call_all) {
            (Some(c), Some(k), None) => {
                let rows = rows::<5>(&c)?;
                let calls = bools(&k, rows.len())?;
                py.detach(|| HoldemDecisions::from_canonical(&rows, &calls))
            }
            (None, None, Some(all)) => HoldemDecisions::constant(all),
            _ => return Err(PyValueError::new_err("give cards and calls, or call_all")),
        };
        Ok(HoldemSimulator { game: HoldemGame { qualifier, decisions, first: Buckets::new(&first_cuts), classes: Buckets::new(&class_cuts) } })
    }

    #[getter]
    fn cells(&self) -> usize {
        self.game.cells()
    }

    #[pyo3(signature = (seed, start, end, total, threads=None))]
    fn run<'py>(&self, py: Python<'py>, seed: u64, start: u64, end: u64, total: u64, threads: Option<usize>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let counts = py.detach(|| run_in_pool(threads, || self.game.simulate(seed, start..end, total)))?;
        Ok(PyArray1::from_vec(py, counts))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<StudSimulator>()?;
    m.add_class::<HoldemSimulator>()?;
    m.add("CHUNK_ROUNDS", CHUNK_ROUNDS)?;
    Ok(())
}
