import bisect
from dataclasses import dataclass

@dataclass
class Release:
    version: tuple
    name: str

releases = [Release((1, 0), "one"), Release((1, 4), "one-four"), Release((2, 0), "two"), Release((2, 5), "two-five")]
def latest_before(v):
    i = bisect.bisect_right(releases, v, key=lambda r: r.version)
    return releases[i - 1].name if i else None
for v in [(0, 9), (1, 0), (1, 9), (2, 5), (9, 9)]:
    print(v, latest_before(v))
bisect.insort(releases, Release((1, 7), "one-seven"), key=lambda r: r.version)
print([r.name for r in releases])
