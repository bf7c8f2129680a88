def divide(a, b):
    try:
        result = a / b
    except ZeroDivisionError:
        print("  cannot divide by zero")
        return None
    except TypeError as e:
        print("  type problem:", e)
        return None
    else:
        print("  ok")
        return result
    finally:
        print("  finally for", a, b)

for args in [(6, 3), (1, 0), ("x", 2)]:
    print(divide(*args))
