import fnmatch

rules = [("*.internal.example.com", "deny"), ("api.*.example.com", "allow"),
         ("*.example.com", "allow"), ("10.0.?.*", "allow"), ("*", "deny")]
hosts = ["db.internal.example.com", "api.eu.example.com", "www.example.com",
         "10.0.3.7", "10.0.33.7", "evil.test"]
for h in hosts:
    for pat, verdict in rules:
        if fnmatch.fnmatchcase(h, pat):
            print(f"{h:26} {verdict:5} (matched {pat})")
            break
print(fnmatch.translate("10.0.?.*"))
