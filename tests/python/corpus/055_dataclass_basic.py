from dataclasses import dataclass, field, asdict, astuple, replace

@dataclass
class Task:
    title: str
    priority: int = 3
    tags: list = field(default_factory=list)
    done: bool = False

t1 = Task("write tests", 1, ["dev"])
t2 = Task("lunch")
print(t1)
print(t2)
print(asdict(t1))
print(astuple(t2))
t3 = replace(t1, done=True)
print(t3.done, t1.done, t1 == Task("write tests", 1, ["dev"]))
tasks = sorted([t1, t2, t3], key=lambda t: (t.priority, t.title))
print([t.title for t in tasks])
