import re

template = "Hello {name}, you owe {amount} by {date}. {unknown} stays."
values = {"name": "Sam", "amount": "$12.50", "date": "2024-02-01"}

def repl(m):
    key = m.group(1)
    return values.get(key, m.group(0))

print(re.sub(r"\{(\w+)\}", repl, template))
print(re.sub(r"(\d+)", lambda m: str(int(m.group()) * 2), "a1 b22 c333"))
print(re.sub(r"\s+", " ", "  many   spaces\there \n"))
print(re.subn(r"o", "0", "foo boo"))
