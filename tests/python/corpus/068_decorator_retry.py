def retry(times):
    def deco(fn):
        def wrapper(*a):
            last = None
            for attempt in range(1, times + 1):
                try:
                    return fn(*a)
                except ConnectionError as e:
                    last = e
                    print(f"attempt {attempt} failed: {e}")
            raise RuntimeError(f"gave up after {times} attempts") from last
        return wrapper
    return deco

state = {"n": 0}

@retry(3)
def flaky(limit):
    state["n"] += 1
    if state["n"] < limit:
        raise ConnectionError(f"try {state['n']}")
    return "ok"

print(flaky(2))
state["n"] = 0
print(flaky(5))
