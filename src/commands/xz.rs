//! `xz`, `unxz` and `xzcat` as xz-utils 5.4 behaves, using the pure-Rust `lzma-rust2`
//! crate's .xz encoder and decoder. `xz FILE` replaces it with `FILE.xz`, `-d` reverses
//! (`.xz`, `.txz` to `.tar`), `-c` writes to stdout, `-t` tests, `-k` keeps, `-f`
//! overwrites (and with `-c` passes non-xz data through). Errors give status 1 and
//! warnings (`skipping`) status 2, as xz does. The compressed bytes can differ from
//! liblzma's; they decompress the same.

use std::io::{Read, Write};

use lzma_rust2::{CheckType, XzOptions, XzReader, XzWriter};

use super::about::std_opts;
use super::args::{HasArg, LongOpt, Spec, long};
use super::gzip::{inflate_cap, too_big};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("stdout", HasArg::No, "c"),
    long("to-stdout", HasArg::No, "c"),
    long("decompress", HasArg::No, "d"),
    long("uncompress", HasArg::No, "d"),
    long("compress", HasArg::No, "z"),
    long("keep", HasArg::No, "k"),
    long("force", HasArg::No, "f"),
    long("test", HasArg::No, "t"),
    long("quiet", HasArg::No, "q"),
    long("threads", HasArg::Required, "T"),
    long("extreme", HasArg::No, "e"),
    long("fast", HasArg::No, "0"),
    long("best", HasArg::No, "9"),
    long("list", HasArg::No, "l"),
    long("verbose", HasArg::No, "v"),
    long("check", HasArg::Required, "C"),
    long("robot", HasArg::No, "robot"),
    super::about::HELP,
    super::about::VERSION,
];

const USAGE: &str = "\
Usage: xz [OPTION]... [FILE]...
Compress or decompress FILEs in the .xz format.

  -z, --compress      force compression
  -d, --decompress    force decompression
  -t, --test          test compressed file integrity
  -k, --keep          keep (don't delete) input files
  -f, --force         force overwrite of output file and (de)compress links
  -c, --stdout        write to standard output and don't delete input files
  -l, --list          list information about .xz files
  -0 ... -9           compression preset; default is 6
  -e, --extreme       accepted (the preset alone sets the effort)
  -T, --threads=NUM   accepted (one thread is used)
  -C, --check=CHECK   integrity check type: `none', `crc32', `crc64' (default),
                      or `sha256'
  -q, --quiet         suppress warnings; specify twice to suppress errors too
  -v, --verbose       be verbose; specify twice for even more verbose
      --robot         use machine-parsable messages (with --list)
  -h, --help          display this short help and exit
  -V, --version       display the version number and exit

With no FILE, or when FILE is -, read standard input.
";

/// xz's magic bytes, which format detection looks for.
const MAGIC: &[u8] = &[0xfd, b'7', b'z', b'X', b'Z', 0];

/// The most memory one block's decoder may take (a header can ask for 4 GiB), more
/// than `-9`'s 64 MiB dictionary needs.
const MEM_LIMIT_KB: u32 = 256 * 1024;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Compress,
    Decompress,
    Test,
}

struct Opts {
    prog: String,
    op: Op,
    stdout: bool,
    keep: bool,
    force: bool,
    /// xz's message verbosity: 0 silent, 1 errors, 2 warnings (the default), 3 `-v`,
    /// 4 `-vv`.
    verbosity: u32,
    level: u32,
    check: CheckType,
}

/// What a file's processing ended with: xz keeps the worst, an error over a warning.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Done,
    Warning,
    Error,
}

pub fn xz(ctx: &mut Ctx) -> CmdResult {
    run(ctx, None, false)
}

pub fn unxz(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Some(Op::Decompress), false)
}

pub fn xzcat(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Some(Op::Decompress), true)
}

fn run(ctx: &mut Ctx, op: Option<Op>, to_stdout: bool) -> CmdResult {
    let prog = crate::fs::path::file_name(ctx.name).to_owned();
    let parsed = match super::args::parse(&Spec::new("cdzkftqvlC:T:e0123456789hV", LONG), ctx.args)
    {
        Ok(p) => p,
        Err(msg) => {
            writeln!(ctx.stderr, "{prog}: {msg}")?;
            writeln!(
                ctx.stderr,
                "{prog}: Try `{prog} --help' for more information."
            )?;
            return Ok(1);
        }
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut o = Opts {
        prog,
        op: op.unwrap_or(Op::Compress),
        stdout: to_stdout,
        keep: false,
        force: false,
        verbosity: 2,
        level: 6,
        check: CheckType::Crc64,
    };
    let (mut list, mut robot) = (false, false);
    let (mut verbose, mut quiet) = (0u32, 0u32);
    for (k, v) in &parsed.opts {
        match k.as_str() {
            "c" => o.stdout = true,
            "d" => o.op = Op::Decompress,
            "z" => o.op = Op::Compress,
            "t" => o.op = Op::Test,
            "k" => o.keep = true,
            "f" => o.force = true,
            "q" => quiet += 1,
            "v" => verbose += 1,
            "l" => list = true,
            "robot" => robot = true,
            "C" => {
                o.check = match v.as_deref().unwrap_or_default() {
                    "none" => CheckType::None,
                    "crc32" => CheckType::Crc32,
                    "crc64" => CheckType::Crc64,
                    "sha256" => CheckType::Sha256,
                    bad => {
                        writeln!(
                            ctx.stderr,
                            "{}: {bad}: Unsupported integrity check type",
                            o.prog
                        )?;
                        return Ok(1);
                    }
                }
            }
            "h" => {
                super::about::write_help(ctx, USAGE)?;
                return Ok(0);
            }
            "V" => {
                super::about::write_version(ctx)?;
                return Ok(0);
            }
            k => {
                if let Ok(n) = k.parse::<u32>() {
                    o.level = n;
                }
            }
        }
    }
    o.verbosity = (2 + verbose).saturating_sub(quiet).min(4);
    if list {
        return list_files(ctx, &o, &parsed.operands, robot);
    }
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let mut worst = Outcome::Done;
    for name in &operands {
        ctx.host.check()?;
        worst = worst.max(one(ctx, &o, name)?);
    }
    Ok(match worst {
        Outcome::Done => 0,
        Outcome::Error => 1,
        Outcome::Warning => 2,
    })
}

/// `xz --list`: each operand's container, then the totals.
fn list_files(ctx: &mut Ctx, o: &Opts, operands: &[String], robot: bool) -> CmdResult {
    let mut lister =
        super::xz_list::Lister::new(robot, o.verbosity.saturating_sub(2), operands.len());
    let mut worst = Outcome::Done;
    if operands.is_empty() {
        worst = error_plain(
            ctx,
            o,
            "--list does not support reading from standard input",
        )?;
    }
    for (i, name) in operands.iter().enumerate() {
        ctx.host.check()?;
        let heading = lister.heading(name, i + 1);
        ctx.stdout.write_all(heading.as_bytes())?;
        if name == "-" {
            worst = worst.max(error_plain(
                ctx,
                o,
                "--list does not support reading from standard input",
            )?);
            continue;
        }
        let data = match read_operand(ctx, o, name)? {
            Ok(d) => d,
            Err(outcome) => {
                worst = worst.max(outcome);
                continue;
            }
        };
        match lister.file(name, &data) {
            Ok(text) => ctx.stdout.write_all(text.as_bytes())?,
            Err(msg) => worst = worst.max(error(ctx, o, name, msg)?),
        }
    }
    ctx.stdout.write_all(lister.totals().as_bytes())?;
    Ok(match worst {
        Outcome::Done => 0,
        Outcome::Error => 1,
        Outcome::Warning => 2,
    })
}

/// An error that names no file.
fn error_plain(ctx: &mut Ctx, o: &Opts, msg: &str) -> std::io::Result<Outcome> {
    if o.verbosity >= 1 {
        writeln!(ctx.stderr, "{}: {msg}", o.prog)?;
    }
    Ok(Outcome::Error)
}

/// The `-v` report of one file: `name: in / out = ratio`, sizes as xz shows them.
fn report(ctx: &mut Ctx, o: &Opts, name: &str, comp: usize, uncomp: usize) -> std::io::Result<()> {
    if o.verbosity < 3 {
        return Ok(());
    }
    let (c, u) = (comp as u64, uncomp as u64);
    let r = c as f64 / u as f64;
    let ratio = if u == 0 || r > 9.999 {
        "> 9.999".to_owned()
    } else {
        format!("= {r:.3}")
    };
    writeln!(
        ctx.stderr,
        "{name}: {} / {} {ratio}",
        super::xz_list::nice(c, false),
        super::xz_list::nice(u, false)
    )
}

fn error(ctx: &mut Ctx, o: &Opts, name: &str, msg: &str) -> std::io::Result<Outcome> {
    if o.verbosity >= 1 {
        writeln!(ctx.stderr, "{}: {name}: {msg}", o.prog)?;
    }
    Ok(Outcome::Error)
}

fn warning(ctx: &mut Ctx, o: &Opts, name: &str, msg: &str) -> std::io::Result<Outcome> {
    if o.verbosity >= 2 {
        writeln!(ctx.stderr, "{}: {name}: {msg}", o.prog)?;
    }
    Ok(Outcome::Warning)
}

/// Why decoding stopped early, in xz's words; `TooBig` is the file size limit.
enum Bad {
    Msg(&'static str),
    TooBig(u64),
}

/// Decodes every stream of `data`, keeping at most `cap` bytes (none when testing).
/// The output decoded before an error is returned with it, as xz writes it out.
fn decode(
    ctx: &mut Ctx,
    data: &[u8],
    keep: bool,
    cap: u64,
) -> std::io::Result<(Vec<u8>, usize, Option<Bad>)> {
    let mut r = XzReader::new_mem_limit(data, true, MEM_LIMIT_KB);
    let mut out = Vec::new();
    let mut total = 0usize;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        ctx.host.check()?;
        match r.read(&mut buf) {
            Ok(0) => return Ok((out, total, None)),
            Ok(n) => {
                total = total.saturating_add(n);
                if keep {
                    out.extend_from_slice(buf.get(..n).unwrap_or_default());
                    if u64::try_from(out.len()).unwrap_or(u64::MAX) > cap {
                        return Ok((Vec::new(), total, Some(Bad::TooBig(cap))));
                    }
                }
            }
            Err(e) => {
                let msg = match e.kind() {
                    std::io::ErrorKind::UnexpectedEof => "Unexpected end of input",
                    std::io::ErrorKind::OutOfMemory => "Memory usage limit reached",
                    std::io::ErrorKind::Unsupported => "Unsupported options",
                    // A stream followed by fewer bytes than a header is cut short to xz.
                    _ if e.to_string().contains("incomplete XZ magic") => "Unexpected end of input",
                    _ => "Compressed data is corrupt",
                };
                return Ok((out, total, Some(Bad::Msg(msg))));
            }
        }
    }
}

/// The name a file decompresses to, or `None` for an unknown suffix.
fn strip_suffix(name: &str) -> Option<String> {
    let base = crate::fs::path::file_name(name);
    let cut = |s: &str| {
        name.strip_suffix(s)
            .filter(|_| base.len() > s.len())
            .map(str::to_owned)
    };
    cut(".xz").or_else(|| cut(".txz").map(|b| format!("{b}.tar")))
}

/// A file operand's bytes, following symbolic links; `Err` is what was reported.
fn read_operand(ctx: &mut Ctx, o: &Opts, name: &str) -> std::io::Result<Result<Vec<u8>, Outcome>> {
    let path = ctx.path(name);
    let meta = ctx.fs.lock().stat(&path);
    let failed = match meta {
        Ok(m) if m.is_dir() => warning(ctx, o, name, "Is a directory, skipping")?,
        Ok(_) => {
            let d = ctx.read_named(&path)?;
            match d {
                Ok(d) => return Ok(Ok(d.to_vec())),
                Err(e) => error(ctx, o, name, &e.to_string())?,
            }
        }
        Err(e) => error(ctx, o, name, &e.to_string())?,
    };
    Ok(Err(failed))
}

fn one(ctx: &mut Ctx, o: &Opts, name: &str) -> std::io::Result<Outcome> {
    let stdin = name == "-";
    let shown = if stdin { "(stdin)" } else { name };
    let to_stdout = stdin || o.stdout || o.op == Op::Test;
    let path = ctx.path(name);
    let data = if stdin {
        let mut d = Vec::new();
        ctx.stdin.read_to_end(&mut d)?;
        d
    } else {
        if !o.force && !o.stdout {
            let lmeta = ctx.fs.lock().lstat(&path);
            if lmeta.is_ok_and(|m| m.is_symlink()) {
                return warning(ctx, o, name, "Is a symbolic link, skipping");
            }
        }
        match read_operand(ctx, o, name)? {
            Ok(d) => d,
            Err(outcome) => return Ok(outcome),
        }
    };
    let recognized = data.starts_with(MAGIC);
    if o.op != Op::Compress && !recognized && !(o.force && to_stdout && o.op == Op::Decompress) {
        return error(ctx, o, shown, "File format not recognized");
    }
    let target = if to_stdout {
        None
    } else if o.op == Op::Compress {
        if name.ends_with(".xz") || name.ends_with(".txz") {
            let suffix = if name.ends_with(".xz") { ".xz" } else { ".txz" };
            return warning(
                ctx,
                o,
                name,
                &format!("File already has `{suffix}' suffix, skipping"),
            );
        }
        Some(format!("{name}.xz"))
    } else {
        match strip_suffix(name) {
            Some(t) => Some(t),
            None => return warning(ctx, o, name, "Filename has an unknown suffix, skipping"),
        }
    };
    if let Some(t) = &target {
        let tp = ctx.path(t);
        let exists = ctx.fs.lock().lstat(&tp).is_ok();
        if exists {
            if !o.force {
                return error(ctx, o, t, "File exists");
            }
            let _ = ctx.fs.lock().remove_file(&tp);
        }
    }
    let input_len = data.len();
    let (out, decoded, bad) = if o.op == Op::Compress {
        let mut options = XzOptions::with_preset(o.level.min(9));
        options.check_type = o.check;
        let mut w = XzWriter::new(Vec::new(), options)?;
        w.write_all(&data)?;
        let out = w.finish()?;
        let n = out.len();
        (out, n, None)
    } else if !recognized {
        let n = data.len();
        (data, n, None)
    } else {
        let keep = o.op == Op::Decompress;
        decode(ctx, &data, keep, inflate_cap(ctx))?
    };
    match bad {
        Some(Bad::TooBig(n)) => return too_big(ctx, &o.prog, shown, n).map(|_| Outcome::Error),
        Some(Bad::Msg(m)) => {
            if target.is_none() && o.op == Op::Decompress {
                ctx.stdout.write_all(&out)?;
            }
            return error(ctx, o, shown, m);
        }
        None => {}
    }
    match o.op {
        Op::Compress => report(ctx, o, shown, decoded, input_len)?,
        _ if recognized => report(ctx, o, shown, input_len, decoded)?,
        _ => {}
    }
    if o.op == Op::Test {
        return Ok(Outcome::Done);
    }
    let Some(target) = target else {
        ctx.stdout.write_all(&out)?;
        return Ok(Outcome::Done);
    };
    let tp = ctx.path(&target);
    let mut fs = ctx.fs.lock();
    let meta = fs.stat(&path);
    if let Err(e) = fs.write_file(&tp, &out) {
        drop(fs);
        return error(ctx, o, &target, &e.to_string());
    }
    if let Ok(m) = meta {
        let _ = fs.chmod(&tp, m.mode);
        let _ = fs.set_times(&tp, Some(m.atime), Some(m.mtime));
    }
    if !o.keep
        && let Err(e) = fs.remove_file(&path)
    {
        drop(fs);
        return error(ctx, o, name, &e.to_string());
    }
    Ok(Outcome::Done)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{fs_with, run_in};

    #[test]
    fn round_trips_and_reports() {
        let fs = fs_with(&[("h", "hello\n")]);
        let (_, err, st) = run_in(&fs, "xz -k h", b"");
        assert_eq!((err.as_str(), st), ("", 0));
        let (_, err, st) = run_in(&fs, "xz -k h", b"");
        assert_eq!((err.as_str(), st), ("xz: h.xz: File exists\n", 1));
        let (out, _, st) = run_in(&fs, "xzcat h.xz", b"");
        assert_eq!((out.as_slice(), st), (&b"hello\n"[..], 0));
        let (_, err, st) = run_in(&fs, "unxz h", b"");
        assert_eq!(
            (err.as_str(), st),
            ("unxz: h: File format not recognized\n", 1)
        );
    }
}
