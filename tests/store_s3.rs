//! The store on S3-compatible object storage, against a real server started here on
//! 127.0.0.1: moto's standalone server (`pip install 'moto[server]'`), found as
//! `$SHELLBOX_MOTO_SERVER` or `moto_server` on the PATH. Without one every test says
//! so and passes, unless `SHELLBOX_REQUIRE_S3=1` (CI sets it), which makes a missing
//! server a failure.

#![cfg(feature = "s3")]
#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use shellbox::fs::{Clock, Fs};
use shellbox::store::{S3Config, Snapshot, Store, StoreErrorKind};

/// A moto server on a free port. It runs under a shell that stops it when this
/// process's end closes the shell's standard input (a static is never dropped, and a
/// leftover server would hold whatever the test's parent left open).
struct Server {
    _stdin: std::process::ChildStdin,
    _child: Child,
    port: u16,
}

fn moto_binary() -> Option<String> {
    if let Ok(p) = std::env::var("SHELLBOX_MOTO_SERVER")
        && !p.is_empty()
    {
        return Some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("moto_server"))
        .find(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
}

/// Starts a server, or says why not (and fails when one is required).
fn server() -> Option<Server> {
    let Some(bin) = moto_binary() else {
        assert!(
            std::env::var("SHELLBOX_REQUIRE_S3").as_deref() != Ok("1"),
            "SHELLBOX_REQUIRE_S3=1 but no moto_server: set SHELLBOX_MOTO_SERVER"
        );
        eprintln!(
            "skipped: no S3-compatible server (pip install 'moto[server]' and put moto_server \
             on the PATH, or set SHELLBOX_MOTO_SERVER)"
        );
        return None;
    };
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let mut child = Command::new("sh")
        .args([
            "-c",
            "\"$0\" -H 127.0.0.1 -p \"$1\" >/dev/null 2>&1 & pid=$!; read _; kill $pid",
            &bin,
            &port.to_string(),
        ])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{bin}: {e}"));
    let stdin = child.stdin.take().expect("piped stdin");
    let server = Server {
        _stdin: stdin,
        _child: child,
        port,
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "moto_server did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(server)
}

impl Server {
    fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A raw request (moto takes them unsigned); returns the status code.
    fn request(&self, method: &str, path: &str, body: &[u8]) -> u16 {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .unwrap();
        s.write_all(body).unwrap();
        let mut reply = String::new();
        let _ = s.read_to_string(&mut reply);
        reply
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0)
    }

    /// Replaces an object's bytes.
    fn overwrite(&self, bucket: &str, key: &str, data: &[u8]) {
        use object_store::ObjectStoreExt;
        let client = object_store::aws::AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_endpoint(self.endpoint())
            .with_allow_http(true)
            .with_region("us-east-1")
            .with_access_key_id("test")
            .with_secret_access_key("test")
            .build()
            .unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(client.put(&object_store::path::Path::from(key), data.to_vec().into()))
            .unwrap();
    }

    /// A new bucket; returns its `s3://` URL with a prefix.
    fn bucket(&self) -> String {
        static N: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "shellbox-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        assert_eq!(self.request("PUT", &format!("/{name}"), b""), 200);
        format!("s3://{name}/stores/one")
    }

    fn store(&self, url: &str) -> Store {
        Store::open_s3(self.config(url)).unwrap()
    }

    /// The endpoint and dummy credentials, as a host would give them.
    fn config(&self, url: &str) -> S3Config {
        let mut c = S3Config::from_url(url).unwrap();
        c.endpoint = Some(self.endpoint());
        c.region = Some("us-east-1".to_owned());
        c.access_key_id = Some("test".to_owned());
        c.secret_access_key = Some("test".to_owned());
        c
    }
}

/// One server for the whole test binary (each test gets its own bucket).
fn shared() -> Option<&'static Server> {
    static SERVER: std::sync::OnceLock<Option<Server>> = std::sync::OnceLock::new();
    SERVER.get_or_init(server).as_ref()
}

fn fs_with(files: &[(&str, String)]) -> Fs {
    let mut fs = Fs::new(Clock::virtual_at(0));
    for (path, text) in files {
        let dir = path.rsplit_once('/').map_or("/", |(d, _)| d);
        fs.mkdir_all(dir, 0o755).unwrap();
        fs.write_file(path, text.as_bytes()).unwrap();
    }
    fs
}

fn snap(fs: &Fs) -> Snapshot {
    Snapshot {
        fs: fs.clone(),
        meta: serde_json::json!({"by": "test"}),
    }
}

fn text(fs: &Fs, path: &str) -> String {
    String::from_utf8(fs.read_file(path).unwrap().to_vec()).unwrap()
}

/// Content long enough to get a blob of its own.
fn long(tag: &str) -> String {
    format!("{}\n", tag.repeat(100))
}

#[test]
fn a_session_saved_on_one_store_loads_on_another_and_saves_only_new_blobs() {
    let Some(srv) = shared() else { return };
    let url = srv.bucket();
    let mut fs = fs_with(&[
        ("/workspace/a.txt", long("a")),
        ("/workspace/src/b.rs", long("b")),
        ("/workspace/small", "tiny\n".to_owned()),
    ]);
    let first = srv.store(&url).save("s", &snap(&fs)).unwrap();
    assert!(first.blobs_written >= 4, "{first:?}");
    assert!(first.manifest.to_string_lossy().starts_with(&url));
    let other = srv.store(&url);
    assert_eq!(other.sessions().unwrap(), ["s"]);
    let loaded = other.load("s").unwrap();
    assert_eq!(text(&loaded.fs, "/workspace/src/b.rs"), long("b"));
    assert_eq!(text(&loaded.fs, "/workspace/small"), "tiny\n");
    assert_eq!(loaded.meta["by"], "test");
    // One changed file: its blob and the listings on its path, nothing else.
    fs.write_file("/workspace/a.txt", long("z").as_bytes())
        .unwrap();
    let second = other.save("s", &snap(&fs)).unwrap();
    assert_eq!(second.seq, 2);
    assert_eq!(second.blobs_written, 3, "{second:?}");
    assert_eq!(
        text(&srv.store(&url).load("s").unwrap().fs, "/workspace/a.txt"),
        long("z")
    );
}

#[test]
fn a_save_over_another_hosts_newer_snapshot_is_a_conflict_and_overwrites_nothing() {
    let Some(srv) = shared() else { return };
    let url = srv.bucket();
    srv.store(&url)
        .save(
            "s",
            &snap(&fs_with(&[("/workspace/v", "base\n".to_owned())])),
        )
        .unwrap();
    let (host_a, host_b) = (srv.store(&url), srv.store(&url));
    let mut a = host_a.load("s").unwrap().fs;
    let mut b = host_b.load("s").unwrap().fs;
    b.write_file("/workspace/v", b"from b\n").unwrap();
    host_b.save("s", &snap(&b)).unwrap();
    a.write_file("/workspace/v", b"from a\n").unwrap();
    let err = host_a.save("s", &snap(&a)).unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Conflict, "{err}");
    assert!(err.message.contains("saved elsewhere"), "{err}");
    assert_eq!(
        text(&srv.store(&url).load("s").unwrap().fs, "/workspace/v"),
        "from b\n"
    );
    // Loading again makes host A current: its next save goes through.
    let mut a = host_a.load("s").unwrap().fs;
    a.write_file("/workspace/v", b"a again\n").unwrap();
    assert_eq!(host_a.save("s", &snap(&a)).unwrap().seq, 3);
}

#[test]
fn a_corrupt_blob_is_reported_and_the_previous_snapshot_loads() {
    let Some(srv) = shared() else { return };
    let url = srv.bucket();
    let store = srv.store(&url);
    let mut fs = fs_with(&[("/workspace/keep", long("k"))]);
    store.save("s", &snap(&fs)).unwrap();
    fs.write_file("/workspace/new", long("n").as_bytes())
        .unwrap();
    store.save("s", &snap(&fs)).unwrap();
    // Overwrite the new file's blob with other bytes, as a damaged object would be
    // (through the S3 API itself: the store never rewrites a blob).
    let hash = shellbox_sha256(long("n").as_bytes());
    let (bucket, prefix) = url.trim_start_matches("s3://").split_once('/').unwrap();
    srv.overwrite(
        bucket,
        &format!("{prefix}/blobs/{}/{}", &hash[..2], &hash[2..]),
        b"not the content",
    );
    let loaded = srv.store(&url).load("s").unwrap();
    assert_eq!(loaded.report.seq, 1);
    assert!(!loaded.fs.exists("/workspace/new"));
    let [d] = loaded.report.discarded.as_slice() else {
        panic!("{:?}", loaded.report)
    };
    assert!(d.reason.contains("corrupt"), "{}", d.reason);
}

fn shellbox_sha256(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn gc_removes_unreferenced_blobs_in_two_marks_and_keeps_what_saves_use() {
    let Some(srv) = shared() else { return };
    let url = srv.bucket();
    let store = srv.store(&url);
    store
        .save("keep", &snap(&fs_with(&[("/workspace/k", long("k"))])))
        .unwrap();
    store
        .save("drop", &snap(&fs_with(&[("/workspace/d", long("d"))])))
        .unwrap();
    assert!(store.delete("drop").unwrap());
    // The first mark only notes the unreferenced blobs; the second (grace 0) removes them.
    let first = store.gc(Duration::ZERO).unwrap();
    assert_eq!(first.deleted, 0, "{first:?}");
    assert!(first.unreferenced >= 2, "{first:?}");
    let second = store.gc(Duration::ZERO).unwrap();
    assert_eq!(second.deleted, first.unreferenced, "{second:?}");
    // A grace not yet over removes nothing.
    store
        .save("drop2", &snap(&fs_with(&[("/workspace/e", long("e"))])))
        .unwrap();
    store.delete("drop2").unwrap();
    store.gc(Duration::ZERO).unwrap();
    assert_eq!(store.gc(Duration::from_secs(3600)).unwrap().deleted, 0);
    assert_eq!(
        text(&srv.store(&url).load("keep").unwrap().fs, "/workspace/k"),
        long("k")
    );

    // Collections running while another handle saves never leave it a broken session.
    let saver = std::thread::spawn({
        let config = srv.config(&url);
        move || {
            let store = Store::open_s3(config).unwrap();
            for i in 0..15 {
                let fs = fs_with(&[
                    ("/workspace/same", long("s")),
                    ("/workspace/i", long(&i.to_string())),
                ]);
                store.save("busy", &snap(&fs)).unwrap();
            }
        }
    });
    let collector = srv.store(&url);
    while !saver.is_finished() {
        collector.gc(Duration::ZERO).unwrap();
    }
    saver.join().unwrap();
    collector.gc(Duration::ZERO).unwrap();
    collector.gc(Duration::ZERO).unwrap();
    let busy = srv.store(&url).load("busy").unwrap();
    assert!(busy.report.discarded.is_empty(), "{:?}", busy.report);
    assert_eq!(text(&busy.fs, "/workspace/i"), long("14"));
    assert_eq!(text(&busy.fs, "/workspace/same"), long("s"));
}

#[test]
fn a_session_found_missing_and_created_elsewhere_meanwhile_is_a_conflict_to_save() {
    let Some(srv) = shared() else { return };
    let url = srv.bucket();
    let (host_a, host_b) = (srv.store(&url), srv.store(&url));
    assert_eq!(host_a.load("s").unwrap_err().kind, StoreErrorKind::NotFound);
    host_b
        .save("s", &snap(&fs_with(&[("/workspace/b", "b\n".to_owned())])))
        .unwrap();
    let err = host_a
        .save("s", &snap(&fs_with(&[("/workspace/a", "a\n".to_owned())])))
        .unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Conflict, "{err}");
    assert_eq!(
        text(&srv.store(&url).load("s").unwrap().fs, "/workspace/b"),
        "b\n"
    );
}

/// Runs the CLI on session `s` of the store at `url`.
fn cli(srv: &Server, url: &str, script: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shellbox"));
    c.args(["--store", url, "--session", "s", "-c", script])
        .env("AWS_ENDPOINT_URL", srv.endpoint())
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

#[test]
fn concurrent_saves_from_two_processes_lose_nothing_silently() {
    let Some(srv) = shared() else { return };
    let url = srv.bucket();
    let mut done = Vec::new();
    for round in 0..4 {
        let kids: Vec<(String, Child)> = ["p", "q"]
            .iter()
            .map(|who| {
                let file = format!("{who}{round}");
                let child = cli(srv, &url, &format!("echo {file} > /workspace/{file}"))
                    .spawn()
                    .unwrap();
                (file, child)
            })
            .collect();
        let mut saved = 0;
        for (file, child) in kids {
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if out.status.success() {
                saved += 1;
                done.push(file);
            } else {
                // The loser is told, and says it was a conflict.
                assert!(stderr.contains("saved elsewhere"), "{file}: {stderr}");
            }
        }
        assert!(saved >= 1, "round {round}");
    }
    let fs = srv.store(&url).load("s").unwrap().fs;
    for file in &done {
        assert_eq!(
            text(&fs, &format!("/workspace/{file}")),
            format!("{file}\n")
        );
    }
}

#[test]
fn a_save_killed_mid_upload_leaves_the_last_complete_snapshot() {
    let Some(srv) = shared() else { return };
    let url = srv.bucket();
    let out = cli(srv, &url, "echo one > /workspace/first")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for delay_ms in [30, 120, 400, 1000] {
        // Many distinct files of their own blobs: the upload takes a while.
        let script = format!(
            "for i in $(seq 400); do printf '%0300d {delay_ms}\\n' $i > /workspace/f$i; done"
        );
        let mut child = cli(srv, &url, &script).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let loaded = srv.store(&url).load("s").unwrap();
        assert_eq!(
            text(&loaded.fs, "/workspace/first"),
            "one\n",
            "{delay_ms} ms"
        );
        if loaded.fs.exists("/workspace/f1") {
            // The save finished before the kill: all of it is there.
            assert!(loaded.fs.exists("/workspace/f400"), "{delay_ms} ms");
        }
    }
    // A later save still works on top of whatever is left.
    let out = cli(srv, &url, "cat /workspace/first").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "one\n");
}
