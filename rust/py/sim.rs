//! Bindings of the simulator: a table compiled once, then batches of chunks run without the GIL.

use crate::sim::decisions::{HoldemDecisions, StudDecisions};
use crate::sim::holdem::HoldemGame;
use crate::sim::stud::{Exchange, Keep, StudGame};
use crate::sim::{rng::CHUNK_ROUNDS, sessions, simulate, Buckets, Game};
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::ops::Range;

fn rows<const N: usize>(array: &PyReadonlyArray2<'_, u8>) -> PyResult<Vec<[u8; N]>> {
    let flat = array
        .as_slice()
        .map_err(|_| PyValueError::new_err("card rows must be C-contiguous"))?;
    if array.shape()[1] != N || flat.iter().any(|&c| c >= 52) {
        return Err(PyValueError::new_err(format!(
            "card rows must be (n, {N}) ids in 0..52"
        )));
    }
    Ok(flat
        .chunks_exact(N)
        .map(|c| c.try_into().unwrap_or([0; N]))
        .collect())
}

fn bools(array: &PyReadonlyArray1<'_, bool>, n: usize) -> PyResult<Vec<bool>> {
    let v = array
        .as_slice()
        .map_err(|_| PyValueError::new_err("decisions must be contiguous"))?
        .to_vec();
    if v.len() != n {
        return Err(PyValueError::new_err(format!(
            "{} decisions for {n} rows",
            v.len()
        )));
    }
    Ok(v)
}

fn run_in_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    match threads {
        None => Ok(f()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok(pool.install(f))
        }
    }
}

/// Final bankrolls and ruin flags of a batch of sessions.
type Sessions<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<bool>>);

fn count_rounds<'py, G: Game>(
    py: Python<'py>,
    game: &G,
    seed: u64,
    chunks: Range<u64>,
    total: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let counts = py.detach(|| run_in_pool(threads, || simulate(game, seed, chunks, total)))?;
    Ok(PyArray1::from_vec(py, counts))
}

#[allow(clippy::too_many_arguments)]
fn play_sessions<'py, G: Game>(
    py: Python<'py>,
    game: &G,
    seed: u64,
    range: Range<u64>,
    rounds: u64,
    nets: &[f64],
    (bankroll, worst_loss): (f64, f64),
    threads: Option<usize>,
) -> PyResult<Sessions<'py>> {
    let out = py.detach(|| {
        run_in_pool(threads, || {
            sessions(game, seed, range, rounds, nets, bankroll, worst_loss)
        })
    })?;
    Ok((
        PyArray1::from_iter(py, out.iter().map(|o| o.0)),
        PyArray1::from_iter(py, out.iter().map(|o| o.1)),
    ))
}

/// The game a simulator plays.
enum AnyGame {
    Stud(StudGame),
    Holdem(HoldemGame),
}

/// A table compiled for simulation: `Simulator.stud(...)` or `Simulator.holdem(...)`.
#[pyclass(frozen)]
struct Simulator {
    game: AnyGame,
}

fn exchange_plan(plan: Option<(String, u16, usize)>) -> PyResult<Option<Exchange>> {
    let Some((keep, below, most)) = plan else {
        return Ok(None);
    };
    let keep = match keep.as_str() {
        "nothing" => Keep::Nothing,
        "ace-king" => Keep::AceKing,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown exchange keep rule {other:?}"
            )))
        }
    };
    Ok(Some(Exchange {
        keep,
        below,
        most: most.min(crate::sim::EXCHANGE_SLOTS - 1),
    }))
}

#[pymethods]
impl Simulator {
    /// Caribbean Stud: decisions from a raise `threshold` strength, or from canonical rows
    /// (`up_rank`, `hands`, `raises`); `exchange` = (keep rule, below strength, most).
    #[staticmethod]
    #[pyo3(signature = (seats, qualifier, first_cuts, class_cuts, threshold=None, up_rank=None, hands=None, raises=None, exchange=None))]
    #[allow(clippy::too_many_arguments)]
    fn stud(
        py: Python<'_>,
        seats: usize,
        qualifier: u16,
        first_cuts: Vec<u16>,
        class_cuts: Vec<u16>,
        threshold: Option<u16>,
        up_rank: Option<PyReadonlyArray1<'_, u8>>,
        hands: Option<PyReadonlyArray2<'_, u8>>,
        raises: Option<PyReadonlyArray1<'_, bool>>,
        exchange: Option<(String, u16, usize)>,
    ) -> PyResult<Self> {
        if !(1..=4).contains(&seats) {
            return Err(PyValueError::new_err(format!(
                "seats must be 1 to 4, not {seats}"
            )));
        }
        let decisions = match (threshold, up_rank, hands, raises) {
            (Some(t), None, None, None) => StudDecisions::threshold(t),
            (None, Some(u), Some(h), Some(r)) => {
                let hands = rows::<5>(&h)?;
                let up = u
                    .as_slice()
                    .map_err(|_| PyValueError::new_err("up_rank must be contiguous"))?
                    .to_vec();
                let raises = bools(&r, hands.len())?;
                py.detach(|| StudDecisions::from_canonical(&up, &hands, &raises))
            }
            _ => {
                return Err(PyValueError::new_err(
                    "give a threshold, or up_rank, hands and raises",
                ))
            }
        };
        let (first, classes) = (Buckets::new(&first_cuts), Buckets::new(&class_cuts));
        let exchange = exchange_plan(exchange)?;
        Ok(Simulator {
            game: AnyGame::Stud(StudGame {
                seats,
                qualifier,
                decisions,
                first,
                classes,
                exchange,
            }),
        })
    }

    /// Casino Hold'em: decisions from canonical rows (`cards`: hole cards then flop, `calls`),
    /// or `call_all`.
    #[staticmethod]
    #[pyo3(signature = (qualifier, first_cuts, class_cuts, cards=None, calls=None, call_all=None))]
    fn holdem(
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
        let (first, classes) = (Buckets::new(&first_cuts), Buckets::new(&class_cuts));
        Ok(Simulator {
            game: AnyGame::Holdem(HoldemGame {
                qualifier,
                decisions,
                first,
                classes,
            }),
        })
    }

    /// How many count cells a run returns.
    #[getter]
    fn cells(&self) -> usize {
        match &self.game {
            AnyGame::Stud(g) => g.cells(),
            AnyGame::Holdem(g) => g.cells(),
        }
    }

    /// Counts of chunks [start, end) of a run of `total` rounds seeded `seed`.
    #[pyo3(signature = (seed, start, end, total, threads=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        seed: u64,
        start: u64,
        end: u64,
        total: u64,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        match &self.game {
            AnyGame::Stud(g) => count_rounds(py, g, seed, start..end, total, threads),
            AnyGame::Holdem(g) => count_rounds(py, g, seed, start..end, total, threads),
        }
    }

    /// Final bankrolls and ruin flags of sessions [start, end), one seat; see `sim::sessions`.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (seed, start, end, rounds, nets, bankroll, worst_loss, threads=None))]
    fn sessions<'py>(
        &self,
        py: Python<'py>,
        seed: u64,
        start: u64,
        end: u64,
        rounds: u64,
        nets: Vec<f64>,
        bankroll: f64,
        worst_loss: f64,
        threads: Option<usize>,
    ) -> PyResult<Sessions<'py>> {
        let money = (bankroll, worst_loss);
        match &self.game {
            AnyGame::Stud(g) => {
                play_sessions(py, g, seed, start..end, rounds, &nets, money, threads)
            }
            AnyGame::Holdem(g) => {
                play_sessions(py, g, seed, start..end, rounds, &nets, money, threads)
            }
        }
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Simulator>()?;
    m.add("CHUNK_ROUNDS", CHUNK_ROUNDS)?;
    Ok(())
}
