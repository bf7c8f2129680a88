import csv

rows = [["region", "product", "units", "price"],
        ["north", "widget", "10", "2.50"],
        ["south", "widget", "4", "2.50"],
        ["north", "gadget", "3", "10.00"],
        ["east", "gadget", "7", "9.75"]]
with open("sales.csv", "w", newline="") as f:
    csv.writer(f).writerows(rows)

totals = {}
with open("sales.csv", newline="") as f:
    for row in csv.DictReader(f):
        rev = int(row["units"]) * float(row["price"])
        totals[row["region"]] = totals.get(row["region"], 0) + rev
for region in sorted(totals):
    print(f"{region:<6}{totals[region]:>10.2f}")
print(f"{'total':<6}{sum(totals.values()):>10.2f}")
