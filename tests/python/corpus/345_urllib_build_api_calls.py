from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

BASE = "https://api.example.com/v1/"
def endpoint(path, **params):
    url = urljoin(BASE, path)
    parts = urlsplit(url)
    q = urlencode({k: v for k, v in sorted(params.items()) if v is not None}, doseq=True)
    return urlunsplit(parts._replace(query=q))

print(endpoint("users", page=2, per_page=50))
print(endpoint("users/42/repos", sort="updated", type=None))
print(endpoint("search", q="name:ann & age>30", tags=["a", "b"]))
print(endpoint("/absolute/path"))
print(endpoint("https://other.example/x", k="v"))
