//! `tar`: creates (`-c`), appends to (`-r`), lists (`-t`) and extracts (`-x`) archives
//! over the virtual filesystem with the `tar` crate (GNU headers, member names kept as
//! given, `./` and all), `-f FILE` (`-` or none: stdin/stdout), `-z` gzip through
//! `flate2` (and gzip detected on reading), `-v`, `-C DIR`, member operands for `-t`/`-x`
//! (names, or patterns with `--wildcards`), `-O` (extract to stdout, the verbose names
//! then going to stderr), `--exclude=PATTERN` when creating, and old-style bundled
//! options (`tar czf a.tgz dir`). Extracted members keep their modes less the umask,
//! or whole with `-p` (root's default), as GNU tar does.
//! Directories are archived in sorted order (GNU tar uses readdir order). A second
//! path to an inode already archived is stored as GNU tar stores it, as a hard link
//! to the first member's name, and extracted as one. The archive is opened before
//! any member is read, as GNU opens it, so one found among the members is left out
//! (`file is the archive; not dumped`).

use std::collections::HashMap;
use std::io::{Read, Write};

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long};
use super::util::{mode_string, user_name};
use super::{CmdResult, Ctx};
use crate::fs::{FileType, Fs, Ino, Timestamp};

/// GNU tar's record: the default blocking factor of 20 blocks of 512 bytes.
const RECORD: usize = 20 * 512;

const LONG: &[LongOpt] = &[
    long("create", HasArg::No, "c"),
    long("extract", HasArg::No, "x"),
    long("get", HasArg::No, "x"),
    long("list", HasArg::No, "t"),
    long("append", HasArg::No, "r"),
    long("wildcards", HasArg::No, "wildcards"),
    long("no-wildcards", HasArg::No, "no-wildcards"),
    long("file", HasArg::Required, "f"),
    long("gzip", HasArg::No, "z"),
    long("gunzip", HasArg::No, "z"),
    long("verbose", HasArg::No, "v"),
    long("directory", HasArg::Required, "C"),
    long("auto-compress", HasArg::No, "a"),
    long("no-same-owner", HasArg::No, "no-same-owner"),
    long("preserve-permissions", HasArg::No, "p"),
    long("same-permissions", HasArg::No, "p"),
    long("no-same-permissions", HasArg::No, "no-same-permissions"),
    long("overwrite", HasArg::No, "overwrite"),
    long("to-stdout", HasArg::No, "O"),
    long("exclude", HasArg::Required, "exclude"),
    // Directories are always archived in name order, which every --sort value allows.
    long("sort", HasArg::Required, "sort"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: tar [OPTION...] [FILE]...
GNU 'tar' saves many files together into a single tape or disk archive, and can
restore individual files from the archive.

Examples:
  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar.
  tar -tvf archive.tar         # List all files in archive.tar verbosely.
  tar -xf archive.tar          # Extract all files from archive.tar.

 Main operation mode:
  -A, --catenate, --concatenate   append tar files to an archive
  -c, --create               create a new archive
      --delete               delete from the archive (not on mag tapes!)
  -d, --diff, --compare      find differences between archive and file system
  -r, --append               append files to the end of an archive
      --test-label           test the archive volume label and exit
  -t, --list                 list the contents of an archive
  -u, --update               only append files newer than copy in archive
  -x, --extract, --get       extract files from an archive
";

fn fail(ctx: &mut Ctx, msg: &str) -> CmdResult {
    writeln!(ctx.stderr, "tar: {msg}")?;
    Ok(2)
}

/// The end of a run: GNU's closing note when something failed, and the status.
fn finish(ctx: &mut Ctx, status: i32) -> CmdResult {
    if status != 0 {
        writeln!(
            ctx.stderr,
            "tar: Exiting with failure status due to previous errors"
        )?;
    }
    Ok(status)
}

/// A usage error: the message, then where to read more.
fn usage_fail(ctx: &mut Ctx, msg: &str) -> CmdResult {
    writeln!(ctx.stderr, "tar: {msg}")?;
    writeln!(
        ctx.stderr,
        "Try 'tar --help' or 'tar --usage' for more information."
    )?;
    Ok(2)
}

struct Item {
    name: String,
    path: String,
    /// The leading `/`s taken off the operand, which messages still show.
    lead: String,
}

/// Whether `--exclude` patterns leave out a member: a pattern matches the whole name
/// or any tail of it that starts after a `/` (GNU's unanchored exclusion; `*` matches
/// `/` too).
fn excluded(excludes: &[String], name: &str) -> bool {
    let name = name.trim_end_matches('/');
    let tails = std::iter::once(name).chain(
        name.match_indices('/')
            .filter_map(|(i, _)| name.get(i + 1..)),
    );
    tails.into_iter().any(|tail| {
        excludes
            .iter()
            .any(|p| super::fnmatch::fnmatch(p, tail, false))
    })
}

/// Collects `path` and everything below it (sorted), named as archived (after the
/// `lead` slashes taken off the operand), leaving out what `excludes` matches.
fn collect(
    fs: &Fs,
    path: &str,
    (name, lead): (&str, &str),
    excludes: &[String],
    out: &mut Vec<Item>,
) {
    if excluded(excludes, name) {
        return;
    }
    out.push(Item {
        name: name.to_owned(),
        path: path.to_owned(),
        lead: lead.to_owned(),
    });
    let is_dir = fs.lstat(path).is_ok_and(|m| m.is_dir());
    if !is_dir {
        return;
    }
    if let Ok(entries) = fs.read_dir(path) {
        for e in entries {
            let child = crate::fs::path::join(path, &e.name);
            let child_name = if name.ends_with('/') {
                format!("{name}{}", e.name)
            } else {
                format!("{name}/{}", e.name)
            };
            collect(fs, &child, (&child_name, lead), excludes, out);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn long_line(
    mode: u32,
    ty: char,
    uid: u64,
    gid: u64,
    size: u64,
    mtime: i64,
    zone: &crate::timefmt::Zone,
    name: &str,
    link: Option<&str>,
) -> String {
    let ug = format!("{}/{}", user_name(uid as u32), user_name(gid as u32));
    let size = size.to_string();
    let pad = 19usize.saturating_sub(ug.len() + size.len()).max(1);
    let when = zone.strftime("%Y-%m-%d %H:%M", mtime, 0);
    let mut s = format!(
        "{} {ug}{}{size} {when} {name}",
        mode_string(ty, mode),
        " ".repeat(pad)
    );
    if let Some(l) = link {
        s.push_str(if ty == 'h' { " link to " } else { " -> " });
        s.push_str(l);
    }
    s
}

pub fn tar(ctx: &mut Ctx) -> CmdResult {
    let mut args = ctx.args.to_vec();
    if let Some(first) = args.first_mut()
        && !first.starts_with('-')
    {
        *first = format!("-{first}");
    }
    let parsed = match super::args::parse(&Spec::new("cxtrf:zvC:apO", LONG), &args) {
        Ok(p) => p,
        Err(msg) => return usage_fail(ctx, &msg),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let modes: Vec<&str> = ["c", "x", "t", "r"]
        .into_iter()
        .filter(|m| parsed.has(m))
        .collect();
    let mode = match modes.as_slice() {
        [m] => *m,
        [] => {
            return usage_fail(
                ctx,
                "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options",
            );
        }
        _ => {
            return usage_fail(
                ctx,
                "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option",
            );
        }
    };
    let file = parsed.last("f").unwrap_or("-").to_owned();
    let verbose = parsed.has("v");
    let gz =
        parsed.has("z") || (parsed.has("a") && (file.ends_with(".gz") || file.ends_with(".tgz")));
    let base_dir = match parsed.last("C") {
        Some(d) => ctx.path(d),
        None => ctx.cwd.to_owned(),
    };
    // Extracting into a missing directory fails before the archive is read.
    if let Some(d) = parsed.last("C")
        && mode == "x"
        && !parsed.has("O")
    {
        let found = ctx.fs.lock().stat_dir(&base_dir);
        if let Err(why) = found {
            writeln!(ctx.stderr, "tar: {d}: Cannot open: {why}")?;
            return fail(ctx, "Error is not recoverable: exiting now");
        }
    }
    if mode == "r" {
        let why = if file == "-" {
            Some("Options '-Aru' are incompatible with '-f -'")
        } else if gz {
            Some("Cannot update compressed archives")
        } else {
            None
        };
        if let Some(why) = why {
            return usage_fail(ctx, why);
        }
    }
    match mode {
        "c" | "r" => {
            let excludes: Vec<String> = parsed
                .opts
                .iter()
                .filter(|(k, _)| k == "exclude")
                .filter_map(|(_, v)| v.clone())
                .collect();
            let how = Create {
                gz,
                verbose,
                excludes: &excludes,
                append: mode == "r",
            };
            create(ctx, &parsed.operands, &file, &base_dir, how)
        }
        _ => read_archive(
            ctx,
            &parsed.operands,
            &file,
            &base_dir,
            Extract {
                on: mode == "x",
                // Members keep their archived permissions less the umask, unless -p
                // (the default for root) says to keep them whole.
                mode_mask: match parsed
                    .opts
                    .iter()
                    .rev()
                    .find_map(|(k, _)| match k.as_str() {
                        "p" => Some(true),
                        "no-same-permissions" => Some(false),
                        _ => None,
                    }) {
                    Some(true) => 0,
                    Some(false) => ctx.umask,
                    None if ctx.fs.lock().user().0 == 0 => 0,
                    None => ctx.umask,
                },
                to_stdout: parsed.has("O"),
                wildcards: parsed
                    .opts
                    .iter()
                    .rev()
                    .find_map(|(k, _)| match k.as_str() {
                        "wildcards" => Some(true),
                        "no-wildcards" => Some(false),
                        _ => None,
                    }),
            },
            verbose,
        ),
    }
}

/// How `create` writes: gzipped, listing names, leaving out `--exclude` matches, and
/// after the members of the archive already there (`-r`).
struct Create<'a> {
    gz: bool,
    verbose: bool,
    excludes: &'a [String],
    append: bool,
}

/// Appends a member named exactly `name` (and, for links, pointing at `link`): the
/// `tar` crate's own setters drop a leading `./`, which GNU tar keeps. A link target
/// or name longer than the header's 100 bytes goes first into a GNU `././@LongLink`
/// member (`K` for the target, then `L` for the name), as GNU tar writes them.
fn append_named(
    builder: &mut tar::Builder<Vec<u8>>,
    h: &mut tar::Header,
    name: &[u8],
    link: Option<&[u8]>,
    data: &[u8],
) -> std::io::Result<()> {
    fn fill(field: &mut [u8], value: &[u8]) {
        field.fill(0);
        for (d, s) in field.iter_mut().zip(value) {
            *d = *s;
        }
    }
    fn long_link(
        builder: &mut tar::Builder<Vec<u8>>,
        kind: tar::EntryType,
        value: &[u8],
    ) -> std::io::Result<()> {
        let mut long = tar::Header::new_gnu();
        fill(&mut long.as_old_mut().name, b"././@LongLink");
        long.set_mode(0o644);
        long.set_entry_type(kind);
        long.set_size(value.len() as u64 + 1);
        long.set_cksum();
        let body: Vec<u8> = value.iter().chain(&[0]).copied().collect();
        builder.append(&long, body.as_slice())
    }
    if let Some(link) = link {
        if link.len() > h.as_old().linkname.len() {
            long_link(builder, tar::EntryType::GNULongLink, link)?;
        }
        fill(&mut h.as_old_mut().linkname, link);
    }
    if name.len() > h.as_old().name.len() {
        long_link(builder, tar::EntryType::GNULongName, name)?;
    }
    fill(&mut h.as_old_mut().name, name);
    h.set_cksum();
    builder.append(h, data)
}

/// Where the members of an existing archive end (before its closing zero blocks), for
/// `-r`; an archive that cannot be read is an error message.
fn members_end(data: &[u8]) -> Result<usize, String> {
    let mut archive = tar::Archive::new(data);
    let mut end = 0;
    for entry in archive.entries().map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        let size = entry.header().entry_size().map_err(|e| e.to_string())?;
        let size = usize::try_from(size.div_ceil(512) * 512).map_err(|e| e.to_string())?;
        end = usize::try_from(entry.raw_file_position())
            .map_err(|e| e.to_string())?
            .saturating_add(size);
    }
    Ok(end.min(data.len()))
}

fn create(ctx: &mut Ctx, operands: &[String], file: &str, base: &str, how: Create) -> CmdResult {
    let Create {
        gz,
        verbose,
        excludes,
        append,
    } = how;
    // What `-r` keeps of the archive there (a missing one is created).
    let mut kept = Vec::new();
    if append {
        let res = ctx.fs.lock().read_file(&ctx.path(file));
        if let Ok(old) = res {
            match members_end(&old) {
                Ok(end) => kept.extend_from_slice(old.get(..end).unwrap_or(&[])),
                Err(e) => return fail(ctx, &e),
            }
        }
    }
    if operands.is_empty() && !append {
        return usage_fail(ctx, "Cowardly refusing to create an empty archive");
    }
    // GNU tar opens the archive (creating it, and truncating it for -c) before it
    // reads a member, so it is there to be found among them, and a place it cannot
    // be opened stops the run first. A compressed archive is written by gzip
    // through a pipe, which tar cannot recognise among the members.
    let archive_path = (file != "-" && !gz).then(|| ctx.path(file));
    if let Some(path) = &archive_path {
        let opened = {
            let mut fs = ctx.fs.lock();
            match fs.stat(path) {
                Ok(m) if append && m.is_dir() => Err(crate::fs::Errno::EISDIR.into()),
                Ok(_) if append => Ok(()),
                _ => fs.write_file_mode(path, &[], ctx.file_mode()),
            }
        };
        if let Err(e) = opened {
            if append {
                // GNU tar goes on to read the archive it failed to open.
                writeln!(ctx.stderr, "tar: {file}: Cannot read: Bad file descriptor")?;
                writeln!(ctx.stderr, "tar: At beginning of tape, quitting now")?;
            } else {
                writeln!(ctx.stderr, "tar: {file}: Cannot open: {e}")?;
            }
            return fail(ctx, "Error is not recoverable: exiting now");
        }
    }
    let fs = ctx.fs.snapshot();
    let mut dump = Dump {
        builder: tar::Builder::new(Vec::new()),
        names_to_stderr: file == "-",
        verbose,
        archive_ino: archive_path.and_then(|p| fs.stat(&p).ok()).map(|m| m.ino),
        trivial_links: if operands.len() > 1 { 0 } else { 1 },
        first_names: HashMap::new(),
        warned_links: false,
        status: 0,
    };
    // Each operand is read and written before the next, so messages come in GNU's
    // order.
    let mut warned_names = false;
    for op in operands {
        let name = op.trim_start_matches('/');
        let lead = op.get(..op.len() - name.len()).unwrap_or_default();
        if excluded(excludes, name) {
            continue;
        }
        // GNU notes this as it takes up the name, before it looks at the file.
        if !lead.is_empty() && !warned_names {
            writeln!(ctx.stderr, "tar: Removing leading `/' from member names")?;
            warned_names = true;
        }
        let path = crate::fs::path::join(base, op);
        if let Err(e) = fs.lstat(&path) {
            writeln!(ctx.stderr, "tar: {op}: Cannot stat: {e}")?;
            dump.status = 2;
            continue;
        }
        let mut items = Vec::new();
        collect(&fs, &path, (name, lead), excludes, &mut items);
        for it in &items {
            ctx.host.check()?;
            dump.member(ctx, &fs, it)?;
        }
    }
    let Dump {
        builder, status, ..
    } = dump;
    kept.extend_from_slice(&builder.into_inner()?);
    // GNU tar writes whole records of 20 blocks, the last one padded with zeros.
    let mut archive = kept;
    archive.resize(archive.len().div_ceil(RECORD) * RECORD, 0);
    let bytes = if gz {
        let mut enc = GzEncoder::new(Vec::new(), Compression::default());
        enc.write_all(&archive)?;
        enc.finish()?
    } else {
        archive
    };
    if file == "-" {
        ctx.stdout.write_all(&bytes)?;
    } else {
        let path = ctx.path(file);
        let res = ctx
            .fs
            .lock()
            .write_file_mode(&path, &bytes, ctx.file_mode());
        if let Err(e) = res {
            writeln!(ctx.stderr, "tar: {file}: Cannot open: {e}")?;
            writeln!(ctx.stderr, "tar: Error is not recoverable: exiting now")?;
            return Ok(2);
        }
    }
    finish(ctx, status)
}

/// GNU tar's `extract_link`: a link from `dest` to `target`, done already when both
/// name one inode, and replacing what else `dest` names; a missing `target` leaves
/// `dest` alone.
fn hard_link(fs: &mut Fs, target: &str, dest: &str) -> crate::fs::FsResult<()> {
    let wanted = fs.lstat(target)?.ino;
    match fs.lstat(dest) {
        Ok(there) if there.ino == wanted => Ok(()),
        Ok(_) => {
            fs.remove_file(dest)?;
            fs.link(target, dest)
        }
        Err(_) => fs.link(target, dest),
    }
}

/// What `create` carries from one member to the next, as GNU tar's globals do.
struct Dump {
    builder: tar::Builder<Vec<u8>>,
    /// `-v` names go to standard error when the archive goes to standard output.
    names_to_stderr: bool,
    verbose: bool,
    /// The archive being written, which is not archived in itself.
    archive_ino: Option<Ino>,
    /// GNU's `trivial_link_count`: with one operand only inodes of several links can
    /// recur; with more, any can.
    trivial_links: u32,
    /// GNU's link table: the member each inode that may recur was first stored as.
    first_names: HashMap<Ino, String>,
    /// Whether GNU's once-only note on leading `/`s in link targets was given.
    warned_links: bool,
    status: i32,
}

impl Dump {
    /// GNU's `dump_file0` for one collected item.
    fn member(&mut self, ctx: &mut Ctx, fs: &Fs, it: &Item) -> std::io::Result<()> {
        let Ok(meta) = fs.lstat(&it.path) else {
            return Ok(());
        };
        if self.archive_ino == Some(meta.ino) {
            let shown = format!("{}{}", it.lead, it.name);
            writeln!(ctx.stderr, "tar: {shown}: file is the archive; not dumped")?;
            return Ok(());
        }
        let linkable = !meta.is_dir() && meta.nlink > self.trivial_links;
        let mut h = tar::Header::new_gnu();
        h.set_mode(meta.mode & 0o7777);
        h.set_uid(u64::from(meta.uid));
        h.set_gid(u64::from(meta.gid));
        let _ = h.set_username(&user_name(meta.uid));
        let _ = h.set_groupname(&user_name(meta.gid));
        h.set_mtime(u64::try_from(meta.mtime.secs).unwrap_or(0));
        let mut name = it.name.clone();
        let mut link = None;
        let first = self.first_names.get(&meta.ino).filter(|_| linkable);
        let recurs = first.is_some();
        let data: Vec<u8> = match meta.file_type {
            _ if recurs => {
                h.set_entry_type(tar::EntryType::Link);
                link = first.cloned();
                Vec::new()
            }
            FileType::Dir => {
                h.set_entry_type(tar::EntryType::Directory);
                if !name.ends_with('/') {
                    name.push('/');
                }
                Vec::new()
            }
            FileType::Symlink => {
                h.set_entry_type(tar::EntryType::Symlink);
                link = Some(fs.readlink(&it.path).unwrap_or_default());
                Vec::new()
            }
            FileType::File => {
                h.set_entry_type(tar::EntryType::Regular);
                fs.read_file(&it.path)
                    .map(|d| d.to_vec())
                    .unwrap_or_default()
            }
            FileType::Fifo => {
                h.set_entry_type(tar::EntryType::Fifo);
                Vec::new()
            }
            FileType::Device(_) => {
                writeln!(ctx.stderr, "tar: {}: socket ignored", it.name)?;
                return Ok(());
            }
        };
        h.set_size(data.len() as u64);
        let link = link.as_ref().map(String::as_bytes);
        if let Err(e) = append_named(&mut self.builder, &mut h, name.as_bytes(), link, &data) {
            writeln!(ctx.stderr, "tar: {name}: {e}")?;
            self.status = 2;
            return Ok(());
        }
        if self.verbose {
            let out = if self.names_to_stderr {
                &mut ctx.stderr
            } else {
                &mut ctx.stdout
            };
            // As given, leading `/`s and all.
            writeln!(out, "{}{name}", it.lead)?;
        }
        if linkable && !recurs {
            // GNU names the entry as a future link target, with its own note on `/`.
            if !it.lead.is_empty() && !self.warned_links {
                writeln!(
                    ctx.stderr,
                    "tar: Removing leading `/' from hard link targets"
                )?;
                self.warned_links = true;
            }
            self.first_names.insert(meta.ino, name);
        }
        Ok(())
    }
}

/// Whether `read_archive` extracts (`-x`), and to standard output (`-O`); whether
/// member operands are patterns (`--wildcards`, `--no-wildcards`, `None` when neither
/// is given).
#[derive(Clone, Copy)]
struct Extract {
    on: bool,
    /// The permission bits an extracted member does not get.
    mode_mask: u32,
    to_stdout: bool,
    wildcards: Option<bool>,
}

/// Whether member operand `m` selects the archive member `name`: the member itself or
/// anything below it, and with `wildcards` a pattern matching either (`*` also matches
/// `/`, as GNU's default `--wildcards-match-slash` has it).
fn selects(m: &str, name: &str, wildcards: bool) -> bool {
    let m = m.trim_end_matches('/');
    let name = name.trim_end_matches('/');
    let heads =
        std::iter::once(name).chain(name.match_indices('/').filter_map(|(i, _)| name.get(..i)));
    heads.into_iter().any(|head| {
        if wildcards {
            super::fnmatch::fnmatch(m, head, false)
        } else {
            head == m
        }
    })
}

fn read_archive(
    ctx: &mut Ctx,
    members: &[String],
    file: &str,
    base: &str,
    how: Extract,
    verbose: bool,
) -> CmdResult {
    let extract = how.on;
    let raw = if file == "-" {
        let mut d = Vec::new();
        ctx.stdin.read_to_end(&mut d)?;
        d
    } else {
        let res = ctx.read_named(&ctx.path(file))?;
        match res {
            Ok(d) => d.to_vec(),
            Err(e) => {
                writeln!(ctx.stderr, "tar: {file}: Cannot open: {e}")?;
                return fail(ctx, "Error is not recoverable: exiting now");
            }
        }
    };
    let data = if raw.starts_with(&[0x1f, 0x8b]) {
        // An archive can hold no more than the whole filesystem, so a bomb stops there.
        let cap = ctx.fs.lock().limits().max_total_bytes;
        match super::gzip::read_capped(MultiGzDecoder::new(raw.as_slice()), cap) {
            Ok(d) => d,
            Err(super::gzip::Inflate::TooBig(n)) => {
                writeln!(ctx.stderr, "tar: Child returned status 1")?;
                return Err(super::fatal(format!(
                    "tar: {}",
                    crate::fs::LimitHit::TotalBytes(n)
                )));
            }
            Err(super::gzip::Inflate::Bad(_)) => {
                writeln!(ctx.stderr, "tar: Child returned status 1")?;
                return fail(ctx, "Error is not recoverable: exiting now");
            }
        }
    } else {
        raw
    };
    // An archive of no members is its end: zero blocks (one alone draws a warning).
    let empty = data.get(..512).is_some_and(|b| b.iter().all(|&x| x == 0));
    if empty && data.len() < 1024 {
        writeln!(ctx.stderr, "tar: A lone zero block at 1")?;
    }
    if !empty && (data.len() < 512 || data.get(257..262) != Some(b"ustar")) {
        writeln!(ctx.stderr, "tar: This does not look like a tar archive")?;
        return fail(ctx, "Exiting with failure status due to previous errors");
    }
    let mut archive = tar::Archive::new(data.as_slice());
    let entries = match archive.entries() {
        Ok(e) => e,
        Err(e) => return fail(ctx, &e.to_string()),
    };
    let mut seen = vec![false; members.len()];
    let mut status = 0;
    for entry in entries {
        ctx.host.check()?;
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => {
                writeln!(ctx.stderr, "tar: {e}")?;
                status = 2;
                break;
            }
        };
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        if !members.is_empty() {
            let wildcards = how.wildcards.unwrap_or(false);
            let hit = members.iter().position(|m| selects(m, &name, wildcards));
            match hit {
                Some(k) => {
                    if let Some(s) = seen.get_mut(k) {
                        *s = true;
                    }
                }
                None => continue,
            }
        }
        let h = entry.header().clone();
        let ty = h.entry_type();
        let mode = h.mode().unwrap_or(0o644);
        let mtime = h.mtime().unwrap_or(0) as i64;
        let link = entry
            .link_name_bytes()
            .map(|l| String::from_utf8_lossy(&l).into_owned());
        let tchar = if ty.is_dir() {
            'd'
        } else if ty.is_symlink() {
            'l'
        } else if ty.is_hard_link() {
            'h'
        } else if ty.is_fifo() {
            'p'
        } else {
            '-'
        };
        if verbose {
            if extract && how.to_stdout {
                writeln!(ctx.stderr, "{name}")?;
            } else if extract {
                writeln!(ctx.stdout, "{name}")?;
            } else {
                let size = h.size().unwrap_or(0);
                let line = long_line(
                    mode,
                    tchar,
                    h.uid().unwrap_or(0),
                    h.gid().unwrap_or(0),
                    if ty.is_file() { size } else { 0 },
                    mtime,
                    &ctx.zone(),
                    &name,
                    link.as_deref()
                        .filter(|_| ty.is_symlink() || ty.is_hard_link()),
                );
                writeln!(ctx.stdout, "{line}")?;
            }
        } else if !extract {
            writeln!(ctx.stdout, "{name}")?;
        }
        if !extract {
            continue;
        }
        if how.to_stdout {
            if ty.is_file() {
                let mut body = Vec::new();
                entry.read_to_end(&mut body)?;
                ctx.stdout.write_all(&body)?;
            }
            continue;
        }
        let rel = name.trim_start_matches('/');
        if rel.split('/').any(|c| c == "..") {
            writeln!(ctx.stderr, "tar: {name}: Member name contains '..'")?;
            status = 2;
            continue;
        }
        let dest = crate::fs::path::join(base, rel);
        let mut body = Vec::new();
        if ty.is_file() {
            entry.read_to_end(&mut body)?;
        }
        let mut fs = ctx.fs.lock();
        let parent = crate::fs::path::parent(&dest).to_owned();
        // Directories the archive does not hold are made as mkdir makes them.
        let _ = fs.mkdir_all(&parent, 0o777 & !ctx.umask);
        let mode = mode & 0o7777 & !how.mode_mask;
        let res = if ty.is_dir() {
            match fs.mkdir_all(&dest, mode) {
                Ok(()) => fs.chmod(&dest, mode),
                Err(e) => Err(e),
            }
        } else if ty.is_symlink() {
            if fs.lstat(&dest).is_ok() {
                let _ = fs.remove_file(&dest);
            }
            fs.symlink(link.as_deref().unwrap_or(""), &dest)
        } else if ty.is_hard_link() {
            let to = link.as_deref().unwrap_or("").trim_start_matches('/');
            let target = crate::fs::path::join(base, to);
            if let Err(e) = hard_link(&mut fs, &target, &dest) {
                drop(fs);
                let to = ctx.lquote(to);
                writeln!(ctx.stderr, "tar: {name}: Cannot hard link to {to}: {e}")?;
                status = 2;
                continue;
            }
            Ok(())
        } else if ty.is_fifo() {
            if fs.lstat(&dest).is_ok() {
                let _ = fs.remove_file(&dest);
            }
            fs.mkfifo(&dest, mode)
        } else {
            if fs.lstat(&dest).is_ok_and(|m| m.is_symlink()) {
                let _ = fs.remove_file(&dest);
            }
            match fs.write_file(&dest, &body) {
                Ok(()) => fs.chmod(&dest, mode),
                Err(e) => Err(e),
            }
        };
        if res.is_ok() && !ty.is_symlink() {
            let t = Timestamp {
                secs: mtime,
                nanos: 0,
            };
            let _ = fs.set_times(&dest, Some(t), Some(t));
        }
        drop(fs);
        if let Err(e) = res {
            writeln!(ctx.stderr, "tar: {name}: Cannot open: {e}")?;
            status = 2;
        }
    }
    for (m, s) in members.iter().zip(seen) {
        if !s {
            if how.wildcards.is_none() && m.contains(['*', '?', '[']) {
                writeln!(
                    ctx.stderr,
                    "tar: Pattern matching characters used in file names"
                )?;
                writeln!(
                    ctx.stderr,
                    "tar: Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning"
                )?;
            }
            writeln!(ctx.stderr, "tar: {m}: Not found in archive")?;
            status = 2;
        }
    }
    finish(ctx, status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{fs_with, run_in};

    #[test]
    fn create_list_extract() {
        let fs = fs_with(&[("d/f", "hi\n"), ("d/e/", ""), ("d/l", "->f")]);
        let (out, err, st) = run_in(&fs, "tar -cvf a.tar d", b"");
        assert_eq!(
            (String::from_utf8_lossy(&out).as_ref(), err.as_str(), st),
            ("d/\nd/e/\nd/f\nd/l\n", "", 0)
        );
        let (out, _, st) = run_in(&fs, "tar tf a.tar", b"");
        assert_eq!(
            (String::from_utf8_lossy(&out).as_ref(), st),
            ("d/\nd/e/\nd/f\nd/l\n", 0)
        );
        let (out, _, _) = run_in(&fs, "tar -tvf a.tar d/f", b"");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "-rw-r--r-- user/user         3 2023-11-14 22:13 d/f\n"
        );
        let (out, _, _) = run_in(&fs, "tar -tvf a.tar d/l", b"");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "lrwxrwxrwx user/user         0 2023-11-14 22:13 d/l -> f\n"
        );
        let (_, err, st) = run_in(&fs, "tar czf a.tgz d", b"");
        assert_eq!((err.as_str(), st), ("", 0));
        let (_, _, st) = run_in(&fs, "mkdir x", b"");
        assert_eq!(st, 0);
        let (out, err, st) = run_in(&fs, "tar -xzvf a.tgz -C x", b"");
        assert_eq!(
            (String::from_utf8_lossy(&out).as_ref(), err.as_str(), st),
            ("d/\nd/e/\nd/f\nd/l\n", "", 0)
        );
        let g = fs.lock();
        assert_eq!(
            g.read_file("/workspace/x/d/f").map(|d| d.to_vec()),
            Ok(b"hi\n".to_vec())
        );
        assert_eq!(g.readlink("/workspace/x/d/l").as_deref(), Ok("f"));
        assert!(g.stat("/workspace/x/d/e").is_ok_and(|m| m.is_dir()));
    }

    #[test]
    fn errors() {
        let fs = fs_with(&[("f", "x")]);
        for (line, err, status) in [
            (
                "tar -cf b.tar nope",
                "tar: nope: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n",
                2,
            ),
            (
                "tar -xf nope.tar",
                "tar: nope.tar: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n",
                2,
            ),
            (
                "tar -x",
                "tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n",
                2,
            ),
            (
                "tar -tf f",
                "tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n",
                2,
            ),
        ] {
            let (_, e, st) = run_in(&fs, line, b"");
            assert_eq!((e.as_str(), st), (err, status), "{line}");
        }
        let (_, e, st) = run_in(&fs, "tar -cf c.tar /workspace/f", b"");
        assert_eq!(
            (e.as_str(), st),
            ("tar: Removing leading `/' from member names\n", 0)
        );
        let (out, _, _) = run_in(&fs, "tar -tf c.tar", b"");
        assert_eq!(String::from_utf8_lossy(&out), "workspace/f\n");
    }
}
