import configparser

text = """
[DEFAULT]
timeout = 30

[server]
host = example.org
port = 8080
debug = yes

[client]
retries = 3
"""
cp = configparser.ConfigParser()
cp.read_string(text)
print(cp.sections())
print(cp["server"]["host"], cp.getint("server", "port"), cp.getboolean("server", "debug"))
print(cp.getint("client", "timeout"), cp.get("client", "missing", fallback="n/a"))
cp["client"]["retries"] = "5"
with open("out.ini", "w") as f:
    cp.write(f)
print(open("out.ini").read().strip())
