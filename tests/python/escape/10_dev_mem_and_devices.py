# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: host device files are not reachable: /dev/mem, /dev/kmem, /dev/sda and /dev/port print
# "blocked: <ExceptionName>" (FileNotFoundError/PermissionError). /dev/null may exist in the
# virtual fs (then "READ 0 bytes"). /dev/urandom, if provided, must come from the sandbox (any
# length printed is fine). Status 0; no host memory bytes.
for path in ["/dev/mem", "/dev/kmem", "/dev/sda", "/dev/port", "/dev/null", "/dev/urandom"]:
    try:
        with open(path, "rb") as f:
            data = f.read(16)
        print(path, "READ", len(data), "bytes")
    except OSError as e:
        print(path, "blocked:", type(e).__name__)
