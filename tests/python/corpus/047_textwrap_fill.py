import textwrap

para = ("Shellbox is a simulated shell that runs entirely in memory. It offers a "
        "virtual filesystem, limits on time and memory, and a growing set of tools "
        "that agents expect to find on a Unix machine.")
print(textwrap.fill(para, width=40))
print()
for line in textwrap.wrap(para, width=30, initial_indent="* ", subsequent_indent="  ")[:4]:
    print(line)
print(textwrap.shorten(para, width=50, placeholder=" [...]"))
