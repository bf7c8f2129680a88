//! `bzip2`, `bunzip2` and `bzcat` as bzip2 1.0.8 behaves, using the `bzip2` crate over
//! its pure-Rust port of libbzip2 (so the compressed bytes are libbzip2's). Flags may
//! come anywhere before `--`; `bzip2 FILE` replaces it with `FILE.bz2`, `-d` reverses
//! (`.bz2 .bz .tbz2 .tbz`, else `FILE.out`), `-c` writes to stdout, `-t` tests, and a
//! corrupt stream ends the run with status 2 as the real tool's `cleanUpAndFail` does.

use std::io::Write;

use bzip2::{Compression, Decompress, Status};

use super::gzip::{inflate_cap, too_big};
use super::{CmdResult, Ctx};

/// The compressed suffixes and what each becomes when decompressed.
const SUFFIXES: [(&str, &str); 4] = [
    (".bz2", ""),
    (".bz", ""),
    (".tbz2", ".tar"),
    (".tbz", ".tar"),
];

const LICENSE: &str = "\
bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.
   
   Copyright (C) 1996-2019 by Julian Seward.
   
   This program is free software; you can redistribute it and/or modify
   it under the terms set out in the LICENSE file, which is included
   in the bzip2 source distribution.
   
   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   LICENSE file for more details.
   
";

const USAGE_TAIL: &str = " [flags and input files in any order]

   -h --help           print this message
   -d --decompress     force decompression
   -z --compress       force compression
   -k --keep           keep (don't delete) input files
   -f --force          overwrite existing output files
   -t --test           test compressed file integrity
   -c --stdout         output to standard out
   -q --quiet          suppress noncritical error messages
   -v --verbose        be verbose (a 2nd -v gives more)
   -L --license        display software version & license
   -V --version        display software version & license
   -s --small          use less memory (at most 2500k)
   -1 .. -9            set block size to 100k .. 900k
   --fast              alias for -1
   --best              alias for -9

   If invoked as `bzip2', default action is to compress.
              as `bunzip2',  default action is to decompress.
              as `bzcat', default action is to decompress to stdout.

   If no file names are given, bzip2 compresses or decompresses
   from standard input to standard output.  You can combine
   short flags, so `-v -4' means the same as -v4 or -4v, &c.

";

const RECOVER: &str = "You can use the `bzip2recover' program to attempt to recover
data from undamaged sections of corrupted files.
";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Compress,
    Decompress,
    Test,
}

/// bzip2's source modes: stdin to stdout, file to file, file to stdout.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Src {
    I2O,
    F2F,
    F2O,
}

struct Run {
    prog: String,
    op: Op,
    src: Src,
    keep: bool,
    force: bool,
    noisy: bool,
    verbose: bool,
    level: u32,
    /// The longest file name given (at least `(stdin)`'s 7), which verbose lines pad to.
    longest: usize,
    files: usize,
    processed: usize,
}

/// Why a stream did not decompress: bzip2's error classes, and the size limit.
enum Bad {
    Magic,
    Eof,
    Crc,
    TooBig(u64),
}

/// Decompressed data, and whether non-bzip2 bytes followed the last stream.
struct Decoded {
    out: Vec<u8>,
    garbage: bool,
}

pub fn bzip2(ctx: &mut Ctx) -> CmdResult {
    run(ctx)
}

pub fn bunzip2(ctx: &mut Ctx) -> CmdResult {
    run(ctx)
}

pub fn bzcat(ctx: &mut Ctx) -> CmdResult {
    run(ctx)
}

/// The operands: arguments not starting with `-`, and every argument after `--`.
fn operands(args: &[String]) -> Vec<String> {
    let mut decode = true;
    let mut names = Vec::new();
    for a in args {
        if a == "--" {
            decode = false;
        } else if !(decode && a.starts_with('-')) {
            names.push(a.clone());
        }
    }
    names
}

fn usage(ctx: &mut Ctx, prog: &str) -> std::io::Result<()> {
    write!(
        ctx.stderr,
        "{}\n\n   usage: {prog}{USAGE_TAIL}",
        first_line()
    )
}

fn first_line() -> &'static str {
    LICENSE.lines().next().unwrap_or_default()
}

fn run(ctx: &mut Ctx) -> CmdResult {
    let prog = crate::fs::path::file_name(ctx.name).to_owned();
    let names = operands(ctx.args);
    let cat = prog.contains("z2cat") || prog.contains("zcat");
    let mut r = Run {
        op: if cat || prog.contains("unzip") {
            Op::Decompress
        } else {
            Op::Compress
        },
        src: match (names.is_empty(), cat) {
            (true, _) => Src::I2O,
            (false, true) => Src::F2O,
            (false, false) => Src::F2F,
        },
        keep: false,
        force: false,
        noisy: true,
        verbose: false,
        level: 9,
        longest: names.iter().map(String::len).fold(7, usize::max),
        files: names.len(),
        processed: 0,
        prog,
    };
    let args = ctx.args.to_vec();
    let flags = args.iter().take_while(|a| *a != "--");
    for a in flags
        .clone()
        .filter(|a| a.starts_with('-') && !a.starts_with("--"))
    {
        for c in a.chars().skip(1) {
            match c {
                'c' => r.src = Src::F2O,
                'd' => r.op = Op::Decompress,
                'z' => r.op = Op::Compress,
                't' => r.op = Op::Test,
                'f' => r.force = true,
                'k' => r.keep = true,
                's' => {}
                'q' => r.noisy = false,
                'v' => r.verbose = true,
                '1'..='9' => r.level = c.to_digit(10).unwrap_or(9),
                'V' | 'L' => {
                    ctx.stderr.write_all(LICENSE.as_bytes())?;
                    return Ok(0);
                }
                'h' => {
                    usage(ctx, &r.prog)?;
                    return Ok(0);
                }
                _ => {
                    writeln!(ctx.stderr, "{}: Bad flag `{a}'", r.prog)?;
                    usage(ctx, &r.prog)?;
                    return Ok(1);
                }
            }
        }
    }
    for a in flags.filter(|a| a.starts_with("--")) {
        match a.as_str() {
            "--stdout" => r.src = Src::F2O,
            "--decompress" => r.op = Op::Decompress,
            "--compress" => r.op = Op::Compress,
            "--force" => r.force = true,
            "--test" => r.op = Op::Test,
            "--keep" => r.keep = true,
            "--small" | "--exponential" => {}
            "--quiet" => r.noisy = false,
            "--version" | "--license" => {
                ctx.stderr.write_all(LICENSE.as_bytes())?;
                return Ok(0);
            }
            "--repetitive-fast" | "--repetitive-best" => {
                writeln!(
                    ctx.stderr,
                    "{}: {a} is redundant in versions 0.9.5 and above",
                    r.prog
                )?;
            }
            "--fast" => r.level = 1,
            "--best" => r.level = 9,
            "--verbose" => r.verbose = true,
            "--help" => {
                usage(ctx, &r.prog)?;
                return Ok(0);
            }
            _ => {
                writeln!(ctx.stderr, "{}: Bad flag `{a}'", r.prog)?;
                usage(ctx, &r.prog)?;
                return Ok(1);
            }
        }
    }
    if r.src == Src::F2O && names.is_empty() {
        r.src = Src::I2O;
    }
    if r.op == Op::Test && r.src == Src::F2O {
        writeln!(ctx.stderr, "{}: -c and -t cannot be used together.", r.prog)?;
        return Ok(1);
    }
    let targets = if r.src == Src::I2O {
        vec![None]
    } else {
        names.iter().map(|n| Some(n.as_str())).collect()
    };
    let mut status = 0;
    let mut test_failed = false;
    for name in targets {
        ctx.host.check()?;
        if name.is_some() {
            r.processed += 1;
        }
        let st = match r.op {
            Op::Compress => compress_one(ctx, &r, name)?,
            Op::Decompress => match decompress_one(ctx, &r, name)? {
                Some(st) => st,
                None => return Ok(2),
            },
            Op::Test => {
                let st = test_one(ctx, &r, name)?;
                test_failed |= st == 2;
                st
            }
        };
        status = status.max(st);
    }
    if test_failed && r.noisy {
        write!(ctx.stderr, "\n{RECOVER}\n")?;
    }
    Ok(status)
}

/// The input: the named file's bytes (after bzip2's checks) or all of stdin; `Err` is
/// the status of a check that failed, its message written.
fn read_input(ctx: &mut Ctx, r: &Run, name: Option<&str>) -> std::io::Result<Result<Vec<u8>, i32>> {
    let Some(name) = name else {
        let mut data = Vec::new();
        ctx.stdin.read_to_end(&mut data)?;
        return Ok(Ok(data));
    };
    let data = ctx.read_named(&ctx.path(name))?;
    match data {
        Ok(d) => Ok(Ok(d.to_vec())),
        Err(e) => {
            writeln!(ctx.stderr, "{}: {name}: {e}", r.prog)?;
            Ok(Err(1))
        }
    }
}

/// The checks every file operand passes before any data is read, in bzip2's order
/// (`fileExists`, the directory and `notAStandardFile` tests); `Some` is the failure's
/// status. `open_word` is `file ` for compressing and decompressing, none for `-t`.
fn check_input(
    ctx: &mut Ctx,
    r: &Run,
    name: &str,
    open_word: &str,
) -> std::io::Result<Option<i32>> {
    let path = ctx.path(name);
    let meta = ctx.fs.lock().stat(&path);
    let meta = match meta {
        Ok(m) => m,
        Err(e) => {
            writeln!(
                ctx.stderr,
                "{}: Can't open input {open_word}{name}: {e}.",
                r.prog
            )?;
            return Ok(Some(1));
        }
    };
    if r.op == Op::Compress
        && let Some((suffix, _)) = SUFFIXES.iter().find(|(s, _)| name.ends_with(s))
    {
        if r.noisy {
            writeln!(
                ctx.stderr,
                "{}: Input file {name} already has {suffix} suffix.",
                r.prog
            )?;
        }
        return Ok(Some(1));
    }
    if meta.is_dir() {
        writeln!(ctx.stderr, "{}: Input file {name} is a directory.", r.prog)?;
        return Ok(Some(1));
    }
    let linked = ctx.fs.lock().lstat(&path).is_ok_and(|m| m.is_symlink());
    if r.op != Op::Test && r.src == Src::F2F && !r.force && linked {
        if r.noisy {
            writeln!(
                ctx.stderr,
                "{}: Input file {name} is not a normal file.",
                r.prog
            )?;
        }
        return Ok(Some(1));
    }
    Ok(None)
}

/// Output to a file must not replace one unless forced (`-f` removes it first).
fn output_taken(ctx: &mut Ctx, r: &Run, out_name: &str) -> std::io::Result<bool> {
    let path = ctx.path(out_name);
    let exists = ctx.fs.lock().stat(&path).is_ok();
    if !exists {
        return Ok(false);
    }
    if r.force {
        let _ = ctx.fs.lock().remove_file(&path);
        return Ok(false);
    }
    writeln!(
        ctx.stderr,
        "{}: Output file {out_name} already exists.",
        r.prog
    )?;
    Ok(true)
}

/// `  NAME: ` padded to the longest name, which starts every verbose line.
fn verbose_prefix(ctx: &mut Ctx, r: &Run, in_name: &str) -> std::io::Result<()> {
    let pad = r.longest.saturating_sub(in_name.len());
    write!(ctx.stderr, "  {in_name}: {:pad$}", "")
}

/// Writes the result: to stdout, or to the output file with the input's mode and
/// times, removing the input unless `-k`.
fn write_output(
    ctx: &mut Ctx,
    r: &Run,
    name: Option<&str>,
    out_name: &str,
    out: &[u8],
) -> std::io::Result<i32> {
    let Some(name) = name.filter(|_| r.src == Src::F2F) else {
        ctx.stdout.write_all(out)?;
        return Ok(0);
    };
    let path = ctx.path(name);
    let target = ctx.path(out_name);
    let mut fs = ctx.fs.lock();
    let meta = fs.stat(&path);
    if let Err(e) = fs.write_file(&target, out) {
        drop(fs);
        writeln!(ctx.stderr, "{}: {out_name}: {e}", r.prog)?;
        return Ok(1);
    }
    if let Ok(m) = meta {
        let _ = fs.chmod(&target, m.mode);
        let _ = fs.set_times(&target, Some(m.atime), Some(m.mtime));
    }
    if !r.keep
        && let Err(e) = fs.remove_file(&path)
    {
        drop(fs);
        writeln!(ctx.stderr, "{}: {name}: {e}", r.prog)?;
        return Ok(1);
    }
    Ok(0)
}

fn compress_one(ctx: &mut Ctx, r: &Run, name: Option<&str>) -> std::io::Result<i32> {
    let in_name = name.unwrap_or("(stdin)");
    let out_name = format!("{in_name}.bz2");
    if let Some(name) = name {
        if let Some(st) = check_input(ctx, r, name, "file ")? {
            return Ok(st);
        }
        if r.src == Src::F2F && output_taken(ctx, r, &out_name)? {
            return Ok(1);
        }
    }
    let data = match read_input(ctx, r, name)? {
        Ok(d) => d,
        Err(st) => return Ok(st),
    };
    if r.verbose {
        verbose_prefix(ctx, r, in_name)?;
    }
    let level = Compression::try_new(r.level).unwrap_or(Compression::best());
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), level);
    enc.write_all(&data)?;
    let out = enc.finish()?;
    if r.verbose {
        if data.is_empty() {
            writeln!(ctx.stderr, " no data compressed.")?;
        } else {
            let (i, o) = (data.len() as f64, out.len() as f64);
            writeln!(
                ctx.stderr,
                "{:6.3}:1, {:6.3} bits/byte, {:5.2}% saved, {} in, {} out.",
                i / o,
                8.0 * o / i,
                100.0 * (1.0 - o / i),
                data.len(),
                out.len()
            )?;
        }
    }
    write_output(ctx, r, name, &out_name, &out)
}

/// The name a file decompresses to, and whether bzip2 had to guess it (`NAME.out`).
fn output_name(name: &str) -> (String, bool) {
    for (z, plain) in SUFFIXES {
        if let Some(base) = name.strip_suffix(z) {
            return (format!("{base}{plain}"), false);
        }
    }
    (format!("{name}.out"), true)
}

/// Decompresses every stream in `data`, holding at most `cap` bytes when `keep` (and
/// none when testing): the output grows in bounded steps so a bomb ends at the limit.
fn decode(
    ctx: &mut Ctx,
    data: &[u8],
    keep: bool,
    cap: u64,
) -> std::io::Result<Result<Decoded, Bad>> {
    let mut out = Vec::new();
    let mut scratch = vec![0u8; 64 * 1024];
    let mut pos = 0usize;
    let mut first = true;
    loop {
        let rest = data.get(pos..).unwrap_or_default();
        let mut d = Decompress::new(false);
        loop {
            ctx.host.check()?;
            let consumed = usize::try_from(d.total_in()).unwrap_or(usize::MAX);
            let input = rest.get(consumed..).unwrap_or_default();
            let before = (d.total_in(), d.total_out());
            let res = if keep {
                let held = u64::try_from(out.len()).unwrap_or(u64::MAX);
                let room = cap.saturating_add(1).saturating_sub(held);
                if room == 0 {
                    return Ok(Err(Bad::TooBig(cap)));
                }
                out.reserve(usize::try_from(room.min(1 << 20)).unwrap_or(1 << 20));
                d.decompress_vec(input, &mut out)
            } else {
                d.decompress(input, &mut scratch)
            };
            match res {
                Ok(Status::StreamEnd) => break,
                Ok(_) if (d.total_in(), d.total_out()) == before => return Ok(Err(Bad::Eof)),
                Ok(_) => {}
                Err(bzip2::Error::DataMagic) if first => return Ok(Err(Bad::Magic)),
                Err(bzip2::Error::DataMagic) => return Ok(Ok(Decoded { out, garbage: true })),
                Err(_) => return Ok(Err(Bad::Crc)),
            }
        }
        if u64::try_from(out.len()).unwrap_or(u64::MAX) > cap {
            return Ok(Err(Bad::TooBig(cap)));
        }
        pos = pos.saturating_add(usize::try_from(d.total_in()).unwrap_or(usize::MAX));
        first = false;
        if pos >= data.len() {
            return Ok(Ok(Decoded {
                out,
                garbage: false,
            }));
        }
    }
}

/// `Ok(None)` when a corrupt stream ended the whole run (bzip2's `cleanUpAndFail`).
fn decompress_one(ctx: &mut Ctx, r: &Run, name: Option<&str>) -> std::io::Result<Option<i32>> {
    let in_name = name.unwrap_or("(stdin)");
    let (out_name, guessed) = match (name, r.src) {
        (Some(n), Src::F2F) => output_name(n),
        _ => ("(stdout)".to_owned(), false),
    };
    if let Some(name) = name {
        if let Some(st) = check_input(ctx, r, name, "file ")? {
            return Ok(Some(st));
        }
        if guessed && r.noisy {
            writeln!(
                ctx.stderr,
                "{}: Can't guess original name for {name} -- using {out_name}",
                r.prog
            )?;
        }
        if r.src == Src::F2F && output_taken(ctx, r, &out_name)? {
            return Ok(Some(1));
        }
    }
    let data = match read_input(ctx, r, name)? {
        Ok(d) => d,
        Err(st) => return Ok(Some(st)),
    };
    if r.verbose {
        verbose_prefix(ctx, r, in_name)?;
    }
    let cap = inflate_cap(ctx);
    let out = match decode(ctx, &data, true, cap)? {
        Ok(d) => {
            if d.garbage && r.noisy && !r.force {
                writeln!(
                    ctx.stderr,
                    "\n{}: {in_name}: trailing garbage after EOF ignored",
                    r.prog
                )?;
            }
            let mut out = d.out;
            // bzip2 -f rewinds and copies the whole input after the streams it read.
            if d.garbage && r.force {
                out.extend_from_slice(&data);
            }
            out
        }
        Err(Bad::Magic) if r.force => data,
        Err(Bad::Magic) => {
            if r.verbose {
                writeln!(ctx.stderr, "not a bzip2 file.")?;
            } else {
                writeln!(ctx.stderr, "{}: {in_name} is not a bzip2 file.", r.prog)?;
            }
            return Ok(Some(2));
        }
        Err(Bad::TooBig(n)) => return too_big(ctx, &r.prog, in_name, n).map(Some),
        Err(bad) => {
            corrupt(ctx, r, in_name, &out_name, &bad)?;
            return Ok(None);
        }
    };
    let st = write_output(ctx, r, name, &out_name, &out)?;
    if r.verbose {
        writeln!(ctx.stderr, "done")?;
    }
    Ok(Some(st))
}

/// bzip2's report of a stream that ends early or fails its CRC, which stops the run.
fn corrupt(
    ctx: &mut Ctx,
    r: &Run,
    in_name: &str,
    out_name: &str,
    bad: &Bad,
) -> std::io::Result<()> {
    let p = &r.prog;
    if matches!(bad, Bad::Eof) {
        if !r.noisy {
            return Ok(());
        }
        // bzip2 follows with perror(), whose errno is whatever its last call left.
        let errno = match r.src {
            Src::I2O => "Inappropriate ioctl for device",
            Src::F2O => "Success",
            Src::F2F => "No such file or directory",
        };
        write!(
            ctx.stderr,
            "\n{p}: Compressed file ends unexpectedly;\n\tperhaps it is corrupted?  \
             *Possible* reason follows.\n{p}: {errno}\n"
        )?;
    } else {
        write!(
            ctx.stderr,
            "\n{p}: Data integrity error when decompressing.\n"
        )?;
    }
    if !r.noisy {
        return Ok(());
    }
    write!(
        ctx.stderr,
        "\tInput file = {in_name}, output file = {out_name}\n\n\
         It is possible that the compressed file(s) have become corrupted.\n\
         You can use the -tvv option to test integrity of such files.\n\n{RECOVER}\n"
    )?;
    if r.src == Src::F2F {
        writeln!(
            ctx.stderr,
            "{p}: Deleting output file {out_name}, if it exists."
        )?;
    }
    if r.files > 0 && r.processed < r.files {
        write!(
            ctx.stderr,
            "{p}: WARNING: some files have not been processed:\n\
             {p}:    {} specified on command line, {} not processed yet.\n\n",
            r.files,
            r.files - r.processed
        )?;
    }
    Ok(())
}

/// `-t`: decompresses without keeping the output; a bad file is reported and the run
/// goes on (status 2).
fn test_one(ctx: &mut Ctx, r: &Run, name: Option<&str>) -> std::io::Result<i32> {
    let in_name = name.unwrap_or("(stdin)");
    if let Some(name) = name
        && let Some(st) = check_input(ctx, r, name, "")?
    {
        return Ok(st);
    }
    let data = match read_input(ctx, r, name)? {
        Ok(d) => d,
        Err(st) => return Ok(st),
    };
    if r.verbose {
        verbose_prefix(ctx, r, in_name)?;
    }
    let res = decode(ctx, &data, false, 0)?;
    if !r.verbose && !matches!(res, Ok(Decoded { garbage: false, .. })) {
        write!(ctx.stderr, "{}: {in_name}: ", r.prog)?;
    }
    let problem = match res {
        Ok(d) => {
            if d.garbage && r.noisy {
                writeln!(ctx.stderr, "trailing garbage after EOF ignored")?;
            }
            if r.verbose {
                writeln!(ctx.stderr, "ok")?;
            }
            return Ok(0);
        }
        Err(Bad::Magic) => "bad magic number (file not created by bzip2)",
        Err(Bad::Eof | Bad::TooBig(_)) => "file ends unexpectedly",
        Err(Bad::Crc) => "data integrity (CRC) error in data",
    };
    writeln!(ctx.stderr, "{problem}")?;
    Ok(2)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{fs_with, run_in};

    #[test]
    fn round_trips_and_refuses_to_overwrite() {
        let fs = fs_with(&[("h", "hello\n")]);
        let (_, err, st) = run_in(&fs, "bzip2 -k h", b"");
        assert_eq!((err.as_str(), st), ("", 0));
        let (_, err, st) = run_in(&fs, "bzip2 -k h", b"");
        assert_eq!(
            (err.as_str(), st),
            ("bzip2: Output file h.bz2 already exists.\n", 1)
        );
        let (out, _, st) = run_in(&fs, "bzcat h.bz2", b"");
        assert_eq!((out.as_slice(), st), (&b"hello\n"[..], 0));
        let (bz, _, _) = run_in(&fs, "bzip2", b"abc");
        assert!(bz.starts_with(b"BZh9"));
        let (out, _, st) = run_in(&fs, "bunzip2", &bz);
        assert_eq!((out.as_slice(), st), (&b"abc"[..], 0));
    }
}
