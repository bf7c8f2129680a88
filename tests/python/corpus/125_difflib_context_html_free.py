import difflib

a = ["alpha", "beta", "gamma", "delta", "epsilon"]
b = ["alpha", "gamma", "delta", "zeta", "epsilon", "eta"]
for line in difflib.context_diff(a, b, "before", "after", lineterm=""):
    print(line)
d = difflib.Differ()
print("\n".join(d.compare(["one two three"], ["one too three"])))
print(difflib.SequenceMatcher(None, a, b).get_matching_blocks())
