config = {"host": "localhost", "port": 8080}
for key in ("host", "port"):
    print(f"{key} = {config[key]}")
def get_timeout(cfg):
    return cfg["timeout"] * 2
print("timeout:", get_timeout(config))
