import re

dates = "Born 12/25/1990, married 07/04/2015, today 01/02/2024."
print(re.sub(r"(\d{2})/(\d{2})/(\d{4})", r"\3-\1-\2", dates))
print(re.sub(r"(?P<m>\d{2})/(?P<d>\d{2})/(?P<y>\d{4})", r"\g<d>.\g<m>.\g<y>", dates))
snake = ["camelCaseName", "HTTPServerError", "simple", "getHTTPResponseCode"]
for s in snake:
    s1 = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", s)
    print(s, "->", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s1).lower())
print(re.sub(r"_([a-z])", lambda m: m.group(1).upper(), "snake_case_to_camel"))
print(re.escape("a.b*c?"), re.sub(re.escape("1+1"), "2", "1+1=2? 1+1!"))
