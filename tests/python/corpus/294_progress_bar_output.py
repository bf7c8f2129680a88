import sys

def bar(done, total, width=30):
    frac = done / total
    filled = int(width * frac)
    return f"[{'#' * filled}{'.' * (width - filled)}] {frac:6.1%} ({done}/{total})"

total = 7
for i in range(total + 1):
    print(bar(i, total))
sys.stderr.write("progress written to stdout\n")
print(bar(1, 3, width=10), bar(2, 3, width=10), sep="\n")
