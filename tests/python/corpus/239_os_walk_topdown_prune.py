import os

for d in ["repo/src/app", "repo/node_modules/lib", "repo/.git/objects", "repo/tests", "repo/build"]:
    os.makedirs(d)
    with open(os.path.join(d, "file.txt"), "w") as f:
        f.write(d)
SKIP = {"node_modules", ".git", "build"}
visited = []
for root, dirs, files in os.walk("repo"):
    dirs[:] = sorted(d for d in dirs if d not in SKIP)
    visited.append(root)
print(visited)
bottom_up = [root for root, _, _ in os.walk("repo", topdown=False)]
print(len(bottom_up), bottom_up[-1], all(bottom_up.index(r) <= bottom_up.index("repo") for r in bottom_up))
print(list(os.walk("does-not-exist")))
