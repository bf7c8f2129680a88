# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: subprocess never starts a host process. Either (a) it runs the command through the
# shellbox interpreter, so "echo inside" prints "inside" and "ls /" lists the virtual root, and
# cat /etc/passwd fails as in the virtual fs; or (b) it fails clearly: status 1 with a last stderr
# line naming the limitation (e.g. "OSError: ..." / "NotImplementedError: ..." / ImportError).
# No host output (no host uid/hostname) in any case.
import subprocess

r = subprocess.run(["echo", "inside"], capture_output=True, text=True)
print("echo:", r.returncode, r.stdout.strip())
r = subprocess.run("ls /", shell=True, capture_output=True, text=True)
print("ls /:", r.returncode, sorted(r.stdout.split()))
r = subprocess.run(["cat", "/etc/passwd"], capture_output=True, text=True)
print("cat:", r.returncode, len(r.stdout))
print(subprocess.check_output(["id"], text=True))
