from contextlib import contextmanager

@contextmanager
def transaction(log):
    log.append("begin")
    try:
        yield log
        log.append("commit")
    except Exception as e:
        log.append(f"rollback ({e})")
        raise

log = []
with transaction(log):
    log.append("insert 1")
try:
    with transaction(log):
        log.append("insert 2")
        raise ValueError("constraint")
except ValueError:
    log.append("handled")
print("\n".join(log))
with transaction(log):
    raise LookupError("unhandled in tx")
