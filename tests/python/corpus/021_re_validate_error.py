import re
import sys

ids = ["AB-1234", "XY-0001", "bad-id", "QQ-99"]
pat = re.compile(r"[A-Z]{2}-\d{4}")
bad = [i for i in ids if not pat.fullmatch(i)]
for i in ids:
    print(i, "ok" if i not in bad else "INVALID")
if bad:
    sys.exit(f"error: {len(bad)} invalid ids: {', '.join(bad)}")
