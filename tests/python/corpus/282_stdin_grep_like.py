import re
import sys

if len(sys.argv) < 2:
    sys.exit("usage: grep PATTERN")
pattern = re.compile(sys.argv[1], re.I if "-i" in sys.argv[2:] else 0)
matches = 0
for n, line in enumerate(sys.stdin, 1):
    if pattern.search(line):
        matches += 1
        print(f"{n}:{line}", end="")
print(f"{matches} matching lines", file=sys.stderr)
sys.exit(0 if matches else 1)
