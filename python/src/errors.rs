//! MuJoCo's Python exceptions.

use pyo3::exceptions::PyException;

pyo3::create_exception!(
    mjrs,
    FatalError,
    PyException,
    "A fatal error of the simulator (MuJoCo's `mju_error`), raised instead of ending the process."
);
pyo3::create_exception!(
    mjrs,
    UnexpectedError,
    PyException,
    "An error that should not happen (MuJoCo's `UnexpectedError`)."
);
