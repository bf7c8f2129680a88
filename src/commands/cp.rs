//! `cp`: copies files, and directory trees with `-r`/`-R`/`-a`, into a directory or onto
//! a name (`-T`, `-t`); `-p`/`-a` preserve mode and times, `-n`/`-u` skip, `-f` retries
//! after removing, `-l`/`-s` link instead, `-b`/`--backup`/`-S` keep what they
//! replace, `-v` reports.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::backup::{self, Backup};
use super::util::quote;
use super::{CmdResult, Ctx};
use crate::fs::{FileType, Fs, Metadata};

const LONG: &[LongOpt] = &[
    long("archive", HasArg::No, "a"),
    backup::BACKUP,
    backup::SUFFIX,
    long("force", HasArg::No, "f"),
    long("interactive", HasArg::No, "i"),
    long("link", HasArg::No, "l"),
    long("dereference", HasArg::No, "L"),
    long("no-clobber", HasArg::No, "n"),
    long("no-dereference", HasArg::No, "P"),
    long("preserve", HasArg::Optional, "preserve"),
    long("no-preserve", HasArg::Required, "no-preserve"),
    long("parents", HasArg::No, "parents"),
    long("recursive", HasArg::No, "r"),
    long("remove-destination", HasArg::No, "remove-destination"),
    long("symbolic-link", HasArg::No, "s"),
    long("target-directory", HasArg::Required, "t"),
    long("no-target-directory", HasArg::No, "T"),
    long("update", HasArg::Optional, "u"),
    long("verbose", HasArg::No, "v"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: cp [OPTION]... [-T] SOURCE DEST
  or:  cp [OPTION]... SOURCE... DIRECTORY
  or:  cp [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

Mandatory arguments to long options are mandatory for short options too.
  -a, --archive                same as -dR --preserve=all
      --backup[=CONTROL]       make a backup of each existing destination file
  -b                           like --backup but does not accept an argument
  -d                           same as --no-dereference --preserve=links
  -f, --force                  if an existing destination file cannot be
                                 opened, remove it and try again (this option
                                 is ignored when the -n option is also used)
  -i, --interactive            prompt before overwrite (overrides a previous -n
                                  option)
  -H                           follow command-line symbolic links in SOURCE
  -l, --link                   hard link files instead of copying
  -L, --dereference            always follow symbolic links in SOURCE
  -n, --no-clobber             do not overwrite an existing file (overrides
                                 a previous -i option)
  -P, --no-dereference         never follow symbolic links in SOURCE
  -p                           same as --preserve=mode,ownership,timestamps
      --preserve[=ATTR_LIST]   preserve the specified attributes (default:
                                 mode,ownership,timestamps), if possible
                                 additional attributes: context, links, xattr,
                                 all
      --no-preserve=ATTR_LIST  don't preserve the specified attributes
      --parents                use full source file name under DIRECTORY
  -R, -r, --recursive          copy directories recursively
      --remove-destination     remove each existing destination file before
                                 attempting to open it (contrast with --force)
  -s, --symbolic-link          make symbolic links instead of copying
  -S, --suffix=SUFFIX          override the usual backup suffix
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 copy only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
  -x                           stay on this file system
  -Z                           set SELinux security context of destination
                                 file to default type
      --help        display this help and exit
      --version     output version information and exit
";

const SAME_NAME_NOTE: &str = "
As a special case, cp makes a backup of SOURCE when the force and backup
options are given and SOURCE and DEST are the same name for an existing,
regular file.
";

struct Opts {
    recursive: bool,
    deref: Option<bool>,
    deref_cmdline: bool,
    preserve: bool,
    force: bool,
    no_clobber: bool,
    /// `-i`: ask before overwriting.
    interactive: bool,
    update: bool,
    verbose: bool,
    hard_link: bool,
    symlink: bool,
    remove_first: bool,
    backup: Option<Backup>,
}

/// Joins a shown directory name and an entry name like GNU prints them.
pub fn shown_join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// The last component of an operand, ignoring trailing slashes.
pub fn base_name(s: &str) -> &str {
    let t = s.trim_end_matches('/');
    if t.is_empty() {
        return "/";
    }
    t.rsplit('/').next().unwrap_or(t)
}

/// The `(source, destination)` pairs a cp/mv command line names, or a usage message
/// (with its status and whether to add the `Try` line).
pub fn plan(
    ctx: &Ctx,
    operands: &[String],
    target_dir: Option<&str>,
    no_target: bool,
) -> Result<Vec<(String, String)>, (String, bool)> {
    if let Some(dir) = target_dir {
        if operands.is_empty() {
            return Err(("missing file operand".to_owned(), true));
        }
        let is_dir = ctx.fs.lock().stat(&ctx.path(dir)).map(|m| m.is_dir());
        match is_dir {
            Ok(true) => {}
            Ok(false) => {
                return Err((
                    format!("target directory {}: Not a directory", quote(dir)),
                    false,
                ));
            }
            Err(e) => return Err((format!("target directory {}: {e}", quote(dir)), false)),
        }
        return Ok(operands
            .iter()
            .map(|s| (s.clone(), shown_join(dir, base_name(s))))
            .collect());
    }
    match operands {
        [] => Err(("missing file operand".to_owned(), true)),
        [one] => Err((
            format!("missing destination file operand after {}", quote(one)),
            true,
        )),
        [src, dst] if no_target => Ok(vec![(src.clone(), dst.clone())]),
        [_, _, extra, ..] if no_target => Err((format!("extra operand {}", quote(extra)), true)),
        [srcs @ .., dst] => {
            let dst_meta = ctx.fs.lock().stat(&ctx.path(dst));
            let is_dir = dst_meta.as_ref().is_ok_and(Metadata::is_dir);
            if srcs.len() == 1 && !is_dir {
                return Ok(vec![(srcs[0].clone(), dst.clone())]);
            }
            if !is_dir {
                return Err(match dst_meta {
                    Err(e) => (format!("target {}: {e}", quote(dst)), false),
                    Ok(_) => (format!("target {}: Not a directory", quote(dst)), false),
                });
            }
            Ok(srcs
                .iter()
                .map(|s| (s.clone(), shown_join(dst, base_name(s))))
                .collect())
        }
    }
}

/// Whether absolute path `inner` is `outer` or below it.
pub fn is_within(outer: &str, inner: &str) -> bool {
    inner == outer || outer == "/" || inner.starts_with(&format!("{outer}/"))
}

/// Where a destination will really live: its parent canonicalised plus its name.
pub fn resolved_dest(fs: &Fs, path: &str) -> String {
    let parent = crate::fs::path::parent(path);
    let name = crate::fs::path::file_name(path);
    let parent = fs
        .canonicalize(parent)
        .unwrap_or_else(|_| parent.to_owned());
    crate::fs::path::join(&parent, name)
}

struct Copier<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    o: Opts,
    src_fs: Fs,
    status: i32,
}

impl Copier<'_, '_> {
    fn fail(&mut self, msg: String) -> std::io::Result<()> {
        self.status = 1;
        self.ctx.err(msg)
    }

    fn verbose(&mut self, src: &str, dst: &str) -> std::io::Result<()> {
        if self.o.verbose {
            writeln!(self.ctx.stdout, "{} -> {}", quote(src), quote(dst))?;
        }
        Ok(())
    }

    fn copy(&mut self, src: &str, dst: &str, top: bool) -> std::io::Result<()> {
        self.ctx.host.check()?;
        let sp = self.ctx.path(src);
        let dp = self.ctx.path(dst);
        let deref = self.o.deref.unwrap_or(!self.o.recursive) || (top && self.o.deref_cmdline);
        let smeta = if deref {
            self.src_fs.stat(&sp)
        } else {
            self.src_fs.lstat(&sp)
        };
        let smeta = match smeta {
            Ok(m) => m,
            Err(e) => return self.fail(format!("cannot stat {}: {e}", quote(src))),
        };
        let dmeta = self.ctx.fs.lock().stat(&dp).ok();
        if smeta.is_dir() {
            if !self.o.recursive {
                return self.fail(format!(
                    "-r not specified; omitting directory {}",
                    quote(src)
                ));
            }
            if top {
                let real_src = self.src_fs.canonicalize(&sp).unwrap_or(sp.clone());
                let real_dst = resolved_dest(&self.src_fs, &dp);
                if is_within(&real_src, &real_dst) {
                    return self.fail(format!(
                        "cannot copy a directory, {}, into itself, {}",
                        quote(src),
                        quote(dst)
                    ));
                }
            }
            return self.copy_dir(src, dst, &sp, &dp, &smeta, dmeta);
        }
        if dst.ends_with('/') && !dmeta.as_ref().is_some_and(Metadata::is_dir) {
            return self.fail(format!(
                "cannot create regular file {}: Not a directory",
                quote(dst)
            ));
        }
        // `cp -bf f f` copies f to its backup name instead.
        if let Some(b) = &self.o.backup
            && self.o.force
            && sp == dp
            && smeta.is_file()
        {
            let suffix = b.suffix_for(&self.ctx.fs.lock(), &dp);
            return self.copy(src, &format!("{dst}{suffix}"), top);
        }
        if let Some(d) = &dmeta {
            if d.ino == smeta.ino && !self.o.symlink {
                return self.fail(format!(
                    "{} and {} are the same file",
                    quote(src),
                    quote(dst)
                ));
            }
            if d.is_dir() {
                return self.fail(format!(
                    "cannot overwrite directory {} with non-directory",
                    quote(dst)
                ));
            }
            if self.o.no_clobber || (self.o.update && d.mtime >= smeta.mtime) {
                return Ok(());
            }
            if self.o.interactive && !self.ctx.confirm(&format!("overwrite {}", quote(dst)))? {
                return Ok(());
            }
        }
        // A FIFO copied as a file is read as GNU cp reads it: the open waits for a
        // writer (as long as the run's limits allow), and what it writes is the copy.
        let contents = if smeta.file_type == FileType::Fifo && !self.o.recursive {
            match self.ctx.host.open_read(&sp) {
                Some(Ok(mut r)) => {
                    let mut v = Vec::new();
                    std::io::Read::read_to_end(&mut r, &mut v)?;
                    Some(std::sync::Arc::new(v))
                }
                Some(Err(e)) => return Err(e),
                None => None,
            }
        } else {
            None
        };
        // An existing FIFO as the destination is opened for writing, as GNU cp opens
        // any existing destination: the open waits for a reader, which gets the bytes.
        // So is a process substitution's `/dev/fd/N` or `/dev/stdout`.
        let plain_dest = dmeta.as_ref().is_some_and(|d| d.is_file() || d.is_dir());
        let other_mode = self.o.symlink
            || self.o.hard_link
            || self.o.remove_first
            || self.o.backup.is_some()
            || smeta.is_symlink()
            || (smeta.file_type == FileType::Fifo && self.o.recursive);
        let into_fifo = !plain_dest && !other_mode;
        if into_fifo && let Some(opened) = self.ctx.host.open_write(&dp) {
            let mut w = opened?;
            let data = match (smeta.file_type, contents) {
                (_, Some(data)) => data,
                (FileType::Device(_), None) => std::sync::Arc::new(Vec::new()),
                _ => match self.src_fs.read_file(&sp) {
                    Ok(d) => d,
                    Err(e) => {
                        return self.fail(format!("cannot open {} for reading: {e}", quote(src)));
                    }
                },
            };
            w.write_all(&data)?;
            w.flush()?;
            if self.o.verbose {
                writeln!(self.ctx.stdout, "{} -> {}", quote(src), quote(dst))?;
            }
            return Ok(());
        }
        let res = {
            let mut fs = self.ctx.fs.lock();
            match &self.o.backup {
                Some(b) if dmeta.is_some() => {
                    b.make(&mut fs, &dp, dst).map_err(|e| ("cannot backup", e))
                }
                _ => Ok(None),
            }
            .and_then(|saved| {
                let exists = dmeta.is_some() && saved.is_none();
                self.copy_leaf(&mut fs, src, &sp, &dp, (&smeta, contents), exists)
                    .map(|()| saved)
            })
        };
        match res {
            Ok(saved) => {
                if self.o.verbose {
                    let note = backup::verbose_note(saved.as_deref());
                    writeln!(self.ctx.stdout, "{} -> {}{note}", quote(src), quote(dst))?;
                }
                Ok(())
            }
            Err((what, e)) => self.fail(format!("{what} {}: {e}", quote(dst))),
        }
    }

    /// Copies a non-directory; the error carries GNU's verb phrase.
    fn copy_leaf(
        &self,
        fs: &mut Fs,
        src: &str,
        sp: &str,
        dp: &str,
        (smeta, contents): (&Metadata, Option<std::sync::Arc<Vec<u8>>>),
        exists: bool,
    ) -> Result<(), (&'static str, crate::fs::FsError)> {
        if self.o.symlink {
            if exists && (self.o.force || self.o.remove_first) {
                fs.remove_file(dp).map_err(|e| ("cannot remove", e))?;
            }
            return fs
                .symlink(src, dp)
                .map_err(|e| ("cannot create symbolic link", e));
        }
        if self.o.hard_link {
            if exists && (self.o.force || self.o.remove_first) {
                fs.remove_file(dp).map_err(|e| ("cannot remove", e))?;
            }
            return fs.link(sp, dp).map_err(|e| ("cannot create hard link", e));
        }
        if exists && self.o.remove_first {
            fs.remove_file(dp).map_err(|e| ("cannot remove", e))?;
        }
        if smeta.is_symlink() {
            let target = self
                .src_fs
                .readlink(sp)
                .map_err(|e| ("cannot read symbolic link", e))?;
            if fs.lstat(dp).is_ok() {
                fs.remove_file(dp).map_err(|e| ("cannot remove", e))?;
            }
            return fs
                .symlink(&target, dp)
                .map_err(|e| ("cannot create symbolic link", e));
        }
        if smeta.file_type == FileType::Fifo && self.o.recursive {
            // Copying recursively makes a FIFO of a FIFO, as GNU does.
            if exists {
                fs.remove_file(dp).map_err(|e| ("cannot remove", e))?;
            }
            let mode = if self.o.preserve {
                smeta.mode
            } else {
                smeta.mode & 0o777 & !self.ctx.umask
            };
            return fs.mkfifo(dp, mode).map_err(|e| ("cannot create fifo", e));
        }
        let data = match (smeta.file_type, contents) {
            (_, Some(data)) => data,
            (FileType::Device(_), None) => std::sync::Arc::new(Vec::new()),
            _ => self.src_fs.read_file(sp).map_err(|e| ("cannot open", e))?,
        };
        let existed = fs.stat(dp).is_ok();
        let mut written = fs.write_file(dp, &data);
        if written.is_err() && self.o.force && existed {
            fs.remove_file(dp).map_err(|e| ("cannot remove", e))?;
            written = fs.write_file(dp, &data);
        }
        written.map_err(|e| ("cannot create regular file", e))?;
        if self.o.preserve {
            let _ = fs.chmod(dp, smeta.mode);
            let _ = fs.set_times(dp, Some(smeta.atime), Some(smeta.mtime));
        } else if !existed {
            let _ = fs.chmod(dp, smeta.mode & 0o777 & !self.ctx.umask);
        }
        Ok(())
    }

    fn copy_dir(
        &mut self,
        src: &str,
        dst: &str,
        sp: &str,
        dp: &str,
        smeta: &Metadata,
        dmeta: Option<Metadata>,
    ) -> std::io::Result<()> {
        match &dmeta {
            Some(d) if !d.is_dir() => {
                return self.fail(format!(
                    "cannot overwrite non-directory {} with directory {}",
                    quote(dst),
                    quote(src)
                ));
            }
            Some(_) => {}
            None => {
                let res = self.ctx.fs.lock().mkdir(dp, smeta.mode & 0o777 | 0o700);
                if let Err(e) = res {
                    return self.fail(format!("cannot create directory {}: {e}", quote(dst)));
                }
                self.verbose(src, dst)?;
            }
        }
        let entries = match self.src_fs.read_dir(sp) {
            Ok(e) => e,
            Err(e) => return self.fail(format!("cannot access {}: {e}", quote(src))),
        };
        for e in entries {
            let s = shown_join(src, &e.name);
            let d = shown_join(dst, &e.name);
            self.copy(&s, &d, false)?;
        }
        let mut fs = self.ctx.fs.lock();
        let mode = if self.o.preserve {
            smeta.mode
        } else if dmeta.is_none() {
            smeta.mode & 0o777 & !self.ctx.umask
        } else {
            return Ok(());
        };
        let _ = fs.chmod(dp, mode);
        if self.o.preserve {
            let _ = fs.set_times(dp, Some(smeta.atime), Some(smeta.mtime));
        }
        Ok(())
    }
}

pub fn cp(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("abdfHilLnPprRsS:t:TuvxZ", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    let help = format!("{USAGE}{}{SAME_NAME_NOTE}", backup::HELP_TAIL);
    if let Some(s) = std_opts(ctx, &parsed, &help)? {
        return Ok(s);
    }
    if let Some(status) = backup::refuse_with_no_clobber(ctx, &parsed, &["i"])? {
        return Ok(status);
    }
    let backup = match Backup::from_options(ctx, &parsed)? {
        Ok(b) => b,
        Err(status) => return Ok(status),
    };
    let mut o = Opts {
        recursive: false,
        deref: None,
        deref_cmdline: false,
        preserve: false,
        force: false,
        no_clobber: false,
        interactive: false,
        update: false,
        verbose: false,
        hard_link: false,
        symlink: false,
        remove_first: false,
        backup,
    };
    let mut target_dir = None;
    for (k, v) in &parsed.opts {
        match k.as_str() {
            "a" => {
                o.recursive = true;
                o.deref = Some(false);
                o.preserve = true;
            }
            "d" | "P" => o.deref = Some(false),
            "L" => o.deref = Some(true),
            "H" => o.deref_cmdline = true,
            "f" => {
                o.force = true;
                o.no_clobber = false;
            }
            "i" => {
                o.interactive = true;
                o.no_clobber = false;
            }
            "n" => {
                o.no_clobber = true;
                o.interactive = false;
            }
            "p" => o.preserve = true,
            "preserve" => o.preserve = true,
            "no-preserve" => o.preserve = false,
            "r" | "R" => o.recursive = true,
            "l" => o.hard_link = true,
            "s" => o.symlink = true,
            "u" => o.update = v.as_deref() != Some("all"),
            "v" => o.verbose = true,
            "remove-destination" => o.remove_first = true,
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
    let src_fs = ctx.fs.snapshot();
    let mut c = Copier {
        ctx,
        o,
        src_fs,
        status: 0,
    };
    for (src, dst) in pairs {
        c.copy(&src, &dst, true)?;
        // Later sources see earlier copies, as a real cp would.
        c.src_fs = c.ctx.fs.snapshot();
    }
    Ok(c.status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    const FILES: &[(&str, &str)] = &[
        ("a/b/", ""),
        ("a/x", "x\n"),
        ("f", "hi\n"),
        ("lf", "->f"),
        ("t/", ""),
        ("d2", ""),
    ];

    #[test]
    fn cp_table() {
        for (line, out, err, status) in [
            (
                "cp -r a a/b",
                "",
                "cp: cannot copy a directory, 'a', into itself, 'a/b/a'\n",
                1,
            ),
            (
                "cp -r a a/c",
                "",
                "cp: cannot copy a directory, 'a', into itself, 'a/c'\n",
                1,
            ),
            (
                "cp a z",
                "",
                "cp: -r not specified; omitting directory 'a'\n",
                1,
            ),
            (
                "cp nosuch z",
                "",
                "cp: cannot stat 'nosuch': No such file or directory\n",
                1,
            ),
            (
                "cp",
                "",
                "cp: missing file operand\nTry 'cp --help' for more information.\n",
                1,
            ),
            (
                "cp f",
                "",
                "cp: missing destination file operand after 'f'\nTry 'cp --help' for more information.\n",
                1,
            ),
            ("cp f f", "", "cp: 'f' and 'f' are the same file\n", 1),
            ("cp -v f g", "'f' -> 'g'\n", "", 0),
            (
                "cp -rv a a2",
                "'a' -> 'a2'\n'a/b' -> 'a2/b'\n'a/x' -> 'a2/x'\n",
                "",
                0,
            ),
            (
                "cp f lf g h",
                "",
                "cp: target 'h': No such file or directory\n",
                1,
            ),
            ("cp f lf d2", "", "cp: target 'd2': Not a directory\n", 1),
            (
                "cp -r a f",
                "",
                "cp: cannot overwrite non-directory 'f' with directory 'a'\n",
                1,
            ),
            ("cp -n f d2", "", "", 0),
            (
                "cp -T a f",
                "",
                "cp: -r not specified; omitting directory 'a'\n",
                1,
            ),
            ("cp -v f a/x t", "'f' -> 't/f'\n'a/x' -> 't/x'\n", "", 0),
            ("cp -v f t/", "'f' -> 't/f'\n", "", 0),
            ("cp -vt t f", "'f' -> 't/f'\n", "", 0),
            (
                "cp f nodir/",
                "",
                "cp: cannot create regular file 'nodir/': Not a directory\n",
                1,
            ),
            (
                "cp f t/x/y",
                "",
                "cp: cannot create regular file 't/x/y': No such file or directory\n",
                1,
            ),
            ("cp f a", "", "", 0),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }

    #[test]
    fn copies_trees_links_and_modes() {
        let fs = fs_with(FILES);
        let (_, err, status) = run_in(&fs, "cp -r a lf t", b"");
        assert_eq!((err.as_str(), status), ("", 0));
        let (_, err, status) = run_in(&fs, "cp -r lf ln", b"");
        assert_eq!((err.as_str(), status), ("", 0));
        let (_, err, status) = run_in(&fs, "cp -a a arch", b"");
        assert_eq!((err.as_str(), status), ("", 0));
        let g = fs.lock();
        assert_eq!(
            g.read_file("/workspace/t/a/x").map(|d| d.to_vec()),
            Ok(b"x\n".to_vec())
        );
        assert!(g.stat("/workspace/t/a/b").is_ok_and(|m| m.is_dir()));
        assert!(g.lstat("/workspace/t/lf").is_ok_and(|m| m.is_symlink()));
        assert!(g.lstat("/workspace/ln").is_ok_and(|m| m.is_symlink()));
        assert_eq!(
            g.stat("/workspace/arch/x").map(|m| m.mtime),
            g.stat("/workspace/a/x").map(|m| m.mtime)
        );
    }
}
