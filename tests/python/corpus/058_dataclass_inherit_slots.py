from dataclasses import dataclass, KW_ONLY

@dataclass(slots=True)
class Base:
    id: int
    name: str = "?"

@dataclass(slots=True)
class Employee(Base):
    _: KW_ONLY
    salary: int = 0
    manager: "Employee | None" = None

boss = Employee(1, "Boss", salary=200)
e = Employee(2, "Worker", salary=100, manager=boss)
print(e)
print(e.manager.name, hasattr(e, "__dict__"))
try:
    Employee(3, "X", 50)
except TypeError as err:
    print("TypeError:", err)
