import sys

class QuotaExceeded(Exception):
    def __init__(self, used, limit):
        super().__init__(f"used {used} of {limit} units")

print("checking quota", file=sys.stderr)
usage = [30, 50, 40]
total = 0
for u in usage:
    total += u
    print("running total", total)
    if total > 100:
        raise QuotaExceeded(total, 100)
