#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! `curl` and `wget` under the host's network policy, against an HTTP server this test
//! starts on 127.0.0.1: no network by default, allowed and refused prefixes and
//! methods, loopback refused unless allowed explicitly, redirects checked hop by hop,
//! size and time caps, injected headers the script never sees, a host fetch function.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shellbox::Shell;
use shellbox::net::{NetworkPolicy, Response};

/// A small HTTP/1.1 server: serves a bounded number of connections, records the
/// request heads it saw.
struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<String>>>,
}

fn server() -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(64) {
            let Ok(mut stream) = stream else { continue };
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                stream.set_read_timeout(Some(Duration::from_secs(5))).ok();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut head = String::new();
                let mut len = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap_or(0);
                    }
                    head.push_str(&line);
                }
                let mut body = vec![0u8; len.min(1 << 20)];
                reader.read_exact(&mut body).ok();
                head.push_str(&String::from_utf8_lossy(&body));
                log.lock().unwrap().push(head.clone());
                let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
                let reply = |s: &mut std::net::TcpStream,
                             status: &str,
                             extra: &str,
                             body: &[u8]| {
                    let h = format!(
                        "HTTP/1.1 {status}\r\ncontent-length: {}\r\nconnection: close\r\n{extra}\r\n",
                        body.len()
                    );
                    s.write_all(h.as_bytes()).ok();
                    s.write_all(body).ok();
                };
                match path.as_str() {
                    "/ok" => reply(
                        &mut stream,
                        "200 OK",
                        "content-type: text/plain\r\n",
                        b"hello\n",
                    ),
                    "/post" => reply(
                        &mut stream,
                        "200 OK",
                        "",
                        format!("got {}", String::from_utf8_lossy(&body)).as_bytes(),
                    ),
                    "/missing" => reply(&mut stream, "404 Not Found", "", b"no\n"),
                    "/redirect-local" => {
                        reply(&mut stream, "302 Found", "location: /ok\r\n", b"moved\n")
                    }
                    "/redirect-away" => reply(
                        &mut stream,
                        "302 Found",
                        &format!("location: http://localhost:{port}/ok\r\n"),
                        b"moved\n",
                    ),
                    "/big" => reply(&mut stream, "200 OK", "", &vec![b'x'; 2 << 20]),
                    "/slow" => {
                        stream
                            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n")
                            .ok();
                        for _ in 0..50 {
                            if stream.write_all(b"x").is_err() {
                                break;
                            }
                            std::thread::sleep(Duration::from_millis(100));
                        }
                    }
                    _ => reply(&mut stream, "400 Bad Request", "", b""),
                }
            });
        }
    });
    Server { port, seen }
}

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn check(policy: Option<NetworkPolicy>, script: &str) -> Run {
    let mut b = Shell::builder();
    if let Some(p) = policy {
        b = b.network(p);
    }
    let mut sh = b.build();
    let out = sh.exec(script);
    Run {
        status: out.exit_code,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn without_a_policy_there_is_no_network() {
    let s = server();
    let url = format!("http://127.0.0.1:{}/ok", s.port);
    let r = check(
        None,
        &format!("curl {url}; echo $?; curl -s {url}; echo $?; wget -q {url}; echo $?"),
    );
    assert_eq!(r.stdout, "7\n7\n4\n");
    assert_eq!(
        r.stderr,
        format!(
            "curl: (7) Failed to connect to 127.0.0.1 port {} after 0 ms: the sandbox has no network access\n",
            s.port
        )
    );
    assert!(
        s.seen.lock().unwrap().is_empty(),
        "a request reached the server"
    );
}

#[test]
fn an_allowed_prefix_is_fetched_and_others_are_refused() {
    let s = server();
    let base = format!("http://127.0.0.1:{}", s.port);
    let policy = NetworkPolicy::new().allow_private(&format!("{base}/"), &["GET", "HEAD", "POST"]);
    let r = check(
        Some(policy),
        &format!(
            "curl -s {base}/ok; curl -s -o out.txt -w '%{{http_code}} %{{size_download}}\\n' {base}/ok; cat out.txt
             curl -s -d 'a=1' -d b=2 {base}/post; echo
             curl -sI {base}/ok | head -1
             curl -s -i {base}/missing | head -1; curl -sf {base}/missing; echo $?; curl -sSf {base}/missing; echo $?
             curl -s -X DELETE {base}/ok; echo $?
             curl -s http://127.0.0.1:1/; echo $?
             wget -q -O- {base}/ok; wget -q {base}/ok && cat ok"
        ),
    );
    assert_eq!(
        r.stdout,
        "hello\n200 6\nhello\ngot a=1&b=2\nHTTP/1.1 200 OK\r\nHTTP/1.1 404 Not Found\r\n22\n22\n7\n7\nhello\nhello\n",
        "{}",
        r.stderr
    );
    assert_eq!(
        r.stderr,
        "curl: (22) The requested URL returned error: 404\n"
    );
}

#[test]
fn loopback_and_private_addresses_need_an_explicit_allowance() {
    let s = server();
    let policy = NetworkPolicy::new()
        .allow(&format!("http://127.0.0.1:{}/", s.port), &[])
        .allow(&format!("http://localhost:{}/", s.port), &[]);
    let r = check(
        Some(policy),
        &format!(
            "curl -sS http://127.0.0.1:{p}/ok; echo $?; curl -sS http://localhost:{p}/ok; echo $?",
            p = s.port
        ),
    );
    assert_eq!(r.stdout, "7\n7\n");
    assert!(
        r.stderr.contains("private address 127.0.0.1"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("does not allow private addresses"),
        "{}",
        r.stderr
    );
    assert!(
        s.seen.lock().unwrap().is_empty(),
        "a request reached the server"
    );
}

#[test]
fn every_redirect_hop_is_checked_again() {
    let s = server();
    let base = format!("http://127.0.0.1:{}", s.port);
    let policy = NetworkPolicy::new().allow_private(&format!("{base}/"), &[]);
    let r = check(
        Some(policy),
        &format!(
            "curl -s {base}/redirect-local; curl -sL {base}/redirect-local
             curl -sL -w '%{{url_effective}}\\n' {base}/redirect-local
             curl -sSL {base}/redirect-away; echo $?; curl -s {base}/redirect-away"
        ),
    );
    assert_eq!(
        r.stdout,
        format!("moved\nhello\nhello\n{base}/ok\n7\nmoved\n"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(&format!(
            "does not allow GET http://localhost:{}/ok",
            s.port
        )),
        "{}",
        r.stderr
    );
}

#[test]
fn responses_are_capped_in_size_and_time() {
    let s = server();
    let base = format!("http://127.0.0.1:{}", s.port);
    let mut policy = NetworkPolicy::new().allow_private(&format!("{base}/"), &[]);
    policy.max_response_bytes = 1000;
    policy.timeout = Duration::from_millis(700);
    let start = Instant::now();
    let r = check(
        Some(policy),
        &format!(
            "curl -s {base}/big | wc -c; curl -sS {base}/big; echo $?; curl -sS {base}/slow; echo $?; curl -sS -m 0.3 {base}/slow; echo $?"
        ),
    );
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(r.stdout, "0\n63\n28\n28\n", "{}", r.stderr);
    assert!(
        r.stderr.contains("curl: (63) Maximum file size exceeded"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("curl: (28) Operation timed out"),
        "{}",
        r.stderr
    );
}

#[test]
fn injected_headers_reach_the_server_but_not_the_script() {
    let s = server();
    let base = format!("http://127.0.0.1:{}", s.port);
    let policy = NetworkPolicy::new()
        .allow_private(&format!("{base}/"), &[])
        .inject_header(&format!("{base}/"), "Authorization", "Bearer s3cret");
    let debug = format!("{policy:?}");
    assert!(!debug.contains("s3cret"));
    let r = check(
        Some(policy),
        &format!("curl -v -s {base}/ok; env; set; wget -S -O- {base}/ok"),
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stdout.contains("hello"));
    assert!(!r.stdout.contains("s3cret") && !r.stderr.contains("s3cret"));
    assert!(r.stderr.contains("> GET /ok HTTP/1.1"), "{}", r.stderr);
    let seen = s.seen.lock().unwrap().join("\n").to_ascii_lowercase();
    assert!(seen.contains("authorization: bearer s3cret"), "{seen}");
}

#[test]
fn a_host_fetch_function_answers_instead_of_sockets() {
    let policy = NetworkPolicy::new()
        .allow("https://api.example.com/", &["GET", "POST"])
        .inject_header("https://api.example.com/", "X-Key", "k")
        .fetch_with(Arc::new(|req| {
            let key = req
                .headers
                .iter()
                .find(|(n, _)| n == "X-Key")
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            Ok(
                Response::new(200, format!("{} {} key={key}\n", req.method, req.url))
                    .header("content-type", "text/plain"),
            )
        }));
    let r = check(
        Some(policy),
        "curl -s https://api.example.com/v1; curl -s -d x https://api.example.com/v2; curl -s https://example.org/; echo $?",
    );
    assert_eq!(
        r.stdout,
        "GET https://api.example.com/v1 key=k\nPOST https://api.example.com/v2 key=k\n7\n"
    );
}

#[test]
fn curl_usage_errors() {
    let r = check(None, "curl; echo $?; curl --bogus x; echo $?");
    assert_eq!(r.stdout, "2\n2\n");
    assert_eq!(
        r.stderr,
        "curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' for more information\ncurl: option --bogus: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n"
    );
}
