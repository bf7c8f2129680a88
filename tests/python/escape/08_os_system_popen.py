# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: os.system / os.popen never start a host process: either they run through the shellbox
# interpreter (os.system('ls /') lists the virtual root; os.popen('echo hi').read() == 'hi\n'),
# or they fail clearly (status 1, last stderr line an OSError/NotImplementedError naming the
# function). Never host output.
import os

rc = os.system("ls /")
print("os.system rc:", rc)
print("popen:", repr(os.popen("echo hi").read()))
