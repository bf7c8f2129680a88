//! `install`: copies files into place with a mode (0755 unless `-m`), or makes
//! directories (`-d`), creating leading directories with `-D`; GNU's `-t -T -v -p -o -g`.
//! Ownership may only name the sandbox user and group, as an unprivileged install.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{apply_mode, lq, quote};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("backup", HasArg::Optional, "backup"),
    long("compare", HasArg::No, "C"),
    long("directory", HasArg::No, "d"),
    long("group", HasArg::Required, "g"),
    long("mode", HasArg::Required, "m"),
    long("owner", HasArg::Required, "o"),
    long("preserve-timestamps", HasArg::No, "p"),
    long("target-directory", HasArg::Required, "t"),
    long("no-target-directory", HasArg::No, "T"),
    long("verbose", HasArg::No, "v"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: install [OPTION]... [-T] SOURCE DEST
  or:  install [OPTION]... SOURCE... DIRECTORY
  or:  install [OPTION]... -t DIRECTORY SOURCE...
  or:  install [OPTION]... -d DIRECTORY...

This install program copies files (often just compiled) into destination
locations you choose.  If you want to download and install a ready-to-use
package on a GNU/Linux system, you should instead be using a package manager.

In the first three forms, copy SOURCE to DEST or multiple SOURCE(s) to
the existing DIRECTORY, while setting permission modes and owner/group.
In the 4th form, create all components of the given DIRECTORY(ies).

  -c                  (ignored)
  -C, --compare       compare content of source and destination files, and
                        if no change to content, ownership, and permissions,
                        do not modify the destination at all
  -d, --directory     treat all arguments as directory names; create all
                        components of the specified directories
  -D                  create all leading components of DEST except the last,
                        or all components of --target-directory,
                        then copy SOURCE to DEST
  -g, --group=GROUP   set group ownership, instead of process' current group
  -m, --mode=MODE     set permission mode (as in chmod), instead of rwxr-xr-x
  -o, --owner=OWNER   set ownership (super-user only)
  -p, --preserve-timestamps   apply access/modification times of SOURCE files
                        to corresponding destination files
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory  treat DEST as a normal file
  -v, --verbose       print the name of each directory as it is created
      --help        display this help and exit
      --version     output version information and exit
";

/// A user or group id `-o`/`-g` may name: a known name or any number.
fn resolve_id(name: &str) -> Option<u32> {
    match name {
        "root" => Some(0),
        "user" => Some(1000),
        _ => name.parse().ok(),
    }
}

struct Install<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    mode: u32,
    verbose: bool,
    preserve: bool,
    uid: Option<u32>,
    gid: Option<u32>,
}

impl Install<'_, '_> {
    /// Makes every missing directory of `shown` (`mkdir -p`), reporting each with `-v`;
    /// the last one gets `last_mode` when given.
    fn make_dirs(&mut self, shown: &str, last_mode: Option<u32>) -> std::io::Result<bool> {
        let mut prefix = String::new();
        let comps: Vec<&str> = shown.split('/').collect();
        let n = comps.len();
        for (i, comp) in comps.iter().enumerate() {
            if i > 0 {
                prefix.push('/');
            }
            prefix.push_str(comp);
            if comp.is_empty() || *comp == "." {
                continue;
            }
            let path = self.ctx.path(&prefix);
            let mut fs = self.ctx.fs.lock();
            let last = i + 1 == n
                || comps
                    .get(i + 1..)
                    .is_some_and(|r| r.iter().all(|c| c.is_empty()));
            match fs.stat(&path) {
                Ok(m) if m.is_dir() => {
                    if last && let Some(mode) = last_mode {
                        let _ = fs.chmod(&path, mode);
                    }
                    continue;
                }
                Ok(_) => {
                    drop(fs);
                    self.ctx.err(format!(
                        "cannot create directory {}: File exists",
                        lq(&prefix)
                    ))?;
                    return Ok(false);
                }
                Err(_) => {}
            }
            let mode = self.ctx.dir_mode();
            if let Err(e) = fs.mkdir(&path, mode) {
                drop(fs);
                self.ctx
                    .err(format!("cannot create directory {}: {e}", lq(&prefix)))?;
                return Ok(false);
            }
            if last && let Some(mode) = last_mode {
                let _ = fs.chmod(&path, mode);
            }
            drop(fs);
            if self.verbose {
                // GNU prints this progress on stdout, with the program's name.
                let name = self.ctx.name;
                writeln!(
                    self.ctx.stdout,
                    "{name}: creating directory {}",
                    quote(&prefix)
                )?;
            }
        }
        Ok(true)
    }

    /// Sets the requested owner and group on `path`.
    fn own(&mut self, shown: &str) -> std::io::Result<bool> {
        if self.uid.is_none() && self.gid.is_none() {
            return Ok(true);
        }
        let path = self.ctx.path(shown);
        let r = self.ctx.fs.lock().chown(&path, self.uid, self.gid);
        if let Err(e) = r {
            self.ctx
                .err(format!("cannot change ownership of {}: {e}", quote(shown)))?;
            return Ok(false);
        }
        Ok(true)
    }

    fn copy(&mut self, src: &str, dst: &str) -> std::io::Result<bool> {
        let (sp, dp) = (self.ctx.path(src), self.ctx.path(dst));
        let fs = self.ctx.fs.lock();
        let smeta = match fs.stat(&sp) {
            Ok(m) => m,
            Err(e) => {
                drop(fs);
                self.ctx.err(format!("cannot stat {}: {e}", quote(src)))?;
                return Ok(false);
            }
        };
        if smeta.is_dir() {
            drop(fs);
            self.ctx.err(format!("omitting directory {}", quote(src)))?;
            return Ok(false);
        }
        let existing = fs.stat(&dp).ok();
        if let Some(d) = &existing {
            if d.ino == smeta.ino {
                drop(fs);
                self.ctx.err(format!(
                    "{} and {} are the same file",
                    quote(src),
                    quote(dst)
                ))?;
                return Ok(false);
            }
            if d.is_dir() {
                drop(fs);
                self.ctx.err(format!(
                    "cannot overwrite directory {} with non-directory",
                    quote(dst)
                ))?;
                return Ok(false);
            }
        }
        let data = match fs.read_file(&sp) {
            Ok(d) => d,
            Err(e) => {
                drop(fs);
                self.ctx
                    .err(format!("cannot open {} for reading: {e}", quote(src)))?;
                return Ok(false);
            }
        };
        drop(fs);
        self.ctx.host.charge_io(data.len())?;
        let mut fs = self.ctx.fs.lock();
        // GNU removes the old file first, so a read-only destination is replaced.
        let removed = existing.is_some() && fs.remove_file(&dp).is_ok();
        let written = fs
            .write_file_mode(&dp, &data, self.mode)
            .and_then(|()| fs.chmod(&dp, self.mode));
        if let Err(e) = written {
            drop(fs);
            self.ctx
                .err(format!("cannot create regular file {}: {e}", quote(dst)))?;
            return Ok(false);
        }
        if self.preserve {
            let _ = fs.set_times(&dp, Some(smeta.atime), Some(smeta.mtime));
        }
        drop(fs);
        if self.verbose {
            if removed {
                writeln!(self.ctx.stdout, "removed {}", quote(dst))?;
            }
            writeln!(self.ctx.stdout, "{} -> {}", quote(src), quote(dst))?;
        }
        self.own(dst)
    }
}

fn join(dir: &str, name: &str) -> String {
    let base = super::cp::base_name(name);
    super::cp::shown_join(dir, base)
}

pub fn install(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("bcCdDg:m:o:pst:TvS:", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let dirs = parsed.has("d");
    let mode = match parsed.last("m") {
        Some(spec) => match apply_mode(spec, 0, dirs, 0) {
            Some(m) => m,
            None => {
                ctx.err(format!("invalid mode {}", lq(spec)))?;
                return Ok(1);
            }
        },
        None => 0o755,
    };
    let uid = match parsed.last("o") {
        Some(o) => match resolve_id(o) {
            Some(u) => Some(u),
            None => {
                ctx.err(format!("invalid user {}", lq(o)))?;
                return Ok(1);
            }
        },
        None => None,
    };
    let gid = match parsed.last("g") {
        Some(g) => match resolve_id(g) {
            Some(n) => Some(n),
            None => {
                ctx.err(format!("invalid group {}", lq(g)))?;
                return Ok(1);
            }
        },
        None => None,
    };
    let mut inst = Install {
        ctx,
        mode,
        verbose: parsed.has("v"),
        preserve: parsed.has("p"),
        uid,
        gid,
    };
    let ops = parsed.operands.clone();
    if dirs {
        if ops.is_empty() {
            return usage_error(inst.ctx, "missing file operand", 1);
        }
        let mut status = 0;
        for d in &ops {
            if !inst.make_dirs(d, Some(mode))? || !inst.own(d)? {
                status = 1;
            }
        }
        return Ok(status);
    }
    let make_leading = parsed.has("D");
    let no_target = parsed.has("T");
    let target = parsed.last("t").map(str::to_owned);
    let pairs: Vec<(String, String)> = if let Some(dir) = &target {
        if ops.is_empty() {
            return usage_error(inst.ctx, "missing file operand", 1);
        }
        if make_leading && !inst.make_dirs(dir, None)? {
            return Ok(1);
        }
        let meta = inst.ctx.fs.lock().stat(&inst.ctx.path(dir));
        match meta {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                inst.ctx
                    .err(format!("failed to access {}: Not a directory", quote(dir)))?;
                return Ok(1);
            }
            Err(e) => {
                inst.ctx
                    .err(format!("failed to access {}: {e}", quote(dir)))?;
                return Ok(1);
            }
        }
        ops.iter().map(|s| (s.clone(), join(dir, s))).collect()
    } else {
        match ops.as_slice() {
            [] => return usage_error(inst.ctx, "missing file operand", 1),
            [one] => {
                let msg = format!("missing destination file operand after {}", quote(one));
                return usage_error(inst.ctx, &msg, 1);
            }
            [src, dst] => {
                if make_leading {
                    let parent = match dst.trim_end_matches('/').rsplit_once('/') {
                        Some((p, _)) if !p.is_empty() => Some(p.to_owned()),
                        _ => None,
                    };
                    if let Some(p) = parent
                        && !inst.make_dirs(&p, None)?
                    {
                        return Ok(1);
                    }
                }
                let is_dir = !no_target
                    && inst
                        .ctx
                        .fs
                        .lock()
                        .stat(&inst.ctx.path(dst))
                        .is_ok_and(|m| m.is_dir());
                if is_dir {
                    vec![(src.clone(), join(dst, src))]
                } else {
                    vec![(src.clone(), dst.clone())]
                }
            }
            [srcs @ .., dir] => {
                if no_target {
                    let msg = format!("extra operand {}", quote(dir));
                    return usage_error(inst.ctx, &msg, 1);
                }
                let meta = inst.ctx.fs.lock().stat(&inst.ctx.path(dir));
                match meta {
                    Ok(m) if m.is_dir() => {}
                    Ok(_) => {
                        inst.ctx
                            .err(format!("target {}: Not a directory", quote(dir)))?;
                        return Ok(1);
                    }
                    Err(e) => {
                        inst.ctx.err(format!("target {}: {e}", quote(dir)))?;
                        return Ok(1);
                    }
                }
                srcs.iter().map(|s| (s.clone(), join(dir, s))).collect()
            }
        }
    };
    let mut status = 0;
    for (src, dst) in &pairs {
        inst.ctx.host.check()?;
        if !inst.copy(src, dst)? {
            status = 1;
        }
    }
    Ok(status)
}
