import argparse

p = argparse.ArgumentParser(prog="resize")
p.add_argument("width", type=int)
p.add_argument("height", type=int)
p.add_argument("--unit", choices=["px", "cm"], default="px")
ok = p.parse_args(["640", "480"])
print(ok.width * ok.height, ok.unit)
print(p.format_usage().strip())
p.parse_args(["640", "tall"])
