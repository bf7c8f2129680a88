import re

text = """Contact: alice@example.com, bob.smith@mail.example.org
invalid: foo@bar, @nope.com; also CAROL@Example.COM."""
pattern = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
found = pattern.findall(text)
for e in found:
    user, domain = e.split("@")
    print(f"{user:<10} {domain.lower()}")
print(len(found), "addresses")
