import codecs
import string

def caesar(s, k):
    lo, up = string.ascii_lowercase, string.ascii_uppercase
    table = str.maketrans(lo + up, lo[k:] + lo[:k] + up[k:] + up[:k])
    return s.translate(table)

msg = "Attack at Dawn! 123"
enc = caesar(msg, 3)
print(enc, caesar(enc, -3), caesar(enc, 23))
print(codecs.encode(msg, "rot13"), codecs.decode(codecs.encode(msg, "rot13"), "rot_13"))
print("hello".translate({ord("l"): None, ord("h"): "J"}))
freq = sorted(((enc.lower().count(c), c) for c in set(enc.lower()) if c.isalpha()), reverse=True)
print(freq[:3])
