REGISTRY = {}

def register(name):
    def deco(cls):
        REGISTRY[name] = cls
        cls.kind = name
        return cls
    return deco

@register("csv")
class CsvExporter:
    def export(self, rows):
        return "\n".join(",".join(map(str, r)) for r in rows)

@register("md")
class MarkdownExporter:
    def export(self, rows):
        return "\n".join("| " + " | ".join(map(str, r)) + " |" for r in rows)

rows = [("a", 1), ("b", 2)]
for name in sorted(REGISTRY):
    exp = REGISTRY[name]()
    print(f"--- {exp.kind}")
    print(exp.export(rows))
