import csv

sample = "a;b;c\n1;2;3\n4;5;6\n"
dialect = csv.Sniffer().sniff(sample)
print("delimiter:", repr(dialect.delimiter))
print("has header:", csv.Sniffer().has_header(sample))
rows = list(csv.reader(sample.splitlines(), dialect))
print(rows)
print(sum(int(r[1]) for r in rows[1:]))
