# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: the output cap applies to Python's stdout: the run stops (status 126 with the output
# limit's message) or the captured stdout is truncated at the cap; it never grows without bound.
import sys

line = "x" * 1023 + "\n"
while True:
    sys.stdout.write(line)
