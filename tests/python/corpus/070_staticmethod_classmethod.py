class Date:
    def __init__(self, y, m, d):
        self.y, self.m, self.d = y, m, d

    @classmethod
    def parse(cls, s):
        return cls(*map(int, s.split("-")))

    @staticmethod
    def is_leap(y):
        return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)

    def __str__(self):
        return f"{self.y:04d}/{self.m:02d}/{self.d:02d}"

class Birthday(Date):
    def __str__(self):
        return "birthday " + super().__str__()

print(Date.parse("2024-2-9"), Birthday.parse("1990-12-31"))
print(type(Birthday.parse("2000-1-1")).__name__)
print([y for y in (1900, 2000, 2023, 2024) if Date.is_leap(y)])
