import csv
import io

buf = io.StringIO()
w = csv.writer(buf, quoting=csv.QUOTE_MINIMAL)
w.writerow(["plain", "with,comma", 'with "quote"', "multi\nline", ""])
w.writerow([1, 2.5, None, True])
text = buf.getvalue()
print(repr(text))
for row in csv.reader(io.StringIO(text)):
    print(len(row), row)
