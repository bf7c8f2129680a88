//! `readlink`: the target of symbolic links, or with `-f`/`-e`/`-m` the canonical name
//! (see `realpath` for the resolver).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::realpath::{Missing, resolve, unresolved};
use super::util::quotef;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("canonicalize", HasArg::No, "f"),
    long("canonicalize-existing", HasArg::No, "e"),
    long("canonicalize-missing", HasArg::No, "m"),
    long("no-newline", HasArg::No, "n"),
    long("quiet", HasArg::No, "q"),
    long("silent", HasArg::No, "s"),
    long("verbose", HasArg::No, "v"),
    long("zero", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: readlink [OPTION]... FILE...
Print value of a symbolic link or canonical file name

  -f, --canonicalize            canonicalize by following every symlink in
                                every component of the given name recursively;
                                all but the last component must exist
  -e, --canonicalize-existing   canonicalize by following every symlink in
                                every component of the given name recursively,
                                all components must exist
  -m, --canonicalize-missing    canonicalize by following every symlink in
                                every component of the given name recursively,
                                without requirements on components existence
  -n, --no-newline              do not output the trailing delimiter
  -q, --quiet
  -s, --silent                  suppress most error messages (on by default)
  -v, --verbose                 report error messages
  -z, --zero                    end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
";

pub fn readlink(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("efmnqsvz", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut mode = None;
    let mut verbose = false;
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "f" => mode = Some(Missing::Last),
            "e" => mode = Some(Missing::None),
            "m" => mode = Some(Missing::Any),
            "v" => verbose = true,
            "q" | "s" => verbose = false,
            _ => {}
        }
    }
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    let mut no_newline = parsed.has("n");
    if no_newline && parsed.operands.len() > 1 {
        ctx.err("ignoring --no-newline with multiple arguments")?;
        no_newline = false;
    }
    let end: &[u8] = match (no_newline, parsed.has("z")) {
        (true, _) => b"",
        (false, true) => b"\0",
        (false, false) => b"\n",
    };
    let mut status = 0;
    for name in &parsed.operands {
        let got = match mode {
            Some(_) if name.is_empty() => Err(crate::fs::FsError::from(crate::fs::Errno::ENOENT)),
            Some(m) => resolve(ctx, &unresolved(ctx, name), m, true),
            None => ctx.fs.lock().readlink(&ctx.path(name)),
        };
        match got {
            Ok(target) => {
                let mut line = crate::text::encode(&target);
                line.extend_from_slice(end);
                ctx.stdout.write_all(&line)?;
            }
            Err(e) => {
                status = 1;
                if verbose {
                    ctx.err(format!("{}: {e}", quotef(name)))?;
                }
            }
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::realpath::tests::FILES;
    use crate::commands::testing::check;

    #[test]
    fn readlink_table() {
        for (line, out, err, status) in [
            ("readlink l2", "l\n", "", 0),
            ("readlink l l2", "d\nl\n", "", 0),
            ("readlink f", "", "", 1),
            ("readlink -v f", "", "readlink: f: Invalid argument\n", 1),
            (
                "readlink -f l2 dang nope/x",
                "/workspace/d\n/workspace/nope\n",
                "",
                1,
            ),
            ("readlink -e dang", "", "", 1),
            ("readlink -m nope/x", "/workspace/nope/x\n", "", 0),
            ("readlink -n l", "d", "", 0),
            (
                "readlink -n l l2",
                "d\nl\n",
                "readlink: ignoring --no-newline with multiple arguments\n",
                0,
            ),
            ("readlink -f f/x", "", "", 1),
            (
                "readlink",
                "",
                "readlink: missing operand\nTry 'readlink --help' for more information.\n",
                1,
            ),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }
}
