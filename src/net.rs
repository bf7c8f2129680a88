//! The network a script's `curl` and `wget` may reach: none unless the host sets a
//! [`NetworkPolicy`]. A policy allows URL prefixes (each with its methods), refuses
//! private, loopback and link-local addresses unless a prefix allows them explicitly
//! (checked on the addresses a name resolves to, at connect time, so a public name
//! that resolves to 127.0.0.1 is refused too), checks every redirect hop again, caps
//! the response's size and time, and can add headers (credentials) to the requests of a
//! prefix that the script never sees. A host may also answer requests itself
//! ([`NetworkPolicy::fetch_with`]) instead of opening sockets.

use std::io::Read;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A request a script makes, as a host fetch function sees it (with the policy's
/// injected headers added).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Request {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// A response: status, headers (in order) and body.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Response {
    pub status: u16,
    pub reason: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// A response with this status and body and no headers.
    pub fn new(status: u16, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            reason: String::new(),
            headers: Vec::new(),
            body: body.into(),
        }
    }
    /// Adds a header.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Response {
        self.headers.push((name.into(), value.into()));
        self
    }
    /// The first value of header `name` (any case).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A host's own fetch function: the request, the policy already applied.
pub type FetchFn = Arc<dyn Fn(Request) -> Result<Response, String> + Send + Sync>;

#[derive(Clone, Debug)]
struct Rule {
    prefix: String,
    methods: Vec<String>,
    private: bool,
}

/// What scripts may fetch. The default allows nothing.
///
/// ```
/// use shellbox::net::NetworkPolicy;
/// let policy = NetworkPolicy::new()
///     .allow("https://api.example.com/v1/", &["GET", "POST"])
///     .inject_header("https://api.example.com/", "Authorization", "Bearer secret");
/// assert!(policy.allows("GET", "https://api.example.com/v1/items"));
/// assert!(!policy.allows("DELETE", "https://api.example.com/v1/items"));
/// assert!(!policy.allows("GET", "https://example.org/"));
/// ```
#[derive(Clone)]
pub struct NetworkPolicy {
    rules: Vec<Rule>,
    injected: Vec<(String, String, String)>,
    /// Bytes of one response body.
    pub max_response_bytes: u64,
    /// Time for one request, redirects included.
    pub timeout: Duration,
    /// Redirects followed at most.
    pub max_redirects: u32,
    fetch: Option<FetchFn>,
}

impl std::fmt::Debug for NetworkPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Injected header values are secrets: names only.
        let injected: Vec<(&str, &str)> = self
            .injected
            .iter()
            .map(|(p, n, _)| (p.as_str(), n.as_str()))
            .collect();
        f.debug_struct("NetworkPolicy")
            .field("rules", &self.rules)
            .field("injected", &injected)
            .field("max_response_bytes", &self.max_response_bytes)
            .field("timeout", &self.timeout)
            .field("host_fetch", &self.fetch.is_some())
            .finish()
    }
}

impl Default for NetworkPolicy {
    fn default() -> NetworkPolicy {
        NetworkPolicy::new()
    }
}

impl NetworkPolicy {
    /// Nothing allowed; 10 MiB responses, 30 s, 10 redirects.
    pub fn new() -> NetworkPolicy {
        NetworkPolicy {
            rules: Vec::new(),
            injected: Vec::new(),
            max_response_bytes: 10 << 20,
            timeout: Duration::from_secs(30),
            max_redirects: 10,
            fetch: None,
        }
    }
    /// Allows URLs starting with `prefix` for `methods` (empty: GET and HEAD) on public
    /// addresses.
    pub fn allow(self, prefix: &str, methods: &[&str]) -> NetworkPolicy {
        self.rule(prefix, methods, false)
    }
    /// Like [`allow`](Self::allow), and the prefix may reach private, loopback and
    /// link-local addresses.
    pub fn allow_private(self, prefix: &str, methods: &[&str]) -> NetworkPolicy {
        self.rule(prefix, methods, true)
    }
    fn rule(mut self, prefix: &str, methods: &[&str], private: bool) -> NetworkPolicy {
        let methods = if methods.is_empty() {
            vec!["GET".to_owned(), "HEAD".to_owned()]
        } else {
            methods.iter().map(|m| m.to_ascii_uppercase()).collect()
        };
        self.rules.push(Rule {
            prefix: prefix.to_owned(),
            methods,
            private,
        });
        self
    }
    /// Adds header `name: value` to every request to a URL starting with `prefix`; the
    /// script does not see it (not in `curl -v`, not in its environment).
    pub fn inject_header(mut self, prefix: &str, name: &str, value: &str) -> NetworkPolicy {
        self.injected
            .push((prefix.to_owned(), name.to_owned(), value.to_owned()));
        self
    }
    /// Answers requests with `f` instead of the network (the policy still applies).
    pub fn fetch_with(mut self, f: FetchFn) -> NetworkPolicy {
        self.fetch = Some(f);
        self
    }
    /// Parses the CLI's `PREFIX[,METHOD...]`.
    pub fn allow_spec(self, spec: &str, private: bool) -> NetworkPolicy {
        let mut parts = spec.split(',');
        let prefix = parts.next().unwrap_or_default().to_owned();
        let methods: Vec<&str> = parts.filter(|m| !m.is_empty()).collect();
        self.rule(&prefix, &methods, private)
    }
    /// Whether any rule allows `method` on `url`.
    pub fn allows(&self, method: &str, url: &str) -> bool {
        self.rule_for(method, url).is_some()
    }
    fn rule_for(&self, method: &str, url: &str) -> Option<&Rule> {
        let url = normalise(url)?;
        self.rules.iter().find(|r| {
            normalise(&r.prefix).is_some_and(|p| url.starts_with(&p))
                && r.methods.iter().any(|m| m == method || m == "*")
        })
    }
}

/// A URL with its scheme and host lowercased, so prefixes compare as URLs do.
fn normalise(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (auth, path) = rest.split_at(end);
    if auth.contains('@') {
        return None;
    }
    Some(format!(
        "{}://{}{}",
        scheme.to_ascii_lowercase(),
        auth.to_ascii_lowercase(),
        path
    ))
}

/// Why a fetch failed, with curl's exit code.
#[derive(Debug)]
pub enum NetError {
    /// No policy or no rule allows the request (curl 7).
    Denied {
        host: String,
        port: u16,
        why: String,
    },
    /// The name does not resolve (curl 6).
    Resolve(String),
    /// Connecting failed (curl 7).
    Connect {
        host: String,
        port: u16,
        why: String,
    },
    /// The time cap (curl 28).
    Timeout { millis: u128, bytes: usize },
    /// The size cap (curl 63).
    TooLarge,
    /// Too many redirects (curl 47).
    Redirects(u32),
    /// A malformed URL (curl 3).
    Url(String),
    /// Anything else (curl 56).
    Other(String),
    /// The run's own limit or cancellation, to end the script.
    Stop(std::io::Error),
}

impl NetError {
    /// curl's exit status for the error.
    pub fn curl_code(&self) -> i32 {
        match self {
            NetError::Denied { .. } | NetError::Connect { .. } => 7,
            NetError::Resolve(_) => 6,
            NetError::Timeout { .. } => 28,
            NetError::TooLarge => 63,
            NetError::Redirects(_) => 47,
            NetError::Url(_) => 3,
            NetError::Other(_) | NetError::Stop(_) => 56,
        }
    }
    /// curl's message after `curl: (N) `.
    pub fn curl_message(&self) -> String {
        match self {
            NetError::Denied { host, port, why } | NetError::Connect { host, port, why } => {
                format!("Failed to connect to {host} port {port} after 0 ms: {why}")
            }
            NetError::Resolve(h) => format!("Could not resolve host: {h}"),
            NetError::Timeout { millis, bytes } => {
                format!(
                    "Operation timed out after {millis} milliseconds with {bytes} bytes received"
                )
            }
            NetError::TooLarge => "Maximum file size exceeded".to_owned(),
            NetError::Redirects(n) => format!("Maximum ({n}) redirects followed"),
            NetError::Url(u) => format!("URL rejected: Malformed input to a URL function: {u}"),
            NetError::Other(m) => m.clone(),
            NetError::Stop(e) => e.to_string(),
        }
    }
}

/// A fetch's result: each hop's response (the last is the final one).
pub struct Fetched {
    pub hops: Vec<(String, Response)>,
}

/// The host, port and scheme of a URL.
pub fn host_port(url: &str) -> Option<(String, String, u16)> {
    let (scheme, rest) = url.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let auth = rest.get(..end)?;
    let auth = auth.rsplit('@').next().unwrap_or(auth);
    let default = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let (host, port) = match auth.strip_prefix('[') {
        Some(v6) => {
            let (h, rest) = v6.split_once(']')?;
            let port = rest
                .strip_prefix(':')
                .map_or(Some(default), |p| p.parse().ok())?;
            (h.to_owned(), port)
        }
        None => match auth.rsplit_once(':') {
            Some((h, p)) => (h.to_owned(), p.parse().ok()?),
            None => (auth.to_owned(), default),
        },
    };
    if host.is_empty() {
        return None;
    }
    Some((scheme.to_ascii_lowercase(), host, port))
}

/// Whether an address is private, loopback, link-local or otherwise not public.
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || o[0] == 0
                || (o[0] == 100 && (o[1] & 0xc0) == 64)
                || (o[0] == 192 && o[1] == 0 && o[2] == 0)
                || (o[0] == 198 && (o[1] & 0xfe) == 18)
                || o[0] >= 240
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_private(IpAddr::V4(v4));
            }
            let s = v6.segments();
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
        }
    }
}

/// Resolves names with the system resolver and keeps only the addresses the rule may
/// reach, so the check and the connection use the same addresses.
#[derive(Debug)]
struct Guard {
    private: bool,
    refused: Arc<AtomicBool>,
}

impl ureq::unversioned::resolver::Resolver for Guard {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: ureq::unversioned::transport::NextTimeout,
    ) -> Result<ureq::unversioned::resolver::ResolvedSocketAddrs, ureq::Error> {
        let all = ureq::unversioned::resolver::DefaultResolver::default()
            .resolve(uri, config, timeout)?;
        let mut kept = self.empty();
        for a in all.iter() {
            if self.private || !is_private(a.ip()) {
                kept.push(*a);
            }
        }
        if kept.is_empty() {
            self.refused.store(true, Ordering::Relaxed);
            return Err(ureq::Error::HostNotFound);
        }
        Ok(kept)
    }
}

/// Fetches `req` under `policy`, following redirects when `follow` (each hop checked
/// again). `probe` is called while a body arrives, so the run's deadline and
/// cancellation stop a slow response.
pub fn fetch(
    policy: Option<&NetworkPolicy>,
    req: Request,
    follow: bool,
    max_time: Option<Duration>,
    probe: &dyn Fn() -> std::io::Result<()>,
) -> Result<Fetched, NetError> {
    let started = Instant::now();
    let mut hops = Vec::new();
    let mut req = req;
    loop {
        let Some((_, host, port)) = host_port(&req.url) else {
            return Err(NetError::Url(req.url.clone()));
        };
        let Some(policy) = policy else {
            return Err(NetError::Denied {
                host,
                port,
                why: "the sandbox has no network access".to_owned(),
            });
        };
        let Some(rule) = policy.rule_for(&req.method, &req.url) else {
            return Err(NetError::Denied {
                host,
                port,
                why: format!(
                    "the sandbox's network policy does not allow {} {}",
                    req.method, req.url
                ),
            });
        };
        let mut budget = policy.timeout;
        if let Some(m) = max_time {
            budget = budget.min(m);
        }
        let left = budget.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Err(NetError::Timeout {
                millis: started.elapsed().as_millis(),
                bytes: 0,
            });
        }
        let mut sent = req.clone();
        let url_norm = normalise(&req.url).unwrap_or_default();
        for (prefix, name, value) in &policy.injected {
            if normalise(prefix).is_some_and(|p| url_norm.starts_with(&p)) {
                sent.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                sent.headers.push((name.clone(), value.clone()));
            }
        }
        let resp = match &policy.fetch {
            Some(f) => {
                let r = f(sent).map_err(NetError::Other)?;
                if r.body.len() as u64 > policy.max_response_bytes {
                    return Err(NetError::TooLarge);
                }
                r
            }
            None => send(
                sent,
                rule.private,
                &host,
                port,
                left,
                policy.max_response_bytes,
                started,
                probe,
            )?,
        };
        let location = resp.get("location").map(str::to_owned);
        let status = resp.status;
        hops.push((req.url.clone(), resp));
        let redirect = matches!(status, 301 | 302 | 303 | 307 | 308);
        match location {
            Some(loc) if follow && redirect => {
                if hops.len() > policy.max_redirects as usize {
                    return Err(NetError::Redirects(policy.max_redirects));
                }
                let next = join_url(&req.url, &loc);
                if matches!(status, 301..=303) && req.method != "HEAD" {
                    req.method = "GET".to_owned();
                    req.body.clear();
                }
                req.url = next;
            }
            _ => return Ok(Fetched { hops }),
        }
    }
}

/// `loc` (a Location header) against the URL it came from.
pub fn join_url(base: &str, loc: &str) -> String {
    if loc.contains("://") {
        return loc.to_owned();
    }
    let Some((scheme, rest)) = base.split_once("://") else {
        return loc.to_owned();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let auth = rest.get(..end).unwrap_or(rest);
    if let Some(r) = loc.strip_prefix("//") {
        return format!("{scheme}://{r}");
    }
    if loc.starts_with('/') {
        return format!("{scheme}://{auth}{loc}");
    }
    let path = rest.get(end..).unwrap_or_default();
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    format!("{scheme}://{auth}{dir}/{loc}")
}

#[allow(clippy::too_many_arguments)]
fn send(
    req: Request,
    private: bool,
    host: &str,
    port: u16,
    left: Duration,
    max: u64,
    started: Instant,
    probe: &dyn Fn() -> std::io::Result<()>,
) -> Result<Response, NetError> {
    // An address literal is checked here; names are checked by the resolver.
    if let Ok(ip) = host.trim_matches(['[', ']']).parse::<IpAddr>()
        && !private
        && is_private(ip)
    {
        return Err(NetError::Denied {
            host: host.to_owned(),
            port,
            why: format!("the sandbox's network policy does not allow private address {ip}"),
        });
    }
    let refused = Arc::new(AtomicBool::new(false));
    let config = ureq::Agent::config_builder()
        .timeout_global(Some(left))
        .max_redirects(0)
        .http_status_as_error(false)
        .user_agent(ureq::config::AutoHeaderValue::None)
        .build();
    let agent = ureq::Agent::with_parts(
        config,
        ureq::unversioned::transport::DefaultConnector::default(),
        Guard {
            private,
            refused: Arc::clone(&refused),
        },
    );
    let mut builder = ureq::http::Request::builder()
        .method(req.method.as_str())
        .uri(req.url.as_str());
    for (n, v) in &req.headers {
        builder = builder.header(n.as_str(), v.as_str());
    }
    let request = builder
        .body(req.body)
        .map_err(|e| NetError::Url(e.to_string()))?;
    let timeout = || NetError::Timeout {
        millis: started.elapsed().as_millis(),
        bytes: 0,
    };
    let resp = match agent.run(request) {
        Ok(r) => r,
        Err(e) => {
            if refused.load(Ordering::Relaxed) {
                return Err(NetError::Denied {
                    host: host.to_owned(),
                    port,
                    why: "the sandbox's network policy does not allow private addresses".to_owned(),
                });
            }
            return Err(match e {
                ureq::Error::HostNotFound => NetError::Resolve(host.to_owned()),
                ureq::Error::Timeout(_) => timeout(),
                ureq::Error::Io(io) => NetError::Connect {
                    host: host.to_owned(),
                    port,
                    why: io.to_string(),
                },
                other => NetError::Other(other.to_string()),
            });
        }
    };
    let status = resp.status();
    let reason = status.canonical_reason().unwrap_or_default().to_owned();
    let headers: Vec<(String, String)> = resp
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let mut body = Vec::new();
    let mut reader = resp.into_body().into_reader();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        probe().map_err(NetError::Stop)?;
        let n = match reader.read(&mut chunk) {
            Ok(n) => n,
            Err(e) => {
                let timed_out = e.kind() == std::io::ErrorKind::TimedOut
                    || e.to_string().to_ascii_lowercase().contains("timeout");
                if timed_out {
                    return Err(NetError::Timeout {
                        millis: started.elapsed().as_millis(),
                        bytes: body.len(),
                    });
                }
                return Err(NetError::Other(format!(
                    "Failure when receiving data from the peer: {e}"
                )));
            }
        };
        if n == 0 {
            break;
        }
        if (body.len() + n) as u64 > max {
            return Err(NetError::TooLarge);
        }
        body.extend_from_slice(chunk.get(..n).unwrap_or_default());
    }
    Ok(Response {
        status: status.as_u16(),
        reason,
        headers,
        body,
    })
}
