import argparse

p = argparse.ArgumentParser(prog="convert")
p.add_argument("--from", dest="src", required=True, choices=["c", "f", "k"])
p.add_argument("--to", dest="dst", required=True, choices=["c", "f", "k"])
p.add_argument("value", type=float)
a = p.parse_args()
to_c = {"c": lambda v: v, "f": lambda v: (v - 32) * 5 / 9, "k": lambda v: v - 273.15}
from_c = {"c": lambda v: v, "f": lambda v: v * 9 / 5 + 32, "k": lambda v: v + 273.15}
print(f"{a.value:g}{a.src} = {from_c[a.dst](to_c[a.src](a.value)):.2f}{a.dst}")
