import sys

try:
    sys.exit(5)
except Exception:
    print("Exception does not catch SystemExit")
except BaseException as e:
    print("BaseException caught", type(e).__name__, e.code)
try:
    raise SystemExit("custom message")
except SystemExit as e:
    print("message code:", repr(e.code))
print("exiting with 0 via SystemExit(0)")
raise SystemExit(0)
