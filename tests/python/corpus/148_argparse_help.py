import argparse

p = argparse.ArgumentParser(prog="greet", description="Print greetings.",
                            epilog="Example: greet --times 2 World")
p.add_argument("name", help="who to greet")
p.add_argument("--times", type=int, default=1, metavar="N", help="repeat N times")
p.add_argument("--shout", action="store_true", help="use upper case")
grp = p.add_mutually_exclusive_group()
grp.add_argument("--en", action="store_true")
grp.add_argument("--fr", action="store_true")
print(p.format_help())
p.parse_args(["--help"])
