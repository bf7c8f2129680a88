def count_calls(fn):
    def wrapper(*a):
        wrapper.calls += 1
        return fn(*a)
    wrapper.calls = 0
    return wrapper

def memo(fn):
    cache = {}
    def wrapper(*a):
        if a not in cache:
            cache[a] = fn(*a)
        return cache[a]
    wrapper.cache = cache
    return wrapper

@count_calls
def slow_fib(n):
    return n if n < 2 else slow_fib(n - 1) + slow_fib(n - 2)

@memo
def fast_fib(n):
    return n if n < 2 else fast_fib(n - 1) + fast_fib(n - 2)

print(slow_fib(20), slow_fib.calls)
print(fast_fib(90), len(fast_fib.cache))
