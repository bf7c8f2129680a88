import sys

def main(argv):
    if len(argv) < 2:
        print("usage: prog NAME", file=sys.stderr)
        return 2
    print("hello", argv[1])
    return 0

code = main(sys.argv)
print("exiting with", code)
sys.exit(code)
