import base64

def basic_auth(user, pw):
    token = base64.b64encode(f"{user}:{pw}".encode()).decode("ascii")
    return f"Basic {token}"

def parse_auth(header):
    scheme, _, token = header.partition(" ")
    if scheme != "Basic":
        raise ValueError("unsupported scheme " + scheme)
    user, _, pw = base64.b64decode(token).decode().partition(":")
    return user, pw

h = basic_auth("aladdin", "open sesame")
print(h)
print(parse_auth(h))
print(parse_auth("Basic " + base64.b64encode("ünï:cødé".encode()).decode()))
parse_auth("Bearer abc")
