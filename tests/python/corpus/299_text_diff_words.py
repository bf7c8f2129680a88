import difflib

a = "the quick brown fox jumps over the lazy dog".split()
b = "the quick red fox leaps over the very lazy dog".split()
sm = difflib.SequenceMatcher(None, a, b)
out = []
for tag, i1, i2, j1, j2 in sm.get_opcodes():
    if tag == "equal":
        out.extend(a[i1:i2])
    if tag in ("delete", "replace"):
        out.append("[-" + " ".join(a[i1:i2]) + "-]")
    if tag in ("insert", "replace"):
        out.append("{+" + " ".join(b[j1:j2]) + "+}")
print(" ".join(out))
print(f"similarity {sm.ratio():.3f}")
