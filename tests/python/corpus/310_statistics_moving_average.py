import statistics
from collections import deque

prices = [10.0, 10.5, 11.2, 10.8, 12.5, 13.0, 12.1, 12.9, 14.2, 13.8]
window = deque(maxlen=3)
print(f"{'day':>3} {'price':>6} {'ma3':>7} {'signal':>6}")
prev_ma = None
for day, p in enumerate(prices, 1):
    window.append(p)
    ma = statistics.fmean(window) if len(window) == 3 else None
    signal = "" if ma is None or prev_ma is None else ("up" if ma > prev_ma else "down")
    print(f"{day:>3} {p:>6.2f} {'' if ma is None else f'{ma:7.3f}':>7} {signal:>6}")
    prev_ma = ma
print("volatility:", round(statistics.stdev(prices), 4))
