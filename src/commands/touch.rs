//! `touch`: sets access and modification times (to now, `-d DATE`, `-t STAMP` or `-r
//! FILE`'s), creating missing files unless `-c`; `-a`/`-m` pick one of the times.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::date::parse_date;
use super::util::{lq, parse_touch_stamp, quote};
use super::{CmdResult, Ctx};
use crate::fs::{Errno, Metadata, Timestamp};

const LONG: &[LongOpt] = &[
    long("no-create", HasArg::No, "c"),
    long("date", HasArg::Required, "d"),
    long("reference", HasArg::Required, "r"),
    long("no-dereference", HasArg::No, "h"),
    long("time", HasArg::Required, "time"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: touch [OPTION]... FILE...
Update the access and modification times of each FILE to the current time.

A FILE argument that does not exist is created empty, unless -c or -h
is supplied.

A FILE argument string of - is handled specially and causes touch to
change the times of the file associated with standard output.

Mandatory arguments to long options are mandatory for short options too.
  -a                     change only the access time
  -c, --no-create        do not create any files
  -d, --date=STRING      parse STRING and use it instead of current time
  -f                     (ignored)
  -h, --no-dereference   affect each symbolic link instead of any referenced
                         file (useful only on systems that can change the
                         timestamps of a symlink)
  -m                     change only the modification time
  -r, --reference=FILE   use this file's times instead of current time
  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time
      --time=WORD        change the specified time:
                           WORD is access, atime, or use: equivalent to -a
                           WORD is modify or mtime: equivalent to -m
      --help        display this help and exit
      --version     output version information and exit

Note that the -d and -t options accept different time-date formats.
";

pub fn touch(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("acd:fhmr:t:", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let now = ctx.fs.lock().clock().now();
    let zone = ctx.zone();
    let mut atime_only = false;
    let mut mtime_only = false;
    let mut when: Option<(Timestamp, Timestamp)> = None;
    for (k, v) in &parsed.opts {
        let v = v.as_deref().unwrap_or("");
        match k.as_str() {
            "a" => atime_only = true,
            "m" => mtime_only = true,
            "time" => {
                let table = [
                    ("atime", true),
                    ("access", true),
                    ("use", true),
                    ("mtime", false),
                    ("modify", false),
                ];
                match super::args::argmatch(ctx, "--time", v, &table)? {
                    Ok(true) => atime_only = true,
                    Ok(false) => mtime_only = true,
                    Err(s) => return Ok(s),
                }
            }
            "d" => match parse_date(v, now, &zone) {
                Some(t) => {
                    when = Some((t, t));
                }
                None => {
                    ctx.err(format!("invalid date format {}", lq(v)))?;
                    return Ok(1);
                }
            },
            "t" => match parse_touch_stamp(v, now, &zone) {
                Some(secs) => {
                    let t = Timestamp { secs, nanos: 0 };
                    when = Some((t, t));
                }
                None => {
                    ctx.err(format!("invalid date format {}", lq(v)))?;
                    return Ok(1);
                }
            },
            "r" => {
                let path = ctx.path(v);
                let res = ctx.fs.lock().stat(&path);
                match res {
                    Ok(m) => when = Some((m.atime, m.mtime)),
                    Err(e) => {
                        ctx.err(format!("failed to get attributes of {}: {e}", quote(v)))?;
                        return Ok(1);
                    }
                }
            }
            _ => {}
        }
    }
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing file operand", 1);
    }
    let no_create = parsed.has("c");
    let (set_a, set_m) = match (atime_only, mtime_only) {
        (true, false) => (true, false),
        (false, true) => (false, true),
        _ => (true, true),
    };
    let no_deref = parsed.has("h");
    // The times to set on a file whose current ones are `cur`.
    let times = |cur: &Metadata| {
        let (a, m) = when.unwrap_or((now, now));
        (
            if set_a { a } else { cur.atime },
            if set_m { m } else { cur.mtime },
        )
    };
    let mut status = 0;
    for name in &parsed.operands {
        if name == "-" {
            continue;
        }
        let path = ctx.path(name);
        if no_deref {
            // -h touches the link itself and never creates anything.
            let res = {
                let mut fs = ctx.fs.lock();
                match fs.lstat(&path) {
                    Err(e) if e.errno == Errno::ENOENT && no_create => Ok(()),
                    Err(e) => Err(e),
                    Ok(cur) => {
                        let (a, m) = times(&cur);
                        fs.lset_times(&path, Some(a), Some(m))
                    }
                }
            };
            if let Err(e) = res {
                ctx.err(format!("setting times of {}: {e}", quote(name)))?;
                status = 1;
            }
            continue;
        }
        let res = {
            let mut fs = ctx.fs.lock();
            let existing = fs.stat(&path);
            match existing {
                Err(e) if e.errno == Errno::ENOENT && no_create => Ok(()),
                Err(e) if e.errno != Errno::ENOENT => Err(e),
                existing => {
                    let created = if existing.is_err() {
                        fs.append_file_mode(&path, b"", ctx.file_mode())
                    } else {
                        Ok(())
                    };
                    created.and_then(|()| {
                        let (a, m) = times(&fs.stat(&path)?);
                        fs.set_times(&path, Some(a), Some(m))
                    })
                }
            }
        };
        if let Err(e) = res {
            ctx.err(format!("cannot touch {}: {e}", quote(name)))?;
            status = 1;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{NOW, check, fs_with, run_in};

    #[test]
    fn touch_table() {
        for (line, out, err, status) in [
            ("touch new", "", "", 0),
            ("touch -c nosuch", "", "", 0),
            (
                "touch",
                "",
                "touch: missing file operand\nTry 'touch --help' for more information.\n",
                1,
            ),
            (
                "touch -d xyz a",
                "",
                "touch: invalid date format 'xyz'\n",
                1,
            ),
            ("touch -t 2x a", "", "touch: invalid date format '2x'\n", 1),
            (
                "touch -r nosuch a",
                "",
                "touch: failed to get attributes of 'nosuch': No such file or directory\n",
                1,
            ),
            (
                "touch nodir/a",
                "",
                "touch: cannot touch 'nodir/a': No such file or directory\n",
                1,
            ),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }

    #[test]
    fn sets_times() {
        let fs = fs_with(&[("a", "x"), ("b", "")]);
        let mtime = |p: &str| fs.lock().stat(p).map(|m| m.mtime.secs).unwrap_or(-1);
        run_in(&fs, "touch -d '2020-01-02 03:04:05' a", b"");
        assert_eq!(mtime("/workspace/a"), 1_577_934_245);
        run_in(&fs, "touch -t 202001020304.06 a", b"");
        assert_eq!(mtime("/workspace/a"), 1_577_934_246);
        run_in(&fs, "touch -r a b", b"");
        assert_eq!(mtime("/workspace/b"), 1_577_934_246);
        run_in(&fs, "touch -a -d @5 b", b"");
        assert_eq!(mtime("/workspace/b"), 1_577_934_246);
        run_in(&fs, "touch c", b"");
        assert_eq!(mtime("/workspace/c"), NOW);
        assert_eq!(
            fs.lock().read_file("/workspace/a").map(|d| d.to_vec()),
            Ok(b"x".to_vec())
        );
    }
}
