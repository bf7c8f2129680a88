//! `tty`: the terminal on standard input. A sandbox has none, so it says so and fails.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("silent", HasArg::No, "s"),
    long("quiet", HasArg::No, "s"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: tty [OPTION]...
Print the file name of the terminal connected to standard input.

  -s, --silent, --quiet   print nothing, only return an exit status
      --help        display this help and exit
      --version     output version information and exit
";

pub fn tty(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("s", LONG), 2, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if let Some(extra) = parsed.operands.first() {
        return usage_error(ctx, &format!("extra operand {}", lq(extra)), 2);
    }
    if !parsed.has("s") {
        writeln!(ctx.stdout, "not a tty")?;
    }
    Ok(1)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::run;

    #[test]
    fn there_is_no_terminal() {
        assert_eq!(
            run(&[], "tty", ""),
            ("not a tty\n".to_owned(), String::new(), 1)
        );
        assert_eq!(run(&[], "tty -s", ""), (String::new(), String::new(), 1));
        let (_, err, status) = run(&[], "tty x", "");
        assert_eq!(status, 2);
        assert!(err.starts_with("tty: extra operand"), "{err}");
    }
}
