import os

defaults = """# app settings
HOST=0.0.0.0
PORT=8000
DEBUG=false
NAME="My App"
"""
with open(".env", "w") as f:
    f.write(defaults)
settings = {}
with open(".env") as f:
    for raw in f:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        k, v = line.split("=", 1)
        settings[k] = os.environ.get("APP_" + k, v.strip('"'))
port = int(settings["PORT"])
debug = settings["DEBUG"].lower() in {"1", "true", "yes"}
print(f"{settings['NAME']} on {settings['HOST']}:{port} debug={debug}")
print(sorted(settings))
