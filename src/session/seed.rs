//! Seeding from the host: copying a host folder into the virtual filesystem (the CLI's
//! `--root`, a template's seed files), and a digest of such a folder so a template can
//! tell when its seed changed. The host is only ever read.

use std::io;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::fs::Fs;

/// Deepest host directory nesting followed.
const MAX_DEPTH: usize = 64;

/// Copies host directory `host` into the filesystem at `dest` (created if missing), in
/// sorted order, skipping entries named in `skip`. Regular files, directories and
/// symlinks (copied as links, never followed) are copied; other kinds (sockets, FIFOs,
/// devices) are left out.
///
/// Nothing is dropped silently: an entry the filesystem refuses (a file over its size
/// limit, the filesystem full, too many files), a host error, or nesting deeper than 64
/// levels ends the copy with an error naming the host path. A file's size is checked
/// against the limits when it is listed.
///
/// Files' bytes are read from the host when first used, not here (so overlaying a big
/// tree costs a directory walk), and only as many as the file had when listed: a file
/// that has since changed on the host (grown, shrunk, replaced) reads as an I/O error.
///
/// ```no_run
/// let mut fs = shellbox::fs::Fs::new(shellbox::fs::Clock::virtual_at(0));
/// shellbox::session::copy_host_dir(&mut fs, std::path::Path::new("seed"), "/workspace", &[".git"])?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn copy_host_dir(fs: &mut Fs, host: &Path, dest: &str, skip: &[&str]) -> io::Result<()> {
    copy_dir(fs, host, dest, skip, 0)
}

/// `e` with the host path it concerns in front.
fn at(path: &Path, e: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!("{}: {e}", path.display()))
}

fn copy_dir(fs: &mut Fs, host: &Path, dest: &str, skip: &[&str], depth: usize) -> io::Result<()> {
    if depth > MAX_DEPTH {
        return Err(at(host, format!("nested deeper than {MAX_DEPTH} levels")));
    }
    fs.mkdir_all(dest, 0o755).map_err(|e| at(host, e))?;
    for (name, entry) in sorted_entries(host)? {
        if skip.contains(&name.as_str()) {
            continue;
        }
        let vpath = crate::fs::path::join(dest, &name);
        let path = entry.path();
        let ft = entry.file_type().map_err(|e| at(&path, e))?;
        if ft.is_dir() {
            copy_dir(fs, &path, &vpath, skip, depth + 1)?;
        } else if ft.is_file() {
            let meta = entry.metadata().map_err(|e| at(&path, e))?;
            check_fits(fs, &path, meta.len())?;
            fs.add_host_file(&vpath, path.clone(), &meta)
                .map_err(|e| at(&path, e))?;
        } else if ft.is_symlink() {
            let target = std::fs::read_link(&path).map_err(|e| at(&path, e))?;
            let target = crate::text::decode(target.as_os_str().as_encoded_bytes());
            fs.symlink(&target, &vpath).map_err(|e| at(&path, e))?;
        }
    }
    Ok(())
}

/// Refuses host file `path` of `len` bytes when it would not fit the filesystem's
/// per-file or total limit, before anything of it is read.
fn check_fits(fs: &Fs, path: &Path, len: u64) -> io::Result<()> {
    let limits = fs.limits();
    let (used, _) = fs.usage();
    let free = limits.max_total_bytes.saturating_sub(used);
    if len > limits.max_file_bytes.min(free) {
        return Err(at(
            path,
            format!(
                "{len} bytes will not fit the sandbox (a file may hold {} bytes, {free} are free)",
                limits.max_file_bytes
            ),
        ));
    }
    Ok(())
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
