//! Regular files seeded from a host directory whose bytes are read on first use, so
//! that overlaying a large tree (the CLI's `--root`) costs a directory walk rather than
//! a read of every file. The host is only ever read, and only the file seen when
//! seeding: a file replaced on the host since then (another inode, another size, no
//! longer a regular file) reads as an I/O error instead of its new contents.

use std::io::Read;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use super::{Errno, FsResult};

/// A host file's identity and size when seeded, and its bytes once read.
#[derive(Debug)]
pub(crate) struct HostFile {
    path: PathBuf,
    len: u64,
    dev: u64,
    ino: u64,
    /// Read once, for every snapshot that shares this file; a failure is kept too, so
    /// a file reads the same way each time.
    bytes: OnceLock<Result<Arc<Vec<u8>>, Errno>>,
}

impl HostFile {
    /// A host regular file described by `meta` (from `lstat`, so never a link).
    pub(crate) fn new(path: PathBuf, meta: &std::fs::Metadata) -> HostFile {
        use std::os::unix::fs::MetadataExt;
        HostFile {
            path,
            len: meta.len(),
            dev: meta.dev(),
            ino: meta.ino(),
            bytes: OnceLock::new(),
        }
    }

    /// The size when seeded, which is what the file holds for the sandbox.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Where on the host the file is, for error messages.
    pub(crate) fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The file's bytes, read from the host on the first call.
    pub(crate) fn bytes(&self) -> FsResult<&Arc<Vec<u8>>> {
        match self.bytes.get_or_init(|| self.read()) {
            Ok(bytes) => Ok(bytes),
            Err(e) => Err((*e).into()),
        }
    }

    fn read(&self) -> Result<Arc<Vec<u8>>, Errno> {
        use std::os::unix::fs::MetadataExt;
        let file = std::fs::File::open(&self.path).map_err(|_| Errno::EIO)?;
        let meta = file.metadata().map_err(|_| Errno::EIO)?;
        let same = meta.is_file() && meta.dev() == self.dev && meta.ino() == self.ino;
        if !same || meta.len() != self.len {
            return Err(Errno::EIO);
        }
        let want = usize::try_from(self.len).map_err(|_| Errno::EFBIG)?;
        let mut data = Vec::with_capacity(want);
        // One byte more than expected tells a file that grew from one that did not.
        file.take(self.len.saturating_add(1))
            .read_to_end(&mut data)
            .map_err(|_| Errno::EIO)?;
        if data.len() != want {
            return Err(Errno::EIO);
        }
        Ok(Arc::new(data))
    }
}
