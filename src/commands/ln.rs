//! `ln`: makes hard links, or symbolic links with `-s`, to a target named or into a
//! directory (`-t DIR`, or a last operand that is a directory unless `-T`; with `-n` a
//! symlink to a directory is not entered); `-f` replaces, `-v` reports, `-L` follows a
//! symlink source of a hard link, `-b`/`--backup`/`-S` keep what a link replaces.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::backup::{self, Backup};
use super::cp::{base_name, shown_join};
use super::realpath::{Missing, relative, resolve, unresolved};
use super::util::{quote, quotef};
use super::{CmdResult, Ctx};
use crate::fs::Errno;

const LONG: &[LongOpt] = &[
    backup::BACKUP,
    backup::SUFFIX,
    long("symbolic", HasArg::No, "s"),
    long("force", HasArg::No, "f"),
    long("no-dereference", HasArg::No, "n"),
    long("no-target-directory", HasArg::No, "T"),
    long("target-directory", HasArg::Required, "t"),
    long("verbose", HasArg::No, "v"),
    long("logical", HasArg::No, "L"),
    long("physical", HasArg::No, "P"),
    long("interactive", HasArg::No, "i"),
    long("relative", HasArg::No, "r"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: ln [OPTION]... [-T] TARGET LINK_NAME
  or:  ln [OPTION]... TARGET
  or:  ln [OPTION]... TARGET... DIRECTORY
  or:  ln [OPTION]... -t DIRECTORY TARGET...
In the 1st form, create a link to TARGET with the name LINK_NAME.
In the 2nd form, create a link to TARGET in the current directory.
In the 3rd and 4th forms, create links to each TARGET in DIRECTORY.
Create hard links by default, symbolic links with --symbolic.
By default, each destination (name of new link) should not already exist.
When creating hard links, each TARGET must exist.  Symbolic links
can hold arbitrary text; if later resolved, a relative link is
interpreted in relation to its parent directory.

Mandatory arguments to long options are mandatory for short options too.
      --backup[=CONTROL]      make a backup of each existing destination file
  -b                          like --backup but does not accept an argument
  -d, -F, --directory         allow the superuser to attempt to hard link
                                directories (note: will probably fail due to
                                system restrictions, even for the superuser)
  -f, --force                 remove existing destination files
  -i, --interactive           prompt whether to remove destinations
  -L, --logical               dereference TARGETs that are symbolic links
  -n, --no-dereference        treat LINK_NAME as a normal file if
                                it is a symbolic link to a directory
  -P, --physical              make hard links directly to symbolic links
  -r, --relative              with -s, create links relative to link location
  -s, --symbolic              make symbolic links instead of hard links
  -S, --suffix=SUFFIX         override the usual backup suffix
  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create
                                the links
  -T, --no-target-directory   treat LINK_NAME as a normal file always
  -v, --verbose               print name of each linked file
      --help        display this help and exit
      --version     output version information and exit
";

const SYMLINK_NOTE: &str = "
Using -s ignores -L and -P.  Otherwise, the last option specified controls
behavior when a TARGET is a symbolic link, defaulting to -P.
";

struct Opts {
    symbolic: bool,
    force: bool,
    verbose: bool,
    logical: bool,
    relative: bool,
    backup: Option<Backup>,
}

pub fn ln(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("bsfnrS:Tt:vLPi", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    let help = format!("{USAGE}{}{SYMLINK_NOTE}", backup::HELP_TAIL);
    if let Some(s) = std_opts(ctx, &parsed, &help)? {
        return Ok(s);
    }
    let backup = match Backup::from_options(ctx, &parsed)? {
        Ok(b) => b,
        Err(status) => return Ok(status),
    };
    let o = Opts {
        symbolic: parsed.has("s"),
        force: parsed.has("f"),
        verbose: parsed.has("v"),
        logical: parsed
            .opts
            .iter()
            .rev()
            .find(|(k, _)| k == "L" || k == "P")
            .is_some_and(|(k, _)| k == "L"),
        relative: parsed.has("r"),
        backup,
    };
    if o.relative && !o.symbolic {
        ctx.err("cannot do --relative without --symbolic")?;
        return Ok(1);
    }
    let no_deref = parsed.has("n");
    let no_target_dir = parsed.has("T");
    let ops = &parsed.operands;
    if ops.is_empty() {
        return usage_error(ctx, "missing file operand", 1);
    }
    // (source, link name as shown) pairs.
    let mut jobs: Vec<(String, String)> = Vec::new();
    if let Some(dir) = parsed.last("t") {
        if no_target_dir {
            return usage_error(
                ctx,
                "cannot combine --target-directory and --no-target-directory",
                1,
            );
        }
        let is_dir = ctx.fs.lock().stat(&ctx.path(dir)).is_ok_and(|m| m.is_dir());
        if !is_dir {
            ctx.err(format!("target directory {}: Not a directory", quote(dir)))?;
            return Ok(1);
        }
        for s in ops {
            jobs.push((s.clone(), shown_join(dir, base_name(s))));
        }
    } else if no_target_dir {
        match ops.as_slice() {
            [s, d] => jobs.push((s.clone(), d.clone())),
            [_] => {
                return usage_error(
                    ctx,
                    &format!("missing destination file operand after {}", quote(&ops[0])),
                    1,
                );
            }
            _ => {
                return usage_error(ctx, &format!("extra operand {}", quote(&ops[2])), 1);
            }
        }
    } else if let [s] = ops.as_slice() {
        jobs.push((s.clone(), shown_join(".", base_name(s))));
    } else {
        let (last, sources) = ops.split_last().unwrap_or((&ops[0], &[]));
        let path = ctx.path(last);
        let fs = ctx.fs.lock();
        let meta = if no_deref && fs.lstat(&path).is_ok_and(|m| m.is_symlink()) {
            fs.lstat(&path)
        } else {
            fs.stat(&path)
        };
        drop(fs);
        let is_dir = meta.as_ref().is_ok_and(|m| m.is_dir());
        if is_dir {
            for s in sources {
                jobs.push((s.clone(), shown_join(last, base_name(s))));
            }
        } else if sources.len() > 1 {
            let why = match meta {
                Err(e) => e.to_string(),
                Ok(_) => Errno::ENOTDIR.strerror().to_owned(),
            };
            ctx.err(format!("target {}: {why}", quote(last)))?;
            return Ok(1);
        } else {
            jobs.push((sources[0].clone(), last.clone()));
        }
    }
    let mut status = 0;
    for (src, dest) in jobs {
        status |= make_link(ctx, &o, &src, &dest)?;
    }
    Ok(status)
}

fn make_link(ctx: &mut Ctx, o: &Opts, src: &str, dest: &str) -> std::io::Result<i32> {
    let dest_path = ctx.path(dest);
    let src_path = ctx.path(src);
    let kind = if o.symbolic { "symbolic" } else { "hard" };
    let mut fs = ctx.fs.lock();
    let mut hard_source = src_path.clone();
    if !o.symbolic {
        let meta = if o.logical {
            fs.stat(&src_path)
        } else {
            fs.lstat(&src_path)
        };
        match meta {
            Err(e) => {
                drop(fs);
                ctx.err(format!("failed to access {}: {e}", quote(src)))?;
                return Ok(1);
            }
            Ok(m) if m.is_dir() => {
                drop(fs);
                ctx.err(format!(
                    "{}: hard link not allowed for directory",
                    quotef(src)
                ))?;
                return Ok(1);
            }
            Ok(m) => {
                if o.logical
                    && let Ok(c) = fs.canonicalize(&src_path)
                {
                    hard_source = c;
                }
                if let Ok(d) = fs.lstat(&dest_path)
                    && d.ino == m.ino
                    && (o.force || o.backup.is_some())
                {
                    drop(fs);
                    ctx.err(format!(
                        "{} and {} are the same file",
                        quote(src),
                        quote(dest)
                    ))?;
                    return Ok(1);
                }
            }
        }
    }
    let saved = match &o.backup {
        Some(b) => match b.make(&mut fs, &dest_path, dest) {
            Ok(saved) => saved,
            Err(e) => {
                drop(fs);
                ctx.err(format!("cannot backup {}: {e}", quote(dest)))?;
                return Ok(1);
            }
        },
        None => None,
    };
    if o.force
        && let Ok(d) = fs.lstat(&dest_path)
    {
        if d.is_dir() {
            drop(fs);
            ctx.err(format!("{}: cannot overwrite directory", quotef(dest)))?;
            return Ok(1);
        }
        if let Err(e) = fs.remove_file(&dest_path) {
            drop(fs);
            ctx.err(format!("cannot remove {}: {e}", quote(dest)))?;
            return Ok(1);
        }
    }
    drop(fs);
    // -r points the link at the target's canonical name as seen from the link's
    // (canonical) directory.
    let src = if o.relative {
        let to = |name: &str| resolve(ctx, &unresolved(ctx, name), Missing::Any, true);
        let dir = crate::fs::path::parent(&dest_path).to_owned();
        match (to(src), resolve(ctx, &dir, Missing::Any, true)) {
            (Ok(target), Ok(dir)) => relative(&target, &dir),
            _ => src.to_owned(),
        }
    } else {
        src.to_owned()
    };
    let src = src.as_str();
    let mut fs = ctx.fs.lock();
    let res = if o.symbolic {
        fs.symlink(src, &dest_path)
    } else {
        fs.link(&hard_source, &dest_path)
    };
    drop(fs);
    match res {
        Ok(()) => {
            if o.verbose {
                let arrow = if o.symbolic { "->" } else { "=>" };
                let saved = saved
                    .map(|b| format!("{} ~ ", quote(&b)))
                    .unwrap_or_default();
                writeln!(ctx.stdout, "{saved}{} {arrow} {}", quote(dest), quote(src))?;
            }
            Ok(0)
        }
        Err(e) => {
            ctx.err(format!("failed to create {kind} link {}: {e}", quote(dest)))?;
            Ok(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    const FILES: &[(&str, &str)] = &[("f", "x"), ("d/", ""), ("l", "->f"), ("ld", "->d")];

    #[test]
    fn ln_table() {
        for (line, out, err, status) in [
            ("ln -sv f s", "'s' -> 'f'\n", "", 0),
            ("ln -v f h", "'h' => 'f'\n", "", 0),
            (
                "ln -s f l",
                "",
                "ln: failed to create symbolic link 'l': File exists\n",
                1,
            ),
            ("ln -sfv f l", "'l' -> 'f'\n", "", 0),
            (
                "ln f l",
                "",
                "ln: failed to create hard link 'l': File exists\n",
                1,
            ),
            ("ln -sv f d", "'d/f' -> 'f'\n", "", 0),
            ("ln -sv /x/y d/", "'d/y' -> '/x/y'\n", "", 0),
            ("ln -sv a b d", "'d/a' -> 'a'\n'd/b' -> 'b'\n", "", 0),
            ("ln -sv f ld", "'ld/f' -> 'f'\n", "", 0),
            ("ln -sfnv f ld", "'ld' -> 'f'\n", "", 0),
            ("ln -sv -t d a", "'d/a' -> 'a'\n", "", 0),
            (
                "ln nope z",
                "",
                "ln: failed to access 'nope': No such file or directory\n",
                1,
            ),
            (
                "ln -s a b c",
                "",
                "ln: target 'c': No such file or directory\n",
                1,
            ),
            ("ln -s a b f", "", "ln: target 'f': Not a directory\n", 1),
            (
                "ln d dd",
                "",
                "ln: d: hard link not allowed for directory\n",
                1,
            ),
            (
                "ln",
                "",
                "ln: missing file operand\nTry 'ln --help' for more information.\n",
                1,
            ),
            (
                "ln -sT f d",
                "",
                "ln: failed to create symbolic link 'd': File exists\n",
                1,
            ),
            ("ln -sfT f d", "", "ln: d: cannot overwrite directory\n", 1),
            (
                "ln -v f",
                "",
                "ln: failed to create hard link './f': File exists\n",
                1,
            ),
            ("ln -v d/../f d", "'d/f' => 'd/../f'\n", "", 0),
            (
                "ln -s f nodir/x",
                "",
                "ln: failed to create symbolic link 'nodir/x': No such file or directory\n",
                1,
            ),
            ("ln -f f f", "", "ln: 'f' and 'f' are the same file\n", 1),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }

    #[test]
    fn links_land_in_the_fs() {
        let fs = fs_with(FILES);
        run_in(&fs, "ln -s ../f d/s", b"");
        run_in(&fs, "ln f h", b"");
        let g = fs.lock();
        assert_eq!(g.readlink("/workspace/d/s").as_deref(), Ok("../f"));
        assert_eq!(g.stat("/workspace/h").map(|m| m.nlink), Ok(2));
    }
}
