class ConfigError(Exception):
    pass

def load(text):
    try:
        return int(text)
    except ValueError as e:
        raise ConfigError(f"bad port {text!r}") from e

try:
    load("80a")
except ConfigError as e:
    print("caught:", e)
    print("cause:", type(e.__cause__).__name__, e.__cause__)
try:
    try:
        {}["k"]
    except KeyError:
        raise RuntimeError("during handling")
except RuntimeError as e:
    print("context:", repr(e.__context__))
load("http")
