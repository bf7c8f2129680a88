from urllib.parse import urlparse, urljoin, quote, unquote, parse_qs, urldefrag

print(urlparse("example.com/path"))
print(urlparse("//example.com/path").netloc, urlparse("mailto:a@b.c").path)
print(urlparse("http://[::1]:8080/x").hostname, urlparse("HTTP://EXAMPLE.com").hostname)
print(urljoin("http://a/b/c/d;p?q", "../../g"), urljoin("http://a/b/", "g?y#s"))
print(parse_qs("a=1&b=&c", keep_blank_values=True), parse_qs("a=1&b=&c"))
print(urldefrag("http://x/y#frag"), quote("/path with spaces/ü"), unquote("%E2%9C%93"))
