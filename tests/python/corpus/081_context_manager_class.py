class Tag:
    depth = 0

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("  " * Tag.depth + f"<{self.name}>")
        Tag.depth += 1
        return self

    def __exit__(self, exc_type, exc, tb):
        Tag.depth -= 1
        print("  " * Tag.depth + f"</{self.name}>")
        if exc_type is KeyError:
            print("  " * Tag.depth + f"<!-- swallowed {exc!r} -->")
            return True
        return False

with Tag("html"):
    with Tag("body"):
        with Tag("p"):
            print("      text")
    with Tag("div"):
        raise KeyError("x")
print("after")
