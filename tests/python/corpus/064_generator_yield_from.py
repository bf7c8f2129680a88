def flatten(obj):
    if isinstance(obj, (list, tuple)):
        for x in obj:
            yield from flatten(x)
    else:
        yield obj

nested = [1, [2, [3, 4], (5,)], [], [[[6]]], "seven"]
print(list(flatten(nested)))

def chunks(seq, n):
    for i in range(0, len(seq), n):
        yield seq[i:i + n]

print(list(chunks(list(range(10)), 4)))
gen = (x * x for x in range(5))
print(sum(gen), sum(gen))
print(next(iter([]), "empty"))
