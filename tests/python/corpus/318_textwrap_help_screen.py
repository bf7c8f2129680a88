import textwrap

commands = {
    "init": "Create a new empty repository in the current directory, with default settings.",
    "add": "Stage files for the next commit. Accepts glob patterns and directories.",
    "commit": "Record the staged changes with a message; opens an editor when -m is not given.",
    "x": "Short.",
}
width = 60
name_w = max(map(len, commands)) + 2
print("Commands:")
for name, desc in commands.items():
    wrapped = textwrap.wrap(desc, width - name_w - 2)
    print(f"  {name:<{name_w}}{wrapped[0]}")
    for line in wrapped[1:]:
        print(" " * (name_w + 2) + line)
