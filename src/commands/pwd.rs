//! `pwd` as a utility (`/bin/pwd`, `env pwd`): the working directory, physical (`-P`,
//! the default) or as `$PWD` names it (`-L`, when that still leads there).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("logical", HasArg::No, "L"),
    long("physical", HasArg::No, "P"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: pwd [OPTION]...
Print the full filename of the current working directory.

  -L, --logical   use PWD from environment, even if it contains symlinks
  -P, --physical  avoid all symlinks
      --help     display this help and exit
      --version  output version information and exit

If no option is specified, -P is assumed.
";

pub fn pwd(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("LP", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if !parsed.operands.is_empty() {
        ctx.err("ignoring non-option arguments")?;
    }
    let logical = parsed
        .opts
        .iter()
        .rev()
        .find(|(k, _)| k == "L" || k == "P")
        .is_some_and(|(k, _)| k == "L");
    let physical = {
        let fs = ctx.fs.lock();
        fs.canonicalize(ctx.cwd)
            .unwrap_or_else(|_| ctx.cwd.to_owned())
    };
    let mut dir = physical.clone();
    if logical
        && let Some(p) = ctx.env.get("PWD")
        && p.starts_with('/')
        && !p.split('/').any(|c| c == "." || c == "..")
        && ctx.fs.lock().canonicalize(p).ok().as_deref() == Some(physical.as_str())
    {
        dir = p.clone();
    }
    let mut out = crate::text::encode(&dir);
    out.push(b'\n');
    ctx.stdout.write_all(&out)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn pwd_table() {
        let files = &[("d/", ""), ("l", "->d")];
        for (line, out, err, status) in [
            ("pwd", "/workspace\n", "", 0),
            (
                "pwd x",
                "/workspace\n",
                "pwd: ignoring non-option arguments\n",
                0,
            ),
            ("env PWD=/workspace/./ pwd -L", "/workspace\n", "", 0),
            ("env PWD=/workspace pwd -L", "/workspace\n", "", 0),
            (
                "pwd -x",
                "",
                "pwd: invalid option -- 'x'\nTry 'pwd --help' for more information.\n",
                1,
            ),
        ] {
            check(files, line, "", (out, err, status));
        }
    }
}
