import gzip
import os

lines = [f"{i},item{i},{i * 3.5}\n" for i in range(1000)]
with gzip.open("data.csv.gz", "wt", encoding="utf-8") as f:
    f.writelines(lines)
print("compressed smaller:", os.path.getsize("data.csv.gz") < sum(map(len, lines)))
with gzip.open("data.csv.gz", "rt", encoding="utf-8") as f:
    total = 0.0
    count = 0
    for line in f:
        total += float(line.rstrip().split(",")[2])
        count += 1
print(count, total)
with open("data.csv.gz", "rb") as f:
    print(f.read(2).hex())
