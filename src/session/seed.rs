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
/// symlinks (copied as links, never followed) are copied, with the host's permission
/// bits (owned by the sandbox's user); other kinds (sockets, FIFOs, devices) are left
/// out, and so is what is below a directory on a kernel's pseudo filesystem (a host's
/// `/proc`, `/sys`, `/dev/pts`), which shows as an empty directory.
///
/// What the host process may not read appears as a real process would see it: a
/// directory it cannot list is there, empty, and a file it cannot open reads as
/// `Permission denied`. Each such entry is named in the returned [`SeedReport`].
/// Nothing else is dropped silently: an entry the filesystem refuses (too many files,
/// a name too long, a clash), another host error, or nesting deeper than 64 levels
/// ends the copy with an error naming the host path.
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
pub fn copy_host_dir(
    fs: &mut Fs,
    host: &Path,
    dest: &str,
    skip: &[&str],
) -> io::Result<SeedReport> {
    let root = Arc::new(HostRoot::open(host).map_err(|e| at(host, e))?);
    let top = fs.seed_dir(dest).map_err(|e| at(host, e))?;
    let fd = root.reopen().map_err(|e| at(host, e))?;
    // Listings in depth-first order, each directory before what is below it, which is
    // the order `fill` takes them in.
    let (tx, rx) = std::sync::mpsc::sync_channel(LISTINGS_AHEAD);
    std::thread::scope(|scope| {
        let root = &root;
        let lister = scope.spawn(move || {
            let mut lister = Lister {
                root,
                skip,
                tx,
                buf: Vec::with_capacity(LISTING_BUFFER),
                report: SeedReport::default(),
            };
            let _ = lister.walk(fd, PathBuf::new(), 0);
            lister.report
        });
        let filled = fill(fs, root, top, &rx);
        // After an error the lister may be waiting to send: without a receiver its
        // send fails and it stops, so the scope can end.
        drop(rx);
        let report = lister
            .join()
            .map_err(|_| at(host, "the host listing thread failed"))?;
        filled.map(|()| report)
    })
}

/// What [`copy_host_dir`] could not copy as it is on the host.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SeedReport {
    /// Host paths the host process could not list or look at, with the reason (the
    /// first [`SeedReport::KEPT`]); they appear empty or unreadable in the sandbox.
    pub unreadable: Vec<String>,
    /// How many there were in all.
    pub unreadable_count: usize,
    /// Host directories on a pseudo filesystem (`/proc`, `/sys`, ...), shown empty.
    pub left_out: Vec<String>,
}

impl SeedReport {
    /// Entries named in each list at most.
    pub const KEPT: usize = 8;

    /// One line for a user, if anything was not copied as it is:
    ///
    /// ```
    /// let report = shellbox::session::SeedReport::default();
    /// assert_eq!(report.warning(), None);
    /// ```
    pub fn warning(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(first) = self.unreadable.first() {
            let more = match self.unreadable_count {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            parts.push(format!(
                "cannot read {first}{more} (shown empty or unreadable)"
            ));
        }
        if !self.left_out.is_empty() {
            parts.push(format!(
                "left out the pseudo filesystems at {}",
                self.left_out.join(" ")
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    fn unreadable(&mut self, path: &Path) {
        self.unreadable_count += 1;
        if self.unreadable.len() < Self::KEPT {
            self.unreadable
                .push(format!("{}: Permission denied", path.display()));
        }
    }
}

/// Kernel filesystems whose contents are not files (`statfs` magic numbers): what is
/// below them is left out of a seeded tree.
const PSEUDO_FILESYSTEMS: &[u64] = &[
    0x9fa0,      // proc
    0x6265_6572, // sysfs
    0x1cd1,      // devpts
    0x2782_4ab2, // cgroup
    0x6367_7270, // cgroup2
    0x6462_6720, // debugfs
    0x7472_6163, // tracefs
    0x7363_6673, // securityfs
    0x6165_676c, // pstore
    0xcafe_4a11, // bpf
    0x6265_6571, // configfs
    0x6573_5546, // fusectl
    0x1980_0202, // mqueue
    0x4249_4e4d, // binfmt_misc
    0xf97c_ff8c, // selinuxfs
    0xde5e_81e4, // efivarfs
    0x0187,      // autofs
];

/// Whether the directory open as `fd` is on a pseudo filesystem.
fn is_pseudo(fd: &OwnedFd) -> bool {
    rustix::fs::fstatfs(fd).is_ok_and(|st| {
        // `f_type`'s width differs between targets; the magic numbers fit 32 bits.
        #[allow(clippy::useless_conversion, clippy::unnecessary_cast)]
        let kind = st.f_type as u64 & 0xffff_ffff;
        PSEUDO_FILESYSTEMS.contains(&kind)
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
        fs.seed_done(sub);
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
    report: SeedReport,
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
        if depth > 0 && is_pseudo(&fd) {
            if self.report.left_out.len() < SeedReport::KEPT {
                let here = self.root.display_path(&rel);
                self.report.left_out.push(here.display().to_string());
            }
            return self.send(Ok((rel, Vec::new())));
        }
        let entries = match self.list(&fd, &rel) {
            Ok(entries) => entries,
            Err(e) => return self.send(Err(e)),
        };
        let subdirs: Vec<String> = entries
            .iter()
            .filter(|e| matches!(e.kind, SeedKind::Dir(_)))
            .map(|e| e.name.clone())
            .collect();
        self.send(Ok((rel.clone(), entries)))?;
        for name in subdirs {
            let raw = crate::text::encode(&name);
            let raw = OsStr::from_bytes(&raw);
            let rel = rel.join(raw);
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            match openat(&fd, raw, flags, Mode::empty()) {
                Ok(sub) => self.walk(sub, rel, depth + 1)?,
                // One this process may not list is there, empty, as `ls` would find it.
                Err(e) if e == rustix::io::Errno::ACCESS => {
                    self.report.unreadable(&self.root.display_path(&rel));
                    self.send(Ok((rel, Vec::new())))?;
                }
                Err(e) => return self.send(Err(at(&self.root.display_path(&rel), e))),
            }
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
            let entry = match entry {
                Ok(entry) => entry,
                // Listed but not readable (a directory opened, then refused): what
                // was read so far stays.
                Err(e) if e == rustix::io::Errno::ACCESS => {
                    self.report.unreadable(&here());
                    break;
                }
                Err(e) => return Err(at(&here(), e)),
            };
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
            // The mode comes with the kind: one `statx`-like call per directory and
            // file (symlinks and skipped kinds need none).
            let (kind, mode) = match kind {
                FileType::Directory | FileType::RegularFile | FileType::Unknown => {
                    let st = statat(fd, &*raw, AtFlags::SYMLINK_NOFOLLOW).map_err(fail)?;
                    (FileType::from_raw_mode(st.st_mode), st.st_mode & 0o7777)
                }
                known => (known, 0),
            };
            let kind = match kind {
                FileType::Directory => SeedKind::Dir(mode),
                FileType::RegularFile => SeedKind::File(Arc::clone(&shared), raw, mode),
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_kernel_pseudo_filesystem_is_told_from_a_disk() {
        let open = |p: &str| {
            rustix::fs::open(p, OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap()
        };
        if Path::new("/proc/self").exists() {
            assert!(is_pseudo(&open("/proc")));
        }
        assert!(!is_pseudo(&open(env!("CARGO_MANIFEST_DIR"))));
    }
}
