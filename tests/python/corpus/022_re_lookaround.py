import re

s = "price: $100, cost: $2500, tax 15%, $7"
print(re.findall(r"(?<=\$)\d+", s))
print(re.findall(r"\d+(?=%)", s))
print(re.sub(r"\B(?=(\d{3})+(?!\d))", ",", "1234567"))
print(re.findall(r"\b(\w)(\w*)\1\b", "noon level abba xyzx test"))
m = re.search(r"(?P<a>\w+)\s(?P=a)", "this is is repeated")
print(m.group(0), m.span())
