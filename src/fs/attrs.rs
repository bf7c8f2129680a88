//! Inode attributes: chmod(2), chown(2) (and lchown(2)) and utimensat(2), with Linux's
//! rules for who may change what. All but lchown follow symlinks.

use super::inode::W;
use super::resolve::Follow;
use super::{Errno, Fs, FsResult, Timestamp};

impl Fs {
    /// chmod(2): only the owner or root may (EPERM); bits beyond 0o7777 are dropped.
    pub fn chmod(&mut self, path: &str, mode: u32) -> FsResult<()> {
        let (_, ino) = self.walk_existing(path, Follow::Yes)?;
        if self.uid != 0 && self.uid != self.inode(ino)?.uid {
            return Err(Errno::EPERM.into());
        }
        let now = self.now();
        let inode = self.inode_mut(ino)?;
        inode.mode = mode & 0o7777;
        inode.ctime = now;
        Ok(())
    }

    /// chown(2): root may give anything to anyone; the owner may only change the group,
    /// to their own group (EPERM otherwise). `None` leaves that id alone. Changing an
    /// executable file's ids clears its set-user-ID and set-group-ID bits, as Linux does.
    pub fn chown(&mut self, path: &str, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        self.chown_at(path, uid, gid, Follow::Yes)
    }

    /// lchown(2): [`Fs::chown`] of a symlink itself rather than what it points to.
    pub fn lchown(&mut self, path: &str, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        self.chown_at(path, uid, gid, Follow::No)
    }

    fn chown_at(
        &mut self,
        path: &str,
        uid: Option<u32>,
        gid: Option<u32>,
        follow: Follow,
    ) -> FsResult<()> {
        let (_, ino) = self.walk_existing(path, follow)?;
        let inode = self.inode(ino)?;
        if self.uid != 0 {
            let owner = self.uid == inode.uid;
            let uid_ok = uid.is_none_or(|u| owner && u == inode.uid);
            let gid_ok = gid.is_none_or(|g| owner && (g == inode.gid || g == self.gid));
            if !uid_ok || !gid_ok {
                return Err(Errno::EPERM.into());
            }
        }
        let now = self.now();
        let inode = self.inode_mut(ino)?;
        if let Some(uid) = uid {
            inode.uid = uid;
        }
        if let Some(gid) = gid {
            inode.gid = gid;
        }
        if (uid.is_some() || gid.is_some()) && !inode.is_dir() && inode.mode & 0o111 != 0 {
            inode.mode &= !0o6000;
        }
        inode.ctime = now;
        Ok(())
    }

    /// Sets atime/mtime (None = now).
    ///
    /// Setting both to now (plain `touch`) needs ownership or write permission
    /// (EACCES); setting an explicit time needs ownership (EPERM). ctime becomes now.
    pub fn set_times(
        &mut self,
        path: &str,
        atime: Option<Timestamp>,
        mtime: Option<Timestamp>,
    ) -> FsResult<()> {
        self.set_times_at(path, Follow::Yes, atime, mtime)
    }

    /// [`set_times`](Self::set_times) on a symlink itself rather than its target
    /// (`touch -h`).
    pub fn lset_times(
        &mut self,
        path: &str,
        atime: Option<Timestamp>,
        mtime: Option<Timestamp>,
    ) -> FsResult<()> {
        self.set_times_at(path, Follow::No, atime, mtime)
    }

    fn set_times_at(
        &mut self,
        path: &str,
        follow: Follow,
        atime: Option<Timestamp>,
        mtime: Option<Timestamp>,
    ) -> FsResult<()> {
        let (_, ino) = self.walk_existing(path, follow)?;
        let inode = self.inode(ino)?;
        let owner = self.uid == 0 || self.uid == inode.uid;
        if !owner {
            if atime.is_some() || mtime.is_some() {
                return Err(Errno::EPERM.into());
            }
            if !self.may(inode, W) {
                return Err(Errno::EACCES.into());
            }
        }
        let now = self.now();
        let inode = self.inode_mut(ino)?;
        inode.atime = atime.unwrap_or(now);
        inode.mtime = mtime.unwrap_or(now);
        inode.ctime = now;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::testing::{T0, errno, fixture};

    /// Runs `op` as user `who` on the fixture (whose files belong to 1000/1000) and
    /// checks the outcome; returns the filesystem.
    fn check(
        who: (u32, u32),
        op: impl FnOnce(&mut Fs) -> FsResult<()>,
        want: Result<(), Errno>,
    ) -> Fs {
        let mut fs = fixture();
        fs.set_user(who.0, who.1);
        assert_eq!(errno(op(&mut fs)), want);
        fs
    }

    const OWNER: (u32, u32) = (1000, 1000);
    const OTHER: (u32, u32) = (1001, 1001);
    const ROOT: (u32, u32) = (0, 0);

    fn mode(fs: &Fs, path: &str) -> Option<u32> {
        fs.lstat(path).ok().map(|m| m.mode)
    }

    #[test]
    fn chmod_table() {
        for (who, path, new, want, got_mode) in [
            (OWNER, "/workspace/f", 0o600, Ok(()), 0o600),
            (OWNER, "/workspace/f", 0o104755, Ok(()), 0o4755),
            (OWNER, "/workspace/link", 0o600, Ok(()), 0o777),
            (OTHER, "/workspace/f", 0o600, Err(Errno::EPERM), 0o644),
            (ROOT, "/workspace/f", 0o000, Ok(()), 0o000),
            (OWNER, "/workspace/nope", 0o600, Err(Errno::ENOENT), 0o644),
        ] {
            let fs = check(who, |fs| fs.chmod(path, new), want);
            assert_eq!(mode(&fs, path).unwrap_or(0o644), got_mode, "{path}");
        }
        let fs = check(OWNER, |fs| fs.chmod("/workspace/link", 0o600), Ok(()));
        assert_eq!(
            mode(&fs, "/workspace/f"),
            Some(0o600),
            "chmod follows the link"
        );
    }

    #[test]
    fn chown_table() {
        for (who, uid, gid, want, owner) in [
            (ROOT, Some(5), Some(6), Ok(()), (5, 6)),
            (ROOT, None, Some(6), Ok(()), (1000, 6)),
            (OWNER, None, Some(1000), Ok(()), (1000, 1000)),
            (OWNER, Some(1000), None, Ok(()), (1000, 1000)),
            (OWNER, None, None, Ok(()), (1000, 1000)),
            (OWNER, Some(5), None, Err(Errno::EPERM), (1000, 1000)),
            (OWNER, None, Some(6), Err(Errno::EPERM), (1000, 1000)),
            (OTHER, None, Some(1001), Err(Errno::EPERM), (1000, 1000)),
            (OTHER, Some(1001), None, Err(Errno::EPERM), (1000, 1000)),
        ] {
            let fs = check(who, |fs| fs.chown("/workspace/link", uid, gid), want);
            let got = fs.stat("/workspace/f").map(|m| (m.uid, m.gid));
            assert_eq!(got, Ok(owner), "{who:?} {uid:?} {gid:?}");
        }
        let mut fs = fixture();
        fs.set_user(0, 0);
        let _ = fs.chmod("/workspace/f", 0o6755);
        let _ = fs.chmod("/workspace/d", 0o2755);
        let _ = fs.chown("/workspace/f", Some(1), None);
        let _ = fs.chown("/workspace/d", Some(1), None);
        assert_eq!(mode(&fs, "/workspace/f"), Some(0o755), "setuid dropped");
        assert_eq!(
            mode(&fs, "/workspace/d"),
            Some(0o2755),
            "directories keep setgid"
        );
    }

    #[test]
    fn set_times_table() {
        let t = Timestamp::from_secs(42);
        let now = Timestamp::from_secs(T0 + 9);
        let mut base = fixture();
        let _ = base.chmod("/workspace/d/g", 0o666);
        for (who, path, atime, mtime, want, times) in [
            (OWNER, "/workspace/f", Some(t), Some(t), Ok(()), (t, t)),
            (OWNER, "/workspace/f", None, None, Ok(()), (now, now)),
            (OWNER, "/workspace/link", Some(t), None, Ok(()), (t, now)),
            (
                OTHER,
                "/workspace/f",
                None,
                None,
                Err(Errno::EACCES),
                (now, now),
            ),
            (OTHER, "/workspace/d/g", None, None, Ok(()), (now, now)),
            (
                OTHER,
                "/workspace/d/g",
                Some(t),
                Some(t),
                Err(Errno::EPERM),
                (now, now),
            ),
            (ROOT, "/etc/passwd", Some(t), Some(t), Ok(()), (t, t)),
            (
                OWNER,
                "/workspace/nope",
                None,
                None,
                Err(Errno::ENOENT),
                (now, now),
            ),
        ] {
            let mut fs = base.clone();
            fs.clock().set(now);
            fs.set_user(who.0, who.1);
            assert_eq!(
                errno(fs.set_times(path, atime, mtime)),
                want,
                "{path} {who:?}"
            );
            if want.is_ok() {
                let m = fs.stat(path);
                assert_eq!(
                    m.map(|m| (m.atime, m.mtime, m.ctime)),
                    Ok((times.0, times.1, now))
                );
            }
        }
    }

    #[test]
    fn attribute_changes_stamp_ctime() -> FsResult<()> {
        let mut fs = fixture();
        fs.clock().advance(3_000_000_000);
        fs.chmod("/workspace/f", 0o600)?;
        let m = fs.stat("/workspace/f")?;
        assert_eq!(
            (m.mtime, m.ctime),
            (Timestamp::from_secs(T0), Timestamp::from_secs(T0 + 3))
        );
        Ok(())
    }
}
