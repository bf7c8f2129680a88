import json

class JsonMixin:
    def to_json(self):
        return json.dumps(self.__dict__, sort_keys=True)

class ReprMixin:
    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({fields})"

class Counted:
    count = 0
    def __init__(self):
        type(self).count += 1

class User(JsonMixin, ReprMixin, Counted):
    def __init__(self, name, admin=False):
        super().__init__()
        self.name, self.admin = name, admin

users = [User("ann"), User("root", admin=True)]
print(users)
print([u.to_json() for u in users], User.count, Counted.count)
