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
/// symlinks (copied as links, never followed) are copied; anything else is ignored, as
/// are entries the filesystem refuses (a limit reached).
///
/// ```no_run
/// let mut fs = shellbox::fs::Fs::new(shellbox::fs::Clock::virtual_at(0));
/// shellbox::session::copy_host_dir(&mut fs, std::path::Path::new("seed"), "/workspace", &[".git"])?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn copy_host_dir(fs: &mut Fs, host: &Path, dest: &str, skip: &[&str]) -> io::Result<()> {
    copy_dir(fs, host, dest, skip, 0)
}

fn copy_dir(fs: &mut Fs, host: &Path, dest: &str, skip: &[&str], depth: usize) -> io::Result<()> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let _ = fs.mkdir_all(dest, 0o755);
    for (name, entry) in sorted_entries(host)? {
        if skip.contains(&name.as_str()) {
            continue;
        }
        let vpath = crate::fs::path::join(dest, &name);
        let ft = entry.file_type()?;
        if ft.is_dir() {
            copy_dir(fs, &entry.path(), &vpath, skip, depth + 1)?;
        } else if ft.is_file() {
            let data = std::fs::read(entry.path())?;
            let _ = fs.write_file(&vpath, &data);
        } else if ft.is_symlink() {
            let target = std::fs::read_link(entry.path())?;
            let _ = fs.symlink(
                &crate::text::decode(target.as_os_str().as_encoded_bytes()),
                &vpath,
            );
        }
    }
    Ok(())
}

/// The entries of a host directory with their (lossless) names, sorted by name.
fn sorted_entries(host: &Path) -> io::Result<Vec<(String, std::fs::DirEntry)>> {
    let mut entries: Vec<(String, std::fs::DirEntry)> = std::fs::read_dir(host)?
        .filter_map(Result::ok)
        .map(|e| (crate::text::decode(e.file_name().as_encoded_bytes()), e))
        .collect();
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
