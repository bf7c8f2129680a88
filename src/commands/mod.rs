//! The utilities a script calls by name (cat, ls, grep, ...), one module each, registered
//! in one table. They see only a [`Ctx`]: arguments, byte streams, exported environment,
//! cwd, the shared filesystem and a [`Host`] for running other commands — never the
//! interpreter's internals.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::Arc;

use crate::fs::SharedFs;

/// The `--help` paragraph on SIZE units that `df` and `du` share; `$var` names the
/// command's own block-size variable prefix (`"DF"`, `"DU"`).
macro_rules! size_units_help {
    ($var:literal) => {
        concat!(
            "Display values are in units of the first available SIZE from --block-size,\n\
and the ",
            $var,
            "_BLOCK_SIZE, BLOCK_SIZE and BLOCKSIZE environment variables.\n\
Otherwise, units default to 1024 bytes (or 512 if POSIXLY_CORRECT is set).\n\
\n\
The SIZE argument is an integer and optional unit (example: 10K is 10*1024).\n\
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).\n\
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.\n"
        )
    };
}

pub mod about;
pub mod args;
pub mod digest;
#[cfg(test)]
pub mod testing;
pub mod util;

mod awk;
mod backtrack;
mod backup;
pub mod base64;
mod basename;
mod basenc;
mod bc;
mod bsdsum;
mod bzip2;
mod cat;
mod chmod;
mod chown;
mod cksum;
mod clear;
mod cmp;
mod column;
mod comm;
mod cp;
mod curl;
mod cut;
mod date;
mod dd;
mod df;
mod diff;
mod dirname;
mod du;
mod env;
mod envsubst;
mod expand;
mod expr;
mod false_;
mod file;
mod find;
mod fmt;
pub mod fnmatch;
mod fold;
mod grep;
mod gzip;
mod head;
mod hexdump;
mod hostname;
mod iconv;
mod id;
mod install;
mod join;
mod jq;
mod ln;
mod ls;
mod mkdir;
mod mkfifo;
mod mktemp;
mod mv;
mod nl;
mod nohup;
mod nproc;
mod numfmt;
mod od;
mod pager;
mod paste;
mod patch;
mod pgrep;
mod pr;
mod printenv;
mod ps;
mod pwd;
#[cfg(feature = "python")]
pub mod python;
mod readlink;
mod realpath;
mod rev;
pub(crate) mod rg;
mod rm;
mod rmdir;
mod sed;
mod seq;
mod shuf;
mod sleep;
mod sort;
mod split;
mod sqlite3;
mod stat;
mod strings;
mod sum;
mod tac;
mod tail;
mod tar;
mod tee;
mod time;
mod timeout;
mod touch;
mod tr;
mod tree;
mod true_;
mod truncate;
mod tsort;
mod tty;
mod uname;
mod unexpand;
mod uniq;
mod unzip;
mod uuidgen;
mod wc;
mod which;
mod whoami;
mod xargs;
mod xxd;
mod xz;
mod xz_list;
mod yes;
mod yq;
mod zip;

/// What a command returns: its exit status, or an I/O error. A `BrokenPipe` error from
/// writing stdout becomes status 141 (SIGPIPE) without a message; an error made by
/// [`fatal`] ends the whole script (a limit or cancellation).
pub type CmdResult = io::Result<i32>;

/// A command's entry point.
pub type CommandFn = fn(&mut Ctx) -> CmdResult;

/// One standard stream of a command a utility runs through the [`Host`].
pub enum Stdio<'a, T: ?Sized + 'a> {
    /// The utility's own stream (`ctx.stdin`, `ctx.stdout`, `ctx.stderr`): the command
    /// inherits the same descriptor, as a child process would, so its output streams in
    /// order after what the utility has written and its input is shared with the utility.
    Own(&'a mut T),
    /// Anything else: bytes the command reads (read to the end first), or a buffer its
    /// output is collected in (written once the command has finished).
    Given(&'a mut T),
}

impl<T: ?Sized> Stdio<'_, T> {
    /// The stream itself, for hosts without descriptors of their own.
    pub fn stream(&mut self) -> &mut T {
        match self {
            Stdio::Own(s) | Stdio::Given(s) => s,
        }
    }
}

/// The interpreter's services a command may call back into.
pub trait Host {
    /// Runs a command line (`argv[0]` looked up as the shell would: functions are not
    /// visible, builtins and utilities are) with the given streams; returns its status.
    ///
    /// ```
    /// use shellbox::commands::{CmdResult, Ctx, Stdio};
    ///
    /// // awk's `print "x" | "tr x y"` at close: the bytes printed into the pipe are the
    /// // command's stdin, and its output and errors go where awk's own go.
    /// fn close_pipe(ctx: &mut Ctx, printed: &[u8]) -> CmdResult {
    ///     let argv = ["sh", "-c", "tr x y"].map(String::from);
    ///     let mut input = printed;
    ///     ctx.host.run(
    ///         &argv,
    ///         Stdio::Given(&mut input),
    ///         Stdio::Own(&mut *ctx.stdout),
    ///         Stdio::Own(&mut *ctx.stderr),
    ///     )
    /// }
    /// ```
    fn run(
        &mut self,
        argv: &[String],
        stdin: Stdio<'_, dyn Read>,
        stdout: Stdio<'_, dyn Write>,
        stderr: Stdio<'_, dyn Write>,
    ) -> CmdResult;
    /// Charges one unit of work and checks cancellation and the deadline; long loops in
    /// commands call it every so often.
    fn check(&mut self) -> io::Result<()>;
    /// Runs a command line like [`Host::run`], but with `env` as its complete exported
    /// environment instead of the caller's (`env -i`, `env NAME=VALUE cmd`). Hosts that
    /// cannot change a command's environment may rely on the default, which ignores
    /// `env` and calls [`Host::run`].
    fn run_env(
        &mut self,
        argv: &[String],
        env: &BTreeMap<String, String>,
        stdin: Stdio<'_, dyn Read>,
        stdout: Stdio<'_, dyn Write>,
        stderr: Stdio<'_, dyn Write>,
    ) -> CmdResult {
        let _ = env;
        self.run(argv, stdin, stdout, stderr)
    }
    /// Runs a command line like [`Host::run_env`] in directory `cwd` (`env -C DIR`),
    /// resolved against the caller's. The default ignores `cwd`.
    fn run_env_in(
        &mut self,
        argv: &[String],
        env: &BTreeMap<String, String>,
        cwd: &str,
        stdin: Stdio<'_, dyn Read>,
        stdout: Stdio<'_, dyn Write>,
        stderr: Stdio<'_, dyn Write>,
    ) -> CmdResult {
        let _ = cwd;
        self.run_env(argv, env, stdin, stdout, stderr)
    }
    /// Whether `name` is a command [`Host::run`] can start (a builtin, a utility or an
    /// executable file), so that `env` can report one that is not as GNU does. The
    /// default says yes.
    fn command_exists(&mut self, name: &str) -> bool {
        let _ = name;
        true
    }
    /// Sleeps `nanos` of virtual time on `clock` (the `sleep` utility). The shell's
    /// host orders sleeps among its concurrent jobs and ends one early when a signal
    /// kills the command (an error); the default only moves the clock.
    fn sleep(&mut self, clock: &crate::fs::Clock, nanos: i64) -> io::Result<()> {
        clock.advance(nanos);
        Ok(())
    }
    /// 64 bits from the session's seeded generator (the one behind `$RANDOM`), for
    /// utilities that make random values (`uuidgen`): the same session replays the
    /// same values. The default is one fixed value.
    fn random(&mut self) -> u64 {
        0x2545_f491_4f6c_dd1d
    }
    /// The processes of the session, by pid (`ps`, `pgrep`). The default has none.
    fn processes(&mut self) -> Vec<crate::interp::procs::ProcInfo> {
        Vec::new()
    }
    /// The pid of the process running the command (`$$` of a utility: `pgrep`
    /// leaves itself out).
    fn pid(&mut self) -> u32 {
        0
    }
    /// Sends signal `sig` to process `pid` (0: only check that it runs); false when
    /// there is no such process. The default knows none.
    fn signal(&mut self, pid: u32, sig: i32) -> bool {
        let _ = (pid, sig);
        false
    }
    /// Runs a command line like [`Host::run`] under `timeout`'s alarm (see
    /// [`crate::interp::procs::AlarmSpec`]); returns its status and the signals the
    /// alarm sent. The default runs it without an alarm.
    fn run_timed(
        &mut self,
        argv: &[String],
        stdin: Stdio<'_, dyn Read>,
        stdout: Stdio<'_, dyn Write>,
        stderr: Stdio<'_, dyn Write>,
        alarm: &crate::interp::procs::AlarmSpec,
    ) -> io::Result<(i32, Vec<i32>)> {
        let _ = alarm;
        Ok((self.run(argv, stdin, stdout, stderr)?, Vec::new()))
    }
    /// A check for code the command hands to a library that calls it back with the
    /// host out of reach (SQLite's progress handler): like [`Host::check`] it reports
    /// cancellation, the run's deadline and a signal that ends the command, but it
    /// charges nothing. Call it on the command's own thread only. The default never
    /// stops.
    fn probe(&mut self) -> Probe {
        Arc::new(|| Ok(()))
    }
    /// Charges `n` bytes a command read from a named file to the run's I/O budget
    /// ([`crate::Limits::max_io_bytes`]), as bytes read from standard input are; an
    /// error stops the run. The default charges nothing.
    fn charge_io(&self, n: usize) -> io::Result<()> {
        let _ = n;
        Ok(())
    }
    /// Opens `path` (absolute) for reading when the plain filesystem cannot serve it: a
    /// FIFO, whose open waits for a writer as open(2) does. `None` means an ordinary
    /// path, for the command to read through the filesystem. The default knows none.
    fn open_read(&self, path: &str) -> Option<io::Result<Box<dyn Read + Send>>> {
        let _ = path;
        None
    }
    /// Opens `path` (absolute) for writing when the plain filesystem cannot serve it: a
    /// FIFO (the open waits for a reader), or `/dev/stdout`, `/dev/stderr` and
    /// `/dev/fd/N` naming one of the calling shell's descriptors (the path of a process
    /// substitution `>(...)`). `None` means an ordinary path. The default knows none.
    fn open_write(&self, path: &str) -> Option<io::Result<Box<dyn Write + Send>>> {
        let _ = path;
        None
    }
    /// The regular file descriptor `fd` is open on, if it is one: its inode and the
    /// descriptor's offset (what fstat(2) and lseek(2) tell a program). The default
    /// knows none.
    fn fd_file(&self, fd: i32) -> Option<(crate::fs::Ino, u64)> {
        let _ = fd;
        None
    }
    /// The network policy `curl` and `wget` run under; the default (and a host that
    /// set none) has no network.
    fn network(&mut self) -> Option<Arc<crate::net::NetworkPolicy>> {
        None
    }
    /// The run's memory budget in bytes ([`crate::Limits::max_memory_bytes`]), for a
    /// command whose memory the shell cannot see value by value (`python3`). The
    /// default has none.
    fn memory_limit(&self) -> Option<u64> {
        None
    }
}

/// What [`Host::probe`] returns.
pub type Probe = Arc<dyn Fn() -> io::Result<()> + Send + Sync>;

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
    /// The calling shell's umask: the permission bits a file or directory the command
    /// creates does not get.
    pub umask: u32,
    /// `stdin` and `stdout` as shared buffers, when the shell offers them.
    pub shared: Option<&'a dyn SharedIo>,
}

pub use crate::interp::io::SharedBytes;

/// A command's standard input and output as shared buffers, where the shell can move
/// bytes between stages without copying them (pipes, in-memory files). Meant for
/// utilities that pass bytes through unchanged (`cat`); both views are the same
/// streams, so a command may mix them: what it wrote to [`Ctx::stdout`] goes out first.
pub trait SharedIo {
    /// The next block of standard input (`Some(None)` at its end), or `None` when this
    /// input can only be read through [`Ctx::stdin`].
    fn read_shared(&self) -> Option<io::Result<Option<SharedBytes>>>;
    /// Writes `bytes` to standard output; a pipe takes the buffer itself.
    fn write_shared(&self, bytes: SharedBytes) -> io::Result<()>;
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
    /// All of stdin, for commands that need their input whole (a host's callback, say):
    /// more than `max` bytes ends the run with the string length limit, and the run's
    /// cancellation and deadline are checked between chunks, so an endless producer
    /// (`yes | cmd`) ends at a limit instead of filling the host's memory.
    ///
    /// ```
    /// use shellbox::commands::Registry;
    /// use std::io::Write;
    /// let mut r = Registry::with_builtins();
    /// r.register("size", |ctx| {
    ///     let all = ctx.read_stdin_to_end(1000)?;
    ///     writeln!(ctx.stdout, "{}", all.len())?;
    ///     Ok(0)
    /// });
    /// let mut sh = shellbox::Shell::builder().registry(r).build();
    /// assert_eq!(sh.exec("seq 3 | size").stdout, b"6\n");
    /// let out = sh.exec("yes | size");
    /// assert_eq!(out.exit_code, 126);
    /// assert!(String::from_utf8_lossy(&out.stderr).contains("string length limit exceeded (1000 bytes)"));
    /// ```
    pub fn read_stdin_to_end(&mut self, max: usize) -> io::Result<Vec<u8>> {
        let mut all = Vec::new();
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            let n = self.stdin.read(&mut chunk)?;
            if n == 0 {
                return Ok(all);
            }
            if all.len() + n > max {
                return Err(fatal(format!(
                    "{}: string length limit exceeded ({max} bytes)",
                    self.name
                )));
            }
            all.extend_from_slice(chunk.get(..n).unwrap_or_default());
            self.host.check()?;
        }
    }

    /// The local time zone, from the command's `TZ` (UTC when unset).
    pub fn zone(&self) -> crate::timefmt::Zone {
        crate::timefmt::Zone::from_tz(self.env.get("TZ").map(String::as_str))
    }

    /// Resolves a possibly relative path against the cwd.
    pub fn path(&self, p: &str) -> String {
        crate::fs::path::join(self.cwd, p)
    }

    /// The mode of a file the command creates: 0666 less the umask, as open(2) with
    /// O_CREAT gives for the usual mode argument.
    pub fn file_mode(&self) -> u32 {
        0o666 & !self.umask
    }

    /// The mode of a directory the command creates: 0777 less the umask (mkdir(2)).
    pub fn dir_mode(&self) -> u32 {
        0o777 & !self.umask
    }
    /// Writes `name: msg` and a newline to stderr (GNU diagnostic form); values quoted
    /// with [`util::lq`] get the locale's quotation marks.
    pub fn err(&mut self, msg: impl std::fmt::Display) -> io::Result<()> {
        let msg = util::resolve_quotes(&msg.to_string(), util::utf8_locale(self.env));
        writeln!(self.stderr, "{}: {}", self.name, msg)
    }
}

/// The table of built-in utilities.
pub fn builtin_table() -> Vec<(&'static str, CommandFn)> {
    vec![
        ("b2sum", sum::b2sum),
        ("base64", base64::base64),
        ("basename", basename::basename),
        ("bc", bc::bc),
        ("cat", cat::cat),
        ("cksum", cksum::cksum),
        ("comm", comm::comm),
        ("cp", cp::cp),
        ("curl", curl::curl),
        ("cut", cut::cut),
        ("date", date::date),
        ("dd", dd::dd),
        ("dirname", dirname::dirname),
        ("env", env::env),
        ("expand", expand::expand),
        ("expr", expr::expr),
        ("false", false_::false_),
        ("awk", awk::awk),
        ("chmod", chmod::chmod),
        ("chown", chown::chown),
        ("chgrp", chown::chgrp),
        ("cmp", cmp::cmp),
        ("column", column::column),
        ("df", df::df),
        ("diff", diff::diff),
        ("du", du::du),
        ("file", file::file),
        ("find", find::find),
        ("fmt", fmt::fmt),
        ("fold", fold::fold),
        ("grep", grep::grep),
        ("egrep", grep::egrep),
        ("fgrep", grep::fgrep),
        ("bunzip2", bzip2::bunzip2),
        ("bzcat", bzip2::bzcat),
        ("bzip2", bzip2::bzip2),
        ("unzip", unzip::unzip),
        ("zip", zip::zip),
        ("gunzip", gzip::gunzip),
        ("gzip", gzip::gzip),
        ("head", head::head),
        ("hexdump", hexdump::hexdump),
        ("hd", hexdump::hexdump),
        ("hostname", hostname::hostname),
        ("iconv", iconv::iconv),
        ("id", id::id),
        ("install", install::install),
        ("jq", jq::jq),
        ("yq", yq::yq),
        ("join", join::join),
        ("ln", ln::ln),
        ("ls", ls::ls),
        ("md5sum", sum::md5sum),
        ("mkdir", mkdir::mkdir),
        ("mkfifo", mkfifo::mkfifo),
        ("mktemp", mktemp::mktemp),
        ("mv", mv::mv),
        ("nl", nl::nl),
        ("nproc", nproc::nproc),
        ("numfmt", numfmt::numfmt),
        ("od", od::od),
        ("paste", paste::paste),
        ("pr", pr::pr),
        ("patch", patch::patch),
        ("pgrep", pgrep::pgrep),
        ("pkill", pgrep::pkill),
        ("printenv", printenv::printenv),
        ("ps", ps::ps),
        ("pwd", pwd::pwd),
        ("readlink", readlink::readlink),
        ("realpath", realpath::realpath),
        ("rev", rev::rev),
        ("rg", rg::rg),
        ("rm", rm::rm),
        ("rmdir", rmdir::rmdir),
        ("seq", seq::seq),
        ("sha1sum", sum::sha1sum),
        ("sha224sum", sum::sha224sum),
        ("sha256sum", sum::sha256sum),
        ("sha384sum", sum::sha384sum),
        ("sha512sum", sum::sha512sum),
        ("shuf", shuf::shuf),
        ("sleep", sleep::sleep),
        ("sort", sort::sort),
        ("split", split::split),
        ("sqlite3", sqlite3::sqlite3),
        ("strings", strings::strings),
        ("tac", tac::tac),
        ("sed", sed::sed),
        ("stat", stat::stat),
        ("tail", tail::tail),
        ("tar", tar::tar),
        ("tee", tee::tee),
        ("time", time::time),
        ("timeout", timeout::timeout),
        ("touch", touch::touch),
        ("tr", tr::tr),
        ("true", true_::true_),
        ("truncate", truncate::truncate),
        ("uname", uname::uname),
        ("unexpand", unexpand::unexpand),
        ("uniq", uniq::uniq),
        ("wc", wc::wc),
        ("wget", curl::wget),
        ("which", which::which),
        ("tty", tty::tty),
        ("whoami", whoami::whoami),
        ("tree", tree::tree),
        ("xargs", xargs::xargs),
        ("unxz", xz::unxz),
        ("xxd", xxd::xxd),
        ("xz", xz::xz),
        ("xzcat", xz::xzcat),
        ("yes", yes::yes),
        ("zcat", gzip::zcat),
        ("base32", basenc::base32),
        ("basenc", basenc::basenc),
        ("clear", clear::clear),
        ("envsubst", envsubst::envsubst),
        ("less", pager::less),
        ("more", pager::more),
        ("nohup", nohup::nohup),
        ("sum", bsdsum::sum),
        ("tsort", tsort::tsort),
        ("uuidgen", uuidgen::uuidgen),
    ]
}

/// A command as the registry stores it (built-in or registered by a host).
pub type DynCommand = Arc<dyn Fn(&mut Ctx) -> CmdResult + Send + Sync>;

/// A registry of commands: the built-in table plus whatever a host registers.
#[derive(Clone, Default)]
pub struct Registry {
    map: BTreeMap<String, DynCommand>,
    /// Names a host registered (not the built-in table's): a filesystem made
    /// elsewhere (a fork, a loaded snapshot) may not list them in `/usr/bin` yet.
    registered: std::collections::BTreeSet<String>,
    /// What `curl` and `wget` may reach (none when unset).
    network: Option<Arc<crate::net::NetworkPolicy>>,
}

impl Registry {
    /// The registry of every built-in utility.
    pub fn with_builtins() -> Registry {
        let mut r = Registry::default();
        for (name, f) in builtin_table() {
            r.map.insert(name.to_owned(), Arc::new(f));
        }
        #[cfg(feature = "python")]
        for name in ["python3", "python"] {
            r.map.insert(name.to_owned(), Arc::new(python::python3));
        }
        r
    }
    /// Adds a command, or replaces one of the same name. To wrap a command it replaces,
    /// [`get`](Self::get) it first and call it from the new one:
    ///
    /// ```
    /// use shellbox::commands::Registry;
    /// use std::io::Write;
    ///
    /// let mut r = Registry::with_builtins();
    /// // A command of the host's own.
    /// r.register("greet", |ctx| {
    ///     let who = ctx.args.first().map_or("world", String::as_str);
    ///     writeln!(ctx.stdout, "hello, {who}")?;
    ///     Ok(0)
    /// });
    /// // `wc` replaced by one that announces itself, then runs the built-in.
    /// if let Some(wc) = r.get("wc") {
    ///     r.register("wc", move |ctx| {
    ///         writeln!(ctx.stderr, "(wc, as wrapped by the host)")?;
    ///         wc(ctx)
    ///     });
    /// }
    /// let mut sh = shellbox::Shell::builder().registry(r).build();
    /// let out = sh.exec("greet agent; printf 'a\\nb\\n' | wc -l; command -v greet");
    /// assert_eq!(out.stdout, b"hello, agent\n2\n/usr/bin/greet\n");
    /// assert_eq!(out.stderr, b"(wc, as wrapped by the host)\n");
    /// ```
    pub fn register(
        &mut self,
        name: impl Into<String>,
        f: impl Fn(&mut Ctx) -> CmdResult + Send + Sync + 'static,
    ) {
        let name = name.into();
        self.registered.insert(name.clone());
        self.map.insert(name, Arc::new(f));
    }
    /// The names registered with [`register`](Self::register), sorted.
    pub fn registered_names(&self) -> impl Iterator<Item = &str> {
        self.registered.iter().map(String::as_str)
    }
    /// Sets the network policy the commands run under (`curl`, `wget`); without one
    /// they have no network.
    pub fn set_network(&mut self, policy: crate::net::NetworkPolicy) {
        self.network = Some(Arc::new(policy));
    }
    /// The network policy, if one was set.
    pub fn network(&self) -> Option<Arc<crate::net::NetworkPolicy>> {
        self.network.clone()
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

/// What a GNU utility reports, and its status, when it meets a closed standard
/// output (`out_closed`) or input (`in_closed`); `None` for the usual
/// `NAME: write error: ...` with status 1.
pub fn closed_std_report(
    name: &str,
    out_closed: bool,
    in_closed: bool,
) -> Option<(&'static [&'static str], i32)> {
    if out_closed {
        return match name {
            "cat" => Some((&["standard output: Bad file descriptor"], 1)),
            "tee" => Some((&["'standard output': Bad file descriptor"], 1)),
            "sort" => Some((
                &[
                    "fflush failed: 'standard output': Bad file descriptor",
                    "write error",
                ],
                2,
            )),
            "grep" | "egrep" | "fgrep" => Some((&["write error: Bad file descriptor"], 2)),
            "sed" => Some((&["couldn't close stdout: Bad file descriptor"], 4)),
            _ => None,
        };
    }
    if !in_closed {
        return None;
    }
    let report: (&'static [&'static str], i32) = match name {
        "head" => (
            &[
                "error reading 'standard input': Bad file descriptor",
                "-: Bad file descriptor",
            ],
            1,
        ),
        "tail" => (
            &[
                "cannot fstat 'standard input': Bad file descriptor",
                "-: Bad file descriptor",
            ],
            1,
        ),
        "tac" => (
            &[
                "'standard input': read error: Bad file descriptor",
                "-: Bad file descriptor",
            ],
            1,
        ),
        "sort" => (&["stat failed: -: Bad file descriptor"], 2),
        "grep" | "egrep" | "fgrep" => (&["(standard input): Bad file descriptor"], 2),
        "sed" => (&["read error on stdin: Bad file descriptor"], 4),
        "tr" | "base64" | "base32" => (&["read error: Bad file descriptor"], 1),
        "tee" => (
            &[
                "read error: Bad file descriptor",
                "standard input: Bad file descriptor",
            ],
            1,
        ),
        "cut" | "nl" => (&["-: Bad file descriptor", "-: Bad file descriptor"], 1),
        "uniq" => (&["error reading '-'"], 1),
        "md5sum" | "sha1sum" | "sha224sum" | "sha256sum" | "sha384sum" | "sha512sum" | "b2sum" => (
            &[
                "-: Bad file descriptor",
                "standard input: Bad file descriptor",
            ],
            1,
        ),
        "rev" => (&["stdin: 0: Bad file descriptor"], 1),
        _ => return None,
    };
    Some(report)
}
