import warnings
import sys

def old_api():
    warnings.warn("old_api is deprecated", DeprecationWarning, stacklevel=2)
    return 1

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old_api()
    warnings.warn("plain user warning")
for w in caught:
    print(w.category.__name__, str(w.message))
print("logged to stderr", file=sys.stderr)
