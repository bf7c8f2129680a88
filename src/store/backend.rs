//! Where a store keeps its objects: the [`Backend`] trait, over keys such as
//! `blobs/ab/cdef…` and `sessions/NAME/000…7.json`, with two implementations: a local
//! directory ([`super::io::Disk`], one file per key) and S3-compatible object storage
//! ([`super::s3::S3`], one object per key under a prefix).
//!
//! What the store needs of a backend is small and the same on both: whole-object reads
//! and writes (never a partly visible object), a create that fails when the key exists
//! (how a manifest is published without overwriting another host's), listing by prefix
//! with sizes and ages (for loading, pruning and garbage collection), and deletes.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::{FaultPlan, SessionLock, StoreError};

/// An object found by [`Backend::list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Its key, relative to the store's root.
    pub key: String,
    pub size: u64,
    /// When it was last written (`UNIX_EPOCH` when the backend does not say).
    pub modified: SystemTime,
}

/// The object storage under a [`super::Store`]. Keys are `/`-separated, made of ASCII
/// letters, digits and `._-` (the store's own names); every method may be called from
/// several threads at once.
pub trait Backend: Send + Sync + 'static {
    /// The store's root, for messages (a directory, or an `s3://` URL).
    fn root(&self) -> PathBuf;

    /// Where `key` is, for reports and messages (a path, or an `s3://` URL).
    fn location(&self, key: &str) -> PathBuf;

    /// The object's bytes; `None` when there is none.
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// Several objects, fetched side by side (at most a few at a time), in order.
    fn get_many(&self, keys: &[String]) -> Vec<Result<Option<Vec<u8>>, StoreError>> {
        keys.iter().map(|k| self.get(k)).collect()
    }

    /// Which of `(key, size)` are not stored with that size (a torn local file has the
    /// wrong size and counts as missing).
    fn missing(&self, items: &[(String, u64)]) -> Result<Vec<bool>, StoreError>;

    /// Writes content-addressed objects, side by side, durably before it returns. An
    /// object that appears meanwhile under the same key is left as it is (the key
    /// names its content).
    fn put_blobs(&self, blobs: &[(String, Arc<Vec<u8>>)]) -> Result<(), StoreError>;

    /// Writes `data` at `key`, replacing what is there (the collector's own notes).
    fn put(&self, key: &str, data: &[u8]) -> Result<(), StoreError>;

    /// Writes `data` at `key` unless something is there: `Ok(false)` when it was.
    fn create(&self, key: &str, data: &[u8]) -> Result<bool, StoreError>;

    /// Every object whose key starts with `prefix`.
    fn list(&self, prefix: &str) -> Result<Vec<Listed>, StoreError>;

    /// Removes an object; a missing one is not an error.
    fn delete(&self, key: &str) -> Result<(), StoreError>;

    /// Holds session `name` for this process ([`super::Store::lock`]). Backends shared
    /// between hosts have no such lock and rely on conditional publishing alone.
    fn lock(&self, name: &str) -> Result<SessionLock, StoreError> {
        let _ = name;
        Ok(SessionLock::shared())
    }

    /// Makes writes fail as [`FaultPlan`] says (tests); backends without fault
    /// injection ignore it.
    fn inject(&self, plan: Option<FaultPlan>) {
        let _ = plan;
    }
}

/// Runs `f` on every item on up to `width` threads (this one among them, so a thread
/// that cannot be started only slows it down); the first error wins and stops the
/// others at their next item.
pub(super) fn parallel<T: Sync>(
    items: &[T],
    width: usize,
    f: impl Fn(&T) -> Result<(), StoreError> + Sync,
) -> Result<(), StoreError> {
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<StoreError>> = Mutex::new(None);
    let lock = || failed.lock().unwrap_or_else(|e| e.into_inner());
    let work = || {
        while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
            if lock().is_some() {
                return;
            }
            if let Err(e) = f(item) {
                lock().get_or_insert(e);
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..width.min(items.len()) {
            let _ = std::thread::Builder::new().spawn_scoped(scope, work);
        }
        work();
    });
    failed
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .map_or(Ok(()), Err)
}
