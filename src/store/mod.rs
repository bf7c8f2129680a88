//! The durable store: snapshots of a filesystem (plus opaque JSON metadata) saved to a
//! directory so a session outlives the process.
//!
//! Layout of a store directory:
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
//! Every write is atomic (temp file, fsync, rename, fsync of the directory) and the
//! manifest is written last, with a checksum of its own body in its first line. Loading
//! verifies every blob's hash; when the newest manifest or anything it references is
//! torn or corrupt, the previous complete snapshot is loaded and the report says what
//! was discarded and why.

mod format;
mod io;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

use serde_json::Value;

use crate::fs::{Clock, Fs, FsImage, Ino, InodeImage, NodeImage};
use format::{Entry, Kind, Manifest, Tree};
use io::Disk;
pub use io::FaultPlan;

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
    _file: std::fs::File,
}

/// A store directory. Cloning gives another handle to the same store.
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
            .field("root", &self.inner.disk.root)
            .finish_non_exhaustive()
    }
}

struct Inner {
    disk: Disk,
    /// Blobs this handle has written or found whole, so later saves skip the check.
    known: Mutex<HashSet<String>>,
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
    /// Opens the store in `dir`, creating it if needed.
    pub fn open(dir: impl AsRef<Path>) -> Result<Store, StoreError> {
        Ok(Store {
            inner: Arc::new(Inner {
                disk: Disk::open(dir.as_ref())?,
                known: Mutex::new(HashSet::new()),
                hashes: Mutex::new(HashMap::new()),
            }),
        })
    }

    /// The store's directory.
    pub fn root(&self) -> &Path {
        &self.inner.disk.root
    }

    /// Makes later writes fail as a crash would (for tests of crash safety).
    #[doc(hidden)]
    pub fn inject_faults(&self, plan: Option<FaultPlan>) {
        self.inner.disk.inject(plan);
    }

    /// The names of the sessions with at least one manifest, sorted.
    pub fn sessions(&self) -> Result<Vec<String>, StoreError> {
        self.inner.disk.sessions()
    }

    /// Holds session `name` for this caller until the lock is dropped: a second
    /// [`Store::lock`] of the same session, from any process or handle, fails with
    /// [`StoreErrorKind::Busy`] instead of both saving over each other's work. The
    /// lock is an OS file lock on `sessions/NAME.lock` (released when the holder ends,
    /// however it ends). `load` and `save` do not take it: hosts that share a store
    /// take it around a session's use, as the CLI does.
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
        let path = self
            .inner
            .disk
            .root
            .join("sessions")
            .join(format!("{name}.lock"));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::io(dir, &e))?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| StoreError::io(&path, &e))?;
        match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(SessionLock { _file: file }),
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

    /// Removes session `name` (all its manifests); returns whether it existed. Its
    /// blobs stay (other sessions may share them). A session saved again later starts
    /// over. Blocks on disk I/O.
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
        let dir = self.inner.disk.session_dir(name);
        match std::fs::remove_dir_all(&dir) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(StoreError::io(&dir, &e)),
        }
    }

    /// Saves a snapshot of session `name` as its newest manifest; returns what it wrote.
    /// Blocks on disk I/O.
    pub fn save(&self, name: &str, snapshot: &Snapshot) -> Result<SaveReport, StoreError> {
        check_name(name)?;
        // Files still on the host are read now; one that no longer reads as it was
        // listed fails the save rather than being saved wrong.
        snapshot
            .fs
            .check_host_files()
            .map_err(|m| StoreError::new(StoreErrorKind::Io, None, m))?;
        let image = snapshot.fs.to_image();
        let table: HashMap<Ino, &InodeImage> = image.inodes.iter().map(|(i, n)| (*i, n)).collect();
        let mut known = self.inner.known.lock().unwrap_or_else(|e| e.into_inner());
        let mut saver = Saver {
            disk: &self.inner.disk,
            known: &mut known,
            table: &table,
            old_hashes: std::mem::take(&mut *self.lock_hashes()),
            new_hashes: HashMap::new(),
            pending: Vec::new(),
            queued: HashSet::new(),
            blobs_written: 0,
            bytes_written: 0,
        };
        let result = saver.save(name, &image, &snapshot.meta);
        *self.lock_hashes() = saver.new_hashes;
        let (seq, manifest, manifest_bytes) = result?;
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
    /// is complete the error names the session directory.
    pub fn load(&self, name: &str) -> Result<Loaded, StoreError> {
        check_name(name)?;
        let manifests = self.inner.disk.manifests(name)?;
        if manifests.is_empty() {
            return Err(StoreError::new(
                StoreErrorKind::NotFound,
                None,
                format!("the store has no session named {name:?}"),
            ));
        }
        let mut discarded = Vec::new();
        for (seq, path) in manifests.into_iter().rev() {
            match self.load_manifest(&path) {
                Ok((fs, meta)) => {
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
        let dir = self.inner.disk.session_dir(name);
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

    fn lock_hashes(&self) -> std::sync::MutexGuard<'_, HashCache> {
        self.inner.hashes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Loads one manifest and everything it references, or says what is wrong.
    fn load_manifest(&self, path: &Path) -> Result<(Fs, Value), String> {
        let manifest = self.inner.disk.read_manifest(path)?;
        let mut loader = Loader {
            disk: &self.inner.disk,
            inodes: BTreeMap::new(),
        };
        let root = manifest.root.clone();
        loader.add(root, 0)?;
        let image = FsImage {
            inodes: loader.inodes.into_iter().collect(),
            next_ino: manifest.next_ino,
            now: format::timestamp(manifest.now),
            limits: manifest.limits.into(),
            uid: manifest.uid,
            gid: manifest.gid,
        };
        let fs = Fs::from_image(image, Clock::virtual_at(0))
            .map_err(|e| format!("inconsistent filesystem: {e}"))?;
        Ok((fs, manifest.meta))
    }
}

/// One save: turns the inode table into blobs, writing those the store lacks.
struct Saver<'a> {
    disk: &'a Disk,
    known: &'a mut HashSet<String>,
    table: &'a HashMap<Ino, &'a InodeImage>,
    old_hashes: HashCache,
    new_hashes: HashCache,
    /// Blobs to write, once the whole tree is known.
    pending: Vec<(String, Arc<Vec<u8>>)>,
    queued: HashSet<String>,
    blobs_written: u64,
    bytes_written: u64,
}

impl Saver<'_> {
    fn save(
        &mut self,
        name: &str,
        image: &FsImage,
        meta: &Value,
    ) -> Result<(u64, PathBuf, u64), StoreError> {
        let root = self.entry(String::new(), crate::fs::ROOT_INO, 0)?;
        self.disk.write_blobs(&self.pending)?;
        for (hash, data) in self.pending.drain(..) {
            self.blobs_written += 1;
            self.bytes_written += data.len() as u64;
            self.known.insert(hash);
        }
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
        self.disk.write_manifest(name, &manifest)
    }

    /// The record of inode `ino` under `name`, writing its content's blobs.
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
        }
        Ok(e)
    }

    /// The hash of a file's content, reusing the previous save's when the buffer is
    /// the very same one.
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

    /// Queues a blob unless the store has it.
    fn put(&mut self, hash: &str, data: Arc<Vec<u8>>) {
        if self.known.contains(hash) || self.queued.contains(hash) {
            return;
        }
        if self.disk.has_blob(hash, data.len()) {
            self.known.insert(hash.to_owned());
            return;
        }
        self.queued.insert(hash.to_owned());
        self.pending.push((hash.to_owned(), data));
    }
}

/// One load: rebuilds the inode table from verified blobs.
struct Loader<'a> {
    disk: &'a Disk,
    inodes: BTreeMap<Ino, InodeImage>,
}

impl Loader<'_> {
    fn add(&mut self, e: Entry, depth: usize) -> Result<(), String> {
        if depth > 4096 {
            return Err("directories nest too deeply".to_owned());
        }
        if self.inodes.contains_key(&e.ino) {
            // A hard link: the inode came in under another name already.
            return if e.kind == Kind::File {
                Ok(())
            } else {
                Err(format!("inode {} is listed twice", e.ino))
            };
        }
        let node = match e.kind {
            Kind::File => match (&e.inline, &e.blob) {
                (Some(text), None) => NodeImage::File(Arc::new(format::decode_inline(text)?)),
                (None, Some(hash)) => NodeImage::File(Arc::new(self.disk.get_blob(hash)?)),
                _ => return Err(format!("file {:?} has no content", e.name)),
            },
            Kind::Dir => {
                let hash = e
                    .tree
                    .as_deref()
                    .ok_or_else(|| format!("directory {:?} has no listing", e.name))?;
                let tree: Tree = serde_json::from_slice(&self.disk.get_blob(hash)?)
                    .map_err(|err| format!("directory listing {hash}: {err}"))?;
                let names = tree
                    .entries
                    .iter()
                    .map(|c| (c.name.clone(), c.ino))
                    .collect();
                for child in tree.entries {
                    self.add(child, depth + 1)?;
                }
                NodeImage::Dir(names)
            }
            Kind::Symlink => NodeImage::Symlink(
                e.target
                    .clone()
                    .ok_or_else(|| format!("symlink {:?} has no target", e.name))?,
            ),
            Kind::Device => {
                let name = e.device.as_deref().unwrap_or("");
                let device = crate::fs::Device::ALL
                    .into_iter()
                    .find(|d| d.name() == name)
                    .ok_or_else(|| format!("unknown device {name:?}"))?;
                NodeImage::Device(device)
            }
        };
        self.inodes.insert(e.ino, e.image(node));
        Ok(())
    }
}
