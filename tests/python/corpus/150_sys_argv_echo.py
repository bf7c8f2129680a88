import sys

print("script:", sys.argv[0])
print("argc:", len(sys.argv) - 1)
for i, a in enumerate(sys.argv[1:], 1):
    print(f"  argv[{i}] = {a!r}")
nums = [a for a in sys.argv[1:] if a.lstrip("-").isdigit()]
print("sum of numeric args:", sum(map(int, nums)))
