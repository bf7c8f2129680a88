//! The store's on-disk records: manifests (one per save) and directory listings (tree
//! blobs), as strict JSON (unknown fields are refused, so a damaged record does not
//! load as something else).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{StoreError, StoreErrorKind};
use crate::fs::{FsLimits, Ino, InodeImage, NodeImage, Timestamp};

/// The version of manifests and tree blobs.
pub(super) const FORMAT: u32 = 1;

/// What kind of inode an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Kind {
    File,
    Dir,
    Symlink,
    Device,
    Fifo,
}

/// One inode under one name: its attributes and where its content is. Exactly one
/// content field is set, as the kind requires.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Entry {
    pub(super) name: String,
    pub(super) ino: Ino,
    pub(super) kind: Kind,
    pub(super) mode: u32,
    pub(super) uid: u32,
    pub(super) gid: u32,
    pub(super) atime: (i64, u32),
    pub(super) mtime: (i64, u32),
    pub(super) ctime: (i64, u32),
    /// A small file's bytes, base64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) inline: Option<String>,
    /// A file's content blob.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) blob: Option<String>,
    /// A directory's listing blob.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) tree: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) device: Option<String>,
}

fn pair(t: Timestamp) -> (i64, u32) {
    (t.secs, t.nanos)
}

/// A timestamp from its record.
pub(super) fn timestamp((secs, nanos): (i64, u32)) -> Timestamp {
    Timestamp {
        secs,
        nanos: nanos.min(999_999_999),
    }
}

impl Entry {
    /// The record of `inode` under `name`, with no content field set yet.
    pub(super) fn new(name: String, ino: Ino, inode: &InodeImage) -> Entry {
        let kind = match inode.node {
            NodeImage::File(_) => Kind::File,
            NodeImage::Dir(_) => Kind::Dir,
            NodeImage::Symlink(_) => Kind::Symlink,
            NodeImage::Device(_) => Kind::Device,
            NodeImage::Fifo => Kind::Fifo,
        };
        Entry {
            name,
            ino,
            kind,
            mode: inode.mode,
            uid: inode.uid,
            gid: inode.gid,
            atime: pair(inode.atime),
            mtime: pair(inode.mtime),
            ctime: pair(inode.ctime),
            inline: None,
            blob: None,
            tree: None,
            target: None,
            device: None,
        }
    }

    /// The inode this entry describes, holding `node`.
    pub(super) fn image(&self, node: NodeImage) -> InodeImage {
        InodeImage {
            node,
            mode: self.mode,
            uid: self.uid,
            gid: self.gid,
            atime: timestamp(self.atime),
            mtime: timestamp(self.mtime),
            ctime: timestamp(self.ctime),
        }
    }
}

/// A directory listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Tree {
    pub(super) entries: Vec<Entry>,
}

/// The filesystem limits, as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct Limits {
    max_total_bytes: u64,
    max_file_bytes: u64,
    max_files: u64,
    max_path_depth: u64,
    max_name_len: u64,
}

impl From<FsLimits> for Limits {
    fn from(l: FsLimits) -> Limits {
        Limits {
            max_total_bytes: l.max_total_bytes,
            max_file_bytes: l.max_file_bytes,
            max_files: l.max_files,
            max_path_depth: l.max_path_depth as u64,
            max_name_len: l.max_name_len as u64,
        }
    }
}

impl From<Limits> for FsLimits {
    fn from(l: Limits) -> FsLimits {
        FsLimits {
            max_total_bytes: l.max_total_bytes,
            max_file_bytes: l.max_file_bytes,
            max_files: l.max_files,
            max_path_depth: usize::try_from(l.max_path_depth).unwrap_or(usize::MAX),
            max_name_len: usize::try_from(l.max_name_len).unwrap_or(usize::MAX),
        }
    }
}

/// One save of one session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct Manifest {
    pub(super) format: u32,
    pub(super) session: String,
    /// The virtual clock at the save.
    pub(super) now: (i64, u32),
    pub(super) next_ino: Ino,
    pub(super) uid: u32,
    pub(super) gid: u32,
    pub(super) limits: Limits,
    /// The root directory (named "").
    pub(super) root: Entry,
    /// The caller's metadata.
    pub(super) meta: Value,
}

/// SHA-256 in lowercase hex.
pub(super) fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `s` is a SHA-256 in lowercase hex (so it can safely name a file).
pub(super) fn is_hash(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

pub(super) fn to_json<T: Serialize>(value: &T) -> Result<Vec<u8>, StoreError> {
    serde_json::to_vec(value)
        .map_err(|e| StoreError::new(StoreErrorKind::Io, None, format!("encoding a record: {e}")))
}

pub(super) fn encode_inline(data: &[u8]) -> String {
    String::from_utf8_lossy(&crate::commands::base64::encode(data)).into_owned()
}

pub(super) fn decode_inline(text: &str) -> Result<Vec<u8>, String> {
    crate::commands::base64::decode(text.as_bytes(), false)
        .map_err(|_| format!("inline content {text:?} is not base64"))
}

/// The first line of a manifest file: a magic word, the format, and the SHA-256 and
/// length of the body that follows.
pub(super) fn manifest_header(body: &[u8]) -> String {
    format!(
        "shellbox-manifest {FORMAT} {} {}\n",
        sha256_hex(body),
        body.len()
    )
}

/// The body of a manifest file, checked against its header.
pub(super) fn manifest_body(file: &[u8]) -> Result<&[u8], String> {
    let nl = file
        .iter()
        .position(|&b| b == b'\n')
        .ok_or("the header line is incomplete")?;
    let (header, rest) = file.split_at(nl);
    let body = rest.get(1..).unwrap_or_default();
    let header = String::from_utf8_lossy(header);
    let fields: Vec<&str> = header.split(' ').collect();
    let [magic, format, hash, len] = fields.as_slice() else {
        return Err(format!("malformed header {header:?}"));
    };
    if *magic != "shellbox-manifest" || *format != FORMAT.to_string() {
        return Err(format!("not a format {FORMAT} manifest: {header:?}"));
    }
    if len.parse::<usize>().ok() != Some(body.len()) {
        return Err(format!(
            "truncated: the header says {len} bytes, the body has {}",
            body.len()
        ));
    }
    if sha256_hex(body) != *hash {
        return Err("the body does not match its checksum".to_owned());
    }
    Ok(body)
}
