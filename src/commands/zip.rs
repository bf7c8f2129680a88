//! `zip`: Info-ZIP Zip 3.0 over the virtual filesystem, with the `zip` crate writing
//! the archive: `zip [-r] [-q] [-j] [-D] [-y] [-0..-9] [-d] ARCHIVE NAMES...`, options
//! anywhere on the line. `.zip` is added to an archive name without a suffix; names
//! already in the archive are replaced in place (`updating:`), new ones appended
//! (`  adding:`), `-d` deletes members matching the patterns (`deleting:`). Without
//! `-r` a directory is stored as its `d/` entry alone. Each entry keeps the file's
//! mtime (DOS time and an extended-timestamp field, as Info-ZIP writes) and mode.
//! Deflate is zlib's at the chosen level; like Info-ZIP's, a small file that does
//! not shrink is stored. Directories are read in name order (Info-ZIP uses the
//! directory's order). All messages go to standard output, as Info-ZIP's do.

use std::collections::HashSet;
use std::io::{Cursor, Write};

use ::zip::write::FullFileOptions;
use ::zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};
use flate2::Compression;
use flate2::write::DeflateEncoder;

use super::{CmdResult, Ctx};
use crate::fs::Fs;

/// Info-ZIP's exit statuses (`ziperr.h`).
const ZE_FORM: i32 = 3;
const ZE_NONE: i32 = 12;
const ZE_PARMS: i32 = 16;
const ZE_WRITE: i32 = 14;

const USAGE: &str = "\
Copyright (c) 1990-2008 Info-ZIP - Type 'zip \"-L\"' for software license.
Zip 3.0 (July 5th 2008). Usage:
zip [-options] [-b path] [-t mmddyyyy] [-n suffixes] [zipfile list] [-xi list]
  The default action is to add or replace zipfile entries from list, which
  can include the special name - to compress standard input.
  If zipfile and list are omitted, zip compresses stdin to stdout.
  -f   freshen: only changed files  -u   update: only changed or new files
  -d   delete entries in zipfile    -m   move into zipfile (delete OS files)
  -r   recurse into directories     -j   junk (don't record) directory names
  -0   store only                   -l   convert LF to CR LF (-ll CR LF to LF)
  -1   compress faster              -9   compress better
  -q   quiet operation              -v   verbose operation/print version info
  -c   add one-line comments        -z   add zipfile comment
  -@   read names from stdin        -o   make zipfile as old as latest entry
  -x   exclude the following names  -i   include only the following names
  -F   fix zipfile (-FF try harder) -D   do not add directory entries
  -A   adjust self-extracting exe   -J   junk zipfile prefix (unzipsfx)
  -T   test zipfile integrity       -X   eXclude eXtra file attributes
  -y   store symbolic links as the link instead of the referenced file
  -e   encrypt                      -n   don't compress these suffixes
  -h2  show more help
";

#[derive(Default)]
struct Opts {
    recurse: bool,
    quiet: bool,
    junk: bool,
    no_dirs: bool,
    symlinks: bool,
    delete: bool,
    level: u32,
}

/// One file or directory to store, under its name in the archive.
struct Item {
    name: String,
    path: String,
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    File,
    Dir,
    Symlink,
}

/// Info-ZIP's `percent`: the rounded share of `n` that packing it into `m` saved.
fn percent(n: u64, m: u64) -> i64 {
    if n == 0 {
        return 0;
    }
    let (n, m) = (n as i128, m as i128);
    ((200 * (n - m) / n + 1) / 2) as i64
}

/// The DOS date and time of Unix time `secs` (UTC), rounded up to an even second as
/// Info-ZIP rounds it; before 1980 is 1980-01-01 00:00.
pub(super) fn dos_time(secs: i64) -> DateTime {
    let t = crate::timefmt::gmtime(secs.saturating_add(1) & !1);
    let fallback = DateTime::default();
    if t.year < 1980 {
        return fallback;
    }
    DateTime::from_date_and_time(
        u16::try_from(t.year.min(2107)).unwrap_or(2107),
        t.month as u8,
        t.day as u8,
        t.hour as u8,
        t.min as u8,
        t.sec as u8,
    )
    .unwrap_or(fallback)
}

/// Writes one message line (all of Info-ZIP's go to stdout).
fn say(ctx: &mut Ctx, msg: &str) -> std::io::Result<()> {
    writeln!(ctx.stdout, "{msg}")
}

/// `zip warning: ...`, which `-q` hides.
fn warn(ctx: &mut Ctx, o: &Opts, msg: &str) -> std::io::Result<()> {
    if o.quiet {
        return Ok(());
    }
    say(ctx, &format!("\tzip warning: {msg}"))
}

/// `zip error: ...` after a blank line, with its status.
fn error(ctx: &mut Ctx, msg: &str, status: i32) -> CmdResult {
    say(ctx, &format!("\nzip error: {msg}"))?;
    Ok(status)
}

pub fn zip(ctx: &mut Ctx) -> CmdResult {
    let mut o = Opts {
        level: 6,
        ..Opts::default()
    };
    let mut archive: Option<String> = None;
    let mut names = Vec::new();
    let mut operands_only = false;
    let args = ctx.args.to_vec();
    if args.is_empty() {
        ctx.stdout.write_all(USAGE.as_bytes())?;
        return Ok(0);
    }
    for arg in &args {
        let letters = arg.strip_prefix('-').filter(|l| !l.is_empty());
        match letters {
            Some("-") if !operands_only => operands_only = true,
            Some(letters) if !operands_only => {
                for c in letters.chars() {
                    match c {
                        'r' => o.recurse = true,
                        'q' => o.quiet = true,
                        'j' => o.junk = true,
                        'D' => o.no_dirs = true,
                        'y' => o.symlinks = true,
                        'd' => o.delete = true,
                        '0'..='9' => o.level = c.to_digit(10).unwrap_or(6),
                        'h' => {
                            ctx.stdout.write_all(USAGE.as_bytes())?;
                            return Ok(0);
                        }
                        _ => {
                            let msg = format!(
                                "Invalid command arguments (short option '{c}' not supported)"
                            );
                            return error(ctx, &msg, ZE_PARMS);
                        }
                    }
                }
            }
            _ if archive.is_none() => archive = Some(arg.clone()),
            _ => names.push(arg.clone()),
        }
    }
    let Some(mut archive) = archive else {
        return error(ctx, "Nothing to do! (-)", ZE_NONE);
    };
    // Info-ZIP adds `.zip` to a name whose last component has no suffix.
    if !crate::fs::path::file_name(&archive).contains('.') {
        archive.push_str(".zip");
    }
    let path = ctx.path(&archive);
    let existing = ctx.fs.lock().read_file(&path).ok();
    let old = match existing.as_deref() {
        Some(data) => match ZipArchive::new(Cursor::new(data.clone())) {
            Ok(a) => Some(a),
            Err(_) => {
                for w in [
                    "missing end signature--probably not a zip file (did you",
                    "remember to use binary mode when you transferred it?)",
                    "(if you are trying to read a damaged archive try -F)",
                ] {
                    warn(ctx, &o, w)?;
                }
                return error(
                    ctx,
                    &format!("Zip file structure invalid ({archive})"),
                    ZE_FORM,
                );
            }
        },
        None => None,
    };
    if o.delete {
        return delete(ctx, &o, &archive, &path, old, &names);
    }
    add(ctx, &o, &archive, &path, old, &names)
}

/// The name Info-ZIP stores a path operand under: leading `/`s and `./`s dropped,
/// only the last component with `-j`.
fn entry_name(o: &Opts, operand: &str) -> String {
    let mut s = operand.trim_start_matches('/');
    while let Some(rest) = s.strip_prefix("./") {
        s = rest.trim_start_matches('/');
    }
    if s == "." {
        s = "";
    }
    let s = if o.junk {
        crate::fs::path::file_name(s.trim_end_matches('/'))
    } else {
        s
    };
    s.to_owned()
}

/// Collects operand `operand` (at `path`) and, with `-r`, everything below it in name
/// order; what cannot be found is warned about. `seen` holds the directories already
/// entered, so a symlink loop ends.
#[allow(clippy::too_many_arguments)]
fn collect(
    ctx: &mut Ctx,
    o: &Opts,
    fs: &Fs,
    (operand, path): (&str, &str),
    archive_ino: Option<crate::fs::Ino>,
    seen: &mut HashSet<crate::fs::Ino>,
    out: &mut Vec<Item>,
    missing: &mut bool,
) -> std::io::Result<()> {
    ctx.host.check()?;
    let lmeta = fs.lstat(path);
    let meta = match &lmeta {
        Ok(m) if m.is_symlink() && o.symlinks => Ok(m.clone()),
        _ => fs.stat(path),
    };
    let Ok(meta) = meta else {
        warn(ctx, o, &format!("name not matched: {operand}"))?;
        *missing = true;
        return Ok(());
    };
    if Some(meta.ino) == archive_ino {
        return Ok(());
    }
    let name = entry_name(o, operand);
    if meta.is_symlink() {
        out.push(Item {
            name,
            path: path.to_owned(),
            kind: Kind::Symlink,
        });
        return Ok(());
    }
    if !meta.is_dir() {
        if !name.is_empty() {
            out.push(Item {
                name,
                path: path.to_owned(),
                kind: Kind::File,
            });
        }
        return Ok(());
    }
    if !name.is_empty() && !o.no_dirs && !o.junk {
        let name = if name.ends_with('/') {
            name
        } else {
            format!("{name}/")
        };
        out.push(Item {
            name,
            path: path.to_owned(),
            kind: Kind::Dir,
        });
    }
    if !o.recurse || !seen.insert(meta.ino) {
        return Ok(());
    }
    let entries = fs.read_dir(path).unwrap_or_default();
    for e in entries {
        let child_operand = if operand.ends_with('/') {
            format!("{operand}{}", e.name)
        } else {
            format!("{operand}/{}", e.name)
        };
        let child = crate::fs::path::join(path, &e.name);
        collect(
            ctx,
            o,
            fs,
            (&child_operand, &child),
            archive_ino,
            seen,
            out,
            missing,
        )?;
    }
    seen.remove(&meta.ino);
    Ok(())
}

/// What one entry's data became: the bytes to store and how.
struct Packed {
    data: Vec<u8>,
    method: CompressionMethod,
    message: String,
}

/// Info-ZIP's choice for a file's data: deflated at `level` unless that is `-0`, the
/// file is empty, or it is small enough for one deflate block and does not shrink.
fn pack(data: &[u8], level: u32) -> std::io::Result<Packed> {
    let stored = |data: &[u8]| Packed {
        data: data.to_vec(),
        method: CompressionMethod::Stored,
        message: "(stored 0%)".to_owned(),
    };
    if level == 0 || data.is_empty() {
        return Ok(stored(data));
    }
    let mut enc = DeflateEncoder::new(Vec::new(), Compression::new(level));
    enc.write_all(data)?;
    let packed = enc.finish()?;
    if packed.len() >= data.len() && data.len() < 0x8000 {
        return Ok(stored(data));
    }
    let p = percent(data.len() as u64, packed.len() as u64);
    Ok(Packed {
        data: data.to_vec(),
        method: CompressionMethod::Deflated,
        message: format!("(deflated {p}%)"),
    })
}

/// Adds or replaces the entries for `names` and writes the archive.
fn add(
    ctx: &mut Ctx,
    o: &Opts,
    archive: &str,
    path: &str,
    old: Option<ZipArchive<Cursor<Vec<u8>>>>,
    names: &[String],
) -> CmdResult {
    let fs = ctx.fs.lock().snapshot();
    let archive_ino = fs.stat(path).ok().map(|m| m.ino);
    let mut items = Vec::new();
    let mut missing = false;
    let mut seen = HashSet::new();
    for n in names {
        let p = ctx.path(n);
        collect(
            ctx,
            o,
            &fs,
            (n, &p),
            archive_ino,
            &mut seen,
            &mut items,
            &mut missing,
        )?;
    }
    // A name given twice is stored once; with -j two paths may claim one name.
    let mut by_name: std::collections::HashMap<String, String> = Default::default();
    let mut unique = Vec::new();
    for it in items {
        match by_name.get(&it.name) {
            Some(first) if *first != it.path => {
                let (first, second) = (first.clone(), it.path.clone());
                let shown = |p: &str| {
                    p.strip_prefix(ctx.cwd)
                        .and_then(|r| r.strip_prefix('/'))
                        .unwrap_or(p)
                        .to_owned()
                };
                say(
                    ctx,
                    &format!(
                        "\tzip warning:   first full name: {}\n                      second full name: {}\n                     name in zip file repeated: {}\n                     this may be a result of using -j",
                        shown(&first),
                        shown(&second),
                        it.name
                    ),
                )?;
                return error(
                    ctx,
                    "Invalid command arguments (cannot repeat names in zip file)",
                    ZE_PARMS,
                );
            }
            Some(_) => {}
            None => {
                by_name.insert(it.name.clone(), it.path.clone());
                unique.push(it);
            }
        }
    }
    let _ = missing;
    if unique.is_empty() {
        return error(ctx, &format!("Nothing to do! ({archive})"), ZE_NONE);
    }
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    let mut pending: Vec<Option<Item>> = unique.into_iter().map(Some).collect();
    let mut lines = Vec::new();
    if let Some(mut old) = old {
        for i in 0..old.len() {
            ctx.host.check()?;
            let name = old
                .name_for_index(i)
                .and_then(|n| n.ok())
                .map(|n| n.to_string());
            let hit = name.as_ref().and_then(|n| {
                pending
                    .iter()
                    .position(|p| p.as_ref().is_some_and(|it| &it.name == n))
            });
            match hit.and_then(|k| pending.get_mut(k)).and_then(Option::take) {
                Some(it) => {
                    let msg = write_item(ctx, &fs, &mut w, &it, o.level)?;
                    lines.push(format!("updating: {} {msg}", it.name));
                }
                None => {
                    let copied = match old.by_index_raw(i) {
                        Ok(f) => w.raw_copy_file(f),
                        Err(e) => Err(e),
                    };
                    if let Err(e) = copied {
                        return error(ctx, &format!("Zip file structure invalid ({e})"), ZE_FORM);
                    }
                }
            }
            if !o.quiet {
                for l in lines.drain(..) {
                    say(ctx, &l)?;
                }
            }
        }
    }
    for it in pending.into_iter().flatten() {
        ctx.host.check()?;
        let msg = write_item(ctx, &fs, &mut w, &it, o.level)?;
        if !o.quiet {
            say(ctx, &format!("  adding: {} {msg}", it.name))?;
        }
    }
    finish(ctx, w, archive, path)
}

/// Stores one item and returns its `(stored 0%)`-style note.
fn write_item(
    ctx: &mut Ctx,
    fs: &Fs,
    w: &mut ZipWriter<Cursor<Vec<u8>>>,
    it: &Item,
    level: u32,
) -> std::io::Result<String> {
    let meta = match it.kind {
        Kind::Symlink => fs.lstat(&it.path),
        _ => fs.stat(&it.path),
    };
    let (mtime, mode) = meta.map_or((0, 0o644), |m| (m.mtime.secs, m.mode & 0o7777));
    let stamp = u32::try_from(mtime).unwrap_or(0);
    let opts = FullFileOptions::default()
        .last_modified_time(dos_time(mtime))
        .with_extended_timestamp(Some(stamp), None, None)
        .map_err(std::io::Error::other)?;
    let res = match it.kind {
        Kind::Dir => w
            .add_directory(it.name.as_str(), opts.unix_permissions(mode))
            .map(|()| "(stored 0%)".to_owned()),
        Kind::Symlink => {
            let target = fs.readlink(&it.path).unwrap_or_default();
            w.add_symlink(it.name.as_str(), target, opts.unix_permissions(mode))
                .map(|()| "(stored 0%)".to_owned())
        }
        Kind::File => {
            let data = fs
                .read_file(&it.path)
                .map(|d| d.to_vec())
                .unwrap_or_default();
            let packed = pack(&data, level)?;
            let opts = opts
                .compression_method(packed.method)
                .compression_level(
                    (packed.method == CompressionMethod::Deflated).then_some(i64::from(level)),
                )
                .large_file(data.len() as u64 >= u64::from(u32::MAX))
                .unix_permissions(mode);
            match w.start_file(it.name.as_str(), opts) {
                Ok(()) => {
                    w.write_all(&packed.data)?;
                    Ok(packed.message)
                }
                Err(e) => Err(e),
            }
        }
    };
    let _ = ctx;
    res.map_err(std::io::Error::other)
}

/// Writes the finished archive to `path`.
fn finish(ctx: &mut Ctx, w: ZipWriter<Cursor<Vec<u8>>>, archive: &str, path: &str) -> CmdResult {
    let bytes = match w.finish() {
        Ok(c) => c.into_inner(),
        Err(e) => return error(ctx, &format!("{e} ({archive})"), ZE_FORM),
    };
    let mode = ctx.file_mode();
    let written = ctx.fs.lock().write_file_mode(path, &bytes, mode);
    if let Err(e) = written {
        say(ctx, &format!("zip I/O error: {e}"))?;
        return error(
            ctx,
            "Output file write failure (write error on zip file)",
            ZE_WRITE,
        );
    }
    Ok(0)
}

/// Whether `-d` pattern `p` names the archive member `name` (a directory also by its
/// name without the `/`); `*` matches `/` too, as Info-ZIP's wildcards do.
fn deletes(p: &str, name: &str) -> bool {
    super::fnmatch::fnmatch(p, name, false)
        || name
            .strip_suffix('/')
            .is_some_and(|n| super::fnmatch::fnmatch(p, n, false))
}

/// `-d`: rewrites the archive without the members the patterns match.
fn delete(
    ctx: &mut Ctx,
    o: &Opts,
    archive: &str,
    path: &str,
    old: Option<ZipArchive<Cursor<Vec<u8>>>>,
    patterns: &[String],
) -> CmdResult {
    let Some(mut old) = old.filter(|a| !a.is_empty()) else {
        warn(ctx, o, &format!("{archive} not found or empty"))?;
        return error(ctx, &format!("Nothing to do! ({archive})"), ZE_NONE);
    };
    let names: Vec<String> = (0..old.len())
        .map(|i| {
            old.name_for_index(i)
                .and_then(|n| n.ok())
                .map(|n| n.to_string())
                .unwrap_or_default()
        })
        .collect();
    let mut any = false;
    for p in patterns {
        let p = entry_name(&Opts::default(), p);
        if names.iter().any(|n| deletes(&p, n)) {
            any = true;
        } else {
            warn(ctx, o, &format!("name not matched: {p}"))?;
        }
    }
    if !any {
        return error(ctx, &format!("Nothing to do! ({archive})"), ZE_NONE);
    }
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    let mut kept = 0;
    for (i, name) in names.iter().enumerate() {
        ctx.host.check()?;
        if patterns
            .iter()
            .any(|p| deletes(&entry_name(&Opts::default(), p), name))
        {
            if !o.quiet {
                say(ctx, &format!("deleting: {name}"))?;
            }
            continue;
        }
        kept += 1;
        let copied = match old.by_index_raw(i) {
            Ok(f) => w.raw_copy_file(f),
            Err(e) => Err(e),
        };
        if let Err(e) = copied {
            return error(ctx, &format!("Zip file structure invalid ({e})"), ZE_FORM);
        }
    }
    if kept == 0 {
        warn(ctx, o, "zip file empty")?;
    }
    finish(ctx, w, archive, path)
}
