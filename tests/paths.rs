#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! Nothing reaches the host (issue 6): `..` chains, symlinks pointing outside (absolute
//! and relative), symlink swaps, hard links and hostile names, through the shell, the
//! agent tools and the CLI's `--root` seeding; none reads or writes a host file, and the
//! host environment, clock and PIDs do not leak into a script.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{Value, json};
use shellbox::{Limits, Sandbox, Shell};

mod common;
use common::TempDir;

/// Text only the host side has: it must never show up inside a sandbox.
const SECRET: &str = "host-secret-3f9c1a";

fn rt() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Runtime::new().unwrap())
}

/// A host directory holding a secret file, and its path as the script sees it.
fn host_secret() -> (TempDir, String) {
    let dir = TempDir::new("paths-secret");
    dir.write("secret.txt", SECRET);
    let path = dir.path().join("secret.txt").to_str().unwrap().to_owned();
    (dir, path)
}

fn run(script: &str) -> (i32, String, String) {
    let mut sh = Shell::builder().limits(Limits::hardened()).build();
    let out = sh.exec(script);
    (
        out.exit_code,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file under `dir` with its bytes, symlink targets and modes: a picture of the
/// host directory to compare before and after.
fn picture(dir: &Path) -> BTreeMap<String, String> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let p = e.path();
            let rel = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            use std::os::unix::fs::PermissionsExt;
            let mode = meta.permissions().mode();
            if meta.file_type().is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.insert(rel, format!("link {} {mode:o}", t.display()));
            } else if meta.is_dir() {
                out.insert(rel.clone(), format!("dir {mode:o}"));
                walk(base, &p, out);
            } else {
                let data = std::fs::read(&p).unwrap();
                out.insert(
                    rel,
                    format!("file {mode:o} {}", String::from_utf8_lossy(&data)),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn dot_dot_chains_stop_at_the_root() {
    let (_dir, secret) = host_secret();
    let up = "../".repeat(50);
    let script = format!(
        "cd {up}; pwd; cd /workspace/{up}tmp && pwd; cat {up}{secret}; echo rc=$?; \
         ls {up}..; cat /workspace/../../..{secret}; echo rc=$?"
    );
    let (_, out, err) = run(&script);
    assert!(out.starts_with("/\n/tmp\nrc=1\n"), "{out}");
    assert!(out.ends_with("rc=1\n"), "{out}");
    assert!(!out.contains(SECRET) && !err.contains(SECRET));
    assert!(err.contains("No such file or directory"), "{err}");
}

#[test]
fn symlinks_pointing_outside_resolve_inside() {
    let (_dir, secret) = host_secret();
    let rel = format!("{}{}", "../".repeat(30), secret.trim_start_matches('/'));
    let script = format!(
        "ln -s {secret} abs; ln -s {rel} rel; ln -s / root; ln -s ../../../../.. up; \
         cat abs rel root{secret} up{secret}; echo rc=$?; \
         mkdir -p {parent}; echo data > abs; cat {secret}; readlink -f rel up",
        parent = Path::new(&secret).parent().unwrap().display()
    );
    let (_, out, err) = run(&script);
    assert!(!out.contains(SECRET) && !err.contains(SECRET), "{out}{err}");
    assert!(out.contains("rc=1\n"), "{out}");
    // Writing through the link creates the file inside the sandbox only.
    assert!(out.contains("data\n"), "{out}");
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), SECRET);
    assert!(out.ends_with(&format!("{secret}\n/\n")), "{out}");
}

#[test]
fn symlink_swaps_and_hard_links_stay_inside() {
    let (_dir, secret) = host_secret();
    let script = format!(
        "mkdir d; echo inside > d/f; ln d/f hard; ln -s d sw; cat sw/f; \
         rm sw; ln -s {parent} sw; cat sw/secret.txt; echo rc=$?; \
         ln {secret} h2; echo rc=$?; echo more >> hard; cat d/f; ls -i hard d/f | awk '{{print $1}}' | uniq | wc -l",
        parent = Path::new(&secret).parent().unwrap().display()
    );
    let (_, out, err) = run(&script);
    assert_eq!(out, "inside\nrc=1\nrc=1\ninside\nmore\n1\n", "{err}");
    assert!(!err.contains(SECRET));
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), SECRET);
}

#[test]
fn hostile_names_are_kept_exactly() {
    let script = "touch $'a\\nb' $'\\xff' $'tab\\there' -- '-n'; ls | od -An -c | tr -s ' '; \
         touch $(printf 'a%.0s' {1..256}); echo rc=$?; \
         mkdir -p $(printf 'd/%.0s' {1..300}); echo rc=$?; \
         touch 'x/y' 2>/dev/null; echo rc=$?; printf 'a\\0b' | xargs -0 touch; ls a b";
    let (_, out, err) = run(script);
    assert!(out.contains("a \\n b \\n"), "{out}");
    assert!(out.contains("377"), "{out}");
    assert!(out.contains("t a b \\t h e r e"), "{out}");
    assert!(out.contains("rc=1\nrc=1\nrc=1\na\nb\n"), "{out}");
    assert!(err.contains("File name too long"), "{err}");
}

#[test]
fn the_root_overlay_never_writes_the_host() {
    let (_outside, secret) = host_secret();
    let root = TempDir::new("paths-root");
    root.write("file.txt", "original\n");
    root.write("sub/keep.txt", "keep\n");
    std::os::unix::fs::symlink(&secret, root.path().join("abs-link")).unwrap();
    std::os::unix::fs::symlink("../../../../../../../../../../..", root.path().join("up")).unwrap();
    let before = picture(root.path());
    let script = format!(
        "cat abs-link up{secret}; echo rc=$?; echo changed > file.txt; rm -r sub; \
         echo new > new.txt; chmod 000 file.txt; mkdir dir; ln -s x y; \
         echo pwned > abs-link; echo pwned > up{secret}; mv file.txt moved; cat moved 2>&1; ls"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_shellbox"))
        .args(["--root", root.arg(), "-c", &script])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stdout.contains(SECRET) && !stderr.contains(SECRET),
        "{stdout}{stderr}"
    );
    assert!(stdout.contains("rc=1\n"), "{stdout}");
    assert_eq!(picture(root.path()), before, "the host directory changed");
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), SECRET);
}

fn tool(sb: &Sandbox, name: &str, input: Value) -> Result<Value, String> {
    rt().block_on(sb.call_tool(name, input))
        .map_err(|e| e.message.clone())
}

#[test]
fn agent_tools_stay_inside() {
    let (_dir, secret) = host_secret();
    let sb = Sandbox::builder().file("a.txt", "inside\n").build();
    rt().block_on(sb.run(format!(
        "ln -s {secret} /workspace/abs; ln -s {}{secret} /workspace/rel; ln -s / /workspace/root",
        "../".repeat(20)
    )))
    .unwrap();
    let up = "../".repeat(40);
    for path in [
        secret.clone(),
        format!("{up}{secret}"),
        format!("/workspace/{up}{secret}"),
        "abs".to_owned(),
        "rel".to_owned(),
        format!("root{secret}"),
        format!("$HOME/{up}{secret}"),
    ] {
        let r = tool(&sb, "read_file", json!({"filePath": path}));
        let shown = format!("{r:?}");
        assert!(!shown.contains(SECRET), "read_file {path}: {shown}");
        let _ = tool(
            &sb,
            "write_file",
            json!({"filePath": path, "content": "pwned"}),
        );
        let _ = tool(
            &sb,
            "edit_file",
            json!({"filePath": path, "oldString": "host", "newString": "pwned"}),
        );
        assert_eq!(std::fs::read_to_string(&secret).unwrap(), SECRET, "{path}");
    }
    let parent = Path::new(&secret).parent().unwrap().display().to_string();
    for (name, input) in [
        ("glob", json!({"pattern": "**/secret*", "path": parent})),
        ("glob", json!({"pattern": format!("{up}**/secret.txt")})),
        ("grep", json!({"pattern": "host-secret", "path": "/"})),
        (
            "grep",
            json!({"pattern": "host-secret", "path": format!("{up}{parent}")}),
        ),
        (
            "bash",
            json!({"command": format!("cat {secret} abs rel; grep -r host-secret / 2>/dev/null")}),
        ),
    ] {
        let r = tool(&sb, name, input.clone());
        assert!(!format!("{r:?}").contains(SECRET), "{name} {input}: {r:?}");
    }
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), SECRET);
}

#[test]
fn host_environment_does_not_leak() {
    let (_, out, _) = run("env; set");
    for (k, v) in std::env::vars() {
        if v.len() < 4
            || matches!(
                k.as_str(),
                // Values bash gives every shell may coincide with the host's.
                "SHELL"
                    | "SHLVL"
                    | "_"
                    | "TERM"
                    | "LANG"
                    | "PWD"
                    | "OLDPWD"
                    | "HOSTTYPE"
                    | "OSTYPE"
                    | "MACHTYPE"
            )
        {
            continue;
        }
        assert!(
            !out.contains(&format!("{k}={v}")),
            "host variable {k} leaked"
        );
    }
    // What a caller passes in does arrive.
    let mut sh = Shell::builder().env("PASSED", "yes-passed").build();
    let o = sh.exec("echo $PASSED");
    assert_eq!(o.stdout, b"yes-passed\n");
}

#[test]
fn host_clock_and_pids_do_not_leak() {
    // The background sleep runs on the job's own time; waiting for it takes the five
    // virtual seconds it slept.
    let script = "echo $$ $BASHPID $PPID; (echo $BASHPID); sleep 5 & echo $!; wait; date +%s; echo $SECONDS $RANDOM";
    let (_, a, _) = run(script);
    let (_, b, _) = run(script);
    assert_eq!(a, b, "runs must be deterministic");
    let pid = std::process::id().to_string();
    assert!(
        !a.split_whitespace().any(|w| w == pid),
        "host pid leaked: {a}"
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let shown: u64 = a.lines().nth(3).unwrap().trim().parse().unwrap();
    // The epoch plus the five virtual seconds slept.
    assert_eq!(
        shown,
        shellbox::session::DEFAULT_EPOCH as u64 + 5,
        "virtual clock"
    );
    assert!(now.abs_diff(shown) > 60, "host clock leaked");
}

#[test]
fn background_jobs_keep_their_own_virtual_time() {
    // What each side reads depends on virtual time only, never on how the host
    // schedules the job's thread: the job's sleeps do not move the foreground, the
    // foreground's do not move the job, waiting catches up with the job, and a
    // pipeline takes as long as its slowest stage.
    let script = "t0=$(date +%s); sleep 5 & sleep 2; echo fg $(( $(date +%s) - t0 )); \
        wait; echo waited $(( $(date +%s) - t0 )); \
        (sleep 1; touch job-file; echo job $(( $(date +%s) - t0 ))) > job.out & \
        sleep 7; wait; cat job.out; echo mtime $(( $(stat -c %Y job-file) - t0 )); \
        sleep 3 | sleep 1; echo pipe $(( $(date +%s) - t0 )); \
        { sleep 2 | sleep 4; } & wait; echo job-pipe $(( $(date +%s) - t0 )); \
        sleep 10 & jobs; sleep 10; wait; echo end $(( $(date +%s) - t0 ))";
    let want = "fg 2\nwaited 5\njob 6\nmtime 6\npipe 15\njob-pipe 19\n\
                [1]+  Running                 sleep 10 &\nend 29\n";
    for _ in 0..20 {
        let (status, out, err) = run(script);
        assert_eq!((status, out.as_str(), err.as_str()), (0, want, ""));
    }
}

#[test]
fn root_files_are_held_to_the_limits_when_first_read() {
    use shellbox::fs::{Clock, Errno, Fs, FsLimits};
    let host = TempDir::new("paths-seed-limits");
    for name in ["a", "b", "c"] {
        host.write(&format!("{name}.txt"), "12345678");
    }
    host.write("big.txt", &"x".repeat(11));
    let fs = Fs::new(Clock::virtual_at(0));
    // Room for two of the three 8-byte files beside what the default layout holds.
    let limits = FsLimits {
        max_file_bytes: 10,
        max_total_bytes: fs.usage().0 + 20,
        ..FsLimits::default()
    };
    let mut fs = fs.with_limits(limits);
    // Listing reads nothing, so nothing is refused yet.
    shellbox::session::copy_host_dir(&mut fs, host.path(), "/tmp/w", &[]).unwrap();
    let read = |fs: &Fs, name: &str| {
        fs.read_file(&format!("/tmp/w/{name}.txt"))
            .map(|d| d.len())
            .map_err(|e| e.errno)
    };
    assert_eq!(read(&fs, "big"), Err(Errno::EFBIG));
    // Its size is known without reading it.
    assert_eq!(fs.stat("/tmp/w/big.txt").map(|m| m.size).ok(), Some(11));
    assert_eq!(read(&fs, "a"), Ok(8));
    assert_eq!(read(&fs, "b"), Ok(8));
    assert_eq!(read(&fs, "c"), Err(Errno::ENOSPC));
    // Refused, not broken: asked again, it is refused again; what was read stays.
    assert_eq!(read(&fs, "c"), Err(Errno::ENOSPC));
    assert_eq!(read(&fs, "a"), Ok(8));
    // A snapshot shares the bytes read, and the budget they count against.
    assert_eq!(read(&fs.snapshot(), "c"), Err(Errno::ENOSPC));

    // Seeding itself refuses what the listing shows will not fit, naming the path.
    let fs = Fs::new(Clock::virtual_at(0));
    let limits = FsLimits {
        // /tmp/w, a.txt, b.txt and big.txt.
        max_files: fs.usage().1 + 4,
        ..FsLimits::default()
    };
    let mut fs = fs.with_limits(limits);
    let err = shellbox::session::copy_host_dir(&mut fs, host.path(), "/tmp/w", &[]).unwrap_err();
    assert!(
        err.to_string().contains("c.txt: No space left on device"),
        "{err}"
    );
    // What came before the failure is there.
    assert_eq!(read(&fs, "b"), Ok(8));

    // A refusal early in a tree the listing thread is far ahead in (more directories
    // than it may list ahead) still ends the copy, promptly.
    let wide = TempDir::new("paths-seed-wide");
    for d in 0..150 {
        wide.write(&format!("d{d:03}/f"), "x");
    }
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let fs = Fs::new(Clock::virtual_at(0));
        let limits = FsLimits {
            max_files: fs.usage().1 + 3,
            ..FsLimits::default()
        };
        let mut fs = fs.with_limits(limits);
        let copied = shellbox::session::copy_host_dir(&mut fs, wide.path(), "/tmp/w", &[]);
        let _ = done_tx.send(copied.map_err(|e| e.to_string()));
    });
    let copied = done_rx.recv_timeout(std::time::Duration::from_secs(20));
    let err = copied.expect("the copy ends").unwrap_err();
    assert!(err.contains("d002: No space left on device"), "{err}");

    // Nesting deeper than 64 levels ends the copy, naming where.
    let deep = TempDir::new("paths-seed-deep");
    let mut rel = String::from("n");
    for _ in 0..66 {
        rel.push_str("/n");
    }
    deep.write(&format!("{rel}/f"), "x");
    let mut fs = Fs::new(Clock::virtual_at(0));
    let err = shellbox::session::copy_host_dir(&mut fs, deep.path(), "/tmp/w", &[]).unwrap_err();
    assert!(
        err.to_string().contains("nested deeper than 64 levels"),
        "{err}"
    );
    assert!(err.to_string().contains("/n/n/n/n"), "{err}");

    // The CLI starts without reading a file, and ends a script that reads one over
    // the 256 MiB default with the limit's message: a sparse 300 MiB file.
    let sparse = TempDir::new("paths-seed-sparse");
    let f = std::fs::File::create(sparse.path().join("huge.bin")).unwrap();
    f.set_len(300 << 20).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shellbox"))
        .args([
            "--root",
            sparse.arg(),
            "-c",
            "echo ran; stat -c %s huge.bin; cat huge.bin; echo not here",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ran\n314572800\n");
    assert_eq!(out.status.code(), Some(126), "{stderr}");
    assert!(stderr.contains("cat: huge.bin: File too large"), "{stderr}");
    assert!(
        stderr.contains("file size limit exceeded (268435456 bytes)"),
        "{stderr}"
    );
}

#[test]
fn seeded_files_are_fixed_from_their_first_look_and_never_followed_out() {
    use shellbox::fs::{Clock, Errno, Fs};
    let (outside, secret) = host_secret();
    let host = TempDir::new("paths-seed-lazy");
    for name in [
        "grown", "shrunk", "replaced", "swapped", "edited", "kept", "late",
    ] {
        host.write(&format!("{name}.txt"), "abcd");
    }
    host.write("sub/secret.txt", "inside");
    let mut fs = Fs::new(Clock::virtual_at(0));
    shellbox::session::copy_host_dir(&mut fs, host.path(), "/tmp/w", &[]).unwrap();
    // A first look (stat) at all but `late`.
    for name in ["grown", "shrunk", "replaced", "swapped", "edited", "kept"] {
        assert_eq!(fs.stat(&format!("/tmp/w/{name}.txt")).unwrap().size, 4);
    }
    let snapshot = fs.snapshot();

    // Changed on the host since: longer, another file, a link out.
    host.write("grown.txt", "abcdef");
    host.write("shrunk.txt", "ab");
    let other = host.path().join("other");
    std::fs::write(&other, "wxyz").unwrap();
    std::fs::rename(&other, host.path().join("replaced.txt")).unwrap();
    std::fs::remove_file(host.path().join("swapped.txt")).unwrap();
    std::os::unix::fs::symlink(&secret, host.path().join("swapped.txt")).unwrap();
    // Same file, same size: its bytes are those of the first read.
    host.write("edited.txt", "wxyz");
    // Nothing had looked at this one: it is taken as it is now.
    host.write("late.txt", "abcdef");
    // A listed directory swapped for a link to the outside.
    std::fs::rename(host.path().join("sub"), host.path().join("sub-moved")).unwrap();
    std::os::unix::fs::symlink(outside.path(), host.path().join("sub")).unwrap();

    let read = |fs: &Fs, name: &str| {
        fs.read_file(&format!("/tmp/w/{name}"))
            .map(|d| String::from_utf8_lossy(&d).into_owned())
            .map_err(|e| e.errno)
    };
    for name in [
        "grown.txt",
        "shrunk.txt",
        "replaced.txt",
        "swapped.txt",
        "sub/secret.txt",
    ] {
        assert_eq!(read(&fs, name), Err(Errno::EIO), "{name}");
    }
    assert_eq!(read(&fs, "edited.txt"), Ok("wxyz".to_owned()));
    assert_eq!(read(&fs, "kept.txt"), Ok("abcd".to_owned()));
    assert_eq!(read(&fs, "late.txt"), Ok("abcdef".to_owned()));
    assert_eq!(fs.stat("/tmp/w/late.txt").map(|m| m.size).ok(), Some(6));
    // A snapshot shares the first read; the size was the first look's all along.
    assert_eq!(read(&snapshot, "edited.txt"), Ok("wxyz".to_owned()));
    assert_eq!(fs.stat("/tmp/w/grown.txt").map(|m| m.size).ok(), Some(4));
    let report = fs.check_host_files().unwrap_err();
    assert!(report.contains("grown.txt: Input/output error"), "{report}");

    // A FIFO put in a file's place reads as EIO at once (it is never waited on).
    let fifo = Command::new("mkfifo")
        .arg(host.path().join("fifo.txt"))
        .status();
    if fifo.is_ok_and(|s| s.success()) {
        let mut fresh = Fs::new(Clock::virtual_at(0));
        host.write("gone.txt", "abcd");
        shellbox::session::copy_host_dir(&mut fresh, host.path(), "/tmp/w", &[]).unwrap();
        std::fs::remove_file(host.path().join("gone.txt")).unwrap();
        std::fs::rename(host.path().join("fifo.txt"), host.path().join("gone.txt")).unwrap();
        assert_eq!(read(&fresh, "gone.txt"), Err(Errno::EIO));
        // A FIFO listed as one is not copied at all.
        Command::new("mkfifo")
            .arg(host.path().join("pipe"))
            .status()
            .unwrap();
        let mut listed = Fs::new(Clock::virtual_at(0));
        shellbox::session::copy_host_dir(&mut listed, host.path(), "/tmp/w", &[]).unwrap();
        assert!(!listed.exists("/tmp/w/pipe"));
    }

    // Writing takes the file into memory; the host keeps its bytes.
    fs.append_file("/tmp/w/kept.txt", b"!").unwrap();
    assert_eq!(read(&fs, "kept.txt"), Ok("abcd!".to_owned()));
    assert_eq!(
        std::fs::read_to_string(host.path().join("kept.txt")).unwrap(),
        "abcd"
    );
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), SECRET);
}

#[test]
fn walking_a_seeded_tree_by_name_looks_at_no_file() {
    let host = TempDir::new("paths-seed-walk");
    host.write("d/one.txt", "1");
    host.write("d/two.txt", "22");
    let mut sh = Shell::builder().build();
    shellbox::session::copy_host_dir(&mut sh.fs_mut(), host.path(), "/workspace", &[]).unwrap();
    let out = sh.exec("find . -name '*.txt'; ls -R; find . -type f");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "./d/one.txt\n./d/two.txt\n.:\nd\n\n./d:\none.txt\ntwo.txt\n./d/one.txt\n./d/two.txt\n"
    );
    // Neither walk took a file's size or identity, so one replaced on the host since
    // is read as it is now; a walk that needs sizes takes them.
    let other = host.path().join("other");
    std::fs::write(&other, "replaced").unwrap();
    std::fs::rename(&other, host.path().join("d/one.txt")).unwrap();
    let out = sh.exec("cat d/one.txt; echo; find . -size -3c; ls -l d | grep -c one");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "replaced\n./d/two.txt\n1\n"
    );
}
