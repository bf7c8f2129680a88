from collections import Counter
import string

text = """It was the best of times, it was the worst of times, it was the age of
wisdom, it was the age of foolishness, it was the epoch of belief."""
letters = Counter(c for c in text.lower() if c in string.ascii_lowercase)
print("letters:", letters.total(), "distinct:", len(letters))
print("top5:", sorted(letters.most_common(5), key=lambda kv: (-kv[1], kv[0])))
bigrams = Counter(zip(text.lower().split(), text.lower().split()[1:]))
print(sorted(bigrams.items(), key=lambda kv: (-kv[1], kv[0]))[:3])
missing = sorted(set(string.ascii_lowercase) - set(letters))
print("unused letters:", "".join(missing))
