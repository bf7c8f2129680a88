from urllib.parse import quote, quote_plus, unquote, unquote_plus, urlencode

print(quote("a b/c?d=é&f"), quote("a b/c", safe=""), quote_plus("a b&c=d"))
print(unquote("caf%C3%A9%20bar"), unquote_plus("a+b%2Bc"))
params = {"q": "shell box", "lang": "en", "page": 2, "tags": ["x", "y z"]}
print(urlencode(params))
print(urlencode(params, doseq=True))
print(urlencode([("a", "1"), ("a", "2")]))
print(quote("~user/_-.!"), quote(b"\x00\xff"))
