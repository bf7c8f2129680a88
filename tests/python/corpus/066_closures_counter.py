def make_counter(start=0, step=1):
    count = start
    def inc():
        nonlocal count
        count += step
        return count
    def reset():
        nonlocal count
        count = start
    return inc, reset

inc, reset = make_counter(10, 5)
print(inc(), inc(), inc())
reset()
print(inc())
adders = [lambda x, n=n: x + n for n in range(3)]
print([f(10) for f in adders])
late = [lambda x: x + n for n in range(3)]
print([f(10) for f in late])
print(inc.__closure__ is not None, inc.__name__)
