def read_lines(text):
    for line in text.splitlines():
        yield line

def non_blank(lines):
    return (l for l in lines if l.strip())

def parse(lines):
    for l in lines:
        key, _, val = l.partition(":")
        yield key.strip(), val.strip()

cfg = """
name: demo
 version : 1.2

owner:team-a
"""
pairs = dict(parse(non_blank(read_lines(cfg))))
print(pairs)
