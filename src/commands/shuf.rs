//! `shuf`: writes a random permutation of its input lines, of `-e` arguments or of an
//! `-i LO-HI` range (`-n`, `-r`, `-o`, `-z`). Randomness is deterministic: a fixed
//! seed, or one derived from the bytes of `--random-source=FILE`, so a script's output
//! is reproducible (it does not reproduce GNU's exact sequence).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{lq, quotef, records};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("echo", HasArg::No, "e"),
    long("input-range", HasArg::Required, "i"),
    long("head-count", HasArg::Required, "n"),
    long("output", HasArg::Required, "o"),
    long("random-source", HasArg::Required, "random-source"),
    long("repeat", HasArg::No, "r"),
    long("zero-terminated", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: shuf [OPTION]... [FILE]
  or:  shuf -e [OPTION]... [ARG]...
  or:  shuf -i LO-HI [OPTION]...
Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE
  -r, --repeat              output lines can be repeated
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
";

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0), without modulo bias.
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let v = self.next();
            if v < zone {
                return v % n;
            }
        }
    }
}

pub fn shuf(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("ei:n:o:rz", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let echo = parsed.has("e");
    let range = parsed.last("i").map(str::to_owned);
    if echo && range.is_some() {
        return usage_error(ctx, "cannot combine -e and -i options", 1);
    }
    let delim = if parsed.has("z") { b'\0' } else { b'\n' };
    let repeat = parsed.has("r");
    let mut count: Option<u64> = None;
    for (k, v) in &parsed.opts {
        if k == "n" {
            let v = v.as_deref().unwrap_or("");
            match v.parse::<u64>() {
                Ok(n) => count = Some(count.map_or(n, |c: u64| c.min(n))),
                Err(_) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
                    count = Some(count.unwrap_or(u64::MAX));
                }
                Err(_) => {
                    ctx.err(format!("invalid line count: {}", lq(v)))?;
                    return Ok(1);
                }
            }
        }
    }

    // The lines to permute, without delimiters.
    let mut lines: Vec<Vec<u8>>;
    if let Some(r) = &range {
        let bounds = match r.split_once('-') {
            None => Err(r.as_str()),
            Some((lo, hi)) => match (lo.parse::<u64>(), hi.parse::<u64>()) {
                (Err(_), _) => Err(lo),
                (_, Err(_)) => Err(hi),
                (Ok(l), Ok(h)) if h.checked_add(1).is_some_and(|h1| h1 >= l) => Ok((l, h)),
                _ => Err(r.as_str()),
            },
        };
        let (lo, hi) = match bounds {
            Ok(b) => b,
            Err(bad) => {
                ctx.err(format!("invalid input range: {}", lq(bad)))?;
                return Ok(1);
            }
        };
        if let Some(extra) = parsed.operands.first() {
            return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
        }
        if hi.saturating_sub(lo) > 10_000_000 && !repeat {
            return Err(super::fatal("shuf: input range too large"));
        }
        if repeat && hi >= lo {
            // Repeating picks straight from the range.
            return emit_range_repeat(ctx, &parsed, lo, hi, count, delim);
        }
        lines = (lo..=hi).map(|n| n.to_string().into_bytes()).collect();
    } else if echo {
        lines = parsed
            .operands
            .iter()
            .map(|a| crate::text::encode(a))
            .collect();
    } else {
        if let Some(extra) = parsed.operands.get(1) {
            return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
        }
        let name = parsed.operands.first().map_or("-", String::as_str);
        let data = match ctx.read_input(name)? {
            Ok(d) => d,
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                return Ok(1);
            }
        };
        lines = records(&data, delim)
            .map(|r| r.strip_suffix(&[delim]).unwrap_or(r).to_vec())
            .collect();
    }

    let Some(mut rng) = make_rng(ctx, &parsed)? else {
        return Ok(1);
    };
    let mut out = Vec::new();
    if repeat {
        if lines.is_empty() {
            if count == Some(0) {
                return finish(ctx, &parsed, &out);
            }
            ctx.err("no lines to repeat")?;
            return Ok(1);
        }
        let mut left = count;
        while left != Some(0) {
            let i = rng.below(lines.len() as u64) as usize;
            if let Some(line) = lines.get(i) {
                out.extend_from_slice(line);
                out.push(delim);
            }
            if let Some(l) = &mut left {
                *l -= 1;
            }
            if out.len() > 8192 {
                ctx.host.check()?;
                if !parsed.has("o") {
                    ctx.stdout.write_all(&out)?;
                    out.clear();
                }
            }
        }
        return finish(ctx, &parsed, &out);
    }
    let n = lines.len();
    let take = count.map_or(n, |c| usize::try_from(c).unwrap_or(usize::MAX).min(n));
    for i in 0..take {
        let j = i + rng.below((n - i) as u64) as usize;
        lines.swap(i, j);
        if let Some(line) = lines.get(i) {
            out.extend_from_slice(line);
            out.push(delim);
        }
        if i % 4096 == 4095 {
            ctx.host.check()?;
        }
    }
    finish(ctx, &parsed, &out)
}

/// `-r -i LO-HI`: numbers picked from the range, `count` times (forever without `-n`).
fn emit_range_repeat(
    ctx: &mut Ctx,
    parsed: &super::args::Parsed,
    lo: u64,
    hi: u64,
    count: Option<u64>,
    delim: u8,
) -> CmdResult {
    let Some(mut rng) = make_rng(ctx, parsed)? else {
        return Ok(1);
    };
    let span = (hi - lo).checked_add(1);
    let mut out = Vec::new();
    let mut left = count;
    while left != Some(0) {
        let v = match span {
            Some(s) => lo + rng.below(s),
            None => rng.next(),
        };
        out.extend_from_slice(v.to_string().as_bytes());
        out.push(delim);
        if let Some(l) = &mut left {
            *l -= 1;
        }
        if out.len() > 8192 {
            ctx.host.check()?;
            if !parsed.has("o") {
                ctx.stdout.write_all(&out)?;
                out.clear();
            }
        }
    }
    finish(ctx, parsed, &out)
}

/// The generator: seeded from `--random-source`'s bytes, or a fixed seed.
fn make_rng(ctx: &mut Ctx, parsed: &super::args::Parsed) -> std::io::Result<Option<Rng>> {
    let Some(src) = parsed.last("random-source") else {
        return Ok(Some(Rng(0x5EED_5EED_1234_5678)));
    };
    let src = src.to_owned();
    let seed = match ctx.open_input(&src) {
        Ok(input) => match input.in_memory() {
            Some(bytes) => bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            }),
            None => 0x1234_5678_9abc_def0,
        },
        Err(e) => {
            ctx.err(format!("{}: {e}", quotef(&src)))?;
            return Ok(None);
        }
    };
    Ok(Some(Rng(seed)))
}

/// Writes the result to stdout or the `-o` file.
fn finish(ctx: &mut Ctx, parsed: &super::args::Parsed, out: &[u8]) -> CmdResult {
    match parsed.last("o") {
        None => {
            ctx.stdout.write_all(out)?;
            Ok(0)
        }
        Some(name) => {
            if let Err(e) = ctx.write_output(name, out, false, ctx.file_mode())? {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                return Ok(1);
            }
            Ok(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run, run_in};

    fn sorted_lines(s: &str) -> Vec<String> {
        let mut v: Vec<String> = s.lines().map(str::to_owned).collect();
        v.sort();
        v
    }

    #[test]
    fn shuf_permutes() {
        for (line, stdin, want) in [
            ("shuf", "a\nb\nc\nd\n", vec!["a", "b", "c", "d"]),
            ("shuf -e x y z", "", vec!["x", "y", "z"]),
            ("shuf -i 3-7", "", vec!["3", "4", "5", "6", "7"]),
            ("shuf -i 5-4", "", vec![]),
            ("shuf", "no newline", vec!["no newline"]),
        ] {
            let (out, err, status) = run(&[], line, stdin);
            assert_eq!((err.as_str(), status), ("", 0), "{line}");
            assert_eq!(sorted_lines(&out), want, "{line}");
        }
        let (a, _, _) = run(&[], "shuf -i 1-100", "");
        let (b, _, _) = run(&[], "shuf -i 1-100", "");
        assert_eq!(a, b, "deterministic");
        assert_ne!(a.lines().next(), Some("1"));
        let (out, _, _) = run(&[], "shuf -n 3 -i 1-100", "");
        assert_eq!(out.lines().count(), 3);
        let (out, _, _) = run(&[], "shuf -r -n 7 -e a b", "");
        assert_eq!(out.lines().count(), 7);
        assert!(out.lines().all(|l| l == "a" || l == "b"));
        let (out, _, _) = run(&[], "shuf -z -e a b", "");
        assert_eq!(sorted_lines(&out.replace('\0', "\n")), vec!["a", "b"]);
    }

    #[test]
    fn shuf_output_file_and_source() {
        let fs = fs_with(&[("seed", "abc")]);
        let (out, err, status) = run_in(&fs, "shuf -o out -e a b c", b"");
        assert_eq!((out.len(), err.as_str(), status), (0, "", 0));
        let (out, _, _) = run_in(&fs, "shuf out", b"");
        assert_eq!(
            sorted_lines(&String::from_utf8_lossy(&out)),
            vec!["a", "b", "c"]
        );
        let (a, _, _) = run_in(&fs, "shuf --random-source=seed -i 1-50", b"");
        let (b, _, _) = run_in(&fs, "shuf -i 1-50", b"");
        assert_ne!(a, b);
    }

    #[test]
    fn shuf_errors() {
        for (line, err) in [
            ("shuf -i 1-x", "shuf: invalid input range: 'x'\n"),
            ("shuf -i -3", "shuf: invalid input range: ''\n"),
            ("shuf -i 3", "shuf: invalid input range: '3'\n"),
            ("shuf -i 3-1", "shuf: invalid input range: '3-1'\n"),
            ("shuf -n x", "shuf: invalid line count: 'x'\n"),
            ("shuf -r -e", "shuf: no lines to repeat\n"),
            (
                "shuf -e -i 1-3",
                "shuf: cannot combine -e and -i options\nTry 'shuf --help' for more information.\n",
            ),
            (
                "shuf a b",
                "shuf: extra operand 'b'\nTry 'shuf --help' for more information.\n",
            ),
            (
                "shuf -i 1-3 extra",
                "shuf: extra operand 'extra'\nTry 'shuf --help' for more information.\n",
            ),
        ] {
            check(&[], line, "", ("", err, 1));
        }
        check(&[], "shuf -n 0 -r -e", "", ("", "", 0));
    }
}
