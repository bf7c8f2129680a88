//! Path resolution (path_resolution(7)): walks components from `/` with a stack of the
//! directories passed through, so `..` is the physical parent, following symlinks with
//! loop detection and checking search permission on every directory traversed.

use super::inode::{Node, X};
use super::path::components;
use super::{Errno, Fs, FsResult, Ino, ROOT_INO};

/// Symlinks followed in one resolution before giving up with ELOOP (Linux's limit).
pub(crate) const MAX_SYMLINKS: u32 = 40;

/// Whether a symlink named by the final component is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Follow {
    /// Always (stat, open, read_file, chmod).
    Yes,
    /// Only when the path ends in a slash (lstat, readlink, link's source).
    No,
    /// Never: the operation acts on the entry itself (mkdir, unlink, rmdir, rename,
    /// symlink and link targets).
    Never,
}

/// What the final component of a path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Last<'a> {
    /// An entry name in [`Walk::dir`].
    Name(&'a str),
    /// `/` itself (or a followed symlink to it): names `dir`, not an entry.
    Root,
    /// `.`: names `dir`, not an entry.
    Dot,
    /// `..`: names `dir`, not an entry.
    DotDot,
}

/// The outcome of resolving a path.
#[derive(Clone, Debug)]
pub(crate) struct Walk<'a> {
    /// The directories below `/` leading to `dir` (each with the name it was reached by);
    /// every one of them is a physical ancestor of the final entry.
    pub(crate) chain: Vec<(Ino, &'a str)>,
    /// For [`Last::Name`], the directory holding the final entry; otherwise the
    /// directory the path names.
    pub(crate) dir: Ino,
    pub(crate) last: Last<'a>,
    /// The inode the path names, if it exists.
    pub(crate) ino: Option<Ino>,
    /// The path ended with `/` (so it must name a directory).
    pub(crate) trailing_slash: bool,
}

impl<'a> Walk<'a> {
    /// The final entry name, or `err` when the path names a directory by `/`, `.` or `..`.
    pub(crate) fn name(&self, err: Errno) -> FsResult<&'a str> {
        match self.last {
            Last::Name(name) => Ok(name),
            Last::Root | Last::Dot | Last::DotDot => Err(err.into()),
        }
    }

    /// The inode the path names, or ENOENT.
    pub(crate) fn existing(&self) -> FsResult<Ino> {
        self.ino.ok_or_else(|| Errno::ENOENT.into())
    }

    /// Depth (number of components) of the final entry's canonical path.
    pub(crate) fn depth(&self) -> usize {
        match self.last {
            Last::Name(_) => self.chain.len() + 1,
            Last::Root | Last::Dot | Last::DotDot => self.chain.len(),
        }
    }

    /// Whether `ino` is `dir` or one of its ancestors (so moving `ino` to the final
    /// entry would put a directory inside itself).
    pub(crate) fn passes_through(&self, ino: Ino) -> bool {
        ino == self.dir || ino == ROOT_INO || self.chain.iter().any(|(i, _)| *i == ino)
    }

    /// The canonical absolute path of what the walk names.
    pub(crate) fn canonical(&self) -> String {
        let mut out = String::new();
        for (_, name) in &self.chain {
            out.push('/');
            out.push_str(name);
        }
        if let Last::Name(name) = self.last {
            out.push('/');
            out.push_str(name);
        }
        if out.is_empty() {
            out.push('/');
        }
        out
    }
}

impl Fs {
    /// Resolves `path` (absolute; a relative one is taken from `/`). A missing final
    /// component is not an error: the walk reports where it would be created.
    pub(crate) fn walk<'a>(&'a self, path: &'a str, follow: Follow) -> FsResult<Walk<'a>> {
        if path.is_empty() {
            return Err(Errno::ENOENT.into());
        }
        if path.contains('\0') {
            return Err(Errno::EINVAL.into());
        }
        let trailing_slash = path.ends_with('/') && components(path).next().is_some();
        let follow_last = match follow {
            Follow::Yes => true,
            Follow::No => trailing_slash,
            Follow::Never => false,
        };
        // Components still to resolve, next one last; symlink targets are spliced in.
        let mut pending: Vec<&'a str> = components(path).rev().collect();
        let mut chain: Vec<(Ino, &'a str)> = Vec::with_capacity(pending.len());
        let root_inode = self.inode(ROOT_INO)?;
        // The directory being searched, and its inode (carried along, not looked up
        // again on every component).
        let mut dir = ROOT_INO;
        let mut dir_inode = root_inode;
        let mut links = 0;
        let done = |chain, dir, last, ino| {
            Ok(Walk {
                chain,
                dir,
                last,
                ino,
                trailing_slash,
            })
        };
        while let Some(comp) = pending.pop() {
            let is_last = pending.is_empty();
            let Some(entries) = dir_inode.entries() else {
                return Err(Errno::ENOTDIR.into());
            };
            if !self.may(dir_inode, X) {
                return Err(Errno::EACCES.into());
            }
            match comp {
                "." => {
                    if is_last {
                        return done(chain, dir, Last::Dot, Some(dir));
                    }
                }
                ".." => {
                    if chain.pop().is_some() {
                        dir = chain.last().map_or(ROOT_INO, |(ino, _)| *ino);
                        dir_inode = self.inode(dir)?;
                    }
                    if is_last {
                        return done(chain, dir, Last::DotDot, Some(dir));
                    }
                }
                name => {
                    if name.len() > self.limits.max_name_len {
                        return Err(Errno::ENAMETOOLONG.into());
                    }
                    let Some(&child) = entries.get(name) else {
                        if is_last {
                            return done(chain, dir, Last::Name(name), None);
                        }
                        return Err(Errno::ENOENT.into());
                    };
                    let child_inode = self.inode(child)?;
                    match &child_inode.node {
                        Node::Symlink(target) if !is_last || follow_last => {
                            links += 1;
                            if links > MAX_SYMLINKS {
                                return Err(Errno::ELOOP.into());
                            }
                            if target.is_empty() {
                                return Err(Errno::ENOENT.into());
                            }
                            if target.starts_with('/') {
                                chain.clear();
                                dir = ROOT_INO;
                                dir_inode = root_inode;
                            }
                            pending.extend(components(target).rev());
                        }
                        _ if is_last => return done(chain, dir, Last::Name(name), Some(child)),
                        Node::Dir(_) => {
                            if chain.len() >= self.limits.max_path_depth {
                                return Err(Errno::ENAMETOOLONG.into());
                            }
                            chain.push((child, name));
                            dir = child;
                            dir_inode = child_inode;
                        }
                        _ => return Err(Errno::ENOTDIR.into()),
                    }
                }
            }
        }
        // Only `/` (or a followed symlink to it) ends without a final component.
        done(chain, dir, Last::Root, Some(dir))
    }

    /// Resolves a path that must exist; a trailing slash demands a directory.
    pub(crate) fn walk_existing<'a>(
        &'a self,
        path: &'a str,
        follow: Follow,
    ) -> FsResult<(Walk<'a>, Ino)> {
        let walk = self.walk(path, follow)?;
        let ino = walk.existing()?;
        if walk.trailing_slash && !self.inode(ino)?.is_dir() {
            return Err(Errno::ENOTDIR.into());
        }
        Ok((walk, ino))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::{Clock, FsLimits};

    /// /a/b/f, /a/l -> b, /a/abs -> /a/b, /a/up -> .., /a/dangling -> nope,
    /// /a/loop -> loop, /a/f2 (file), /a/deep/link -> ../b/f
    fn fixture() -> FsResult<Fs> {
        let mut fs = Fs::new(Clock::virtual_at(0));
        fs.set_user(0, 0);
        fs.mkdir_all("/a/b", 0o755)?;
        fs.mkdir("/a/deep", 0o755)?;
        fs.write_file("/a/b/f", b"x")?;
        fs.write_file("/a/f2", b"y")?;
        fs.symlink("b", "/a/l")?;
        fs.symlink("/a/b", "/a/abs")?;
        fs.symlink("..", "/a/up")?;
        fs.symlink("nope", "/a/dangling")?;
        fs.symlink("loop", "/a/loop")?;
        fs.symlink("../b/f", "/a/deep/link")?;
        fs.symlink("/", "/a/root")?;
        Ok(fs)
    }

    /// Resolves `path` and describes the outcome as `canonical path` (existing),
    /// `+canonical path` (missing final entry) or the errno.
    fn check(fs: &Fs, follow: Follow, path: &str, want: &str) {
        let got = match fs.walk(path, follow) {
            Ok(w) if w.ino.is_some() => w.canonical(),
            Ok(w) => format!("+{}", w.canonical()),
            Err(e) => format!("{:?}", e.errno),
        };
        assert_eq!(got, want, "{follow:?} {path:?}");
    }

    #[test]
    fn resolution_table() -> FsResult<()> {
        let fs = fixture()?;
        use Follow::*;
        for (follow, path, want) in [
            (Yes, "/", "/"),
            (Yes, "//", "/"),
            (Yes, "/a/b/f", "/a/b/f"),
            (Yes, "/a//b/./f", "/a/b/f"),
            (Yes, "/a/b/../b/f", "/a/b/f"),
            (Yes, "/..", "/"),
            (Yes, "/../../a", "/a"),
            (Yes, "/a/l/f", "/a/b/f"),
            (Yes, "/a/l", "/a/b"),
            (No, "/a/l", "/a/l"),
            (No, "/a/l/", "/a/b"),
            (Never, "/a/l/", "/a/l"),
            (Yes, "/a/abs/f", "/a/b/f"),
            (Yes, "/a/l/..", "/a"),
            (Yes, "/a/abs/../f2", "/a/f2"),
            (Yes, "/a/up/a/b", "/a/b"),
            (Yes, "/a/deep/link", "/a/b/f"),
            (No, "/a/deep/link", "/a/deep/link"),
            (Yes, "/a/root", "/"),
            (Yes, "/a/root/a", "/a"),
            (Yes, "/a/missing", "+/a/missing"),
            (Yes, "/a/dangling", "+/a/nope"),
            (No, "/a/dangling", "/a/dangling"),
            (Yes, "/a/missing/x", "ENOENT"),
            (Yes, "/a/dangling/x", "ENOENT"),
            (Yes, "/a/f2/x", "ENOTDIR"),
            (Yes, "/a/f2/.", "ENOTDIR"),
            (Yes, "/a/f2/..", "ENOTDIR"),
            (Yes, "/a/loop", "ELOOP"),
            (No, "/a/loop", "/a/loop"),
            (Yes, "/a/loop/x", "ELOOP"),
            (Yes, "", "ENOENT"),
            (Yes, "/a/\0", "EINVAL"),
            (Yes, "a/b", "/a/b"),
        ] {
            check(&fs, follow, path, want);
        }
        Ok(())
    }

    #[test]
    fn search_permission_is_needed_on_each_directory() -> FsResult<()> {
        let mut fs = fixture()?;
        fs.chmod("/a/b", 0o644)?;
        fs.set_user(1000, 1000);
        check(&fs, Follow::Yes, "/a/b", "/a/b");
        check(&fs, Follow::Yes, "/a/b/f", "EACCES");
        check(&fs, Follow::Yes, "/a/b/..", "EACCES");
        check(&fs, Follow::Yes, "/a/l/f", "EACCES");
        fs.set_user(0, 0);
        check(&fs, Follow::Yes, "/a/b/f", "/a/b/f");
        Ok(())
    }

    #[test]
    fn symlink_chains_up_to_forty_resolve() -> FsResult<()> {
        let mut fs = fixture()?;
        fs.write_file("/a/t0", b"")?;
        for i in 1..=41 {
            fs.symlink(&format!("t{}", i - 1), &format!("/a/t{i}"))?;
        }
        check(&fs, Follow::Yes, "/a/t40", "/a/t0");
        check(&fs, Follow::Yes, "/a/t41", "ELOOP");
        Ok(())
    }

    #[test]
    fn long_names_and_deep_paths() -> FsResult<()> {
        let fs = fixture()?.with_limits(FsLimits {
            max_name_len: 8,
            max_path_depth: 3,
            ..FsLimits::default()
        });
        check(&fs, Follow::Yes, "/a/123456789", "ENAMETOOLONG");
        check(&fs, Follow::Yes, "/a/12345678", "+/a/12345678");
        check(&fs, Follow::Yes, "/a/b/f", "/a/b/f");
        check(&fs, Follow::Yes, "/a/b/x/y", "ENOENT");
        check(&fs, Follow::Yes, "/a/l/../b/../b/f", "/a/b/f");
        Ok(())
    }

    #[test]
    fn walk_reports_kinds_and_depth() -> FsResult<()> {
        let fs = fixture()?;
        for (path, last, depth) in [
            ("/", Last::Root, 0),
            ("/a/.", Last::Dot, 1),
            ("/a/b/..", Last::DotDot, 1),
            ("/a/b/f", Last::Name("f"), 3),
        ] {
            let w = fs.walk(path, Follow::Yes)?;
            assert_eq!((w.last, w.depth()), (last, depth), "{path}");
        }
        let w = fs.walk("/a/b/", Follow::Yes)?;
        assert!(w.trailing_slash);
        assert!(!fs.walk("/", Follow::Yes)?.trailing_slash);
        Ok(())
    }
}
