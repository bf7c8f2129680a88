from collections import Counter
import re

text = """The quick brown fox jumps over the lazy dog. The dog barks;
the fox runs. A quick fox, a lazy dog, and THE end."""
words = re.findall(r"[a-z']+", text.lower())
counts = Counter(words)
print("total words:", len(words), "unique:", len(counts))
for word, n in sorted(counts.most_common(), key=lambda kv: (-kv[1], kv[0]))[:6]:
    print(f"{word:>6} {'#' * n} {n}")
