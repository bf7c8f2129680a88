names = ["Ann", "Zoë", "José", "李雷", "O'Neil"]
for n in names:
    print(f"[{n:<8}] [{n:>8}] [{n:^8}] len={len(n)}")
print("|".join(s.center(7, "·") for s in ["a", "bb", "ccc"]))
print("abc".rjust(2), "x".ljust(0), "%-6s|%6s" % ("l", "r"))
print(str.maketrans("abc", "xyz"), "aabbcc".translate(str.maketrans("abc", "xyz", "c")))
print("a-b_c d".replace("-", " ").replace("_", " ").split(), "x".join("123"))
print("Hello World".index("o"), "Hello World".rindex("o"), "hello"[1:4].upper())
"Hello".index("z")
