//! `gzip`, `gunzip` and `zcat` over the virtual filesystem, using the `flate2` crate's
//! pure-Rust deflate (a proven implementation of the format). `gzip FILE` replaces it
//! with `FILE.gz` (name and mtime stored in the header), `-d` reverses, `-c` writes to
//! stdout, `-k` keeps the input, `-f` overwrites, `-n` omits name and time, `-1`..`-9`
//! set the level; no operand (or `-`) filters stdin to stdout. The compressed bytes can
//! differ from GNU gzip's (another deflate encoder); they decompress the same.

use std::io::{Read, Write};

use flate2::read::MultiGzDecoder;
use flate2::{Compression, GzBuilder};

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("stdout", HasArg::No, "c"),
    long("to-stdout", HasArg::No, "c"),
    long("decompress", HasArg::No, "d"),
    long("uncompress", HasArg::No, "d"),
    long("keep", HasArg::No, "k"),
    long("force", HasArg::No, "f"),
    long("no-name", HasArg::No, "n"),
    long("name", HasArg::No, "N"),
    long("quiet", HasArg::No, "q"),
    long("verbose", HasArg::No, "v"),
    long("test", HasArg::No, "t"),
    long("fast", HasArg::No, "1"),
    long("best", HasArg::No, "9"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: gzip [OPTION]... [FILE]...
Compress or uncompress FILEs (by default, compress FILES in-place).

Mandatory arguments to long options are mandatory for short options too.

  -c, --stdout      write on standard output, keep original files unchanged
  -d, --decompress  decompress
  -f, --force       force overwrite of output file and compress links
  -h, --help        give this help
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -L, --license     display software license
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
      --rsyncable   make rsync-friendly archive
  -S, --suffix=SUF  use suffix SUF on compressed files
      --synchronous synchronous output (safer if system crashes, but slower)
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
  -V, --version     display version number
  -1, --fast        compress faster
  -9, --best        compress better

With no FILE, or when FILE is -, read standard input.
";

struct Opts {
    stdout: bool,
    decompress: bool,
    keep: bool,
    force: bool,
    no_name: bool,
    quiet: bool,
    test: bool,
    level: u32,
}

fn compress(data: &[u8], name: Option<&str>, mtime: u32, level: u32) -> std::io::Result<Vec<u8>> {
    let mut b = GzBuilder::new().mtime(mtime);
    if let Some(n) = name {
        b = b.filename(crate::text::encode(n));
    }
    let mut enc = b.write(Vec::new(), Compression::new(level));
    enc.write_all(data)?;
    enc.finish()
}

fn decompress(data: &[u8]) -> Result<Vec<u8>, String> {
    if !data.starts_with(&[0x1f, 0x8b]) {
        return Err("not in gzip format".to_owned());
    }
    let mut out = Vec::new();
    MultiGzDecoder::new(data)
        .read_to_end(&mut out)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => "unexpected end of file".to_owned(),
            _ => "invalid compressed data--format violated".to_owned(),
        })?;
    Ok(out)
}

pub fn gzip(ctx: &mut Ctx) -> CmdResult {
    run(ctx, false, false)
}

pub fn gunzip(ctx: &mut Ctx) -> CmdResult {
    run(ctx, true, false)
}

pub fn zcat(ctx: &mut Ctx) -> CmdResult {
    run(ctx, true, true)
}

fn run(ctx: &mut Ctx, decompressing: bool, to_stdout: bool) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("cdkfnNqvt123456789", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => {
            ctx.err(msg)?;
            writeln!(
                ctx.stderr,
                "Try `{} --help' for more information.",
                ctx.name
            )?;
            return Ok(1);
        }
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut o = Opts {
        stdout: to_stdout || parsed.has("c"),
        decompress: decompressing || parsed.has("d"),
        keep: parsed.has("k"),
        force: parsed.has("f"),
        no_name: parsed.has("n"),
        quiet: parsed.has("q"),
        test: parsed.has("t"),
        level: 6,
    };
    for (k, _) in &parsed.opts {
        if let Ok(n) = k.parse::<u32>() {
            o.level = n;
        }
    }
    if o.test {
        o.decompress = true;
    }
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let mut status = 0;
    for name in &operands {
        ctx.host.check()?;
        status = status.max(one(ctx, &o, name)?);
    }
    Ok(status)
}

fn one(ctx: &mut Ctx, o: &Opts, name: &str) -> std::io::Result<i32> {
    let prog = ctx.name.to_owned();
    if name == "-" {
        let mut data = Vec::new();
        ctx.stdin.read_to_end(&mut data)?;
        let out = if o.decompress {
            match decompress(&data) {
                Ok(d) => d,
                Err(e) => {
                    writeln!(ctx.stderr, "{prog}: stdin: {e}")?;
                    return Ok(1);
                }
            }
        } else {
            compress(&data, None, 0, o.level)?
        };
        if !o.test {
            ctx.stdout.write_all(&out)?;
        }
        return Ok(0);
    }
    let path = ctx.path(name);
    let meta = ctx.fs.lock().stat(&path);
    let meta = match meta {
        Ok(m) => m,
        Err(e) => {
            writeln!(ctx.stderr, "{prog}: {name}: {e}")?;
            return Ok(1);
        }
    };
    if meta.is_dir() {
        if !o.quiet {
            writeln!(ctx.stderr, "{prog}: {name} is a directory -- ignored")?;
        }
        return Ok(2);
    }
    let target = if o.decompress {
        match name
            .strip_suffix(".gz")
            .or_else(|| name.strip_suffix(".tgz").map(|_| ""))
        {
            Some("") => format!("{}.tar", name.trim_end_matches(".tgz")),
            Some(base) => base.to_owned(),
            None if o.stdout || o.test => String::new(),
            None => {
                if !o.quiet {
                    writeln!(ctx.stderr, "{prog}: {name}: unknown suffix -- ignored")?;
                }
                return Ok(2);
            }
        }
    } else {
        if name.ends_with(".gz") && !o.stdout && !o.force {
            if !o.quiet {
                writeln!(
                    ctx.stderr,
                    "{prog}: {name} already has .gz suffix -- unchanged"
                )?;
            }
            return Ok(0);
        }
        format!("{name}.gz")
    };
    let data = ctx.fs.lock().read_file(&path);
    let data = match data {
        Ok(d) => d,
        Err(e) => {
            writeln!(ctx.stderr, "{prog}: {name}: {e}")?;
            return Ok(1);
        }
    };
    let out = if o.decompress {
        match decompress(&data) {
            Ok(d) => d,
            Err(e) => {
                writeln!(ctx.stderr, "{prog}: {name}: {e}")?;
                return Ok(1);
            }
        }
    } else {
        let base = crate::fs::path::file_name(&path).to_owned();
        let (n, t) = if o.no_name {
            (None, 0)
        } else {
            (
                Some(base.as_str()),
                u32::try_from(meta.mtime.secs).unwrap_or(0),
            )
        };
        compress(&data, n, t, o.level)?
    };
    if o.test {
        return Ok(0);
    }
    if o.stdout {
        ctx.stdout.write_all(&out)?;
        return Ok(0);
    }
    let target_path = ctx.path(&target);
    let mut fs = ctx.fs.lock();
    if fs.lstat(&target_path).is_ok() && !o.force {
        drop(fs);
        writeln!(
            ctx.stderr,
            "{prog}: {target} already exists;\tnot overwritten"
        )?;
        return Ok(2);
    }
    if let Err(e) = fs.write_file(&target_path, &out) {
        drop(fs);
        writeln!(ctx.stderr, "{prog}: {target}: {e}")?;
        return Ok(1);
    }
    let _ = fs.chmod(&target_path, meta.mode);
    let _ = fs.set_times(&target_path, Some(meta.atime), Some(meta.mtime));
    if !o.keep
        && let Err(e) = fs.remove_file(&path)
    {
        drop(fs);
        writeln!(ctx.stderr, "{prog}: {name}: {e}")?;
        return Ok(1);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{fs_with, run_in};

    #[test]
    fn round_trips() {
        let fs = fs_with(&[("h", "hello\n"), ("nz", "x")]);
        let (_, err, st) = run_in(&fs, "gzip -k h", b"");
        assert_eq!((err.as_str(), st), ("", 0));
        assert!(fs.lock().exists("/workspace/h.gz"));
        let (_, err, st) = run_in(&fs, "gzip h", b"");
        assert_eq!(
            (err.as_str(), st),
            ("gzip: h.gz already exists;\tnot overwritten\n", 2)
        );
        for line in ["gunzip -c h.gz", "zcat h.gz", "gzip -dc h.gz"] {
            let (out, _, st) = run_in(&fs, line, b"");
            assert_eq!((out.as_slice(), st), (&b"hello\n"[..], 0), "{line}");
        }
        let (_, err, st) = run_in(&fs, "gzip -d nope.gz", b"");
        assert_eq!(
            (err.as_str(), st),
            ("gzip: nope.gz: No such file or directory\n", 1)
        );
        let (_, err, st) = run_in(&fs, "gzip -d nz", b"");
        assert_eq!(
            (err.as_str(), st),
            ("gzip: nz: unknown suffix -- ignored\n", 2)
        );
        let (_, err, st) = run_in(&fs, "gzip h.gz", b"");
        assert_eq!(
            (err.as_str(), st),
            ("gzip: h.gz already has .gz suffix -- unchanged\n", 0)
        );
        let (_, err, st) = run_in(&fs, "zcat nz", b"");
        assert_eq!((err.as_str(), st), ("zcat: nz: not in gzip format\n", 1));
        // Replace, then restore.
        let (_, _, st) = run_in(&fs, "rm h.gz", b"");
        assert_eq!(st, 0);
        run_in(&fs, "gzip h", b"");
        assert!(!fs.lock().exists("/workspace/h"));
        run_in(&fs, "gunzip h.gz", b"");
        assert_eq!(
            fs.lock().read_file("/workspace/h").map(|d| d.to_vec()),
            Ok(b"hello\n".to_vec())
        );
        // A pipe.
        let (gz, _, _) = run_in(&fs, "gzip", b"abc");
        let (out, _, st) = run_in(&fs, "gzip -d", &gz);
        assert_eq!((out.as_slice(), st), (&b"abc"[..], 0));
    }
}
