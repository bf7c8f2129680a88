#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! The durable store of issue 4: exact round trips, content-addressed saves that write
//! only what changed, crash safety under injected failures between writes, and loading
//! the last complete snapshot (with a report) when files are torn or corrupt.

use std::path::{Path, PathBuf};

mod common;

use common::TempDir;
use serde_json::json;
use shellbox::fs::{Clock, Fs};
use shellbox::session::{Sandbox, Template};
use shellbox::store::{FaultPlan, Snapshot, Store, StoreErrorKind};

/// A filesystem with every kind of inode: nested files, an empty file, binary data,
/// a large file, a symlink, a hard link, unusual modes and an explicit mtime.
fn varied_fs() -> Fs {
    let mut fs = Fs::new(Clock::virtual_at(1_700_000_000));
    fs.write_file("/workspace/a.txt", b"alpha\n").unwrap();
    fs.mkdir_all("/workspace/src/deep/er", 0o755).unwrap();
    fs.write_file("/workspace/src/deep/er/x.rs", b"fn x() {}\n")
        .unwrap();
    fs.write_file("/workspace/empty", b"").unwrap();
    fs.write_file("/workspace/bin", &[0u8, 255, 1, 2]).unwrap();
    fs.write_file("/workspace/big", &vec![b'z'; 100_000])
        .unwrap();
    fs.symlink("src/deep", "/workspace/link").unwrap();
    fs.link("/workspace/a.txt", "/workspace/hard").unwrap();
    // A FIFO (issue 26), hard-linked too: its kind and mode survive, holding no data.
    fs.mkfifo("/workspace/pipe", 0o640).unwrap();
    fs.link("/workspace/pipe", "/workspace/pipe2").unwrap();
    fs.chmod("/workspace/src", 0o700).unwrap();
    fs.set_times(
        "/workspace/a.txt",
        None,
        Some(shellbox::fs::Timestamp::from_secs(42)),
    )
    .unwrap();
    fs
}

fn snapshot(fs: Fs) -> Snapshot {
    Snapshot {
        fs,
        meta: json!({"note": "test"}),
    }
}

#[test]
fn a_round_trip_keeps_the_filesystem_exactly() {
    let dir = TempDir::new("store");
    let fs = varied_fs();
    let store = Store::open(dir.path()).unwrap();
    let report = store.save("s1", &snapshot(fs.clone())).unwrap();
    assert_eq!(report.seq, 1);
    let loaded = Store::open(dir.path()).unwrap().load("s1").unwrap();
    assert_eq!(
        loaded.fs.to_image(),
        fs.to_image(),
        "inodes, modes, times, links, clock"
    );
    assert_eq!(loaded.meta, json!({"note": "test"}));
    assert_eq!((loaded.report.seq, loaded.report.discarded.len()), (1, 0));
    assert_eq!(store.sessions().unwrap(), ["s1"]);
}

#[test]
fn saving_after_a_small_change_writes_only_the_new_blobs() {
    let dir = TempDir::new("store");
    let mut fs = Fs::new(Clock::virtual_at(0));
    for d in 0..10 {
        for f in 0..20 {
            let body = format!("{d}/{f} {}\n", "x".repeat(1000));
            fs.mkdir_all(&format!("/workspace/d{d}"), 0o755).unwrap();
            fs.write_file(&format!("/workspace/d{d}/f{f}"), body.as_bytes())
                .unwrap();
        }
    }
    let store = Store::open(dir.path()).unwrap();
    let first = store.save("s", &snapshot(fs.clone())).unwrap();
    assert!(first.blob_bytes_written > 200_000, "{first:?}");
    let changed = format!("changed {}\n", "y".repeat(1000));
    fs.write_file("/workspace/d7/f3", changed.as_bytes())
        .unwrap();
    let second = store.save("s", &snapshot(fs.clone())).unwrap();
    // The new file, its directory's listing, /workspace's and /'s.
    assert_eq!(second.blobs_written, 4, "{second:?}");
    assert!(second.blob_bytes_written < 14_000, "{second:?}");
    assert!(second.manifest_bytes < 2_000, "{second:?}");
    // Blobs are shared across sessions and store handles.
    let other = Store::open(dir.path())
        .unwrap()
        .save("copy", &snapshot(fs))
        .unwrap();
    assert_eq!(other.blobs_written, 0, "{other:?}");
}

/// The content of /workspace/v in snapshot `v` (long enough to get its own blob).
fn version(v: char) -> String {
    format!("{}\n", v.to_string().repeat(100))
}

/// Saves snapshot A, then tries B with a fault after `writes` writes; returns what a
/// fresh handle loads (the text of /workspace/v) and whether the save failed.
fn save_with_fault(plan: FaultPlan) -> (String, bool, usize) {
    let dir = TempDir::new("store");
    let mut fs = varied_fs();
    fs.write_file("/workspace/v", version('A').as_bytes())
        .unwrap();
    let store = Store::open(dir.path()).unwrap();
    store.save("s", &snapshot(fs.clone())).unwrap();
    fs.write_file("/workspace/v", version('B').as_bytes())
        .unwrap();
    store.inject_faults(Some(plan));
    let failed = store.save("s", &snapshot(fs.clone())).is_err();
    let loaded = Store::open(dir.path()).unwrap().load("s").unwrap();
    let text = String::from_utf8(loaded.fs.read_file("/workspace/v").unwrap().to_vec()).unwrap();
    (text, failed, loaded.report.discarded.len())
}

#[test]
fn a_save_interrupted_between_any_two_writes_leaves_the_last_snapshot() {
    // Save B writes 4 files: v's blob, the listings of /workspace and /, the manifest.
    let (a, b) = (version('A'), version('B'));
    for writes in 0..6 {
        for (torn, plan) in [
            (false, FaultPlan::crash_after(writes)),
            (true, FaultPlan::torn_after(writes)),
        ] {
            let (text, failed, discarded) = save_with_fault(plan);
            let done = writes >= 4;
            assert_eq!(failed, !done, "writes {writes} torn {torn}");
            assert_eq!(
                &text,
                if done { &b } else { &a },
                "writes {writes} torn {torn}"
            );
            // Only a torn manifest is left behind to discard.
            let torn_manifest = torn && writes == 3;
            assert_eq!(
                discarded,
                usize::from(torn_manifest),
                "writes {writes} torn {torn}"
            );
        }
    }
}

#[test]
fn a_torn_blob_is_rewritten_by_the_next_save() {
    let dir = TempDir::new("store");
    let mut fs = Fs::new(Clock::virtual_at(0));
    let store = Store::open(dir.path()).unwrap();
    store.save("s", &snapshot(fs.clone())).unwrap();
    fs.write_file("/workspace/v", &vec![b'v'; 5000]).unwrap();
    store.inject_faults(Some(FaultPlan::torn_after(0)));
    assert!(store.save("s", &snapshot(fs.clone())).is_err());
    // A new process saves the same content again: the torn blob must not be trusted.
    Store::open(dir.path())
        .unwrap()
        .save("s", &snapshot(fs.clone()))
        .unwrap();
    let loaded = Store::open(dir.path()).unwrap().load("s").unwrap();
    assert!(loaded.report.discarded.is_empty());
    assert_eq!(loaded.fs.read_file("/workspace/v").unwrap().len(), 5000);
}

/// Every blob file in the store at `dir`, sorted.
fn blobs_in(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for fan in std::fs::read_dir(dir.join("blobs")).unwrap().flatten() {
        for blob in std::fs::read_dir(fan.path()).unwrap().flatten() {
            out.push(blob.path());
        }
    }
    out.sort();
    out
}

#[test]
fn damaged_files_are_reported_and_the_previous_snapshot_loads() {
    type Damage = fn(&Path);
    let truncate: Damage = |p| {
        let data = std::fs::read(p).unwrap();
        std::fs::write(p, &data[..data.len() / 2]).unwrap();
    };
    let flip: Damage = |p| {
        let mut data = std::fs::read(p).unwrap();
        let last = data.len() - 2;
        data[last] ^= 1;
        std::fs::write(p, data).unwrap();
    };
    let delete: Damage = |p| std::fs::remove_file(p).unwrap();
    let cases: &[(&str, bool, Damage, &str)] = &[
        ("manifest truncated", true, truncate, "truncated"),
        ("manifest bit flip", true, flip, "checksum"),
        ("blob truncated", false, truncate, "corrupt"),
        ("blob bit flip", false, flip, "corrupt"),
        ("blob deleted", false, delete, "No such file"),
    ];
    for (name, manifest, damage, reason) in cases {
        let dir = TempDir::new("store");
        let store = Store::open(dir.path()).unwrap();
        let mut fs = varied_fs();
        store.save("s", &snapshot(fs.clone())).unwrap();
        let before = blobs_in(dir.path());
        fs.write_file("/workspace/new", &vec![b'n'; 3000]).unwrap();
        let second = store.save("s", &snapshot(fs)).unwrap();
        let target = if *manifest {
            second.manifest.clone()
        } else {
            let after = blobs_in(dir.path());
            // The new file's blob.
            after
                .into_iter()
                .find(|p| !before.contains(p) && std::fs::metadata(p).unwrap().len() == 3000)
                .unwrap()
        };
        damage(&target);
        let loaded = Store::open(dir.path()).unwrap().load("s").unwrap();
        assert_eq!(loaded.report.seq, 1, "{name}");
        assert!(!loaded.fs.exists("/workspace/new"), "{name}");
        let [discarded] = loaded.report.discarded.as_slice() else {
            panic!("{name}: {:?}", loaded.report)
        };
        assert_eq!(discarded.path, second.manifest, "{name}");
        assert!(
            discarded.reason.contains(reason),
            "{name}: {}",
            discarded.reason
        );
        // With the first snapshot damaged too, nothing loads, and the error says where.
        truncate(&loaded.report.manifest);
        let err = Store::open(dir.path()).unwrap().load("s").unwrap_err();
        assert_eq!(err.kind, StoreErrorKind::Corrupt, "{name}");
        assert_eq!(
            err.path.as_deref(),
            Some(dir.path().join("sessions/s").as_path())
        );
    }
}

#[test]
fn names_versions_pruning_and_missing_sessions() {
    let dir = TempDir::new("store");
    let store = Store::open(dir.path()).unwrap();
    for bad in ["", ".hidden", "a/b", "../x", "sp ace", &"n".repeat(129)] {
        let err = store
            .save(bad, &snapshot(Fs::new(Clock::virtual_at(0))))
            .unwrap_err();
        assert_eq!(err.kind, StoreErrorKind::InvalidName, "{bad:?}");
    }
    assert_eq!(
        store.load("nobody").unwrap_err().kind,
        StoreErrorKind::NotFound
    );
    let mut fs = Fs::new(Clock::virtual_at(0));
    for i in 0..6 {
        fs.write_file("/workspace/n", format!("{i}").as_bytes())
            .unwrap();
        store.save("s", &snapshot(fs.clone())).unwrap();
    }
    let manifests = std::fs::read_dir(dir.path().join("sessions/s"))
        .unwrap()
        .count();
    assert_eq!(manifests, shellbox::store::KEEP_MANIFESTS);
    let loaded = store.load("s").unwrap();
    assert_eq!(
        (
            loaded.report.seq,
            loaded.fs.read_file("/workspace/n").unwrap().as_slice()
        ),
        (6, &b"5"[..])
    );
    std::fs::write(dir.path().join("FORMAT"), "something else\n").unwrap();
    assert_eq!(
        Store::open(dir.path()).unwrap_err().kind,
        StoreErrorKind::Format
    );
}

#[tokio::test]
async fn a_sandbox_session_survives_a_store_round_trip() {
    let dir = TempDir::new("store");
    let store = Store::open(dir.path()).unwrap();
    let sb = Sandbox::builder()
        .env("MODE", "test")
        .file("a.txt", "one\n")
        .build();
    sb.call_tool("read_file", json!({"filePath": "a.txt"}))
        .await
        .unwrap();
    sb.run("mkdir -p out && echo built > out/log")
        .await
        .unwrap();
    sb.save(&store, "agent-1").await.unwrap();

    let (back, report) = Sandbox::builder().load(&store, "agent-1").unwrap();
    assert!(report.discarded.is_empty());
    assert_eq!(back.id(), sb.id());
    assert_eq!(back.read_stamps(), sb.read_stamps());
    assert_eq!(
        back.run("cat out/log; echo $MODE").await.unwrap().stdout,
        b"built\ntest\n"
    );
    // The stamp still vouches for a.txt: an edit needs no new read.
    let edit = json!({"filePath": "a.txt", "oldString": "one", "newString": "two"});
    back.call_tool("edit_file", edit).await.unwrap();
    let missing = Sandbox::builder().load(&store, "agent-2").unwrap_err();
    assert_eq!(
        missing.kind(),
        shellbox::session::SandboxErrorKind::NotFound
    );
}

/// Hosts that open a fresh store handle for every save and load (as the bindings do)
/// still see each other's saves: a sandbox remembers which snapshot it came from.
#[tokio::test]
async fn sandboxes_saving_through_fresh_handles_report_a_conflict() {
    use shellbox::session::SandboxErrorKind;
    let dir = TempDir::new("store");
    let open = || Store::open(dir.path()).unwrap();
    let first = Sandbox::builder().file("a.txt", "one\n").build();
    first.save(&open(), "chat").await.unwrap();
    let (host_a, _) = Sandbox::builder().load(&open(), "chat").unwrap();
    let (host_b, _) = Sandbox::builder().load(&open(), "chat").unwrap();
    host_a.run("echo a >> a.txt").await.unwrap();
    assert_eq!(host_a.save(&open(), "chat").await.unwrap().seq, 2);
    // Saving again from the same sandbox is no conflict: it wrote snapshot 2.
    assert_eq!(host_a.save(&open(), "chat").await.unwrap().seq, 3);
    host_b.run("echo b >> a.txt").await.unwrap();
    let err = host_b.save(&open(), "chat").await.unwrap_err();
    assert_eq!(err.kind(), SandboxErrorKind::StoreConflict, "{err:?}");
    assert!(err.message().contains("nothing was overwritten"), "{err:?}");
    let (now, report) = Sandbox::builder().load(&open(), "chat").unwrap();
    assert_eq!(report.seq, 3);
    assert_eq!(now.run("cat a.txt").await.unwrap().stdout, b"one\na\n");
    // A fork derives from the same snapshot; a fresh sandbox knows none and just saves.
    let fork = now.fork();
    now.save(&open(), "chat").await.unwrap();
    let err = fork.save(&open(), "chat").await.unwrap_err();
    assert_eq!(err.kind(), SandboxErrorKind::StoreConflict);
    assert_eq!(
        Sandbox::builder()
            .build()
            .save(&open(), "chat")
            .await
            .unwrap()
            .seq,
        5
    );
}

#[tokio::test]
async fn a_template_in_a_store_is_built_once_across_processes() {
    let dir = TempDir::new("store");
    let make = || {
        Template::builder()
            .revalidation_key(|| "v1".to_owned())
            .bootstrap(|sb| async move {
                sb.write_text_file("ready", "yes\n").await?;
                Ok(())
            })
            .store(Store::open(dir.path()).unwrap())
            .build()
    };
    let first = make();
    first.session().await.unwrap();
    assert_eq!(first.builds(), 1);
    // A second template object with the same fingerprint (a later process) reuses it.
    let second = make();
    let sb = second.session().await.unwrap();
    assert_eq!(second.builds(), 0);
    assert_eq!(sb.read_text_file("ready").await.unwrap(), "yes\n");
}

#[test]
fn gc_in_a_directory_removes_only_unreferenced_blobs_after_two_marks() {
    let dir = TempDir::new("store");
    let store = Store::open(dir.path()).unwrap();
    let mut keep = Fs::new(Clock::virtual_at(0));
    keep.write_file("/workspace/v", version('K').as_bytes())
        .unwrap();
    store.save("keep", &snapshot(keep)).unwrap();
    let before = blobs_in(dir.path()).len();
    let mut other = Fs::new(Clock::virtual_at(0));
    other
        .write_file("/workspace/v", version('D').as_bytes())
        .unwrap();
    store.save("drop", &snapshot(other)).unwrap();
    assert!(blobs_in(dir.path()).len() > before);
    assert!(store.delete("drop").unwrap());
    let first = store.gc(std::time::Duration::ZERO).unwrap();
    assert_eq!(first.deleted, 0);
    let second = store.gc(std::time::Duration::ZERO).unwrap();
    assert_eq!(second.deleted, first.unreferenced);
    assert!(second.bytes_freed > 0);
    assert_eq!(blobs_in(dir.path()).len(), before);
    let loaded = Store::open(dir.path()).unwrap().load("keep").unwrap();
    assert_eq!(
        loaded.fs.read_file("/workspace/v").unwrap().as_slice(),
        version('K').as_bytes()
    );
}

/// Two hosts start the same new session: both find it missing, one saves first. The
/// other's save must not publish over it as the next snapshot (it had no conflict
/// check: nothing was "seen"), which lost the first host's files while both reported
/// success (tests/store_s3.rs `concurrent_saves_from_two_processes_lose_nothing_silently`
/// failed this way under load).
#[test]
fn a_save_after_finding_the_session_missing_is_a_conflict_once_another_handle_saved_it() {
    let dir = TempDir::new("store");
    let (a, b) = (
        Store::open(dir.path()).unwrap(),
        Store::open(dir.path()).unwrap(),
    );
    assert_eq!(a.load("s").unwrap_err().kind, StoreErrorKind::NotFound);
    assert_eq!(b.load("s").unwrap_err().kind, StoreErrorKind::NotFound);
    let mut from_b = Fs::new(Clock::virtual_at(0));
    from_b.write_file("/workspace/b", b"b\n").unwrap();
    assert_eq!(b.save("s", &snapshot(from_b)).unwrap().seq, 1);
    let mut from_a = Fs::new(Clock::virtual_at(0));
    from_a.write_file("/workspace/a", b"a\n").unwrap();
    let err = a.save("s", &snapshot(from_a)).unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Conflict, "{err}");
    assert!(err.message.contains("found no snapshot"), "{err}");
    let latest = Store::open(dir.path()).unwrap().load("s").unwrap();
    assert_eq!(latest.report.seq, 1);
    assert!(latest.fs.exists("/workspace/b"));
    // Loading again makes A current: it saves on top of B's work.
    let mut again = a.load("s").unwrap().fs;
    again.write_file("/workspace/a", b"a\n").unwrap();
    assert_eq!(a.save("s", &snapshot(again)).unwrap().seq, 2);
    let both = Store::open(dir.path()).unwrap().load("s").unwrap().fs;
    assert!(both.exists("/workspace/a") && both.exists("/workspace/b"));
}

/// The CLI's path: a sandbox built new because its session was missing, saved after
/// another host created the session, is a conflict rather than a save over it.
#[test]
fn a_new_sandbox_for_a_missing_session_does_not_save_over_one_created_meanwhile() {
    use shellbox::session::SandboxErrorKind;
    let dir = TempDir::new("store");
    let store = Store::open(dir.path()).unwrap();
    let builder = Sandbox::builder();
    let missing = builder.clone().load(&store, "s").unwrap_err();
    assert_eq!(missing.kind(), SandboxErrorKind::NotFound);
    let fresh = builder.file("mine", "mine\n").build();
    let other = Sandbox::builder().file("theirs", "theirs\n").build();
    other
        .save_blocking(&Store::open(dir.path()).unwrap(), "s")
        .unwrap();
    let err = fresh.save_blocking(&store, "s").unwrap_err();
    assert!(err.to_string().contains("saved elsewhere"), "{err}");
    let (back, _) = Sandbox::builder()
        .load(&Store::open(dir.path()).unwrap(), "s")
        .unwrap();
    assert!(back.fs().exists("/workspace/theirs"));
}

#[test]
fn a_save_after_another_handle_saved_is_a_conflict() {
    let dir = TempDir::new("store");
    let (a, b) = (
        Store::open(dir.path()).unwrap(),
        Store::open(dir.path()).unwrap(),
    );
    a.save("s", &snapshot(varied_fs())).unwrap();
    let loaded = b.load("s").unwrap();
    a.save("s", &snapshot(varied_fs())).unwrap();
    let err = b.save("s", &snapshot(loaded.fs)).unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Conflict, "{err}");
    assert_eq!(
        Store::open(dir.path())
            .unwrap()
            .load("s")
            .unwrap()
            .report
            .seq,
        2
    );
}
