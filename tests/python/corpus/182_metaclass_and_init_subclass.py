class PluginBase:
    plugins = []
    def __init_subclass__(cls, name=None, **kw):
        super().__init_subclass__(**kw)
        cls.plugin_name = name or cls.__name__.lower()
        PluginBase.plugins.append(cls)

class Json(PluginBase, name="json"):
    pass

class Yaml(PluginBase):
    pass

print([(p.__name__, p.plugin_name) for p in PluginBase.plugins])

class Upper(type):
    def __new__(mcls, name, bases, ns):
        ns = {k.upper() if not k.startswith("__") else k: v for k, v in ns.items()}
        return super().__new__(mcls, name, bases, ns)

class Consts(metaclass=Upper):
    pi = 3.14
    e = 2.72

print(Consts.PI, Consts.E, hasattr(Consts, "pi"), type(Consts).__name__)
Dyn = type("Dyn", (object,), {"greet": lambda self: "hi from Dyn"})
print(Dyn().greet(), Dyn.__name__)
