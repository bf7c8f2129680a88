# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: writes to absolute paths go to the virtual fs (or fail with PermissionError/OSError
# within it). After the run, none of these files exists on the host:
# /tmp/shellbox-py-escape-marker, ~/shellbox-py-escape-marker. Inside the sandbox, reading the
# /tmp marker back gives "marker" when the write succeeded. Status 0.
import os

for path in ["/tmp/shellbox-py-escape-marker", os.path.expanduser("~/shellbox-py-escape-marker"),
             "/etc/shellbox-py-escape-marker"]:
    try:
        with open(path, "w") as f:
            f.write("marker")
        with open(path) as f:
            print("wrote", os.path.basename(path), "read back:", f.read())
    except OSError as e:
        print("write blocked:", os.path.dirname(path) or ".", type(e).__name__)
