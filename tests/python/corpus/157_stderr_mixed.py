import sys

print("out 1")
print("err 1", file=sys.stderr)
sys.stdout.write("out 2\n")
sys.stderr.write("err 2\n")
for i in range(3):
    stream = sys.stdout if i % 2 == 0 else sys.stderr
    print(f"line {i}", file=stream)
sys.stdout.flush()
sys.stderr.flush()
print("done")
