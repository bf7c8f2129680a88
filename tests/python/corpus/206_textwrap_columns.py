import textwrap

left = "Python programs run inside the sandbox and see only the virtual filesystem."
right = "Limits on time, memory and output apply to every run, including Python."
lw = textwrap.wrap(left, 24)
rw = textwrap.wrap(right, 24)
for i in range(max(len(lw), len(rw))):
    a = lw[i] if i < len(lw) else ""
    b = rw[i] if i < len(rw) else ""
    print(f"{a:<24} | {b}")
print(textwrap.fill("a " * 30, width=20, max_lines=2, placeholder="..."))
w = textwrap.TextWrapper(width=15, break_long_words=False, break_on_hyphens=True)
print(w.wrap("extraordinarily-long-hyphenated-word here"))
