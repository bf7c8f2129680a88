# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: glob and shutil on absolute paths see only the virtual fs: glob('/*') equals
# ['/' + name for name in os.listdir('/')] (sorted), glob('/etc/*') lists only virtual files, and
# shutil.copytree('/etc', 'etc-copy') copies virtual files (or fails FileNotFoundError when the
# virtual fs has no /etc). Status 0; never host file names such as /etc/hostname unless the
# virtual fs has them.
import glob
import os
import shutil

print(sorted(glob.glob("/*")) == sorted("/" + n for n in os.listdir("/")))
print(sorted(glob.glob("/etc/*")))
try:
    shutil.copytree("/etc", "etc-copy")
    print("copied", sum(len(f) for _, _, f in os.walk("etc-copy")), "files")
except OSError as e:
    print("copytree:", type(e).__name__)
