from typing import Optional, Union, Dict, List, Tuple

def parse_pair(s: str, sep: str = "=") -> Optional[Tuple[str, str]]:
    if sep not in s:
        return None
    k, v = s.split(sep, 1)
    return k.strip(), v.strip()

def collect(lines: List[str]) -> Dict[str, Union[int, str]]:
    out: Dict[str, Union[int, str]] = {}
    for line in lines:
        pair = parse_pair(line)
        if pair is None:
            continue
        k, v = pair
        out[k] = int(v) if v.isdigit() else v
    return out

print(collect(["a = 1", "b=two", "junk", "c= 30 ", "d=x=y"]))
print(parse_pair.__annotations__["return"])
