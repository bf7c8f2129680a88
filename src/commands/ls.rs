//! `ls`: lists files and directories one per line (as GNU does into a pipe), with the
//! long format (`-l`, `-h`, `-i`, `-n`), sorting (`-t`, `-S`, `-v`, `-U`, `-r`),
//! hidden entries (`-a`, `-A`), `-d`, `-F`/`-p` and recursion (`-R`).

use std::cmp::Ordering;

use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{MONTHS, civil, human_size, mode_string, quote, user_name};
use super::{CmdResult, Ctx};
use crate::fs::{Device, FileType, Fs, Metadata};

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
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum SortBy {
    Name,
    Time,
    Size,
    Version,
    Extension,
    None,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Indicator {
    None,
    Slash,
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
    full_time: bool,
}

struct Entry {
    /// The name to print (an operand as given, or a directory entry's name).
    name: String,
    /// Absolute virtual path.
    path: String,
    meta: Metadata,
    link_target: Option<String>,
    target_meta: Option<Metadata>,
}

/// Six Gregorian months in seconds, GNU's "recent" window.
const SIX_MONTHS: i64 = 31_556_952 / 2;

fn device_numbers(d: Device) -> (u32, u32) {
    match d {
        Device::Null => (1, 3),
        Device::Zero => (1, 5),
        Device::Full => (1, 7),
        Device::Random => (1, 8),
        Device::Urandom => (1, 9),
        Device::Tty => (5, 0),
        Device::Stdin | Device::Stdout | Device::Stderr => (136, 0),
    }
}

/// 1K blocks a file occupies (4K allocation units).
fn blocks_1k(m: &Metadata) -> u64 {
    match m.file_type {
        FileType::File | FileType::Dir => m.size.div_ceil(4096) * 4,
        _ => 0,
    }
}

fn indicator(m: &Metadata, style: Indicator) -> &'static str {
    match (style, m.file_type) {
        (Indicator::None, _) => "",
        (_, FileType::Dir) => "/",
        (Indicator::Slash, _) => "",
        (_, FileType::Symlink) => "@",
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
            |e: &Entry| e.meta.is_dir() || e.target_meta.as_ref().is_some_and(Metadata::is_dir);
        entries.sort_by_key(|e| !is_dir(e));
    }
}

fn make_entry(
    fs: &Fs,
    name: String,
    path: String,
    follow: bool,
) -> Result<Entry, crate::fs::FsError> {
    let lmeta = fs.lstat(&path)?;
    let mut entry = Entry {
        name,
        path,
        meta: lmeta.clone(),
        link_target: None,
        target_meta: None,
    };
    if lmeta.is_symlink() {
        entry.target_meta = fs.stat(&entry.path).ok();
        if follow {
            match &entry.target_meta {
                Some(m) => entry.meta = m.clone(),
                None => return Err(crate::fs::Errno::ENOENT.into()),
            }
        } else {
            entry.link_target = fs.readlink(&entry.path).ok();
        }
    }
    Ok(entry)
}

fn time_string(t: crate::fs::Timestamp, now: i64, full: bool) -> String {
    let c = civil(t.secs);
    let mon = MONTHS
        .get(c.month.saturating_sub(1) as usize)
        .copied()
        .unwrap_or("???");
    if full {
        return format!(
            "{}-{:02}-{:02} {:02}:{:02}:{:02}.{:09} +0000",
            c.year, c.month, c.day, c.hour, c.min, c.sec, t.nanos
        );
    }
    let recent = t.secs > now - SIX_MONTHS && t.secs <= now;
    if recent {
        format!("{mon} {:>2} {:02}:{:02}", c.day, c.hour, c.min)
    } else {
        format!("{mon} {:>2}  {}", c.day, c.year)
    }
}

/// Prints a group of entries (one directory's listing, or the file operands).
fn print_entries(out: &mut Vec<u8>, entries: &[Entry], o: &Opts, now: i64) {
    let ino_w = if o.inode {
        entries
            .iter()
            .map(|e| e.meta.ino.to_string().len())
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    if !o.long {
        for e in entries {
            if o.inode {
                out.extend_from_slice(format!("{:>ino_w$} ", e.meta.ino).as_bytes());
            }
            out.extend_from_slice(&crate::text::encode(&e.name));
            out.extend_from_slice(indicator(&e.meta, o.indicator).as_bytes());
            out.push(b'\n');
        }
        return;
    }
    let owner = |id: u32| {
        if o.numeric {
            id.to_string()
        } else {
            user_name(id)
        }
    };
    let size_of = |m: &Metadata| match m.file_type {
        FileType::Device(d) => {
            let (maj, min) = device_numbers(d);
            format!("{maj}, {min}")
        }
        _ if o.human => human_size(m.size),
        _ => m.size.to_string(),
    };
    let rows: Vec<(String, String, String, String, String)> = entries
        .iter()
        .map(|e| {
            (
                e.meta.nlink.to_string(),
                owner(e.meta.uid),
                owner(e.meta.gid),
                size_of(&e.meta),
                time_string(e.meta.mtime, now, o.full_time),
            )
        })
        .collect();
    let w = |f: fn(&(String, String, String, String, String)) -> &String| {
        rows.iter().map(|r| f(r).chars().count()).max().unwrap_or(0)
    };
    let (nl_w, own_w, grp_w, size_w) = (w(|r| &r.0), w(|r| &r.1), w(|r| &r.2), w(|r| &r.3));
    for (e, r) in entries.iter().zip(&rows) {
        let mut line = String::new();
        if o.inode {
            line.push_str(&format!("{:>ino_w$} ", e.meta.ino));
        }
        line.push_str(&mode_string(e.meta.file_type.ls_char(), e.meta.mode));
        line.push_str(&format!(" {:>nl_w$}", r.0));
        if o.show_owner {
            line.push_str(&format!(" {:<own_w$}", r.1));
        }
        if o.show_group {
            line.push_str(&format!(" {:<grp_w$}", r.2));
        }
        line.push_str(&format!(" {:>size_w$} {} ", r.3, r.4));
        out.extend_from_slice(&crate::text::encode(&line));
        out.extend_from_slice(&crate::text::encode(&e.name));
        if let Some(target) = &e.link_target {
            out.extend_from_slice(b" -> ");
            out.extend_from_slice(&crate::text::encode(target));
            if let Some(tm) = &e.target_meta {
                out.extend_from_slice(indicator(tm, o.indicator).as_bytes());
            }
        } else {
            out.extend_from_slice(indicator(&e.meta, o.indicator).as_bytes());
        }
        out.push(b'\n');
    }
}

fn total_line(entries: &[Entry], o: &Opts) -> String {
    let total: u64 = entries.iter().map(|e| blocks_1k(&e.meta)).sum();
    if o.human {
        format!("total {}\n", human_size(total * 1024))
    } else {
        format!("total {total}\n")
    }
}

fn child_path(dir_path: &str, name: &str) -> String {
    if dir_path.ends_with('/') {
        format!("{dir_path}{name}")
    } else {
        format!("{dir_path}/{name}")
    }
}

pub fn ls(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("aAdFhilnRrLHtSUv1pCxXgGoc", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 2),
    };
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
        full_time: false,
    };
    for (k, v) in &parsed.opts {
        match k.as_str() {
            "a" => o.all = true,
            "A" => o.almost_all = true,
            "d" => o.directory = true,
            "F" => o.indicator = Indicator::Classify,
            "p" => o.indicator = Indicator::Slash,
            "h" => o.human = true,
            "i" => o.inode = true,
            "l" => o.long = true,
            "n" => {
                o.long = true;
                o.numeric = true;
            }
            "g" => {
                o.long = true;
                o.show_owner = false;
            }
            "o" => {
                o.long = true;
                o.show_group = false;
            }
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
            "1" | "C" | "x" => o.long = false,
            "gdf" => o.group_dirs_first = true,
            "full-time" => {
                o.long = true;
                o.full_time = true;
            }
            "sort" => {
                o.sort = match v.as_deref().unwrap_or("") {
                    "none" => SortBy::None,
                    "time" => SortBy::Time,
                    "size" => SortBy::Size,
                    "version" => SortBy::Version,
                    "extension" => SortBy::Extension,
                    "name" => SortBy::Name,
                    other => {
                        ctx.err(format!(
                            "invalid argument {} for '--sort'\nValid arguments are:\n  - 'none'\n  - 'time'\n  - 'size'\n  - 'extension'\n  - 'version'\n  - 'width'",
                            quote(other)
                        ))?;
                        return usage_error(ctx, "", 2);
                    }
                }
            }
            "indicator-style" => {
                o.indicator = match v.as_deref().unwrap_or("") {
                    "none" => Indicator::None,
                    "slash" => Indicator::Slash,
                    "classify" | "file-type" => Indicator::Classify,
                    other => {
                        ctx.err(format!(
                            "invalid argument {} for '--indicator-style'",
                            quote(other)
                        ))?;
                        return usage_error(ctx, "", 2);
                    }
                }
            }
            _ => {}
        }
    }
    if o.all {
        o.almost_all = false;
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
        let entry = match make_entry(&fs, name.clone(), path.clone(), follow) {
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
            && entry.target_meta.as_ref().is_some_and(Metadata::is_dir)
        {
            match make_entry(&fs, name.clone(), path, true) {
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
    // Directories to list: (shown name, path), depth first for -R.
    let mut stack: Vec<(String, String)> =
        dirs.into_iter().rev().map(|e| (e.name, e.path)).collect();
    while let Some((shown, path)) = stack.pop() {
        ctx.host.check()?;
        let listing = match fs.read_dir(&path) {
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
            out.extend_from_slice(&crate::text::encode(&shown));
            out.extend_from_slice(b":\n");
        }
        let mut entries = Vec::new();
        if o.all {
            for dot in [".", ".."] {
                let p = crate::fs::path::join(&path, dot);
                if let Ok(e) = make_entry(&fs, dot.to_owned(), p, false) {
                    entries.push(e);
                }
            }
        }
        for de in listing {
            if de.name.starts_with('.') && !(o.all || o.almost_all) {
                continue;
            }
            let p = child_path(&path, &de.name);
            match make_entry(&fs, de.name.clone(), p, o.deref_all) {
                Ok(e) => entries.push(e),
                Err(e) => {
                    ctx.err(format!(
                        "cannot access {}: {e}",
                        quote(&child_path(&shown, &de.name))
                    ))?;
                    status = 1;
                }
            }
        }
        sort_entries(&mut entries, &o);
        if o.long {
            out.extend_from_slice(total_line(&entries, &o).as_bytes());
        }
        print_entries(&mut out, &entries, &o, now);
        if o.recursive {
            for e in entries.iter().rev() {
                if e.meta.is_dir() && e.name != "." && e.name != ".." {
                    stack.push((child_path(&shown, &e.name), e.path.clone()));
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
