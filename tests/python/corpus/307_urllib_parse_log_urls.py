from urllib.parse import urlsplit, parse_qsl, unquote
from collections import Counter

urls = ["https://shop.example/search?q=red+shoes&page=2",
        "https://shop.example/search?q=caf%C3%A9&page=1",
        "http://shop.example/item/42?ref=mail",
        "https://blog.example/post/hello-world#comments",
        "https://shop.example/search?q=red+shoes"]
hosts = Counter(urlsplit(u).hostname for u in urls)
print(sorted(hosts.items()))
queries = Counter(dict(parse_qsl(urlsplit(u).query)).get("q") for u in urls)
queries.pop(None, None)
print(queries.most_common())
for u in urls:
    s = urlsplit(u)
    print(s.scheme, unquote(s.path), s.fragment or "-")
