//! `diff`: compares files line by line in GNU's normal format, unified format (`-u`,
//! `-U N`, with `---`/`+++` headers carrying the virtual mtime), copied context (`-c`)
//! or side by side (`-y`, in `side`), `-q`, `-s`, `-r` and `-N` for directories,
//! `-i -b -w` normalisation, `-t` tab expansion, and exit status 0 (same),
//! 1 (different) or 2 (trouble).
//!
//! The line matching comes from the `similar` crate's Myers diff, so where several
//! minimal edit scripts exist the hunks chosen may differ from GNU's.

use similar::{Algorithm, DiffTag, capture_diff_slices_by_key};

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};
use crate::fs::Fs;

mod side;

const LONG: &[LongOpt] = &[
    long("unified", HasArg::Optional, "u"),
    long("context", HasArg::Optional, "c"),
    long("exclude", HasArg::Required, "x"),
    long("brief", HasArg::No, "q"),
    long("report-identical-files", HasArg::No, "s"),
    long("recursive", HasArg::No, "r"),
    long("new-file", HasArg::No, "N"),
    long("ignore-case", HasArg::No, "i"),
    long("ignore-space-change", HasArg::No, "b"),
    long("ignore-all-space", HasArg::No, "w"),
    long("text", HasArg::No, "a"),
    long("label", HasArg::Required, "label"),
    long("normal", HasArg::No, "normal"),
    long("side-by-side", HasArg::No, "y"),
    long("width", HasArg::Required, "W"),
    long("left-column", HasArg::No, "left-column"),
    long("suppress-common-lines", HasArg::No, "suppress-common-lines"),
    long("expand-tabs", HasArg::No, "t"),
    long("tabsize", HasArg::Required, "tabsize"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: diff [OPTION]... FILES
Compare FILES line by line.

Mandatory arguments to long options are mandatory for short options too.
      --normal                  output a normal diff (the default)
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context
  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context
  -e, --ed                      output an ed script
  -n, --rcs                     output an RCS format diff
  -y, --side-by-side            output in two columns
  -W, --width=NUM               output at most NUM (default 130) print columns
      --left-column             output only the left column of common lines
      --suppress-common-lines   do not output common lines

  -p, --show-c-function         show which C function each change is in
  -F, --show-function-line=RE   show the most recent line matching RE
      --label LABEL             use LABEL instead of file name and timestamp
                                  (can be repeated)

  -t, --expand-tabs             expand tabs to spaces in output
  -T, --initial-tab             make tabs line up by prepending a tab
      --tabsize=NUM             tab stops every NUM (default 8) print columns
      --suppress-blank-empty    suppress space or tab before empty output lines
  -l, --paginate                pass output through 'pr' to paginate it

  -r, --recursive                 recursively compare any subdirectories found
      --no-dereference            don't follow symbolic links
  -N, --new-file                  treat absent files as empty
      --unidirectional-new-file   treat absent first files as empty
      --ignore-file-name-case     ignore case when comparing file names
      --no-ignore-file-name-case  consider case when comparing file names
  -x, --exclude=PAT               exclude files that match PAT
  -X, --exclude-from=FILE         exclude files that match any pattern in FILE
  -S, --starting-file=FILE        start with FILE when comparing directories
      --from-file=FILE1           compare FILE1 to all operands;
                                    FILE1 can be a directory
      --to-file=FILE2             compare all operands to FILE2;
                                    FILE2 can be a directory

  -i, --ignore-case               ignore case differences in file contents
  -E, --ignore-tab-expansion      ignore changes due to tab expansion
  -Z, --ignore-trailing-space     ignore white space at line end
  -b, --ignore-space-change       ignore changes in the amount of white space
  -w, --ignore-all-space          ignore all white space
  -B, --ignore-blank-lines        ignore changes where lines are all blank
  -I, --ignore-matching-lines=RE  ignore changes where all lines match RE

  -a, --text                      treat all files as text
      --strip-trailing-cr         strip trailing carriage return on input

  -D, --ifdef=NAME                output merged file with '#ifdef NAME' diffs
      --GTYPE-group-format=GFMT   format GTYPE input groups with GFMT
      --line-format=LFMT          format all input lines with LFMT
      --LTYPE-line-format=LFMT    format LTYPE input lines with LFMT
    These format options provide fine-grained control over the output
      of diff, generalizing -D/--ifdef.
    LTYPE is 'old', 'new', or 'unchanged'.  GTYPE is LTYPE or 'changed'.
    GFMT (only) may contain:
      %<  lines from FILE1
      %>  lines from FILE2
      %=  lines common to FILE1 and FILE2
      %[-][WIDTH][.[PREC]]{doxX}LETTER  printf-style spec for LETTER
        LETTERs are as follows for new group, lower case for old group:
          F  first line number
          L  last line number
          N  number of lines = L-F+1
          E  F-1
          M  L+1
      %(A=B?T:E)  if A equals B then T else E
    LFMT (only) may contain:
      %L  contents of line
      %l  contents of line, excluding any trailing newline
      %[-][WIDTH][.[PREC]]{doxX}n  printf-style spec for input line number
    Both GFMT and LFMT may contain:
      %%  %
      %c'C'  the single character C
      %c'\\OOO'  the character with octal code OOO
      C    the character C (other characters represent themselves)

  -d, --minimal            try hard to find a smaller set of changes
      --horizon-lines=NUM  keep NUM lines of the common prefix and suffix
      --speed-large-files  assume large files and many scattered small changes
      --color[=WHEN]       color output; WHEN is 'never', 'always', or 'auto';
                             plain --color means --color='auto'
      --palette=PALETTE    the colors to use when --color is active; PALETTE is
                             a colon-separated list of terminfo capabilities

      --help               display this help and exit
  -v, --version            output version information and exit

FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If --from-file or --to-file is given, there are no restrictions on FILE(s).
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
";

struct Opts {
    /// Local time for the header timestamps.
    zone: crate::timefmt::Zone,
    unified: Option<usize>,
    /// Copied-context format (`-c`, `-C N`) instead of unified.
    context: bool,
    brief: bool,
    report_same: bool,
    recursive: bool,
    new_file: bool,
    icase: bool,
    space_change: bool,
    all_space: bool,
    text: bool,
    labels: Vec<String>,
    /// `-x` patterns: names left out of directory comparisons.
    exclude: Vec<String>,
    /// The switches as given, for `diff -r a/x b/x` headers.
    switches: String,
    /// `-t`: tabs in output lines become spaces to stops this far apart.
    expand_tabs: Option<usize>,
    /// `-y`: two columns.
    side: Option<side::Layout>,
}

/// One side of a comparison.
struct Side {
    name: String,
    data: Option<Vec<u8>>,
    mtime: crate::fs::Timestamp,
}

fn lines(data: &[u8]) -> Vec<&[u8]> {
    let mut out: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
    if data.is_empty() {
        out.clear();
    }
    out
}

fn key(o: &Opts, line: &[u8]) -> Vec<u8> {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    let mut k: Vec<u8> = if o.all_space {
        body.iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect()
    } else if o.space_change {
        let mut v = Vec::new();
        let mut in_space = false;
        for &b in body {
            if b == b' ' || b == b'\t' {
                in_space = true;
            } else {
                if in_space && !v.is_empty() {
                    v.push(b' ');
                }
                in_space = false;
                v.push(b);
            }
        }
        v
    } else {
        body.to_vec()
    };
    if o.icase {
        k.make_ascii_lowercase();
    }
    // A last line without its newline differs from the same text with one.
    if !line.ends_with(b"\n") {
        k.extend_from_slice(b"\0no newline");
    }
    k
}

fn range(start: usize, len: usize) -> String {
    // 1-based; an empty range names the line before it.
    match len {
        0 => start.to_string(),
        1 => (start + 1).to_string(),
        _ => format!("{},{}", start + 1, start + len),
    }
}

fn push_line(out: &mut Vec<u8>, tabs: Option<usize>, prefix: &[u8], line: &[u8]) {
    out.extend_from_slice(prefix);
    match tabs {
        None => out.extend_from_slice(line),
        Some(size) => expand_tabs(out, prefix, line, size),
    }
    if !line.ends_with(b"\n") {
        out.extend_from_slice(b"\n\\ No newline at end of file\n");
    }
}

/// A line with its tabs turned into spaces (`-t`), counting columns as GNU's
/// `output_1_line` does: one for each printable byte, back one for a backspace, from
/// nothing after a carriage return (which the line's `prefix` follows again).
fn expand_tabs(out: &mut Vec<u8>, prefix: &[u8], line: &[u8], size: usize) {
    let size = size.max(1);
    let mut column = 0;
    for (i, &c) in line.iter().enumerate() {
        match c {
            b'\t' => {
                let spaces = size - column % size;
                column += spaces;
                out.extend(std::iter::repeat_n(b' ', spaces));
            }
            b'\r' => {
                out.push(c);
                // The normal and context formats print their two-byte flags through
                // GNU's flag format, which repeats after a carriage return; unified
                // prints its one-byte flag apart, which does not.
                if prefix.len() == 2 && line.get(i + 1).is_some_and(|&n| n != b'\n') {
                    out.extend_from_slice(prefix);
                }
                column = 0;
            }
            0x08 => {
                if column > 0 {
                    column -= 1;
                    out.push(c);
                }
            }
            _ => {
                column += usize::from(c.is_ascii_graphic() || c == b' ');
                out.push(c);
            }
        }
    }
}

fn stamp(t: crate::fs::Timestamp, zone: &crate::timefmt::Zone) -> String {
    zone.strftime("%Y-%m-%d %H:%M:%S.%N %z", t.secs, t.nanos)
}

/// Diffs two texts: the output (empty when they match, except side by side) and
/// whether they differ.
fn diff_texts(o: &Opts, a: &Side, b: &Side) -> (Vec<u8>, bool) {
    let da = a.data.as_deref().unwrap_or(&[]);
    let db = b.data.as_deref().unwrap_or(&[]);
    let la = lines(da);
    let lb = lines(db);
    let ops = capture_diff_slices_by_key(Algorithm::Myers, &la, &lb, |l| key(o, l));
    // Changes as (old range, new range), merging adjacent non-equal ops.
    let mut changes: Vec<Change> = Vec::new();
    for op in &ops {
        let (tag, ra, rb) = op.as_tag_tuple();
        if tag == DiffTag::Equal {
            continue;
        }
        match changes.last_mut() {
            Some((pa, pb)) if pa.end == ra.start && pb.end == rb.start => {
                pa.end = ra.end;
                pb.end = rb.end;
            }
            _ => changes.push((ra, rb)),
        }
    }
    if let Some(layout) = &o.side {
        return (layout.render(&la, &lb, &changes), !changes.is_empty());
    }
    let mut out = Vec::new();
    if changes.is_empty() {
        return (out, false);
    }
    match o.unified {
        None => {
            for (ra, rb) in &changes {
                let (na, nb) = (ra.len(), rb.len());
                let head = if na == 0 {
                    format!("{}a{}", ra.start, range(rb.start, nb))
                } else if nb == 0 {
                    format!("{}d{}", range(ra.start, na), rb.start)
                } else {
                    format!("{}c{}", range(ra.start, na), range(rb.start, nb))
                };
                out.extend_from_slice(head.as_bytes());
                out.push(b'\n');
                for l in la.get(ra.clone()).unwrap_or(&[]) {
                    push_line(&mut out, o.expand_tabs, b"< ", l);
                }
                if na > 0 && nb > 0 {
                    out.extend_from_slice(b"---\n");
                }
                for l in lb.get(rb.clone()).unwrap_or(&[]) {
                    push_line(&mut out, o.expand_tabs, b"> ", l);
                }
            }
        }
        Some(ctx_n) => {
            let label = |k: usize, s: &Side| {
                o.labels
                    .get(k)
                    .cloned()
                    .unwrap_or_else(|| format!("{}\t{}", s.name, stamp(s.mtime, &o.zone)))
            };
            let (old_mark, new_mark) = if o.context {
                ("***", "---")
            } else {
                ("---", "+++")
            };
            out.extend_from_slice(
                format!("{old_mark} {}\n{new_mark} {}\n", label(0, a), label(1, b)).as_bytes(),
            );
            // Group changes whose gap is at most 2N lines.
            let mut k = 0;
            while k < changes.len() {
                let mut end = k;
                while let Some(next) = changes.get(end + 1) {
                    let cur = &changes[end];
                    if next.0.start - cur.0.end <= 2 * ctx_n {
                        end += 1;
                    } else {
                        break;
                    }
                }
                let first = &changes[k];
                let last = &changes[end];
                let a_start = first.0.start.saturating_sub(ctx_n);
                let a_end = (last.0.end + ctx_n).min(la.len());
                let b_start = first.1.start.saturating_sub(ctx_n);
                let b_end = (last.1.end + ctx_n).min(lb.len());
                let hr = |s: usize, e: usize| {
                    let len = e - s;
                    match len {
                        0 => format!("{s},0"),
                        1 => format!("{}", s + 1),
                        _ => format!("{},{len}", s + 1),
                    }
                };
                let group = changes.get(k..=end).unwrap_or(&[]);
                if o.context {
                    context_hunk(
                        &mut out,
                        o.expand_tabs,
                        group,
                        (&la, a_start, a_end),
                        (&lb, b_start, b_end),
                    );
                    k = end + 1;
                    continue;
                }
                out.extend_from_slice(
                    format!("@@ -{} +{} @@\n", hr(a_start, a_end), hr(b_start, b_end)).as_bytes(),
                );
                let mut ai = a_start;
                for c in changes.get(k..=end).unwrap_or(&[]) {
                    for l in la.get(ai..c.0.start).unwrap_or(&[]) {
                        push_line(&mut out, o.expand_tabs, b" ", l);
                    }
                    for l in la.get(c.0.clone()).unwrap_or(&[]) {
                        push_line(&mut out, o.expand_tabs, b"-", l);
                    }
                    for l in lb.get(c.1.clone()).unwrap_or(&[]) {
                        push_line(&mut out, o.expand_tabs, b"+", l);
                    }
                    ai = c.0.end;
                }
                for l in la.get(ai..a_end).unwrap_or(&[]) {
                    push_line(&mut out, o.expand_tabs, b" ", l);
                }
                k = end + 1;
            }
        }
    }
    (out, true)
}

type Change = (std::ops::Range<usize>, std::ops::Range<usize>);

/// One hunk of a copied-context diff (`-c`): the old lines with `-`/`!` marks, then
/// the new ones with `+`/`!`, each side omitted when it has no changes.
fn context_hunk(
    out: &mut Vec<u8>,
    tabs: Option<usize>,
    group: &[Change],
    (la, a_start, a_end): (&[&[u8]], usize, usize),
    (lb, b_start, b_end): (&[&[u8]], usize, usize),
) {
    // GNU prints an empty range as the line before it, one line as its number.
    let cr = |s: usize, e: usize| match e.saturating_sub(s) {
        0 => s.to_string(),
        1 => e.to_string(),
        _ => format!("{},{e}", s + 1),
    };
    out.extend_from_slice(b"***************\n");
    out.extend_from_slice(format!("*** {} ****\n", cr(a_start, a_end)).as_bytes());
    let old_side = group.iter().map(|c| (&c.0, &c.1));
    context_half(out, tabs, old_side, (la, a_start, a_end), b"- ");
    out.extend_from_slice(format!("--- {} ----\n", cr(b_start, b_end)).as_bytes());
    let new_side = group.iter().map(|c| (&c.1, &c.0));
    context_half(out, tabs, new_side, (lb, b_start, b_end), b"+ ");
}

/// One side of a `-c` hunk, given each change as (this side's range, the other's):
/// lines only this side has are marked `only`, changed ones `!`; a side without
/// changes is left out.
fn context_half<'g>(
    out: &mut Vec<u8>,
    tabs: Option<usize>,
    group: impl Iterator<Item = (&'g std::ops::Range<usize>, &'g std::ops::Range<usize>)> + Clone,
    (lines, start, end): (&[&[u8]], usize, usize),
    only: &[u8],
) {
    if group.clone().all(|(ours, _)| ours.is_empty()) {
        return;
    }
    for i in start..end {
        let mark: &[u8] = match group.clone().find(|(ours, _)| ours.contains(&i)) {
            Some((_, theirs)) if theirs.is_empty() => only,
            Some(_) => b"! ",
            None => b"  ",
        };
        if let Some(l) = lines.get(i) {
            push_line(out, tabs, mark, l);
        }
    }
}

struct Run<'c, 'x> {
    ctx: &'c mut Ctx<'x>,
    o: Opts,
    fs: Fs,
    status: i32,
}

impl Run<'_, '_> {
    fn trouble(&mut self, msg: String) -> std::io::Result<()> {
        self.ctx.err(msg)?;
        self.status = 2;
        Ok(())
    }

    fn read(&mut self, name: &str) -> std::io::Result<Option<Side>> {
        if name == "-" {
            let mut d = Vec::new();
            std::io::Read::read_to_end(&mut *self.ctx.stdin, &mut d)?;
            let now = self.fs.clock().now();
            return Ok(Some(Side {
                name: name.to_owned(),
                data: Some(d),
                mtime: now,
            }));
        }
        let path = self.ctx.path(name);
        if self
            .fs
            .stat(&path)
            .is_ok_and(|m| m.file_type == crate::fs::FileType::Fifo)
        {
            // A FIFO is read as it comes, until its writers close it.
            let data = crate::commands::util::read_named(&*self.ctx.host, self.ctx.fs, &path)?;
            let now = self.fs.clock().now();
            return match data {
                Ok(d) => Ok(Some(Side {
                    name: name.to_owned(),
                    data: Some(d.to_vec()),
                    mtime: now,
                })),
                Err(e) => {
                    self.trouble(format!("{name}: {e}"))?;
                    Ok(None)
                }
            };
        }
        match (self.fs.stat(&path), self.fs.read_file(&path)) {
            (Ok(m), Ok(d)) => Ok(Some(Side {
                name: name.to_owned(),
                data: Some(d.to_vec()),
                mtime: m.mtime,
            })),
            (Err(e), _) | (_, Err(e)) => {
                self.trouble(format!("{name}: {e}"))?;
                Ok(None)
            }
        }
    }

    fn compare_files(&mut self, a: Side, b: Side, header: bool) -> std::io::Result<()> {
        let same = a.data == b.data;
        // Side by side, files that match still show their lines.
        if same && self.o.side.is_some() && !self.o.brief {
            let (body, _) = diff_texts(&self.o, &a, &b);
            self.ctx.stdout.write_all(&body)?;
        }
        if same {
            if self.o.report_same {
                writeln!(
                    self.ctx.stdout,
                    "Files {} and {} are identical",
                    a.name, b.name
                )?;
            }
            return Ok(());
        }
        let binary = !self.o.text
            && (a.data.as_deref().is_some_and(|d| d.contains(&0))
                || b.data.as_deref().is_some_and(|d| d.contains(&0)));
        if self.o.brief || binary {
            let (_, differ) = diff_texts(&self.o, &a, &b);
            if differ || binary {
                let what = if binary { "Binary files" } else { "Files" };
                writeln!(self.ctx.stdout, "{what} {} and {} differ", a.name, b.name)?;
                self.status = self.status.max(1);
            }
            return Ok(());
        }
        let (body, differ) = diff_texts(&self.o, &a, &b);
        if !differ {
            self.ctx.stdout.write_all(&body)?;
            return Ok(());
        }
        if header {
            writeln!(
                self.ctx.stdout,
                "diff{} {} {}",
                self.o.switches, a.name, b.name
            )?;
        }
        self.ctx.stdout.write_all(&body)?;
        self.status = self.status.max(1);
        Ok(())
    }

    fn compare_dirs(&mut self, a: &str, b: &str) -> std::io::Result<()> {
        self.ctx.host.check()?;
        let names = |fs: &Fs, p: &str| -> Vec<String> {
            fs.read_dir(p)
                .map(|v| v.into_iter().map(|e| e.name).collect())
                .unwrap_or_default()
        };
        let (pa, pb) = (self.ctx.path(a), self.ctx.path(b));
        let (na, nb) = (names(&self.fs, &pa), names(&self.fs, &pb));
        let mut all: Vec<String> = na.iter().chain(nb.iter()).cloned().collect();
        all.sort();
        all.dedup();
        let excluded = self.o.exclude.clone();
        all.retain(|n| {
            !excluded
                .iter()
                .any(|p| super::fnmatch::fnmatch(p, n, false))
        });
        for n in all {
            let (ca, cb) = (join(a, &n), join(b, &n));
            let (ina, inb) = (na.contains(&n), nb.contains(&n));
            let dir_a = self.fs.stat(&self.ctx.path(&ca)).is_ok_and(|m| m.is_dir());
            let dir_b = self.fs.stat(&self.ctx.path(&cb)).is_ok_and(|m| m.is_dir());
            if !ina || !inb {
                if self.o.new_file && !(dir_a || dir_b) {
                    let (sa, sb) = if ina {
                        (self.read(&ca)?, Some(self.empty(&cb)))
                    } else {
                        (Some(self.empty(&ca)), self.read(&cb)?)
                    };
                    if let (Some(sa), Some(sb)) = (sa, sb) {
                        self.compare_files(sa, sb, true)?;
                    }
                    continue;
                }
                let dir = if ina { a } else { b };
                writeln!(self.ctx.stdout, "Only in {dir}: {n}")?;
                self.status = self.status.max(1);
                continue;
            }
            match (dir_a, dir_b) {
                (true, true) => {
                    if self.o.recursive {
                        self.compare_dirs(&ca, &cb)?;
                    } else {
                        writeln!(self.ctx.stdout, "Common subdirectories: {ca} and {cb}")?;
                    }
                }
                (false, false) => {
                    if let (Some(sa), Some(sb)) = (self.read(&ca)?, self.read(&cb)?) {
                        self.compare_files(sa, sb, true)?;
                    }
                }
                (true, false) => {
                    writeln!(
                        self.ctx.stdout,
                        "File {ca} is a directory while file {cb} is a regular file"
                    )?;
                    self.status = self.status.max(1);
                }
                (false, true) => {
                    writeln!(
                        self.ctx.stdout,
                        "File {ca} is a regular file while file {cb} is a directory"
                    )?;
                    self.status = self.status.max(1);
                }
            }
        }
        Ok(())
    }

    fn empty(&self, name: &str) -> Side {
        Side {
            name: name.to_owned(),
            data: Some(Vec::new()),
            mtime: crate::fs::Timestamp { secs: 0, nanos: 0 },
        }
    }
}

/// A usage error: the message, then where to read more (status 2).
fn diff_usage(ctx: &mut Ctx, msg: &str) -> CmdResult {
    ctx.err(msg)?;
    writeln!(ctx.stderr, "diff: Try 'diff --help' for more information.")?;
    Ok(2)
}

/// A number above zero as GNU reads `-W` and `--tabsize`: decimal, blanks and a `+`
/// allowed in front; one too big for a machine word counts as the largest.
fn positive_number(text: &str) -> Option<usize> {
    let digits = text.trim_start();
    let digits = digits.strip_prefix('+').unwrap_or(digits);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = digits.parse::<usize>().unwrap_or(usize::MAX);
    (n > 0).then_some(n)
}

fn join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

pub fn diff(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("cC:uU:qsrNibwax:yW:t", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => {
            ctx.err(msg)?;
            writeln!(ctx.stderr, "diff: Try 'diff --help' for more information.")?;
            return Ok(2);
        }
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut o = Opts {
        zone: ctx.zone(),
        unified: None,
        context: false,
        brief: parsed.has("q"),
        report_same: parsed.has("s"),
        recursive: parsed.has("r"),
        new_file: parsed.has("N"),
        icase: parsed.has("i"),
        space_change: parsed.has("b"),
        all_space: parsed.has("w"),
        text: parsed.has("a"),
        labels: Vec::new(),
        exclude: Vec::new(),
        switches: String::new(),
        expand_tabs: None,
        side: None,
    };
    // Output styles may not be mixed (`-u -y`); a width or tab size given twice must
    // agree. Options are taken in order, so the first fault is the one reported.
    let mut style: Option<&str> = None;
    let (mut width, mut tabsize): (Option<usize>, Option<usize>) = (None, None);
    for (k, v) in &parsed.opts {
        let this = match k.as_str() {
            "u" | "U" => Some("unified"),
            "c" | "C" => Some("context"),
            "normal" => Some("normal"),
            "y" => Some("side"),
            _ => None,
        };
        if let Some(this) = this {
            if style.is_some_and(|s| s != this) {
                return diff_usage(ctx, "conflicting output style options");
            }
            style = Some(this);
        }
        match k.as_str() {
            "W" | "tabsize" => {
                let (what, slot) = if k == "W" {
                    ("width", &mut width)
                } else {
                    ("tabsize", &mut tabsize)
                };
                let text = v.as_deref().unwrap_or("");
                let Some(n) = positive_number(text) else {
                    return diff_usage(ctx, &format!("invalid {what} '{text}'"));
                };
                if slot.is_some_and(|old| old != n) {
                    // A plain error in GNU, without the pointer to --help.
                    ctx.err(format!("conflicting {what} options"))?;
                    return Ok(2);
                }
                *slot = Some(n);
            }
            _ => {}
        }
        match k.as_str() {
            "u" | "c" => {
                o.unified = Some(v.as_deref().and_then(|n| n.parse().ok()).unwrap_or(3));
                o.context = k == "c";
            }
            "U" | "C" => match v.as_deref().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) => {
                    o.unified = Some(n);
                    o.context = k == "C";
                }
                None => {
                    ctx.err(format!(
                        "invalid context length '{}'",
                        v.as_deref().unwrap_or("")
                    ))?;
                    writeln!(ctx.stderr, "diff: Try 'diff --help' for more information.")?;
                    return Ok(2);
                }
            },
            "normal" => {
                o.unified = None;
                o.context = false;
            }
            "y" => {
                o.unified = None;
                o.context = false;
            }
            "label" => o.labels.push(v.clone().unwrap_or_default()),
            "x" => o.exclude.push(v.clone().unwrap_or_default()),
            _ => {}
        }
    }
    let tabsize = tabsize.unwrap_or(8);
    if parsed.has("t") {
        o.expand_tabs = Some(tabsize);
    }
    if style == Some("side") {
        // GNU takes any width; past a million columns a run would only fill memory
        // with blanks, so wider asks get that.
        let width = width.unwrap_or(130).min(1 << 20);
        let utf8 = super::util::utf8_locale(ctx.env);
        let mut layout = side::Layout::new(width, tabsize, parsed.has("t"), utf8);
        layout.left_column = parsed.has("left-column");
        layout.suppress_common = parsed.has("suppress-common-lines");
        o.side = Some(layout);
    }
    for a in ctx.args {
        if parsed.operands.contains(a) {
            continue;
        }
        o.switches.push(' ');
        o.switches.push_str(a);
    }
    let [a, b] = parsed.operands.as_slice() else {
        let msg = match parsed.operands.len() {
            0 => "missing operand after 'diff'".to_owned(),
            1 => format!("missing operand after '{}'", parsed.operands[0]),
            _ => format!("extra operand '{}'", parsed.operands[2]),
        };
        ctx.err(msg)?;
        writeln!(ctx.stderr, "diff: Try 'diff --help' for more information.")?;
        return Ok(2);
    };
    let fs = ctx.fs.snapshot();
    let (a, b) = (a.clone(), b.clone());
    let mut run = Run {
        ctx,
        o,
        fs,
        status: 0,
    };
    let is_dir =
        |run: &Run, n: &str| n != "-" && run.fs.stat(&run.ctx.path(n)).is_ok_and(|m| m.is_dir());
    let exists = |run: &Run, n: &str| n == "-" || run.fs.stat(&run.ctx.path(n)).is_ok();
    match (is_dir(&run, &a), is_dir(&run, &b)) {
        (true, true) => run.compare_dirs(&a, &b)?,
        (da, db) => {
            // A file against a directory means the file of that name inside it.
            let a2 = if da {
                join(&a, crate::fs::path::file_name(&b))
            } else {
                a.clone()
            };
            let b2 = if db {
                join(&b, crate::fs::path::file_name(&a))
            } else {
                b.clone()
            };
            let sa = if run.o.new_file && !exists(&run, &a2) && exists(&run, &b2) {
                Some(run.empty(&a2))
            } else {
                run.read(&a2)?
            };
            let sb = if run.o.new_file && !exists(&run, &b2) && sa.is_some() {
                Some(run.empty(&b2))
            } else {
                run.read(&b2)?
            };
            if let (Some(sa), Some(sb)) = (sa, sb) {
                run.compare_files(sa, sb, false)?;
            }
        }
    }
    Ok(run.status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{fs_with, run_in};

    const A: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
    const B: &str = "1\n2\nthree\n4\n5\n6\n7\n8\n10\n11\n";

    /// Expectations from GNU diffutils 3.8.
    #[test]
    fn diff_table() {
        let files: &[(&str, &str)] = &[
            ("a/f", A),
            ("b/f", B),
            ("a/only", "x\n"),
            ("a/sub/s", "s\n"),
            ("b/sub/s", "t\n"),
            ("a/nonl", "n"),
            ("b/nonl", "n\n"),
        ];
        const STAMP: &str = "2023-11-14 22:13:20.000000000 +0000";
        let unified = format!(
            "--- a/f\t{STAMP}\n+++ b/f\t{STAMP}\n@@ -1,10 +1,10 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n 7\n 8\n-9\n 10\n+11\n"
        );
        let u1 = format!(
            "--- a/f\t{STAMP}\n+++ b/f\t{STAMP}\n@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n@@ -8,3 +8,3 @@\n 8\n-9\n 10\n+11\n"
        );
        let normal = "3c3\n< 3\n---\n> three\n9d8\n< 9\n10a10\n> 11\n";
        for (line, stdin, out, err, status) in [
            ("diff a/f b/f", "", normal.to_owned(), "", 1),
            ("diff -u a/f b/f", "", unified.clone(), "", 1),
            ("diff -U1 a/f b/f", "", u1, "", 1),
            (
                "diff -q a/f b/f",
                "",
                "Files a/f and b/f differ\n".to_owned(),
                "",
                1,
            ),
            (
                "diff -r a b",
                "",
                format!(
                    "diff -r a/f b/f\n{normal}diff -r a/nonl b/nonl\n1c1\n< n\n\\ No newline at end of file\n---\n> n\nOnly in a: only\ndiff -r a/sub/s b/sub/s\n1c1\n< s\n---\n> t\n"
                ),
                "",
                1,
            ),
            (
                "diff a b",
                "",
                format!(
                    "diff a/f b/f\n{normal}diff a/nonl b/nonl\n1c1\n< n\n\\ No newline at end of file\n---\n> n\nOnly in a: only\nCommon subdirectories: a/sub and b/sub\n"
                ),
                "",
                1,
            ),
            ("diff -N a/only b/only", "", "1d0\n< x\n".to_owned(), "", 1),
            (
                "diff a/f nope",
                "",
                String::new(),
                "diff: nope: No such file or directory\n",
                2,
            ),
            (
                "diff -s a/f a/f",
                "",
                "Files a/f and a/f are identical\n".to_owned(),
                "",
                0,
            ),
            ("diff a/f a/f", "", String::new(), "", 0),
            (
                "diff - a/only",
                "a\n",
                "1c1\n< a\n---\n> x\n".to_owned(),
                "",
                1,
            ),
            ("diff a/f b", "", normal.to_owned(), "", 1),
            (
                "diff -i a/only b/nonl",
                "",
                "1c1\n< x\n---\n> n\n".to_owned(),
                "",
                1,
            ),
            (
                "diff a/f",
                "",
                String::new(),
                "diff: missing operand after 'a/f'\ndiff: Try 'diff --help' for more information.\n",
                2,
            ),
        ] {
            let fs = fs_with(files);
            let (got, e, st) = run_in(&fs, line, stdin.as_bytes());
            assert_eq!(
                (String::from_utf8_lossy(&got).as_ref(), e.as_str(), st),
                (out.as_str(), err, status),
                "{line}"
            );
        }
    }

    #[test]
    fn ignore_whitespace_and_case() {
        let files: &[(&str, &str)] = &[("x", "a  b\nC\n"), ("y", "a b\nc\n")];
        for (line, status) in [("diff -b -i x y", 0), ("diff -w x y", 1), ("diff x y", 1)] {
            let fs = fs_with(files);
            let (_, _, st) = run_in(&fs, line, b"");
            assert_eq!(st, status, "{line}");
        }
    }
}
