//! `shellbox.Limits`: the Rust [`shellbox::Limits`] with the same field names, as
//! attributes to read and set, keyword arguments to the constructor, and the
//! hardened profile. `timeout` is in seconds (a float, or `None` for no deadline).

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::Error;

/// Declares the counted fields once: the class's attributes, keyword handling and
/// conversion all come from this list.
macro_rules! counted_limits {
    ($($field:ident: $ty:ty),* $(,)?) => {
        /// Bounds on what one run may consume (see the Rust `shellbox::Limits`).
        #[pyclass(module = "shellbox", from_py_object)]
        #[derive(Clone, PartialEq)]
        pub struct Limits {
            $(#[pyo3(get, set)] $field: $ty,)*
            timeout: Option<Duration>,
        }

        impl Limits {
            fn from_rust(l: &shellbox::Limits) -> Limits {
                Limits { $($field: l.$field,)* timeout: l.timeout }
            }

            pub(crate) fn to_rust(&self) -> shellbox::Limits {
                let mut l = shellbox::Limits::default();
                $(l.$field = self.$field;)*
                l.timeout = self.timeout;
                l
            }

            /// Sets field `key` from a keyword argument.
            fn set(&mut self, key: &str, value: &Bound<'_, PyAny>) -> Result<(), Error> {
                match key {
                    $(stringify!($field) => {
                        self.$field = value.extract().map_err(|_| {
                            Error::Type(format!(
                                "limit {key} must be a whole number of 0 or more"
                            ))
                        })?;
                    })*
                    "timeout" => self.set_timeout(value)?,
                    _ => return Err(Error::Type(format!("unknown limit '{key}'"))),
                }
                Ok(())
            }

            /// The fields by name, in declaration order.
            fn items(&self, py: Python<'_>) -> PyResult<Vec<(&'static str, Py<PyAny>)>> {
                Ok(vec![
                    $((stringify!($field), self.$field.into_pyobject(py)?.into_any().unbind()),)*
                    ("timeout", self.timeout_secs().into_pyobject(py)?.into_any().unbind()),
                ])
            }
        }
    };
}

counted_limits! {
    max_commands: u64,
    max_loop_iterations: u64,
    max_call_depth: usize,
    max_subshell_depth: usize,
    max_output_bytes: u64,
    max_string_len: usize,
    max_words: usize,
    max_array_len: usize,
    max_brace_words: usize,
    max_glob_reads: usize,
    max_parse_depth: usize,
    max_source_bytes: usize,
    max_heredoc_bytes: usize,
    max_threads: usize,
    max_background_jobs: usize,
    max_file_bytes: u64,
    max_fs_bytes: u64,
    max_files: u64,
    max_memory_bytes: u64,
    max_io_bytes: u64,
}

impl Limits {
    fn with(base: &shellbox::Limits, kwargs: Option<&Bound<'_, PyDict>>) -> Result<Limits, Error> {
        let mut l = Limits::from_rust(base);
        for (k, v) in kwargs.map(|k| k.iter()).into_iter().flatten() {
            l.set(&k.extract::<String>()?, &v)?;
        }
        Ok(l)
    }

    fn timeout_secs(&self) -> Option<f64> {
        self.timeout.map(|t| t.as_secs_f64())
    }

    fn set_timeout(&mut self, value: &Bound<'_, PyAny>) -> Result<(), Error> {
        if value.is_none() {
            self.timeout = None;
            return Ok(());
        }
        let secs: f64 = value
            .extract()
            .map_err(|_| Error::Type("timeout must be a number of seconds or None".into()))?;
        self.timeout =
            Some(Duration::try_from_secs_f64(secs).map_err(|_| {
                Error::Value(format!("timeout must be 0 or more seconds, not {secs}"))
            })?);
        Ok(())
    }
}

#[pymethods]
impl Limits {
    /// The default limits, with any field given as a keyword changed.
    #[new]
    #[pyo3(signature = (**kwargs))]
    fn new(kwargs: Option<&Bound<'_, PyDict>>) -> Result<Limits, Error> {
        Limits::with(&shellbox::Limits::default(), kwargs)
    }

    /// The tighter profile for untrusted scripts, with any field given as a keyword
    /// changed.
    #[staticmethod]
    #[pyo3(signature = (**kwargs))]
    fn hardened(kwargs: Option<&Bound<'_, PyDict>>) -> Result<Limits, Error> {
        Limits::with(&shellbox::Limits::hardened(), kwargs)
    }

    /// Wall-clock seconds one run may take (`None`: no deadline).
    #[getter(timeout)]
    fn get_timeout(&self) -> Option<f64> {
        self.timeout_secs()
    }

    #[setter(timeout)]
    fn set_timeout_attr(&mut self, value: &Bound<'_, PyAny>) -> Result<(), Error> {
        self.set_timeout(value)
    }

    /// The fields as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.items(py)? {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Limits>().is_ok_and(|o| *o.borrow() == *self)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let fields: Vec<String> = self
            .items(py)?
            .into_iter()
            .map(|(k, v)| Ok(format!("{k}={}", v.bind(py).repr()?)))
            .collect::<PyResult<_>>()?;
        Ok(format!("Limits({})", fields.join(", ")))
    }
}
