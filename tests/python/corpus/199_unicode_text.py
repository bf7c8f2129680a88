import unicodedata

s = "Crème Brûlée — ½ price! 日本語 🙂"
print(len(s), s.upper(), s.casefold())
print(unicodedata.normalize("NFD", "é") == "e\u0301", len(unicodedata.normalize("NFD", s)))
print("".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)))
print(unicodedata.name("½"), unicodedata.category("日"), unicodedata.numeric("½"))
print([c for c in s if c.isupper()], "ß".upper(), "ǅ".istitle(), "٣".isdigit(), int("٣"))
print(s.encode("utf-8")[-4:], s[-1], f"{'日本':^8}|", "ﬁ".casefold())
