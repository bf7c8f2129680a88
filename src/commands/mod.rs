//! The utilities a script calls by name (cat, ls, grep, ...), one module each, registered
//! in one table. They see only a [`Ctx`]: arguments, byte streams, exported environment,
//! cwd, the shared filesystem and a [`Host`] for running other commands — never the
//! interpreter's internals.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::Arc;

use crate::fs::SharedFs;

pub mod args;
#[cfg(test)]
pub mod testing;
pub mod util;

mod awk;
mod backtrack;
mod cat;
mod chmod;
mod cmp;
mod cp;
mod cut;
mod df;
mod diff;
mod du;
mod file;
mod find;
pub mod fnmatch;
mod grep;
mod gzip;
mod head;
mod jq;
mod ln;
mod ls;
mod mkdir;
mod mv;
mod rg;
mod rm;
mod rmdir;
mod sed;
mod sort;
mod stat;
mod tail;
mod tar;
mod touch;
mod tr;
mod tree;
mod uniq;
mod wc;
mod xargs;
mod yes;

/// What a command returns: its exit status, or an I/O error. A `BrokenPipe` error from
/// writing stdout becomes status 141 (SIGPIPE) without a message; an error made by
/// [`fatal`] ends the whole script (a limit or cancellation).
pub type CmdResult = io::Result<i32>;

/// A command's entry point.
pub type CommandFn = fn(&mut Ctx) -> CmdResult;

/// The interpreter's services a command may call back into.
pub trait Host {
    /// Runs a command line (`argv[0]` looked up as the shell would: functions are not
    /// visible, builtins and utilities are) with the given streams; returns its status.
    fn run(
        &mut self,
        argv: &[String],
        stdin: &mut dyn Read,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> CmdResult;
    /// Charges one unit of work and checks cancellation and the deadline; long loops in
    /// commands call it every so often.
    fn check(&mut self) -> io::Result<()>;
}

/// Everything a command sees.
pub struct Ctx<'a> {
    /// The name it was called by (`argv[0]`).
    pub name: &'a str,
    /// Arguments after the name.
    pub args: &'a [String],
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    /// Exported variables.
    pub env: &'a BTreeMap<String, String>,
    /// Absolute virtual working directory.
    pub cwd: &'a str,
    pub fs: &'a SharedFs,
    pub host: &'a mut dyn Host,
}

/// The error a command returns to stop the whole script (limit hit, cancelled).
#[derive(Debug)]
pub struct Fatal(pub String);
impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Fatal {}

/// Builds an I/O error carrying a [`Fatal`].
pub fn fatal(msg: impl Into<String>) -> io::Error {
    io::Error::other(Fatal(msg.into()))
}

/// The [`Fatal`] inside an I/O error, if any.
pub fn as_fatal(e: &io::Error) -> Option<&Fatal> {
    e.get_ref().and_then(|inner| inner.downcast_ref::<Fatal>())
}

impl Ctx<'_> {
    /// Resolves a possibly relative path against the cwd.
    pub fn path(&self, p: &str) -> String {
        crate::fs::path::join(self.cwd, p)
    }
    /// Writes `name: msg` and a newline to stderr (GNU diagnostic form).
    pub fn err(&mut self, msg: impl std::fmt::Display) -> io::Result<()> {
        writeln!(self.stderr, "{}: {}", self.name, msg)
    }
}

/// The table of built-in utilities.
pub fn builtin_table() -> Vec<(&'static str, CommandFn)> {
    vec![
        ("awk", awk::awk),
        ("cat", cat::cat),
        ("chmod", chmod::chmod),
        ("cmp", cmp::cmp),
        ("cp", cp::cp),
        ("cut", cut::cut),
        ("df", df::df),
        ("diff", diff::diff),
        ("du", du::du),
        ("file", file::file),
        ("find", find::find),
        ("grep", grep::grep),
        ("gunzip", gzip::gunzip),
        ("gzip", gzip::gzip),
        ("head", head::head),
        ("jq", jq::jq),
        ("ln", ln::ln),
        ("ls", ls::ls),
        ("mkdir", mkdir::mkdir),
        ("mv", mv::mv),
        ("rg", rg::rg),
        ("rm", rm::rm),
        ("rmdir", rmdir::rmdir),
        ("sed", sed::sed),
        ("sort", sort::sort),
        ("stat", stat::stat),
        ("tail", tail::tail),
        ("tar", tar::tar),
        ("touch", touch::touch),
        ("tr", tr::tr),
        ("tree", tree::tree),
        ("uniq", uniq::uniq),
        ("wc", wc::wc),
        ("xargs", xargs::xargs),
        ("yes", yes::yes),
        ("zcat", gzip::zcat),
    ]
}

/// A command as the registry stores it (built-in or registered by a host).
pub type DynCommand = Arc<dyn Fn(&mut Ctx) -> CmdResult + Send + Sync>;

/// A registry of commands: the built-in table plus whatever a host registers.
#[derive(Clone, Default)]
pub struct Registry {
    map: BTreeMap<String, DynCommand>,
}

impl Registry {
    /// The registry of every built-in utility.
    pub fn with_builtins() -> Registry {
        let mut r = Registry::default();
        for (name, f) in builtin_table() {
            r.map.insert(name.to_owned(), Arc::new(f));
        }
        r
    }
    /// Adds or replaces a command.
    pub fn register(
        &mut self,
        name: impl Into<String>,
        f: impl Fn(&mut Ctx) -> CmdResult + Send + Sync + 'static,
    ) {
        self.map.insert(name.into(), Arc::new(f));
    }
    /// Looks a command up.
    pub fn get(&self, name: &str) -> Option<DynCommand> {
        self.map.get(name).cloned()
    }
    /// Names of every registered command, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.map.keys()).finish()
    }
}
