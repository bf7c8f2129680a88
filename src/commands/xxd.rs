//! `xxd` (vim's, version 2022-01-14): hex dumps in its normal, little-endian (`-e`),
//! bits (`-b`), plain (`-p`) and C include (`-i`) styles, with `-a -c -C -d -g -l -n
//! -o -s -u`, and the reverse (`-r`, `-r -p`) that writes or patches binary output.
//! Options are read as xxd reads them: by their first two characters (`-ps`, `-cols`),
//! the last style given winning. Not supported: `-E` (EBCDIC).

use std::io::{self, Write};
use std::sync::Arc;

use super::util::Input;
use super::{CmdResult, Ctx};
use crate::fs::{Device, Errno, FileType, Ino, OpenOptions};

const USAGE: &str = "\
Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: \"xxd 2022-01-14 by Juergen Weigert et al.\".
";

/// The most octets a line of the normal styles may hold.
const COLS: i64 = 256;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Normal,
    Plain,
    Include,
    Bits,
    Little,
}

/// A failure that ends xxd: the message (after `xxd: `) and the status.
struct Exit(String, i32);

/// C's `strtol(s, NULL, 0)`: leading blanks, a sign, `0x`/`0` prefixes, digits up to
/// the first that does not fit; saturating.
fn strtol(s: &str) -> i64 {
    let t = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let v = strtoul_body(t);
    let v = i64::try_from(v).unwrap_or(i64::MAX);
    if neg { v.saturating_neg() } else { v }
}

/// The unsigned digits of [`strtol`] (C prefixes), saturating at `u64::MAX`.
fn strtoul_body(t: &str) -> u64 {
    let b = t.as_bytes();
    let (radix, digits) = if (t.starts_with("0x") || t.starts_with("0X"))
        && b.get(2).is_some_and(u8::is_ascii_hexdigit)
    {
        (16, &t[2..])
    } else if t.starts_with('0') {
        (8, t)
    } else {
        (10, t)
    };
    let mut v: u64 = 0;
    for c in digits.chars() {
        let Some(d) = c.to_digit(radix) else { break };
        v = v
            .saturating_mul(u64::from(radix))
            .saturating_add(u64::from(d));
    }
    v
}

/// C's `strtoul(s, NULL, 0)` (a `-` negates modulo 2^64).
fn strtoul(s: &str) -> u64 {
    let t = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    match t.as_bytes().first() {
        Some(b'-') => strtoul_body(&t[1..]).wrapping_neg(),
        Some(b'+') => strtoul_body(&t[1..]),
        _ => strtoul_body(t),
    }
}

/// Where bytes come from: a file's contents or standard input, read a byte at a time.
struct Src {
    data: Arc<Vec<u8>>,
    pos: usize,
    stdin: bool,
    buf: Vec<u8>,
    bpos: usize,
    /// Reading fails with this error (a directory).
    fail: Option<String>,
}

impl Src {
    fn getc(&mut self, ctx: &mut Ctx) -> io::Result<Result<Option<u8>, Exit>> {
        if let Some(msg) = &self.fail {
            return Ok(Err(Exit(msg.clone(), 2)));
        }
        if !self.stdin {
            let c = self.data.get(self.pos).copied();
            self.pos += usize::from(c.is_some());
            return Ok(Ok(c));
        }
        if self.bpos >= self.buf.len() {
            ctx.host.check()?;
            self.buf.resize(64 * 1024, 0);
            let n = ctx.stdin.read(&mut self.buf)?;
            self.buf.truncate(n);
            self.bpos = 0;
            if n == 0 {
                return Ok(Ok(None));
            }
        }
        let c = self.buf.get(self.bpos).copied();
        self.bpos += 1;
        Ok(Ok(c))
    }
}

/// Where output goes: standard output, or a file written at a position (so `-r` can
/// seek in it and patch it).
enum Target {
    Stdout,
    File(Ino, u64),
    /// A FIFO's reader or a process substitution `>(...)` the host joined.
    Stream(Box<dyn Write + Send>),
}

struct Sink {
    target: Target,
    buf: Vec<u8>,
}

impl Sink {
    fn flush(&mut self, ctx: &mut Ctx) -> io::Result<Result<(), Exit>> {
        if self.buf.is_empty() {
            return Ok(Ok(()));
        }
        match &mut self.target {
            Target::Stdout => ctx.stdout.write_all(&self.buf)?,
            Target::Stream(w) => w.write_all(&self.buf)?,
            Target::File(ino, pos) => {
                let mut fs = ctx.fs.lock();
                match fs.write_at(*ino, *pos, &self.buf) {
                    Ok(end) => *pos = end,
                    Err(e) => return Ok(Err(Exit(e.to_string(), 3))),
                }
            }
        }
        self.buf.clear();
        ctx.host.check()?;
        Ok(Ok(()))
    }

    fn put(&mut self, ctx: &mut Ctx, bytes: &[u8]) -> io::Result<Result<(), Exit>> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= 64 * 1024 {
            return self.flush(ctx);
        }
        Ok(Ok(()))
    }
}

/// The options as parsed.
struct Opts {
    style: Style,
    autoskip: bool,
    upper: bool,
    capitalize: bool,
    decimal: bool,
    revert: bool,
    cols: i64,
    cols_given: bool,
    group: i64,
    length: i64,
    seek: i64,
    relseek: bool,
    negseek: bool,
    display_off: u64,
    varname: Option<String>,
}

/// What parsing the options ends with.
enum Parse {
    Run(Opts, Vec<String>),
    Usage,
    Version,
    Ebcdic,
}

fn parse_args(args: &[String]) -> Parse {
    let mut o = Opts {
        style: Style::Normal,
        autoskip: false,
        upper: false,
        capitalize: false,
        decimal: false,
        revert: false,
        cols: 0,
        cols_given: false,
        group: -1,
        length: -1,
        seek: 0,
        relseek: true,
        negseek: false,
        display_off: 0,
        varname: None,
    };
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        // `--name` reads as `-name`.
        let pp = if arg.starts_with("--") && arg.len() > 2 {
            &arg[1..]
        } else {
            arg.as_str()
        };
        let rest = pp.get(2..).unwrap_or("");
        // The option's value: attached unless the rest spells the option's long name.
        let value = |long: &[&str], i: &mut usize| -> Option<String> {
            if !rest.is_empty() && !long.iter().any(|l| rest.starts_with(l)) {
                return Some(rest.to_owned());
            }
            *i += 1;
            args.get(*i).cloned()
        };
        match pp.get(..2).unwrap_or(pp) {
            "-a" => o.autoskip = !o.autoskip,
            "-b" => o.style = Style::Bits,
            "-e" => o.style = Style::Little,
            "-u" => o.upper = true,
            "-p" => o.style = Style::Plain,
            "-i" => o.style = Style::Include,
            "-C" => o.capitalize = true,
            "-d" => o.decimal = true,
            "-r" => o.revert = true,
            "-E" => return Parse::Ebcdic,
            "-v" => return Parse::Version,
            "-c" => {
                if rest.starts_with("apitalize") {
                    o.capitalize = true;
                } else {
                    let Some(v) = value(&["ols"], &mut i) else {
                        return Parse::Usage;
                    };
                    o.cols_given = true;
                    o.cols = strtol(&v);
                }
            }
            "-g" => {
                let Some(v) = value(&["roup"], &mut i) else {
                    return Parse::Usage;
                };
                o.group = strtol(&v);
            }
            "-o" => {
                let attached = !rest.is_empty() && !rest.starts_with("ffset");
                let Some(v) = value(&["ffset"], &mut i) else {
                    return Parse::Usage;
                };
                o.display_off = if attached {
                    strtoul(&v)
                } else {
                    let v = v.strip_prefix('+').unwrap_or(&v);
                    match v.strip_prefix('-') {
                        Some(n) => strtoul(n).wrapping_neg(),
                        None => strtoul(v),
                    }
                };
            }
            "-s" => {
                o.relseek = false;
                o.negseek = false;
                let Some(v) = value(&["kip", "eek"], &mut i) else {
                    return Parse::Usage;
                };
                let mut v = v.as_str();
                if let Some(r) = v.strip_prefix('+') {
                    o.relseek = true;
                    v = r;
                }
                if let Some(r) = v.strip_prefix('-') {
                    o.negseek = true;
                    v = r;
                }
                o.seek = strtol(v);
            }
            "-l" => {
                let Some(v) = value(&["en"], &mut i) else {
                    return Parse::Usage;
                };
                o.length = strtol(&v);
            }
            "-n" => {
                let Some(v) = value(&["ame"], &mut i) else {
                    return Parse::Usage;
                };
                o.varname = Some(v);
            }
            _ if pp == "--" => {
                i += 1;
                break;
            }
            _ if pp.starts_with('-') && pp.len() > 1 => return Parse::Usage,
            _ => break,
        }
        i += 1;
    }
    Parse::Run(o, args.get(i..).unwrap_or(&[]).to_vec())
}

pub fn xxd(ctx: &mut Ctx) -> CmdResult {
    let (mut o, files) = match parse_args(ctx.args) {
        Parse::Run(o, f) => (o, f),
        Parse::Usage => {
            ctx.stderr.write_all(USAGE.as_bytes())?;
            return Ok(1);
        }
        Parse::Version => {
            ctx.stderr
                .write_all(b"xxd 2022-01-14 by Juergen Weigert et al.\n")?;
            return Ok(0);
        }
        Parse::Ebcdic => {
            ctx.err("-E (EBCDIC) is not supported")?;
            return Ok(1);
        }
    };
    if !o.cols_given || (o.cols == 0 && o.style != Style::Plain) {
        o.cols = match o.style {
            Style::Plain => 30,
            Style::Include => 12,
            Style::Bits => 6,
            Style::Normal | Style::Little => 16,
        };
    }
    if o.group < 0 {
        o.group = match o.style {
            Style::Bits => 1,
            Style::Normal => 2,
            Style::Little => 4,
            Style::Plain | Style::Include => 0,
        };
    }
    let normal = matches!(o.style, Style::Normal | Style::Bits | Style::Little);
    if (o.style == Style::Plain && o.cols < 0)
        || (o.style != Style::Plain && o.cols < 1)
        || (normal && o.cols > COLS)
    {
        ctx.err(format!("invalid number of columns (max. {COLS})."))?;
        return Ok(1);
    }
    if o.group < 1 || o.group > o.cols {
        o.group = o.cols;
    } else if o.style == Style::Little && (o.group & (o.group - 1)) != 0 {
        ctx.err("number of octets per group must be a power of 2 with -e.")?;
        return Ok(1);
    }
    if files.len() > 2 {
        ctx.stderr.write_all(USAGE.as_bytes())?;
        return Ok(1);
    }
    let infile = files.first().filter(|f| *f != "-");
    let mut src = Src {
        data: Arc::default(),
        pos: 0,
        stdin: infile.is_none(),
        buf: Vec::new(),
        bpos: 0,
        fail: None,
    };
    if let Some(name) = infile {
        match ctx.open_input(name) {
            Ok(Input::Bytes(d)) => src.data = d,
            Ok(input @ Input::Stream(_)) => src.data = input.read_all(&mut *ctx.stdin)?,
            Ok(Input::Stdin) => src.stdin = true,
            Ok(Input::Zero | Input::Random) => {
                ctx.err(format!("{name}: endless input is not supported"))?;
                return Ok(2);
            }
            Err(e) if e.is(Errno::EISDIR) => src.fail = Some(e.to_string()),
            Err(e) => {
                ctx.err(format!("{name}: {e}"))?;
                return Ok(2);
            }
        }
    }
    let target = match files.get(1).filter(|f| *f != "-") {
        None => Target::Stdout,
        Some(name) => match open_output(ctx, name, !o.revert)? {
            Ok(t) => t,
            Err(msg) => {
                ctx.err(format!("{name}: {msg}"))?;
                return Ok(3);
            }
        },
    };
    let mut sink = Sink {
        target,
        buf: Vec::new(),
    };
    let result = if o.revert {
        match o.style {
            Style::Normal | Style::Plain => {
                let base = if o.negseek { -o.seek } else { o.seek };
                revert(ctx, &mut src, &mut sink, &o, base)?
            }
            _ => Err(Exit(
                "Sorry, cannot revert this type of hexdump".to_owned(),
                255,
            )),
        }
    } else {
        dump(ctx, &mut src, &mut sink, &mut o, infile.map(String::as_str))?
    };
    let flushed = sink.flush(ctx)?;
    match result.and(flushed) {
        Ok(()) => Ok(0),
        Err(Exit(msg, status)) => {
            ctx.err(msg)?;
            Ok(status)
        }
    }
}

/// Opens the output file: created if missing, truncated unless reverting (which
/// patches it).
fn open_output(ctx: &mut Ctx, name: &str, truncate: bool) -> io::Result<Result<Target, String>> {
    let path = ctx.path(name);
    let fs = ctx.fs.lock();
    if matches!(
        fs.stat(&path).map(|m| m.file_type),
        Ok(FileType::Device(Device::Stdout))
    ) {
        return Ok(Ok(Target::Stdout));
    }
    drop(fs);
    if let Some(w) = ctx.host.open_write(&path) {
        return Ok(Ok(Target::Stream(w?)));
    }
    let mut fs = ctx.fs.lock();
    let opts = OpenOptions {
        write: true,
        create: true,
        truncate,
        mode: Some(ctx.file_mode()),
        ..OpenOptions::default()
    };
    Ok(fs
        .open(&path, opts)
        .map(|ino| Target::File(ino, 0))
        .map_err(|e| e.to_string()))
}

/// Applies `-s` to the input: a seek on a file, bytes read and dropped on standard
/// input (which cannot seek back or from its end).
fn seek_input(ctx: &mut Ctx, src: &mut Src, o: &mut Opts) -> io::Result<Result<(), Exit>> {
    if o.seek == 0 && !o.negseek && o.relseek {
        return Ok(Ok(()));
    }
    let cannot = || Exit("Sorry, cannot seek.".to_owned(), 4);
    if !src.stdin && src.fail.is_none() {
        let len = src.data.len() as i64;
        let target = if o.negseek { len - o.seek } else { o.seek };
        if target < 0 {
            return Ok(Err(cannot()));
        }
        src.pos = usize::try_from(target).unwrap_or(usize::MAX);
        o.seek = target;
        return Ok(Ok(()));
    }
    if o.negseek {
        return Ok(Err(cannot()));
    }
    for _ in 0..o.seek {
        match src.getc(ctx)? {
            Ok(Some(_)) => {}
            Ok(None) => return Ok(Err(cannot())),
            Err(e) => return Ok(Err(e)),
        }
    }
    Ok(Ok(()))
}

/// Reads the next byte within `-l`, counting it in `n`.
macro_rules! next_byte {
    ($ctx:expr, $src:expr, $o:expr, $n:expr) => {
        if $o.length >= 0 && $n >= $o.length {
            None
        } else {
            match $src.getc($ctx)? {
                Ok(c) => c,
                Err(e) => return Ok(Err(e)),
            }
        }
    };
}

/// Propagates a sink failure out of a function returning `io::Result<Result<_, Exit>>`.
macro_rules! put {
    ($ctx:expr, $sink:expr, $bytes:expr) => {
        if let Err(e) = $sink.put($ctx, $bytes)? {
            return Ok(Err(e));
        }
    };
}

fn dump(
    ctx: &mut Ctx,
    src: &mut Src,
    sink: &mut Sink,
    o: &mut Opts,
    infile: Option<&str>,
) -> io::Result<Result<(), Exit>> {
    if let Err(e) = seek_input(ctx, src, o)? {
        return Ok(Err(e));
    }
    let hex: &[u8; 16] = if o.upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let hexdigit = |v: u8| hex.get(usize::from(v & 15)).copied().unwrap_or(b'0');
    let mut n: i64 = 0;
    match o.style {
        Style::Include => {
            let varname = o.varname.clone().or_else(|| infile.map(str::to_owned));
            let ident = |name: &str| -> Vec<u8> {
                let mut out = Vec::new();
                if name.starts_with(|c: char| c.is_ascii_digit()) {
                    out.extend_from_slice(b"__");
                }
                for &c in name.as_bytes() {
                    out.push(if !c.is_ascii_alphanumeric() {
                        b'_'
                    } else if o.capitalize {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
                out
            };
            if let Some(v) = &varname {
                put!(ctx, sink, b"unsigned char ");
                put!(ctx, sink, &ident(v));
                put!(ctx, sink, b"[] = {\n");
            }
            let mut p: i64 = 0;
            while let Some(c) = next_byte!(ctx, src, o, p) {
                let lead: &[u8] = if p % o.cols != 0 {
                    b", "
                } else if p == 0 {
                    b"  "
                } else {
                    b",\n  "
                };
                put!(ctx, sink, lead);
                let x = if o.upper { b'X' } else { b'x' };
                put!(ctx, sink, &[b'0', x, hexdigit(c >> 4), hexdigit(c)]);
                p += 1;
            }
            if p > 0 {
                put!(ctx, sink, b"\n");
            }
            if let Some(v) = &varname {
                put!(ctx, sink, b"};\nunsigned int ");
                put!(ctx, sink, &ident(v));
                let len = if o.capitalize { "LEN" } else { "len" };
                put!(ctx, sink, format!("_{len} = {p};\n").as_bytes());
            }
        }
        Style::Plain => {
            let mut p = o.cols;
            while let Some(e) = next_byte!(ctx, src, o, n) {
                put!(ctx, sink, &[hexdigit(e >> 4), hexdigit(e)]);
                n += 1;
                if o.cols > 0 {
                    p -= 1;
                    if p == 0 {
                        put!(ctx, sink, b"\n");
                        p = o.cols;
                    }
                }
            }
            if o.cols == 0 || p < o.cols {
                put!(ctx, sink, b"\n");
            }
        }
        Style::Normal | Style::Bits | Style::Little => {
            let cols = usize::try_from(o.cols).unwrap_or(16);
            let grp = usize::try_from(o.group).unwrap_or(1).max(1);
            let grplen = if o.style == Style::Bits {
                8 * grp + 1
            } else {
                2 * grp + 1
            };
            let mut line: Vec<u8> = Vec::new();
            let mut addrlen = 9;
            let mut p = 0usize;
            let mut c = 0usize;
            let mut nonzero = 0;
            let mut skip = Autoskip::default();
            while let Some(e) = next_byte!(ctx, src, o, n) {
                if p == 0 {
                    let addr = (n as u64)
                        .wrapping_add(o.seek as u64)
                        .wrapping_add(o.display_off);
                    let text = if o.decimal {
                        format!("{:08}:", addr as i64)
                    } else {
                        format!("{addr:08x}:")
                    };
                    addrlen = text.len();
                    line.clear();
                    line.extend_from_slice(text.as_bytes());
                    line.resize(addrlen + 3 + (grplen * cols) / grp + cols + 2, b' ');
                }
                let x = if o.style == Style::Little {
                    p ^ (grp - 1)
                } else {
                    p
                };
                let mut pos = addrlen + 1 + (grplen * x) / grp;
                let mut set = |at: usize, b: u8| {
                    if let Some(slot) = line.get_mut(at) {
                        *slot = b;
                    }
                };
                if o.style == Style::Bits {
                    for bit in (0..8).rev() {
                        set(pos, if e & (1 << bit) != 0 { b'1' } else { b'0' });
                        pos += 1;
                    }
                } else {
                    set(pos, hexdigit(e >> 4));
                    set(pos + 1, hexdigit(e));
                }
                if e != 0 {
                    nonzero += 1;
                }
                c = addrlen + 3 + (grplen * cols - 1) / grp + p;
                set(c, if (32..127).contains(&e) { e } else { b'.' });
                c += 1;
                n += 1;
                p += 1;
                if p == cols {
                    let mut text = line.get(..c).unwrap_or(&line).to_vec();
                    text.push(b'\n');
                    let nz = if o.autoskip { nonzero } else { 1 };
                    if let Err(e) = skip.line(ctx, sink, &text, nz)? {
                        return Ok(Err(e));
                    }
                    nonzero = 0;
                    p = 0;
                }
            }
            if p > 0 {
                let mut text = line.get(..c).unwrap_or(&line).to_vec();
                text.push(b'\n');
                if let Err(e) = skip.line(ctx, sink, &text, 1)? {
                    return Ok(Err(e));
                }
            } else if o.autoskip {
                let last = skip.last.clone();
                if let Err(e) = skip.line(ctx, sink, &last, -1)? {
                    return Ok(Err(e));
                }
            }
        }
    }
    Ok(Ok(()))
}

/// xxd's `xxdline`: with `-a`, a run of three or more all-zero lines prints its first
/// line, `*`, and (at the end) its last.
#[derive(Default)]
struct Autoskip {
    zero_line: Vec<u8>,
    zero_seen: i32,
    /// The last line passed in (what the final call repeats).
    last: Vec<u8>,
}

impl Autoskip {
    fn line(
        &mut self,
        ctx: &mut Ctx,
        sink: &mut Sink,
        l: &[u8],
        nz: i32,
    ) -> io::Result<Result<(), Exit>> {
        if nz >= 0 {
            self.last = l.to_vec();
        }
        if nz == 0 && self.zero_seen == 1 {
            self.zero_line = l.to_vec();
        }
        let print = nz != 0 || self.zero_seen == 0;
        if nz == 0 {
            self.zero_seen += 1;
        }
        if print {
            if nz != 0 {
                if nz < 0 {
                    self.zero_seen -= 1;
                }
                if self.zero_seen == 2 {
                    let z = std::mem::take(&mut self.zero_line);
                    put!(ctx, sink, &z);
                }
                if self.zero_seen > 2 {
                    put!(ctx, sink, b"*\n");
                }
            }
            if nz >= 0 || self.zero_seen > 0 {
                put!(ctx, sink, l);
            }
            if nz != 0 {
                self.zero_seen = 0;
            }
        }
        Ok(Ok(()))
    }
}

fn hex_value(c: u8) -> Option<i64> {
    char::from(c).to_digit(16).map(i64::from)
}

/// `xxd -r`: hex digits (after an offset and a colon, unless plain) become bytes
/// written at that offset plus `base`.
fn revert(
    ctx: &mut Ctx,
    src: &mut Src,
    sink: &mut Sink,
    o: &Opts,
    base: i64,
) -> io::Result<Result<(), Exit>> {
    // huntype reads with plain getc: a read error (a directory) is only the end.
    if src.fail.take().is_some() {
        src.stdin = false;
    }
    let plain = o.style == Style::Plain;
    let cols = o.cols;
    let (mut n1, mut n2): (Option<i64>, Option<i64>) = (None, Some(0));
    let mut ign_garb = true;
    let mut p = cols;
    let mut have_off: i64 = 0;
    let mut want_off: i64 = 0;
    let skip_line = |ctx: &mut Ctx, src: &mut Src, c: Option<u8>| {
        let mut c = c;
        while let Some(ch) = c {
            if ch == b'\n' {
                break;
            }
            c = src.getc(ctx)?.unwrap_or(None);
        }
        io::Result::Ok(c)
    };
    loop {
        let mut c = match src.getc(ctx)? {
            Ok(Some(c)) => Some(c),
            Ok(None) => break,
            Err(e) => return Ok(Err(e)),
        };
        let ch = c.unwrap_or(0);
        if ch == b'\r' || (plain && matches!(ch, b' ' | b'\n' | b'\t')) {
            continue;
        }
        let n3 = n2;
        n2 = n1;
        n1 = hex_value(ch);
        if n1.is_none() && ign_garb {
            continue;
        }
        ign_garb = false;
        if !plain && p >= cols {
            match n1 {
                None => p = 0,
                Some(d) => want_off = (want_off << 4) | d,
            }
            continue;
        }
        let target = base.saturating_add(want_off);
        if target != have_off {
            if let Err(e) = sink.flush(ctx)? {
                return Ok(Err(e));
            }
            match &mut sink.target {
                Target::File(_, pos) if target >= 0 => {
                    *pos = target as u64;
                    have_off = target;
                }
                _ => {}
            }
            if target < have_off {
                return Ok(Err(Exit("Sorry, cannot seek backwards.".to_owned(), 5)));
            }
            let zeros = [0u8; 4096];
            while have_off < target {
                let step = (target - have_off).min(zeros.len() as i64);
                put!(ctx, sink, zeros.get(..step as usize).unwrap_or(&[]));
                have_off += step;
            }
        }
        if let (Some(hi), Some(lo)) = (n2, n1) {
            put!(ctx, sink, &[((hi << 4) | lo) as u8]);
            have_off += 1;
            want_off += 1;
            n1 = None;
            if !plain {
                p += 1;
                if p >= cols {
                    c = skip_line(ctx, src, c)?;
                }
            }
        } else if n1.is_none() && n2.is_none() && n3.is_none() {
            c = skip_line(ctx, src, c)?;
        }
        if c == Some(b'\n') {
            if !plain {
                want_off = 0;
            }
            p = cols;
            ign_garb = true;
        }
    }
    Ok(Ok(()))
}
