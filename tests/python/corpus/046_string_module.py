import string

print(string.ascii_lowercase)
print(string.digits, string.hexdigits, string.punctuation)
t = string.Template("$who likes ${what}s; cost $$5")
print(t.substitute(who="Tim", what="apple"))
print(t.safe_substitute(who="Ann"))
try:
    t.substitute(who="x")
except KeyError as e:
    print("missing", e)
print(string.capwords("hello   big world"))
fmt = string.Formatter()
print(list(fmt.parse("a{0}b{name:>4}")))
