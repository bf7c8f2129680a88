//! `cmp`: compares two files byte by byte — the first difference (`a b differ: byte
//! N, line M`), every difference with `-l`, nothing with `-s`; `-b` shows the bytes,
//! `-i SKIP[:SKIP2]` and extra operands skip, `-n LIMIT` bounds; `EOF on x after byte
//! N` when one is a prefix of the other. Exit 0 same, 1 different, 2 trouble.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("print-bytes", HasArg::No, "b"),
    long("ignore-initial", HasArg::Required, "i"),
    long("verbose", HasArg::No, "l"),
    long("bytes", HasArg::Required, "n"),
    long("quiet", HasArg::No, "s"),
    long("silent", HasArg::No, "s"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit
  -v, --version              output version information and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
";

fn usage(ctx: &mut Ctx, msg: &str) -> CmdResult {
    ctx.err(msg)?;
    writeln!(ctx.stderr, "cmp: Try 'cmp --help' for more information.")?;
    Ok(2)
}

/// `c` as cmp -b shows it (`^A`, `M-x`, ...).
fn show_byte(b: u8) -> String {
    let mut s = String::new();
    let mut c = b;
    if c >= 0x80 {
        s.push_str("M-");
        c -= 0x80;
    }
    match c {
        0..=31 => {
            s.push('^');
            s.push((c + 64) as char);
        }
        127 => s.push_str("^?"),
        _ => s.push(c as char),
    }
    s
}

pub fn cmp(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("bi:ln:s", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage(ctx, &msg),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let ops = &parsed.operands;
    let Some(a) = ops.first() else {
        return usage(ctx, "missing operand after 'cmp'");
    };
    if ops.len() > 4 {
        return usage(ctx, &format!("extra operand '{}'", ops[4]));
    }
    let b = ops.get(1).cloned().unwrap_or_else(|| "-".to_owned());
    let parse_skip = |s: &str| super::util::parse_size(s);
    let (mut skip_a, mut skip_b) = (0u64, 0u64);
    if let Some(v) = parsed.last("i") {
        let (x, y) = v.split_once(':').unwrap_or((v, v));
        match (parse_skip(x), parse_skip(y)) {
            (Some(x), Some(y)) => (skip_a, skip_b) = (x, y),
            _ => return usage(ctx, &format!("invalid --ignore-initial value '{v}'")),
        }
    }
    for (k, slot) in [(2, &mut skip_a), (3, &mut skip_b)] {
        if let Some(v) = ops.get(k) {
            match parse_skip(v) {
                Some(n) => *slot = n,
                None => return usage(ctx, &format!("invalid --ignore-initial value '{v}'")),
            }
        }
    }
    let limit = match parsed.last("n") {
        Some(v) => match parse_skip(v) {
            Some(n) => Some(n),
            None => return usage(ctx, &format!("invalid --bytes value '{v}'")),
        },
        None => None,
    };
    let mut read = |name: &str| -> std::io::Result<Result<std::sync::Arc<Vec<u8>>, String>> {
        match ctx.read_input(name)? {
            Ok(d) => Ok(Ok(d)),
            Err(e) => Ok(Err(format!("{name}: {e}"))),
        }
    };
    let da = read(a)?;
    let db = read(&b)?;
    let (da, db) = match (da, db) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(m), _) | (_, Err(m)) => {
            // GNU's -s silences a file it cannot open too; only the status tells.
            if !parsed.has("s") {
                ctx.err(m)?;
            }
            return Ok(2);
        }
    };
    let sa = da.get(skip_a as usize..).unwrap_or(&[]);
    let sb = db.get(skip_b as usize..).unwrap_or(&[]);
    let n = sa.len().min(sb.len());
    let n_lim = limit.map_or(n, |l| n.min(l as usize));
    let quiet = parsed.has("s");
    let verbose = parsed.has("l");
    let print_bytes = parsed.has("b");
    // GNU pads `-l` offsets to the width of the largest one possible: the smaller
    // of the files' remaining sizes (standard input has none) and the -n limit.
    let mut most = limit.unwrap_or(i64::MAX.unsigned_abs());
    for (name, rest) in [(a.as_str(), sa), (b.as_str(), sb)] {
        if name != "-" {
            most = most.min(rest.len() as u64);
        }
    }
    let width = most.to_string().len();
    let mut differ = false;
    let mut line = 1u64;
    for i in 0..n_lim {
        let (x, y) = (sa[i], sb[i]);
        if x != y {
            differ = true;
            if quiet {
                return Ok(1);
            }
            if verbose {
                if print_bytes {
                    writeln!(
                        ctx.stdout,
                        "{:width$} {:3o} {:<4} {:3o} {}",
                        i + 1,
                        x,
                        show_byte(x),
                        y,
                        show_byte(y)
                    )?;
                } else {
                    writeln!(ctx.stdout, "{:width$} {:3o} {:3o}", i + 1, x, y)?;
                }
                continue;
            }
            if print_bytes {
                writeln!(
                    ctx.stdout,
                    "{a} {b} differ: byte {}, line {line} is {:3o} {} {:3o} {}",
                    i + 1,
                    x,
                    show_byte(x),
                    y,
                    show_byte(y)
                )?;
            } else {
                writeln!(ctx.stdout, "{a} {b} differ: byte {}, line {line}", i + 1)?;
            }
            return Ok(1);
        }
        if x == b'\n' {
            line += 1;
        }
    }
    let limited = limit.is_some_and(|l| (l as usize) <= n);
    if sa.len() != sb.len() && !limited {
        let (short, data) = if sa.len() < sb.len() {
            (a.as_str(), sa)
        } else {
            (b.as_str(), sb)
        };
        if !quiet {
            let newlines = data.iter().filter(|&&c| c == b'\n').count();
            let where_ = if verbose {
                String::new()
            } else if data.last() == Some(&b'\n') {
                format!(", line {newlines}")
            } else {
                format!(", in line {}", newlines + 1)
            };
            let size = data.len();
            if size == 0 {
                writeln!(ctx.stderr, "cmp: EOF on {short} which is empty")?;
            } else {
                writeln!(ctx.stderr, "cmp: EOF on {short} after byte {size}{where_}")?;
            }
        }
        return Ok(1);
    }
    Ok(i32::from(differ))
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    /// Expectations from GNU cmp (diffutils 3.8).
    #[test]
    fn cmp_table() {
        let files: &[(&str, &str)] = &[("x", "abc\n"), ("y", "abd\nz\n"), ("z", "ab"), ("e", "")];
        for (line, stdin, out, err, status) in [
            ("cmp x y", "", "x y differ: byte 3, line 1\n", "", 1),
            ("cmp -s x y", "", "", "", 1),
            (
                "cmp -l x y",
                "",
                "3 143 144\n",
                "cmp: EOF on x after byte 4\n",
                1,
            ),
            (
                "cmp x z",
                "",
                "",
                "cmp: EOF on z after byte 2, in line 1\n",
                1,
            ),
            (
                "cmp z x",
                "",
                "",
                "cmp: EOF on z after byte 2, in line 1\n",
                1,
            ),
            ("cmp x x", "", "", "", 0),
            (
                "cmp x nope",
                "",
                "",
                "cmp: nope: No such file or directory\n",
                2,
            ),
            (
                "cmp -b x y",
                "",
                "x y differ: byte 3, line 1 is 143 c 144 d\n",
                "",
                1,
            ),
            ("cmp - y", "abc\n", "- y differ: byte 3, line 1\n", "", 1),
            ("cmp -l x z", "", "", "cmp: EOF on z after byte 2\n", 1),
            ("cmp -n 2 x y", "", "", "", 0),
            (
                "cmp -i 3 x y",
                "",
                "",
                "cmp: EOF on x after byte 1, line 1\n",
                1,
            ),
            ("cmp e x", "", "", "cmp: EOF on e which is empty\n", 1),
            ("cmp x y 1 1", "", "x y differ: byte 2, line 1\n", "", 1),
            (
                "cmp",
                "",
                "",
                "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n",
                2,
            ),
        ] {
            check(files, line, stdin, (out, err, status));
        }
    }
}
