import sys
from collections import Counter

words = Counter(w.strip(".,!?;:").lower() for line in sys.stdin for w in line.split())
words.pop("", None)
for w, n in sorted(words.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"{n:4} {w}")
