//! Virtual path helpers: lexical joining and normalisation of `/`-separated paths.
//! Never `std::path`: virtual paths are not host paths.
#![allow(unused_variables, clippy::todo)]

/// Joins `path` onto `cwd` if it is relative and normalises `.` and `..` lexically
/// (`..` at `/` stays at `/`); the result is absolute with no trailing slash (except `/`).
pub fn join(cwd: &str, path: &str) -> String {
    todo!()
}

/// The last component (`basename` without suffix handling); "/" for "/".
pub fn file_name(path: &str) -> &str {
    todo!()
}

/// The parent directory ("/" for "/" and for top-level entries).
pub fn parent(path: &str) -> &str {
    todo!()
}
