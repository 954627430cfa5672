//! The Python module `caribbean_fast._core`: the only code that touches PyO3. Each binding
//! extracts its arguments, releases the interpreter for the heavy part, and converts the result.

mod checks;
mod errors;
mod eval;
mod exact;
mod fairness;
mod sim;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    eval::register(m)?;
    exact::register(m)?;
    fairness::register(m)?;
    sim::register(m)
}
