//! The default tree of a fresh filesystem (a small Linux box: `/workspace`, `/home/user`,
//! `/tmp`, `/dev`, `/etc`, ...) and the command stubs listed in `/bin` and `/usr/bin`.

use std::sync::Arc;

use super::inode::Node;
use super::namespace::Target;
use super::resolve::Follow;
use super::{Clock, DEFAULT_GID, DEFAULT_UID, Device, Fs, FsResult, Ino};

/// Directories of the default layout: path, mode, owner (uid = gid).
const DIRS: &[(&str, u32, u32)] = &[
    ("/dev", 0o755, 0),
    ("/dev/fd", 0o755, 0),
    ("/etc", 0o755, 0),
    ("/home", 0o755, 0),
    ("/home/user", 0o755, DEFAULT_UID),
    ("/proc", 0o555, 0),
    ("/proc/self", 0o555, 0),
    ("/root", 0o700, 0),
    ("/tmp", 0o1777, 0),
    ("/usr", 0o755, 0),
    ("/usr/bin", 0o755, 0),
    ("/usr/local", 0o755, 0),
    ("/usr/local/bin", 0o755, 0),
    ("/workspace", 0o755, DEFAULT_UID),
];

/// Root-owned 0644 files of the default layout.
const FILES: &[(&str, &str)] = &[
    ("/etc/group", "root:x:0:\nuser:x:1000:\n"),
    ("/etc/hostname", "shellbox\n"),
    (
        "/etc/passwd",
        "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:user:/home/user:/bin/bash\n",
    ),
];

/// Builds the default layout (see [`Fs::new`]).
pub(crate) fn default_layout(clock: Clock) -> Fs {
    let mut fs = Fs::empty(clock);
    fs.set_user(0, 0);
    let built = populate(&mut fs);
    // Cannot fail on a fresh filesystem with default limits; the tests pin that.
    debug_assert!(built.is_ok(), "default layout: {built:?}");
    fs.set_user(DEFAULT_UID, DEFAULT_GID);
    fs
}

fn populate(fs: &mut Fs) -> FsResult<()> {
    for &(path, mode, owner) in DIRS {
        fs.mkdir(path, mode)?;
        if owner != 0 {
            fs.chown(path, Some(owner), Some(owner))?;
        }
    }
    for &(path, content) in FILES {
        fs.write_file(path, content.as_bytes())?;
    }
    for device in Device::ALL {
        fs.mknod(&format!("/dev/{}", device.name()), device, 0o666)?;
    }
    fs.symlink("/dev/fd", "/proc/self/fd")?;
    // Merged /usr, as on current Debian, Ubuntu and Fedora.
    fs.symlink("usr/bin", "/bin")?;
    Ok(())
}

/// Whether `name` can be a file name in `/bin`.
fn is_command_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\0'])
}

impl Fs {
    /// Lists commands in `/bin` and `/usr/bin`: for each name, an executable stub file
    /// (mode 0755, owned by root) reading `#!/bin/sh\n# shellbox builtin: NAME\n`, so
    /// `ls /bin`, `type -P` and `[ -x ]` see them.
    ///
    /// Installs as root whatever the acting user; names that cannot be file names
    /// (empty, `.`, `..`, containing `/` or NUL) and entries that cannot be written (a
    /// directory in the way, a limit reached) are skipped. Missing `/bin` or `/usr/bin`
    /// are created.
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// fs.install_commands(&["cat", "ls"]);
    /// assert!(fs.access("/usr/bin/cat", false, false, true).is_ok());
    /// assert_eq!(fs.read_dir("/bin")?.len(), 2);
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn install_commands(&mut self, names: &[&str]) {
        let (uid, gid) = self.user();
        self.set_user(0, 0);
        let mut done = Vec::new();
        for dir in ["/bin", "/usr/bin"] {
            if self.mkdir_all(dir, 0o755).is_err() {
                continue;
            }
            let at = self
                .walk(dir, Follow::Yes)
                .and_then(|w| Ok((w.existing()?, w.depth())));
            // `/bin` is a link to `/usr/bin` in the default layout.
            if let Ok((ino, _)) = at {
                if done.contains(&ino) {
                    continue;
                }
                done.push(ino);
            }
            for name in names.iter().filter(|n| is_command_name(n)) {
                let stub = format!("#!/bin/sh\n# shellbox builtin: {name}\n");
                if let Ok((ino, depth)) = at
                    && self.add_stub(ino, depth, name, &stub)
                {
                    continue;
                }
                let path = format!("{dir}/{name}");
                if self.write_file(&path, stub.as_bytes()).is_ok() {
                    // Cannot fail: we are root and the file exists.
                    let _ = self.chmod(&path, 0o755);
                }
            }
        }
        self.set_user(uid, gid);
    }

    /// Adds a new stub `name` to directory `dir` (at `depth`) without walking a path,
    /// which was most of a fresh filesystem's cost. False when the name is taken: the
    /// caller then writes it the general way.
    fn add_stub(&mut self, dir: Ino, depth: usize, name: &str, stub: &str) -> bool {
        let taken = self
            .inode(dir)
            .ok()
            .and_then(|d| d.entries())
            .is_none_or(|entries| entries.contains_key(name));
        if taken {
            return false;
        }
        let target = Target {
            dir,
            name: name.to_owned(),
            depth: depth + 1,
        };
        if self.check_create(&target, stub.len() as u64).is_err() {
            // A limit: skipped, as the general way would.
            return true;
        }
        let node = Node::File(Arc::new(stub.as_bytes().to_vec()));
        self.insert_new(target, node, 0o755).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::model::check_invariants;
    use crate::fs::testing::errno;
    use crate::fs::{Errno, FileType, Metadata};

    fn check(fs: &Fs, path: &str, ty: FileType, mode: u32, uid: u32) {
        let got = errno(fs.lstat(path)).map(|m: Metadata| (m.file_type, m.mode, m.uid, m.gid));
        assert_eq!(got, Ok((ty, mode, uid, uid)), "{path}");
    }

    #[test]
    fn default_layout_is_a_small_linux_box() {
        let fs = Fs::new(Clock::virtual_at(0));
        check(&fs, "/", FileType::Dir, 0o755, 0);
        for &(path, mode, owner) in DIRS {
            check(&fs, path, FileType::Dir, mode, owner);
        }
        for &(path, content) in FILES {
            check(&fs, path, FileType::File, 0o644, 0);
            let got = fs.read_file(path).map(|d| d.to_vec());
            assert_eq!(got, Ok(content.as_bytes().to_vec()));
        }
        for device in Device::ALL {
            check(
                &fs,
                &format!("/dev/{}", device.name()),
                FileType::Device(device),
                0o666,
                0,
            );
        }
        check(&fs, "/proc/self/fd", FileType::Symlink, 0o777, 0);
        check(&fs, "/bin", FileType::Symlink, 0o777, 0);
        assert_eq!(errno(fs.readlink("/bin")), Ok("usr/bin".to_owned()));
        assert_eq!(fs.user(), (DEFAULT_UID, DEFAULT_GID));
        assert_eq!(check_invariants(&fs), Ok(()));
        let top: Vec<String> = fs
            .read_dir("/")
            .map(|es| es.into_iter().map(|e| e.name).collect())
            .unwrap_or_default();
        let want = [
            "bin",
            "dev",
            "etc",
            "home",
            "proc",
            "root",
            "tmp",
            "usr",
            "workspace",
        ];
        assert_eq!(top, want);
        let passwd = fs
            .read_file("/etc/passwd")
            .map(|d| d.to_vec())
            .unwrap_or_default();
        assert!(passwd.starts_with(b"root:x:0:0:"));
    }

    #[test]
    fn the_user_can_work_in_home_workspace_and_tmp_only() {
        let mut fs = Fs::new(Clock::virtual_at(0));
        for (path, want) in [
            ("/workspace/a", Ok(())),
            ("/home/user/a", Ok(())),
            ("/tmp/a", Ok(())),
            ("/a", Err(Errno::EACCES)),
            ("/etc/a", Err(Errno::EACCES)),
            ("/bin/a", Err(Errno::EACCES)),
            ("/root/a", Err(Errno::EACCES)),
            ("/proc/self/a", Err(Errno::EACCES)),
        ] {
            assert_eq!(errno(fs.write_file(path, b"")), want, "{path}");
        }
    }

    #[test]
    fn install_commands_writes_each_stub_once_through_the_bin_link() {
        let mut fs = Fs::new(Clock::virtual_at(0));
        let before = fs.usage();
        fs.install_commands(&["cat", "ls"]);
        let after = fs.usage();
        assert_eq!(after.1 - before.1, 2, "two inodes, not four");
        assert_eq!(
            errno(fs.lstat("/bin")).map(|m| m.file_type),
            Ok(FileType::Symlink)
        );
        let bin: Vec<String> = fs
            .read_dir("/bin")
            .map(|es| es.into_iter().map(|e| e.name).collect())
            .unwrap_or_default();
        assert_eq!(bin, ["cat", "ls"]);
    }

    #[test]
    fn install_commands_lists_stubs() {
        let mut fs = Fs::new(Clock::virtual_at(0));
        fs.install_commands(&["cat", "[", "", "..", "a/b", "ls", "cat"]);
        let listed: Vec<String> = fs
            .read_dir("/usr/bin")
            .map(|es| es.into_iter().map(|e| e.name).collect())
            .unwrap_or_default();
        assert_eq!(listed, ["[", "cat", "ls"]);
        check(&fs, "/bin/cat", FileType::File, 0o755, 0);
        let stub = fs.read_file("/bin/ls").map(|d| d.to_vec());
        assert_eq!(stub, Ok(b"#!/bin/sh\n# shellbox builtin: ls\n".to_vec()));
        assert_eq!(errno(fs.access("/bin/[", true, false, true)), Ok(()));
        assert_eq!(fs.user(), (DEFAULT_UID, DEFAULT_GID));
        let mut empty = Fs::empty(Clock::virtual_at(0));
        empty.install_commands(&["echo"]);
        assert!(empty.exists("/usr/bin/echo"));
        assert_eq!(check_invariants(&empty), Ok(()));
    }
}
