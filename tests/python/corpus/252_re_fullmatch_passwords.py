import re

rules = [(r".{8,}", "at least 8 chars"), (r".*[A-Z].*", "an upper-case letter"),
         (r".*[a-z].*", "a lower-case letter"), (r".*\d.*", "a digit"),
         (r".*[^\w\s].*", "a symbol"), (r"(?!.*(.)\1\1).*", "no triple repeats")]
for pw in ["short", "alllowercase1!", "GoodPass123!", "Baaad111!!", "NoDigits!!"]:
    missing = [msg for pat, msg in rules if not re.fullmatch(pat, pw)]
    print(f"{pw:16} {'OK' if not missing else 'needs ' + ', '.join(missing)}")
