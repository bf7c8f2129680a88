counter = 0

def bump():
    global counter
    counter += 1
    return counter

bump()
bump()
print(counter)

def outer():
    x = "outer"
    def inner():
        nonlocal x
        x = "changed by inner"
    inner()
    return x

print(outer())
x = "global x"
def shadow():
    x = "local x"
    return x
print(shadow(), x)
def broken():
    print(y_value)
    y_value = 1
broken()
