//! Raising the package's own exceptions, defined once in `caribbean_fast/errors.py`.

use pyo3::prelude::*;
use pyo3::types::PyType;

/// An exception of class `name` from `caribbean_fast.errors`, carrying `message`.
pub(crate) fn package_error(py: Python<'_>, name: &str, message: String) -> PyErr {
    let class = py
        .import("caribbean_fast.errors")
        .and_then(|m| m.getattr(name))
        .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
    match class {
        Ok(class) => PyErr::from_type(class, message),
        Err(err) => err,
    }
}

pub(crate) fn invalid_cards(py: Python<'_>, message: String) -> PyErr {
    package_error(py, "InvalidCardsError", message)
}
