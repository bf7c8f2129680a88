def running_average():
    total = count = 0
    avg = None
    while True:
        value = yield avg
        if value is None:
            break
        total += value
        count += 1
        avg = total / count
    return count

gen = running_average()
next(gen)
for v in [10, 20, 60]:
    print(gen.send(v))
try:
    gen.send(None)
except StopIteration as stop:
    print("done after", stop.value)

def countdown(n):
    try:
        while n:
            yield n
            n -= 1
    finally:
        print("cleanup at", n)

c = countdown(5)
print(next(c), next(c))
c.close()
