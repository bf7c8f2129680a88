import re

phone = re.compile(r"""
    ^\(?(\d{3})\)?   # area code
    [\s.-]?(\d{3})   # prefix
    [\s.-]?(\d{4})$  # line
""", re.VERBOSE)
for s in ["(555) 123-4567", "555.123.4567", "5551234567", "55-1234-567"]:
    m = phone.match(s)
    print(f"{s:16} ->", "-".join(m.groups()) if m else "no match")
print(re.findall(r"^item", "Item\nitem\nITEM", re.I | re.M))
print(bool(re.search(r"a.b", "a\nb", re.S)))
