//! `unzip`: Info-ZIP UnZip 6.00 (Debian's) over the virtual filesystem, with the `zip`
//! crate reading the central directory: `unzip [-l] [-p] [-t] [-q[q]] [-o] [-n] [-j]
//! [-d DIR] ARCHIVE[.zip] [MEMBERS...] [-x EXCLUDED...]`, members as wildcards (`*`
//! matching `/`). Extraction follows UnZip's `mapname`: a leading `/` is stripped and
//! `../` components skipped (each with its warning and status 1), so no entry lands
//! outside the destination; symbolic-link entries are created last, as UnZip defers
//! them, and an existing link on the way to a member is followed only while it stays
//! inside the destination. An existing file is replaced only after the
//! `replace NAME?` question is answered from standard input (or `-o`/`-n`). Every
//! member is inflated under the file size limit, so a decompression bomb stops there.

use std::io::{Cursor, Read};

use ::zip::ZipArchive;
use flate2::read::DeflateDecoder;

use super::gzip::{Inflate, inflate_cap, read_capped, too_big};
use super::{CmdResult, Ctx};
use crate::fs::Timestamp;

/// UnZip's exit statuses (`unzip.h`).
const PK_WARN: i32 = 1;
const PK_ERR: i32 = 2;
const PK_NOZIP: i32 = 9;
const PK_PARAM: i32 = 10;
const PK_FIND: i32 = 11;
const PK_DISK: i32 = 50;

const USAGE: &str = "\
UnZip 6.00 of 20 April 2009, by Debian. Original by Info-ZIP.

Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]
  Default action is to extract files in list, except those in xlist, to exdir;
  file[.zip] may be a wildcard.  -Z => ZipInfo mode (\"unzip -Z\" for usage).

  -p  extract files to pipe, no messages     -l  list files (short format)
  -f  freshen existing files, create none    -t  test compressed archive data
  -u  update files, create if necessary      -z  display archive comment only
  -v  list verbosely/show version info       -T  timestamp archive to latest
  -x  exclude files that follow (in xlist)   -d  extract files into exdir
modifiers:
  -n  never overwrite existing files         -q  quiet mode (-qq => quieter)
  -o  overwrite files WITHOUT prompting      -a  auto-convert any text files
  -j  junk paths (do not make directories)   -aa treat ALL files as text
  -U  use escapes for all non-ASCII Unicode  -UU ignore any Unicode fields
  -C  match filenames case-insensitively     -L  make (some) names lowercase
  -X  restore UID/GID info                   -V  retain VMS version numbers
  -K  keep setuid/setgid/tacky permissions   -M  pipe through \"more\" pager
See \"unzip -hh\" or unzip.txt for more help.  Examples:
  unzip data1 -x joe   => extract all files except joe from zipfile data1.zip
  unzip -p foo | more  => send contents of foo.zip via pipe into program more
  unzip -fo foo ReadMe => quietly replace existing ReadMe if archive file newer
";

const NO_EOCD: &str = "  End-of-central-directory signature not found.  Either this file is not
  a zipfile, or it constitutes one disk of a multi-part archive.  In the
  latter case the central directory and zipfile comment will be found on
  the last disk(s) of this archive.
";

#[derive(Default)]
struct Opts {
    list: bool,
    pipe: bool,
    test: bool,
    quiet: u8,
    /// `-o` (`Some(true)`) or `-n` (`Some(false)`); `None` asks.
    overwrite: Option<bool>,
    junk: bool,
    dir: Option<String>,
}

/// One member as the central directory describes it.
struct Member {
    index: usize,
    name: String,
    size: u64,
    deflated: bool,
    method: u16,
    crc: u32,
    mtime: i64,
    /// The Unix mode, when the archive was made on Unix.
    mode: Option<u32>,
    encrypted: bool,
}

impl Member {
    fn is_dir(&self) -> bool {
        self.name.ends_with('/')
    }
    fn is_symlink(&self) -> bool {
        self.mode.is_some_and(|m| m & 0o170000 == 0o120000)
    }
}

pub fn unzip(ctx: &mut Ctx) -> CmdResult {
    let mut o = Opts::default();
    let mut archive: Option<String> = None;
    let mut members = Vec::new();
    let mut excluded = Vec::new();
    let mut in_excludes = false;
    let args = ctx.args.to_vec();
    if args.is_empty() {
        ctx.stdout.write_all(USAGE.as_bytes())?;
        return Ok(0);
    }
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let Some(letters) = arg.strip_prefix('-').filter(|l| !l.is_empty()) else {
            if archive.is_none() {
                archive = Some(arg.clone());
            } else if in_excludes {
                excluded.push(arg.clone());
            } else {
                members.push(arg.clone());
            }
            continue;
        };
        in_excludes = false;
        let chars = letters.char_indices();
        for (at, c) in chars {
            match c {
                'l' => o.list = true,
                'p' => o.pipe = true,
                't' => o.test = true,
                'q' => o.quiet = o.quiet.saturating_add(1),
                'o' => o.overwrite = Some(true),
                'n' => o.overwrite = Some(false),
                'j' => o.junk = true,
                'x' => in_excludes = true,
                'd' => {
                    let rest = letters.get(at + 1..).unwrap_or("");
                    let dir = if rest.is_empty() {
                        it.next().cloned()
                    } else {
                        Some(rest.to_owned())
                    };
                    match dir {
                        Some(d) if !d.starts_with('-') => o.dir = Some(d),
                        _ => {
                            writeln!(
                                ctx.stderr,
                                "error:  must specify directory to which to extract with -d option"
                            )?;
                            return Ok(PK_PARAM);
                        }
                    }
                    break;
                }
                _ => {
                    ctx.stderr.write_all(USAGE.as_bytes())?;
                    return Ok(PK_PARAM);
                }
            }
        }
    }
    let Some(archive) = archive else {
        ctx.stderr.write_all(USAGE.as_bytes())?;
        return Ok(PK_PARAM);
    };
    // UnZip tries the name, then with `.zip` and `.ZIP` added.
    let mut found = None;
    for cand in [
        archive.clone(),
        format!("{archive}.zip"),
        format!("{archive}.ZIP"),
    ] {
        let p = ctx.path(&cand);
        let is_file = ctx.fs.lock().stat(&p).is_ok_and(|m| !m.is_dir());
        if is_file {
            found = Some((cand, p));
            break;
        }
    }
    let Some((shown, path)) = found else {
        writeln!(
            ctx.stderr,
            "unzip:  cannot find or open {archive}, {archive}.zip or {archive}.ZIP."
        )?;
        return Ok(PK_NOZIP);
    };
    let data = ctx.fs.lock().read_file(&path);
    let data = match data {
        Ok(d) => d,
        Err(e) => {
            writeln!(ctx.stderr, "unzip:  cannot find or open {shown}: {e}")?;
            return Ok(PK_NOZIP);
        }
    };
    let chatty = !o.pipe && o.quiet == 0;
    if chatty {
        writeln!(ctx.stdout, "Archive:  {shown}")?;
    }
    let mut zip = match ZipArchive::new(Cursor::new(data.as_slice())) {
        Ok(z) => z,
        Err(_) => {
            ctx.stderr.write_all(NO_EOCD.as_bytes())?;
            writeln!(
                ctx.stderr,
                "unzip:  cannot find zipfile directory in one of {shown} or\n        {shown}.zip, and cannot find {shown}.ZIP, period."
            )?;
            return Ok(PK_NOZIP);
        }
    };
    if zip.is_empty() {
        let msg = format!("warning [{shown}]:  zipfile is empty");
        if o.test {
            writeln!(ctx.stdout, "{msg}")?;
        } else {
            writeln!(ctx.stderr, "{msg}")?;
        }
        return Ok(PK_WARN);
    }
    let mut all = Vec::new();
    for i in 0..zip.len() {
        let Ok(f) = zip.by_index_raw(i) else {
            continue;
        };
        let name = String::from_utf8_lossy(f.name_raw()).into_owned();
        let stamp = f.extra_data_fields().find_map(|x| match x {
            ::zip::ExtraField::ExtendedTimestamp(t) => t.mod_time(),
            _ => None,
        });
        let mtime = match stamp {
            Some(t) => i64::from(t),
            None => f.last_modified().map_or(0, |d| {
                let days = crate::timefmt::days_from_civil(
                    i64::from(d.year()),
                    u32::from(d.month()),
                    u32::from(d.day()),
                );
                days * 86400
                    + i64::from(d.hour()) * 3600
                    + i64::from(d.minute()) * 60
                    + i64::from(d.second())
            }),
        };
        let method: u16 = match f.compression() {
            ::zip::CompressionMethod::Stored => 0,
            ::zip::CompressionMethod::Deflated => 8,
            _ => 99,
        };
        all.push(Member {
            index: i,
            name,
            size: f.size(),
            deflated: method == 8,
            method,
            crc: f.crc32(),
            mtime,
            mode: f.unix_mode(),
            encrypted: f.encrypted(),
        });
    }
    let matches = |p: &str, n: &str| super::fnmatch::fnmatch(p, n, false);
    let mut seen = vec![false; members.len()];
    let mut chosen = Vec::new();
    for m in all {
        let hit = members.is_empty()
            || members.iter().enumerate().fold(false, |acc, (k, p)| {
                if matches(p, &m.name) {
                    if let Some(s) = seen.get_mut(k) {
                        *s = true;
                    }
                    true
                } else {
                    acc
                }
            });
        if hit && !excluded.iter().any(|p| matches(p, &m.name)) {
            chosen.push(m);
        }
    }
    let unmatched: Vec<&String> = members
        .iter()
        .zip(&seen)
        .filter(|(_, s)| !**s)
        .map(|(m, _)| m)
        .collect();
    if o.list {
        return list(ctx, &o, &chosen, !members.is_empty() && chosen.is_empty());
    }
    let mut run = Run {
        status: 0,
        all: false,
        none: false,
        links: Vec::new(),
        dirs: Vec::new(),
    };
    let base = match &o.dir {
        Some(d) => {
            let p = ctx.path(d);
            if !o.pipe && !o.test && ctx.fs.lock().stat(&p).is_err() {
                let made = ctx.fs.lock().mkdir(&p, ctx.dir_mode());
                if let Err(e) = made {
                    writeln!(
                        ctx.stderr,
                        "checkdir:  cannot create extraction directory: {d}\n           {e}"
                    )?;
                    return Ok(PK_ERR);
                }
            }
            p
        }
        None => ctx.cwd.to_owned(),
    };
    let mut errors = false;
    for m in &chosen {
        ctx.host.check()?;
        if o.pipe {
            if m.is_dir() {
                continue;
            }
            match member_data(ctx, &mut zip, m)? {
                Ok(d) => ctx.stdout.write_all(&d)?,
                Err(why) => {
                    writeln!(ctx.stderr, "error:  {}: {why}", m.name)?;
                    run.status = run.status.max(PK_ERR);
                }
            }
        } else if o.test {
            let verdict = if m.is_dir() {
                "OK".to_owned()
            } else {
                match member_data(ctx, &mut zip, m)? {
                    Ok(_) => "OK".to_owned(),
                    Err(why) => {
                        errors = true;
                        why
                    }
                }
            };
            if o.quiet == 0 {
                writeln!(ctx.stdout, "    testing: {:<22}   {verdict}", m.name)?;
            }
        } else {
            extract(ctx, &o, &mut run, &mut zip, m, &base)?;
        }
    }
    if !o.pipe && !o.test {
        finish_links(ctx, &o, &mut run)?;
    }
    for m in &unmatched {
        let line = format!("caution: filename not matched:  {m}");
        if o.test {
            writeln!(ctx.stdout, "{line}")?;
        } else {
            writeln!(ctx.stderr, "{line}")?;
        }
        run.status = run.status.max(PK_FIND);
    }
    if o.test {
        if errors || !unmatched.is_empty() {
            writeln!(ctx.stdout, "At least one error was detected in {shown}.")?;
            run.status = run.status.max(PK_ERR);
        } else if o.quiet < 2 {
            writeln!(
                ctx.stdout,
                "No errors detected in compressed data of {shown}."
            )?;
        }
    }
    Ok(run.status)
}

/// `-l`: UnZip's short listing. Members named but absent are no message here, only
/// the status when none matched.
fn list(ctx: &mut Ctx, o: &Opts, chosen: &[Member], none_matched: bool) -> CmdResult {
    if o.quiet < 2 {
        writeln!(ctx.stdout, "  Length      Date    Time    Name")?;
        writeln!(ctx.stdout, "---------  ---------- -----   ----")?;
    }
    let mut total = 0u64;
    for m in chosen {
        let when = crate::timefmt::strftime("%Y-%m-%d %H:%M", m.mtime, 0);
        writeln!(ctx.stdout, "{:>9}  {when}   {}", m.size, m.name)?;
        total = total.saturating_add(m.size);
    }
    if o.quiet < 2 {
        let n = chosen.len();
        let s = if n == 1 { "" } else { "s" };
        writeln!(ctx.stdout, "---------                     -------")?;
        writeln!(ctx.stdout, "{total:>9}                     {n} file{s}")?;
    }
    Ok(if none_matched { PK_FIND } else { 0 })
}

/// A member's contents, checked against its CRC; `Err` is UnZip's note on why not.
/// More than the file size limit ends the run (a decompression bomb).
fn member_data(
    ctx: &mut Ctx,
    zip: &mut ZipArchive<Cursor<&[u8]>>,
    m: &Member,
) -> std::io::Result<Result<Vec<u8>, String>> {
    if m.encrypted {
        return Ok(Err(
            "skipping: encrypted member (no password support)".to_owned()
        ));
    }
    if m.method != 0 && m.method != 8 {
        return Ok(Err(format!("unsupported compression method {}", m.method)));
    }
    let raw = match zip.by_index_raw(m.index) {
        Ok(mut f) => {
            let mut raw = Vec::new();
            match f.read_to_end(&mut raw) {
                Ok(_) => raw,
                Err(e) => return Ok(Err(format!("{e}"))),
            }
        }
        Err(e) => return Ok(Err(format!("{e}"))),
    };
    let cap = inflate_cap(ctx);
    let data = if m.deflated {
        match read_capped(DeflateDecoder::new(raw.as_slice()), cap) {
            Ok(d) => d,
            Err(Inflate::TooBig(n)) => {
                too_big(ctx, "unzip", &m.name, n)?;
                return Ok(Err("File too large".to_owned()));
            }
            Err(Inflate::Bad(_)) => {
                return Ok(Err("invalid compressed data to inflate".to_owned()));
            }
        }
    } else {
        if raw.len() as u64 > cap {
            too_big(ctx, "unzip", &m.name, cap)?;
            return Ok(Err("File too large".to_owned()));
        }
        raw
    };
    let mut crc = flate2::Crc::new();
    crc.update(&data);
    if crc.sum() != m.crc {
        return Ok(Err(format!(
            "bad CRC {:08x}  (should be {:08x})",
            crc.sum(),
            m.crc
        )));
    }
    Ok(Ok(data))
}

/// State carried across the members of one extraction.
struct Run {
    status: i32,
    /// `[A]ll` was answered: replace without asking.
    all: bool,
    /// `[N]one` was answered (or stdin ended): keep every existing file.
    none: bool,
    /// Symbolic links to make once every member is out: (path, shown name, target).
    links: Vec<(String, String, String)>,
    /// Directories whose times are set last, as UnZip sets them.
    dirs: Vec<(String, i64)>,
}

/// UnZip's `mapname` on a member name: the relative path it is extracted to, with
/// the warnings on the way (a leading `/` stripped, `../` components skipped).
/// `None` when nothing is left to extract.
fn map_name(ctx: &mut Ctx, o: &Opts, run: &mut Run, name: &str) -> std::io::Result<Option<String>> {
    let mut rest = name;
    if rest.starts_with('/') {
        if o.quiet < 2 {
            writeln!(
                ctx.stderr,
                "warning:  stripped absolute path spec from {name}"
            )?;
        }
        run.status = run.status.max(PK_WARN);
        rest = rest.trim_start_matches('/');
    }
    let printable = |c: &char| !c.is_control();
    let mut parts: Vec<String> = Vec::new();
    let mut killed_ddot = false;
    let comps: Vec<&str> = rest.split('/').collect();
    let last = comps.len().saturating_sub(1);
    for (i, c) in comps.iter().enumerate() {
        let c: String = c.chars().filter(printable).collect();
        if i < last {
            match c.as_str() {
                "" | "." => {}
                ".." => killed_ddot = true,
                _ => parts.push(c),
            }
        } else if c == "." || c == ".." {
            // Debian's UnZip will not make a file named `.` or `..`.
            parts.push("_".repeat(c.len()));
        } else {
            parts.push(c);
        }
    }
    if killed_ddot {
        if o.quiet < 2 {
            writeln!(
                ctx.stdout,
                "warning:  skipped \"../\" path component(s) in {name}"
            )?;
        }
        run.status = run.status.max(PK_WARN);
    }
    let dir_entry = name.ends_with('/');
    if o.junk {
        if dir_entry {
            return Ok(None);
        }
        let base = parts.pop().unwrap_or_default();
        parts = vec![base];
    }
    let joined = parts
        .iter()
        .filter(|p| !p.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join("/");
    if !dir_entry && parts.last().is_none_or(|p| p.is_empty()) {
        writeln!(
            ctx.stderr,
            "mapname:  conversion of {} failed",
            parts.join("/")
        )?;
        run.status = run.status.max(PK_ERR);
        return Ok(None);
    }
    if joined.is_empty() {
        return Ok(None);
    }
    Ok(Some(joined))
}

/// Reads one answer as UnZip's `fgets` into its 10-byte buffer does: up to 9 bytes or
/// through the newline; `None` at end of input.
fn read_answer(ctx: &mut Ctx) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    let mut b = [0u8; 1];
    while line.len() < 9 {
        if ctx.stdin.read(&mut b)? == 0 {
            break;
        }
        line.push(b[0]);
        if b[0] == b'\n' {
            break;
        }
    }
    if line.is_empty() {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// Makes the directories from `base` down to `rel`'s parent (or `rel` itself with
/// `whole`). A component that exists and is not a directory stops it; so does a
/// symbolic link that resolves outside `base`, so nothing lands outside it.
fn make_dirs(ctx: &mut Ctx, base: &str, rel: &str, whole: bool) -> Result<bool, String> {
    let comps: Vec<&str> = rel.split('/').filter(|c| !c.is_empty()).collect();
    let upto = if whole {
        comps.len()
    } else {
        comps.len().saturating_sub(1)
    };
    let mode = ctx.dir_mode();
    let mut fs = ctx.fs.lock();
    let root = fs.canonicalize(base).unwrap_or_else(|_| base.to_owned());
    let inside = |p: &str| p == root || p.starts_with(&format!("{}/", root.trim_end_matches('/')));
    let mut cur = base.to_owned();
    let mut shown = String::new();
    let mut created = false;
    for c in comps.iter().take(upto) {
        cur = crate::fs::path::join(&cur, c);
        shown = if shown.is_empty() {
            (*c).to_owned()
        } else {
            format!("{shown}/{c}")
        };
        match fs.lstat(&cur) {
            Ok(m) if m.is_dir() => {}
            Ok(m) if m.is_symlink() => {
                let real = fs.canonicalize(&cur).ok();
                let ok = real
                    .as_deref()
                    .is_some_and(|r| inside(r) && fs.stat(r).is_ok_and(|m| m.is_dir()));
                if !ok {
                    return Err(format!("{shown} leads outside the extraction directory"));
                }
            }
            Ok(_) => return Err(format!("{shown} exists but is not directory")),
            Err(_) => {
                fs.mkdir(&cur, mode)
                    .map_err(|e| format!("cannot create {shown}: {e}"))?;
                created = true;
            }
        }
    }
    Ok(created)
}

fn extract(
    ctx: &mut Ctx,
    o: &Opts,
    run: &mut Run,
    zip: &mut ZipArchive<Cursor<&[u8]>>,
    m: &Member,
    base: &str,
) -> std::io::Result<()> {
    let chatty = o.quiet == 0;
    let Some(rel) = map_name(ctx, o, run, &m.name)? else {
        return Ok(());
    };
    let prefix = o
        .dir
        .as_deref()
        .map(|d| format!("{}/", d.trim_end_matches('/')));
    let mut shown = format!("{}{rel}", prefix.as_deref().unwrap_or(""));
    let mut dest = crate::fs::path::join(base, &rel);
    let checkdir = |ctx: &mut Ctx, why: &str, shown: &str| {
        writeln!(
            ctx.stderr,
            "checkdir error:  {why}\n                 unable to process {shown}."
        )
    };
    if m.is_dir() {
        match make_dirs(ctx, base, &rel, true) {
            Ok(created) => {
                if created && chatty {
                    writeln!(ctx.stdout, "   creating: {shown}/")?;
                }
                run.dirs.push((dest, m.mtime));
            }
            Err(why) => {
                checkdir(ctx, &why, &shown)?;
                run.status = run.status.max(PK_ERR);
            }
        }
        return Ok(());
    }
    if let Err(why) = make_dirs(ctx, base, &rel, false) {
        checkdir(ctx, &why, &shown)?;
        run.status = run.status.max(PK_ERR);
        return Ok(());
    }
    // An existing file is replaced only when -o or the answer says so.
    loop {
        let exists = ctx.fs.lock().lstat(&dest).is_ok();
        if !exists || run.all || o.overwrite == Some(true) {
            break;
        }
        if run.none || o.overwrite == Some(false) {
            return Ok(());
        }
        write!(
            ctx.stderr,
            "replace {shown}? [y]es, [n]o, [A]ll, [N]one, [r]ename: "
        )?;
        let Some(answer) = read_answer(ctx)? else {
            writeln!(
                ctx.stderr,
                " NULL\n(EOF or read error, treating as \"[N]one\" ...)"
            )?;
            run.none = true;
            run.status = run.status.max(PK_WARN);
            return Ok(());
        };
        match answer.chars().next() {
            Some('y' | 'Y') => break,
            Some('A') => {
                run.all = true;
                break;
            }
            Some('N') => {
                run.none = true;
                return Ok(());
            }
            Some('n') => return Ok(()),
            Some('r' | 'R') => {
                let new = loop {
                    write!(ctx.stderr, "new name: ")?;
                    match read_answer_line(ctx)? {
                        Some(n) if !n.is_empty() => break Some(n),
                        Some(_) => continue,
                        None => break None,
                    }
                };
                let Some(new) = new else {
                    return Ok(());
                };
                // The new name is taken as given (from the working directory), but
                // it too must stay inside the destination.
                let rel_new = new.trim_start_matches('/').to_owned();
                if rel_new.split('/').any(|c| c == "..") {
                    checkdir(ctx, "new name leads outside the extraction directory", &new)?;
                    run.status = run.status.max(PK_ERR);
                    return Ok(());
                }
                if let Err(why) = make_dirs(ctx, ctx.cwd.to_owned().as_str(), &rel_new, false) {
                    checkdir(ctx, &why, &new)?;
                    run.status = run.status.max(PK_ERR);
                    return Ok(());
                }
                dest = ctx.path(&rel_new);
                shown = new;
            }
            _ => {
                let shown_answer = match answer.as_str() {
                    "\n" | "\r\n" | "\r" => "{ENTER}".to_owned(),
                    a => a.trim_end_matches('\n').to_owned(),
                };
                writeln!(ctx.stderr, "error:  invalid response [{shown_answer}]")?;
            }
        }
    }
    let verb = if m.is_symlink() {
        "    linking"
    } else if m.deflated {
        "  inflating"
    } else {
        " extracting"
    };
    let data = match member_data(ctx, zip, m)? {
        Ok(d) => d,
        Err(why) => {
            if chatty {
                writeln!(ctx.stdout, "{verb}: {shown:<22}  {why}")?;
            } else {
                writeln!(ctx.stderr, "{shown}:  {why}")?;
            }
            run.status = run.status.max(PK_ERR);
            return Ok(());
        }
    };
    let mut fs = ctx.fs.lock();
    if fs.lstat(&dest).is_ok_and(|m| !m.is_dir()) {
        let _ = fs.remove_file(&dest);
    }
    if m.is_symlink() {
        let target = String::from_utf8_lossy(&data).into_owned();
        // Like UnZip, a placeholder file holds the place until the links are made,
        // so a later member cannot be written through the link.
        let res = fs.write_file_mode(&dest, &data, 0o600);
        drop(fs);
        if let Err(e) = res {
            writeln!(ctx.stderr, "error:  cannot create {shown}\n        {e}")?;
            run.status = run.status.max(PK_ERR);
            return Ok(());
        }
        if chatty {
            writeln!(ctx.stdout, "{verb}: {shown:<22}  -> {target} ")?;
        }
        run.links.push((dest, shown, target));
        return Ok(());
    }
    let mode = m.mode.map_or(0o666 & !ctx.umask, |md| md & 0o777);
    let res = fs
        .write_file_mode(&dest, &data, mode)
        .and_then(|()| fs.chmod(&dest, mode));
    if res.is_ok() {
        let t = Timestamp {
            secs: m.mtime,
            nanos: 0,
        };
        let _ = fs.set_times(&dest, Some(t), Some(t));
    }
    drop(fs);
    match res {
        Ok(()) => {
            if chatty {
                writeln!(ctx.stdout, "{verb}: {shown:<22}  ")?;
            }
        }
        Err(e) => {
            writeln!(ctx.stderr, "error:  cannot create {shown}\n        {e}")?;
            run.status = run.status.max(PK_DISK);
        }
    }
    Ok(())
}

/// A whole line of input without its newline (for `new name:`); `None` at its end.
fn read_answer_line(ctx: &mut Ctx) -> std::io::Result<Option<String>> {
    let mut line = Vec::new();
    let mut b = [0u8; 1];
    loop {
        if ctx.stdin.read(&mut b)? == 0 {
            if line.is_empty() {
                return Ok(None);
            }
            break;
        }
        if b[0] == b'\n' {
            break;
        }
        line.push(b[0]);
        if line.len() > 4096 {
            break;
        }
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// Replaces the placeholders of the symbolic-link members with the links, then sets
/// the directories' times, as UnZip does once every member is out.
fn finish_links(ctx: &mut Ctx, o: &Opts, run: &mut Run) -> std::io::Result<()> {
    if !run.links.is_empty() && o.quiet == 0 {
        writeln!(ctx.stdout, "finishing deferred symbolic links:")?;
    }
    for (dest, shown, target) in std::mem::take(&mut run.links) {
        if o.quiet == 0 {
            writeln!(ctx.stdout, "  {shown:<22} -> {target}")?;
        }
        let mut fs = ctx.fs.lock();
        let _ = fs.remove_file(&dest);
        let res = fs.symlink(&target, &dest);
        drop(fs);
        if let Err(e) = res {
            writeln!(
                ctx.stderr,
                "error:  cannot create symlink {shown}\n        {e}"
            )?;
            run.status = run.status.max(PK_ERR);
        }
    }
    let mut fs = ctx.fs.lock();
    for (dir, mtime) in std::mem::take(&mut run.dirs).into_iter().rev() {
        let t = Timestamp {
            secs: mtime,
            nanos: 0,
        };
        let _ = fs.set_times(&dir, Some(t), Some(t));
    }
    Ok(())
}
