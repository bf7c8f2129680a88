import difflib

with open("v1.txt", "w") as f:
    f.write("alpha\nbeta\ngamma\ndelta\n")
with open("v2.txt", "w") as f:
    f.write("alpha\nBETA\ngamma\ndelta\nepsilon\n")
a = open("v1.txt").readlines()
b = open("v2.txt").readlines()
diff = list(difflib.unified_diff(a, b, "v1.txt", "v2.txt", n=1))
print("".join(diff), end="")
added = sum(1 for l in diff if l.startswith("+") and not l.startswith("+++"))
removed = sum(1 for l in diff if l.startswith("-") and not l.startswith("---"))
print(f"{added} insertion(s), {removed} deletion(s)")
print(difflib.SequenceMatcher(None, "".join(a), "".join(b)).quick_ratio() > 0.8)
