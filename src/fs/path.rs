//! Virtual path helpers: lexical joining and normalisation of `/`-separated paths.
//! Never `std::path`: virtual paths are not host paths.

/// Joins `path` onto `cwd` if it is relative and normalises `.` and `..` lexically
/// (`..` at `/` stays at `/`); the result is absolute with no trailing slash (except `/`).
///
/// Purely lexical: `a/link/..` becomes `a` even if `link` is a symlink, which is what
/// `cd -L` and display names want; the filesystem resolves `..` physically.
///
/// ```
/// use shellbox::fs::path::join;
/// assert_eq!(join("/workspace", "src//x.rs"), "/workspace/src/x.rs");
/// assert_eq!(join("/a/b", "../c/."), "/a/c");
/// assert_eq!(join("/a", "/../../etc/"), "/etc");
/// ```
pub fn join(cwd: &str, path: &str) -> String {
    // Most paths handed in are absolute and normal already: no splitting, one copy.
    if is_normal_absolute(path) {
        return path.to_owned();
    }
    let mut parts: Vec<&str> = Vec::new();
    let base = if path.starts_with('/') { "" } else { cwd };
    for comp in base.split('/').chain(path.split('/')) {
        match comp {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    let mut out = String::with_capacity(base.len() + path.len() + 1);
    for part in &parts {
        out.push('/');
        out.push_str(part);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// Whether `path` is absolute with no empty, `.` or `..` component and no trailing
/// slash (so [`join`] would return it unchanged); `/` is.
fn is_normal_absolute(path: &str) -> bool {
    let Some(rest) = path.strip_prefix('/') else {
        return false;
    };
    rest.is_empty() || rest.split('/').all(|c| !matches!(c, "" | "." | ".."))
}

/// The last component (`basename` without suffix handling); "/" for "/".
///
/// ```
/// use shellbox::fs::path::file_name;
/// assert_eq!(file_name("/a/b.txt"), "b.txt");
/// assert_eq!(file_name("/a/b/"), "b");
/// assert_eq!(file_name("/"), "/");
/// ```
pub fn file_name(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "" } else { "/" };
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// The parent directory ("/" for "/" and for top-level entries).
///
/// Like dirname(1), a relative path without a slash has the parent ".".
///
/// ```
/// use shellbox::fs::path::parent;
/// assert_eq!(parent("/a/b/c"), "/a/b");
/// assert_eq!(parent("/a"), "/");
/// assert_eq!(parent("/"), "/");
/// assert_eq!(parent("x"), ".");
/// ```
pub fn parent(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "." } else { "/" };
    }
    match trimmed.rfind('/') {
        None => ".",
        Some(i) => {
            let head = trimmed.get(..i).unwrap_or("").trim_end_matches('/');
            if head.is_empty() { "/" } else { head }
        }
    }
}

/// Splits a path into its non-empty components (`//a/./b/` gives `a`, `.`, `b`).
pub fn components(path: &str) -> impl DoubleEndedIterator<Item = &str> {
    path.split('/').filter(|c| !c.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(f: fn(&str) -> String, cases: &[(&str, &str)]) {
        for (input, want) in cases {
            assert_eq!(f(input), *want, "input {input:?}");
        }
    }

    #[test]
    fn join_normalises_lexically() {
        check(
            |p| join("/workspace", p),
            &[
                ("a", "/workspace/a"),
                ("a/", "/workspace/a"),
                ("./a/./b", "/workspace/a/b"),
                ("a//b///c", "/workspace/a/b/c"),
                ("..", "/"),
                ("../..", "/"),
                ("../../../etc", "/etc"),
                ("/a/b/../c", "/a/c"),
                ("/", "/"),
                ("//", "/"),
                ("/..", "/"),
                ("", "/workspace"),
                (".", "/workspace"),
                ("/a/./b/.", "/a/b"),
                ("...", "/workspace/..."),
                (".hidden", "/workspace/.hidden"),
                ("/a/b/", "/a/b"),
                ("/a//b", "/a/b"),
                ("/a/b/..", "/a"),
                ("/a/.../b", "/a/.../b"),
                ("/a/..b/.c", "/a/..b/.c"),
            ],
        );
    }

    #[test]
    fn join_with_odd_cwd() {
        for (cwd, path, want) in [
            ("/", "a", "/a"),
            ("/a/b/", "c", "/a/b/c"),
            ("//a//b", "..", "/a"),
            ("/a/../b", "c", "/b/c"),
            ("", "a", "/a"),
        ] {
            assert_eq!(join(cwd, path), want, "{cwd:?} + {path:?}");
        }
    }

    #[test]
    fn file_name_is_the_last_component() {
        check(
            |p| file_name(p).to_owned(),
            &[
                ("/a/b", "b"),
                ("/a/b/", "b"),
                ("/a/b//", "b"),
                ("/a", "a"),
                ("a", "a"),
                ("/", "/"),
                ("///", "/"),
                ("", ""),
                ("/a/..", ".."),
            ],
        );
    }

    #[test]
    fn parent_is_dirname() {
        check(
            |p| parent(p).to_owned(),
            &[
                ("/a/b/c", "/a/b"),
                ("/a/b/c/", "/a/b"),
                ("/a//b", "/a"),
                ("/a", "/"),
                ("/a/", "/"),
                ("/", "/"),
                ("//", "/"),
                ("a", "."),
                ("a/b", "a"),
                ("", "."),
            ],
        );
    }

    #[test]
    fn components_skip_empty() {
        let got: Vec<&str> = components("//a/./b/").collect();
        assert_eq!(got, ["a", ".", "b"]);
        assert_eq!(components("/").count(), 0);
    }
}
