//! Bindings of the simulator: a table compiled once, then batches of chunks run without the GIL.

use super::checks::{argument_error, cuts, require, strength};
use crate::eval::HandClass;
use crate::layout::{MAX_EXCHANGES, MAX_SEATS, SIM_AXES, SIM_OUTCOMES};
use crate::sim::decisions::{check_holdem_rows, check_stud_rows, HoldemDecisions, StudDecisions};
use crate::sim::holdem::HoldemGame;
use crate::sim::seen::{paired, SeenValues, UP_RANKS};
use crate::sim::stud::{Exchange, ExchangeLevel, Keep, StudGame, When};
use crate::sim::{rng::CHUNK_ROUNDS, sessions, simulate, Buckets, Game, Shape, CLASSES, OUTCOMES};
use numpy::PyUntypedArrayMethods;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use std::ops::Range;

fn rows<const N: usize>(
    py: Python<'_>,
    array: &PyReadonlyArray2<'_, u8>,
) -> PyResult<Vec<[u8; N]>> {
    let flat = array
        .as_slice()
        .map_err(|_| argument_error(py, "card rows must be C-contiguous".into()))?;
    require(py, array.shape()[1] == N, || {
        format!("card rows must be (n, {N}), not {:?}", array.shape())
    })?;
    Ok(flat
        .chunks_exact(N)
        .map(|c| c.try_into().unwrap_or([0; N]))
        .collect())
}

fn bools(py: Python<'_>, array: &PyReadonlyArray1<'_, bool>, n: usize) -> PyResult<Vec<bool>> {
    let v = array
        .as_slice()
        .map_err(|_| argument_error(py, "decisions must be contiguous".into()))?
        .to_vec();
    require(py, v.len() == n, || {
        format!("{} decisions for {n} rows", v.len())
    })?;
    Ok(v)
}

/// Canonical rows as the exact analysis lists them, or an error naming the first that is not.
fn checked_rows(py: Python<'_>, fault: Result<(), String>) -> PyResult<()> {
    fault.map_err(|e| argument_error(py, format!("strategy rows: {e}")))
}

/// Chunks `start..end` of a run of `total` rounds: within the run, so that no count overflows.
fn chunk_range(py: Python<'_>, start: u64, end: u64, total: u64) -> PyResult<Range<u64>> {
    let chunks = total.div_ceil(CHUNK_ROUNDS);
    require(py, start <= end && end <= chunks, || {
        format!("chunks {start}..{end}: a run of {total} rounds has chunks 0..{chunks}")
    })?;
    Ok(start..end)
}

/// Runs `f` without the GIL, on a pool of `threads` threads (rayon's global pool for None).
fn run_in_pool<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let pool = match threads {
        None => None,
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| argument_error(py, format!("threads: {e}")))?,
        ),
    };
    Ok(py.detach(|| match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }))
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
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let counts = run_in_pool(py, threads, || simulate(game, seed, chunks, total))?;
    PyArray1::from_vec(py, counts).reshape(game.shape().to_vec())
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
    let out = run_in_pool(py, threads, || {
        sessions(game, seed, range, rounds, nets, bankroll, worst_loss)
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

/// What the seat that sees its discards is given: (exchange values by exchanges left less one
/// and up rank, raised nets by class and outcome column, fold net), in antes.
type SeenArgs = (Vec<Vec<f64>>, Vec<Vec<f64>>, f64);

fn seen_values(
    py: Python<'_>,
    (exchange, raised, fold): SeenArgs,
    most: usize,
) -> PyResult<SeenValues> {
    let fault = || {
        format!("seen: {most} rows of {UP_RANKS} exchange values, {CLASSES} rows of {OUTCOMES} raised nets, all finite")
    };
    let finite = exchange
        .iter()
        .chain(&raised)
        .flatten()
        .chain([&fold])
        .all(|v| v.is_finite());
    require(
        py,
        finite && exchange.len() == most && raised.len() == CLASSES,
        fault,
    )?;
    let exchange = exchange
        .iter()
        .map(|r| r.as_slice().try_into())
        .collect::<Result<Vec<_>, _>>();
    let raised = raised
        .iter()
        .map(|r| r.as_slice().try_into())
        .collect::<Result<Vec<_>, _>>();
    match (exchange, raised) {
        (Ok(exchange), Ok(raised)) => Ok(SeenValues {
            exchange,
            raised,
            fold,
        }),
        _ => Err(argument_error(py, fault())),
    }
}

/// The exchange plan: (keep rule, below strength, most); the keep rule "table" exchanges all
/// five as `exchange_from` says for the canonical rows (the fewest exchanges left with which
/// each row exchanges, 0: never); "sees-discards" does so at the first decision and then
/// decides by `seen` (see `sim::seen`).
fn exchange_plan(
    py: Python<'_>,
    plan: Option<(String, u16, usize)>,
    rows: Option<CanonicalRows<'_>>,
    exchange_from: Option<Vec<u8>>,
    seen: Option<SeenArgs>,
) -> PyResult<Option<Exchange>> {
    let Some((keep, below, most)) = plan else {
        return Ok(None);
    };
    require(py, (1..=MAX_EXCHANGES).contains(&most), || {
        format!("exchange: the simulator makes 1 to {MAX_EXCHANGES} exchanges a round, not {most}")
    })?;
    let (keep, when) = match (keep.as_str(), rows, exchange_from) {
        ("nothing", _, None) => (Keep::Nothing, When::Below(below)),
        ("ace-king", _, None) => (Keep::AceKing, When::Below(below)),
        ("table" | "sees-discards", Some((up, hands, raises)), Some(from)) if from.len() == hands.len() => {
            let levels = (1..=most as u8)
                .map(|left| ExchangeLevel::from_canonical(up, hands, raises, &from, left))
                .collect();
            match (keep.as_str(), seen) {
                ("table", _) => (Keep::Nothing, When::Table(levels)),
                (_, Some(seen)) => (Keep::Nothing, When::SeesDiscards(levels, seen_values(py, seen, most)?)),
                (_, None) => return Err(argument_error(py, "exchange: sees-discards needs seen".into())),
            }
        }
        ("table" | "sees-discards", _, _) => {
            return Err(argument_error(
                py,
                "exchange: a table plan needs the rows and one exchange_from per row".into(),
            ))
        }
        (other, _, _) => {
            return Err(argument_error(
                py,
                format!(
                "exchange: unknown keep rule {other:?} (\"nothing\", \"ace-king\", \"table\" or \"sees-discards\")"
            ),
            ))
        }
    };
    Ok(Some(Exchange { keep, when, most }))
}

/// The bucket axes: first-five cuts, and one class cut per `HandClass`.
fn buckets(py: Python<'_>, first: &[u16], classes: &[u16]) -> PyResult<(Buckets, Buckets)> {
    cuts(py, "first_cuts", first, None)?;
    cuts(py, "class_cuts", classes, Some(HandClass::ALL.len()))?;
    Ok((Buckets::new(first), Buckets::new(classes)))
}

#[pymethods]
impl Simulator {
    /// Caribbean Stud: decisions from a raise `threshold` strength, or from canonical rows
    /// (`up_rank`, `hands`, `raises`); `exchange` = (keep rule, below strength, most), with
    /// `exchange_from` per row for the keep rules "table" and "sees-discards", and `seen` for
    /// the latter.
    #[staticmethod]
    #[pyo3(signature = (seats, qualifier, first_cuts, class_cuts, threshold=None, up_rank=None, hands=None, raises=None, exchange=None, exchange_from=None, seen=None))]
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
        seen: Option<SeenArgs>,
    ) -> PyResult<Self> {
        require(py, (1..=MAX_SEATS).contains(&seats), || {
            format!("seats: the simulator deals 1 to {MAX_SEATS} seats, not {seats}")
        })?;
        let qualifier = strength(py, "qualifier", qualifier)?;
        let (first, classes) = buckets(py, &first_cuts, &class_cuts)?;
        let from = exchange_from
            .map(|f| f.as_slice().map(<[u8]>::to_vec))
            .transpose()
            .map_err(|_| argument_error(py, "exchange_from must be contiguous".into()))?;
        let (decisions, exchange) = match (threshold, up_rank, hands, raises) {
            (Some(t), None, None, None) => (
                StudDecisions::threshold(strength(py, "threshold", t)?),
                exchange_plan(py, exchange, None, from, seen)?,
            ),
            (None, Some(u), Some(h), Some(r)) => {
                let hands = rows::<5>(py, &h)?;
                let up = u
                    .as_slice()
                    .map_err(|_| argument_error(py, "up_rank must be contiguous".into()))?
                    .to_vec();
                let raises = bools(py, &r, hands.len())?;
                checked_rows(py, py.detach(|| check_stud_rows(&up, &hands)))?;
                let decisions = py.detach(|| StudDecisions::from_canonical(&up, &hands, &raises));
                let plan = exchange_plan(py, exchange, Some((&up, &hands, &raises)), from, seen)?;
                (decisions, plan)
            }
            _ => {
                return Err(argument_error(
                    py,
                    "give a threshold, or up_rank, hands and raises".into(),
                ))
            }
        };
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
        let qualifier = strength(py, "qualifier", qualifier)?;
        let (first, classes) = buckets(py, &first_cuts, &class_cuts)?;
        let decisions = match (cards, calls, call_all) {
            (Some(c), Some(k), None) => {
                let rows = rows::<5>(py, &c)?;
                let calls = bools(py, &k, rows.len())?;
                checked_rows(py, py.detach(|| check_holdem_rows(&rows)))?;
                py.detach(|| HoldemDecisions::from_canonical(&rows, &calls))
            }
            (None, None, Some(all)) => HoldemDecisions::constant(all),
            _ => {
                return Err(argument_error(
                    py,
                    "give cards and calls, or call_all".into(),
                ))
            }
        };
        Ok(Simulator {
            game: AnyGame::Holdem(HoldemGame {
                qualifier,
                decisions,
                first,
                classes,
            }),
        })
    }

    /// The shape of the counts a run returns, by `SIM_AXES`.
    #[getter]
    fn shape(&self) -> Shape {
        match &self.game {
            AnyGame::Stud(g) => g.shape(),
            AnyGame::Holdem(g) => g.shape(),
        }
    }

    /// Counts of chunks [start, end) of a run of `total` rounds seeded `seed`, shaped by
    /// `SIM_AXES`.
    #[pyo3(signature = (seed, start, end, total, threads=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        seed: u64,
        start: u64,
        end: u64,
        total: u64,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
        let chunks = chunk_range(py, start, end, total)?;
        match &self.game {
            AnyGame::Stud(g) => count_rounds(py, g, seed, chunks, total, threads),
            AnyGame::Holdem(g) => count_rounds(py, g, seed, chunks, total, threads),
        }
    }

    /// Joint counts of chunks [start, end) of a run of `total` rounds seeded `seed`, the same
    /// deals played by this simulator and `other` (one stud seat each, as many exchange
    /// columns): an (n, n) array, n main cells (final class, exchanges made, outcome) each, this
    /// one's cell by row.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (other, seed, start, end, total, threads=None))]
    fn paired<'py>(
        &self,
        py: Python<'py>,
        other: &Simulator,
        seed: u64,
        start: u64,
        end: u64,
        total: u64,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
        let chunks = chunk_range(py, start, end, total)?;
        let (AnyGame::Stud(a), AnyGame::Stud(b)) = (&self.game, &other.game) else {
            return Err(argument_error(py, "paired: two stud simulators".into()));
        };
        require(
            py,
            a.seats == 1 && b.seats == 1 && a.main_cells() == b.main_cells(),
            || "paired: one seat each, with as many exchange columns".into(),
        )?;
        let n = a.main_cells();
        let counts = run_in_pool(py, threads, || paired(a, b, seed, chunks, total))?;
        PyArray1::from_vec(py, counts).reshape(vec![n, n])
    }

    /// Final bankrolls and ruin flags of sessions [start, end), one seat; see `sim::sessions`.
    /// `nets`: the net in antes of each cell of the seat's counts, flattened.
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
        let shape = self.shape();
        require(py, shape[0] == 1, || {
            format!("sessions: one seat, not {}", shape[0])
        })?;
        let cells: usize = shape.iter().product();
        require(py, nets.len() == cells, || {
            format!(
                "nets: one per count cell ({cells}, shape {shape:?}), not {}",
                nets.len()
            )
        })?;
        require(py, start <= end, || {
            format!("sessions {start}..{end}: start after end")
        })?;
        require(
            py,
            bankroll.is_finite() && worst_loss.is_finite() && nets.iter().all(|n| n.is_finite()),
            || "bankroll, worst_loss and nets must be finite".into(),
        )?;
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
    m.add("SIM_AXES", SIM_AXES.to_vec())?;
    m.add("SIM_OUTCOMES", SIM_OUTCOMES.to_vec())?;
    m.add("MAX_SEATS", MAX_SEATS)?;
    m.add("MAX_EXCHANGES", MAX_EXCHANGES)?;
    Ok(())
}
