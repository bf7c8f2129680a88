import base64

raw = b"shellbox \x00\xff binary?"
enc = base64.b64encode(raw)
print(enc, base64.b64decode(enc) == raw)
print(base64.urlsafe_b64encode(b"\xfb\xff\xfe"), base64.b64encode(b"\xfb\xff\xfe"))
print(base64.b32encode(b"hello"), base64.b16encode(b"hi"), base64.b85encode(b"hello"))
print(base64.b64decode("aGVsbG8="), base64.standard_b64decode(b"d29ybGQ="))
print(base64.b64encode(b"a"), base64.b64encode(b"ab"), base64.b64encode(b"abc"))
print(base64.encodebytes(b"x" * 60))
try:
    base64.b64decode("abc", validate=True)
except Exception as e:
    print(type(e).__name__, e)
