//! `rm`: removes files, and directories with `-r` (depth first) or `-d` (empty ones);
//! `-f` ignores missing operands, `-v` reports each removal, `-i` asks before each
//! removal and `-I` once for the whole command, reading the answers from standard
//! input. Refuses `/`, `.` and `..` like GNU.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, argmatch, long, usage_error};
use super::util::quote;
use super::{CmdResult, Ctx};
use crate::fs::{Errno, Fs};

const LONG: &[LongOpt] = &[
    long("force", HasArg::No, "f"),
    long("interactive", HasArg::Optional, "interactive"),
    long("recursive", HasArg::No, "r"),
    long("dir", HasArg::No, "d"),
    long("verbose", HasArg::No, "v"),
    long("no-preserve-root", HasArg::No, "no-preserve-root"),
    long("preserve-root", HasArg::Optional, "preserve-root"),
    long("one-file-system", HasArg::No, "one-file-system"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: rm [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -i                    prompt before every removal
  -I                    prompt once before removing more than three files, or
                          when removing recursively; less intrusive than -i,
                          while still giving protection against most mistakes
      --interactive[=WHEN]  prompt according to WHEN: never, once (-I), or
                          always (-i); without WHEN, prompt always
      --one-file-system  when removing a hierarchy recursively, skip any
                          directory that is on a file system different from
                          that of the corresponding command line argument
      --no-preserve-root  do not treat '/' specially
      --preserve-root[=all]  do not remove '/' (default);
                              with 'all', reject any command line argument
                              on a separate device from its parent
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --help        display this help and exit
      --version     output version information and exit

By default, rm does not remove directories.  Use the --recursive (-r or -R)
option to remove each listed directory, too, along with all of its contents.

To remove a file whose name starts with a '-', for example '-foo',
use one of these commands:
  rm -- -foo

  rm ./-foo

Note that if you use rm to remove a file, it might be possible to recover
some of its contents, given sufficient expertise and/or time.  For greater
assurance that the contents are truly unrecoverable, consider using shred(1).
";

/// When `rm` asks (`--interactive=WHEN`).
#[derive(Clone, Copy, PartialEq)]
enum Ask {
    Never,
    /// `-I`: once, before removing more than three operands or recursively.
    Once,
    /// `-i`: before every removal.
    Always,
}

const WHEN: &[(&str, Ask)] = &[
    ("never", Ask::Never),
    ("no", Ask::Never),
    ("none", Ask::Never),
    ("once", Ask::Once),
    ("always", Ask::Always),
    ("yes", Ask::Always),
];

struct Opts {
    ask: Ask,
    force: bool,
    recursive: bool,
    dir: bool,
    verbose: bool,
    preserve_root: bool,
}

/// One removal step: its shown name, absolute path and whether it is a directory.
struct Step {
    shown: String,
    path: String,
    is_dir: bool,
}

/// Post-order list of everything under (and including) a directory, children in
/// directory order, as fts visits them.
fn walk(fs: &Fs, shown: &str, path: &str, out: &mut Vec<Step>) {
    enum Visit {
        Enter,
        Leave,
        File,
    }
    let mut stack = vec![(shown.to_owned(), path.to_owned(), Visit::Enter)];
    while let Some((shown, path, visit)) = stack.pop() {
        match visit {
            Visit::File | Visit::Leave => out.push(Step {
                shown,
                path,
                is_dir: matches!(visit, Visit::Leave),
            }),
            Visit::Enter => {
                let entries = fs.read_dir(&path).unwrap_or_default();
                stack.push((shown.clone(), path.clone(), Visit::Leave));
                for e in entries.iter().rev() {
                    let cs = if shown.ends_with('/') {
                        format!("{shown}{}", e.name)
                    } else {
                        format!("{shown}/{}", e.name)
                    };
                    let cp = format!("{}/{}", path.trim_end_matches('/'), e.name);
                    let kind = if e.file_type.is_dir() {
                        Visit::Enter
                    } else {
                        Visit::File
                    };
                    stack.push((cs, cp, kind));
                }
            }
        }
    }
}

pub fn rm(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("fiIrRdv", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut o = Opts {
        ask: Ask::Never,
        force: false,
        recursive: false,
        dir: false,
        verbose: false,
        preserve_root: true,
    };
    // The last of -f, -i, -I and --interactive decides; only -f ignores missing files.
    for (k, v) in &parsed.opts {
        match k.as_str() {
            "f" => {
                o.force = true;
                o.ask = Ask::Never;
            }
            "i" => {
                o.force = false;
                o.ask = Ask::Always;
            }
            "I" => {
                o.force = false;
                o.ask = Ask::Once;
            }
            "interactive" => {
                let when = match v {
                    Some(v) => match argmatch(ctx, "--interactive", v, WHEN)? {
                        Ok(w) => w,
                        Err(status) => return Ok(status),
                    },
                    None => Ask::Always,
                };
                if when != Ask::Never {
                    o.force = false;
                }
                o.ask = when;
            }
            "r" | "R" => o.recursive = true,
            "d" => o.dir = true,
            "v" => o.verbose = true,
            "no-preserve-root" => o.preserve_root = false,
            _ => {}
        }
    }
    if parsed.operands.is_empty() {
        if o.force {
            return Ok(0);
        }
        return usage_error(ctx, "missing operand", 1);
    }
    let n = parsed.operands.len();
    if o.ask == Ask::Once && (o.recursive || n > 3) {
        let plural = if n == 1 { "" } else { "s" };
        let how = if o.recursive { " recursively" } else { "" };
        if !ctx.confirm(&format!("remove {n} argument{plural}{how}"))? {
            return Ok(0);
        }
    }
    let mut status = 0;
    for name in &parsed.operands {
        ctx.host.check()?;
        let base = name.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        if o.recursive && (base == "." || base == "..") {
            ctx.err(format!(
                "refusing to remove '.' or '..' directory: skipping {}",
                quote(name)
            ))?;
            status = 1;
            continue;
        }
        let path = ctx.path(name);
        if o.recursive && o.preserve_root && path == "/" {
            ctx.err(format!(
                "it is dangerous to operate recursively on {}",
                quote(name)
            ))?;
            ctx.err("use --no-preserve-root to override this failsafe")?;
            status = 1;
            continue;
        }
        let fs = ctx.fs.snapshot();
        let meta = match fs.lstat(&path) {
            Ok(m) => m,
            Err(e) => {
                if !(o.force && e.errno == Errno::ENOENT) {
                    ctx.err(format!("cannot remove {}: {e}", quote(name)))?;
                    status = 1;
                }
                continue;
            }
        };
        if o.ask == Ask::Always && (o.recursive || o.dir || !meta.is_dir()) {
            drop(fs);
            remove_asking(ctx, &o, name, &path, &mut status)?;
            continue;
        }
        let mut steps = Vec::new();
        if meta.is_dir() {
            if o.recursive {
                walk(&fs, name, &path, &mut steps);
            } else if o.dir {
                steps.push(Step {
                    shown: name.clone(),
                    path,
                    is_dir: true,
                });
            } else {
                ctx.err(format!("cannot remove {}: Is a directory", quote(name)))?;
                status = 1;
                continue;
            }
        } else {
            steps.push(Step {
                shown: name.clone(),
                path,
                is_dir: false,
            });
        }
        drop(fs);
        let mut messages = Vec::new();
        {
            let mut fs = ctx.fs.lock();
            // A directory whose contents could not all be removed is left alone, and
            // so are its ancestors (rmdir would fail with ENOTEMPTY anyway).
            for step in &steps {
                let res = if step.is_dir {
                    fs.remove_dir(&step.path)
                } else {
                    fs.remove_file(&step.path)
                };
                match res {
                    Ok(()) => {
                        if o.verbose {
                            let what = if step.is_dir {
                                "removed directory "
                            } else {
                                "removed "
                            };
                            messages.push((false, format!("{what}{}", quote(&step.shown))));
                        }
                    }
                    Err(e) if e.errno == Errno::ENOTEMPTY && status == 1 => {}
                    Err(e) => {
                        messages.push((true, format!("cannot remove {}: {e}", quote(&step.shown))));
                        status = 1;
                    }
                }
            }
        }
        for (is_err, msg) in messages {
            if is_err {
                ctx.err(msg)?;
            } else {
                writeln!(ctx.stdout, "{msg}")?;
            }
        }
    }
    Ok(status)
}

/// What `rm -i` calls a file when it asks: GNU's `file_type`, with `write-protected `
/// in front when the file (not a symlink) cannot be written.
fn described(fs: &Fs, path: &str, meta: &crate::fs::Metadata) -> String {
    use crate::fs::FileType;
    let kind = match meta.file_type {
        FileType::Dir => "directory",
        FileType::Symlink => "symbolic link",
        FileType::Device(_) => "character special file",
        FileType::Fifo => "fifo",
        FileType::File if meta.size == 0 => "regular empty file",
        FileType::File => "regular file",
    };
    let protected = !meta.is_symlink() && fs.access(path, false, true, false).is_err();
    let prefix = if protected { "write-protected " } else { "" };
    format!("{prefix}{kind}")
}

/// `rm -i` on one operand: asks before removing each file and before entering and
/// removing each non-empty directory (only when everything in it went); a `no` keeps
/// that file or tree. The answers are read between removals, as GNU reads them.
/// Returns whether `path` is gone.
fn remove_asking(
    ctx: &mut Ctx,
    o: &Opts,
    shown: &str,
    path: &str,
    status: &mut i32,
) -> std::io::Result<bool> {
    ctx.host.check()?;
    let (meta, entries, what) = {
        let fs = ctx.fs.lock();
        let Ok(meta) = fs.lstat(path) else {
            return Ok(true);
        };
        let entries = if meta.is_dir() && o.recursive {
            fs.read_dir(path).unwrap_or_default()
        } else {
            Vec::new()
        };
        let what = described(&fs, path, &meta);
        (meta, entries, what)
    };
    if !entries.is_empty() {
        if !ctx.confirm(&format!("descend into {what} {}", quote(shown)))? {
            return Ok(false);
        }
        let mut all_gone = true;
        for e in entries {
            let child_shown = super::cp::shown_join(shown, &e.name);
            let child = format!("{}/{}", path.trim_end_matches('/'), e.name);
            all_gone &= remove_asking(ctx, o, &child_shown, &child, status)?;
        }
        if !all_gone {
            return Ok(false);
        }
    }
    if !ctx.confirm(&format!("remove {what} {}", quote(shown)))? {
        return Ok(false);
    }
    let res = {
        let mut fs = ctx.fs.lock();
        if meta.is_dir() {
            fs.remove_dir(path)
        } else {
            fs.remove_file(path)
        }
    };
    match res {
        Ok(()) => {
            if o.verbose {
                let what = if meta.is_dir() {
                    "removed directory "
                } else {
                    "removed "
                };
                writeln!(ctx.stdout, "{what}{}", quote(shown))?;
            }
            Ok(true)
        }
        Err(e) => {
            ctx.err(format!("cannot remove {}: {e}", quote(shown)))?;
            *status = 1;
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[
        ("r/s/t", ""),
        ("r/u", ""),
        ("f2", ""),
        ("e/", ""),
        ("l", "->r"),
    ];

    #[test]
    fn rm_table() {
        for (line, out, err, status) in [
            (
                "rm nosuch",
                "",
                "rm: cannot remove 'nosuch': No such file or directory\n",
                1,
            ),
            ("rm -f nosuch", "", "", 0),
            ("rm r", "", "rm: cannot remove 'r': Is a directory\n", 1),
            (
                "rm -d r",
                "",
                "rm: cannot remove 'r': Directory not empty\n",
                1,
            ),
            ("rm -d e", "", "", 0),
            (
                "rm -rv r",
                "removed 'r/s/t'\nremoved directory 'r/s'\nremoved 'r/u'\nremoved directory 'r'\n",
                "",
                0,
            ),
            (
                "rm -rv r/",
                "removed 'r/s/t'\nremoved directory 'r/s'\nremoved 'r/u'\nremoved directory 'r/'\n",
                "",
                0,
            ),
            ("rm -v f2 l", "removed 'f2'\nremoved 'l'\n", "", 0),
            (
                "rm -r /",
                "",
                "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n",
                1,
            ),
            (
                "rm -r .",
                "",
                "rm: refusing to remove '.' or '..' directory: skipping '.'\n",
                1,
            ),
            (
                "rm -rf ..",
                "",
                "rm: refusing to remove '.' or '..' directory: skipping '..'\n",
                1,
            ),
            (
                "rm -r ./.",
                "",
                "rm: refusing to remove '.' or '..' directory: skipping './.'\n",
                1,
            ),
            (
                "rm",
                "",
                "rm: missing operand\nTry 'rm --help' for more information.\n",
                1,
            ),
            ("rm -f", "", "", 0),
            ("rm -i f2", "", "rm: remove regular empty file 'f2'? ", 0),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }
}
