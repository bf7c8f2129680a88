//! `nproc`: the number of processing units the sandbox reports (always 2).

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
    writeln!(ctx.stdout, "{}", NPROC.saturating_sub(ignore).max(1))?;
    Ok(0)
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
