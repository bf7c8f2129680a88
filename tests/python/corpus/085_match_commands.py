def run(cmd):
    match cmd.split():
        case ["go", ("north" | "south" | "east" | "west") as d]:
            return f"moving {d}"
        case ["go", other]:
            return f"unknown direction {other}"
        case ["take", *items] if items:
            return "taking " + " and ".join(items)
        case ["quit" | "exit"]:
            return "bye"
        case []:
            return "nothing"
        case [verb, *_]:
            return f"unknown verb {verb}"

for c in ["go north", "go up", "take key lamp", "take", "exit", "", "dance wildly"]:
    print(f"{c!r:18} {run(c)}")
