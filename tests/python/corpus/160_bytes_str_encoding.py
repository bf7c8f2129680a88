s = "naïve café – ✓"
b = s.encode("utf-8")
print(len(s), len(b), b)
print(b.decode("utf-8") == s, s.encode("latin-1", errors="replace"), s.encode("ascii", errors="ignore"))
print(s.encode("ascii", errors="xmlcharrefreplace"), s.encode("ascii", errors="backslashreplace"))
print(b"\xff\xfe".decode("utf-8", errors="replace"), bytes([72, 105]), bytearray(b"ab") + b"c")
print("%r" % b.hex(" ", 4)[:23], bytes.fromhex("de ad be ef"), list(b"AZ"))
print(ord("✓"), chr(0x1F600).encode("utf-8"), "\N{GREEK SMALL LETTER ALPHA}", "\u00e9" == "é")
b"\xc3\x28".decode("utf-8")
