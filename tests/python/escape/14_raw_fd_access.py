# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: file descriptors are the sandbox's own: fds 3..20 are not open host descriptors, so
# os.read/os.fstat on them fail with OSError (EBADF) and print "fd N: blocked OSError"; no bytes
# from the host process's files or sockets are printed. Status 0.
import os

for fd in range(3, 21):
    try:
        st = os.fstat(fd)
        data = os.read(fd, 64)
        print(f"fd {fd}: OPEN size={st.st_size} read={len(data)}")
    except OSError as e:
        print(f"fd {fd}: blocked {type(e).__name__}")
