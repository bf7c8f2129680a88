//! Text helpers of the `sqlite3` shell that do not need a connection: whether input
//! holds a complete statement (a port of `sqlite3_complete`), SQLite's number
//! formats (`%!.15g`, `%!.20g`), identifier and string quoting, and the CSV field
//! reader `.import` uses.

/// Whether `sql` ends with a complete statement: the state machine of SQLite's
/// `sqlite3_complete`, which knows that a `CREATE TRIGGER` body runs to `END;` and that
/// semicolons inside quotes, brackets and comments do not count.
pub(super) fn complete(sql: &[u8]) -> bool {
    // Tokens: SEMI WS OTHER EXPLAIN CREATE TEMP TRIGGER END.
    const TRANS: [[u8; 8]; 8] = [
        [1, 0, 2, 3, 4, 2, 2, 2],
        [1, 1, 2, 3, 4, 2, 2, 2],
        [1, 2, 2, 2, 2, 2, 2, 2],
        [1, 3, 3, 2, 4, 2, 2, 2],
        [1, 4, 2, 2, 2, 4, 5, 2],
        [6, 5, 5, 5, 5, 5, 5, 5],
        [6, 6, 5, 5, 5, 5, 5, 7],
        [1, 7, 5, 5, 5, 5, 5, 5],
    ];
    let mut state = 0u8;
    let mut i = 0;
    let at = |i: usize| sql.get(i).copied().unwrap_or(0);
    while i < sql.len() {
        let c = at(i);
        let token: usize = match c {
            b';' => 0,
            b' ' | b'\r' | b'\t' | b'\n' | 0x0c => 1,
            b'/' if at(i + 1) == b'*' => {
                i += 2;
                while i < sql.len() && !(at(i) == b'*' && at(i + 1) == b'/') {
                    i += 1;
                }
                if i >= sql.len() {
                    return false;
                }
                i += 1;
                1
            }
            b'-' if at(i + 1) == b'-' => {
                while i < sql.len() && at(i) != b'\n' {
                    i += 1;
                }
                if i >= sql.len() {
                    return state == 1;
                }
                1
            }
            b'[' => {
                i += 1;
                while i < sql.len() && at(i) != b']' {
                    i += 1;
                }
                if i >= sql.len() {
                    return false;
                }
                2
            }
            b'`' | b'"' | b'\'' => {
                i += 1;
                while i < sql.len() && at(i) != c {
                    i += 1;
                }
                if i >= sql.len() {
                    return false;
                }
                2
            }
            c if is_id_char(c) => {
                let start = i;
                while i < sql.len() && is_id_char(at(i)) {
                    i += 1;
                }
                let word = sql.get(start..i).unwrap_or_default().to_ascii_lowercase();
                i -= 1;
                match word.as_slice() {
                    b"create" => 4,
                    b"trigger" => 6,
                    b"temp" | b"temporary" => 5,
                    b"end" => 7,
                    b"explain" => 3,
                    _ => 2,
                }
            }
            _ => 2,
        };
        state = TRANS
            .get(usize::from(state))
            .and_then(|row| row.get(token))
            .copied()
            .unwrap_or(2);
        i += 1;
    }
    state == 1
}

fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// SQLite's `%!.Pg`: `%g` with `P` significant digits, where a whole number keeps a
/// `.0` (`3.0`, `1.0e+100`); infinities are `Inf` and `-Inf`.
pub(super) fn fmt_g(r: f64, prec: usize) -> String {
    if r.is_nan() {
        return "NaN".to_owned();
    }
    if r.is_infinite() {
        return if r > 0.0 { "Inf" } else { "-Inf" }.to_owned();
    }
    if r == 0.0 {
        return "0.0".to_owned();
    }
    let sci = format!("{:.*e}", prec.saturating_sub(1), r);
    let (mant, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    let sign = if neg { "-" } else { "" };
    let p = i32::try_from(prec).unwrap_or(i32::MAX);
    if exp < -4 || exp >= p {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}.{rest}e{esign}{:02}", exp.unsigned_abs());
    }
    let mut out = String::from(sign);
    if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(digits);
    } else {
        let int_len = usize::try_from(exp).unwrap_or(0) + 1;
        if digits.len() <= int_len {
            out.push_str(digits);
            for _ in digits.len()..int_len {
                out.push('0');
            }
            out.push_str(".0");
        } else {
            let (a, b) = digits.split_at(int_len);
            out.push_str(a);
            out.push('.');
            out.push_str(b);
        }
    }
    out
}

/// A REAL as the shell's quote, insert, JSON and `.dump` output write it: whole
/// numbers as `N.0`, infinities as `1e999`, the rest with 20 significant digits.
/// The digits are the exact decimal expansion of the double, correctly rounded;
/// sqlite3 3.40 computes them in x87 long double, so its 19th and 20th digits can
/// differ (`1e-7` is `...95472e-08` there and `...95475e-08` here).
pub(super) fn fmt_real_exact(r: f64) -> String {
    if r.is_infinite() {
        return if r > 0.0 { "1e999" } else { "-1e999" }.to_owned();
    }
    // C's (double)(sqlite3_int64)r round trip: in range only.
    if r.abs() < 9.2e18 && r == r.trunc() {
        #[allow(clippy::cast_possible_truncation)]
        let i = r as i64;
        return format!("{i}.0");
    }
    fmt_g(r, 20)
}

/// The SQL keywords (`sqlite3_keyword_check`): a name equal to one is quoted.
const KEYWORDS: &[&str] = &[
    "ABORT",
    "ACTION",
    "ADD",
    "AFTER",
    "ALL",
    "ALTER",
    "ALWAYS",
    "ANALYZE",
    "AND",
    "AS",
    "ASC",
    "ATTACH",
    "AUTOINCREMENT",
    "BEFORE",
    "BEGIN",
    "BETWEEN",
    "BY",
    "CASCADE",
    "CASE",
    "CAST",
    "CHECK",
    "COLLATE",
    "COLUMN",
    "COMMIT",
    "CONFLICT",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "CURRENT",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "CURRENT_TIMESTAMP",
    "DATABASE",
    "DEFAULT",
    "DEFERRABLE",
    "DEFERRED",
    "DELETE",
    "DESC",
    "DETACH",
    "DISTINCT",
    "DO",
    "DROP",
    "EACH",
    "ELSE",
    "END",
    "ESCAPE",
    "EXCEPT",
    "EXCLUDE",
    "EXCLUSIVE",
    "EXISTS",
    "EXPLAIN",
    "FAIL",
    "FILTER",
    "FIRST",
    "FOLLOWING",
    "FOR",
    "FOREIGN",
    "FROM",
    "FULL",
    "GENERATED",
    "GLOB",
    "GROUP",
    "GROUPS",
    "HAVING",
    "IF",
    "IGNORE",
    "IMMEDIATE",
    "IN",
    "INDEX",
    "INDEXED",
    "INITIALLY",
    "INNER",
    "INSERT",
    "INSTEAD",
    "INTERSECT",
    "INTO",
    "IS",
    "ISNULL",
    "JOIN",
    "KEY",
    "LAST",
    "LEFT",
    "LIKE",
    "LIMIT",
    "MATCH",
    "MATERIALIZED",
    "NATURAL",
    "NO",
    "NOT",
    "NOTHING",
    "NOTNULL",
    "NULL",
    "NULLS",
    "OF",
    "OFFSET",
    "ON",
    "OR",
    "ORDER",
    "OTHERS",
    "OUTER",
    "OVER",
    "PARTITION",
    "PLAN",
    "PRAGMA",
    "PRECEDING",
    "PRIMARY",
    "QUERY",
    "RAISE",
    "RANGE",
    "RECURSIVE",
    "REFERENCES",
    "REGEXP",
    "REINDEX",
    "RELEASE",
    "RENAME",
    "REPLACE",
    "RESTRICT",
    "RETURNING",
    "RIGHT",
    "ROLLBACK",
    "ROW",
    "ROWS",
    "SAVEPOINT",
    "SELECT",
    "SET",
    "TABLE",
    "TEMP",
    "TEMPORARY",
    "THEN",
    "TIES",
    "TO",
    "TRANSACTION",
    "TRIGGER",
    "UNBOUNDED",
    "UNION",
    "UNIQUE",
    "UPDATE",
    "USING",
    "VACUUM",
    "VALUES",
    "VIEW",
    "VIRTUAL",
    "WHEN",
    "WHERE",
    "WINDOW",
    "WITH",
    "WITHOUT",
];

/// Whether a name must be double-quoted in SQL the shell writes (the shell's
/// `quoteChar`): not an identifier, or a keyword.
pub(super) fn needs_quote(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return true,
    }
    if !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return true;
    }
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(name))
}

/// `name` as an identifier: double-quoted (`%w`) when [`needs_quote`] says so.
pub(super) fn ident(name: &str) -> String {
    if needs_quote(name) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_owned()
    }
}

/// `'text'` with quotes doubled (`output_quoted_string`).
pub(super) fn quoted(out: &mut Vec<u8>, z: &[u8]) {
    out.push(b'\'');
    for &c in z {
        if c == b'\'' {
            out.push(b'\'');
        }
        out.push(c);
    }
    out.push(b'\'');
}

/// A string literal as `.dump` and insert mode write it: newlines and carriage
/// returns escaped through `replace(...)` (`output_quoted_escaped_string`).
pub(super) fn quoted_escaped(out: &mut Vec<u8>, z: &[u8]) {
    let nl = z.contains(&b'\n');
    let cr = z.contains(&b'\r');
    if !nl && !cr {
        return quoted(out, z);
    }
    if nl {
        out.extend_from_slice(b"replace(");
    }
    if cr {
        out.extend_from_slice(b"replace(");
    }
    out.push(b'\'');
    for &c in z {
        match c {
            b'\'' => out.extend_from_slice(b"''"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            c => out.push(c),
        }
    }
    out.push(b'\'');
    if nl {
        out.extend_from_slice(b",'\\n',char(10))");
    }
    if cr {
        out.extend_from_slice(b",'\\r',char(13))");
    }
}

/// A JSON string of `z` as the shell escapes it (bytes above 0x7f pass through).
pub(super) fn json_string(out: &mut Vec<u8>, z: &[u8]) {
    out.push(b'"');
    for &c in z {
        match c {
            b'\\' | b'"' => {
                out.push(b'\\');
                out.push(c);
            }
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            c if c <= 0x1f => out.extend_from_slice(format!("\\u{c:04x}").as_bytes()),
            c => out.push(c),
        }
    }
    out.push(b'"');
}

/// Reads CSV records as the shell's `.import` does (`csv_read_one_field`): fields
/// split by `col`, records by `row`, a field in double quotes may hold either and
/// `""` for a quote. `None` at the end of input.
pub(super) struct CsvReader<'a> {
    data: &'a [u8],
    pos: usize,
    col: u8,
    row: u8,
    /// The line the next record starts on (1-based).
    pub line: usize,
}

impl<'a> CsvReader<'a> {
    pub(super) fn new(data: &'a [u8], col: u8, row: u8) -> CsvReader<'a> {
        CsvReader {
            data,
            pos: 0,
            col,
            row,
            line: 1,
        }
    }

    /// The next record's fields.
    pub(super) fn record(&mut self) -> Option<Vec<Vec<u8>>> {
        if self.pos >= self.data.len() {
            return None;
        }
        let mut fields = Vec::new();
        loop {
            let (field, end) = self.field();
            fields.push(field);
            match end {
                End::Col => continue,
                End::Row | End::Eof => break,
            }
        }
        Some(fields)
    }

    fn field(&mut self) -> (Vec<u8>, End) {
        let mut z = Vec::new();
        let next = |s: &mut Self| -> Option<u8> {
            let c = s.data.get(s.pos).copied();
            if c.is_some() {
                s.pos += 1;
            }
            if c == Some(b'\n') {
                s.line += 1;
            }
            c
        };
        let first = self.data.get(self.pos).copied();
        if first == Some(b'"') {
            self.pos += 1;
            loop {
                match next(self) {
                    None => return (z, End::Eof),
                    Some(b'"') => match self.data.get(self.pos).copied() {
                        Some(b'"') => {
                            self.pos += 1;
                            z.push(b'"');
                        }
                        _ => break,
                    },
                    Some(c) => z.push(c),
                }
            }
            // After the closing quote: take what follows up to a separator.
            loop {
                match next(self) {
                    None => return (z, End::Eof),
                    Some(c) if c == self.col => return (z, End::Col),
                    Some(c) if c == self.row => {
                        if z.last() == Some(&b'\r') && self.row == b'\n' {
                            z.pop();
                        }
                        return (z, End::Row);
                    }
                    Some(b'\r') if self.row == b'\n' => {}
                    Some(c) => z.push(c),
                }
            }
        }
        loop {
            match next(self) {
                None => return (z, End::Eof),
                Some(c) if c == self.col => return (z, End::Col),
                Some(c) if c == self.row => {
                    if self.row == b'\n' && z.last() == Some(&b'\r') {
                        z.pop();
                    }
                    return (z, End::Row);
                }
                Some(c) => z.push(c),
            }
        }
    }
}

enum End {
    Col,
    Row,
    Eof,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn completeness_follows_sqlite3_complete() {
        for (sql, want) in [
            ("select 1;", true),
            ("select 1", false),
            ("select ';'", false),
            ("select ';';", true),
            ("select 1; -- c", true),
            ("/* ; */", false),
            ("create trigger t after insert on x begin select 1;", false),
            (
                "create trigger t after insert on x begin select 1; end;",
                true,
            ),
            (
                "create temp trigger t after insert on x begin select 1; end;",
                true,
            ),
            ("create table end(a);", true),
        ] {
            assert_eq!(complete(sql.as_bytes()), want, "{sql}");
        }
    }

    #[test]
    fn reals_format_like_sqlite_printf() {
        for (r, want) in [
            (0.1, "0.1"),
            (1e100, "1.0e+100"),
            (1.0 / 3.0, "0.333333333333333"),
            (1e-7, "1.0e-07"),
            (100.0, "100.0"),
            (1e15, "1.0e+15"),
            (2.5e-5, "2.5e-05"),
            (9.223_372_036_854_776e18, "9.22337203685478e+18"),
            (-1.5, "-1.5"),
            (123456.789, "123456.789"),
        ] {
            assert_eq!(fmt_g(r, 15), want, "{r}");
        }
        assert_eq!(fmt_real_exact(0.1), "0.10000000000000000555");
        assert_eq!(fmt_real_exact(3.0), "3.0");
        assert_eq!(fmt_real_exact(-2.25), "-2.25");
        assert_eq!(fmt_real_exact(f64::INFINITY), "1e999");
    }

    #[test]
    fn csv_fields_and_quotes() {
        let mut r = CsvReader::new(b"a,b\n1,\"x,y\"\n\"q\"\"\",\r\n", b',', b'\n');
        assert_eq!(r.record().unwrap(), vec![b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(r.record().unwrap(), vec![b"1".to_vec(), b"x,y".to_vec()]);
        assert_eq!(r.record().unwrap(), vec![b"q\"".to_vec(), b"".to_vec()]);
        assert!(r.record().is_none());
    }
}
