def risky(n):
    if n % 3 == 0:
        raise ValueError(f"bad {n}")
    if n % 5 == 0:
        raise TypeError(f"wrong {n}")
    return n

errors = []
for n in range(1, 11):
    try:
        risky(n)
    except Exception as e:
        errors.append(e)
try:
    raise ExceptionGroup("batch failed", errors)
except* ValueError as eg:
    print("values:", [str(e) for e in eg.exceptions])
except* TypeError as eg:
    print("types:", [str(e) for e in eg.exceptions])
print("handled", len(errors))
