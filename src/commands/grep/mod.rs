//! `grep`: prints lines matching patterns (BRE by default, `-E`, `-F`, `-P`), streaming
//! its inputs, with GNU's output prefixes, context groups, counting/listing modes,
//! recursion with include/exclude globs, binary-file handling and exit statuses.

pub mod regex;

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Write};

use ::regex::bytes::{Regex, RegexBuilder};

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long};
use super::fnmatch::fnmatch;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("extended-regexp", HasArg::No, "E"),
    long("fixed-strings", HasArg::No, "F"),
    long("basic-regexp", HasArg::No, "G"),
    long("perl-regexp", HasArg::No, "P"),
    long("regexp", HasArg::Required, "e"),
    long("file", HasArg::Required, "f"),
    long("ignore-case", HasArg::No, "i"),
    long("no-ignore-case", HasArg::No, "no-ignore-case"),
    long("word-regexp", HasArg::No, "w"),
    long("line-regexp", HasArg::No, "x"),
    long("null-data", HasArg::No, "z"),
    long("no-messages", HasArg::No, "s"),
    long("invert-match", HasArg::No, "v"),
    long("max-count", HasArg::Required, "m"),
    long("byte-offset", HasArg::No, "b"),
    long("line-number", HasArg::No, "n"),
    long("no-line-number", HasArg::No, "no-line-number"),
    long("line-buffered", HasArg::No, "line-buffered"),
    long("with-filename", HasArg::No, "H"),
    long("no-filename", HasArg::No, "h"),
    long("label", HasArg::Required, "label"),
    long("only-matching", HasArg::No, "o"),
    long("quiet", HasArg::No, "q"),
    long("silent", HasArg::No, "q"),
    long("binary-files", HasArg::Required, "binary-files"),
    long("text", HasArg::No, "a"),
    long("directories", HasArg::Required, "directories"),
    long("devices", HasArg::Required, "D"),
    long("recursive", HasArg::No, "r"),
    long("dereference-recursive", HasArg::No, "R"),
    long("include", HasArg::Required, "include"),
    long("exclude", HasArg::Required, "exclude"),
    long("exclude-from", HasArg::Required, "exclude-from"),
    long("exclude-dir", HasArg::Required, "exclude-dir"),
    long("files-without-match", HasArg::No, "L"),
    long("files-with-matches", HasArg::No, "l"),
    long("count", HasArg::No, "c"),
    long("initial-tab", HasArg::No, "T"),
    long("null", HasArg::No, "Z"),
    long("before-context", HasArg::Required, "B"),
    long("after-context", HasArg::Required, "A"),
    long("context", HasArg::Required, "C"),
    long("color", HasArg::Optional, "color"),
    long("colour", HasArg::Optional, "color"),
    long("binary", HasArg::No, "U"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Perl regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines
  -V, --version             display version information and exit
      --help                display this help text and exit

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
      --line-buffered       flush output on every line
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   assume that binary files are TYPE;
                            TYPE is 'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  how to handle directories;
                            ACTION is 'read', 'recurse', or 'skip'
  -D, --devices=ACTION      how to handle devices, FIFOs and sockets;
                            ACTION is 'read' or 'skip'
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB (a file pattern)
      --exclude=GLOB        skip files that match GLOB
      --exclude-from=FILE   skip files that match any file pattern from FILE
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -T, --initial-tab         make tabs line up (if needed)
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context
      --color[=WHEN],
      --colour[=WHEN]       use markers to highlight the matching strings;
                            WHEN is 'always', 'never', or 'auto'
  -U, --binary              do not strip CR characters at EOL (MSDOS/Windows)

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.
Exit status is 0 if any line is selected, 1 otherwise;
if any error occurs and -q is not given, the exit status is 2.
";

#[derive(Clone, Copy, PartialEq, Eq)]
enum ListMode {
    None,
    Matching,
    NonMatching,
}

struct Opts {
    invert: bool,
    word: bool,
    count: bool,
    list: ListMode,
    only: bool,
    quiet: bool,
    silent: bool,
    line_numbers: bool,
    byte_offset: bool,
    with_filename: Option<bool>,
    before: usize,
    after: usize,
    max_count: Option<u64>,
    text: bool,
    skip_binary: bool,
    null_after_name: bool,
    initial_tab: bool,
    eol: u8,
    recursive: bool,
    deref: bool,
    includes: Vec<String>,
    excludes: Vec<String>,
    exclude_dirs: Vec<String>,
    label: String,
    skip_dirs: bool,
}

struct Matcher {
    re: Regex,
    /// Patterns with back-references run on the backtracking matcher instead.
    back: Vec<super::backtrack::Backtrack>,
    /// `-P` patterns the finite-automaton engine cannot run (lookaround,
    /// back-references, atomic groups, possessive quantifiers, `\K`), on
    /// `fancy_regex`'s backtracker with a step limit. They match text: a line that
    /// is not UTF-8 does not match them.
    fancy: Vec<fancy_regex::Regex>,
    word: bool,
    /// Set when a backtracking search ran out of steps.
    exhausted: std::cell::Cell<bool>,
    /// The pattern again for searching many lines at once (see [`Matcher::skip`]), when
    /// that can only find more than the line-by-line search, never less.
    skip_pattern: Option<(String, bool)>,
    skip_re: std::cell::OnceCell<Option<Regex>>,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

impl Matcher {
    /// The leftmost match at or after `pos` of any pattern.
    fn raw_find(&self, line: &[u8], pos: usize) -> Option<(usize, usize)> {
        if !self.fancy.is_empty() {
            return self.fancy_find(line, pos);
        }
        if self.back.is_empty() {
            return self.re.find_at(line, pos).map(|m| (m.start(), m.end()));
        }
        let mut best: Option<(usize, usize)> = None;
        for b in &self.back {
            match b.captures_at(line, pos) {
                Ok(Some(caps)) => {
                    if let (Some(Some(s)), Some(Some(e))) = (caps.first(), caps.get(1))
                        && best.is_none_or(|(bs, _)| *s < bs)
                    {
                        best = Some((*s, *e));
                    }
                }
                Ok(None) => {}
                Err(_) => self.exhausted.set(true),
            }
        }
        best
    }

    /// The leftmost match at or after `pos` of any `-P` backtracking pattern.
    fn fancy_find(&self, line: &[u8], pos: usize) -> Option<(usize, usize)> {
        let text = std::str::from_utf8(line).ok()?;
        let pos = (pos..=text.len()).find(|&p| text.is_char_boundary(p))?;
        let mut best: Option<(usize, usize)> = None;
        for re in &self.fancy {
            match re.find_from_pos(text, pos) {
                Ok(Some(m)) if best.is_none_or(|(bs, _)| m.start() < bs) => {
                    best = Some((m.start(), m.end()));
                }
                Ok(_) => {}
                Err(_) => self.exhausted.set(true),
            }
        }
        best
    }

    /// The first acceptable match at or after `start`.
    fn find_at(&self, line: &[u8], start: usize) -> Option<(usize, usize)> {
        let mut pos = start;
        while pos <= line.len() {
            let (s, e) = self.raw_find(line, pos)?;
            if !self.word {
                return Some((s, e));
            }
            let before_ok = s == 0 || line.get(s - 1).is_none_or(|&b| !is_word_byte(b));
            let after_ok = line.get(e).is_none_or(|&b| !is_word_byte(b));
            if before_ok && after_ok && e > s {
                return Some((s, e));
            }
            // Try a shorter match ending at a word boundary from the same start.
            if before_ok {
                for end in (s + 1..e).rev() {
                    if line.get(end).is_none_or(|&b| !is_word_byte(b))
                        && self
                            .raw_find(&line[..end], s)
                            .is_some_and(|(s2, e2)| s2 == s && e2 == end)
                    {
                        return Some((s, end));
                    }
                }
            }
            pos = s + 1;
        }
        None
    }

    /// How many bytes of `lines` (whole lines, each ending in a newline) hold no
    /// selected line: the start of the line where a search of all of them at once first
    /// matches, or all of them. `None` when this pattern cannot be searched that way.
    ///
    /// Sound because the many-line regex matches `^`/`$` at every newline, so a line
    /// that matches on its own also matches in place; a match across lines only stops
    /// the skip early.
    fn skip(&self, lines: &[u8]) -> Option<usize> {
        let re = self.many_lines()?;
        Some(
            re.find(lines)
                .map_or(lines.len(), |m| line_start(lines, 0, m.start())),
        )
    }

    /// The pattern compiled for searching many lines at once, if it can be.
    fn many_lines(&self) -> Option<&Regex> {
        self.skip_re
            .get_or_init(|| {
                let (pat, icase) = self.skip_pattern.as_ref()?;
                RegexBuilder::new(pat)
                    .case_insensitive(*icase)
                    .multi_line(true)
                    .size_limit(64 << 20)
                    .build()
                    .ok()
            })
            .as_ref()
    }

    /// The next selected line of `lines` (whole lines, each ending in a newline) at or
    /// after `pos`, a line start, as the bounds of the line without its newline: one
    /// search of the many-line regex finds it (see [`Matcher::skip`] for why that is
    /// sound), and only a match that runs past its line's end, or a `-w` match, is
    /// checked again on the line alone. `None` when this pattern cannot be searched
    /// that way.
    fn next_line(&self, lines: &[u8], mut pos: usize) -> Option<Option<(usize, usize)>> {
        let re = self.many_lines()?;
        while pos < lines.len() {
            // An empty match after the last newline (`^$`, `^`) is not on a line.
            let Some(m) = re.find_at(lines, pos).filter(|m| m.start() < lines.len()) else {
                break;
            };
            let start = line_start(lines, pos, m.start());
            let end = lines
                .get(m.start()..)
                .and_then(|tail| memchr::memchr(b'\n', tail))
                .map_or(lines.len(), |p| m.start() + p);
            let line = lines.get(start..end).unwrap_or_default();
            if (m.end() <= end && !self.word) || self.is_match(line) {
                return Some(Some((start, end)));
            }
            pos = end + 1;
        }
        Some(None)
    }

    fn is_match(&self, line: &[u8]) -> bool {
        if self.word || !self.back.is_empty() || !self.fancy.is_empty() {
            self.find_at(line, 0).is_some()
        } else {
            self.re.is_match(line)
        }
    }
}

fn usage(ctx: &mut Ctx, msg: Option<&str>) -> io::Result<i32> {
    if let Some(m) = msg {
        ctx.err(m)?;
    }
    writeln!(ctx.stderr, "Usage: grep [OPTION]... PATTERNS [FILE]...")?;
    writeln!(ctx.stderr, "Try 'grep --help' for more information.")?;
    Ok(2)
}

fn context_arg(ctx: &mut Ctx, v: &str) -> io::Result<Result<usize, i32>> {
    match v.parse::<usize>() {
        Ok(n) => Ok(Ok(n)),
        Err(_) => {
            ctx.err(format!("{v}: invalid context length argument"))?;
            Ok(Err(2))
        }
    }
}

/// The streams and host a search writes to and checks in with.
struct Io<'x> {
    stdout: &'x mut dyn Write,
    stderr: &'x mut dyn Write,
    host: &'x mut dyn super::Host,
}

/// Where a block of lines starts in its input, and the input's name as printed.
struct Position<'n> {
    /// Lines before the block.
    line_no: u64,
    /// Bytes before the block.
    offset: u64,
    name: Option<&'n str>,
}

/// Per-run state shared by every input.
struct Run<'o> {
    o: &'o Opts,
    m: Matcher,
    out: Vec<u8>,
    any_selected: bool,
    errors: bool,
    quit: bool,
    /// Whether a context group was printed (later groups get a `--` line first).
    group_printed: bool,
}

impl Run<'_> {
    fn prefix(&mut self, name: Option<&str>, line_no: u64, offset: u64, sep: u8) {
        if let Some(n) = name {
            self.out.extend_from_slice(&crate::text::encode(n));
            self.out.push(if self.o.null_after_name { 0 } else { sep });
        }
        if self.o.line_numbers {
            self.out.extend_from_slice(line_no.to_string().as_bytes());
            self.out.push(sep);
        }
        if self.o.byte_offset {
            self.out.extend_from_slice(offset.to_string().as_bytes());
            self.out.push(sep);
        }
        if self.o.initial_tab && (name.is_some() || self.o.line_numbers || self.o.byte_offset) {
            self.out.push(b'\t');
        }
    }

    /// Searches one input; returns whether any line was selected.
    fn search(
        &mut self,
        ctx: &mut Io,
        reader: &mut dyn BufRead,
        name: &str,
        show_name: bool,
    ) -> io::Result<bool> {
        let o = self.o;
        let shown = show_name.then_some(name);
        let mut binary = false;
        if !o.text {
            let head = reader.fill_buf()?;
            binary = looks_binary(head, o.eol);
        }
        let mut selected: u64 = 0;
        let mut line_no: u64 = 0;
        let mut offset: u64 = 0;
        let mut before: VecDeque<(u64, u64, Vec<u8>)> = VecDeque::new();
        let mut after_left = 0usize;
        let mut last_printed: Option<u64> = None;
        let mut rec = Vec::new();
        let context =
            (o.before > 0 || o.after > 0) && o.list == ListMode::None && !o.count && !o.only;
        // After a skip that found a match at once, lines are read one by one for a
        // while: where most lines match, skipping would search each twice.
        let mut skip_pause = 0u32;
        // Counting and plain printing take each block of whole buffered lines at once.
        let mut by_block = !o.invert
            && !context
            && !o.only
            && !o.quiet
            && o.list == ListMode::None
            && o.max_count.is_none()
            && self.m.many_lines().is_some();
        loop {
            if by_block && (o.text || !binary) {
                let buf = reader.fill_buf()?;
                let mut block = memchr::memrchr(o.eol, buf)
                    .and_then(|last| buf.get(..=last))
                    .unwrap_or_default();
                // Lines from the one with a NUL on are read one by one (it makes the
                // input binary).
                if let Some(z) = memchr::memchr(0, block).filter(|_| !o.text) {
                    let cut = block
                        .get(..z)
                        .and_then(|head| memchr::memrchr(o.eol, head))
                        .map_or(0, |p| p + 1);
                    block = block.get(..cut).unwrap_or_default();
                    by_block = false;
                }
                if !block.is_empty() {
                    let at = Position {
                        line_no,
                        offset,
                        name: shown,
                    };
                    if let Some(n) = self.select_block(ctx, block, at, &mut selected)? {
                        line_no = n;
                        let len = block.len();
                        offset += len as u64;
                        reader.consume(len);
                        ctx.host.check()?;
                        continue;
                    }
                }
            }
            if !o.invert && (!context || (o.before == 0 && after_left == 0)) {
                if skip_pause > 0 {
                    skip_pause -= 1;
                } else if let Some(n) = self.skip_lines(reader)? {
                    if n == 0 {
                        skip_pause = 16;
                    } else {
                        let buf = reader.fill_buf()?;
                        let skipped = buf.get(..n).unwrap_or(&[]);
                        line_no += memchr::memchr_iter(o.eol, skipped).count() as u64;
                        offset += n as u64;
                        if !o.text && !binary && memchr::memchr(0, skipped).is_some() {
                            binary = true;
                        }
                        reader.consume(n);
                        ctx.host.check()?;
                        continue;
                    }
                }
            }
            rec.clear();
            if reader.read_until(o.eol, &mut rec)? == 0 {
                break;
            }
            line_no += 1;
            if line_no.is_multiple_of(1024) {
                ctx.host.check()?;
            }
            let line_off = offset;
            offset += rec.len() as u64;
            let line = rec.strip_suffix(&[o.eol]).unwrap_or(&rec);
            if !o.text && !binary && line.contains(&0) && o.eol != 0 {
                binary = true;
            }
            if o.max_count.is_some_and(|m| selected >= m) {
                // Only trailing context remains to print: GNU prints it as context
                // whether or not it matches.
                if context && after_left > 0 && o.max_count.is_none_or(|m| m != 0) {
                    self.prefix(shown, line_no, line_off, b'-');
                    self.out.extend_from_slice(line);
                    self.out.push(o.eol);
                    after_left -= 1;
                    continue;
                }
                break;
            }
            let is_sel = self.m.is_match(line) != o.invert;
            if !is_sel {
                if context {
                    if after_left > 0 {
                        self.prefix(shown, line_no, line_off, b'-');
                        self.out.extend_from_slice(line);
                        self.out.push(o.eol);
                        last_printed = Some(line_no);
                        after_left -= 1;
                    } else if o.before > 0 {
                        before.push_back((line_no, line_off, line.to_vec()));
                        if before.len() > o.before {
                            before.pop_front();
                        }
                    }
                }
                continue;
            }
            selected += 1;
            self.any_selected = true;
            if o.quiet {
                self.quit = true;
                return Ok(true);
            }
            if o.list != ListMode::None {
                break;
            }
            if o.count {
                continue;
            }
            if binary && !o.text {
                if o.skip_binary {
                    return Ok(false);
                }
                self.flush(ctx)?;
                writeln!(ctx.stderr, "grep: {name}: binary file matches")?;
                return Ok(true);
            }
            if context {
                let first_shown = before.front().map_or(line_no, |b| b.0);
                let gap = match last_printed {
                    Some(lp) => first_shown > lp + 1,
                    None => self.group_printed,
                };
                if gap {
                    self.out.extend_from_slice(b"--\n");
                }
                self.group_printed = true;
                for (n, off, l) in std::mem::take(&mut before) {
                    self.prefix(shown, n, off, b'-');
                    self.out.extend_from_slice(&l);
                    self.out.push(o.eol);
                }
            }
            if o.only {
                if !o.invert {
                    let mut pos = 0;
                    while let Some((s, e)) = self.m.find_at(line, pos) {
                        if e > s {
                            self.prefix(shown, line_no, line_off + s as u64, b':');
                            self.out.extend_from_slice(&line[s..e]);
                            self.out.push(o.eol);
                            pos = e;
                        } else {
                            pos = e + 1;
                        }
                        if pos > line.len() {
                            break;
                        }
                    }
                }
            } else {
                self.prefix(shown, line_no, line_off, b':');
                self.out.extend_from_slice(line);
                self.out.push(o.eol);
            }
            last_printed = Some(line_no);
            after_left = o.after;
            self.flush_if_full(ctx)?;
        }
        if o.count {
            if let Some(n) = shown {
                self.out.extend_from_slice(&crate::text::encode(n));
                self.out.push(if o.null_after_name { 0 } else { b':' });
            }
            self.out
                .extend_from_slice(format!("{selected}\n").as_bytes());
        }
        match o.list {
            ListMode::Matching if selected > 0 => self.list_name(name),
            ListMode::NonMatching if selected == 0 => self.list_name(name),
            _ => {}
        }
        Ok(selected > 0)
    }

    /// Selects the lines of `block` (whole lines, each ending in a newline) that
    /// follow `at`, counting them into `selected` and printing them unless only
    /// counted; newlines are counted only where a line number is printed. Returns the
    /// number of the block's last line, or `None` when the pattern cannot be searched
    /// a block at a time.
    fn select_block(
        &mut self,
        ctx: &mut Io,
        block: &[u8],
        at: Position,
        selected: &mut u64,
    ) -> io::Result<Option<u64>> {
        let o = self.o;
        let (mut line_no, mut counted, mut pos) = (at.line_no, 0, 0);
        while pos < block.len() {
            let Some(found) = self.m.next_line(block, pos) else {
                return Ok(None);
            };
            let Some((start, end)) = found else { break };
            *selected += 1;
            self.any_selected = true;
            pos = end + 1;
            if o.count {
                continue;
            }
            if o.line_numbers {
                let skipped = block.get(counted..start).unwrap_or_default();
                line_no += memchr::memchr_iter(b'\n', skipped).count() as u64 + 1;
                counted = pos;
            }
            self.prefix(at.name, line_no, at.offset + start as u64, b':');
            self.out
                .extend_from_slice(block.get(start..pos).unwrap_or_default());
            self.flush_if_full(ctx)?;
        }
        if o.line_numbers {
            let rest = block.get(counted..).unwrap_or_default();
            line_no += memchr::memchr_iter(b'\n', rest).count() as u64;
        }
        Ok(Some(line_no))
    }

    /// How many buffered bytes of `reader` hold no selected line (see
    /// [`Matcher::skip`]); `None` when too few whole lines are buffered to be worth it.
    fn skip_lines(&self, reader: &mut dyn BufRead) -> io::Result<Option<usize>> {
        let buf = reader.fill_buf()?;
        if buf.len() < 4096 {
            return Ok(None);
        }
        let Some(last) = memchr::memrchr(self.o.eol, buf) else {
            return Ok(None);
        };
        Ok(self.m.skip(buf.get(..=last).unwrap_or(&[])))
    }

    fn list_name(&mut self, name: &str) {
        self.out.extend_from_slice(&crate::text::encode(name));
        self.out
            .push(if self.o.null_after_name { 0 } else { b'\n' });
    }

    /// Writes the output out once it holds a block's worth.
    fn flush_if_full(&mut self, ctx: &mut Io) -> io::Result<()> {
        if self.out.len() >= 8192 {
            self.flush(ctx)?;
        }
        Ok(())
    }

    fn flush(&mut self, ctx: &mut Io) -> io::Result<()> {
        if !self.out.is_empty() {
            ctx.stdout.write_all(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }
}

/// The start of the line of `lines` that holds byte `at`, looking back no further than
/// `from` (itself a line start).
fn line_start(lines: &[u8], from: usize, at: usize) -> usize {
    lines
        .get(from..at)
        .and_then(|head| memchr::memrchr(b'\n', head))
        .map_or(from, |p| from + p + 1)
}

/// GNU's binary test: a NUL byte, or bytes that are not valid UTF-8.
fn looks_binary(head: &[u8], eol: u8) -> bool {
    if eol != 0 && head.contains(&0) {
        return true;
    }
    match std::str::from_utf8(head) {
        Ok(_) => false,
        // A sequence cut at the end of the buffer is not an error.
        Err(e) => e.error_len().is_some(),
    }
}

fn build(
    ctx: &mut Ctx,
    patterns: &[String],
    mode: char,
    o: &Opts,
    icase: bool,
    line: bool,
) -> io::Result<Result<Matcher, i32>> {
    let mut parts = Vec::new();
    let mut translated = Vec::new();
    let mut backrefs = false;
    for p in patterns {
        let t = match mode {
            'F' => ::regex::escape(p),
            'P' => p.clone(),
            _ => match regex::translate_full(p, mode == 'E') {
                Ok(t) => {
                    backrefs |= t.backrefs;
                    t.pattern
                }
                Err(msg) => {
                    ctx.err(msg)?;
                    return Ok(Err(2));
                }
            },
        };
        translated.push(t.clone());
        parts.push(format!("(?:{t})"));
    }
    if backrefs {
        let mut back = Vec::new();
        for t in translated {
            let t = if line { format!("^(?:{t})$") } else { t };
            match super::backtrack::Backtrack::new(&t, icase) {
                Ok(b) => back.push(b),
                Err(msg) => {
                    ctx.err(msg)?;
                    return Ok(Err(2));
                }
            }
        }
        return Ok(Ok(Matcher {
            re: Regex::new("$^").map_err(io::Error::other)?,
            back,
            fancy: Vec::new(),
            word: o.word,
            exhausted: std::cell::Cell::new(false),
            skip_pattern: None,
            skip_re: std::cell::OnceCell::new(),
        }));
    }
    let mut pat = parts.join("|");
    if line {
        pat = format!("^(?:{pat})$");
    }
    // `\A`/`\z` (GNU's \` and \') anchor to each line alone; -P patterns may set
    // their own flags; with -z records are not lines.
    let skip_pattern =
        (mode != 'P' && o.eol == b'\n' && !pat.contains("\\A") && !pat.contains("\\z"))
            .then(|| (pat.clone(), icase));
    match RegexBuilder::new(&pat)
        .case_insensitive(icase)
        .multi_line(false)
        .size_limit(64 << 20)
        .build()
    {
        Ok(re) => Ok(Ok(Matcher {
            re,
            back: Vec::new(),
            fancy: Vec::new(),
            word: o.word,
            exhausted: std::cell::Cell::new(false),
            skip_pattern,
            skip_re: std::cell::OnceCell::new(),
        })),
        Err(_) if mode == 'P' => match perl_backtracking(&translated, icase, line) {
            Ok(fancy) => Ok(Ok(Matcher {
                re: Regex::new("$^").map_err(io::Error::other)?,
                back: Vec::new(),
                fancy,
                word: o.word,
                exhausted: std::cell::Cell::new(false),
                skip_pattern: None,
                skip_re: std::cell::OnceCell::new(),
            })),
            Err(msg) => {
                ctx.err(msg)?;
                Ok(Err(2))
            }
        },
        Err(e) => {
            let msg = e.to_string();
            let short = msg
                .lines()
                .last()
                .unwrap_or("invalid regular expression")
                .trim();
            ctx.err(short.strip_prefix("error: ").unwrap_or(short))?;
            Ok(Err(2))
        }
    }
}

/// Steps a `-P` backtracking search may take on one line before it gives up (GNU
/// grep's PCRE2 match limit is ten million too).
const PERL_BACKTRACK_LIMIT: usize = 10_000_000;

/// `-P` patterns compiled for the backtracking engine, or the message PCRE2 gives
/// for the first that does not compile.
fn perl_backtracking(
    patterns: &[String],
    icase: bool,
    line: bool,
) -> Result<Vec<fancy_regex::Regex>, String> {
    patterns
        .iter()
        .map(|p| {
            let p = if line {
                format!("^(?:{p})$")
            } else {
                p.clone()
            };
            fancy_regex::RegexBuilder::new(&p)
                .case_insensitive(icase)
                .backtrack_limit(PERL_BACKTRACK_LIMIT)
                .build()
                .map_err(|e| perl_error(&e))
        })
        .collect()
}

/// PCRE2's words for the compile errors people meet; the engine's own otherwise.
fn perl_error(e: &fancy_regex::Error) -> String {
    use fancy_regex::{CompileError, Error, ParseError};
    match e {
        Error::ParseError(_, ParseError::UnclosedOpenParen) => {
            "missing closing parenthesis".to_owned()
        }
        Error::ParseError(_, ParseError::InvalidBackref) => {
            "reference to non-existent subpattern".to_owned()
        }
        Error::CompileError(c) => match **c {
            CompileError::InvalidBackref(_) => "reference to non-existent subpattern".to_owned(),
            CompileError::LookBehindNotConst | CompileError::VariableLookBehindRequiresFeature => {
                "lookbehind assertion is not fixed length".to_owned()
            }
            _ => c.to_string(),
        },
        other => other.to_string(),
    }
}

/// `egrep`: `grep -E` (GNU still ships it as a wrapper).
pub fn egrep(ctx: &mut Ctx) -> CmdResult {
    with_mode(ctx, "-E")
}

/// `fgrep`: `grep -F`.
pub fn fgrep(ctx: &mut Ctx) -> CmdResult {
    with_mode(ctx, "-F")
}

fn with_mode(ctx: &mut Ctx, flag: &str) -> CmdResult {
    let mut args = vec![flag.to_owned()];
    args.extend(ctx.args.iter().cloned());
    let mut sub = Ctx {
        name: "grep",
        args: &args,
        stdin: &mut *ctx.stdin,
        stdout: &mut *ctx.stdout,
        stderr: &mut *ctx.stderr,
        env: ctx.env,
        cwd: ctx.cwd,
        fs: ctx.fs,
        host: &mut *ctx.host,
        umask: ctx.umask,
        shared: ctx.shared,
    };
    grep(&mut sub)
}

pub fn grep(ctx: &mut Ctx) -> CmdResult {
    // `-NUM` is `--context=NUM`.
    let mut args: Vec<String> = Vec::new();
    let mut ended = false;
    for a in ctx.args {
        if !ended && a == "--" {
            ended = true;
        }
        if !ended && a.len() > 1 && a.starts_with('-') && a[1..].bytes().all(|b| b.is_ascii_digit())
        {
            args.push(format!("--context={}", &a[1..]));
        } else {
            args.push(a.clone());
        }
    }
    let parsed = match super::args::parse(
        &Spec::new("EFGPe:f:iywxzsvm:bnHhoqaD:rRLlcTZA:B:C:Ud:", LONG),
        &args,
    ) {
        Ok(p) => p,
        Err(msg) => return usage(ctx, Some(&msg)),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut o = Opts {
        invert: false,
        word: false,
        count: false,
        list: ListMode::None,
        only: false,
        quiet: false,
        silent: false,
        line_numbers: false,
        byte_offset: false,
        with_filename: None,
        before: 0,
        after: 0,
        max_count: None,
        text: false,
        skip_binary: false,
        null_after_name: false,
        initial_tab: false,
        eol: b'\n',
        recursive: false,
        deref: false,
        includes: Vec::new(),
        excludes: Vec::new(),
        exclude_dirs: Vec::new(),
        label: "(standard input)".to_owned(),
        skip_dirs: false,
    };
    let mut mode = 'G';
    // GNU refuses two different matchers (`-E -F`, also `egrep -F`).
    let mut matcher_given = false;
    let mut icase = false;
    let mut line_match = false;
    let mut patterns: Option<Vec<String>> = None;
    for (k, v) in &parsed.opts {
        let val = v.clone().unwrap_or_default();
        match k.as_str() {
            "E" | "F" | "G" | "P" => {
                let m = k.chars().next().unwrap_or('G');
                if matcher_given && m != mode {
                    ctx.err("conflicting matchers specified")?;
                    return Ok(2);
                }
                matcher_given = true;
                mode = m;
            }
            "e" => patterns
                .get_or_insert_with(Vec::new)
                .extend(val.split('\n').map(str::to_owned)),
            "f" => {
                let data = match ctx.read_input(&val)? {
                    Ok(d) => d,
                    Err(e) => {
                        ctx.err(format!("{val}: {e}"))?;
                        return Ok(2);
                    }
                };
                let text = crate::text::decode(&data);
                let list = patterns.get_or_insert_with(Vec::new);
                let body = text.strip_suffix('\n').unwrap_or(&text);
                if !body.is_empty() || text.ends_with('\n') {
                    list.extend(body.split('\n').map(str::to_owned));
                }
            }
            "i" | "y" => icase = true,
            "no-ignore-case" => icase = false,
            "w" => o.word = true,
            "x" => line_match = true,
            "z" => o.eol = 0,
            "s" => o.silent = true,
            "v" => o.invert = true,
            "m" => match val.parse::<i64>() {
                Ok(n) => o.max_count = (n >= 0).then_some(n as u64),
                Err(_) => {
                    ctx.err("invalid max count")?;
                    return Ok(2);
                }
            },
            "b" => o.byte_offset = true,
            "n" => o.line_numbers = true,
            "no-line-number" => o.line_numbers = false,
            "H" => o.with_filename = Some(true),
            "h" => o.with_filename = Some(false),
            "label" => o.label = val,
            "o" => o.only = true,
            "q" => o.quiet = true,
            "a" => o.text = true,
            "binary-files" => match val.as_str() {
                "text" => o.text = true,
                "without-match" => o.skip_binary = true,
                "binary" => {}
                _ => {
                    ctx.err("unknown binary-files type")?;
                    return Ok(2);
                }
            },
            "I" => o.skip_binary = true,
            "r" => o.recursive = true,
            "R" => {
                o.recursive = true;
                o.deref = true;
            }
            // Devices are never special here, so `skip` and `read` read them alike.
            "D" if val != "read" && val != "skip" => {
                ctx.err("unknown devices method")?;
                return Ok(2);
            }
            "d" | "directories" => match val.as_str() {
                "recurse" => o.recursive = true,
                "skip" => o.skip_dirs = true,
                "read" => {}
                _ => {
                    ctx.err(format!(
                        "invalid argument {} for '--directories'",
                        super::util::quote(&val)
                    ))?;
                    return usage(
                        ctx,
                        Some("Valid arguments are:\n  - 'read'\n  - 'recurse'\n  - 'skip'"),
                    );
                }
            },
            "include" => o.includes.push(val),
            "exclude" => o.excludes.push(val),
            "exclude-dir" => o.exclude_dirs.push(val),
            "L" => o.list = ListMode::NonMatching,
            "l" => o.list = ListMode::Matching,
            "c" => o.count = true,
            "T" => o.initial_tab = true,
            "Z" => o.null_after_name = true,
            "A" | "B" | "C" => {
                let n = match context_arg(ctx, &val)? {
                    Ok(n) => n,
                    Err(s) => return Ok(s),
                };
                if k != "B" {
                    o.after = n;
                }
                if k != "A" {
                    o.before = n;
                }
            }
            _ => {}
        }
    }
    let mut operands = parsed.operands.clone();
    let patterns = match patterns {
        Some(p) => p,
        None => {
            if operands.is_empty() {
                return usage(ctx, None);
            }
            let p = operands.remove(0);
            p.split('\n').map(str::to_owned).collect()
        }
    };
    // No pattern at all (`-f /dev/null`) matches nothing, as GNU grep has it: the
    // empty pattern (which matches every line) with the selection inverted.
    let no_patterns = patterns.is_empty();
    let (patterns, line_match) = if no_patterns {
        o.invert = !o.invert;
        o.word = false;
        (vec![String::new()], false)
    } else {
        (patterns, line_match)
    };
    // -l and -L list names only; a count is not printed beside them.
    if o.list != ListMode::None {
        o.count = false;
    }
    // GNU stops before reading anything when nothing can be selected.
    if (o.max_count == Some(0) || (no_patterns && o.invert)) && o.list != ListMode::NonMatching {
        return Ok(1);
    }
    let matcher = match build(ctx, &patterns, mode, &o, icase, line_match)? {
        Ok(m) => m,
        Err(s) => return Ok(s),
    };
    let implicit_dot = operands.is_empty() && o.recursive;
    if operands.is_empty() {
        operands.push(if o.recursive {
            ".".to_owned()
        } else {
            "-".to_owned()
        });
    }
    let single_file = operands.len() == 1 && {
        let op = &operands[0];
        op == "-" || !o.recursive || !ctx.fs.lock().stat(&ctx.path(op)).is_ok_and(|m| m.is_dir())
    };
    let show_name = o.with_filename.unwrap_or(!single_file);
    let mut run = Run {
        o: &o,
        m: matcher,
        out: Vec::new(),
        any_selected: false,
        errors: false,
        quit: false,
        group_printed: false,
    };
    for op in &operands {
        let display = if implicit_dot {
            String::new()
        } else {
            op.clone()
        };
        search_operand(ctx, &mut run, op, &display, show_name, None)?;
        if run.quit {
            break;
        }
    }
    run.flush(&mut io_of(ctx))?;
    if run.m.exhausted.get() {
        ctx.err(super::backtrack::Exhausted)?;
        return Ok(2);
    }
    Ok(if run.any_selected && (o.quiet || !run.errors) {
        0
    } else if run.errors {
        2
    } else {
        1
    })
}

fn excluded(o: &Opts, name: &str) -> bool {
    let base = name
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(name);
    if o.excludes.iter().any(|g| fnmatch(g, base, false)) {
        return true;
    }
    !o.includes.is_empty() && !o.includes.iter().any(|g| fnmatch(g, base, false))
}

/// Searches operand `op`, or under it with -r. `listed` is the inode of an entry met
/// while recursing (None for a command-line operand), read without walking its path
/// again.
fn search_operand(
    ctx: &mut Ctx,
    run: &mut Run,
    op: &str,
    display: &str,
    show_name: bool,
    listed: Option<crate::fs::Ino>,
) -> io::Result<()> {
    let o = run.o;
    let top = listed.is_none();
    if op == "-" && top {
        let label = o.label.clone();
        let mut reader = BufReader::with_capacity(64 * 1024, &mut *ctx.stdin);
        let mut io = Io {
            stdout: &mut *ctx.stdout,
            stderr: &mut *ctx.stderr,
            host: &mut *ctx.host,
        };
        run.search(&mut io, &mut reader, &label, show_name)?;
        return perl_exhausted(&mut io, run, &label);
    }
    let path = ctx.path(if display.is_empty() { "." } else { op });
    let meta = {
        let fs = ctx.fs.lock();
        // Only the kind matters here: reading looks at the file anyway.
        match listed.map(|ino| fs.stat_ino_unsized(ino)) {
            Some(Ok(m)) if !(o.deref && m.is_symlink()) => Ok(m),
            _ if top || o.deref => fs.stat(&path),
            _ => fs.lstat(&path),
        }
    };
    let shown = if display.is_empty() { op } else { display };
    let meta = match meta {
        Ok(m) => m,
        Err(e) => {
            if !o.silent {
                run.flush(&mut io_of(ctx))?;
                ctx.err(format!("{shown}: {e}"))?;
            }
            run.errors = true;
            return Ok(());
        }
    };
    if meta.is_symlink() {
        // -r skips symlinks met during recursion.
        return Ok(());
    }
    if meta.is_dir() {
        if !o.recursive {
            if o.skip_dirs {
                return Ok(());
            }
            if !o.silent {
                run.flush(&mut io_of(ctx))?;
                ctx.err(format!("{shown}: Is a directory"))?;
            }
            run.errors = true;
            return Ok(());
        }
        if !top
            && o.exclude_dirs
                .iter()
                .any(|g| fnmatch(g, crate::fs::path::file_name(&path), false))
        {
            return Ok(());
        }
        let entries = ctx.fs.lock().read_dir(&path);
        let entries = match entries {
            Ok(e) => e,
            Err(e) => {
                if !o.silent {
                    run.flush(&mut io_of(ctx))?;
                    ctx.err(format!("{shown}: {e}"))?;
                }
                run.errors = true;
                return Ok(());
            }
        };
        for e in entries {
            let child_display = if display.is_empty() {
                e.name.clone()
            } else if display.ends_with('/') {
                format!("{display}{}", e.name)
            } else {
                format!("{display}/{}", e.name)
            };
            let child_op = if op.ends_with('/') {
                format!("{op}{}", e.name)
            } else {
                format!("{op}/{}", e.name)
            };
            search_operand(ctx, run, &child_op, &child_display, show_name, Some(e.ino))?;
            if run.quit {
                return Ok(());
            }
        }
        return Ok(());
    }
    if (!top || o.recursive) && excluded(o, shown) {
        return Ok(());
    }
    if top
        && !o.recursive
        && excluded(o, shown)
        && !(o.includes.is_empty() && o.excludes.is_empty())
    {
        return Ok(());
    }
    let data = match listed {
        // A regular file met while recursing (not through a link) is read by its inode.
        Some(ino) if meta.is_file() && meta.ino == ino => {
            ctx.fs.lock().read_inode(ino).map_err(|e| e.to_string())
        }
        _ => match ctx.open_input(op) {
            // A FIFO or a process substitution is searched as it comes, as stdin is:
            // `grep -m1 x <(yes x)` ends without waiting for the end.
            Ok(crate::commands::util::Input::Stream(r)) => {
                let mut reader = io::BufReader::with_capacity(64 * 1024, r);
                run.search(&mut io_of(ctx), &mut reader, shown, show_name)?;
                return perl_exhausted(&mut io_of(ctx), run, shown);
            }
            Ok(input) => Ok(input.read_all(&mut io::empty())?),
            Err(e) => Err(e.to_string()),
        },
    };
    let data = match data {
        Ok(d) => d,
        Err(e) => {
            if !o.silent {
                run.flush(&mut io_of(ctx))?;
                ctx.err(format!("{shown}: {e}"))?;
            }
            run.errors = true;
            return Ok(());
        }
    };
    let mut reader: &[u8] = &data;
    let name = shown.to_owned();
    run.search(&mut io_of(ctx), &mut reader, &name, show_name)?;
    perl_exhausted(&mut io_of(ctx), run, &name)
}

/// After a `-P` search of input `name` where a line ran out of backtracking steps:
/// GNU's message for that input (the search went on with the next line), and status 2
/// at the end.
fn perl_exhausted(io: &mut Io, run: &mut Run, name: &str) -> io::Result<()> {
    if run.m.fancy.is_empty() || !run.m.exhausted.replace(false) {
        return Ok(());
    }
    run.flush(io)?;
    writeln!(
        io.stderr,
        "grep: {name}: exceeded PCRE's backtracking limit"
    )?;
    run.errors = true;
    Ok(())
}

fn io_of<'x>(ctx: &'x mut Ctx) -> Io<'x> {
    Io {
        stdout: &mut *ctx.stdout,
        stderr: &mut *ctx.stderr,
        host: &mut *ctx.host,
    }
}

#[cfg(test)]
mod backref_tests {
    use crate::commands::testing::check;

    #[test]
    fn back_references_use_the_backtracker() {
        let files: &[(&str, &str)] = &[("g", "abab\nabc\naa\nxyzzy\n")];
        for (line, out, status) in [
            ("grep '\\(ab\\)\\1' g", "abab\n", 0),
            ("grep -E '(.)\\1' g", "aa\nxyzzy\n", 0),
            ("grep -c -E '(.)\\1' g", "2\n", 0),
            ("grep -o -E '(.)\\1' g", "aa\nzz\n", 0),
            ("grep -x -E '(a)\\1' g", "aa\n", 0),
            ("grep -i -E '(A)\\1' g", "aa\n", 0),
            ("grep -w '\\(z\\)\\1' g", "", 1),
        ] {
            check(files, line, "", (out, "", status));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[
        ("a", "hello\nworld\nhello world\n"),
        ("bin", "x\0hello\n"),
        ("sub/b", "hello there\n"),
        ("sub/deep/c", "nothing\n"),
        ("ctx", "1\n2\nm\n4\n5\n6\n7\nm\n9\n"),
        ("lat", "caf\u{e9} hello\n"),
    ];

    #[test]
    fn grep_table() {
        for (line, stdin, out, err, status) in [
            (
                "grep hello a bin",
                "",
                "a:hello\na:hello world\n",
                "grep: bin: binary file matches\n",
                0,
            ),
            ("grep -r hello sub", "", "sub/b:hello there\n", "", 0),
            ("grep -r hello a", "", "hello\nhello world\n", "", 0),
            ("grep hello sub", "", "", "grep: sub: Is a directory\n", 2),
            ("grep -c hello a sub/b", "", "a:2\nsub/b:1\n", "", 0),
            (
                "grep -l hello a bin sub/b sub/deep/c",
                "",
                "a\nbin\nsub/b\n",
                "",
                0,
            ),
            (
                "grep -L hello a sub/b sub/deep/c",
                "",
                "sub/deep/c\n",
                "",
                0,
            ),
            ("grep -L zzz a", "", "a\n", "", 1),
            ("grep -n -A1 world a", "", "2:world\n3:hello world\n", "", 0),
            ("grep -C1 m ctx", "", "2\nm\n4\n--\n7\nm\n9\n", "", 0),
            (
                "grep -n -C1 m ctx",
                "",
                "2-2\n3:m\n4-4\n--\n7-7\n8:m\n9-9\n",
                "",
                0,
            ),
            (
                "grep -A1 m ctx a",
                "",
                "ctx:m\nctx-4\n--\nctx:m\nctx-9\n",
                "",
                0,
            ),
            ("grep -o 'l\\+' a", "", "ll\nl\nll\nl\n", "", 0),
            ("grep -b -o ll a", "", "2:ll\n14:ll\n", "", 0),
            (
                "grep x nosuchfile",
                "",
                "",
                "grep: nosuchfile: No such file or directory\n",
                2,
            ),
            ("grep -s x nosuchfile", "", "", "", 2),
            (
                "grep -q hello nosuch a",
                "",
                "",
                "grep: nosuch: No such file or directory\n",
                0,
            ),
            ("grep -w hell a", "", "", "", 1),
            ("grep -w 'o w' a", "", "", "", 1),
            ("grep -ow foo", "foo foo\n", "foo\nfoo\n", "", 0),
            ("grep -x hello a", "", "hello\n", "", 0),
            ("grep -e hello -e world -c a", "", "3\n", "", 0),
            ("grep -m1 hello a", "", "hello\n", "", 0),
            ("grep -A1 -m1 hello a", "", "hello\nworld\n", "", 0),
            (
                "grep -h hello a sub/b",
                "",
                "hello\nhello world\nhello there\n",
                "",
                0,
            ),
            ("grep -H hi", "hi\n", "(standard input):hi\n", "", 0),
            ("grep '\\(' a", "", "", "grep: Unmatched ( or \\(\n", 2),
            ("grep -E '(' a", "", "", "grep: Unmatched ( or \\(\n", 2),
            ("grep 'a\\{1' a", "", "", "grep: Unmatched \\{\n", 2),
            ("grep -v hello a", "", "world\n", "", 0),
            ("grep -c hello bin", "", "1\n", "", 0),
            ("grep hello lat", "", "caf\u{e9} hello\n", "", 0),
            ("grep -i HELLO a", "", "hello\nhello world\n", "", 0),
            ("grep -F .", "foo.bar\nfoo\n", "foo.bar\n", "", 0),
            ("grep -E 'a|x'", "abc\n", "abc\n", "", 0),
            ("grep 'a+b'", "a+b\naab\n", "a+b\n", "", 0),
            ("grep 'a\\+b'", "a+b\naab\n", "aab\n", "", 0),
            ("grep -E 'a{1'", "a{1}\n", "a{1}\n", "", 0),
            ("grep -o ''", "ab\n", "", "", 0),
            ("grep -n -v a", "a\nb\n", "2:b\n", "", 0),
            ("grep -rn hello sub", "", "sub/b:1:hello there\n", "", 0),
            ("grep hello -", "hello\n", "hello\n", "", 0),
            ("grep -c y", "x\n", "0\n", "", 1),
            (
                "grep -nA1 hello a ctx",
                "",
                "a:1:hello\na-2-world\na:3:hello world\n",
                "",
                0,
            ),
            ("grep -r --include=*.c -l .", "", "", "", 1),
            (
                "grep -r --exclude-dir=deep -l e",
                "",
                "a\nbin\nlat\nsub/b\n",
                "",
                0,
            ),
            (
                "grep -r --include=c o sub",
                "",
                "sub/deep/c:nothing\n",
                "",
                0,
            ),
            (
                "grep -r --exclude=b o sub",
                "",
                "sub/deep/c:nothing\n",
                "",
                0,
            ),
            ("grep '[[:digit:]]' ctx -c", "", "7\n", "", 0),
            ("grep -E '^(1|9)$' ctx", "", "1\n9\n", "", 0),
            ("grep '^[^m]*$' -c ctx", "", "7\n", "", 0),
            ("grep -2 5 ctx", "", "m\n4\n5\n6\n7\n", "", 0),
            (
                "grep",
                "",
                "",
                "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
                2,
            ),
            (
                "grep -Y x",
                "",
                "",
                "grep: invalid option -- 'Y'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
                2,
            ),
            ("grep -Z -l hello a", "", "a\0", "", 0),
            ("grep -z -c b", "a\0b\0", "1\n", "", 0),
            ("grep '\\<wor' a", "", "world\nhello world\n", "", 0),
            ("grep 'o\\b' a", "", "hello\nhello world\n", "", 0),
            ("grep -e a -f /dev/null", "a\n", "a\n", "", 0),
            ("grep -P '\\d+' ctx -c", "", "7\n", "", 0),
        ] {
            check(FILES, line, stdin, (out, err, status));
        }
    }
}

#[cfg(test)]
mod stream_tests {
    use crate::commands::testing::run_endless;

    #[test]
    fn endless_input_ends() {
        let (out, status, _) = run_endless("grep -m2 y", b"y\nn\n", 1 << 20);
        assert_eq!((out.as_slice(), status), (&b"y\ny\n"[..], 0));
        let (_, status, _) = run_endless("grep -q n", b"y\nn\n", 1 << 20);
        assert_eq!(status, 0);
        let (out, status, _) = run_endless("grep y", b"y\nn\n", 10_000);
        assert_eq!((out.len(), status), (10_000, 141));
    }
}
