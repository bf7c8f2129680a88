def f():
    try:
        print("try")
        return "from try"
    finally:
        print("finally runs before return")

def g():
    try:
        raise ValueError("inner")
    finally:
        return "finally swallowed the error"

def h():
    for i in range(3):
        try:
            if i == 1:
                continue
            print("body", i)
        finally:
            print("finally", i)

print(f())
print(g())
h()
try:
    try:
        raise KeyError("a")
    finally:
        print("cleanup before propagation")
except KeyError as e:
    print("outer caught", e)
