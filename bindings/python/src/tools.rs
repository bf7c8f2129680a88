//! The agent tools as Python sees them: their definitions (name, description and
//! JSON Schema, straight from [`shellbox::tools::specs`], which `shellbox.tools`
//! reshapes for each LLM API), and JSON in and out of `call_tool`. Input is taken
//! as the model sends it: a JSON text (OpenAI's `arguments`) or an object (Anthropic's
//! `input`); JSON crosses through Python's `json` module, so a value that is not JSON
//! is a `TypeError` and a text that is not JSON is the tool error `invalid_input`.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use serde_json::Value;
use shellbox::tools::{ErrorKind, ToolError};

use crate::errors::Error;
use crate::wait::IntoPython;

/// The six tools as JSON: a list of `{name, description, inputSchema}`.
#[pyfunction]
pub(crate) fn tool_specs() -> Result<String, Error> {
    serde_json::to_string(&shellbox::tools::specs()).map_err(|e| Error::Internal(e.to_string()))
}

/// Python's `json` module.
fn json(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static JSON: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    JSON.get_or_try_init(py, || py.import("json").map(Bound::unbind))
        .map(|m| m.bind(py))
}

/// A tool's input: a JSON text, or a JSON-able Python value. A text that does not
/// parse is the tool's own `invalid_input` error (the model sent it; it can fix it).
pub(crate) fn input_of(obj: &Bound<'_, PyAny>) -> Result<Result<Value, ToolError>, Error> {
    let text: String = match obj.cast::<PyString>() {
        Ok(s) => {
            let s = s.to_str()?;
            return Ok(serde_json::from_str(s).map_err(|e| {
                ToolError::new(
                    ErrorKind::InvalidInput,
                    format!("invalid input: the arguments are not JSON: {e}"),
                )
            }));
        }
        Err(_) => json(obj.py())?
            .call_method1("dumps", (obj,))
            .map_err(|e| Error::Type(format!("tool input must be JSON-serializable: {e}")))?
            .extract()?,
    };
    serde_json::from_str(&text)
        .map(Ok)
        .map_err(|e| Error::Type(format!("tool input must be JSON (no NaN or Infinity): {e}")))
}

/// A JSON value, made a Python value under the GIL.
pub(crate) struct Json(pub(crate) Value);

impl IntoPython for Json {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let text = self.0.to_string();
        Ok(json(py)?.call_method1("loads", (text,))?.unbind())
    }
}
