import argparse

p = argparse.ArgumentParser(prog="tool", description="demo tool")
p.add_argument("files", nargs="+")
p.add_argument("-n", "--count", type=int, default=10)
p.add_argument("-v", "--verbose", action="count", default=0)
p.add_argument("--mode", choices=["fast", "slow"], default="fast")
p.add_argument("--tag", action="append", default=[])
p.add_argument("--dry-run", action="store_true")
args = p.parse_args(["a.txt", "b.txt", "-n", "3", "-vv", "--tag", "x", "--tag=y", "--dry-run"])
print(args)
print(args.files, args.count, args.verbose, args.mode, args.tag, args.dry_run)
print(vars(p.parse_args(["only"])))
