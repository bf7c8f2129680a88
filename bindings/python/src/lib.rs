//! The native half of the Python package `shellbox` (imported as `shellbox._native`):
//! PyO3 classes over shellbox's public Rust API — [`shellbox::Shell`],
//! [`shellbox::Sandbox`], [`shellbox::Template`], the store, the agent tools and
//! [`shellbox::Limits`]. It translates and nothing more: scripts run on the engine's
//! threads with the GIL released ([`wait`]), bytes cross as `bytes` without decoding,
//! and every failure becomes a Python exception in one place ([`errors`]).

mod commands;
mod errors;
mod fs;
mod limits;
mod process;
mod run;
mod sandbox;
mod shell;
mod template;
mod tools;
mod wait;

use pyo3::prelude::*;

/// The module `shellbox._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<limits::Limits>()?;
    m.add_class::<run::RunResult>()?;
    m.add_class::<run::CancelToken>()?;
    m.add_class::<run::StopReason>()?;
    m.add_class::<shell::Shell>()?;
    m.add_class::<fs::FileSystem>()?;
    m.add_class::<fs::StatResult>()?;
    m.add_class::<fs::Snapshot>()?;
    m.add_class::<sandbox::Sandbox>()?;
    m.add_class::<sandbox::SaveReport>()?;
    m.add_class::<template::Template>()?;
    m.add_class::<process::Process>()?;
    m.add_class::<process::ByteStream>()?;
    m.add_class::<process::ProcessStdin>()?;
    m.add_class::<commands::CommandContext>()?;
    m.add_class::<commands::CommandOutput>()?;
    m.add_function(wrap_pyfunction!(tools::tool_specs, m)?)?;
    m.add_function(wrap_pyfunction!(shell::register_panicking_command, m)?)?;
    m.add("TERMINATED", shellbox::session::TERMINATED)?;
    m.add("INTERNAL_ERROR", shellbox::session::INTERNAL_ERROR)?;
    m.add("DEFAULT_EPOCH", shellbox::session::DEFAULT_EPOCH)?;
    wait::note_main_thread(m.py())?;
    Ok(())
}
