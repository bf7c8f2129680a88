def read_records(path):
    with open(path) as f:
        for line in f:
            yield line.rstrip("\n")

def parse(lines):
    for l in lines:
        if l:
            name, score = l.split(":")
            yield name, int(score)

def top(records, n):
    return sorted(records, key=lambda r: -r[1])[:n]

with open("scores.txt", "w") as f:
    f.write("ann:30\nbob:95\n\ncy:72\ndee:95\ned:10\n")
gen = parse(read_records("scores.txt"))
print(type(gen).__name__)
print(top(gen, 3))
print(list(gen))
print(sum(s for _, s in parse(read_records("scores.txt"))))
