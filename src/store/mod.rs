//! The durable store: snapshots of a filesystem (plus opaque JSON metadata) saved to a
//! directory, or to S3-compatible object storage, so a session outlives the process
//! and can resume on another host.
//!
//! Layout of a store (files of a directory, or objects under an `s3://bucket/prefix`):
//!
//! ```text
//! FORMAT                        "shellbox-store 1"
//! blobs/ab/cdef…                content-addressed by SHA-256: file contents and
//!                               directory listings (JSON), shared by every snapshot
//! sessions/NAME/000…0007.json   manifests, one per save (the newest few are kept)
//! tmp/                          files being written
//! ```
//!
//! The tree is a Merkle tree: a directory's blob lists its entries with their inode
//! attributes and the hash of their content (small files inline), so saving after a
//! one-file change writes only that file's blob and the directory blobs on its path.
//! Every write is atomic (temp file, fsync, rename, fsync of the directory; one
//! object put) and the manifest is written last, with a checksum of its own body in its
//! first line. A manifest is published with a create that fails when its sequence
//! number is taken, and a save knows the newest manifest its handle has seen: when
//! another host saved since, the save fails with [`StoreErrorKind::Conflict`] instead
//! of burying that work. Loading verifies every blob's hash; when the newest manifest
//! or anything it references is torn or corrupt, the previous complete snapshot is
//! loaded and the report says what was discarded and why. [`Store::gc`] removes blobs
//! no manifest references, in two marks a grace period apart so that saves running
//! meanwhile keep theirs.

mod backend;
mod format;
mod io;
#[cfg(feature = "s3")]
mod s3;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use crate::fs::{Clock, Fs, FsImage, Ino, InodeImage, NodeImage};
pub use backend::{Backend, Listed};
use format::{Entry, Kind, Manifest, Tree};
use io::Disk;
pub use io::FaultPlan;
#[cfg(feature = "s3")]
pub use s3::S3Config;

/// The content of the `FORMAT` object.
const FORMAT_LINE: &str = "shellbox-store 1\n";

/// How long a blob this handle wrote or read is trusted to still be stored without
/// asking (well under [`GC_GRACE`], so a collection never takes a blob a save counts
/// on without asking).
const KNOWN_FOR: Duration = Duration::from_secs(600);

/// The least time between the two marks of [`Store::gc`] that let it remove a blob.
pub const GC_GRACE: Duration = Duration::from_secs(3600);

/// Where [`Store::gc`] keeps its last mark.
const GC_MARKS: &str = "gc/marks.json";

/// File-content hashes by buffer address, with a weak handle proving the buffer is
/// still the one hashed.
type HashCache = HashMap<usize, (Weak<Vec<u8>>, String)>;

/// Manifests kept per session (older ones are pruned after a save).
pub const KEEP_MANIFESTS: usize = 3;

/// Files up to this size are stored inside their directory's blob.
const INLINE_MAX: usize = 64;

/// Why a store operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// Reading or writing the store directory failed.
    Io,
    /// The session has no snapshot.
    NotFound,
    /// A session name that cannot be a directory name.
    InvalidName,
    /// The directory is not a store of this version.
    Format,
    /// No complete snapshot is left: every manifest is damaged.
    Corrupt,
    /// Another holder (another process, or another handle in this one) has the
    /// session open ([`Store::lock`]).
    Busy,
    /// Another host saved the session since this handle loaded or saved it: nothing
    /// was overwritten (load it again, or save under another name).
    Conflict,
}

/// A failed store operation, naming the path at fault when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    pub kind: StoreErrorKind,
    pub path: Option<PathBuf>,
    pub message: String,
}

impl StoreError {
    fn new(kind: StoreErrorKind, path: Option<&Path>, message: impl Into<String>) -> StoreError {
        StoreError {
            kind,
            path: path.map(Path::to_path_buf),
            message: message.into(),
        }
    }
    fn io(path: &Path, e: &std::io::Error) -> StoreError {
        StoreError::new(
            StoreErrorKind::Io,
            Some(path),
            format!("{}: {e}", path.display()),
        )
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

/// What a store keeps per save: a filesystem and whatever metadata the caller needs.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub fs: Fs,
    pub meta: Value,
}

/// What a save did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveReport {
    /// The sequence number of the new manifest.
    pub seq: u64,
    pub manifest: PathBuf,
    /// Blobs that were not in the store yet, and their bytes.
    pub blobs_written: u64,
    pub blob_bytes_written: u64,
    /// Bytes of the manifest.
    pub manifest_bytes: u64,
}

/// A manifest that could not be loaded, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discarded {
    pub path: PathBuf,
    pub reason: String,
}

/// How a snapshot was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadReport {
    /// The sequence number of the manifest loaded.
    pub seq: u64,
    pub manifest: PathBuf,
    /// Newer manifests that were damaged and skipped (empty when all is well).
    pub discarded: Vec<Discarded>,
}

/// A loaded snapshot.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub fs: Fs,
    pub meta: Value,
    pub report: LoadReport,
}

/// A held session ([`Store::lock`]); dropping it lets the next holder in.
#[derive(Debug)]
pub struct SessionLock {
    _file: Option<std::fs::File>,
}

impl SessionLock {
    /// A lock held through an OS file lock on `file`.
    pub(crate) fn held(file: std::fs::File) -> SessionLock {
        SessionLock { _file: Some(file) }
    }
    /// The lock of a store shared between hosts, which has none: conditional
    /// publishing alone keeps their saves apart.
    pub(crate) fn shared() -> SessionLock {
        SessionLock { _file: None }
    }
}

/// A store: a directory, or objects under an `s3://bucket/prefix` ([`Store::open`]
/// takes either). Cloning gives another handle to the same store.
///
/// ```
/// use shellbox::fs::{Clock, Fs};
/// use shellbox::store::{Snapshot, Store};
/// let dir = std::env::temp_dir().join(format!("shellbox-doc-store-{}", std::process::id()));
/// let store = Store::open(&dir)?;
/// let mut fs = Fs::new(Clock::virtual_at(0));
/// fs.write_file("/workspace/notes.txt", b"remember this\n").unwrap();
/// store.save("demo", &Snapshot { fs, meta: serde_json::json!({"by": "doc"}) })?;
/// let loaded = Store::open(&dir)?.load("demo")?;
/// assert_eq!(loaded.fs.read_file("/workspace/notes.txt").unwrap().as_slice(), b"remember this\n");
/// assert!(loaded.report.discarded.is_empty());
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), shellbox::store::StoreError>(())
/// ```
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("root", &self.inner.backend.root())
            .finish_non_exhaustive()
    }
}

struct Inner {
    /// The store's directory or URL, for messages.
    root: PathBuf,
    backend: Box<dyn Backend>,
    /// Blobs this handle has written or found whole, and when, so later saves skip
    /// the check (for [`KNOWN_FOR`]).
    known: Mutex<HashMap<String, Instant>>,
    /// Per session, the newest manifest this handle has seen (listed when it loaded,
    /// or written): a save that finds a newer one is a conflict.
    seen: Mutex<HashMap<String, u64>>,
    /// Hashes of file contents seen by earlier saves, by buffer address: a buffer the
    /// filesystem still shares is unchanged, so it need not be hashed again.
    hashes: Mutex<HashCache>,
}

/// Whether `name` can name a session: 1 to 128 of `A-Z a-z 0-9 . _ -`, not starting
/// with a dot.
fn check_name(name: &str) -> Result<(), StoreError> {
    let ok = !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    if ok {
        Ok(())
    } else {
        Err(StoreError::new(
            StoreErrorKind::InvalidName,
            None,
            format!(
                "invalid session name {name:?}: use 1 to 128 letters, digits, '.', '_' or '-', \
                 not starting with '.'"
            ),
        ))
    }
}

impl Store {
    /// Opens the store in `dir`, creating it if needed. A `dir` of the form
    /// `s3://bucket/prefix` opens object storage instead ([`S3Config::from_url`]: the
    /// endpoint, region and credentials come from the usual `AWS_*` variables).
    pub fn open(dir: impl AsRef<Path>) -> Result<Store, StoreError> {
        let dir = dir.as_ref();
        if let Some(url) = dir.to_str().filter(|d| d.starts_with("s3://")) {
            return Store::open_s3_url(url);
        }
        Store::with_backend(Box::new(Disk::open(dir)?))
    }

    #[cfg(feature = "s3")]
    fn open_s3_url(url: &str) -> Result<Store, StoreError> {
        Store::open_s3(S3Config::from_url(url)?)
    }

    #[cfg(not(feature = "s3"))]
    fn open_s3_url(url: &str) -> Result<Store, StoreError> {
        Err(StoreError::new(
            StoreErrorKind::Io,
            None,
            format!("{url}: this build of shellbox has no object storage (the `s3` feature)"),
        ))
    }

    /// Opens a store in S3-compatible object storage, creating its `FORMAT` object if
    /// the prefix is empty.
    #[cfg(feature = "s3")]
    pub fn open_s3(config: S3Config) -> Result<Store, StoreError> {
        Store::with_backend(Box::new(s3::S3::open(config)?))
    }

    /// A store over any [`Backend`]; checks (or writes) its `FORMAT` object.
    pub fn with_backend(backend: Box<dyn Backend>) -> Result<Store, StoreError> {
        let format_key = "FORMAT";
        let mut found = backend.get(format_key)?;
        if found.is_none() && !backend.create(format_key, FORMAT_LINE.as_bytes())? {
            found = backend.get(format_key)?;
        }
        if let Some(text) = found.filter(|t| t != FORMAT_LINE.as_bytes()) {
            return Err(StoreError::new(
                StoreErrorKind::Format,
                Some(&backend.location(format_key)),
                format!(
                    "{} is not a shellbox store of this version (it says {:?})",
                    backend.root().display(),
                    String::from_utf8_lossy(&text).trim_end()
                ),
            ));
        }
        Ok(Store {
            inner: Arc::new(Inner {
                root: backend.root(),
                backend,
                known: Mutex::new(HashMap::new()),
                seen: Mutex::new(HashMap::new()),
                hashes: Mutex::new(HashMap::new()),
            }),
        })
    }

    /// The store's directory (or its `s3://` URL).
    pub fn root(&self) -> &Path {
        &self.inner.root
    }

    /// Makes later writes fail as a crash would (for tests of crash safety).
    #[doc(hidden)]
    pub fn inject_faults(&self, plan: Option<FaultPlan>) {
        self.inner.backend.inject(plan);
    }

    /// The names of the sessions with at least one manifest, sorted.
    pub fn sessions(&self) -> Result<Vec<String>, StoreError> {
        let mut names: Vec<String> = self
            .inner
            .backend
            .list("sessions/")?
            .into_iter()
            .filter_map(|l| {
                let rest = l.key.strip_prefix("sessions/")?;
                let (name, file) = rest.split_once('/')?;
                manifest_seq(file).map(|_| name.to_owned())
            })
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// Holds session `name` for this caller until the lock is dropped: a second
    /// [`Store::lock`] of the same session, from any process or handle, fails with
    /// [`StoreErrorKind::Busy`] instead of both saving over each other's work. In a
    /// directory the lock is an OS file lock on `sessions/NAME.lock` (released when the
    /// holder ends, however it ends); object storage has no locks, and two hosts
    /// saving one session get [`StoreErrorKind::Conflict`] instead. `load` and `save`
    /// do not take it: hosts that share a store take it around a session's use, as
    /// the CLI does.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("shellbox-doc-lock-{}", std::process::id()));
    /// let store = shellbox::store::Store::open(&dir)?;
    /// let held = store.lock("chat-1")?;
    /// let again = store.lock("chat-1").unwrap_err();
    /// assert_eq!(again.kind, shellbox::store::StoreErrorKind::Busy);
    /// drop(held);
    /// assert!(store.lock("chat-1").is_ok());
    /// # std::fs::remove_dir_all(&dir).ok();
    /// # Ok::<(), shellbox::store::StoreError>(())
    /// ```
    pub fn lock(&self, name: &str) -> Result<SessionLock, StoreError> {
        check_name(name)?;
        self.inner.backend.lock(name)
    }

    /// Removes session `name` (all its manifests); returns whether it existed. Its
    /// blobs stay (other sessions may share them; [`Store::gc`] removes them once no
    /// manifest references them). A session saved again later starts over. Blocks on
    /// I/O.
    ///
    /// ```
    /// use shellbox::fs::{Clock, Fs};
    /// use shellbox::store::{Snapshot, Store};
    /// let dir = std::env::temp_dir().join(format!("shellbox-doc-delete-{}", std::process::id()));
    /// let store = Store::open(&dir)?;
    /// store.save("gone", &Snapshot { fs: Fs::new(Clock::virtual_at(0)), meta: serde_json::json!({}) })?;
    /// assert!(store.delete("gone")?);
    /// assert!(store.load("gone").is_err());
    /// assert!(!store.delete("gone")?);
    /// # std::fs::remove_dir_all(&dir).ok();
    /// # Ok::<(), shellbox::store::StoreError>(())
    /// ```
    pub fn delete(&self, name: &str) -> Result<bool, StoreError> {
        check_name(name)?;
        let manifests = self.manifests(name)?;
        for (_, key) in &manifests {
            self.inner.backend.delete(key)?;
        }
        self.lock_seen().remove(name);
        Ok(!manifests.is_empty())
    }

    /// Saves a snapshot of session `name` as its newest manifest; returns what it wrote.
    /// When another handle (another host) saved the session since this one last loaded
    /// it (or found it missing) or saved it, nothing is published and the error is
    /// [`StoreErrorKind::Conflict`]. Blocks on I/O.
    pub fn save(&self, name: &str, snapshot: &Snapshot) -> Result<SaveReport, StoreError> {
        self.save_after(name, snapshot, None)
    }

    /// [`Store::save`] of a snapshot derived from manifest `base` of session `name`
    /// (the [`LoadReport::seq`] it was loaded from, or the [`SaveReport::seq`] of its
    /// last save), whichever handle did that: when the session has a newer manifest
    /// than `base`, the error is [`StoreErrorKind::Conflict`] and nothing is published.
    /// `None` is [`Store::save`]: this handle's own memory of the session decides. A
    /// host that opens a fresh handle for each save (as the bindings do) passes the
    /// base it kept, so two hosts never supersede each other's work unseen.
    ///
    /// ```
    /// use shellbox::fs::{Clock, Fs};
    /// use shellbox::store::{Snapshot, Store, StoreErrorKind};
    /// let dir = std::env::temp_dir().join(format!("shellbox-doc-after-{}", std::process::id()));
    /// let snap = Snapshot { fs: Fs::new(Clock::virtual_at(0)), meta: serde_json::json!({}) };
    /// let first = Store::open(&dir)?.save("s", &snap)?;
    /// Store::open(&dir)?.save_after("s", &snap, Some(first.seq))?; // snapshot 2
    /// let late = Store::open(&dir)?.save_after("s", &snap, Some(first.seq)).unwrap_err();
    /// assert_eq!(late.kind, StoreErrorKind::Conflict);
    /// # std::fs::remove_dir_all(&dir).ok();
    /// # Ok::<(), shellbox::store::StoreError>(())
    /// ```
    pub fn save_after(
        &self,
        name: &str,
        snapshot: &Snapshot,
        base: Option<u64>,
    ) -> Result<SaveReport, StoreError> {
        check_name(name)?;
        // Files still on the host are read now; one that no longer reads as it was
        // listed fails the save rather than being saved wrong.
        snapshot
            .fs
            .check_host_files()
            .map_err(|m| StoreError::new(StoreErrorKind::Io, None, m))?;
        let existing = self.manifests(name)?;
        let latest = existing.last().map(|(seq, _)| *seq);
        let seen = base.or_else(|| self.lock_seen().get(name).copied());
        if let (Some(latest), Some(seen)) = (latest, seen)
            && latest > seen
        {
            return Err(self.conflict(name, latest, seen));
        }
        let seq = latest.map_or(1, |l| l + 1);
        let image = snapshot.fs.to_image();
        let table: HashMap<Ino, &InodeImage> = image.inodes.iter().map(|(i, n)| (*i, n)).collect();
        let mut saver = Saver {
            backend: &*self.inner.backend,
            known: &self.inner.known,
            table: &table,
            old_hashes: std::mem::take(&mut *self.lock_hashes()),
            new_hashes: HashMap::new(),
            pending: Vec::new(),
            queued: HashSet::new(),
            relied: Vec::new(),
            blobs_written: 0,
            bytes_written: 0,
        };
        let result = saver.save(name, seq, &image, &snapshot.meta);
        *self.lock_hashes() = saver.new_hashes;
        let (manifest, manifest_bytes) = match result? {
            Some(published) => published,
            None => {
                let latest = self.manifests(name)?.last().map_or(seq, |(s, _)| *s);
                return Err(self.conflict(name, latest, seq - 1));
            }
        };
        self.lock_seen().insert(name.to_owned(), seq);
        let keep_from = (existing.len() + 1).saturating_sub(KEEP_MANIFESTS);
        for (_, old) in existing.iter().take(keep_from) {
            let _ = self.inner.backend.delete(old);
        }
        Ok(SaveReport {
            seq,
            manifest,
            blobs_written: saver.blobs_written,
            blob_bytes_written: saver.bytes_written,
            manifest_bytes,
        })
    }

    /// Loads the newest complete snapshot of session `name`, verifying every blob.
    /// Damaged newer manifests are skipped and listed in [`LoadReport::discarded`]; if none
    /// is complete the error names the session directory. A session with no snapshot
    /// is [`StoreErrorKind::NotFound`], and counts as seen empty: this handle's next
    /// [`Store::save`] of it is a conflict if another host has saved it meanwhile.
    pub fn load(&self, name: &str) -> Result<Loaded, StoreError> {
        check_name(name)?;
        let manifests = self.manifests(name)?;
        let Some(newest) = manifests.last().map(|(seq, _)| *seq) else {
            // Finding no session is seeing it empty: a save from here starts it, and
            // is a conflict if another host starts it first (not a save over its work).
            self.lock_seen().insert(name.to_owned(), 0);
            return Err(StoreError::new(
                StoreErrorKind::NotFound,
                None,
                format!("the store has no session named {name:?}"),
            ));
        };
        let mut discarded = Vec::new();
        for (seq, key) in manifests.into_iter().rev() {
            let path = self.inner.backend.location(&key);
            match self.load_manifest(&key) {
                Ok((fs, meta)) => {
                    // Damaged newer manifests were seen too: saving next goes past them.
                    self.lock_seen().insert(name.to_owned(), newest);
                    let report = LoadReport {
                        seq,
                        manifest: path,
                        discarded,
                    };
                    return Ok(Loaded { fs, meta, report });
                }
                Err(reason) => discarded.push(Discarded { path, reason }),
            }
        }
        let dir = self.inner.backend.location(&format!("sessions/{name}"));
        let reasons: Vec<String> = discarded
            .iter()
            .map(|d| format!("{}: {}", d.path.display(), d.reason))
            .collect();
        Err(StoreError::new(
            StoreErrorKind::Corrupt,
            Some(&dir),
            format!(
                "session {name:?} has no complete snapshot: {}",
                reasons.join("; ")
            ),
        ))
    }

    /// Removes the blobs that no manifest of any session references, safely while
    /// other hosts save. A collection marks what is unreferenced now; a blob goes only
    /// when a mark at least `grace` old ([`GC_GRACE`] is the usual value) found it
    /// unreferenced too, so a save that found a blob stored and is about to publish a
    /// manifest naming it keeps it (a save also checks, after publishing, that the
    /// blobs it counted on are still there, and writes any that are not).
    pub fn gc(&self, grace: Duration) -> Result<GcReport, StoreError> {
        let referenced = self.referenced()?;
        let backend = &*self.inner.backend;
        let unreferenced: Vec<Listed> = backend
            .list("blobs/")?
            .into_iter()
            .filter(|l| blob_hash(&l.key).is_some_and(|h| !referenced.contains(&h)))
            .collect();
        let now = SystemTime::now();
        let secs = |t: SystemTime| {
            t.duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        };
        let marks: Option<GcMarks> = backend
            .get(GC_MARKS)?
            .and_then(|b| serde_json::from_slice(&b).ok());
        let mut report = GcReport {
            referenced: referenced.len() as u64,
            unreferenced: unreferenced.len() as u64,
            ..GcReport::default()
        };
        let due = marks
            .as_ref()
            .is_none_or(|m| secs(now).saturating_sub(m.at) >= grace.as_secs());
        if !due {
            return Ok(report);
        }
        let marked: HashSet<&str> = marks
            .as_ref()
            .map(|m| m.unreferenced.iter().map(String::as_str).collect())
            .unwrap_or_default();
        let mut still = Vec::new();
        for l in &unreferenced {
            let hash = blob_hash(&l.key).unwrap_or_default();
            if marked.contains(hash.as_str()) {
                backend.delete(&l.key)?;
                report.deleted += 1;
                report.bytes_freed += l.size;
            } else {
                still.push(hash);
            }
        }
        let next = GcMarks {
            at: secs(now),
            unreferenced: still,
        };
        backend.put(GC_MARKS, &format::to_json(&next)?)?;
        self.lock_known().clear();
        Ok(report)
    }

    /// Every blob some manifest of some session references (listings and files).
    fn referenced(&self) -> Result<HashSet<String>, StoreError> {
        let backend = &*self.inner.backend;
        let mut refs = HashSet::new();
        let mut trees: Vec<String> = Vec::new();
        for name in self.sessions()? {
            for (_, key) in self.manifests(&name)? {
                // A damaged manifest references nothing that can be read.
                if let Ok(m) = read_manifest(backend, &key) {
                    collect_refs(&m.root, &mut refs, &mut trees);
                }
            }
        }
        while !trees.is_empty() {
            let keys: Vec<String> = trees.iter().map(|h| blob_key(h)).collect();
            let got = backend.get_many(&keys);
            trees.clear();
            for data in got.into_iter().flatten().flatten() {
                if let Ok(tree) = serde_json::from_slice::<Tree>(&data) {
                    for e in &tree.entries {
                        collect_refs(e, &mut refs, &mut trees);
                    }
                }
            }
        }
        Ok(refs)
    }

    /// The manifests of session `name` by sequence number, oldest first, as keys.
    fn manifests(&self, name: &str) -> Result<Vec<(u64, String)>, StoreError> {
        let prefix = format!("sessions/{name}/");
        let mut out: Vec<(u64, String)> = self
            .inner
            .backend
            .list(&prefix)?
            .into_iter()
            .filter_map(|l| {
                let seq = manifest_seq(l.key.strip_prefix(&prefix)?)?;
                Some((seq, l.key))
            })
            .collect();
        out.sort();
        Ok(out)
    }

    fn conflict(&self, name: &str, latest: u64, seen: u64) -> StoreError {
        let then = if seen == 0 {
            "found no snapshot of it".to_owned()
        } else {
            format!("last read or wrote it (snapshot {seen})")
        };
        StoreError::new(
            StoreErrorKind::Conflict,
            Some(&self.inner.backend.location(&format!("sessions/{name}"))),
            format!(
                "session {name:?} was saved elsewhere (snapshot {latest}) since this handle \
                 {then}; nothing was overwritten: load it again, or save under another name"
            ),
        )
    }

    fn lock_hashes(&self) -> std::sync::MutexGuard<'_, HashCache> {
        self.inner.hashes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The newest manifest of session `name` this handle has loaded past (damaged
    /// newer ones included) or saved, `Some(0)` when its last load found no snapshot:
    /// the base a later [`Store::save_after`] from what it loaded should name.
    pub fn seen(&self, name: &str) -> Option<u64> {
        self.lock_seen().get(name).copied()
    }

    fn lock_seen(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        self.inner.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock_known(&self) -> std::sync::MutexGuard<'_, HashMap<String, Instant>> {
        self.inner.known.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Loads one manifest and everything it references, or says what is wrong. The
    /// tree is read a level at a time, each level's blobs side by side.
    fn load_manifest(&self, key: &str) -> Result<(Fs, Value), String> {
        let backend = &*self.inner.backend;
        let manifest = read_manifest(backend, key)?;
        let mut inodes: BTreeMap<Ino, InodeImage> = BTreeMap::new();
        let mut level = vec![manifest.root.clone()];
        let mut fetched = Vec::new();
        for depth in 0.. {
            if level.is_empty() {
                break;
            }
            if depth > 4096 {
                return Err("directories nest too deeply".to_owned());
            }
            let mut wanted: Vec<String> = level
                .iter()
                .filter_map(|e| match e.kind {
                    Kind::File if !inodes.contains_key(&e.ino) => e.blob.clone(),
                    Kind::Dir => e.tree.clone(),
                    _ => None,
                })
                .collect();
            wanted.sort();
            wanted.dedup();
            let blobs = fetch_blobs(backend, &wanted)?;
            let mut next = Vec::new();
            for e in level {
                if inodes.contains_key(&e.ino) {
                    // A hard link: the inode came in under another name already.
                    if matches!(e.kind, Kind::File | Kind::Fifo) {
                        continue;
                    }
                    return Err(format!("inode {} is listed twice", e.ino));
                }
                let blob = |hash: &str| {
                    blobs
                        .get(hash)
                        .cloned()
                        .ok_or_else(|| format!("blob {hash} was not read"))
                };
                let node = match e.kind {
                    Kind::File => match (&e.inline, &e.blob) {
                        (Some(text), None) => {
                            NodeImage::File(Arc::new(format::decode_inline(text)?))
                        }
                        (None, Some(hash)) => NodeImage::File(blob(hash)?),
                        _ => return Err(format!("file {:?} has no content", e.name)),
                    },
                    Kind::Dir => {
                        let hash = e
                            .tree
                            .as_deref()
                            .ok_or_else(|| format!("directory {:?} has no listing", e.name))?;
                        let tree: Tree = serde_json::from_slice(&blob(hash)?)
                            .map_err(|err| format!("directory listing {hash}: {err}"))?;
                        let names = tree
                            .entries
                            .iter()
                            .map(|c| (c.name.clone(), c.ino))
                            .collect();
                        next.extend(tree.entries);
                        NodeImage::Dir(names)
                    }
                    Kind::Symlink => NodeImage::Symlink(
                        e.target
                            .clone()
                            .ok_or_else(|| format!("symlink {:?} has no target", e.name))?,
                    ),
                    Kind::Fifo => NodeImage::Fifo,
                    Kind::Device => {
                        let name = e.device.as_deref().unwrap_or("");
                        let device = crate::fs::Device::ALL
                            .into_iter()
                            .find(|d| d.name() == name)
                            .ok_or_else(|| format!("unknown device {name:?}"))?;
                        NodeImage::Device(device)
                    }
                };
                inodes.insert(e.ino, e.image(node));
            }
            fetched.extend(wanted);
            level = next;
        }
        let image = FsImage {
            inodes: inodes.into_iter().collect(),
            next_ino: manifest.next_ino,
            now: format::timestamp(manifest.now),
            limits: manifest.limits.into(),
            uid: manifest.uid,
            gid: manifest.gid,
        };
        let fs = Fs::from_image(image, Clock::virtual_at(0))
            .map_err(|e| format!("inconsistent filesystem: {e}"))?;
        // What was read whole need not be asked about by the next save.
        let now = Instant::now();
        self.lock_known()
            .extend(fetched.into_iter().map(|h| (h, now)));
        Ok((fs, manifest.meta))
    }
}

/// What [`Store::gc`] found and did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GcReport {
    /// Blobs some manifest references.
    pub referenced: u64,
    /// Blobs none references (the ones deleted among them).
    pub unreferenced: u64,
    pub deleted: u64,
    pub bytes_freed: u64,
}

/// The last mark of [`Store::gc`]: when, and which blobs were unreferenced then.
#[derive(serde::Serialize, serde::Deserialize)]
struct GcMarks {
    at: u64,
    unreferenced: Vec<String>,
}

/// The blob key of a hash: `blobs/ab/cdef…`.
fn blob_key(hash: &str) -> String {
    let (fan, rest) = hash.split_at(2.min(hash.len()));
    format!("blobs/{fan}/{rest}")
}

/// The hash a blob key names.
fn blob_hash(key: &str) -> Option<String> {
    let rest = key.strip_prefix("blobs/")?;
    let (fan, tail) = rest.split_once('/')?;
    let hash = format!("{fan}{tail}");
    format::is_hash(&hash).then_some(hash)
}

/// The sequence number of a manifest's file name (`000…7.json`).
fn manifest_seq(file: &str) -> Option<u64> {
    let digits = file.strip_suffix(".json")?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// Reads and checks a manifest.
fn read_manifest(backend: &dyn Backend, key: &str) -> Result<Manifest, String> {
    let file = backend
        .get(key)
        .map_err(|e| e.message)?
        .ok_or_else(|| "No such file or directory".to_owned())?;
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

/// Blobs by hash, read side by side and each checked against its hash.
fn fetch_blobs(
    backend: &dyn Backend,
    hashes: &[String],
) -> Result<HashMap<String, Arc<Vec<u8>>>, String> {
    if let Some(bad) = hashes.iter().find(|h| !format::is_hash(h)) {
        return Err(format!("{bad:?} is not a blob hash"));
    }
    let keys: Vec<String> = hashes.iter().map(|h| blob_key(h)).collect();
    let mut out = HashMap::with_capacity(hashes.len());
    for ((hash, key), got) in hashes.iter().zip(&keys).zip(backend.get_many(&keys)) {
        let at = backend.location(key);
        let data = match got {
            Ok(Some(data)) => data,
            Ok(None) => {
                return Err(format!("blob {}: No such file or directory", at.display()));
            }
            Err(e) => return Err(format!("blob {}: {}", at.display(), e.message)),
        };
        if format::sha256_hex(&data) != *hash {
            return Err(format!(
                "blob {} is corrupt: its content does not match its hash",
                at.display()
            ));
        }
        out.insert(hash.clone(), Arc::new(data));
    }
    Ok(out)
}

/// Adds the blobs `e` names to `refs`, and its listing's hash to `trees` to read.
fn collect_refs(e: &Entry, refs: &mut HashSet<String>, trees: &mut Vec<String>) {
    if let Some(hash) = &e.blob {
        refs.insert(hash.clone());
    }
    if let Some(hash) = &e.tree
        && refs.insert(hash.clone())
    {
        trees.push(hash.clone());
    }
}

struct Saver<'a> {
    backend: &'a dyn Backend,
    known: &'a Mutex<HashMap<String, Instant>>,
    table: &'a HashMap<Ino, &'a InodeImage>,
    old_hashes: HashCache,
    new_hashes: HashCache,
    /// Blobs not known to be stored, to check and write.
    pending: Vec<(String, Arc<Vec<u8>>)>,
    queued: HashSet<String>,
    /// Blobs found stored: checked again once the manifest is out.
    relied: Vec<(String, Arc<Vec<u8>>)>,
    blobs_written: u64,
    bytes_written: u64,
}

impl Saver<'_> {
    /// Writes what the manifest needs, then the manifest as number `seq`: its
    /// location and size, or `None` when that number was taken meanwhile.
    fn save(
        &mut self,
        name: &str,
        seq: u64,
        image: &FsImage,
        meta: &Value,
    ) -> Result<Option<(PathBuf, u64)>, StoreError> {
        let root = self.entry(String::new(), crate::fs::ROOT_INO, 0)?;
        let sizes: Vec<(String, u64)> = self
            .pending
            .iter()
            .map(|(hash, data)| (blob_key(hash), data.len() as u64))
            .collect();
        let missing = self.backend.missing(&sizes)?;
        let (write, found): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .zip(missing)
            .partition(|(_, missing)| *missing);
        self.relied.extend(found.into_iter().map(|(blob, _)| blob));
        let write: Vec<(String, Arc<Vec<u8>>)> = write
            .into_iter()
            .map(|((hash, data), _)| (blob_key(&hash), data))
            .collect();
        self.backend.put_blobs(&write)?;
        self.blobs_written += write.len() as u64;
        self.bytes_written += write.iter().map(|(_, d)| d.len() as u64).sum::<u64>();
        let manifest = Manifest {
            format: format::FORMAT,
            session: name.to_owned(),
            now: (image.now.secs, image.now.nanos),
            next_ino: image.next_ino,
            uid: image.uid,
            gid: image.gid,
            limits: image.limits.into(),
            root,
            meta: meta.clone(),
        };
        let body = format::to_json(&manifest)?;
        let mut file = format::manifest_header(&body).into_bytes();
        file.extend_from_slice(&body);
        let key = format!("sessions/{name}/{seq:020}.json");
        if !self.backend.create(&key, &file)? {
            return Ok(None);
        }
        // A collection may have taken a blob this save found stored before the
        // manifest naming it was out: put back any that went.
        let relied: Vec<(String, Arc<Vec<u8>>)> = std::mem::take(&mut self.relied)
            .into_iter()
            .map(|(hash, data)| (blob_key(&hash), data))
            .collect();
        let sizes: Vec<(String, u64)> = relied
            .iter()
            .map(|(k, d)| (k.clone(), d.len() as u64))
            .collect();
        let gone: Vec<(String, Arc<Vec<u8>>)> = relied
            .into_iter()
            .zip(self.backend.missing(&sizes)?)
            .filter_map(|(blob, missing)| missing.then_some(blob))
            .collect();
        self.backend.put_blobs(&gone)?;
        let now = Instant::now();
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known.extend(
            write
                .iter()
                .chain(&gone)
                .filter_map(|(k, _)| blob_hash(k))
                .chain(self.queued.drain())
                .map(|h| (h, now)),
        );
        Ok(Some((self.backend.location(&key), file.len() as u64)))
    }

    fn entry(&mut self, name: String, ino: Ino, depth: usize) -> Result<Entry, StoreError> {
        let inode = self.table.get(&ino).ok_or_else(|| {
            StoreError::new(StoreErrorKind::Io, None, format!("inode {ino} is missing"))
        })?;
        let mut e = Entry::new(name, ino, inode);
        match &inode.node {
            NodeImage::File(data) if data.len() <= INLINE_MAX => {
                e.inline = Some(format::encode_inline(data));
            }
            NodeImage::File(data) => {
                let hash = self.file_hash(data);
                self.put(&hash, data.clone());
                e.blob = Some(hash);
            }
            NodeImage::Dir(entries) => {
                if depth > 4096 {
                    return Err(StoreError::new(
                        StoreErrorKind::Io,
                        None,
                        "directories nest too deeply",
                    ));
                }
                let mut tree = Tree {
                    entries: Vec::with_capacity(entries.len()),
                };
                for (child_name, child) in entries {
                    tree.entries
                        .push(self.entry(child_name.clone(), *child, depth + 1)?);
                }
                let bytes = format::to_json(&tree)?;
                let hash = format::sha256_hex(&bytes);
                self.put(&hash, Arc::new(bytes));
                e.tree = Some(hash);
            }
            NodeImage::Symlink(target) => e.target = Some(target.clone()),
            NodeImage::Device(d) => e.device = Some(d.name().to_owned()),
            // A FIFO is its kind and attributes alone.
            NodeImage::Fifo => {}
        }
        Ok(e)
    }

    /// The SHA-256 of a file's content, from the last save's cache when the buffer is
    /// the same one.
    fn file_hash(&mut self, data: &Arc<Vec<u8>>) -> String {
        let key = Arc::as_ptr(data) as usize;
        let cached = self
            .old_hashes
            .get(&key)
            .filter(|(weak, _)| weak.upgrade().is_some_and(|a| Arc::ptr_eq(&a, data)))
            .map(|(_, h)| h.clone());
        let hash = cached.unwrap_or_else(|| format::sha256_hex(data));
        self.new_hashes
            .insert(key, (Arc::downgrade(data), hash.clone()));
        hash
    }

    /// Queues a blob unless this handle knows it is stored (recently enough).
    fn put(&mut self, hash: &str, data: Arc<Vec<u8>>) {
        if self.queued.contains(hash) {
            return;
        }
        let fresh = self
            .known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(hash)
            .is_some_and(|at| at.elapsed() < KNOWN_FOR);
        if fresh {
            return;
        }
        self.queued.insert(hash.to_owned());
        self.pending.push((hash.to_owned(), data));
    }
}
