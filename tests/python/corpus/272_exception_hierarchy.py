tests = [lambda: [][0], lambda: {}["k"], lambda: int("x"), lambda: 1 / 0, lambda: None.attr,
         lambda: undefined_name, lambda: "a" + 1, lambda: open("nonexistent-dir/x"),
         lambda: iter(5), lambda: (1).__class__("zz"), lambda: [].pop()]
for t in tests:
    try:
        t()
    except LookupError as e:
        print("LookupError  ", type(e).__name__)
    except ArithmeticError as e:
        print("Arithmetic   ", type(e).__name__)
    except (NameError, AttributeError) as e:
        print("Name/Attr    ", type(e).__name__)
    except OSError as e:
        print("OSError      ", type(e).__name__)
    except Exception as e:
        print("Exception    ", type(e).__name__, "|", e)
