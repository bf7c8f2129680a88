import argparse

p = argparse.ArgumentParser()
p.add_argument("input")
p.add_argument("--sep", default=",")
p.add_argument("--upper", action="store_true")
p.add_argument("-k", type=int, default=2)
a = p.parse_args()
fields = a.input.split(a.sep)
if a.upper:
    fields = [f.upper() for f in fields]
print(fields[: a.k], len(fields))
