import sys

def check(n):
    if n > 10:
        sys.exit(3)
    return n * 2

try:
    sys.exit(None)
except SystemExit as e:
    print("caught SystemExit with code", e.code)
for n in [1, 5, 11, 20]:
    print(check(n))
