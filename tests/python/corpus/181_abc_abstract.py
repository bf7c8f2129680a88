from abc import ABC, abstractmethod

class Storage(ABC):
    @abstractmethod
    def get(self, key): ...
    @abstractmethod
    def put(self, key, value): ...
    def get_or(self, key, default):
        try:
            return self.get(key)
        except KeyError:
            return default

class MemStorage(Storage):
    def __init__(self):
        self.d = {}
    def get(self, key):
        return self.d[key]
    def put(self, key, value):
        self.d[key] = value

class Broken(Storage):
    def get(self, key):
        return None

s = MemStorage()
s.put("a", 1)
print(s.get("a"), s.get_or("b", "none"), isinstance(s, Storage))
print(sorted(Broken.__abstractmethods__))
try:
    Broken()
except TypeError as e:
    print("TypeError mentions Broken:", "Broken" in str(e))
s.get("missing")
