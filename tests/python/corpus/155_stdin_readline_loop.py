import sys

stack = []
while True:
    line = sys.stdin.readline()
    if not line:
        break
    cmd, *arg = line.split()
    if cmd == "push":
        stack.append(int(arg[0]))
    elif cmd == "pop":
        print("popped", stack.pop())
    elif cmd == "add":
        stack.append(stack.pop() + stack.pop())
    elif cmd == "print":
        print("stack", stack)
    else:
        raise ValueError(f"unknown command {cmd!r}")
