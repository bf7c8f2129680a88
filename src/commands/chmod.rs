//! `chmod`: changes permission bits with octal (`755`) or symbolic (`u+x,g-w,a=r,+X`)
//! modes, `--reference`, `-R` (symlinks met while recursing are skipped, as GNU does),
//! and GNU's `-v`/`-c` reports.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{apply_mode, lq, mode_string, quote, quotef};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("changes", HasArg::No, "c"),
    long("silent", HasArg::No, "f"),
    long("quiet", HasArg::No, "f"),
    long("verbose", HasArg::No, "v"),
    long("recursive", HasArg::No, "R"),
    long("reference", HasArg::Required, "reference"),
    long("preserve-root", HasArg::No, "preserve-root"),
    long("no-preserve-root", HasArg::No, "no-preserve-root"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
  or:  chmod [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --no-preserve-root  do not treat '/' specially (the default)
      --preserve-root    fail to operate recursively on '/'
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help        display this help and exit
      --version     output version information and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.
";

/// Whether `-...` is a mode like `-w` or `-rwx` rather than options.
fn looks_like_mode(arg: &str) -> bool {
    arg.len() > 1
        && arg.starts_with('-')
        && arg[1..]
            .chars()
            .all(|c| "rwxXstugoa,+-=01234567".contains(c))
}

struct Opts {
    verbose: bool,
    changes: bool,
    silent: bool,
    recursive: bool,
    /// A mode given where options go (`-w`): GNU then reports a result the umask
    /// made differ from what the mode says on its own.
    diagnose: bool,
}

enum Mode {
    Spec(String),
    Exact(u32),
}

pub fn chmod(ctx: &mut Ctx) -> CmdResult {
    // GNU lets a mode such as `-w` stand where options go; pull it out first.
    let mut args = Vec::new();
    let mut dash_mode = None;
    let mut ended = false;
    for a in ctx.args {
        if !ended && a == "--" {
            ended = true;
        }
        if !ended && dash_mode.is_none() && looks_like_mode(a) {
            dash_mode = Some(a.clone());
        } else {
            args.push(a.clone());
        }
    }
    let parsed = match super::args::parse(&Spec::new("cfvR", LONG), &args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let o = Opts {
        verbose: parsed.has("v"),
        changes: parsed.has("c"),
        silent: parsed.has("f"),
        recursive: parsed.has("R"),
        diagnose: dash_mode.is_some(),
    };
    let mut operands = parsed.operands.clone();
    let mode = if let Some(r) = parsed.last("reference") {
        let res = ctx.fs.lock().stat(&ctx.path(r));
        match res {
            Ok(m) => Mode::Exact(m.mode),
            Err(e) => {
                ctx.err(format!("failed to get attributes of {}: {e}", quote(r)))?;
                return Ok(1);
            }
        }
    } else if let Some(m) = dash_mode {
        Mode::Spec(m)
    } else {
        if operands.is_empty() {
            return usage_error(ctx, "missing operand", 1);
        }
        Mode::Spec(operands.remove(0))
    };
    if operands.is_empty() {
        let msg = match &mode {
            Mode::Spec(m) => format!("missing operand after {}", lq(m)),
            Mode::Exact(_) => "missing operand".to_owned(),
        };
        return usage_error(ctx, &msg, 1);
    }
    if let Mode::Spec(m) = &mode
        && apply_mode(m, 0, false, ctx.umask).is_none()
    {
        ctx.err(format!("invalid mode: {}", lq(m)))?;
        return usage_error(ctx, "", 1);
    }
    let mut status = 0;
    for name in &operands {
        let path = ctx.path(name);
        status |= change(ctx, &o, &mode, name, &path, true)?;
    }
    Ok(status)
}

/// Changes one file (following a symlink named on the command line) and, with `-R`,
/// everything below it.
fn change(
    ctx: &mut Ctx,
    o: &Opts,
    mode: &Mode,
    shown: &str,
    path: &str,
    top: bool,
) -> std::io::Result<i32> {
    ctx.host.check()?;
    if !top {
        let lmeta = ctx.fs.lock().lstat(path);
        if lmeta.is_ok_and(|m| m.is_symlink()) {
            if o.verbose {
                writeln!(
                    ctx.stdout,
                    "neither symbolic link {} nor referent has been changed",
                    quote(shown)
                )?;
            }
            return Ok(0);
        }
    }
    let meta = ctx.fs.lock().stat(path);
    let meta = match meta {
        Ok(m) => m,
        Err(e) => {
            if !o.silent {
                ctx.err(format!("cannot access {}: {e}", quote(shown)))?;
            }
            return Ok(1);
        }
    };
    let old = meta.mode & 0o7777;
    let new = match mode {
        Mode::Exact(m) => *m & 0o7777,
        Mode::Spec(s) => apply_mode(s, old, meta.is_dir(), ctx.umask).unwrap_or(old),
    };
    let mut status = 0;
    let res = ctx.fs.lock().chmod(path, new);
    match res {
        Err(e) => {
            if !o.silent {
                ctx.err(format!("changing permissions of {}: {e}", quote(shown)))?;
            }
            status = 1;
        }
        Ok(()) => {
            let changed = new != old;
            if o.verbose || (o.changes && changed) {
                let ty = meta.file_type.ls_char();
                let describe = |m: u32| {
                    let s = mode_string(ty, m);
                    format!("{m:04o} ({})", s.get(1..).unwrap_or(""))
                };
                if changed {
                    writeln!(
                        ctx.stdout,
                        "mode of {} changed from {} to {}",
                        quote(shown),
                        describe(old),
                        describe(new)
                    )?;
                } else {
                    writeln!(
                        ctx.stdout,
                        "mode of {} retained as {}",
                        quote(shown),
                        describe(old)
                    )?;
                }
            }
            if o.diagnose
                && let Mode::Spec(s) = mode
                && let Some(naive) = apply_mode(s, old, meta.is_dir(), 0)
                && new & !naive != 0
            {
                let ty = meta.file_type.ls_char();
                let perms = |m: u32| mode_string(ty, m).get(1..10).unwrap_or("").to_owned();
                ctx.err(format!(
                    "{}: new permissions are {}, not {}",
                    quotef(shown),
                    perms(new),
                    perms(naive)
                ))?;
                status = 1;
            }
        }
    }
    if o.recursive && meta.is_dir() {
        let entries = ctx.fs.lock().read_dir(path);
        match entries {
            Ok(entries) => {
                for e in entries {
                    let child_shown = if shown.ends_with('/') {
                        format!("{shown}{}", e.name)
                    } else {
                        format!("{shown}/{}", e.name)
                    };
                    let child = crate::fs::path::join(path, &e.name);
                    status |= change(ctx, o, mode, &child_shown, &child, false)?;
                }
            }
            Err(e) => {
                if !o.silent {
                    ctx.err(format!("cannot read directory {}: {e}", quote(shown)))?;
                }
                status = 1;
            }
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    const FILES: &[(&str, &str)] = &[("f", "x"), ("d/e/", ""), ("d/g", ""), ("l", "->f")];

    #[test]
    fn chmod_table() {
        for (line, out, err, status) in [
            (
                "chmod -v 755 f",
                "mode of 'f' changed from 0644 (rw-r--r--) to 0755 (rwxr-xr-x)\n",
                "",
                0,
            ),
            (
                "chmod -v 644 f",
                "mode of 'f' retained as 0644 (rw-r--r--)\n",
                "",
                0,
            ),
            ("chmod -c 644 f", "", "", 0),
            (
                "chmod -v -w f",
                "mode of 'f' changed from 0644 (rw-r--r--) to 0444 (r--r--r--)\n",
                "",
                0,
            ),
            (
                "chmod -v u+s,g+s,+t f",
                "mode of 'f' changed from 0644 (rw-r--r--) to 7644 (rwSr-Sr-T)\n",
                "",
                0,
            ),
            (
                "chmod -v u=rwx,g=rx,o= f",
                "mode of 'f' changed from 0644 (rw-r--r--) to 0750 (rwxr-x---)\n",
                "",
                0,
            ),
            (
                "chmod -v a=r,+X f",
                "mode of 'f' changed from 0644 (rw-r--r--) to 0444 (r--r--r--)\n",
                "",
                0,
            ),
            (
                "chmod -v g=u f",
                "mode of 'f' changed from 0644 (rw-r--r--) to 0664 (rw-rw-r--)\n",
                "",
                0,
            ),
            (
                "chmod -v 600 l",
                "mode of 'l' changed from 0644 (rw-r--r--) to 0600 (rw-------)\n",
                "",
                0,
            ),
            (
                "chmod -Rv go-rx d",
                "mode of 'd' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\n\
                 mode of 'd/e' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\n\
                 mode of 'd/g' changed from 0644 (rw-r--r--) to 0600 (rw-------)\n",
                "",
                0,
            ),
            ("chmod -Rc a+rX .", "", "", 0),
            (
                "chmod -R -v 700 .",
                "mode of '.' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\n\
                 mode of './d' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\n\
                 mode of './d/e' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\n\
                 mode of './d/g' changed from 0644 (rw-r--r--) to 0700 (rwx------)\n\
                 mode of './f' changed from 0644 (rw-r--r--) to 0700 (rwx------)\n\
                 neither symbolic link './l' nor referent has been changed\n",
                "",
                0,
            ),
            (
                "chmod --reference=d -v f",
                "mode of 'f' changed from 0644 (rw-r--r--) to 0755 (rwxr-xr-x)\n",
                "",
                0,
            ),
            (
                "chmod xyz f",
                "",
                "chmod: invalid mode: 'xyz'\nTry 'chmod --help' for more information.\n",
                1,
            ),
            (
                "chmod",
                "",
                "chmod: missing operand\nTry 'chmod --help' for more information.\n",
                1,
            ),
            (
                "chmod 755",
                "",
                "chmod: missing operand after '755'\nTry 'chmod --help' for more information.\n",
                1,
            ),
            (
                "chmod 755 nope f",
                "",
                "chmod: cannot access 'nope': No such file or directory\n",
                1,
            ),
            ("chmod -f 755 nope", "", "", 1),
            (
                "chmod -v 0 /etc/passwd",
                "",
                "chmod: changing permissions of '/etc/passwd': Operation not permitted\n",
                1,
            ),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }

    #[test]
    fn modes_land_in_the_fs() {
        let fs = fs_with(FILES);
        let (_, _, st) = run_in(&fs, "chmod 4751 f", b"");
        assert_eq!(st, 0);
        let m = fs.lock().stat("/workspace/f").map(|m| m.mode);
        assert_eq!(m, Ok(0o4751));
    }
}
