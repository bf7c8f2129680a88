def justify(words, width):
    lines, cur = [], []
    for w in words:
        if sum(map(len, cur)) + len(cur) + len(w) > width:
            lines.append(cur)
            cur = []
        cur.append(w)
    out = []
    for line in lines:
        gaps = len(line) - 1
        spaces = width - sum(map(len, line))
        if gaps == 0:
            out.append(line[0].ljust(width))
            continue
        q, r = divmod(spaces, gaps)
        out.append("".join(w + " " * (q + (i < r)) for i, w in enumerate(line[:-1])) + line[-1])
    out.append(" ".join(cur).ljust(width))
    return out

text = "This is an example of text justification where every line has exactly the same width."
for l in justify(text.split(), 20):
    print(f"|{l}|")
