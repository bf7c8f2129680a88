import csv

people = [
    {"name": "Ada", "lang": "python", "years": 5},
    {"name": "Linus", "lang": "c", "years": 30},
    {"name": "Grace", "lang": "cobol", "years": 40},
]
with open("people.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["name", "lang", "years"])
    w.writeheader()
    for p in sorted(people, key=lambda p: -p["years"]):
        w.writerow(p)
print(open("people.csv").read(), end="")
