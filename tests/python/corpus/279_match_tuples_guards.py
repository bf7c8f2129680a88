def move(pos, cmd):
    x, y = pos
    match cmd:
        case ("up", n):
            return (x, y + n)
        case ("down", n):
            return (x, y - n)
        case ("left" | "right") as d, n if n > 0:
            return (x + (n if d == "right" else -n), y)
        case ("teleport", (tx, ty)):
            return (tx, ty)
        case _:
            raise ValueError(f"bad command {cmd!r}")

pos = (0, 0)
for c in [("up", 3), ("right", 2), ("down", 1), ("left", 5), ("teleport", (10, 10)), ("up", 1)]:
    pos = move(pos, c)
    print(c, "->", pos)
move(pos, ("left", -1))
