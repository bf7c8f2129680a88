//! `df`: space on the virtual filesystem, one line (`shellbox` mounted on `/`) from
//! the bytes and inodes in use and the filesystem's limits; `-h -H -k -B -i -T -P`,
//! `-t`/`-x` types, `--output` columns, `--total`. Usage counts file bytes rounded up
//! to 1 KiB.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{human_size, lq, quotef};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("human-readable", HasArg::No, "h"),
    long("si", HasArg::No, "H"),
    long("inodes", HasArg::No, "i"),
    long("print-type", HasArg::No, "T"),
    long("portability", HasArg::No, "P"),
    long("total", HasArg::No, "total"),
    long("all", HasArg::No, "a"),
    long("local", HasArg::No, "l"),
    long("block-size", HasArg::Required, "B"),
    long("output", HasArg::Optional, "output"),
    long("type", HasArg::Required, "t"),
    long("exclude-type", HasArg::Required, "x"),
    long("sync", HasArg::No, "sync"),
    long("no-sync", HasArg::No, "no-sync"),
    HELP,
    VERSION,
];

const USAGE: &str = concat!(
    "\
Usage: df [OPTION]... [FILE]...
Show information about the file system on which each FILE resides,
or all file systems by default.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all             include pseudo, duplicate, inaccessible file systems
  -B, --block-size=SIZE  scale sizes by SIZE before printing them; e.g.,
                           '-BM' prints sizes in units of 1,048,576 bytes;
                           see SIZE format below
  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)
  -H, --si              print sizes in powers of 1000 (e.g., 1.1G)
  -i, --inodes          list inode information instead of block usage
  -k                    like --block-size=1K
  -l, --local           limit listing to local file systems
      --no-sync         do not invoke sync before getting usage info (default)
      --output[=FIELD_LIST]  use the output format defined by FIELD_LIST,
                               or print all fields if FIELD_LIST is omitted.
  -P, --portability     use the POSIX output format
      --sync            invoke sync before getting usage info
      --total           elide all entries insignificant to available space,
                          and produce a grand total
  -t, --type=TYPE       limit listing to file systems of type TYPE
  -T, --print-type      print file system type
  -x, --exclude-type=TYPE   limit listing to file systems not of type TYPE
  -v                    (ignored)
      --help        display this help and exit
      --version     output version information and exit

",
    size_units_help!("DF"),
    "
FIELD_LIST is a comma-separated list of columns to be included.  Valid
field names are: 'source', 'fstype', 'itotal', 'iused', 'iavail', 'ipcent',
'size', 'used', 'avail', 'pcent', 'file' and 'target' (see info page).
"
);

/// GNU `-H`: powers of 1000, rounded up, one decimal below 10.
fn si_size(n: u64) -> String {
    if n < 1000 {
        return n.to_string();
    }
    let suffix = ['k', 'M', 'G', 'T', 'P', 'E'];
    let mut unit: u128 = 1000;
    let mut k = 0;
    while u128::from(n) >= unit * 1000 && k + 1 < suffix.len() {
        unit *= 1000;
        k += 1;
    }
    let s = suffix.get(k).copied().unwrap_or('?');
    let tenths = (u128::from(n) * 10).div_ceil(unit);
    if tenths < 100 {
        format!("{}.{}{s}", tenths / 10, tenths % 10)
    } else {
        format!("{}{s}", u128::from(n).div_ceil(unit))
    }
}

fn percent(used: u64, avail: u64) -> String {
    let total = u128::from(used) + u128::from(avail);
    if total == 0 {
        return "-".to_owned();
    }
    format!("{}%", (u128::from(used) * 100).div_ceil(total))
}

/// A column `--output` can name.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Source,
    Fstype,
    Itotal,
    Iused,
    Iavail,
    Ipcent,
    Size,
    Used,
    Avail,
    Pcent,
    File,
    Target,
}

/// `--output` names in GNU's order (the order of a bare `--output`).
const FIELDS: &[(&str, Field)] = &[
    ("source", Field::Source),
    ("fstype", Field::Fstype),
    ("itotal", Field::Itotal),
    ("iused", Field::Iused),
    ("iavail", Field::Iavail),
    ("ipcent", Field::Ipcent),
    ("size", Field::Size),
    ("used", Field::Used),
    ("avail", Field::Avail),
    ("pcent", Field::Pcent),
    ("file", Field::File),
    ("target", Field::Target),
];

impl Field {
    /// GNU's minimum column width.
    fn min_width(self) -> usize {
        match self {
            Field::Source => 14,
            Field::Fstype | Field::Ipcent | Field::Pcent | Field::File => 4,
            Field::Target => 0,
            _ => 5,
        }
    }
    fn left_aligned(self) -> bool {
        matches!(
            self,
            Field::Source | Field::Fstype | Field::File | Field::Target
        )
    }
}

/// How headers are worded: GNU varies them with -h/-H, -P and --output.
#[derive(Clone, Copy, PartialEq)]
enum HeaderMode {
    Default,
    Human,
    Posix,
    Output,
}

/// Parses a `--output` list, appending to `fields`; `Err` is the diagnostic.
fn parse_output(list: &str, fields: &mut Vec<Field>) -> Result<(), String> {
    for name in list.split(',') {
        let Some(&(_, f)) = FIELDS.iter().find(|(n, _)| *n == name) else {
            return Err(format!("option --output: field {} unknown", lq(name)));
        };
        if fields.contains(&f) {
            return Err(format!(
                "option --output: field {} used more than once",
                lq(name)
            ));
        }
        fields.push(f);
    }
    Ok(())
}

pub fn df(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("hHiTPkalvB:t:x:", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut unit: Option<u64> = Some(1024);
    let mut si = false;
    let mut output: Option<Vec<Field>> = None;
    for (k, v) in &parsed.opts {
        match k.as_str() {
            "h" => (unit, si) = (None, false),
            "H" => (unit, si) = (None, true),
            "k" => unit = Some(1024),
            "B" => {
                let v = v.as_deref().unwrap_or("");
                match super::util::parse_size(v).filter(|&n| n > 0) {
                    Some(n) => unit = Some(n),
                    None => {
                        ctx.err(format!("invalid --block-size argument '{v}'"))?;
                        return Ok(1);
                    }
                }
            }
            "output" => {
                let fields = output.get_or_insert_with(Vec::new);
                let res = match v.as_deref() {
                    Some(list) => parse_output(list, fields),
                    None => FIELDS.iter().try_for_each(|(n, _)| parse_output(n, fields)),
                };
                if let Err(msg) = res {
                    return usage_error(ctx, &msg, 1);
                }
            }
            _ => {}
        }
    }
    let inode_mode = parsed.has("i");
    let show_type = parsed.has("T");
    if output.is_some() {
        for (opt, given) in [
            ("-i", inode_mode),
            ("-T", show_type),
            ("-P", parsed.has("P")),
        ] {
            if given {
                let msg = format!("options {opt} and --output are mutually exclusive");
                return usage_error(ctx, &msg, 1);
            }
        }
    }
    let mut status = 0;
    // The operands that name something; with none, the one filesystem, file "-".
    let mut files: Vec<&str> = Vec::new();
    for name in &parsed.operands {
        let res = ctx.fs.lock().stat(&ctx.path(name));
        match res {
            Ok(_) => files.push(name),
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                status = 1;
            }
        }
    }
    if parsed.operands.is_empty() {
        files.push("-");
    }
    // The one filesystem's type is `shellbox`: -t must name it, -x must not.
    let types_ok = parsed
        .opts
        .iter()
        .all(|(k, v)| match (k.as_str(), v.as_deref()) {
            ("t", Some(t)) => t == "shellbox",
            ("x", Some(t)) => t != "shellbox",
            _ => true,
        });
    if !types_ok || files.is_empty() {
        if types_ok && status != 0 {
            return Ok(status);
        }
        ctx.err("no file systems processed")?;
        return Ok(1);
    }
    let (bytes, inodes, limits) = {
        let fs = ctx.fs.lock();
        let (b, i) = fs.usage();
        (b, i, fs.limits())
    };
    let human = unit.is_none();
    let mode = if output.is_some() {
        HeaderMode::Output
    } else if human {
        HeaderMode::Human
    } else if parsed.has("P") {
        HeaderMode::Posix
    } else {
        HeaderMode::Default
    };
    let fields = output.unwrap_or_else(|| {
        let mut f = vec![Field::Source];
        if show_type {
            f.push(Field::Fstype);
        }
        if inode_mode {
            f.extend([Field::Itotal, Field::Iused, Field::Iavail, Field::Ipcent]);
        } else {
            f.extend([Field::Size, Field::Used, Field::Avail, Field::Pcent]);
        }
        f.push(Field::Target);
        f
    });
    let header = |f: Field| -> String {
        match f {
            Field::Source => "Filesystem".to_owned(),
            Field::Fstype => "Type".to_owned(),
            Field::Itotal => "Inodes".to_owned(),
            Field::Iused => "IUsed".to_owned(),
            Field::Iavail => "IFree".to_owned(),
            Field::Ipcent => "IUse%".to_owned(),
            Field::Size => match unit {
                None => "Size".to_owned(),
                Some(1024) if mode == HeaderMode::Posix => "1024-blocks".to_owned(),
                Some(u) if u % (1 << 20) == 0 => format!("{}M-blocks", u >> 20),
                Some(u) if u % 1024 == 0 => format!("{}K-blocks", u >> 10),
                Some(u) => format!("{u}B-blocks"),
            },
            Field::Used => "Used".to_owned(),
            Field::Avail => match mode {
                HeaderMode::Default | HeaderMode::Posix => "Available".to_owned(),
                HeaderMode::Human | HeaderMode::Output => "Avail".to_owned(),
            },
            Field::Pcent if mode == HeaderMode::Posix => "Capacity".to_owned(),
            Field::Pcent => "Use%".to_owned(),
            Field::File => "File".to_owned(),
            Field::Target => "Mounted on".to_owned(),
        }
    };
    let blocks = |n: u64| -> String {
        match unit {
            None if si => si_size(n),
            None => human_size(n),
            Some(u) => n.div_ceil(u).to_string(),
        }
    };
    let count = |n: u64| -> String {
        match unit {
            None if si => si_size(n),
            None => human_size(n),
            Some(_) => n.to_string(),
        }
    };
    let size = limits.max_total_bytes;
    let used = bytes.div_ceil(1024) * 1024;
    let avail = size.saturating_sub(used);
    let itotal = limits.max_files;
    let iavail = itotal.saturating_sub(inodes);
    let n_rows = files.len() as u64;
    let row = |file: &str, total: bool| -> Vec<String> {
        // A total row sums the rows above it.
        let k = if total { n_rows } else { 1 };
        fields
            .iter()
            .map(|&f| match f {
                Field::Source if total => "total".to_owned(),
                Field::Source => "shellbox".to_owned(),
                Field::Fstype if total => "-".to_owned(),
                Field::Fstype => "shellbox".to_owned(),
                Field::Itotal => count(itotal * k),
                Field::Iused => count(inodes * k),
                Field::Iavail => count(iavail * k),
                Field::Ipcent => percent(inodes, iavail),
                Field::Size => blocks(size * k),
                Field::Used => blocks(used * k),
                Field::Avail => blocks(avail * k),
                Field::Pcent => percent(used, avail),
                Field::File => file.to_owned(),
                Field::Target if total => "-".to_owned(),
                Field::Target => "/".to_owned(),
            })
            .collect()
    };
    let mut rows: Vec<Vec<String>> = vec![fields.iter().map(|&f| header(f)).collect()];
    rows.extend(files.iter().map(|f| row(f, false)));
    if parsed.has("total") {
        rows.push(row("-", true));
    }
    let widths: Vec<usize> = fields
        .iter()
        .enumerate()
        .map(|(c, f)| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
                .max(f.min_width())
        })
        .collect();
    let last = fields.len().saturating_sub(1);
    let mut out = String::new();
    for r in &rows {
        for (c, (cell, f)) in r.iter().zip(&fields).enumerate() {
            let w = widths.get(c).copied().unwrap_or(0);
            if c > 0 {
                out.push(' ');
            }
            // The last column is not padded on the right.
            if f.left_aligned() && c == last {
                out.push_str(cell);
            } else if f.left_aligned() {
                out.push_str(&format!("{cell:<w$}"));
            } else {
                out.push_str(&format!("{cell:>w$}"));
            }
        }
        out.push('\n');
    }
    ctx.stdout.write_all(&crate::text::encode(&out))?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn df_table() {
        // The test filesystem holds /etc's three small files (108 bytes).
        for (line, out, err, status) in [
            (
                "df",
                "Filesystem     1K-blocks  Used Available Use% Mounted on\n\
                 shellbox         1048576     1   1048575   1% /\n",
                "",
                0,
            ),
            (
                "df -h .",
                "Filesystem      Size  Used Avail Use% Mounted on\n\
                 shellbox        1.0G  1.0K  1.0G   1% /\n",
                "",
                0,
            ),
            (
                "df -T --total",
                "Filesystem     Type     1K-blocks  Used Available Use% Mounted on\n\
                 shellbox       shellbox   1048576     1   1048575   1% /\n\
                 total          -          1048576     1   1048575   1% -\n",
                "",
                0,
            ),
            ("df nope", "", "df: nope: No such file or directory\n", 1),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
