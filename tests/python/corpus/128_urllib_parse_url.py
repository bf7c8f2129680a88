from urllib.parse import urlparse, urlunparse, urljoin, urlsplit, parse_qs, parse_qsl

url = "https://user:pw@api.example.com:8443/v1/items/42;type=a?q=shell+box&tag=a&tag=b#section-2"
p = urlparse(url)
print(p.scheme, p.netloc, p.hostname, p.port, p.username, p.password)
print(p.path, p.params, p.query, p.fragment)
print(parse_qs(p.query), parse_qsl(p.query))
print(urlunparse(p._replace(query="", fragment="")))
for rel in ["other", "../up", "/root", "//cdn.example.com/x", "?q=1", "#frag"]:
    print(f"{rel:22} {urljoin('https://a.b/c/d/e', rel)}")
print(urlsplit("file:///tmp/x.txt").path)
