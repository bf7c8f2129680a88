//! `gzip`, `gunzip` and `zcat` over the virtual filesystem, using the `flate2` crate's
//! pure-Rust deflate (a proven implementation of the format). `gzip FILE` replaces it
//! with `FILE.gz` (name and mtime stored in the header), `-d` reverses, `-c` writes to
//! stdout, `-k` keeps the input, `-f` overwrites, `-n` omits name and time, `-1`..`-9`
//! set the level, `-l` lists sizes, `-v` reports ratios, `-S` sets the suffix, `-r`
//! descends into directories, and `-f` with stdout passes non-gzip input through;
//! symbolic links are refused unless forced; no operand (or `-`) filters stdin to
//! stdout. As with GNU, where `gunzip` and `zcat` are scripts running `gzip`, every
//! message says `gzip`, and decompressing a missing `NAME` tries `NAME.gz`. The
//! compressed bytes can differ from GNU gzip's (another deflate encoder); they
//! decompress the same.

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
    long("list", HasArg::No, "l"),
    long("suffix", HasArg::Required, "S"),
    long("recursive", HasArg::No, "r"),
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
    list: bool,
    verbose: bool,
    recursive: bool,
    suffix: String,
    level: u32,
}

/// The name in every message (GNU's `gunzip` and `zcat` run `gzip`).
const PROG: &str = "gzip";

/// GNU prints decompression errors after a blank line (it may have been mid-line).
fn bad_data(ctx: &mut Ctx, name: &str, e: &str) -> std::io::Result<i32> {
    writeln!(ctx.stderr, "\n{PROG}: {name}: {e}")?;
    Ok(1)
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

/// Why a decompression gave no data: bad input (GNU's message), or output that would
/// grow past the limit a decompression bomb must stop at.
pub(super) enum Inflate {
    Bad(String),
    TooBig(u64),
}

/// Reads all of `r` but never more than `cap` bytes: one byte past it is
/// [`Inflate::TooBig`], so a small bomb cannot make the engine allocate without bound.
pub(super) fn read_capped(r: impl Read, cap: u64) -> Result<Vec<u8>, Inflate> {
    let mut out = Vec::new();
    r.take(cap.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| {
            Inflate::Bad(match e.kind() {
                std::io::ErrorKind::UnexpectedEof => "unexpected end of file".to_owned(),
                _ => "invalid compressed data--format violated".to_owned(),
            })
        })?;
    if u64::try_from(out.len()).unwrap_or(u64::MAX) > cap {
        return Err(Inflate::TooBig(cap));
    }
    Ok(out)
}

/// The most one decompressed file may hold: the filesystem's file size limit, which
/// also bounds what `zcat` holds before writing it out.
pub(super) fn inflate_cap(ctx: &Ctx) -> u64 {
    ctx.fs.lock().limits().max_file_bytes
}

fn decompress(data: &[u8], cap: u64) -> Result<Vec<u8>, Inflate> {
    if !data.starts_with(&[0x1f, 0x8b]) {
        return Err(Inflate::Bad("not in gzip format".to_owned()));
    }
    read_capped(MultiGzDecoder::new(data), cap)
}

/// Reports a failed decompression: bad data is the file's error (status 1); a bomb
/// ends the script like any other limit.
fn inflate_failed(ctx: &mut Ctx, name: &str, e: Inflate) -> std::io::Result<i32> {
    match e {
        Inflate::Bad(m) => bad_data(ctx, name, &m),
        Inflate::TooBig(n) => too_big(ctx, PROG, name, n),
    }
}

/// Ends the script at the file size limit `cap` that decompressing `name` would pass
/// (a decompression bomb), after `PROG: NAME: File too large`; every decompressor
/// stops this way.
pub(super) fn too_big(ctx: &mut Ctx, prog: &str, name: &str, cap: u64) -> std::io::Result<i32> {
    writeln!(ctx.stderr, "{prog}: {name}: File too large")?;
    Err(super::fatal(format!(
        "{prog}: {}",
        crate::fs::LimitHit::FileBytes(cap)
    )))
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
    let parsed = match super::args::parse(&Spec::new("cdkfnNqvtlrS:123456789", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => {
            writeln!(ctx.stderr, "{PROG}: {msg}")?;
            writeln!(ctx.stderr, "Try `{PROG} --help' for more information.")?;
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
        list: parsed.has("l"),
        verbose: parsed.has("v"),
        recursive: parsed.has("r"),
        suffix: parsed.last("S").unwrap_or(".gz").to_owned(),
        level: 6,
    };
    if o.suffix.is_empty() || o.suffix.contains('/') {
        writeln!(ctx.stderr, "{PROG}: invalid suffix '{}'", o.suffix)?;
        return Ok(1);
    }
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
    if o.list {
        return list(ctx, &operands, o.verbose);
    }
    let mut status = 0;
    for name in &operands {
        ctx.host.check()?;
        status = status.max(one(ctx, &o, name)?);
    }
    Ok(status)
}

/// GNU's `display_ratio`: `num` as a percentage of `den`, `%5.1f%%`.
fn ratio(num: f64, den: u64) -> String {
    let r = if den == 0 {
        0.0
    } else {
        100.0 * num / den as f64
    };
    format!("{r:5.1}%")
}

/// The verbose ratio of a compression or decompression: the share of the larger side
/// that the deflate data (the compressed bytes less header and trailer) saves.
fn verbose_ratio(o: &Opts, input: &[u8], output: &[u8]) -> String {
    let (plain, packed) = if o.decompress {
        (output, input)
    } else {
        (input, output)
    };
    let header = header_len(packed).map_or(0, |h| h + 8);
    let saved = plain.len() as f64 - (packed.len() as f64 - header as f64);
    ratio(saved, plain.len() as u64)
}

/// The length of a gzip member's header, or `None` when it is cut short.
fn header_len(data: &[u8]) -> Option<usize> {
    let flags = *data.get(3)?;
    let mut pos = 10usize;
    if flags & 4 != 0 {
        let xlen = u16::from_le_bytes([*data.get(pos)?, *data.get(pos + 1)?]);
        pos += 2 + usize::from(xlen);
    }
    for bit in [8u8, 16] {
        if flags & bit != 0 {
            pos += data.get(pos..)?.iter().position(|&b| b == 0)? + 1;
        }
    }
    if flags & 2 != 0 {
        pos += 2;
    }
    (pos <= data.len()).then_some(pos)
}

/// `gzip -l`: compressed and uncompressed sizes, the ratio of the deflate data saved,
/// and the name without its suffix; a totals line for several files. Like GNU, the
/// totals' ratio reuses the last file's header size. `-v` puts the method, the CRC
/// and the stored time first (the file's own time when none is stored, and the time
/// now for a pipe).
fn list(ctx: &mut Ctx, operands: &[String], verbose: bool) -> CmdResult {
    let mut status = 0;
    let mut header_printed = false;
    let (mut total_in, mut total_out, mut last_header) = (0u64, 0u64, 0u64);
    let row = |bytes_in: u64, bytes_out: u64, header: u64, name: &str| {
        let saved = bytes_out as f64 - (bytes_in as f64 - header as f64);
        let ratio = ratio(saved, bytes_out);
        format!("{bytes_in:>19} {bytes_out:>19} {ratio} {name}\n")
    };
    for name in operands {
        ctx.host.check()?;
        let (data, shown, file_time) = if name == "-" {
            let mut d = Vec::new();
            ctx.stdin.read_to_end(&mut d)?;
            (d, "stdout".to_owned(), ctx.fs.lock().clock().now().secs)
        } else {
            let Some((path, shown)) = locate(ctx, name, ".gz")? else {
                status = 1;
                continue;
            };
            let res = ctx.read_named(&path)?;
            let mtime = ctx.fs.lock().stat(&path).map_or(0, |m| m.mtime.secs);
            match res {
                Ok(d) => (d.to_vec(), shown, mtime),
                Err(e) => {
                    writeln!(ctx.stderr, "{PROG}: {shown}: {e}")?;
                    status = 1;
                    continue;
                }
            }
        };
        let shown_in = if name == "-" { "stdin" } else { shown.as_str() };
        let header = match header_len(&data) {
            Some(h) if data.starts_with(&[0x1f, 0x8b]) && data.len() >= h + 8 => h + 8,
            _ => {
                status = bad_data(ctx, shown_in, "not in gzip format")?;
                continue;
            }
        };
        let size = data
            .get(data.len().saturating_sub(4)..)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map_or(0, u32::from_le_bytes);
        let base = shown
            .strip_suffix(".gz")
            .or_else(|| shown.strip_suffix(".tgz"))
            .unwrap_or(&shown);
        if !header_printed {
            header_printed = true;
            if verbose {
                write!(ctx.stdout, "method  crc     date  time  ")?;
            }
            writeln!(
                ctx.stdout,
                "{:>19} {:>19}  ratio uncompressed_name",
                "compressed", "uncompressed"
            )?;
        }
        if verbose {
            let word = |at: usize| {
                data.get(at..at + 4)
                    .and_then(|b| <[u8; 4]>::try_from(b).ok())
                    .map_or(0, u32::from_le_bytes)
            };
            let method = match data.get(2) {
                Some(8) => "defla",
                Some(0) => "store",
                _ => "",
            };
            let crc = word(data.len().saturating_sub(8));
            let stamp = match word(4) {
                0 => file_time,
                t => i64::from(t),
            };
            let when = ctx.zone().strftime("%b %e %H:%M", stamp, 0);
            write!(ctx.stdout, "{method:>5} {crc:08x} {when} ")?;
        }
        let (bytes_in, bytes_out, header) = (data.len() as u64, u64::from(size), header as u64);
        ctx.stdout
            .write_all(row(bytes_in, bytes_out, header, base).as_bytes())?;
        total_in += bytes_in;
        total_out += bytes_out;
        last_header = header;
    }
    if operands.len() > 1 && header_printed {
        if verbose {
            write!(ctx.stdout, "{:28}", "")?;
        }
        ctx.stdout
            .write_all(row(total_in, total_out, last_header, "(totals)").as_bytes())?;
    }
    Ok(status)
}

/// Finds a file to decompress: `NAME` itself or, when missing, `NAME.gz`; reports the
/// failure as GNU does (naming `NAME.gz`). Returns the path and the name to show.
fn locate(ctx: &mut Ctx, name: &str, suffix: &str) -> std::io::Result<Option<(String, String)>> {
    let path = ctx.path(name);
    let found = ctx.fs.lock().lstat(&path);
    match found {
        Ok(_) => Ok(Some((path, name.to_owned()))),
        Err(e) => {
            let has_suffix = strip_suffix(name, suffix).is_some();
            let with_gz = format!("{name}{suffix}");
            let gz_path = ctx.path(&with_gz);
            if !has_suffix && ctx.fs.lock().stat(&gz_path).is_ok() {
                return Ok(Some((gz_path, with_gz)));
            }
            let shown = if has_suffix { name } else { with_gz.as_str() };
            writeln!(ctx.stderr, "{PROG}: {shown}: {e}")?;
            Ok(None)
        }
    }
}

/// Whether `data` may pass through unchanged: GNU's `-f` with output to stdout copies
/// input that is not gzip data (`zcat -f`).
fn passes_through(o: &Opts, data: &[u8]) -> bool {
    o.decompress && o.force && o.stdout && !o.test && !data.starts_with(&[0x1f, 0x8b])
}

fn one(ctx: &mut Ctx, o: &Opts, name: &str) -> std::io::Result<i32> {
    if name == "-" {
        let mut data = Vec::new();
        ctx.stdin.read_to_end(&mut data)?;
        let out = if o.decompress && (o.force && !data.starts_with(&[0x1f, 0x8b])) {
            data.clone()
        } else if o.decompress {
            match decompress(&data, inflate_cap(ctx)) {
                Ok(d) => d,
                Err(e) => return inflate_failed(ctx, "stdin", e),
            }
        } else {
            compress(&data, None, 0, o.level)?
        };
        if o.verbose && o.test {
            writeln!(ctx.stderr, " OK")?;
        } else if o.verbose && !o.decompress {
            writeln!(ctx.stderr, "{}", verbose_ratio(o, &data, &out))?;
        }
        if !o.test {
            ctx.stdout.write_all(&out)?;
        }
        return Ok(0);
    }
    let (path, name) = if o.decompress {
        match locate(ctx, name, &o.suffix)? {
            Some(found) => found,
            None => return Ok(1),
        }
    } else {
        (ctx.path(name), name.to_owned())
    };
    let name = name.as_str();
    let linked = ctx.fs.lock().lstat(&path).is_ok_and(|m| m.is_symlink());
    let meta = ctx.fs.lock().stat(&path);
    let meta = match meta {
        Ok(m) => m,
        Err(e) => {
            writeln!(ctx.stderr, "{PROG}: {name}: {e}")?;
            return Ok(1);
        }
    };
    if meta.is_dir() {
        if o.recursive {
            return recurse(ctx, o, &path, name);
        }
        if !o.quiet {
            writeln!(ctx.stderr, "{PROG}: {name} is a directory -- ignored")?;
        }
        return Ok(2);
    }
    // GNU opens with O_NOFOLLOW unless forced or writing to stdout.
    if linked && !o.force && !o.stdout {
        writeln!(
            ctx.stderr,
            "{PROG}: {name}: Too many levels of symbolic links"
        )?;
        return Ok(1);
    }
    let target = if o.decompress {
        match strip_suffix(name, &o.suffix) {
            Some(base) => base,
            None if o.stdout || o.test => String::new(),
            None => {
                if !o.quiet {
                    writeln!(ctx.stderr, "{PROG}: {name}: unknown suffix -- ignored")?;
                }
                return Ok(2);
            }
        }
    } else {
        if name.ends_with(&o.suffix) && !o.stdout && !o.force {
            if !o.quiet {
                writeln!(
                    ctx.stderr,
                    "{PROG}: {name} already has {} suffix -- unchanged",
                    o.suffix
                )?;
            }
            return Ok(0);
        }
        format!("{name}{}", o.suffix)
    };
    let data = ctx.read_named(&path)?;
    let data = match data {
        Ok(d) => d,
        Err(e) => {
            writeln!(ctx.stderr, "{PROG}: {name}: {e}")?;
            return Ok(1);
        }
    };
    let out = if passes_through(o, &data) {
        data.to_vec()
    } else if o.decompress {
        match decompress(&data, inflate_cap(ctx)) {
            Ok(d) => d,
            Err(e) => return inflate_failed(ctx, name, e),
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
    if o.verbose {
        let line = if o.test {
            format!("{name}:\t OK")
        } else {
            let r = if passes_through(o, &data) {
                ratio(0.0, 0)
            } else {
                verbose_ratio(o, &data, &out)
            };
            let done = if o.keep { "created" } else { "replaced with" };
            let shown = if o.stdout { "stdout" } else { target.as_str() };
            format!("{name}:\t{r} -- {done} {shown}")
        };
        writeln!(ctx.stderr, "{line}")?;
    }
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
            "{PROG}: {target} already exists;\tnot overwritten"
        )?;
        return Ok(2);
    }
    if let Err(e) = fs.write_file(&target_path, &out) {
        drop(fs);
        writeln!(ctx.stderr, "{PROG}: {target}: {e}")?;
        return Ok(1);
    }
    let _ = fs.chmod(&target_path, meta.mode);
    let _ = fs.set_times(&target_path, Some(meta.atime), Some(meta.mtime));
    if !o.keep
        && let Err(e) = fs.remove_file(&path)
    {
        drop(fs);
        writeln!(ctx.stderr, "{PROG}: {name}: {e}")?;
        return Ok(1);
    }
    Ok(0)
}

/// The name a compressed file decompresses to: without the `-S` suffix, `.gz`, or with
/// `.tgz` turned into `.tar`; `None` for an unknown suffix.
fn strip_suffix(name: &str, suffix: &str) -> Option<String> {
    let base = crate::fs::path::file_name(name);
    let cut = |s: &str| {
        name.strip_suffix(s)
            .filter(|_| base.len() > s.len())
            .map(str::to_owned)
    };
    cut(suffix)
        .or_else(|| cut(".gz"))
        .or_else(|| cut(".tgz").map(|b| format!("{b}.tar")))
}

/// `-r`: each entry of a directory, in name order (GNU uses the directory's order).
fn recurse(ctx: &mut Ctx, o: &Opts, path: &str, name: &str) -> std::io::Result<i32> {
    let entries = ctx.fs.lock().read_dir(path);
    let entries = match entries {
        Ok(e) => e,
        Err(e) => {
            writeln!(ctx.stderr, "{PROG}: {name}: {e}")?;
            return Ok(1);
        }
    };
    let mut status = 0;
    for entry in entries {
        ctx.host.check()?;
        let child = format!("{}/{}", name.trim_end_matches('/'), entry.name);
        let child_path = crate::fs::path::join(path, &entry.name);
        let is_dir = ctx.fs.lock().lstat(&child_path).is_ok_and(|m| m.is_dir());
        // Decompressing a directory's files skips those without a known suffix quietly.
        if o.decompress && !is_dir && strip_suffix(&child, &o.suffix).is_none() {
            continue;
        }
        if !o.decompress && !is_dir && child.ends_with(&o.suffix) {
            continue;
        }
        status = status.max(one(ctx, o, &child)?);
    }
    Ok(status)
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
        assert_eq!((err.as_str(), st), ("\ngzip: nz: not in gzip format\n", 1));
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
