def classify(code: int) -> str:
    match code:
        case 200 | 201 | 204:
            return "success"
        case 301 | 302 as redirect:
            return f"redirect ({redirect})"
        case 404:
            return "not found"
        case c if 400 <= c < 500:
            return "client error"
        case c if 500 <= c < 600:
            return "server error"
        case _:
            return "unknown"

for c in [200, 204, 302, 404, 418, 503, 99]:
    print(c, classify(c))
