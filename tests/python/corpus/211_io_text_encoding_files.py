import io

with open("utf8.txt", "w", encoding="utf-8") as f:
    f.write("grüße\n")
with open("latin.txt", "w", encoding="latin-1") as f:
    f.write("grüße\n")
print(open("utf8.txt", "rb").read(), open("latin.txt", "rb").read())
print(open("latin.txt", encoding="latin-1").read().strip())
try:
    open("latin.txt", encoding="utf-8").read()
except UnicodeDecodeError as e:
    print("UnicodeDecodeError at", e.start)
print(open("latin.txt", encoding="utf-8", errors="replace").read().strip())
with open("crlf.txt", "w", newline="\r\n") as f:
    f.write("a\nb\n")
print(open("crlf.txt", "rb").read(), open("crlf.txt").read(), open("crlf.txt", newline="").read().encode())
