//! A reference model of the filesystem (a map from path to node) and the checkers that
//! run operations on [`Fs`] and the model side by side; property tests and fuzz targets
//! call these, and [`check_invariants`] audits the inode table itself.

use std::collections::{BTreeMap, BTreeSet};

use super::{Errno, Fs, Ino, ROOT_INO};

/// A node of the model: a regular file's content or a directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelNode {
    File(Vec<u8>),
    Dir,
}

/// One filesystem operation on absolute paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Write(String, Vec<u8>),
    Append(String, Vec<u8>),
    Mkdir(String),
    MkdirAll(String),
    RemoveFile(String),
    RemoveDir(String),
    RemoveAll(String),
    Rename(String, String),
    Read(String),
}

/// What an operation returns: the content for [`Op::Read`], nothing otherwise.
pub type Outcome = Result<Option<Vec<u8>>, Errno>;

/// Applies `op` to `fs`.
pub fn apply(fs: &mut Fs, op: &Op) -> Outcome {
    let done = |r: super::FsResult<()>| r.map(|()| None).map_err(|e| e.errno);
    match op {
        Op::Write(p, data) => done(fs.write_file(p, data)),
        Op::Append(p, data) => done(fs.append_file(p, data)),
        Op::Mkdir(p) => done(fs.mkdir(p, 0o755)),
        Op::MkdirAll(p) => done(fs.mkdir_all(p, 0o755)),
        Op::RemoveFile(p) => done(fs.remove_file(p)),
        Op::RemoveDir(p) => done(fs.remove_dir(p)),
        Op::RemoveAll(p) => done(fs.remove_all(p)),
        Op::Rename(a, b) => done(fs.rename(a, b)),
        Op::Read(p) => fs
            .read_file(p)
            .map(|data| Some(data.to_vec()))
            .map_err(|e| e.errno),
    }
}

/// The model: every file and directory strictly below `root`, by absolute path.
///
/// It covers paths made of plain names below a directory the acting user owns (no
/// symlinks, `.`/`..`, trailing slashes or permission failures), where POSIX semantics
/// reduce to string prefixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    root: String,
    nodes: BTreeMap<String, ModelNode>,
}

impl Model {
    /// A model of an empty directory `root`.
    pub fn new(root: &str) -> Model {
        Model {
            root: root.to_owned(),
            nodes: BTreeMap::new(),
        }
    }

    /// A model of what `fs` holds below `root`.
    pub fn of(fs: &Fs, root: &str) -> Result<Model, String> {
        Ok(Model {
            root: root.to_owned(),
            nodes: tree(fs, root)?,
        })
    }

    pub fn nodes(&self) -> &BTreeMap<String, ModelNode> {
        &self.nodes
    }

    /// Bytes in files and number of nodes.
    pub fn usage(&self) -> (u64, u64) {
        let bytes = self
            .nodes
            .values()
            .map(|n| match n {
                ModelNode::File(data) => data.len() as u64,
                ModelNode::Dir => 0,
            })
            .sum();
        (bytes, self.nodes.len() as u64)
    }

    /// The proper ancestors of `path` below the root, outermost first.
    fn ancestors<'p>(&self, path: &'p str) -> Vec<&'p str> {
        let start = self.root.len() + 1;
        path.char_indices()
            .filter(|&(i, c)| c == '/' && i >= start)
            .filter_map(|(i, _)| path.get(..i))
            .collect()
    }

    /// Path resolution up to the final component: ENOENT or ENOTDIR at the first
    /// ancestor that is missing or not a directory.
    fn check_parent(&self, path: &str) -> Result<(), Errno> {
        for ancestor in self.ancestors(path) {
            match self.nodes.get(ancestor) {
                None => return Err(Errno::ENOENT),
                Some(ModelNode::File(_)) => return Err(Errno::ENOTDIR),
                Some(ModelNode::Dir) => {}
            }
        }
        Ok(())
    }

    fn has_children(&self, path: &str) -> bool {
        let prefix = format!("{path}/");
        self.nodes
            .range(prefix.clone()..)
            .next()
            .is_some_and(|(k, _)| k.starts_with(&prefix))
    }

    /// `path` and everything below it.
    fn subtree(&self, path: &str) -> Vec<String> {
        let prefix = format!("{path}/");
        self.nodes
            .keys()
            .filter(|k| *k == path || k.starts_with(&prefix))
            .cloned()
            .collect()
    }

    /// Applies `op` to the model, with the errors POSIX prescribes (in the order the
    /// filesystem checks them).
    pub fn apply(&mut self, op: &Op) -> Outcome {
        use ModelNode::{Dir, File};
        match op {
            Op::Write(p, data) | Op::Append(p, data) => {
                self.check_parent(p)?;
                match self.nodes.get_mut(p) {
                    Some(Dir) => return Err(Errno::EISDIR),
                    Some(File(old)) if matches!(op, Op::Append(..)) => old.extend_from_slice(data),
                    _ => {
                        self.nodes.insert(p.clone(), File(data.clone()));
                    }
                }
            }
            Op::Mkdir(p) => {
                self.check_parent(p)?;
                if self.nodes.contains_key(p) {
                    return Err(Errno::EEXIST);
                }
                self.nodes.insert(p.clone(), Dir);
            }
            Op::MkdirAll(p) => {
                let mut prefixes = self.ancestors(p);
                prefixes.push(p);
                let last = prefixes.len() - 1;
                for (i, prefix) in prefixes.into_iter().enumerate() {
                    match self.nodes.get(prefix) {
                        None => {
                            self.nodes.insert(prefix.to_owned(), Dir);
                        }
                        Some(File(_)) if i == last => return Err(Errno::EEXIST),
                        Some(File(_)) => return Err(Errno::ENOTDIR),
                        Some(Dir) => {}
                    }
                }
            }
            Op::RemoveFile(p) => {
                self.check_parent(p)?;
                match self.nodes.get(p) {
                    None => return Err(Errno::ENOENT),
                    Some(Dir) => return Err(Errno::EISDIR),
                    Some(File(_)) => {
                        self.nodes.remove(p);
                    }
                }
            }
            Op::RemoveDir(p) => {
                self.check_parent(p)?;
                match self.nodes.get(p) {
                    None => return Err(Errno::ENOENT),
                    Some(File(_)) => return Err(Errno::ENOTDIR),
                    Some(Dir) if self.has_children(p) => return Err(Errno::ENOTEMPTY),
                    Some(Dir) => {
                        self.nodes.remove(p);
                    }
                }
            }
            Op::RemoveAll(p) => {
                self.check_parent(p)?;
                if !self.nodes.contains_key(p) {
                    return Err(Errno::ENOENT);
                }
                for k in self.subtree(p) {
                    self.nodes.remove(&k);
                }
            }
            Op::Rename(a, b) => {
                self.check_parent(a)?;
                let Some(src) = self.nodes.get(a) else {
                    return Err(Errno::ENOENT);
                };
                let src_is_dir = *src == Dir;
                self.check_parent(b)?;
                if a == b {
                    return Ok(None);
                }
                if src_is_dir && b.starts_with(&format!("{a}/")) {
                    return Err(Errno::EINVAL);
                }
                match (src_is_dir, self.nodes.get(b)) {
                    (true, Some(File(_))) => return Err(Errno::ENOTDIR),
                    (false, Some(Dir)) => return Err(Errno::EISDIR),
                    (true, Some(Dir)) if self.has_children(b) => return Err(Errno::ENOTEMPTY),
                    _ => {}
                }
                self.nodes.remove(b);
                for old in self.subtree(a) {
                    if let Some(node) = self.nodes.remove(&old) {
                        let rest = old.get(a.len()..).unwrap_or("");
                        self.nodes.insert(format!("{b}{rest}"), node);
                    }
                }
            }
            Op::Read(p) => {
                self.check_parent(p)?;
                return match self.nodes.get(p) {
                    None => Err(Errno::ENOENT),
                    Some(Dir) => Err(Errno::EISDIR),
                    Some(File(data)) => Ok(Some(data.clone())),
                };
            }
        }
        Ok(None)
    }
}

/// What `fs` holds strictly below `root`, read through the public API; anything but
/// files and directories is reported as an error.
pub fn tree(fs: &Fs, root: &str) -> Result<BTreeMap<String, ModelNode>, String> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.to_owned()];
    while let Some(dir) = dirs.pop() {
        let entries = fs
            .read_dir(&dir)
            .map_err(|e| format!("read_dir {dir}: {e}"))?;
        for entry in entries {
            let path = format!("{dir}/{}", entry.name);
            if entry.file_type.is_dir() {
                out.insert(path.clone(), ModelNode::Dir);
                dirs.push(path);
            } else if entry.file_type.is_file() {
                let data = fs
                    .read_file(&path)
                    .map_err(|e| format!("read {path}: {e}"))?;
                out.insert(path, ModelNode::File(data.to_vec()));
            } else {
                return Err(format!("{path}: unexpected {:?}", entry.file_type));
            }
        }
    }
    Ok(out)
}

/// Runs `ops` on `fs` and on a model of its tree below `root`, comparing every outcome;
/// takes a snapshot before op number `snapshot_at` (or at the end) and checks that it
/// still matches the model as it was then. Also checks usage counters and
/// [`check_invariants`] on both. Returns the first divergence.
///
/// ```
/// use shellbox::fs::model::{check_ops, Op};
/// use shellbox::fs::{Clock, Fs};
/// let fs = Fs::new(Clock::virtual_at(0));
/// let ops = [
///     Op::MkdirAll("/workspace/a/b".into()),
///     Op::Write("/workspace/a/b/f".into(), b"x".to_vec()),
///     Op::Rename("/workspace/a".into(), "/workspace/c".into()),
/// ];
/// check_ops(fs, "/workspace", &ops, 1)?;
/// # Ok::<(), String>(())
/// ```
pub fn check_ops(mut fs: Fs, root: &str, ops: &[Op], snapshot_at: usize) -> Result<(), String> {
    let mut model = Model::of(&fs, root)?;
    let (fs_bytes, fs_inodes) = fs.usage();
    let (model_bytes, model_nodes) = model.usage();
    // Usage outside the model's tree never changes.
    let outside = (
        i128::from(fs_bytes) - i128::from(model_bytes),
        i128::from(fs_inodes) - i128::from(model_nodes),
    );
    let mut snapshot = None;
    for (i, op) in ops.iter().enumerate() {
        if i == snapshot_at {
            snapshot = Some((fs.snapshot(), model.clone()));
        }
        let want = model.apply(op);
        let got = apply(&mut fs, op);
        if want != got {
            return Err(format!(
                "op {i} {op:?}: model gives {want:?}, fs gives {got:?}"
            ));
        }
    }
    let (snap, snap_model) = snapshot.unwrap_or_else(|| (fs.snapshot(), model.clone()));
    for (what, fs, model) in [("fs", &fs, &model), ("snapshot", &snap, &snap_model)] {
        let got = tree(fs, root)?;
        if &got != model.nodes() {
            return Err(format!(
                "{what} tree differs from the model:\n fs:    {got:?}\n model: {:?}",
                model.nodes()
            ));
        }
        let (bytes, nodes) = model.usage();
        let want = (outside.0 + i128::from(bytes), outside.1 + i128::from(nodes));
        let (got_bytes, got_inodes) = fs.usage();
        if (i128::from(got_bytes), i128::from(got_inodes)) != want {
            return Err(format!(
                "{what} usage ({got_bytes}, {got_inodes}), model says {want:?}"
            ));
        }
        check_invariants(fs).map_err(|e| format!("{what}: {e}"))?;
    }
    Ok(())
}

/// Audits the inode table: every entry names a live inode with a valid name, link
/// counts are right (a directory has 2 plus its subdirectories), each directory but `/`
/// has exactly one entry, every inode is reachable from `/`, and the usage counters
/// match the contents.
pub fn check_invariants(fs: &Fs) -> Result<(), String> {
    let mut links: BTreeMap<Ino, u32> = BTreeMap::new();
    let mut bytes = 0u64;
    for (&ino, inode) in fs.inodes.iter() {
        bytes += inode.file_bytes();
        if ino >= fs.next_ino {
            return Err(format!("inode {ino} is not below next_ino {}", fs.next_ino));
        }
        let Some(entries) = inode.entries() else {
            continue;
        };
        let mut subdirs = 0;
        for (name, &child) in entries.iter() {
            if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
                return Err(format!("directory {ino} has an entry named {name:?}"));
            }
            let Some(child_inode) = fs.inodes.get(&child) else {
                return Err(format!(
                    "entry {name:?} of {ino} names missing inode {child}"
                ));
            };
            *links.entry(child).or_default() += 1;
            if child_inode.is_dir() {
                subdirs += 1;
            }
        }
        if inode.nlink != 2 + subdirs {
            return Err(format!(
                "directory {ino} has nlink {} but {subdirs} subdirectories",
                inode.nlink
            ));
        }
    }
    for (&ino, inode) in fs.inodes.iter() {
        let count = links.get(&ino).copied().unwrap_or(0);
        let want = match (ino == ROOT_INO, inode.is_dir()) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => inode.nlink,
        };
        if count != want || (!inode.is_dir() && count == 0) {
            return Err(format!(
                "inode {ino} has {count} entries (nlink {})",
                inode.nlink
            ));
        }
    }
    let mut seen = BTreeSet::from([ROOT_INO]);
    let mut queue = vec![ROOT_INO];
    while let Some(ino) = queue.pop() {
        let entries = fs.inodes.get(&ino).and_then(|i| i.entries());
        for (_, &child) in entries.into_iter().flat_map(|e| e.iter()) {
            if seen.insert(child) {
                queue.push(child);
            }
        }
    }
    if seen.len() != fs.inodes.len() {
        return Err(format!(
            "{} inodes, {} reachable from /",
            fs.inodes.len(),
            seen.len()
        ));
    }
    if fs.inode_count != fs.inodes.len() as u64 || fs.file_bytes != bytes {
        return Err(format!(
            "usage counters ({}, {}), actual ({bytes}, {})",
            fs.file_bytes,
            fs.inode_count,
            fs.inodes.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Clock;
    use crate::fs::testing::fixture;

    fn p(s: &str) -> String {
        format!("/workspace/m{s}")
    }

    fn check(ops: &[Op], want: Result<(), &str>) {
        let fs = Fs::new(Clock::virtual_at(0));
        for snapshot_at in 0..=ops.len() {
            let got = check_ops(fs.clone(), "/workspace", ops, snapshot_at);
            match want {
                Ok(()) => assert_eq!(got, Ok(()), "snapshot at {snapshot_at}"),
                Err(needle) => assert!(
                    got.as_ref().is_err_and(|e| e.contains(needle)),
                    "{got:?} should mention {needle:?}"
                ),
            }
        }
    }

    #[test]
    fn model_and_fs_agree_on_a_scripted_session() {
        check(
            &[
                Op::MkdirAll(p("/a/b")),
                Op::Write(p("/a/b/f"), b"1".to_vec()),
                Op::Append(p("/a/b/f"), b"2".to_vec()),
                Op::Read(p("/a/b/f")),
                Op::Mkdir(p("/a")),
                Op::Mkdir(p("/x/y")),
                Op::MkdirAll(p("/a/b/f/g")),
                Op::MkdirAll(p("/a/b/f")),
                Op::RemoveDir(p("/a")),
                Op::RemoveFile(p("/a/b")),
                Op::Rename(p("/a"), p("/a/b/c")),
                Op::Rename(p("/a/b/f"), p("/a")),
                Op::Rename(p("/a/b"), p("/c")),
                Op::Rename(p("/c"), p("/c")),
                Op::Read(p("/c")),
                Op::RemoveAll(p("/c")),
                Op::RemoveAll(p("/c")),
                Op::Read(p("/c/f")),
                Op::Write(p("/a"), b"dir".to_vec()),
                Op::RemoveDir(p("/a")),
            ],
            Ok(()),
        );
    }

    #[test]
    fn the_model_starts_from_the_existing_tree() -> Result<(), String> {
        let mut fs = Fs::new(Clock::virtual_at(0));
        fs.write_file("/workspace/f", b"hello")
            .map_err(|e| e.to_string())?;
        let mut model = Model::of(&fs, "/workspace")?;
        let read = Op::Read("/workspace/f".into());
        assert_eq!(model.apply(&read), Ok(Some(b"hello".to_vec())));
        assert_eq!(apply(&mut fs, &read), Ok(Some(b"hello".to_vec())));
        assert_eq!(model.usage(), (5, 1));
        let got = check_ops(fixture(), "/workspace", &[], 0);
        assert!(
            got.is_err_and(|e| e.contains("unexpected Symlink")),
            "symlinks are outside the model"
        );
        Ok(())
    }

    #[test]
    fn invariants_catch_corruption() {
        let fs = Fs::new(Clock::virtual_at(0));
        assert_eq!(check_invariants(&fs), Ok(()));
        let mut bad = fs.clone();
        bad.file_bytes += 1;
        assert!(check_invariants(&bad).is_err_and(|e| e.contains("usage")));
        let mut bad = fs.clone();
        if let Some(root) = bad.inodes.get_mut(&ROOT_INO) {
            root.nlink += 1;
        }
        assert!(check_invariants(&bad).is_err_and(|e| e.contains("nlink")));
        let mut bad = fs.clone();
        let orphan = bad.inodes.get(&ROOT_INO).cloned();
        if let Some(orphan) = orphan {
            bad.inodes.insert(bad.next_ino, orphan);
            bad.next_ino += 1;
            bad.inode_count += 1;
        }
        assert!(check_invariants(&bad).is_err());
    }
}
