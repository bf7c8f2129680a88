import string

class Upper(string.Formatter):
    def format_field(self, value, spec):
        if spec.endswith("u"):
            return format(str(value).upper(), spec[:-1])
        return super().format_field(value, spec)
    def get_value(self, key, args, kwargs):
        if isinstance(key, str) and key not in kwargs:
            return f"<{key}?>"
        return super().get_value(key, args, kwargs)

f = Upper()
print(f.format("Hello {name:u}! You have {n:03d} messages from {who}.", name="ann", n=7))
print(f.format("{0:>8u}|{1}", "right", "left"))
print(string.ascii_letters[20:30], string.octdigits, repr(string.whitespace))
print("{:{fill}{align}{width}}".format("x", fill="~", align="^", width=7))
