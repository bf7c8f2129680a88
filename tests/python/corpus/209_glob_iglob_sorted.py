import glob
import os

for d in ["logs/2024/01", "logs/2024/02", "logs/2023/12"]:
    os.makedirs(d)
    for i in range(2):
        with open(os.path.join(d, f"day{i + 1}.log"), "w") as f:
            f.write("x" * (i + 1))
    open(os.path.join(d, ".hidden.log"), "w").close()
print(sorted(glob.glob("logs/*/*/*.log")))
print(len(list(glob.iglob("logs/**/*.log", recursive=True))))
print(sorted(glob.glob("logs/2024/0[1-2]/day1.log")))
print(sorted(glob.glob("logs/*/*/.*")))
print(sorted(glob.glob("*/2023")), sorted(glob.glob("logs/**/", recursive=True)))
