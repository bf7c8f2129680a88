configs = [
    {"driver": "sqlite", "path": "app.db"},
    {"driver": "postgres", "host": "db", "port": 5432, "user": "app"},
    {"driver": "postgres", "host": "db"},
    {"driver": "mysql", "options": {"ssl": True}},
    {"path": "x"},
]
for cfg in configs:
    match cfg:
        case {"driver": "sqlite", "path": str(p)}:
            print("sqlite file", p)
        case {"driver": "postgres", "host": h, "port": int(port), **rest}:
            print(f"postgres {h}:{port} extra={rest}")
        case {"driver": "postgres", "host": h}:
            print(f"postgres {h}:5432 (default port)")
        case {"driver": d, "options": {"ssl": True}}:
            print(d, "with ssl")
        case {"driver": _}:
            print("unsupported driver")
        case _:
            print("no driver in", cfg)
