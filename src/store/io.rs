//! The store's disk access: atomic writes (temp file, fsync, rename, fsync of the
//! directory), blob paths and hash checks, manifest files and their pruning, and fault
//! injection so tests can stop a save between any two writes. Blobs are written several
//! at a time.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use super::format::{self, Manifest};
use super::{KEEP_MANIFESTS, StoreError, StoreErrorKind};

/// The content of the `FORMAT` file.
const FORMAT_LINE: &str = "shellbox-store 1\n";

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

/// Runs `f` on every item, on up to [`WRITERS`] threads; the first error wins.
fn parallel<T: Sync>(
    items: &[T],
    f: impl Fn(&T) -> Result<(), StoreError> + Sync,
) -> Result<(), StoreError> {
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<StoreError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..WRITERS.min(items.len()) {
            scope.spawn(|| {
                while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if lock(&failed).is_some() {
                        return;
                    }
                    if let Err(e) = f(item) {
                        lock(&failed).get_or_insert(e);
                        return;
                    }
                }
            });
        }
    });
    failed
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .map_or(Ok(()), Err)
}

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
        let format_file = root.join("FORMAT");
        match fs::read_to_string(&format_file) {
            Ok(text) if text == FORMAT_LINE => {}
            Ok(text) => {
                return Err(StoreError::new(
                    StoreErrorKind::Format,
                    Some(&format_file),
                    format!(
                        "{} is not a shellbox store of this version (it says {:?})",
                        root.display(),
                        text.trim_end()
                    ),
                ));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                disk.write_atomic(&format_file, FORMAT_LINE.as_bytes())?;
                sync_dir(root)?;
            }
            Err(e) => return Err(StoreError::io(&format_file, &e)),
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

    pub(super) fn inject(&self, plan: Option<FaultPlan>) {
        *lock(&self.faults) = plan;
    }

    /// Writes `data` to `path` atomically and durably (the caller syncs the directory).
    fn write_atomic(&self, path: &Path, data: &[u8]) -> Result<(), StoreError> {
        static N: AtomicU64 = AtomicU64::new(0);
        let tmp = self.root.join("tmp").join(format!(
            "{}-{}.tmp",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
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
        if let Some(plan) = fault {
            let half = data.get(..data.len() / 2).unwrap_or_default();
            let at = if plan.torn { path } else { &tmp };
            let _ = fs::write(at, half);
            return Err(StoreError::new(
                StoreErrorKind::Io,
                Some(path),
                format!("{}: injected failure", path.display()),
            ));
        }
        let written = File::create(&tmp).and_then(|mut f| {
            f.write_all(data)?;
            f.sync_all()
        });
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(StoreError::io(&tmp, &e));
        }
        fs::rename(&tmp, path).map_err(|e| {
            let _ = fs::remove_file(&tmp);
            StoreError::io(path, &e)
        })
    }

    fn blob_path(&self, hash: &str) -> PathBuf {
        let (fan, rest) = hash.split_at(2.min(hash.len()));
        self.root.join("blobs").join(fan).join(rest)
    }

    /// Whether a blob of that name and size is stored (a torn one has the wrong size
    /// and is written again).
    pub(super) fn has_blob(&self, hash: &str, len: usize) -> bool {
        fs::metadata(self.blob_path(hash)).is_ok_and(|m| m.len() == len as u64)
    }

    /// Writes blobs, several at a time (each is fsynced, and one fsync waits for the
    /// disk, so doing them side by side is what makes a large first save bearable),
    /// then syncs the directories that gained them, so they are durable before the
    /// manifest that references them.
    pub(super) fn write_blobs(&self, blobs: &[(String, Arc<Vec<u8>>)]) -> Result<(), StoreError> {
        let dirs: HashSet<PathBuf> = blobs
            .iter()
            .filter_map(|(hash, _)| self.blob_path(hash).parent().map(Path::to_path_buf))
            .collect();
        for dir in &dirs {
            create_dir(dir)?;
        }
        parallel(blobs, |(hash, data)| {
            self.write_atomic(&self.blob_path(hash), data)
        })?;
        let dirs: Vec<PathBuf> = dirs.into_iter().collect();
        parallel(&dirs, |dir| sync_dir(dir))?;
        if !dirs.is_empty() {
            sync_dir(&self.root.join("blobs"))?;
        }
        Ok(())
    }

    /// A blob's bytes, verified against its hash.
    pub(super) fn get_blob(&self, hash: &str) -> Result<Vec<u8>, String> {
        if !format::is_hash(hash) {
            return Err(format!("{hash:?} is not a blob hash"));
        }
        let path = self.blob_path(hash);
        let data = fs::read(&path).map_err(|e| format!("blob {}: {e}", path.display()))?;
        if format::sha256_hex(&data) != hash {
            return Err(format!(
                "blob {} is corrupt: its content does not match its hash",
                path.display()
            ));
        }
        Ok(data)
    }

    pub(super) fn session_dir(&self, name: &str) -> PathBuf {
        self.root.join("sessions").join(name)
    }

    /// The manifests of a session by sequence number, oldest first.
    pub(super) fn manifests(&self, name: &str) -> Result<Vec<(u64, PathBuf)>, StoreError> {
        let dir = self.session_dir(name);
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(StoreError::io(&dir, &e)),
        };
        let mut out: Vec<(u64, PathBuf)> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name();
                let seq = name.to_str()?.strip_suffix(".json")?.parse().ok()?;
                Some((seq, e.path()))
            })
            .collect();
        out.sort();
        Ok(out)
    }

    /// Session names with at least one manifest.
    pub(super) fn sessions(&self) -> Result<Vec<String>, StoreError> {
        let dir = self.root.join("sessions");
        let entries = fs::read_dir(&dir).map_err(|e| StoreError::io(&dir, &e))?;
        let mut names = Vec::new();
        for e in entries.flatten() {
            if let Some(name) = e.file_name().to_str()
                && !self.manifests(name)?.is_empty()
            {
                names.push(name.to_owned());
            }
        }
        names.sort();
        Ok(names)
    }

    /// Writes the next manifest of session `name` and prunes old ones; returns its
    /// sequence number, path and size.
    pub(super) fn write_manifest(
        &self,
        name: &str,
        manifest: &Manifest,
    ) -> Result<(u64, PathBuf, u64), StoreError> {
        let dir = self.session_dir(name);
        create_dir(&dir)?;
        let existing = self.manifests(name)?;
        let seq = existing.last().map_or(1, |(s, _)| s + 1);
        let body = format::to_json(manifest)?;
        let mut file = format::manifest_header(&body).into_bytes();
        file.extend_from_slice(&body);
        let path = dir.join(format!("{seq:020}.json"));
        self.write_atomic(&path, &file)?;
        sync_dir(&dir)?;
        let keep_from = (existing.len() + 1).saturating_sub(KEEP_MANIFESTS);
        for (_, old) in existing.iter().take(keep_from) {
            let _ = fs::remove_file(old);
        }
        Ok((seq, path, file.len() as u64))
    }

    /// Reads and checks a manifest file.
    pub(super) fn read_manifest(&self, path: &Path) -> Result<Manifest, String> {
        let file = fs::read(path).map_err(|e| e.to_string())?;
        let body = format::manifest_body(&file)?;
        let manifest: Manifest =
            serde_json::from_slice(body).map_err(|e| format!("unreadable manifest: {e}"))?;
        if manifest.format != format::FORMAT {
            return Err(format!(
                "manifest format {} is not supported",
                manifest.format
            ));
        }
        Ok(manifest)
    }
}
