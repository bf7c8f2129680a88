import functools
import inspect

def typechecked(fn):
    sig = inspect.signature(fn)
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        for name, value in bound.arguments.items():
            ann = sig.parameters[name].annotation
            if ann is not inspect.Parameter.empty and not isinstance(value, ann):
                raise TypeError(f"{fn.__name__}: {name}={value!r} is not {ann.__name__}")
        return fn(*args, **kwargs)
    return wrapper

@typechecked
def repeat(s: str, n: int = 2) -> str:
    return s * n

print(repeat("ab"), repeat("x", n=3), str(inspect.signature(repeat)))
try:
    repeat("a", "b")
except TypeError as e:
    print(e)
repeat(5)
