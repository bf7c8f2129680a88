from enum import Enum

class Env(Enum):
    DEV = "development"
    STAGING = "staging"
    PROD = "production"

    @property
    def is_live(self):
        return self is Env.PROD

    @classmethod
    def from_str(cls, s):
        s = s.strip().lower()
        for e in cls:
            if s in (e.name.lower(), e.value):
                return e
        raise ValueError(f"unknown environment {s!r}; choose from {[e.value for e in cls]}")

for s in ["dev", "production", " Staging "]:
    e = Env.from_str(s)
    print(f"{s!r:12} -> {e.name:8} live={e.is_live} {e!r}")
print(sorted(Env, key=lambda e: e.value)[0], Env["PROD"].value)
Env.from_str("qa")
