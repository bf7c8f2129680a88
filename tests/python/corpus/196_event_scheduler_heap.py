import heapq
from datetime import datetime, timedelta

base = datetime(2024, 1, 2, 8, 0)
events = []
counter = 0
def schedule(delay_min, name):
    global counter
    heapq.heappush(events, (base + timedelta(minutes=delay_min), counter, name))
    counter += 1

for d, n in [(30, "standup"), (5, "coffee"), (30, "email"), (240, "lunch"), (0, "arrive")]:
    schedule(d, n)
while events:
    when, _, name = heapq.heappop(events)
    print(when.strftime("%H:%M"), name)
