//! `sed`: GNU sed — addresses (`N`, `$`, `/re/I`, `\%re%`, `first~step`, `a,+N`,
//! `a,~N`, `0,/re/`, `!`), every command but `e` (`{} s y d D p P n N g G h H x b t T
//! a i c = l q Q r R w W z F`), `s` flags `g p N i I m M w`, `\L \U \l \u \E` in
//! replacements, and the options `-n -e -f -E/-r -i[SUFFIX] -s -z -l N --posix`.
//! Input streams line by line (with one line of look-ahead for `$`).

mod parse;
pub mod regex;

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::rc::Rc;

use self::parse::{Addr, Addr2, Cmd, Kind, Piece, Repl, Script};
use self::regex::Rx;
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("quiet", HasArg::No, "n"),
    long("silent", HasArg::No, "n"),
    long("expression", HasArg::Required, "e"),
    long("file", HasArg::Required, "f"),
    long("regexp-extended", HasArg::No, "E"),
    long("in-place", HasArg::Optional, "i"),
    long("separate", HasArg::No, "s"),
    long("null-data", HasArg::No, "z"),
    long("zero-terminated", HasArg::No, "z"),
    long("line-length", HasArg::Required, "l"),
    long("posix", HasArg::No, "posix"),
    long("unbuffered", HasArg::No, "u"),
    long("debug", HasArg::No, "debug"),
    long("sandbox", HasArg::No, "sandbox"),
    long("follow-symlinks", HasArg::No, "follow-symlinks"),
    long("binary", HasArg::No, "b"),
    super::about::HELP,
    super::about::VERSION,
];

const USAGE: &str = r#"Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the `l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
"#;

/// Where input lines come from: the operands in turn.
enum Source {
    Mem(std::sync::Arc<Vec<u8>>, usize),
    Stdin,
    /// A FIFO or process substitution, read as it comes (with whether it has ended).
    Stream(Box<dyn Read + Send>, bool),
}

struct Input<'s> {
    names: Vec<String>,
    next_name: usize,
    cur: Option<Source>,
    cur_name: String,
    stdin: &'s mut dyn Read,
    stdin_buf: Vec<u8>,
    /// Where the unread part of `stdin_buf` starts.
    stdin_pos: usize,
    stdin_eof: bool,
    /// A line read ahead (to answer "is this the last line?").
    peeked: Option<(Vec<u8>, bool)>,
    /// A spent pattern space, whose allocation the next line reuses.
    spare: Vec<u8>,
    delim: u8,
    /// Each file on its own (`-s`, `-i`): `$` is each file's last line.
    separate: bool,
    errors: Vec<String>,
    status: i32,
    /// The operands naming FIFOs, opened through the host before the run (the reading
    /// code cannot reach it).
    fifos: BTreeMap<String, Source>,
}

impl Input<'_> {
    fn read_raw(
        &mut self,
        fs: &crate::fs::SharedFs,
        cwd: &str,
    ) -> io::Result<Option<(Vec<u8>, bool)>> {
        loop {
            if self.cur.is_none() {
                if self.separate {
                    return Ok(None);
                }
                if !self.open_next(fs, cwd) {
                    return Ok(None);
                }
            }
            let delim = self.delim;
            let line = match &mut self.cur {
                Some(Source::Mem(data, pos)) => {
                    let rest = data.get(*pos..).unwrap_or(&[]);
                    if rest.is_empty() {
                        None
                    } else {
                        let (line, had) = match memchr::memchr(delim, rest) {
                            Some(p) => (rest.get(..p).unwrap_or(&[]), true),
                            None => (rest, false),
                        };
                        let line = reuse(&mut self.spare, line);
                        *pos += line.len() + usize::from(had);
                        Some((line, had))
                    }
                }
                Some(src @ (Source::Stdin | Source::Stream(..))) => loop {
                    let rest = self.stdin_buf.get(self.stdin_pos..).unwrap_or(&[]);
                    if let Some(p) = memchr::memchr(delim, rest) {
                        let line = reuse(&mut self.spare, rest.get(..p).unwrap_or(&[]));
                        self.stdin_pos += p + 1;
                        break Some((line, true));
                    }
                    let ended = match src {
                        Source::Stream(_, ended) => *ended,
                        _ => self.stdin_eof,
                    };
                    if ended {
                        let line = rest.to_vec();
                        self.stdin_buf.clear();
                        self.stdin_pos = 0;
                        if line.is_empty() {
                            break None;
                        }
                        break Some((line, false));
                    }
                    // Consumed lines leave the buffer only here, once per read, so a
                    // line costs its own length rather than the whole buffer's.
                    self.stdin_buf.drain(..self.stdin_pos);
                    self.stdin_pos = 0;
                    let mut chunk = [0u8; 8192];
                    let n = match src {
                        Source::Stream(r, ended) => {
                            let n = r.read(&mut chunk)?;
                            *ended = n == 0;
                            n
                        }
                        _ => {
                            let n = self.stdin.read(&mut chunk)?;
                            self.stdin_eof = n == 0;
                            n
                        }
                    };
                    self.stdin_buf
                        .extend_from_slice(chunk.get(..n).unwrap_or(&[]));
                },
                None => None,
            };
            match line {
                Some(l) => return Ok(Some(l)),
                None => {
                    self.cur = None;
                    if self.separate {
                        return Ok(None);
                    }
                }
            }
        }
    }

    /// Opens the next operand; false when none is left.
    fn open_next(&mut self, fs: &crate::fs::SharedFs, cwd: &str) -> bool {
        while let Some(name) = self.names.get(self.next_name).cloned() {
            self.next_name += 1;
            if name == "-" {
                self.cur = Some(Source::Stdin);
                self.cur_name = name;
                return true;
            }
            let path = crate::fs::path::join(cwd, &name);
            let g = fs.lock();
            let meta = g.stat(&path);
            let res = match meta {
                Ok(m) if m.is_dir() => Err(format!("read error on {name}: Is a directory")),
                Ok(m)
                    if matches!(
                        m.file_type,
                        crate::fs::FileType::Device(crate::fs::Device::Stdin)
                    ) =>
                {
                    drop(g);
                    self.cur = Some(Source::Stdin);
                    self.cur_name = name;
                    return true;
                }
                Ok(m) if m.file_type == crate::fs::FileType::Fifo => {
                    // Opened before the run (the host cannot be reached from here).
                    drop(g);
                    let src = self.fifos.remove(&name);
                    self.cur = Some(src.unwrap_or(Source::Mem(std::sync::Arc::default(), 0)));
                    self.cur_name = name;
                    return true;
                }
                Ok(_) => g
                    .read_file(&path)
                    .map_err(|e| format!("can't read {name}: {e}")),
                Err(e) => Err(format!("can't read {name}: {e}")),
            };
            drop(g);
            match res {
                Ok(data) => {
                    self.cur = Some(Source::Mem(data, 0));
                    self.cur_name = name;
                    return true;
                }
                Err(msg) => {
                    self.errors.push(msg);
                    self.status = 2;
                }
            }
        }
        false
    }

    fn next_line(
        &mut self,
        fs: &crate::fs::SharedFs,
        cwd: &str,
    ) -> io::Result<Option<(Vec<u8>, bool)>> {
        if let Some(l) = self.peeked.take() {
            return Ok(Some(l));
        }
        self.read_raw(fs, cwd)
    }

    fn is_last(&mut self, fs: &crate::fs::SharedFs, cwd: &str) -> io::Result<bool> {
        if self.peeked.is_none() {
            self.peeked = self.read_raw(fs, cwd)?;
        }
        Ok(self.peeked.is_none())
    }
}

/// `bytes` in `spare`'s allocation (taken from it).
fn reuse(spare: &mut Vec<u8>, bytes: &[u8]) -> Vec<u8> {
    let mut v = std::mem::take(spare);
    v.clear();
    v.extend_from_slice(bytes);
    v
}

/// Output with GNU's rule: text written after a line that lacked its newline gets one
/// first.
struct Out {
    buf: Vec<u8>,
    missing_newline: bool,
}

impl Out {
    fn write(&mut self, data: &[u8], newline: Option<u8>) {
        if self.missing_newline {
            self.buf.push(b'\n');
            self.missing_newline = false;
        }
        self.buf.extend_from_slice(data);
        match newline {
            Some(b) => self.buf.push(b),
            None => self.missing_newline = !data.is_empty() && data.last() != Some(&b'\n'),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RangeEnd {
    Line(u64),
    Last,
    Re,
}

enum Append {
    Text(Vec<u8>),
    File(String),
    Line(String),
}

struct Opts {
    quiet: bool,
    delim: u8,
    line_len: usize,
    in_place: Option<String>,
    separate: bool,
    posix: bool,
}

struct Exec<'a> {
    o: &'a Opts,
    cmds: &'a [Cmd],
    ranges: Vec<Option<RangeEnd>>,
    ps: Vec<u8>,
    hs: Vec<u8>,
    /// A spare buffer a substitution builds its result in.
    scratch: Vec<u8>,
    had_newline: bool,
    line_no: u64,
    tflag: bool,
    appends: Vec<Append>,
    last_re: Option<Rc<Rx>>,
    out: Out,
    wfiles: BTreeMap<String, crate::commands::util::Output>,
    /// `w` files that failed to take a line (reported at the end, status 4).
    wfailed: Vec<String>,
    rfiles: BTreeMap<String, (std::sync::Arc<Vec<u8>>, usize)>,
    quit: Option<i32>,
    fs: &'a crate::fs::SharedFs,
    cwd: &'a str,
    /// Bytes written to /dev/stderr by `w`.
    err_out: Vec<u8>,
    host: &'a mut dyn super::Host,
}

enum Flow {
    /// End of script: autoprint.
    End,
    /// Delete: next cycle without autoprint.
    Delete,
    /// `D` with a newline: restart without reading.
    Restart,
    /// `q` (autoprint) or `Q` (no print).
    Quit(bool),
}

impl Exec<'_> {
    fn regex(&mut self, r: &Option<Rc<Rx>>) -> io::Result<Rc<Rx>> {
        match r {
            Some(r) => {
                self.last_re = Some(r.clone());
                Ok(r.clone())
            }
            None => self.last_re.clone().ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "-e expression #1, char 0: no previous regular expression",
                )
            }),
        }
    }

    fn re_match(&mut self, r: &Option<Rc<Rx>>) -> io::Result<bool> {
        let re = self.regex(r)?;
        re.is_match(&self.ps).map_err(io::Error::other)
    }

    fn matches1(&mut self, a: &Addr, input: &mut Input) -> io::Result<bool> {
        Ok(match a {
            Addr::Line(n) => self.line_no == *n,
            Addr::Zero => false,
            Addr::Last => input.is_last(self.fs, self.cwd)?,
            Addr::Re(r) => self.re_match(r)?,
            Addr::Step(first, step) => {
                if *step == 0 {
                    self.line_no == *first
                } else {
                    self.line_no >= *first && (self.line_no - first).is_multiple_of(*step)
                }
            }
        })
    }

    fn selected(&mut self, k: usize, input: &mut Input) -> io::Result<bool> {
        let Some(cmd) = self.cmds.get(k) else {
            return Ok(false);
        };
        let Some(a1) = &cmd.a1 else {
            return Ok(true);
        };
        let Some(a2) = &cmd.a2 else {
            return self.matches1(a1, input);
        };
        let line = self.line_no;
        if let Some(end) = self.ranges.get(k).copied().flatten() {
            let done = match end {
                RangeEnd::Line(n) => line >= n,
                RangeEnd::Last => input.is_last(self.fs, self.cwd)?,
                RangeEnd::Re => match a2 {
                    Addr2::Re(r) => self.re_match(r)?,
                    _ => true,
                },
            };
            if done {
                if let Some(r) = self.ranges.get_mut(k) {
                    *r = None;
                }
                // A line-number end already passed (after `n`/`N`) still ends here, but
                // GNU only matches it if the line is not beyond the end.
                if let RangeEnd::Line(n) = end
                    && line > n
                {
                    return self.start_range(k, a1, a2, input);
                }
            }
            return Ok(true);
        }
        self.start_range(k, a1, a2, input)
    }

    fn start_range(
        &mut self,
        k: usize,
        a1: &Addr,
        a2: &Addr2,
        input: &mut Input,
    ) -> io::Result<bool> {
        if !self.matches1(a1, input)? {
            return Ok(false);
        }
        let line = self.line_no;
        let end = match a2 {
            Addr2::Line(n) => (*n > line).then_some(RangeEnd::Line(*n)),
            Addr2::Plus(n) => (*n > 0).then_some(RangeEnd::Line(line.saturating_add(*n))),
            Addr2::Tilde(n) => {
                if *n == 0 || line.is_multiple_of(*n) {
                    None
                } else {
                    Some(RangeEnd::Line(line.div_ceil(*n) * n))
                }
            }
            Addr2::Last => {
                if input.is_last(self.fs, self.cwd)? {
                    None
                } else {
                    Some(RangeEnd::Last)
                }
            }
            Addr2::Re(_) => Some(RangeEnd::Re),
        };
        if let Some(r) = self.ranges.get_mut(k) {
            *r = end;
        }
        Ok(true)
    }

    fn flush_appends(&mut self) -> io::Result<()> {
        for a in std::mem::take(&mut self.appends) {
            match a {
                Append::Text(t) => self.out.write(&t, None),
                Append::File(f) => {
                    let path = crate::fs::path::join(self.cwd, &f);
                    let data = crate::commands::util::read_named(&*self.host, self.fs, &path)?;
                    if let Ok(d) = data
                        && !d.is_empty()
                    {
                        self.out.write(&d, None);
                    }
                }
                Append::Line(f) => {
                    if !self.rfiles.contains_key(&f) {
                        let path = crate::fs::path::join(self.cwd, &f);
                        let data = crate::commands::util::read_named(&*self.host, self.fs, &path)?
                            .unwrap_or_default();
                        self.rfiles.insert(f.clone(), (data, 0));
                    }
                    if let Some((data, pos)) = self.rfiles.get_mut(&f) {
                        let rest = data.get(*pos..).unwrap_or(&[]);
                        if !rest.is_empty() {
                            let end = rest
                                .iter()
                                .position(|&b| b == b'\n')
                                .map_or(rest.len(), |p| p + 1);
                            let line = rest.get(..end).unwrap_or(&[]).to_vec();
                            *pos += end;
                            self.out.write(
                                &line,
                                if line.ends_with(b"\n") {
                                    None
                                } else {
                                    Some(b'\n')
                                },
                            );
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn print_ps(&mut self) {
        let nl = if self.had_newline {
            Some(self.o.delim)
        } else {
            None
        };
        let ps = std::mem::take(&mut self.ps);
        self.out.write(&ps, nl);
        if nl.is_none() {
            self.out.missing_newline = true;
        }
        self.ps = ps;
    }

    /// `w FILE`: the line goes out at once (GNU flushes each one), so a FIFO's reader
    /// or a `>(...)` sees it while the input is still being read.
    fn write_file(&mut self, name: &str, data: &[u8]) -> io::Result<()> {
        match name {
            "/dev/stdout" => self.out.write(data, Some(self.o.delim)),
            "/dev/stderr" => {
                self.err_out.extend_from_slice(data);
                self.err_out.push(self.o.delim);
            }
            _ => {
                let Some(out) = self.wfiles.get_mut(name) else {
                    return Ok(());
                };
                let mut line = data.to_vec();
                line.push(self.o.delim);
                if let Err(e) = out.write(self.fs, &line)? {
                    self.wfiles.remove(name);
                    self.wfailed.push(format!("couldn't write to {name}: {e}"));
                }
            }
        }
        Ok(())
    }

    fn list(&mut self, width: Option<usize>) {
        let width = width.unwrap_or(self.o.line_len);
        let mut text = Vec::new();
        let mut col = 0usize;
        for &b in &self.ps {
            let esc: String = match b {
                b'\\' => "\\\\".to_owned(),
                7 => "\\a".to_owned(),
                8 => "\\b".to_owned(),
                12 => "\\f".to_owned(),
                b'\n' => "\\n".to_owned(),
                b'\r' => "\\r".to_owned(),
                b'\t' => "\\t".to_owned(),
                11 => "\\v".to_owned(),
                0x20..=0x7e => (b as char).to_string(),
                _ => format!("\\{b:03o}"),
            };
            if width > 1 && col + esc.len() > width - 1 {
                text.extend_from_slice(b"\\\n");
                col = 0;
            }
            col += esc.len();
            text.extend_from_slice(esc.as_bytes());
        }
        text.extend_from_slice(b"$");
        self.out.write(&text, Some(b'\n'));
    }

    fn substitute(&mut self, s: &parse::Subst) -> io::Result<bool> {
        let re = self.regex(&s.re)?;
        let hay = std::mem::take(&mut self.ps);
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let mut pos = 0usize;
        let mut copied = 0usize;
        let mut count = 0usize;
        let mut did = false;
        let mut last_end: Option<usize> = None;
        // Without `\1`..`\9` in the replacement, the match's bounds are all it needs.
        let groups = s.repl.iter().any(|r| matches!(r, Repl::Group(k) if *k > 0));
        while pos <= hay.len() {
            let (captured, whole);
            let spans: &[Option<(usize, usize)>] = if groups {
                let Some(found) = re.captures_at(&hay, pos).map_err(io::Error::other)? else {
                    break;
                };
                captured = found;
                &captured
            } else {
                let Some(found) = re.find_at(&hay, pos).map_err(io::Error::other)? else {
                    break;
                };
                whole = [Some(found)];
                &whole
            };
            let Some((ms, me)) = spans.first().copied().flatten() else {
                break;
            };
            // An empty match right after the previous match does not count.
            if ms == me && last_end == Some(ms) {
                pos = ms + char_len(&hay, ms);
                if ms >= hay.len() {
                    break;
                }
                continue;
            }
            count += 1;
            if count >= s.nth {
                out.extend_from_slice(hay.get(copied..ms).unwrap_or(&[]));
                expand(&s.repl, &hay, spans, &mut out);
                copied = me;
                did = true;
                if !s.global {
                    break;
                }
            }
            last_end = Some(me);
            pos = if me == ms {
                me + char_len(&hay, me)
            } else {
                me
            };
            if ms == me && me >= hay.len() {
                break;
            }
        }
        if !did {
            self.ps = hay;
            self.scratch = out;
            return Ok(false);
        }
        out.extend_from_slice(hay.get(copied..).unwrap_or(&[]));
        self.ps = out;
        self.scratch = hay;
        Ok(true)
    }

    /// Runs the script over the current pattern space.
    fn cycle(&mut self, input: &mut Input, start_pc: usize) -> io::Result<Flow> {
        let mut pc = start_pc;
        let mut steps = 0u32;
        while let Some(cmd) = self.cmds.get(pc) {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(256) {
                self.host.check()?;
            }
            let hit = self.selected(pc, input)? != cmd.negate;
            if !hit {
                pc = match cmd.kind {
                    Kind::Block(after) => after,
                    _ => pc + 1,
                };
                continue;
            }
            pc += 1;
            match &cmd.kind {
                Kind::Block(_) | Kind::EndBlock | Kind::Label => {}
                Kind::LineNo => {
                    let t = format!("{}\n", self.line_no);
                    self.out.write(t.as_bytes(), None);
                }
                Kind::Delete => return Ok(Flow::Delete),
                Kind::DeleteFirst => match self.ps.iter().position(|&b| b == b'\n') {
                    None => return Ok(Flow::Delete),
                    Some(p) => {
                        self.ps.drain(..=p);
                        return Ok(Flow::Restart);
                    }
                },
                Kind::GetHold => self.ps = self.hs.clone(),
                Kind::GetHoldAppend => {
                    self.ps.push(b'\n');
                    let hs = self.hs.clone();
                    self.ps.extend_from_slice(&hs);
                }
                Kind::Hold => self.hs = self.ps.clone(),
                Kind::HoldAppend => {
                    self.hs.push(b'\n');
                    self.hs.extend_from_slice(&self.ps);
                }
                Kind::Exchange => std::mem::swap(&mut self.ps, &mut self.hs),
                Kind::Zap => self.ps.clear(),
                Kind::List(n) => self.list(*n),
                Kind::Print => {
                    let ps = self.ps.clone();
                    self.out.write(&ps, Some(self.o.delim));
                }
                Kind::PrintFirst => {
                    let end = self
                        .ps
                        .iter()
                        .position(|&b| b == b'\n')
                        .unwrap_or(self.ps.len());
                    let first = self.ps.get(..end).unwrap_or(&[]).to_vec();
                    self.out.write(&first, Some(self.o.delim));
                }
                Kind::FileName => {
                    let name = if input.cur_name.is_empty() {
                        "-".to_owned()
                    } else {
                        input.cur_name.clone()
                    };
                    let mut t = crate::text::encode(&name);
                    t.push(b'\n');
                    self.out.write(&t, None);
                }
                Kind::Next => {
                    if input.is_last(self.fs, self.cwd)? {
                        // GNU prints the pattern space and stops (POSIX: deletes it).
                        return Ok(if self.o.posix {
                            Flow::Delete
                        } else {
                            Flow::End
                        });
                    }
                    if !self.o.quiet {
                        self.print_ps();
                    }
                    self.flush_appends()?;
                    if let Some((l, nl)) = input.next_line(self.fs, self.cwd)? {
                        self.ps = l;
                        self.had_newline = nl;
                        self.line_no += 1;
                    }
                }
                Kind::NextAppend => {
                    if input.is_last(self.fs, self.cwd)? {
                        // GNU prints the pattern space and stops (POSIX: deletes it).
                        return Ok(if self.o.posix {
                            Flow::Delete
                        } else {
                            Flow::End
                        });
                    }
                    self.flush_appends()?;
                    if let Some((l, nl)) = input.next_line(self.fs, self.cwd)? {
                        self.ps.push(b'\n');
                        self.ps.extend_from_slice(&l);
                        self.had_newline = nl;
                        self.line_no += 1;
                    }
                }
                Kind::Quit { code, print } => {
                    self.quit = Some(*code);
                    return Ok(Flow::Quit(*print));
                }
                Kind::Append(t) => self.appends.push(Append::Text(t.clone())),
                Kind::Insert(t) => self.out.write(t, None),
                Kind::Change(t) => {
                    // In a range, the text goes out once, at its end.
                    let in_range = cmd.a2.is_some() && !cmd.negate;
                    let still_active = self.ranges.get(pc - 1).copied().flatten().is_some();
                    if !in_range || !still_active {
                        self.out.write(t, None);
                    }
                    return Ok(Flow::Delete);
                }
                Kind::Branch(kind, target) => {
                    let jump = match kind {
                        't' => std::mem::replace(&mut self.tflag, false),
                        'T' => !std::mem::replace(&mut self.tflag, false),
                        _ => true,
                    };
                    if jump {
                        match target {
                            Some(t) => pc = *t,
                            None => return Ok(Flow::End),
                        }
                    }
                }
                Kind::ReadFile(f) => self.appends.push(Append::File(f.clone())),
                Kind::ReadLine(f) => self.appends.push(Append::Line(f.clone())),
                Kind::Write(f) => {
                    let ps = self.ps.clone();
                    self.write_file(f, &ps)?;
                }
                Kind::WriteFirst(f) => {
                    let end = self
                        .ps
                        .iter()
                        .position(|&b| b == b'\n')
                        .unwrap_or(self.ps.len());
                    let first = self.ps.get(..end).unwrap_or(&[]).to_vec();
                    self.write_file(f, &first)?;
                }
                Kind::Subst(s) => {
                    if self.substitute(s)? {
                        self.tflag = true;
                        for _ in 0..s.print {
                            let ps = self.ps.clone();
                            self.out.write(&ps, Some(self.o.delim));
                        }
                        if let Some(f) = &s.write {
                            let ps = self.ps.clone();
                            self.write_file(f, &ps)?;
                        }
                    }
                }
                Kind::Translit(map) => {
                    let text = crate::text::decode(&self.ps);
                    let mapped: String = text
                        .chars()
                        .map(|c| map.iter().find(|(a, _)| *a == c).map_or(c, |(_, b)| *b))
                        .collect();
                    self.ps = crate::text::encode(&mapped);
                }
            }
        }
        Ok(Flow::End)
    }
}

fn char_len(hay: &[u8], pos: usize) -> usize {
    match hay.get(pos) {
        Some(&b) if b >= 0xc0 => {
            let len = if b >= 0xf0 {
                4
            } else if b >= 0xe0 {
                3
            } else {
                2
            };
            if hay
                .get(pos..pos + len)
                .is_some_and(|s| std::str::from_utf8(s).is_ok())
            {
                len
            } else {
                1
            }
        }
        _ => 1,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Case {
    None,
    Lower,
    Upper,
}

/// Appends a replacement with its case conversions.
fn expand(repl: &[Repl], hay: &[u8], spans: &[Option<(usize, usize)>], out: &mut Vec<u8>) {
    let mut case = Case::None;
    let mut one: Option<Case> = None;
    let push = |bytes: &[u8], case: Case, one: &mut Option<Case>, out: &mut Vec<u8>| {
        if bytes.is_empty() {
            return;
        }
        if case == Case::None && one.is_none() {
            out.extend_from_slice(bytes);
            return;
        }
        let text = crate::text::decode(bytes);
        let mut chars = text.chars();
        let mut s = String::new();
        if let Some(o) = one.take()
            && let Some(first) = chars.next()
        {
            match o {
                Case::Upper => s.extend(first.to_uppercase()),
                _ => s.extend(first.to_lowercase()),
            }
        }
        let rest: String = chars.collect();
        match case {
            Case::Upper => s.push_str(&rest.to_uppercase()),
            Case::Lower => s.push_str(&rest.to_lowercase()),
            Case::None => s.push_str(&rest),
        }
        crate::text::encode_into(&s, out);
    };
    for r in repl {
        match r {
            Repl::Lit(b) => push(b, case, &mut one, out),
            Repl::Group(k) => {
                if let Some(Some((s, e))) = spans.get(*k) {
                    push(hay.get(*s..*e).unwrap_or(&[]), case, &mut one, out);
                }
            }
            Repl::Lower => {
                case = Case::Lower;
                one = None;
            }
            Repl::Upper => {
                case = Case::Upper;
                one = None;
            }
            Repl::LowerOne => one = Some(Case::Lower),
            Repl::UpperOne => one = Some(Case::Upper),
            Repl::EndCase => {
                case = Case::None;
                one = None;
            }
        }
    }
}

pub fn sed(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("ne:f:Eri::szl:ub", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => {
            ctx.err(msg)?;
            ctx.stderr.write_all(USAGE.as_bytes())?;
            return Ok(1);
        }
    };
    if let Some(s) = super::about::std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut pieces = Vec::new();
    let mut o = Opts {
        quiet: false,
        delim: b'\n',
        line_len: 70,
        in_place: None,
        separate: false,
        posix: false,
    };
    let mut ere = false;
    for (k, v) in &parsed.opts {
        let v = v.clone().unwrap_or_default();
        match k.as_str() {
            "n" => o.quiet = true,
            "e" => pieces.push(Piece {
                text: v,
                file: None,
            }),
            "f" => {
                let data = if v == "-" {
                    let mut d = Vec::new();
                    ctx.stdin.read_to_end(&mut d)?;
                    Ok(d)
                } else {
                    let path = ctx.path(&v);
                    crate::commands::util::read_named(&*ctx.host, ctx.fs, &path)?
                        .map(|d| d.to_vec())
                };
                match data {
                    Ok(d) => {
                        let mut text = crate::text::decode(&d);
                        if text.ends_with('\n') {
                            text.pop();
                        }
                        pieces.push(Piece {
                            text,
                            file: Some(v),
                        });
                    }
                    Err(e) => {
                        ctx.err(format!("couldn't open file {v}: {e}"))?;
                        return Ok(1);
                    }
                }
            }
            "E" | "r" => ere = true,
            "i" => {
                o.in_place = Some(v);
                o.separate = true;
            }
            "s" => o.separate = true,
            "z" => o.delim = 0,
            "posix" => o.posix = true,
            "l" => match v.parse::<usize>() {
                Ok(n) => o.line_len = n,
                Err(_) => {
                    ctx.err(format!("invalid line length: {v}"))?;
                    return Ok(1);
                }
            },
            _ => {}
        }
    }
    let mut operands = parsed.operands.clone();
    if pieces.is_empty() {
        if operands.is_empty() {
            ctx.stderr.write_all(USAGE.as_bytes())?;
            return Ok(1);
        }
        pieces.push(Piece {
            text: operands.remove(0),
            file: None,
        });
    }
    let script: Script = match parse::parse(&pieces, ere) {
        Ok(s) => s,
        Err(msg) => {
            let status = if msg.starts_with("can't find label") {
                4
            } else {
                1
            };
            ctx.err(msg)?;
            return Ok(status);
        }
    };
    if script.quiet {
        o.quiet = true;
    }
    if o.in_place.is_some() && operands.is_empty() {
        ctx.err("no input files")?;
        return Ok(4);
    }
    // `w` files are opened (emptied; a FIFO waits for its reader) before any input is
    // read, as GNU sed opens them while compiling the script.
    let mut wfiles = BTreeMap::new();
    for f in &script.wfiles {
        if f == "/dev/stdout" || f == "/dev/stderr" || wfiles.contains_key(f) {
            continue;
        }
        match ctx.open_output(f, false)? {
            Ok(out) => {
                wfiles.insert(f.clone(), out);
            }
            Err(e) => {
                ctx.err(format!("couldn't open file {f}: {e}"))?;
                return Ok(4);
            }
        }
    }
    if operands.is_empty() {
        operands.push("-".to_owned());
    }
    match run(ctx, &o, &script, operands, wfiles) {
        Err(e)
            if e.get_ref()
                .is_some_and(|i| i.is::<super::backtrack::Exhausted>()) =>
        {
            ctx.err(e)?;
            Ok(4)
        }
        Err(e) if e.kind() == io::ErrorKind::InvalidInput => {
            ctx.err(e)?;
            Ok(1)
        }
        other => other,
    }
}

fn run(
    ctx: &mut Ctx,
    o: &Opts,
    script: &Script,
    operands: Vec<String>,
    wfiles: BTreeMap<String, crate::commands::util::Output>,
) -> CmdResult {
    let fs = ctx.fs.clone();
    let cwd = ctx.cwd.to_owned();
    let groups: Vec<Vec<String>> = if o.separate {
        operands.iter().map(|n| vec![n.clone()]).collect()
    } else {
        vec![operands]
    };
    let mut ranges = Vec::new();
    for c in &script.cmds {
        ranges.push(match (&c.a1, &c.a2) {
            (Some(Addr::Zero), Some(_)) => Some(RangeEnd::Re),
            _ => None,
        });
    }
    // Operands naming FIFOs are read through the host (which the reading code cannot
    // reach), each until its writers close it.
    let mut fifos = BTreeMap::new();
    for name in groups.iter().flatten() {
        let path = ctx.path(name);
        let is_fifo = fs
            .lock()
            .stat(&path)
            .is_ok_and(|m| m.file_type == crate::fs::FileType::Fifo);
        if is_fifo && o.in_place.is_none() && !fifos.contains_key(name) {
            match crate::commands::util::open_named(&*ctx.host, &fs, &path)? {
                Ok(crate::commands::util::Input::Stream(r)) => {
                    fifos.insert(name.clone(), Source::Stream(r, false));
                }
                Ok(crate::commands::util::Input::Bytes(d)) => {
                    fifos.insert(name.clone(), Source::Mem(d, 0));
                }
                _ => {}
            }
        }
    }
    let mut ex = Exec {
        o,
        cmds: &script.cmds,
        ranges,
        ps: Vec::new(),
        hs: Vec::new(),
        scratch: Vec::new(),
        had_newline: true,
        line_no: 0,
        tflag: false,
        appends: Vec::new(),
        last_re: None,
        out: Out {
            buf: Vec::new(),
            missing_newline: false,
        },
        wfiles,
        wfailed: Vec::new(),
        rfiles: BTreeMap::new(),
        quit: None,
        fs: &fs,
        cwd: &cwd,
        err_out: Vec::new(),
        host: &mut *ctx.host,
    };
    let mut status = 0;
    let mut input = Input {
        names: Vec::new(),
        next_name: 0,
        cur: None,
        cur_name: String::new(),
        stdin: &mut *ctx.stdin,
        stdin_buf: Vec::new(),
        stdin_pos: 0,
        stdin_eof: false,
        peeked: None,
        spare: Vec::new(),
        delim: o.delim,
        separate: o.separate,
        errors: Vec::new(),
        status: 0,
        fifos,
    };
    'files: for group in groups {
        input.names = group;
        input.next_name = 0;
        input.cur = None;
        if o.separate {
            if !input.open_next(&fs, &cwd) {
                for e in std::mem::take(&mut input.errors) {
                    writeln!(ctx.stderr, "sed: {e}")?;
                }
                continue;
            }
            ex.line_no = 0;
        }
        if o.in_place.is_some() {
            let name = input.names.first().cloned().unwrap_or_default();
            let path = crate::fs::path::join(&cwd, &name);
            if fs.lock().lstat(&path).is_ok_and(|m| !m.is_file()) {
                writeln!(ctx.stderr, "sed: couldn't edit {name}: not a regular file")?;
                status = 4;
                continue;
            }
        }
        let mut restart = false;
        loop {
            if !restart {
                let Some((line, nl)) = input.next_line(&fs, &cwd)? else {
                    break;
                };
                input.spare = std::mem::replace(&mut ex.ps, line);
                ex.had_newline = nl;
                ex.line_no += 1;
                ex.tflag = false;
            }
            restart = false;
            ex.host.check()?;
            let flow = ex.cycle(&mut input, 0)?;
            match flow {
                Flow::End => {
                    if !o.quiet {
                        ex.print_ps();
                    }
                }
                Flow::Delete => {}
                Flow::Restart => restart = true,
                Flow::Quit(print) => {
                    if print && !o.quiet {
                        ex.print_ps();
                    }
                    if print {
                        ex.flush_appends()?;
                    }
                    ex.quit.get_or_insert(0);
                }
            }
            if ex.quit.is_none() {
                ex.flush_appends()?;
            }
            for e in std::mem::take(&mut input.errors) {
                writeln!(ctx.stderr, "sed: {e}")?;
            }
            if o.in_place.is_none() && !ex.out.buf.is_empty() {
                ctx.stdout.write_all(&ex.out.buf)?;
                ex.out.buf.clear();
            }
            if !ex.err_out.is_empty() {
                ctx.stderr.write_all(&ex.err_out)?;
                ex.err_out.clear();
            }
            if ex.quit.is_some() {
                if o.in_place.is_some() {
                    finish_in_place(&fs, &cwd, &mut *ctx.stderr, o, &input, &mut ex)?;
                }
                break 'files;
            }
        }
        for e in std::mem::take(&mut input.errors) {
            writeln!(ctx.stderr, "sed: {e}")?;
        }
        if o.in_place.is_some() {
            finish_in_place(&fs, &cwd, &mut *ctx.stderr, o, &input, &mut ex)?;
        }
    }
    status = status.max(input.status);
    for e in std::mem::take(&mut ex.wfailed) {
        writeln!(ctx.stderr, "sed: {e}")?;
        status = 4;
    }
    if o.in_place.is_none() && !ex.out.buf.is_empty() {
        ctx.stdout.write_all(&ex.out.buf)?;
    }
    Ok(ex.quit.filter(|&q| q != 0).unwrap_or(status))
}

/// Writes an in-place result over its file (after a backup when a suffix was given).
fn finish_in_place(
    shared: &crate::fs::SharedFs,
    cwd: &str,
    stderr: &mut dyn Write,
    o: &Opts,
    input: &Input,
    ex: &mut Exec,
) -> io::Result<()> {
    let Some(name) = input.names.first() else {
        return Ok(());
    };
    let path = crate::fs::path::join(cwd, name);
    let data = std::mem::take(&mut ex.out.buf);
    ex.out.missing_newline = false;
    let mut fs = shared.lock();
    if let Some(suffix) = o.in_place.as_deref().filter(|s| !s.is_empty()) {
        let base = crate::fs::path::file_name(&path).to_owned();
        let backup_name = if suffix.contains('*') {
            suffix.replace('*', &base)
        } else {
            format!("{base}{suffix}")
        };
        let dir = crate::fs::path::parent(&path).to_owned();
        let backup = crate::fs::path::join(&dir, &backup_name);
        // GNU renames the file to its backup name, so the backup keeps its mode.
        if let (Ok(old), Ok(meta)) = (fs.read_file(&path), fs.stat(&path)) {
            let mode = meta.mode & 0o7777;
            if fs.write_file_mode(&backup, &old, mode).is_ok() {
                let _ = fs.chmod(&backup, mode);
            }
        }
    }
    let res = fs.write_file(&path, &data);
    drop(fs);
    if let Err(e) = res {
        writeln!(stderr, "sed: couldn't open temporary file {name}: {e}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
