import os
import tempfile

with tempfile.TemporaryDirectory(dir=".") as d:
    p = os.path.join(d, "scratch.txt")
    with open(p, "w") as f:
        f.write("temp data\n")
    print(os.path.exists(p), os.path.dirname(os.path.relpath(p)) == os.path.basename(d))
print(os.path.exists(d))
with tempfile.NamedTemporaryFile("w+", dir=".", suffix=".tmp", delete=True) as tf:
    tf.write("hello")
    tf.flush()
    tf.seek(0)
    print(tf.read(), os.path.basename(tf.name).endswith(".tmp"))
print(sorted(f for f in os.listdir(".") if not f.endswith(".py")))
