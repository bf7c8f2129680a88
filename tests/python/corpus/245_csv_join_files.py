import csv

with open("users.csv", "w", newline="") as f:
    csv.writer(f).writerows([["uid", "name"], [1, "ann"], [2, "bob"], [3, "cy"]])
with open("orders.csv", "w", newline="") as f:
    csv.writer(f).writerows([["oid", "uid", "amount"], [10, 1, "9.99"], [11, 3, "20.00"],
                             [12, 1, "5.01"], [13, 4, "1.00"]])
with open("users.csv", newline="") as f:
    users = {r["uid"]: r["name"] for r in csv.DictReader(f)}
with open("orders.csv", newline="") as f, open("joined.csv", "w", newline="") as out:
    w = csv.writer(out)
    w.writerow(["oid", "name", "amount"])
    for r in csv.DictReader(f):
        w.writerow([r["oid"], users.get(r["uid"], "<unknown>"), r["amount"]])
print(open("joined.csv").read().replace("\r\n", "\n"), end="")
