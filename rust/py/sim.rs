//! Bindings of the simulator: a table compiled once, then batches of chunks run without the GIL.

use crate::sim::decisions::{HoldemDecisions, StudDecisions};
use crate::sim::holdem::HoldemGame;
use crate::sim::stud::{Exchange, ExchangeLevel, Keep, StudGame, When};
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

/// Canonical stud rows: up ranks, hands and call decisions.
type CanonicalRows<'a> = (&'a [u8], &'a [[u8; 5]], &'a [bool]);

/// The exchange plan: (keep rule, below strength, most); the keep rule "table" exchanges all
/// five as `exchange_from` says for the canonical rows (the fewest exchanges left with which
/// each row exchanges, 0: never).
fn exchange_plan(
    plan: Option<(String, u16, usize)>,
    rows: Option<CanonicalRows<'_>>,
    exchange_from: Option<Vec<u8>>,
) -> PyResult<Option<Exchange>> {
    let Some((keep, below, most)) = plan else {
        return Ok(None);
    };
    let most = most.min(crate::sim::EXCHANGE_SLOTS - 1);
    let (keep, when) = match (keep.as_str(), rows, exchange_from) {
        ("nothing", _, None) => (Keep::Nothing, When::Below(below)),
        ("ace-king", _, None) => (Keep::AceKing, When::Below(below)),
        ("table", Some((up, hands, raises)), Some(from)) if from.len() == hands.len() => {
            let levels = (1..=most as u8)
                .map(|left| ExchangeLevel::from_canonical(up, hands, raises, &from, left))
                .collect();
            (Keep::Nothing, When::Table(levels))
        }
        ("table", _, _) => {
            return Err(PyValueError::new_err(
                "an exchange table needs the rows and one exchange_from per row",
            ))
        }
        (other, _, _) => {
            return Err(PyValueError::new_err(format!(
                "unknown exchange keep rule {other:?}"
            )))
        }
    };
    Ok(Some(Exchange { keep, when, most }))
}

#[pymethods]
impl Simulator {
    /// Caribbean Stud: decisions from a raise `threshold` strength, or from canonical rows
    /// (`up_rank`, `hands`, `raises`); `exchange` = (keep rule, below strength, most), with
    /// `exchange_from` per row for the keep rule "table".
    #[staticmethod]
    #[pyo3(signature = (seats, qualifier, first_cuts, class_cuts, threshold=None, up_rank=None, hands=None, raises=None, exchange=None, exchange_from=None))]
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
        exchange_from: Option<PyReadonlyArray1<'_, u8>>,
    ) -> PyResult<Self> {
        if !(1..=4).contains(&seats) {
            return Err(PyValueError::new_err(format!(
                "seats must be 1 to 4, not {seats}"
            )));
        }
        let from = exchange_from
            .map(|f| f.as_slice().map(<[u8]>::to_vec))
            .transpose()
            .map_err(|_| PyValueError::new_err("exchange_from must be contiguous"))?;
        let (decisions, exchange) = match (threshold, up_rank, hands, raises) {
            (Some(t), None, None, None) => (
                StudDecisions::threshold(t),
                exchange_plan(exchange, None, from)?,
            ),
            (None, Some(u), Some(h), Some(r)) => {
                let hands = rows::<5>(&h)?;
                let up = u
                    .as_slice()
                    .map_err(|_| PyValueError::new_err("up_rank must be contiguous"))?
                    .to_vec();
                if up.len() != hands.len() || up.iter().any(|&r| r > 12) {
                    return Err(PyValueError::new_err(
                        "up_rank must give a rank 0..13 per row",
                    ));
                }
                let raises = bools(&r, hands.len())?;
                py.detach(|| -> PyResult<_> {
                    Ok((
                        StudDecisions::from_canonical(&up, &hands, &raises),
                        exchange_plan(exchange, Some((&up, &hands, &raises)), from)?,
                    ))
                })?
            }
            _ => {
                return Err(PyValueError::new_err(
                    "give a threshold, or up_rank, hands and raises",
                ))
            }
        };
        let (first, classes) = (Buckets::new(&first_cuts), Buckets::new(&class_cuts));
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
