//! `column` (util-linux): lays a list out in columns filled down (the default) or across
//! (`-x`) with tab padding for an output width (`-c`, else `$COLUMNS`, else 80), or
//! builds a table (`-t`) split on whitespace or `-s` characters and padded with `-o`
//! (two spaces), with `-N` headers, `-d`, `-R`, `-H`, `-O`, `-l` and `-L`. JSON and
//! tree output (`-J`, `-r`) are not provided.

use super::about::{VERSION, write_help, write_version};
use super::args::{HasArg, LongOpt, Spec, long};
use super::util::display_width as width;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("columns", HasArg::Required, "c"),
    long("fillrows", HasArg::No, "x"),
    long("help", HasArg::No, "h"),
    long("json", HasArg::No, "J"),
    long("keep-empty-lines", HasArg::No, "L"),
    long("output-separator", HasArg::Required, "o"),
    long("output-width", HasArg::Required, "c"),
    long("separator", HasArg::Required, "s"),
    long("table", HasArg::No, "t"),
    long("table-columns", HasArg::Required, "N"),
    long("table-columns-limit", HasArg::Required, "l"),
    long("table-hide", HasArg::Required, "H"),
    long("table-name", HasArg::Required, "n"),
    long("table-noextreme", HasArg::Required, "E"),
    long("table-noheadings", HasArg::No, "d"),
    long("table-order", HasArg::Required, "O"),
    long("table-right", HasArg::Required, "R"),
    long("table-truncate", HasArg::Required, "T"),
    long("table-wrap", HasArg::Required, "W"),
    long("table-header-repeat", HasArg::No, "e"),
    long("tree", HasArg::Required, "r"),
    long("tree-id", HasArg::Required, "i"),
    long("tree-parent", HasArg::Required, "p"),
    VERSION,
];

const USAGE: &str = "
Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -n, --table-name <name>          table name for JSON output
 -O, --table-order <columns>      specify order of output columns
 -N, --table-columns <names>      comma separated columns names
 -l, --table-columns-limit <num>  maximal number of input columns
 -E, --table-noextreme <columns>  don't count long text from the columns to column width
 -d, --table-noheadings           don't print header
 -e, --table-header-repeat        repeat header for each page
 -H, --table-hide <columns>       don't print the columns
 -R, --table-right <columns>      right align text in these columns
 -T, --table-truncate <columns>   truncate text in the columns when necessary
 -W, --table-wrap <columns>       wrap text in the columns when necessary
 -L, --keep-empty-lines           don't ignore empty lines
 -J, --json                       use JSON output format for table

 -r, --tree <column>              column to use tree-like output for the table
 -i, --tree-id <column>           line ID to specify child-parent relation
 -p, --tree-parent <column>       parent to specify child-parent relation

 -c, --output-width <width>       width of output in number of characters
 -o, --output-separator <string>  columns separator for table output (default is two spaces)
 -s, --separator <string>         possible table delimiters
 -x, --fillrows                   fill rows before columns

 -h, --help                       display this help
 -V, --version                    display version

For more details see column(1).
";

const TAB: usize = 8;

/// The default layout: entries down the columns (or across with `fill_rows`), each
/// column a multiple of 8 wide, padded with tabs.
fn columnate(ents: &[String], termwidth: usize, fill_rows: bool, out: &mut String) {
    let maxlength = ents.iter().map(|e| width(e)).max().unwrap_or(0);
    if maxlength >= termwidth {
        for e in ents {
            out.push_str(e);
            out.push('\n');
        }
        return;
    }
    let maxlength = (maxlength + TAB) & !(TAB - 1);
    let numcols = (termwidth / maxlength).max(1);
    let pad = |out: &mut String, chcnt: &mut usize, endcol: usize| {
        loop {
            let cnt = (*chcnt + TAB) & !(TAB - 1);
            if cnt > endcol {
                break;
            }
            out.push('\t');
            *chcnt = cnt;
        }
    };
    if fill_rows {
        let mut chcnt = 0;
        let mut col = 0;
        let mut endcol = maxlength;
        for (i, e) in ents.iter().enumerate() {
            out.push_str(e);
            chcnt += width(e);
            if i + 1 == ents.len() {
                break;
            }
            col += 1;
            if col == numcols {
                chcnt = 0;
                col = 0;
                endcol = maxlength;
                out.push('\n');
            } else {
                pad(out, &mut chcnt, endcol);
                endcol += maxlength;
            }
        }
        if chcnt > 0 {
            out.push('\n');
        }
        return;
    }
    let numrows = ents.len().div_ceil(numcols);
    for row in 0..numrows {
        let mut endcol = maxlength;
        let mut chcnt = 0;
        let mut base = row;
        for _ in 0..numcols {
            let Some(e) = ents.get(base) else { break };
            out.push_str(e);
            chcnt += width(e);
            base += numrows;
            if base >= ents.len() {
                break;
            }
            pad(out, &mut chcnt, endcol);
            endcol += maxlength;
        }
        out.push('\n');
    }
}

/// Table settings.
struct Table {
    separators: Option<Vec<char>>,
    out_sep: String,
    names: Option<Vec<String>>,
    headings: bool,
    limit: usize,
    right: Option<String>,
    hide: Option<String>,
    order: Option<String>,
}

/// Splits a line into cells: on runs of blanks (leading ones skipped), or on each
/// `-s` character; with a column limit the last cell keeps the rest of the line.
fn cells(line: &str, t: &Table) -> Vec<String> {
    let mut out = Vec::new();
    match &t.separators {
        None => {
            // Runs of blanks separate cells, but only one blank is consumed after a
            // cell, so a column limit keeps the rest of the line as it was.
            let mut rest = line;
            loop {
                if t.limit > 0 && out.len() + 1 == t.limit {
                    if !rest.is_empty() {
                        out.push(rest.to_owned());
                    }
                    break;
                }
                let r = rest.trim_start_matches([' ', '\t']);
                if r.is_empty() {
                    break;
                }
                let end = r.find([' ', '\t']).unwrap_or(r.len());
                out.push(r[..end].to_owned());
                match r.get(end + 1..) {
                    Some(next) => rest = next,
                    None => break,
                }
            }
        }
        Some(seps) => {
            let mut rest = line;
            loop {
                if t.limit > 0 && out.len() + 1 == t.limit {
                    out.push(rest.to_owned());
                    break;
                }
                match rest.find(|c| seps.contains(&c)) {
                    Some(i) => {
                        out.push(rest[..i].to_owned());
                        let sep_len = rest[i..].chars().next().map_or(1, char::len_utf8);
                        rest = &rest[i + sep_len..];
                    }
                    None => {
                        out.push(rest.to_owned());
                        break;
                    }
                }
            }
        }
    }
    out
}

/// Resolves a `-R/-H/-O` list element (a 1-based number or a `-N` name) to a column.
fn column_of(spec: &str, names: Option<&[String]>) -> Option<usize> {
    if !spec.is_empty() && spec.bytes().all(|b| b.is_ascii_digit()) {
        return spec.parse::<usize>().ok()?.checked_sub(1);
    }
    names?.iter().position(|n| n.eq_ignore_ascii_case(spec))
}

fn table(rows: &[Vec<String>], t: &Table, out: &mut String) {
    let ncols = rows
        .iter()
        .map(Vec::len)
        .chain(t.names.iter().map(Vec::len))
        .max()
        .unwrap_or(0);
    let names = t.names.as_deref();
    let flagged = |list: &Option<String>| -> Vec<bool> {
        let mut v = vec![false; ncols];
        if let Some(l) = list {
            for s in l.split(',') {
                if let Some(slot) = column_of(s, names).and_then(|c| v.get_mut(c)) {
                    *slot = true;
                }
            }
        }
        v
    };
    let right = flagged(&t.right);
    let hidden = flagged(&t.hide);
    let mut order: Vec<usize> = Vec::new();
    if let Some(o) = &t.order {
        for s in o.split(',') {
            if let Some(c) = column_of(s, names)
                && c < ncols
                && !order.contains(&c)
            {
                order.push(c);
            }
        }
    }
    for c in 0..ncols {
        if !order.contains(&c) {
            order.push(c);
        }
    }
    order.retain(|&c| !hidden.get(c).copied().unwrap_or(false));
    let header: Option<Vec<String>> = match names {
        Some(n) if t.headings => Some(n.to_vec()),
        _ => None,
    };
    let all: Vec<&Vec<String>> = header.iter().chain(rows.iter()).collect();
    let widths: Vec<usize> = (0..ncols)
        .map(|c| {
            all.iter()
                .map(|r| r.get(c).map_or(0, |s| width(s)))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in all {
        let mut line = String::new();
        for (i, &c) in order.iter().enumerate() {
            let cell = row.get(c).map_or("", String::as_str);
            let w = widths.get(c).copied().unwrap_or(0);
            let fill = w.saturating_sub(width(cell));
            let last = i + 1 == order.len();
            if right.get(c).copied().unwrap_or(false) {
                line.push_str(&" ".repeat(fill));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                if !last {
                    line.push_str(&" ".repeat(fill));
                }
            }
            if !last {
                line.push_str(&t.out_sep);
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
}

pub fn column(ctx: &mut Ctx) -> CmdResult {
    let spec = Spec::new("c:E:edH:hi:JLl:N:n:O:o:p:R:r:s:T:tVW:x", LONG);
    let parsed = match super::args::parse(&spec, ctx.args) {
        Ok(p) => p,
        Err(msg) => {
            ctx.err(msg)?;
            writeln!(
                ctx.stderr,
                "Try '{} --help' for more information.",
                ctx.name
            )?;
            return Ok(1);
        }
    };
    let mut mode_table = false;
    let mut fill_rows = false;
    let mut termwidth: Option<usize> = None;
    let mut keep_empty = false;
    let mut t = Table {
        separators: None,
        out_sep: "  ".to_owned(),
        names: None,
        headings: true,
        limit: 0,
        right: None,
        hide: None,
        order: None,
    };
    let mut table_only = false;
    let mut seen_mode: Option<&str> = None;
    for (k, v) in &parsed.opts {
        let v = v.as_deref().unwrap_or("");
        match k.as_str() {
            "h" => {
                write_help(ctx, USAGE.trim_start_matches('\n'))?;
                return Ok(0);
            }
            "V" | "version" => {
                write_version(ctx)?;
                return Ok(0);
            }
            "t" | "x" => {
                if let Some(prev) = seen_mode
                    && prev != k
                {
                    ctx.err("mutually exclusive arguments: --table --fillrows")?;
                    return Ok(1);
                }
                seen_mode = Some(if k == "t" { "t" } else { "x" });
                if k == "t" {
                    mode_table = true;
                } else {
                    fill_rows = true;
                }
            }
            "c" => match v.parse::<u32>() {
                Ok(n) => termwidth = Some(n as usize),
                Err(_) => {
                    ctx.err(format!("invalid columns argument: '{v}'"))?;
                    return Ok(1);
                }
            },
            "l" => match v.parse::<u32>() {
                Ok(n) => t.limit = n as usize,
                Err(_) => {
                    ctx.err(format!("invalid columns limit argument: '{v}'"))?;
                    return Ok(1);
                }
            },
            "s" => t.separators = Some(v.chars().collect()),
            "o" => t.out_sep = v.to_owned(),
            "L" => keep_empty = true,
            "d" => t.headings = false,
            "N" => {
                t.names = Some(v.split(',').map(str::to_owned).collect());
                table_only = true;
            }
            "R" => {
                t.right = Some(v.to_owned());
                table_only = true;
            }
            "H" => {
                t.hide = Some(v.to_owned());
                table_only = true;
            }
            "O" => {
                t.order = Some(v.to_owned());
                table_only = true;
            }
            "n" | "E" | "T" | "W" => table_only = true,
            "J" | "r" | "i" | "p" => {
                ctx.err("JSON and tree output are not supported here")?;
                return Ok(1);
            }
            _ => {}
        }
    }
    if !mode_table && table_only {
        ctx.err("option --table required for all --table-*")?;
        return Ok(1);
    }
    let termwidth = termwidth.unwrap_or_else(|| {
        ctx.env
            .get("COLUMNS")
            .and_then(|c| c.parse::<usize>().ok())
            .filter(|&c| c > 0)
            .unwrap_or(80)
    });
    let files = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let mut status = 0;
    let mut lines: Vec<String> = Vec::new();
    for name in &files {
        match ctx.read_input(name)? {
            Ok(data) => {
                let text = crate::text::decode(&data);
                for l in text.split_inclusive('\n') {
                    let l = l.strip_suffix('\n').unwrap_or(l);
                    if l.trim_start_matches([' ', '\t']).is_empty() && !keep_empty {
                        continue;
                    }
                    lines.push(l.to_owned());
                }
            }
            Err(e) => {
                ctx.err(format!("{name}: {e}"))?;
                status = 1;
            }
        }
    }
    let mut out = String::new();
    if mode_table {
        let rows: Vec<Vec<String>> = lines.iter().map(|l| cells(l, &t)).collect();
        if !rows.is_empty() {
            table(&rows, &t, &mut out);
        }
    } else if !lines.is_empty() {
        columnate(&lines, termwidth, fill_rows, &mut out);
    }
    ctx.stdout.write_all(&crate::text::encode(&out))?;
    Ok(status)
}
