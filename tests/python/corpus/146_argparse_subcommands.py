import argparse

p = argparse.ArgumentParser(prog="vcs")
sub = p.add_subparsers(dest="cmd", required=True)
c = sub.add_parser("commit")
c.add_argument("-m", "--message", required=True)
c.add_argument("--amend", action="store_true")
l = sub.add_parser("log")
l.add_argument("--limit", type=int, default=5)
for argv in (["commit", "-m", "fix bug"], ["log", "--limit", "2"], ["log"], ["commit", "--amend", "-m", "x"]):
    a = p.parse_args(argv)
    match a.cmd:
        case "commit":
            print(f"commit {a.message!r} amend={a.amend}")
        case "log":
            print(f"log limit={a.limit}")
