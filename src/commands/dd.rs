//! `dd`: copies blocks from `if=` to `of=` (standard streams by default) with GNU's
//! operands, conversions (`conv=ascii,ebcdic,ibm,block,unblock,ucase,lcase,swab,sync,
//! notrunc,excl,nocreat` with `cbs=`), flags (`iflag=fullblock,skip_bytes,count_bytes`,
//! `oflag=append,seek_bytes`) and record counts.

use super::about::{write_help, write_version};
use super::args::usage_error;
use super::util::{Input, Reader, lq, quote, quotef};
use super::{CmdResult, Ctx};
use crate::fs::{Device, FileType, Ino, OpenOptions};
use std::io::{Read, Write};

const USAGE: &str = "\
Usage: dd [OPERAND]...
  or:  dd OPTION
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  cbs=BYTES       convert BYTES bytes at a time
  conv=CONVS      convert the file as per the comma separated symbol list
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  iflag=FLAGS     read as per the comma separated symbol list
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  oflag=FLAGS     write as per the comma separated symbol list
  seek=N          (or oseek=N) skip N obs-sized output blocks
  skip=N          (or iseek=N) skip N ibs-sized input blocks
  status=LEVEL    The LEVEL of information to print to stderr;
                  'none' suppresses everything but error messages,
                  'noxfer' suppresses the final transfer statistics,
                  'progress' shows periodic transfer statistics

N and BYTES may be followed by the following multiplicative suffixes:
c=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,
GB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
If N ends in 'B', it counts bytes not blocks.

Each CONV symbol may be:

  ascii     from EBCDIC to ASCII
  ebcdic    from ASCII to EBCDIC
  ibm       from ASCII to alternate EBCDIC
  block     pad newline-terminated records with spaces to cbs-size
  unblock   replace trailing spaces in cbs-size records with newline
  lcase     change upper case to lower case
  ucase     change lower case to upper case
  sparse    try to seek rather than write all-NUL output blocks
  swab      swap every pair of input bytes
  sync      pad every input block with NULs to ibs-size
  excl      fail if the output file already exists
  nocreat   do not create the output file
  notrunc   do not truncate the output file
  noerror   continue after read errors
  fdatasync  physically write output file data before finishing
  fsync     likewise, but also write metadata

Each FLAG symbol may be:

  append    append mode (makes sense only for output; conv=notrunc suggested)
  fullblock  accumulate full blocks of input (iflag only)
  count_bytes  treat count=N as a byte count (iflag only)
  skip_bytes  treat skip=N as a byte count (iflag only)
  seek_bytes  treat seek=N as a byte count (oflag only)

Options are:

      --help        display this help and exit
      --version     output version information and exit
";

/// The largest count GNU accepts (intmax_t).
const MAX_NUMBER: u64 = i64::MAX as u64;

/// A read from a pipe or device is at most this much, however big `ibs` is, so a huge
/// block size does not allocate a huge buffer up front.
const READ_CHUNK: usize = 1 << 20;

/// The largest block dd allocates: the default per-file size limit. A bigger one is
/// refused as GNU refuses a block it cannot allocate.
const MAX_BLOCK: u64 = 256 << 20;

#[derive(Default)]
struct Opts {
    input: Option<String>,
    output: Option<String>,
    bs: Option<u64>,
    ibs: u64,
    obs: u64,
    count: Option<(u64, bool)>,
    skip: (u64, bool),
    seek: (u64, bool),
    /// `cbs=`: the record size of `block` and `unblock`.
    cbs: Option<u64>,
    ascii: bool,
    ebcdic: bool,
    ibm: bool,
    block: bool,
    unblock: bool,
    /// A conversion that copies through a separate output buffer (GNU's `C_TWOBUFS`).
    convert: bool,
    ucase: bool,
    lcase: bool,
    swab: bool,
    sync: bool,
    notrunc: bool,
    excl: bool,
    nocreat: bool,
    fullblock: bool,
    count_bytes: bool,
    skip_bytes: bool,
    seek_bytes: bool,
    append: bool,
    /// 0 none, 1 noxfer, 2 default/progress.
    status: u8,
}

/// Why an operand value was refused.
enum NumError {
    Invalid,
    TooLarge,
}

/// A multiplier suffix of GNU `xstrtoumax` with dd's suffix set.
fn suffix_mult(s: &str) -> Option<u64> {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return Some(1);
    };
    let simple = match first {
        'c' | 'B' => Some(1),
        'w' => Some(2),
        'b' => Some(512),
        _ => None,
    };
    if let Some(m) = simple {
        return chars.as_str().is_empty().then_some(m);
    }
    super::util::power_suffix(s, false)
}

/// One factor: digits and an optional suffix.
fn factor(s: &str) -> Result<u64, NumError> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (digits, suffix) = s.split_at(end);
    if digits.is_empty() {
        return Err(NumError::Invalid);
    }
    let mult = suffix_mult(suffix).ok_or(NumError::Invalid)?;
    let n: u64 = digits.parse().map_err(|_| NumError::TooLarge)?;
    let v = n.checked_mul(mult).ok_or(NumError::TooLarge)?;
    if v > MAX_NUMBER {
        return Err(NumError::TooLarge);
    }
    Ok(v)
}

/// GNU dd's `parse_integer`: `N[SUFFIX]` or `N[SUFFIX]xM[SUFFIX]`.
fn parse_number(s: &str) -> Result<u64, NumError> {
    match s.split_once('x') {
        Some((a, b)) => {
            let (x, y) = (factor(a)?, factor(b)?);
            let v = x.checked_mul(y).ok_or(NumError::TooLarge)?;
            if v > MAX_NUMBER {
                return Err(NumError::TooLarge);
            }
            Ok(v)
        }
        None => factor(s),
    }
}

/// A usage problem found while reading operands: the message and whether it is
/// followed by the `Try 'dd --help'` line.
struct Refusal(String, bool);

fn number(value: &str) -> Result<u64, Refusal> {
    if value.starts_with("0x") {
        // GNU warns before refusing; the warning is part of the message.
        return Err(Refusal(
            format!(
                "warning: {} is a zero multiplier; use {} if that is intended\ndd: invalid number: {}",
                lq("0x"),
                lq("00x"),
                lq(value)
            ),
            false,
        ));
    }
    match parse_number(value) {
        Ok(n) => Ok(n),
        Err(NumError::Invalid) => Err(Refusal(format!("invalid number: {}", lq(value)), false)),
        Err(NumError::TooLarge) => Err(Refusal(
            format!(
                "invalid number: {}: Value too large for defined data type",
                lq(value)
            ),
            false,
        )),
    }
}

/// `count=`, `skip=`, `seek=`: a number, counting bytes when it ends in `B`.
fn blocks(value: &str) -> Result<(u64, bool), Refusal> {
    let bytes = value.ends_with('B') && !value.ends_with("kB") && !value.ends_with("iB") && {
        let before = value.get(..value.len() - 1).unwrap_or("");
        before.ends_with(|c: char| c.is_ascii_digit())
    };
    Ok((number(value)?, bytes))
}

fn parse_opts(args: &[String]) -> Result<Opts, Refusal> {
    let mut o = Opts {
        ibs: 512,
        obs: 512,
        status: 2,
        ..Opts::default()
    };
    for arg in args {
        let Some((key, value)) = arg.split_once('=') else {
            return Err(Refusal(format!("unrecognized operand {}", lq(arg)), true));
        };
        let size = |v: &str| -> Result<u64, Refusal> {
            match number(v)? {
                0 => Err(Refusal(format!("invalid number: {}", lq(v)), false)),
                n => Ok(n),
            }
        };
        match key {
            "if" => o.input = Some(value.to_owned()),
            "of" => o.output = Some(value.to_owned()),
            "bs" => o.bs = Some(size(value)?),
            "ibs" => o.ibs = size(value)?,
            "obs" => o.obs = size(value)?,
            "cbs" => o.cbs = Some(size(value)?),
            "count" => o.count = Some(blocks(value)?),
            "skip" | "iseek" => o.skip = blocks(value)?,
            "seek" | "oseek" => o.seek = blocks(value)?,
            "conv" => {
                for sym in value.split(',') {
                    o.convert |= matches!(
                        sym,
                        "ascii"
                            | "ebcdic"
                            | "ibm"
                            | "block"
                            | "unblock"
                            | "ucase"
                            | "lcase"
                            | "swab"
                    );
                    match sym {
                        "ascii" => {
                            o.ascii = true;
                            o.unblock = true;
                        }
                        "ebcdic" => {
                            o.ebcdic = true;
                            o.block = true;
                        }
                        "ibm" => {
                            o.ibm = true;
                            o.block = true;
                        }
                        "block" => o.block = true,
                        "unblock" => o.unblock = true,
                        "ucase" => o.ucase = true,
                        "lcase" => o.lcase = true,
                        "swab" => o.swab = true,
                        "sync" => o.sync = true,
                        "notrunc" => o.notrunc = true,
                        "excl" => o.excl = true,
                        "nocreat" => o.nocreat = true,
                        "noerror" | "fsync" | "fdatasync" | "sparse" => {}
                        _ => {
                            return Err(Refusal(format!("invalid conversion: {}", lq(sym)), true));
                        }
                    }
                }
            }
            "iflag" | "oflag" => {
                let input = key == "iflag";
                for sym in value.split(',') {
                    match (sym, input) {
                        ("fullblock", true) => o.fullblock = true,
                        ("count_bytes", true) => o.count_bytes = true,
                        ("skip_bytes", true) => o.skip_bytes = true,
                        ("seek_bytes", false) => o.seek_bytes = true,
                        ("append", false) => o.append = true,
                        (
                            "append" | "direct" | "directory" | "dsync" | "sync" | "nonblock"
                            | "noatime" | "nocache" | "noctty" | "nofollow" | "binary" | "text",
                            _,
                        ) => {}
                        _ => {
                            let which = if input { "input" } else { "output" };
                            return Err(Refusal(
                                format!("invalid {which} flag: {}", lq(sym)),
                                true,
                            ));
                        }
                    }
                }
            }
            "status" => {
                o.status = match value {
                    "none" => 0,
                    "noxfer" => 1,
                    "progress" => 2,
                    _ => {
                        return Err(Refusal(
                            format!("invalid status level: {}", lq(value)),
                            true,
                        ));
                    }
                }
            }
            _ => return Err(Refusal(format!("unrecognized operand {}", lq(arg)), true)),
        }
    }
    // Records are blocked or unblocked only with a record size.
    if o.cbs.is_none() {
        o.block = false;
        o.unblock = false;
    }
    if [o.ascii, o.ebcdic, o.ibm].iter().filter(|b| **b).count() > 1 {
        return Err(Refusal(
            "cannot combine any two of {ascii,ebcdic,ibm}".to_owned(),
            false,
        ));
    }
    if o.block && o.unblock {
        return Err(Refusal(
            "cannot combine block and unblock".to_owned(),
            false,
        ));
    }
    if o.ucase && o.lcase {
        return Err(Refusal("cannot combine lcase and ucase".to_owned(), false));
    }
    if o.excl && o.nocreat {
        return Err(Refusal("cannot combine excl and nocreat".to_owned(), false));
    }
    if let Some(bs) = o.bs {
        o.ibs = bs;
        o.obs = bs;
    }
    Ok(o)
}

/// Where the copy goes.
enum Sink {
    Stdout,
    File {
        ino: Ino,
        offset: u64,
    },
    /// A FIFO's reader or a process substitution `>(...)` the host joined.
    Stream(Box<dyn Write + Send>),
}

/// The running totals of the copy.
#[derive(Default)]
struct Stats {
    r_full: u64,
    r_partial: u64,
    w_full: u64,
    w_partial: u64,
    bytes: u64,
    /// Lines `conv=block` cut at `cbs`.
    truncated: u64,
}

/// What went wrong writing: a stream error (a closed pipe, a limit), which ends dd as
/// it ends any writer, or a file's error, already worded.
enum WriteFailed {
    Io(std::io::Error),
    Msg(String),
}

struct Writer<'n> {
    sink: Sink,
    name: &'n str,
    append: bool,
    stats: Stats,
}

impl Writer<'_> {
    /// Writes one output block.
    fn put(&mut self, ctx: &mut Ctx, data: &[u8], full: bool) -> Result<(), WriteFailed> {
        if data.is_empty() {
            return Ok(());
        }
        match &mut self.sink {
            Sink::Stdout => {
                ctx.stdout.write_all(data).map_err(WriteFailed::Io)?;
            }
            Sink::Stream(w) => {
                w.write_all(data).map_err(WriteFailed::Io)?;
            }
            Sink::File { ino, offset } => {
                let mut fs = ctx.fs.lock();
                if self.append {
                    *offset = fs.stat_ino(*ino).map_or(*offset, |m| m.size);
                }
                match fs.write_at(*ino, *offset, data) {
                    Ok(end) => *offset = end,
                    Err(e) => {
                        return Err(WriteFailed::Msg(format!(
                            "error writing {}: {e}",
                            quote(self.name)
                        )));
                    }
                }
            }
        }
        self.stats.bytes += data.len() as u64;
        if full {
            self.stats.w_full += 1;
        } else {
            self.stats.w_partial += 1;
        }
        Ok(())
    }
}

/// GNU `human_readable` with autoscaling and one decimal below 10: `5.0 kB`, `3.0 MiB`.
fn human(n: u64, base: u64) -> String {
    let units: [&str; 8] = if base == 1000 {
        ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"]
    } else {
        ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"]
    };
    if n < base {
        return format!("{n} B");
    }
    let mut v = n as f64;
    let mut unit = "";
    for u in units {
        v /= base as f64;
        unit = u;
        if v < base as f64 {
            break;
        }
    }
    if v < 10.0 {
        let r = (v * 10.0).round() / 10.0;
        if r < 10.0 {
            return format!("{r:.1} {unit}");
        }
    }
    format!("{:.0} {unit}", v.round())
}

/// GNU's `%g`: six significant digits, trailing zeros dropped.
fn fmt_g(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    let exp = x.abs().log10().floor() as i32;
    if !(-4..6).contains(&exp) {
        let s = format!("{:.5e}", x);
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let m = m.trim_end_matches('0').trim_end_matches('.');
        let e: i32 = e.parse().unwrap_or(0);
        let sign = if e < 0 { '-' } else { '+' };
        return format!("{m}e{sign}{:02}", e.abs());
    }
    let decimals = usize::try_from(5 - exp).unwrap_or(0);
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

fn summary(ctx: &mut Ctx, st: &Stats, level: u8, nanos: i64) -> std::io::Result<()> {
    if level == 0 {
        return Ok(());
    }
    let mut text = format!(
        "{}+{} records in\n{}+{} records out\n",
        st.r_full, st.r_partial, st.w_full, st.w_partial
    );
    if st.truncated > 0 {
        let s = if st.truncated == 1 { "" } else { "s" };
        text.push_str(&format!("{} truncated record{s}\n", st.truncated));
    }
    if level >= 2 {
        let n = st.bytes;
        let (si, iec) = (human(n, 1000), human(n, 1024));
        let amount = if n < 1000 {
            format!("{n} byte{}", if n == 1 { "" } else { "s" })
        } else if n < 1024 {
            format!("{n} bytes ({si})")
        } else {
            format!("{n} bytes ({si}, {iec})")
        };
        let (secs, rate) = if nanos > 0 {
            let secs = nanos as f64 / 1e9;
            let per = (n as f64 / secs) as u64;
            (fmt_g(secs), human(per, 1000))
        } else {
            ("0".to_owned(), "Infinity B".to_owned())
        };
        text.push_str(&format!("{amount} copied, {secs} s, {rate}/s\n"));
    }
    ctx.stderr.write_all(text.as_bytes())
}

/// Reads one input block (at most `want` bytes) into `buf`. A device fills it; a pipe
/// gives what one read gives unless `iflag=fullblock`. Device bytes are charged to the
/// I/O budget, as bytes from a pipe are where they were written.
fn read_block(
    ctx: &mut Ctx,
    reader: &mut Reader<'_>,
    counted: bool,
    want: usize,
    fullblock: bool,
    buf: &mut Vec<u8>,
) -> std::io::Result<()> {
    buf.clear();
    loop {
        let room = want.saturating_sub(buf.len()).min(READ_CHUNK);
        if room == 0 {
            return Ok(());
        }
        if counted {
            ctx.host.charge_io(room)?;
        }
        let start = buf.len();
        buf.resize(start + room, 0);
        let slot = buf.get_mut(start..).unwrap_or_default();
        let n = match &mut *reader {
            Reader::Stdin(_) => ctx.stdin.read(slot)?,
            other => other.read(slot)?,
        };
        buf.truncate(start + n);
        ctx.host.check()?;
        if n == 0 || (!fullblock && matches!(reader, Reader::Stdin(_))) {
            return Ok(());
        }
    }
}

pub fn dd(ctx: &mut Ctx) -> CmdResult {
    match ctx.args {
        [a] if a == "--help" => {
            write_help(ctx, USAGE)?;
            return Ok(0);
        }
        [a] if a == "--version" => {
            write_version(ctx)?;
            return Ok(0);
        }
        _ => {}
    }
    let o = match parse_opts(ctx.args) {
        Ok(o) => o,
        Err(Refusal(msg, true)) => return usage_error(ctx, &msg, 1),
        Err(Refusal(msg, false)) => {
            ctx.err(msg)?;
            return Ok(1);
        }
    };
    if o.ibs > MAX_BLOCK || o.obs > MAX_BLOCK {
        ctx.err("memory exhausted")?;
        return Ok(1);
    }
    let started = ctx.fs.lock().clock().now().as_nanos();

    // Input.
    let in_name = o.input.clone().unwrap_or_else(|| "-".to_owned());
    let input = match ctx.open_input(&in_name) {
        Ok(i) => i,
        Err(super::util::OpenError::Limit(e)) => return Err(e),
        Err(e) if e.is(crate::fs::Errno::EISDIR) => {
            ctx.err(format!("error reading {}: {e}", quote(&in_name)))?;
            return Ok(1);
        }
        Err(e) => {
            ctx.err(format!("failed to open {}: {e}", quote(&in_name)))?;
            return Ok(1);
        }
    };
    let counted = matches!(input, Input::Zero | Input::Random);
    let in_display = if o.input.is_some() {
        in_name.clone()
    } else {
        "standard input".to_owned()
    };

    // Output.
    let out_name = o.output.clone().unwrap_or_default();
    let seek_bytes = if o.seek.1 || o.seek_bytes {
        o.seek.0
    } else {
        o.seek.0.saturating_mul(o.obs)
    };
    let sink = match &o.output {
        None => Sink::Stdout,
        Some(name) => {
            let path = ctx.path(name);
            let fs = ctx.fs.lock();
            let to_stdout = matches!(
                fs.stat(&path).map(|m| m.file_type),
                Ok(FileType::Device(Device::Stdout))
            );
            drop(fs);
            let stream = if to_stdout || name.is_empty() {
                None
            } else {
                ctx.host.open_write(&path).transpose()?
            };
            let mut fs = ctx.fs.lock();
            if to_stdout {
                Sink::Stdout
            } else if let Some(w) = stream {
                Sink::Stream(w)
            } else {
                let opts = OpenOptions {
                    write: true,
                    create: !o.nocreat,
                    exclusive: o.excl,
                    truncate: !o.notrunc && o.seek.0 == 0 && !o.append,
                    mode: Some(ctx.file_mode()),
                    ..OpenOptions::default()
                };
                let opened = if name.is_empty() {
                    Err(crate::fs::Errno::ENOENT.into())
                } else {
                    fs.open(&path, opts)
                };
                match opened {
                    Ok(ino) => {
                        if !o.notrunc && seek_bytes > 0 && !o.append {
                            let is_file = fs.stat_ino(ino).is_ok_and(|m| m.is_file());
                            if is_file && let Err(e) = fs.truncate_ino(ino, seek_bytes) {
                                drop(fs);
                                ctx.err(format!(
                                    "failed to truncate to {seek_bytes} bytes in output file {}: {e}",
                                    quote(name)
                                ))?;
                                return Ok(1);
                            }
                        }
                        let offset = if o.append {
                            fs.stat_ino(ino).map_or(0, |m| m.size)
                        } else {
                            seek_bytes
                        };
                        Sink::File { ino, offset }
                    }
                    Err(e) => {
                        drop(fs);
                        ctx.err(format!("failed to open {}: {e}", quote(name)))?;
                        return Ok(1);
                    }
                }
            }
        }
    };
    let out_display = if o.output.is_some() {
        out_name.as_str()
    } else {
        "standard output"
    };
    let mut w = Writer {
        sink,
        name: out_display,
        append: o.append,
        stats: Stats::default(),
    };

    let ibs = usize::try_from(o.ibs).unwrap_or(usize::MAX);
    let obs = usize::try_from(o.obs).unwrap_or(usize::MAX);
    let mut status = 0;

    // Skipping input: in-memory files and devices seek; a pipe is read and dropped.
    let skip_total = if o.skip.1 || o.skip_bytes {
        o.skip.0
    } else {
        o.skip.0.saturating_mul(o.ibs)
    };
    // The reader never reads its stdin: stdin is read through `ctx` so that the rest
    // of `ctx` stays usable while the reader lives.
    let mut no_stdin = std::io::empty();
    let mut reader = input.reader(&mut no_stdin);
    let mut buf = Vec::new();
    match &mut reader {
        Reader::Bytes(data, pos) => {
            let len = data.len() as u64;
            if skip_total > len {
                *pos = data.len();
                if o.status > 0 {
                    let msg = format!("{}: cannot skip to specified offset\n", quotef(&in_display));
                    ctx.stderr.write_all(format!("dd: {msg}").as_bytes())?;
                }
            } else {
                *pos = usize::try_from(skip_total).unwrap_or(usize::MAX);
            }
        }
        Reader::Zero | Reader::Random(_) => {}
        Reader::Stream(r) => {
            // A FIFO cannot seek: skipping reads past the bytes.
            let mut left = skip_total;
            let mut chunk = vec![0u8; 64 * 1024];
            while left > 0 {
                let want = usize::try_from(left).unwrap_or(usize::MAX).min(chunk.len());
                let n = r.read(chunk.get_mut(..want).unwrap_or_default())?;
                ctx.host.check()?;
                if n == 0 {
                    break;
                }
                left -= n as u64;
            }
        }
        Reader::Stdin(_) => {
            let mut left = skip_total;
            let mut chunk = vec![0u8; 64 * 1024];
            while left > 0 {
                let want = usize::try_from(left).unwrap_or(usize::MAX).min(chunk.len());
                let n = ctx.stdin.read(chunk.get_mut(..want).unwrap_or_default())?;
                ctx.host.check()?;
                if n == 0 {
                    if o.status > 0 {
                        let msg =
                            format!("{}: cannot skip to specified offset\n", quote(&in_display));
                        ctx.stderr.write_all(format!("dd: {msg}").as_bytes())?;
                    }
                    break;
                }
                left -= n as u64;
            }
        }
    }

    // Seeking on standard output writes NULs, as GNU does where it cannot lseek.
    if matches!(w.sink, Sink::Stdout) && seek_bytes > 0 {
        let mut left = seek_bytes;
        let zeros = vec![0u8; 64 * 1024];
        while left > 0 {
            let n = usize::try_from(left).unwrap_or(usize::MAX).min(zeros.len());
            ctx.host.charge_io(n)?;
            ctx.host.check()?;
            ctx.stdout.write_all(zeros.get(..n).unwrap_or_default())?;
            left -= n as u64;
        }
    }

    let (count_limit, count_in_bytes) = match o.count {
        Some((n, b)) => (Some(n), b || o.count_bytes),
        None => (None, false),
    };
    let two_bufs = o.bs.is_none() || o.convert;
    let mut conv = Converter::new(&o);
    let mut obuf: Vec<u8> = Vec::new();
    let mut bytes_in: u64 = 0;
    let mut pending_swab: Option<u8> = None;
    let mut failed: Option<WriteFailed> = None;
    loop {
        let want = match count_limit {
            Some(n) if count_in_bytes => {
                let left = n.saturating_sub(bytes_in);
                if left == 0 {
                    break;
                }
                ibs.min(usize::try_from(left).unwrap_or(usize::MAX))
            }
            Some(n) => {
                if w.stats.r_full + w.stats.r_partial >= n {
                    break;
                }
                ibs
            }
            None => ibs,
        };
        if let Reader::Bytes(data, pos) = &mut reader {
            let rest = data.get(*pos..).unwrap_or_default();
            let n = rest.len().min(want);
            buf.clear();
            buf.extend_from_slice(rest.get(..n).unwrap_or_default());
            *pos += n;
            ctx.host.check()?;
        } else {
            read_block(ctx, &mut reader, counted, want, o.fullblock, &mut buf)?;
        }
        if buf.is_empty() {
            break;
        }
        bytes_in += buf.len() as u64;
        if buf.len() < ibs {
            w.stats.r_partial += 1;
            if o.sync {
                ctx.host.charge_io(ibs - buf.len())?;
                let pad = if o.block || o.unblock { b' ' } else { 0 };
                buf.resize(ibs, pad);
            }
        } else {
            w.stats.r_full += 1;
        }
        conv.translate(&mut buf);
        if o.swab {
            let mut out = Vec::with_capacity(buf.len() + 1);
            let mut iter = buf.iter().copied();
            if let Some(p) = pending_swab.take() {
                match iter.next() {
                    Some(b) => out.extend_from_slice(&[b, p]),
                    None => pending_swab = Some(p),
                }
            }
            let rest: Vec<u8> = iter.collect();
            let mut pairs = rest.chunks_exact(2);
            for pair in pairs.by_ref() {
                if let [a, b] = pair {
                    out.extend_from_slice(&[*b, *a]);
                }
            }
            if let [last] = pairs.remainder() {
                pending_swab = Some(*last);
            }
            buf = out;
        }
        conv.records(&mut buf, &mut w.stats.truncated);
        if two_bufs {
            obuf.extend_from_slice(&buf);
            if let Err(e) = put_blocks(ctx, &mut w, &mut obuf, obs) {
                failed = Some(e);
            }
        } else {
            let full = buf.len() == ibs;
            if let Err(e) = w.put(ctx, &buf, full) {
                failed = Some(e);
            }
        }
        if failed.is_some() {
            break;
        }
    }
    if failed.is_none() {
        let mut last = Vec::new();
        if let Some(p) = pending_swab.take() {
            last.push(p);
            conv.records(&mut last, &mut w.stats.truncated);
        }
        conv.finish(&mut last);
        // Conversions imply the output buffer, so this is only ever added to it.
        obuf.extend_from_slice(&last);
        if let Err(e) = put_blocks(ctx, &mut w, &mut obuf, obs) {
            failed = Some(e);
        }
        if failed.is_none() && !obuf.is_empty() {
            let tail = std::mem::take(&mut obuf);
            let full = tail.len() == obs;
            if let Err(e) = w.put(ctx, &tail, full) {
                failed = Some(e);
            }
        }
    }
    match failed {
        Some(WriteFailed::Io(e)) => return Err(e),
        Some(WriteFailed::Msg(msg)) => {
            ctx.err(msg)?;
            status = 1;
        }
        None => {}
    }
    let ended = ctx.fs.lock().clock().now().as_nanos();
    summary(ctx, &w.stats, o.status, ended.saturating_sub(started))?;
    Ok(status)
}

/// Writes the whole `obs`-sized blocks at the front of `obuf`, keeping the rest.
fn put_blocks(
    ctx: &mut Ctx,
    w: &mut Writer<'_>,
    obuf: &mut Vec<u8>,
    obs: usize,
) -> Result<(), WriteFailed> {
    let mut start = 0;
    let mut result = Ok(());
    while obuf.len() - start >= obs {
        let block = obuf.get(start..start + obs).unwrap_or_default();
        if let Err(e) = w.put(ctx, block, true) {
            result = Err(e);
            break;
        }
        start += obs;
    }
    obuf.drain(..start);
    result
}

/// The byte conversions of `conv=`: one translation table (character set, then case,
/// composed as GNU composes them) and the record reshaping of `block`/`unblock`.
struct Converter {
    table: Option<[u8; 256]>,
    /// `cbs` when blocking (`Some(true)`) or unblocking (`Some(false)`).
    records: Option<(usize, bool)>,
    newline: u8,
    space: u8,
    /// Column in the current record.
    col: usize,
    /// Spaces seen by `unblock` that are written only if something follows them.
    pending_spaces: usize,
}

impl Converter {
    fn new(o: &Opts) -> Converter {
        let mut table: [u8; 256] = std::array::from_fn(|i| i as u8);
        let mut translate = false;
        let compose = |t: &mut [u8; 256], by: &[u8; 256]| {
            for b in t.iter_mut() {
                *b = by.get(usize::from(*b)).copied().unwrap_or(*b);
            }
        };
        if o.ascii {
            let mut to_ascii = [0u8; 256];
            for (a, &e) in ASCII_TO_EBCDIC.iter().enumerate() {
                if let Some(slot) = to_ascii.get_mut(usize::from(e)) {
                    *slot = a as u8;
                }
            }
            compose(&mut table, &to_ascii);
            translate = true;
        }
        if o.ucase {
            table.iter_mut().for_each(|b| b.make_ascii_uppercase());
            translate = true;
        } else if o.lcase {
            table.iter_mut().for_each(|b| b.make_ascii_lowercase());
            translate = true;
        }
        let (mut newline, mut space) = (b'\n', b' ');
        if o.ebcdic || o.ibm {
            let mut by = ASCII_TO_EBCDIC;
            if o.ibm {
                // IBM's table puts `^`, `~` and three bytes above 127 elsewhere.
                for (a, e) in IBM_DIFFERENCES {
                    if let Some(slot) = by.get_mut(usize::from(a)) {
                        *slot = e;
                    }
                }
            }
            compose(&mut table, &by);
            translate = true;
            newline = by.get(usize::from(b'\n')).copied().unwrap_or(newline);
            space = by.get(usize::from(b' ')).copied().unwrap_or(space);
        }
        let cbs = o
            .cbs
            .map_or(0, |c| usize::try_from(c).unwrap_or(usize::MAX));
        let records = if o.block {
            Some((cbs, true))
        } else if o.unblock {
            Some((cbs, false))
        } else {
            None
        };
        Converter {
            table: translate.then_some(table),
            records,
            newline,
            space,
            col: 0,
            pending_spaces: 0,
        }
    }

    fn translate(&self, buf: &mut [u8]) {
        if let Some(t) = &self.table {
            for b in buf.iter_mut() {
                *b = t.get(usize::from(*b)).copied().unwrap_or(*b);
            }
        }
    }

    /// Reshapes `buf` into fixed records (`block`: lines padded with spaces or cut,
    /// counting the cut ones in `truncated`) or back into lines (`unblock`: trailing
    /// spaces of each record dropped, a newline after it).
    fn records(&mut self, buf: &mut Vec<u8>, truncated: &mut u64) {
        let Some((cbs, block)) = self.records else {
            return;
        };
        let mut out = Vec::with_capacity(buf.len() + buf.len() / cbs.max(1) + 1);
        if block {
            for &c in buf.iter() {
                if c == self.newline {
                    out.resize(out.len() + cbs.saturating_sub(self.col), self.space);
                    self.col = 0;
                } else {
                    if self.col == cbs {
                        *truncated += 1;
                    } else if self.col < cbs {
                        out.push(c);
                    }
                    self.col = self.col.saturating_add(1);
                }
            }
        } else {
            let mut i = 0;
            while let Some(&c) = buf.get(i) {
                self.col += 1;
                if self.col > cbs {
                    self.col = 0;
                    self.pending_spaces = 0;
                    out.push(self.newline);
                    continue;
                }
                if c == self.space {
                    self.pending_spaces += 1;
                } else {
                    out.resize(out.len() + self.pending_spaces, self.space);
                    self.pending_spaces = 0;
                    out.push(c);
                }
                i += 1;
            }
        }
        *buf = out;
    }

    /// The end of the input: the last record padded (`block`) or ended (`unblock`).
    fn finish(&mut self, out: &mut Vec<u8>) {
        match self.records {
            Some((cbs, true)) if self.col > 0 => {
                out.resize(out.len() + cbs.saturating_sub(self.col), self.space);
            }
            Some((_, false)) if self.col > 0 => out.push(self.newline),
            _ => {}
        }
    }
}

/// `conv=ebcdic`: ASCII to EBCDIC (the table POSIX gives, as GNU dd has it). It is a
/// permutation: `conv=ascii` is its inverse.
const ASCII_TO_EBCDIC: [u8; 256] = [
    0x00, 0x01, 0x02, 0x03, 0x37, 0x2d, 0x2e, 0x2f, 0x16, 0x05, 0x25, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x3c, 0x3d, 0x32, 0x26, 0x18, 0x19, 0x3f, 0x27, 0x1c, 0x1d, 0x1e, 0x1f,
    0x40, 0x5a, 0x7f, 0x7b, 0x5b, 0x6c, 0x50, 0x7d, 0x4d, 0x5d, 0x5c, 0x4e, 0x6b, 0x60, 0x4b, 0x61,
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0x7a, 0x5e, 0x4c, 0x7e, 0x6e, 0x6f,
    0x7c, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6,
    0xd7, 0xd8, 0xd9, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xad, 0xe0, 0xbd, 0x9a, 0x6d,
    0x79, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96,
    0x97, 0x98, 0x99, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xc0, 0x4f, 0xd0, 0x5f, 0x07,
    0x20, 0x21, 0x22, 0x23, 0x24, 0x15, 0x06, 0x17, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x09, 0x0a, 0x1b,
    0x30, 0x31, 0x1a, 0x33, 0x34, 0x35, 0x36, 0x08, 0x38, 0x39, 0x3a, 0x3b, 0x04, 0x14, 0x3e, 0xe1,
    0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,
    0x58, 0x59, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75,
    0x76, 0x77, 0x78, 0x80, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x6a, 0x9b, 0x9c, 0x9d, 0x9e,
    0x9f, 0xa0, 0xaa, 0xab, 0xac, 0x4a, 0xae, 0xaf, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
    0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xa1, 0xbe, 0xbf, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xda, 0xdb,
    0xdc, 0xdd, 0xde, 0xdf, 0xea, 0xeb, 0xec, 0xed, 0xee, 0xef, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
];

/// `conv=ibm`: where IBM's ASCII-to-EBCDIC table differs from [`ASCII_TO_EBCDIC`].
const IBM_DIFFERENCES: [(u8, u8); 5] = [
    (94, 0x5f),
    (126, 0xa1),
    (203, 0x9a),
    (213, 0xad),
    (229, 0xbd),
];

#[cfg(test)]
mod tests {
    use super::{fmt_g, human, parse_number};
    use crate::commands::testing::check;

    #[test]
    fn numbers_and_units() {
        for (s, want) in [
            ("10", Some(10)),
            ("2x3", Some(6)),
            ("1K", Some(1024)),
            ("1kB", Some(1000)),
            ("1w", Some(2)),
            ("1b", Some(512)),
            ("5B", Some(5)),
            ("1KiB", Some(1024)),
            ("1m", None),
            ("1x2x3", None),
            ("", None),
        ] {
            assert_eq!(parse_number(s).ok(), want, "{s}");
        }
        assert_eq!(human(5000, 1000), "5.0 kB");
        assert_eq!(human(5000, 1024), "4.9 KiB");
        assert_eq!(human(3_145_728, 1000), "3.1 MB");
        assert_eq!(fmt_g(0.00273283), "0.00273283");
        assert_eq!(fmt_g(1.7354e-05), "1.7354e-05");
    }

    #[test]
    fn dd_table() {
        check(
            &[("f", "abcdefghij")],
            "dd if=f bs=4 count=2 status=none conv=ucase",
            "",
            ("ABCDEFGH", "", 0),
        );
        check(
            &[],
            "dd if=/dev/zero bs=1 count=3 status=noxfer",
            "",
            ("\0\0\0", "3+0 records in\n3+0 records out\n", 0),
        );
    }
}
