import difflib

old = """line one
line two
line three
line four
""".splitlines(keepends=True)
new = """line one
line 2
line three
line four
line five
""".splitlines(keepends=True)
print("".join(difflib.unified_diff(old, new, fromfile="a/file.txt", tofile="b/file.txt")), end="")
print("---- ndiff")
print("".join(difflib.ndiff(["apple\n", "banana\n"], ["apple\n", "bananas\n"])), end="")
