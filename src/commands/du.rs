//! `du`: disk usage of files and directory trees (`-s -a -c -h -k -m -b -d N
//! --apparent-size -L`), printed after each directory's contents as GNU does.
//!
//! The virtual filesystem has no blocks, so usage is modelled on a 4 KiB-block
//! filesystem like ext4: a directory takes 4 KiB, a regular file `ceil(size/4096)` blocks
//! of 4 KiB, a symlink or device nothing. Apparent sizes (`-b`) are the byte sizes
//! `stat` reports (4096 for a directory). Hard links are counted once.

use std::collections::HashSet;

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::fnmatch::fnmatch;
use super::util::{human_size, lq, quote, quotef};
use super::{CmdResult, Ctx};
use crate::fs::{Fs, Metadata};

const LONG: &[LongOpt] = &[
    long("all", HasArg::No, "a"),
    long("apparent-size", HasArg::No, "apparent"),
    long("bytes", HasArg::No, "b"),
    long("total", HasArg::No, "c"),
    long("max-depth", HasArg::Required, "d"),
    long("human-readable", HasArg::No, "h"),
    long("summarize", HasArg::No, "s"),
    long("dereference", HasArg::No, "L"),
    long("no-dereference", HasArg::No, "P"),
    long("one-file-system", HasArg::No, "x"),
    long("null", HasArg::No, "0"),
    long("block-size", HasArg::Required, "B"),
    long("count-links", HasArg::No, "l"),
    long("exclude", HasArg::Required, "exclude"),
    long("exclude-from", HasArg::Required, "X"),
    HELP,
    VERSION,
];

const USAGE: &str = concat!(
    "\
Usage: du [OPTION]... [FILE]...
  or:  du [OPTION]... --files0-from=F
Summarize device usage of the set of FILEs, recursively for directories.

Mandatory arguments to long options are mandatory for short options too.
  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage; although
                          the apparent size is usually smaller, it may be
                          larger due to holes in ('sparse') files, internal
                          fragmentation, indirect blocks, and the like
  -B, --block-size=SIZE  scale sizes by SIZE before printing them; e.g.,
                           '-BM' prints sizes in units of 1,048,576 bytes;
                           see SIZE format below
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -D, --dereference-args  dereference only symlinks that are listed on the
                          command line
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
      --files0-from=F   summarize device usage of the
                          NUL-terminated file names specified in file F;
                          if F is -, then read names from standard input
  -H                    equivalent to --dereference-args (-D)
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
      --inodes          list inode usage information instead of block usage
  -k                    like --block-size=1K
  -L, --dereference     dereference all symbolic links
  -l, --count-links     count sizes many times if hard linked
  -m                    like --block-size=1M
  -P, --no-dereference  don't follow any symbolic links (this is the default)
  -S, --separate-dirs   for directories do not include size of subdirectories
      --si              like -h, but use powers of 1000 not 1024
  -s, --summarize       display only a total for each argument
  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,
                          or entries greater than SIZE if negative
      --time            show time of the last modification of any file in the
                          directory, or any of its subdirectories
      --time=WORD       show time as WORD instead of modification time:
                          atime, access, use, ctime or status
      --time-style=STYLE  show times using STYLE, which can be:
                            full-iso, long-iso, iso, or +FORMAT;
                            FORMAT is interpreted like in 'date'
  -X, --exclude-from=FILE  exclude files that match any pattern in FILE
      --exclude=PATTERN    exclude files that match PATTERN
  -x, --one-file-system    skip directories on different file systems
      --help        display this help and exit
      --version     output version information and exit

",
    size_units_help!("DU")
);

struct Opts {
    all: bool,
    apparent: bool,
    max_depth: Option<usize>,
    deref: bool,
    /// Bytes per printed unit (1 for `-b`); `None` for `-h`.
    unit: Option<u64>,
    eol: u8,
    /// `-l`: a file with several hard links counts at each of them.
    count_links: bool,
    /// `--exclude`/`-X` patterns.
    exclude: Vec<String>,
}

/// Whether `name` (as shown) is excluded: a pattern matches it whole or any tail
/// after a `/`, as GNU's unanchored exclude patterns do.
fn excluded(patterns: &[String], name: &str) -> bool {
    let tails = std::iter::once(name).chain(
        name.match_indices('/')
            .filter_map(|(i, _)| name.get(i + 1..))
            .filter(|t| !t.is_empty() && !t.starts_with('/')),
    );
    tails
        .into_iter()
        .any(|t| patterns.iter().any(|p| fnmatch(p, t, false)))
}

/// The bytes a file counts for.
fn usage_of(meta: &Metadata, apparent: bool) -> u64 {
    if apparent {
        meta.size
    } else {
        super::stat::blocks_512(meta) * 512
    }
}

struct Walk<'a> {
    o: &'a Opts,
    fs: &'a Fs,
    seen: HashSet<u64>,
    out: Vec<u8>,
    errors: bool,
    err: Vec<u8>,
}

impl Walk<'_> {
    fn line(&mut self, bytes: u64, name: &str) {
        let n = match self.o.unit {
            None => human_size(bytes),
            Some(u) => bytes.div_ceil(u).to_string(),
        };
        self.out.extend_from_slice(n.as_bytes());
        self.out.push(b'\t');
        self.out.extend_from_slice(&crate::text::encode(name));
        self.out.push(self.o.eol);
    }

    /// Total of `path` (shown as `shown`), printing entries as it goes.
    fn visit(
        &mut self,
        host: &mut dyn super::Host,
        shown: &str,
        path: &str,
        depth: usize,
        top: bool,
    ) -> std::io::Result<u64> {
        host.check()?;
        if excluded(&self.o.exclude, shown) {
            return Ok(0);
        }
        let meta = if self.o.deref || (top && path.ends_with('/')) {
            self.fs.stat(path)
        } else {
            self.fs.lstat(path)
        };
        let meta = match meta {
            Ok(m) => m,
            Err(e) => {
                self.err_line(&format!("cannot access {}: {e}", quote(shown)));
                return Ok(0);
            }
        };
        let counted_again = self.o.count_links && !meta.is_dir();
        if !self.seen.insert(meta.ino) && !counted_again {
            return Ok(0);
        }
        let mut total = usage_of(&meta, self.o.apparent);
        let show = self.o.max_depth.is_none_or(|d| depth <= d);
        if meta.is_dir() {
            match self.fs.read_dir(path) {
                Ok(entries) => {
                    for e in entries {
                        let child_shown = concat(shown, &e.name);
                        let child = crate::fs::path::join(path, &e.name);
                        total += self.visit(host, &child_shown, &child, depth + 1, false)?;
                    }
                }
                Err(e) => {
                    self.err_line(&format!("cannot read directory {}: {e}", quote(shown)));
                }
            }
            if show {
                self.line(total, shown);
            }
        } else if show && (top || self.o.all) {
            self.line(total, shown);
        }
        Ok(total)
    }

    fn err_line(&mut self, msg: &str) {
        self.errors = true;
        self.err.extend_from_slice(b"du: ");
        self.err.extend_from_slice(&crate::text::encode(msg));
        self.err.push(b'\n');
    }
}

fn concat(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

pub fn du(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("abcd:hlsLPxkmB:X:0", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut o = Opts {
        all: parsed.has("a"),
        apparent: parsed.has("apparent") || parsed.has("b"),
        max_depth: None,
        deref: false,
        unit: Some(1024),
        eol: if parsed.has("0") { 0 } else { b'\n' },
        count_links: parsed.has("l"),
        exclude: Vec::new(),
    };
    for (k, v) in &parsed.opts {
        match k.as_str() {
            "b" => o.unit = Some(1),
            "k" => o.unit = Some(1024),
            "m" => o.unit = Some(1 << 20),
            "h" => o.unit = None,
            "L" => o.deref = true,
            "exclude" => o.exclude.extend(v.clone()),
            "X" => {
                let file = v.as_deref().unwrap_or("");
                let data = ctx.fs.lock().read_file(&ctx.path(file));
                match data {
                    Ok(bytes) => o.exclude.extend(
                        crate::text::decode(&bytes)
                            .lines()
                            .filter(|l| !l.is_empty())
                            .map(str::to_owned),
                    ),
                    Err(e) => {
                        ctx.err(format!("{}: {e}", quotef(file)))?;
                        return usage_error(ctx, "", 1);
                    }
                }
            }
            "P" => o.deref = false,
            "B" => {
                let v = v.as_deref().unwrap_or("");
                match super::util::parse_size(v).filter(|&n| n > 0) {
                    Some(n) => o.unit = Some(n),
                    None => {
                        let long = ctx.args.iter().any(|a| a.starts_with("--b"));
                        let opt = if long { "--block-size" } else { "-B" };
                        ctx.err(format!("invalid {opt} argument {}", quote(v)))?;
                        return Ok(1);
                    }
                }
            }
            "d" => {
                let v = v.as_deref().unwrap_or("");
                match v.parse::<usize>() {
                    Ok(n) => o.max_depth = Some(n),
                    Err(_) => {
                        ctx.err(format!("invalid maximum depth {}", lq(v)))?;
                        return usage_error(ctx, "", 1);
                    }
                }
            }
            _ => {}
        }
    }
    if parsed.has("s") {
        if o.all {
            return usage_error(ctx, "cannot both summarize and show all entries", 1);
        }
        if let Some(d) = o.max_depth.filter(|&d| d != 0) {
            ctx.err(format!(
                "warning: summarizing conflicts with --max-depth={d}"
            ))?;
            return usage_error(ctx, "", 1);
        }
        o.max_depth = Some(0);
    }
    let operands = if parsed.operands.is_empty() {
        vec![".".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let fs = ctx.fs.snapshot();
    let mut walk = Walk {
        o: &o,
        fs: &fs,
        seen: HashSet::new(),
        out: Vec::new(),
        errors: false,
        err: Vec::new(),
    };
    let mut grand = 0;
    for name in &operands {
        let path = ctx.path(name);
        let path = if name.ends_with('/') && path != "/" {
            format!("{path}/")
        } else {
            path
        };
        grand += walk.visit(ctx.host, name, &path, 0, true)?;
        ctx.stdout.write_all(&walk.out)?;
        ctx.stderr.write_all(&walk.err)?;
        walk.out.clear();
        walk.err.clear();
    }
    if parsed.has("c") {
        walk.line(grand, "total");
        ctx.stdout.write_all(&walk.out)?;
    }
    Ok(i32::from(walk.errors))
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    /// Expectations from GNU du 9 on ext4 over the same tree.
    const FILES: &[(&str, &str)] = &[("f", "abc"), ("d/e/", ""), ("d/g", "5000"), ("l", "->f")];

    #[test]
    fn du_table() {
        let big = "x".repeat(5000);
        let files: Vec<(&str, &str)> = FILES
            .iter()
            .map(|&(n, c)| {
                if n == "d/g" {
                    (n, big.as_str())
                } else {
                    (n, c)
                }
            })
            .collect();
        for (line, out, err, status) in [
            ("du", "4\t./d/e\n16\t./d\n24\t.\n", "", 0),
            (
                "du -a",
                "4\t./d/e\n8\t./d/g\n16\t./d\n4\t./f\n0\t./l\n24\t.\n",
                "",
                0,
            ),
            ("du -sh d f", "16K\td\n4.0K\tf\n", "", 0),
            ("du -c f d/g", "4\tf\n8\td/g\n12\ttotal\n", "", 0),
            ("du -b", "4096\t./d/e\n13192\t./d\n17292\t.\n", "", 0),
            ("du -ab d", "4096\td/e\n5000\td/g\n13192\td\n", "", 0),
            ("du -d 0", "24\t.\n", "", 0),
            ("du -d1 -h", "16K\t./d\n24K\t.\n", "", 0),
            ("du -s d/", "16\td/\n", "", 0),
            ("du -a d/", "4\td/e\n8\td/g\n16\td/\n", "", 0),
            (
                "du nope",
                "",
                "du: cannot access 'nope': No such file or directory\n",
                1,
            ),
            (
                "du -sa",
                "",
                "du: cannot both summarize and show all entries\nTry 'du --help' for more information.\n",
                1,
            ),
            (
                "du -d x",
                "",
                "du: invalid maximum depth 'x'\nTry 'du --help' for more information.\n",
                1,
            ),
        ] {
            check(&files, line, "", (out, err, status));
        }
    }
}
