import textwrap

doc = """First paragraph is long enough that it needs to be wrapped across several lines of output.

Second paragraph: short.

    Indented code-like block stays
    as it is.
"""
for para in doc.split("\n\n"):
    if para.startswith("    "):
        print(textwrap.dedent(para).rstrip())
    else:
        print(textwrap.fill(" ".join(para.split()), width=36))
    print()
print(textwrap.shorten("Hello   world, this   is   a   test", 20))
print(repr(textwrap.indent("one\ntwo\n", "    ")))
