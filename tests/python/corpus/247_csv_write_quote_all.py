import csv
import sys

rows = [("id", "note"), (1, "plain"), (2, "has, comma"), (3, "line\nbreak"), (4, 'q"uote')]
w = csv.writer(sys.stdout, quoting=csv.QUOTE_ALL, lineterminator="\n")
w.writerows(rows)
w2 = csv.writer(sys.stdout, delimiter="|", quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
w2.writerows(rows[1:3])
csv.register_dialect("semi", delimiter=";", quotechar="'", lineterminator="\n")
csv.writer(sys.stdout, dialect="semi").writerow(["a;b", "c'd", 3.5])
print(sorted(csv.list_dialects()))
