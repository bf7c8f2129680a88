import sys

data = sys.stdin.read()
print("bytes read:", len(data))
print("isatty:", sys.stdin.isatty())
lines = data.splitlines()
if not lines:
    print("no input", file=sys.stderr)
    sys.exit(4)
print("first:", lines[0])
