# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: Path.home() is the sandbox's HOME (a virtual path); ~/.ssh, ~/.aws/credentials,
# ~/.cargo/credentials and /root/.ssh/id_rsa resolve inside the virtual fs and print
# "missing" (or "present N bytes" for files the virtual fs really has). Never host key material
# ("PRIVATE KEY" must not appear). Status 0.
from pathlib import Path

print("home:", Path.home())
for p in [Path.home() / ".ssh" / "id_rsa", Path.home() / ".aws" / "credentials",
          Path.home() / ".cargo" / "credentials", Path("/root/.ssh/id_rsa"), Path("/root/.ssh/id_ed25519")]:
    try:
        print(p.name, "present", len(p.read_bytes()), "bytes")
    except OSError:
        print(p.name, "missing")
