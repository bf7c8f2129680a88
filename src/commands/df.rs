//! `df`: space on the virtual filesystem, one line (`shellbox` mounted on `/`) from
//! the bytes and inodes in use and the filesystem's limits; `-h -H -k -i -T -P`,
//! `--total`. Usage counts file bytes rounded up to 1 KiB.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{human_size, quotef};
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

pub fn df(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("hHiTPkalB:", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut status = 0;
    for name in &parsed.operands {
        let res = ctx.fs.lock().stat(&ctx.path(name));
        if let Err(e) = res {
            ctx.err(format!("{}: {e}", quotef(name)))?;
            status = 1;
        }
    }
    if !parsed.operands.is_empty() && status != 0 && parsed.operands.len() == 1 {
        return Ok(status);
    }
    let (bytes, inodes, limits) = {
        let fs = ctx.fs.lock();
        let (b, i) = fs.usage();
        (b, i, fs.limits())
    };
    let mut unit: Option<u64> = Some(1024);
    let mut si = false;
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
            _ => {}
        }
    }
    let inode_mode = parsed.has("i");
    let show_type = parsed.has("T");
    let mut header: Vec<String> = vec!["Filesystem".to_owned()];
    if show_type {
        header.push("Type".to_owned());
    }
    let (size, used, avail);
    if inode_mode {
        header.extend(["Inodes", "IUsed", "IFree", "IUse%"].map(String::from));
        size = limits.max_files;
        used = inodes;
        avail = size.saturating_sub(used);
    } else {
        let head = match unit {
            None => "Size".to_owned(),
            Some(1024) if parsed.has("P") => "1024-blocks".to_owned(),
            Some(u) if u % (1 << 20) == 0 => format!("{}M-blocks", u >> 20),
            Some(u) if u % 1024 == 0 => format!("{}K-blocks", u >> 10),
            Some(u) => format!("{u}B-blocks"),
        };
        header.push(head);
        header.push("Used".to_owned());
        header.push(if unit.is_none() { "Avail" } else { "Available" }.to_owned());
        header.push(if parsed.has("P") { "Capacity" } else { "Use%" }.to_owned());
        size = limits.max_total_bytes;
        used = bytes.div_ceil(1024) * 1024;
        avail = size.saturating_sub(used);
    }
    header.push("Mounted on".to_owned());
    let fmt = |n: u64| -> String {
        if inode_mode {
            return match unit {
                None if si => si_size(n),
                None => human_size(n),
                Some(_) => n.to_string(),
            };
        }
        match unit {
            None if si => si_size(n),
            None => human_size(n),
            Some(u) => n.div_ceil(u).to_string(),
        }
    };
    let mut row: Vec<String> = vec!["shellbox".to_owned()];
    if show_type {
        row.push("shellbox".to_owned());
    }
    row.extend([fmt(size), fmt(used), fmt(avail), percent(used, avail)]);
    row.push("/".to_owned());
    let mut rows = vec![header, row.clone()];
    if parsed.has("total") {
        let mut total = row;
        total[0] = "total".to_owned();
        if show_type {
            total[1] = "-".to_owned();
        }
        if let Some(last) = total.last_mut() {
            *last = "-".to_owned();
        }
        rows.push(total);
    }
    let cols = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            // GNU's minimum column widths.
            let min = if c == 0 {
                14
            } else if c + 1 == cols {
                0
            } else if show_type && c == 1 || (!inode_mode && c + 2 == cols) {
                4
            } else {
                5
            };
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
                .max(min)
        })
        .collect();
    let left = |c: usize| c == 0 || c + 1 == cols || (show_type && c == 1);
    for r in &rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let w = widths.get(c).copied().unwrap_or(0);
            if c > 0 {
                line.push(' ');
            }
            if c + 1 == cols {
                line.push_str(cell);
            } else if left(c) {
                line.push_str(&format!("{cell:<w$}"));
            } else {
                line.push_str(&format!("{cell:>w$}"));
            }
        }
        writeln!(ctx.stdout, "{line}")?;
    }
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
