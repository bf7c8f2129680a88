//! How the `sqlite3` shell writes a statement's rows in each `.mode`: the row-at-a-time
//! modes (list, csv, tabs, line, json, quote, insert, ascii) and the columnar ones
//! (column, table, markdown, box) that see every row before writing, as sqlite3 3.40
//! lays them out.

use super::text::{fmt_g, fmt_real_exact, ident, json_string, quoted, quoted_escaped};

/// An output mode (`.mode NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    List,
    Line,
    Column,
    Csv,
    Insert,
    Quote,
    Ascii,
    Markdown,
    Table,
    Box,
    Json,
    Off,
}

impl Mode {
    pub(super) fn columnar(self) -> bool {
        matches!(
            self,
            Mode::Column | Mode::Table | Mode::Markdown | Mode::Box
        )
    }
}

/// One value of a result row.
#[derive(Clone, Debug)]
pub(super) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(Vec<u8>),
    Blob(Vec<u8>),
}

impl Cell {
    pub(super) fn from_ref(v: rusqlite::types::ValueRef<'_>) -> Cell {
        use rusqlite::types::ValueRef;
        match v {
            ValueRef::Null => Cell::Null,
            ValueRef::Integer(i) => Cell::Int(i),
            ValueRef::Real(r) => Cell::Real(r),
            ValueRef::Text(t) => Cell::Text(t.to_vec()),
            ValueRef::Blob(b) => Cell::Blob(b.to_vec()),
        }
    }
    /// What `sqlite3_column_text` gives and `%s` prints (up to a NUL byte); `None`
    /// for NULL.
    pub(super) fn text(&self) -> Option<Vec<u8>> {
        let cut = |b: &[u8]| b.split(|&c| c == 0).next().unwrap_or_default().to_vec();
        match self {
            Cell::Null => None,
            Cell::Int(i) => Some(i.to_string().into_bytes()),
            Cell::Real(r) => Some(fmt_g(*r, 15).into_bytes()),
            Cell::Text(t) | Cell::Blob(t) => Some(cut(t)),
        }
    }
    pub(super) fn size(&self) -> usize {
        match self {
            Cell::Text(t) | Cell::Blob(t) => t.len() + 16,
            _ => 16,
        }
    }
    /// The value as an SQL literal (quote and insert modes, `.dump`).
    pub(super) fn sql(&self, out: &mut Vec<u8>, escaped: bool) {
        match self {
            Cell::Null => out.extend_from_slice(b"NULL"),
            Cell::Int(i) => out.extend_from_slice(i.to_string().as_bytes()),
            // Quote mode writes infinities as %!.20g does (`Inf`); insert mode and
            // `.dump` as literals that read back (`1e999`).
            Cell::Real(r) if r.is_infinite() && !escaped => {
                out.extend_from_slice(fmt_g(*r, 20).as_bytes());
            }
            Cell::Real(r) => out.extend_from_slice(fmt_real_exact(*r).as_bytes()),
            Cell::Text(t) => {
                let t = t.split(|&c| c == 0).next().unwrap_or_default();
                if escaped {
                    quoted_escaped(out, t);
                } else {
                    quoted(out, t);
                }
            }
            Cell::Blob(b) => {
                out.extend_from_slice(b"X'");
                for c in b {
                    out.extend_from_slice(format!("{c:02x}").as_bytes());
                }
                out.push(b'\'');
            }
        }
    }
}

/// The settings a mode reads.
#[derive(Clone, Debug)]
pub(super) struct Style {
    pub mode: Mode,
    pub header: bool,
    pub colsep: Vec<u8>,
    pub rowsep: Vec<u8>,
    pub null: Vec<u8>,
    /// The table insert mode writes into, already quoted when it must be.
    pub table: String,
    /// Characters per display line in the columnar modes (`--wrap`).
    pub wrap: usize,
}

/// Writes one row of a row-at-a-time mode; `cnt` counts the statement's rows so far.
pub(super) fn row(out: &mut Vec<u8>, s: &Style, cols: &[String], cells: &[Cell], cnt: usize) {
    let n = cols.len();
    let sep = |i: usize| if i + 1 == n { &s.rowsep } else { &s.colsep };
    match s.mode {
        Mode::List | Mode::Ascii => {
            if cnt == 0 && s.header {
                for (i, c) in cols.iter().enumerate() {
                    out.extend_from_slice(c.as_bytes());
                    out.extend_from_slice(sep(i));
                }
            }
            for (i, v) in cells.iter().enumerate() {
                out.extend_from_slice(&v.text().unwrap_or_else(|| s.null.clone()));
                out.extend_from_slice(sep(i));
            }
        }
        Mode::Line => {
            let w = cols.iter().map(String::len).max().unwrap_or(0).max(5);
            if cnt > 0 {
                out.extend_from_slice(&s.rowsep);
            }
            for (c, v) in cols.iter().zip(cells) {
                out.extend_from_slice(format!("{c:>w$} = ").as_bytes());
                out.extend_from_slice(&v.text().unwrap_or_else(|| s.null.clone()));
                out.extend_from_slice(&s.rowsep);
            }
        }
        Mode::Csv => {
            if cnt == 0 && s.header {
                for (i, c) in cols.iter().enumerate() {
                    csv_field(out, s, Some(c.as_bytes()), i + 1 < n);
                }
                out.extend_from_slice(&s.rowsep);
            }
            if n > 0 {
                for (i, v) in cells.iter().enumerate() {
                    csv_field(out, s, v.text().as_deref(), i + 1 < n);
                }
                out.extend_from_slice(&s.rowsep);
            }
        }
        Mode::Json => {
            out.extend_from_slice(if cnt == 0 { b"[{" } else { b",\n{" });
            for (i, (c, v)) in cols.iter().zip(cells).enumerate() {
                json_string(out, c.as_bytes());
                out.push(b':');
                match v {
                    Cell::Null => out.extend_from_slice(b"null"),
                    Cell::Real(r) => out.extend_from_slice(fmt_real_exact(*r).as_bytes()),
                    Cell::Blob(b) => json_string(out, b),
                    Cell::Text(t) => {
                        json_string(out, t.split(|&c| c == 0).next().unwrap_or_default());
                    }
                    Cell::Int(i) => out.extend_from_slice(i.to_string().as_bytes()),
                }
                if i + 1 < n {
                    out.push(b',');
                }
            }
            out.push(b'}');
        }
        Mode::Quote => {
            if cnt == 0 && s.header {
                for (i, c) in cols.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(&s.colsep);
                    }
                    quoted(out, c.as_bytes());
                }
                out.extend_from_slice(&s.rowsep);
            }
            for (i, v) in cells.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(&s.colsep);
                }
                v.sql(out, false);
            }
            out.extend_from_slice(&s.rowsep);
        }
        Mode::Insert => {
            out.extend_from_slice(format!("INSERT INTO {}", s.table).as_bytes());
            if s.header {
                out.push(b'(');
                let names: Vec<String> = cols.iter().map(|c| ident(c)).collect();
                out.extend_from_slice(names.join(",").as_bytes());
                out.push(b')');
            }
            for (i, v) in cells.iter().enumerate() {
                out.extend_from_slice(if i > 0 { b"," } else { b" VALUES(" });
                v.sql(out, true);
            }
            out.extend_from_slice(b");\n");
        }
        Mode::Off | Mode::Column | Mode::Table | Mode::Markdown | Mode::Box => {}
    }
}

/// A CSV field (`output_csv`): quoted when empty, when it holds a control byte, a
/// quote, an apostrophe or a byte above 0x7e, or the column separator.
fn csv_field(out: &mut Vec<u8>, s: &Style, z: Option<&[u8]>, sep: bool) {
    match z {
        None => out.extend_from_slice(&s.null),
        Some(z) => {
            let special = z.is_empty()
                || z.iter()
                    .any(|&c| c < 0x20 || c == b'"' || c == b'\'' || c >= 0x7f)
                || (!s.colsep.is_empty() && z.windows(s.colsep.len()).any(|w| w == s.colsep));
            if special {
                out.push(b'"');
                for &c in z {
                    if c == b'"' {
                        out.push(b'"');
                    }
                    out.push(c);
                }
                out.push(b'"');
            } else {
                out.extend_from_slice(z);
            }
        }
    }
    if sep {
        out.extend_from_slice(&s.colsep);
    }
}

/// The first display line of `z` and what follows it (`translateForDisplayAndDup`
/// without wrapping): a control byte other than a tab ends a line, a tab goes to the
/// next multiple of 8, `\r\n` counts as one break.
fn display_line(z: &[u8], wrap: usize) -> (Vec<u8>, Option<&[u8]>) {
    let mut line = Vec::new();
    let mut n = 0usize;
    let mut i = 0;
    while let Some(&c) = z.get(i) {
        if n >= wrap && c & 0xc0 != 0x80 {
            // A full line: the rest goes on the next display line.
            let mut j = i;
            if z.get(j) == Some(&b'\r') && z.get(j + 1) == Some(&b'\n') {
                j += 1;
            }
            if z.get(j) == Some(&b'\n') {
                j += 1;
            }
            return (line, z.get(j..).filter(|t| !t.is_empty()));
        }
        if c >= b' ' {
            line.push(c);
            if c & 0xc0 != 0x80 {
                n += 1;
            }
            i += 1;
        } else if c == b'\t' {
            loop {
                line.push(b' ');
                n += 1;
                if n.is_multiple_of(8) {
                    break;
                }
            }
            i += 1;
        } else {
            break;
        }
    }
    if z.get(i) == Some(&b'\r') && z.get(i + 1) == Some(&b'\n') {
        i += 1;
    }
    let tail = if i < z.len() {
        z.get(i + 1..).filter(|t| !t.is_empty())
    } else {
        None
    };
    (line, tail)
}

fn chars(z: &[u8]) -> usize {
    z.iter().filter(|&&c| c & 0xc0 != 0x80).count()
}

fn pad(out: &mut Vec<u8>, n: usize) {
    out.extend(std::iter::repeat_n(b' ', n));
}

/// Writes a whole result in a columnar mode; `rows` holds every row's cells.
pub(super) fn columnar(out: &mut Vec<u8>, s: &Style, cols: &[String], rows: &[Vec<Cell>]) {
    let n = cols.len();
    if n == 0 || rows.is_empty() {
        return;
    }
    // Each result row becomes one or more display rows.
    let mut data: Vec<Vec<u8>> = cols.iter().map(|c| c.as_bytes().to_vec()).collect();
    let mut divides: Vec<bool> = Vec::new();
    let mut multi = false;
    for r in rows {
        let mut rest: Vec<Option<Vec<u8>>> = r
            .iter()
            .map(|v| Some(v.text().unwrap_or_else(|| s.null.clone())))
            .collect();
        let mut first = true;
        loop {
            let mut more = false;
            for slot in rest.iter_mut() {
                match slot.take() {
                    Some(z) => {
                        let (line, tail) = display_line(&z, s.wrap);
                        data.push(line);
                        if let Some(t) = tail {
                            more = true;
                            *slot = Some(t.to_vec());
                        }
                    }
                    None => data.push(Vec::new()),
                }
            }
            if !first || more {
                multi = true;
            }
            first = false;
            divides.push(!more);
            if !more {
                break;
            }
        }
    }
    let mut width = vec![0usize; n];
    for (i, d) in data.iter().enumerate() {
        if let Some(w) = width.get_mut(i % n) {
            *w = (*w).max(chars(d));
        }
    }
    let w = |j: usize| width.get(j).copied().unwrap_or(0);
    let centred = |out: &mut Vec<u8>, j: usize, z: &[u8]| {
        let gap = w(j).saturating_sub(chars(z));
        pad(out, gap / 2);
        out.extend_from_slice(z);
        pad(out, gap.div_ceil(2));
    };
    let left = |out: &mut Vec<u8>, j: usize, z: &[u8]| {
        out.extend_from_slice(z);
        pad(out, w(j).saturating_sub(chars(z)));
    };
    let rule = |out: &mut Vec<u8>, l: &str, m: &str, r: &str, dash: &str| {
        out.extend_from_slice(l.as_bytes());
        for j in 0..n {
            if j > 0 {
                out.extend_from_slice(m.as_bytes());
            }
            for _ in 0..w(j) + 2 {
                out.extend_from_slice(dash.as_bytes());
            }
        }
        out.extend_from_slice(r.as_bytes());
        out.push(b'\n');
    };
    let (colsep, rowsep): (&[u8], &[u8]) = match s.mode {
        Mode::Column => (b"  ", b"\n"),
        Mode::Box => (" \u{2502} ".as_bytes(), " \u{2502}\n".as_bytes()),
        _ => (b" | ", b" |\n"),
    };
    let header = data.get(..n).unwrap_or_default();
    match s.mode {
        Mode::Column => {
            if s.header {
                for (j, h) in header.iter().enumerate() {
                    left(out, j, h);
                    out.extend_from_slice(if j + 1 == n { b"\n" } else { b"  " });
                }
                for j in 0..n {
                    out.extend(std::iter::repeat_n(b'-', w(j)));
                    out.extend_from_slice(if j + 1 == n { b"\n" } else { b"  " });
                }
            }
        }
        Mode::Table | Mode::Markdown => {
            if s.mode == Mode::Table {
                rule(out, "+", "+", "+", "-");
            }
            out.extend_from_slice(b"| ");
            for (j, h) in header.iter().enumerate() {
                centred(out, j, h);
                out.extend_from_slice(if j + 1 == n { b" |\n" } else { b" | " });
            }
            if s.mode == Mode::Table {
                rule(out, "+", "+", "+", "-");
            } else {
                rule(out, "|", "|", "|", "-");
            }
        }
        _ => {
            rule(out, "\u{250c}", "\u{252c}", "\u{2510}", "\u{2500}");
            out.extend_from_slice("\u{2502} ".as_bytes());
            for (j, h) in header.iter().enumerate() {
                centred(out, j, h);
                out.extend_from_slice(if j + 1 == n {
                    " \u{2502}\n".as_bytes()
                } else {
                    " \u{2502} ".as_bytes()
                });
            }
            rule(out, "\u{251c}", "\u{253c}", "\u{2524}", "\u{2500}");
        }
    }
    let body = data.get(n..).unwrap_or_default();
    let total = body.len();
    for (k, z) in body.iter().enumerate() {
        let j = k % n;
        if j == 0 && s.mode != Mode::Column {
            out.extend_from_slice(if s.mode == Mode::Box {
                "\u{2502} ".as_bytes()
            } else {
                b"| "
            });
        }
        left(out, j, z);
        if j + 1 == n {
            out.extend_from_slice(rowsep);
            let row = k / n;
            if multi && divides.get(row).copied().unwrap_or(false) && k + 1 < total {
                match s.mode {
                    Mode::Table => rule(out, "+", "+", "+", "-"),
                    Mode::Box => rule(out, "\u{251c}", "\u{253c}", "\u{2524}", "\u{2500}"),
                    Mode::Column => out.push(b'\n'),
                    _ => {}
                }
            }
        } else {
            out.extend_from_slice(colsep);
        }
    }
    match s.mode {
        Mode::Table => rule(out, "+", "+", "+", "-"),
        Mode::Box => rule(out, "\u{2514}", "\u{2534}", "\u{2518}", "\u{2500}"),
        _ => {}
    }
}
