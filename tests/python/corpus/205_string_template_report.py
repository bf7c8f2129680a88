from string import Template

tpl = Template("""Dear $name,
Your order #$order_id of ${count} item(s) ships on $date.
Total: $$$total
""")
orders = [
    {"name": "Ana", "order_id": 1001, "count": 2, "date": "2024-01-05", "total": "25.00"},
    {"name": "Bo", "order_id": 1002, "count": 1, "date": "2024-01-06", "total": "9.50"},
]
for o in orders:
    print(tpl.substitute(o))
print(Template("$a and $b").safe_substitute(a="A"))
print(Template("${x}y").substitute(x="X"), Template("x").template)
Template("$missing").substitute({})
