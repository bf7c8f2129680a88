//! shellbox: a simulated GNU bash 5.2 over a persistent in-memory filesystem, with no
//! real processes.
//!
//! Layers, each knowing only those below it: `syntax` (lexer, parser, AST, printer),
//! `expand` (word expansion), `interp` (execution), `commands` (in-process utilities),
//! `fs` (the persistent filesystem), `tools` (the agent file tools), `store` (durable
//! snapshots), `session` (the public API) and `mcp` (the agent tools over the Model
//! Context Protocol).

pub mod commands;
pub mod expand;
pub mod fs;
#[doc(hidden)]
pub mod fuzzing;
pub mod interp;
pub mod limits;
pub mod mcp;
pub mod net;
pub mod posix_regex;
pub mod session;
pub mod store;
pub mod syntax;
pub mod text;
pub mod timefmt;
pub mod tools;

pub use interp::ExecOutput;
pub use limits::Limits;
pub use session::{Sandbox, SandboxBuilder, Shell, ShellBuilder, Template};

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
