# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: the memory budget applies inside Python: the run ends with status 126 and the memory
# limit's message on stderr (or, if the interpreter raises it first, status 1 with last stderr
# line "MemoryError"), never an abort of the shellbox process. "allocating" is printed first.
print("allocating", flush=True)
chunks = []
while True:
    chunks.append(bytearray(64 * 1024 * 1024))
    chunks.append([0] * 10_000_000)
