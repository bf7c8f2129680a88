//! Seeding from the host: copying a host folder into the virtual filesystem (the CLI's
//! `--root`, a template's seed files), and a digest of such a folder so a template can
//! tell when its seed changed. The host is only ever read.

use std::ffi::OsStr;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, RawDir, openat, readlinkat, statat};
use sha2::{Digest, Sha256};

use crate::fs::{Fs, HostRoot, SeedDir, SeedEntry, SeedKind};

/// Deepest host directory nesting followed.
const MAX_DEPTH: usize = 64;

/// Copies host directory `host` into the filesystem at `dest` (created if missing), in
/// sorted order, skipping entries named in `skip`. Regular files, directories and
/// symlinks (copied as links, never followed) are copied; other kinds (sockets, FIFOs,
/// devices) are left out.
///
/// Nothing is dropped silently: an entry the filesystem refuses (too many files, a
/// name too long, a clash), a host error, or nesting deeper than 64 levels ends the
/// copy with an error naming the host path.
///
/// Only the listing happens here: a file's size is taken the first time the sandbox
/// needs it and its bytes when first read, both checked against the filesystem's
/// limits then (see [`crate::fs::HostRoot`]), so overlaying a big tree costs a
/// directory walk. From its first look on a file is fixed: one changed on the host
/// since reads as an I/O error. The walk's reading of the host runs on a thread of its
/// own while the filesystem takes in what it has listed.
///
/// ```no_run
/// let mut fs = shellbox::fs::Fs::new(shellbox::fs::Clock::virtual_at(0));
/// shellbox::session::copy_host_dir(&mut fs, std::path::Path::new("seed"), "/workspace", &[".git"])?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn copy_host_dir(fs: &mut Fs, host: &Path, dest: &str, skip: &[&str]) -> io::Result<()> {
    let root = Arc::new(HostRoot::open(host).map_err(|e| at(host, e))?);
    let top = fs.seed_dir(dest).map_err(|e| at(host, e))?;
    let fd = root.reopen().map_err(|e| at(host, e))?;
    // Listings in depth-first order, each directory before what is below it, which is
    // the order `fill` takes them in.
    let (tx, rx) = std::sync::mpsc::sync_channel(LISTINGS_AHEAD);
    std::thread::scope(|scope| {
        let root = &root;
        scope.spawn(move || {
            let mut lister = Lister {
                root,
                skip,
                tx,
                buf: Vec::with_capacity(LISTING_BUFFER),
            };
            lister.walk(fd, PathBuf::new(), 0)
        });
        let filled = fill(fs, root, top, &rx);
        // After an error the lister may be waiting to send: without a receiver its
        // send fails and it stops, so the scope can end.
        drop(rx);
        filled
    })
}

/// Listings the lister may be ahead of the filesystem by.
const LISTINGS_AHEAD: usize = 64;

/// One listed host directory: where it is below the root, and its entries.
type Listing = io::Result<(PathBuf, Vec<SeedEntry>)>;

/// Thrown when the filesystem side has stopped taking listings.
struct Gone;

/// `e` with the host path it concerns in front.
fn at(path: &Path, e: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!("{}: {e}", path.display()))
}

/// Takes the listing of `dir` and, depth first, of every directory below it.
fn fill(fs: &mut Fs, root: &Arc<HostRoot>, dir: SeedDir, rx: &Receiver<Listing>) -> io::Result<()> {
    let (rel, entries) = rx
        .recv()
        .map_err(|_| at(&root.display_path(Path::new("")), "listing stopped early"))??;
    let subdirs = fs
        .seed_entries(dir, root, entries)
        .map_err(|(name, e)| at(&root.display_path(&rel.join(name)), e))?;
    for sub in subdirs {
        fill(fs, root, sub, rx)?;
    }
    Ok(())
}

/// The walk over the host tree, on its own thread: it lists each directory and sends
/// the listing to [`fill`].
struct Lister<'a> {
    root: &'a HostRoot,
    skip: &'a [&'a str],
    tx: SyncSender<Listing>,
    /// Room for what one `getdents64` returns (reused for every directory).
    buf: Vec<u8>,
}

/// Bytes asked of each `getdents64`: a directory of a few hundred entries in one call.
const LISTING_BUFFER: usize = 64 * 1024;

impl Lister<'_> {
    /// Lists the directory open as `fd`, at `rel` below the root, then (depth first, in
    /// name order) its subdirectories, sending each listing; an error is sent in its
    /// place and ends the walk.
    fn walk(&mut self, fd: OwnedFd, rel: PathBuf, depth: usize) -> Result<(), Gone> {
        if depth > MAX_DEPTH {
            let here = self.root.display_path(&rel);
            let e = at(&here, format!("nested deeper than {MAX_DEPTH} levels"));
            return self.send(Err(e));
        }
        let entries = match self.list(&fd, &rel) {
            Ok(entries) => entries,
            Err(e) => return self.send(Err(e)),
        };
        let subdirs: Vec<String> = entries
            .iter()
            .filter(|e| matches!(e.kind, SeedKind::Dir))
            .map(|e| e.name.clone())
            .collect();
        self.send(Ok((rel.clone(), entries)))?;
        for name in subdirs {
            let raw = crate::text::encode(&name);
            let raw = OsStr::from_bytes(&raw);
            let rel = rel.join(raw);
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let sub = match openat(&fd, raw, flags, Mode::empty()) {
                Ok(sub) => sub,
                Err(e) => return self.send(Err(at(&self.root.display_path(&rel), e))),
            };
            self.walk(sub, rel, depth + 1)?;
        }
        Ok(())
    }

    fn send(&self, listing: Listing) -> Result<(), Gone> {
        self.tx.send(listing).map_err(|_| Gone)
    }

    /// The entries of the directory open as `fd` (at `rel`), sorted by name, without
    /// the skipped ones and kinds that are not copied.
    fn list(&mut self, fd: &OwnedFd, rel: &Path) -> io::Result<Vec<SeedEntry>> {
        let root = self.root;
        let here = || root.display_path(rel);
        let mut names = Vec::new();
        let mut dir = RawDir::new(fd, self.buf.spare_capacity_mut());
        while let Some(entry) = dir.next() {
            let entry = entry.map_err(|e| at(&here(), e))?;
            let raw = entry.file_name().to_bytes();
            if raw == b"." || raw == b".." {
                continue;
            }
            names.push((
                crate::text::decode(raw),
                Box::<[u8]>::from(raw),
                entry.file_type(),
            ));
        }
        names.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let shared: Arc<Path> = Arc::from(rel);
        let mut entries = Vec::with_capacity(names.len());
        for (name, raw, kind) in names {
            if self.skip.contains(&name.as_str()) {
                continue;
            }
            let fail = |e: rustix::io::Errno| {
                at(&root.display_path(&rel.join(OsStr::from_bytes(&raw))), e)
            };
            let kind = match kind {
                FileType::Unknown => {
                    let st = statat(fd, &*raw, AtFlags::SYMLINK_NOFOLLOW).map_err(fail)?;
                    FileType::from_raw_mode(st.st_mode)
                }
                known => known,
            };
            let kind = match kind {
                FileType::Directory => SeedKind::Dir,
                FileType::RegularFile => SeedKind::File(Arc::clone(&shared), raw),
                FileType::Symlink => {
                    let target = readlinkat(fd, &*raw, Vec::new()).map_err(fail)?;
                    SeedKind::Symlink(crate::text::decode(target.as_bytes()))
                }
                _ => continue,
            };
            entries.push(SeedEntry { name, kind });
        }
        Ok(entries)
    }
}

/// The entries of a host directory with their (lossless) names, sorted by name.
fn sorted_entries(host: &Path) -> io::Result<Vec<(String, std::fs::DirEntry)>> {
    let mut entries = Vec::new();
    for e in std::fs::read_dir(host).map_err(|e| at(host, e))? {
        let e = e.map_err(|e| at(host, e))?;
        entries.push((crate::text::decode(e.file_name().as_encoded_bytes()), e));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries)
}

/// A SHA-256 over the names, kinds and contents of everything under host directory
/// `host` (lowercase hex): it changes whenever what [`copy_host_dir`] would copy does.
pub fn digest_host_dir(host: &Path) -> io::Result<String> {
    let mut hasher = Sha256::new();
    digest_dir(&mut hasher, host, "", 0)?;
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

fn digest_dir(h: &mut Sha256, host: &Path, rel: &str, depth: usize) -> io::Result<()> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    for (name, entry) in sorted_entries(host)? {
        let rel = format!("{rel}/{name}");
        let ft = entry.file_type()?;
        if ft.is_dir() {
            h.update(format!("d {rel}\0"));
            digest_dir(h, &entry.path(), &rel, depth + 1)?;
        } else if ft.is_file() {
            let data = std::fs::read(entry.path())?;
            h.update(format!("f {rel} {}\0", data.len()));
            h.update(&data);
        } else if ft.is_symlink() {
            let target = std::fs::read_link(entry.path())?;
            h.update(format!("l {rel}\0"));
            h.update(target.as_os_str().as_encoded_bytes());
            h.update(b"\0");
        }
    }
    Ok(())
}
