//! The local-directory [`Backend`]: one file per key under the store's root, atomic
//! writes (temp file, fsync, rename, fsync of the directory), creates that never
//! replace a file (a hard link from the temp file), an OS lock per session, and fault
//! injection so tests can stop a save between any two writes. Blobs are written several
//! at a time.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use super::backend::{Backend, Listed, parallel};
use super::{SessionLock, StoreError, StoreErrorKind};

/// Leftover temp files older than this are removed when a store is opened.
const STALE_TEMP: Duration = Duration::from_secs(3600);

/// When a save should fail, as if the process died (tests only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FaultPlan {
    /// File writes that succeed before the failing one.
    pub writes_before_failure: u64,
    /// The failing write leaves half its bytes at the final path (a file system that
    /// lost unsynced data) rather than in a temp file.
    pub torn: bool,
}

impl FaultPlan {
    /// Fail the write after `writes` successful ones, leaving a half-written temp file.
    pub fn crash_after(writes: u64) -> FaultPlan {
        FaultPlan {
            writes_before_failure: writes,
            torn: false,
        }
    }
    /// Fail the write after `writes` successful ones, leaving half the bytes in place.
    pub fn torn_after(writes: u64) -> FaultPlan {
        FaultPlan {
            writes_before_failure: writes,
            torn: true,
        }
    }
}

pub(super) struct Disk {
    pub(super) root: PathBuf,
    faults: Mutex<Option<FaultPlan>>,
}

/// Most writes in flight at once.
const WRITERS: usize = 8;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes a directory's entries durable.
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| StoreError::io(dir, &e))
}

fn create_dir(dir: &Path) -> Result<(), StoreError> {
    fs::create_dir_all(dir).map_err(|e| StoreError::io(dir, &e))
}

impl Disk {
    pub(super) fn open(root: &Path) -> Result<Disk, StoreError> {
        let disk = Disk {
            root: root.to_path_buf(),
            faults: Mutex::new(None),
        };
        for sub in ["blobs", "sessions", "tmp"] {
            create_dir(&root.join(sub))?;
        }
        disk.remove_stale_temps();
        Ok(disk)
    }

    fn remove_stale_temps(&self) {
        let Ok(entries) = fs::read_dir(self.root.join("tmp")) else {
            return;
        };
        for e in entries.flatten() {
            let stale = e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok())
                .is_some_and(|age| age > STALE_TEMP);
            if stale {
                let _ = fs::remove_file(e.path());
            }
        }
    }

    /// A new temp file's path.
    fn temp_path(&self) -> PathBuf {
        static N: AtomicU64 = AtomicU64::new(0);
        self.root.join("tmp").join(format!(
            "{}-{}.tmp",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ))
    }

    /// Fails this write if the fault plan says so, leaving what a crash would (half
    /// the bytes in a temp file, or at `path` itself when torn).
    fn fault(&self, path: &Path, data: &[u8]) -> Result<(), StoreError> {
        let fault = {
            let mut plan = lock(&self.faults);
            match plan.as_mut() {
                Some(p) if p.writes_before_failure == 0 => plan.take(),
                Some(p) => {
                    p.writes_before_failure -= 1;
                    None
                }
                None => None,
            }
        };
        let Some(plan) = fault else {
            return Ok(());
        };
        let half = data.get(..data.len() / 2).unwrap_or_default();
        let tmp = self.temp_path();
        let at = if plan.torn { path } else { &tmp };
        let _ = fs::write(at, half);
        Err(StoreError::new(
            StoreErrorKind::Io,
            Some(path),
            format!("{}: injected failure", path.display()),
        ))
    }

    /// Writes `data` to a new temp file, durably; returns its path.
    fn write_temp(&self, data: &[u8]) -> Result<PathBuf, StoreError> {
        let tmp = self.temp_path();
        let written = File::create(&tmp).and_then(|mut f| {
            f.write_all(data)?;
            f.sync_all()
        });
        match written {
            Ok(()) => Ok(tmp),
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                Err(StoreError::io(&tmp, &e))
            }
        }
    }

    /// Writes `data` to `path` atomically and durably (the caller syncs the directory).
    fn write_atomic(&self, path: &Path, data: &[u8]) -> Result<(), StoreError> {
        self.fault(path, data)?;
        let tmp = self.write_temp(data)?;
        fs::rename(&tmp, path).map_err(|e| {
            let _ = fs::remove_file(&tmp);
            StoreError::io(path, &e)
        })
    }

    fn path(&self, key: &str) -> PathBuf {
        self.root.join(key)
    }

    /// The files below `dir` (to `depth` levels), as keys.
    fn walk(&self, dir: &Path, depth: usize, out: &mut Vec<Listed>) -> Result<(), StoreError> {
        let entries = match fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(StoreError::io(dir, &e)),
        };
        for e in entries.flatten() {
            let Ok(meta) = e.metadata() else { continue };
            let path = e.path();
            if meta.is_dir() {
                if depth > 0 {
                    self.walk(&path, depth - 1, out)?;
                }
                continue;
            }
            let Some(key) = path
                .strip_prefix(&self.root)
                .ok()
                .and_then(Path::to_str)
                .map(|k| k.replace(std::path::MAIN_SEPARATOR, "/"))
            else {
                continue;
            };
            out.push(Listed {
                key,
                size: meta.len(),
                modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            });
        }
        Ok(())
    }
}

impl Backend for Disk {
    fn root(&self) -> PathBuf {
        self.root.clone()
    }

    fn location(&self, key: &str) -> PathBuf {
        self.path(key)
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let path = self.path(key);
        match fs::read(&path) {
            Ok(data) => Ok(Some(data)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::io(&path, &e)),
        }
    }

    fn missing(&self, items: &[(String, u64)]) -> Result<Vec<bool>, StoreError> {
        Ok(items
            .iter()
            .map(|(key, size)| !fs::metadata(self.path(key)).is_ok_and(|m| m.len() == *size))
            .collect())
    }

    /// Each blob is fsynced, and one fsync waits for the disk, so doing them side by
    /// side is what makes a large first save bearable; then the directories that
    /// gained them are synced, so they are durable before the manifest that
    /// references them.
    fn put_blobs(&self, blobs: &[(String, Arc<Vec<u8>>)]) -> Result<(), StoreError> {
        let dirs: HashSet<PathBuf> = blobs
            .iter()
            .filter_map(|(key, _)| self.path(key).parent().map(Path::to_path_buf))
            .collect();
        for dir in &dirs {
            create_dir(dir)?;
        }
        parallel(blobs, WRITERS, |(key, data)| {
            self.write_atomic(&self.path(key), data)
        })?;
        let dirs: Vec<PathBuf> = dirs.into_iter().collect();
        parallel(&dirs, WRITERS, |dir| sync_dir(dir))?;
        if !dirs.is_empty() {
            sync_dir(&self.root.join("blobs"))?;
        }
        Ok(())
    }

    fn put(&self, key: &str, data: &[u8]) -> Result<(), StoreError> {
        let path = self.path(key);
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        create_dir(&dir)?;
        self.write_atomic(&path, data)?;
        sync_dir(&dir)
    }

    /// A hard link from a durable temp file: it fails, atomically, when the name is
    /// taken, where a rename would replace what is there.
    fn create(&self, key: &str, data: &[u8]) -> Result<bool, StoreError> {
        let path = self.path(key);
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        create_dir(&dir)?;
        self.fault(&path, data)?;
        let tmp = self.write_temp(data)?;
        let linked = fs::hard_link(&tmp, &path);
        let _ = fs::remove_file(&tmp);
        match linked {
            Ok(()) => {
                sync_dir(&dir)?;
                Ok(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(StoreError::io(&path, &e)),
        }
    }

    fn list(&self, prefix: &str) -> Result<Vec<Listed>, StoreError> {
        let (dir, _) = prefix.rsplit_once('/').unwrap_or(("", prefix));
        let mut out = Vec::new();
        // Keys are at most three levels deep (`blobs/ab/cdef…`).
        self.walk(&self.path(dir), 3, &mut out)?;
        out.retain(|l| l.key.starts_with(prefix));
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }

    fn delete(&self, key: &str) -> Result<(), StoreError> {
        let path = self.path(key);
        match fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(StoreError::io(&path, &e)),
        }
    }

    fn lock(&self, name: &str) -> Result<SessionLock, StoreError> {
        let path = self.root.join("sessions").join(format!("{name}.lock"));
        if let Some(dir) = path.parent() {
            create_dir(dir)?;
        }
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| StoreError::io(&path, &e))?;
        match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(SessionLock::held(file)),
            Err(rustix::io::Errno::WOULDBLOCK) => Err(StoreError::new(
                StoreErrorKind::Busy,
                Some(&path),
                format!(
                    "session {name:?} is in use by another process (or another handle of this one); \
                     open it when that one has finished, or use another session name"
                ),
            )),
            Err(e) => Err(StoreError::io(&path, &std::io::Error::from(e))),
        }
    }

    fn inject(&self, plan: Option<FaultPlan>) {
        *lock(&self.faults) = plan;
    }
}
