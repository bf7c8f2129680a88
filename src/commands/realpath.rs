//! `realpath`: canonical absolute names, with the GNU modes for missing components
//! (`-e` all must exist, default all but the last, `-m` none), `-s` to keep symlinks,
//! and `--relative-to`/`--relative-base`. The resolver is shared with `readlink -f`.

use std::collections::VecDeque;

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::quotef;
use super::{CmdResult, Ctx};
use crate::fs::{Errno, FsError, FsResult};

const LONG: &[LongOpt] = &[
    long("canonicalize-existing", HasArg::No, "e"),
    long("canonicalize-missing", HasArg::No, "m"),
    long("logical", HasArg::No, "L"),
    long("physical", HasArg::No, "P"),
    long("quiet", HasArg::No, "q"),
    long("relative-to", HasArg::Required, "relative-to"),
    long("relative-base", HasArg::Required, "relative-base"),
    long("strip", HasArg::No, "s"),
    long("no-symlinks", HasArg::No, "s"),
    long("zero", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -L, --logical                resolve '..' components before symlinks
  -P, --physical               resolve symlinks as encountered (default)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
      --relative-base=DIR      print absolute paths unless paths below DIR
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
";

/// Which components of a name must exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// Every component (`-e`).
    None,
    /// All but the last (the default of `realpath` and `readlink -f`).
    Last,
    /// Any (`-m`).
    Any,
}

/// Resolves `path` (absolute) to a canonical name: `.` and `..` removed and, with
/// `follow`, every symlink expanded (at most 40, else ELOOP).
pub fn resolve(ctx: &Ctx, path: &str, missing: Missing, follow: bool) -> FsResult<String> {
    let fs = ctx.fs.lock();
    let mut todo: VecDeque<String> = path
        .split('/')
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut links = 0;
    // Once a component is missing, nothing below it can be looked up.
    let mut gone = false;
    while let Some(c) = todo.pop_front() {
        match c.as_str() {
            "." => continue,
            ".." => {
                out.pop();
                continue;
            }
            _ => {}
        }
        let last = todo.iter().all(|c| c == "." || c.is_empty());
        let candidate = format!(
            "/{}",
            out.iter()
                .chain([&c])
                .cloned()
                .collect::<Vec<_>>()
                .join("/")
        );
        if gone || !follow {
            out.push(c);
            continue;
        }
        match fs.lstat(&candidate) {
            Ok(meta) if meta.is_symlink() => {
                links += 1;
                if links > 40 {
                    return Err(Errno::ELOOP.into());
                }
                let target = fs.readlink(&candidate)?;
                if target.starts_with('/') {
                    out.clear();
                }
                for part in target.split('/').rev().filter(|p| !p.is_empty()) {
                    todo.push_front(part.to_owned());
                }
            }
            Ok(meta) => {
                if !meta.is_dir() && !last && missing != Missing::Any {
                    return Err(Errno::ENOTDIR.into());
                }
                out.push(c);
            }
            Err(e) if e.is(Errno::ENOENT) => {
                if missing == Missing::None || (missing == Missing::Last && !last) {
                    return Err(e);
                }
                gone = true;
                out.push(c);
            }
            Err(e) if missing == Missing::Any => {
                let _ = e;
                gone = true;
                out.push(c);
            }
            Err(e) => return Err(e),
        }
    }
    let resolved = format!("/{}", out.join("/"));
    if !follow {
        match missing {
            Missing::None => {
                fs.stat(&resolved)?;
            }
            Missing::Last => {
                let parent = crate::fs::path::parent(&resolved);
                if !fs.stat(parent).map(|m| m.is_dir()).unwrap_or(false) {
                    return Err(FsError::from(Errno::ENOENT));
                }
            }
            Missing::Any => {}
        }
    }
    Ok(resolved)
}

/// `name` made absolute with its `..` kept, for [`resolve`] to apply after the
/// symlinks before them (`link/..` is the link target's parent).
pub fn unresolved(ctx: &Ctx, name: &str) -> String {
    if name.starts_with('/') {
        name.to_owned()
    } else {
        format!("{}/{name}", ctx.cwd)
    }
}

/// `path` relative to directory `base` (both canonical).
pub fn relative(path: &str, base: &str) -> String {
    let p: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
    let b: Vec<&str> = base.split('/').filter(|c| !c.is_empty()).collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<&str> = vec![".."; b.len() - common];
    parts.extend(p.iter().skip(common));
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    }
}

fn is_under(path: &str, base: &str) -> bool {
    base == "/" || path == base || path.strip_prefix(base).is_some_and(|r| r.starts_with('/'))
}

pub fn realpath(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("emLPqsz", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut missing = Missing::Last;
    let mut follow = true;
    let mut logical = false;
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "e" => missing = Missing::None,
            "m" => missing = Missing::Any,
            "s" => follow = false,
            "L" => logical = true,
            "P" => {
                logical = false;
                follow = true;
            }
            _ => {}
        }
    }
    let quiet = parsed.has("q");
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    let resolve_arg = |ctx: &Ctx, name: &str| {
        if name.is_empty() {
            return Err(FsError::from(Errno::ENOENT));
        }
        let abs = if logical {
            ctx.path(name)
        } else {
            unresolved(ctx, name)
        };
        resolve(ctx, &abs, missing, follow)
    };
    let mut bases = Vec::new();
    for key in ["relative-to", "relative-base"] {
        let Some(dir) = parsed.last(key) else {
            bases.push(None);
            continue;
        };
        match resolve_arg(ctx, dir) {
            Ok(d) => bases.push(Some(d)),
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(dir)))?;
                return Ok(1);
            }
        }
    }
    let (rel_to, mut rel_base) = match bases.as_slice() {
        [a, b] => (a.clone(), b.clone()),
        _ => (None, None),
    };
    if let (Some(to), Some(base)) = (&rel_to, &rel_base)
        && !is_under(to, base)
    {
        rel_base = None;
    }
    let end = if parsed.has("z") { '\0' } else { '\n' };
    let mut status = 0;
    for name in &parsed.operands {
        match resolve_arg(ctx, name) {
            Ok(p) => {
                let shown = match (&rel_to, &rel_base) {
                    (_, Some(base)) if !is_under(&p, base) => p,
                    (Some(to), _) => relative(&p, to),
                    (None, Some(base)) => relative(&p, base),
                    (None, None) => p,
                };
                let mut line = crate::text::encode(&shown);
                line.extend_from_slice(end.to_string().as_bytes());
                ctx.stdout.write_all(&line)?;
            }
            Err(e) => {
                status = 1;
                if !quiet {
                    ctx.err(format!("{}: {e}", quotef(name)))?;
                }
            }
        }
    }
    Ok(status)
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::commands::testing::check;

    pub const FILES: &[(&str, &str)] = &[
        ("d/", ""),
        ("f", ""),
        ("l", "->d"),
        ("dang", "->nope"),
        ("l2", "->l"),
        ("loop", "->loop"),
    ];

    #[test]
    fn realpath_table() {
        for (line, out, err, status) in [
            (
                "realpath f l l2 dang",
                "/workspace/f\n/workspace/d\n/workspace/d\n/workspace/nope\n",
                "",
                0,
            ),
            (
                "realpath nope/x",
                "",
                "realpath: nope/x: No such file or directory\n",
                1,
            ),
            (
                "realpath -e dang",
                "",
                "realpath: dang: No such file or directory\n",
                1,
            ),
            ("realpath -m nope/x/../y", "/workspace/nope/y\n", "", 0),
            ("realpath -s l2", "/workspace/l2\n", "", 0),
            ("realpath -s l/../f", "/workspace/f\n", "", 0),
            ("realpath --relative-to=d f", "../f\n", "", 0),
            ("realpath --relative-to=. d/", "d\n", "", 0),
            ("realpath --relative-base=d f d", "/workspace/f\n.\n", "", 0),
            ("realpath -q nope/x", "", "", 1),
            ("realpath f/x", "", "realpath: f/x: Not a directory\n", 1),
            ("realpath -z . /", "/workspace\0/\0", "", 0),
            (
                "realpath loop",
                "",
                "realpath: loop: Too many levels of symbolic links\n",
                1,
            ),
            (
                "realpath",
                "",
                "realpath: missing operand\nTry 'realpath --help' for more information.\n",
                1,
            ),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }
}
