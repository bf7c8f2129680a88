import json
import os

defaults = {"db_host": "localhost", "db_port": 5432, "debug": False, "workers": 2}
with open("config.json", "w") as f:
    json.dump({"db_host": "db.internal", "workers": 8}, f)

def load_config():
    cfg = dict(defaults)
    with open("config.json") as f:
        cfg.update(json.load(f))
    for key, default in defaults.items():
        env = os.environ.get("MYAPP_" + key.upper())
        if env is not None:
            cfg[key] = type(default)(env) if not isinstance(default, bool) else env == "1"
    return cfg

print(load_config())
os.environ["MYAPP_DB_PORT"] = "6543"
os.environ["MYAPP_DEBUG"] = "1"
cfg = load_config()
print(json.dumps(cfg, sort_keys=True))
