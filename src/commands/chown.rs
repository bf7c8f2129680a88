//! `chown` and `chgrp`: change the owner and group of inodes in the virtual filesystem
//! under Linux's rules (`Fs::chown`): the sandbox user may only give its own files to
//! its own group. GNU's `-R -v -c -f -h --reference` and `user:group` specs.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{child_path, lq, quote, user_name};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("changes", HasArg::No, "c"),
    long("silent", HasArg::No, "f"),
    long("quiet", HasArg::No, "f"),
    long("verbose", HasArg::No, "v"),
    long("no-dereference", HasArg::No, "h"),
    long("dereference", HasArg::No, "dereference"),
    long("recursive", HasArg::No, "R"),
    long("reference", HasArg::Required, "reference"),
    long("from", HasArg::Required, "from"),
    long("preserve-root", HasArg::No, "preserve-root"),
    long("no-preserve-root", HasArg::No, "no-preserve-root"),
    HELP,
    VERSION,
];

const CHOWN_USAGE: &str = "\
Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...
  or:  chown [OPTION]... --reference=RFILE FILE...
Change the owner and/or group of each FILE to OWNER and/or GROUP.
With --reference, change the owner and group of each FILE to those of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --reference=RFILE  use RFILE's owner and group rather than
                         specifying OWNER:GROUP values
  -R, --recursive        operate on files and directories recursively
      --help     display this help and exit
      --version  output version information and exit
";

const CHGRP_USAGE: &str = "\
Usage: chgrp [OPTION]... GROUP FILE...
  or:  chgrp [OPTION]... --reference=RFILE FILE...
Change the group of each FILE to GROUP.
With --reference, change the group of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --reference=RFILE  use RFILE's group rather than specifying a GROUP value
  -R, --recursive        operate on files and directories recursively
      --help     display this help and exit
      --version  output version information and exit
";

/// A user or group name of the sandbox's /etc/passwd and /etc/group, or a number.
fn resolve(name: &str) -> Option<u32> {
    match name {
        "root" => Some(0),
        "user" => Some(1000),
        _ => name.parse().ok(),
    }
}

/// A parsed `[OWNER][:[GROUP]]`, or the message refusing it.
fn parse_spec(spec: &str) -> Result<(Option<u32>, Option<u32>), String> {
    let (user, group) = match spec.split_once(':') {
        Some((u, g)) => (u, Some(g)),
        None => (spec, None),
    };
    let uid = if user.is_empty() {
        None
    } else {
        Some(resolve(user).ok_or_else(|| format!("invalid user: {}", lq(spec)))?)
    };
    let gid = match group {
        // `user:` is the user's login group; a number has none to look up.
        Some("") if !user.is_empty() => {
            if user.parse::<u32>().is_ok() {
                return Err(format!("invalid spec: {}", lq(spec)));
            }
            uid
        }
        Some("") | None => None,
        Some(g) => Some(resolve(g).ok_or_else(|| format!("invalid group: {}", lq(spec)))?),
    };
    Ok((uid, gid))
}

struct Run<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    chgrp: bool,
    uid: Option<u32>,
    gid: Option<u32>,
    verbose: bool,
    changes: bool,
    silent: bool,
    recursive: bool,
    /// Symlinks themselves are changed (`-h`, and `-R` without `-H`/`-L`).
    no_deref: bool,
}

impl Run<'_, '_> {
    /// `user`, `user:group` or `:group`-style names for a verbose line.
    fn describe(&self, uid: u32, gid: u32) -> String {
        if self.chgrp {
            return user_name(gid);
        }
        match (self.uid, self.gid) {
            (Some(_), None) => user_name(uid),
            _ => format!("{}:{}", user_name(uid), user_name(gid)),
        }
    }

    fn one(&mut self, shown: &str) -> std::io::Result<bool> {
        let path = self.ctx.path(shown);
        let (meta, dangling) = {
            let fs = self.ctx.fs.lock();
            if self.no_deref {
                (fs.lstat(&path), false)
            } else {
                let meta = fs.stat(&path);
                // A link that cannot be followed is "cannot dereference", as GNU says.
                let dangling = meta.is_err() && fs.lstat(&path).is_ok();
                (meta, dangling)
            }
        };
        let meta = match meta {
            Ok(m) => m,
            Err(e) => {
                if !self.silent {
                    let what = if dangling {
                        "cannot dereference"
                    } else {
                        "cannot access"
                    };
                    self.ctx.err(format!("{what} {}: {e}", quote(shown)))?;
                }
                return Ok(false);
            }
        };
        let mut ok = true;
        if self.recursive && meta.is_dir() {
            let entries = self.ctx.fs.lock().read_dir(&path);
            if let Ok(entries) = entries {
                for e in entries {
                    self.ctx.host.check()?;
                    let child = child_path(shown, &e.name);
                    if !self.one(&child)? {
                        ok = false;
                    }
                }
            }
        }
        let (new_uid, new_gid) = (self.uid.unwrap_or(meta.uid), self.gid.unwrap_or(meta.gid));
        let result = if self.no_deref {
            self.ctx.fs.lock().lchown(&path, self.uid, self.gid)
        } else {
            self.ctx.fs.lock().chown(&path, self.uid, self.gid)
        };
        let what = if self.chgrp { "group" } else { "ownership" };
        let old = self.describe(meta.uid, meta.gid);
        let new = self.describe(new_uid, new_gid);
        match result {
            Ok(()) => {
                let changed = (new_uid, new_gid) != (meta.uid, meta.gid);
                if self.uid.is_none() && self.gid.is_none() {
                    if self.verbose {
                        // GNU words this one the same for chgrp.
                        writeln!(self.ctx.stdout, "ownership of {} retained", quote(shown))?;
                    }
                } else if changed && (self.verbose || self.changes) {
                    writeln!(
                        self.ctx.stdout,
                        "changed {what} of {} from {old} to {new}",
                        quote(shown)
                    )?;
                } else if !changed && self.verbose {
                    writeln!(
                        self.ctx.stdout,
                        "{what} of {} retained as {new}",
                        quote(shown)
                    )?;
                }
            }
            Err(e) => {
                if !self.silent {
                    let doing = if self.chgrp {
                        "changing group of"
                    } else {
                        "changing ownership of"
                    };
                    self.ctx.err(format!("{doing} {}: {e}", quote(shown)))?;
                }
                if self.verbose {
                    writeln!(
                        self.ctx.stdout,
                        "failed to change {what} of {} from {old} to {new}",
                        quote(shown)
                    )?;
                }
                ok = false;
            }
        }
        Ok(ok)
    }
}

fn run(ctx: &mut Ctx, chgrp: bool) -> CmdResult {
    let usage = if chgrp { CHGRP_USAGE } else { CHOWN_USAGE };
    let parsed = match parse_std(ctx, &Spec::new("cfvhHLPR", LONG), 1, usage)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    // `-h` and `--dereference`: the last one given counts. `-R` walks physically
    // unless `-H` or `-L` comes last of `-H -L -P`, and then changes links themselves.
    let mut deref = None;
    let mut logical = false;
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "h" => deref = Some(false),
            "dereference" => deref = Some(true),
            "H" | "L" => logical = true,
            "P" => logical = false,
            _ => {}
        }
    }
    if parsed.has("R") && !logical {
        if deref == Some(true) {
            ctx.err("-R --dereference requires either -H or -L")?;
            return Ok(1);
        }
        deref = Some(false);
    }
    let mut ops = parsed.operands.clone();
    let (uid, gid) = if let Some(r) = parsed.last("reference") {
        if ops.is_empty() {
            return usage_error(ctx, "missing operand", 1);
        }
        let meta = ctx.fs.lock().stat(&ctx.path(r));
        match meta {
            Ok(m) if chgrp => (None, Some(m.gid)),
            Ok(m) => (Some(m.uid), Some(m.gid)),
            Err(e) => {
                ctx.err(format!("failed to get attributes of {}: {e}", quote(r)))?;
                return Ok(1);
            }
        }
    } else {
        match ops.len() {
            0 => return usage_error(ctx, "missing operand", 1),
            1 => {
                let first = ops.first().map_or("", String::as_str);
                let msg = format!("missing operand after {}", lq(first));
                return usage_error(ctx, &msg, 1);
            }
            _ => {}
        }
        let spec = ops.remove(0);
        if chgrp && spec.is_empty() {
            // An empty group changes nothing, as GNU's chgrp allows.
            (None, None)
        } else if chgrp {
            match resolve(&spec) {
                Some(g) => (None, Some(g)),
                None => {
                    ctx.err(format!("invalid group: {}", lq(&spec)))?;
                    return Ok(1);
                }
            }
        } else {
            match parse_spec(&spec) {
                Ok(ids) => ids,
                Err(msg) => {
                    ctx.err(msg)?;
                    return Ok(1);
                }
            }
        }
    };
    let mut r = Run {
        ctx,
        chgrp,
        uid,
        gid,
        verbose: parsed.has("v"),
        changes: parsed.has("c"),
        silent: parsed.has("f"),
        recursive: parsed.has("R"),
        no_deref: deref == Some(false),
    };
    let mut status = 0;
    for f in &ops {
        if !r.one(f)? {
            status = 1;
        }
    }
    Ok(status)
}

pub fn chown(ctx: &mut Ctx) -> CmdResult {
    run(ctx, false)
}

pub fn chgrp(ctx: &mut Ctx) -> CmdResult {
    run(ctx, true)
}
