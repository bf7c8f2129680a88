# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: os.chdir('/') moves to the virtual root; os.listdir('.') equals the names `ls -A /` shows
# in the same shellbox session (not the host's root: e.g. no "boot", "lost+found" unless the
# virtual fs has them). os.walk('/') finishes within the run's limits and counts only virtual
# files. Status 0.
import os

os.chdir("/")
print("cwd:", os.getcwd())
print("root:", sorted(os.listdir(".")))
n_files = sum(len(files) for _, _, files in os.walk("/"))
print("files under /:", n_files)
