import re

md = """# Title
See [the docs](https://example.com/docs) and [API](/api "API ref").
Image: ![logo](img/logo.png). Bare: https://bare.example.org/path?x=1
Broken [link]( ) and [ref][1].

[1]: https://example.com/ref
"""
links = re.findall(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)(?:\s+\"([^\"]*)\")?\)", md)
for text, url, title in links:
    print(f"link  {text!r:12} -> {url} {('(' + title + ')') if title else ''}")
print("images:", re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", md))
print("refs:", dict(re.findall(r"^\[(\w+)\]:\s*(\S+)$", md, re.M)))
print("bare:", re.findall(r"(?<![(\w])https?://[^\s)]+", md))
print("headings:", re.findall(r"^#+\s*(.*)$", md, re.M))
