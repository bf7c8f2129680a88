//! Error kinds of filesystem operations: the POSIX errno values the filesystem can
//! produce, displayed with glibc's strerror(3) text so commands print what GNU tools do.

/// POSIX error kinds, displayed with strerror's text.
///
/// ```
/// use shellbox::fs::Errno;
/// assert_eq!(Errno::ENOENT.strerror(), "No such file or directory");
/// assert_eq!(Errno::ENOENT.code(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Errno {
    ENOENT,
    EEXIST,
    ENOTDIR,
    EISDIR,
    ENOTEMPTY,
    EACCES,
    EPERM,
    ELOOP,
    EINVAL,
    ENOSPC,
    EFBIG,
    ENAMETOOLONG,
    EXDEV,
    EBUSY,
    EBADF,
    /// A file seeded from the host can no longer be read as it was seen.
    EIO,
    /// A device with nothing behind it: `/dev/tty` with no controlling terminal.
    ENXIO,
}

impl Errno {
    /// Every error kind, in declaration order.
    pub const ALL: [Errno; 17] = [
        Errno::ENOENT,
        Errno::EEXIST,
        Errno::ENOTDIR,
        Errno::EISDIR,
        Errno::ENOTEMPTY,
        Errno::EACCES,
        Errno::EPERM,
        Errno::ELOOP,
        Errno::EINVAL,
        Errno::ENOSPC,
        Errno::EFBIG,
        Errno::ENAMETOOLONG,
        Errno::EXDEV,
        Errno::EBUSY,
        Errno::EBADF,
        Errno::EIO,
        Errno::ENXIO,
    ];

    /// strerror(3) text, e.g. "No such file or directory".
    pub fn strerror(self) -> &'static str {
        match self {
            Errno::ENOENT => "No such file or directory",
            Errno::EEXIST => "File exists",
            Errno::ENOTDIR => "Not a directory",
            Errno::EISDIR => "Is a directory",
            Errno::ENOTEMPTY => "Directory not empty",
            Errno::EACCES => "Permission denied",
            Errno::EPERM => "Operation not permitted",
            Errno::ELOOP => "Too many levels of symbolic links",
            Errno::EINVAL => "Invalid argument",
            Errno::ENOSPC => "No space left on device",
            Errno::EFBIG => "File too large",
            Errno::ENAMETOOLONG => "File name too long",
            Errno::EXDEV => "Invalid cross-device link",
            Errno::EBUSY => "Device or resource busy",
            Errno::EBADF => "Bad file descriptor",
            Errno::EIO => "Input/output error",
            Errno::ENXIO => "No such device or address",
        }
    }

    /// The Linux errno number (what `$?`-style diagnostics or `strace` would show).
    ///
    /// ```
    /// assert_eq!(shellbox::fs::Errno::EACCES.code(), 13);
    /// ```
    pub fn code(self) -> i32 {
        match self {
            Errno::EPERM => 1,
            Errno::ENOENT => 2,
            Errno::EIO => 5,
            Errno::ENXIO => 6,
            Errno::EBADF => 9,
            Errno::EACCES => 13,
            Errno::EBUSY => 16,
            Errno::EEXIST => 17,
            Errno::EXDEV => 18,
            Errno::ENOTDIR => 20,
            Errno::EISDIR => 21,
            Errno::EINVAL => 22,
            Errno::EFBIG => 27,
            Errno::ENOSPC => 28,
            Errno::ENAMETOOLONG => 36,
            Errno::ENOTEMPTY => 39,
            Errno::ELOOP => 40,
        }
    }

    /// The closest [`std::io::ErrorKind`], for callers that speak `std::io`.
    pub fn io_kind(self) -> std::io::ErrorKind {
        use std::io::ErrorKind as K;
        match self {
            Errno::ENOENT => K::NotFound,
            Errno::EEXIST => K::AlreadyExists,
            Errno::ENOTDIR => K::NotADirectory,
            Errno::EISDIR => K::IsADirectory,
            Errno::ENOTEMPTY => K::DirectoryNotEmpty,
            Errno::EACCES | Errno::EPERM => K::PermissionDenied,
            Errno::EINVAL | Errno::ENAMETOOLONG => K::InvalidInput,
            Errno::ENOSPC => K::StorageFull,
            Errno::EFBIG => K::FileTooLarge,
            Errno::EXDEV => K::CrossesDevices,
            Errno::EBUSY => K::ResourceBusy,
            Errno::ELOOP | Errno::EBADF | Errno::EIO | Errno::ENXIO => K::Other,
        }
    }
}

impl std::fmt::Display for Errno {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.strerror())
    }
}

/// A failed filesystem operation: the error kind (the path is the caller's to print).
///
/// ```
/// use shellbox::fs::{Errno, FsError};
/// let e = FsError::from(Errno::EISDIR);
/// assert_eq!(format!("cat: d: {e}"), "cat: d: Is a directory");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FsError {
    pub errno: Errno,
}

impl FsError {
    /// Whether this error is of kind `errno`.
    pub fn is(&self, errno: Errno) -> bool {
        self.errno == errno
    }
}

impl std::fmt::Display for FsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.errno.strerror())
    }
}

impl std::error::Error for FsError {}

impl From<Errno> for FsError {
    fn from(errno: Errno) -> FsError {
        FsError { errno }
    }
}

/// An [`std::io::Error`] of the matching kind whose message is the strerror text.
impl From<FsError> for std::io::Error {
    fn from(e: FsError) -> std::io::Error {
        std::io::Error::new(e.errno.io_kind(), e)
    }
}

/// The result of a filesystem operation.
pub type FsResult<T> = Result<T, FsError>;

#[cfg(test)]
mod tests {
    use super::*;

    fn check(errno: Errno, text: &str, code: i32) {
        assert_eq!(errno.strerror(), text, "{errno:?}");
        assert_eq!(errno.to_string(), text);
        assert_eq!(FsError::from(errno).to_string(), text);
        assert_eq!(errno.code(), code, "{errno:?}");
        let io: std::io::Error = FsError::from(errno).into();
        assert_eq!(io.to_string(), text);
    }

    #[test]
    fn strerror_texts_match_glibc() {
        for (errno, text, code) in [
            (Errno::ENOENT, "No such file or directory", 2),
            (Errno::EEXIST, "File exists", 17),
            (Errno::ENOTDIR, "Not a directory", 20),
            (Errno::EISDIR, "Is a directory", 21),
            (Errno::ENOTEMPTY, "Directory not empty", 39),
            (Errno::EACCES, "Permission denied", 13),
            (Errno::EPERM, "Operation not permitted", 1),
            (Errno::ELOOP, "Too many levels of symbolic links", 40),
            (Errno::EINVAL, "Invalid argument", 22),
            (Errno::ENOSPC, "No space left on device", 28),
            (Errno::EFBIG, "File too large", 27),
            (Errno::ENAMETOOLONG, "File name too long", 36),
            (Errno::EXDEV, "Invalid cross-device link", 18),
            (Errno::EBUSY, "Device or resource busy", 16),
            (Errno::EBADF, "Bad file descriptor", 9),
            (Errno::EIO, "Input/output error", 5),
            (Errno::ENXIO, "No such device or address", 6),
        ] {
            check(errno, text, code);
        }
    }

    #[test]
    fn all_lists_every_kind_once() {
        let mut codes: Vec<i32> = Errno::ALL.iter().map(|e| e.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), Errno::ALL.len());
    }
}
