import argparse

p = argparse.ArgumentParser(prog="report")
p.add_argument("--width", type=int, default=20)
p.add_argument("--title", default="Report")
p.add_argument("items", nargs="*", type=int)
a = p.parse_args()
print(a.title.center(a.width, "="))
for i, v in enumerate(a.items, 1):
    print(f"{i:>2}. {'#' * v:<{a.width - 8}}{v:>4}")
print("=" * a.width)
print(f"sum={sum(a.items)} max={max(a.items, default=0)}")
