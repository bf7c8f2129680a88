# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: '..' never leaves the virtual fs: from the working directory, any number of '../' stops at
# the virtual root, so '../../../../../../etc/hostname' is the virtual /etc/hostname
# (FileNotFoundError unless the virtual fs has it) and os.listdir('../../../../../..') lists the
# virtual root (the same names as os.listdir('/')). Host file contents never appear. Status 0.
import os

deep = "../" * 12
print("same as /:", sorted(os.listdir(deep)) == sorted(os.listdir("/")))
print("realpath:", os.path.realpath(deep))
for target in ["etc/hostname", "etc/shadow", "root/.bash_history", "home"]:
    p = deep + target
    try:
        if os.path.isdir(p):
            print(target, "dir with", len(os.listdir(p)), "entries (virtual)")
        else:
            with open(p, "rb") as f:
                print(target, "READ", len(f.read()), "bytes")
    except OSError as e:
        print(target, "blocked:", type(e).__name__)
