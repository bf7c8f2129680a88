//! `ls`: lists files and directories one per line (as GNU does into a pipe), in
//! columns (`-C`, `-x`, tab-padded to `-w`/`$COLUMNS`/80 as GNU pads), comma-separated
//! (`-m`) or long (`-l`, `-h`, `-i`, `-n`, `-g`, `-o`, `-s`), with sorting (`-t`, `-S`,
//! `-v`, `-X`, `-U`, `-r`), hidden entries (`-a`, `-A`, `-B`, `-I`), `-d`, `-F`/`-p`,
//! quoting styles (`-Q`, `-b`, `-N`, `-q`, `--quoting-style`) and recursion (`-R`).

use std::cmp::Ordering;

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, argmatch, long, usage_error};
use super::util::{display_width, human_size, mode_string, quote, user_name};
use super::{CmdResult, Ctx};
use crate::fs::{FileType, Fs, Metadata};

const LONG: &[LongOpt] = &[
    long("all", HasArg::No, "a"),
    long("almost-all", HasArg::No, "A"),
    long("directory", HasArg::No, "d"),
    long("classify", HasArg::Optional, "F"),
    long("human-readable", HasArg::No, "h"),
    long("inode", HasArg::No, "i"),
    long("numeric-uid-gid", HasArg::No, "n"),
    long("recursive", HasArg::No, "R"),
    long("reverse", HasArg::No, "r"),
    long("dereference", HasArg::No, "L"),
    long("dereference-command-line", HasArg::No, "H"),
    long("color", HasArg::Optional, "color"),
    long("sort", HasArg::Required, "sort"),
    long("indicator-style", HasArg::Required, "indicator-style"),
    long("group-directories-first", HasArg::No, "gdf"),
    long("no-group", HasArg::No, "G"),
    long("full-time", HasArg::No, "full-time"),
    long("time-style", HasArg::Required, "time-style"),
    long("format", HasArg::Required, "format"),
    long("width", HasArg::Required, "w"),
    long("tabsize", HasArg::Required, "T"),
    long("quote-name", HasArg::No, "Q"),
    long("escape", HasArg::No, "b"),
    long("literal", HasArg::No, "N"),
    long("hide-control-chars", HasArg::No, "q"),
    long("show-control-chars", HasArg::No, "show-control-chars"),
    long("quoting-style", HasArg::Required, "quoting-style"),
    long("context", HasArg::No, "Z"),
    long("ignore", HasArg::Required, "I"),
    long("hide", HasArg::Required, "hide"),
    long("ignore-backups", HasArg::No, "B"),
    long("size", HasArg::No, "s"),
    long("kibibytes", HasArg::No, "k"),
    long("file-type", HasArg::No, "file-type"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -b, --escape               print C-style escapes for nongraphic characters
  -B, --ignore-backups       do not list implied entries ending with ~
  -C                         list entries by columns
      --color[=WHEN]         color the output WHEN (never in shellbox)
  -d, --directory            list directories themselves, not their contents
  -F, --classify[=WHEN]      append indicator (one of */=>@|) to entries WHEN
      --file-type            likewise, except do not append '*'
      --format=WORD          across -x, commas -m, horizontal -x, long -l,
                             single-column -1, verbose -l, vertical -C
      --full-time            like -l --time-style=full-iso
  -g                         like -l, but do not list owner
      --group-directories-first
                             group directories before files
  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.
  -H, --dereference-command-line
                             follow symbolic links listed on the command line
      --hide=PATTERN         do not list implied entries matching shell PATTERN
                             (overridden by -a or -A)
      --indicator-style=WORD
                             append indicator with style WORD to entry names:
                             none (default), slash (-p),
                             file-type (--file-type), classify (-F)
  -i, --inode                print the index number of each file
  -I, --ignore=PATTERN       do not list implied entries matching shell PATTERN
  -k, --kibibytes            default to 1024-byte blocks for file system usage
  -l                         use a long listing format
  -L, --dereference          when showing file information for a symbolic
                             link, show information for the file the link
                             references rather than for the link itself
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -N, --literal              print entry names without quoting
  -o                         like -l, but do not list group information
  -p, --indicator-style=slash
                             append / indicator to directories
  -q, --hide-control-chars   print ? instead of nongraphic characters
      --show-control-chars   show nongraphic characters as-is
  -Q, --quote-name           enclose entry names in double quotes
      --quoting-style=WORD   use quoting style WORD for entry names:
                             literal, locale, shell, shell-always,
                             shell-escape, shell-escape-always, c, escape
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
      --sort=WORD            sort by WORD instead of name: none (-U), size (-S),
                             time (-t), version (-v), extension (-X)
  -t                         sort by time, newest first
  -T, --tabsize=COLS         assume tab stops at each COLS instead of 8
  -U                         do not sort; list entries in directory order
  -v                         natural sort of (version) numbers within text
  -w, --width=COLS           set output width to COLS.  0 means no limit
  -x                         list entries by lines instead of by columns
  -X                         sort alphabetically by entry extension
  -Z, --context              print any security context of each file
  -1                         list one file per line
      --help        display this help and exit
      --version     output version information and exit
";

/// How entries are laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    OnePerLine,
    Columns,
    Across,
    Commas,
    Long,
}

/// How names are quoted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quoting {
    Literal,
    Escape,
    C,
    CMaybe,
    Shell,
    ShellAlways,
    ShellEscape,
    ShellEscapeAlways,
    Locale,
    CLocale,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SortBy {
    Name,
    Time,
    Size,
    Version,
    Extension,
    Width,
    None,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Indicator {
    None,
    Slash,
    FileType,
    Classify,
}

struct Opts {
    all: bool,
    almost_all: bool,
    long: bool,
    recursive: bool,
    human: bool,
    inode: bool,
    numeric: bool,
    directory: bool,
    reverse: bool,
    sort: SortBy,
    indicator: Indicator,
    deref_all: bool,
    deref_cmdline: bool,
    deref_cmdline_dirs: bool,
    group_dirs_first: bool,
    show_owner: bool,
    show_group: bool,
    time_style: TimeStyle,
    zone: crate::timefmt::Zone,
    format: Format,
    width: usize,
    tabsize: usize,
    quoting: Quoting,
    hide_control: bool,
    context: bool,
    size: bool,
    ignore: Vec<String>,
    hide: Vec<String>,
}

/// The C-style escape of a character for `-b` and `-Q`.
fn c_escape(c: char, out: &mut String, quote_chars: &str) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\x07' => out.push_str("\\a"),
        '\x08' => out.push_str("\\b"),
        '\x0c' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\x0b' => out.push_str("\\v"),
        c if quote_chars.contains(c) => {
            out.push('\\');
            out.push(c);
        }
        c if unprintable(c) => {
            let b = crate::text::raw_byte(c).unwrap_or(c as u32 as u8);
            out.push_str(&format!("\\{b:03o}"));
        }
        c => out.push(c),
    }
}

/// A name as `ls` shows it under the chosen quoting style.
fn shown_name(name: &str, o: &Opts) -> String {
    match o.quoting {
        Quoting::Literal if o.hide_control => name
            .chars()
            .map(|c| if unprintable(c) { '?' } else { c })
            .collect(),
        Quoting::Literal => name.to_owned(),
        Quoting::Escape => escaped(name, " "),
        Quoting::C => format!("\"{}\"", escaped(name, "\"")),
        Quoting::CMaybe if name.chars().any(|c| c == '"' || unprintable(c)) => {
            format!("\"{}\"", escaped(name, "\""))
        }
        Quoting::CMaybe => name.to_owned(),
        Quoting::Shell | Quoting::ShellAlways if name.chars().any(unprintable) => {
            format!("'{}'", name.replace('\'', "'\\''"))
        }
        Quoting::Shell | Quoting::ShellEscape => super::util::quote_name(name),
        Quoting::ShellAlways | Quoting::ShellEscapeAlways => quote(name),
        Quoting::Locale | Quoting::CLocale => super::util::locale_quote(true, name),
    }
}

/// Whether `c` is a control character or a raw (undecodable) byte.
fn unprintable(c: char) -> bool {
    c.is_control() || crate::text::raw_byte(c).is_some()
}

/// `name` with backslash escapes, `quote_chars` escaped too.
fn escaped(name: &str, quote_chars: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        c_escape(c, &mut out, quote_chars);
    }
    out
}

/// A directory's name in its `-R` (or several operands) header: quoted as names are,
/// except that a `:` (which ends the header) needs quoting there (the backslash styles
/// escape it; `shell` and `c-maybe` quote the name), and `escape` leaves spaces
/// alone, as GNU ls does.
fn header_name(name: &str, o: &Opts) -> String {
    match o.quoting {
        Quoting::Escape => escaped(name, ":"),
        Quoting::C => format!("\"{}\"", escaped(name, "\":")),
        Quoting::CMaybe if name.contains(':') => format!("\"{}\"", escaped(name, "\"")),
        Quoting::Locale | Quoting::CLocale => shown_name(name, o).replace(':', "\\:"),
        Quoting::Shell if !name.chars().any(unprintable) => super::util::quotef(name),
        Quoting::ShellEscape => super::util::quotef(name),
        _ => shown_name(name, o),
    }
}

/// How `-l` shows times (`--time-style`, `TIME_STYLE`).
#[derive(Clone, PartialEq)]
enum TimeStyle {
    /// `Mon dd  yyyy`, or `Mon dd hh:mm` within six months.
    Locale,
    FullIso,
    LongIso,
    /// `yyyy-mm-dd `, or `mm-dd hh:mm` within six months.
    Iso,
    /// `+FORMAT`: the first line for old times, the second (if any) for recent ones.
    Format {
        old: String,
        recent: String,
    },
}

/// A `--time-style` value as GNU reads it: `posix-` dropped (this locale is not
/// POSIX's), a name or unambiguous prefix of one, or `+FORMAT`.
fn time_style(ctx: &mut Ctx, value: &str) -> std::io::Result<Result<TimeStyle, i32>> {
    let value = value.strip_prefix("posix-").unwrap_or(value);
    if let Some(f) = value.strip_prefix('+') {
        let (old, recent) = f.split_once('\n').unwrap_or((f, f));
        return Ok(Ok(TimeStyle::Format {
            old: old.to_owned(),
            recent: recent.to_owned(),
        }));
    }
    let table = [
        ("full-iso", TimeStyle::FullIso),
        ("long-iso", TimeStyle::LongIso),
        ("iso", TimeStyle::Iso),
        ("locale", TimeStyle::Locale),
    ];
    if let Some((_, t)) = table.iter().find(|(n, _)| *n == value) {
        return Ok(Ok(t.clone()));
    }
    let found: Vec<&TimeStyle> = table
        .iter()
        .filter(|(n, _)| !value.is_empty() && n.starts_with(value))
        .map(|(_, t)| t)
        .collect();
    if let [one] = found.as_slice() {
        return Ok(Ok((*one).clone()));
    }
    super::args::bad_argument(ctx, !found.is_empty(), value, "time style")?;
    ctx.stderr.write_all(
        b"Valid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  \
          - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\n",
    )?;
    Ok(Err(usage_error(ctx, "", 2)?))
}

struct Entry {
    /// The name to print (an operand as given, or a directory entry's name).
    name: String,
    /// Absolute virtual path.
    path: String,
    meta: Metadata,
    link_target: Option<String>,
    /// A symlink's target's metadata (boxed: most entries have none).
    target_meta: Option<Box<Metadata>>,
    /// `-L` could not follow the link: GNU's long, inode and size formats show `?`
    /// for what the stat would have told.
    unknown: bool,
}

/// Six Gregorian months in seconds, GNU's "recent" window.
const SIX_MONTHS: i64 = 31_556_952 / 2;

/// 1K blocks a file occupies (4K allocation units).
fn blocks_1k(m: &Metadata) -> u64 {
    match m.file_type {
        FileType::File | FileType::Dir => m.size.div_ceil(4096) * 4,
        _ => 0,
    }
}

/// The `-s` figure: 1K blocks, or a human-readable size with `-h`.
fn blocks_shown(m: &Metadata, o: &Opts) -> String {
    if o.human {
        human_size(blocks_1k(m) * 1024)
    } else {
        blocks_1k(m).to_string()
    }
}

fn indicator(m: &Metadata, style: Indicator) -> &'static str {
    match (style, m.file_type) {
        (Indicator::None, _) => "",
        (_, FileType::Dir) => "/",
        (Indicator::Slash, _) => "",
        (_, FileType::Symlink) => "@",
        (_, FileType::Fifo) => "|",
        (Indicator::FileType, _) => "",
        (_, FileType::File) if m.mode & 0o111 != 0 => "*",
        _ => "",
    }
}

fn compare(a: &Entry, b: &Entry, o: &Opts) -> Ordering {
    let by_name = || a.name.as_bytes().cmp(b.name.as_bytes());
    let ord = match o.sort {
        SortBy::Name | SortBy::None => by_name(),
        SortBy::Time => b.meta.mtime.cmp(&a.meta.mtime).then_with(by_name),
        SortBy::Size => b.meta.size.cmp(&a.meta.size).then_with(by_name),
        SortBy::Version => {
            super::sort::version_cmp(a.name.as_bytes(), b.name.as_bytes()).then_with(by_name)
        }
        SortBy::Extension => {
            let ext = |n: &str| match n.rfind('.') {
                Some(p) if p > 0 => n[p..].to_owned(),
                _ => String::new(),
            };
            ext(&a.name).cmp(&ext(&b.name)).then_with(by_name)
        }
        SortBy::Width => display_width(&a.name)
            .cmp(&display_width(&b.name))
            .then_with(by_name),
    };
    if o.reverse { ord.reverse() } else { ord }
}

fn sort_entries(entries: &mut [Entry], o: &Opts) {
    if o.sort != SortBy::None {
        entries.sort_by(|a, b| compare(a, b, o));
    } else if o.reverse {
        entries.reverse();
    }
    if o.group_dirs_first {
        let is_dir =
            |e: &Entry| e.meta.is_dir() || e.target_meta.as_deref().is_some_and(Metadata::is_dir);
        entries.sort_by_key(|e| !is_dir(e));
    }
}

/// The entry for `path`; `listed` is its `lstat` when it comes from a directory
/// listing taken under the same lock, which saves walking the path again.
fn make_entry(
    fs: &Fs,
    name: String,
    path: String,
    follow: bool,
    listed: Option<Metadata>,
) -> Result<Entry, crate::fs::FsError> {
    let meta = match listed {
        Some(meta) => meta,
        None => fs.lstat(&path)?,
    };
    let is_link = meta.is_symlink();
    let mut entry = Entry {
        name,
        path,
        meta,
        link_target: None,
        target_meta: None,
        unknown: false,
    };
    if is_link {
        entry.target_meta = fs.stat(&entry.path).ok().map(Box::new);
        if follow {
            match &entry.target_meta {
                Some(m) => entry.meta = Metadata::clone(m),
                None => return Err(crate::fs::Errno::ENOENT.into()),
            }
        } else {
            entry.link_target = fs.readlink(&entry.path).ok();
        }
    }
    Ok(entry)
}

fn time_string(t: crate::fs::Timestamp, now: i64, o: &Opts) -> String {
    let style = &o.time_style;
    let recent = t.secs > now - SIX_MONTHS && t.secs <= now;
    let fmt = match style {
        TimeStyle::FullIso => "%Y-%m-%d %H:%M:%S.%N %z",
        TimeStyle::LongIso => "%Y-%m-%d %H:%M",
        TimeStyle::Iso if recent => "%m-%d %H:%M",
        TimeStyle::Iso => "%Y-%m-%d ",
        TimeStyle::Locale if recent => "%b %e %H:%M",
        TimeStyle::Locale => "%b %e  %Y",
        TimeStyle::Format { recent: f, .. } if recent => f,
        TimeStyle::Format { old, .. } => old,
    };
    super::date::strftime(fmt, t, &o.zone)
}

/// The inode number shown, `?` when `-L` could not follow the link.
fn ino_shown(e: &Entry) -> String {
    if e.unknown {
        String::from("?")
    } else {
        e.meta.ino.to_string()
    }
}

/// The `-s` figure of an entry, `?` when `-L` could not follow the link.
fn entry_blocks(e: &Entry, o: &Opts) -> String {
    if e.unknown {
        String::from("?")
    } else {
        blocks_shown(&e.meta, o)
    }
}

/// Prints a group of entries (one directory's listing, or the file operands).
fn print_entries(out: &mut Vec<u8>, entries: &[Entry], o: &Opts, now: i64) {
    let ino_w = if o.inode {
        entries
            .iter()
            .map(|e| ino_shown(e).len())
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    if o.format != Format::Long {
        let blocks_w = if o.size {
            entries
                .iter()
                .map(|e| entry_blocks(e, o).len())
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        let cell_of = |e: &Entry| {
            let mut cell = String::new();
            if o.inode {
                let w = if o.format == Format::OnePerLine {
                    0
                } else {
                    ino_w
                };
                cell.push_str(&format!("{:>w$} ", ino_shown(e)));
            }
            if o.size {
                let w = if o.format == Format::Commas {
                    0
                } else {
                    blocks_w
                };
                cell.push_str(&format!("{:>w$} ", entry_blocks(e, o)));
            }
            if o.context {
                cell.push_str("? ");
            }
            cell.push_str(&shown_name(&e.name, o));
            if !e.unknown {
                cell.push_str(indicator(&e.meta, o.indicator));
            }
            cell
        };
        if o.format == Format::OnePerLine {
            // The name as it is (the usual `ls | ...`) needs no cell built.
            let plain = !(o.inode || o.size || o.context || o.hide_control)
                && o.quoting == Quoting::Literal;
            for e in entries {
                if plain {
                    crate::text::encode_into(&e.name, out);
                    if !e.unknown {
                        out.extend_from_slice(indicator(&e.meta, o.indicator).as_bytes());
                    }
                } else {
                    crate::text::encode_into(&cell_of(e), out);
                }
                out.push(b'\n');
            }
            return;
        }
        let cells: Vec<String> = entries.iter().map(cell_of).collect();
        layout(out, &cells, o);
        return;
    }
    let blocks_w = if o.size {
        entries
            .iter()
            .map(|e| entry_blocks(e, o).len())
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    let owner = |id: u32| {
        if o.numeric {
            id.to_string()
        } else {
            user_name(id)
        }
    };
    let size_of = |m: &Metadata| match m.file_type {
        FileType::Device(d) => {
            let (maj, min) = super::util::device_numbers(d);
            format!("{maj}, {min}")
        }
        _ if o.human => human_size(m.size),
        _ => m.size.to_string(),
    };
    let rows: Vec<(String, String, String, String, String)> = entries
        .iter()
        .map(|e| {
            if e.unknown {
                let q = || String::from("?");
                return (q(), q(), q(), q(), q());
            }
            (
                e.meta.nlink.to_string(),
                owner(e.meta.uid),
                owner(e.meta.gid),
                size_of(&e.meta),
                time_string(e.meta.mtime, now, o),
            )
        })
        .collect();
    let w = |f: fn(&(String, String, String, String, String)) -> &String| {
        rows.iter().map(|r| f(r).chars().count()).max().unwrap_or(0)
    };
    let (nl_w, own_w, grp_w, size_w) = (w(|r| &r.0), w(|r| &r.1), w(|r| &r.2), w(|r| &r.3));
    // A `?` time is as wide as a time of the style (GNU measures the epoch's).
    let time_w = entries
        .iter()
        .zip(&rows)
        .find(|(e, _)| !e.unknown)
        .map_or_else(
            || display_width(&time_string(crate::fs::Timestamp::default(), now, o)),
            |(_, r)| display_width(&r.4),
        );
    for (e, r) in entries.iter().zip(&rows) {
        let mut line = String::new();
        if o.inode {
            line.push_str(&format!("{:>ino_w$} ", ino_shown(e)));
        }
        if o.size {
            line.push_str(&format!("{:>blocks_w$} ", entry_blocks(e, o)));
        }
        if e.unknown {
            line.push(e.meta.file_type.ls_char());
            line.push_str("?????????");
        } else {
            line.push_str(&mode_string(e.meta.file_type.ls_char(), e.meta.mode));
        }
        line.push_str(&format!(" {:>nl_w$}", r.0));
        if o.show_owner {
            line.push_str(&format!(" {:<own_w$}", r.1));
        }
        if o.show_group {
            line.push_str(&format!(" {:<grp_w$}", r.2));
        }
        if e.unknown {
            line.push_str(&format!(" {:>size_w$} {:>time_w$} ", r.3, r.4));
        } else {
            line.push_str(&format!(" {:>size_w$} {} ", r.3, r.4));
        }
        if o.context {
            line.push_str("? ");
        }
        out.extend_from_slice(&crate::text::encode(&line));
        out.extend_from_slice(&crate::text::encode(&shown_name(&e.name, o)));
        // An entry `-L` could not follow has no target (see the listing) and no
        // indicator.
        if let Some(target) = &e.link_target {
            out.extend_from_slice(b" -> ");
            out.extend_from_slice(&crate::text::encode(target));
            if let Some(tm) = &e.target_meta {
                out.extend_from_slice(indicator(tm, o.indicator).as_bytes());
            }
        } else if !e.unknown {
            out.extend_from_slice(indicator(&e.meta, o.indicator).as_bytes());
        }
        out.push(b'\n');
    }
}

/// GNU's `indent`: pads from column `from` to `to`, with tabs where they fit.
fn indent(out: &mut String, mut from: usize, to: usize, tabsize: usize) {
    while from < to {
        if tabsize != 0 && to / tabsize > (from + 1) / tabsize {
            out.push('\t');
            from += tabsize - from % tabsize;
        } else {
            out.push(' ');
            from += 1;
        }
    }
}

/// The widest column layout that fits the line (GNU's `calculate_columns`): the
/// number of columns and each column's width (names plus two spaces).
fn columns_for(widths: &[usize], line: usize, by_columns: bool) -> (usize, Vec<usize>) {
    const MIN_COLUMN_WIDTH: usize = 3;
    let n = widths.len();
    let max_idx = if line == 0 {
        n
    } else {
        (line / MIN_COLUMN_WIDTH).max(1)
    };
    let max_cols = max_idx.min(n).max(1);
    let mut info: Vec<(bool, usize, Vec<usize>)> = (0..max_cols)
        .map(|i| {
            (
                true,
                (i + 1) * MIN_COLUMN_WIDTH,
                vec![MIN_COLUMN_WIDTH; i + 1],
            )
        })
        .collect();
    for (f, &w) in widths.iter().enumerate() {
        for (i, (valid, line_len, cols)) in info.iter_mut().enumerate() {
            if !*valid {
                continue;
            }
            let idx = if by_columns {
                f / n.div_ceil(i + 1)
            } else {
                f % (i + 1)
            };
            let real = w + if idx == i { 0 } else { 2 };
            if let Some(c) = cols.get_mut(idx)
                && *c < real
            {
                *line_len += real - *c;
                *c = real;
                *valid = line == 0 || *line_len < line;
            }
        }
    }
    let mut cols = max_cols;
    while cols > 1 && !info.get(cols - 1).is_some_and(|i| i.0) {
        cols -= 1;
    }
    let arr = info.get(cols - 1).map(|i| i.2.clone()).unwrap_or_default();
    (cols, arr)
}

/// Writes entry cells one per line, in columns (`-C`, `-x`) or comma-separated.
fn layout(out: &mut Vec<u8>, cells: &[String], o: &Opts) {
    let mut text = String::new();
    let widths: Vec<usize> = cells.iter().map(|c| display_width(c)).collect();
    match o.format {
        Format::Columns | Format::Across if !cells.is_empty() => {
            let by_columns = o.format == Format::Columns;
            let (cols, arr) = columns_for(&widths, o.width, by_columns);
            let n = cells.len();
            let rows = n.div_ceil(cols);
            let col_w = |c: usize| arr.get(c).copied().unwrap_or(0);
            if by_columns {
                for row in 0..rows {
                    let mut pos = 0;
                    let mut col = 0;
                    let mut f = row;
                    loop {
                        text.push_str(cells.get(f).map_or("", String::as_str));
                        let w = widths.get(f).copied().unwrap_or(0);
                        let max = col_w(col);
                        col += 1;
                        f += rows;
                        if f >= n {
                            break;
                        }
                        indent(&mut text, pos + w, pos + max, o.tabsize);
                        pos += max;
                    }
                    text.push('\n');
                }
            } else {
                let mut pos = 0;
                for (f, cell) in cells.iter().enumerate() {
                    let col = f % cols;
                    if f > 0 {
                        if col == 0 {
                            text.push('\n');
                            pos = 0;
                        } else {
                            let prev_w = widths.get(f - 1).copied().unwrap_or(0);
                            let max = col_w(col - 1);
                            indent(&mut text, pos + prev_w, pos + max, o.tabsize);
                            pos += max;
                        }
                    }
                    text.push_str(cell);
                }
                text.push('\n');
            }
        }
        Format::Commas if !cells.is_empty() => {
            let mut pos = 0;
            for (f, cell) in cells.iter().enumerate() {
                let len = if o.width > 0 {
                    widths.get(f).copied().unwrap_or(0)
                } else {
                    0
                };
                if f > 0 {
                    text.push(',');
                    if o.width == 0 || pos + len + 2 < o.width {
                        pos += 2;
                        text.push(' ');
                    } else {
                        pos = 0;
                        text.push('\n');
                    }
                }
                text.push_str(cell);
                pos += len;
            }
            text.push('\n');
        }
        // One per line is written by print_entries.
        _ => {}
    }
    crate::text::encode_into(&text, out);
}

fn total_line(entries: &[Entry], o: &Opts) -> String {
    let total: u64 = entries.iter().map(|e| blocks_1k(&e.meta)).sum();
    if o.human {
        format!("total {}\n", human_size(total * 1024))
    } else {
        format!("total {total}\n")
    }
}

pub fn ls(ctx: &mut Ctx) -> CmdResult {
    let spec = Spec::new("aAbBdFhiI:klmnNqQRrLHtT:SsUv1pCw:xXgGocZ", LONG);
    let parsed = match super::args::parse(&spec, ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 2),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut o = Opts {
        all: false,
        almost_all: false,
        long: false,
        recursive: false,
        human: false,
        inode: false,
        numeric: false,
        directory: false,
        reverse: false,
        sort: SortBy::Name,
        indicator: Indicator::None,
        deref_all: false,
        deref_cmdline: false,
        deref_cmdline_dirs: true,
        group_dirs_first: false,
        show_owner: true,
        show_group: true,
        time_style: TimeStyle::Locale,
        zone: ctx.zone(),
        format: Format::OnePerLine,
        width: ctx
            .env
            .get("COLUMNS")
            .and_then(|c| c.parse::<usize>().ok())
            .filter(|&c| c > 0)
            .unwrap_or(80),
        tabsize: 8,
        quoting: Quoting::Literal,
        hide_control: false,
        context: false,
        size: false,
        ignore: Vec::new(),
        hide: Vec::new(),
    };
    // The time style is read only for the long format, as GNU does.
    let mut style: Option<String> = None;
    for (k, v) in &parsed.opts {
        match k.as_str() {
            "a" => o.all = true,
            "A" => o.almost_all = true,
            "d" => o.directory = true,
            "F" => o.indicator = Indicator::Classify,
            "p" => o.indicator = Indicator::Slash,
            "h" => o.human = true,
            "i" => o.inode = true,
            "l" => o.format = Format::Long,
            "n" => {
                o.format = Format::Long;
                o.numeric = true;
            }
            "g" => {
                o.format = Format::Long;
                o.show_owner = false;
            }
            "o" => {
                o.format = Format::Long;
                o.show_group = false;
            }
            "m" => o.format = Format::Commas,
            "C" => o.format = Format::Columns,
            "x" => o.format = Format::Across,
            // As in GNU, `-1` does not undo `-l`, wherever it comes.
            "1" if o.format != Format::Long => o.format = Format::OnePerLine,
            "format" => {
                let table = [
                    ("verbose", Format::Long),
                    ("long", Format::Long),
                    ("commas", Format::Commas),
                    ("horizontal", Format::Across),
                    ("across", Format::Across),
                    ("vertical", Format::Columns),
                    ("single-column", Format::OnePerLine),
                ];
                match argmatch(ctx, "--format", v.as_deref().unwrap_or(""), &table)? {
                    Ok(f) => o.format = f,
                    Err(s) => return Ok(s),
                }
            }
            "w" | "T" => {
                let val = v.as_deref().unwrap_or("");
                match val.parse::<usize>() {
                    Ok(n) if k == "w" => o.width = n,
                    Ok(n) => o.tabsize = n,
                    Err(_) => {
                        let what = if k == "w" { "line width" } else { "tab size" };
                        ctx.err(format!("invalid {what}: {}", ctx.lquote(val)))?;
                        return Ok(2);
                    }
                }
            }
            "Q" => o.quoting = Quoting::C,
            "b" => o.quoting = Quoting::Escape,
            "N" => o.quoting = Quoting::Literal,
            "q" => o.hide_control = true,
            "show-control-chars" => o.hide_control = false,
            "quoting-style" => {
                let table = [
                    ("literal", Quoting::Literal),
                    ("shell", Quoting::Shell),
                    ("shell-always", Quoting::ShellAlways),
                    ("shell-escape", Quoting::ShellEscape),
                    ("shell-escape-always", Quoting::ShellEscapeAlways),
                    ("c", Quoting::C),
                    ("c-maybe", Quoting::CMaybe),
                    ("escape", Quoting::Escape),
                    ("locale", Quoting::Locale),
                    ("clocale", Quoting::CLocale),
                ];
                match argmatch(ctx, "--quoting-style", v.as_deref().unwrap_or(""), &table)? {
                    Ok(q) => o.quoting = q,
                    Err(s) => return Ok(s),
                }
            }
            "color" => {
                let table = [
                    ("always", 0),
                    ("yes", 0),
                    ("force", 0),
                    ("never", 1),
                    ("no", 1),
                    ("none", 1),
                    ("auto", 2),
                    ("tty", 2),
                    ("if-tty", 2),
                ];
                if let Some(val) = v.as_deref()
                    && let Err(s) = argmatch(ctx, "--color", val, &table)?
                {
                    return Ok(s);
                }
            }
            "Z" => o.context = true,
            "s" => o.size = true,
            "I" => o.ignore.push(v.clone().unwrap_or_default()),
            "hide" => o.hide.push(v.clone().unwrap_or_default()),
            "B" => {
                o.ignore.push("*~".to_owned());
                o.ignore.push(".*~".to_owned());
            }
            "file-type" => o.indicator = Indicator::FileType,
            "G" => o.show_group = false,
            "R" => o.recursive = true,
            "r" => o.reverse = true,
            "L" => o.deref_all = true,
            "H" => o.deref_cmdline = true,
            "t" => o.sort = SortBy::Time,
            "S" => o.sort = SortBy::Size,
            "U" => o.sort = SortBy::None,
            "v" => o.sort = SortBy::Version,
            "X" => o.sort = SortBy::Extension,
            "gdf" => o.group_dirs_first = true,
            "full-time" => {
                o.format = Format::Long;
                style = Some(String::from("full-iso"));
            }
            "time-style" => style = v.clone(),
            "sort" => {
                let table = [
                    ("none", SortBy::None),
                    ("time", SortBy::Time),
                    ("size", SortBy::Size),
                    ("extension", SortBy::Extension),
                    ("version", SortBy::Version),
                    ("width", SortBy::Width),
                ];
                match argmatch(ctx, "--sort", v.as_deref().unwrap_or(""), &table)? {
                    Ok(by) => o.sort = by,
                    Err(s) => return Ok(s),
                }
            }
            "indicator-style" => {
                let table = [
                    ("none", Indicator::None),
                    ("slash", Indicator::Slash),
                    ("file-type", Indicator::FileType),
                    ("classify", Indicator::Classify),
                ];
                match argmatch(ctx, "--indicator-style", v.as_deref().unwrap_or(""), &table)? {
                    Ok(i) => o.indicator = i,
                    Err(s) => return Ok(s),
                }
            }
            _ => {}
        }
    }
    if o.format == Format::Long
        && let Some(style) = style.or_else(|| ctx.env.get("TIME_STYLE").cloned())
    {
        match time_style(ctx, &style)? {
            Ok(t) => o.time_style = t,
            Err(status) => return Ok(status),
        }
    }
    if o.all {
        o.almost_all = false;
    }
    o.long = o.format == Format::Long;
    if o.width == 0 {
        o.tabsize = 0;
    }
    o.deref_cmdline_dirs = !(o.directory || o.long || o.indicator == Indicator::Classify);

    let operands = if parsed.operands.is_empty() {
        vec![".".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let fs = ctx.fs.snapshot();
    let now = fs.clock().now().secs;
    let mut status = 0;
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for name in &operands {
        let path = ctx.path(name);
        // A trailing slash resolves through a symlink, as the kernel does.
        let follow = o.deref_all || o.deref_cmdline || name.ends_with('/');
        let entry = match make_entry(&fs, name.clone(), path.clone(), follow, None) {
            Ok(e) => e,
            Err(e) => {
                ctx.err(format!("cannot access {}: {e}", quote(name)))?;
                status = 2;
                continue;
            }
        };
        let entry = if !follow
            && o.deref_cmdline_dirs
            && entry.meta.is_symlink()
            && entry.target_meta.as_deref().is_some_and(Metadata::is_dir)
        {
            match make_entry(&fs, name.clone(), path, true, None) {
                Ok(e) => e,
                Err(_) => entry,
            }
        } else {
            entry
        };
        if entry.meta.is_dir() && !o.directory {
            dirs.push(entry);
        } else {
            files.push(entry);
        }
    }
    sort_entries(&mut files, &o);
    sort_entries(&mut dirs, &o);
    let mut out = Vec::new();
    if !files.is_empty() {
        print_entries(&mut out, &files, &o, now);
    }
    let show_headers = operands.len() > 1 || o.recursive;
    let mut first = files.is_empty();
    let sizes = o.long || o.size || matches!(o.sort, SortBy::Size);
    // Directories to list: (shown name, path), depth first for -R.
    let mut stack: Vec<(String, String)> =
        dirs.into_iter().rev().map(|e| (e.name, e.path)).collect();
    while let Some((shown, path)) = stack.pop() {
        ctx.host.check()?;
        let listing = match fs.read_dir_stat(&path, sizes) {
            Ok(l) => l,
            Err(e) => {
                ctx.stdout.write_all(&out)?;
                out.clear();
                ctx.err(format!("cannot open directory {}: {e}", quote(&shown)))?;
                status = 2;
                continue;
            }
        };
        if !first {
            out.push(b'\n');
        }
        first = false;
        if show_headers {
            crate::text::encode_into(&header_name(&shown, &o), &mut out);
            out.extend_from_slice(b":\n");
        }
        let mut entries = Vec::with_capacity(listing.len() + 2);
        if o.all {
            for dot in [".", ".."] {
                let p = crate::fs::path::join(&path, dot);
                if let Ok(e) = make_entry(&fs, dot.to_owned(), p, false, None) {
                    entries.push(e);
                }
            }
        }
        for (name, meta) in listing {
            if name.starts_with('.') && !(o.all || o.almost_all) {
                continue;
            }
            let matches = |pats: &[String]| {
                pats.iter()
                    .any(|p| super::fnmatch::fnmatch(p, &name, false))
            };
            if matches(&o.ignore) || (!(o.all || o.almost_all) && matches(&o.hide)) {
                continue;
            }
            // Only a directory (to recurse into) or a link (to follow) needs its path.
            let p = if meta.is_dir() || meta.is_symlink() {
                super::util::child_path(&path, &name)
            } else {
                String::new()
            };
            match make_entry(
                &fs,
                name.clone(),
                p.clone(),
                o.deref_all,
                Some(meta.clone()),
            ) {
                Ok(e) => entries.push(e),
                Err(e) => {
                    // A link `-L` cannot follow: GNU stats an entry only when the format
                    // needs it, and lists it anyway, by what the directory says it is.
                    let stat_fields = o.long || o.inode || o.size;
                    if stat_fields
                        || o.recursive
                        || matches!(o.sort, SortBy::Time | SortBy::Size)
                        || !matches!(o.indicator, Indicator::None)
                    {
                        // GNU names an entry of `.` without the `./`.
                        let full = if shown == "." {
                            name.clone()
                        } else {
                            super::util::child_path(&shown, &name)
                        };
                        ctx.err(format!("cannot access {}: {e}", quote(&full)))?;
                        status = 1;
                    }
                    // It is listed by what the directory says it is; the long, inode
                    // and size formats show `?` for the rest.
                    if let Ok(mut e) = make_entry(&fs, name, p, false, Some(meta)) {
                        e.unknown = stat_fields;
                        if stat_fields {
                            e.link_target = None;
                        }
                        entries.push(e);
                    }
                }
            }
        }
        sort_entries(&mut entries, &o);
        if o.long || o.size {
            out.extend_from_slice(total_line(&entries, &o).as_bytes());
        }
        print_entries(&mut out, &entries, &o, now);
        if o.recursive {
            for e in entries.iter().rev() {
                if e.meta.is_dir() && e.name != "." && e.name != ".." {
                    stack.push((super::util::child_path(&shown, &e.name), e.path.clone()));
                }
            }
        }
        if out.len() > 8192 {
            ctx.stdout.write_all(&out)?;
            out.clear();
        }
    }
    ctx.stdout.write_all(&out)?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[
        ("a", "hello"),
        ("d/e/", ""),
        ("d/f", ""),
        ("l", "->a"),
        ("dl", "->d"),
        (".hid", ""),
    ];

    #[test]
    fn ls_table() {
        for (line, out, err, status) in [
            ("ls", "a\nd\ndl\nl\n", "", 0),
            ("ls -A", ".hid\na\nd\ndl\nl\n", "", 0),
            ("ls -a d", ".\n..\ne\nf\n", "", 0),
            ("ls -F", "a\nd/\ndl@\nl@\n", "", 0),
            ("ls -p", "a\nd/\ndl\nl\n", "", 0),
            ("ls -d d a", "a\nd\n", "", 0),
            ("ls a d", "a\n\nd:\ne\nf\n", "", 0),
            ("ls dl", "e\nf\n", "", 0),
            ("ls -R d", "d:\ne\nf\n\nd/e:\n", "", 0),
            ("ls -R d/", "d/:\ne\nf\n\nd/e:\n", "", 0),
            ("ls -r", "l\ndl\nd\na\n", "", 0),
            ("ls -S", "d\na\ndl\nl\n", "", 0),
            (
                "ls -1 nosuch a",
                "a\n",
                "ls: cannot access 'nosuch': No such file or directory\n",
                2,
            ),
            (
                "ls -l a",
                "-rw-r--r-- 1 user user 5 Nov 14 22:13 a\n",
                "",
                0,
            ),
            (
                "ls -ln a",
                "-rw-r--r-- 1 1000 1000 5 Nov 14 22:13 a\n",
                "",
                0,
            ),
            (
                "ls -l l",
                "lrwxrwxrwx 1 user user 1 Nov 14 22:13 l -> a\n",
                "",
                0,
            ),
            (
                "ls -lF dl",
                "lrwxrwxrwx 1 user user 1 Nov 14 22:13 dl -> d/\n",
                "",
                0,
            ),
            (
                "ls -ld d",
                "drwxr-xr-x 3 user user 4096 Nov 14 22:13 d\n",
                "",
                0,
            ),
            (
                "ls -l d",
                "total 4\ndrwxr-xr-x 2 user user 4096 Nov 14 22:13 e\n-rw-r--r-- 1 user user    0 Nov 14 22:13 f\n",
                "",
                0,
            ),
            (
                "ls -lh",
                "total 8.0K\n-rw-r--r-- 1 user user    5 Nov 14 22:13 a\ndrwxr-xr-x 3 user user 4.0K Nov 14 22:13 d\nlrwxrwxrwx 1 user user    1 Nov 14 22:13 dl -> d\nlrwxrwxrwx 1 user user    1 Nov 14 22:13 l -> a\n",
                "",
                0,
            ),
            (
                "ls -l /dev/null",
                "crw-rw-rw- 1 root root 1, 3 Nov 14 22:13 /dev/null\n",
                "",
                0,
            ),
            (
                "ls -z",
                "",
                "ls: invalid option -- 'z'\nTry 'ls --help' for more information.\n",
                2,
            ),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }

    #[test]
    fn old_and_future_dates_show_the_year() {
        use crate::commands::testing::{NOW, fs_with, run_in};
        use crate::fs::Timestamp;
        let fs = fs_with(&[("old", ""), ("new", ""), ("future", "")]);
        {
            let mut g = fs.lock();
            let t = |s| Some(Timestamp { secs: s, nanos: 0 });
            g.set_times("/workspace/old", None, t(1_577_836_800)).ok();
            g.set_times("/workspace/future", None, t(NOW + 86_400 * 400))
                .ok();
            g.set_times("/workspace/new", None, t(NOW - 3600)).ok();
        }
        let (out, _, status) = run_in(&fs, "ls -lt", b"");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "total 0\n-rw-r--r-- 1 user user 0 Dec 18  2024 future\n-rw-r--r-- 1 user user 0 Nov 14 21:13 new\n-rw-r--r-- 1 user user 0 Jan  1  2020 old\n"
        );
        assert_eq!(status, 0);
    }
}
