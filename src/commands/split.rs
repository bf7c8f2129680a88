//! `split` (GNU coreutils): cuts a file into pieces named PREFIX (`x`) plus a suffix
//! (`aa`, `ab`, ... widening past `yz` to `zaaa` unless `-a` fixes the length; `-d`/`-x`
//! numeric or hex, `--additional-suffix`), by lines (`-l`, default 1000), bytes (`-b`),
//! whole lines up to a size (`-C`) or into N chunks (`-n N`, `K/N`, `l/N`, `l/K/N`,
//! `r/N`, `r/K/N`), with `-e`, `-t SEP` and `--verbose`.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{parse_size, quote, quotef};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("suffix-length", HasArg::Required, "a"),
    long("additional-suffix", HasArg::Required, "additional-suffix"),
    long("bytes", HasArg::Required, "b"),
    long("line-bytes", HasArg::Required, "C"),
    long("numeric-suffixes", HasArg::Optional, "d"),
    long("hex-suffixes", HasArg::Optional, "x"),
    long("elide-empty-files", HasArg::No, "e"),
    long("filter", HasArg::Required, "filter"),
    long("lines", HasArg::Required, "l"),
    long("number", HasArg::Required, "n"),
    long("separator", HasArg::Required, "t"),
    long("unbuffered", HasArg::No, "u"),
    long("verbose", HasArg::No, "verbose"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: split [OPTION]... [FILE [PREFIX]]
Output pieces of FILE to PREFIXaa, PREFIXab, ...;
default size is 1000 lines, and default PREFIX is 'x'.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --suffix-length=N   generate suffixes of length N (default 2)
      --additional-suffix=SUFFIX  append an additional SUFFIX to file names
  -b, --bytes=SIZE        put SIZE bytes per output file
  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file
  -d                      use numeric suffixes starting at 0, not alphabetic
      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value
  -x                      use hex suffixes starting at 0, not alphabetic
      --hex-suffixes[=FROM]  same as -x, but allow setting the start value
  -e, --elide-empty-files  do not generate empty output files with '-n'
      --filter=COMMAND    write to shell COMMAND; file name is $FILE
  -l, --lines=NUMBER      put NUMBER lines/records per output file
  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below
  -t, --separator=SEP     use SEP instead of newline as the record separator;
                            '\\0' (zero) specifies the NUL character
  -u, --unbuffered        immediately copy input to output with '-n r/...'
      --verbose           print a diagnostic just before each
                            output file is opened
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y,R,Q (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

CHUNKS may be:
  N       split into N files based on size of input
  K/N     output Kth of N to stdout
  l/N     split into N files without splitting lines/records
  l/K/N   output Kth of N to stdout without splitting lines/records
  r/N     like 'l' but use round robin distribution
  r/K/N   likewise but only output Kth of N to stdout
";

/// How the input is cut.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Lines(u64),
    Bytes(u64),
    LineBytes(u64),
    /// `-n`: kind (`b`, `l`, `r`), chunk K to stdout (0 = all to files), N.
    Chunks(char, u64, u64),
}

/// Output file naming and writing.
struct Namer {
    prefix: String,
    additional: String,
    alphabet: &'static [u8],
    suffix_length: usize,
    auto: bool,
    /// Index in the alphabet of each suffix character.
    index: Vec<usize>,
    /// The outbase grown by widening.
    base: String,
    started: bool,
    start_digits: Option<String>,
}

impl Namer {
    /// The next file name, or `None` when the suffixes are exhausted.
    fn next(&mut self) -> Option<String> {
        if !self.started {
            self.started = true;
            self.base = self.prefix.clone();
            self.index = vec![0; self.suffix_length];
            if let Some(d) = &self.start_digits {
                let n = self.index.len();
                for (i, b) in d.bytes().rev().enumerate() {
                    if let Some(slot) = n.checked_sub(i + 1).and_then(|j| self.index.get_mut(j)) {
                        *slot = usize::from(b - b'0');
                    }
                }
            }
            return Some(self.name());
        }
        let mut i = self.index.len();
        while i > 0 {
            i -= 1;
            let slot = self.index.get_mut(i)?;
            *slot += 1;
            let v = *slot;
            if self.auto && i == 0 && v + 1 >= self.alphabet.len() {
                // Widen: the last letter joins the base and the suffix grows by one.
                if let Some(&c) = self.alphabet.get(v) {
                    self.base.push(char::from(c));
                }
                self.suffix_length += 1;
                self.index = vec![0; self.suffix_length];
                return Some(self.name());
            }
            if v < self.alphabet.len() {
                return Some(self.name());
            }
            *slot = 0;
        }
        None
    }

    fn name(&self) -> String {
        let mut s = self.base.clone();
        for &i in &self.index {
            s.push(char::from(self.alphabet.get(i).copied().unwrap_or(b'?')));
        }
        s.push_str(&self.additional);
        s
    }
}

/// Why splitting stopped early.
enum Stop {
    Exhausted,
    Io(String),
}

struct Writer<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    namer: Namer,
    elide: bool,
    verbose: bool,
    input_path: Option<String>,
    current: Option<(String, Vec<u8>)>,
}

impl Writer<'_, '_> {
    fn flush(&mut self) -> Result<(), Stop> {
        if let Some((name, data)) = self.current.take() {
            let path = self.ctx.path(&name);
            let mode = self.ctx.file_mode();
            if let Err(e) = self.ctx.fs.lock().write_file_mode(&path, &data, mode) {
                return Err(Stop::Io(format!("{}: {e}", quotef(&name))));
            }
        }
        Ok(())
    }

    /// Opens the next output file (creating it empty right away).
    fn open_next(&mut self) -> Result<String, Stop> {
        self.flush()?;
        let name = self.namer.next().ok_or(Stop::Exhausted)?;
        let path = self.ctx.path(&name);
        if self.input_path.as_deref() == Some(path.as_str()) {
            return Err(Stop::Io(format!(
                "{} would overwrite input; aborting",
                quote(&name)
            )));
        }
        if self.verbose {
            let _ = writeln!(self.ctx.stdout, "creating file {}", quote(&name));
        }
        let mode = self.ctx.file_mode();
        if let Err(e) = self.ctx.fs.lock().write_file_mode(&path, b"", mode) {
            return Err(Stop::Io(format!("{}: {e}", quotef(&name))));
        }
        Ok(name)
    }

    /// GNU's `cwrite`: `None` data with `new_file` makes an empty file (unless `-e`).
    fn cwrite(&mut self, new_file: bool, data: Option<&[u8]>) -> Result<(), Stop> {
        if new_file {
            if data.is_none() && self.elide {
                return Ok(());
            }
            let name = self.open_next()?;
            self.current = Some((name, Vec::new()));
        }
        if let (Some((_, buf)), Some(d)) = (self.current.as_mut(), data) {
            buf.extend_from_slice(d);
        }
        Ok(())
    }
}

fn lines_split(w: &mut Writer, data: &[u8], n: u64, eol: u8) -> Result<(), Stop> {
    let mut count = 0u64;
    let mut start = 0;
    let mut new_file = true;
    for (i, &b) in data.iter().enumerate() {
        if b == eol {
            count += 1;
            if count >= n {
                w.cwrite(new_file, data.get(start..=i))?;
                start = i + 1;
                new_file = true;
                count = 0;
            }
        }
    }
    if start < data.len() {
        w.cwrite(new_file, data.get(start..))?;
    }
    Ok(())
}

/// GNU's `bytes_split` over one buffer holding the whole input: pieces of `n_bytes`;
/// with `max_files` the last file takes the rest and missing ones are made empty.
fn bytes_split(w: &mut Writer, data: &[u8], n_bytes: u64, max_files: u64) -> Result<(), Stop> {
    let mut new_file = true;
    let mut opened = 0u64;
    let n_bytes = n_bytes.max(1) as usize;
    let mut pos = 0usize;
    while data.len() - pos >= n_bytes {
        w.cwrite(new_file, data.get(pos..pos + n_bytes))?;
        opened += u64::from(new_file);
        new_file = max_files == 0 || opened < max_files;
        pos += n_bytes;
    }
    if pos < data.len() {
        w.cwrite(new_file, data.get(pos..))?;
        opened += u64::from(new_file);
    }
    while opened < max_files {
        opened += 1;
        w.cwrite(true, None)?;
    }
    Ok(())
}

/// GNU's `line_bytes_split` (`-C`) over one buffer holding the whole input.
fn line_bytes_split(w: &mut Writer, data: &[u8], n_bytes: u64, eol: u8) -> Result<(), Stop> {
    let n_bytes = n_bytes as usize;
    let mut n_out = 0usize;
    let mut hold: Vec<u8> = Vec::new();
    let mut split_line = false;
    let mut sob = 0usize;
    let mut n_left = data.len();
    let memrchr = |from: usize, len: usize| -> Option<usize> {
        data.get(from..from + len)?
            .iter()
            .rposition(|&b| b == eol)
            .map(|p| from + p)
    };
    while n_left > 0 {
        let mut split_rest = 0usize;
        let mut eoc = false;
        let eol_pos;
        let want = n_bytes.saturating_sub(n_out + hold.len());
        if want <= n_left {
            split_rest = want;
            eoc = true;
            eol_pos = memrchr(sob, split_rest);
        } else {
            eol_pos = memrchr(sob, n_left);
        }
        if !(hold.is_empty() || eol_pos.is_none() && n_out > 0) {
            let h = std::mem::take(&mut hold);
            w.cwrite(n_out == 0, Some(&h))?;
            n_out += h.len();
        }
        if let Some(e) = eol_pos {
            split_line = true;
            let n_write = e - sob + 1;
            w.cwrite(n_out == 0, data.get(sob..sob + n_write))?;
            n_out += n_write;
            n_left -= n_write;
            sob += n_write;
            if eoc {
                split_rest -= n_write;
            }
        }
        if n_left > 0 && !split_line {
            let n_write = if eoc { split_rest } else { n_left };
            w.cwrite(n_out == 0, data.get(sob..sob + n_write))?;
            n_out += n_write;
            n_left -= n_write;
            sob += n_write;
            if eoc {
                split_rest -= n_write;
            }
        }
        if (eoc && split_rest > 0) || (!eoc && n_left > 0) {
            let n_buf = if eoc { split_rest } else { n_left };
            hold.extend_from_slice(data.get(sob..sob + n_buf).unwrap_or(&[]));
            n_left -= n_buf;
            sob += n_buf;
        }
        if eoc {
            n_out = 0;
            split_line = false;
        }
    }
    if !hold.is_empty() {
        w.cwrite(n_out == 0, Some(&hold))?;
    }
    Ok(())
}

/// GNU's `lines_chunk_split` (`-n l/N`, `-n l/K/N`) over one buffer: a line goes to
/// the chunk in which it ends past the chunk's first byte; the size counts at least
/// one byte per chunk, as GNU raises it to N.
fn lines_chunk_split(
    w: &mut Writer,
    data: &[u8],
    k: u64,
    n: u64,
    eol: u8,
) -> Result<Option<Vec<u8>>, Stop> {
    let len = data.len() as i64;
    let (k, n) = (k as i64, n as i64);
    let file_size = len.max(n);
    let chunk_size = file_size / n;
    let mut chunk_no = 1i64;
    let mut chunk_end = chunk_size - 1;
    let mut n_written = 0i64;
    let mut pos = 0i64;
    let mut stdout = Vec::new();
    if k > 1 {
        let start = (k - 1) * chunk_size - 1;
        pos = start;
        n_written = start;
        chunk_no = k - 1;
        chunk_end = chunk_no * chunk_size - 1;
    }
    let mut new_file = true;
    let mut truncated = false;
    while n_written < file_size && pos < len {
        let mut n_read = (len - pos).min(file_size - n_written);
        truncated = false;
        let eob = pos + n_read;
        let mut bp = pos;
        while bp != eob {
            let mut next = false;
            let skip = n_read.min((chunk_end - n_written).max(0));
            let from = bp + skip;
            let bp_out = match data
                .get(from as usize..eob as usize)
                .and_then(|s| s.iter().position(|&b| b == eol))
            {
                Some(p) => {
                    next = true;
                    from + p as i64 + 1
                }
                None => eob,
            };
            let piece = data.get(bp as usize..bp_out as usize).unwrap_or(&[]);
            if k == chunk_no {
                stdout.extend_from_slice(piece);
            } else if k == 0 {
                w.cwrite(new_file, Some(piece))?;
            }
            let to_write = bp_out - bp;
            n_written += to_write;
            bp += to_write;
            n_read -= to_write;
            new_file = next;
            while next || chunk_end < n_written {
                if !next && bp == eob {
                    truncated = true;
                    break;
                }
                chunk_no += 1;
                if k > 0 && chunk_no > k {
                    return Ok(Some(stdout));
                }
                if chunk_no == n {
                    chunk_end = file_size - 1;
                } else {
                    chunk_end += chunk_size;
                }
                if chunk_end < n_written {
                    if k == 0 {
                        w.cwrite(true, None)?;
                    }
                } else {
                    next = false;
                }
            }
        }
        pos = eob;
    }
    if k > 0 {
        return Ok(Some(stdout));
    }
    if truncated {
        chunk_no += 1;
    }
    while chunk_no <= n {
        chunk_no += 1;
        w.cwrite(true, None)?;
    }
    Ok(None)
}

/// GNU's `lines_rr` (`-n r/N`): lines dealt to the files in turn.
fn lines_rr(w: &mut Writer, data: &[u8], n: u64, eol: u8) -> Result<(), Stop> {
    let mut names = Vec::new();
    for _ in 0..n {
        names.push(w.namer.next().ok_or(Stop::Exhausted)?);
    }
    let mut contents: Vec<Option<Vec<u8>>> = vec![None; names.len()];
    let mut order: Vec<usize> = Vec::new();
    let mut i = 0usize;
    let mut wrapped = false;
    let mut pos = 0usize;
    while pos < data.len() {
        let end = data
            .get(pos..)
            .and_then(|s| s.iter().position(|&b| b == eol))
            .map_or(data.len(), |p| pos + p + 1);
        let next = end <= data.len() && data.get(end - 1) == Some(&eol);
        if let Some(slot) = contents.get_mut(i) {
            if slot.is_none() {
                order.push(i);
            }
            slot.get_or_insert_with(Vec::new)
                .extend_from_slice(data.get(pos..end).unwrap_or(&[]));
        }
        pos = end;
        if next {
            i += 1;
            if i as u64 == n {
                wrapped = true;
                i = 0;
            }
        }
    }
    let ceiling = if wrapped { names.len() } else { i };
    if !w.elide {
        for j in ceiling..names.len() {
            if contents.get(j).is_some_and(Option::is_none) {
                order.push(j);
            }
        }
    }
    for j in order {
        let Some(name) = names.get(j).cloned() else {
            continue;
        };
        let path = w.ctx.path(&name);
        if w.verbose {
            let _ = writeln!(w.ctx.stdout, "creating file {}", quote(&name));
        }
        let data = contents.get(j).cloned().flatten().unwrap_or_default();
        let mode = w.ctx.file_mode();
        if let Err(e) = w.ctx.fs.lock().write_file_mode(&path, &data, mode) {
            return Err(Stop::Io(format!("{}: {e}", quotef(&name))));
        }
    }
    Ok(())
}

/// Parses `-n CHUNKS`.
fn parse_chunks(ctx: &Ctx, v: &str) -> Result<Mode, String> {
    let v = v.trim_start();
    let (kind, rest) = match v.split_once('/') {
        Some(("l", r)) => ('l', r),
        Some(("r", r)) => ('r', r),
        _ => ('b', v),
    };
    let bad_n = |s: &str| format!("invalid number of chunks: {}", ctx.lquote(s));
    let range = |msg: String| format!("{msg}: Numerical result out of range");
    let num = |s: &str| -> Option<u64> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let (k, n_str) = match rest.split_once('/') {
        Some((k, n)) => (Some(k), n),
        None => (None, rest),
    };
    let n = match num(n_str) {
        Some(0) => return Err(range(bad_n(n_str))),
        Some(n) => n,
        None => return Err(bad_n(n_str)),
    };
    let k = match k {
        None => 0,
        Some(k) => {
            let bad_k = format!("invalid chunk number: {}", ctx.lquote(k));
            match num(k) {
                Some(kk) if kk >= 1 && kk <= n => kk,
                Some(_) => return Err(range(bad_k)),
                None => return Err(bad_k),
            }
        }
    };
    Ok(Mode::Chunks(kind, k, n))
}

/// Parses a `-l`/`-b`/`-C` count: `what` names it in the message.
fn parse_count(ctx: &Ctx, v: &str, what: &str, sizes: bool) -> Result<u64, String> {
    let bad = format!("invalid number of {what}: {}", ctx.lquote(v));
    let n = if sizes {
        parse_size(v)
    } else if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        Some(v.parse().unwrap_or(u64::MAX))
    } else {
        None
    };
    match n {
        Some(0) => Err(format!("{bad}: Numerical result out of range")),
        Some(n) => Ok(n),
        None => Err(bad),
    }
}

pub fn split(ctx: &mut Ctx) -> CmdResult {
    // `-NUM` is an old spelling of `-l NUM`.
    let args: Vec<String> = ctx
        .args
        .iter()
        .map(|a| match a.strip_prefix('-') {
            Some(d) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => {
                format!("--lines={d}")
            }
            _ => a.clone(),
        })
        .collect();
    let parsed = match super::args::parse(&Spec::new("0123456789C:a:b:del:n:t:ux", LONG), &args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut mode: Option<Mode> = None;
    let mut suffix_length = 0usize;
    let mut alphabet: &'static [u8] = b"abcdefghijklmnopqrstuvwxyz";
    let mut start_digits: Option<String> = None;
    let mut additional = String::new();
    let mut elide = false;
    let mut verbose = false;
    let mut sep: Option<u8> = None;
    for (k, v) in &parsed.opts {
        let v = v.clone();
        let val = v.clone().unwrap_or_default();
        let new_mode = match k.as_str() {
            "l" => Some(parse_count(ctx, &val, "lines", false).map(Mode::Lines)),
            "b" => Some(parse_count(ctx, &val, "bytes", true).map(Mode::Bytes)),
            "C" => Some(parse_count(ctx, &val, "bytes", true).map(Mode::LineBytes)),
            "n" => Some(parse_chunks(ctx, &val)),
            _ => None,
        };
        if let Some(m) = new_mode {
            let m = match m {
                Ok(m) => m,
                Err(msg) => {
                    ctx.err(msg)?;
                    return Ok(1);
                }
            };
            let same_kind = matches!(
                (mode, m),
                (None, _)
                    | (Some(Mode::Lines(_)), Mode::Lines(_))
                    | (Some(Mode::Bytes(_)), Mode::Bytes(_))
                    | (Some(Mode::LineBytes(_)), Mode::LineBytes(_))
                    | (Some(Mode::Chunks(..)), Mode::Chunks(..))
            );
            if !same_kind {
                return usage_error(ctx, "cannot split in more than one way", 1);
            }
            mode = Some(m);
            continue;
        }
        match k.as_str() {
            "a" => match val.parse::<usize>() {
                Ok(n) if val.bytes().all(|b| b.is_ascii_digit()) => suffix_length = n,
                _ => {
                    ctx.err(format!("invalid suffix length: {}", ctx.lquote(&val)))?;
                    return Ok(1);
                }
            },
            "additional-suffix" => {
                if val.contains('/') {
                    let msg = format!(
                        "invalid suffix {}, contains directory separator",
                        ctx.lquote(&val)
                    );
                    return usage_error(ctx, &msg, 1);
                }
                additional = val;
            }
            "d" | "x" => {
                alphabet = if k == "d" {
                    b"0123456789"
                } else {
                    b"0123456789abcdef"
                };
                if let Some(from) = v {
                    if from.is_empty() || !from.bytes().all(|b| b.is_ascii_digit()) {
                        let kind = if k == "d" { "numerical" } else { "hexadecimal" };
                        let msg = format!(
                            "{}: invalid start value for {kind} suffix",
                            ctx.lquote(&from)
                        );
                        return usage_error(ctx, &msg, 1);
                    }
                    // Leading zeros do not count toward the suffix length.
                    let trimmed = from.trim_start_matches('0');
                    start_digits = Some(if trimmed.is_empty() {
                        "0".to_owned()
                    } else {
                        trimmed.to_owned()
                    });
                }
            }
            "e" => elide = true,
            "verbose" => verbose = true,
            "t" => {
                let b = crate::text::encode(&val);
                let new = match b.as_slice() {
                    [] => {
                        ctx.err("empty record separator")?;
                        return Ok(1);
                    }
                    [c] => *c,
                    _ if val == "\\0" => 0,
                    _ => {
                        ctx.err(format!("multi-character separator {}", ctx.lquote(&val)))?;
                        return Ok(1);
                    }
                };
                if sep.is_some_and(|s| s != new) {
                    ctx.err("multiple separator characters specified")?;
                    return Ok(1);
                }
                sep = Some(new);
            }
            "filter" => {
                ctx.err("--filter is not supported in this sandbox")?;
                return Ok(1);
            }
            _ => {}
        }
    }
    let mode = mode.unwrap_or(Mode::Lines(1000));
    let eol = sep.unwrap_or(b'\n');
    let (input, prefix) = match parsed.operands.as_slice() {
        [] => ("-".to_owned(), "x".to_owned()),
        [f] => (f.clone(), "x".to_owned()),
        [f, p] => (f.clone(), p.clone()),
        [_, _, extra, ..] => {
            let msg = format!("extra operand {}", ctx.lquote(extra));
            return usage_error(ctx, &msg, 1);
        }
    };
    // GNU's set_suffix_length.
    let mut auto = start_digits.is_none();
    let mut needed = 0usize;
    if let Mode::Chunks(_, _, n) = mode {
        let mut end = n - 1;
        if let Some(d) = &start_digits
            && let Ok(s) = d.parse::<u64>()
            && s < n
        {
            end = end.saturating_add(s);
        }
        let base = alphabet.len() as u64;
        loop {
            needed += 1;
            end /= base;
            if end == 0 {
                break;
            }
        }
        auto = false;
    }
    if suffix_length > 0 {
        if suffix_length < needed {
            ctx.err(format!("the suffix length needs to be at least {needed}"))?;
            return Ok(1);
        }
        auto = false;
    } else {
        suffix_length = needed.max(2);
    }
    if let Some(d) = &start_digits
        && d.len() > suffix_length
    {
        let msg = "numerical suffix start value is too large for the suffix length";
        return usage_error(ctx, msg, 1);
    }
    let data = match ctx.read_input(&input)? {
        Ok(d) => d,
        Err(e) => {
            ctx.err(format!("cannot open {} for reading: {e}", quote(&input)))?;
            return Ok(1);
        }
    };
    let input_path = (input != "-").then(|| ctx.path(&input));
    let namer = Namer {
        prefix,
        additional,
        alphabet,
        suffix_length,
        auto,
        index: Vec::new(),
        base: String::new(),
        started: false,
        start_digits,
    };
    let mut w = Writer {
        ctx,
        namer,
        elide,
        verbose,
        input_path,
        current: None,
    };
    let result = match mode {
        Mode::Lines(n) => lines_split(&mut w, &data, n, eol),
        Mode::Bytes(n) => bytes_split(&mut w, &data, n, 0),
        Mode::LineBytes(n) => line_bytes_split(&mut w, &data, n, eol),
        Mode::Chunks('b', 0, n) => {
            let size = (data.len() as u64).max(n);
            bytes_split(&mut w, &data, size / n, n)
        }
        Mode::Chunks('b', k, n) => {
            let size = (data.len() as u64).max(n);
            let start = (k - 1) * (size / n);
            let end = if k == n { size } else { k * (size / n) };
            let piece = data.get(start as usize..end as usize).unwrap_or(&[]);
            w.ctx.stdout.write_all(piece)?;
            Ok(())
        }
        Mode::Chunks('l', k, n) => match lines_chunk_split(&mut w, &data, k, n, eol) {
            Ok(Some(out)) => {
                w.ctx.stdout.write_all(&out)?;
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(e) => Err(e),
        },
        Mode::Chunks(_, 0, n) => lines_rr(&mut w, &data, n, eol),
        Mode::Chunks(_, k, n) => {
            let mut out = Vec::new();
            let mut line_no = 1u64;
            let mut pos = 0usize;
            while pos < data.len() {
                let end = data
                    .get(pos..)
                    .and_then(|s| s.iter().position(|&b| b == eol))
                    .map_or(data.len(), |p| pos + p + 1);
                if line_no == k {
                    out.extend_from_slice(data.get(pos..end).unwrap_or(&[]));
                }
                line_no = if line_no == n { 1 } else { line_no + 1 };
                pos = end;
            }
            w.ctx.stdout.write_all(&out)?;
            Ok(())
        }
    };
    let result = result.and_then(|()| w.flush());
    match result {
        Ok(()) => Ok(0),
        Err(Stop::Exhausted) => {
            w.ctx.err("output file suffixes exhausted")?;
            Ok(1)
        }
        Err(Stop::Io(msg)) => {
            w.ctx.err(msg)?;
            Ok(1)
        }
    }
}
