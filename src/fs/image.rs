//! A plain-data image of a filesystem's inode table, so a snapshot can leave the process
//! (the durable store) and come back exactly: same inode numbers, modes, owners, times,
//! hard links and virtual clock. Importing checks the table's invariants, so a damaged
//! image is refused instead of producing a filesystem that breaks later.

use std::collections::BTreeMap;
use std::sync::Arc;

use imbl::OrdMap;

use super::inode::{Inode, Node};
use super::{Clock, Device, Fs, FsLimits, Ino, ROOT_INO, Timestamp, model};

/// What one inode holds, as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeImage {
    /// A regular file's bytes (shared with the filesystem, not copied).
    File(Arc<Vec<u8>>),
    /// A directory's entries, sorted by name.
    Dir(Vec<(String, Ino)>),
    /// A symbolic link's target.
    Symlink(String),
    /// A device node.
    Device(Device),
    /// A named pipe (it holds no data).
    Fifo,
}

/// One inode: its content and attributes (the link count is derived on import).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InodeImage {
    pub node: NodeImage,
    /// Permission bits (0o7777).
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    pub atime: Timestamp,
    pub mtime: Timestamp,
    pub ctime: Timestamp,
}

/// A whole filesystem as data: every inode by number, plus the clock reading, limits,
/// acting user and next inode number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FsImage {
    pub inodes: Vec<(Ino, InodeImage)>,
    pub next_ino: Ino,
    pub now: Timestamp,
    pub limits: FsLimits,
    pub uid: u32,
    pub gid: u32,
}

impl Fs {
    /// The image of this filesystem: O(inodes), sharing file contents.
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(7));
    /// fs.write_file("/workspace/a", b"x")?;
    /// let back = Fs::from_image(fs.to_image(), Clock::virtual_at(0)).map_err(|_| shellbox::fs::Errno::EINVAL)?;
    /// assert_eq!(back.read_file("/workspace/a")?.as_slice(), b"x");
    /// assert_eq!(back.stat("/workspace/a")?, fs.stat("/workspace/a")?);
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn to_image(&self) -> FsImage {
        let inodes = self
            .inodes
            .iter()
            .map(|(&ino, inode)| {
                let node = match &inode.node {
                    Node::File(data) => NodeImage::File(data.clone()),
                    // Read now; [`Fs::check_host_files`] lets a caller see failures
                    // first, since an image cannot carry them.
                    Node::Host(host) => {
                        NodeImage::File(self.host_bytes(host).cloned().unwrap_or_default())
                    }
                    Node::Dir(entries) => {
                        NodeImage::Dir(entries.iter().map(|(n, &i)| (n.clone(), i)).collect())
                    }
                    Node::Symlink(target) => NodeImage::Symlink(target.to_string()),
                    Node::Device(d) => NodeImage::Device(*d),
                    Node::Fifo => NodeImage::Fifo,
                };
                let image = InodeImage {
                    node,
                    mode: inode.mode,
                    uid: inode.uid,
                    gid: inode.gid,
                    atime: inode.atime,
                    mtime: inode.mtime,
                    ctime: inode.ctime,
                };
                (ino, image)
            })
            .collect();
        FsImage {
            inodes,
            next_ino: self.next_ino,
            now: self.clock.now(),
            limits: self.limits,
            uid: self.uid,
            gid: self.gid,
        }
    }

    /// Rebuilds a filesystem from an image; `clock` is set to the image's time. Fails,
    /// naming the problem, when the image is not a consistent tree rooted at inode 1
    /// (dangling or duplicate entries, unreachable inodes, bad names).
    pub fn from_image(image: FsImage, clock: Clock) -> Result<Fs, String> {
        let mut table: BTreeMap<Ino, Inode> = BTreeMap::new();
        let mut file_bytes = 0u64;
        for (ino, img) in image.inodes {
            let node = match img.node {
                NodeImage::File(data) => {
                    file_bytes = file_bytes.saturating_add(data.len() as u64);
                    Node::File(data)
                }
                NodeImage::Dir(entries) => Node::Dir(entries.into_iter().collect()),
                NodeImage::Symlink(target) => Node::Symlink(Arc::from(target.as_str())),
                NodeImage::Device(d) => Node::Device(d),
                NodeImage::Fifo => Node::Fifo,
            };
            let mut inode = Inode::new(node, img.mode, img.uid, img.gid, img.mtime);
            inode.atime = img.atime;
            inode.ctime = img.ctime;
            if table.insert(ino, inode).is_some() {
                return Err(format!("inode {ino} appears twice"));
            }
        }
        if !table.get(&ROOT_INO).is_some_and(Inode::is_dir) {
            return Err("the root inode is missing or not a directory".to_owned());
        }
        // Link counts are derived from the entries rather than trusted from the image.
        let mut links: BTreeMap<Ino, u32> = BTreeMap::new();
        let mut subdirs: BTreeMap<Ino, u32> = BTreeMap::new();
        for (&ino, inode) in &table {
            for (_, &child) in inode.entries().into_iter().flat_map(|e| e.iter()) {
                *links.entry(child).or_default() += 1;
                if table.get(&child).is_some_and(Inode::is_dir) {
                    *subdirs.entry(ino).or_default() += 1;
                }
            }
        }
        for (ino, inode) in table.iter_mut() {
            inode.nlink = if inode.is_dir() {
                2 + subdirs.get(ino).copied().unwrap_or(0)
            } else {
                links.get(ino).copied().unwrap_or(0)
            };
        }
        let inodes: OrdMap<Ino, Inode> = table.into_iter().collect();
        let inode_count = inodes.len() as u64;
        clock.set(image.now);
        let fs = Fs {
            inodes,
            next_ino: image.next_ino,
            file_bytes,
            inode_count,
            host_budget: Arc::default(),
            limits: image.limits,
            clock,
            uid: image.uid,
            gid: image.gid,
        };
        model::check_invariants(&fs)?;
        Ok(fs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::testing::fixture;

    #[test]
    fn round_trip_keeps_everything() -> Result<(), String> {
        let mut fs = fixture();
        fs.link("/workspace/f", "/workspace/hard")
            .map_err(|e| e.to_string())?;
        fs.mkfifo("/workspace/p", 0o600)
            .map_err(|e| e.to_string())?;
        let image = fs.to_image();
        let back = Fs::from_image(image.clone(), Clock::virtual_at(0))?;
        assert_eq!(back.to_image(), image);
        let stat = |fs: &Fs, p: &str| fs.lstat(p).map_err(|e| e.to_string());
        for p in [
            "/workspace/f",
            "/workspace/hard",
            "/workspace/link",
            "/workspace/p",
            "/dev/null",
            "/",
        ] {
            assert_eq!(stat(&back, p)?, stat(&fs, p)?, "{p}");
        }
        assert_eq!(back.usage(), fs.usage());
        Ok(())
    }

    #[test]
    fn damaged_images_are_refused() {
        let fs = fixture();
        type Damage = Box<dyn Fn(&mut FsImage)>;
        let cases: Vec<(&str, Damage)> = vec![
            (
                "no root",
                Box::new(|i| i.inodes.retain(|(n, _)| *n != ROOT_INO)),
            ),
            (
                "dangling entry",
                Box::new(|i| {
                    if let Some((
                        _,
                        InodeImage {
                            node: NodeImage::Dir(e),
                            ..
                        },
                    )) = i.inodes.iter_mut().find(|(n, _)| *n == ROOT_INO)
                    {
                        e.push(("ghost".to_owned(), 999_999));
                    }
                }),
            ),
            (
                "duplicate inode",
                Box::new(|i| {
                    if let Some(first) = i.inodes.first().cloned() {
                        i.inodes.push(first);
                    }
                }),
            ),
            (
                "unreachable inode",
                Box::new(|i| {
                    let orphan = InodeImage {
                        node: NodeImage::Symlink("x".to_owned()),
                        mode: 0o777,
                        uid: 0,
                        gid: 0,
                        atime: Timestamp::default(),
                        mtime: Timestamp::default(),
                        ctime: Timestamp::default(),
                    };
                    i.inodes.push((i.next_ino, orphan));
                    i.next_ino += 1;
                }),
            ),
        ];
        for (name, damage) in &cases {
            let mut image = fs.to_image();
            damage(&mut image);
            assert!(
                Fs::from_image(image, Clock::virtual_at(0)).is_err(),
                "{name}"
            );
        }
    }
}
