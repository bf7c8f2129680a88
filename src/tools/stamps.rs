//! Read stamps: what a session last read of each file (SHA-256 and byte length of the
//! whole file, keyed by normalised path), so `write_file` and `edit_file` can refuse to
//! overwrite a file the model never saw, or saw only in an older state.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{ErrorKind, ToolError};

/// The fingerprint of a file's whole content at the time it was read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadStamp {
    /// SHA-256 of the content, lowercase hex.
    pub sha256: String,
    /// Length of the content in bytes.
    pub len: u64,
}

impl ReadStamp {
    /// The stamp of `data`.
    ///
    /// ```
    /// let s = shellbox::tools::ReadStamp::of(b"");
    /// assert_eq!(s.len, 0);
    /// assert!(s.sha256.starts_with("e3b0c442"));
    /// ```
    pub fn of(data: &[u8]) -> ReadStamp {
        let digest = Sha256::digest(data);
        ReadStamp {
            sha256: digest.iter().map(|b| format!("{b:02x}")).collect(),
            len: data.len() as u64,
        }
    }

    /// Whether `data` is what was read.
    pub fn matches(&self, data: &[u8]) -> bool {
        self.len == data.len() as u64 && *self == ReadStamp::of(data)
    }
}

/// The stamps of one session (shared by its tool calls; safe to use from many threads).
#[derive(Debug, Default)]
pub struct ReadStamps(Mutex<BTreeMap<String, ReadStamp>>);

impl ReadStamps {
    /// No stamps.
    pub fn new() -> ReadStamps {
        ReadStamps::default()
    }

    /// Stamps restored from [`ReadStamps::to_map`] (a store round trip).
    pub fn from_map(map: BTreeMap<String, ReadStamp>) -> ReadStamps {
        ReadStamps(Mutex::new(map))
    }

    /// Every stamp by path.
    pub fn to_map(&self) -> BTreeMap<String, ReadStamp> {
        self.lock().clone()
    }

    /// The stamp recorded for `path`.
    pub fn get(&self, path: &str) -> Option<ReadStamp> {
        self.lock().get(path).cloned()
    }

    /// Records that `path` was read (or written) with content `data`.
    pub fn record(&self, path: &str, data: &[u8]) {
        self.lock().insert(path.to_owned(), ReadStamp::of(data));
    }

    /// Checks that the model may overwrite existing file `path`, whose content is now
    /// `current`: it must have been read, and not changed since.
    pub(crate) fn check(&self, path: &str, current: &[u8], tool: &str) -> Result<(), ToolError> {
        match self.get(path) {
            None => Err(ToolError::at(
                ErrorKind::NotRead,
                path,
                format!(
                    "{path} already exists and has not been read in this session; \
                     call read_file on it first, then call {tool} again"
                ),
            )),
            Some(stamp) if !stamp.matches(current) => Err(ToolError::at(
                ErrorKind::ChangedSinceRead,
                path,
                format!(
                    "{path} has changed since it was last read (a command or another edit \
                     modified it); call read_file again and base the {tool} call on its \
                     current content"
                ),
            )),
            Some(_) => Ok(()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, ReadStamp>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
