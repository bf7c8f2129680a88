import difflib

commands = ["status", "commit", "checkout", "cherry-pick", "clone", "stash", "push", "pull"]
for typo in ["stauts", "comit", "chekout", "pul", "xyz"]:
    print(f"{typo:8} -> {difflib.get_close_matches(typo, commands, n=2, cutoff=0.6)}")
sm = difflib.SequenceMatcher(None, "the quick brown fox", "the quack brown box")
print(round(sm.ratio(), 4))
for tag, i1, i2, j1, j2 in sm.get_opcodes():
    if tag != "equal":
        print(tag, repr(sm.a[i1:i2]), repr(sm.b[j1:j2]))
print(sm.find_longest_match(0, 19, 0, 19))
