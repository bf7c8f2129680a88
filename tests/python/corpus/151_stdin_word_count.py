import sys

text = sys.stdin.read()
lines = text.splitlines()
words = text.split()
print(f"{len(lines):>7}{len(words):>8}{len(text.encode()):>8}")
longest = max(lines, key=len) if lines else ""
print("longest line:", repr(longest))
