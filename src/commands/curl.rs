//! `curl` and `wget` under the host's [`NetworkPolicy`](crate::net::NetworkPolicy):
//! with none (the default) every request fails as curl does for a refused connection
//! (`curl: (7) ...`, wget's status 4). The fetching and its checks are in
//! [`crate::net`]; this file is the two command lines, their output and messages.
//! curl's progress meter is not drawn (its figures are timings).

use std::io;

use super::{CmdResult, Ctx};
use crate::net::{self, NetError, Request, Response};

const CURL_VERSION: &str = "curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/7.88.1 (shellbox: requests go through the host's network policy)\nProtocols: http https\n";

/// What a curl command line asks for.
#[derive(Default)]
struct CurlOpts {
    url: Option<String>,
    method: Option<String>,
    headers: Vec<(String, String)>,
    data: Option<Vec<u8>>,
    silent: bool,
    show_error: bool,
    fail: bool,
    follow: bool,
    output: Option<String>,
    remote_name: bool,
    head: bool,
    include: bool,
    write_out: Option<String>,
    verbose: bool,
    max_time: Option<f64>,
    retry: u32,
    insecure: bool,
}

/// Arguments of options that take one.
const CURL_WITH_VALUE: &[&str] = &[
    "-o",
    "--output",
    "-X",
    "--request",
    "-H",
    "--header",
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--data-ascii",
    "-u",
    "--user",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "-w",
    "--write-out",
    "-m",
    "--max-time",
    "--retry",
    "--connect-timeout",
    "-F",
    "--form",
    "--url",
];

/// The `curl` utility.
pub fn curl(ctx: &mut Ctx) -> CmdResult {
    let args = unbundle(ctx.args);
    let mut o = CurlOpts::default();
    let mut ua = "curl/7.88.1".to_owned();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let (name, attached) = split_opt(a);
        let takes = CURL_WITH_VALUE.contains(&name);
        let value = if takes {
            match attached {
                Some(v) => Some(v),
                None => {
                    let v = args.get(i).cloned();
                    i += 1;
                    if v.is_none() {
                        writeln!(
                            ctx.stderr,
                            "curl: option {a}: requires parameter\ncurl: try 'curl --help' or 'curl --manual' for more information"
                        )?;
                        return Ok(2);
                    }
                    v
                }
            }
        } else {
            None
        };
        let v = value.unwrap_or_default();
        match name {
            "-s" | "--silent" => o.silent = true,
            "-S" | "--show-error" => o.show_error = true,
            "-f" | "--fail" => o.fail = true,
            "-L" | "--location" => o.follow = true,
            "-O" | "--remote-name" => o.remote_name = true,
            "-I" | "--head" => o.head = true,
            "-i" | "--include" => o.include = true,
            "-v" | "--verbose" => o.verbose = true,
            "-k" | "--insecure" => o.insecure = true,
            "--compressed" => {}
            "-o" | "--output" => o.output = Some(v),
            "-X" | "--request" => o.method = Some(v),
            "-H" | "--header" => {
                if let Some((n, val)) = v.split_once(':') {
                    o.headers.push((n.trim().to_owned(), val.trim().to_owned()));
                }
            }
            "-d" | "--data" | "--data-ascii" | "--data-raw" | "--data-binary" => {
                let mut bytes = if name != "--data-raw" && v.starts_with('@') {
                    let file = v.get(1..).unwrap_or_default();
                    let read = if file == "-" {
                        ctx.read_stdin_to_end(max_body(ctx))
                    } else {
                        let path = ctx.path(file);
                        ctx.read_named(&path)?
                            .map(|d| d.to_vec())
                            .map_err(|e| io::Error::other(e.to_string()))
                    };
                    match read {
                        Ok(b) => b,
                        Err(e) if super::as_fatal(&e).is_some() => return Err(e),
                        Err(_) => {
                            writeln!(
                                ctx.stderr,
                                "Warning: Couldn't read data from file \"{file}\", this makes "
                            )?;
                            writeln!(ctx.stderr, "Warning: an empty POST.")?;
                            Vec::new()
                        }
                    }
                } else {
                    v.into_bytes()
                };
                if name != "--data-binary" && name != "--data-raw" {
                    bytes.retain(|&c| c != b'\n' && c != b'\r');
                }
                match &mut o.data {
                    Some(d) => {
                        d.push(b'&');
                        d.extend_from_slice(&bytes);
                    }
                    None => o.data = Some(bytes),
                }
            }
            "-u" | "--user" => {
                let enc = super::base64::encode(v.as_bytes());
                o.headers.push((
                    "Authorization".to_owned(),
                    format!("Basic {}", String::from_utf8_lossy(&enc)),
                ));
            }
            "-A" | "--user-agent" => ua = v,
            "-e" | "--referer" => o.headers.push(("Referer".to_owned(), v)),
            "-w" | "--write-out" => o.write_out = Some(v),
            "-m" | "--max-time" => o.max_time = v.parse().ok(),
            "--retry" => o.retry = v.parse().unwrap_or(0),
            "--connect-timeout" => {}
            "-F" | "--form" => {
                writeln!(
                    ctx.stderr,
                    "curl: option -F: is not supported in this sandbox (use -d or --data-binary)"
                )?;
                return Ok(2);
            }
            "--url" => o.url = Some(v),
            "-h" | "--help" => {
                ctx.stdout.write_all(CURL_HELP.as_bytes())?;
                return Ok(0);
            }
            "-V" | "--version" => {
                ctx.stdout.write_all(CURL_VERSION.as_bytes())?;
                return Ok(0);
            }
            _ if a.starts_with('-') && a.len() > 1 => {
                writeln!(
                    ctx.stderr,
                    "curl: option {a}: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information"
                )?;
                return Ok(2);
            }
            _ => o.url = Some(a.clone()),
        }
    }
    let Some(mut url) = o.url.clone() else {
        writeln!(
            ctx.stderr,
            "curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' for more information"
        )?;
        return Ok(2);
    };
    if !url.contains("://") {
        url = format!("http://{url}");
    }
    if o.insecure && !o.silent {
        writeln!(
            ctx.stderr,
            "curl: note: -k has no effect here; certificates are always verified"
        )?;
    }
    let method = o.method.clone().unwrap_or_else(|| {
        if o.head {
            "HEAD".to_owned()
        } else if o.data.is_some() {
            "POST".to_owned()
        } else {
            "GET".to_owned()
        }
    });
    let mut headers = vec![
        ("User-Agent".to_owned(), ua),
        ("Accept".to_owned(), "*/*".to_owned()),
    ];
    if o.data.is_some()
        && !o
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type"))
    {
        headers.push((
            "Content-Type".to_owned(),
            "application/x-www-form-urlencoded".to_owned(),
        ));
    }
    for (n, v) in &o.headers {
        headers.retain(|(h, _)| !h.eq_ignore_ascii_case(n));
        headers.push((n.clone(), v.clone()));
    }
    let req = Request {
        method: method.clone(),
        url: url.clone(),
        headers,
        body: o.data.clone().unwrap_or_default(),
    };
    if o.verbose {
        verbose_request(ctx, &req)?;
    }
    let policy = ctx.host.network();
    let probe = ctx.host.probe();
    let max_time = o
        .max_time
        .filter(|t| t.is_finite() && *t > 0.0)
        .map(std::time::Duration::from_secs_f64);
    let mut tries = 0;
    let fetched = loop {
        let r = net::fetch(policy.as_deref(), req.clone(), o.follow, max_time, &*probe);
        let transient = match &r {
            Err(NetError::Timeout { .. } | NetError::Connect { .. }) => true,
            Ok(f) => f
                .hops
                .last()
                .is_some_and(|(_, r)| r.status >= 500 || r.status == 429),
            _ => false,
        };
        if transient && tries < o.retry {
            tries += 1;
            ctx.host.check()?;
            continue;
        }
        break r;
    };
    let fetched = match fetched {
        Ok(f) => f,
        Err(NetError::Stop(e)) => return Err(e),
        Err(e) => {
            if !o.silent || o.show_error {
                writeln!(ctx.stderr, "curl: ({}) {}", e.curl_code(), e.curl_message())?;
            }
            if let Some(w) = &o.write_out {
                ctx.stdout.write_all(&write_out(w, None, &url, 0))?;
            }
            return Ok(e.curl_code());
        }
    };
    let mut out: Vec<u8> = Vec::new();
    let hops = fetched.hops.len();
    let Some((last_url, last)) = fetched.hops.last() else {
        return Ok(0);
    };
    for (_, resp) in &fetched.hops {
        if o.verbose {
            verbose_response(ctx, resp)?;
        }
        if o.include || o.head {
            out.extend_from_slice(&header_block(resp));
        }
    }
    if o.fail && last.status >= 400 {
        if !o.silent || o.show_error {
            writeln!(
                ctx.stderr,
                "curl: (22) The requested URL returned error: {}",
                last.status
            )?;
        }
        if let Some(w) = &o.write_out {
            ctx.stdout
                .write_all(&write_out(w, Some(last), last_url, hops - 1))?;
        }
        return Ok(22);
    }
    if !o.head {
        out.extend_from_slice(&last.body);
    }
    let target = if o.remote_name {
        let name = url
            .split(['?', '#'])
            .next()
            .unwrap_or_default()
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        if name.is_empty() || url.split("://").nth(1).is_none_or(|r| !r.contains('/')) {
            writeln!(ctx.stderr, "curl: Remote file name has no length!")?;
            return Ok(23);
        }
        Some(name)
    } else {
        o.output.clone().filter(|f| f != "-")
    };
    match target {
        Some(file) => {
            let path = ctx.path(&file);
            let mode = ctx.file_mode();
            if let Err(e) = ctx.fs.lock().write_file_mode(&path, &out, mode) {
                if !o.silent || o.show_error {
                    writeln!(
                        ctx.stderr,
                        "curl: (23) Failure writing output to destination: {file}: {e}"
                    )?;
                }
                return Ok(23);
            }
        }
        None => ctx.stdout.write_all(&out)?,
    }
    if let Some(w) = &o.write_out {
        ctx.stdout
            .write_all(&write_out(w, Some(last), last_url, hops - 1))?;
    }
    Ok(0)
}

/// Short options given together (`-fsSL`, `-sSo out`, `-XPOST`) as one each.
fn unbundle(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for a in args {
        let bundled = a.starts_with('-') && !a.starts_with("--") && a.len() > 2;
        if !bundled {
            out.push(a.clone());
            continue;
        }
        for (j, c) in a.char_indices().skip(1) {
            out.push(format!("-{c}"));
            if "oXHduAewmF".contains(c) {
                let rest = a.get(j + c.len_utf8()..).unwrap_or_default();
                if !rest.is_empty() {
                    out.push(rest.to_owned());
                }
                break;
            }
        }
    }
    out
}

/// The largest request body read from a file or stdin.
fn max_body(ctx: &Ctx) -> usize {
    usize::try_from(ctx.fs.lock().limits().max_file_bytes).unwrap_or(usize::MAX)
}

/// `--name=value` split; short options keep their value separate.
fn split_opt(a: &str) -> (&str, Option<String>) {
    if a.starts_with("--")
        && let Some((n, v)) = a.split_once('=')
    {
        return (n, Some(v.to_owned()));
    }
    (a, None)
}

/// A response's status line and headers as `-i` shows them.
fn header_block(r: &Response) -> Vec<u8> {
    let mut b = format!("HTTP/1.1 {} {}\r\n", r.status, r.reason).into_bytes();
    for (n, v) in &r.headers {
        b.extend_from_slice(format!("{n}: {v}\r\n").as_bytes());
    }
    b.extend_from_slice(b"\r\n");
    b
}

/// `-v`'s request lines: what the script asked for (headers the host injects are
/// not shown).
fn verbose_request(ctx: &mut Ctx, req: &Request) -> io::Result<()> {
    let (host, path) = match req.url.split_once("://") {
        Some((_, rest)) => {
            let end = rest.find('/').unwrap_or(rest.len());
            (
                rest.get(..end).unwrap_or_default(),
                rest.get(end..).filter(|p| !p.is_empty()).unwrap_or("/"),
            )
        }
        None => ("", "/"),
    };
    writeln!(ctx.stderr, "> {} {path} HTTP/1.1\r", req.method)?;
    writeln!(ctx.stderr, "> Host: {host}\r")?;
    for (n, v) in &req.headers {
        writeln!(ctx.stderr, "> {n}: {v}\r")?;
    }
    writeln!(ctx.stderr, "> \r")
}

fn verbose_response(ctx: &mut Ctx, r: &Response) -> io::Result<()> {
    writeln!(ctx.stderr, "< HTTP/1.1 {} {}\r", r.status, r.reason)?;
    for (n, v) in &r.headers {
        writeln!(ctx.stderr, "< {n}: {v}\r")?;
    }
    writeln!(ctx.stderr, "< \r")
}

/// `-w FORMAT`: `%{http_code}` and the other variables, `\n` and `\t`.
fn write_out(fmt: &str, r: Option<&Response>, url: &str, redirects: usize) -> Vec<u8> {
    let mut out = String::new();
    let mut rest = fmt;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("%{")
            && let Some(end) = after.find('}')
        {
            let var = after.get(..end).unwrap_or_default();
            let val = match var {
                "http_code" | "response_code" => format!("{:03}", r.map_or(0, |r| r.status)),
                "url_effective" | "url" => url.to_owned(),
                "size_download" => r.map_or(0, |r| r.body.len()).to_string(),
                "content_type" => r
                    .and_then(|r| r.get("content-type"))
                    .unwrap_or_default()
                    .to_owned(),
                "num_redirects" => redirects.to_string(),
                "redirect_url" => r
                    .and_then(|r| r.get("location"))
                    .map(|l| net::join_url(url, l))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            out.push_str(&val);
            rest = after.get(end + 1..).unwrap_or_default();
            continue;
        }
        if let Some(after) = rest.strip_prefix('\\') {
            match after.chars().next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('\\') => out.push('\\'),
                Some(o) => {
                    out.push('\\');
                    out.push(o);
                }
                None => out.push('\\'),
            }
            rest = after
                .get(after.chars().next().map_or(0, char::len_utf8)..)
                .unwrap_or_default();
            continue;
        }
        out.push(c);
        rest = rest.get(c.len_utf8()..).unwrap_or_default();
    }
    out.into_bytes()
}

const CURL_HELP: &str = "Usage: curl [options...] <url>
 -d, --data <data>          HTTP POST data
     --data-binary <data>   HTTP POST binary data
     --data-raw <data>      HTTP POST data, '@' allowed
 -e, --referer <URL>        Referrer URL
 -f, --fail                 Fail fast with no output on HTTP errors
 -H, --header <header/@file> Pass custom header(s) to server
 -i, --include              Include protocol response headers in the output
 -I, --head                 Show document info only
 -k, --insecure             Accepted; certificates are always verified
 -L, --location             Follow redirects
 -m, --max-time <seconds>   Maximum time allowed for transfer
 -o, --output <file>        Write to file instead of stdout
 -O, --remote-name          Write output to a file named as the remote file
     --retry <num>          Retry request if transient problems occur
 -s, --silent               Silent mode
 -S, --show-error           Show error even when -s is used
 -u, --user <user:password> Server user and password
 -A, --user-agent <name>    Send User-Agent <name> to server
 -v, --verbose              Make the operation more talkative
 -w, --write-out <format>   Use output FORMAT after completion
 -X, --request <method>     Specify request method to use
     --compressed           Request compressed response
 -V, --version              Show version number and quit
";

/// The `wget` utility: `-q -O FILE -O- --header --post-data -S`.
pub fn wget(ctx: &mut Ctx) -> CmdResult {
    let args = ctx.args.to_vec();
    let (mut quiet, mut server, mut output, mut post) = (false, false, None, None);
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut urls = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let (name, attached) = split_opt(a);
        let mut value = || -> Option<String> {
            if let Some(v) = attached.clone() {
                return Some(v);
            }
            if let Some(v) = name.strip_prefix("-O").filter(|v| !v.is_empty()) {
                return Some(v.to_owned());
            }
            let v = args.get(i).cloned();
            i += 1;
            v
        };
        match name {
            "-q" | "--quiet" => quiet = true,
            "-S" | "--server-response" => server = true,
            "-qO-" => {
                quiet = true;
                output = Some("-".to_owned());
            }
            n if n == "-O" || n.starts_with("-O") || n == "--output-document" => output = value(),
            "--header" => {
                if let Some((n, v)) = value().as_deref().and_then(|h| h.split_once(':')) {
                    headers.push((n.trim().to_owned(), v.trim().to_owned()));
                }
            }
            "--post-data" => post = value(),
            "-h" | "--help" => {
                writeln!(ctx.stdout, "Usage: wget [OPTION]... [URL]...")?;
                return Ok(0);
            }
            _ if a.starts_with('-') && a.len() > 1 => {
                writeln!(
                    ctx.stderr,
                    "wget: unrecognized option '{a}'\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options."
                )?;
                return Ok(2);
            }
            _ => urls.push(a.clone()),
        }
    }
    if urls.is_empty() {
        writeln!(
            ctx.stderr,
            "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options."
        )?;
        return Ok(1);
    }
    let policy = ctx.host.network();
    let probe = ctx.host.probe();
    let mut status = 0;
    let mut written_once = false;
    for u in urls {
        let url = if u.contains("://") {
            u.clone()
        } else {
            format!("http://{u}")
        };
        let mut hs = vec![
            ("User-Agent".to_owned(), "Wget/1.21.3".to_owned()),
            ("Accept".to_owned(), "*/*".to_owned()),
        ];
        hs.extend(headers.iter().cloned());
        let req = Request {
            method: if post.is_some() { "POST" } else { "GET" }.to_owned(),
            url: url.clone(),
            headers: hs,
            body: post.clone().unwrap_or_default().into_bytes(),
        };
        match net::fetch(policy.as_deref(), req, true, None, &*probe) {
            Err(NetError::Stop(e)) => return Err(e),
            Err(e) => {
                if !quiet {
                    let (host, port) = net::host_port(&url)
                        .map(|(_, h, p)| (h, p))
                        .unwrap_or_default();
                    writeln!(
                        ctx.stderr,
                        "Connecting to {host}:{port}... failed: {}.",
                        e.curl_message()
                    )?;
                }
                status = 4;
            }
            Ok(f) => {
                for (_, r) in &f.hops {
                    if server || !quiet {
                        if server {
                            writeln!(ctx.stderr, "  HTTP/1.1 {} {}", r.status, r.reason)?;
                            for (n, v) in &r.headers {
                                writeln!(ctx.stderr, "  {n}: {v}")?;
                            }
                        } else {
                            writeln!(
                                ctx.stderr,
                                "HTTP request sent, awaiting response... {} {}",
                                r.status, r.reason
                            )?;
                        }
                    }
                }
                let Some((_, last)) = f.hops.last() else {
                    continue;
                };
                if last.status >= 400 {
                    if !quiet {
                        writeln!(ctx.stderr, "ERROR {}: {}.", last.status, last.reason)?;
                    }
                    status = 8;
                    continue;
                }
                match output.as_deref() {
                    Some("-") => ctx.stdout.write_all(&last.body)?,
                    other => {
                        let name = match other {
                            Some(n) => n.to_owned(),
                            None => {
                                let base = url
                                    .split(['?', '#'])
                                    .next()
                                    .unwrap_or_default()
                                    .split("://")
                                    .nth(1)
                                    .and_then(|r| r.split_once('/'))
                                    .map(|(_, p)| p.rsplit('/').next().unwrap_or_default())
                                    .unwrap_or_default();
                                if base.is_empty() {
                                    "index.html".to_owned()
                                } else {
                                    base.to_owned()
                                }
                            }
                        };
                        let path = ctx.path(&name);
                        let mode = ctx.file_mode();
                        let append = other.is_some() && written_once;
                        let mut fs = ctx.fs.lock();
                        let r = if append {
                            fs.append_file_mode(&path, &last.body, mode)
                        } else {
                            fs.write_file_mode(&path, &last.body, mode)
                        };
                        drop(fs);
                        written_once = true;
                        if let Err(e) = r {
                            writeln!(ctx.stderr, "{name}: {e}")?;
                            status = 3;
                            continue;
                        }
                        if !quiet {
                            writeln!(
                                ctx.stderr,
                                "Saving to: '{name}'\n\n'{name}' saved [{}]\n",
                                last.body.len()
                            )?;
                        }
                    }
                }
            }
        }
    }
    Ok(status)
}
