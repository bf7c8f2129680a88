import sys
from pathlib import Path

# creates its inputs, then processes the files named on the command line
Path("one.txt").write_text("a\nb\nc\n")
Path("two.txt").write_text("hello world\n")
status = 0
for name in sys.argv[1:]:
    p = Path(name)
    if not p.exists():
        print(f"{name}: No such file", file=sys.stderr)
        status = 1
        continue
    text = p.read_text()
    print(f"{name}: {len(text.splitlines())} lines, {len(text.split())} words")
sys.exit(status)
