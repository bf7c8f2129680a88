def walk(n):
    return walk(n + 1)

try:
    walk(0)
except RecursionError as e:
    print("RecursionError caught:", "maximum recursion depth" in str(e))
def countdown(n):
    if n == 0:
        return "liftoff"
    return countdown(n - 1)
print(countdown(100))
walk(0)
