import bisect
import random

def grade(score, breakpoints=(60, 70, 80, 90), grades="FDCBA"):
    return grades[bisect.bisect(breakpoints, score)]
print([grade(s) for s in (33, 99, 77, 70, 89, 90, 100)])

random.seed(2020)
events = sorted(random.randint(0, 10 ** 6) for _ in range(50000))
queries = [(random.randint(0, 10 ** 6), random.randint(1, 20000)) for _ in range(30000)]
counts = []
for start, width in queries:
    lo = bisect.bisect_left(events, start)
    hi = bisect.bisect_right(events, start + width)
    counts.append(hi - lo)
print("query hits total:", sum(counts), "max:", max(counts), "zero-hit:", counts.count(0))

ranked = []
for _ in range(8000):
    bisect.insort(ranked, random.randint(0, 10 ** 5))
print("insort size:", len(ranked), "sorted:", ranked == sorted(ranked), "head:", ranked[:5])
rates = [(0, 0.0), (10000, 0.1), (40000, 0.2), (90000, 0.3), (180000, 0.4)]
thresholds = [t for t, _ in rates]
def tax(income):
    total = 0.0
    i = bisect.bisect_right(thresholds, income) - 1
    for k in range(i + 1):
        upper = thresholds[k + 1] if k + 1 < len(thresholds) else income
        total += (min(income, upper) - thresholds[k]) * rates[k][1]
    return round(total, 2)
for inc in (5000, 25000, 90000, 250000):
    print(f"tax({inc}) = {tax(inc)}")
print("bracket key lookup:", bisect.bisect_left(rates, 50000, key=lambda r: r[0]))
