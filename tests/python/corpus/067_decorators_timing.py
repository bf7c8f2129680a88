import functools

calls = []

def logged(prefix):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            calls.append(fn.__name__)
            result = fn(*args, **kwargs)
            print(f"{prefix} {fn.__name__}{args} -> {result}")
            return result
        return wrapper
    return deco

@logged("[calc]")
def add(a, b):
    """Add two numbers."""
    return a + b

@logged("[str]")
def shout(s):
    return s.upper() + "!"

add(2, 3)
shout("hi")
add(add(1, 1), 10)
print(calls, add.__name__, add.__doc__)
