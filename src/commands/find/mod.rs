//! `find`: walks directory trees (sorted, as our fs lists them) evaluating a GNU find
//! expression per file: tests, actions (`-print`, `-exec … ;`/`+` through the host,
//! `-delete`, `-printf`, …), `-prune`/`-quit`, and symlink following with `-L`/`-H`
//! (with loop detection).

mod parse;

use std::collections::HashSet;

use super::fnmatch::fnmatch;
use super::util::{MONTHS, mode_string, user_name};
use super::{CmdResult, Ctx, Stdio};
use crate::fs::{FileType, Ino, Metadata, Timestamp};
use parse::{Cmp, Expr, Globals, Info, Parser, PermKind};

const USAGE: &str = "\
Usage: find [-H] [-L] [-P] [path...] [expression]

Default path is the current directory; default expression is -print.
Expression may consist of: operators, options, tests, and actions.

Operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

Positional options (always true):
      -follow

Normal options (always true, specified before other expressions):
      -depth -maxdepth LEVELS -mindepth LEVELS -mount -noleaf -xdev

Tests (N can be +N or -N or N):
      -amin N -anewer FILE -atime N -cmin N -cnewer FILE -ctime N -empty
      -false -gid N -group NAME -ilname PATTERN -iname PATTERN
      -ipath PATTERN -iwholename PATTERN -iregex PATTERN -links N
      -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -newermt DATE -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -user NAME -xtype [bcdpfls]

Actions:
      -delete -print0 -printf FORMAT -print -ls -prune -quit
      -exec COMMAND ; -exec COMMAND {} +
      -execdir COMMAND ; -execdir COMMAND {} +

Other common options:
      --help                   display this help and exit
      --version                output version information and exit
";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Follow {
    Never,
    CommandLine,
    Always,
}

struct Node<'n> {
    display: &'n str,
    abs: &'n str,
    start: &'n str,
    meta: &'n Metadata,
    depth: usize,
}

struct Finder<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    globals: Globals,
    follow: Follow,
    now: Timestamp,
    zone: crate::timefmt::Zone,
    status: i32,
    quit: bool,
    prune: bool,
    out: Vec<u8>,
    /// Pending `-exec … {} +` batches keyed by the node's address.
    batches: Vec<(usize, Vec<String>, Vec<String>)>,
    /// Whether the expression uses sizes (if not, a listed entry's metadata can skip
    /// looking at a seeded host file).
    sizes: bool,
}

fn file_name(display: &str) -> &str {
    let t = display.trim_end_matches('/');
    if t.is_empty() {
        return if display.is_empty() { "" } else { "/" };
    }
    t.rsplit('/').next().unwrap_or(t)
}

fn dir_name(display: &str) -> &str {
    let t = display.trim_end_matches('/');
    match t.rfind('/') {
        Some(0) => "/",
        Some(p) => &t[..p],
        None => ".",
    }
}

fn type_char(ft: FileType) -> char {
    match ft {
        FileType::File => 'f',
        FileType::Dir => 'd',
        FileType::Symlink => 'l',
        FileType::Device(_) => 'c',
        FileType::Fifo => 'p',
    }
}

fn compare(cmp: Cmp, have: i128, want: i128) -> bool {
    match cmp {
        Cmp::Less => have < want,
        Cmp::Equal => have == want,
        Cmp::More => have > want,
    }
}

/// Where the walk stands: a path as shown and as resolved, its depth below the start,
/// and its entry in the listing it came from (None for a starting point).
struct Place<'a> {
    display: &'a str,
    abs: &'a str,
    depth: usize,
    listed: Option<(Ino, FileType)>,
}

impl Finder<'_, '_> {
    fn error(&mut self, msg: String) -> std::io::Result<()> {
        self.flush()?;
        self.status = 1;
        self.ctx.err(msg)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.out.is_empty() {
            self.ctx.stdout.write_all(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }

    /// The metadata of `abs`; `listed` is its entry in the listing it came from, whose
    /// inode serves unless a symlink there is to be followed (or the entry is gone).
    fn stat(
        &self,
        abs: &str,
        follow: bool,
        listed: Option<(Ino, FileType)>,
    ) -> Result<Metadata, crate::fs::FsError> {
        let fs = self.ctx.fs.lock();
        let by_ino = |ino| {
            if self.sizes {
                fs.stat_ino(ino)
            } else {
                fs.stat_ino_unsized(ino)
            }
        };
        if let Some((ino, kind)) = listed
            && !(follow && kind == FileType::Symlink)
            && let Ok(meta) = by_ino(ino)
            && meta.file_type == kind
        {
            return Ok(meta);
        }
        if follow {
            fs.stat(abs).or_else(|_| fs.lstat(abs))
        } else {
            fs.lstat(abs)
        }
    }

    fn visit(
        &mut self,
        expr: &Expr,
        start: &str,
        at: Place<'_>,
        ancestors: &mut Vec<(Ino, String)>,
    ) -> std::io::Result<()> {
        let Place {
            display,
            abs,
            depth,
            listed,
        } = at;
        self.ctx.host.check()?;
        let follow = match self.follow {
            Follow::Always => true,
            Follow::CommandLine => depth == 0,
            Follow::Never => false,
        };
        let meta = match self.stat(abs, follow, listed) {
            Ok(m) => m,
            Err(e) => {
                return self.error(format!("{}: {e}", super::util::lq(display)));
            }
        };
        if meta.is_dir()
            && follow
            && let Some((_, first)) = ancestors.iter().find(|(ino, _)| *ino == meta.ino)
        {
            let first = first.clone();
            return self.error(format!(
                "File system loop detected; {} is part of the same file system loop as {}.",
                super::util::lq(display),
                super::util::lq(&first)
            ));
        }
        let node = Node {
            display,
            abs,
            start,
            meta: &meta,
            depth,
        };
        self.prune = false;
        if !self.globals.depth_first && depth >= self.globals.mindepth {
            self.eval(expr, &node)?;
        }
        let pruned = self.prune && !self.globals.depth_first;
        if self.quit {
            return Ok(());
        }
        let descend = meta.is_dir() && !pruned && self.globals.maxdepth.is_none_or(|m| depth < m);
        if descend {
            let listing = self.ctx.fs.lock().read_dir(abs);
            match listing {
                Err(e) => self.error(format!("{}: {e}", super::util::lq(display)))?,
                Ok(entries) => {
                    ancestors.push((meta.ino, display.to_owned()));
                    for e in entries {
                        let cd = super::util::child_path(display, &e.name);
                        let ca = super::util::child_path(abs, &e.name);
                        let at = Place {
                            display: &cd,
                            abs: &ca,
                            depth: depth + 1,
                            listed: Some((e.ino, e.file_type)),
                        };
                        self.visit(expr, start, at, ancestors)?;
                        if self.quit {
                            break;
                        }
                    }
                    ancestors.pop();
                }
            }
        }
        if self.globals.depth_first && depth >= self.globals.mindepth && !self.quit {
            self.eval(expr, &node)?;
        }
        Ok(())
    }

    fn eval(&mut self, e: &Expr, n: &Node) -> std::io::Result<bool> {
        Ok(match e {
            Expr::And(a, b) => self.eval(a, n)? && !self.quit && self.eval(b, n)?,
            Expr::Or(a, b) => self.eval(a, n)? || (!self.quit && self.eval(b, n)?),
            Expr::Not(a) => !self.eval(a, n)?,
            Expr::Comma(a, b) => {
                self.eval(a, n)?;
                self.eval(b, n)?
            }
            Expr::Const(b) => *b,
            Expr::Name(p, fold) => fnmatch(p, file_name(n.display), *fold),
            Expr::LinkName(p, fold) => {
                n.meta.file_type == FileType::Symlink
                    && self
                        .ctx
                        .fs
                        .lock()
                        .readlink(n.abs)
                        .is_ok_and(|target| fnmatch(p, &target, *fold))
            }
            Expr::Path(p, fold) => fnmatch(p, n.display, *fold),
            Expr::Regex(re) => re.is_match(n.display),
            Expr::Type(kinds) => kinds.contains(&type_char(n.meta.file_type)),
            Expr::XType(kinds) => {
                let other = if self.follow == Follow::Always {
                    self.stat(n.abs, false, None)
                } else {
                    self.stat(n.abs, true, None)
                };
                other.is_ok_and(|m| kinds.contains(&type_char(m.file_type)))
            }
            Expr::Newer(t) => n.meta.mtime > *t,
            Expr::Size(cmp, want, unit) => {
                let units = n.meta.size.div_ceil(*unit);
                compare(*cmp, i128::from(units), i128::from(*want))
            }
            Expr::Empty => match n.meta.file_type {
                FileType::File => n.meta.size == 0,
                FileType::Dir => self
                    .ctx
                    .fs
                    .lock()
                    .read_dir(n.abs)
                    .is_ok_and(|e| e.is_empty()),
                _ => false,
            },
            Expr::Perm(kind, m) => {
                let mode = n.meta.mode & 0o7777;
                match kind {
                    PermKind::Exact => mode == *m,
                    PermKind::All => mode & m == *m,
                    PermKind::Any => *m == 0 || mode & m != 0,
                }
            }
            Expr::Age(cmp, want, unit) => {
                let diff = i128::from(self.now.secs) - i128::from(n.meta.mtime.secs);
                let unit = i128::from(*unit);
                if unit == 60 && *cmp != Cmp::Equal {
                    compare(*cmp, diff, i128::from(*want) * 60)
                } else {
                    compare(*cmp, diff.div_euclid(unit), i128::from(*want))
                }
            }
            Expr::Links(cmp, want) => compare(*cmp, i128::from(n.meta.nlink), i128::from(*want)),
            Expr::Uid(id) => n.meta.uid == *id,
            Expr::Gid(id) => n.meta.gid == *id,
            Expr::Readable | Expr::Writable | Expr::Executable => {
                let (r, w, x) = (
                    matches!(e, Expr::Readable),
                    matches!(e, Expr::Writable),
                    matches!(e, Expr::Executable),
                );
                self.ctx.fs.lock().access(n.abs, r, w, x).is_ok()
            }
            Expr::Print => {
                self.out.extend_from_slice(&crate::text::encode(n.display));
                self.out.push(b'\n');
                self.maybe_flush()?;
                true
            }
            Expr::Print0 => {
                self.out.extend_from_slice(&crate::text::encode(n.display));
                self.out.push(0);
                self.maybe_flush()?;
                true
            }
            Expr::Printf(fmt) => {
                let s = self.printf(fmt, n);
                self.out.extend_from_slice(&crate::text::encode(&s));
                self.maybe_flush()?;
                true
            }
            Expr::Ls => {
                let m = n.meta;
                let c = self.zone.local(m.mtime.secs);
                let mon = MONTHS.get(c.month as usize - 1).copied().unwrap_or("???");
                let recent =
                    m.mtime.secs > self.now.secs - 15_778_476 && m.mtime.secs <= self.now.secs;
                let when = if recent {
                    format!("{mon} {:>2} {:02}:{:02}", c.day, c.hour, c.min)
                } else {
                    format!("{mon} {:>2}  {}", c.day, c.year)
                };
                let blocks = match m.file_type {
                    FileType::File | FileType::Dir => m.size.div_ceil(4096) * 4,
                    _ => 0,
                };
                let mut line = format!(
                    "{:>9} {:>6} {} {:>3} {:<8} {:<8} {:>8} {} {}",
                    m.ino,
                    blocks,
                    mode_string(m.file_type.ls_char(), m.mode),
                    m.nlink,
                    user_name(m.uid),
                    user_name(m.gid),
                    m.size,
                    when,
                    n.display
                );
                if m.is_symlink()
                    && let Ok(t) = self.ctx.fs.lock().readlink(n.abs)
                {
                    line.push_str(" -> ");
                    line.push_str(&t);
                }
                line.push('\n');
                self.out.extend_from_slice(&crate::text::encode(&line));
                self.maybe_flush()?;
                true
            }
            Expr::Exec { argv, batch, .. } => {
                if *batch {
                    let key = e as *const Expr as usize;
                    let full = match self.batches.iter_mut().find(|(k, _, _)| *k == key) {
                        Some(b) => {
                            b.2.push(n.display.to_owned());
                            b.2.len() >= 4096
                        }
                        None => {
                            self.batches
                                .push((key, argv.clone(), vec![n.display.to_owned()]));
                            false
                        }
                    };
                    if full {
                        self.run_batch(key)?;
                    }
                    true
                } else {
                    let argv: Vec<String> =
                        argv.iter().map(|a| a.replace("{}", n.display)).collect();
                    self.run(&argv)? == 0
                }
            }
            Expr::Delete => {
                let res = {
                    let mut fs = self.ctx.fs.lock();
                    if n.meta.is_dir() {
                        fs.remove_dir(n.abs)
                    } else {
                        fs.remove_file(n.abs)
                    }
                };
                match res {
                    Ok(()) => true,
                    Err(err) => {
                        self.error(format!(
                            "cannot delete {}: {err}",
                            super::util::lq(n.display)
                        ))?;
                        false
                    }
                }
            }
            Expr::Prune => {
                self.prune = true;
                true
            }
            Expr::Quit => {
                self.quit = true;
                true
            }
        })
    }

    fn maybe_flush(&mut self) -> std::io::Result<()> {
        if self.out.len() >= 8192 {
            self.flush()?;
        }
        Ok(())
    }

    fn run(&mut self, argv: &[String]) -> std::io::Result<i32> {
        self.flush()?;
        let ctx = &mut *self.ctx;
        // find execs the program itself: one that is not there is find's error.
        if let Some(name) = argv.first()
            && !ctx.host.command_exists(name)
        {
            ctx.err(format!(
                "{}: No such file or directory",
                super::util::lq(name)
            ))?;
            return Ok(127);
        }
        ctx.host.run(
            argv,
            Stdio::Own(&mut *ctx.stdin),
            Stdio::Own(&mut *ctx.stdout),
            Stdio::Own(&mut *ctx.stderr),
        )
    }

    fn run_batch(&mut self, key: usize) -> std::io::Result<()> {
        let Some(pos) = self.batches.iter().position(|(k, _, _)| *k == key) else {
            return Ok(());
        };
        let (_, mut argv, paths) = self.batches.remove(pos);
        argv.extend(paths);
        if self.run(&argv)? != 0 {
            self.status = 1;
        }
        Ok(())
    }

    fn printf(&self, fmt: &str, n: &Node) -> String {
        let mut out = String::new();
        let mut chars = fmt.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('0') => out.push('\0'),
                    Some('r') => out.push('\r'),
                    Some('a') => out.push('\x07'),
                    Some('v') => out.push('\x0b'),
                    Some('f') => out.push('\x0c'),
                    Some('\\') => out.push('\\'),
                    Some(o) => {
                        out.push('\\');
                        out.push(o);
                    }
                    None => out.push('\\'),
                },
                '%' => {
                    let mut spec = String::new();
                    while let Some(&d) = chars.peek() {
                        if d == '-' || d.is_ascii_digit() {
                            spec.push(d);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    let Some(d) = chars.next() else {
                        out.push('%');
                        break;
                    };
                    let m = n.meta;
                    let val = match d {
                        '%' => "%".to_owned(),
                        'p' => n.display.to_owned(),
                        'f' => file_name(n.display).to_owned(),
                        'h' => dir_name(n.display).to_owned(),
                        'P' => n
                            .display
                            .strip_prefix(n.start)
                            .map(|r| r.trim_start_matches('/'))
                            .unwrap_or("")
                            .to_owned(),
                        'H' => n.start.to_owned(),
                        'd' => n.depth.to_string(),
                        's' => m.size.to_string(),
                        'k' => (m.size.div_ceil(4096) * 4).to_string(),
                        'm' => format!("{:o}", m.mode & 0o7777),
                        'M' => mode_string(m.file_type.ls_char(), m.mode),
                        'y' => type_char(m.file_type).to_string(),
                        'Y' => self
                            .stat(n.abs, true, None)
                            .map(|t| type_char(t.file_type))
                            .unwrap_or('N')
                            .to_string(),
                        'u' => user_name(m.uid),
                        'g' => user_name(m.gid),
                        'U' => m.uid.to_string(),
                        'G' => m.gid.to_string(),
                        'i' => m.ino.to_string(),
                        'n' => m.nlink.to_string(),
                        'l' => self.ctx.fs.lock().readlink(n.abs).unwrap_or_default(),
                        'T' | 'A' | 'C' => {
                            let k = chars.next().unwrap_or('T');
                            let t = m.mtime;
                            // GNU adds the fraction of the second to seconds and times.
                            let fmt = match k {
                                '@' => format!("{}.{:09}0", t.secs, t.nanos),
                                'S' | 'T' | 'X' | '+' => {
                                    let base = match k {
                                        '+' => "%F+%T",
                                        'S' => "%S",
                                        _ => "%T",
                                    };
                                    format!("{base}.{:09}0", t.nanos)
                                }
                                k => format!("%{k}"),
                            };
                            if k == '@' {
                                fmt
                            } else {
                                self.zone.strftime(&fmt, t.secs, t.nanos)
                            }
                        }
                        't' | 'a' | 'c' => {
                            let t = m.mtime;
                            let fmt = format!("%a %b %e %H:%M:%S.{:09}0 %Y", t.nanos);
                            self.zone.strftime(&fmt, t.secs, t.nanos)
                        }
                        other => format!("%{other}"),
                    };
                    let (left, width) = match spec.strip_prefix('-') {
                        Some(w) => (true, w.parse().unwrap_or(0)),
                        None => (false, spec.parse().unwrap_or(0)),
                    };
                    if left {
                        out.push_str(&format!("{val:<width$}"));
                    } else {
                        out.push_str(&format!("{val:>width$}"));
                    }
                }
                c => out.push(c),
            }
        }
        out
    }
}

pub fn find(ctx: &mut Ctx) -> CmdResult {
    let args = ctx.args;
    let mut i = 0;
    let mut follow = Follow::Never;
    while let Some(a) = args.get(i) {
        match a.as_str() {
            "-H" => follow = Follow::CommandLine,
            "-L" => follow = Follow::Always,
            "-P" => follow = Follow::Never,
            "--" => {
                i += 1;
                break;
            }
            s if s.starts_with("-O") || s.starts_with("-D") => {
                if s.len() == 2 {
                    i += 1;
                }
            }
            _ => break,
        }
        i += 1;
    }
    let mut paths = Vec::new();
    while let Some(a) = args.get(i) {
        if (a.starts_with('-') && a.len() > 1) || a == "(" || a == "!" {
            break;
        }
        paths.push(a.clone());
        i += 1;
    }
    let rest = args.get(i..).unwrap_or(&[]);
    let now = ctx.fs.lock().clock().now();
    let fs = ctx.fs.clone();
    let cwd = ctx.cwd.to_owned();
    let lookup = move |p: &str| -> Result<Metadata, String> {
        let abs = crate::fs::path::join(&cwd, p);
        fs.lock()
            .stat(&abs)
            .map_err(|e| format!("{}: {e}", super::util::lq(p)))
    };
    let zone = ctx.zone();
    let mut parser = Parser::new(rest, now, &zone, &lookup);
    let parsed = parser.parse();
    match parser.info {
        Some(Info::Help) => {
            super::about::write_help(ctx, USAGE)?;
            return Ok(0);
        }
        Some(Info::Version) => {
            super::about::write_version(ctx)?;
            return Ok(0);
        }
        None => {}
    }
    let expr = match parsed {
        Ok(e) => e,
        Err(msg) => {
            ctx.err(msg)?;
            return Ok(1);
        }
    };
    let mut globals = parser.globals.clone();
    if globals.follow {
        follow = Follow::Always;
    }
    let expr = match (expr, parser.has_action) {
        (Some(e), true) => e,
        (Some(e), false) => Expr::And(Box::new(e), Box::new(Expr::Print)),
        (None, _) => Expr::Print,
    };
    if paths.is_empty() {
        paths.push(".".to_owned());
    }
    globals.follow = follow == Follow::Always;
    let mut f = Finder {
        ctx,
        globals,
        follow,
        now,
        zone,
        status: 0,
        quit: false,
        prune: false,
        out: Vec::new(),
        batches: Vec::new(),
        sizes: expr.uses_sizes(),
    };
    for p in &paths {
        if p.is_empty() {
            f.error("'': No such file or directory".to_owned())?;
            continue;
        }
        let abs = f.ctx.path(p);
        let mut ancestors = Vec::new();
        let at = Place {
            display: p,
            abs: &abs,
            depth: 0,
            listed: None,
        };
        f.visit(&expr, p, at, &mut ancestors)?;
        if f.quit {
            break;
        }
    }
    let keys: Vec<usize> = f.batches.iter().map(|(k, _, _)| *k).collect();
    let mut seen = HashSet::new();
    for k in keys {
        if seen.insert(k) {
            f.run_batch(k)?;
        }
    }
    f.flush()?;
    Ok(f.status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[
        ("d/e/b", "bb"),
        ("d/a", ""),
        (".h", ""),
        ("ld", "->d"),
        ("big", "0123456789012345678901234567890123456789"),
        ("x.txt", "t"),
        ("D/X.TXT", ""),
    ];

    #[test]
    fn find_table() {
        for (line, out, err, status) in [
            ("find d", "d\nd/a\nd/e\nd/e/b\n", "", 0),
            ("find d/", "d/\nd/a\nd/e\nd/e/b\n", "", 0),
            ("find ld", "ld\n", "", 0),
            ("find -L ld", "ld\nld/a\nld/e\nld/e/b\n", "", 0),
            (
                "find . -maxdepth 1",
                ".\n./.h\n./D\n./big\n./d\n./ld\n./x.txt\n",
                "",
                0,
            ),
            (
                "find . -mindepth 2 -type f",
                "./D/X.TXT\n./d/a\n./d/e/b\n",
                "",
                0,
            ),
            ("find . -name '*.txt'", "./x.txt\n", "", 0),
            ("find . -iname '*.txt'", "./D/X.TXT\n./x.txt\n", "", 0),
            ("find . -path './d/*' -type f", "./d/a\n./d/e/b\n", "", 0),
            ("find . -type l", "./ld\n", "", 0),
            (
                "find . -type d -name d -prune -o -type f -print",
                "./.h\n./D/X.TXT\n./big\n./x.txt\n",
                "",
                0,
            ),
            ("find d -empty", "d/a\n", "", 0),
            ("find . -size +1 -type f", "", "", 0),
            (
                "find . -size -2c -type f",
                "./.h\n./D/X.TXT\n./d/a\n./x.txt\n",
                "",
                0,
            ),
            ("find . -size 40c", "./big\n", "", 0),
            ("find d ! -type d", "d/a\nd/e/b\n", "", 0),
            ("find d -not -name a -not -name e", "d\nd/e/b\n", "", 0),
            ("find d \\( -name a -o -name b \\)", "d/a\nd/e/b\n", "", 0),
            ("find d -name a -o -name b -print", "d/e/b\n", "", 0),
            ("find d -print0", "d\0d/a\0d/e\0d/e/b\0", "", 0),
            ("find d -type f -quit -print", "", "", 0),
            ("find d -type f -print -quit", "d/a\n", "", 0),
            ("find d -depth", "d/a\nd/e/b\nd/e\nd\n", "", 0),
            (
                "find d -printf '%p|%f|%h|%d|%P|%y|%m\\n'",
                "d|d|.|0||d|755\nd/a|a|d|1|a|f|644\nd/e|e|d|1|e|d|755\nd/e/b|b|d/e|2|e/b|f|644\n",
                "",
                0,
            ),
            ("find d -name a -exec echo X {} ;", "X d/a\n", "", 0),
            ("find d -type f -exec echo {} +", "d/a d/e/b\n", "", 0),
            ("find d -exec false ; -print", "", "", 0),
            ("find d -exec false {} +", "", "", 1),
            ("find . -perm 755 -type d -name e", "./d/e\n", "", 0),
            ("find . -perm -644 -name a", "./d/a\n", "", 0),
            ("find . -newer d/a -name x.txt", "", "", 0),
            ("find d -mtime 0 -type f", "d/a\nd/e/b\n", "", 0),
            ("find d -mtime +1", "", "", 0),
            ("find d -regex '.*/[ab]'", "d/a\nd/e/b\n", "", 0),
            (
                "find nosuch",
                "",
                "find: 'nosuch': No such file or directory\n",
                1,
            ),
            (
                "find nosuch d/a",
                "d/a\n",
                "find: 'nosuch': No such file or directory\n",
                1,
            ),
            ("find . -foo", "", "find: unknown predicate `-foo'\n", 1),
            ("find . -name", "", "find: missing argument to `-name'\n", 1),
            (
                "find . -type z",
                "",
                "find: Unknown argument to -type: z\n",
                1,
            ),
            (
                "find . -maxdepth x",
                "",
                "find: Expected a positive decimal integer argument to -maxdepth, but got 'x'\n",
                1,
            ),
            (
                "find . -o -print",
                "",
                "find: invalid expression; you have used a binary operator '-o' with nothing before it.\n",
                1,
            ),
            (
                "find . ( -print",
                "",
                "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.\n",
                1,
            ),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }

    #[test]
    fn delete_and_loops() {
        use crate::commands::testing::{fs_with, run_in};
        let fs = fs_with(&[("d/e/b", ""), ("d/a", ""), ("keep", "")]);
        let (out, err, status) = run_in(&fs, "find d -delete", b"");
        assert_eq!((out.as_slice(), err.as_str(), status), (&b""[..], "", 0));
        assert!(fs.lock().stat("/workspace/d").is_err());
        let fs = fs_with(&[("l/x", ""), ("l/loop", "->..")]);
        let (out, err, status) = run_in(&fs, "find -L l", b"");
        assert_eq!(String::from_utf8_lossy(&out), "l\nl/loop\nl/x\n");
        assert_eq!(
            (err.as_str(), status),
            (
                "find: File system loop detected; 'l/loop/l' is part of the same file system loop as 'l'.\n",
                1
            )
        );
    }
}
