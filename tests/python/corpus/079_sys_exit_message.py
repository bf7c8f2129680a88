import sys

errors = []
for value in ["1", "2", "three", "4", "five"]:
    try:
        int(value)
    except ValueError:
        errors.append(value)
print("checked 5 values")
if errors:
    sys.exit("invalid values: " + ", ".join(errors))
