//! `sqlite3`: the SQLite command-line shell over the real SQLite engine (bundled by
//! `rusqlite`). The database file's bytes are read from the sandbox's filesystem into
//! an in-memory connection (`sqlite3_deserialize`) and written back when the command
//! ends if they changed (`sqlite3_serialize`), so SQLite never opens a host file.
//! SQL comes from arguments, `-cmd` and standard input; the options, dot-commands,
//! output modes, messages and exit statuses follow the sqlite3 3.40 shell.
//!
//! Bounds: a progress handler stops a statement when the run is cancelled or out of
//! time, the database cannot grow past the file size limit (`max_page_count`), a value
//! past the string limit fails (`SQLITE_LIMIT_LENGTH`), temporary storage stays in
//! memory, and an authorizer refuses `ATTACH` of a file, `VACUUM INTO` and the pragmas
//! that would lift these bounds.

mod dot;
mod render;
mod text;

use std::io;
use std::sync::{Arc, Mutex};

use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::{Connection, ErrorCode, OpenFlags};

use self::render::{Cell, Mode, Style};
use super::{CmdResult, Ctx, fatal};

const HELP: &str = "\
Usage: sqlite3 [OPTIONS] FILENAME [SQL]
FILENAME is the name of an SQLite database. A new database is created
if the file does not previously exist.
OPTIONS include:
   -ascii               set output mode to 'ascii'
   -bail                stop after hitting an error
   -batch               force batch I/O
   -box                 set output mode to 'box'
   -column              set output mode to 'column'
   -cmd COMMAND         run \"COMMAND\" before reading stdin
   -csv                 set output mode to 'csv'
   -echo                print inputs before execution
   -init FILENAME       read/process named file
   -[no]header          turn headers on or off
   -help                show this message
   -json                set output mode to 'json'
   -line                set output mode to 'line'
   -list                set output mode to 'list'
   -markdown            set output mode to 'markdown'
   -newline SEP         set output row separator. Default: '\\n'
   -nullvalue TEXT      set text string for NULL values. Default ''
   -quote               set output mode to 'quote'
   -readonly            open the database read-only
   -separator SEP       set output column separator. Default: '|'
   -table               set output mode to 'table'
   -tabs                set output mode to 'tabs'
   -version             show SQLite version
";

/// Options that take a value (the value is the next argument).
const WITH_VALUE: &[&str] = &[
    "cmd",
    "init",
    "separator",
    "newline",
    "nullvalue",
    "vfs",
    "mmap",
    "maxsize",
    "nonce",
    "lookaside",
    "pagecache",
    "heap",
];

/// Options accepted and ignored (they tune the host process, which there is none of);
/// those of [`WITH_VALUE`] other than the ones the shell reads are ignored too.
const IGNORED: &[&str] = &[
    "batch",
    "interactive",
    "stats",
    "safe",
    "nofollow",
    "memtrace",
    "deserialize",
];

/// The sqlite3 shell.
pub fn sqlite3(ctx: &mut Ctx) -> CmdResult {
    let args = ctx.args.to_vec();
    // Pass 1: the file name, SQL operands, read-only, unknown options.
    let mut file: Option<String> = None;
    let mut sql_args: Vec<String> = Vec::new();
    let mut readonly = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if !a.starts_with('-') {
            if file.is_none() {
                file = Some(a.clone());
            } else {
                sql_args.push(a.clone());
            }
            continue;
        }
        let name = option_name(a);
        if WITH_VALUE.contains(&name) {
            if args.get(i).is_none() {
                writeln!(ctx.stderr, "sqlite3: Error: missing argument to {a}")?;
                return Ok(1);
            }
            i += if matches!(name, "lookaside" | "pagecache") {
                2
            } else {
                1
            };
            continue;
        }
        match name {
            "help" => {
                ctx.stderr.write_all(HELP.as_bytes())?;
                return Ok(1);
            }
            "version" => {
                let conn = Connection::open_in_memory().map_err(io::Error::other)?;
                let id: String = conn
                    .query_row("select sqlite_source_id()", [], |r| r.get(0))
                    .unwrap_or_default();
                writeln!(ctx.stdout, "{} {id}", rusqlite::version())?;
                return Ok(0);
            }
            "readonly" => readonly = true,
            "ascii" | "bail" | "box" | "column" | "csv" | "echo" | "header" | "noheader"
            | "json" | "line" | "list" | "markdown" | "quote" | "table" | "tabs" => {}
            n if IGNORED.contains(&n) => {}
            _ => {
                writeln!(
                    ctx.stderr,
                    "sqlite3: Error: unknown option: {a}\nUse -help for a list of options."
                )?;
                return Ok(1);
            }
        }
    }
    let file = file.unwrap_or_else(|| ":memory:".to_owned());
    let mut cli = match Cli::open(ctx, &file, readonly)? {
        Ok(cli) => cli,
        Err(msg) => {
            writeln!(
                ctx.stderr,
                "Error: unable to open database \"{file}\": {msg}"
            )?;
            return Ok(1);
        }
    };
    let status = cli.main(ctx, &args, &sql_args);
    let saved = cli.close(ctx);
    let status = status?;
    saved?;
    Ok(status)
}

/// `-name` or `--name` without the dashes.
fn option_name(a: &str) -> &str {
    let a = a.strip_prefix('-').unwrap_or(a);
    a.strip_prefix('-').unwrap_or(a)
}

/// A failed SQL statement: the shell's message (`in prepare, ...`, `stepping, ...`)
/// and SQLite's result code.
struct SqlError {
    msg: String,
    rc: i32,
}

/// What a dot-command asks of the input loop.
enum Flow {
    Go,
    /// Failed (counts as an error).
    Failed,
    /// `.quit`: stop reading input, status 0.
    Quit,
    /// `.exit N`: end the shell with status N.
    Exit(i32),
}

/// Where results go: standard output, or a file (`.output`, `.once`) written to the
/// sandbox's filesystem when it is closed.
enum Sink {
    Stdout,
    File { path: String, buf: Vec<u8> },
}

/// The database file behind the connection.
struct DbFile {
    path: String,
    original: Vec<u8>,
    existed: bool,
}

/// The shell's state.
struct Cli {
    conn: Connection,
    db: Option<DbFile>,
    readonly: bool,
    style: Style,
    header_set: bool,
    bail: bool,
    echo: bool,
    timer: bool,
    sink: Sink,
    /// `.once`: commands left before output goes back to stdout.
    once: u8,
    /// Why the progress handler stopped a statement.
    stopped: Arc<Mutex<Option<io::Error>>>,
    max_file: u64,
    max_string: usize,
    /// The file is not an SQLite database: every statement fails.
    notadb: bool,
}

impl Cli {
    /// Opens `file` (`:memory:` or a path in the sandbox). The inner `Err` is SQLite's
    /// reason the shell reports as `unable to open database`.
    fn open(ctx: &mut Ctx, file: &str, readonly: bool) -> io::Result<Result<Cli, String>> {
        let limits = ctx.fs.lock().limits();
        let mut conn = Connection::open_with_flags(
            ":memory:",
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(io::Error::other)?;
        let cant = "unable to open database file".to_owned();
        let mut db = None;
        let mut readonly = readonly;
        let mut notadb = false;
        if !file.is_empty() && file != ":memory:" {
            let path = ctx.path(file);
            let fs = ctx.fs.lock();
            let existed = match fs.stat(&path) {
                Ok(m) if m.is_dir() => return Ok(Err(cant)),
                Ok(_) => true,
                Err(_) => false,
            };
            let original = if existed {
                match fs.read_file(&path) {
                    Ok(b) => b.to_vec(),
                    Err(_) => return Ok(Err(cant)),
                }
            } else {
                if readonly {
                    return Ok(Err(cant));
                }
                // The parent must exist for the file to be created.
                let parent = crate::fs::path::parent(&path);
                if fs.stat_dir(parent).is_err() {
                    return Ok(Err(cant));
                }
                Vec::new()
            };
            if existed && !readonly && fs.access(&path, false, true, false).is_err() {
                readonly = true;
            }
            drop(fs);
            if !original.is_empty() {
                let len = original.len();
                if let Err(e) =
                    conn.deserialize_read_exact("main", original.as_slice(), len, readonly)
                {
                    return Ok(Err(e.to_string()));
                }
            }
            // What SQLite says of a file too short to hold a database header or
            // without its magic string, on the first statement.
            notadb = !original.is_empty()
                && (original.len() < 100 || !original.starts_with(b"SQLite format 3\0"));
            db = Some(DbFile {
                path,
                original,
                existed,
            });
        }
        let stopped = Arc::new(Mutex::new(None));
        let probe = ctx.host.probe();
        let flag = Arc::clone(&stopped);
        let _ = conn.progress_handler(
            1000,
            Some(move || match probe() {
                Ok(()) => false,
                Err(e) => {
                    *flag.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    true
                }
            }),
        );
        let _ = conn.execute_batch("PRAGMA temp_store=MEMORY");
        let page: i64 = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap_or(4096);
        let page = u64::try_from(page).unwrap_or(4096).max(512);
        let pages = (limits.max_file_bytes / page).max(1);
        let _ = conn.execute_batch(&format!(
            "PRAGMA max_page_count={pages}; PRAGMA temp.max_page_count={pages}"
        ));
        let max_string = i32::try_from(ctx_max_string(limits.max_file_bytes)).unwrap_or(i32::MAX);
        let _ = conn.set_limit(rusqlite::limits::Limit::SQLITE_LIMIT_LENGTH, max_string);
        let _ = conn.authorizer(Some(authorize));
        let cli = Cli {
            conn,
            db,
            readonly,
            style: Style {
                mode: Mode::List,
                header: false,
                colsep: b"|".to_vec(),
                rowsep: b"\n".to_vec(),
                null: Vec::new(),
                table: text::ident("table"),
                wrap: usize::MAX,
            },
            header_set: false,
            bail: false,
            echo: false,
            timer: false,
            sink: Sink::Stdout,
            once: 0,
            stopped,
            max_file: limits.max_file_bytes,
            max_string: usize::try_from(max_string).unwrap_or(usize::MAX),
            notadb,
        };
        Ok(Ok(cli))
    }

    /// Pass 2 over the arguments (modes, `-cmd` in order), then the SQL operands or
    /// standard input. Returns the exit status.
    fn main(&mut self, ctx: &mut Ctx, args: &[String], sql_args: &[String]) -> CmdResult {
        let mut i = 0;
        while let Some(a) = args.get(i) {
            i += 1;
            if !a.starts_with('-') {
                continue;
            }
            let name = option_name(a);
            let value = args.get(i).cloned().unwrap_or_default();
            match name {
                "bail" => self.bail = true,
                "echo" => self.echo = true,
                "header" => {
                    self.style.header = true;
                    self.header_set = true;
                }
                "noheader" => {
                    self.style.header = false;
                    self.header_set = true;
                }
                "list" => self.style.mode = Mode::List,
                "line" => self.style.mode = Mode::Line,
                "column" => self.style.mode = Mode::Column,
                "json" => self.style.mode = Mode::Json,
                "markdown" => self.style.mode = Mode::Markdown,
                "table" => self.style.mode = Mode::Table,
                "box" => self.style.mode = Mode::Box,
                "csv" => {
                    self.style.mode = Mode::Csv;
                    self.style.colsep = b",".to_vec();
                }
                "quote" => {
                    self.style.mode = Mode::Quote;
                    self.style.colsep = b",".to_vec();
                    self.style.rowsep = b"\n".to_vec();
                }
                "ascii" => {
                    self.style.mode = Mode::Ascii;
                    self.style.colsep = b"\x1f".to_vec();
                    self.style.rowsep = b"\x1e".to_vec();
                }
                "tabs" => {
                    self.style.mode = Mode::List;
                    self.style.colsep = b"\t".to_vec();
                }
                "separator" => self.style.colsep = value.into_bytes(),
                "newline" => self.style.rowsep = value.into_bytes(),
                "nullvalue" => self.style.null = value.into_bytes(),
                "init" => {
                    let path = ctx.path(&value);
                    let data = ctx.fs.lock().read_file(&path).map(|d| d.to_vec());
                    if let Ok(data) = data {
                        let mut src = Source::Bytes(&data, 0);
                        if let Some(code) = self.process(ctx, &mut src)?.exit {
                            return Ok(code);
                        }
                    }
                }
                "cmd" => {
                    if let Some(code) = self.arg_command(ctx, &value, false)? {
                        return Ok(code);
                    }
                }
                _ => {}
            }
            if WITH_VALUE.contains(&name) {
                i += if matches!(name, "lookaside" | "pagecache") {
                    2
                } else {
                    1
                };
            }
        }
        if !sql_args.is_empty() {
            for a in sql_args {
                if let Some(code) = self.arg_command(ctx, a, true)? {
                    return Ok(code);
                }
            }
            return Ok(0);
        }
        let mut stdin = Source::Reader(LineReader::new());
        let r = self.process(ctx, &mut stdin)?;
        Ok(r.exit.unwrap_or(i32::from(r.errors > 0)))
    }

    /// Runs one `-cmd` value or SQL operand; `Some(status)` ends the shell. A failing
    /// operand always ends it; a failing `-cmd` only under `-bail`.
    fn arg_command(&mut self, ctx: &mut Ctx, a: &str, operand: bool) -> io::Result<Option<i32>> {
        if a.starts_with('.') {
            let flow = self.dot(ctx, a)?;
            self.after_command(ctx)?;
            return Ok(match flow {
                Flow::Go => None,
                Flow::Quit => Some(0),
                Flow::Exit(n) => Some(n),
                Flow::Failed if operand || self.bail => Some(1),
                Flow::Failed => None,
            });
        }
        let r = self.run_sql(ctx, a)?;
        self.after_command(ctx)?;
        match r {
            Ok(()) => Ok(None),
            Err(e) => {
                writeln!(ctx.stderr, "Error: {}", e.msg)?;
                Ok((operand || self.bail).then_some(e.rc.max(1)))
            }
        }
    }

    /// `.once` bookkeeping after each command or statement group.
    fn after_command(&mut self, ctx: &mut Ctx) -> io::Result<()> {
        if self.once > 0 {
            self.once -= 1;
            if self.once == 0 {
                self.reset_output(ctx)?;
            }
        }
        Ok(())
    }

    /// The input loop (`process_input`): dot-commands at the start of a line, SQL
    /// gathered until it is a complete statement.
    fn process(&mut self, ctx: &mut Ctx, src: &mut Source) -> io::Result<Outcome> {
        let mut errors = 0u32;
        let mut sql: Vec<u8> = Vec::new();
        let mut start = 0usize;
        let mut lineno = 0usize;
        while errors == 0 || !self.bail {
            let Some(line) = src.line(ctx, self.max_string)? else {
                break;
            };
            lineno += 1;
            if sql.is_empty() && (line.first() == Some(&b'.') || line.first() == Some(&b'#')) {
                if self.echo {
                    self.write_out(ctx, &line)?;
                    self.write_out(ctx, b"\n")?;
                }
                if line.first() == Some(&b'.') {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    let flow = self.dot(ctx, &text)?;
                    self.after_command(ctx)?;
                    match flow {
                        Flow::Go => {}
                        Flow::Failed => errors += 1,
                        Flow::Quit => break,
                        Flow::Exit(n) => {
                            return Ok(Outcome {
                                errors,
                                exit: Some(n),
                            });
                        }
                    }
                }
                continue;
            }
            if sql.is_empty() {
                let skip = line.iter().take_while(|c| c.is_ascii_whitespace()).count();
                if skip == line.len() {
                    continue;
                }
                sql.extend_from_slice(line.get(skip..).unwrap_or_default());
                start = lineno;
            } else {
                sql.push(b'\n');
                sql.extend_from_slice(&line);
            }
            if sql.len() > self.max_string {
                return Err(fatal(format!(
                    "sqlite3: string length limit exceeded ({} bytes)",
                    self.max_string
                )));
            }
            if text::complete(&sql) {
                errors += self.run_line(ctx, &sql, start)?;
                sql.clear();
            }
        }
        if !sql.is_empty() && (errors == 0 || !self.bail) {
            errors += self.run_line(ctx, &sql, start)?;
        }
        Ok(Outcome { errors, exit: None })
    }

    /// Runs SQL gathered from input (`runOneSqlLine`); 1 on an error.
    fn run_line(&mut self, ctx: &mut Ctx, sql: &[u8], start: usize) -> io::Result<u32> {
        if self.echo {
            self.write_out(ctx, sql)?;
            self.write_out(ctx, b"\n")?;
        }
        let text = String::from_utf8_lossy(sql).into_owned();
        let begun = std::time::Instant::now();
        let r = self.run_sql(ctx, &text)?;
        if self.timer {
            let secs = begun.elapsed().as_secs_f64();
            let line = format!("Run Time: real {secs:.3} user {secs:.6} sys 0.000000\n");
            self.write_out(ctx, line.as_bytes())?;
        }
        self.after_command(ctx)?;
        match r {
            Ok(()) => Ok(0),
            Err(e) => {
                let (kind, tail) = if let Some(t) = e.msg.strip_prefix("in prepare, ") {
                    ("Parse error", t)
                } else if let Some(t) = e.msg.strip_prefix("stepping, ") {
                    ("Runtime error", t)
                } else {
                    ("Error", e.msg.as_str())
                };
                writeln!(ctx.stderr, "{kind} near line {start}: {tail}")?;
                Ok(1)
            }
        }
    }

    /// Runs every statement of `sql` (`shell_exec`), stopping at the first error.
    fn run_sql(&mut self, ctx: &mut Ctx, sql: &str) -> io::Result<Result<(), SqlError>> {
        use rusqlite::fallible_iterator::FallibleIterator;
        let mut rest = sql;
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                return Ok(Ok(()));
            }
            let end = statement_end(rest);
            let chunk = rest.get(..end).unwrap_or(rest);
            let Cli {
                conn,
                sink,
                style,
                max_file,
                max_string,
                ..
            } = self;
            let mut batch = rusqlite::Batch::new(conn, chunk);
            let failed = match batch.next() {
                Ok(None) => None,
                Ok(Some(mut stmt)) => {
                    let limits = (*max_file, *max_string);
                    exec_stmt(ctx, &mut stmt, style, sink, limits)?.map(|e| ("stepping", e, None))
                }
                Err(e) => Some(("in prepare", e, Some(rest))),
            };

            if let Some((phase, e, at)) = failed {
                return Ok(Err(self.sql_error(phase, &e, at)?));
            }
            rest = rest.get(end..).unwrap_or_default();
        }
    }

    /// The shell's message for a failed call (`save_err_msg`); a statement the
    /// progress handler stopped, or one that hit the file size limit, ends the run.
    fn sql_error(
        &mut self,
        phase: &str,
        e: &rusqlite::Error,
        sql: Option<&str>,
    ) -> io::Result<SqlError> {
        if let Some(code) = e.sqlite_error_code() {
            if code == ErrorCode::OperationInterrupted {
                let why = self
                    .stopped
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .take();
                if let Some(why) = why {
                    return Err(why);
                }
            }
            if code == ErrorCode::DiskFull {
                return Err(fatal(format!(
                    "sqlite3: {}",
                    crate::fs::LimitHit::FileBytes(self.max_file)
                )));
            }
        }
        let (msg, rc) = sql_error_parts(e, sql);
        Ok(SqlError {
            msg: format!("{phase}, {msg}"),
            rc,
        })
    }

    /// Appends to the current output.
    fn write_out(&mut self, ctx: &mut Ctx, bytes: &[u8]) -> io::Result<()> {
        write_sink(&mut self.sink, ctx, bytes, self.max_file)
    }

    /// Closes an output file (writing it) and goes back to standard output.
    fn reset_output(&mut self, ctx: &mut Ctx) -> io::Result<()> {
        if let Sink::File { path, buf } = std::mem::replace(&mut self.sink, Sink::Stdout) {
            let mode = ctx.file_mode();
            if let Err(e) = ctx.fs.lock().write_file_mode(&path, &buf, mode) {
                writeln!(ctx.stderr, "Error: cannot write \"{path}\": {e}")?;
            }
        }
        self.once = 0;
        Ok(())
    }

    /// Ends the shell: pending output written, the database saved if it changed.
    fn close(&mut self, ctx: &mut Ctx) -> io::Result<()> {
        self.reset_output(ctx)?;
        let Some(db) = &self.db else {
            return Ok(());
        };
        if self.readonly {
            return Ok(());
        }
        let path = db.path.clone();
        let existed = db.existed;
        let bytes = match self.conn.serialize("main") {
            Ok(d) => d.to_vec(),
            Err(_) => return Ok(()),
        };
        let original = self.db.as_ref().map(|d| d.original.as_slice());
        if existed && original == Some(bytes.as_slice()) {
            return Ok(());
        }
        // A new database nothing was written to is an empty file, as SQLite leaves it.
        let bytes = if original.is_none_or(<[u8]>::is_empty) && bytes == empty_database() {
            Vec::new()
        } else {
            bytes
        };
        if existed && original == Some(bytes.as_slice()) {
            return Ok(());
        }
        let mode = ctx.file_mode();
        if let Err(e) = ctx.fs.lock().write_file_mode(&path, &bytes, mode) {
            writeln!(ctx.stderr, "Error: cannot write \"{path}\": {e}")?;
        }
        Ok(())
    }
}

/// Executes a prepared statement and writes its rows in the current mode
/// (`exec_prepared_stmt`); the error a step failed with, if one did.
fn exec_stmt(
    ctx: &mut Ctx,
    stmt: &mut rusqlite::Statement<'_>,
    style: &Style,
    sink: &mut Sink,
    (max_file, max_string): (u64, usize),
) -> io::Result<Option<rusqlite::Error>> {
    let cols: Vec<String> = stmt.column_names().map(str::to_owned).collect();
    let n = cols.len();
    let mut rows = stmt.raw_query();
    let mut cnt = 0usize;
    let mut held: Vec<Vec<Cell>> = Vec::new();
    let mut held_bytes = 0usize;
    let mut buf = Vec::new();
    let mut failed = None;
    loop {
        match rows.next() {
            Ok(Some(row)) => {
                let mut cells = Vec::with_capacity(n);
                for i in 0..n {
                    cells.push(row.get_ref(i).map_or(Cell::Null, Cell::from_ref));
                }
                if style.mode.columnar() {
                    held_bytes += cells.iter().map(Cell::size).sum::<usize>();
                    if held_bytes > max_string {
                        return Err(fatal(format!(
                            "sqlite3: string length limit exceeded ({max_string} bytes)"
                        )));
                    }
                    held.push(cells);
                } else if style.mode != Mode::Off {
                    buf.clear();
                    render::row(&mut buf, style, &cols, &cells, cnt);
                    write_sink(sink, ctx, &buf, max_file)?;
                }
                cnt += 1;
            }
            Ok(None) => break,
            Err(e) => {
                failed = Some(e);
                break;
            }
        }
    }
    drop(rows);
    if style.mode.columnar() && !held.is_empty() {
        buf.clear();
        render::columnar(&mut buf, style, &cols, &held);
        write_sink(sink, ctx, &buf, max_file)?;
    } else if style.mode == Mode::Json && cnt > 0 {
        write_sink(sink, ctx, b"]\n", max_file)?;
    }
    Ok(failed)
}

/// What a fresh in-memory database serializes to.
fn empty_database() -> Vec<u8> {
    Connection::open_in_memory()
        .ok()
        .and_then(|mut c| c.serialize("main").ok().map(|d| d.to_vec()))
        .unwrap_or_default()
}

/// The string limit for SQL values: the file size limit, as a database holds values.
fn ctx_max_string(max_file: u64) -> u64 {
    max_file.min(1_000_000_000)
}

/// What one pass over an input source came to.
struct Outcome {
    errors: u32,
    exit: Option<i32>,
}

/// The byte offset just past the first statement of `sql` (its `;`, or the end).
fn statement_end(sql: &str) -> usize {
    let b = sql.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // Grow the candidate to the next semicolon and ask whether it is complete.
        match b.get(i..).and_then(|r| r.iter().position(|&c| c == b';')) {
            Some(p) => {
                i += p + 1;
                if text::complete(b.get(..i).unwrap_or_default()) {
                    return i;
                }
            }
            None => return b.len(),
        }
    }
    b.len()
}

/// SQLite's message and primary result code for an error, with the caret context the
/// shell adds when SQLite knows where in `sql` it went wrong.
fn sql_error_parts(e: &rusqlite::Error, sql: Option<&str>) -> (String, i32) {
    match e {
        rusqlite::Error::SqlInputError {
            error, msg, offset, ..
        } => {
            let rc = error.extended_code & 0xff;
            let mut m = msg.clone();
            if rc > 1 {
                m.push_str(&format!(" ({rc})"));
            }
            if let (Some(sql), Ok(off)) = (sql, usize::try_from(*offset)) {
                m.push_str(&error_context(sql, off));
            }
            (m, rc)
        }
        rusqlite::Error::SqliteFailure(error, msg) => {
            let rc = error.extended_code & 0xff;
            let mut m = msg.clone().unwrap_or_else(|| error.to_string());
            if rc > 1 {
                m.push_str(&format!(" ({rc})"));
            }
            (m, rc)
        }
        other => (other.to_string(), 1),
    }
}

/// The two lines under an error that point at its place (`shell_error_context`).
fn error_context(sql: &str, offset: usize) -> String {
    let b = sql.as_bytes();
    let mut start = 0usize;
    let mut off = offset;
    while off > 50 {
        off -= 1;
        start += 1;
        while b.get(start).is_some_and(|c| c & 0xc0 == 0x80) {
            start += 1;
            off = off.saturating_sub(1);
        }
    }
    let z = b.get(start..).unwrap_or_default();
    let mut len = z.len().min(78);
    while len > 0 && z.get(len).is_some_and(|c| c & 0xc0 == 0x80) {
        len -= 1;
    }
    let code: Vec<u8> = z
        .get(..len)
        .unwrap_or_default()
        .iter()
        .map(|&c| if c.is_ascii_whitespace() { b' ' } else { c })
        .collect();
    let code = String::from_utf8_lossy(&code);
    if off < 25 {
        format!("\n  {code}\n  {:off$}^--- error here", "")
    } else {
        let n = off - 14;
        format!("\n  {code}\n  {:n$}error here ---^", "")
    }
}

/// Writes to the current output; an output file past the file size limit ends the run.
fn write_sink(sink: &mut Sink, ctx: &mut Ctx, bytes: &[u8], max: u64) -> io::Result<()> {
    match sink {
        Sink::Stdout => ctx.stdout.write_all(bytes),
        Sink::File { buf, .. } => {
            if (buf.len() + bytes.len()) as u64 > max {
                return Err(fatal(format!(
                    "sqlite3: {}",
                    crate::fs::LimitHit::FileBytes(max)
                )));
            }
            buf.extend_from_slice(bytes);
            Ok(())
        }
    }
}

/// Refuses what would reach past the in-memory database or lift its bounds.
fn authorize(a: AuthContext<'_>) -> Authorization {
    match a.action {
        AuthAction::Attach { filename } => {
            if filename.is_empty() || filename == ":memory:" {
                Authorization::Allow
            } else {
                Authorization::Deny
            }
        }
        AuthAction::Pragma {
            pragma_name,
            pragma_value,
        } => {
            let name = pragma_name.to_ascii_lowercase();
            let guarded = matches!(
                name.as_str(),
                "max_page_count"
                    | "page_size"
                    | "temp_store"
                    | "temp_store_directory"
                    | "data_store_directory"
                    | "mmap_size"
                    | "hard_heap_limit"
                    | "soft_heap_limit"
            );
            if guarded && pragma_value.is_some() {
                Authorization::Deny
            } else {
                Authorization::Allow
            }
        }
        _ => Authorization::Allow,
    }
}

/// Lines of input: standard input read as it comes, or a file's bytes (`.read`).
enum Source<'d> {
    Reader(LineReader),
    Bytes(&'d [u8], usize),
}

impl Source<'_> {
    /// The next line without its newline; `None` at the end.
    fn line(&mut self, ctx: &mut Ctx, max: usize) -> io::Result<Option<Vec<u8>>> {
        match self {
            Source::Reader(r) => r.line(ctx, max),
            Source::Bytes(data, pos) => {
                let rest = data.get(*pos..).unwrap_or_default();
                if rest.is_empty() {
                    return Ok(None);
                }
                let end = rest.iter().position(|&c| c == b'\n');
                let line = rest.get(..end.unwrap_or(rest.len())).unwrap_or_default();
                *pos += end.map_or(rest.len(), |e| e + 1);
                Ok(Some(line.to_vec()))
            }
        }
    }
}

/// Reads standard input a chunk at a time and hands out lines.
struct LineReader {
    buf: Vec<u8>,
    eof: bool,
}

impl LineReader {
    fn new() -> LineReader {
        LineReader {
            buf: Vec::new(),
            eof: false,
        }
    }

    fn line(&mut self, ctx: &mut Ctx, max: usize) -> io::Result<Option<Vec<u8>>> {
        loop {
            if let Some(p) = self.buf.iter().position(|&c| c == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=p).collect();
                line.pop();
                return Ok(Some(line));
            }
            if self.eof {
                if self.buf.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(std::mem::take(&mut self.buf)));
            }
            if self.buf.len() > max {
                return Err(fatal(format!(
                    "sqlite3: string length limit exceeded ({max} bytes)"
                )));
            }
            let mut chunk = [0u8; 8192];
            let n = ctx.stdin.read(&mut chunk)?;
            if n == 0 {
                self.eof = true;
            }
            self.buf
                .extend_from_slice(chunk.get(..n).unwrap_or_default());
            ctx.host.check()?;
        }
    }
}
