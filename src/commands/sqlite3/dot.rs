//! The `sqlite3` shell's dot-commands (`.tables`, `.schema`, `.mode`, `.dump`,
//! `.import`, `.read`, `.output`, ...): their argument parsing, messages and
//! statuses as in sqlite3 3.40.

use std::io;

use super::render::{Cell, Mode};
use super::text::{CsvReader, ident};
use super::{Cli, Flow, Sink, Source};
use crate::commands::Ctx;

/// The dot-commands, with the shortest prefix each accepts.
const NAMES: &[(&str, usize)] = &[
    ("bail", 2),
    ("dump", 1),
    ("echo", 2),
    ("exit", 2),
    ("headers", 1),
    ("help", 2),
    ("import", 2),
    ("indexes", 3),
    ("indices", 3),
    ("mode", 1),
    ("nullvalue", 1),
    ("once", 2),
    ("output", 1),
    ("print", 2),
    ("quit", 1),
    ("read", 3),
    ("schema", 2),
    ("separator", 2),
    ("tables", 2),
    ("timer", 2),
];

/// Splits a dot-command line into words (`do_meta_command`): blanks separate words,
/// quotes group them, and backslash escapes are resolved outside single quotes.
fn words(line: &str) -> Vec<String> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut h = 0;
    while h < b.len() {
        while b.get(h).is_some_and(u8::is_ascii_whitespace) {
            h += 1;
        }
        let Some(&c) = b.get(h) else { break };
        if c == b'\'' || c == b'"' {
            h += 1;
            let start = h;
            while let Some(&x) = b.get(h) {
                if x == c {
                    break;
                }
                if x == b'\\' && c == b'"' && b.get(h + 1).is_some() {
                    h += 1;
                }
                h += 1;
            }
            let w = b.get(start..h).unwrap_or_default();
            h += 1;
            out.push(if c == b'"' {
                unescape(w)
            } else {
                String::from_utf8_lossy(w).into_owned()
            });
        } else {
            let start = h;
            while b.get(h).is_some_and(|x| !x.is_ascii_whitespace()) {
                h += 1;
            }
            out.push(unescape(b.get(start..h).unwrap_or_default()));
        }
    }
    out
}

/// `resolve_backslashes`: `\t`, `\n`, `\\`, octal `\NNN` and the rest.
fn unescape(w: &[u8]) -> String {
    let mut out = Vec::with_capacity(w.len());
    let mut i = 0;
    while let Some(&c) = w.get(i) {
        i += 1;
        if c != b'\\' {
            out.push(c);
            continue;
        }
        let Some(&e) = w.get(i) else {
            out.push(c);
            break;
        };
        i += 1;
        out.push(match e {
            b'a' => 7,
            b'b' => 8,
            b't' => b'\t',
            b'n' => b'\n',
            b'v' => 11,
            b'f' => 12,
            b'r' => b'\r',
            b'0'..=b'7' => {
                let mut v = u32::from(e - b'0');
                for _ in 0..2 {
                    match w.get(i) {
                        Some(&d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                u8::try_from(v & 0xff).unwrap_or(0)
            }
            other => other,
        });
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The shell's boolean words (`booleanValue`).
fn boolean(ctx: &mut Ctx, w: &str) -> io::Result<bool> {
    if let Ok(n) = w.parse::<i64>() {
        return Ok(n != 0);
    }
    match w.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => {
            writeln!(
                ctx.stderr,
                "ERROR: Not a boolean value: \"{w}\". Assuming \"no\"."
            )?;
            Ok(false)
        }
    }
}

impl Cli {
    /// Runs one dot-command line.
    pub(super) fn dot(&mut self, ctx: &mut Ctx, line: &str) -> io::Result<Flow> {
        let args = words(line.get(1..).unwrap_or_default());
        let Some(given) = args.first().cloned() else {
            return Ok(Flow::Go);
        };
        let name = NAMES
            .iter()
            .find(|(full, min)| given.len() >= *min && full.starts_with(given.as_str()))
            .map(|(full, _)| *full);
        let rest: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
        let Some(name) = name else {
            writeln!(
                ctx.stderr,
                "Error: unknown command or invalid arguments:  \"{given}\". Enter \".help\" for help"
            )?;
            return Ok(Flow::Failed);
        };
        match (name, rest.as_slice()) {
            ("bail", [v]) => self.bail = boolean(ctx, v)?,
            ("echo", [v]) => self.echo = boolean(ctx, v)?,
            ("timer", [v]) => self.timer = boolean(ctx, v)?,
            ("headers", [v]) => {
                self.style.header = boolean(ctx, v)?;
                self.header_set = true;
            }
            ("bail" | "echo" | "timer", _) => {
                writeln!(ctx.stderr, "Usage: .{name} on|off")?;
                return Ok(Flow::Failed);
            }
            ("headers", _) => {
                writeln!(ctx.stderr, "Usage: .headers on|off")?;
                return Ok(Flow::Failed);
            }
            ("quit", _) => return Ok(Flow::Quit),
            ("exit", []) => return Ok(Flow::Quit),
            ("exit", [n, ..]) => {
                let code = n.trim().parse::<i64>().unwrap_or(0);
                let code = i32::try_from(code & 0xff).unwrap_or(0);
                return Ok(if code == 0 {
                    Flow::Quit
                } else {
                    Flow::Exit(code)
                });
            }
            ("mode", _) => return self.mode(ctx, &rest),
            ("separator", [col, row @ ..]) if row.len() <= 1 => {
                self.style.colsep = col.as_bytes().to_vec();
                if let Some(r) = row.first() {
                    self.style.rowsep = r.as_bytes().to_vec();
                }
            }
            ("separator", _) => {
                writeln!(ctx.stderr, "Usage: .separator COL ?ROW?")?;
                return Ok(Flow::Failed);
            }
            ("nullvalue", [v]) => self.style.null = v.as_bytes().to_vec(),
            ("nullvalue", _) => {
                writeln!(ctx.stderr, "Usage: .nullvalue STRING")?;
                return Ok(Flow::Failed);
            }
            ("print", words) => {
                let line = format!("{}\n", words.join(" "));
                self.write_out(ctx, line.as_bytes())?;
            }
            ("tables", pat) | ("indexes" | "indices", pat) if pat.len() <= 1 => {
                return self.list_names(ctx, name == "tables", pat.first().copied());
            }
            ("tables", _) => {
                writeln!(ctx.stderr, "Usage: .tables ?LIKE-PATTERN?")?;
                return Ok(Flow::Failed);
            }
            ("indexes" | "indices", _) => {
                writeln!(ctx.stderr, "Usage: .indexes ?LIKE-PATTERN?")?;
                return Ok(Flow::Failed);
            }
            ("schema", pat) if pat.len() <= 1 => return self.schema(ctx, pat.first().copied()),
            ("schema", _) => {
                writeln!(
                    ctx.stderr,
                    "Usage: .schema ?--indent? ?--nosys? ?LIKE-PATTERN?"
                )?;
                return Ok(Flow::Failed);
            }
            ("dump", pat) => return self.dump(ctx, pat),
            ("read", [file]) => return self.read(ctx, file),
            ("read", _) => {
                writeln!(ctx.stderr, "Usage: .read FILE")?;
                return Ok(Flow::Failed);
            }
            ("output" | "once", args) => return self.output(ctx, name == "once", args),
            ("import", args) => return self.import(ctx, args),
            ("help", _) => {
                let mut text = String::new();
                for (n, _) in NAMES {
                    text.push('.');
                    text.push_str(n);
                    text.push('\n');
                }
                self.write_out(ctx, text.as_bytes())?;
            }
            _ => {
                writeln!(
                    ctx.stderr,
                    "Error: unknown command or invalid arguments:  \"{given}\". Enter \".help\" for help"
                )?;
                return Ok(Flow::Failed);
            }
        }
        Ok(Flow::Go)
    }

    /// `.mode ?MODE? ?TABLE?`.
    fn mode(&mut self, ctx: &mut Ctx, args: &[&str]) -> io::Result<Flow> {
        let Some(m) = args.first() else {
            let (name, columnar) = match self.style.mode {
                Mode::List => ("list", false),
                Mode::Line => ("line", false),
                Mode::Column => ("column", true),
                Mode::Csv => ("csv", false),
                Mode::Insert => ("insert", false),
                Mode::Quote => ("quote", false),
                Mode::Ascii => ("ascii", false),
                Mode::Markdown => ("markdown", true),
                Mode::Table => ("table", true),
                Mode::Box => ("box", true),
                Mode::Json => ("json", false),
                Mode::Off => ("off", false),
            };
            let mut line = format!("current output mode: {name}");
            if columnar {
                let wrap = if self.style.wrap == usize::MAX {
                    0
                } else {
                    self.style.wrap
                };
                line.push_str(&format!(" --wrap {wrap} --wordwrap off --noquote"));
            }
            line.push('\n');
            self.write_out(ctx, line.as_bytes())?;
            return Ok(Flow::Go);
        };
        // Checked in the shell's order, so a prefix picks the first match.
        const ORDER: &[&str] = &[
            "lines", "columns", "list", "csv", "tabs", "insert", "quote", "ascii", "markdown",
            "table", "box", "off", "json",
        ];
        let Some(found) = ORDER.iter().find(|o| o.starts_with(m)).copied() else {
            writeln!(
                ctx.stderr,
                "Error: mode should be one of: ascii box column csv html insert json line list markdown qbox quote table tabs tcl"
            )?;
            return Ok(Flow::Failed);
        };
        let st = &mut self.style;
        match found {
            "lines" => {
                st.mode = Mode::Line;
                st.rowsep = b"\n".to_vec();
            }
            "list" => {
                st.mode = Mode::List;
                st.colsep = b"|".to_vec();
                st.rowsep = b"\n".to_vec();
            }
            "csv" => {
                st.mode = Mode::Csv;
                st.colsep = b",".to_vec();
                st.rowsep = b"\r\n".to_vec();
            }
            "tabs" => {
                st.mode = Mode::List;
                st.colsep = b"\t".to_vec();
            }
            "insert" => {
                st.mode = Mode::Insert;
                st.table = ident(args.get(1).copied().unwrap_or("table"));
            }
            "quote" => {
                st.mode = Mode::Quote;
                st.colsep = b",".to_vec();
                st.rowsep = b"\n".to_vec();
            }
            "ascii" => {
                st.mode = Mode::Ascii;
                st.colsep = b"\x1f".to_vec();
                st.rowsep = b"\x1e".to_vec();
            }
            "off" => st.mode = Mode::Off,
            "json" => st.mode = Mode::Json,
            columnar => {
                st.mode = match columnar {
                    "columns" => Mode::Column,
                    "markdown" => Mode::Markdown,
                    "table" => Mode::Table,
                    _ => Mode::Box,
                };
                st.wrap = 60;
                st.rowsep = b"\n".to_vec();
                if columnar == "columns" && !self.header_set {
                    st.header = true;
                }
            }
        }
        Ok(Flow::Go)
    }

    /// Rows of one column from a query with text parameters (names, schema text).
    fn strings(&self, sql: &str, params: &[&str]) -> Result<Vec<Vec<Cell>>, String> {
        if self.notadb {
            return Err("file is not a database".to_owned());
        }
        let mut stmt = self.conn.prepare(sql).map_err(|e| e.to_string())?;
        let n = stmt.column_count();
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params.iter()))
            .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(|e| e.to_string())? {
            out.push(
                (0..n)
                    .map(|i| r.get_ref(i).map_or(Cell::Null, Cell::from_ref))
                    .collect(),
            );
        }
        Ok(out)
    }

    /// Reports a query a dot-command runs that failed.
    fn failed_query(&mut self, ctx: &mut Ctx, msg: &str) -> io::Result<Flow> {
        writeln!(ctx.stderr, "Error: {msg}")?;
        Ok(Flow::Failed)
    }

    /// `.tables` and `.indexes`: names in columns across an 80-column screen.
    fn list_names(&mut self, ctx: &mut Ctx, tables: bool, pat: Option<&str>) -> io::Result<Flow> {
        let sql = match (tables, pat.is_some()) {
            (true, false) => {
                "SELECT name FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' ORDER BY 1"
            }
            (true, true) => {
                "SELECT name FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' AND name LIKE ?1 ORDER BY 1"
            }
            (false, false) => {
                "SELECT name FROM sqlite_schema WHERE type='index' AND name NOT LIKE 'sqlite_%' ORDER BY 1"
            }
            (false, true) => {
                "SELECT name FROM sqlite_schema WHERE type='index' AND name NOT LIKE 'sqlite_%' AND tbl_name LIKE ?1 ORDER BY 1"
            }
        };
        let params: Vec<&str> = pat.into_iter().collect();
        let rows = match self.strings(sql, &params) {
            Ok(r) => r,
            Err(e) => return self.failed_query(ctx, &e),
        };
        let names: Vec<Vec<u8>> = rows
            .iter()
            .filter_map(|r| r.first().and_then(Cell::text))
            .collect();
        if names.is_empty() {
            return Ok(Flow::Go);
        }
        let maxlen = names.iter().map(Vec::len).max().unwrap_or(0);
        let cols = (80 / (maxlen + 2)).max(1);
        let nrows = names.len().div_ceil(cols);
        let mut out = Vec::new();
        for i in 0..nrows {
            let mut j = i;
            while let Some(n) = names.get(j) {
                if j >= nrows {
                    out.extend_from_slice(b"  ");
                }
                out.extend_from_slice(n);
                out.extend(std::iter::repeat_n(b' ', maxlen - n.len()));
                j += nrows;
            }
            out.push(b'\n');
        }
        self.write_out(ctx, &out)?;
        Ok(Flow::Go)
    }

    /// `.schema ?PATTERN?`.
    fn schema(&mut self, ctx: &mut Ctx, pat: Option<&str>) -> io::Result<Flow> {
        let sql = if pat.is_some() {
            "SELECT sql, type, name FROM sqlite_schema WHERE sql NOT NULL AND (name LIKE ?1 OR tbl_name LIKE ?1) ORDER BY rowid"
        } else {
            "SELECT sql, type, name FROM sqlite_schema WHERE sql NOT NULL ORDER BY rowid"
        };
        let params: Vec<&str> = pat.into_iter().collect();
        let rows = match self.strings(sql, &params) {
            Ok(r) => r,
            Err(e) => return self.failed_query(ctx, &e),
        };
        let mut out = Vec::new();
        for r in &rows {
            let text = |i: usize| {
                r.get(i)
                    .and_then(Cell::text)
                    .map(|t| String::from_utf8_lossy(&t).into_owned())
                    .unwrap_or_default()
            };
            let mut sql = text(0);
            if text(1) == "view" {
                let name = text(2);
                let cols = self
                    .strings(
                        "SELECT name FROM pragma_table_info(?1) ORDER BY cid",
                        &[name.as_str()],
                    )
                    .unwrap_or_default();
                let cols: Vec<String> = cols
                    .iter()
                    .filter_map(|c| c.first().and_then(Cell::text))
                    .map(|t| String::from_utf8_lossy(&t).into_owned())
                    .collect();
                sql.push_str(&format!("\n/* {}({}) */", name, cols.join(",")));
            }
            schema_line(&mut out, &sql);
        }
        self.write_out(ctx, &out)?;
        Ok(Flow::Go)
    }

    /// `.dump ?PATTERN...?`: SQL that rebuilds the database (or the matching tables).
    fn dump(&mut self, ctx: &mut Ctx, pats: &[&str]) -> io::Result<Flow> {
        let like = if pats.is_empty() {
            "1".to_owned()
        } else {
            pats.iter()
                .map(|p| format!("name LIKE '{}'", p.replace('\'', "''")))
                .collect::<Vec<_>>()
                .join(" OR ")
        };
        let mut out = b"PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n".to_vec();
        let tables = self.strings(
            &format!(
                "SELECT name, type, sql FROM sqlite_schema AS o WHERE ({like}) AND type=='table' AND sql NOT NULL ORDER BY tbl_name='sqlite_sequence', rowid"
            ),
            &[],
        );
        let tables = match tables {
            Ok(t) => t,
            Err(e) => return self.failed_query(ctx, &e),
        };
        let mut errors = false;
        for t in &tables {
            let get = |i: usize| {
                t.get(i)
                    .and_then(Cell::text)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default()
            };
            let (name, sql) = (get(0), get(2));
            if name == "sqlite_sequence" {
                out.extend_from_slice(b"DELETE FROM sqlite_sequence;\n");
            } else if name.starts_with("sqlite_stat") {
                out.extend_from_slice(b"ANALYZE sqlite_schema;\n");
            } else if name.starts_with("sqlite_") {
                continue;
            } else {
                schema_line(&mut out, &sql);
            }
            let q = ident(&name);
            match self.strings(&format!("SELECT * FROM {q}"), &[]) {
                Ok(rows) => {
                    for r in rows {
                        out.extend_from_slice(format!("INSERT INTO {q} VALUES(").as_bytes());
                        for (i, v) in r.iter().enumerate() {
                            if i > 0 {
                                out.push(b',');
                            }
                            v.sql(&mut out, true);
                        }
                        out.extend_from_slice(b");\n");
                    }
                }
                Err(_) => errors = true,
            }
            ctx.host.check()?;
        }
        let rest = self.strings(
            &format!(
                "SELECT sql FROM sqlite_schema AS o WHERE ({like}) AND sql NOT NULL AND type IN ('index','trigger','view') ORDER BY rowid"
            ),
            &[],
        );
        match rest {
            Ok(rows) => {
                for r in rows {
                    if let Some(t) = r.first().and_then(Cell::text) {
                        out.extend_from_slice(&t);
                        out.extend_from_slice(b";\n");
                    }
                }
            }
            Err(_) => errors = true,
        }
        out.extend_from_slice(if errors {
            b"ROLLBACK; -- due to errors\n".as_slice()
        } else {
            b"COMMIT;\n"
        });
        self.write_out(ctx, &out)?;
        Ok(Flow::Go)
    }

    /// `.read FILE`: the file's lines as input.
    fn read(&mut self, ctx: &mut Ctx, file: &str) -> io::Result<Flow> {
        let path = ctx.path(file);
        let data = ctx.read_named(&path)?.map(|d| d.to_vec());
        let Ok(data) = data else {
            writeln!(ctx.stderr, "Error: cannot open \"{file}\"")?;
            return Ok(Flow::Failed);
        };
        let mut src = Source::Bytes(&data, 0);
        let r = self.process(ctx, &mut src)?;
        Ok(match r.exit {
            Some(n) => Flow::Exit(n),
            None if r.errors > 0 => Flow::Failed,
            None => Flow::Go,
        })
    }

    /// `.output ?FILE?` and `.once FILE`.
    fn output(&mut self, ctx: &mut Ctx, once: bool, args: &[&str]) -> io::Result<Flow> {
        let files: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| !a.starts_with('-'))
            .collect();
        self.reset_output(ctx)?;
        match files.as_slice() {
            [] if !once => Ok(Flow::Go),
            ["stdout"] | ["-"] if !once => Ok(Flow::Go),
            [file] => {
                let path = ctx.path(file);
                let mode = ctx.file_mode();
                if ctx.fs.lock().write_file_mode(&path, b"", mode).is_err() {
                    writeln!(ctx.stderr, "Error: cannot open \"{file}\"")?;
                    return Ok(Flow::Failed);
                }
                self.sink = Sink::File {
                    path,
                    buf: Vec::new(),
                };
                if once {
                    self.once = 2;
                }
                Ok(Flow::Go)
            }
            _ => {
                let name = if once { "once" } else { "output" };
                writeln!(ctx.stderr, "Usage: .{name} [--bom] [-e|-x] FILE")?;
                Ok(Flow::Failed)
            }
        }
    }

    /// `.import ?--csv? ?--ascii? ?--skip N? FILE TABLE`.
    fn import(&mut self, ctx: &mut Ctx, args: &[&str]) -> io::Result<Flow> {
        let (mut file, mut table) = (None, None);
        let (mut col, mut row) = (
            self.style.colsep.first().copied().unwrap_or(b'|'),
            self.style.rowsep.first().copied().unwrap_or(b'\n'),
        );
        if self.style.mode == Mode::Csv {
            (col, row) = (b',', b'\n');
        }
        let mut skip = 0usize;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match *a {
                "--csv" | "-csv" => (col, row) = (b',', b'\n'),
                "--ascii" | "-ascii" => (col, row) = (0x1f, 0x1e),
                "--skip" | "-skip" => {
                    skip = it.next().and_then(|n| n.parse().ok()).unwrap_or(0);
                }
                "-v" | "--schema" | "-schema" => {
                    if *a != "-v" {
                        it.next();
                    }
                }
                f if file.is_none() => file = Some(f),
                t if table.is_none() => table = Some(t),
                other => {
                    let text =
                        format!("ERROR: extra argument: \"{other}\".  Usage:\n{IMPORT_USAGE}");
                    self.write_out(ctx, text.as_bytes())?;
                    return Ok(Flow::Failed);
                }
            }
        }
        let (Some(file), Some(table)) = (file, table) else {
            let what = if file.is_none() { "FILE" } else { "TABLE" };
            let text = format!("ERROR: missing {what} argument. Usage:\n{IMPORT_USAGE}");
            self.write_out(ctx, text.as_bytes())?;
            return Ok(Flow::Failed);
        };
        let path = ctx.path(file);
        let data = ctx.read_named(&path)?.map(|d| d.to_vec());
        let Ok(data) = data else {
            writeln!(ctx.stderr, "Error: cannot open \"{file}\"")?;
            return Ok(Flow::Failed);
        };
        let mut reader = CsvReader::new(&data, col, row);
        for _ in 0..skip {
            if reader.record().is_none() {
                break;
            }
        }
        let q = format!("\"{}\"", table.replace('"', "\"\""));
        let ncol = match self.conn.prepare(&format!("SELECT * FROM {q}")) {
            Ok(s) => s.column_count(),
            Err(_) => {
                let Some(header) = reader.record() else {
                    return Ok(Flow::Go);
                };
                let cols: Vec<String> = header
                    .iter()
                    .map(|h| {
                        format!(
                            "\"{}\" TEXT",
                            String::from_utf8_lossy(h).replace('"', "\"\"")
                        )
                    })
                    .collect();
                let create = format!("CREATE TABLE {q}(\n{})", cols.join(", "));
                if let Err(e) = self.conn.execute_batch(&create) {
                    writeln!(ctx.stderr, "{create} failed:\n{e}")?;
                    return Ok(Flow::Failed);
                }
                cols.len()
            }
        };
        if ncol == 0 {
            return Ok(Flow::Go);
        }
        let marks = vec!["?"; ncol].join(",");
        let insert = format!("INSERT INTO {q} VALUES({marks})");
        let _ = self.conn.execute_batch("BEGIN");
        let result = (|| -> io::Result<Result<(), String>> {
            let mut stmt = match self.conn.prepare(&insert) {
                Ok(s) => s,
                Err(e) => return Ok(Err(e.to_string())),
            };
            loop {
                let line = reader.line;
                let Some(mut fields) = reader.record() else {
                    break;
                };
                if fields.len() < ncol {
                    writeln!(
                        ctx.stderr,
                        "{file}:{line}: expected {ncol} columns but found {} - filling the rest with NULL",
                        fields.len()
                    )?;
                } else if fields.len() > ncol {
                    writeln!(
                        ctx.stderr,
                        "{file}:{line}: expected {ncol} columns but found {} - extras ignored",
                        fields.len()
                    )?;
                    fields.truncate(ncol);
                }
                let values: Vec<rusqlite::types::Value> = (0..ncol)
                    .map(|i| match fields.get(i) {
                        Some(f) => {
                            rusqlite::types::Value::Text(String::from_utf8_lossy(f).into_owned())
                        }
                        None => rusqlite::types::Value::Null,
                    })
                    .collect();
                if let Err(e) = stmt.execute(rusqlite::params_from_iter(values)) {
                    writeln!(ctx.stderr, "{file}:{line}: INSERT failed: {e}")?;
                }
                ctx.host.check()?;
            }
            Ok(Ok(()))
        })();
        let _ = self.conn.execute_batch("COMMIT");
        match result? {
            Ok(()) => Ok(Flow::Go),
            Err(e) => {
                writeln!(ctx.stderr, "Error: {e}")?;
                Ok(Flow::Failed)
            }
        }
    }
}

/// A schema statement and its `;` (`printSchemaLine`): `CREATE TABLE "x"` gains
/// `IF NOT EXISTS`, as the shell writes it.
fn schema_line(out: &mut Vec<u8>, sql: &str) {
    let quoted = sql
        .strip_prefix("CREATE TABLE ")
        .filter(|r| r.starts_with('"') || r.starts_with('\''));
    match quoted {
        Some(rest) => {
            out.extend_from_slice(format!("CREATE TABLE IF NOT EXISTS {rest};\n").as_bytes())
        }
        None => out.extend_from_slice(format!("{sql};\n").as_bytes()),
    }
}

const IMPORT_USAGE: &str = r#".import FILE TABLE       Import data from FILE into TABLE
   Options:
     --ascii               Use \037 and \036 as column and row separators
     --csv                 Use , and \n as column and row separators
     --skip N              Skip the first N rows of input
     --schema S            Target table to be S.TABLE
     -v                    "Verbose" - increase auxiliary output
   Notes:
     *  If TABLE does not exist, it is created.  The first row of input
        determines the column names.
     *  If neither --csv or --ascii are used, the input mode is derived
        from the ".mode" output mode
     *  If FILE begins with "|" then it is a command that generates the
        input text.
"#;
