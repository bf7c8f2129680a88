#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! Hostile zip archives: members whose names climb out of the destination or are
//! absolute land inside it (with Info-ZIP's warnings and status 1), and a member that
//! inflates past the file size limit is refused instead of filling memory.

use std::io::{Cursor, Write};

use shellbox::{Limits, Shell};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

fn archive(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for (name, body) in members {
        w.start_file(*name, opts).unwrap();
        w.write_all(body).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn shell_with(limits: Limits, bytes: &[u8]) -> Shell {
    let sh = Shell::builder().limits(limits).build();
    {
        let mut fs = sh.fs();
        fs.mkdir_all("/tmp/box/out", 0o755).unwrap();
        fs.write_file("/tmp/box/evil.zip", bytes).unwrap();
    }
    sh
}

#[test]
fn members_never_land_outside_the_destination() {
    let bytes = archive(&[
        ("a/../../b.txt", b"climb"),
        ("/abs.txt", b"abs"),
        ("../../../../etc/x", b"x"),
    ]);
    let mut sh = shell_with(Limits::default(), &bytes);
    let out = sh.exec(
        "cd /tmp/box/out && unzip -q ../evil.zip; echo \"status $?\"; find /tmp/box | sort; ls /etc/x 2>&1",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("status 1"), "{stdout}");
    assert!(
        stdout.contains("warning:  skipped \"../\" path component(s) in a/../../b.txt"),
        "{stdout}"
    );
    assert!(
        stderr.contains("warning:  stripped absolute path spec from /abs.txt"),
        "{stderr}"
    );
    for inside in [
        "/tmp/box/out/a/b.txt",
        "/tmp/box/out/abs.txt",
        "/tmp/box/out/etc/x",
    ] {
        assert!(
            stdout.lines().any(|l| l == inside),
            "{inside} missing: {stdout}"
        );
    }
    assert!(
        !stdout
            .lines()
            .any(|l| l == "/tmp/box/b.txt" || l == "/tmp/b.txt" || l == "/abs.txt"),
        "{stdout}"
    );
    assert!(stdout.contains("No such file"), "{stdout}");
}

#[test]
fn a_member_that_inflates_past_the_file_limit_is_refused() {
    let zeros = vec![0u8; 8 << 20];
    let bytes = archive(&[("bomb.bin", &zeros)]);
    assert!(bytes.len() < 100_000);
    let mut limits = Limits::default();
    limits.max_file_bytes = 1 << 20;
    let mut sh = shell_with(limits, &bytes);
    let out = sh.exec(
        "cd /tmp/box/out && unzip ../evil.zip; echo \"status $?\"; unzip -p ../evil.zip | wc -c",
    );
    assert_ne!(
        out.exit_code,
        0,
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bomb.bin"), "{stderr}");
    let size = sh
        .fs()
        .stat("/tmp/box/out/bomb.bin")
        .map(|m| m.size)
        .unwrap_or(0);
    assert!(size <= 1 << 20, "{size}");
}
