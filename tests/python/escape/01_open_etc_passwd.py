# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: open('/etc/passwd') reaches the sandbox's virtual filesystem, not the host's. With no
# /etc/passwd in the virtual fs: status 1, last stderr line
# "FileNotFoundError: [Errno 2] No such file or directory: '/etc/passwd'". Never any line of the
# host's /etc/passwd (e.g. "root:x:0:0") on stdout or stderr.
with open("/etc/passwd") as f:
    data = f.read()
print("read", len(data), "bytes")
print(data[:200])
