class AppError(Exception):
    pass

class ValidationError(AppError):
    def __init__(self, field, msg):
        super().__init__(f"{field}: {msg}")
        self.field = field

def validate(user):
    if not user.get("name"):
        raise ValidationError("name", "required")
    if user.get("age", 0) < 0:
        raise ValidationError("age", "must be >= 0")
    return True

for u in [{"name": "a", "age": 3}, {"age": 3}, {"name": "b", "age": -1}]:
    try:
        validate(u)
        print("valid", u)
    except AppError as e:
        print(type(e).__name__, e.field, str(e), e.args)
