//! `patch` (GNU patch 2.7): applies unified, context and normal diffs read from stdin or
//! `-i FILE` to the files they name (`-p N` strips leading directories; without it the
//! base name is used, as GNU does), finding each hunk by GNU's search — at the stated
//! line, then ever further away, first with all context and then with up to `-F`
//! (default 2) context lines ignored at each end — and reporting offsets and fuzz in
//! GNU's words. Hunks that fail go to `FILE.rej` in the patch's own format; a patch
//! that looks already applied is detected on its first hunk (`-N` skips it, `-t`
//! assumes `-R`, `-f` applies it anyway). `/dev/null` sides create and delete files;
//! `-o`, `-r`, `-b`, `-z`, `-E`, `-d`, `-s`, `-l` and `--dry-run` behave as GNU's.
//! Questions GNU would ask on the terminal get their default answers, as they do when
//! patch has no terminal.

use super::about::{HELP, VERSION, write_help, write_version};
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};
use std::collections::BTreeMap;

const LONG: &[LongOpt] = &[
    long("strip", HasArg::Required, "p"),
    long("fuzz", HasArg::Required, "F"),
    long("ignore-whitespace", HasArg::No, "l"),
    long("context", HasArg::No, "c"),
    long("ed", HasArg::No, "e"),
    long("normal", HasArg::No, "n"),
    long("unified", HasArg::No, "u"),
    long("forward", HasArg::No, "N"),
    long("reverse", HasArg::No, "R"),
    long("input", HasArg::Required, "i"),
    long("output", HasArg::Required, "o"),
    long("reject-file", HasArg::Required, "r"),
    long("remove-empty-files", HasArg::No, "E"),
    long("set-utc", HasArg::No, "Z"),
    long("set-time", HasArg::No, "T"),
    long("backup", HasArg::No, "b"),
    long("backup-if-mismatch", HasArg::No, "backup-if-mismatch"),
    long("no-backup-if-mismatch", HasArg::No, "no-backup-if-mismatch"),
    long("suffix", HasArg::Required, "z"),
    long("prefix", HasArg::Required, "B"),
    long("batch", HasArg::No, "t"),
    long("force", HasArg::No, "f"),
    long("quiet", HasArg::No, "s"),
    long("silent", HasArg::No, "s"),
    long("verbose", HasArg::No, "verbose"),
    long("dry-run", HasArg::No, "dry-run"),
    long("posix", HasArg::No, "posix"),
    long("directory", HasArg::Required, "d"),
    long("binary", HasArg::No, "binary"),
    long("version", HasArg::No, "version"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]

Input options:

  -p NUM  --strip=NUM  Strip NUM leading components from file names.
  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.
  -l  --ignore-whitespace  Ignore white space changes between patch and input.

  -c  --context  Interpret the patch as a context difference.
  -e  --ed  Interpret the patch as an ed script.
  -n  --normal  Interpret the patch as a normal difference.
  -u  --unified  Interpret the patch as a unified difference.

  -N  --forward  Ignore patches that appear to be reversed or already applied.
  -R  --reverse  Assume patches were created with old and new files swapped.

  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.

Output options:

  -o FILE  --output=FILE  Output patched files to FILE.
  -r FILE  --reject-file=FILE  Output rejects to FILE.

  -E  --remove-empty-files  Remove output files that are empty after patching.

Backup and version control options:

  -b  --backup  Back up the original contents of each file.
  --backup-if-mismatch  Back up if the patch does not match exactly.
  --no-backup-if-mismatch  Back up mismatches only if otherwise requested.

  -B PREFIX  --prefix=PREFIX  Prepend PREFIX to backup file names.
  -z SUFFIX  --suffix=SUFFIX  Append SUFFIX to backup file names.

Miscellaneous options:

  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.
  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.
  -s  --quiet  --silent  Work silently unless an error occurs.
  --dry-run  Do not actually change any files; just print what would happen.

  -d DIR  --directory=DIR  Change the working directory to DIR first.

  -v  --version  Output version info.
  --help  Output this help.

Report bugs to <bug-patch@gnu.org>.
";

/// One line of a file or hunk: its text without the newline, and whether it had one.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    text: Vec<u8>,
    nl: bool,
}

/// What a hunk line does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Context,
    Del,
    Add,
}

/// The diff format a patch came in (rejects are written in the same one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Unified,
    Context,
    Normal,
}

#[derive(Clone, Debug)]
struct Hunk {
    /// The old and new ranges as the header states them.
    old_start: usize,
    old_len: usize,
    new_start: usize,
    new_len: usize,
    lines: Vec<(Kind, Line)>,
    /// The text after a unified header's closing `@@`.
    func: Vec<u8>,
}

impl Hunk {
    /// The input line the hunk's old lines begin at (for an empty range, the line it
    /// goes before).
    fn first(&self) -> usize {
        if self.old_len == 0 {
            self.old_start.saturating_add(1)
        } else {
            self.old_start
        }
    }
    fn push(&mut self, kind: Kind, text: &[u8]) {
        let text = text.to_vec();
        self.lines.push((kind, Line { text, nl: true }));
    }
    fn old_lines(&self) -> impl Iterator<Item = &Line> {
        self.lines
            .iter()
            .filter(|(k, _)| *k != Kind::Add)
            .map(|(_, l)| l)
    }
    /// Context lines before the first change and after the last.
    fn prefix_suffix(&self) -> (usize, usize) {
        let pre = self
            .lines
            .iter()
            .take_while(|(k, _)| *k == Kind::Context)
            .count();
        let suf = self
            .lines
            .iter()
            .rev()
            .take_while(|(k, _)| *k == Kind::Context)
            .count();
        if pre == self.lines.len() {
            (pre, pre)
        } else {
            (pre, suf)
        }
    }
    fn reversed(&self) -> Hunk {
        Hunk {
            old_start: self.new_start,
            old_len: self.new_len,
            new_start: self.old_start,
            new_len: self.old_len,
            lines: swap_kinds(&self.lines),
            func: self.func.clone(),
        }
    }
}

/// The lines of a hunk applied the other way: deletions become additions and back,
/// and each change keeps its deletions first.
fn swap_kinds(lines: &[(Kind, Line)]) -> Vec<(Kind, Line)> {
    let mut out = Vec::with_capacity(lines.len());
    let mut adds = Vec::new();
    for (k, l) in lines {
        match k {
            Kind::Context => {
                out.append(&mut adds);
                out.push((Kind::Context, l.clone()));
            }
            Kind::Add => out.push((Kind::Del, l.clone())),
            Kind::Del => adds.push((Kind::Add, l.clone())),
        }
    }
    out.append(&mut adds);
    out
}

/// One file's part of a patch.
#[derive(Clone, Debug, Default)]
struct FilePatch {
    format: Option<Format>,
    /// Header lines' text after `--- `/`+++ ` (or `*** `/`--- `), as written.
    old_header: Option<Vec<u8>>,
    new_header: Option<Vec<u8>>,
    index: Option<String>,
    git: Option<(String, String)>,
    git_new_mode: Option<u32>,
    git_deleted: bool,
    hunks: Vec<Hunk>,
    /// The lines before the first hunk (shown when no file is found), and the input
    /// line number of the first hunk.
    leading: Vec<Vec<u8>>,
    first_hunk_line: usize,
}

fn split_lines(data: &[u8]) -> Vec<Line> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        match memchr::memchr(b'\n', rest) {
            Some(i) => {
                out.push(Line {
                    text: rest[..i].to_vec(),
                    nl: true,
                });
                rest = &rest[i + 1..];
            }
            None => {
                out.push(Line {
                    text: rest.to_vec(),
                    nl: false,
                });
                rest = &[];
            }
        }
    }
    out
}

fn join_lines(lines: &[Line]) -> Vec<u8> {
    let mut out = Vec::with_capacity(lines.iter().map(|l| l.text.len() + 1).sum());
    for l in lines {
        out.extend_from_slice(&l.text);
        if l.nl {
            out.push(b'\n');
        }
    }
    out
}

/// `N` or `N,M` as numbers.
fn range(s: &[u8]) -> Option<(usize, Option<usize>)> {
    let s = std::str::from_utf8(s).ok()?;
    match s.split_once(',') {
        Some((a, b)) => Some((a.parse().ok()?, Some(b.parse().ok()?))),
        None => Some((s.parse().ok()?, None)),
    }
}

/// A unified hunk header: `@@ -A[,B] +C[,D] @@ func`.
fn unified_header(line: &[u8]) -> Option<(usize, usize, usize, usize, Vec<u8>)> {
    let rest = line.strip_prefix(b"@@ -")?;
    let sp = memchr::memchr(b' ', rest)?;
    let (a, b) = range(&rest[..sp])?;
    let rest = rest[sp + 1..].strip_prefix(b"+")?;
    let sp = memchr::memchr(b' ', rest)?;
    let (c, d) = range(&rest[..sp])?;
    let func = rest[sp + 1..].strip_prefix(b"@@")?.to_vec();
    Some((a, b.unwrap_or(1), c, d.unwrap_or(1), func))
}

/// A normal diff command: `A[,B]{a,c,d}C[,D]`.
fn normal_command(line: &[u8]) -> Option<(usize, usize, u8, usize, usize)> {
    let pos = line.iter().position(|b| matches!(b, b'a' | b'c' | b'd'))?;
    let cmd = line[pos];
    let (a, b) = range(&line[..pos])?;
    let (c, d) = range(&line[pos + 1..])?;
    Some((a, b.unwrap_or(a), cmd, c, d.unwrap_or(c)))
}

/// A context range line `*** A[,B] ****` or `--- A[,B] ----`, as (start, end).
fn context_range(line: &[u8], lead: &[u8], tail: &[u8]) -> Option<(usize, usize)> {
    let body = line.strip_prefix(lead)?;
    let body = trim_end(body).strip_suffix(tail)?;
    let (a, b) = range(trim_end(body))?;
    Some((a, b.unwrap_or(a)))
}

fn trim_end(s: &[u8]) -> &[u8] {
    let n = s
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    &s[..n]
}

/// The file name of a header line's text: up to a tab (the timestamp), unquoted when
/// git quoted it.
fn header_name(text: &[u8]) -> String {
    let name = match memchr::memchr(b'\t', text) {
        Some(i) => &text[..i],
        None => trim_end(text),
    };
    let name = String::from_utf8_lossy(name).into_owned();
    unquote(&name)
}

/// git's C-style quoting of a name (`"a/x y"`).
fn unquote(name: &str) -> String {
    let Some(inner) = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) else {
        return name.to_owned();
    };
    let mut out = Vec::new();
    let mut chars = inner.bytes();
    while let Some(b) = chars.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match chars.next() {
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(d @ b'0'..=b'7') => {
                let mut v = u32::from(d - b'0');
                for _ in 0..2 {
                    if let Some(d) = chars.clone().next().filter(u8::is_ascii_digit) {
                        chars.next();
                        v = v * 8 + u32::from(d - b'0');
                    }
                }
                out.push(v as u8);
            }
            Some(c) => out.push(c),
            None => {}
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Splits the patch text into file patches. `Err` is "only garbage".
fn parse_patch(data: &[u8]) -> Vec<FilePatch> {
    let lines: Vec<&[u8]> = {
        let mut v: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
        if data.ends_with(b"\n") || data.is_empty() {
            v.pop();
        }
        v
    };
    let at = |i: usize| lines.get(i).copied();
    let mut out = Vec::new();
    let mut cur = FilePatch::default();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(rest) = line.strip_prefix(b"diff --git ") {
            if !cur.leading.is_empty() && (cur.git.is_some() || cur.index.is_some()) {
                cur = FilePatch::default();
            }
            let rest = String::from_utf8_lossy(rest).into_owned();
            if let Some((a, b)) = rest.split_once(" b/") {
                cur.git = Some((unquote(a), format!("b/{}", unquote(b))));
            }
        } else if let Some(rest) = line.strip_prefix(b"Index: ") {
            cur.index = Some(String::from_utf8_lossy(trim_end(rest)).into_owned());
        } else if let Some(m) = line.strip_prefix(b"new file mode ") {
            cur.git_new_mode = std::str::from_utf8(m)
                .ok()
                .and_then(|m| u32::from_str_radix(m.trim(), 8).ok());
        } else if line.starts_with(b"deleted file mode ") {
            cur.git_deleted = true;
        }
        // Unified: --- / +++ / @@.
        if let (Some(old), Some(new), Some(h)) = (
            line.strip_prefix(b"--- "),
            at(i + 1).and_then(|l| l.strip_prefix(b"+++ ")),
            at(i + 2),
        ) && unified_header(h).is_some()
        {
            cur.leading.push(line.to_vec());
            cur.leading.push(at(i + 1).unwrap_or_default().to_vec());
            cur.old_header = Some(old.to_vec());
            cur.new_header = Some(new.to_vec());
            cur.format = Some(Format::Unified);
            cur.first_hunk_line = i + 3;
            i += 2;
            while let Some((a, b, c, d, func)) = at(i).and_then(unified_header) {
                i += 1;
                let mut hunk = Hunk {
                    old_start: a,
                    old_len: b,
                    new_start: c,
                    new_len: d,
                    lines: Vec::new(),
                    func,
                };
                let (mut olds, mut news) = (0, 0);
                while olds < b || news < d {
                    let Some(l) = at(i) else { break };
                    let (kind, text) = match l.split_first() {
                        Some((b' ', t)) => (Kind::Context, t),
                        Some((b'-', t)) => (Kind::Del, t),
                        Some((b'+', t)) => (Kind::Add, t),
                        None => (Kind::Context, l),
                        _ => break,
                    };
                    match kind {
                        Kind::Context => {
                            olds += 1;
                            news += 1;
                        }
                        Kind::Del => olds += 1,
                        Kind::Add => news += 1,
                    }
                    hunk.push(kind, text);
                    i += 1;
                    no_newline_marker(&lines, &mut i, &mut hunk);
                }
                no_newline_marker(&lines, &mut i, &mut hunk);
                cur.hunks.push(hunk);
            }
            out.push(std::mem::take(&mut cur));
            continue;
        }
        // Context: *** / --- / ***************.
        if let (Some(old), Some(new), Some(b"***************")) = (
            line.strip_prefix(b"*** "),
            at(i + 1).and_then(|l| l.strip_prefix(b"--- ")),
            at(i + 2).map(trim_end),
        ) {
            cur.leading.push(line.to_vec());
            cur.leading.push(at(i + 1).unwrap_or_default().to_vec());
            cur.old_header = Some(old.to_vec());
            cur.new_header = Some(new.to_vec());
            cur.format = Some(Format::Context);
            cur.first_hunk_line = i + 3;
            i += 2;
            while at(i).map(trim_end) == Some(b"***************") {
                i += 1;
                match parse_context_hunk(&lines, &mut i) {
                    Some(h) => cur.hunks.push(h),
                    None => break,
                }
            }
            out.push(std::mem::take(&mut cur));
            continue;
        }
        // Normal: NcM with < and > lines.
        if normal_command(line).is_some()
            && at(i + 1).is_some_and(|l| l.starts_with(b"< ") || l.starts_with(b"> "))
        {
            cur.format = Some(Format::Normal);
            cur.first_hunk_line = i + 1;
            while let Some((a, b, cmd, c, d)) = at(i).and_then(normal_command) {
                i += 1;
                let (old_start, old_len) = if cmd == b'a' { (a, 0) } else { (a, span(a, b)) };
                let (new_start, new_len) = if cmd == b'd' { (c, 0) } else { (c, span(c, d)) };
                let mut hunk = Hunk {
                    old_start,
                    old_len,
                    new_start,
                    new_len,
                    lines: Vec::new(),
                    func: Vec::new(),
                };
                for (n, marker, kind) in [(old_len, b"< ", Kind::Del), (new_len, b"> ", Kind::Add)]
                {
                    if kind == Kind::Add && cmd == b'c' && at(i) == Some(b"---") {
                        i += 1;
                    }
                    for _ in 0..n {
                        let Some(text) = at(i).and_then(|l| l.strip_prefix(marker)) else {
                            break;
                        };
                        hunk.push(kind, text);
                        i += 1;
                        no_newline_marker(&lines, &mut i, &mut hunk);
                    }
                }
                cur.hunks.push(hunk);
            }
            out.push(std::mem::take(&mut cur));
            continue;
        }
        cur.leading.push(line.to_vec());
        i += 1;
    }
    out
}

/// The number of lines from `a` to `b` inclusive (none for a backwards range).
fn span(a: usize, b: usize) -> usize {
    b.checked_sub(a).map_or(0, |d| d.saturating_add(1))
}

/// A `\ No newline at end of file` line after a hunk line: the line before has none.
fn no_newline_marker(lines: &[&[u8]], i: &mut usize, hunk: &mut Hunk) {
    if lines.get(*i).is_some_and(|l| l.starts_with(b"\\ ")) {
        if let Some((_, l)) = hunk.lines.last_mut() {
            l.nl = false;
        }
        *i += 1;
    }
}

/// One context-format hunk after its `***************` line: the old section, then
/// the new one; `!` runs pair up as deletions followed by additions.
fn parse_context_hunk(lines: &[&[u8]], i: &mut usize) -> Option<Hunk> {
    let (os, oe) = context_range(lines.get(*i)?, b"*** ", b"****")?;
    *i += 1;
    let mut old: Vec<(u8, Line)> = Vec::new();
    let section = |i: &mut usize, out: &mut Vec<(u8, Line)>, stop: &dyn Fn(&[u8]) -> bool| {
        while let Some(&l) = lines.get(*i) {
            if stop(l) {
                break;
            }
            if l.starts_with(b"\\ ") {
                if let Some((_, last)) = out.last_mut() {
                    last.nl = false;
                }
                *i += 1;
                continue;
            }
            let (Some(&m), Some(b' ')) = (l.first(), l.get(1)) else {
                if l.is_empty() {
                    out.push((
                        b' ',
                        Line {
                            text: Vec::new(),
                            nl: true,
                        },
                    ));
                    *i += 1;
                    continue;
                }
                break;
            };
            if !matches!(m, b' ' | b'-' | b'+' | b'!') {
                break;
            }
            out.push((
                m,
                Line {
                    text: l[2..].to_vec(),
                    nl: true,
                },
            ));
            *i += 1;
        }
    };
    section(i, &mut old, &|l| {
        context_range(l, b"--- ", b"----").is_some()
    });
    let (ns, ne) = context_range(lines.get(*i)?, b"--- ", b"----")?;
    *i += 1;
    let mut new: Vec<(u8, Line)> = Vec::new();
    section(i, &mut new, &|l| trim_end(l) == b"***************");
    let old_len = if os == 0 && oe == 0 { 0 } else { span(os, oe) };
    let new_len = if ns == 0 && ne == 0 { 0 } else { span(ns, ne) };
    if old.is_empty() {
        old = new
            .iter()
            .filter(|(m, _)| *m == b' ')
            .cloned()
            .collect::<Vec<_>>();
    }
    if new.is_empty() {
        new = old.iter().filter(|(m, _)| *m == b' ').cloned().collect();
    }
    let old_len = if old.is_empty() { 0 } else { old_len };
    let new_len = if new.is_empty() { 0 } else { new_len };
    let mut merged = Vec::new();
    let (mut a, mut b) = (0, 0);
    while a < old.len() || b < new.len() {
        match (old.get(a), new.get(b)) {
            (Some((b'-', l)), _) => {
                merged.push((Kind::Del, l.clone()));
                a += 1;
            }
            (_, Some((b'+', l))) => {
                merged.push((Kind::Add, l.clone()));
                b += 1;
            }
            (Some((b'!', _)), _) | (_, Some((b'!', _))) => {
                while let Some((b'!', l)) = old.get(a) {
                    merged.push((Kind::Del, l.clone()));
                    a += 1;
                }
                while let Some((b'!', l)) = new.get(b) {
                    merged.push((Kind::Add, l.clone()));
                    b += 1;
                }
            }
            (Some((_, l)), Some(_)) => {
                merged.push((Kind::Context, l.clone()));
                a += 1;
                b += 1;
            }
            (Some((_, l)), None) => {
                merged.push((Kind::Del, l.clone()));
                a += 1;
            }
            (None, Some((_, l))) => {
                merged.push((Kind::Add, l.clone()));
                b += 1;
            }
            (None, None) => break,
        }
    }
    Some(Hunk {
        old_start: if old_len == 0 { os } else { os.max(1) },
        old_len,
        new_start: if new_len == 0 { ns } else { ns.max(1) },
        new_len,
        lines: merged,
        func: Vec::new(),
    })
}

struct Opts {
    strip: Option<usize>,
    fuzz: usize,
    ignore_ws: bool,
    forward: bool,
    reverse: bool,
    batch: bool,
    force: bool,
    silent: bool,
    dry_run: bool,
    backup: bool,
    backup_mismatch: bool,
    suffix: String,
    prefix: String,
    remove_empty: bool,
    output: Option<String>,
    reject: Option<String>,
}

/// Strips `n` leading components: the smallest prefix holding `n` slashes goes;
/// `None` when the name has fewer. Without `-p`, the base name.
fn strip_name(name: &str, strip: Option<usize>) -> Option<String> {
    let Some(n) = strip else {
        return Some(crate::fs::path::file_name(name).to_owned());
    };
    let mut rest = name;
    for _ in 0..n {
        let i = rest.find('/')?;
        rest = rest[i + 1..].trim_start_matches('/');
    }
    if rest.is_empty() {
        None
    } else {
        Some(rest.to_owned())
    }
}

/// What the filesystem (or, in a dry run, the files as patched so far) holds.
struct Files<'c, 'a> {
    ctx: &'c mut Ctx<'a>,
    dry: BTreeMap<String, Option<Vec<u8>>>,
    dry_run: bool,
}

impl Files<'_, '_> {
    fn read(&self, name: &str) -> Option<Vec<u8>> {
        let path = self.ctx.path(name);
        if let Some(v) = self.dry.get(&path) {
            return v.clone();
        }
        let fs = self.ctx.fs.lock();
        if fs.stat(&path).ok()?.is_dir() {
            return None;
        }
        fs.read_file(&path).ok().map(|d| d.to_vec())
    }
    fn exists(&self, name: &str) -> bool {
        let path = self.ctx.path(name);
        match self.dry.get(&path) {
            Some(v) => v.is_some(),
            None => self.ctx.fs.lock().stat(&path).is_ok(),
        }
    }
    /// Writes a file, making its directories; `Err` is the message.
    fn write(&mut self, name: &str, data: &[u8], mode: Option<u32>) -> Result<(), String> {
        let path = self.ctx.path(name);
        if self.dry_run {
            self.dry.insert(path, Some(data.to_vec()));
            return Ok(());
        }
        let file_mode = self.ctx.file_mode();
        let dir_mode = self.ctx.dir_mode();
        let mut fs = self.ctx.fs.lock();
        let parent = crate::fs::path::parent(&path).to_owned();
        if fs.stat(&parent).is_err() {
            let _ = fs.mkdir_all(&parent, dir_mode);
        }
        let existed = fs.stat(&path).is_ok();
        fs.write_file_mode(&path, data, mode.unwrap_or(file_mode))
            .map_err(|e| e.to_string())?;
        if let (Some(m), false) = (mode, existed) {
            let _ = fs.chmod(&path, m);
        }
        Ok(())
    }
    fn remove(&mut self, name: &str) -> Result<(), String> {
        let path = self.ctx.path(name);
        if self.dry_run {
            self.dry.insert(path, None);
            return Ok(());
        }
        let mut fs = self.ctx.fs.lock();
        fs.remove_file(&path).map_err(|e| e.to_string())?;
        // As GNU does, directories the removal left empty go too, up to the cwd.
        let mut dir = crate::fs::path::parent(&path).to_owned();
        while dir.len() > self.ctx.cwd.len()
            && dir.starts_with(self.ctx.cwd)
            && fs.read_dir(&dir).is_ok_and(|e| e.is_empty())
            && fs.remove_dir(&dir).is_ok()
        {
            dir = crate::fs::path::parent(&dir).to_owned();
        }
        Ok(())
    }
}

fn say(ctx: &mut Ctx, silent: bool, msg: &str) -> std::io::Result<()> {
    if !silent {
        ctx.stdout.write_all(msg.as_bytes())?;
    }
    Ok(())
}

pub fn patch(ctx: &mut Ctx) -> CmdResult {
    let spec = Spec::new("p:F:lcenuNRi:o:r:EZTbz:B:tfsd:vV:D:g:Y:", LONG);
    let parsed = match super::args::parse(&spec, ctx.args) {
        Ok(p) => p,
        Err(msg) => {
            writeln!(ctx.stderr, "patch: {msg}")?;
            writeln!(
                ctx.stderr,
                "patch: Try 'patch --help' for more information."
            )?;
            return Ok(2);
        }
    };
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "help" => {
                write_help(ctx, USAGE)?;
                return Ok(0);
            }
            "version" | "v" => {
                write_version(ctx)?;
                return Ok(0);
            }
            _ => {}
        }
    }
    let num = |key: &str| -> Result<Option<usize>, String> {
        match parsed.last(key) {
            None => Ok(None),
            Some(v) => v
                .parse::<usize>()
                .map(Some)
                .map_err(|_| format!("patch: **** strip count {v} is not a number")),
        }
    };
    let (strip, fuzz) = match (num("p"), num("F")) {
        (Ok(p), Ok(f)) => (p, f.unwrap_or(2)),
        (Err(m), _) | (_, Err(m)) => {
            writeln!(ctx.stderr, "{m}")?;
            return Ok(2);
        }
    };
    let o = Opts {
        strip,
        fuzz,
        ignore_ws: parsed.has("l"),
        forward: parsed.has("N"),
        reverse: parsed.has("R"),
        batch: parsed.has("t"),
        force: parsed.has("f"),
        silent: parsed.has("s"),
        dry_run: parsed.has("dry-run"),
        backup: parsed.has("b"),
        backup_mismatch: !parsed.has("no-backup-if-mismatch") && !parsed.has("posix"),
        suffix: parsed.last("z").unwrap_or(".orig").to_owned(),
        prefix: parsed.last("B").unwrap_or("").to_owned(),
        remove_empty: parsed.has("E"),
        output: parsed.last("o").map(str::to_owned),
        reject: parsed.last("r").map(str::to_owned),
    };
    let mut operands = parsed.operands.iter();
    let origfile = operands.next().cloned();
    let patchfile = parsed
        .last("i")
        .map(str::to_owned)
        .or_else(|| operands.next().cloned());
    if let Some(dir) = parsed.last("d") {
        let path = ctx.path(dir);
        if !ctx.fs.lock().stat(&path).is_ok_and(|m| m.is_dir()) {
            writeln!(
                ctx.stderr,
                "patch: **** Can't change to directory {dir} : No such file or directory"
            )?;
            return Ok(2);
        }
        let cwd = path;
        let mut sub = Ctx {
            name: ctx.name,
            args: ctx.args,
            stdin: &mut *ctx.stdin,
            stdout: &mut *ctx.stdout,
            stderr: &mut *ctx.stderr,
            env: ctx.env,
            cwd: &cwd,
            fs: ctx.fs,
            host: &mut *ctx.host,
            umask: ctx.umask,
            shared: ctx.shared,
        };
        return run(&mut sub, &o, origfile.as_deref(), patchfile.as_deref());
    }
    run(ctx, &o, origfile.as_deref(), patchfile.as_deref())
}

fn run(ctx: &mut Ctx, o: &Opts, origfile: Option<&str>, patchfile: Option<&str>) -> CmdResult {
    let input = patchfile.unwrap_or("-");
    let data = match ctx.read_input(input)? {
        Ok(d) => d,
        Err(e) => {
            writeln!(
                ctx.stderr,
                "patch: **** Can't open patch file {input} : {e}"
            )?;
            return Ok(2);
        }
    };
    let patches = parse_patch(&data);
    if patches.is_empty() {
        if data.iter().any(|b| !b.is_ascii_whitespace()) {
            ctx.stdout.flush()?;
            writeln!(
                ctx.stderr,
                "patch: **** Only garbage was found in the patch input."
            )?;
            return Ok(2);
        }
        return Ok(0);
    }
    let mut files = Files {
        ctx,
        dry: BTreeMap::new(),
        dry_run: o.dry_run,
    };
    let mut status = 0;
    let mut backed_up = std::collections::BTreeSet::new();
    for fp in &patches {
        files.ctx.host.check()?;
        let s = apply_file(&mut files, o, origfile, fp, &mut backed_up)?;
        status = status.max(s);
    }
    Ok(status)
}

/// The name GNU picks among the existing candidates: fewest components, then the
/// shortest base name, then the shortest name; the first on a tie.
fn best_name(names: &[String]) -> Option<&String> {
    names.iter().min_by_key(|n| {
        (
            n.matches('/').count(),
            crate::fs::path::file_name(n).len(),
            n.len(),
        )
    })
}

fn apply_file(
    files: &mut Files,
    o: &Opts,
    origfile: Option<&str>,
    fp: &FilePatch,
    backed_up: &mut std::collections::BTreeSet<String>,
) -> CmdResult {
    let silent = o.silent;
    let (old_raw, new_raw) = match (&fp.git, &fp.old_header, &fp.new_header) {
        (_, Some(a), Some(b)) => (header_name(a), header_name(b)),
        (Some((a, b)), _, _) => (a.clone(), b.clone()),
        _ => (String::new(), String::new()),
    };
    let (old_raw, new_raw) = if o.reverse {
        (new_raw, old_raw)
    } else {
        (old_raw, new_raw)
    };
    let old_null = old_raw == "/dev/null";
    let new_null = new_raw == "/dev/null";
    let hunks: Vec<Hunk> = if o.reverse {
        fp.hunks.iter().map(Hunk::reversed).collect()
    } else {
        fp.hunks.clone()
    };
    let creates = old_null
        || if o.reverse {
            fp.git_deleted
        } else {
            fp.git_new_mode.is_some()
        };
    let mut candidates: Vec<String> = Vec::new();
    for n in [&old_raw, &new_raw] {
        if !n.is_empty()
            && n != "/dev/null"
            && let Some(s) = strip_name(n, o.strip)
        {
            candidates.push(s);
        }
    }
    if let Some(ix) = &fp.index
        && let Some(s) = strip_name(ix, o.strip)
    {
        candidates.push(s);
    }
    let name = match origfile {
        Some(f) => Some(f.to_owned()),
        None => {
            let existing: Vec<String> = candidates
                .iter()
                .filter(|n| files.exists(n))
                .cloned()
                .collect();
            match best_name(&existing) {
                Some(n) => Some(n.clone()),
                None if creates => {
                    let new = if new_null {
                        None
                    } else {
                        strip_name(&new_raw, o.strip)
                    };
                    new.or_else(|| candidates.first().cloned())
                }
                None => None,
            }
        }
    };
    let nhunks = hunks.len();
    let Some(name) = name else {
        let mut msg = format!(
            "can't find file to patch at input line {}\n",
            fp.first_hunk_line
        );
        msg.push_str(if o.strip.is_some() {
            "Perhaps you used the wrong -p or --strip option?\n"
        } else {
            "Perhaps you should have used the -p or --strip option?\n"
        });
        if !fp.leading.is_empty() {
            msg.push_str("The text leading up to this was:\n--------------------------\n");
            for l in &fp.leading {
                msg.push('|');
                msg.push_str(&String::from_utf8_lossy(l));
                msg.push('\n');
            }
            msg.push_str("--------------------------\n");
        }
        if o.batch || o.force {
            msg.push_str("No file to patch.  Skipping patch.\n");
        } else {
            msg.push_str("File to patch: \nSkip this patch? [y] \nSkipping patch.\n");
        }
        msg.push_str(&format!("{} ignored\n", plural_out(nhunks, nhunks)));
        files.ctx.stdout.write_all(msg.as_bytes())?;
        return Ok(1);
    };
    let original = files.read(&name);
    if creates && !o.reverse && original.as_ref().is_some_and(|d| !d.is_empty()) && !o.force {
        let mut msg =
            format!("The next patch would create the file {name},\nwhich already exists!  ");
        if o.forward || o.batch {
            msg.push_str("Skipping patch.\n");
        } else {
            msg.push_str("Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n");
        }
        msg.push_str(&format!("{} ignored\n", plural_out(nhunks, nhunks)));
        say(files.ctx, false, &msg)?;
        return Ok(1);
    }
    if original.is_none() && !creates {
        let shown = files.ctx.path(&name);
        let _ = shown;
        writeln!(
            files.ctx.stderr,
            "patch: **** Can't open file {name} : No such file or directory"
        )?;
        return Ok(2);
    }
    let input = split_lines(original.as_deref().unwrap_or_default());
    let out_name = o.output.clone().unwrap_or_else(|| name.clone());
    let verb = if o.dry_run { "checking" } else { "patching" };
    if o.output.is_some() {
        say(
            files.ctx,
            silent,
            &format!("{verb} file {out_name} (read from {name})\n"),
        )?;
    } else {
        say(files.ctx, silent, &format!("{verb} file {name}\n"))?;
    }
    let mut state = Apply {
        input: &input,
        out: Vec::with_capacity(input.len() + 16),
        frozen: 0,
        in_offset: 0,
        out_offset: 0,
        ignore_ws: o.ignore_ws,
    };
    let mut reverse = false;
    let mut skip_rest = false;
    let mut mismatch = false;
    let mut failed: Vec<Hunk> = Vec::new();
    let mut msgs = String::new();
    for (n, hunk0) in hunks.iter().enumerate() {
        files.ctx.host.check()?;
        let hunk = if reverse {
            hunk0.reversed()
        } else {
            hunk0.clone()
        };
        let num = n + 1;
        if skip_rest {
            failed.push(hunk);
            continue;
        }
        let (pre, suf) = hunk.prefix_suffix();
        let maxfuzz = o.fuzz.min(pre.max(suf));
        let mut found = None;
        let mut used_fuzz = 0;
        let mut hunk = hunk;
        for fuzz in 0..=maxfuzz {
            found = state.locate(&hunk, fuzz, &mut *files.ctx.host)?;
            if found.is_none() && num == 1 && fuzz == 0 && !o.force {
                let rev = hunk.reversed();
                if state
                    .clone_probe()
                    .locate(&rev, 0, &mut *files.ctx.host)?
                    .is_some()
                {
                    if o.batch && !o.forward {
                        msgs.push_str(
                            "Reversed (or previously applied) patch detected!  Assuming -R.\n",
                        );
                        reverse = true;
                        mismatch = true;
                        hunk = rev;
                        found = state.locate(&hunk, 0, &mut *files.ctx.host)?;
                    } else {
                        if o.forward {
                            msgs.push_str(
                                "Reversed (or previously applied) patch detected!  Skipping patch.\n",
                            );
                        } else {
                            msgs.push_str(
                                "Reversed (or previously applied) patch detected!  Assume -R? [n] \nApply anyway? [n] \n",
                            );
                            if !silent {
                                msgs.push_str("Skipping patch.\n");
                            }
                        }
                        skip_rest = true;
                        break;
                    }
                }
            }
            if found.is_some() {
                used_fuzz = fuzz;
                break;
            }
        }
        if skip_rest {
            failed.push(hunk);
            continue;
        }
        match found {
            None => {
                mismatch = true;
                if !silent {
                    msgs.push_str(&format!(
                        "Hunk #{num} FAILED at {}.\n",
                        hunk.first() as i64 + state.out_offset
                    ));
                }
                failed.push(hunk);
            }
            Some(at) => {
                if used_fuzz > 0 || state.in_offset != 0 {
                    mismatch = true;
                }
                let newwhere = at as i64 + state.out_offset;
                state.apply(&hunk, at);
                if !silent && (used_fuzz > 0 || state.in_offset != 0) {
                    msgs.push_str(&format!("Hunk #{num} succeeded at {newwhere}"));
                    if used_fuzz > 0 {
                        msgs.push_str(&format!(" with fuzz {used_fuzz}"));
                    }
                    if state.in_offset != 0 {
                        let off = state.in_offset;
                        let s = if off == 1 { "" } else { "s" };
                        msgs.push_str(&format!(" (offset {off} line{s})"));
                    }
                    msgs.push_str(".\n");
                }
            }
        }
    }
    state.finish();
    say(files.ctx, false, &msgs)?;
    msgs.clear();
    let mut status = 0;
    let all_skipped = skip_rest && failed.len() == nhunks;
    if !all_skipped {
        let result = join_lines(&state.out);
        let git_gone = if o.reverse {
            fp.git_new_mode.is_some()
        } else {
            fp.git_deleted
        };
        let delete = (new_null || git_gone) && o.output.is_none();
        let orig_exists = original.is_some();
        if (o.backup || (mismatch && o.backup_mismatch)) && !backed_up.contains(&name) {
            let bak = format!("{}{name}{}", o.prefix, o.suffix);
            if !o.dry_run {
                let _ = files.write(&bak, original.as_deref().unwrap_or_default(), None);
            }
            backed_up.insert(name.clone());
        }
        if delete && result.is_empty() {
            if orig_exists && let Err(e) = files.remove(&name) {
                writeln!(
                    files.ctx.stderr,
                    "patch: **** Can't remove file {name} : {e}"
                )?;
                return Ok(2);
            }
        } else {
            if delete {
                say(
                    files.ctx,
                    false,
                    &format!("Not deleting file {name} as content differs from patch\n"),
                )?;
                status = 1;
            }
            let mode = if orig_exists {
                None
            } else {
                fp.git_new_mode.map(|m| m & 0o7777)
            };
            if o.remove_empty && result.is_empty() && o.output.is_none() {
                if orig_exists {
                    let _ = files.remove(&name);
                }
            } else if let Err(e) = files.write(&out_name, &result, mode) {
                files.ctx.stdout.flush()?;
                writeln!(
                    files.ctx.stderr,
                    "patch: **** Can't create file {out_name} : {e}"
                )?;
                return Ok(2);
            }
        }
    }
    if !failed.is_empty() {
        status = 1;
        let what = if skip_rest { "ignored" } else { "FAILED" };
        let rej = o
            .reject
            .clone()
            .unwrap_or_else(|| format!("{out_name}.rej"));
        let mut line = format!("{} {what}", plural_out(failed.len(), nhunks));
        if !o.dry_run {
            line.push_str(&format!(" -- saving rejects to file {rej}"));
            let text = rejects(fp, o.reverse != reverse, &failed);
            if let Err(e) = files.write(&rej, &text, None) {
                writeln!(
                    files.ctx.stderr,
                    "patch: **** Can't create file {rej} : {e}"
                )?;
                return Ok(2);
            }
        }
        line.push('\n');
        say(files.ctx, false, &line)?;
    }
    Ok(status)
}

/// `N out of M hunk(s)`.
fn plural_out(n: usize, of: usize) -> String {
    let word = if of == 1 { "hunk" } else { "hunks" };
    format!("{n} out of {of} {word}")
}

/// The reject file: the failed hunks, in the patch's format, under its headers
/// (swapped when the patch was applied reversed).
fn rejects(fp: &FilePatch, swapped: bool, failed: &[Hunk]) -> Vec<u8> {
    let mut out = Vec::new();
    let (a, b) = match (&fp.old_header, &fp.new_header) {
        (Some(a), Some(b)) if swapped => (b.clone(), a.clone()),
        (Some(a), Some(b)) => (a.clone(), b.clone()),
        _ => (b"/dev/null".to_vec(), b"/dev/null".to_vec()),
    };
    let format = fp.format.unwrap_or(Format::Unified);
    let (lead_a, lead_b) = match format {
        Format::Unified => (&b"--- "[..], &b"+++ "[..]),
        _ => (&b"*** "[..], &b"--- "[..]),
    };
    for (lead, name) in [(lead_a, a), (lead_b, b)] {
        out.extend_from_slice(lead);
        out.extend_from_slice(&name);
        out.push(b'\n');
    }
    let push_line = |out: &mut Vec<u8>, marker: &[u8], l: &Line| {
        out.extend_from_slice(marker);
        out.extend_from_slice(&l.text);
        out.push(b'\n');
        if !l.nl {
            out.extend_from_slice(b"\\ No newline at end of file\n");
        }
    };
    for h in failed {
        match format {
            Format::Unified => {
                let r = |s: usize, n: usize| {
                    if n == 1 {
                        format!("{s}")
                    } else {
                        format!("{s},{n}")
                    }
                };
                out.extend_from_slice(
                    format!(
                        "@@ -{} +{} @@",
                        r(h.old_start, h.old_len),
                        r(h.new_start, h.new_len)
                    )
                    .as_bytes(),
                );
                out.extend_from_slice(&h.func);
                out.push(b'\n');
                for (k, l) in &h.lines {
                    let m: &[u8] = match k {
                        Kind::Context => b" ",
                        Kind::Del => b"-",
                        Kind::Add => b"+",
                    };
                    push_line(&mut out, m, l);
                }
            }
            Format::Context | Format::Normal => {
                let r = |s: usize, n: usize| match n {
                    0 => format!("{s}"),
                    1 => format!("{s}"),
                    _ => format!("{s},{}", s + n - 1),
                };
                let normal = format == Format::Normal;
                // A change run (deletions next to additions) is marked `!`.
                let mut marks = Vec::with_capacity(h.lines.len());
                let mut i = 0;
                while i < h.lines.len() {
                    if h.lines[i].0 == Kind::Context {
                        marks.push(b' ');
                        i += 1;
                        continue;
                    }
                    let j = h.lines[i..]
                        .iter()
                        .position(|(k, _)| *k == Kind::Context)
                        .map_or(h.lines.len(), |p| i + p);
                    let run = &h.lines[i..j];
                    let both = run.iter().any(|(k, _)| *k == Kind::Del)
                        && run.iter().any(|(k, _)| *k == Kind::Add);
                    for (k, _) in run {
                        marks.push(match (both && !normal, k) {
                            (true, _) => b'!',
                            (false, Kind::Del) => b'-',
                            _ => b'+',
                        });
                    }
                    i = j;
                }
                out.extend_from_slice(b"***************\n");
                if normal {
                    out.extend_from_slice(
                        format!("*** {}\n", r(h.old_start, h.old_len)).as_bytes(),
                    );
                } else {
                    out.extend_from_slice(
                        format!("*** {} ****\n", r(h.old_start, h.old_len)).as_bytes(),
                    );
                }
                let has = |k: Kind| h.lines.iter().any(|(x, _)| *x == k);
                if has(Kind::Del) {
                    for ((k, l), m) in h.lines.iter().zip(&marks) {
                        if *k != Kind::Add {
                            push_line(&mut out, &[*m, b' '], l);
                        }
                    }
                }
                if normal {
                    out.extend_from_slice(
                        format!("--- {} -----\n", r(h.new_start, h.new_len)).as_bytes(),
                    );
                } else {
                    out.extend_from_slice(
                        format!("--- {} ----\n", r(h.new_start, h.new_len)).as_bytes(),
                    );
                }
                if has(Kind::Add) {
                    for ((k, l), m) in h.lines.iter().zip(&marks) {
                        if *k != Kind::Del {
                            push_line(&mut out, &[*m, b' '], l);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The hunk search and application over one file, as GNU's `locate_hunk` and
/// `apply_hunk`: input lines before `frozen` are already copied to `out`.
struct Apply<'i> {
    input: &'i [Line],
    out: Vec<Line>,
    frozen: usize,
    in_offset: i64,
    out_offset: i64,
    ignore_ws: bool,
}

impl<'i> Apply<'i> {
    /// A copy for trying a hunk without moving anything.
    fn clone_probe(&self) -> Apply<'i> {
        Apply {
            input: self.input,
            out: Vec::new(),
            frozen: self.frozen,
            in_offset: self.in_offset,
            out_offset: self.out_offset,
            ignore_ws: self.ignore_ws,
        }
    }

    fn same(&self, a: &[u8], b: &[u8]) -> bool {
        if !self.ignore_ws {
            return a == b;
        }
        let words = |s: &[u8]| -> Vec<Vec<u8>> {
            s.split(|c| c.is_ascii_whitespace())
                .filter(|w| !w.is_empty())
                .map(<[u8]>::to_vec)
                .collect()
        };
        words(a) == words(b)
    }

    /// Whether the hunk's old lines (less `pre` at the start and `suf` at the end)
    /// are the input's from line `base` (1-based).
    fn matches(&self, pattern: &[&Line], base: i64, pre: usize, suf: usize) -> bool {
        let end = pattern.len().saturating_sub(suf);
        for (i, p) in pattern.iter().enumerate().take(end).skip(pre) {
            let at = base + i as i64 - 1;
            let Some(l) = usize::try_from(at).ok().and_then(|a| self.input.get(a)) else {
                return false;
            };
            if !self.same(&l.text, &p.text) {
                return false;
            }
        }
        true
    }

    /// Where the hunk applies (1-based input line of its first old line), moving
    /// `in_offset` as GNU does; `None` if nowhere.
    fn locate(
        &mut self,
        hunk: &Hunk,
        fuzz: usize,
        host: &mut dyn super::Host,
    ) -> std::io::Result<Option<usize>> {
        let pattern: Vec<&Line> = hunk.old_lines().collect();
        let pat_lines = pattern.len() as i64;
        let first_guess = hunk.first() as i64 + self.in_offset;
        let (pre, suf) = hunk.prefix_suffix();
        let (pre, suf, fuzz) = (pre as i64, suf as i64, fuzz as i64);
        let context = pre.max(suf);
        let prefix_fuzz = fuzz + pre - context;
        let suffix_fuzz = fuzz + suf - context;
        let input_lines = self.input.len() as i64;
        let max_where = input_lines - (pat_lines - suffix_fuzz) + 1;
        let min_where = self.frozen as i64 + 1;
        let max_pos = max_where - first_guess;
        let mut max_neg = first_guess - min_where;
        if pat_lines == 0 {
            return Ok(usize::try_from(first_guess.max(min_where)).ok());
        }
        if first_guess <= max_neg {
            max_neg = first_guess - 1;
        }
        let ok = |s: &Self, base: i64, pf: i64, sf: i64| {
            s.matches(&pattern, base, pf.max(0) as usize, sf.max(0) as usize)
        };
        if prefix_fuzz < 0 && hunk.first() <= 1 {
            // Only the start of the file can match.
            if suffix_fuzz < 0 && (pat_lines != input_lines) {
                return Ok(None);
            }
            let offset = 1 - first_guess;
            if self.frozen == 0 && offset <= max_pos && ok(self, 1, 0, suffix_fuzz) {
                self.in_offset += offset;
                return Ok(Some(1));
            }
            return Ok(None);
        }
        let prefix_fuzz = prefix_fuzz.max(0);
        if suffix_fuzz < 0 {
            // Only the end of the file can match.
            let offset = first_guess - (input_lines - pat_lines + 1);
            if offset <= max_neg && ok(self, first_guess - offset, prefix_fuzz, 0) {
                self.in_offset -= offset;
                return Ok(usize::try_from(first_guess - offset).ok());
            }
            return Ok(None);
        }
        let max_offset = max_pos.max(max_neg);
        // Offsets that put the hunk outside the file on both sides are not tried
        // (patch 2.7.6's `min_offset`), so a stated line far past the end costs nothing.
        let mut offset = if max_pos < 0 {
            first_guess - max_where
        } else if max_neg < 0 {
            first_guess - min_where
        } else {
            0
        };
        let mut tries = 0u32;
        while offset <= max_offset {
            tries = tries.wrapping_add(1);
            if tries.is_multiple_of(1024) {
                host.check()?;
            }
            if offset <= max_pos && ok(self, first_guess + offset, prefix_fuzz, suffix_fuzz) {
                self.in_offset += offset;
                return Ok(usize::try_from(first_guess + offset).ok());
            }
            if offset > 0
                && offset <= max_neg
                && ok(self, first_guess - offset, prefix_fuzz, suffix_fuzz)
            {
                self.in_offset -= offset;
                return Ok(usize::try_from(first_guess - offset).ok());
            }
            offset += 1;
        }
        Ok(None)
    }

    /// Copies input up to `where`, then the hunk: context lines from the input
    /// (fuzzed ones keep the file's text), deletions skipped, additions inserted.
    fn apply(&mut self, hunk: &Hunk, at: usize) {
        let start = at.saturating_sub(1);
        while self.frozen < start && self.frozen < self.input.len() {
            self.out.push(self.input[self.frozen].clone());
            self.frozen += 1;
        }
        let mut pos = start.max(self.frozen);
        for (k, l) in &hunk.lines {
            match k {
                Kind::Context => {
                    if let Some(line) = self.input.get(pos) {
                        self.out.push(line.clone());
                    }
                    pos += 1;
                }
                Kind::Del => pos += 1,
                Kind::Add => self.out.push(l.clone()),
            }
        }
        self.frozen = pos.min(self.input.len()).max(self.frozen);
        self.out_offset += hunk.new_len as i64 - hunk.old_len as i64;
    }

    fn finish(&mut self) {
        while let Some(l) = self.input.get(self.frozen) {
            self.out.push(l.clone());
            self.frozen += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    const A: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
    const P: &str = "--- a\n+++ b\n@@ -4,3 +4,3 @@\n 4\n-5\n+five\n 6\n";

    fn content(fs: &crate::fs::SharedFs, name: &str) -> Option<String> {
        let path = crate::fs::path::join(crate::commands::testing::CWD, name);
        let data = fs.lock().read_file(&path).ok()?;
        Some(String::from_utf8_lossy(&data).into_owned())
    }

    #[test]
    fn applies_unified_with_offset_and_backs_up() {
        let fs = fs_with(&[("f", &format!("x\n{A}")), ("p", P)]);
        let (out, err, status) = run_in(&fs, "patch f p", b"");
        let out = String::from_utf8_lossy(&out);
        assert_eq!(
            (out.as_ref(), err.as_str(), status),
            (
                "patching file f\nHunk #1 succeeded at 5 (offset 1 line).\n",
                "",
                0
            )
        );
        assert_eq!(
            content(&fs, "f").as_deref(),
            Some("x\n1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n")
        );
        assert_eq!(content(&fs, "f.orig"), Some(format!("x\n{A}")));
    }

    #[test]
    fn failed_hunk_goes_to_rej() {
        let fs = fs_with(&[("f", "q\nw\n"), ("p", P)]);
        let (out, _, status) = run_in(&fs, "patch -i p f", b"");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "patching file f\nHunk #1 FAILED at 4.\n1 out of 1 hunk FAILED -- saving rejects to file f.rej\n"
        );
        assert_eq!(status, 1);
        assert_eq!(content(&fs, "f.rej").as_deref(), Some(P));
        assert_eq!(content(&fs, "f").as_deref(), Some("q\nw\n"));
    }

    #[test]
    fn garbage_and_empty_input() {
        check(
            &[],
            "patch",
            "hello\n",
            (
                "",
                "patch: **** Only garbage was found in the patch input.\n",
                2,
            ),
        );
        check(&[], "patch", "", ("", "", 0));
    }

    #[test]
    fn hostile_ranges_neither_panic_nor_hang() {
        for p in [
            "--- a\n+++ b\n@@ -18446744073709551615,3 +1 @@\n 1\n-2\n+3\n 4\n",
            "--- a\n+++ b\n@@ -9000000000000000000 +1 @@\n-2\n+3\n",
            "5,3c1\n< x\n---\n> y\n",
            "*** a\n--- b\n***************\n*** 9,2 ****\n- x\n--- 1 ----\n+ y\n",
        ] {
            let fs = fs_with(&[("f", A), ("p", p)]);
            let (_, _, status) = run_in(&fs, "patch f p", b"");
            assert!(status <= 2, "{p:?}");
        }
    }
}
