# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: the run's timeout applies inside Python: with a short timeout (e.g. 1 s) the run ends
# with status 126 and the timeout limit's message on stderr; "started" was printed first; the
# shellbox process stays healthy (the next command runs).
print("started", flush=True)
while True:
    pass
