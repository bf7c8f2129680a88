import copy

def add_item_bad(item, bucket=[]):
    bucket.append(item)
    return bucket

def add_item_good(item, bucket=None):
    bucket = [] if bucket is None else bucket
    bucket.append(item)
    return bucket

print(add_item_bad(1), add_item_bad(2))
print(add_item_good(1), add_item_good(2))
grid = [[0] * 3] * 3
grid[0][0] = 1
print(grid)
grid = [[0] * 3 for _ in range(3)]
grid[0][0] = 1
print(grid)
snap = copy.deepcopy(grid)
grid[1][1] = 5
print(snap == grid, snap[1], grid[1])
