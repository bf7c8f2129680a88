//! `rmdir`: removes empty directories (`-p` also removes the now-empty parents named in
//! the path; `-v`; `--ignore-fail-on-non-empty`).

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::realpath::unresolved;
use super::util::quote;
use super::{CmdResult, Ctx};
use crate::fs::{Errno, FsError};

const LONG: &[LongOpt] = &[
    long("parents", HasArg::No, "p"),
    long("verbose", HasArg::No, "v"),
    long("ignore-fail-on-non-empty", HasArg::No, "ignore"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: rmdir [OPTION]... DIRECTORY...
Remove the DIRECTORY(ies), if they are empty.

      --ignore-fail-on-non-empty
                    ignore each failure that is solely because a directory
                    is non-empty

  -p, --parents     remove DIRECTORY and its ancestors; e.g., 'rmdir -p a/b/c'
                    is similar to 'rmdir a/b/c a/b a'

  -v, --verbose     output a diagnostic for every directory processed
      --help        display this help and exit
      --version     output version information and exit
";

pub fn rmdir(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("pv", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    let parents = parsed.has("p");
    let verbose = parsed.has("v");
    let ignore = parsed.has("ignore");
    let mut status = 0;
    for name in &parsed.operands {
        let mut current = name.clone();
        loop {
            if verbose {
                writeln!(ctx.stdout, "rmdir: removing directory, {}", quote(&current))?;
            }
            let path = ctx.path(&current);
            let res = match current.trim_end_matches('/').rsplit('/').next() {
                // rmdir(2) refuses a path whose last component is `.`, and `..` is
                // never empty: it holds the directory the name goes through.
                Some(".") => Err(FsError::from(Errno::EINVAL)),
                Some("..") => {
                    let through = current.trim_end_matches('/');
                    let through = through.strip_suffix("..").unwrap_or(through);
                    let dir = if through.is_empty() { "." } else { through };
                    let found = ctx.fs.lock().stat_dir(&unresolved(ctx, dir));
                    found.and_then(|_| Err(FsError::from(Errno::ENOTEMPTY)))
                }
                _ => ctx.fs.lock().remove_dir(&path),
            };
            if let Err(e) = res {
                if !(ignore && e.errno == Errno::ENOTEMPTY) {
                    let what = if current == *name { "" } else { "directory " };
                    let why = if e.errno == Errno::ENOTDIR && symlinked_dir(ctx, &current) {
                        "Symbolic link not followed".to_owned()
                    } else {
                        e.to_string()
                    };
                    ctx.err(format!("failed to remove {what}{}: {why}", quote(&current)))?;
                    status = 1;
                }
                break;
            }
            if !parents {
                break;
            }
            match current.trim_end_matches('/').rsplit_once('/') {
                Some((parent, _)) => {
                    let parent = parent.trim_end_matches('/');
                    if parent.is_empty() {
                        break;
                    }
                    current = parent.to_owned();
                }
                None => break,
            }
        }
    }
    Ok(status)
}

/// Whether `name` ends in `/` and names a symlink to a directory: rmdir(2) will not
/// follow it, and GNU says so rather than "Not a directory".
fn symlinked_dir(ctx: &Ctx, name: &str) -> bool {
    let bare = name.trim_end_matches('/');
    if bare.len() == name.len() || bare.is_empty() {
        return false;
    }
    let fs = ctx.fs.lock();
    let path = ctx.path(bare);
    fs.lstat(&path).is_ok_and(|m| m.is_symlink()) && fs.stat(&path).is_ok_and(|m| m.is_dir())
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[("f", ""), ("d/", ""), ("e/f/", ""), ("x/y/", "")];

    #[test]
    fn rmdir_table() {
        for (line, out, err, status) in [
            ("rmdir d", "", "", 0),
            (
                "rmdir nosuch",
                "",
                "rmdir: failed to remove 'nosuch': No such file or directory\n",
                1,
            ),
            (
                "rmdir e",
                "",
                "rmdir: failed to remove 'e': Directory not empty\n",
                1,
            ),
            ("rmdir --ignore-fail-on-non-empty e", "", "", 0),
            ("rmdir -p e/f", "", "", 0),
            (
                "rmdir f",
                "",
                "rmdir: failed to remove 'f': Not a directory\n",
                1,
            ),
            ("rmdir -v x/y", "rmdir: removing directory, 'x/y'\n", "", 0),
            (
                "rmdir -pv x/y/",
                "rmdir: removing directory, 'x/y/'\nrmdir: removing directory, 'x'\n",
                "",
                0,
            ),
            (
                "rmdir",
                "",
                "rmdir: missing operand\nTry 'rmdir --help' for more information.\n",
                1,
            ),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }
}
