# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: os.environ holds exactly the shell's exported variables: run as
# `export SB_MARK=1; python3 16_environ_host_leak.py`, it prints "SB_MARK 1" and the host
# process's environment never appears (the printed key list equals `env | cut -d= -f1 | sort`
# in the same session; no CARGO_*, RUST_*, SSH_* or the host's HOME). Status 0.
import os

print("SB_MARK", os.environ.get("SB_MARK"))
print(sorted(os.environ))
print("home:", os.environ.get("HOME"), os.path.expanduser("~"))
