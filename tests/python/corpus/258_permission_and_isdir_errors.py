import os

os.mkdir("folder")
errors = []
for action in [lambda: open("folder"), lambda: os.listdir("nonexistent"),
               lambda: os.rmdir("nonexistent"), lambda: open("folder/missing/x", "w"),
               lambda: os.rename("nope", "also-nope")]:
    try:
        action()
    except OSError as e:
        errors.append((type(e).__name__, e.errno, e.filename))
for name, errno, fname in errors:
    print(f"{name:20} errno={errno:<3} file={fname}")
print(IsADirectoryError.__mro__[1].__name__, FileNotFoundError.__mro__[1].__name__)
