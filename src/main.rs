//! The `shellbox` command line: `shellbox -c 'script' [name args...]`, `shellbox FILE
//! args...`, or a script on stdin, run like `bash -c` over an in-memory filesystem;
//! `shellbox tool NAME 'JSON'` calls one agent tool; `shellbox mcp` serves the tools
//! over the Model Context Protocol on stdio. `--store DIR --session NAME` keeps a
//! session's filesystem (and read stamps) across runs.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shellbox::interp::io::{Capped, Capture, OpenFile};
use shellbox::session::{Sandbox, SandboxErrorKind};
use shellbox::store::Store;
use shellbox::{Shell, tools};

/// The interpreter makes and drops many short strings; under glibc's malloc a
/// parameter-expansion loop spent a third of its instructions in malloc and free.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
usage: shellbox [OPTIONS] [-euxv] [-o opt] (-c SCRIPT [NAME [ARG...]] | FILE [ARG...])
       shellbox [OPTIONS] tool NAME ['JSON']    (JSON on stdin when not given)
       shellbox [OPTIONS] mcp
       shellbox --version | --help
options: --root DIR  --cwd PATH  --env K=V  --json  --store DIR  --session NAME  --bash-wait SECS
         --timeout SECS  --limits default|hardened  --limit NAME=VALUE (repeatable)
         --allow-url PREFIX[,METHOD...]  --allow-private-url PREFIX[,METHOD...] (curl, wget)";

/// Why `parse_args` stopped without options to run with.
enum Stop {
    /// An answer (`--help`, `--version`): stdout, status 0.
    Print(String),
    /// A usage error: stderr, status 2.
    Usage(String),
}

impl From<String> for Stop {
    fn from(msg: String) -> Stop {
        Stop::Usage(msg)
    }
}

/// The usage, with the limits `--limit` takes and what each bounds.
fn help() -> String {
    let mut text = format!("{USAGE}\nlimits (--limit NAME=VALUE; sizes take K, M, G):\n");
    for (name, what) in shellbox::Limits::FIELDS {
        text.push_str(&format!("  {name:<20} {what}\n"));
    }
    text
}

struct Options {
    root: Option<String>,
    cwd: Option<String>,
    env: Vec<(String, String)>,
    json: bool,
    /// `-i`: the interactive loop even when stdin is not a terminal.
    interactive: bool,
    command: Option<String>,
    file: Option<String>,
    args: Vec<String>,
    set_flags: Vec<(String, bool)>,
    store: Option<String>,
    session: Option<String>,
    bash_wait: Option<Duration>,
    /// The limits every run gets (`--limits`, `--limit`, `--timeout`).
    limits: shellbox::Limits,
    /// `tool` or `mcp`.
    subcommand: Option<String>,
    /// What `curl` and `wget` may reach (`--allow-url`, `--allow-private-url`).
    network: Option<shellbox::net::NetworkPolicy>,
}

fn parse_args(argv: &[String]) -> Result<Options, Stop> {
    let mut o = Options {
        root: None,
        cwd: None,
        env: Vec::new(),
        json: false,
        interactive: false,
        command: None,
        file: None,
        args: Vec::new(),
        set_flags: Vec::new(),
        store: None,
        session: None,
        bash_wait: None,
        limits: shellbox::Limits::default(),
        subcommand: None,
        network: None,
    };
    // `--limits` picks the base the `--limit`s and `--timeout` then change, wherever
    // they stand on the line.
    let mut overrides: Vec<(String, String, String)> = Vec::new();
    let mut i = 0;
    let mut want_c = false;
    while i < argv.len() {
        let a = argv[i].as_str();
        let mut value = |name: &str| -> Result<String, Stop> {
            i += 1;
            argv.get(i)
                .cloned()
                .ok_or_else(|| Stop::Usage(format!("shellbox: {name} needs an argument")))
        };
        match a {
            "--root" => o.root = Some(value("--root")?),
            "--cwd" => o.cwd = Some(value("--cwd")?),
            "--env" => {
                let kv = value("--env")?;
                match kv.split_once('=') {
                    Some((k, v)) => o.env.push((k.to_owned(), v.to_owned())),
                    None => return Err(format!("shellbox: --env expects K=V, got '{kv}'").into()),
                }
            }
            "--json" => o.json = true,
            "--allow-url" | "--allow-private-url" => {
                let spec = value(a)?;
                let policy = o.network.take().unwrap_or_default();
                o.network = Some(policy.allow_spec(&spec, a == "--allow-private-url"));
            }
            "--store" => o.store = Some(value("--store")?),
            "--session" => o.session = Some(value("--session")?),
            "--bash-wait" => {
                let secs = value("--bash-wait")?;
                match secs
                    .parse::<f64>()
                    .ok()
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                {
                    Some(d) => o.bash_wait = Some(d),
                    None => {
                        return Err(
                            format!("shellbox: --bash-wait expects seconds, got '{secs}'").into(),
                        );
                    }
                }
            }
            "--limits" => {
                o.limits = match value("--limits")?.as_str() {
                    "default" => shellbox::Limits::default(),
                    "hardened" => shellbox::Limits::hardened(),
                    other => {
                        return Err(format!(
                            "shellbox: --limits takes default or hardened, not '{other}'"
                        )
                        .into());
                    }
                }
            }
            "--limit" => {
                let kv = value("--limit")?;
                match kv.split_once('=') {
                    Some((k, v)) => {
                        overrides.push((format!("--limit {kv}"), k.to_owned(), v.to_owned()))
                    }
                    None => {
                        return Err(
                            format!("shellbox: --limit expects NAME=VALUE, got '{kv}'").into()
                        );
                    }
                }
            }
            "--timeout" => {
                let secs = value("--timeout")?;
                overrides.push((format!("--timeout {secs}"), "timeout".to_owned(), secs));
            }
            "--version" => {
                return Err(Stop::Print(format!(
                    "shellbox {}",
                    env!("CARGO_PKG_VERSION")
                )));
            }
            "tool" | "mcp" if o.subcommand.is_none() && !want_c => {
                o.subcommand = Some(a.to_owned())
            }
            _ if o.subcommand.is_some() && !a.starts_with('-') => o.args.push(a.to_owned()),
            "--help" | "-h" => return Err(Stop::Print(help())),
            "-o" | "+o" => {
                let name = value(a)?;
                o.set_flags.push((name, a == "-o"));
            }
            "--" => {
                i += 1;
                break;
            }
            _ if a.starts_with('-') && a.len() > 1 && !a.starts_with("--") => {
                for c in a[1..].chars() {
                    match c {
                        'c' => want_c = true,
                        'i' => o.interactive = true,
                        's' | 'l' => {}
                        'e' => o.set_flags.push(("errexit".into(), true)),
                        'u' => o.set_flags.push(("nounset".into(), true)),
                        'x' => o.set_flags.push(("xtrace".into(), true)),
                        'v' => o.set_flags.push(("verbose".into(), true)),
                        'f' => o.set_flags.push(("noglob".into(), true)),
                        'n' => o.set_flags.push(("noexec".into(), true)),
                        'a' => o.set_flags.push(("allexport".into(), true)),
                        'C' => o.set_flags.push(("noclobber".into(), true)),
                        _ => return Err(format!("shellbox: -{c}: invalid option\n{USAGE}").into()),
                    }
                }
            }
            _ if a.starts_with("--") => {
                return Err(format!("shellbox: {a}: invalid option\n{USAGE}").into());
            }
            _ => break,
        }
        i += 1;
    }
    for (given, name, v) in &overrides {
        o.limits
            .set(name, v)
            .map_err(|e| format!("shellbox: {given}: {e}"))?;
    }
    let rest = &argv[i.min(argv.len())..];
    if o.session.is_some() && o.store.is_none() {
        return Err("shellbox: --session needs --store DIR".to_owned().into());
    }
    if o.subcommand.is_some() {
        o.args.extend(rest.iter().cloned());
        if o.subcommand.as_deref() == Some("tool") && o.args.is_empty() {
            return Err(format!("shellbox: tool: which tool?\n{USAGE}").into());
        }
        return Ok(o);
    }
    if want_c {
        let Some(script) = rest.first() else {
            return Err("bash: -c: option requires an argument".to_owned().into());
        };
        o.command = Some(script.clone());
        o.args = rest[1..].to_vec();
    } else if let Some(file) = rest.first() {
        o.file = Some(file.clone());
        o.args = rest[1..].to_vec();
    }
    Ok(o)
}

fn json_string(b: &[u8]) -> String {
    serde_json::to_string(&String::from_utf8_lossy(b)).unwrap_or_else(|_| "\"\"".to_owned())
}

/// The session this process holds (see `open_store`), released when it exits.
static HELD: std::sync::OnceLock<shellbox::store::SessionLock> = std::sync::OnceLock::new();

/// The store and session name given by `--store`/`--session`, opened and locked.
fn open_store(o: &Options) -> Result<Option<(Store, String)>, String> {
    let Some(dir) = &o.store else {
        return Ok(None);
    };
    let store = Store::open(dir).map_err(|e| format!("shellbox: --store {dir}: {e}"))?;
    let name = o.session.clone().unwrap_or_else(|| "default".to_owned());
    // The session is this process's until it exits: a second shellbox on it is
    // refused instead of both saving over each other's work.
    let lock = store
        .lock(&name)
        .map_err(|e| format!("shellbox: --session {name}: {e}"))?;
    let _ = HELD.set(lock);
    Ok(Some((store, name)))
}

/// The session: loaded from the store when it has one, else new (seeded from `--root`
/// into `seed_at`, when given). Damaged snapshots that were skipped are reported.
fn open_session(
    o: &Options,
    store: Option<&(Store, String)>,
    bash_wait: Option<Duration>,
    seed_at: &str,
) -> Result<Sandbox, String> {
    let mut builder = Sandbox::builder()
        .bash_wait(bash_wait)
        .limits(o.limits.clone());
    if let Some(policy) = &o.network {
        builder = builder.network(policy.clone());
    }
    for (k, v) in &o.env {
        builder = builder.env(k.clone(), v.clone());
    }
    if let Some((store, name)) = store {
        match builder.clone().load(store, name) {
            Ok((sb, report)) => {
                for d in &report.discarded {
                    eprintln!(
                        "shellbox: warning: skipped damaged snapshot {}: {}",
                        d.path.display(),
                        d.reason
                    );
                }
                return Ok(sb);
            }
            Err(e) if e.kind() == SandboxErrorKind::NotFound => {}
            Err(e) => return Err(format!("shellbox: loading session {name:?}: {e}")),
        }
    }
    let sb = builder.build();
    if let Some(root) = &o.root {
        let mut fs = sb.snapshot();
        let _ = fs.mkdir_all(seed_at, 0o755);
        let report = shellbox::session::copy_host_dir(
            &mut fs,
            Path::new(root),
            seed_at,
            &[".git", "target"],
        )
        .map_err(|e| format!("shellbox: --root {root}: {e}"))?;
        warn_seed(root, &report);
        sb.restore(fs);
    }
    Ok(sb)
}

/// The one line on stderr that says what of `--root` could not be copied as it is.
fn warn_seed(root: &str, report: &shellbox::session::SeedReport) {
    if let Some(w) = report.warning() {
        eprintln!("shellbox: warning: --root {root}: {w}");
    }
}

/// Saves the session back to the store, if there is one.
fn save_session(sb: &Sandbox, store: Option<&(Store, String)>) -> Result<(), String> {
    match store {
        Some((store, name)) => sb
            .save_blocking(store, name)
            .map(|_| ())
            .map_err(|e| format!("shellbox: saving session {name:?}: {e}")),
        None => Ok(()),
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("shellbox: cannot start the runtime: {e}"))
}

/// `shellbox tool NAME ['JSON']`: prints the tool's JSON result (exit 0) or
/// `{"error": ...}` (exit 1). Commands run to completion unless `--bash-wait` is given.
fn run_tool(o: &Options) -> Result<u8, String> {
    let name = o.args.first().cloned().unwrap_or_default();
    let text = match o.args.get(1) {
        Some(json) => json.clone(),
        None => {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map_err(|e| format!("shellbox: reading stdin: {e}"))?;
            String::from_utf8_lossy(&b).into_owned()
        }
    };
    let store = open_store(o)?;
    let sb = open_session(o, store.as_ref(), o.bash_wait, tools::WORKSPACE)?;
    let result = match serde_json::from_str(&text) {
        Ok(input) => runtime()?.block_on(sb.call_tool(&name, input)),
        Err(e) => Err(tools::ToolError::new(
            tools::ErrorKind::InvalidInput,
            format!("the input is not JSON: {e}"),
        )),
    };
    save_session(&sb, store.as_ref())?;
    match result {
        Ok(v) => {
            println!("{v}");
            Ok(0)
        }
        Err(e) => {
            println!("{}", e.to_json());
            Ok(1)
        }
    }
}

/// `shellbox mcp`: serves the tools on stdin/stdout until stdin ends.
fn run_mcp(o: &Options) -> Result<u8, String> {
    let store = open_store(o)?;
    let wait = o.bash_wait.unwrap_or(shellbox::session::DEFAULT_BASH_WAIT);
    let sb = open_session(o, store.as_ref(), Some(wait), tools::WORKSPACE)?;
    let mut server = shellbox::mcp::McpServer::new(sb.clone());
    if let Some((store, name)) = &store {
        server = server.with_store(store.clone(), name.clone());
    }
    let stdin = std::io::BufReader::new(std::io::stdin());
    let rt = runtime()?;
    rt.block_on(async {
        // A client that is done closes stdin, then sends SIGTERM after a while: either
        // ends the server, with its calls cancelled and the session saved.
        let shutdown = async {
            use tokio::signal::unix::{SignalKind, signal};
            match (
                signal(SignalKind::terminate()),
                signal(SignalKind::interrupt()),
            ) {
                (Ok(mut term), Ok(mut int)) => {
                    tokio::select! {
                        _ = term.recv() => {}
                        _ = int.recv() => {}
                    }
                }
                _ => std::future::pending().await,
            }
        };
        server.serve_until(stdin, std::io::stdout(), shutdown).await
    })
    .map_err(|e| format!("shellbox: mcp: {e}"))?;
    // The stdin reader thread may still be blocked in a read; do not wait for it.
    rt.shutdown_background();
    Ok(0)
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| shellbox::text::decode(a.as_encoded_bytes()))
        .collect();
    let o = match parse_args(&argv) {
        Ok(o) => o,
        Err(Stop::Print(text)) => {
            println!("{}", text.trim_end());
            return ExitCode::SUCCESS;
        }
        Err(Stop::Usage(msg)) => {
            eprintln!("{msg}");
            return ExitCode::from(2);
        }
    };
    let done = match o.subcommand.as_deref() {
        Some("tool") => run_tool(&o),
        Some("mcp") => run_mcp(&o),
        _ => run_script(&o),
    };
    match done {
        Ok(code) => ExitCode::from(code),
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
    }
}

/// Runs the script of `-c`, a file or stdin; returns its exit status.
fn run_script(o: &Options) -> Result<u8, String> {
    let store = open_store(o)?;
    let mut builder = Shell::builder().limits(o.limits.clone());
    if let Some(policy) = &o.network {
        builder = builder.network(policy.clone());
    }
    for (k, v) in &o.env {
        builder = builder.env(k.clone(), v.clone());
    }
    if let Some(c) = &o.cwd {
        builder = builder.cwd(c.clone());
    }
    let cwd = shellbox::fs::path::join(tools::WORKSPACE, o.cwd.as_deref().unwrap_or("."));
    let session = match &store {
        Some(_) => Some(open_session(o, store.as_ref(), None, &cwd)?),
        None => None,
    };
    if let Some(sb) = &session {
        builder = builder.filesystem(sb.snapshot());
        for (k, v) in sb.env() {
            builder = builder.env(k.clone(), v.clone());
        }
    }
    let mut sh = builder.build();
    if let (Some(root), None) = (&o.root, &session) {
        let mut fs = sh.fs_mut();
        let report =
            shellbox::session::copy_host_dir(&mut fs, Path::new(root), &cwd, &[".git", "target"])
                .map_err(|e| format!("shellbox: --root {root}: {e}"))?;
        warn_seed(root, &report);
    }
    let repl = o.command.is_none()
        && o.file.is_none()
        && (o.interactive || std::io::stdin().is_terminal());
    if repl {
        let code = run_repl(&mut sh, o);
        if let Some(sb) = &session {
            sb.restore(sh.fs().clone());
            save_session(sb, store.as_ref())?;
        }
        return Ok((code & 0xff) as u8);
    }
    let (script, name) = match (&o.command, &o.file) {
        (Some(c), _) => (c.clone(), None),
        (None, Some(f)) => match std::fs::read(f) {
            Ok(b) => (shellbox::text::decode(&b), Some(f.clone())),
            Err(e) => {
                // bash's words: strerror's text alone; a directory is named twice (as
                // the program bash became), and only a missing file is status 127.
                let text = e.to_string();
                let text = text.split(" (os error").next().unwrap_or_default();
                let who = if e.raw_os_error() == Some(21) {
                    f
                } else {
                    "bash"
                };
                eprintln!("{who}: {f}: {text}");
                let missing = e.kind() == std::io::ErrorKind::NotFound;
                return Ok(if missing { 127 } else { 126 });
            }
        },
        (None, None) => {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map_err(|e| format!("shellbox: reading stdin: {e}"))?;
            (shellbox::text::decode(&b), None)
        }
    };
    let interp = sh.interp_mut();
    for (flag, on) in &o.set_flags {
        if let Some(b) = interp.set.get_mut(flag) {
            *b = *on;
        }
    }
    interp.update_shellopts();
    if o.command.is_some() {
        if let Some((first, rest)) = o.args.split_first() {
            interp.arg0 = first.clone();
            interp.positional = Arc::new(rest.to_vec());
        }
    } else {
        interp.command_string_mode = false;
        if let Some(n) = &name {
            interp.arg0 = n.clone();
            interp.script_name = Some(n.clone());
        }
        interp.positional = Arc::new(o.args.clone());
    }
    let stdin_file: Arc<OpenFile> = if o.command.is_some() || o.file.is_some() {
        Arc::new(OpenFile::HostIn(Mutex::new(Box::new(std::io::stdin()))))
    } else {
        Arc::new(OpenFile::Device(shellbox::fs::Device::Null))
    };
    // Each stream stops the script at the limits' output cap, as a capture would.
    let cap = interp.budget.limits.max_output_bytes;
    let code = if o.json {
        let out = Capture::new(cap);
        let err = Capture::new(cap);
        interp.set_stdio(
            stdin_file,
            Arc::new(OpenFile::Capture(out.clone())),
            Arc::new(OpenFile::Capture(err.clone())),
        );
        let code = interp.run_script(&script);
        let code = interp.finish_run(code);
        println!(
            "{{\"stdout\":{},\"stderr\":{},\"exitCode\":{}}}",
            json_string(&out.take()),
            json_string(&err.take()),
            code
        );
        code
    } else {
        interp.set_stdio(
            stdin_file,
            Arc::new(OpenFile::HostOut(Mutex::new(Box::new(Capped::new(
                std::io::stdout(),
                cap,
            ))))),
            Arc::new(OpenFile::HostOut(Mutex::new(Box::new(Capped::new(
                std::io::stderr(),
                cap,
            ))))),
        );
        let code = interp.run_script(&script);
        let code = interp.finish_run(code);
        let _ = std::io::stdout().flush();
        code
    };
    if let Some(sb) = &session {
        let fs = sh.fs().clone();
        sb.restore(fs);
        save_session(sb, store.as_ref())?;
    }
    // The process ends next: freeing the filesystem inode by inode would only cost
    // time (an eighth of a run over a 20,000-file --root).
    std::mem::forget(sh);
    Ok((code & 0xff) as u8)
}

/// Whether `src` stops in the middle of a command (an open quote, `if` without `fi`,
/// a here-document without its end...), so the loop should read another line.
fn incomplete(src: &str, opts: shellbox::syntax::ParseOptions) -> bool {
    use shellbox::syntax::ParseErrorKind;
    match shellbox::syntax::parse_with(src, opts) {
        Err(e) => matches!(
            e.kind,
            ParseErrorKind::UnexpectedEof
                | ParseErrorKind::Unmatched(_)
                | ParseErrorKind::EofInSubstitution
        ),
        Ok(_) => src.trim_end_matches('\n').ends_with('\\'),
    }
}

/// The interactive loop: `PS1` before each command and `PS2` before continuation lines
/// (on stderr, as bash does), `PROMPT_COMMAND`, history kept in `$HISTFILE` inside the
/// sandbox, errors that do not end the shell; `exit` or end of input ends it.
fn run_repl(sh: &mut Shell, o: &Options) -> i32 {
    use shellbox::interp::Flow;
    let interp = sh.interp_mut();
    for (flag, on) in &o.set_flags {
        if let Some(b) = interp.set.get_mut(flag) {
            *b = *on;
        }
    }
    interp.become_interactive();
    // Turning history on reads $HISTFILE (see `update_shellopts`), so it is named first.
    let _ = interp.run_source(": ${HISTFILE=$HOME/.bash_history}", Some("startup"));
    interp.update_shellopts();
    interp.set_stdio(
        Arc::new(OpenFile::HostIn(Mutex::new(Box::new(std::io::stdin())))),
        Arc::new(OpenFile::HostOut(Mutex::new(Box::new(std::io::stdout())))),
        Arc::new(OpenFile::HostOut(Mutex::new(Box::new(std::io::stderr())))),
    );
    let mut pending = String::new();
    let mut status = 0;
    loop {
        let prompt_var = if pending.is_empty() {
            if let Some(pc) = interp.get_str("PROMPT_COMMAND") {
                let _ = interp.run_source(&pc, Some("PROMPT_COMMAND"));
                interp.status = status;
            }
            "PS1"
        } else {
            "PS2"
        };
        let prompt = interp.get_str(prompt_var).unwrap_or_default();
        let prompt = shellbox::interp::builtins::prompt::expand_prompt(interp, &prompt);
        eprint!("{prompt}");
        let _ = std::io::stderr().flush();
        let mut line = String::new();
        let eof = matches!(std::io::stdin().lock().read_line(&mut line), Ok(0) | Err(_));
        pending.push_str(&line);
        if !eof && incomplete(&pending, interp.parse_options()) {
            continue;
        }
        if eof && pending.trim().is_empty() {
            eprintln!("exit");
            break;
        }
        let ran = interp.run_source(&pending, None);
        pending.clear();
        match ran {
            Ok(s) => status = s,
            Err(Flow::Exit(s)) => {
                status = s;
                break;
            }
            Err(Flow::Fatal(msg)) => {
                interp.errln(&format!("bash: {msg}"));
                status = 126;
            }
            Err(_) => status = interp.status,
        }
        interp.status = status;
        if eof {
            eprintln!("exit");
            break;
        }
    }
    let _ = interp.run_source("history -w 2>/dev/null", Some("exit"));
    interp.status = status;
    let status = interp.run_exit_trap();
    interp.finish_run(status)
}
