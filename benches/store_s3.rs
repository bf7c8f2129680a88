//! Save and load of a 20,000-file session on S3-compatible storage (moto's server on
//! 127.0.0.1, found as `$SHELLBOX_MOTO_SERVER` or `moto_server` on the PATH) and, for
//! comparison, on a local directory: the first save, a save after a one-file change
//! (only the new blobs move), and a load, each with its time and the bytes it moved.
//! `cargo bench --bench store_s3`; prints a table (no criterion: each step is one
//! timed run of seconds).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use shellbox::fs::{Clock, Fs};
use shellbox::store::{S3Config, Snapshot, Store};

const FILES: usize = 20_000;

fn session() -> Fs {
    let mut fs = Fs::new(Clock::virtual_at(0));
    for d in 0..200 {
        fs.mkdir_all(&format!("/workspace/d{d}"), 0o755).unwrap();
    }
    for i in 0..FILES {
        // 100 bytes: past the inline size, so each file is a blob of its own.
        let body = format!("{i:0>99}\n");
        fs.write_file(
            &format!("/workspace/d{}/f{i}.txt", i % 200),
            body.as_bytes(),
        )
        .unwrap();
    }
    fs
}

fn run(label: &str, open: impl Fn() -> Store) {
    let store = open();
    let mut fs = session();
    let snap = |fs: &Fs| Snapshot {
        fs: fs.clone(),
        meta: serde_json::json!({}),
    };
    let t = Instant::now();
    let first = store.save("bench", &snap(&fs)).unwrap();
    let first_t = t.elapsed();
    fs.write_file("/workspace/d7/f7.txt", b"changed\n").unwrap();
    let t = Instant::now();
    let second = store.save("bench", &snap(&fs)).unwrap();
    let second_t = t.elapsed();
    let t = Instant::now();
    let loaded = open().load("bench").unwrap();
    let load_t = t.elapsed();
    assert_eq!(
        loaded
            .fs
            .read_file("/workspace/d7/f7.txt")
            .unwrap()
            .as_slice(),
        b"changed\n"
    );
    println!(
        "| {label} | {:.2} s, {} blobs, {:.1} MB | {:.3} s, {} blobs, {} B + manifest {} B | {:.2} s |",
        first_t.as_secs_f64(),
        first.blobs_written,
        first.blob_bytes_written as f64 / 1e6,
        second_t.as_secs_f64(),
        second.blobs_written,
        second.blob_bytes_written,
        second.manifest_bytes,
        load_t.as_secs_f64(),
    );
}

fn main() {
    println!("| store | first save | after a one-file change | load |");
    println!("|---|---|---|---|");
    let dir = std::env::temp_dir().join(format!("shellbox-bench-store-{}", std::process::id()));
    run("directory", || Store::open(&dir).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    let bin = std::env::var("SHELLBOX_MOTO_SERVER").unwrap_or_else(|_| "moto_server".to_owned());
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let Ok(mut child) = Command::new(&bin)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    else {
        println!("(no S3 server: {bin} did not start)");
        return;
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = Command::new("curl")
        .args(["-s", "-X", "PUT", &format!("http://127.0.0.1:{port}/bench")])
        .stdout(Stdio::null())
        .status();
    if status.is_ok_and(|s| s.success()) {
        let mut c = S3Config::from_url("s3://bench/stores").unwrap();
        c.endpoint = Some(format!("http://127.0.0.1:{port}"));
        c.region = Some("us-east-1".to_owned());
        c.access_key_id = Some("bench".to_owned());
        c.secret_access_key = Some("bench".to_owned());
        run("S3 (moto, 127.0.0.1)", || {
            Store::open_s3(c.clone()).unwrap()
        });
    }
    let _ = child.kill();
    let _ = child.wait();
}
