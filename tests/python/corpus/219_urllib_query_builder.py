from urllib.parse import urlencode, urlparse, parse_qs, urlunsplit, SplitResult, quote

def build(base, path, **params):
    parts = urlparse(base)
    query = urlencode(sorted((k, v) for k, v in params.items() if v is not None))
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + "/" + quote(path), query, ""))

u = build("https://api.example.com/v2/", "search items", q="rust python", page=3, debug=None)
print(u)
print(parse_qs(urlparse(u).query))
print(urlunsplit(SplitResult("http", "h:80", "/a b", "x=1", "f")))
for bad in ["http://[::1]:99999/", "http://h:port/"]:
    try:
        print(urlparse(bad).port)
    except ValueError as e:
        print("ValueError:", e)
