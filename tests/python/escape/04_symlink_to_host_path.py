# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: a symlink made inside the sandbox resolves inside the virtual fs. Creating it succeeds
# (or fails with OSError, printed as "symlink failed: ..."); reading through it then raises
# FileNotFoundError for /etc/shadow and /etc/passwd unless the virtual fs holds them. The host's
# files are never read; no host content appears in the output. Status 0.
import os

for target, link in [("/etc/passwd", "pw"), ("/etc/shadow", "sh"), ("/", "rootlink"), ("../../../../etc", "up")]:
    try:
        os.symlink(target, link)
        print(link, "->", os.readlink(link))
    except OSError as e:
        print("symlink failed:", link, type(e).__name__)
        continue
    try:
        if os.path.isdir(link):
            print(link, "is dir, entries same as /:", sorted(os.listdir(link)) == sorted(os.listdir("/")))
        else:
            with open(link, "rb") as f:
                print(link, "READ", len(f.read()), "bytes")
    except OSError as e:
        print(link, "blocked:", type(e).__name__)
