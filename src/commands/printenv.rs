//! `printenv`: prints the values of the named exported variables, or every `NAME=VALUE`
//! pair; status 1 when a named variable is not set.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[long("null", HasArg::No, "0"), HELP, VERSION];

const USAGE: &str = "\
Usage: printenv [OPTION]... [VARIABLE]...
Print the values of the specified environment VARIABLE(s).
If no VARIABLE is specified, print name and value pairs for them all.

  -0, --null     end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
";

pub fn printenv(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("0", LONG), 2, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let end = if parsed.has("0") { "\0" } else { "\n" };
    let mut text = String::new();
    let mut status = 0;
    if parsed.operands.is_empty() {
        for (k, v) in ctx.env {
            text.push_str(&format!("{k}={v}{end}"));
        }
    } else {
        for name in &parsed.operands {
            match ctx.env.get(name) {
                Some(v) if !name.contains('=') => text.push_str(&format!("{v}{end}")),
                _ => status = 1,
            }
        }
    }
    ctx.stdout.write_all(&crate::text::encode(&text))?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn printenv_table() {
        for (line, out, err, status) in [
            ("env -i A=1 B=2 printenv", "A=1\nB=2\n", "", 0),
            ("env -i A=1 B=2 printenv B A", "2\n1\n", "", 0),
            ("env -i A=1 printenv -0 A", "1\0", "", 0),
            ("env -i A=1 printenv NOPE A", "1\n", "", 1),
            ("env -i A=1 printenv A=1", "", "", 1),
            (
                "printenv -x",
                "",
                "printenv: invalid option -- 'x'\nTry 'printenv --help' for more information.\n",
                2,
            ),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
