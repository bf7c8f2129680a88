import os

mode = os.environ.get("APP_MODE", "development")
workers = int(os.environ.get("APP_WORKERS", "4"))
debug = os.environ.get("APP_DEBUG", "0") not in ("0", "", "false")
print(f"mode={mode} workers={workers} debug={debug}")
os.environ["APP_MODE"] = "test"
print(os.environ["APP_MODE"], os.getenv("APP_MODE"))
print("HOME set:", "HOME" in os.environ)
print(os.environ.get("SURELY_NOT_SET_12345") is None)
del os.environ["APP_MODE"]
print(os.getenv("APP_MODE", "gone"))
