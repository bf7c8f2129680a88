import random

random.seed(11)
samples = [random.randint(0, 99) for _ in range(500)]
buckets = [0] * 10
for s in samples:
    buckets[s // 10] += 1
peak = max(buckets)
for level in range(peak, 0, -10):
    print(f"{level:3} |" + "".join(" ## " if b >= level else "    " for b in buckets))
print("    +" + "----" * 10)
print("     " + "".join(f"{i * 10:^4}" for i in range(10)))
print(sorted(samples)[:5], sum(samples))
