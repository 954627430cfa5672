//! Arguments checked before they reach the pure Rust, so that no input can panic: each check
//! raises the package's `ArgumentError` naming the argument and what it must be.

use super::errors::package_error;
use crate::eval::DISTINCT_STRENGTHS;
use crate::layout::MAX_BUCKETS;
use pyo3::prelude::*;

pub(crate) fn argument_error(py: Python<'_>, message: String) -> PyErr {
    package_error(py, "ArgumentError", message)
}

/// Fails with `message` unless `ok`.
pub(crate) fn require(py: Python<'_>, ok: bool, message: impl FnOnce() -> String) -> PyResult<()> {
    if ok {
        Ok(())
    } else {
        Err(argument_error(py, message()))
    }
}

/// A strength in 1..=DISTINCT_STRENGTHS.
pub(crate) fn strength(py: Python<'_>, name: &str, value: u16) -> PyResult<u16> {
    require(py, (1..=DISTINCT_STRENGTHS).contains(&value), || {
        format!("{name}: strength {value} is not in 1..={DISTINCT_STRENGTHS}")
    })?;
    Ok(value)
}

/// Cut strengths of a bucket axis: 1 to `MAX_BUCKETS` of them (exactly `len` when given), each
/// 0 (an unused bucket) or a strength, the strengths ascending and the first of them 1.
pub(crate) fn cuts(py: Python<'_>, name: &str, cuts: &[u16], len: Option<usize>) -> PyResult<()> {
    require(py, (1..=MAX_BUCKETS).contains(&cuts.len()), || {
        format!("{name}: 1 to {MAX_BUCKETS} cuts, not {}", cuts.len())
    })?;
    if let Some(n) = len {
        require(py, cuts.len() == n, || {
            format!("{name}: {n} cuts, one per class, not {}", cuts.len())
        })?;
    }
    let used: Vec<u16> = cuts.iter().copied().filter(|&c| c != 0).collect();
    require(
        py,
        used.first() == Some(&1)
            && used.windows(2).all(|w| w[0] < w[1])
            && used.iter().all(|&c| c <= DISTINCT_STRENGTHS),
        || {
            format!("{name}: the nonzero cuts must rise from 1 to at most {DISTINCT_STRENGTHS}: {cuts:?}")
        },
    )
}
