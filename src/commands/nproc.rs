//! `nproc`: the number of processing units the sandbox reports (always 2), which like
//! GNU's honours `OMP_NUM_THREADS` and `OMP_THREAD_LIMIT` unless `--all` is given.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};

/// The processor count the sandbox reports.
const NPROC: u64 = 2;

const LONG: &[LongOpt] = &[
    long("all", HasArg::No, "all"),
    long("ignore", HasArg::Required, "ignore"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: nproc [OPTION]...
Print the number of processing units available to the current process,
which may be less than the number of online processors

      --all      print the number of installed processors
      --ignore=N  if possible, exclude N processing units
      --help     display this help and exit
      --version  output version information and exit
";

pub fn nproc(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut ignore = 0u64;
    if let Some(v) = parsed.last("ignore") {
        match v.trim_start().parse::<u64>() {
            Ok(n) => ignore = n,
            Err(_) => {
                ctx.err(format!("invalid number: {}", lq(v)))?;
                return Ok(1);
            }
        }
    }
    if let Some(extra) = parsed.operands.first() {
        return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
    }
    let mut count = NPROC;
    if !parsed.has("all") {
        if let Some(n) = omp_count(ctx.env.get("OMP_NUM_THREADS")) {
            count = n;
        }
        if let Some(limit) = omp_count(ctx.env.get("OMP_THREAD_LIMIT")) {
            count = count.min(limit);
        }
    }
    writeln!(ctx.stdout, "{}", count.saturating_sub(ignore).max(1))?;
    Ok(0)
}

/// An OpenMP count as GNU reads it: blanks, digits, then blanks and the end or a comma
/// (`OMP_NUM_THREADS="4,2"` lists per-level counts); zero or anything else is ignored.
fn omp_count(value: Option<&String>) -> Option<u64> {
    let v = value?.trim_start();
    let digits = v.bytes().take_while(u8::is_ascii_digit).count();
    let (num, rest) = v.split_at_checked(digits)?;
    let rest = rest.trim_start();
    if !(rest.is_empty() || rest.starts_with(',')) {
        return None;
    }
    num.parse::<u64>().ok().filter(|n| *n > 0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn nproc_table() {
        for (line, out, err, status) in [
            ("nproc", "2\n", "", 0),
            ("nproc --all", "2\n", "", 0),
            ("nproc --ignore=1", "1\n", "", 0),
            ("nproc --ignore=5", "1\n", "", 0),
            ("nproc --ignore=x", "", "nproc: invalid number: 'x'\n", 1),
            (
                "nproc x",
                "",
                "nproc: extra operand 'x'\nTry 'nproc --help' for more information.\n",
                1,
            ),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
