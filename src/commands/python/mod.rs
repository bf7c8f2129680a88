//! `python3` (and `python`): Python 3 in-process, on RustPython with its standard
//! library frozen into the binary, over the sandbox's filesystem.
//!
//! RustPython is built without its `host_env` feature, so the interpreter has no module
//! that can touch the host (no `os`/`posix`, no sockets, no native file objects). The
//! `posix` module `os` is built on is ours ([`posix.py`](posix.py)), answered by the
//! native `_shellbox` module of [`sandbox`] from the virtual filesystem, the session's
//! clock and seeded generator, and the command's own streams.
//!
//! Status (issue 28, in progress): behind the `python` feature, off by default.
//! RustPython is built without its `threading` feature, so its type objects, interned
//! strings and collector lists are per-thread statics that no interpreter frees; the
//! interpreter threads are therefore reused (see `workers`), and every interpreter uses
//! one hash seed, since the thread's interned strings keep the hashes the first one gave
//! them. Not there yet: each interpreter on a reused thread still leaves most of its
//! objects behind (about 10 MB a call), held by references the collector cannot see
//! (see vendor/rustpython-vm/README.shellbox.md for those found so far).
//!
//! The interpreter runs on an interpreter thread, with a large stack; the command's
//! thread serves its standard streams and watches the run's limits. When the run must
//! stop (time limit, cancellation), the interpreter is made to raise at its next
//! instruction and at every one after, so no Python code can hold it; a thread still
//! busy inside one built-in call after a grace period is left behind and the command
//! ends with the limit's message.

mod sandbox;

use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{CmdResult, Ctx, fatal};

pub use sandbox::Request;

/// What the interpreter thread runs.
enum Program {
    /// `-c CODE`.
    Code(String),
    /// `-m MODULE`.
    Module(String),
    /// A script's source and the path it was read from (`<stdin>` for standard input).
    Script { source: Vec<u8>, path: String },
}

/// The options of a run that reach the interpreter.
struct Options {
    unbuffered: bool,
    isolated: bool,
    /// -E (or -I): PYTHON* variables are ignored.
    ignore_env: bool,
}

const USAGE: &str = "usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...\n";

const HELP: &str = "\
usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
Options (and corresponding environment variables):
-B     : don't write .pyc files on import
-c cmd : program passed in as string (terminates option list)
-E     : ignore PYTHON* environment variables (such as PYTHONPATH)
-h     : print this help message and exit (also -? or --help)
-I     : isolate Python from the user's environment (implies -E and -s)
-m mod : run library module as a script (terminates option list)
-O     : remove assert and __debug__-dependent statements
-q     : don't print version and copyright messages on interactive startup
-s     : don't add user site directory to sys.path
-S     : don't imply 'import site' on initialization
-u     : force the stdout and stderr streams to be unbuffered
-V     : print the Python version number and exit (also --version)
-W arg : warning control
-X opt : set implementation-specific option
file   : program read from script file
-      : program read from stdin (default; interactive mode if a tty)
arg ...: arguments passed to program in sys.argv[1:]

This python3 is RustPython running inside the shellbox sandbox: it sees only the
sandbox's files, has no network, no subprocesses and no threads.
";

/// The Python version this interpreter implements, as `python3 -V` prints it.
pub const VERSION: &str = "Python 3.14.0";

/// The `python3` command.
pub fn python3(ctx: &mut Ctx) -> CmdResult {
    let args = ctx.args.to_vec();
    let mut opts = Options {
        unbuffered: false,
        isolated: false,
        ignore_env: false,
    };
    let mut i = 0;
    let mut program = None;
    while let Some(a) = args.get(i) {
        if a == "-" || !a.starts_with('-') {
            break;
        }
        i += 1;
        match a.as_str() {
            "--version" => {
                writeln!(ctx.stdout, "{VERSION}")?;
                return Ok(0);
            }
            "--help" => {
                ctx.stdout.write_all(HELP.as_bytes())?;
                return Ok(0);
            }
            "--" => break,
            _ if a.starts_with("--") => {
                write!(
                    ctx.stderr,
                    "unknown option {a}\n{USAGE}Try `python -h' for more information.\n"
                )?;
                return Ok(2);
            }
            _ => {}
        }
        // A cluster of one-letter options; `c`, `m`, `W` and `X` take the rest or the
        // next argument.
        let letters: Vec<char> = a.chars().skip(1).collect();
        let mut k = 0;
        while let Some(&c) = letters.get(k) {
            k += 1;
            match c {
                'c' | 'm' | 'W' | 'X' => {
                    let rest: String = letters.get(k..).unwrap_or_default().iter().collect();
                    let value = if !rest.is_empty() {
                        rest
                    } else if let Some(v) = args.get(i) {
                        i += 1;
                        v.clone()
                    } else {
                        write!(
                            ctx.stderr,
                            "Argument expected for the -{c} option\n{USAGE}Try `python -h' for more information.\n"
                        )?;
                        return Ok(2);
                    };
                    match c {
                        'c' => program = Some(Program::Code(value)),
                        'm' => program = Some(Program::Module(value)),
                        _ => {}
                    }
                    break;
                }
                'u' => opts.unbuffered = true,
                'I' => {
                    opts.isolated = true;
                    opts.ignore_env = true;
                }
                'E' => opts.ignore_env = true,
                'B' | 's' | 'S' | 'O' | 'q' | 'b' | 'd' | 'i' | 'R' | 'P' | 'v' | 'x' => {}
                'V' => {
                    writeln!(ctx.stdout, "{VERSION}")?;
                    return Ok(0);
                }
                'h' | '?' => {
                    ctx.stdout.write_all(HELP.as_bytes())?;
                    return Ok(0);
                }
                _ => {
                    write!(
                        ctx.stderr,
                        "Unknown option: -{c}\n{USAGE}Try `python -h' for more information.\n"
                    )?;
                    return Ok(2);
                }
            }
        }
        if program.is_some() {
            break;
        }
    }
    // sys.argv: the program's name (or `-c`, `-m`'s module path) and the rest.
    let mut argv: Vec<String> = Vec::new();
    let program = match program {
        Some(Program::Code(code)) => {
            argv.push("-c".to_owned());
            Program::Code(code)
        }
        Some(Program::Module(m)) => {
            argv.push(m.clone());
            Program::Module(m)
        }
        Some(p @ Program::Script { .. }) => p,
        None => match args.get(i) {
            Some(path) if path != "-" => {
                i += 1;
                let abs = crate::fs::path::join(ctx.cwd, path);
                match read_script(ctx, &abs) {
                    Ok(source) => {
                        argv.push(path.clone());
                        Program::Script { source, path: abs }
                    }
                    Err(e) => {
                        writeln!(
                            ctx.stderr,
                            "{}: can't open file {}: [Errno {}] {}",
                            ctx.name,
                            py_repr(&abs),
                            e.errno.code(),
                            e.errno.strerror()
                        )?;
                        return Ok(2);
                    }
                }
            }
            rest => {
                if rest.is_some() {
                    i += 1;
                }
                argv.push(if rest.is_some() { "-" } else { "" }.to_owned());
                let source = ctx.read_stdin_to_end(MAX_SCRIPT)?;
                Program::Script {
                    source,
                    path: "<stdin>".to_owned(),
                }
            }
        },
    };
    argv.extend(args.get(i..).unwrap_or_default().iter().cloned());
    if !opts.ignore_env
        && ctx
            .env
            .get("PYTHONUNBUFFERED")
            .is_some_and(|v| !v.is_empty())
    {
        opts.unbuffered = true;
    }
    run(ctx, program, argv, opts)
}

/// A script file's bytes, read through the filesystem with the caller's permissions.
fn read_script(ctx: &mut Ctx, abs: &str) -> Result<Vec<u8>, crate::fs::FsError> {
    let mut fs = ctx.fs.lock();
    let meta = fs.stat(abs)?;
    if meta.is_dir() {
        return Err(crate::fs::Errno::EISDIR.into());
    }
    let ino = fs.open(abs, crate::fs::OpenOptions::read())?;
    Ok(fs.content(ino)?.as_ref().clone())
}

/// `s` as Python's `repr` of a str shows it (enough for paths in messages).
fn py_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// The longest script read from standard input.
const MAX_SCRIPT: usize = 16 << 20;
/// How long a stopped interpreter has to unwind before its thread is left behind.
const GRACE: Duration = Duration::from_secs(2);
/// How often the command's thread checks the run's limits while Python runs.
const TICK: Duration = Duration::from_millis(5);
/// The interpreter thread's stack (reserved address space; only what is used is
/// backed by memory). It bounds how deep Python may recurse, with
/// [`sandbox::MAX_RECURSION`].
const STACK: usize = 1 << 30;

/// Work for an interpreter thread: it runs an interpreter and answers how it ended.
type Job = Box<dyn FnOnce() -> sandbox::Finished + Send>;

/// The most interpreter threads kept waiting for work. More may run at once (every
/// stage of a pipeline of `python3`s needs its own, or the pipeline could deadlock);
/// those beyond this many end when their run does.
const MAX_IDLE: usize = 4;

/// The most interpreters one thread runs. Each still leaves objects behind on its thread
/// (issue 28), and every later collection on the thread walks them, so a thread that has
/// run this many ends rather than get slower with every call.
const MAX_RUNS: usize = 16;

/// The threads that run interpreters. RustPython (without its `threading` feature)
/// keeps its type objects, interned strings and collector lists in per-thread statics
/// that outlive an interpreter and are never freed, so a thread of its own for every
/// `python3` would leave all of them behind (about 15 MB a call); instead a finished
/// thread waits here for the next `python3` of the process, whose new interpreter
/// reuses them. At most [`MAX_IDLE`] threads wait; one whose interpreter panicked or
/// was stopped mid-way (a limit, cancellation) is not reused.
mod workers {
    use std::sync::Mutex;
    use std::sync::mpsc;

    use super::{Job, MAX_IDLE, MAX_RUNS, STACK};

    static IDLE: Mutex<Vec<mpsc::Sender<Job>>> = Mutex::new(Vec::new());

    /// Runs `job` on an idle interpreter thread, or on a new one.
    pub fn submit(mut job: Job) -> std::io::Result<()> {
        loop {
            let idle = IDLE.lock().ok().and_then(|mut v| v.pop());
            let Some(tx) = idle else { break };
            match tx.send(job) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(j)) => job = j,
            }
        }
        let (tx, rx) = mpsc::channel::<Job>();
        let _ = tx.send(job);
        std::thread::Builder::new()
            .name("shellbox-python".to_owned())
            .stack_size(STACK)
            .spawn(move || worker(tx, rx))?;
        Ok(())
    }

    fn worker(tx: mpsc::Sender<Job>, rx: mpsc::Receiver<Job>) {
        let mut runs = 0;
        while let Ok(job) = rx.recv() {
            // A limit refused on this thread in an earlier run is not this run's.
            let _ = crate::fs::take_limit_hit();
            let finished = job();
            runs += 1;
            // Back among the idle threads before the command hears that the run is
            // done, so that a `python3` right after it finds this thread.
            let kept = finished.fit
                && runs < MAX_RUNS
                && match IDLE.lock() {
                    Ok(mut idle) if idle.len() < MAX_IDLE => {
                        idle.push(tx.clone());
                        true
                    }
                    _ => false,
                };
            finished.report();
            if !kept {
                return;
            }
        }
    }
}

fn run(ctx: &mut Ctx, program: Program, argv: Vec<String>, opts: Options) -> CmdResult {
    let (tx, rx) = mpsc::channel::<Request>();
    let (ids, umask) = (ctx.fs.lock().user(), ctx.umask);
    let setup = sandbox::Setup {
        fs: ctx.fs.clone(),
        cwd: ctx.cwd.to_owned(),
        env: ctx.env.clone(),
        isolated: opts.isolated,
        umask,
        uid: ids.0,
        gid: ids.1,
        pid: ctx.host.pid(),
        seed: ctx.host.random(),
        clock: ctx.fs.lock().clock().clone(),
        unbuffered: opts.unbuffered,
        tx,
    };
    let (stop_tx, stop_rx) = mpsc::channel::<Arc<sandbox::StopHandle>>();
    let job: Job = Box::new(move || sandbox::run_interpreter(setup, program, argv, stop_tx));
    match workers::submit(job) {
        Ok(()) => {}
        Err(e) => {
            writeln!(
                ctx.stderr,
                "{}: cannot start the interpreter: {e}",
                ctx.name
            )?;
            return Ok(126);
        }
    };
    let probe = ctx.host.probe();
    let memory = ctx.host.memory_limit().map(|max| (max, resident_bytes()));
    let mut stop: Option<Arc<sandbox::StopHandle>> = None;
    let mut stopped: Option<(String, Instant)> = None;
    let status = loop {
        if stop.is_none() {
            stop = stop_rx.try_recv().ok();
        }
        let over_memory = memory.and_then(|(max, base)| {
            let grown = resident_bytes().saturating_sub(base);
            (grown > max).then(|| format!("memory limit exceeded ({max} bytes)"))
        });
        if stopped.is_none()
            && let Some(err) = probe().err().map(|e| e.to_string()).or(over_memory)
        {
            if let Some(s) = &stop {
                s.stop();
            }
            stopped = Some((err, Instant::now()));
        }
        if let Some((msg, at)) = &stopped {
            if let Some(s) = &stop {
                s.stop();
            }
            if at.elapsed() > GRACE {
                // The thread is still inside one built-in call: leave it behind (it
                // rejoins the pool if the call ever returns).
                return Err(fatal(msg.clone()));
            }
        }
        match rx.recv_timeout(TICK) {
            Ok(req) => match serve(ctx, req) {
                Served::Continue => {}
                Served::Done(code) => break code,
                Served::Fatal(msg) => {
                    if let Some(s) = &stop {
                        s.stop();
                    }
                    if stopped.is_none() {
                        stopped = Some((msg, Instant::now()));
                    }
                }
            },
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // The thread ended without a status: it panicked inside the interpreter.
                break 70;
            }
        }
    };
    if let Some((msg, _)) = stopped {
        return Err(fatal(msg));
    }
    if status == 70 && stop.is_none() {
        writeln!(
            ctx.stderr,
            "{}: internal error in the interpreter",
            ctx.name
        )?;
    }
    Ok(status)
}

/// The process's resident memory in bytes (Linux; 0 elsewhere). The interpreter's
/// objects are not values the shell can weigh one by one, so its memory is measured as
/// the growth of the process while it runs: an over-estimate when other work in the
/// process grows at the same time, which errs on the side of stopping.
fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages.saturating_mul(4096))
}

enum Served {
    Continue,
    Done(i32),
    Fatal(String),
}

/// Sends `res` back to the interpreter thread; a limit's error stops the run.
fn answer<T, E: std::fmt::Display>(
    res: std::io::Result<T>,
    map: impl FnOnce(std::io::Error) -> E,
    reply: &std::sync::mpsc::SyncSender<Result<T, E>>,
) -> Served {
    let fatal_msg = res
        .as_ref()
        .err()
        .and_then(super::as_fatal)
        .map(|f| f.0.clone());
    let _ = reply.send(res.map_err(map));
    match fatal_msg {
        Some(m) => Served::Fatal(m),
        None => Served::Continue,
    }
}

/// Serves one request of the interpreter thread on the command's thread.
fn serve(ctx: &mut Ctx, req: Request) -> Served {
    match req {
        Request::Write { fd, data, reply } => {
            let out: &mut dyn Write = if fd == 2 { ctx.stderr } else { ctx.stdout };
            let res = out.write_all(&data).and_then(|()| out.flush());
            answer(res, |e| e, &reply)
        }
        Request::Read { max, reply } => {
            let mut buf = vec![0u8; max.min(1 << 16)];
            let res = ctx.stdin.read(&mut buf).map(|n| {
                buf.truncate(n);
                buf
            });
            answer(res, |e| e, &reply)
        }
        Request::Sleep { nanos, reply } => {
            let clock = ctx.fs.lock().clock().clone();
            let res = ctx.host.sleep(&clock, nanos);
            answer(res, |e| e.to_string(), &reply)
        }
        Request::Now { reply } => {
            let now = ctx.fs.lock().clock().now().as_nanos();
            let _ = reply.send(now);
            Served::Continue
        }
        Request::Done(code) => Served::Done(code),
    }
}

#[cfg(test)]
mod tests {
    use super::py_repr;

    #[test]
    fn repr_quotes_like_python() {
        assert_eq!(py_repr("/a/b.py"), "'/a/b.py'");
        assert_eq!(py_repr("it's"), "\"it's\"");
        assert_eq!(py_repr("a\nb"), "'a\\nb'");
    }
}
