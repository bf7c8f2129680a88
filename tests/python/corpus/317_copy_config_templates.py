import copy
import json

template = {"name": "svc", "replicas": 1, "env": {"LOG": "info"}, "ports": [80]}
envs = {}
for env, overrides in [("dev", {"LOG": "debug"}), ("prod", {"LOG": "warn", "CACHE": "on"})]:
    cfg = copy.deepcopy(template)
    cfg["name"] = f"svc-{env}"
    cfg["env"].update(overrides)
    cfg["ports"].append(443 if env == "prod" else 8080)
    cfg["replicas"] = 3 if env == "prod" else 1
    envs[env] = cfg
print(json.dumps(envs, indent=1, sort_keys=True))
print(template)
bad = copy.copy(template)
bad["env"]["LOG"] = "oops"
print(template["env"])
