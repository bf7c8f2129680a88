//! `wc`: counts lines, words, characters, bytes and the longest line's display width,
//! per file and in total, in GNU's column layout.

use std::io::Read;

use super::args::{HasArg, Spec, long};
use super::util::quotef;
use super::{CmdResult, Ctx};
use crate::fs::Errno;

#[derive(Default, Clone, Copy)]
struct Counts {
    lines: u64,
    words: u64,
    chars: u64,
    bytes: u64,
    max_len: u64,
}

/// Streaming counter; carries an incomplete UTF-8 sequence between chunks.
#[derive(Default)]
struct Counter {
    c: Counts,
    pos: u64,
    in_word: bool,
    pending: Vec<u8>,
    /// Only lines and bytes are wanted, so bytes need not be decoded.
    lines_only: bool,
    /// Only bytes are wanted: nothing needs looking at.
    bytes_only: bool,
}

/// Newlines in `data`, eight bytes at a time: each word's newline bytes become one
/// bit per byte lane, summed in the lanes and folded every 255 words.
fn count_newlines(data: &[u8]) -> u64 {
    const LO7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const NL: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    const ONES: u64 = 0x0101_0101_0101_0101;
    const M16: u64 = 0x00ff_00ff_00ff_00ff;
    let fold = |acc: u64| {
        let pairs = (acc & M16) + ((acc >> 8) & M16);
        (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) & 0xffff
    };
    let mut total = 0u64;
    let mut words = data.chunks_exact(8);
    let (mut acc, mut k) = (0u64, 0u32);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        let x = u64::from_ne_bytes(b) ^ NL;
        // Bit 7 of each lane is set where the byte was a newline (x's byte is zero).
        let zero = !(((x & LO7) + LO7) | x | LO7);
        acc += (zero >> 7) & ONES;
        k += 1;
        if k == 255 {
            total += fold(acc);
            (acc, k) = (0, 0);
        }
    }
    total += fold(acc);
    total + words.remainder().iter().filter(|&&b| b == b'\n').count() as u64
}

/// Display width of a printable character (wide East Asian = 2, combining = 0).
pub fn char_width(c: char) -> u64 {
    let v = c as u32;
    if (0x300..=0x36F).contains(&v) || (0x200B..=0x200F).contains(&v) {
        return 0;
    }
    let wide = (0x1100..=0x115F).contains(&v)
        || (0x2E80..=0x303E).contains(&v)
        || (0x3041..=0xA4CF).contains(&v)
        || (0xAC00..=0xD7A3).contains(&v)
        || (0xF900..=0xFAFF).contains(&v)
        || (0xFE30..=0xFE4F).contains(&v)
        || (0xFF00..=0xFF60).contains(&v)
        || (0xFFE0..=0xFFE6).contains(&v)
        || (0x1F300..=0x1F64F).contains(&v)
        || (0x1F900..=0x1F9FF).contains(&v)
        || (0x20000..=0x3FFFD).contains(&v);
    if wide { 2 } else { 1 }
}

impl Counter {
    /// A counter for the counts `show` asks for: lines and bytes alone need no decoding.
    fn new(show: Show) -> Counter {
        let lines_only = !(show.words || show.chars || show.max_len);
        Counter {
            lines_only,
            bytes_only: lines_only && !show.lines,
            ..Counter::default()
        }
    }

    /// One character of a line; ASCII goes through [`Counter::ascii`] instead.
    fn ch(&mut self, c: char) {
        self.c.chars += 1;
        if c.is_whitespace() {
            // Separates words; takes its display width unless it is a control (NEL).
            if !c.is_control() {
                self.pos += char_width(c);
            }
            self.in_word = false;
        } else if !c.is_control() {
            self.pos += char_width(c);
            self.word();
        }
    }

    /// One ASCII byte; the classes are those `char::is_whitespace`/`is_control` give.
    #[inline]
    fn ascii(&mut self, b: u8) {
        self.c.chars += 1;
        match b {
            b'\n' | b'\r' | b'\x0c' => {
                if b == b'\n' {
                    self.c.lines += 1;
                }
                self.c.max_len = self.c.max_len.max(self.pos);
                self.pos = 0;
                self.in_word = false;
            }
            b'\t' => {
                self.pos += 8 - self.pos % 8;
                self.in_word = false;
            }
            b' ' => {
                self.pos += 1;
                self.in_word = false;
            }
            // A vertical tab separates words but takes no width.
            b'\x0b' => self.in_word = false,
            0..=0x1f | 0x7f => {}
            _ => {
                self.pos += 1;
                self.word();
            }
        }
    }

    #[inline]
    fn word(&mut self) {
        if !self.in_word {
            self.c.words += 1;
            self.in_word = true;
        }
    }

    fn text(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii() {
                self.ascii(b);
                i += 1;
            } else if let Some(c) = s.get(i..).and_then(|t| t.chars().next()) {
                self.ch(c);
                i += c.len_utf8();
            } else {
                break;
            }
        }
    }

    fn feed(&mut self, chunk: &[u8], last: bool) {
        self.c.bytes += chunk.len() as u64;
        if self.bytes_only {
            return;
        }
        if self.lines_only {
            self.c.lines += count_newlines(chunk);
            return;
        }
        let owned;
        let mut data: &[u8] = if self.pending.is_empty() {
            chunk
        } else {
            let mut v = std::mem::take(&mut self.pending);
            v.extend_from_slice(chunk);
            owned = v;
            &owned
        };
        loop {
            match std::str::from_utf8(data) {
                Ok(s) => {
                    self.text(s);
                    break;
                }
                Err(e) => {
                    let (good, rest) = data.split_at(e.valid_up_to());
                    if let Ok(s) = std::str::from_utf8(good) {
                        self.text(s);
                    }
                    match e.error_len() {
                        Some(n) => data = rest.get(n..).unwrap_or(&[]),
                        None if !last => {
                            self.pending = rest.to_vec();
                            break;
                        }
                        None => break,
                    }
                }
            }
        }
        if last {
            self.c.max_len = self.c.max_len.max(self.pos);
        }
    }
}

#[derive(Clone, Copy)]
struct Show {
    lines: bool,
    words: bool,
    chars: bool,
    bytes: bool,
    max_len: bool,
}

impl Show {
    fn count(&self) -> usize {
        [self.lines, self.words, self.chars, self.bytes, self.max_len]
            .iter()
            .filter(|b| **b)
            .count()
    }
}

fn format_line(show: Show, c: &Counts, width: usize, name: Option<&str>) -> String {
    let mut fields = Vec::new();
    for (on, n) in [
        (show.lines, c.lines),
        (show.words, c.words),
        (show.chars, c.chars),
        (show.bytes, c.bytes),
        (show.max_len, c.max_len),
    ] {
        if on {
            fields.push(format!("{n:>width$}"));
        }
    }
    let mut line = fields.join(" ");
    if let Some(name) = name {
        line.push(' ');
        line.push_str(name);
    }
    line.push('\n');
    line
}

const USAGE: &str = "\
Usage: wc [OPTION]... [FILE]...
  or:  wc [OPTION]... --files0-from=F
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
      --files0-from=F    read input from the files specified by
                           NUL-terminated names in file F;
                           If F is - then read names from standard input
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --help        display this help and exit
      --version     output version information and exit
";

pub fn wc(ctx: &mut Ctx) -> CmdResult {
    const LONG: &[super::args::LongOpt] = &[
        long("bytes", HasArg::No, "c"),
        long("chars", HasArg::No, "m"),
        long("lines", HasArg::No, "l"),
        long("words", HasArg::No, "w"),
        long("max-line-length", HasArg::No, "L"),
        long("files0-from", HasArg::Required, "files0-from"),
        long("total", HasArg::Required, "total"),
        super::about::HELP,
        super::about::VERSION,
    ];
    let parsed = match super::about::parse_std(ctx, &Spec::new("cmlwL", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(status) => return Ok(status),
    };
    let mut show = Show {
        lines: parsed.has("l"),
        words: parsed.has("w"),
        chars: parsed.has("m"),
        bytes: parsed.has("c"),
        max_len: parsed.has("L"),
    };
    if show.count() == 0 {
        show.lines = true;
        show.words = true;
        show.bytes = true;
    }
    let total_mode = parsed.last("total").unwrap_or("auto").to_owned();
    if !["auto", "always", "only", "never"].contains(&total_mode.as_str()) {
        ctx.err(format!(
            "invalid argument '{total_mode}' for '--total'\nValid arguments are:\n  - 'auto'\n  - 'always'\n  - 'only'\n  - 'never'"
        ))?;
        return super::args::usage_error(ctx, "", 1);
    }
    let names: Vec<String> = if parsed.operands.is_empty() {
        vec![]
    } else {
        parsed.operands.clone()
    };
    let from_stdin = names.is_empty();
    let inputs: Vec<String> = if from_stdin {
        vec!["-".to_owned()]
    } else {
        names.clone()
    };

    // GNU sizes the columns from the regular files' total size, at least 7 when any
    // input is not a regular file, and uses width 1 for one count of one input.
    let mut width = 1usize;
    if !(inputs.len() == 1 && show.count() == 1) {
        let mut min = 1;
        let mut total_size: u64 = 0;
        let fs = ctx.fs.lock();
        for n in &inputs {
            if n == "-" {
                min = 7;
                continue;
            }
            match fs.stat(&ctx.path(n)) {
                Ok(m) if m.file_type == crate::fs::FileType::File => total_size += m.size,
                Ok(_) => min = 7,
                Err(_) => {}
            }
        }
        drop(fs);
        width = total_size.to_string().len().max(min);
    }

    let mut status = 0;
    let mut total = Counts::default();
    let mut buf = vec![0u8; 64 * 1024];
    for name in &inputs {
        let mut counter = Counter::new(show);
        match ctx.open_input(name) {
            Err(e) => {
                let msg = format!("{}: {e}", quotef(name));
                ctx.err(msg)?;
                status = 1;
                // A directory opens but cannot be read: GNU still prints its zeros.
                if !e.is(Errno::EISDIR) {
                    continue;
                }
            }
            Ok(input) => {
                if let Some(bytes) = input.in_memory() {
                    counter.feed(bytes, true);
                } else if counter.lines_only
                    && matches!(input, super::util::Input::Stdin)
                    && let Some(sh) = ctx.shared
                    && let Some(first) = sh.read_shared()
                {
                    // A pipe's blocks are counted where they are.
                    let mut got = first?;
                    while let Some(b) = got {
                        counter.feed(b.as_slice(), false);
                        ctx.host.check()?;
                        got = sh.read_shared().transpose()?.flatten();
                    }
                    counter.feed(&[], true);
                } else {
                    let mut input = input.reader(&mut *ctx.stdin);
                    loop {
                        let n = input.read(&mut buf)?;
                        if n == 0 {
                            counter.feed(&[], true);
                            break;
                        }
                        counter.feed(buf.get(..n).unwrap_or(&[]), false);
                    }
                }
            }
        }
        let c = counter.c;
        total.lines += c.lines;
        total.words += c.words;
        total.chars += c.chars;
        total.bytes += c.bytes;
        total.max_len = total.max_len.max(c.max_len);
        if total_mode != "only" {
            let label = if from_stdin {
                None
            } else {
                Some(name.as_str())
            };
            let line = format_line(show, &c, width, label);
            ctx.stdout.write_all(line.as_bytes())?;
        }
    }
    let print_total = match total_mode.as_str() {
        "always" | "only" => true,
        "never" => false,
        _ => inputs.len() > 1,
    };
    if print_total {
        let label = if total_mode == "only" {
            None
        } else {
            Some("total")
        };
        let w = if total_mode == "only" { 1 } else { width };
        let line = format_line(show, &total, w, label);
        ctx.stdout.write_all(line.as_bytes())?;
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    /// The word-at-a-time newline count agrees with counting byte by byte, across
    /// lane folds, unaligned tails and bytes that differ from `\n` by one bit.
    #[test]
    fn newline_count_matches_bytewise() {
        let mut data = Vec::new();
        let mut x: u32 = 1;
        for _ in 0..20_000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            data.push([b'\n', 0x0b, 0x08, 0x8a, 0, b'a', 0xff, b'\n'][(x >> 16) as usize % 8]);
        }
        for len in [0, 1, 7, 8, 9, 2039, 2040, 2041, 4095, data.len()] {
            let part = &data[..len];
            let want = part.iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(super::count_newlines(part), want, "length {len}");
        }
        assert_eq!(super::count_newlines(&[b'\n'; 5000]), 5000);
    }

    const FILES: &[(&str, &str)] = &[
        ("a", "hello world\nfoo\n"),
        ("b", "x"),
        ("e", ""),
        ("d/", ""),
    ];

    #[test]
    fn counts_like_gnu() {
        for (line, stdin, out, err, status) in [
            ("wc a", "", " 2  3 16 a\n", "", 0),
            ("wc -l a", "", "2 a\n", "", 0),
            (
                "wc a b",
                "",
                " 2  3 16 a\n 0  1  1 b\n 2  4 17 total\n",
                "",
                0,
            ),
            ("wc -l a b", "", " 2 a\n 0 b\n 2 total\n", "", 0),
            ("wc", "hi\n", "      1       1       3\n", "", 0),
            ("wc -l", "hi\n", "1\n", "", 0),
            (
                "wc a -",
                "x",
                "      2       3      16 a\n      0       1       1 -\n      2       4      17 total\n",
                "",
                0,
            ),
            ("wc e", "", "0 0 0 e\n", "", 0),
            ("wc -L a", "", "11 a\n", "", 0),
            ("wc -lwcmL a", "", " 2  3 16 16 11 a\n", "", 0),
            (
                "wc -mcL",
                "h\u{e9}llo\n",
                "      6       7       5\n",
                "",
                0,
            ),
            ("wc -w", "\x01\n", "0\n", "", 0),
            ("wc -L", "a\tb\n", "9\n", "", 0),
            ("wc -L", "ab\rc\n", "2\n", "", 0),
            ("wc -L", "\u{4e2d}\n", "2\n", "", 0),
            ("wc -w", "a\u{a0}b\n", "2\n", "", 0),
            (
                "wc nosuch a",
                "",
                " 2  3 16 a\n 2  3 16 total\n",
                "wc: nosuch: No such file or directory\n",
                1,
            ),
            (
                "wc d a",
                "",
                "      0       0       0 d\n      2       3      16 a\n      2       3      16 total\n",
                "wc: d: Is a directory\n",
                1,
            ),
            (
                "wc -x",
                "",
                "",
                "wc: invalid option -- 'x'\nTry 'wc --help' for more information.\n",
                1,
            ),
        ] {
            check(FILES, line, stdin, (out, err, status));
        }
    }
}
