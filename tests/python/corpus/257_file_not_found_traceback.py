import os

print("files here:", sorted(f for f in os.listdir(".") if not f.endswith(".py")))
def read_config(path):
    with open(path) as f:
        return f.read()
try:
    read_config("settings.toml")
except FileNotFoundError as e:
    print("first attempt:", e.strerror, e.filename)
read_config("settings.toml")
