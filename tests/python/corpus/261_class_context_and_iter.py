class Reader:
    def __init__(self, path):
        self.path = path
        self.f = None
    def __enter__(self):
        self.f = open(self.path)
        return self
    def __exit__(self, *exc):
        self.f.close()
        print("closed", self.path)
    def __iter__(self):
        for line in self.f:
            line = line.strip()
            if line and not line.startswith("#"):
                yield line.split("=", 1)

with open("app.env", "w") as f:
    f.write("# comment\nA=1\n\nB=two=2\nC=\n")
with Reader("app.env") as r:
    env = dict(r)
print(env)
