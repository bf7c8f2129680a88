name = input("Name? ")
age = int(input("Age? "))
colors = []
while True:
    try:
        c = input("Color (blank to stop)? ")
    except EOFError:
        print("\n[eof]")
        break
    if not c:
        break
    colors.append(c)
print(f"\n{name} is {age}, likes {', '.join(colors) or 'nothing'}")
