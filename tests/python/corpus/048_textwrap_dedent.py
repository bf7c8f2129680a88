import textwrap

code = """
    def f():
        return 1

    print(f())
"""
clean = textwrap.dedent(code).strip("\n")
print(clean)
print(textwrap.indent(clean, "> "))
print(textwrap.indent("a\n\nb", "+ ", lambda line: True))
print(textwrap.wrap("supercalifragilisticexpialidocious word", width=10))
