import fnmatch

names = ["main.py", "test_main.py", "README.md", "setup.cfg", "Data.CSV", "notes.txt", "x.pyc"]
for pat in ["*.py", "test_*", "*.[ct]*", "[!a-m]*", "*.csv"]:
    print(f"{pat:10}", fnmatch.filter(names, pat))
print(fnmatch.fnmatchcase("Data.CSV", "*.csv"), fnmatch.fnmatch("data.csv", "*.csv"))
print(fnmatch.translate("*.py"))
