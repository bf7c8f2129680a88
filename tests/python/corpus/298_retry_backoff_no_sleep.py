import random

random.seed(3)

class TransientError(Exception):
    pass

def unreliable(attempt):
    if random.random() < 0.6:
        raise TransientError(f"attempt {attempt} failed")
    return f"success on attempt {attempt}"

def with_backoff(fn, retries=6, base=0.1):
    delays = []
    for attempt in range(1, retries + 1):
        try:
            return fn(attempt), delays
        except TransientError as e:
            delay = base * 2 ** (attempt - 1)
            delays.append(round(delay, 2))
            print(f"{e}; would sleep {delay:.2f}s")
    raise TransientError("out of retries")

for run in range(3):
    result, delays = with_backoff(unreliable)
    print(f"run {run}: {result} after delays {delays}")
