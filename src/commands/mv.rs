//! `mv`: renames files and directories, or moves them into a directory (`-t`, `-T`);
//! `-n`/`-u` skip, `-b`/`--backup`/`-S` keep what they replace, `-v` reports.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::backup::{self, Backup};
use super::cp::{is_within, plan, resolved_dest};
use super::util::quote;
use super::{CmdResult, Ctx};
use crate::fs::Errno;

const LONG: &[LongOpt] = &[
    backup::BACKUP,
    backup::SUFFIX,
    long("force", HasArg::No, "f"),
    long("interactive", HasArg::No, "i"),
    long("no-clobber", HasArg::No, "n"),
    long("target-directory", HasArg::Required, "t"),
    long("no-target-directory", HasArg::No, "T"),
    long("update", HasArg::Optional, "u"),
    long("verbose", HasArg::No, "v"),
    long("strip-trailing-slashes", HasArg::No, "strip"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: mv [OPTION]... [-T] SOURCE DEST
  or:  mv [OPTION]... SOURCE... DIRECTORY
  or:  mv [OPTION]... -t DIRECTORY SOURCE...
Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.

Mandatory arguments to long options are mandatory for short options too.
      --backup[=CONTROL]       make a backup of each existing destination file
  -b                           like --backup but does not accept an argument
  -f, --force                  do not prompt before overwriting
  -i, --interactive            prompt before overwrite
  -n, --no-clobber             do not overwrite an existing file
If you specify more than one of -i, -f, -n, only the final one takes effect.
      --strip-trailing-slashes  remove any trailing slashes from each SOURCE
                                 argument
  -S, --suffix=SUFFIX          override the usual backup suffix
  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 move only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
  -Z                           set SELinux security context of destination
                                 file to default type
      --help        display this help and exit
      --version     output version information and exit
";

pub fn mv(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("bfinS:t:TuvZ", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, &format!("{USAGE}{}", backup::HELP_TAIL))? {
        return Ok(s);
    }
    if let Some(status) = backup::refuse_with_no_clobber(ctx, &parsed, &["f", "i"])? {
        return Ok(status);
    }
    let backup = match Backup::from_options(ctx, &parsed)? {
        Ok(b) => b,
        Err(status) => return Ok(status),
    };
    let mut no_clobber = false;
    let mut interactive = false;
    let mut update = false;
    let mut verbose = false;
    let mut target_dir = None;
    for (k, v) in &parsed.opts {
        match k.as_str() {
            "f" | "i" => {
                no_clobber = false;
                interactive = k == "i";
            }
            "n" => {
                no_clobber = true;
                interactive = false;
            }
            "u" => update = v.as_deref() != Some("all"),
            "v" => verbose = true,
            "t" => target_dir = v.clone(),
            _ => {}
        }
    }
    let pairs = match plan(
        ctx,
        &parsed.operands,
        target_dir.as_deref(),
        parsed.has("T"),
    ) {
        Ok(p) => p,
        Err((msg, true)) => return usage_error(ctx, &msg, 1),
        Err((msg, false)) => {
            ctx.err(msg)?;
            return Ok(1);
        }
    };
    let mut status = 0;
    for (src, dst) in pairs {
        ctx.host.check()?;
        let sp = ctx.path(&src);
        let dp = ctx.path(&dst);
        if interactive {
            // Asked before the filesystem is locked: the answer may come down a pipe.
            let asks = {
                let fs = ctx.fs.lock();
                match (fs.lstat(&sp), fs.lstat(&dp)) {
                    (Ok(s), Ok(d)) => s.ino != d.ino,
                    _ => false,
                }
            };
            if asks && !ctx.confirm(&format!("overwrite {}", quote(&dst)))? {
                continue;
            }
        }
        // Ok(None): skipped; Ok(Some(backup)): moved, keeping the old DEST as `backup`.
        let result: Result<Option<Option<String>>, String> = {
            let mut fs = ctx.fs.lock();
            match fs.lstat(&sp) {
                Err(e) => Err(format!("cannot stat {}: {e}", quote(&src))),
                Ok(smeta) => {
                    let dmeta = fs.lstat(&dp).ok();
                    let real_src = fs.canonicalize(&sp).unwrap_or(sp.clone());
                    let real_dst = resolved_dest(&fs, &dp);
                    if dmeta.as_ref().is_some_and(|d| d.ino == smeta.ino) {
                        Err(format!(
                            "{} and {} are the same file",
                            quote(&src),
                            quote(&dst)
                        ))
                    } else if smeta.is_dir()
                        && real_dst != real_src
                        && is_within(&real_src, &real_dst)
                    {
                        Err(format!(
                            "cannot move {} to a subdirectory of itself, {}",
                            quote(&src),
                            quote(&dst)
                        ))
                    } else if let Some(d) = &dmeta
                        && (no_clobber || (update && d.mtime >= smeta.mtime))
                    {
                        Ok(None)
                    } else if let Some(d) = dmeta.as_ref().filter(|d| d.is_dir() && !smeta.is_dir())
                    {
                        let _ = d;
                        Err(format!(
                            "cannot overwrite directory {} with non-directory",
                            quote(&dst)
                        ))
                    } else if dmeta.as_ref().is_some_and(|d| !d.is_dir()) && smeta.is_dir() {
                        Err(format!(
                            "cannot overwrite non-directory {} with directory {}",
                            quote(&dst),
                            quote(&src)
                        ))
                    } else {
                        let saved = match &backup {
                            Some(b) if dmeta.is_some() => b.make(&mut fs, &dp, &dst),
                            _ => Ok(None),
                        };
                        match saved.and_then(|saved| fs.rename(&sp, &dp).map(|()| saved)) {
                            Ok(saved) => Ok(Some(saved)),
                            Err(e) if e.errno == Errno::ENOTEMPTY || e.errno == Errno::EEXIST => {
                                Err(format!(
                                    "cannot move {} to {}: Directory not empty",
                                    quote(&src),
                                    quote(&dst)
                                ))
                            }
                            Err(e) => Err(format!(
                                "cannot move {} to {}: {e}",
                                quote(&src),
                                quote(&dst)
                            )),
                        }
                    }
                }
            }
        };
        match result {
            Ok(Some(saved)) if verbose => {
                let note = backup::verbose_note(saved.as_deref());
                writeln!(
                    ctx.stdout,
                    "renamed {} -> {}{note}",
                    quote(&src),
                    quote(&dst)
                )?
            }
            Ok(_) => {}
            Err(msg) => {
                ctx.err(msg)?;
                status = 1;
            }
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    const FILES: &[(&str, &str)] = &[
        ("a/b/", ""),
        ("f", "hi\n"),
        ("g", "g\n"),
        ("t/", ""),
        ("t2/x", ""),
        ("e/", ""),
    ];

    #[test]
    fn mv_table() {
        for (line, out, err, status) in [
            (
                "mv nosuch q",
                "",
                "mv: cannot stat 'nosuch': No such file or directory\n",
                1,
            ),
            ("mv -v g g2", "renamed 'g' -> 'g2'\n", "", 0),
            (
                "mv a a/b",
                "",
                "mv: cannot move 'a' to a subdirectory of itself, 'a/b/a'\n",
                1,
            ),
            ("mv f f", "", "mv: 'f' and 'f' are the same file\n", 1),
            (
                "mv t f",
                "",
                "mv: cannot overwrite non-directory 'f' with directory 't'\n",
                1,
            ),
            (
                "mv -T f t",
                "",
                "mv: cannot overwrite directory 't' with non-directory\n",
                1,
            ),
            ("mv -v f t", "renamed 'f' -> 't/f'\n", "", 0),
            (
                "mv -v f g t",
                "renamed 'f' -> 't/f'\nrenamed 'g' -> 't/g'\n",
                "",
                0,
            ),
            (
                "mv",
                "",
                "mv: missing file operand\nTry 'mv --help' for more information.\n",
                1,
            ),
            (
                "mv x",
                "",
                "mv: missing destination file operand after 'x'\nTry 'mv --help' for more information.\n",
                1,
            ),
            (
                "mv -T e t2",
                "",
                "mv: cannot move 'e' to 't2': Directory not empty\n",
                1,
            ),
            ("mv -n f g", "", "", 0),
            (
                "mv f g h",
                "",
                "mv: target 'h': No such file or directory\n",
                1,
            ),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }

    #[test]
    fn moves() {
        let fs = fs_with(FILES);
        let (_, err, status) = run_in(&fs, "mv f g2", b"");
        assert_eq!((err.as_str(), status), ("", 0));
        let (_, err, status) = run_in(&fs, "mv a t", b"");
        assert_eq!((err.as_str(), status), ("", 0));
        let g = fs.lock();
        assert_eq!(
            g.read_file("/workspace/g2").map(|d| d.to_vec()),
            Ok(b"hi\n".to_vec())
        );
        assert!(g.stat("/workspace/f").is_err());
        assert!(g.stat("/workspace/t/a/b").is_ok_and(|m| m.is_dir()));
    }
}
