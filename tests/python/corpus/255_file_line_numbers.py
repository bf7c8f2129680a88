lines = ["import os", "", "def main():", "    print('hi')", "", "", "main()"]
with open("code.py.txt", "w") as f:
    f.write("\n".join(lines) + "\n")
with open("code.py.txt") as f:
    width = len(str(len(lines)))
    blank_run = 0
    for n, line in enumerate(f, 1):
        line = line.rstrip("\n")
        blank_run = blank_run + 1 if not line else 0
        if blank_run > 1:
            continue
        print(f"{n:>{width}} | {line}")
with open("code.py.txt") as f:
    print(sum(1 for _ in f), "lines;", sum(1 for l in open("code.py.txt") if l.strip()), "non-blank")
